// hcp-cdk's model of HyperShift's status (lib/status) and what plan --live makes of it, over the corpus
// of status shapes (status-corpus.ts); the engines' checks run over the same corpus in
// test/gitops/health-checks.test.ts, plan --live against a real API server in test/server/plan-live.test.ts.
import { clusterRolloutStatus, EngineHealth, fluxStatusOf, hostedClusterStatus, nodePoolStatus, Plan, RolloutPhase, StatusState, statusToken } from '../../lib';
import { liveFindings, LiveObjectState } from '../../lib/plan/live/live-findings';
import * as fs from 'fs';
import * as path from 'path';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { ROOT } from '../util';
import { HEALTHY_CLUSTER, HEALTHY_POOL, STATUS_CORPUS, StatusShape } from './status-corpus';

const cases = STATUS_CORPUS.map((shape) => [shape.name, shape] as const);
const model = (object: any) => (object.kind === 'HostedCluster' ? hostedClusterStatus(object) : nodePoolStatus(object));

describe('the corpus', () => {
  test('holds at least 30 shapes with distinct names, each citing its upstream source, on the four platforms for both kinds', () => {
    expect(STATUS_CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(STATUS_CORPUS.map((s) => s.name)).size).toBe(STATUS_CORPUS.length);
    expect(STATUS_CORPUS.filter((s) => s.source.length < 20).map((s) => s.name)).toEqual([]);
    for (const kind of ['HostedCluster', 'NodePool']) {
      expect([...new Set(STATUS_CORPUS.filter((s) => s.object.kind === kind).map((s) => s.platform))].sort()).toEqual(['AWS', 'Agent', 'KubeVirt', 'None']);
    }
  });

  test('has the shapes issue 34 lists', () => {
    const names = STATUS_CORPUS.map((s) => s.name);
    const has = (part: string) => expect([part, names.some((n) => n.includes(part))]).toEqual([part, true]);
    for (const part of [
      'np: fixed size, Ready',
      'np: autoscaling, Ready',
      'autoscaling from zero refused',
      'first install, control plane Available',
      'released by tag, status by digest',
      'released by digest',
      'control plane upgrading',
      'upgrade not yet taken',
      'upgrade blocked, not Upgradeable',
      'release refused',
      'pull secret missing',
      'unsupported by the operator',
      'Degraded while Available',
      'refused by platform config',
      'skew reported by HyperShift',
      'rolling a new version',
      'rolling a new configuration',
      'cannot get machines',
      'deletion in progress',
    ]) {
      has(part);
    }
  });

  test("the guide's side-by-side table lists every shape with hcp-cdk's verdict, and a reason wherever argo-cd PR #28610's differs", () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'hypershift-status.md'), 'utf8');
    const rows = guide
      .split('\n')
      .filter((line) => /^\| (hc|np): /.test(line))
      .map((line) =>
        line
          .split('|')
          .slice(1, -1)
          .map((cell) => cell.trim()),
      );
    expect(rows.map(([name, platform, ours]) => [name, platform, ours])).toEqual(STATUS_CORPUS.map((s) => [s.name, s.platform, s.argoCd]));
    for (const [name, , ours, theirs, why] of rows) {
      expect([name, ['Healthy', 'Progressing', 'Degraded', 'Suspended'].includes(theirs), why !== '']).toEqual([name, true, ours !== theirs]);
    }
  });

  test('every status is valid against the CRD schemas (as HyperShift must write it to be stored)', () => {
    const validator = new ObjectValidator();
    const problems = STATUS_CORPUS.flatMap((s) =>
      validator
        .validate(s.object)
        .filter((p) => p.path.startsWith('status'))
        .map((p) => `${s.name}: ${p.path}: ${p.message}`),
    );
    expect(problems).toEqual([]);
  });
});

describe('hcp-cdk model over the corpus', () => {
  test.each(cases)('%s', (_, shape) => {
    const status = model(shape.object);
    expect(statusToken(status)).toBe(shape.model);
    expect(status.summary).toContain(shape.says);
    expect(status.health).toBe(shape.argoCd);
    expect(fluxStatusOf(status.health)).toBe(shape.flux);
  });
});

