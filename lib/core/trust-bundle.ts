import { caBundleProblem } from './formats';

/** Extra certificate authorities the hosted cluster trusts (mirror registries, proxies). */
export class TrustBundle {
  /** PEM text; hcp-cdk writes it to the ConfigMap `user-ca-bundle` under `ca-bundle.crt`. */
  public static fromPem(pem: string): TrustBundle {
    return new TrustBundle(pem, undefined);
  }

  /** A ConfigMap in the HostedCluster's namespace that already holds `ca-bundle.crt`. */
  public static fromExistingConfigMap(name: string): TrustBundle {
    return new TrustBundle(undefined, name);
  }

  private constructor(
    /** The PEM text, when given as text. */
    public readonly pem: string | undefined,
    /** The ConfigMap that holds `ca-bundle.crt`, when it exists already. */
    public readonly existingConfigMapName: string | undefined,
  ) {}

  /** Why the PEM is no certificate bundle, or undefined when it is one. */
  public get problem(): string | undefined {
    if (this.pem === undefined) return undefined;
    // The one PEM check: certificates only, never a private key pasted with them.
    return caBundleProblem('additionalTrustBundle', this.pem);
  }
}
