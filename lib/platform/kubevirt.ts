import { Size } from 'cdk8s';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import * as np from '../../imports/nodepool-hypershift.openshift.io';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from '../core/names';
import { isImageReference } from '../release/release';
import { show } from '../core/problems';
import { isSize } from '../core/runtime-props';
import { ingressPublishing } from '../core/service-publishing';
import type { ISecretSource } from '../secrets/secret-source';
import type { ClusterPlatformConfig, ClusterPlatformContext, IClusterPlatform } from './cluster-platform';
import type { INodePoolPlatform, NodePoolPlatformConfig, NodePoolPlatformContext } from './node-pool-platform';
import { PlatformType } from './platform-type';

/** Maps a storage class of the infrastructure cluster to one the guest sees. */
export interface StorageClassMapping {
  /** The storage class on the infrastructure (management) cluster. */
  readonly infraStorageClass: string;
  /** The storage class the guest sees. */
  readonly guestStorageClass: string;
  /**
   * Groups storage and snapshot mappings that belong together.
   * @default - no group
   */
  readonly group?: string;
}

/** Maps a VolumeSnapshotClass of the infrastructure cluster to one the guest sees. */
export interface VolumeSnapshotClassMapping {
  /** The VolumeSnapshotClass on the infrastructure cluster. */
  readonly infraVolumeSnapshotClass: string;
  /** The VolumeSnapshotClass the guest sees. */
  readonly guestVolumeSnapshotClass: string;
  /** @default - no group */
  readonly group?: string;
}

/** Virtual machines run on a cluster other than the management cluster. */
export interface KubevirtExternalInfrastructure {
  /** A kubeconfig for the infrastructure cluster, stored under `kubeconfigKey`. */
  readonly kubeconfig: ISecretSource;
  /**
   * The key of the Secret that holds the kubeconfig, for an existing Secret written by another tool.
   * @default 'kubeconfig' (as `hcp --infra-kubeconfig-file`)
   */
  readonly kubeconfigKey?: string;
  /** The namespace on the infrastructure cluster for the VMs; it must already exist there. */
  readonly namespace: string;
}

/** Which CSI driver the guest gets for persistent volumes on the infrastructure cluster. */
export enum KubevirtStorageDriverType {
  /** The infrastructure cluster's default storage class becomes the guest's default. */
  DEFAULT = 'Default',
  /** Only the classes in `storageClassMappings` are offered to the guest. */
  MANUAL = 'Manual',
  /** No KubeVirt CSI driver in the guest: it brings its own storage. */
  NONE = 'None',
}

/** Props of `ClusterPlatform.kubevirt()`. */
export interface KubevirtClusterPlatformProps {
  /**
   * Run the VMs on another cluster.
   * @default - the VMs run on the management cluster
   */
  readonly externalInfrastructure?: KubevirtExternalInfrastructure;
  /**
   * Storage classes the guest's CSI driver may use, each mapped to an infrastructure class.
   * @default - the infrastructure cluster's default storage class (storage driver Default)
   */
  readonly storageClassMappings?: StorageClassMapping[];
  /**
   * Snapshot classes mapped the same way; needs `storageClassMappings`.
   * @default - none
   */
  readonly volumeSnapshotClassMappings?: VolumeSnapshotClassMapping[];
  /**
   * The storage driver; `NONE` leaves the guest without the KubeVirt CSI driver.
   * @default - MANUAL when `storageClassMappings` are given, else not set (the operator uses Default)
   */
  readonly storageDriver?: KubevirtStorageDriverType;
  /**
   * A suffix HyperShift appends to the names of the KubeVirt infrastructure resources.
   * @default - none
   */
  readonly generateId?: string;
}

const SECRET_KEY = /^[-._a-zA-Z0-9]+$/;

export class KubevirtClusterPlatform implements IClusterPlatform {
  /** The KubeVirt platform. */
  public readonly type = PlatformType.KUBEVIRT;

  constructor(
    /** The props it was made with. */
    public readonly props: KubevirtClusterPlatformProps,
  ) {}