describe('the rollout phase over the corpus', () => {
  test.each(cases)('%s', (_, shape) => {
    const rollout = shape.object.kind === 'HostedCluster' ? clusterRolloutStatus(shape.object, [HEALTHY_POOL]) : clusterRolloutStatus(HEALTHY_CLUSTER, [shape.object]);
    expect(rollout.phase).toBe(shape.rollout);
  });

  test('the failing part decides before the progressing one, the control plane before the pools', () => {
    const shape = (name: string) => STATUS_CORPUS.find((s) => s.name === name)!.object;
    const upgrading = shape('hc: control plane upgrading (version operator has taken it)');
    const rolling = shape('np: rolling a new version');
    const refused = shape('np: refused by platform config');
    expect(clusterRolloutStatus(upgrading, [rolling]).phase).toBe(RolloutPhase.CONTROL_PLANE_PROGRESSING);
    const failed = clusterRolloutStatus(upgrading, [rolling, { ...refused, metadata: { ...refused.metadata, name: 'c1-gpu' } }]);
    expect([failed.phase, failed.decidedBy?.name, failed.decidedBy?.status.condition?.type]).toEqual([RolloutPhase.FAILED, 'c1-gpu', 'ValidPlatformConfig']);
    expect(failed.summary).toBe('failed: NodePool c1-gpu: HyperShift refuses the spec: ValidPlatformConfig is False (AWSError): capacityReservation is only supported on 4.19+ clusters');
    const done = clusterRolloutStatus(HEALTHY_CLUSTER, [HEALTHY_POOL]);
    expect([done.phase, done.summary, done.hostedCluster.versions.running, done.nodePools[0].status.versions.running]).toEqual([RolloutPhase.DONE, 'done', '4.17.3', '4.17.3']);
  });
});

describe('the versions each part runs', () => {
  const named = (name: string) => model(STATUS_CORPUS.find((s) => s.name === name)!.object);

  test('a control plane: its newest Completed entry, and where the version operator goes', () => {
    expect(named('hc: control plane upgrading (version operator has taken it)').versions).toEqual({
      running: '4.17.3',
      target: '4.17.5',
      specImage: 'quay.io/openshift-release-dev/ocp-release:4.17.5-multi',
    });
    expect(named('hc: first install, control plane Available, nodes booting').versions.running).toBeUndefined();
  });

  test("a pool: status.version, and UpdatingVersion's target while it rolls", () => {
    expect(named('np: rolling a new version').versions).toMatchObject({ running: '4.17.3', target: '4.17.5' });
    expect(named('np: fixed size, Ready').versions).toMatchObject({ running: '4.17.3', target: '4.17.3' });
  });

  test('the verdict names the condition that decided it, as HyperShift wrote it', () => {
    expect(named('hc: upgrade blocked, not Upgradeable')).toMatchObject({
      state: StatusState.BLOCKED,
      health: EngineHealth.DEGRADED,
      condition: { type: 'Progressing', status: 'False', reason: 'Blocked', message: 'ClusterVersionUpgradeable condition is false: cluster version is not upgradeable' },
    });
  });
});

/** plan --live's findings on `shape`'s object, the commit changing its cluster (a label) and not its release. */
function planLiveOn(shape: StatusShape): { finding: string; summary: string }[] {
  const object = shape.object;
  const { status: _, ...committed } = object;
  const file = `hub/clusters/${object.kind.toLowerCase()}-${object.metadata.name}.yaml`;
  const next = { ...committed, metadata: { ...committed.metadata, labels: { team: 'platform' } } };
  const plan = { objects: [{ file, action: 'update', effects: [{ effect: 'metadata-only', summary: '' }] }], summary: { clustersChanged: ['hub/clusters/c1'] } } as unknown as Plan;
  const state: LiveObjectState = {
    apiVersion: object.apiVersion,
    kind: object.kind,
    namespace: object.metadata.namespace,
    name: object.metadata.name,
    file,
    cluster: 'hub/clusters/c1',
    committed,
    next,
    served: true,
    live: object,
  };
  return liveFindings(plan, [state]).map((f) => ({ finding: f.finding, summary: f.summary }));
}

describe('plan --live over the corpus', () => {
  test.each(cases)('%s', (_, shape) => {
    const findings = planLiveOn(shape);
    expect(findings.map((f) => f.finding)).toEqual(shape.planLive.map((f) => f.finding));
    shape.planLive.forEach((expected, i) => expect(findings[i].summary).toContain(expected.says));
  });

  test('a first install is not described as an upgrade', () => {
    for (const shape of STATUS_CORPUS.filter((s) => s.model === 'progressing/installing')) {
      expect(planLiveOn(shape).filter((f) => /upgrad/.test(f.summary))).toEqual([]);
    }
  });
});
