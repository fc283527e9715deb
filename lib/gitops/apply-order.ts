import { groupOf } from './unit-access';

/**
 * Apply order by kind: what others depend on comes first. File names carry the rank, and so does
 * the Argo CD sync wave. Operators (MCE, Subscriptions) come before the custom resources they
 * serve; Secrets and RBAC before the HostedCluster; the bare-metal inventory (NMStateConfigs
 * before the InfraEnv that selects them, the InfraEnv before its BareMetalHosts) before the
 * NodePools that take their machines from it, so that an engine that waits for each wave to be
 * healthy never holds the hosts back behind a pool that waits for them; the HostedCluster before
 * its NodePools, and its ACM import right after it, so that the import waits for the control
 * plane alone, not for machines.
 */
export const KIND_RANK: Readonly<Record<string, number>> = {
  Namespace: 0,
  CustomResourceDefinition: 0,
  OperatorGroup: 2,
  Subscription: 3,
  // The hub's own machines and cluster configuration, which need no operator from OLM.
  MachineSet: 1,
  IngressController: 1,
  MultiClusterEngine: 5,
  Provisioning: 5,
  AgentServiceConfig: 6,
  AddOnDeploymentConfig: 6,
  // Operator instances of a KubeVirt hub and of OADP, and the storage classes clusters map.
  HyperConverged: 5,
  LVMCluster: 5,
  DataProtectionApplication: 6,
  StorageClass: 7,
  ServiceAccount: 10,
  Role: 10,
  ClusterRole: 10,
  RoleBinding: 11,
  ClusterRoleBinding: 11,
  Secret: 20,
  ExternalSecret: 20,
  SealedSecret: 20,
  ConfigMap: 20,
  // The image configuration names a ConfigMap of trusted CAs (MirrorRegistryTrust).
  Image: 21,
  MetalLB: 30,
  IPAddressPool: 31,
  BGPPeer: 31,
  L2Advertisement: 32,
  BGPAdvertisement: 32,
  NMStateConfig: 44,
  InfraEnv: 45,
  BareMetalHost: 46,
  HostedCluster: 50,
  // ACM import of a hosted cluster: once the HostedCluster exists, before its pools have machines.
  ManagedCluster: 55,
  KlusterletAddonConfig: 56,
  NodePool: 60,
  // Backups of a hosted cluster once it exists; a Restore is applied on its own, last.
  Backup: 95,
  Schedule: 95,
  Restore: 96,
};
/** The rank of kinds the table does not name: after Secrets and operators, before the HostedCluster. */
export const DEFAULT_RANK = 40;
/** The annotation Argo CD orders a sync by, lowest wave first. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/** The apply rank of an object of `kind`. */
export function rankOf(kind: string): number {
  return KIND_RANK[kind] ?? DEFAULT_RANK;
}

/**
 * Kinds that install operators through OLM. The custom resources those operators serve cannot be
 * dry-run before the operator has installed their CRDs, so engines that dry-run a whole folder
 * first (Flux) apply them in a step of their own.
 */
export const OPERATOR_KINDS: ReadonlySet<string> = new Set(['Namespace', 'OperatorGroup', 'Subscription', 'CatalogSource', 'CustomResourceDefinition']);

/** Whether an object is an OLM Subscription, which installs an operator and so the CRDs of its custom resources. */
export function isOlmSubscription(kind: string, apiVersion: string): boolean {
  return kind === 'Subscription' && groupOf(apiVersion) === 'operators.coreos.com';
}