  public bind(context: ClusterPlatformContext): ClusterPlatformConfig {
    const problems = context.problems;
    const storage = this.props.storageClassMappings ?? [];
    const snapshots = this.props.volumeSnapshotClassMappings ?? [];
    checkClassMappings(storage, snapshots, problems);
    const driverType = this.props.storageDriver ?? (storage.length > 0 ? KubevirtStorageDriverType.MANUAL : undefined);
    if (driverType !== undefined && !Object.values(KubevirtStorageDriverType).includes(driverType)) {
      problems.add(`storageDriver (${JSON.stringify(driverType)}) must be Default, Manual or None`);
    } else if (driverType !== undefined && driverType !== KubevirtStorageDriverType.MANUAL && storage.length > 0) {
      problems.add(`storageDriver (${JSON.stringify(driverType)}) cannot take storageClassMappings: only the Manual driver maps classes; leave storageDriver out`);
    }
    const external = this.props.externalInfrastructure;
    if (external && !isDns1123Label(external.namespace)) {
      problems.add(`externalInfrastructure.namespace (${JSON.stringify(external.namespace)}) must be a DNS-1123 label`);
    }
    const kubeconfigKey = external?.kubeconfigKey ?? 'kubeconfig';
    if (external && !SECRET_KEY.test(kubeconfigKey)) {
      problems.add(`externalInfrastructure.kubeconfigKey (${JSON.stringify(kubeconfigKey)}) must be a Secret key: letters, digits, "-", "_" or "."`);
    }
    const kubeconfig = external?.kubeconfig.bind(context.scope, 'InfraCredentials', {
      field: 'externalInfrastructure.kubeconfig',
      defaultName: `${context.clusterName}-infra-credentials`,
      namespace: context.namespace,
      key: kubeconfigKey,
      type: 'Opaque',
      labels: context.secretLabels,
    });
    if (kubeconfig?.problem) problems.add(kubeconfig.problem);
    const credentials = external
      ? {
          infraNamespace: external.namespace,
          infraKubeConfigSecret: { key: kubeconfigKey, name: kubeconfig!.secretName },
        }
      : undefined;
    const storageDriver: hc.HostedClusterSpecPlatformKubevirtStorageDriver | undefined =
      driverType === undefined
        ? undefined
        : {
            type: driverType as string as hc.HostedClusterSpecPlatformKubevirtStorageDriverType,
            manual:
              driverType !== KubevirtStorageDriverType.MANUAL
                ? undefined
                : {
                    storageClassMapping: storage.map((m) => ({ infraStorageClassName: m.infraStorageClass, guestStorageClassName: m.guestStorageClass, group: m.group })),
                    volumeSnapshotClassMapping:
                      snapshots.length === 0
                        ? undefined
                        : snapshots.map((m) => ({
                            infraVolumeSnapshotClassName: m.infraVolumeSnapshotClass,
                            guestVolumeSnapshotClassName: m.guestVolumeSnapshotClass,
                            group: m.group,
                          })),
                  },
          };
    return {
      platform: {
        type: hc.HostedClusterSpecPlatformType.KUBE_VIRT,
        kubevirt: {
          credentials,
          storageDriver,
          generateId: this.props.generateId,
          // Without a base domain the guest's is a subdomain of the management cluster's *.apps (as `hcp`).
          baseDomainPassthrough: context.baseDomain === undefined ? true : undefined,
        },
      },
      defaultServices: ingressPublishing(),
      baseDomainPassthrough: true,
    };
  }
}

/**
 * The mappings as the KubeVirt CSI driver reads them: names are DNS subdomains, each guest class
 * maps to one infrastructure class, a snapshot mapping's group is one a storage mapping declares
 * (the driver pairs snapshot and storage classes by group), and guest snapshot classes are unique.
 */
