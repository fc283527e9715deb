import { hostedClusterStatus } from '../../status/hosted-cluster-status';
import { nodePoolStatus } from '../../status/node-pool-status';
import { HyperShiftStatus, ProgressReason, StatusState } from '../../status/status-report';
import { LiveFindingKind } from './live-report';

/** A finding about what HyperShift reports on an object, before it is placed (see liveFindings). */
export interface StatusFinding {
  /** The kind of finding. */
  readonly finding: LiveFindingKind;
  /** One line for people. */
  readonly summary: string;
  /** The model's verdict, for machines. */
  readonly details: Readonly<Record<string, unknown>>;
}

/** hcp-cdk's model of a live HostedCluster's or NodePool's status (lib/status); undefined for other kinds. */
export function liveStatus(kind: string, live: any): HyperShiftStatus | undefined {
  if (kind === 'HostedCluster') return hostedClusterStatus(live);
  if (kind === 'NodePool') return nodePoolStatus(live);
  return undefined;
}

/**
 * What the live status of an object of a cluster this commit changes means for the commit, by
 * hcp-cdk's model of HyperShift's status: a refusal or a blocked upgrade, a pause, a deletion, a
 * degraded object, a spec not reconciled yet, a pool still rolling. A HostedCluster's install or
 * upgrade in progress, and one not Available, have findings of their own (upgradeFinding,
 * availabilityProblem); a pool on its first install needs none.
 */
export function statusFinding(status: HyperShiftStatus): StatusFinding | undefined {
  const details = {
    state: status.state,
    ...(status.progress ? { progress: status.progress } : {}),
    ...(status.condition ? { condition: { type: status.condition.type, status: status.condition.status, reason: status.condition.reason ?? null, message: status.condition.message ?? null } } : {}),
    ...(status.versions.running ? { running: status.versions.running } : {}),
  };
  const found = (finding: LiveFindingKind, summary: string): StatusFinding => ({ finding, summary, details });
  switch (status.state) {
    case StatusState.REFUSED:
    case StatusState.BLOCKED:
      return found(LiveFindingKind.HYPERSHIFT_REFUSES, `${status.summary}; what this commit changes waits on it, unless the commit fixes it`);
    case StatusState.PAUSED:
      return found(LiveFindingKind.PAUSED, `${status.summary}: HyperShift applies none of this commit's changes to it until spec.pausedUntil passes or is removed`);
    case StatusState.DELETING:
      return found(LiveFindingKind.DELETING, `${status.summary}: this commit's changes to it go with it`);
    case StatusState.DEGRADED:
      return found(LiveFindingKind.DEGRADED, `HyperShift reports it degraded (${status.summary}): what this commit changes lands on it as it is`);
    case StatusState.PROGRESSING:
      if (status.progress === ProgressReason.NOT_RECONCILED) {
        return found(LiveFindingKind.NOT_RECONCILED, `${status.summary}: what it reports is about the spec before the last change applied; run plan --live again once it has`);
      }
      if (status.kind === 'NodePool' && status.progress !== ProgressReason.INSTALLING) {
        return found(LiveFindingKind.POOL_ROLLING, `${status.summary}: HyperShift is still rolling the pool out; what this commit changes in the pool joins that rollout`);
      }
      return undefined;
    default:
      return undefined;
  }
}
