/**
 * What HyperShift's status says about a HostedCluster or NodePool, as both engines' health checks
 * read it (Argo CD in Lua, Flux in CEL): one list of facts, two languages.
 */

/**
 * HostedCluster conditions that are False when HyperShift refuses what the spec asks for: a change in
 * Git is the way out, so waiting longer never helps (hostedcluster_conditions.go: "unlikely to
 * resolve without changing user input"). `ClusterVersionReleaseAccepted` is the cluster version
 * operator refusing the release payload of an upgrade.
 */
export const HOSTED_CLUSTER_REFUSAL_CONDITIONS: readonly string[] = [
  'ValidConfiguration',
  'SupportedHostedCluster',
  'ValidReleaseImage',
  'ValidHostedControlPlaneConfiguration',
  'PlatformCredentialsFound',
  'ClusterVersionReleaseAccepted',
];

/**
 * NodePool conditions that are False when HyperShift refuses the pool's spec (nodepool_conditions.go):
 * its release (`ValidReleaseImage`), a release too far from the control plane's
 * (`SupportedVersionSkew`), its configuration, tuning, platform image or machine template.
 */
export const NODE_POOL_REFUSAL_CONDITIONS: readonly string[] = [
  'ValidReleaseImage',
  'SupportedVersionSkew',
  'ValidPlatformImage',
  'ValidMachineConfig',
  'ValidTuningConfig',
  'ValidMachineTemplate',
  'ValidArchPlatform',
  'UpdateManagementEnabled',
  'AutoscalingEnabled',
];

/**
 * Reasons of a False `AllMachinesReady` (HyperShift aggregates the machines' own) that say a pool
 * cannot get a machine, rather than is still getting one: no Agent matches the pool
 * (cluster-api-provider-agent), the cloud refused the instance (cluster-api-provider-aws: quota,
 * capacity). Before a pool's first rollout has completed they are what waiting for hosts looks
 * like (an Agent pool finds no Agent until its hosts have booted the discovery image), so they
 * count only once the pool has run a version.
 */
export const MACHINE_SHORTAGE_REASONS: readonly string[] = ['NoSuitableAgents', 'InstanceProvisionFailed'];

/** NodePool conditions that are True while a rollout replaces or updates the pool's machines. */
export const NODE_POOL_ROLLOUT_CONDITIONS: readonly string[] = ['UpdatingVersion', 'UpdatingConfig'];
