import {
  AUTOSCALING_REFUSED_UNLESS,
  HOSTED_CLUSTER_REFUSAL_CONDITIONS,
  HostedClusterCondition,
  HyperShiftReason,
  MACHINE_SHORTAGE_REASONS,
  NODE_POOL_INPLACE_CONDITIONS,
  NODE_POOL_REFUSAL_CONDITIONS,
  NODE_POOL_ROLLOUT_CONDITIONS,
  NodePoolCondition,
  UNMANAGED_MACHINES_PLATFORM,
} from '../status/hypershift-conditions';

/**
 * A Flux health check expression (`spec.healthCheckExprs[]` of a Kustomization). Flux evaluates
 * `inProgress`, then `failed`, then `current`; the first that is true decides, and none means in
 * progress. A failed object fails the Kustomization at once instead of at its timeout.
 */
export interface FluxHealthCheck {
  /** The apiVersion of the kind it checks. */
  readonly apiVersion: string;
  /** The CEL expression that is true once the object is healthy. */
  readonly current: string;
  /** The CEL expression that is true while the object progresses. @default - none */
  readonly inProgress?: string;
  /** The CEL expression that is true once the object has failed. @default - none */
  readonly failed?: string;
}

/** `['A', 'B']`: a list as a CEL literal. */
function celList(items: readonly string[]): string {
  return `[${items.map((item) => `'${item}'`).join(', ')}]`;
}

// The readers of lib/status/object-conditions.ts in CEL. `?.` and `orValue` keep a field not yet
// written from failing the expression (Flux would then wait for the timeout).
const CONDITIONS = 'status.?conditions.orValue([])';
const GENERATION = 'metadata.?generation.orValue(0)';
/** Condition `c` is about the spec the object holds (isCurrent). */
const CURRENT = `(c.?observedGeneration.orValue(0) == 0 || c.?observedGeneration.orValue(0) == ${GENERATION})`;

/** A condition of `types` is `status` (and `also` holds for it). */
function anyCondition(types: readonly string[], status: 'True' | 'False', also?: string): string {
  return `${CONDITIONS}.exists(c, c.type in ${celList(types)} && c.status == '${status}'${also ? ` && ${also}` : ''})`;
}

/** `c`'s reason is `reason`. */
const reasonIs = (reason: string): string => `c.?reason.orValue('') == '${reason}'`;

/** Being deleted (isDeleting). */
const DELETING = 'metadata.?deletionTimestamp.hasValue()';
/** HyperShift has reconciled the current generation: its `marker` condition is about it (unreconciledGeneration). */
const reconciled = (marker: string): string =>
  `(${GENERATION} == 0 || !${CONDITIONS}.exists(c, c.type == '${marker}' && c.?observedGeneration.orValue(0) != 0 && c.?observedGeneration.orValue(0) != ${GENERATION}))`;

// hostedClusterStatus's rules (lib/status/hosted-cluster-status.ts), by number.
const HC_REFUSED = anyCondition(HOSTED_CLUSTER_REFUSAL_CONDITIONS, 'False', CURRENT); // 2
const HC_PAUSED = anyCondition([HostedClusterCondition.RECONCILIATION_ACTIVE], 'False', CURRENT); // 3
const HC_RECONCILED = reconciled(HostedClusterCondition.PROGRESSING); // 4
const HC_BLOCKED = anyCondition([HostedClusterCondition.PROGRESSING], 'False', `${reasonIs(HyperShiftReason.BLOCKED)} && ${CURRENT}`); // 5
const HISTORY = 'status.?version.?history.orValue([])';
const HC_HAS_HISTORY = `(${HISTORY}.size() > 0)`; // 6
const HC_TAKEN =
  `(${CONDITIONS}.exists(c, c.type == '${HostedClusterCondition.PROGRESSING}') ? !${anyCondition([HostedClusterCondition.PROGRESSING], 'True')}` +
  " : spec.?release.?image.orValue('') == status.?version.?desired.?image.orValue(''))"; // 7
const HC_INSTALLED = `${HISTORY}.exists(h, h.?state.orValue('') == 'Completed')`; // 8
const HC_PARTIAL = `(${HC_HAS_HISTORY} && ${HISTORY}[0].?state.orValue('') == 'Partial')`; // 9
const HC_DEGRADED = anyCondition([HostedClusterCondition.DEGRADED], 'True'); // 10
const HC_AVAILABLE = anyCondition([HostedClusterCondition.AVAILABLE], 'True'); // 6, 8, 11

// nodePoolStatus's rules (lib/status/node-pool-status.ts), by number.
const NP_REFUSED =
  `${CONDITIONS}.exists(c, c.status == 'False' && ${CURRENT} && (c.type in ${celList(NODE_POOL_REFUSAL_CONDITIONS)}` +
  ` || (c.type == '${NodePoolCondition.AUTOSCALING_ENABLED}' && c.?reason.orValue('') != '${AUTOSCALING_REFUSED_UNLESS}')))`; // 2
