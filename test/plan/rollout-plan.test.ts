// What hcp-cdk plan says of a release rollout: the wave a commit moves, the clusters it moves and
// those left, in every form, and the commits the rollout refuses, read from two outputs alone.
import Ajv2020 from 'ajv/dist/2020';
import {
  ChangeEffect,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  OutputSnapshot,
  Plan,
  PLAN_JSON_SCHEMA,
  planChanges,
  planMarkdown,
  planText,
  PausedUntil,
  Release,
  ReleaseRollout,
  ReleaseRolloutProps,
  RolloutState,
  RolloutWave,
  SecretSource,
} from '../../lib';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { PLATFORMS } from '../props';

const validator = new ObjectValidator();
const validatePlanJson = new Ajv2020({ strict: true, allErrors: true }).compile(PLAN_JSON_SCHEMA);
const TARGET = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';

/**
 * Rollout r over four KubeVirt clusters on hub (canary c1, ring-1 c2 and c3 by label, the rest c4);
 * with `first`, r waits for rollout first over cluster z1, which releases that many waves.
 */
function output(props: Partial<ReleaseRolloutProps> = {}, first?: number, paused: readonly string[] = []): OutputSnapshot {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const hub = new ManagementCluster(app, 'hub');
  const cluster = (name: string, rollout: ReleaseRollout, labels: Record<string, string> = {}) => {
    new HostedCluster(hub, name, {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      ...PLATFORMS.kubevirt(),
      labels,
      rollout,
      pausedUntil: paused.includes(name) ? PausedUntil.until('2099-01-01T00:00:00Z') : undefined,
    }).addNodePool('workers', { replicas: 2 });
  };
  const after = first === undefined ? [] : [new ReleaseRollout(app, 'first', { release: Release.fromVersion('4.17.3'), waves: [RolloutWave.rest()], releasedWaves: first })];
  if (after.length > 0) cluster('z1', after[0]);
  const rollout = new ReleaseRollout(app, 'r', {
    release: Release.fromVersion('4.17.3'),
    waves: [RolloutWave.canaries(['c1']), RolloutWave.labels({ ring: '1' }, { name: 'ring-1' }), RolloutWave.rest()],
    after,
    ...props,
  });
  cluster('c1', rollout);
  cluster('c2', rollout, { ring: '1' });
  cluster('c3', rollout, { ring: '1' });
  cluster('c4', rollout);
  return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
}

function plan(before: OutputSnapshot, after: OutputSnapshot): Plan {
  const result = planChanges(before, after, { validator });
  expect(validatePlanJson(JSON.parse(JSON.stringify(result)))).toBe(true);
  return result;
}

