// The decision half of live-gated advance: from what the released waves' clusters report, whether
// the next wave may be released, what the state file becomes, and the exit code a pipeline
// branches on. Inputs are written by hand, as the live reader will fill them.
import {
  ControlPlaneRolloutState,
  decideRolloutAdvance,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  NodePoolRolloutState,
  Release,
  ReleaseRollout,
  RolloutAdvanceInput,
  RolloutAdvanceOutcome,
  RolloutMemberStatus,
  RolloutRecord,
  RolloutRecordSpec,
  RolloutState,
  rolloutStateText,
  RolloutWave,
  SecretSource,
} from '../../lib';
import { PLATFORMS } from '../props';

const NOW = new Date('2026-05-01T12:00:00Z');
const minutesAgo = (n: number): Date => new Date(NOW.getTime() - n * 60_000);
const stamp = (time: Date): string => `${time.toISOString().slice(0, 19)}Z`;

/** Rollout r to 4.17.12: canaries c1 and c2, wave-2 c3 to c6, the rest c7 to c9. */
function record(spec: Partial<RolloutRecordSpec> = {}): RolloutRecord {
  const ids = (...n: number[]) => n.map((i) => `hub/clusters/c${i}`);
  return {
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'ReleaseRollout',
    metadata: { name: 'r' },
    spec: {
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.12-multi', version: '4.17.12' },
      releasedWaves: 1,
      onFailure: 'Continue',
      waves: [
        { name: 'canaries', clusters: ids(1, 2), releasedAt: stamp(minutesAgo(60)) },
        { name: 'wave-2', clusters: ids(3, 4, 5, 6) },
        { name: 'rest', clusters: ids(7, 8, 9) },
      ],
      ...spec,
    },
  };
}

/** A member done: control plane Completed at 4.17.12, two pools Ready at it. */
function done(n: number, version = '4.17.12'): RolloutMemberStatus {
  return {
    cluster: `hub/clusters/c${n}`,
    controlPlane: { version, state: ControlPlaneRolloutState.COMPLETED, startedAt: minutesAgo(55) },
    nodePools: [
      { name: `c${n}-a`, version, state: NodePoolRolloutState.READY },
      { name: `c${n}-b`, version, state: NodePoolRolloutState.READY },
    ],
  };
}

function with_(status: RolloutMemberStatus, change: Partial<RolloutMemberStatus>): RolloutMemberStatus {
  return { ...status, ...change };
}

function decide(input: Partial<RolloutAdvanceInput> & { members: RolloutMemberStatus[] }) {
  return decideRolloutAdvance({ record: record(), now: NOW, ...input });
}

