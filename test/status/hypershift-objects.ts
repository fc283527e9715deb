// HostedClusters and NodePools with statuses as HyperShift's controllers write them (openshift/hypershift
// at 3ee9615567): the condition types, statuses, reasons and messages of each setter, for the corpus
// of status shapes (status-corpus.ts). Every condition carries `observedGeneration` and
// `lastTransitionTime`, as the controllers set them, so that the objects are accepted by the API server.
import { createHash } from 'crypto';

/** The platforms hcp-cdk supports. */
export type Platform = 'Agent' | 'KubeVirt' | 'AWS' | 'None';

/** When every condition last changed, and every update started. */
export const AT = '2026-05-01T10:00:00Z';
const COMPLETED_AT = '2026-05-01T11:00:00Z';

/** A release image by tag, as `hcp create cluster` writes it. */
export const tagImage = (version: string): string => `quay.io/openshift-release-dev/ocp-release:${version}-multi`;
/** The same release by digest, as the cluster version operator records it (its digest made up, but well formed). */
export const digestImage = (version: string): string => `quay.io/openshift-release-dev/ocp-release@sha256:${createHash('sha256').update(`ocp-release ${version}`).digest('hex')}`;

/** A condition as a setter writes it; `generation` is the object's generation it was written for. */
export interface Condition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown' | '';
  readonly reason: string;
  readonly message: string;
  readonly observedGeneration?: number;
  readonly lastTransitionTime?: string;
}

/** A condition with its reason and message. */
export const condition = (type: string, status: Condition['status'], reason: string, message = '', observedGeneration?: number): Condition => ({
  type,
  status,
  reason,
  message,
  ...(observedGeneration !== undefined ? { observedGeneration } : {}),
});

/** `base` with `changes` replacing the conditions of their types (or added), `without` removed, every condition stamped with `generation` unless it has one. */
export function conditions(base: readonly Condition[], changes: readonly Condition[], without: readonly string[], generation: number): Condition[] {
  const byType = new Map(base.map((c) => [c.type, c]));
  for (const change of changes) byType.set(change.type, change);
  for (const type of without) byType.delete(type);
  return [...byType.values()].map((c) => ({ ...c, observedGeneration: c.observedGeneration ?? generation, lastTransitionTime: AT }));
}

/** One entry of status.version.history, newest first, as the cluster version operator writes it. */
export interface HistoryEntry {
  readonly state: 'Completed' | 'Partial';
  readonly version: string;
  readonly image: string;
}

/** status.version: the desired release and the history (hcpstatus.go copies the guest's ClusterVersion status). */
export function clusterVersion(desired: { version: string; image: string }, history: readonly HistoryEntry[]): any {
  return {
    desired,
    history: history.map((h) => ({ state: h.state, version: h.version, image: h.image, startedTime: AT, completionTime: h.state === 'Completed' ? COMPLETED_AT : null, verified: false })),
    observedGeneration: 1,
    availableUpdates: null,
  };
}

/** The HyperShift operator's own conditions when its validations pass (the Set ... condition blocks of reconcile). */
const OPERATOR_OWN: readonly Condition[] = [
  condition('ValidConfiguration', 'True', 'AsExpected', 'Configuration passes validation'),
  condition('SupportedHostedCluster', 'True', 'AsExpected', 'HostedCluster is supported by operator configuration'),
  condition('ValidProxyConfiguration', 'True', 'AsExpected', 'No proxy CA bundle configured'),
  condition('ReconciliationActive', 'True', 'AsExpected', 'Reconciliation active on resource'),
  condition('ValidReleaseImage', 'True', 'AsExpected', 'Release image is valid'),
  condition('Progressing', 'False', 'AsExpected', 'HostedCluster is at expected version'),
];

/**
 * A HostedCluster's conditions once its control plane runs `version` (by `image`, the digest the
 * cluster version operator records): what HyperShift's reconcile writes at rest, its own conditions
 * with the messages of their setters, the HostedControlPlane's and the cluster version operator's
 * bubbled up (support/conditions/conditions.go lists the ones a healthy cluster has).
 */
