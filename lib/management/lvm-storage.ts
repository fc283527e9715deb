import { Construct } from 'constructs';
import * as lvm from '../../imports/lvmcluster-lvm.topolvm.io';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';

/** The namespace LVM Storage (LVMS) is installed into; its LVMCluster lives there. */
export const LVM_STORAGE_NAMESPACE = 'openshift-storage';

/** The file system of a device class's volumes: `xfs` or `ext4`. */
export const LvmFilesystem = lvm.LvmClusterSpecStorageDeviceClassesFstype;
export type LvmFilesystem = lvm.LvmClusterSpecStorageDeviceClassesFstype;
/** How LVMS sizes a thin pool's chunks: `Static` or `Host`. */
export const ThinPoolChunkSizeCalculationPolicy = lvm.LvmClusterSpecStorageDeviceClassesThinPoolConfigChunkSizeCalculationPolicy;
export type ThinPoolChunkSizeCalculationPolicy = lvm.LvmClusterSpecStorageDeviceClassesThinPoolConfigChunkSizeCalculationPolicy;

/** The thin pool of a device class: volumes are thin logical volumes carved from it. */
export interface LvmThinPool {
  /** @default 'thin-pool-1' */
  readonly name?: string;
  /** How much of the volume group the pool takes, in percent. @default 90 */
  readonly sizePercent?: number;
  /** How many times the pool's size its volumes may add up to. @default 10 */
  readonly overprovisionRatio?: number;
  /** @default - not set; LVMS uses Static */
  readonly chunkSizeCalculationPolicy?: ThinPoolChunkSizeCalculationPolicy;
}

/** A device class: one LVM volume group on each selected node, offered as StorageClass `lvms-<name>`. */
export interface LvmDeviceClass {
  /** The volume group's name; the StorageClass and VolumeSnapshotClass are `lvms-<name>`. */
  readonly name: string;
  /**
   * Make `lvms-<name>` the cluster's default storage class. With several device classes exactly one must be.
   * @default - true when it is the only device class
   */
  readonly default?: boolean;
  /**
   * Disks that must exist on every selected node (`deviceSelector.paths`); prefer /dev/disk/by-id/… paths.
   * @default - none
   */
  readonly paths?: string[];
  /**
   * Disks of which at least one exists on every node (`deviceSelector.optionalPaths`), as the blog's `/dev/nvme1n1`, `/dev/nvme0n1`.
   * @default - none; with no paths at all LVMS takes every unused disk (only allowed with one device class)
   */
  readonly optionalPaths?: string[];
  /**
   * Wipe the selected disks' file signatures before use. Destroys what is on them.
   * @default false
   */
  readonly forceWipeDevicesAndDestroyAllData?: boolean;
  /** @default - not set; LVMS uses xfs */
  readonly fstype?: LvmFilesystem;
  /**
   * Labels of the nodes that get the volume group; the blog's `ocpvirt: host`.
   * @default - every node without a NoSchedule taint
   */
  readonly nodeSelector?: Record<string, string>;
  /** @default - a thin pool of 90 % with overprovision ratio 10 (LVMS requires one for thin provisioning) */
  readonly thinPool?: LvmThinPool;
}

export interface LvmStorageProps extends OperatorInstallOptions {
  /** @default 'lvmcluster' */
  readonly name?: string;
  /** The volume groups; at least one. */
  readonly deviceClasses: LvmDeviceClass[];
  /**
   * Install the operator: Namespace `openshift-storage`, OperatorGroup `openshift-storage-operatorgroup`,
   * Subscription `lvms` of package `lvms-operator` from channel `stable` (the docs' CLI names; the console
   * names the Subscription `lvms-operator`: pass `subscriptionName` and `operatorGroupName` to adopt it).
   * @default true
   */
  readonly installOperator?: boolean;
}

const DEVICE_PATH = /^\/dev\/\S+$/;

/**
 * LVM Storage on the management cluster: local disks as thin-provisioned storage classes, as the
 * blog's lvm-hcp setup ("Creating the LVMCluster") and docs 3.3.1 advise for etcd and for VM root
 * volumes without RWX storage. The operator creates StorageClass and VolumeSnapshotClass
 * `lvms-<device class>` for each device class; `storageClassNames` lists them for the hub checks.
 */
export class LvmStorage extends Construct {
  /** The namespace LVMS runs in, `openshift-storage`. */
  public readonly namespace = LVM_STORAGE_NAMESPACE;
  /** The StorageClasses LVMS creates, `lvms-<device class>`. */
  public readonly storageClassNames: readonly string[];
  /** The VolumeSnapshotClasses LVMS creates for thin pools, `lvms-<device class>`. */
  public readonly volumeSnapshotClassNames: readonly string[];
  /** The StorageClass marked default, if a device class is. */
  public readonly defaultStorageClassName?: string;
  /** The LVMCluster. */
  public readonly resource: lvm.LvmCluster;
  /** The OperatorGroup and Subscription that install the operator; undefined with `installOperator: false`. */
  public readonly operator?: InstalledOperator;

