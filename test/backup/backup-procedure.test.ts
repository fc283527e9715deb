// The docs' backup -> restore -> unpause procedure (7.6.5, 7.6.6) as the commits of
// examples/agent-lab-backup/procedure.ts: what each commit delivers, what it leaves to be applied
// by hand, how paused and how large the cluster is, and what `hcp-cdk plan` says each commit does.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ChangeEffect, PlanAction } from '../../lib';
import { agentLabAt, PROCEDURE, ProcedureStep } from '../../examples/agent-lab-backup/procedure';
import { exampleDelivery } from '../../examples/delivery';

const CLUSTER_FOLDER = 'hub/vcluster2';
const BACKUP_FILE = 'hub-backup/95-backup-openshift-adp_vcluster2-backup.yaml';
const RESTORE_FILE = 'hub-restore/96-restore-openshift-adp_vcluster2-restore.yaml';

/** The objects of a step's output, by file (kustomization.yaml left out). */
function objectsAt(step: ProcedureStep): Map<string, any> {
  const files = agentLabAt(step, { outdir: '/nonexistent' })
    .synthesize()
    .filter((f) => !f.path.endsWith('kustomization.yaml'));
  return new Map(files.map((f) => [f.path, YAML.parse(f.text)]));
}

const byKind = (objects: ReadonlyMap<string, any>, kind: string) => [...objects.values()].filter((o) => o.kind === kind);

