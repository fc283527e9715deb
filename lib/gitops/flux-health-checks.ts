import { HOSTED_CLUSTER_REFUSAL_CONDITIONS, MACHINE_SHORTAGE_REASONS, NODE_POOL_REFUSAL_CONDITIONS, NODE_POOL_ROLLOUT_CONDITIONS } from './hypershift-health';

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

/** A condition of `types` is `status`. `?.`/`orValue` keep a field not yet written from failing the expression. */
function anyCondition(types: readonly string[], status: 'True' | 'False'): string {
  return `status.?conditions.orValue([]).exists(c, c.type in ${celList(types)} && c.status == '${status}')`;
}

/** The pool has completed a rollout (HyperShift writes `status.version` once it has). */
const POOL_INSTALLED = "status.?version.orValue('') != ''";

/** HyperShift refuses the pool, or after its first rollout it cannot get a machine. */
const NODE_POOL_FAILED =
  `${anyCondition(NODE_POOL_REFUSAL_CONDITIONS, 'False')} || (${POOL_INSTALLED}` +
  " && status.?conditions.orValue([]).exists(c, c.type == 'AllMachinesReady' && c.status == 'False'" +
  ` && ${celList(MACHINE_SHORTAGE_REASONS)}.exists(r, c.?reason.orValue('').contains(r) || c.?message.orValue('').contains(r))))`;

/**
 * Custom resources a Kustomization waits for, with the CEL that tells when each is ready: kstatus,
 * Flux's default, sees none of them right (a HostedCluster has no Ready condition, a Subscription
 * no conditions of its own when all is well, a NodePool's Ready waits for machines). The same
 * rules as the Argo CD checks (argo-cd-health-checks.ts), over the same lists of conditions.
 */
export const FLUX_HEALTH_CHECKS: Readonly<Record<string, FluxHealthCheck>> = {
  // The hosted control plane answers (HyperShift has written the admin kubeconfig by then) and,
  // once it has completed a release at all, it runs the one its spec asks for: an upgrade in
  // progress (history[0], the newest entry, Partial; or a desired image the spec no longer names)
  // holds back what waits for it, the NodePools above all. The first install counts as soon as
  // the control plane is Available: it only completes once the pools' nodes have joined. Failed
  // when HyperShift refuses the spec, or reports Degraded.
  HostedCluster: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    current:
      "status.?conditions.orValue([]).exists(c, c.type == 'Available' && c.status == 'True')" +
      " && (!status.?version.?history.orValue([]).exists(h, h.state == 'Completed')" +
      " || (status.?version.?desired.?image.orValue('') == spec.release.image" +
      " && status.?version.?history.orValue([]).size() > 0 && status.version.history[0].image == spec.release.image && status.version.history[0].state == 'Completed'))",
    failed: `${anyCondition(HOSTED_CLUSTER_REFUSAL_CONDITIONS, 'False')} || ${anyCondition(['Degraded'], 'True')}`,
  },
  // In progress while a rollout updates the machines; failed when HyperShift refuses the pool, or
  // after its first rollout it cannot get a machine; current once Ready, or before its first
  // rollout has completed: a first install never waits for machines (see NODE_POOL_HEALTH_LUA).
  NodePool: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    // Flux reads inProgress first: a refusal during a rollout must still fail.
    inProgress: `${anyCondition(NODE_POOL_ROLLOUT_CONDITIONS, 'True')} && !(${NODE_POOL_FAILED})`,
    failed: NODE_POOL_FAILED,
    current: `${anyCondition(['Ready'], 'True')} || !(${POOL_INSTALLED})`,
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