  constructor(scope: Construct, id: string, props: LvmStorageProps) {
    super(scope, id);
    const problems = new Problems(this);
    checkOperatorInstallOptions(props, problems, props.installOperator ?? true);
    const name = props.name ?? 'lvmcluster';
    problems.require(isDns1123Subdomain(name), 'name', name, DNS1123_SUBDOMAIN_RULE);
    const classes = props.deviceClasses ?? [];
    if (classes.length === 0) problems.add('deviceClasses ([]) must list at least one device class');
    checkDeviceClasses(classes, problems);
    problems.report();

    const single = classes.length === 1;
    this.storageClassNames = classes.map((c) => `lvms-${c.name}`);
    this.volumeSnapshotClassNames = this.storageClassNames;
    const defaultClass = classes.find((c) => c.default ?? single);
    this.defaultStorageClassName = defaultClass ? `lvms-${defaultClass.name}` : undefined;

    this.operator =
      (props.installOperator ?? true)
        ? installOperator(
            this,
            {
              namespace: this.namespace,
              operatorGroupName: 'openshift-storage-operatorgroup',
              packageName: 'lvms-operator',
              subscriptionName: 'lvms',
              defaultChannel: 'stable',
              ownNamespace: true,
            },
            props,
          )
        : undefined;
    this.resource = new lvm.LvmCluster(this, 'Resource', {
      metadata: { name, namespace: this.namespace },
      spec: {
        storage: {
          deviceClasses: classes.map((c): lvm.LvmClusterSpecStorageDeviceClasses => ({
            name: c.name,
            default: c.default ?? single,
            fstype: c.fstype,
            deviceSelector:
              c.paths || c.optionalPaths || c.forceWipeDevicesAndDestroyAllData
                ? { paths: c.paths, optionalPaths: c.optionalPaths, forceWipeDevicesAndDestroyAllData: c.forceWipeDevicesAndDestroyAllData }
                : undefined,
            nodeSelector: c.nodeSelector
              ? {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: Object.entries(c.nodeSelector).map(([key, value]) => ({ key, operator: 'In', values: [value] })),
                    },
                  ],
                }
              : undefined,
            thinPoolConfig: {
              name: c.thinPool?.name ?? 'thin-pool-1',
              sizePercent: c.thinPool?.sizePercent ?? 90,
              overprovisionRatio: c.thinPool?.overprovisionRatio ?? 10,
              chunkSizeCalculationPolicy: c.thinPool?.chunkSizeCalculationPolicy,
            },
          })),
        },
      },
    });
  }
}

/** The rules the LVMS webhook enforces on device classes, checked before anything is written. */
function checkDeviceClasses(classes: readonly LvmDeviceClass[], problems: Problems): void {
  const names = new Set<string>();
  const pathOwners = new Map<string, string>();
  classes.forEach((c, i) => {
    const field = `deviceClasses[${i}]`;
    // The volume group name becomes part of StorageClass names.
    if (problems.require(isDns1123Label(c.name) && c.name.length <= 58, `${field}.name`, c.name, 'must be a DNS-1123 label of at most 58 characters (the StorageClass is lvms-<name>)')) {
      problems.require(!names.has(c.name), `${field}.name`, c.name, 'must be unique among the device classes');
    }
    names.add(c.name);
    const paths = [...(c.paths ?? []), ...(c.optionalPaths ?? [])];
    // With one class LVMS may take every free disk; with several it cannot tell which class a disk is for.
    if (classes.length > 1 && paths.length === 0) {
      problems.add(`${field}.paths (none) must name the class's disks (paths or optionalPaths): with ${classes.length} device classes LVMS cannot tell which disks belong to ${show(c.name)}`);
    }
    for (const path of paths) {
      if (!DEVICE_PATH.test(path)) problems.add(`${field}.paths (${show(path)}) must be a device path under /dev/, such as /dev/disk/by-id/nvme-…`);
      const owner = pathOwners.get(path);
      if (owner !== undefined) problems.add(`${field}.paths (${show(path)}) is also a disk of ${owner}; a disk belongs to one device class, once`);
      pathOwners.set(path, `deviceClasses[${i}]`);
    }
    if (c.forceWipeDevicesAndDestroyAllData && paths.length === 0) {
      problems.add(`${field}.forceWipeDevicesAndDestroyAllData (true) needs paths: LVMS wipes only disks it is given`);
    }
    for (const [key, value] of Object.entries(c.nodeSelector ?? {})) {
      if (!isQualifiedName(key) || !isLabelValue(value)) problems.add(`${field}.nodeSelector (${show(`${key}=${value}`)}) must be a valid label key=value pair`);
    }
    const pool = c.thinPool;
    if (pool?.sizePercent !== undefined)
      problems.require(
        Number.isInteger(pool.sizePercent) && pool.sizePercent >= 10 && pool.sizePercent <= 100,
        `${field}.thinPool.sizePercent`,
        pool.sizePercent,
        'must be a whole number from 10 to 100',
      );
    if (pool?.overprovisionRatio !== undefined)
      problems.require(
        Number.isInteger(pool.overprovisionRatio) && pool.overprovisionRatio >= 1 && pool.overprovisionRatio <= 100,
        `${field}.thinPool.overprovisionRatio`,
        pool.overprovisionRatio,
        'must be a whole number from 1 to 100',
      );
    if (pool?.name !== undefined) problems.require(isDns1123Label(pool.name), `${field}.thinPool.name`, pool.name, 'must be a DNS-1123 label');
  });
  const defaults = classes.filter((c, i) => c.default ?? (classes.length === 1 && i === 0));
  if (classes.length > 1 && defaults.length !== 1) {
    problems.add(`deviceClasses (defaults: ${show(defaults.map((c) => c.name))}) must mark exactly one device class default when there are several`);
  }
}
