import { hostedClusterStatus } from './hosted-cluster-status';
import { nodePoolStatus } from './node-pool-status';
import { HyperShiftStatus, ProgressReason, StatusState } from './status-report';

/** Where a hosted cluster is in a rollout, from its HostedCluster's and NodePools' statuses. */
export enum RolloutPhase {
  /** The control plane runs its release and every pool is healthy. */
  DONE = 'done',
  /** The first install has not completed. */
  INSTALLING = 'installing',
  /** The control plane has not finished its part: an upgrade not yet taken or rolling out, a spec not yet reconciled, or not Available. */
  CONTROL_PLANE_PROGRESSING = 'control-plane-progressing',
  /** The control plane is done; a pool is still rolling or waiting for machines. */
  POOLS_ROLLING = 'pools-rolling',
  /** HyperShift refuses, blocks or reports degraded the HostedCluster or a pool: `failed` says which, with its condition. */
  FAILED = 'failed',
  /** Reconciliation of the HostedCluster or a pool is paused. */
  PAUSED = 'paused',
  /** The HostedCluster is being deleted. */
  DELETING = 'deleting',
}

/** One part of a hosted cluster (its HostedCluster or a NodePool) and its status. */
export interface RolloutPart {
  /** `HostedCluster` or `NodePool`. */
  readonly kind: string;
  /** Its name. */
  readonly name: string;
  /** Its status, by hcp-cdk's model. */
  readonly status: HyperShiftStatus;
}

/** A hosted cluster's place in a rollout (clusterRolloutStatus). */
export interface ClusterRolloutStatus {
  /** The phase. */
  readonly phase: RolloutPhase;
  /** One line for people: the phase and the part that decided it. */
  readonly summary: string;
  /** The part that decided the phase (the failing, paused or progressing one), when one did. @default - none: done */
  readonly decidedBy?: RolloutPart;
  /** The HostedCluster's status. */
  readonly hostedCluster: HyperShiftStatus;
  /** Each NodePool's status, in the order given. */
  readonly nodePools: readonly RolloutPart[];
}

const FAILED_STATES: readonly StatusState[] = [StatusState.REFUSED, StatusState.BLOCKED, StatusState.DEGRADED];

/**
 * Where a hosted cluster is in a rollout (what `rollout status` and waves read), from the live
 * HostedCluster and its NodePools, by hcp-cdk's model of their status: deleting; failed when either
 * is refused, blocked or degraded (the HostedCluster first); paused; the first install; the control
 * plane progressing (HyperShift upgrades the control plane before it rolls the pools' own releases,
 * and the pools may not run ahead of it); the pools rolling; else done.
 */
export function clusterRolloutStatus(hostedCluster: any, nodePools: readonly any[]): ClusterRolloutStatus {
  const cluster = hostedClusterStatus(hostedCluster);
  const pools: RolloutPart[] = nodePools.map((pool) => ({ kind: 'NodePool', name: String(pool?.metadata?.name ?? ''), status: nodePoolStatus(pool) }));
  const parts: RolloutPart[] = [{ kind: 'HostedCluster', name: String(hostedCluster?.metadata?.name ?? ''), status: cluster }, ...pools];
  const result = (phase: RolloutPhase, decidedBy?: RolloutPart): ClusterRolloutStatus => ({
    phase,
    summary: decidedBy ? `${phase}: ${decidedBy.kind} ${decidedBy.name}: ${decidedBy.status.summary}` : phase,
    ...(decidedBy ? { decidedBy } : {}),
    hostedCluster: cluster,
    nodePools: pools,
  });
  if (cluster.state === StatusState.DELETING) return result(RolloutPhase.DELETING, parts[0]);
  const failed = parts.find((p) => FAILED_STATES.includes(p.status.state));
  if (failed) return result(RolloutPhase.FAILED, failed);
  const paused = parts.find((p) => p.status.state === StatusState.PAUSED);
  if (paused) return result(RolloutPhase.PAUSED, paused);
  if (cluster.state === StatusState.PROGRESSING) {
    return result(cluster.progress === ProgressReason.INSTALLING ? RolloutPhase.INSTALLING : RolloutPhase.CONTROL_PLANE_PROGRESSING, parts[0]);
  }
  const rolling = parts.slice(1).find((p) => p.status.state !== StatusState.HEALTHY);
  if (rolling) return result(RolloutPhase.POOLS_ROLLING, rolling);
  return result(RolloutPhase.DONE);
}
