import { ApiObject, JsonPatch, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import type { IClusterPlatform } from '../platform/cluster-platform';
import type { PlatformType } from '../platform/platform-type';
import { recordSecretRequirement, SecretMaker } from '../secrets/secret-requirement';
import { existingSecretWithDerivedName, type ISecretSource } from '../secrets/secret-source';
import { AvailabilityPolicy } from './availability-policy';
import { mergeConfigurations } from './configuration-merge';
import { droppedFields } from './dropped-fields';
import { EtcdStorage, MIN_ETCD_VOLUME_MIB } from './etcd-storage';
import { configMap, ensureNamespace } from './kube-objects';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain, isLabelValue, isQualifiedName } from './names';
import { GuestCluster } from './guest-cluster';
import { clusterNameProblems, controlPlaneNamespaceOf, mirroredTagReleaseMessage, tinyEtcdVolumeMessage } from './hosted-cluster-rules';
import { ClusterNetworks, NetworkingProps, renderNetworking } from './networking';
import { NodePool, NodePoolOptions } from './node-pool';
import { lint, LINT_RULES } from './lint';
import { Problems, show } from './problems';
import { checkListItems, checkRequiredProps, hasMethod } from './runtime-props';
import { Release } from '../release/release';
import type { ReleaseChannel } from '../release/release-channel';
import type { IReleaseRollout } from '../release/release-rollout';
import { unknownReleaseVersion } from '../release/release-version';
import type { PausedUntil } from '../release/paused-until';
import { SecretEncryption } from './secret-encryption';
import {
  apiServerRouteProblems,
  ControlPlaneService,
  missingServices,
  nodePortAddressProblem,
  nodePortPortProblem,
  ServicePublishing,
  ServicePublishingMap,
  ServicePublishingType,
  sharedEndpointProblems,
} from './service-publishing';
import { SshPublicKey } from './ssh-public-key';
import { TrustBundle } from './trust-bundle';
import { hubHyperShiftOf } from '../release/hypershift-version';
import { renderUpgradeSettings, SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION } from '../release/upgrade-settings';
import { networkTypeReleaseProblem } from '../release/version-skew';

/** Where a hosted cluster's OLM catalogs run: `management` (the default) or `guest`. */
export const OlmCatalogPlacement = hc.HostedClusterSpecOlmCatalogPlacement;
export type OlmCatalogPlacement = hc.HostedClusterSpecOlmCatalogPlacement;
/** A capability a hosted cluster can disable (`spec.capabilities.disabled`), e.g. `ImageRegistry`. */
export const OptionalCapability = hc.HostedClusterSpecCapabilitiesDisabled;
export type OptionalCapability = hc.HostedClusterSpecCapabilitiesDisabled;

/** The label `hcp` puts on Secrets so that `hcp destroy cluster` removes them too. */
export const SAFE_TO_DELETE_WITH_CLUSTER_LABEL = 'hypershift.openshift.io/safe-to-delete-with-cluster';

/** A toleration for the control-plane pods. */
export interface Toleration {
  /** The taint key to tolerate. @default - every key (with operator Exists) */
  readonly key?: string;
  /** @default - 'Exists' when no key is given (tolerate every taint), else Kubernetes' 'Equal' */
  readonly operator?: 'Equal' | 'Exists';
  /** The taint value to match with operator Equal. @default - none */
  readonly value?: string;
  /** @default - all effects */
  readonly effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  /** @default - tolerate forever */
  readonly tolerationSeconds?: number;
}

/** A registry mirror for disconnected installs (`spec.imageContentSources`). */
export interface ImageContentSource {
  /** The repository images come from, e.g. `quay.io/openshift-release-dev/ocp-release`. */
  readonly source: string;
  /** The repositories that mirror it. */
  readonly mirrors: string[];
}

/** A hosted cluster as other constructs see it. */
export interface IHostedCluster extends IConstruct {
  /** `metadata.name` of the HostedCluster. */
  readonly clusterName: string;
  /** The HostedCluster's namespace. */
  readonly namespace: string;
  /** The cluster's platform. */
  readonly platformType: PlatformType;
  /** The release the control plane runs. */
  readonly release: Release;
  /** The infrastructure ID, the prefix of the cloud resources' names. */
  readonly infraId: string;
  /** The subnet node pools use when they name none (AWS). */
  readonly defaultSubnetId?: string;
  /** `metadata.annotations`, for the ones node pools inherit. @default - none */
  readonly annotations?: Readonly<Record<string, string>>;
  /**
   * The release node pools run when they name none: the cluster's, unless a release rollout holds
   * the pools of the cluster's wave on the release before it.
   * @default - `release`
   */
  readonly nodePoolRelease?: Release;
}