const NP_PAUSED = anyCondition([NodePoolCondition.RECONCILIATION_ACTIVE], 'False', CURRENT); // 3
const NP_RECONCILED = reconciled(NodePoolCondition.UPDATING_VERSION); // 4
const NP_FAILED_IN_PLACE = anyCondition(NODE_POOL_INPLACE_CONDITIONS, 'False', `${reasonIs(HyperShiftReason.INPLACE_UPGRADE_FAILED)} && ${CURRENT}`); // 5
const NP_INSTALLED = "status.?version.orValue('') != ''"; // 6
const NP_NO_MACHINES = anyCondition([NodePoolCondition.ALL_MACHINES_READY], 'False', `${celList(MACHINE_SHORTAGE_REASONS)}.exists(r, c.?reason.orValue('').contains(r))`); // 7
const NP_REPAIR_STOPPED = anyCondition([NodePoolCondition.READY], 'False', reasonIs(HyperShiftReason.TOO_MANY_UNHEALTHY)); // 8
const NP_ROLLING = anyCondition(NODE_POOL_ROLLOUT_CONDITIONS, 'True'); // 9
const NP_UNMANAGED = `spec.?platform.?type.orValue('') == '${UNMANAGED_MACHINES_PLATFORM}'`; // 10
const NP_READY = anyCondition([NodePoolCondition.READY], 'True'); // 11

/**
 * Custom resources a Kustomization waits for, with the CEL that tells when each is ready: kstatus,
 * Flux's default, sees none of them right (a HostedCluster has no Ready condition, a Subscription
 * no conditions of its own when all is well, a NodePool's Ready waits for machines). HyperShift's
 * kinds follow hcp-cdk's model of their status (lib/status), as the Argo CD checks do.
 */
export const FLUX_HEALTH_CHECKS: Readonly<Record<string, FluxHealthCheck>> = {
  // hostedClusterStatus (lib/status/hosted-cluster-status.ts) as Flux reads it: in progress while
  // deleting, paused or not reconciled (unless refused); failed when refused, blocked, or Degraded at
  // rest; current once it runs the release its spec names, Available, or on a first install once
  // its control plane is Available. Anything else (an upgrade pending or rolling out, not Available)
  // matches none, which Flux reads as in progress.
  HostedCluster: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    inProgress: `${DELETING} || (!${HC_REFUSED} && (${HC_PAUSED} || !${HC_RECONCILED}))`,
    failed: `${HC_REFUSED} || ${HC_BLOCKED} || (${HC_TAKEN} && ${HC_INSTALLED} && !${HC_PARTIAL} && ${HC_DEGRADED})`,
    current: `${HC_AVAILABLE} && (!${HC_HAS_HISTORY} || (${HC_TAKEN} && (!${HC_INSTALLED} || (!${HC_PARTIAL} && !${HC_DEGRADED}))))`,
  },
  // nodePoolStatus (lib/status/node-pool-status.ts) as Flux reads it: in progress while deleting,
  // paused, not reconciled or rolling (unless refused or failing); failed when refused, an in-place
  // update failed, or after its first rollout it cannot get machines or auto-repair stopped; current
  // on a first install (it never holds a sync), on platform None, or once Ready.
  NodePool: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    inProgress:
      `${DELETING} || (!${NP_REFUSED} && (${NP_PAUSED} || !${NP_RECONCILED}` + ` || (!${NP_FAILED_IN_PLACE} && ${NP_INSTALLED} && !${NP_NO_MACHINES} && !${NP_REPAIR_STOPPED} && ${NP_ROLLING})))`,
    failed: `${NP_REFUSED} || ${NP_FAILED_IN_PLACE} || (${NP_INSTALLED} && (${NP_NO_MACHINES} || ${NP_REPAIR_STOPPED}))`,
    current: `!(${NP_INSTALLED}) || ${NP_UNMANAGED} || ${NP_READY}`,
  },
  // MCE reports the phase Available once every component it enables is deployed, the cluster
  // manager (ManagedCluster, AddOnDeploymentConfig) and the hypershift add-on among them, whose
  // CRDs the objects waiting for it need. Any other phase counts as in progress until the timeout,
  // as MCE keeps reconciling a component that fails. Waited for only in FluxDelivery's engine stage.
  MultiClusterEngine: {
    apiVersion: 'multicluster.openshift.io/v1',
    current: "status.?phase.orValue('') == 'Available'",
  },
  // OLM sets installedCSV once the InstallPlan has created the operator's CRDs and CSV; `state`
  // alone would hold a folder back whenever the catalog offers a newer version (UpgradeAvailable).
  Subscription: {
    apiVersion: 'operators.coreos.com/v1alpha1',
    current: "status.?installedCSV.orValue('') != ''",
    failed: "status.?conditions.orValue([]).exists(c, c.type == 'InstallPlanFailed' && c.status == 'True')",
  },
};