function checkClassMappings(storage: readonly StorageClassMapping[], snapshots: readonly VolumeSnapshotClassMapping[], problems: ClusterPlatformContext['problems']): void {
  const guestNames = new Set<string>();
  storage.forEach((m, i) => {
    for (const [field, value] of [
      ['infraStorageClass', m.infraStorageClass],
      ['guestStorageClass', m.guestStorageClass],
    ] as const) {
      if (!isDns1123Subdomain(value)) problems.add(`storageClassMappings[${i}].${field} (${JSON.stringify(value)}) ${DNS1123_SUBDOMAIN_RULE}`);
    }
    if (guestNames.has(m.guestStorageClass))
      problems.add(`storageClassMappings[${i}].guestStorageClass (${JSON.stringify(m.guestStorageClass)}) must be unique: each guest class maps to one infrastructure class`);
    guestNames.add(m.guestStorageClass);
  });
  if (snapshots.length > 0 && storage.length === 0) {
    problems.add('volumeSnapshotClassMappings (given) needs storageClassMappings: snapshot mapping only works with the Manual storage driver');
  }
  const groups = new Set(storage.map((m) => m.group).filter((g): g is string => g !== undefined));
  const guestSnapshots = new Set<string>();
  snapshots.forEach((m, i) => {
    for (const [field, value] of [
      ['infraVolumeSnapshotClass', m.infraVolumeSnapshotClass],
      ['guestVolumeSnapshotClass', m.guestVolumeSnapshotClass],
    ] as const) {
      if (!isDns1123Subdomain(value)) problems.add(`volumeSnapshotClassMappings[${i}].${field} (${JSON.stringify(value)}) ${DNS1123_SUBDOMAIN_RULE}`);
    }
    if (guestSnapshots.has(m.guestVolumeSnapshotClass)) {
      problems.add(
        `volumeSnapshotClassMappings[${i}].guestVolumeSnapshotClass (${JSON.stringify(m.guestVolumeSnapshotClass)}) must be unique: each guest snapshot class maps to one infrastructure class`,
      );
    }
    guestSnapshots.add(m.guestVolumeSnapshotClass);
    if (m.group !== undefined && storage.length > 0 && !groups.has(m.group)) {
      problems.add(
        `volumeSnapshotClassMappings[${i}].group (${JSON.stringify(m.group)}) must be the group of a storage class mapping (${groups.size ? [...groups].map((g) => JSON.stringify(g)).join(', ') : 'none has a group'}): snapshots are taken with the class of the volume's group`,
      );
    }
  });
}

/** The quality of service of a pool's VMs: `Burstable` or `Guaranteed`. */
export const KubevirtQosClass = np.NodePoolSpecPlatformKubevirtComputeQosClass;
export type KubevirtQosClass = np.NodePoolSpecPlatformKubevirtComputeQosClass;
/** The volume mode of a root volume: `Filesystem` or `Block`. */
export const KubevirtVolumeMode = np.NodePoolSpecPlatformKubevirtRootVolumePersistentVolumeMode;
export type KubevirtVolumeMode = np.NodePoolSpecPlatformKubevirtRootVolumePersistentVolumeMode;
/** An access mode of a root volume's PVC. */
export const KubevirtAccessMode = np.NodePoolSpecPlatformKubevirtRootVolumePersistentAccessModes;
export type KubevirtAccessMode = np.NodePoolSpecPlatformKubevirtRootVolumePersistentAccessModes;
/** How a root volume is cached from its image: `None` or `PVC`. */
export const KubevirtRootVolumeCacheStrategy = np.NodePoolSpecPlatformKubevirtRootVolumeCacheStrategyType;
export type KubevirtRootVolumeCacheStrategy = np.NodePoolSpecPlatformKubevirtRootVolumeCacheStrategyType;

/** A PCI or GPU device of the infrastructure node passed through to each VM. */
export interface KubevirtHostDevice {
  /** The device's name, as the HyperConverged's permitted host devices list it. */
  readonly deviceName: string;
  /** @default 1 */
  readonly count?: number;
}