describe('decideRolloutAdvance', () => {
  test('nothing released yet: release the canaries, recording when', () => {
    const decision = decide({ record: record({ releasedWaves: 0, waves: record().spec.waves.map((w) => ({ ...w, releasedAt: undefined })) }), members: [] });
    expect([decision.outcome, decision.exitCode]).toEqual([RolloutAdvanceOutcome.ADVANCE, 0]);
    expect(decision.state).toEqual({ releasedWaves: 1, waves: [{ wave: 'canaries', releasedAt: '2026-05-01T12:00:00Z' }] });
    expect(decision.summary).toBe('r: release wave 1 (canaries), 2 clusters');
  });

  test('the canaries done: release wave 2', () => {
    const decision = decide({ members: [done(1), done(2)] });
    expect([decision.outcome, decision.exitCode, decision.reasons]).toEqual([RolloutAdvanceOutcome.ADVANCE, 0, []]);
    expect(decision.members.map((m) => m.verdict)).toEqual(['done', 'done']);
    expect(decision.state).toEqual({
      releasedWaves: 2,
      waves: [
        { wave: 'canaries', releasedAt: '2026-05-01T11:00:00Z' },
        { wave: 'wave-2', releasedAt: '2026-05-01T12:00:00Z' },
      ],
    });
    expect(decision.summary).toBe('r: release wave 2 (wave-2), 4 clusters: 2 of the 2 clusters of the released waves run 4.17.12');
  });

  test('a wave still upgrading: wait, saying where each part is', () => {
    const upgrading = with_(done(1), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.PARTIAL } });
    const notStarted = with_(done(2), { controlPlane: { version: '4.16.20', state: ControlPlaneRolloutState.COMPLETED } });
    const decision = decide({ members: [upgrading, notStarted] });
    expect([decision.outcome, decision.exitCode, decision.state]).toEqual([RolloutAdvanceOutcome.WAIT, 2, undefined]);
    expect(decision.reasons).toEqual(['hub/clusters/c1 and hub/clusters/c2 of the released waves are still upgrading (control plane updating: 1, control plane not started: 1)']);
    const rolling = with_(done(1), { nodePools: [{ name: 'c1-a', version: '4.16.20', state: NodePoolRolloutState.ROLLING }, done(1).nodePools[1]] });
    expect(decide({ members: [rolling, done(2)] }).members[0]).toEqual({ cluster: 'hub/clusters/c1', wave: 1, verdict: 'upgrading', reason: 'pool c1-a rolling' });
    // A pool at the target but not Ready is not done either.
    const notReady = with_(done(1), { nodePools: [{ name: 'c1-a', version: '4.17.12', state: NodePoolRolloutState.ROLLING }] });
    expect(decide({ members: [notReady, done(2)] }).outcome).toBe(RolloutAdvanceOutcome.WAIT);
  });

  test('a failed canary under Continue: recorded with its reason, and the next wave goes', () => {
    const failed = with_(done(1), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.FAILED, reason: 'ClusterVersionFailing: Cluster operator network is degraded' } });
    const decision = decide({ members: [failed, done(2)] });
    expect([decision.outcome, decision.exitCode]).toEqual([RolloutAdvanceOutcome.ADVANCE, 0]);
    expect(decision.newFailures).toEqual([{ cluster: 'hub/clusters/c1', reason: 'control plane: ClusterVersionFailing: Cluster operator network is degraded' }]);
    expect(decision.state?.failedClusters).toEqual(decision.newFailures);
    expect(decision.state?.releasedWaves).toBe(2);
    expect(decision.summary).toBe('r: release wave 2 (wave-2), 4 clusters: 1 of the 2 clusters of the released waves run 4.17.12; 1 failure recorded (hub/clusters/c1)');
  });

  test('a failed canary under Stop: recorded, and blocked', () => {
    const failed = with_(done(1), { nodePools: [{ name: 'c1-a', version: '4.16.20', state: NodePoolRolloutState.FAILED, reason: 'ReachedIgnitionEndpoint: machines do not come up' }] });
    const decision = decide({ record: record({ onFailure: 'Stop' }), members: [failed, done(2)] });
    expect([decision.outcome, decision.exitCode]).toEqual([RolloutAdvanceOutcome.BLOCKED, 3]);
    expect(decision.reasons).toEqual(['1 cluster has failed and onFailure is Stop: take it out of failedClusters once it runs well again']);
    expect(decision.state).toEqual({
      releasedWaves: 1,
      waves: [{ wave: 'canaries', releasedAt: '2026-05-01T11:00:00Z' }],
      failedClusters: [{ cluster: 'hub/clusters/c1', reason: 'pool c1-a: ReachedIgnitionEndpoint: machines do not come up' }],
    });
    // Once recorded, the same failure blocks again without being recorded twice.
    const again = decide({ record: record({ onFailure: 'Stop', failedClusters: ['hub/clusters/c1'] }), members: [failed, done(2)] });
    expect([again.outcome, again.newFailures, again.state]).toEqual([RolloutAdvanceOutcome.BLOCKED, [], undefined]);
    expect(again.members[0]).toEqual({ cluster: 'hub/clusters/c1', wave: 1, verdict: 'failed-before', reason: 'listed as failed' });
  });

  test('the failure budget: a count, or a percentage of the released waves', () => {
    const failed = with_(done(1), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.FAILED, reason: 'x' } });
    expect(decide({ record: record({ maxFailedClusters: 0 }), members: [failed, done(2)] }).reasons).toEqual(['1 cluster has failed, over the 0 maxFailedClusters allows']);
    expect(decide({ record: record({ maxFailedClusters: 1 }), members: [failed, done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
    expect(decide({ record: record({ maxFailedPercent: 49 }), members: [failed, done(2)] }).reasons).toEqual([
      '1 of the 2 clusters of the released waves has failed, over the 49% maxFailedPercent allows',
    ]);
    expect(decide({ record: record({ maxFailedPercent: 50 }), members: [failed, done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
  });

  test('a paused member holds the next wave: indefinitely blocks, until a time waits, a time past counts as not paused; onPaused Continue goes on', () => {
    expect(decide({ members: [with_(done(1), { pausedUntil: 'true' }), done(2)] })).toMatchObject({
      outcome: RolloutAdvanceOutcome.BLOCKED,
      reasons: ['hub/clusters/c1 of wave 1 is paused indefinitely; unpause it, or set onPaused to Continue'],
    });
    expect(decide({ members: [with_(done(1), { pausedUntil: '2026-05-02T00:00:00Z' }), done(2)] })).toMatchObject({
      outcome: RolloutAdvanceOutcome.WAIT,
      reasons: ['hub/clusters/c1 of wave 1 is paused until 2026-05-02T00:00:00Z; unpause it, or set onPaused to Continue'],
    });
    expect(decide({ members: [with_(done(1), { pausedUntil: '2026-05-01T00:00:00Z' }), done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
    expect(decide({ record: record({ onPaused: 'Continue' }), members: [with_(done(1), { pausedUntil: 'true' }), done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
  });

  test('a wave past its timeout: unfinished members time out, recorded with why; under Continue the next wave goes, under Stop it is blocked', () => {
    const waves = record().spec.waves.map((w, i) => (i === 0 ? { ...w, releasedAt: stamp(minutesAgo(241)) } : w));
    const slow = with_(done(1), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.PARTIAL, startedAt: minutesAgo(230) } });
    const decision = decide({ record: record({ waves }), members: [slow, done(2)] });
    expect([decision.outcome, decision.newFailures]).toEqual([
      RolloutAdvanceOutcome.ADVANCE,
      [{ cluster: 'hub/clusters/c1', reason: 'control plane updating to 4.17.12 240 minutes after wave 1 (canaries) started (waveTimeoutMinutes 240)', timedOut: true }],
    ]);
    expect(decide({ record: record({ waves, onFailure: 'Stop' }), members: [slow, done(2)] }).outcome).toBe(RolloutAdvanceOutcome.BLOCKED);
    // Within the timeout: wait.
    expect(decide({ record: record({ waves, waveTimeoutMinutes: 300 }), members: [slow, done(2)] }).outcome).toBe(RolloutAdvanceOutcome.WAIT);
    // Without a release time (a wave released by hand), from its first member's start.
    const unknown = record().spec.waves.map((w) => ({ ...w, releasedAt: undefined }));
    const early = with_(done(2), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.COMPLETED, startedAt: minutesAgo(250) } });
    expect(decide({ record: record({ waves: unknown }), members: [slow, early] }).newFailures.map((f) => f.timedOut)).toEqual([true]);
    // A member not on its management cluster waits, then times out.
    expect(decide({ members: [done(2)] }).reasons).toEqual(['hub/clusters/c1 of the released waves is still upgrading (not on their management cluster yet: 1)']);
    expect(decide({ record: record({ waves }), members: [done(2)] }).newFailures[0].reason).toBe(
      'not on its management cluster yet 240 minutes after wave 1 (canaries) started (waveTimeoutMinutes 240)',
    );
  });

  test('a wave that holds its pools: blocked once its control planes are done, until the hold is dropped', () => {
    const waves = record().spec.waves.map((w, i) => (i === 0 ? { ...w, holdNodePools: true } : w));
    const held = (n: number) => with_(done(n), { nodePools: done(n, '4.16.20').nodePools });
    const decision = decide({ record: record({ waves }), members: [held(1), held(2)] });
    expect([decision.outcome, decision.reasons]).toEqual([
      RolloutAdvanceOutcome.BLOCKED,
      ['wave 1 (canaries) holds its pools on the release before and its control planes are done: drop holdNodePools in the next commit to move the pools'],
    ]);
    expect(decide({ record: record({ waves }), members: [done(1), done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
  });

  test('every wave released and done: complete, exit 4', () => {
    const all = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => done(n));
    const decision = decide({ record: record({ releasedWaves: 3 }), members: all });
    expect([decision.outcome, decision.exitCode, decision.state, decision.summary]).toEqual([RolloutAdvanceOutcome.COMPLETE, 4, undefined, 'r: complete: every wave runs 4.17.12']);
  });

  test('a state file ahead of the committed output, or a rollout it waits for not complete: wait', () => {
    expect(decide({ state: { releasedWaves: 2 }, members: [done(1), done(2)] })).toMatchObject({
      outcome: RolloutAdvanceOutcome.WAIT,
      reasons: ['the state file releases 2 waves and the committed output 1: synthesize, review and merge the state first'],
    });
    expect(decide({ waitsFor: [{ rollout: 'staging', complete: false }], members: [done(1), done(2)] }).reasons).toEqual(['rollout staging, which this one waits for (after), is not complete']);
    expect(decide({ waitsFor: [{ rollout: 'staging', complete: true }], members: [done(1), done(2)] }).outcome).toBe(RolloutAdvanceOutcome.ADVANCE);
  });

  test('the state it writes is read back by the rollout: the next synth releases the next wave and records the failure', () => {
    const failed = with_(done(1), { controlPlane: { version: '4.17.12', state: ControlPlaneRolloutState.FAILED, reason: 'ClusterVersionFailing: degraded' } });
    const decision = decide({ members: [failed, done(2)] });
    const state = RolloutState.fromText(rolloutStateText('r', decision.state!), 'rollouts/r.state.yaml');
    expect(state.problems).toEqual([]);
    const app = new HcpApp({ outdir: '/nonexistent' });
    const rollout = new ReleaseRollout(app, 'r', {
      release: Release.fromVersion('4.17.12'),
      waves: [RolloutWave.canaries(['c1', 'c2']), RolloutWave.batch(4), RolloutWave.rest()],
      state,
    });
    const hub = new ManagementCluster(app, 'hub');
    for (let n = 1; n <= 9; n++)
      new HostedCluster(hub, `c${n}`, { release: Release.fromVersion('4.16.20'), pullSecret: SecretSource.fromExistingSecret('pull-secret'), ...PLATFORMS.kubevirt(), rollout });
    const spec = rollout.record().spec;
    expect([spec.releasedWaves, spec.failedClusters, spec.failureReasons, spec.waves.map((w) => w.releasedAt)]).toEqual([
      2,
      ['hub/clusters/c1'],
      { 'hub/clusters/c1': 'control plane: ClusterVersionFailing: degraded' },
      ['2026-05-01T11:00:00Z', '2026-05-01T12:00:00Z', undefined],
    ]);
  });
});
