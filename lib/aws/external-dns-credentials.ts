import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { isDns1123Subdomain } from '../core/names';
import { ManagementCluster } from '../core/management-cluster';
import { Problems, show } from '../core/problems';
import { addPlainKeys } from '../secrets/plain-keys';
import type { ISecretSource } from '../secrets/secret-source';
import { chartOf, checkCredentialsFile } from './oidc-s3-credentials';

/** The Secret the hypershift-addon configures external DNS from (docs 3.1.5.2); no other name works. */
export const EXTERNAL_DNS_CREDENTIALS_SECRET_NAME = 'hypershift-operator-external-dns-credentials';
const NAMESPACE = 'local-cluster';
/** The docs label this Secret for hub backup with an empty value (the OIDC one with "true"). */
const BACKUP_LABEL = 'cluster.open-cluster-management.io/backup';

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
  public readonly secretName = EXTERNAL_DNS_CREDENTIALS_SECRET_NAME;
  public readonly namespace = NAMESPACE;
  /** The object that makes the Secret, or undefined when the Secret exists already. */
  public readonly resource?: ApiObject;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: ExternalDnsCredentialsSecretProps) {
    super(scope, id);
    const problems = new Problems(this);
    if (!ManagementCluster.prototype.isPrototypeOf(chartOf(this) ?? {})) {
      problems.add(`must be declared in a ManagementCluster (it is in ${chartOf(this)?.node.path || 'no chart'}): the Secret belongs to the hub's ${NAMESPACE} namespace`);
    }
    problems.require(isDns1123Subdomain(props.domainFilter) && props.domainFilter.includes('.'), 'domainFilter', props.domainFilter,
      'must be a lower-case DNS domain such as service-provider.example.com');
    const binding = props.credentials.bind(this, 'Resource', {
      defaultName: this.secretName, namespace: this.namespace, key: 'credentials', type: 'Opaque',
      labels: { [BACKUP_LABEL]: '' }, checkValue: checkCredentialsFile,
    });
    if (binding.problem) problems.add(binding.problem);
    if (binding.secretName !== this.secretName) {
      problems.add(`credentials (Secret ${show(binding.secretName)}) must be the Secret ${show(this.secretName)}: the hypershift-addon reads no other name`);
    }
    const made = this.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
    if (made.length === 1 && addPlainKeys(made[0], { 'provider': 'aws', 'domain-filter': props.domainFilter })) {
      this.resource = made[0];
    } else if (made.length > 0) {
      problems.add(`credentials (a source that writes ${made.map((o) => o.kind).join(', ')}) cannot carry the provider and domain-filter keys; `
        + 'use SecretSource.fromExistingSecret, fromExternalSecret, fromSealedSecret or fromInlineValue');
    }
    problems.throwIfAny();
  }
}