/** Props of `NodePoolPlatform.kubevirt()`. */
export interface KubevirtNodePoolPlatformProps {
  /** @default 2 (as `hcp create nodepool kubevirt --cores`) */
  readonly cores?: number;
  /** @default Size.gibibytes(4) (as `hcp`; the API alone would default to 8Gi) */
  readonly memory?: Size;
  /**
   * Ask for the Guaranteed QoS class (dedicated resources).
   * @default - Burstable, the operator default
   */
  readonly qosClass?: KubevirtQosClass;
  /** @default Size.gibibytes(32); at least 16 GiB */
  readonly rootVolumeSize?: Size;
  /** @default - the infrastructure cluster's default storage class */
  readonly rootVolumeStorageClass?: string;
  /** @default - the storage profile decides */
  readonly rootVolumeAccessModes?: KubevirtAccessMode[];
  /** @default - the storage profile decides */
  readonly rootVolumeVolumeMode?: KubevirtVolumeMode;
  /** @default - not set; the operator uses None */
  readonly rootVolumeCacheStrategy?: KubevirtRootVolumeCacheStrategy;
  /**
   * A container image holding the RHCOS disk the root volume is cloned from (`rootVolume.diskImage`,
   * as `--containerdisk`), for a custom or disconnected RHCOS image.
   * @default - the RHCOS image of the NodePool's release
   */
  readonly rootVolumeContainerDiskImage?: string;
  /**
   * Multiqueue on the VM network interface; the docs (3.3.1.1) advise it only with an MTU of 9000 or more.
   * `false` writes `Disable`: leaving the field out would let the CRD default it to `Enable`.
   * @default true
   */
  readonly networkInterfaceMultiqueue?: boolean;
  /**
   * NetworkAttachmentDefinitions to attach, each `<namespace>/<name>`.
   * @default - none
   */
  readonly additionalNetworks?: string[];
  /**
   * Attach the pod network as well; `false` needs at least one additional network.
   * @default true
   */
  readonly attachDefaultNetwork?: boolean;
  /**
   * Labels of the infrastructure nodes the VMs may run on.
   * @default - any node
   */
  readonly vmNodeSelector?: Record<string, string>;
  /** @default - none */
  readonly hostDevices?: KubevirtHostDevice[];
}

const MIN_ROOT_VOLUME_GIB = 16;

/** Lets KubeVirt pools boot RHCOS variants the release does not name; `hcp` copies it from the HostedCluster to its NodePools. */
export const ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION = 'hypershift.openshift.io/allow-unsupported-kubevirt-rhcos-variants';

export class KubevirtNodePoolPlatform implements INodePoolPlatform {
  /** The KubeVirt platform. */
  public readonly type = PlatformType.KUBEVIRT;
  public readonly defaultUpgradeType = np.NodePoolSpecManagementUpgradeType.REPLACE;

  constructor(
    /** The props it was made with. */
    public readonly props: KubevirtNodePoolPlatformProps,
  ) {}

