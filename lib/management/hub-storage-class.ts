import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';

/** When a volume of the class is bound (`volumeBindingMode`). */
export enum VolumeBindingMode {
  /** Bound as soon as it is created. */
  IMMEDIATE = 'Immediate',
  /** Bound once a pod uses it, on that pod's node: what local storage such as LVMS needs. */
  WAIT_FOR_FIRST_CONSUMER = 'WaitForFirstConsumer',
}

/** Props of HubStorageClass. */
export interface HubStorageClassProps {
  /** `metadata.name`: the name hosted clusters map (`infraStorageClass`, `rootVolumeStorageClass`, etcd's `storageClass`). */
  readonly name: string;
  /** The CSI driver, e.g. `ebs.csi.aws.com` or `topolvm.io`. */
  readonly provisioner: string;
  /** @default - none */
  readonly parameters?: Record<string, string>;
  /**
   * Make it the cluster's default storage class (docs 3.3.1.1 require one on a KubeVirt hub).
   * @default false
   */
  readonly isDefault?: boolean;
  /** @default - not set; Kubernetes uses Immediate */
  readonly volumeBindingMode?: VolumeBindingMode;
  /** @default - not set; Kubernetes uses Delete */
  readonly reclaimPolicy?: 'Delete' | 'Retain';
  /** @default - not set; Kubernetes uses false */
  readonly allowVolumeExpansion?: boolean;
}

/** The annotation that makes a StorageClass the default. */
export const DEFAULT_STORAGE_CLASS_ANNOTATION = 'storageclass.kubernetes.io/is-default-class';

/**
 * A StorageClass on the management cluster, for classes no operator construct here creates (LvmStorage
 * creates its own `lvms-<device class>`). The KubevirtHub checks count it as provided.
 */
export class HubStorageClass extends Construct {
  /** `metadata.name` of the StorageClass. */
  public readonly storageClassName: string;
  /** Whether it is the management cluster's default StorageClass. */
  public readonly isDefault: boolean;
  /** The StorageClass this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: HubStorageClassProps) {
    super(scope, id);
    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(props.name), 'name', props.name, DNS1123_SUBDOMAIN_RULE);
    problems.require(isDns1123Subdomain(props.provisioner ?? ''), 'provisioner', props.provisioner, 'must be a CSI driver name such as ebs.csi.aws.com');
    problems.report();
    this.storageClassName = props.name;
    this.isDefault = props.isDefault ?? false;
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: props.name, annotations: this.isDefault ? { [DEFAULT_STORAGE_CLASS_ANNOTATION]: 'true' } : undefined },
      provisioner: props.provisioner,
      parameters: props.parameters,
      volumeBindingMode: props.volumeBindingMode,
      reclaimPolicy: props.reclaimPolicy,
      allowVolumeExpansion: props.allowVolumeExpansion,
    });
  }
}