describe('plan of a release rollout', () => {
  test('names the rollout, the wave, the clusters it moves and those left, field by field', () => {
    const result = plan(output({ releasedWaves: 1 }), output({ releasedWaves: 2 }));
    expect(result.rollouts).toEqual([
      {
        name: 'r',
        release: { image: TARGET, version: '4.17.3' },
        waves: 3,
        releasedWaves: 2,
        moves: [{ wave: 2, name: 'ring-1', clusters: ['hub/clusters/c2', 'hub/clusters/c3'] }],
        left: [{ wave: 3, name: 'rest', clusters: ['hub/clusters/c4'] }],
        summary: 'wave 2 of 3 (ring-1) moves 2 clusters: hub/clusters/c2, hub/clusters/c3; 1 left in wave 3 (rest)',
      },
    ]);
    expect(result.summary.clustersChanged).toEqual(['hub/clusters/c2', 'hub/clusters/c3']);
    expect(result.objects.map((o) => [o.kind, o.name, o.effects.map((e) => e.effect)])).toEqual([
      ['HostedCluster', 'c2', [ChangeEffect.CONTROL_PLANE_UPGRADE]],
      ['NodePool', 'c2-workers', [ChangeEffect.NODE_POOL_ROLLOUT]],
      ['HostedCluster', 'c3', [ChangeEffect.CONTROL_PLANE_UPGRADE]],
      ['NodePool', 'c3-workers', [ChangeEffect.NODE_POOL_ROLLOUT]],
    ]);
  });

  test('the record is no object of the plan: a rollout declared with nothing released changes no cluster', () => {
    const result = plan(output({ releasedWaves: 0 }), output({ releasedWaves: 0 }));
    expect(result.objects).toEqual([]);
    expect(result.summary.unchanged).toBe(9);
    expect(result.rollouts![0].summary).toBe('no wave moves (0 of 3 released); 4 left: 1 in wave 1 (canaries), 2 in wave 2 (ring-1), 1 in wave 3 (rest)');
  });

  test('text and markdown: the rollout line after the counts, and what it refuses', () => {
    const moved = plan(output({ releasedWaves: 0 }), output({ releasedWaves: 1 }));
    const line = 'rollout r (4.17.3): wave 1 of 3 (canaries) moves 1 cluster: hub/clusters/c1; 3 left: 2 in wave 2 (ring-1), 1 in wave 3 (rest)';
    expect(planText(moved).split('\n').slice(3, 6)).toEqual(['0 to create, 2 to update, 0 to delete, 7 unchanged', 'effects: 1 control-plane-upgrade, 1 node-pool-rollout', line]);
    expect(planMarkdown(moved)).toContain(`\n> **${line}**\n`);
    const refused = plan(output({ releasedWaves: 0 }), output({ releasedWaves: 2 }));
    expect(
      planText(refused)
        .split('\n')
        .filter((l) => l.startsWith('refused: rollout r')),
    ).toEqual([
      'refused: rollout r: releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time',
      'refused: rollout r: releasedWaves (2): wave 2 (ring-1) moves while wave 1 (canaries) is not on the target release in the previous output (hub/clusters/c1 (control plane and pool c1-workers)); ' +
        'move wave 2 (ring-1) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
    expect(planMarkdown(refused)).toContain('\n>\n> **refused**: releasedWaves (2): 2 waves move in one commit');
  });

  test('the failed, timed-out, held and paused clusters, with why, in every form', () => {
    const state = RolloutState.of('r', {
      releasedWaves: 2,
      failedClusters: [
        { cluster: 'hub/clusters/c2', reason: 'control plane: ClusterVersionFailing: the network operator is degraded' },
        { cluster: 'c3', reason: 'still upgrading 240 minutes after wave 2 was released', timedOut: true },
      ],
    });
    const waves = [RolloutWave.canaries(['c1'], { holdNodePools: true }), RolloutWave.labels({ ring: '1' }, { name: 'ring-1' }), RolloutWave.rest()];
    const result = plan(output({ waves, releasedWaves: 1 }, undefined, ['c1']), output({ waves, state }, undefined, ['c1']));
    const rollout = result.rollouts![0];
    expect([rollout.failed, rollout.timedOut, rollout.held, rollout.paused]).toEqual([
      [{ cluster: 'hub/clusters/c2', wave: 2, reason: 'control plane: ClusterVersionFailing: the network operator is degraded' }],
      [{ cluster: 'hub/clusters/c3', wave: 2, reason: 'still upgrading 240 minutes after wave 2 was released' }],
      [{ cluster: 'hub/clusters/c1', wave: 1, reason: 'pools c1-workers held on the release before' }],
      [{ cluster: 'hub/clusters/c1', wave: 1, reason: 'control plane paused until 2099-01-01T00:00:00Z' }],
    ]);
    const text = planText(result).split('\n');
    const at = text.findIndex((l) => l.startsWith('rollout r '));
    expect(text.slice(at + 1, at + 5)).toEqual([
      '  failed: hub/clusters/c2 (wave 2): control plane: ClusterVersionFailing: the network operator is degraded',
      '  timed out: hub/clusters/c3 (wave 2): still upgrading 240 minutes after wave 2 was released',
      '  held: hub/clusters/c1 (wave 1): pools c1-workers held on the release before',
      '  paused: hub/clusters/c1 (wave 1): control plane paused until 2099-01-01T00:00:00Z',
    ]);
    expect(text[at + 5]).toMatch(/^refused: rollout r: releasedWaves \(2\): wave 2 \(ring-1\) moves while wave 1 \(canaries\) is not on the target release/);
    expect(planMarkdown(result)).toContain('\n>\n> - paused: hub/clusters/c1 (wave 1): control plane paused until 2099-01-01T00:00:00Z\n');
  });

  test('a commit that moves two waves is refused on every object it moves, so that plan exits 1', () => {
    const result = plan(output({ releasedWaves: 0 }), output({ releasedWaves: 2 }));
    expect(result.rollouts![0].refusals).toEqual([
      'releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time',
      'releasedWaves (2): wave 2 (ring-1) moves while wave 1 (canaries) is not on the target release in the previous output (hub/clusters/c1 (control plane and pool c1-workers)); ' +
        'move wave 2 (ring-1) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
    expect(result.summary.effects[ChangeEffect.REFUSED]).toBe(6);
    const hostedCluster = result.objects.find((o) => o.name === 'c1')!;
    expect(hostedCluster.effects[0]).toEqual({
      effect: ChangeEffect.REFUSED,
      summary: 'rollout r refuses it: releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time (and 1 more)',
      details: { problems: result.rollouts![0].refusals!.map((r) => `rollout r refuses it: ${r}`) },
    });
    expect(hostedCluster.effects[1].effect).toBe(ChangeEffect.CONTROL_PLANE_UPGRADE);
  });

  test('a rollout that starts before the one it waits for is complete is refused', () => {
    const withFirst = (firstReleased: number, released: number) => output({ releasedWaves: released }, firstReleased);
    const early = plan(withFirst(0, 0), withFirst(1, 1));
    expect(early.rollouts!.map((r) => [r.name, r.refusals])).toEqual([
      ['first', undefined],
      [
        'r',
        [
          'releasedWaves (1): wave 1 (canaries) moves while rollout first, which this one waits for (after), is not complete in the previous output ' +
            '(hub/clusters/z1 (control plane and pool z1-workers) not on its release); move it once every cluster of first runs 4.17.3',
        ],
      ],
    ]);
    expect(plan(withFirst(1, 0), withFirst(1, 1)).rollouts!.map((r) => r.refusals)).toEqual([undefined, undefined]);
  });

  test('the JSON Schema takes a rollout as plan writes it, and no other shape', () => {
    const json = JSON.parse(JSON.stringify(plan(output({ releasedWaves: 0 }), output({ releasedWaves: 1 }))));
    const rollout = json.rollouts[0];
    const withRollout = (changed: unknown) => ({ ...json, rollouts: [changed] });
    expect(validatePlanJson(withRollout(rollout))).toBe(true);
    expect(validatePlanJson(withRollout({ ...rollout, refusals: ['releasedWaves (2): …'], failedClusters: ['hub/clusters/c1'] }))).toBe(true);
    expect(validatePlanJson(withRollout({ ...rollout, moves: [{ wave: 0, name: 'canaries', clusters: [] }] }))).toBe(false);
    expect(validatePlanJson(withRollout({ ...rollout, left: [{ wave: 2, name: 'ring-1', clusters: ['c2'] }] }))).toBe(false);
    expect(validatePlanJson(withRollout({ ...rollout, refusals: [] }))).toBe(false);
    expect(validatePlanJson(withRollout({ ...rollout, progress: 'half' }))).toBe(false);
    const { summary, ...withoutSummary } = rollout;
    expect(summary).toMatch(/^wave 1 of 3/);
    expect(validatePlanJson(withRollout(withoutSummary))).toBe(false);
  });

  test('a record that is not as hcp-cdk writes it makes the output no hcp-cdk output: an error, not a plan', () => {
    const after = output({ releasedWaves: 1 });
    const files = new Map([...after.files.values()].map((f) => [f.path, f.bytes]));
    files.set('rollouts/40-releaserollout-r.yaml', Buffer.from('apiVersion: hcp-cdk.io/v1alpha1\nkind: ReleaseRollout\nmetadata:\n  name: r\nspec:\n  waves: 3\n'));
    expect(() => planChanges(output(), OutputSnapshot.fromFiles('edited', files), { validator })).toThrow(
      "edited: rollouts/40-releaserollout-r.yaml is not a release rollout's record as hcp-cdk writes it (spec.release.image, spec.releasedWaves and spec.waves, each with a name and clusters); synthesize again",
    );
  });
});
