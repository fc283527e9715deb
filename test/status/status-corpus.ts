// The corpus of status shapes: every HostedCluster and NodePool status HyperShift's controllers write
// (openshift/hypershift at 3ee9615567) that a consumer must tell apart, on the four platforms hcp-cdk
// supports, each with the code (or upstream test) it comes from and the verdict every consumer must
// give: Argo CD's health (the Lua of ARGO_CD_HEALTH_CHECKS), Flux's status (the CEL of
// FLUX_HEALTH_CHECKS, evaluated as kustomize-controller does), hcp-cdk's model (hostedClusterStatus,
// nodePoolStatus: `state` or `state/progress`), the rollout phase (clusterRolloutStatus) and the findings
// of `plan --live` on a commit that changes the cluster. The verdicts are written from reading
// HyperShift's code, not produced by the code under test. Paths below are relative to
// hypershift-operator/controllers/ unless they name another directory.
import {
  AT,
  bootstrapHostedClusterConditions,
  clusterVersion,
  condition,
  conditions,
  digestImage,
  hostedCluster,
  nodePool,
  Platform,
  steadyHostedClusterConditions,
  steadyNodePoolConditions,
  tagImage,
} from './hypershift-objects';

/** One shape and what each consumer must make of it. */
export interface StatusShape {
  /** A name that says what the shape is. */
  readonly name: string;
  /** The platform of the object. */
  readonly platform: Platform;
  /** The upstream code (file and function) or test that writes this status. */
  readonly source: string;
  /** The HostedCluster or NodePool, with its status. */
  readonly object: any;
  /** Argo CD's health. */
  readonly argoCd: 'Healthy' | 'Progressing' | 'Degraded' | 'Suspended';
  /** What Argo CD's message (and the model's summary) must say: a part of it. */
  readonly says: string;
  /** Flux's status. */
  readonly flux: 'Current' | 'InProgress' | 'Failed';
  /** hcp-cdk's model: `state` or `state/progress`. */
  readonly model: string;
  /** The rollout phase of its cluster, the other part healthy. */
  readonly rollout: string;
  /** plan --live's findings on the object when the commit changes its cluster: the kind and a part of the summary. */
  readonly planLive: readonly { readonly finding: string; readonly says: string }[];
}

const V0 = '4.17.0';
const V3 = '4.17.3';
const V5 = '4.17.5';
const G = 2;

/** A HostedCluster at rest at 4.17.3 (released by tag, recorded by digest), generation 2, with `changes` to its conditions. */
function steadyCluster(
  name: string,
  platform: Platform,
  changes: Parameters<typeof conditions>[1] = [],
  extra: { image?: string; annotations?: Record<string, string>; deletionTimestamp?: string } = {},
): any {
  return hostedCluster(
    {
      name,
      platform,
      image: extra.image ?? tagImage(V3),
      generation: G,
      ...(extra.annotations ? { annotations: extra.annotations } : {}),
      ...(extra.deletionTimestamp ? { deletionTimestamp: extra.deletionTimestamp } : {}),
    },
    {
      version: clusterVersion({ version: V3, image: digestImage(V3) }, [
        { state: 'Completed', version: V3, image: digestImage(V3) },
        { state: 'Completed', version: V0, image: digestImage(V0) },
      ]),
      conditions: conditions(steadyHostedClusterConditions(platform, V3, digestImage(V3)), changes, [], G),
    },
  );
}

/** A HostedCluster whose spec names 4.17.5 while the cluster version operator targets `desired` over a Completed 4.17.3. */
function upgradeCluster(name: string, platform: Platform, desired: string, changes: Parameters<typeof conditions>[1], annotations?: Record<string, string>, spec = tagImage(V5)): any {
  const history = [...(desired !== V3 ? [{ state: 'Partial' as const, version: desired, image: digestImage(desired) }] : []), { state: 'Completed' as const, version: V3, image: digestImage(V3) }];
  return hostedCluster(
    { name, platform, image: spec, generation: G, ...(annotations ? { annotations } : {}) },
    {
      version: clusterVersion({ version: desired, image: digestImage(desired) }, history),
      conditions: conditions(steadyHostedClusterConditions(platform, V3, digestImage(V3)), changes, [], G),
    },
  );
}

/** A HostedCluster on its first reconcile: the history HyperShift starts (computeClusterVersionStatus, no history yet), no control plane yet. */
function bootstrapCluster(name: string, platform: Platform, changes: Parameters<typeof conditions>[1] = []): any {
  const image = tagImage(V0);
  return hostedCluster(
    { name, platform, image },
    {
      version: {
        desired: { image, version: '' },
        history: [{ state: 'Partial', image, version: '', startedTime: AT, completionTime: null, verified: false }],
        observedGeneration: 1,
        availableUpdates: null,
      },
      conditions: conditions(bootstrapHostedClusterConditions(), changes, [], 1),
    },
  );
}

/** A HostedCluster installing 4.17.0 with its control plane up: the cluster version operator's first, Partial, entry. */
function installingCluster(name: string, platform: Platform, changes: Parameters<typeof conditions>[1] = []): any {
  return hostedCluster(
    { name, platform, image: tagImage(V0) },
    {
      version: clusterVersion({ version: V0, image: digestImage(V0) }, [{ state: 'Partial', version: V0, image: digestImage(V0) }]),
      conditions: conditions(
        steadyHostedClusterConditions(platform, V0, digestImage(V0)),
        [
          condition('ClusterVersionProgressing', 'True', 'FromClusterVersion', `Working towards ${V0}: 612 of 860 done (71% complete), waiting on authentication, console, ingress, monitoring`),
          condition('ClusterVersionAvailable', 'False', 'FromClusterVersion'),
          condition('DataPlaneConnectionAvailable', 'Unknown', 'NoWorkerNodesAvailable', 'No worker nodes available'),
          ...changes,
        ],
        [],
        1,
      ),
    },
  );
}