/** A HostedCluster created outside this app, for NodePools added to it. */
export interface HostedClusterAttributes {
  /** `metadata.name` of the HostedCluster. */
  readonly clusterName: string;
  /** @default 'clusters' */
  readonly namespace?: string;
  /** The cluster's platform. */
  readonly platformType: PlatformType;
  /** The release the control plane runs. */
  readonly release: Release;
  /** @default - the cluster name */
  readonly infraId?: string;
  /** @default - none */
  readonly defaultSubnetId?: string;
}

/** Props of HostedCluster. */
export interface HostedClusterProps {
  /**
   * `metadata.name`; also the first label of the cluster's DNS names. Changing it replaces the cluster.
   * @default - the construct id
   */
  readonly name?: string;
  /**
   * The namespace of the HostedCluster, its NodePools and Secrets; the control
   * plane runs in `<namespace>-<name>`.
   * @default 'clusters'
   */
  readonly namespace?: string;
  /**
   * The OpenShift release of the control plane (and, by default, of the node pools). With `rollout`,
   * what the cluster runs until the rollout releases its wave.
   */
  readonly release: Release;
  /**
   * A release rollout that covers this cluster: once the rollout releases the cluster's wave, the
   * cluster runs the rollout's release instead of `release` (see ReleaseRollout).
   * @default - none: the cluster runs `release`
   */
  readonly rollout?: IReleaseRollout;
  /** The pull secret for the release and operator images (`.dockerconfigjson`). */
  readonly pullSecret: ISecretSource;
  /** The platform the cluster runs on, with what it needs: `ClusterPlatform.agent()`, `.kubevirt()`, `.aws()` or `.none()`. */
  readonly platform: IClusterPlatform;
  /**
   * The SSH public key for the `core` user on the nodes.
   * @default - no SSH access
   */
  readonly sshKey?: SshPublicKey;
  /**
   * The base domain: the API is `api.<name>.<baseDomain>`.
   * @default - 'example.com' on Agent and None (as `hcp`); none on KubeVirt (base-domain passthrough); required on AWS
   */
  readonly baseDomain?: string;
  /**
   * Replaces `<name>` in DNS names: `api.<prefix>.<baseDomain>`.
   * @default - the cluster name
   */
  readonly baseDomainPrefix?: string;
  /** @default - the `hcp` defaults, see NetworkingProps */
  readonly networking?: NetworkingProps;
  /**
   * Publishing per control-plane service; the services you give replace the platform's defaults for them.
   * @default - Agent and None: NodePort at the platform's apiServerAddress; KubeVirt and AWS: APIServer LoadBalancer, the rest Route
   */
  readonly services?: ServicePublishingMap;
  /** @default AvailabilityPolicy.HIGHLY_AVAILABLE (as `hcp create cluster`) */
  readonly controllerAvailabilityPolicy?: AvailabilityPolicy;
  /** @default - not set; the operator uses SingleReplica */
  readonly infrastructureAvailabilityPolicy?: AvailabilityPolicy;
  /** @default EtcdStorage.managed() - 8 GiB persistent volumes */
  readonly etcd?: EtcdStorage;
  /**
   * How etcd encrypts data at rest.
   * @default - the platform's KMS when given (AWS), else AES-CBC with the key in Secret `<name>-etcd-encryption-key`, which you create
   */
  readonly secretEncryption?: SecretEncryption;
  /** @default false */
  readonly fips?: boolean;
  /**
   * The infrastructure ID that names cloud resources; lower case.
   * @default - the cluster name (deterministic, unlike the CLI's random suffix)
   */
  readonly infraId?: string;
  /**
   * A UUID for the cluster (telemetry).
   * @default - the operator generates one
   */
  readonly clusterId?: string;
  /** @default - none */
  readonly imageContentSources?: ImageContentSource[];
  /** @default - none */
  readonly additionalTrustBundle?: TrustBundle;
  /** @default OlmCatalogPlacement.MANAGEMENT */
  readonly olmCatalogPlacement?: OlmCatalogPlacement;
  /** Optional capabilities to turn off (Ingress only together with Console). @default - none */
  readonly disabledCapabilities?: OptionalCapability[];
  /** Optional capabilities to turn on. @default - none */
  readonly enabledCapabilities?: OptionalCapability[];
  /** Labels of the management-cluster nodes the control-plane pods run on. @default - any node */
  readonly controlPlaneNodeSelector?: Record<string, string>;
  /** @default - none */
  readonly controlPlaneTolerations?: Toleration[];
  /** Labels added to every control-plane pod. @default - none */
  readonly controlPlanePodLabels?: Record<string, string>;
  /** @default - none */
  readonly labels?: Record<string, string>;
  /** @default - none */
  readonly annotations?: Record<string, string>;
  /**
   * Pause reconciliation (and so upgrades): `PausedUntil.indefinitely()`, `PausedUntil.until(date)`,
   * or the string form, `'true'` or an RFC 3339 time. To unpause, remove the prop (the field goes);
   * `'false'` is refused.
   * @default - reconciled
   */
  readonly pausedUntil?: PausedUntil | string;
  /**
   * The cluster configuration (`spec.configuration`: OAuth, proxy, API server, feature gates ...), typed from the CRD.
   * @default - none
   */
  readonly configuration?: hc.HostedClusterSpecConfiguration;
  /**
   * The OIDC issuer URL of the service-account tokens.
   * @default - the platform's (AWS: the S3 discovery URL); else the operator's in-cluster default
   */
  readonly issuerUrl?: string;
  /** An extra DNS name for the API server certificate. @default - none */
  readonly kubeApiServerDnsName?: string;
  /**
   * The update channel (`spec.channel`), e.g. `ReleaseChannel.stable('4.17')` or `'stable-4.17'`: of the
   * release's minor, or the next one to update to.
   * @default - the release's channel (`Release.fromVersion(v, { channel })`), else none
   */
  readonly channel?: ReleaseChannel | string;
  /**
   * Forces the upgrade to this release although the hosted cluster reports it not upgradeable (the
   * `hypershift.openshift.io/force-upgrade-to` annotation, doc 6.7); must be `release`, by tag or by
   * digest. It also lets synth accept an update path it refuses otherwise (a skipped minor, a z-stream
   * downgrade); a minor downgrade HyperShift refuses even when forced.
   * @default - not forced
   */
  readonly forceUpgradeTo?: Release;
  /**
   * Restarts every control-plane component when it changes (the `hypershift.openshift.io/restart-date`
   * annotation, doc 12.4): a Date (written in UTC to the second) or an RFC 3339 string.
   * @default - no restart
   */
  readonly restartDate?: Date | string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A hosted control plane: the HostedCluster and everything `hcp create cluster`
 * puts next to it on the management cluster (namespace, Secrets, trust bundle).
 */
export class HostedCluster extends Construct implements IHostedCluster {
  /** Wraps a HostedCluster this app does not own, so NodePools can be added to it. */
  public static fromAttributes(scope: Construct, id: string, attrs: HostedClusterAttributes): IHostedCluster {
    class Imported extends Construct implements IHostedCluster {
      public readonly clusterName = attrs.clusterName;
      public readonly namespace = attrs.namespace ?? 'clusters';
      public readonly platformType = attrs.platformType;
      public readonly release = attrs.release;
      public readonly infraId = attrs.infraId ?? attrs.clusterName;
      public readonly defaultSubnetId = attrs.defaultSubnetId;
    }
    return new Imported(scope, id);
  }

