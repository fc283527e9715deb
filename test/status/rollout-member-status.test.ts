// What the advance decision reads of a live cluster (rolloutMemberStatus), over the corpus of status
// shapes: each shape's hand-written rollout phase says what the control plane or pool must be to the
// decision, and the decision's verdict on the cluster, against the release the shapes run at rest (4.17.3).
import { ControlPlaneRolloutState, decideRolloutAdvance, NodePoolRolloutState, RolloutMemberStatus, rolloutMemberStatus, RolloutMemberVerdict, RolloutRecord } from '../../lib';
import { AT } from './hypershift-objects';
import { HEALTHY_CLUSTER, HEALTHY_POOL, STATUS_CORPUS, StatusShape } from './status-corpus';

const ID = 'hub/clusters/c1';
const NOW = new Date('2026-05-01T12:00:00Z');

/** The member a shape makes, its other part at rest at 4.17.3. */
function memberOf(shape: StatusShape): RolloutMemberStatus {
  return shape.object.kind === 'HostedCluster' ? rolloutMemberStatus(ID, shape.object, [HEALTHY_POOL]) : rolloutMemberStatus(ID, HEALTHY_CLUSTER, [shape.object]);
}

/** The decision's verdict on a member of a released wave of a rollout to `target`. */
function verdictOn(member: RolloutMemberStatus, target = '4.17.3'): RolloutMemberVerdict {
  const record: RolloutRecord = {
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'ReleaseRollout',
    metadata: { name: 'r' },
    spec: {
      release: { image: `quay.io/openshift-release-dev/ocp-release:${target}-multi`, version: target },
      releasedWaves: 1,
      onFailure: 'Continue',
      waves: [{ name: 'canaries', clusters: [ID], releasedAt: '2026-05-01T11:00:00Z' }],
    },
  };
  return decideRolloutAdvance({ record, members: [member], now: NOW }).members[0];
}

/** What each rollout phase of the corpus is to the decision: the part's state, and the verdict. */
const BY_PHASE: Record<string, { controlPlane: ControlPlaneRolloutState; pool: NodePoolRolloutState; verdict: RolloutMemberVerdict['verdict'] }> = {
  'done': { controlPlane: ControlPlaneRolloutState.COMPLETED, pool: NodePoolRolloutState.READY, verdict: 'done' },
  'failed': { controlPlane: ControlPlaneRolloutState.FAILED, pool: NodePoolRolloutState.FAILED, verdict: 'failed' },
  'deleting': { controlPlane: ControlPlaneRolloutState.FAILED, pool: NodePoolRolloutState.ROLLING, verdict: 'failed' },
  'paused': { controlPlane: ControlPlaneRolloutState.PARTIAL, pool: NodePoolRolloutState.ROLLING, verdict: 'paused' },
  'installing': { controlPlane: ControlPlaneRolloutState.PARTIAL, pool: NodePoolRolloutState.ROLLING, verdict: 'upgrading' },
  'control-plane-progressing': { controlPlane: ControlPlaneRolloutState.PARTIAL, pool: NodePoolRolloutState.ROLLING, verdict: 'upgrading' },
  'pools-rolling': { controlPlane: ControlPlaneRolloutState.COMPLETED, pool: NodePoolRolloutState.ROLLING, verdict: 'upgrading' },
};

describe('rolloutMemberStatus over the corpus', () => {
  test.each(STATUS_CORPUS.map((shape) => [shape.name, shape] as const))('%s', (_name, shape) => {
    const expected = BY_PHASE[shape.rollout];
    const member = memberOf(shape);
    const cluster = shape.object.kind === 'HostedCluster';
    if (cluster) expect(member.controlPlane.state).toBe(expected.controlPlane);
    else expect(member.nodePools.map((p) => p.state)).toEqual([expected.pool]);
    // A failure's reason is the model's summary: what HyperShift reports, with the deciding condition.
    const reason = cluster ? member.controlPlane.reason : member.nodePools[0].reason;
    if (shape.rollout === 'failed') expect(reason).toContain(shape.says);
    else if (shape.rollout === 'deleting' && cluster) expect(reason).toContain('the HostedCluster is being deleted');
    else expect(reason).toBeUndefined();
    expect(member.pausedUntil !== undefined).toBe(shape.rollout === 'paused');
    expect(verdictOn(member).verdict).toBe(expected.verdict);
  });
});

describe('rolloutMemberStatus', () => {
  const shape = (name: string): any => STATUS_CORPUS.find((s) => s.name === name)!.object;

  test('an upgrade in progress is at the version it goes to, Partial, from when it started; one not taken yet at the one it runs', () => {
    expect(rolloutMemberStatus(ID, shape('hc: control plane upgrading (version operator has taken it)'), [HEALTHY_POOL]).controlPlane).toEqual({
      version: '4.17.5',
      state: ControlPlaneRolloutState.PARTIAL,
      startedAt: new Date(AT),
    });
    expect(rolloutMemberStatus(ID, shape('hc: upgrade not yet taken'), [HEALTHY_POOL]).controlPlane).toMatchObject({ version: '4.17.3', state: ControlPlaneRolloutState.PARTIAL });
    expect(verdictOn(rolloutMemberStatus(ID, shape('hc: control plane upgrading (version operator has taken it)'), [HEALTHY_POOL]), '4.17.5')).toEqual({
      cluster: ID,
      wave: 1,
      verdict: 'upgrading',
      reason: 'control plane updating to 4.17.5',
    });
  });

  test('a cluster its management cluster does not hold is not found', () => {
    expect(rolloutMemberStatus(ID, undefined, [])).toEqual({ cluster: ID, found: false, controlPlane: { state: ControlPlaneRolloutState.PARTIAL }, nodePools: [] });
  });

  test("spec.pausedUntil as HyperShift reads it (Go's ParseBool, else RFC 3339; anything else pauses nothing), the HostedCluster's first, then a pool's", () => {
    const pausedBy = (value: unknown, onPool = false): string | undefined => {
      const withPause = (object: any) => ({ ...object, spec: { ...object.spec, pausedUntil: value } });
      return (onPool ? rolloutMemberStatus(ID, HEALTHY_CLUSTER, [withPause(HEALTHY_POOL)]) : rolloutMemberStatus(ID, withPause(HEALTHY_CLUSTER), [HEALTHY_POOL])).pausedUntil;
    };
    expect(['true', 'True', 'TRUE', 't', '1'].map((v) => pausedBy(v))).toEqual(['true', 'true', 'true', 'true', 'true']);
    expect(['false', 'False', '0', 'soon', '2026-13-01T00:00:00Z', 3].map((v) => pausedBy(v))).toEqual([undefined, undefined, undefined, undefined, undefined, undefined]);
    expect(pausedBy('2026-06-01T00:00:00Z')).toBe('2026-06-01T00:00:00Z');
    expect(pausedBy('true', true)).toBe('true');
    // Paused by the condition alone (the spec no longer says so, HyperShift has not written it yet): its time, or for good.
    expect(rolloutMemberStatus(ID, shape('hc: reconciliation paused'), [HEALTHY_POOL]).pausedUntil).toBe('2026-12-01T00:00:00Z');
    expect(rolloutMemberStatus(ID, HEALTHY_CLUSTER, [shape('np: reconciliation paused')]).pausedUntil).toBe('true');
  });
});
