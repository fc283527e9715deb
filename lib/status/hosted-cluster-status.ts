import { HOSTED_CLUSTER_REFUSAL_CONDITIONS, HostedClusterCondition, HyperShiftReason } from './hypershift-conditions';
import { describeCondition, findCondition, firstCurrent, isDeleting, nonEmpty, notReconciledSummary } from './object-conditions';
import { EngineHealth, healthOf, HyperShiftStatus, ProgressReason, StatusCondition, StatusState } from './status-report';

/** A Completed history entry without a version (the cluster version operator always records one). */
const UNRECORDED = 'an unrecorded version';

/**
 * What a HostedCluster's status says (openshift/hypershift at 3ee9615567,
 * hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go, `reconcile`), the
 * first rule that applies deciding:
 *
 * 1. being deleted: deleting;
 * 2. a refusal condition (HOSTED_CLUSTER_REFUSAL_CONDITIONS) False for the current generation: refused;
 * 3. ReconciliationActive False: paused (spec.pausedUntil);
 * 4. its Progressing condition about an older generation than metadata.generation: HyperShift has
 *    not reconciled this spec yet (the Progressing block of `reconcile` rewrites it, with
 *    `ObservedGeneration: hcluster.Generation`, on every pass);
 * 5. Progressing False with reason Blocked: blocked, with its message and ClusterVersionUpgradeable's
 *    (isProgressing, isUpgrading: a minor update the cluster is not Upgradeable for, unless
 *    forceUpgradeTo names the image);
 * 6. no version history yet: the first install (computeClusterVersionStatus writes it on the first
 *    reconcile);
 * 7. the spec's release not taken: HyperShift's own Progressing True (isProgressing compares the
 *    spec's image as written and resolved to its digest with status.version.desired.image; the cluster
 *    version operator records the digest, so a consumer that compares strings sees a cluster released
 *    by tag upgrading for ever). Without a Progressing condition, the images are compared as written;
 * 8. no history entry Completed: the first install, which completes once the nodes have joined;
 * 9. the newest history entry Partial: the control plane upgrading (Degraded True then is what
 *    rolling an HA control plane looks like: a Deployment of 3 replicas rolls with maxUnavailable 1,
 *    support/controlplane-component/deployment.go, and reconcileDegradedStatus counts unavailable replicas);
 * 10. Degraded True: degraded (at rest, a control-plane component has unavailable replicas);
 * 11. Available not True: progressing, unavailable;
 * 12. otherwise healthy, running its newest Completed version.
 *
 * The health for the engines follows the state; a first install whose control plane is Available is
 * Healthy (its version only completes once the pools' nodes have joined, and they are applied after it).
 */
export function hostedClusterStatus(object: any): HyperShiftStatus {
  const specImage = nonEmpty(object?.spec?.release?.image);
  const version = object?.status?.version;
  const history: any[] = Array.isArray(version?.history) ? version.history : [];
  const completed = history.find((entry) => entry?.state === 'Completed');
  const running = nonEmpty(completed?.version);
  const desiredName = nonEmpty(version?.desired?.version) ?? nonEmpty(version?.desired?.image);
  const versions = { ...(running ? { running } : {}), ...(nonEmpty(version?.desired?.version) ? { target: version.desired.version } : {}), ...(specImage ? { specImage } : {}) };
  const available = findCondition(object, HostedClusterCondition.AVAILABLE);
  const verdict = (state: StatusState, summary: string, extra: { progress?: ProgressReason; condition?: StatusCondition } = {}): HyperShiftStatus => {
    // A first install holds nothing once the control plane serves: its version completes only once the nodes join.
    const installedControlPlane = extra.progress === ProgressReason.INSTALLING && available?.status === 'True';
    return { kind: 'HostedCluster', state, ...extra, summary, versions, health: installedControlPlane ? EngineHealth.HEALTHY : healthOf(state) };
  };

  if (isDeleting(object)) {
    const destroyed = findCondition(object, HostedClusterCondition.CLOUD_RESOURCES_DESTROYED);
    return verdict(StatusState.DELETING, `deletion in progress${destroyed && destroyed.status !== 'True' ? `: ${describeCondition(destroyed)}` : ''}`);
  }
  const refusal = firstCurrent(object, HOSTED_CLUSTER_REFUSAL_CONDITIONS, 'False');
  if (refusal) return verdict(StatusState.REFUSED, `HyperShift refuses the spec: ${describeCondition(refusal)}`, { condition: refusal });
  const paused = firstCurrent(object, [HostedClusterCondition.RECONCILIATION_ACTIVE], 'False');
  if (paused) return verdict(StatusState.PAUSED, `reconciliation paused: ${describeCondition(paused)}`, { condition: paused });
  const notReconciled = notReconciledSummary(object, HostedClusterCondition.PROGRESSING);
  if (notReconciled) return verdict(StatusState.PROGRESSING, notReconciled, { progress: ProgressReason.NOT_RECONCILED });
  const blocked = firstCurrent(object, [HostedClusterCondition.PROGRESSING], 'False', (c) => c.reason === HyperShiftReason.BLOCKED);
  if (blocked) {
    const upgradeable = findCondition(object, HostedClusterCondition.CLUSTER_VERSION_UPGRADEABLE);
    const why = upgradeable?.status === 'False' ? `; ${describeCondition(upgradeable)}` : '';
    return verdict(StatusState.BLOCKED, `HyperShift does not start ${specImage ?? 'the release'}: ${describeCondition(blocked)}${why}`, { condition: blocked });
  }
  const installing = `first install of ${desiredName ?? specImage ?? 'its release'}: ${
    available?.status === 'True' ? 'the control plane is available, waiting for its nodes' : available ? describeCondition(available) : 'no Available condition yet'
  }`;
  if (history.length === 0) return verdict(StatusState.PROGRESSING, installing, { progress: ProgressReason.INSTALLING, ...(available ? { condition: available } : {}) });
  const progressing = findCondition(object, HostedClusterCondition.PROGRESSING);
  const taken = progressing ? progressing.status !== 'True' : specImage === nonEmpty(version?.desired?.image);
  if (!taken) {
    return verdict(StatusState.PROGRESSING, `HyperShift has not started ${specImage ?? 'the release'} yet: status.version.desired is ${desiredName ?? 'unset'}`, {
      progress: ProgressReason.UPGRADE_PENDING,
      ...(progressing ? { condition: progressing } : {}),
    });
  }
  if (!completed) return verdict(StatusState.PROGRESSING, installing, { progress: ProgressReason.INSTALLING, ...(available ? { condition: available } : {}) });
  const degraded = findCondition(object, HostedClusterCondition.DEGRADED);
  const degradedTrue = degraded?.status === 'True' ? degraded : undefined;
  if (history[0]?.state === 'Partial') {
    const to = nonEmpty(history[0].version) ?? nonEmpty(history[0].image) ?? 'a new release';
    return verdict(StatusState.PROGRESSING, `the control plane is upgrading from ${running ?? UNRECORDED} to ${to}${degradedTrue ? `; ${describeCondition(degradedTrue)}` : ''}`, {
      progress: ProgressReason.UPGRADING,
    });
  }
  if (degradedTrue) return verdict(StatusState.DEGRADED, describeCondition(degradedTrue), { condition: degradedTrue });
  if (available?.status !== 'True') {
    return verdict(StatusState.PROGRESSING, `not available: ${available ? describeCondition(available) : 'no Available condition yet'}`, {
      progress: ProgressReason.UNAVAILABLE,
      ...(available ? { condition: available } : {}),
    });
  }
  return verdict(StatusState.HEALTHY, `running ${running ?? UNRECORDED}`);
}
