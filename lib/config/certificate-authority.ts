import { caBundleProblem } from '../core/formats';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';

/** A certificate authority bundle a component trusts: a ConfigMap in the cluster's namespace (key `ca.crt` for identity providers). */
export class CertificateAuthority {
  /** PEM text; hcp-cdk writes the ConfigMap. Certificates are public, so this is no secret in git. */
  public static fromPem(pem: string): CertificateAuthority {
    return new CertificateAuthority(pem, undefined);
  }

  /** A ConfigMap in the HostedCluster's namespace that already holds the bundle under the key its consumer reads. */
  public static fromExistingConfigMap(name: string): CertificateAuthority {
    return new CertificateAuthority(undefined, name);
  }

  private constructor(
    /** The PEM text, when given as text. */
    public readonly pem: string | undefined,
    /** The ConfigMap that holds the bundle, when it exists already. */
    public readonly existingConfigMapName: string | undefined,
  ) {}

  /** The ConfigMap name to reference; writes it under `scope` when given as PEM. Records a problem for bad input. */
  public bind(scope: Construct, id: string, options: { readonly field: string; readonly defaultName: string; readonly namespace: string; readonly problems: Problems; readonly key?: string }): string {
    if (this.existingConfigMapName !== undefined) {
      options.problems.require(isDns1123Subdomain(this.existingConfigMapName), options.field, this.existingConfigMapName, DNS1123_SUBDOMAIN_RULE);
      return this.existingConfigMapName;
    }
    const problem = caBundleProblem(options.field, this.pem);
    if (problem) options.problems.add(problem);
    new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: options.defaultName, namespace: options.namespace }, data: { [options.key ?? 'ca.crt']: this.pem } });
    return options.defaultName;
  }
}
