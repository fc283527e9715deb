import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import type { ISecretSource } from '../secrets/secret-source';
import { bindHubCredentialsSecret, requireManagementCluster } from './hub-credentials-secret';

/** The Secret the hypershift-addon configures external DNS from (docs 3.1.5.2); no other name works. */
export const EXTERNAL_DNS_CREDENTIALS_SECRET_NAME = 'hypershift-operator-external-dns-credentials';
const NAMESPACE = 'local-cluster';

/** Props of ExternalDnsCredentialsSecret. */
export interface ExternalDnsCredentialsSecretProps {
  /**
   * The service-level domain external DNS may write to (`domain-filter`): the external-DNS zone
   * of AwsManagementPrereqs (`externalDnsZone.zoneName`).
   */
  readonly domainFilter: string;
  /**
   * An AWS credentials file (key `credentials`) allowed to change records in that zone. With
   * `SecretSource.fromExistingSecret` nothing is written and that Secret carries every key itself.
   */
  readonly credentials: ISecretSource;
}

/**
 * The Secret `hypershift-operator-external-dns-credentials` in `local-cluster` (docs 3.1.5.2):
 * `provider: aws` and `domain-filter` in plain text, `credentials` from a SecretSource, labelled
 * for hub backup. With it, the HyperShift Operator runs external DNS, and services published with
 * a hostname under the domain get their records.
 */
export class ExternalDnsCredentialsSecret extends Construct {
  /** The Secret's name, which the HyperShift Operator's install reads. */
  public readonly secretName = EXTERNAL_DNS_CREDENTIALS_SECRET_NAME;
  /** The Secret's namespace, the HyperShift Operator's. */
  public readonly namespace = NAMESPACE;
  /** The object that makes the Secret, or undefined when the Secret exists already. */
  public readonly resource?: ApiObject;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: ExternalDnsCredentialsSecretProps) {
    super(scope, id);
    const problems = new Problems(this);
    requireManagementCluster(this, NAMESPACE, problems);
    problems.require(
      isDns1123Subdomain(props.domainFilter) && props.domainFilter.includes('.'),
      'domainFilter',
      props.domainFilter,
      'must be a lower-case DNS domain such as service-provider.example.com',
    );
    // The docs label this Secret for backup with an empty value (the OIDC one with "true").
    this.resource = bindHubCredentialsSecret(this, problems, {
      secretName: this.secretName,
      namespace: this.namespace,
      backupLabelValue: '',
      credentials: props.credentials,
      plainKeys: { 'provider': 'aws', 'domain-filter': props.domainFilter },
    });
    problems.report();
  }
}
