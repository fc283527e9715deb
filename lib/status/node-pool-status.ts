import {
  AUTOSCALING_REFUSED_UNLESS,
  HyperShiftReason,
  MACHINE_SHORTAGE_REASONS,
  NODE_POOL_INPLACE_CONDITIONS,
  NODE_POOL_REFUSAL_CONDITIONS,
  NODE_POOL_ROLLOUT_CONDITIONS,
  NodePoolCondition,
  UNMANAGED_MACHINES_PLATFORM,
} from './hypershift-conditions';
import { describeCondition, findCondition, firstCurrent, isDeleting, nonEmpty, notReconciledSummary } from './object-conditions';
import { EngineHealth, healthOf, HyperShiftStatus, ProgressReason, StatusCondition, StatusState } from './status-report';

/** HyperShift's UpdatingVersion message names the target (updatingVersionCondition: "Updating version in progress. Target version: %s"). */
const TARGET_VERSION = /Target version: (\S+)/;

/**
 * What a NodePool's status says (openshift/hypershift at 3ee9615567,
 * hypershift-operator/controllers/nodepool: nodepool_controller.go `reconcile`, its condition
 * setters in conditions.go, capi.go), the first rule that applies deciding:
 *
 * 1. being deleted: deleting;
 * 2. a refusal condition (NODE_POOL_REFUSAL_CONDITIONS) False for the current generation, or
 *    AutoscalingEnabled False with a reason other than AsExpected (autoscalerEnabledCondition writes
 *    False/AsExpected on every pool without autoscaling, False/ValidationFailed for autoscaling from
 *    zero on a platform without it): refused;
 * 3. ReconciliationActive False: paused;
 * 4. its UpdatingVersion condition about an older generation than metadata.generation: not
 *    reconciled yet (the setters run in order and stop at the first that cannot go on, e.g.
 *    ignitionEndpointAvailableCondition while the ignition endpoint is missing; a pass that reaches
 *    updatingVersionCondition has judged the spec's rollout);
 * 5. UpdatingVersion or UpdatingConfig False with reason InplaceUpgradeFailed: degraded;
 * 6. no status.version: the first install (HyperShift writes it once the first rollout has
 *    completed, reconcileMachineDeploymentStatus; until then UpdatingVersion is True too);
 * 7. AllMachinesReady False for a reason of MACHINE_SHORTAGE_REASONS: degraded, it cannot get machines;
 * 8. Ready False with reason TooManyUnhealthy: degraded, auto-repair stopped (capi.go bubbles the
 *    MachineHealthCheck's RemediationAllowed into Ready);
 * 9. UpdatingVersion, UpdatingConfig or UpdatingPlatformMachineTemplate True: rolling;
 * 10. platform None: healthy (HyperShift makes no Machines, so no Ready condition ever comes);
 * 11. Ready True: healthy;
 * 12. otherwise waiting for machines (scaling, replacing, repairing).
 *
 * The health for the engines follows the state; a first install is Healthy (see EngineHealth).
 */
export function nodePoolStatus(object: any): HyperShiftStatus {
  const specImage = nonEmpty(object?.spec?.release?.image);
  const running = nonEmpty(object?.status?.version);
  const updatingVersion = findCondition(object, NodePoolCondition.UPDATING_VERSION);
  const target = updatingVersion?.status === 'True' ? TARGET_VERSION.exec(updatingVersion.message ?? '')?.[1] : running;
  const versions = { ...(running ? { running } : {}), ...(target ? { target } : {}), ...(specImage ? { specImage } : {}) };
  const verdict = (state: StatusState, summary: string, extra: { progress?: ProgressReason; condition?: StatusCondition } = {}): HyperShiftStatus => ({
    kind: 'NodePool',
    state,
    ...extra,
    summary,
    versions,
    health: extra.progress === ProgressReason.INSTALLING ? EngineHealth.HEALTHY : healthOf(state),
  });
  const ready = findCondition(object, NodePoolCondition.READY);
  const reached = findCondition(object, NodePoolCondition.REACHED_IGNITION_ENDPOINT);
  const waiting = `waiting for machines${ready && ready.status !== 'True' && ready.message ? `: ${ready.message}` : ''}${
    reached?.status === 'False' ? '; no machine has reached the ignition endpoint yet' : ''
  }`;

  if (isDeleting(object)) return verdict(StatusState.DELETING, 'deletion in progress');
  const refusal = firstCurrent(object, NODE_POOL_REFUSAL_CONDITIONS, 'False') ?? firstCurrent(object, [NodePoolCondition.AUTOSCALING_ENABLED], 'False', (c) => c.reason !== AUTOSCALING_REFUSED_UNLESS);
  if (refusal) return verdict(StatusState.REFUSED, `HyperShift refuses the spec: ${describeCondition(refusal)}`, { condition: refusal });
  const paused = firstCurrent(object, [NodePoolCondition.RECONCILIATION_ACTIVE], 'False');
  if (paused) return verdict(StatusState.PAUSED, `reconciliation paused: ${describeCondition(paused)}`, { condition: paused });
  const notReconciled = notReconciledSummary(object, NodePoolCondition.UPDATING_VERSION);
  if (notReconciled) return verdict(StatusState.PROGRESSING, notReconciled, { progress: ProgressReason.NOT_RECONCILED });
  const failedInPlace = firstCurrent(object, NODE_POOL_INPLACE_CONDITIONS, 'False', (c) => c.reason === HyperShiftReason.INPLACE_UPGRADE_FAILED);
  if (failedInPlace) return verdict(StatusState.DEGRADED, `in-place update failed: ${describeCondition(failedInPlace)}`, { condition: failedInPlace });
  if (!running) return verdict(StatusState.PROGRESSING, `first install, ${waiting}`, { progress: ProgressReason.INSTALLING });
  const machines = findCondition(object, NodePoolCondition.ALL_MACHINES_READY);
  if (machines?.status === 'False' && MACHINE_SHORTAGE_REASONS.some((reason) => (machines.reason ?? '').includes(reason))) {
    return verdict(StatusState.DEGRADED, `cannot get machines: ${describeCondition(machines)}`, { condition: machines });
  }
  if (ready?.status === 'False' && ready.reason === HyperShiftReason.TOO_MANY_UNHEALTHY) {
    return verdict(StatusState.DEGRADED, `auto-repair stopped: ${describeCondition(ready)}`, { condition: ready });
  }
  const rolling = NODE_POOL_ROLLOUT_CONDITIONS.map((type) => findCondition(object, type)).find((c) => c?.status === 'True');
  if (rolling) {
    return verdict(StatusState.PROGRESSING, `${rolling.type}: ${rolling.message ?? ''}`, {
      progress: rolling.type === String(NodePoolCondition.UPDATING_VERSION) ? ProgressReason.ROLLING_VERSION : ProgressReason.ROLLING_CONFIG,
      condition: rolling,
    });
  }
  if (object?.spec?.platform?.type === UNMANAGED_MACHINES_PLATFORM || ready?.status === 'True') return verdict(StatusState.HEALTHY, `running ${running}`);
  return verdict(StatusState.PROGRESSING, waiting, { progress: ProgressReason.WAITING_FOR_MACHINES, ...(ready ? { condition: ready } : {}) });
}
