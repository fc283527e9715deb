/**
 * The conditions and reasons HyperShift writes on HostedClusters and NodePools that hcp-cdk's model
 * of their status reads (hostedClusterStatus, nodePoolStatus), and through it the Argo CD and Flux
 * health checks and `plan --live`: one list of facts, read in TypeScript, Lua and CEL. Each is
 * cited from openshift/hypershift at 3ee9615567 (the commit the bundled CRDs pin); where the API's
 * doc comment and the controller's code disagree, the code decides.
 */

/** Condition types of a HostedCluster (api/hypershift/v1beta1/hostedcluster_conditions.go) the model reads. */
export enum HostedClusterCondition {
  /** The control plane serves (computeHostedClusterAvailability, from the HostedControlPlane's). */
  AVAILABLE = 'Available',
  /**
   * True while the spec's release is not the one the cluster version operator targets yet:
   * isProgressing (hostedcluster_controller.go) compares spec.release.image, as written and
   * resolved to its digest, with status.version.desired.image; False with reason Blocked when a
   * condition stops the rollout. Not True during a first install or while an upgrade rolls out
   * once the version operator has taken it (the API's comment says otherwise).
   */
  PROGRESSING = 'Progressing',
  /** Copied from the HostedControlPlane: True while a control-plane Deployment has unavailable replicas (reconcileDegradedStatus). */
  DEGRADED = 'Degraded',
  /** False while spec.pausedUntil pauses reconciliation (support/util/pausereconcile.go). */
  RECONCILIATION_ACTIVE = 'ReconciliationActive',
  /** The cluster version operator's Upgradeable, bubbled up; False stops a minor update (isUpgrading). */
  CLUSTER_VERSION_UPGRADEABLE = 'ClusterVersionUpgradeable',
  /** The cloud resources of a deleted cluster are gone (bubbled up from the HostedControlPlane). */
  CLOUD_RESOURCES_DESTROYED = 'CloudResourcesDestroyed',
}

/** Condition types of a NodePool (api/hypershift/v1beta1/nodepool_conditions.go) the model reads. */
export enum NodePoolCondition {
  /** The MachineDeployment's (or MachineSet's) Ready, bubbled up (capi.go); also False with reason TooManyUnhealthy when auto-repair may not remediate. */
  READY = 'Ready',
  /** The machines' Ready, aggregated: reason is their reasons joined (setAllMachinesReadyCondition). */
  ALL_MACHINES_READY = 'AllMachinesReady',
  /** True while status.version is not the release's version (updatingVersionCondition, isUpdatingVersion). */
  UPDATING_VERSION = 'UpdatingVersion',
  /** True while the config hash is not the one last rolled out (updatingConfigCondition). */
  UPDATING_CONFIG = 'UpdatingConfig',
  /** True while the machines move to a new platform machine template (capi.go). */
  UPDATING_PLATFORM_MACHINE_TEMPLATE = 'UpdatingPlatformMachineTemplate',
  /** False with reason AsExpected on every pool without spec.autoScaling (autoscalerEnabledCondition). */
  AUTOSCALING_ENABLED = 'AutoscalingEnabled',
  /** False while spec.pausedUntil pauses reconciliation (generateReconciliationActiveCondition). */
  RECONCILIATION_ACTIVE = 'ReconciliationActive',
  /** Whether a machine has fetched its ignition payload (createReachedIgnitionEndpointCondition). */
  REACHED_IGNITION_ENDPOINT = 'ReachedIgnitionEndpoint',
}

/** Condition reasons the model tells apart. */
export enum HyperShiftReason {
  /** HyperShift's "all is as it should be" reason (hyperv1.AsExpectedReason). */
  AS_EXPECTED = 'AsExpected',
  /** Progressing False because a condition stops the rollout (hyperv1.BlockedReason, set by the Progressing block of reconcile). */
  BLOCKED = 'Blocked',
  /** An in-place update the nodes could not apply (hyperv1.NodePoolInplaceUpgradeFailedReason). */
  INPLACE_UPGRADE_FAILED = 'InplaceUpgradeFailed',
  /** Auto-repair stopped: too many unhealthy machines (cluster-api's TooManyUnhealthyReason, bubbled into Ready by capi.go). */
  TOO_MANY_UNHEALTHY = 'TooManyUnhealthy',
}