  public readonly clusterName: string;
  /** The HostedCluster's namespace. */
  public readonly namespace: string;
  /** The namespace HyperShift runs the control plane in: `<namespace>-<name>`, e.g. `clusters-vcluster2`. */
  public readonly controlPlaneNamespace: string;
  /** The cluster's platform. */
  public readonly platformType: PlatformType;
  /** The release the control plane runs: `release`, or the rollout's once it releases the cluster's wave. */
  public readonly release: Release;
  public readonly nodePoolRelease?: Release;
  /** The infrastructure ID, the prefix of the cloud resources' names. */
  public readonly infraId: string;
  public readonly defaultSubnetId?: string;
  public readonly annotations?: Readonly<Record<string, string>>;
  /** The cluster's platform, as given. */
  public readonly platform: IClusterPlatform;
  /** Where etcd keeps its data (defaults included). */
  public readonly etcd: EtcdStorage;
  /** The HostedCluster object; use it for `addJsonPatch` escape hatches. */
  public readonly resource: ApiObject;
  /** What `pullSecret` wrote (a Secret, ExternalSecret or SealedSecret); undefined for a Secret that exists already. */
  public readonly pullSecretObject?: ApiObject;
  /** The Secret holding `sshKey`; undefined without one, or for a Secret that exists already. */
  public readonly sshKeySecret?: ApiObject;
  /** The ConfigMap `additionalTrustBundle` wrote from PEM; undefined without one, or for a ConfigMap that exists already. */
  public readonly trustBundleConfigMap?: ApiObject;
  /** What the etcd encryption key's source wrote (a Secret, ExternalSecret or SealedSecret); undefined for a Secret that exists already. */
  public readonly etcdEncryptionKeyObject?: ApiObject;
  /** What the etcd backup key's source wrote; undefined without a backup key, or for a Secret that exists already. */
  public readonly etcdEncryptionBackupKeyObject?: ApiObject;
  /** What a KubeVirt external infrastructure's kubeconfig source wrote; undefined otherwise, or for a Secret that exists already. */
  public readonly infraCredentialsObject?: ApiObject;
  /** How the control plane is replicated. */
  public readonly availabilityPolicy: AvailabilityPolicy;
  /** The pod, service and machine CIDRs the cluster uses (defaults included). */
  public readonly networks: ClusterNetworks;
  /** The namespace of the Agents (Agent platform only). */
  public readonly agentNamespace?: string;
  /** The base domain of the cluster's DNS names (undefined with KubeVirt base-domain passthrough). */
  public readonly baseDomain?: string;