  /** The NodePool's `spec.platform`, with the VM's compute, root volume and networks. */
  public render(context: NodePoolPlatformContext): NodePoolPlatformConfig {
    const p = this.props;
    const problems = context.problems;
    const cores = p.cores ?? 2;
    for (const field of ['memory', 'rootVolumeSize'] as const) {
      if (p[field] !== undefined && !isSize(p[field])) problems.require(false, field, p[field], 'must be a Size, e.g. Size.gibibytes(4)');
    }
    const memoryGiB = (isSize(p.memory) ? p.memory! : Size.gibibytes(4)).toMebibytes() / 1024;
    const rootGiB = (isSize(p.rootVolumeSize) ? p.rootVolumeSize! : Size.gibibytes(32)).toMebibytes() / 1024;
    if (!Number.isInteger(cores) || cores < 1) problems.add(`cores (${show(cores)}) must be a whole number >= 1`);
    if (!(memoryGiB > 0)) problems.add(`memory (${memoryGiB} GiB) must be more than 0`);
    if (!Number.isInteger(rootGiB) || rootGiB < MIN_ROOT_VOLUME_GIB) problems.add(`rootVolumeSize (${rootGiB} GiB) must be a whole number of GiB >= ${MIN_ROOT_VOLUME_GIB}`);
    (p.additionalNetworks ?? []).forEach((network, i) => {
      const [namespace, name, extra] = network.split('/');
      if (extra !== undefined || !namespace || !name || !isDns1123Label(namespace) || !isDns1123Subdomain(name)) {
        problems.add(`additionalNetworks[${i}] (${JSON.stringify(network)}) must be "<namespace>/<network-attachment-definition>"`);
      }
    });
    if (p.attachDefaultNetwork === false && (p.additionalNetworks ?? []).length === 0) {
      problems.add('attachDefaultNetwork (false) needs at least one additionalNetworks entry, or the VMs have no network');
    }
    for (const [key, value] of Object.entries(p.vmNodeSelector ?? {})) {
      if (!isQualifiedName(key) || !isLabelValue(value)) problems.add(`vmNodeSelector (${JSON.stringify(`${key}=${value}`)}) must be a valid label key=value pair`);
    }
    (p.hostDevices ?? []).forEach((device, i) => {
      if (device.count !== undefined && (!Number.isInteger(device.count) || device.count < 1)) {
        problems.add(`hostDevices[${i}].count (${show(device.count)}) must be a whole number >= 1`);
      }
    });
    // The NodePool CRD takes any text; KubeVirt's CDI would fail to clone the root volume of every VM.
    if (p.rootVolumeStorageClass !== undefined)
      problems.require(
        typeof p.rootVolumeStorageClass === 'string' && isDns1123Subdomain(p.rootVolumeStorageClass),
        'rootVolumeStorageClass',
        p.rootVolumeStorageClass,
        `must name a StorageClass: ${DNS1123_SUBDOMAIN_RULE}`,
      );
    if (p.rootVolumeContainerDiskImage !== undefined && !isImageReference(p.rootVolumeContainerDiskImage)) {
      problems.add(`rootVolumeContainerDiskImage (${JSON.stringify(p.rootVolumeContainerDiskImage)}) must be a container image reference such as quay.io/containerdisks/rhcos:4.17`);
    }
    const persistent: np.NodePoolSpecPlatformKubevirtRootVolumePersistent = {
      size: np.NodePoolSpecPlatformKubevirtRootVolumePersistentSize.fromString(`${rootGiB}Gi`),
      storageClass: p.rootVolumeStorageClass,
      accessModes: p.rootVolumeAccessModes,
      volumeMode: p.rootVolumeVolumeMode,
    };
    const kubevirt: np.NodePoolSpecPlatformKubevirt = {
      compute: {
        cores,
        memory: np.NodePoolSpecPlatformKubevirtComputeMemory.fromString(`${memoryGiB}Gi`),
        qosClass: p.qosClass === KubevirtQosClass.GUARANTEED ? p.qosClass : undefined,
      },
      rootVolume: {
        type: np.NodePoolSpecPlatformKubevirtRootVolumeType.PERSISTENT,
        persistent,
        cacheStrategy: p.rootVolumeCacheStrategy ? { type: p.rootVolumeCacheStrategy } : undefined,
        diskImage: p.rootVolumeContainerDiskImage === undefined ? undefined : { containerDiskImage: p.rootVolumeContainerDiskImage },
      },
      // The CLI omits Disable; the CRD then defaults to Enable, so it has to be written.
      networkInterfaceMultiqueue:
        p.networkInterfaceMultiqueue === false ? np.NodePoolSpecPlatformKubevirtNetworkInterfaceMultiqueue.DISABLE : np.NodePoolSpecPlatformKubevirtNetworkInterfaceMultiqueue.ENABLE,
      attachDefaultNetwork: p.attachDefaultNetwork ?? true,
      additionalNetworks: p.additionalNetworks?.map((name) => ({ name })),
      nodeSelector: p.vmNodeSelector,
      hostDevices: p.hostDevices?.map((d) => ({ deviceName: d.deviceName, count: d.count ?? 1 })),
    };
    const variants = context.clusterAnnotations?.[ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION];
    return {
      platform: { type: np.NodePoolSpecPlatformType.KUBE_VIRT, kubevirt },
      annotations: variants === undefined ? undefined : { [ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION]: variants },
    };
  }
}