/** A NodePool at rest at 4.17.3, with `changes` to its conditions. */
function steadyPool(name: string, platform: Platform, changes: Parameters<typeof conditions>[1] = [], spec: Partial<Parameters<typeof nodePool>[0]> = {}, status: Record<string, unknown> = {}): any {
  const image = spec.image ?? tagImage(V3);
  const generation = spec.generation ?? 1;
  return nodePool(
    { name, platform, image, ...spec },
    { version: V3, replicas: spec.replicas ?? 2, conditions: conditions(steadyNodePoolConditions(platform, image), changes, [], generation), ...status },
  );
}

/** A NodePool on its first rollout: no status.version, UpdatingVersion and UpdatingConfig True (isUpdatingVersion, isUpdatingConfig against an empty status). */
function installingPool(name: string, platform: Platform, changes: Parameters<typeof conditions>[1]): any {
  const image = tagImage(V0);
  return nodePool(
    { name, platform, image },
    {
      replicas: 0,
      conditions: conditions(
        steadyNodePoolConditions(platform, image),
        [
          condition('UpdatingVersion', 'True', 'AsExpected', `Updating version in progress. Target version: ${V0}`),
          condition('UpdatingConfig', 'True', 'AsExpected', 'Updating config in progress. Target config: 7c1e9d0a'),
          condition('ReachedIgnitionEndpoint', 'False', 'ignitionNotReached'),
          condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 2 replicas, current 0 available'),
          ...changes,
        ],
        [],
        1,
      ),
    },
  );
}

/** `object` after a spec change HyperShift has not reconciled: its generation `generation`, its conditions as they were. */
function withGeneration(object: any, generation: number): any {
  return { ...object, metadata: { ...object.metadata, generation } };
}

const CLUSTER_REFUSES = 'what this commit changes waits on it';