  private readonly props: HostedClusterProps;
  private readonly services: Map<ControlPlaneService, ServicePublishing>;
  /** The services given in `services` or by publishService, not by the platform (which checks its own). */
  private readonly givenServices: Set<ControlPlaneService>;
  private readonly nodePools: NodePool[] = [];
  private readonly apiServerRoute: boolean;
  private guestChart?: GuestCluster;
  private readonly addedConfigurations: { readonly by: string; readonly configuration: hc.HostedClusterSpecConfiguration }[] = [];

  constructor(scope: Construct, id: string, props: HostedClusterProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      release: { accepts: (v) => v instanceof Release, expected: 'a Release: Release.fromImage(...) or Release.fromVersion(...)' },
      pullSecret: { accepts: hasMethod('bind'), expected: 'a secret source: SecretSource.fromExistingSecret(...) or another SecretSource factory' },
      platform: { accepts: hasMethod('bind'), expected: 'a cluster platform: ClusterPlatform.agent(...), .kubevirt(...), .aws(...) or .none(...)' },
    });
    if (props?.rollout !== undefined && !hasMethod('addCluster')(props.rollout)) required.require(false, 'rollout', props.rollout, 'must be a ReleaseRollout');
    for (const field of ['imageContentSources', 'controlPlaneTolerations', 'disabledCapabilities', 'enabledCapabilities'] as const) checkListItems(required, field, props?.[field]);
    required.throwIfAny();
    this.props = props;
    this.clusterName = props.name ?? id;
    this.namespace = props.namespace ?? 'clusters';
    this.controlPlaneNamespace = controlPlaneNamespaceOf(this.namespace, this.clusterName);
    this.platformType = props.platform.type;
    // Joins before the checks below, so that a cluster with problems of its own still counts in its wave.
    const channel = props.channel === undefined ? props.release.channel?.name : typeof props.channel === 'string' ? props.channel : props.channel.name;
    const assigned = props.rollout?.addCluster({
      cluster: this,
      clusterName: this.clusterName,
      namespace: this.namespace,
      labels: props.labels,
      release: props.release,
      channel,
      forceUpgradeTo: props.forceUpgradeTo,
    });
    this.release = assigned?.release ?? props.release;
    this.nodePoolRelease = assigned?.nodePoolRelease;
    this.infraId = props.infraId ?? props.platform.infraId ?? this.clusterName;
    this.availabilityPolicy = props.controllerAvailabilityPolicy ?? AvailabilityPolicy.HIGHLY_AVAILABLE;
    this.defaultSubnetId = props.platform.defaultSubnetId;
    this.annotations = props.annotations;
    this.platform = props.platform;
    this.etcd = props.etcd ?? EtcdStorage.managed();

    const problems = new Problems(this);
    this.checkIdentity(problems);
    if (props.infraId !== undefined && props.platform.infraId !== undefined && props.infraId !== props.platform.infraId) {
      problems.add(`infraId (${JSON.stringify(props.infraId)}) differs from the infra ID ${JSON.stringify(props.platform.infraId)} its AWS infrastructure was made for; leave it out to use that one`);
    }
    ensureNamespace(this, this.namespace);

    const secretLabels = { [SAFE_TO_DELETE_WITH_CLUSTER_LABEL]: 'true' };
    const platform = props.platform.bind({
      scope: this,
      clusterName: this.clusterName,
      namespace: this.namespace,
      secretLabels,
      baseDomain: props.baseDomain,
      problems: problems.within('platform'),
    });
    this.apiServerRoute = platform.apiServerRoute ?? false;

    const trustBundleName = this.bindTrustBundle(problems);
    const pullSecret = props.pullSecret.bind(this, 'PullSecret', {
      defaultName: `${this.clusterName}-pull-secret`,
      namespace: this.namespace,
      labels: secretLabels,
      key: '.dockerconfigjson',
      type: 'kubernetes.io/dockerconfigjson',
      checkValue: checkPullSecret,
      field: 'pullSecret',
    });
    if (pullSecret.problem) problems.add(pullSecret.problem);
    const pullSecretName = pullSecret.secretName;
    const sshKeySecretName = this.bindSshKey(problems, secretLabels);
    // Children of their own ids, so that their output (and ids) stay what they were.
    this.pullSecretObject = this.node.tryFindChild('PullSecret') as ApiObject | undefined;
    this.sshKeySecret = this.node.tryFindChild('SshKey') as ApiObject | undefined;
    const secretEncryption = platform.secretEncryption && !props.secretEncryption ? platform.secretEncryption : this.bindEncryptionKeys(problems, secretLabels);
    this.trustBundleConfigMap = this.node.tryFindChild('TrustBundle') as ApiObject | undefined;
    this.etcdEncryptionKeyObject = this.node.tryFindChild('EtcdEncryptionKey') as ApiObject | undefined;
    this.etcdEncryptionBackupKeyObject = this.node.tryFindChild('EtcdEncryptionBackupKey') as ApiObject | undefined;
    this.infraCredentialsObject = this.node.tryFindChild('InfraCredentials') as ApiObject | undefined;

