import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { isUnresolvedToken } from './aws-hosted-infra-values';
import { IOidcDiscoveryBucket, oidcBucketNameProblem } from './aws-management-prereqs';
import { ManagementCluster } from '../core/management-cluster';
import { Problems, show } from '../core/problems';
import { addPlainKeys } from '../secrets/plain-keys';
import type { ISecretSource } from '../secrets/secret-source';

/** The Secret the hypershift-addon reads the OIDC bucket and its credentials from (docs 3.1.2); no other name works. */
export const OIDC_S3_CREDENTIALS_SECRET_NAME = 'hypershift-operator-oidc-provider-s3-credentials';
/** Where that Secret lives: the namespace of the hub's own managed cluster. */
export const OIDC_S3_CREDENTIALS_SECRET_NAMESPACE = 'local-cluster';
/** The label that puts the Secret into the hub backup (docs 3.1.2 note). */
const BACKUP_LABEL = 'cluster.open-cluster-management.io/backup';
const AWS_REGION = /^[a-z]{2}(-[a-z]+)+-[0-9]+$/;

export interface OidcS3CredentialsSecretProps {
  /** The OIDC discovery bucket: an `AwsManagementPrereqs`, or `{ bucketName, bucketRegion }` of a bucket made elsewhere. */
  readonly bucket: IOidcDiscoveryBucket;
  /**
   * An AWS credentials file (key `credentials`) whose `[default]` profile may put and delete objects
   * in the bucket; HyperShift reads no other profile. With `SecretSource.fromExistingSecret` nothing
   * is written and that Secret, which must be `hypershift-operator-oidc-provider-s3-credentials`,
   * carries `bucket` and `region` itself; every other source makes the Secret with all three keys.
   */
  readonly credentials: ISecretSource;
}

/**
 * The Secret `hypershift-operator-oidc-provider-s3-credentials` in `local-cluster` (docs 3.1.2):
 * `bucket` and `region` in plain text, `credentials` from a `SecretSource`, and the hub-backup label
 * `cluster.open-cluster-management.io/backup: "true"`.
 *
 * SecretSource binds one key, so the object the source makes for `credentials` (a Secret, an
 * ExternalSecret or a SealedSecret) is given the two plain keys as well: as `data` of the Secret,
 * as template data merged into the ExternalSecret's target, as template data of the SealedSecret.
 * One object thus makes the whole Secret; bucket and region are never secret material.
 */
export class OidcS3CredentialsSecret extends Construct {
  public readonly secretName = OIDC_S3_CREDENTIALS_SECRET_NAME;
  public readonly namespace = OIDC_S3_CREDENTIALS_SECRET_NAMESPACE;
  public readonly bucketName: string;
  public readonly bucketRegion: string;
  /** The object that makes the Secret, or undefined when the Secret exists already. */
  public readonly resource?: ApiObject;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: OidcS3CredentialsSecretProps) {
    super(scope, id);
    this.bucketName = props.bucket.bucketName;
    this.bucketRegion = props.bucket.bucketRegion;
    const problems = new Problems(this);
    // Not `instanceof`: cdk8s's Chart[Symbol.hasInstance] makes every Chart an instance of every Chart subclass.
    if (!ManagementCluster.prototype.isPrototypeOf(chartOf(this) ?? {})) {
      problems.add(`must be declared in a ManagementCluster (it is in ${chartOf(this)?.node.path || 'no chart'}): the Secret belongs to the hub's ${this.namespace} namespace`);
    }
    this.checkBucket(problems);

    const binding = props.credentials.bind(this, 'Resource', {
      defaultName: this.secretName,
      namespace: this.namespace,
      key: 'credentials',
      type: 'Opaque',
      labels: { [BACKUP_LABEL]: 'true' },
      checkValue: checkCredentialsFile,
    });
    if (binding.problem) problems.add(binding.problem);
    if (binding.secretName !== this.secretName) {
      problems.add(`credentials (Secret ${show(binding.secretName)}) must be the Secret ${show(this.secretName)}: the hypershift-addon reads no other name`);
    }

    const made = this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
    if (made.length === 1 && addPlainKeys(made[0], { bucket: this.bucketName, region: this.bucketRegion })) {
      this.resource = made[0];
    } else if (made.length > 0) {
      problems.add(`credentials (a source that writes ${made.map((o) => o.kind).join(', ')}) cannot carry the bucket and region keys; `
        + 'use SecretSource.fromExistingSecret, fromExternalSecret, fromSealedSecret or fromInlineValue');
    }
    problems.throwIfAny();
    this.node.addValidation({ validate: () => this.checkOnePerHub() });
  }

  private checkBucket(problems: Problems): void {
    const { bucketName: name, bucketRegion: region } = this;
    if (isUnresolvedToken(name)) {
      problems.add('bucket.bucketName (a CloudFormation token) must be concrete: the Secret carries the name as text');
    } else {
      const problem = oidcBucketNameProblem(name);
      if (problem) problems.add(`bucket.bucketName ${problem}`);
    }
    if (isUnresolvedToken(region)) {
      problems.add('bucket.bucketRegion (a CloudFormation token) must be concrete: give the AWS stack an env with a region, or pass { bucketName, bucketRegion }');
    } else {
      problems.require(AWS_REGION.test(region), 'bucket.bucketRegion', region, 'must be an AWS region such as "eu-west-1"');
    }
  }

  private checkOnePerHub(): string[] {
    const chart = chartOf(this);
    const first = chart?.node.findAll().find((c) => c instanceof OidcS3CredentialsSecret);
    return first && first !== this
      ? [`a management cluster has one ${this.secretName} Secret, and ${first.node.path} already declares it`]
      : [];
  }
}

/**
 * Why an inline credentials file is unusable, or undefined: HyperShift uses the `[default]`
 * profile only, so it must hold the access key pair.
 */
export function checkCredentialsFile(value: Buffer): string | undefined {
  let profile: string | undefined;
  const keys = new Set<string>();
  for (const raw of value.toString('utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([^\]]*?)\s*\]$/.exec(line);
    if (header) profile = header[1];
    else if (profile === 'default') {
      const setting = /^([A-Za-z0-9_]+)\s*=\s*\S/.exec(line);
      if (setting) keys.add(setting[1].toLowerCase());
    }
  }
  if (keys.has('aws_access_key_id') && keys.has('aws_secret_access_key')) return undefined;
  return 'credentials (inline value) must be an AWS credentials file whose [default] profile sets aws_access_key_id and aws_secret_access_key; HyperShift reads only the default profile (docs 3.1.2)';
}

export function chartOf(construct: Construct): Chart | undefined {
  try {
    return Chart.of(construct);
  } catch {
    return undefined;
  }
}