export function steadyHostedClusterConditions(platform: Platform, version: string, image: string): Condition[] {
  return [
    ...OPERATOR_OWN,
    condition('IgnitionEndpointAvailable', 'True', 'AsExpected', 'Ignition server deployment is available'),
    condition('Degraded', 'False', 'AsExpected', 'The hosted cluster is not degraded'),
    condition('Available', 'True', 'AsExpected', 'The hosted control plane is available'),
    condition('EtcdAvailable', 'True', 'QuorumAvailable'),
    condition('KubeAPIServerAvailable', 'True', 'AsExpected', 'Kube APIServer deployment is available'),
    condition('InfrastructureReady', 'True', 'AsExpected', 'All is well'),
    condition('ExternalDNSReachable', 'Unknown', 'StatusUnknown'),
    condition('ValidHostedControlPlaneConfiguration', 'True', 'AsExpected', 'Configuration passes validation'),
    condition('ValidReleaseInfo', 'True', 'AsExpected', 'All is well'),
    condition('ValidIDPConfiguration', 'Unknown', 'StatusUnknown', 'Condition not found in the HCP'),
    condition('DataPlaneConnectionAvailable', 'True', 'AsExpected', 'All is well'),
    condition('ControlPlaneConnectionAvailable', 'True', 'AsExpected', 'All is well'),
    condition('ClusterVersionSucceeding', 'True', 'FromClusterVersion'),
    condition('ClusterVersionProgressing', 'False', 'FromClusterVersion', `Cluster version is ${version}`),
    condition('ClusterVersionAvailable', 'True', 'FromClusterVersion', `Done applying ${version}`),
    condition('ClusterVersionReleaseAccepted', 'True', 'PayloadLoaded', `Payload loaded version="${version}" image="${image}" architecture="Multi"`),
    condition('ClusterVersionUpgradeable', 'True', 'FromClusterVersion', 'Condition not found in the CVO.'),
    condition('ReconciliationSucceeded', 'True', 'ReconciliatonSucceeded', 'Reconciliation completed successfully'),
    condition('PlatformCredentialsFound', 'True', 'AsExpected', 'Required platform credentials are found'),
    ...(platform === 'AWS'
      ? [
          condition('ValidAWSIdentityProvider', 'True', 'AsExpected', 'All is well'),
          condition('ValidOIDCConfiguration', 'True', 'AsExpected', 'OIDC configuration is valid'),
          condition('AWSDefaultSecurityGroupCreated', 'True', 'AsExpected', 'All is well'),
        ]
      : []),
  ];
}

/**
 * A HostedCluster's conditions on the first reconcile, before its HostedControlPlane exists: the
 * operator's own validations pass, everything bubbled up from the control plane is Unknown ("The
 * hosted control plane is not found", "Condition not found in the CVO."), and Available is False
 * (computeHostedClusterAvailability with no HostedControlPlane).
 */
export function bootstrapHostedClusterConditions(): Condition[] {
  const notFound = (type: string) => condition(type, 'Unknown', 'StatusUnknown', 'The hosted control plane is not found');
  const notInCvo = (type: string) => condition(type, 'Unknown', 'StatusUnknown', 'Condition not found in the CVO.');
  return [
    ...OPERATOR_OWN,
    condition('IgnitionEndpointAvailable', 'False', 'NotFound', 'Ignition server deployment not found'),
    condition('Degraded', 'Unknown', 'StatusUnknown', 'The hosted control plane is not found'),
    condition('Available', 'False', 'WaitingForAvailable', 'Waiting for hosted control plane to be healthy'),
    ...['EtcdAvailable', 'KubeAPIServerAvailable', 'InfrastructureReady', 'ExternalDNSReachable', 'ValidHostedControlPlaneConfiguration', 'ValidReleaseInfo', 'ValidIDPConfiguration'].map(notFound),
    ...['ClusterVersionSucceeding', 'ClusterVersionProgressing', 'ClusterVersionReleaseAccepted', 'ClusterVersionUpgradeable', 'ClusterVersionAvailable'].map(notInCvo),
  ];
}

/** What a HostedCluster's spec says, for the model: its release, its platform, its generation. */
export interface HostedClusterSpec {
  readonly name: string;
  readonly platform: Platform;
  readonly image: string;
  readonly generation?: number;
  readonly annotations?: Record<string, string>;
  readonly deletionTimestamp?: string;
}