    const baseDomain = props.baseDomain ?? platform.defaultBaseDomain;
    this.baseDomain = baseDomain;
    const passthrough = (platform.baseDomainPassthrough ?? false) && props.baseDomain === undefined;
    if (baseDomain !== undefined && !isDns1123Subdomain(baseDomain)) problems.require(false, 'baseDomain', baseDomain, DNS1123_SUBDOMAIN_RULE);
    if (baseDomain === undefined && !passthrough) problems.add(`baseDomain (undefined) must be given on platform ${props.platform.type}`);

    const networking = renderNetworking(props.networking ?? {}, problems.within('networking'), platform.machineNetwork);
    const networkType = networking.networking.networkType;
    const releaseChecked = !(SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION in (props.annotations ?? {}));
    const unsupportedNetwork = this.release.version && networkType && releaseChecked ? networkTypeReleaseProblem(this.release.version, networkType) : undefined;
    if (unsupportedNetwork) problems.add(`networking.networkType (${show(networkType)}) ${unsupportedNetwork}`);
    this.networks = networking.networks;
    this.agentNamespace = platform.platform.agent?.agentNamespace;
    const etcd = this.etcd;
    etcd.check(problems.within('etcd'));
    // The snapshot is encrypted with the old cluster's AES key (docs 7.4.2 step 3); a default-named key would not be it.
    if (etcd.restoreSnapshotUrl !== undefined && props.secretEncryption === undefined && !platform.secretEncryption) {
      problems.add(
        `etcd.restoreSnapshotUrl (given) needs secretEncryption naming the Secret with the AES key of the cluster the snapshot was taken from (docs 7.4.2 step 3); without it etcd cannot decrypt the restored data`,
      );
    }
    const etcdGiB = etcd.volumeSizeGiB;
    // Below what etcd can run on at all, the size is an error (EtcdStorage.check), not a warning as well.
    const tiny = etcdGiB === undefined || etcdGiB * 1024 < MIN_ETCD_VOLUME_MIB ? undefined : tinyEtcdVolumeMessage('etcd.size', `${etcdGiB * 1024} MiB`, etcdGiB);
    if (tiny) lint(this, LINT_RULES.HCP_W001_TINY_ETCD_VOLUME, tiny);

    this.services = new Map(Object.entries({ ...platform.defaultServices, ...props.services }) as [ControlPlaneService, ServicePublishing][]);
    this.givenServices = new Set(Object.keys(props.services ?? {}) as ControlPlaneService[]);
    this.checkServices(problems);
    this.checkSpecFields(problems);
    const updates = renderUpgradeSettings({ ...props, release: this.release, hub: hubHyperShiftOf(this) }, problems);
    const unknownVersion = unknownReleaseVersion(this.release, "its update paths or its node pools' version skew");
    if (unknownVersion) lint(this, LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN, unknownVersion);
    const mirroredTag = mirroredTagReleaseMessage('release', this.release.image, (props.imageContentSources ?? []).length > 0);
    if (mirroredTag) lint(this, LINT_RULES.HCP_W005_MIRRORED_RELEASE_TAG, mirroredTag);
    problems.report();

