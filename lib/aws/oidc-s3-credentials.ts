import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isUnresolvedToken } from '../platform/aws-infra';
import { IOidcDiscoveryBucket, oidcBucketNameProblem } from './aws-management-prereqs';
import { bindHubCredentialsSecret, chartOf, requireManagementCluster } from './hub-credentials-secret';
import { AWS_REGION } from '../core/formats';
import { Problems } from '../core/problems';
import type { ISecretSource } from '../secrets/secret-source';

/** The Secret the hypershift-addon reads the OIDC bucket and its credentials from (docs 3.1.2); no other name works. */
export const OIDC_S3_CREDENTIALS_SECRET_NAME = 'hypershift-operator-oidc-provider-s3-credentials';
/** Where that Secret lives: the namespace of the hub's own managed cluster. */
export const OIDC_S3_CREDENTIALS_SECRET_NAMESPACE = 'local-cluster';

/** Props of OidcS3CredentialsSecret. */
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
  /** The Secret's name, which the HyperShift Operator's install reads. */
  public readonly secretName = OIDC_S3_CREDENTIALS_SECRET_NAME;
  /** The Secret's namespace, the HyperShift Operator's. */
  public readonly namespace = OIDC_S3_CREDENTIALS_SECRET_NAMESPACE;
  /** The OIDC discovery bucket's name. */
  public readonly bucketName: string;
  /** The OIDC discovery bucket's region. */
  public readonly bucketRegion: string;
  /** The object that makes the Secret, or undefined when the Secret exists already. */
  public readonly resource?: ApiObject;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: OidcS3CredentialsSecretProps) {
    super(scope, id);
    this.bucketName = props.bucket.bucketName;
    this.bucketRegion = props.bucket.bucketRegion;
    const problems = new Problems(this);
    requireManagementCluster(this, this.namespace, problems);
    this.checkBucket(problems);
    this.resource = bindHubCredentialsSecret(this, problems, {
      secretName: this.secretName,
      namespace: this.namespace,
      backupLabelValue: 'true',
      credentials: props.credentials,
      plainKeys: { bucket: this.bucketName, region: this.bucketRegion },
    });
    problems.report();
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
    return first && first !== this ? [`a management cluster has one ${this.secretName} Secret, and ${first.node.path} already declares it`] : [];
  }
}
