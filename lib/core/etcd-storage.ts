import { Size } from 'cdk8s';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from './names';
import type { Problems } from './problems';
import { isSize } from './runtime-props';

/** The smallest etcd volume etcd can run on: two write-ahead log segments of 64 MB. */
export const MIN_ETCD_VOLUME_MIB = 128;

/** Options of `EtcdStorage.managed`: etcd run by HyperShift on persistent volumes. */
export interface ManagedEtcdOptions {
  /**
   * The StorageClass of the etcd volumes on the management cluster.
   * @default - the platform's default (gp3-csi on AWS), else the management cluster's default class
   */
  readonly storageClass?: string;
  /** @default Size.gibibytes(8) */
  readonly size?: Size;
  /**
   * An etcd snapshot (an https pre-signed URL or `s3://…`) restored when the etcd volume is first
   * created (docs 7.4.2, "Restoring an etcd snapshot on a hosted cluster"). The API server
   * refuses to add, remove or change it on an existing HostedCluster (CEL transition rules, which
   * synth checks against the previous output), so it belongs to the cluster's creation only. The
   * `secretEncryption` key must be the AES key of the cluster the snapshot was taken from.
   * @default - etcd starts empty
   */
  readonly restoreSnapshotUrl?: string;
}

/** Options of `EtcdStorage.unmanaged`: an etcd cluster run elsewhere. */
export interface UnmanagedEtcdOptions {
  /** The etcd client URL, `https://…:2379`. */
  readonly endpoint: string;
  /** A Secret in the HostedCluster namespace with `etcd-client.crt`, `etcd-client.key` and `etcd-client-ca.crt`. */
  readonly tlsClientSecretName: string;
}

/** Where the hosted control plane keeps etcd. */
export class EtcdStorage {
  /** HyperShift runs etcd on persistent volumes of the management cluster. */
  public static managed(options: ManagedEtcdOptions = {}): EtcdStorage {
    return new EtcdStorage(options, undefined);
  }

  /** An etcd you run yourself. */
  public static unmanaged(options: UnmanagedEtcdOptions): EtcdStorage {
    return new EtcdStorage(undefined, options);
  }

  private constructor(
    private readonly managed?: ManagedEtcdOptions,
    private readonly unmanaged?: UnmanagedEtcdOptions,
  ) {}

  /** The size of the managed etcd volumes in GiB; undefined for unmanaged etcd or a size that is no Size. */
  public get volumeSizeGiB(): number | undefined {
    if (this.unmanaged) return undefined;
    const size: unknown = this.managed?.size;
    if (size === undefined) return 8;
    return isSize(size) ? this.managed!.size!.toMebibytes() / 1024 : undefined;
  }

  /** The snapshot etcd is restored from at creation, if any. */
  public get restoreSnapshotUrl(): string | undefined {
    return this.managed?.restoreSnapshotUrl;
  }

  /** The StorageClass of the etcd volumes when set here. */
  public get storageClass(): string | undefined {
    return this.managed?.storageClass;
  }

  /** Records problems with the options in `problems`, by field (the cluster passes `within('etcd')`). */
  public check(problems: Problems): void {
    if (this.unmanaged) {
      problems.require(/^https:\/\/[^\s/]+(:\d+)?\/?$/.test(this.unmanaged.endpoint), 'endpoint', this.unmanaged.endpoint, 'must be an https URL such as https://etcd.example.com:2379');
    }
    const size: unknown = this.managed?.size;
    if (size !== undefined && !isSize(size)) {
      problems.require(false, 'size', size, 'must be a Size, e.g. Size.gibibytes(8)');
      return;
    }
    const storageClass: unknown = this.managed?.storageClass;
    if (storageClass !== undefined && !(typeof storageClass === 'string' && isDns1123Subdomain(storageClass))) {
      problems.require(false, 'storageClass', storageClass, `must name a StorageClass: ${DNS1123_SUBDOMAIN_RULE}`);
    }
    const url: unknown = this.managed?.restoreSnapshotUrl;
    if (url !== undefined) {
      problems.require(
        typeof url === 'string' && /^(https|s3):\/\/\S+$/.test(url) && url.length <= 1024,
        'restoreSnapshotUrl',
        url,
        'must be an https (pre-signed) or s3:// URL of at most 1024 characters',
      );
    }
    const mebibytes = this.managed?.size ? this.managed.size.toMebibytes() : 8 * 1024;
    if (!(mebibytes > 0)) problems.add(`size (${mebibytes / 1024} GiB) must be more than 0`);
    // etcd preallocates each write-ahead log segment at 64 MB (etcd server/storage/wal/wal.go,
    // SegmentSizeBytes) and keeps its database beside it: less than two segments cannot run at all.
    else if (mebibytes < MIN_ETCD_VOLUME_MIB) {
      problems.add(
        `size (${mebibytes} MiB) is too small for etcd, which preallocates 64 MB for each write-ahead log segment beside its database: give at least ${MIN_ETCD_VOLUME_MIB} MiB (the default is 8 GiB: Size.gibibytes(8), not Size.mebibytes(8))`,
      );
    }
  }

  /** `spec.etcd`, with the storage class the platform defaults to when none is given. */
  public render(defaultStorageClass: string | undefined): hc.HostedClusterSpecEtcd {
    if (this.unmanaged) {
      return {
        managementType: hc.HostedClusterSpecEtcdManagementType.UNMANAGED,
        unmanaged: { endpoint: this.unmanaged.endpoint, tls: { clientSecret: { name: this.unmanaged.tlsClientSecretName } } },
      };
    }
    const mebibytes = (this.managed?.size ?? Size.gibibytes(8)).toMebibytes();
    const size = mebibytes % 1024 === 0 ? `${mebibytes / 1024}Gi` : `${mebibytes}Mi`;
    return {
      managementType: hc.HostedClusterSpecEtcdManagementType.MANAGED,
      managed: {
        storage: {
          type: hc.HostedClusterSpecEtcdManagedStorageType.PERSISTENT_VOLUME,
          persistentVolume: {
            size: hc.HostedClusterSpecEtcdManagedStoragePersistentVolumeSize.fromString(size),
            storageClassName: this.managed?.storageClass ?? defaultStorageClass,
          },
          restoreSnapshotUrl: this.managed?.restoreSnapshotUrl === undefined ? undefined : [this.managed.restoreSnapshotUrl],
        },
      },
    };
  }
}
