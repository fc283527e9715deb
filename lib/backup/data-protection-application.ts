import { ApiObject, Duration, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { caBundleProblem } from '../core/formats';
import { durationProblem, toGoDuration } from '../core/go-duration';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import { checkRequiredProps, hasMethod } from '../core/runtime-props';
import type { ISecretSource } from '../secrets/secret-source';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';

/** The namespace of the OADP operator, its DataProtectionApplication and every Velero Backup, Schedule and Restore. */
export const OADP_NAMESPACE = 'openshift-adp';
/** The name docs 7.6.5 give the backup storage location (`storageLocation: default`). */
export const DEFAULT_BACKUP_STORAGE_LOCATION = 'default';

/** S3-compatible object storage for the backups (AWS S3, MinIO, OpenShift Data Foundation's object gateway). */
export interface BackupStorage {
  /** The bucket's name. */
  readonly bucket: string;
  /** A path inside the bucket. @default - the bucket's root */
  readonly prefix?: string;
  /** The bucket's region (MinIO and ODF accept any, e.g. `minio`). */
  readonly region: string;
  /**
   * The S3 endpoint of a store that is not AWS (MinIO, ODF); path-style addressing is then used.
   * @default - AWS S3
   */
  readonly s3Url?: string;
  /**
   * The CA certificates (PEM) that sign the store's TLS certificate, for a store whose CA the
   * OADP images do not trust (MinIO or ODF with an internal or self-signed CA): written base64 to
   * `objectStorage.caCert`. A CA certificate is public, so it is written to the output as it is.
   * @default - the CAs the OADP images trust
   */
  readonly caPem?: string;
  /**
   * Do not verify the store's TLS certificate (`config.insecureSkipTLSVerify`): for a lab only;
   * give `caPem` instead wherever the CA is known.
   * @default false
   */
  readonly insecureSkipTLSVerify?: boolean;
  /**
   * The credentials file (`[default]` with `aws_access_key_id` and `aws_secret_access_key`), under
   * key `cloud` of Secret `cloud-credentials` in `openshift-adp`, as the OADP docs name it.
   */
  readonly credentials: ISecretSource;
}

export interface DataProtectionApplicationProps extends OperatorInstallOptions {
  /** @default 'dpa' */
  readonly name?: string;
  /** Where Velero writes backups: the storage location `default` the docs' Backup names. */
  readonly storage: BackupStorage;
  /**
   * Add OADP's `hypershift` plugin, which pauses a HostedCluster and its NodePools while Velero
   * backs them up. Without it the docs' procedure (7.6.5 steps 1-3) pauses them by hand, so only
   * one-off Backups of a paused cluster are possible, no Schedules.
   * @default false (the docs 7.6 procedure)
   */
  readonly hypershiftPlugin?: boolean;
  /**
   * Add the `kubevirt` plugin, for KubeVirt hosted clusters' VM disks.
   * @default false
   */
  readonly kubevirtPlugin?: boolean;
  /**
   * How long Velero waits for its resources (CRDs, volume snapshot deletion, repositories) before it
   * gives up (`spec.configuration.velero.resourceTimeout`): raise it for large etcd volumes or a slow store.
   * @default - Velero's 10 minutes
   */
  readonly resourceTimeout?: Duration;
  /**
   * Install the OADP operator: Namespace `openshift-adp`, OperatorGroup `oadp-operator-group`, Subscription
   * `redhat-oadp-operator` from channel `stable-1.4`.
   * @default true
   */
  readonly installOperator?: boolean;
}

/**
 * The OADP DataProtectionApplication on the management cluster (docs 7.6.2 and 7.6.3, "Preparing
 * ... to use OADP"): Velero with its node agent (kopia, for the fs-backup of the etcd volumes the
 * docs' Backup asks for), the CSI, OpenShift and AWS plugins, and one S3 backup storage location
 * named `default`. The DPA has no typed class here (its CRD is too large to import); the
 * validator checks it against the CRD at synth.
 */
export class DataProtectionApplication extends Construct {
  /** The namespace OADP runs in, `openshift-adp`. */
  public readonly namespace = OADP_NAMESPACE;
  /** `metadata.name` of the DataProtectionApplication. */
  public readonly dpaName: string;
  /** The Velero BackupStorageLocation backups go to. */
  public readonly storageLocation = DEFAULT_BACKUP_STORAGE_LOCATION;
  /** Whether the HyperShift plugin is on (it pauses clusters for a backup, and a Schedule needs it). */
  public readonly hypershiftPlugin: boolean;
  /** The DataProtectionApplication this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;
  /** The OperatorGroup and Subscription that install the operator; undefined with `installOperator: false`. */
  public readonly operator?: InstalledOperator;

  constructor(scope: Construct, id: string, props: DataProtectionApplicationProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      storage: { accepts: (v) => typeof v === 'object' && v !== null && hasMethod('bind')((v as BackupStorage).credentials), expected: 'a bucket, region and credentials secret source' },
    });
    required.throwIfAny();
    this.dpaName = props.name ?? 'dpa';
    this.hypershiftPlugin = props.hypershiftPlugin ?? false;
    const problems = new Problems(this);
    checkOperatorInstallOptions(props, problems, props.installOperator ?? true);
    const storage = props.storage;
    problems.require(isDns1123Subdomain(this.dpaName), 'name', this.dpaName, DNS1123_SUBDOMAIN_RULE);
    problems.require(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(storage.bucket), 'storage.bucket', storage.bucket, 'must be an S3 bucket name: 3 to 63 lower-case letters, digits, "." and "-"');
    problems.require(/^[a-z0-9-]+$/.test(storage.region), 'storage.region', storage.region, 'must be a region name such as us-east-1 (MinIO: minio)');
    if (storage.s3Url !== undefined) problems.require(/^https?:\/\/[^\s/]+/.test(storage.s3Url), 'storage.s3Url', storage.s3Url, 'must be an http:// or https:// URL');
    if (storage.prefix !== undefined) problems.require(/^[^/\s][^\s]*$/.test(storage.prefix), 'storage.prefix', storage.prefix, 'must be a path without a leading "/" or spaces');
    const caProblem = storage.caPem === undefined ? undefined : caBundleProblem('storage.caPem', storage.caPem);
    if (caProblem) problems.add(caProblem);
    if (storage.insecureSkipTLSVerify !== undefined)
      problems.require(typeof storage.insecureSkipTLSVerify === 'boolean', 'storage.insecureSkipTLSVerify', storage.insecureSkipTLSVerify, 'must be true or false');
    if (storage.insecureSkipTLSVerify === true && storage.caPem !== undefined) {
      problems.add('storage.insecureSkipTLSVerify (true) skips the verification storage.caPem is given for; give one of them');
    }
    const plainHttp = storage.s3Url !== undefined && /^http:\/\//.test(storage.s3Url);
    if (plainHttp && (storage.caPem !== undefined || storage.insecureSkipTLSVerify === true)) {
      problems.add(
        `storage.s3Url (${JSON.stringify(storage.s3Url)}) is plain http, so no TLS is verified; give an https:// URL with ${storage.caPem !== undefined ? 'caPem' : 'insecureSkipTLSVerify'}, or leave it out`,
      );
    }
    const timeoutProblem = props.resourceTimeout === undefined ? undefined : durationProblem('resourceTimeout', props.resourceTimeout, { example: 'Duration.minutes(30)', least: 1 });
    if (timeoutProblem) problems.add(timeoutProblem);

    this.operator =
      (props.installOperator ?? true)
        ? installOperator(
            this,
            {
              namespace: this.namespace,
              operatorGroupName: 'oadp-operator-group',
              packageName: 'redhat-oadp-operator',
              subscriptionName: 'redhat-oadp-operator',
              defaultChannel: 'stable-1.4',
              ownNamespace: true,
            },
            props,
          )
        : undefined;
    const credentials = storage.credentials.bind(this, 'Credentials', { field: 'storage.credentials', defaultName: 'cloud-credentials', namespace: this.namespace, key: 'cloud', type: 'Opaque' });
    if (credentials.problem) problems.add(credentials.problem);
    problems.report();

    const plugins = ['openshift', 'aws', 'csi', ...(props.kubevirtPlugin ? ['kubevirt'] : []), ...(this.hypershiftPlugin ? ['hypershift'] : [])];
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'oadp.openshift.io/v1alpha1',
      kind: 'DataProtectionApplication',
      metadata: { name: this.dpaName, namespace: this.namespace },
      spec: {
        backupLocations: [
          {
            name: this.storageLocation,
            velero: {
              provider: 'aws',
              default: true,
              objectStorage: {
                bucket: storage.bucket,
                prefix: storage.prefix,
                caCert: storage.caPem !== undefined ? Buffer.from(storage.caPem, 'utf8').toString('base64') : undefined,
              },
              config: {
                region: storage.region,
                profile: 'default',
                ...(storage.s3Url ? { s3Url: storage.s3Url, s3ForcePathStyle: 'true' } : {}),
                // A map of strings in the CRD: Velero's AWS plugin parses "true".
                ...(storage.insecureSkipTLSVerify === true ? { insecureSkipTLSVerify: 'true' } : {}),
              },
              credential: { name: credentials.secretName, key: 'cloud' },
            },
          },
        ],
        configuration: {
          velero: { defaultPlugins: plugins, resourceTimeout: props.resourceTimeout !== undefined && !timeoutProblem ? toGoDuration(props.resourceTimeout) : undefined },
          nodeAgent: { enable: true, uploaderType: 'kopia' },
        },
      },
    });
  }

  /** Sets a field of the DataProtectionApplication by JSON path, e.g. `addOverride('spec.configuration.velero.logLevel', 'debug')`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }
}
