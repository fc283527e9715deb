import { isRfc3339 } from '../core/formats';
import { ControlPlaneRolloutState, NodePoolRolloutState, RolloutMemberStatus } from '../release/rollout-advance';
import { hostedClusterStatus } from './hosted-cluster-status';
import { HostedClusterCondition } from './hypershift-conditions';
import { nodePoolStatus } from './node-pool-status';
import { findCondition, nonEmpty } from './object-conditions';
import { HyperShiftStatus, StatusState } from './status-report';

/** The model's states that stop a rollout: HyperShift refuses the spec, blocks the update, or reports the part degraded at rest. */
const FAILED_STATES: readonly StatusState[] = [StatusState.REFUSED, StatusState.BLOCKED, StatusState.DEGRADED];

/**
 * A member of a release rollout as the advance decision reads it (RolloutMemberStatus), from its
 * live HostedCluster and NodePools through hcp-cdk's model of their status (hostedClusterStatus,
 * nodePoolStatus), so that the rollout judges a cluster as the Argo CD and Flux health checks and
 * `plan --live` do:
 *
 * - the control plane: failed when the model says refused, blocked or degraded (its summary, with
 *   HyperShift's condition, is the reason) or deleting; Completed when healthy, at the newest
 *   Completed entry of `status.version.history`; otherwise Partial, at the version of the newest
 *   entry when that one is Partial (the update in progress), else at the one it runs (an update not
 *   taken yet, a spec not reconciled, a control plane not Available);
 * - each pool: failed when refused or degraded, Ready when healthy, Rolling otherwise, at its
 *   `status.version`;
 * - paused: `spec.pausedUntil` of the HostedCluster or a pool as HyperShift reads it
 *   (ProcessPausedUntilField, support/util/pausereconcile.go at 3ee9615567: a true of Go's
 *   ParseBool, or an RFC 3339 time; anything else is not a pause), else, when the model says paused
 *   but the spec no longer does, the ReconciliationActive condition's own words.
 * @param cluster the member as the rollout's record names it, `<management folder>/<namespace>/<name>`
 * @param hostedCluster the live HostedCluster, or undefined when the management cluster holds none
 * @param nodePools the live NodePools of that HostedCluster (`spec.clusterName`)
 */
export function rolloutMemberStatus(cluster: string, hostedCluster: any, nodePools: readonly any[]): RolloutMemberStatus {
  if (hostedCluster === undefined || hostedCluster === null) return { cluster, found: false, controlPlane: { state: ControlPlaneRolloutState.PARTIAL }, nodePools: [] };
  const status = hostedClusterStatus(hostedCluster);
  const pools = nodePools.map((pool) => ({ pool, status: nodePoolStatus(pool) }));
  const pausedUntil =
    [hostedCluster, ...nodePools].map((object) => pausedUntilOf(object?.spec?.pausedUntil)).find((value) => value !== undefined) ??
    pausedByCondition([status, ...pools.map((p) => p.status)], [hostedCluster, ...nodePools]);
  return {
    cluster,
    controlPlane: controlPlaneOf(hostedCluster, status),
    nodePools: pools.map(({ pool, status: poolStatus }) => {
      const version = nonEmpty(pool?.status?.version);
      const failed = FAILED_STATES.includes(poolStatus.state);
      return {
        name: String(pool?.metadata?.name ?? ''),
        ...(version ? { version } : {}),
        state: failed ? NodePoolRolloutState.FAILED : poolStatus.state === StatusState.HEALTHY ? NodePoolRolloutState.READY : NodePoolRolloutState.ROLLING,
        ...(failed ? { reason: poolStatus.summary } : {}),
      };
    }),
    ...(pausedUntil !== undefined ? { pausedUntil } : {}),
  };
}

/** The control plane's part: its state by the model, the version of the newest history entry that decides it, and when that entry started. */
function controlPlaneOf(hostedCluster: any, status: HyperShiftStatus): RolloutMemberStatus['controlPlane'] {
  const history: any[] = Array.isArray(hostedCluster?.status?.version?.history) ? hostedCluster.status.version.history : [];
  const newest = history[0];
  const started = typeof newest?.startedTime === 'string' ? new Date(newest.startedTime) : undefined;
  const startedAt = started && !Number.isNaN(started.getTime()) ? { startedAt: started } : {};
  const inProgress = newest?.state === 'Partial' ? nonEmpty(newest?.version) : undefined;
  const version = inProgress ?? status.versions.running;
  const at = version ? { version } : {};
  if (FAILED_STATES.includes(status.state)) return { ...at, state: ControlPlaneRolloutState.FAILED, reason: status.summary, ...startedAt };
  if (status.state === StatusState.DELETING) return { ...at, state: ControlPlaneRolloutState.FAILED, reason: `the HostedCluster is being deleted (${status.summary})`, ...startedAt };
  if (status.state === StatusState.HEALTHY) return { ...at, state: ControlPlaneRolloutState.COMPLETED, ...startedAt };
  return { ...at, state: ControlPlaneRolloutState.PARTIAL, ...startedAt };
}

/** Go's strconv.ParseBool: the spellings of true and of false. */
const GO_TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const GO_FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** `spec.pausedUntil` as HyperShift reads it: `true`, the time, or undefined when it pauses nothing. */
function pausedUntilOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (GO_TRUE.includes(value)) return 'true';
  if (GO_FALSE.includes(value) || !isRfc3339(value)) return undefined;
  return value;
}

/** A pause the model sees in ReconciliationActive (GenerateReconciliationActiveCondition's message) when no spec says one any more. */
function pausedByCondition(statuses: readonly HyperShiftStatus[], objects: readonly any[]): string | undefined {
  const paused = statuses.findIndex((s) => s.state === StatusState.PAUSED);
  if (paused < 0) return undefined;
  const message = findCondition(objects[paused], HostedClusterCondition.RECONCILIATION_ACTIVE)?.message ?? '';
  const until = /paused until: (\S+)/.exec(message)?.[1];
  return until !== undefined ? (pausedUntilOf(until) ?? 'true') : 'true';
}