describe('the backup -> restore -> unpause procedure, one commit per step (examples/agent-lab-backup/procedure.ts)', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  const steps = new Map(PROCEDURE.map((step) => [step, objectsAt(step)]));

  test.each<[ProcedureStep, string | undefined, number, string[]]>([
    [ProcedureStep.RUNNING, undefined, 2, []],
    [ProcedureStep.SCALED_DOWN, undefined, 0, []],
    [ProcedureStep.BACKUP, 'true', 0, [BACKUP_FILE]],
    [ProcedureStep.RESTORE, 'true', 0, [BACKUP_FILE, RESTORE_FILE]],
    [ProcedureStep.RESUMED, undefined, 2, []],
  ])('%s: the HostedCluster and NodePool are paused until %s, the pool has %d nodes, and %j are the files applied by hand', (step, pausedUntil, replicas, byHand) => {
    const objects = steps.get(step)!;
    const [cluster] = byKind(objects, 'HostedCluster');
    const [pool] = byKind(objects, 'NodePool');
    expect([cluster.spec.pausedUntil, pool.spec.pausedUntil]).toEqual([pausedUntil, pausedUntil]);
    // Unpausing is removing the field: no "false" in any step.
    expect('pausedUntil' in cluster.spec || 'pausedUntil' in pool.spec).toBe(pausedUntil !== undefined);
    expect(pool.spec.replicas).toBe(replicas);
    const handApplied = [...objects.keys()].filter((file) => !file.startsWith('hub/'));
    expect(handApplied).toEqual(byHand);
    // Everything else is delivered with the management cluster, the same at every step.
    expect([...objects.keys()].filter((file) => file.startsWith('hub/')).sort()).toEqual([...steps.get(ProcedureStep.RUNNING)!.keys()].sort());
  });

  test("the Backup is docs 7.6.5's of vcluster2, and the Restore restores that Backup (docs 7.6.6)", () => {
    const objects = steps.get(ProcedureStep.RESTORE)!;
    const backup = objects.get(BACKUP_FILE);
    expect(backup.spec.includedNamespaces).toEqual(['clusters', 'clusters-vcluster2']);
    expect(objects.get(RESTORE_FILE).spec.backupName).toBe(backup.metadata.name);
  });

  test('under Argo CD, every step delivers hub and its cluster and nothing of hub-backup or hub-restore', () => {
    const before = process.env.HCP_CDK_DELIVERY;
    process.env.HCP_CDK_DELIVERY = 'argocd';
    try {
      for (const step of PROCEDURE) {
        const files = agentLabAt(step, { outdir: '/nonexistent', delivery: exampleDelivery() }).synthesize();
        const sources = files
          .map((f) => YAML.parse(f.text))
          .filter((o) => o?.kind === 'Application')
          .map((o) => o.spec.source.path)
          .sort();
        expect([step, sources]).toEqual([step, ['dist/argocd/hub', 'dist/hub', 'dist/hub/hardware-inventory', `dist/${CLUSTER_FOLDER}`]]);
      }
    } finally {
      if (before === undefined) delete process.env.HCP_CDK_DELIVERY;
      else process.env.HCP_CDK_DELIVERY = before;
    }
  });

  describe('hcp-cdk plan between consecutive commits says what each does', () => {
    /** The plan of `step` against the output of the step before it, as [action, kind, file, effects]. */
    function planOf(step: ProcedureStep): [PlanAction, string, string, [ChangeEffect, string][]][] {
      const previous = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-procedure-'));
      try {
        agentLabAt(PROCEDURE[PROCEDURE.indexOf(step) - 1], { outdir: previous, keepLastGoodCopy: false }).synth();
        const plan = agentLabAt(step, { outdir: '/nonexistent' }).plan({ previous: { directory: previous } });
        return plan.objects.map((o) => [o.action, o.kind, o.file, o.effects.map((e) => [e.effect, e.summary] as [ChangeEffect, string])]);
      } finally {
        fs.rmSync(previous, { recursive: true, force: true });
      }
    }
    const POOL_FILE = `${CLUSTER_FOLDER}/60-nodepool-clusters_vcluster2.yaml`;
    const CLUSTER_FILE = `${CLUSTER_FOLDER}/50-hostedcluster-clusters_vcluster2.yaml`;
    const CREATED_BY_HAND = 'applied by hand only (oc apply -k of its folder): no GitOps engine applies it';
    const LEFT_BEHIND = 'no GitOps engine applied it, so none prunes it: leaving it out of the output deletes nothing from the cluster';

    test('scaled-down: the pool scales to 0, nothing else changes', () => {
      expect(planOf(ProcedureStep.SCALED_DOWN)).toEqual([[PlanAction.UPDATE, 'NodePool', POOL_FILE, [[ChangeEffect.SCALE, 'scales from 2 nodes to 0 nodes; no node is replaced']]]]);
    });

    test('backup: the cluster and pool stop reconciling, and the Backup is to be applied by hand, which starts it', () => {
      expect(planOf(ProcedureStep.BACKUP)).toEqual([
        [PlanAction.CREATE, 'Backup', BACKUP_FILE, [[ChangeEffect.CREATE, `${CREATED_BY_HAND}; applying it starts the backup`]]],
        [PlanAction.UPDATE, 'HostedCluster', CLUSTER_FILE, [[ChangeEffect.IN_PLACE_UPDATE, 'the control plane stops reconciling until pausedUntil is removed']]],
        [PlanAction.UPDATE, 'NodePool', POOL_FILE, [[ChangeEffect.IN_PLACE_UPDATE, 'the pool stops reconciling until pausedUntil is removed']]],
      ]);
    });

    test('restore: only the Restore, to be applied by hand, which starts the restore', () => {
      expect(planOf(ProcedureStep.RESTORE)).toEqual([[PlanAction.CREATE, 'Restore', RESTORE_FILE, [[ChangeEffect.CREATE, `${CREATED_BY_HAND}; applying it starts the restore over what runs`]]]]);
    });

    test('resumed: the cluster and pool reconcile again, the pool scales back, and dropping the Backup and Restore deletes nothing', () => {
      expect(planOf(ProcedureStep.RESUMED)).toEqual([
        [PlanAction.DELETE, 'Backup', BACKUP_FILE, [[ChangeEffect.REMOVE, LEFT_BEHIND]]],
        [PlanAction.DELETE, 'Restore', RESTORE_FILE, [[ChangeEffect.REMOVE, LEFT_BEHIND]]],
        [PlanAction.UPDATE, 'HostedCluster', CLUSTER_FILE, [[ChangeEffect.IN_PLACE_UPDATE, 'the control plane resumes reconciliation (pausedUntil removed)']]],
        [
          PlanAction.UPDATE,
          'NodePool',
          POOL_FILE,
          [
            [ChangeEffect.SCALE, 'scales from 0 nodes to 2 nodes; no node is replaced'],
            [ChangeEffect.IN_PLACE_UPDATE, 'the pool resumes reconciliation (pausedUntil removed)'],
          ],
        ],
      ]);
    });
  });

  test("fails when a step is not one of the procedure's", () => {
    expect(() => agentLabAt('done' as ProcedureStep)).toThrow('HCP_CDK_PROCEDURE_STEP ("done") must be one of running, scaled-down, backup, restore, resumed');
  });
});