/**
 * HostedCluster conditions that are False when HyperShift refuses the spec, or something it
 * references, and only a change there helps: those the API calls "unlikely to resolve without
 * changing user input" (ValidConfiguration, SupportedHostedCluster, ValidReleaseImage — also its
 * reason SecretNotFound, a missing pull secret —, ValidHostedControlPlaneConfiguration,
 * PlatformCredentialsFound), the ones whose failure "requires external user intervention"
 * (ValidOIDCConfiguration, ValidAWSIdentityProvider, ValidAWSKMSConfig, ValidProxyConfiguration,
 * ValidIDPConfiguration), a release missing images (ValidReleaseInfo), and the cluster version
 * operator refusing the release payload (ClusterVersionReleaseAccepted). Left out:
 * ValidKubeVirtInfraNetworkMTU and ValidKubeVirtInfraNetworkPolicyRBAC, which only warn (HyperShift's
 * own ExpectedHCConditions, support/conditions/conditions.go, expects the MTU one False on some hubs).
 */
export const HOSTED_CLUSTER_REFUSAL_CONDITIONS: readonly string[] = [
  'ValidConfiguration',
  'SupportedHostedCluster',
  'ValidReleaseImage',
  'ValidHostedControlPlaneConfiguration',
  'PlatformCredentialsFound',
  'ValidReleaseInfo',
  'ValidOIDCConfiguration',
  'ValidAWSIdentityProvider',
  'ValidAWSKMSConfig',
  'ValidProxyConfiguration',
  'ValidIDPConfiguration',
  'ClusterVersionReleaseAccepted',
];

/**
 * NodePool conditions that are False when HyperShift refuses the pool's spec (nodepool controller,
 * conditions.go and the platform files): its release (ValidReleaseImage), a release outside the
 * supported skew from its control plane (SupportedVersionSkew, reason UnsupportedSkew: HyperShift
 * keeps the pool running "with no guarantees", and nothing but a change of release resolves it),
 * its platform image, configuration, tuning, CPU architecture, machine template, platform
 * configuration (ValidPlatformConfig: the AWS checks of validPlatformConfigCondition) and management
 * settings. AutoscalingEnabled is not here: HyperShift writes it False with reason AsExpected on
 * every pool without autoscaling; only another reason is a refusal (see AUTOSCALING_REFUSED_UNLESS).
 * ValidGeneratedPayload is not either: createValidGeneratedPayloadCondition never writes False (an
 * empty status when the ignition server reports a failure).
 */
export const NODE_POOL_REFUSAL_CONDITIONS: readonly string[] = [
  'ValidReleaseImage',
  'SupportedVersionSkew',
  'ValidPlatformImage',
  'ValidMachineConfig',
  'ValidTuningConfig',
  'ValidArchPlatform',
  'ValidMachineTemplate',
  'ValidPlatformConfig',
  'UpdateManagementEnabled',
];

/**
 * The one reason AutoscalingEnabled False is not a refusal: a pool without spec.autoScaling
 * (autoscalerEnabledCondition, conditions.go). With reason ValidationFailed, HyperShift refuses
 * autoscaling from zero on a platform that lacks it (every platform but AWS and Azure).
 */
export const AUTOSCALING_REFUSED_UNLESS: string = HyperShiftReason.AS_EXPECTED;

/**
 * Reasons in a False AllMachinesReady (HyperShift joins its machines' reasons,
 * aggregateMachineReasonsAndMessages) that say a pool cannot get a machine rather than is still
 * getting one: no Agent matches it (cluster-api-provider-agent, setAgentReservedCondition), the
 * cloud refused the instance (cluster-api-provider-aws: quota, capacity), KubeVirt could not create
 * the VM (cluster-api-provider-kubevirt, VMCreateFailed). Before a pool's first rollout has
 * completed they are what waiting for hosts looks like (an Agent pool finds no Agent until its
 * hosts have booted the discovery image), so they count only once the pool has run a version.
 */
export const MACHINE_SHORTAGE_REASONS: readonly string[] = ['NoSuitableAgents', 'InstanceProvisionFailed', 'VMCreateFailed'];

/** NodePool conditions that are True while a rollout replaces or updates the pool's machines. */
export const NODE_POOL_ROLLOUT_CONDITIONS: readonly string[] = [NodePoolCondition.UPDATING_VERSION, NodePoolCondition.UPDATING_CONFIG, NodePoolCondition.UPDATING_PLATFORM_MACHINE_TEMPLATE];

/** NodePool conditions whose reason InplaceUpgradeFailed says an in-place update failed on the nodes (updatingVersionCondition, updatingConfigCondition). */
export const NODE_POOL_INPLACE_CONDITIONS: readonly string[] = [NodePoolCondition.UPDATING_VERSION, NodePoolCondition.UPDATING_CONFIG];

/**
 * The NodePool platform whose machines HyperShift does not manage: with `None` it writes
 * status.version once the ignition payload is ready and makes no Machines
 * (isAutomatedMachineManagement, nodepool_controller.go), so a None pool never has a Ready condition.
 */
export const UNMANAGED_MACHINES_PLATFORM = 'None';