/** HostedCluster shapes. */
const HOSTED_CLUSTERS: StatusShape[] = [
  {
    name: 'hc: created, no status yet',
    platform: 'Agent',
    source: 'hostedcluster_controller.go reconcile: no status until its first pass (every HostedClusterStatus field is omitempty)',
    object: hostedCluster({ name: 'c1', platform: 'Agent', image: tagImage(V0) }),
    argoCd: 'Progressing',
    says: 'first install of quay.io/openshift-release-dev/ocp-release:4.17.0-multi: no Available condition yet',
    flux: 'InProgress',
    model: 'progressing/installing',
    rollout: 'installing',
    planLive: [
      { finding: 'install-in-progress', says: 'the first install of quay.io/openshift-release-dev/ocp-release:4.17.0-multi is still in progress (HyperShift reports no version yet)' },
      { finding: 'not-available', says: 'it reports no Available condition yet' },
    ],
  },
  {
    name: 'hc: first reconcile, no control plane yet',
    platform: 'KubeVirt',
    source:
      'hostedcluster_controller.go computeClusterVersionStatus (no history: a Partial entry for the spec image), computeHostedClusterAvailability (no HostedControlPlane: WaitingForAvailable), the HCP conditions block ("The hosted control plane is not found")',
    object: bootstrapCluster('c1', 'KubeVirt'),
    argoCd: 'Progressing',
    says: 'first install of quay.io/openshift-release-dev/ocp-release:4.17.0-multi: Available is False (WaitingForAvailable): Waiting for hosted control plane to be healthy',
    flux: 'InProgress',
    model: 'progressing/installing',
    rollout: 'installing',
    planLive: [
      { finding: 'install-in-progress', says: 'no status.version.history entry is Completed yet' },
      { finding: 'not-available', says: 'reason WaitingForAvailable' },
    ],
  },
  {
    name: 'hc: first install, control plane Available, nodes booting',
    platform: 'Agent',
    source:
      'hcpstatus.go (control-plane-operator/hostedclusterconfigoperator) copies the ClusterVersion status, the image by digest; isProgressing resolves the spec tag to it (TestIsProgressing "stable at release with digest"): Progressing False',
    object: installingCluster('c1', 'Agent'),
    argoCd: 'Healthy',
    says: 'first install of 4.17.0: the control plane is available, waiting for its nodes',
    flux: 'Current',
    model: 'progressing/installing',
    rollout: 'installing',
    planLive: [{ finding: 'install-in-progress', says: 'the first install of 4.17.0 is still in progress (no status.version.history entry is Completed yet)' }],
  },
  {
    name: 'hc: first install, Degraded while its Deployments come up',
    platform: 'AWS',
    source: 'control-plane-operator hostedcontrolplane_controller.go reconcileDegradedStatus (unavailable replicas of any Deployment), copied by the Degraded block of reconcile',
    object: installingCluster('c1', 'AWS', [condition('Degraded', 'True', 'UnavailableReplicas', 'kube-apiserver deployment has 2 unavailable replicas')]),
    argoCd: 'Healthy',
    says: 'first install of 4.17.0: the control plane is available',
    flux: 'Current',
    model: 'progressing/installing',
    rollout: 'installing',
    planLive: [{ finding: 'install-in-progress', says: 'the first install of 4.17.0' }],
  },
  {
    name: 'hc: at rest, released by tag, status by digest',
    platform: 'Agent',
    source:
      'isProgressing (spec image as written or resolved to its digest), TestIsProgressing "When cluster is stable at release with digest"; commit bf9b2a7998 "Fix IsProgressing condition in HostedClusters"',
    object: steadyCluster('c1', 'Agent'),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'hc: at rest, released by digest',
    platform: 'KubeVirt',
    source: 'isProgressing (spec image equal to status.version.desired.image), TestIsProgressing "When cluster is stable at release"',
    object: steadyCluster('c1', 'KubeVirt', [], { image: digestImage(V3) }),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'hc: at rest, no Progressing condition (images compared as written)',
    platform: 'None',
    source:
      'computeClusterVersionStatus, the legacy path for control planes that do not report a version status (desired image as the spec writes it, the entry Completed once the control plane reports the image)',
    object: hostedCluster(
      { name: 'c1', platform: 'None', image: tagImage(V3), generation: G },
      {
        version: clusterVersion({ version: V3, image: tagImage(V3) }, [{ state: 'Completed', version: V3, image: tagImage(V3) }]),
        conditions: conditions(steadyHostedClusterConditions('None', V3, tagImage(V3)), [], ['Progressing'], G),
      },
    ),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'hc: upgrade not yet taken',
    platform: 'AWS',
    source: 'isProgressing (spec 4.17.5 is not status.version.desired, as written or by digest): Progressing True, reason Progressing; TestIsProgressing "When cluster is upgrading with digest"',
    object: upgradeCluster('c1', 'AWS', V3, [condition('Progressing', 'True', 'Progressing', 'HostedCluster is deploying, upgrading, or reconfiguring')]),
    argoCd: 'Progressing',
    says: 'HyperShift has not started quay.io/openshift-release-dev/ocp-release:4.17.5-multi yet: status.version.desired is 4.17.3',
    flux: 'InProgress',
    model: 'progressing/upgrade-pending',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'upgrade-in-progress', says: 'spec.release.image names it, but status.version.desired is still 4.17.3: HyperShift has not started it yet' }],
  },
  {
    name: 'hc: spec changed, not yet reconciled',
    platform: 'None',
    source: 'the Progressing block of reconcile writes ObservedGeneration: hcluster.Generation on every pass; generation 3 applied, conditions still of generation 2',
    object: withGeneration(upgradeCluster('c1', 'None', V3, []), 3),
    argoCd: 'Progressing',
    says: 'HyperShift has not reconciled generation 3 yet (its Progressing condition is of generation 2)',
    flux: 'InProgress',
    model: 'progressing/not-reconciled',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'not-reconciled', says: 'HyperShift has not reconciled generation 3 yet' }],
  },
  {
    name: 'hc: control plane upgrading (version operator has taken it)',
    platform: 'Agent',
    source: 'hcpstatus.go: the ClusterVersion history, newest first, its first entry Partial; isProgressing: desired is the spec by digest, Progressing False AsExpected',
    object: upgradeCluster('c1', 'Agent', V5, [
      condition('ClusterVersionProgressing', 'True', 'FromClusterVersion', `Working towards ${V5}: 512 of 860 done (59% complete)`),
      condition('ClusterVersionReleaseAccepted', 'True', 'PayloadLoaded', `Payload loaded version="${V5}" image="${digestImage(V5)}" architecture="Multi"`),
    ]),
    argoCd: 'Progressing',
    says: 'the control plane is upgrading from 4.17.3 to 4.17.5',
    flux: 'InProgress',
    model: 'progressing/upgrading',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'upgrade-in-progress', says: 'the control plane is still upgrading to 4.17.5 (status.version.history[0] is Partial since 2026-05-01T10:00:00Z)' }],
  },
  {
    name: 'hc: HA control plane upgrading, Degraded while its Deployments roll',
    platform: 'KubeVirt',
    source: 'support/controlplane-component/deployment.go (3 replicas roll with maxUnavailable 1), reconcileDegradedStatus (unavailable replicas: Degraded True)',
    object: upgradeCluster('c1', 'KubeVirt', V5, [condition('Degraded', 'True', 'UnavailableReplicas', 'kube-apiserver deployment has 1 unavailable replicas')]),
    argoCd: 'Progressing',
    says: 'the control plane is upgrading from 4.17.3 to 4.17.5; Degraded is True (UnavailableReplicas): kube-apiserver deployment has 1 unavailable replicas',
    flux: 'InProgress',
    model: 'progressing/upgrading',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'upgrade-in-progress', says: 'still upgrading to 4.17.5' }],
  },
  {
    name: 'hc: upgrade blocked, not Upgradeable',
    platform: 'AWS',
    source:
      'isUpgrading ("cluster version is not upgradeable": a minor update, ClusterVersionUpgradeable False, no forceUpgradeTo), isProgressing: Progressing False, reason Blocked; TestIsProgressing "blocked by ClusterVersionUpgradeable"',
    object: upgradeCluster(
      'c1',
      'AWS',
      V3,
      [
        condition(
          'ClusterVersionUpgradeable',
          'False',
          'AdminAckRequired',
          'Kubernetes 1.31 and therefore OpenShift 4.18 remove several APIs which require admin consideration. Please see the knowledge article https://access.redhat.com/articles/7031404 for details and instructions.',
        ),
        condition('Progressing', 'False', 'Blocked', 'ClusterVersionUpgradeable condition is false: cluster version is not upgradeable'),
      ],
      undefined,
      tagImage('4.18.1'),
    ),
    argoCd: 'Degraded',
    says: 'HyperShift does not start quay.io/openshift-release-dev/ocp-release:4.18.1-multi: Progressing is False (Blocked): ClusterVersionUpgradeable condition is false: cluster version is not upgradeable; ClusterVersionUpgradeable is False (AdminAckRequired): Kubernetes 1.31',
    flux: 'Failed',
    model: 'blocked',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'ClusterVersionUpgradeable is False (AdminAckRequired)' }],
  },
  {
    name: 'hc: minor upgrade forced past Upgradeable False',
    platform: 'None',
    source: 'isUpgrading ("upgrade is forced by annotation": force-upgrade-to names the spec image), TestIsProgressing "When cluster upgrade is forced"',
    object: upgradeCluster(
      'c1',
      'None',
      V3,
      [
        condition('ClusterVersionUpgradeable', 'False', 'AdminAckRequired', 'Kubernetes 1.31 and therefore OpenShift 4.18 remove several APIs which require admin consideration.'),
        condition('Progressing', 'True', 'Progressing', 'HostedCluster is deploying, upgrading, or reconfiguring'),
      ],
      { 'hypershift.openshift.io/force-upgrade-to': tagImage('4.18.1') },
      tagImage('4.18.1'),
    ),
    argoCd: 'Progressing',
    says: 'HyperShift has not started quay.io/openshift-release-dev/ocp-release:4.18.1-multi yet',
    flux: 'InProgress',
    model: 'progressing/upgrade-pending',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'upgrade-in-progress', says: 'HyperShift has not started it yet' }],
  },
  {
    name: 'hc: z-stream update while not Upgradeable',
    platform: 'Agent',
    source: 'isUpgrading (a z-stream update is allowed when ClusterVersionUpgradeable is False), TestIsUpgradeable "z-stream upgrade is attempted"',
    object: upgradeCluster('c1', 'Agent', V3, [
      condition(
        'ClusterVersionUpgradeable',
        'False',
        'ClusterOperatorNotUpgradeable',
        'Cluster operator olm should not be upgraded between minor versions: ClusterServiceVersions blocking minor version upgrades: openshift-operators/example-operator.v1.2.0 is incompatible with OpenShift minor versions greater than 4.17',
      ),
      condition('Progressing', 'True', 'Progressing', 'HostedCluster is deploying, upgrading, or reconfiguring'),
    ]),
    argoCd: 'Progressing',
    says: 'HyperShift has not started quay.io/openshift-release-dev/ocp-release:4.17.5-multi yet',
    flux: 'InProgress',
    model: 'progressing/upgrade-pending',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'upgrade-in-progress', says: 'status.version.desired is still 4.17.3' }],
  },
  {
    name: 'hc: release refused (newer than the operator supports)',
    platform: 'KubeVirt',
    source: 'validateReleaseImage, support/supportedversion/version.go IsValidReleaseVersion ("the latest version supported is"): ValidReleaseImage False, reason InvalidImage; isProgressing: Blocked',
    object: upgradeCluster(
      'c1',
      'KubeVirt',
      V3,
      [
        condition('ValidReleaseImage', 'False', 'InvalidImage', 'the latest version supported is: "4.20". Attempting to use: "4.21.0"'),
        condition('Progressing', 'False', 'Blocked', 'ValidReleaseImage condition is false: the latest version supported is: "4.20". Attempting to use: "4.21.0"'),
      ],
      undefined,
      tagImage('4.21.0'),
    ),
    argoCd: 'Degraded',
    says: 'HyperShift refuses the spec: ValidReleaseImage is False (InvalidImage): the latest version supported is: "4.20". Attempting to use: "4.21.0"',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: `ValidReleaseImage is False (InvalidImage)` }],
  },
  {
    name: 'hc: pull secret missing',
    platform: 'Agent',
    source:
      'validateReleaseImage and support/util GetPullSecretBytes ("pull secret unavailable"): ValidReleaseImage False, reason SecretNotFound; Progressing Blocked; Available carries the Blocked message (computeHostedClusterAvailability); TestReconcileWhenPullSecretUnavailable',
    object: bootstrapCluster('c1', 'Agent', [
      condition('ValidReleaseImage', 'False', 'SecretNotFound', 'pull secret unavailable: secrets "pull-secret" not found'),
      condition('Progressing', 'False', 'Blocked', 'pull secret unavailable: secrets "pull-secret" not found'),
      condition('Available', 'False', 'WaitingForAvailable', 'pull secret unavailable: secrets "pull-secret" not found'),
    ]),
    argoCd: 'Degraded',
    says: 'HyperShift refuses the spec: ValidReleaseImage is False (SecretNotFound): pull secret unavailable: secrets "pull-secret" not found',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [
      { finding: 'hypershift-refuses', says: 'ValidReleaseImage is False (SecretNotFound)' },
      { finding: 'not-available', says: 'pull secret unavailable' },
    ],
  },
  {
    name: 'hc: unsupported by the operator (private cluster, no AWS credentials)',
    platform: 'AWS',
    source: 'validateHostedClusterSupport ("AWS_REGION environment variable is not set for the operator"): SupportedHostedCluster False, reason UnsupportedHostedCluster',
    object: bootstrapCluster('c1', 'AWS', [
      condition('SupportedHostedCluster', 'False', 'UnsupportedHostedCluster', 'AWS_REGION environment variable is not set for the operator'),
      condition('Progressing', 'False', 'Blocked', 'SupportedHostedCluster condition is false: AWS_REGION environment variable is not set for the operator'),
    ]),
    argoCd: 'Degraded',
    says: 'SupportedHostedCluster is False (UnsupportedHostedCluster): AWS_REGION environment variable is not set for the operator',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [
      { finding: 'hypershift-refuses', says: 'SupportedHostedCluster is False' },
      { finding: 'not-available', says: 'Waiting for hosted control plane to be healthy' },
    ],
  },
  {
    name: 'hc: configuration refused',
    platform: 'None',
    source:
      'validateConfigAndClusterCapabilities ("cluster does not support Routes, but service ... is exposed via a Route"): ValidConfiguration False, reason InvalidConfiguration; TestValidateConfigAndClusterCapabilities',
    object: steadyCluster('c1', 'None', [
      condition('ValidConfiguration', 'False', 'InvalidConfiguration', 'cluster does not support Routes, but service "OAuthServer" is exposed via a Route'),
      condition('Progressing', 'False', 'Blocked', 'ValidConfiguration condition is false: cluster does not support Routes, but service "OAuthServer" is exposed via a Route'),
    ]),
    argoCd: 'Degraded',
    says: 'ValidConfiguration is False (InvalidConfiguration): cluster does not support Routes',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: CLUSTER_REFUSES }],
  },
  {
    name: 'hc: platform credentials missing (external KubeVirt infra)',
    platform: 'KubeVirt',
    source: 'reconcilePlatformCredentialsWithStatus, internal/platform/kubevirt ReconcileCredentials ("failed to get secret"): PlatformCredentialsFound False, reason PlatformCredentialsNotFound',
    object: steadyCluster('c1', 'KubeVirt', [
      condition('PlatformCredentialsFound', 'False', 'PlatformCredentialsNotFound', 'failed to get secret clusters/kv-infra-kubeconfig: secrets "kv-infra-kubeconfig" not found'),
    ]),
    argoCd: 'Degraded',
    says: 'PlatformCredentialsFound is False (PlatformCredentialsNotFound)',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'PlatformCredentialsFound is False' }],
  },
  {
    name: 'hc: release payload not accepted by the version operator',
    platform: 'AWS',
    source: 'hcpstatus.go bubbles the ClusterVersion ReleaseAccepted condition; reconcile copies it as ClusterVersionReleaseAccepted',
    object: upgradeCluster('c1', 'AWS', V3, [
      condition('Progressing', 'True', 'Progressing', 'HostedCluster is deploying, upgrading, or reconfiguring'),
      condition(
        'ClusterVersionReleaseAccepted',
        'False',
        'RetrievePayload',
        `Retrieving payload failed version="${V5}" image="${digestImage(V5)}" failure=The update cannot be verified: unable to verify sha256 against keyrings: verifier-public-key-redhat`,
      ),
    ]),
    argoCd: 'Degraded',
    says: 'ClusterVersionReleaseAccepted is False (RetrievePayload): Retrieving payload failed',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'ClusterVersionReleaseAccepted is False' }],
  },
  {
    name: 'hc: Degraded while Available, at rest',
    platform: 'Agent',
    source: 'reconcileDegradedStatus ("%s deployment has %d unavailable replicas"), copied by the Degraded block of reconcile; Available stays True',
    object: steadyCluster('c1', 'Agent', [condition('Degraded', 'True', 'UnavailableReplicas', 'kube-apiserver deployment has 1 unavailable replicas')]),
    argoCd: 'Degraded',
    says: 'Degraded is True (UnavailableReplicas): kube-apiserver deployment has 1 unavailable replicas',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'Degraded is True (UnavailableReplicas)' }],
  },
  {
    name: 'hc: not Available at rest (API load balancer unreachable)',
    platform: 'AWS',
    source:
      'control-plane-operator computeHostedControlPlaneAvailability (a failed health check of the load balancer: KASLoadBalancerNotReachable), computeHostedClusterAvailability; TestComputeHostedClusterAvailability',
    object: steadyCluster('c1', 'AWS', [
      condition('Available', 'False', 'KASLoadBalancerNotReachable', 'Get "https://a8f1c2e4b5.elb.us-east-1.amazonaws.com:6443/livez": dial tcp 10.0.1.17:6443: i/o timeout'),
    ]),
    argoCd: 'Progressing',
    says: 'not available: Available is False (KASLoadBalancerNotReachable)',
    flux: 'InProgress',
    model: 'progressing/unavailable',
    rollout: 'control-plane-progressing',
    planLive: [{ finding: 'not-available', says: 'reason KASLoadBalancerNotReachable' }],
  },
  {
    name: 'hc: API server down at rest (not Available and Degraded)',
    platform: 'None',
    source: 'computeHostedControlPlaneAvailability (KubeAPIServerAvailable False), reconcileDegradedStatus (its Deployment has unavailable replicas)',
    object: steadyCluster('c1', 'None', [
      condition('KubeAPIServerAvailable', 'False', 'WaitingForAvailable', 'Waiting for Kube APIServer deployment to become available'),
      condition('Available', 'False', 'WaitingForAvailable', 'Waiting for Kube APIServer deployment to become available'),
      condition('Degraded', 'True', 'UnavailableReplicas', 'kube-apiserver deployment has 1 unavailable replicas'),
    ]),
    argoCd: 'Degraded',
    says: 'Degraded is True (UnavailableReplicas)',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [
      { finding: 'degraded', says: 'kube-apiserver deployment has 1 unavailable replicas' },
      { finding: 'not-available', says: 'Waiting for Kube APIServer deployment to become available' },
    ],
  },
  {
    name: 'hc: reconciliation paused',
    platform: 'KubeVirt',
    source: 'support/util/pausereconcile.go GenerateReconciliationActiveCondition ("Reconciliation paused until: %s"); isProgressing: Blocked',
    object: steadyCluster('c1', 'KubeVirt', [
      condition('ReconciliationActive', 'False', 'ReconciliationPaused', 'Reconciliation paused until: 2026-12-01T00:00:00Z'),
      condition('Progressing', 'False', 'Blocked', 'ReconciliationActive condition is false: Reconciliation paused until: 2026-12-01T00:00:00Z'),
    ]),
    argoCd: 'Suspended',
    says: 'reconciliation paused: ReconciliationActive is False (ReconciliationPaused): Reconciliation paused until: 2026-12-01T00:00:00Z',
    flux: 'InProgress',
    model: 'paused',
    rollout: 'paused',
    planLive: [{ finding: 'paused', says: 'HyperShift applies none of this commit' }],
  },
  {
    name: 'hc: deletion in progress',
    platform: 'AWS',
    source: 'reconcile: CloudResourcesDestroyed bubbled up while the HostedControlPlane is deleted, then the delete path (HostedClusterDestroyed, the finalizer)',
    object: steadyCluster('c1', 'AWS', [condition('CloudResourcesDestroyed', 'Unknown', 'StatusUnknown')], { deletionTimestamp: '2026-05-02T09:00:00Z' }),
    argoCd: 'Progressing',
    says: 'deletion in progress: CloudResourcesDestroyed is Unknown (StatusUnknown)',
    flux: 'InProgress',
    model: 'deleting',
    rollout: 'deleting',
    planLive: [{ finding: 'deleting', says: 'deletion in progress' }],
  },
];