    const spec = (): hc.HostedClusterSpec => ({
      release: { image: this.release.image },
      pullSecret: { name: pullSecretName },
      sshKey: sshKeySecretName ? { name: sshKeySecretName } : undefined,
      infraId: this.infraId,
      clusterId: props.clusterId,
      channel: updates.channel,
      platform: platform.platform,
      dns: {
        baseDomain: baseDomain ?? '',
        baseDomainPrefix: props.baseDomainPrefix,
        ...platform.dns,
      },
      networking: networking.networking,
      operatorConfiguration: networking.operatorConfiguration,
      services: this.renderServices(),
      controllerAvailabilityPolicy: (props.controllerAvailabilityPolicy ?? AvailabilityPolicy.HIGHLY_AVAILABLE) as string as hc.HostedClusterSpecControllerAvailabilityPolicy,
      infrastructureAvailabilityPolicy: props.infrastructureAvailabilityPolicy as string | undefined as hc.HostedClusterSpecInfrastructureAvailabilityPolicy | undefined,
      etcd: etcd.render(platform.defaultEtcdStorageClass),
      secretEncryption,
      fips: props.fips ?? false,
      issuerUrl: props.issuerUrl ?? platform.issuerUrl,
      imageContentSources: props.imageContentSources?.map((s) => ({ source: s.source, mirrors: s.mirrors })),
      additionalTrustBundle: trustBundleName ? { name: trustBundleName } : undefined,
      olmCatalogPlacement: props.olmCatalogPlacement ?? OlmCatalogPlacement.MANAGEMENT,
      capabilities:
        props.disabledCapabilities || props.enabledCapabilities
          ? { disabled: props.disabledCapabilities, enabled: props.enabledCapabilities as unknown as hc.HostedClusterSpecCapabilitiesEnabled[] }
          : undefined,
      nodeSelector: props.controlPlaneNodeSelector,
      tolerations: props.controlPlaneTolerations?.map((t) => ({ ...t, operator: t.operator ?? (t.key === undefined ? 'Exists' : undefined) })),
      labels: props.controlPlanePodLabels,
      pausedUntil: updates.pausedUntil,
      configuration: this.configuration(),
      kubeApiServerDnsName: props.kubeApiServerDnsName,
    });
    // A plain ApiObject carrying the L1's GVK: JSON patches then apply to the wire
    // form (`infraID`), which the generated L1 class would rename and drop.
    this.node.addValidation({ validate: () => this.checkConfigurations() });
    this.resource = new ApiObject(this, 'Resource', {
      ...hc.HostedCluster.GVK,
      metadata: { name: this.clusterName, namespace: this.namespace, labels: props.labels, annotations: updates.annotations },
      spec: Lazy.any({ produce: () => hc.toJson_HostedClusterSpec(spec()) }),
    });
  }

  /**
   * The objects applied inside this hosted cluster (MetalLB ingress, guest operators), written to
   * `<outdir>/<cluster name>-guest/`. Created on first use, as a chart of the app.
   */
  public get guest(): GuestCluster {
    if (!this.guestChart) {
      const app = this.node.root;
      const id = `${this.clusterName}-guest`;
      const existing = app.node.tryFindChild(id);
      if (existing) throw new Error(`${this.node.path}: guest folder "${id}" is already taken by ${existing.node.path}; two hosted clusters named "${this.clusterName}" in one app need separate apps`);
      this.guestChart = new GuestCluster(app, id, { cluster: this, disableResourceNameHashes: true });
    }
    return this.guestChart;
  }

  /** How each control-plane service is published: the platform's defaults, `services` and publishService. */
  public get publishedServices(): ReadonlyMap<ControlPlaneService, ServicePublishing> {
    return this.services;
  }

  /** The NodePools added to this cluster with addNodePool. */
  public get pools(): readonly NodePool[] {
    return this.nodePools;
  }

  /** Adds a NodePool of this cluster; its name defaults to `<cluster>-<id>`. */
  public addNodePool(id: string, options: NodePoolOptions = {}): NodePool {
    const pool = new NodePool(this, id, { ...options, cluster: this });
    this.nodePools.push(pool);
    return pool;
  }

  /** Sets or replaces how one control-plane service is published. */
  public publishService(service: ControlPlaneService, publishing: ServicePublishing): void {
    this.services.set(service, publishing);
    this.givenServices.add(service);
    const problems = new Problems(this);
    this.checkServices(problems);
    problems.report();
  }

  /**
   * Adds fields to `spec.configuration` (OAuth, API server, proxy, image, feature gates), merged at
   * synth with the `configuration` prop and other additions; a field two of them set differently is
   * a problem. Day-2 constructs (ClusterOAuth, ApiServerConfiguration, ...) call it.
   */
  public addConfiguration(configuration: hc.HostedClusterSpecConfiguration, by: IConstruct = this): void {
    this.addedConfigurations.push({ by: by.node.path, configuration });
  }

  /**
   * The host names clients reach the API server at, which named serving certificates may cover:
   * `api.<prefix or name>.<baseDomain>`, `kubeApiServerDnsName`, the APIServer Route hostname
   * and a NodePort address that is a DNS name.
   */
  public get apiServerHostnames(): string[] {
    const names = new Set<string>();
    if (this.baseDomain) names.add(`api.${this.props.baseDomainPrefix ?? this.clusterName}.${this.baseDomain}`);
    if (this.props.kubeApiServerDnsName) names.add(this.props.kubeApiServerDnsName);
    const api = this.services.get(ControlPlaneService.API_SERVER)?.strategy;
    if (api?.route?.hostname) names.add(api.route.hostname);
    if (api?.nodePort && isDns1123Subdomain(api.nodePort.address) && !/^[\d.]+$/.test(api.nodePort.address)) names.add(api.nodePort.address);
    return [...names];
  }

  /** `apps.<prefix or name>.<baseDomain>`, the domain of the hosted cluster's own ingress (its applications' routes), when the base domain is known. */
  public get appsDomain(): string | undefined {
    return this.baseDomain ? `apps.${this.props.baseDomainPrefix ?? this.clusterName}.${this.baseDomain}` : undefined;
  }

  /** Sets a field of the HostedCluster by JSON path, e.g. `addOverride('spec.autoscaling.maxNodesTotal', 10)`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }

  /** The `configuration` prop merged with what addConfiguration added (typed form, rendered with the rest of the spec). */
  private configuration(): hc.HostedClusterSpecConfiguration | undefined {
    if (this.addedConfigurations.length === 0) return this.props.configuration;
    return mergeConfigurations(this.configurationParts().map((p) => p.configuration)).merged;
  }

  private configurationParts(): { readonly by: string; readonly configuration: Record<string, unknown> }[] {
    const given = this.props.configuration ? [{ by: 'the configuration prop', configuration: this.props.configuration }] : [];
    return [...given, ...this.addedConfigurations] as { by: string; configuration: Record<string, unknown> }[];
  }

  /** Fields two parts of spec.configuration set differently, each named with both owners. */
  private checkConfigurations(): string[] {
    const parts = this.configurationParts();
    const problems: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) {
        for (const c of mergeConfigurations([parts[i].configuration, parts[j].configuration]).conflicts) {
          problems.push(`${c.path} is set by ${parts[i].by} (${show(c.first)}) and by ${parts[j].by} (${show(c.second)}); set it in one place`);
        }
      }
    }
    return problems;
  }

  private checkIdentity(problems: Problems): void {
    // The rules hcp-cdk validate applies to hand-written HostedClusters too (lib/validation/manifest-lint.ts).
    for (const problem of clusterNameProblems(this.clusterName, this.namespace, { name: 'name', namespace: 'namespace' })) problems.add(problem);
    if (this.props.infraId !== undefined) {
      problems.require(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(this.infraId) && this.infraId.length <= 63, 'infraId', this.infraId, 'must be lower-case letters, digits and "-", at most 63 characters');
    }
    if (this.props.release.problem) problems.add(this.props.release.problem);
  }

  private checkSpecFields(problems: Problems): void {
    const p = this.props;
    if (p.clusterId !== undefined) problems.require(UUID.test(p.clusterId), 'clusterId', p.clusterId, 'must be a lower-case UUID');
    if (p.kubeApiServerDnsName !== undefined) problems.require(isDns1123Subdomain(p.kubeApiServerDnsName), 'kubeApiServerDnsName', p.kubeApiServerDnsName, DNS1123_SUBDOMAIN_RULE);
    if (p.issuerUrl !== undefined) problems.require(/^https:\/\/\S+$/.test(p.issuerUrl), 'issuerUrl', p.issuerUrl, 'must be an https URL');
    if (p.controllerAvailabilityPolicy !== undefined) {
      problems.require(
        Object.values(AvailabilityPolicy).includes(p.controllerAvailabilityPolicy),
        'controllerAvailabilityPolicy',
        p.controllerAvailabilityPolicy,
        'must be HighlyAvailable or SingleReplica',
      );
    }
    if (p.infrastructureAvailabilityPolicy !== undefined) {
      problems.require(
        Object.values(AvailabilityPolicy).includes(p.infrastructureAvailabilityPolicy),
        'infrastructureAvailabilityPolicy',
        p.infrastructureAvailabilityPolicy,
        'must be HighlyAvailable or SingleReplica',
      );
    }
    const disabled = p.disabledCapabilities ?? [];
    if (disabled.includes(OptionalCapability.INGRESS) && !disabled.includes(OptionalCapability.CONSOLE)) {
      problems.add('disabledCapabilities (["Ingress"]) must also disable Console: the console needs the ingress capability');
    }
    for (const [key, value] of Object.entries({ ...p.controlPlaneNodeSelector, ...p.controlPlanePodLabels })) {
      if (!isQualifiedName(key) || !isLabelValue(value)) problems.add(`label ${JSON.stringify(`${key}=${value}`)} must be a valid label key and value`);
    }
    if (p.configuration !== undefined) {
      for (const { path, value } of droppedFields(p.configuration, hc.toJson_HostedClusterSpecConfiguration(p.configuration), 'configuration')) {
        problems.add(`${path} (${show(value)}) is not a field of spec.configuration, so it would be dropped; check its spelling against the HostedCluster CRD`);
      }
    }
    (p.imageContentSources ?? []).forEach((source, i) => {
      problems.require(Array.isArray(source.mirrors) && source.mirrors.length > 0, `imageContentSources[${i}].mirrors`, source.mirrors, 'must list at least one mirror');
    });
  }

  private checkServices(problems: Problems): void {
    // The rules hcp-cdk validate applies to hand-written HostedClusters too (lib/validation/manifest-lint.ts).
    const entries = [...this.services].map(([service, publishing]) => ({ service, strategy: publishing.strategy, field: `services.${service}` }));
    const missing = missingServices(entries);
    if (missing.length > 0) {
      const given = [...this.givenServices];
      problems.add(
        `services (${given.length > 0 ? show(given) : show(this.props.services)}) must publish ${missing.join(', ')}; ` +
          `give the platform an apiServerAddress or set services for platform ${this.platformType}`,
      );
    }
    for (const problem of apiServerRouteProblems(entries, { type: this.platformType, apiServerRoute: this.apiServerRoute })) problems.add(problem);
    for (const problem of sharedEndpointProblems(entries)) problems.add(problem);
    for (const [service, publishing] of this.services) {
      // The platform checks the address it publishes every service at, once.
      if (!this.givenServices.has(service)) continue;
      if (publishing.problem) {
        problems.add(`services.${service} ${publishing.problem}`);
        continue;
      }
      if (publishing.type === ServicePublishingType.NODE_PORT) {
        const { address, port } = publishing.strategy.nodePort!;
        const problem = nodePortAddressProblem(`services.${service}.nodePort.address`, address);
        if (problem) problems.add(problem);
        const portProblem = nodePortPortProblem(`services.${service}.nodePort.port`, port);
        if (portProblem) problems.add(portProblem);
      }
    }
  }

  private renderServices(): hc.HostedClusterSpecServices[] {
    return [...this.services.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([service, publishing]) => ({
        service: service as unknown as hc.HostedClusterSpecServicesService,
        servicePublishingStrategy: publishing.strategy as unknown as hc.HostedClusterSpecServicesServicePublishingStrategy,
      }));
  }

  private bindTrustBundle(problems: Problems): string | undefined {
    const bundle = this.props.additionalTrustBundle;
    if (!bundle) return undefined;
    if (bundle.problem) problems.add(bundle.problem);
    if (bundle.existingConfigMapName) return bundle.existingConfigMapName;
    configMap(this, 'TrustBundle', 'user-ca-bundle', this.namespace, { 'ca-bundle.crt': bundle.pem! });
    return 'user-ca-bundle';
  }

  private bindSshKey(problems: Problems, labels: Record<string, string>): string | undefined {
    const key = this.props.sshKey;
    if (!key) return undefined;
    if (key.problem) problems.add(key.problem);
    if (key.existingSecretName) {
      recordSecretRequirement(this, { name: key.existingSecretName, namespace: this.namespace, type: 'Opaque', keys: ['id_rsa.pub'], madeBy: SecretMaker.YOU });
      return key.existingSecretName;
    }
    // A public key is not secret material; it sits in a Secret because HyperShift reads it from one.
    const name = key.secretName ?? `${this.clusterName}-ssh-key`;
    new ApiObject(this, 'SshKey', {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name, namespace: this.namespace, labels },
      type: 'Opaque',
      data: { 'id_rsa.pub': Buffer.from(key.publicKey!, 'utf8').toString('base64') },
    });
    return name;
  }

  private bindEncryptionKeys(problems: Problems, labels: Record<string, string>): hc.HostedClusterSpecSecretEncryption {
    const defaultName = `${this.clusterName}-etcd-encryption-key`;
    // Named after the cluster: its name is checked already, so the derived name is not checked twice.
    const encryption = this.props.secretEncryption ?? SecretEncryption.aescbc(existingSecretWithDerivedName(defaultName));
    const bind = (source: ISecretSource, id: string, name: string, field: string) => {
      const binding = source.bind(this, id, {
        field,
        defaultName: name,
        namespace: this.namespace,
        labels,
        key: 'key',
        type: 'Opaque',
        checkValue: (value) => SecretEncryption.checkKey(value),
      });
      if (binding.problem) problems.add(binding.problem);
      return binding.secretName;
    };
    const active = bind(encryption.activeKey, 'EtcdEncryptionKey', defaultName, 'secretEncryption.activeKey');
    const backup = encryption.backupKey ? bind(encryption.backupKey, 'EtcdEncryptionBackupKey', `${this.clusterName}-etcd-encryption-backup-key`, 'secretEncryption.backupKey') : undefined;
    return SecretEncryption.render(active, backup);
  }
}

/** Why a pull secret's bytes are no `.dockerconfigjson`, or undefined when they are one. */
export function checkPullSecret(value: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(value.toString('utf8'));
    if (parsed && typeof parsed.auths === 'object' && parsed.auths !== null && !Array.isArray(parsed.auths)) return undefined;
  } catch {
    // fall through to the message
  }
  return 'pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}';
}