/** A HostedCluster with `status`. */
export function hostedCluster(spec: HostedClusterSpec, status?: any): any {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'HostedCluster',
    metadata: {
      name: spec.name,
      namespace: 'clusters',
      generation: spec.generation ?? 1,
      ...(spec.annotations ? { annotations: spec.annotations } : {}),
      ...(spec.deletionTimestamp ? { deletionTimestamp: spec.deletionTimestamp, finalizers: ['hypershift.openshift.io/finalizer'] } : {}),
    },
    spec: { release: { image: spec.image }, platform: { type: spec.platform }, pullSecret: { name: 'pull-secret' } },
    ...(status !== undefined ? { status } : {}),
  };
}

/**
 * A NodePool's conditions once its machines run the release `image` names and are Ready: each
 * setter of the reconcile loop (conditions.go: autoscalerEnabledCondition ... validPlatformConfigCondition)
 * and of capi.go, with its reason and message. A pool without autoscaling has AutoscalingEnabled
 * False with reason AsExpected and no message. A None pool has no Machines: no Ready condition, and
 * AllMachinesReady / AllNodesHealthy False with reason NotFound (setAllMachinesReadyCondition).
 */
export function steadyNodePoolConditions(platform: Platform, image: string): Condition[] {
  const managed = platform !== 'None';
  return [
    condition('AutoscalingEnabled', 'False', 'AsExpected'),
    condition('UpdateManagementEnabled', 'True', 'AsExpected'),
    condition('ValidReleaseImage', 'True', 'AsExpected', `Using release image: ${image}`),
    condition('ValidArchPlatform', 'True', 'AsExpected'),
    condition('ReconciliationActive', 'True', 'ReconciliationActive', 'Reconciliation active on resource'),
    condition('SupportedVersionSkew', 'True', 'AsExpected', 'Release image version is valid'),
    condition('ValidMachineConfig', 'True', 'AsExpected'),
    condition('UpdatingConfig', 'False', 'AsExpected'),
    condition('UpdatingVersion', 'False', 'AsExpected'),
    condition('ValidGeneratedPayload', 'True', 'AsExpected', 'Payload generated successfully'),
    condition('ReachedIgnitionEndpoint', 'True', 'AsExpected'),
    condition('AllMachinesReady', managed ? 'True' : 'False', managed ? 'AsExpected' : 'NotFound', managed ? 'All is well' : 'No Machines are created'),
    condition('AllNodesHealthy', managed ? 'True' : 'False', managed ? 'AsExpected' : 'NotFound', managed ? 'All is well' : 'No Machines are created'),
    condition('ValidPlatformConfig', 'True', 'AsExpected', 'All is well'),
    ...(platform === 'AWS'
      ? [
          condition('ValidPlatformImage', 'True', 'AsExpected', 'Bootstrap AMI is "ami-0a1b2c3d4e5f60718"'),
          condition('AWSSecurityGroupAvailable', 'True', 'AsExpected', 'NodePool has a default security group'),
        ]
      : []),
    ...(platform === 'KubeVirt' ? [condition('ValidPlatformImage', 'True', 'AsExpected', 'Bootstrap KubeVirt Image is quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:rhcos')] : []),
    ...(managed ? [condition('UpdatingPlatformMachineTemplate', 'False', 'AsExpected'), condition('AutorepairEnabled', 'False', 'AsExpected'), condition('Ready', 'True', 'AsExpected')] : []),
  ];
}

/** What a NodePool's spec says, for the model. */
export interface NodePoolSpec {
  readonly name: string;
  readonly platform: Platform;
  readonly image: string;
  readonly generation?: number;
  readonly replicas?: number;
  readonly autoScaling?: { readonly min: number; readonly max: number };
  readonly upgradeType?: 'Replace' | 'InPlace';
  readonly deletionTimestamp?: string;
}

/** A NodePool of cluster `c1` with `status`. */
export function nodePool(spec: NodePoolSpec, status?: any): any {
  return {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    kind: 'NodePool',
    metadata: {
      name: spec.name,
      namespace: 'clusters',
      generation: spec.generation ?? 1,
      ...(spec.deletionTimestamp ? { deletionTimestamp: spec.deletionTimestamp, finalizers: ['hypershift.openshift.io/finalizer'] } : {}),
    },
    spec: {
      clusterName: 'c1',
      release: { image: spec.image },
      ...(spec.autoScaling ? { autoScaling: spec.autoScaling } : { replicas: spec.replicas ?? 2 }),
      management: { upgradeType: spec.upgradeType ?? 'Replace', autoRepair: false },
      platform: { type: spec.platform },
    },
    ...(status !== undefined ? { status } : {}),
  };
}