const POOL_ROLLING = 'what this commit changes in the pool joins that rollout';

/** NodePool shapes. */
const NODE_POOLS: StatusShape[] = [
  {
    name: 'np: fixed size, Ready',
    platform: 'Agent',
    source: 'nodepool/conditions.go autoscalerEnabledCondition (no autoScaling: AutoscalingEnabled False, reason AsExpected), capi.go reconcileMachineDeploymentStatus (Ready, status.version)',
    object: steadyPool('c1-workers', 'Agent'),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'np: autoscaling, Ready',
    platform: 'AWS',
    source: 'autoscalerEnabledCondition ("Maximum nodes: %v, Minimum nodes: %v": AutoscalingEnabled True)',
    object: steadyPool('c1-workers', 'AWS', [condition('AutoscalingEnabled', 'True', 'AsExpected', 'Maximum nodes: 6, Minimum nodes: 2')], { autoScaling: { min: 2, max: 6 } }),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'np: autoscaling from zero refused on a platform without it',
    platform: 'KubeVirt',
    source: 'autoscalerEnabledCondition ("Autoscaling from zero (min=0) is not supported for %s platform": AutoscalingEnabled False, reason ValidationFailed)',
    object: steadyPool('c1-workers', 'KubeVirt', [condition('AutoscalingEnabled', 'False', 'ValidationFailed', 'Autoscaling from zero (min=0) is not supported for KubeVirt platform')], {
      autoScaling: { min: 0, max: 3 },
    }),
    argoCd: 'Degraded',
    says: 'HyperShift refuses the spec: AutoscalingEnabled is False (ValidationFailed): Autoscaling from zero (min=0) is not supported for KubeVirt platform',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'AutoscalingEnabled is False (ValidationFailed)' }],
  },
  {
    name: 'np: first install, no Agent bound yet',
    platform: 'Agent',
    source:
      "updatingVersionCondition / updatingConfigCondition (status.version empty: both True), setAllMachinesReadyCondition (the Machines' reasons: NoSuitableAgents from cluster-api-provider-agent setAgentReservedCondition), createReachedIgnitionEndpointCondition (ignitionNotReached)",
    object: installingPool('c1-workers', 'Agent', [
      condition(
        'AllMachinesReady',
        'False',
        'NoSuitableAgents',
        '2 of 2 machines are not ready\nMachine c1-workers-7f9c4-abcde: NoSuitableAgents: \nMachine c1-workers-7f9c4-fghij: NoSuitableAgents: \n',
      ),
      condition(
        'AllNodesHealthy',
        'False',
        'WaitingForNodeRef',
        '2 of 2 machines are not healthy\nMachine c1-workers-7f9c4-abcde: WaitingForNodeRef\nMachine c1-workers-7f9c4-fghij: WaitingForNodeRef\n',
      ),
    ]),
    argoCd: 'Healthy',
    says: 'first install, waiting for machines: Minimum availability requires 2 replicas, current 0 available; no machine has reached the ignition endpoint yet',
    flux: 'Current',
    model: 'progressing/installing',
    rollout: 'pools-rolling',
    planLive: [],
  },
  {
    name: 'np: first install, instances starting',
    platform: 'AWS',
    source: "setAllMachinesReadyCondition (cluster-api-provider-aws InstanceReady reason InstanceProvisionStarted, mirrored as the Machine's InfrastructureReady)",
    object: installingPool('c1-workers', 'AWS', [
      condition(
        'AllMachinesReady',
        'False',
        'InstanceProvisionStarted',
        '2 of 2 machines are not ready\nMachine c1-workers-5d8e2-klmno: InstanceProvisionStarted: \nMachine c1-workers-5d8e2-pqrst: InstanceProvisionStarted: \n',
      ),
    ]),
    argoCd: 'Healthy',
    says: 'first install, waiting for machines',
    flux: 'Current',
    model: 'progressing/installing',
    rollout: 'pools-rolling',
    planLive: [],
  },
  {
    name: 'np: rolling a new version',
    platform: 'Agent',
    source: 'updatingVersionCondition ("Updating version in progress. Target version: %s"), isUpdatingVersion; TestUpdatingVersionCondition',
    object: steadyPool('c1-workers', 'Agent', [condition('UpdatingVersion', 'True', 'AsExpected', `Updating version in progress. Target version: ${V5}`)], { image: tagImage(V5) }),
    argoCd: 'Progressing',
    says: 'UpdatingVersion: Updating version in progress. Target version: 4.17.5',
    flux: 'InProgress',
    model: 'progressing/rolling-version',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'pool-rolling', says: POOL_ROLLING }],
  },
  {
    name: 'np: rolling a new configuration',
    platform: 'KubeVirt',
    source: 'updatingConfigCondition ("Updating config in progress. Target config: %s"); TestUpdatingConfigCondition',
    object: steadyPool('c1-workers', 'KubeVirt', [condition('UpdatingConfig', 'True', 'AsExpected', 'Updating config in progress. Target config: 5f1e2d3c')]),
    argoCd: 'Progressing',
    says: 'UpdatingConfig: Updating config in progress. Target config: 5f1e2d3c',
    flux: 'InProgress',
    model: 'progressing/rolling-config',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'pool-rolling', says: 'UpdatingConfig' }],
  },
  {
    name: 'np: rolling a new machine template',
    platform: 'AWS',
    source: 'capi.go Reconcile ("platform machine template update in progress. Target template: %s": UpdatingPlatformMachineTemplate True)',
    object: steadyPool('c1-workers', 'AWS', [condition('UpdatingPlatformMachineTemplate', 'True', 'AsExpected', 'platform machine template update in progress. Target template: c1-workers-9a8b7c6d')]),
    argoCd: 'Progressing',
    says: 'UpdatingPlatformMachineTemplate: platform machine template update in progress',
    flux: 'InProgress',
    model: 'progressing/rolling-config',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'pool-rolling', says: 'UpdatingPlatformMachineTemplate' }],
  },
  {
    name: 'np: in-place update failed on a node',
    platform: 'Agent',
    source:
      'updatingVersionCondition (InPlace: the MachineSet annotation nodePoolUpgradeInProgressFalse gives UpdatingVersion False, reason InplaceUpgradeFailed), control-plane-operator/hostedclusterconfigoperator/controllers/inplaceupgrader ("Node %s in nodepool degraded: %v")',
    object: steadyPool(
      'c1-workers',
      'Agent',
      [
        condition(
          'UpdatingVersion',
          'False',
          'InplaceUpgradeFailed',
          'Node c1-workers-2xk9p in nodepool degraded: unexpected on-disk state validating against rendered-worker-4b1c: content mismatch for file "/etc/kubernetes/kubelet.conf"',
        ),
      ],
      { upgradeType: 'InPlace', image: tagImage(V5) },
    ),
    argoCd: 'Degraded',
    says: 'in-place update failed: UpdatingVersion is False (InplaceUpgradeFailed): Node c1-workers-2xk9p in nodepool degraded',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'InplaceUpgradeFailed' }],
  },
  {
    name: 'np: skew reported by HyperShift (too far behind)',
    platform: 'None',
    source: 'supportedVersionSkewCondition, support/supportedversion ValidateVersionSkew ("NodePool minor version %d.%d is less than %d.%d ..."); TestSupportedVersionSkewCondition',
    object: steadyPool(
      'c1-workers',
      'None',
      [condition('SupportedVersionSkew', 'False', 'UnsupportedSkew', 'NodePool minor version 4.14 is less than 4.15, which is the minimum NodePool version compatible with the 4.18 HostedCluster')],
      { image: tagImage('4.14.20') },
      { version: '4.14.20' },
    ),
    argoCd: 'Degraded',
    says: 'SupportedVersionSkew is False (UnsupportedSkew): NodePool minor version 4.14 is less than 4.15',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'SupportedVersionSkew is False (UnsupportedSkew)' }],
  },
  {
    name: 'np: skew reported by HyperShift (ahead of the control plane)',
    platform: 'AWS',
    source: 'ValidateVersionSkew ("NodePool version %s cannot be higher than the HostedCluster version %s"); TestSupportedVersionSkewCondition "higher than control plane"',
    object: steadyPool(
      'c1-workers',
      'AWS',
      [
        condition('SupportedVersionSkew', 'False', 'UnsupportedSkew', `NodePool version ${V5} cannot be higher than the HostedCluster version ${V3}`),
        condition('UpdatingVersion', 'True', 'AsExpected', `Updating version in progress. Target version: ${V5}`),
      ],
      { image: tagImage(V5) },
    ),
    argoCd: 'Degraded',
    says: 'NodePool version 4.17.5 cannot be higher than the HostedCluster version 4.17.3',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'cannot be higher than the HostedCluster version' }],
  },
  {
    name: 'np: refused by platform config',
    platform: 'AWS',
    source: 'validPlatformConfigCondition, aws.go validateAWSPlatformConfig ("capacityReservation is only supported on 4.19+ clusters"): ValidPlatformConfig False, reason AWSError',
    object: steadyPool('c1-workers', 'AWS', [condition('ValidPlatformConfig', 'False', 'AWSError', 'capacityReservation is only supported on 4.19+ clusters')]),
    argoCd: 'Degraded',
    says: 'HyperShift refuses the spec: ValidPlatformConfig is False (AWSError): capacityReservation is only supported on 4.19+ clusters',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'ValidPlatformConfig is False (AWSError)' }],
  },
  {
    name: 'np: KubeVirt platform settings refused (reported as ValidMachineConfig)',
    platform: 'KubeVirt',
    source: 'kubevirt.go setKubevirtConditions, nodepool/kubevirt PlatformValidation: the KubeVirt platform checks write ValidMachineConfig False, not ValidPlatformConfig',
    object: steadyPool('c1-workers', 'KubeVirt', [
      condition('ValidMachineConfig', 'False', 'ValidationFailed', 'validation of NodePool KubeVirt platform failed: default network cannot be disabled when no additional networks are configured'),
    ]),
    argoCd: 'Degraded',
    says: 'ValidMachineConfig is False (ValidationFailed): validation of NodePool KubeVirt platform failed',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'ValidMachineConfig is False' }],
  },
  {
    name: 'np: release refused (a minor ahead of its control plane)',
    platform: 'Agent',
    source: 'releaseImageCondition, getReleaseImage, IsValidReleaseVersion with the HostedCluster version as the maximum ("Failed to get release image: ...")',
    object: steadyPool(
      'c1-workers',
      'Agent',
      [
        condition('ValidReleaseImage', 'False', 'ValidationFailed', 'Failed to get release image: the latest version supported is: "4.17". Attempting to use: "4.18.0"'),
        condition('SupportedVersionSkew', 'Unknown', 'ValidationFailed', 'Failed to get release image: the latest version supported is: "4.17". Attempting to use: "4.18.0"'),
      ],
      { image: tagImage('4.18.0') },
    ),
    argoCd: 'Degraded',
    says: 'ValidReleaseImage is False (ValidationFailed): Failed to get release image',
    flux: 'Failed',
    model: 'refused',
    rollout: 'failed',
    planLive: [{ finding: 'hypershift-refuses', says: 'ValidReleaseImage is False' }],
  },
  {
    name: 'np: cannot get machines, no suitable Agent',
    platform: 'Agent',
    source: 'setAllMachinesReadyCondition (reasons joined: NoSuitableAgents, cluster-api-provider-agent setAgentReservedCondition), capi.go (Ready from the MachineDeployment)',
    object: steadyPool(
      'c1-workers',
      'Agent',
      [
        condition('AllMachinesReady', 'False', 'NoSuitableAgents', '1 of 3 machines are not ready\nMachine c1-workers-7f9c4-uvwxy: NoSuitableAgents: \n'),
        condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 3 replicas, current 2 available'),
      ],
      { replicas: 3 },
    ),
    argoCd: 'Degraded',
    says: 'cannot get machines: AllMachinesReady is False (NoSuitableAgents)',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'cannot get machines' }],
  },
  {
    name: 'np: cannot get machines, no cloud capacity',
    platform: 'AWS',
    source: 'setAllMachinesReadyCondition (cluster-api-provider-aws InstanceReady False, reason InstanceProvisionFailed)',
    object: steadyPool(
      'c1-workers',
      'AWS',
      [
        condition(
          'AllMachinesReady',
          'False',
          'InstanceProvisionFailed',
          '1 of 3 machines are not ready\nMachine c1-workers-5d8e2-zzzzz: InstanceProvisionFailed: failed to create AWSMachine instance: InsufficientInstanceCapacity: We currently do not have sufficient m6i.xlarge capacity in the Availability Zone you requested (us-east-1a).\n',
        ),
        condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 3 replicas, current 2 available'),
      ],
      { replicas: 3 },
    ),
    argoCd: 'Degraded',
    says: 'cannot get machines: AllMachinesReady is False (InstanceProvisionFailed)',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'InsufficientInstanceCapacity' }],
  },
  {
    name: 'np: cannot get machines, VM creation failed',
    platform: 'KubeVirt',
    source: 'setAllMachinesReadyCondition (cluster-api-provider-kubevirt reconcileNormal: VMProvisioned False, reason VMCreateFailed, "Failed vm creation: %v")',
    object: steadyPool('c1-workers', 'KubeVirt', [
      condition(
        'AllMachinesReady',
        'False',
        'VMCreateFailed',
        '1 of 2 machines are not ready\nMachine c1-workers-a1b2c-d3e4f: VMCreateFailed: Failed vm creation: admission webhook "virtualmachine-validator.kubevirt.io" denied the request: insufficient quota\n',
      ),
      condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 2 replicas, current 1 available'),
    ]),
    argoCd: 'Degraded',
    says: 'cannot get machines: AllMachinesReady is False (VMCreateFailed)',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'VMCreateFailed' }],
  },
  {
    name: 'np: scaling up after its first rollout',
    platform: 'AWS',
    source: 'capi.go reconcileMachineDeploymentStatus (Ready False from the MachineDeployment while a new instance starts)',
    object: steadyPool(
      'c1-workers',
      'AWS',
      [
        condition('AllMachinesReady', 'False', 'InstanceProvisionStarted', '1 of 3 machines are not ready\nMachine c1-workers-5d8e2-aaaaa: InstanceProvisionStarted: \n'),
        condition('Ready', 'False', 'WaitingForAvailableMachines', 'Minimum availability requires 3 replicas, current 2 available'),
      ],
      { replicas: 3 },
    ),
    argoCd: 'Progressing',
    says: 'waiting for machines: Minimum availability requires 3 replicas, current 2 available',
    flux: 'InProgress',
    model: 'progressing/waiting-for-machines',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'pool-rolling', says: 'waiting for machines' }],
  },
  {
    name: 'np: platform None, at its version (no Machines, no Ready condition)',
    platform: 'None',
    source:
      'nodepool_controller.go reconcile (isAutomatedMachineManagement false for None: status.version set once the token is reconciled, no CAPI), setAllMachinesReadyCondition ("No Machines are created")',
    object: steadyPool('c1-workers', 'None'),
    argoCd: 'Healthy',
    says: 'running 4.17.3',
    flux: 'Current',
    model: 'healthy',
    rollout: 'done',
    planLive: [],
  },
  {
    name: 'np: auto-repair stopped, too many unhealthy machines',
    platform: 'AWS',
    source: 'capi.go Reconcile (MachineHealthCheck RemediationAllowed False bubbled into Ready, reason TooManyUnhealthy); TestMHCRemediationAllowedBubbledUpToReady',
    object: steadyPool(
      'c1-workers',
      'AWS',
      [
        condition('AutorepairEnabled', 'True', 'AsExpected'),
        condition('Ready', 'False', 'TooManyUnhealthy', 'Remediation is not allowed, the number of not started or unhealthy machines exceeds maxUnhealthy (total: 5, unhealthy: 3, maxUnhealthy: 2)'),
      ],
      { replicas: 5 },
    ),
    argoCd: 'Degraded',
    says: 'auto-repair stopped: Ready is False (TooManyUnhealthy)',
    flux: 'Failed',
    model: 'degraded',
    rollout: 'failed',
    planLive: [{ finding: 'degraded', says: 'TooManyUnhealthy' }],
  },
  {
    name: 'np: reconciliation paused',
    platform: 'KubeVirt',
    source: 'conditions.go generateReconciliationActiveCondition ("Reconciliation paused until field removed"); TestGenerateReconciliationPausedCondition',
    object: steadyPool('c1-workers', 'KubeVirt', [condition('ReconciliationActive', 'False', 'ReconciliationPaused', 'Reconciliation paused until field removed')]),
    argoCd: 'Suspended',
    says: 'reconciliation paused: ReconciliationActive is False (ReconciliationPaused)',
    flux: 'InProgress',
    model: 'paused',
    rollout: 'paused',
    planLive: [{ finding: 'paused', says: 'Reconciliation paused until field removed' }],
  },
  {
    name: 'np: deletion in progress',
    platform: 'Agent',
    source: 'nodepool_controller.go Reconcile (a deletionTimestamp: delete, then the finalizer removed)',
    object: steadyPool('c1-workers', 'Agent', [], { deletionTimestamp: '2026-05-02T09:00:00Z' }),
    argoCd: 'Progressing',
    says: 'deletion in progress',
    flux: 'InProgress',
    model: 'deleting',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'deleting', says: 'deletion in progress' }],
  },
  {
    name: 'np: spec changed, not yet reconciled',
    platform: 'AWS',
    source: 'conditions.go: every setter writes ObservedGeneration: nodePool.Generation; generation 4 applied, conditions of generation 3',
    object: withGeneration(steadyPool('c1-workers', 'AWS', [], { generation: 3, image: tagImage(V5) }), 4),
    argoCd: 'Progressing',
    says: 'HyperShift has not reconciled generation 4 yet (its UpdatingVersion condition is of generation 3)',
    flux: 'InProgress',
    model: 'progressing/not-reconciled',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'not-reconciled', says: 'generation 4' }],
  },
  {
    name: 'np: a refusal of an older spec, HyperShift waiting for the ignition endpoint',
    platform: 'KubeVirt',
    source:
      'nodepool_controller.go reconcile (the setters run in order and stop at the first that returns; ignitionEndpointAvailableCondition "Ignition endpoint not available, waiting"): the later conditions keep the generation of the spec before',
    object: nodePool(
      { name: 'c1-workers', platform: 'KubeVirt', image: tagImage(V3), generation: 3 },
      {
        version: V3,
        replicas: 2,
        conditions: conditions(
          steadyNodePoolConditions('KubeVirt', tagImage(V3)).map((c) => ({
            ...c,
            observedGeneration: ['AutoscalingEnabled', 'UpdateManagementEnabled', 'ValidReleaseImage'].includes(c.type) ? 3 : 2,
          })),
          [
            condition('IgnitionEndpointAvailable', 'False', 'IgnitionEndpointMissing', 'Ignition endpoint not available, waiting', 3),
            condition('ValidMachineConfig', 'False', 'ValidationFailed', 'validation of NodePool KubeVirt platform failed: the kubevirt platform rootVolume field is required', 2),
          ],
          [],
          3,
        ),
      },
    ),
    argoCd: 'Progressing',
    says: 'HyperShift has not reconciled generation 3 yet (its UpdatingVersion condition is of generation 2)',
    flux: 'InProgress',
    model: 'progressing/not-reconciled',
    rollout: 'pools-rolling',
    planLive: [{ finding: 'not-reconciled', says: 'generation 3' }],
  },
];

/** Every shape: HostedClusters, then NodePools. */
export const STATUS_CORPUS: readonly StatusShape[] = [...HOSTED_CLUSTERS, ...NODE_POOLS];

/** A HostedCluster at rest, for the shapes of NodePools (their cluster's other part). */
export const HEALTHY_CLUSTER = steadyCluster('c1', 'Agent');
/** A NodePool at rest, for the shapes of HostedClusters. */
export const HEALTHY_POOL = steadyPool('c1-workers', 'Agent');
