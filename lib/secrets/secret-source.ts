import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { goDurationTextProblem } from '../core/go-duration';
import { show } from '../core/problems';
import { recordSecretRequirement, SecretMaker } from './secret-requirement';

/** What a consumer needs from a secret: where it lives and which key it reads. */
export interface SecretBindOptions {
  /** The Secret's name when this source creates it (sources that reference a Secret keep theirs). */
  readonly defaultName: string;
  /** The namespace the consumer reads the Secret from. */
  readonly namespace: string;
  /** The data key the consumer reads, e.g. `.dockerconfigjson`. */
  readonly key: string;
  /**
   * Keys besides `key` that the consumer reads and adds, as plain values, to what a source makes
   * (see `addPlainKeys`); a Secret that exists already must carry them itself. Listed in the
   * secrets report.
   * @default - none
   */
  readonly otherKeys?: readonly string[];
  /** The Secret type, e.g. `kubernetes.io/dockerconfigjson`. */
  readonly type: string;
  /** Labels for a Secret this source creates. */
  readonly labels?: Record<string, string>;
  /** Checks an inline value; returns why it is unusable, or undefined. */
  readonly checkValue?: (value: Buffer) => string | undefined;
  /**
   * The consumer's field the source is given in (`pullSecret`, `secretEncryption.activeKey`): the
   * source's own problems (a missing opt-in, a bad Secret name) start with it.
   * @default - the problems name the source alone
   */
  readonly field?: string;
}

/** A problem of the source itself, naming the consumer's field when the consumer gives it. */
function sourceProblem(bind: SecretBindOptions, problem: string): string {
  return bind.field ? `${bind.field}: ${problem}` : problem;
}

/** The Secret a consumer should reference. */
export interface SecretBinding {
  /** The Secret's name. */
  readonly secretName: string;
  /** Why an inline value is unusable (from `checkValue`); the consumer reports it with its other problems. */
  readonly problem?: string;
}

/** Where secret material comes from. hcp-cdk never puts it in the output unless you opt in. */
export interface ISecretSource {
  /** Called once by the consumer; may add objects (ExternalSecret, SealedSecret, Secret) under `scope`. */
  bind(scope: Construct, id: string, options: SecretBindOptions): SecretBinding;
}

/** Options of `SecretSource.fromInlineValue`. */
export interface InlineSecretOptions {
  /**
   * Must be `true`: the value is written, base64-encoded but readable, into the
   * synthesized YAML and so into git. Use it for labs and tests only.
   */
  readonly allowSecretInOutput: true;
}

/** Options of `SecretSource.fromExternalSecret`. */
export interface ExternalSecretOptions {
  /** The SecretStore or ClusterSecretStore that holds the value. */
  readonly storeName: string;
  /**
   * The kind of store.
   * @default 'ClusterSecretStore'
   */
  readonly storeKind?: 'SecretStore' | 'ClusterSecretStore';
  /** The key of the value in the external store. */
  readonly remoteKey: string;
  /**
   * A property inside the remote value (for JSON values).
   * @default - the whole remote value
   */
  readonly remoteProperty?: string;
  /**
   * How often the operator refreshes the Secret: a Go duration such as `1h`, `15m` or `1h30m`
   * (the External Secrets Operator parses it with time.ParseDuration; `0` refreshes never).
   * @default '1h'
   */
  readonly refreshInterval?: string;
}

/** Options of `SecretSource.fromSealedSecret`. */
export interface SealedSecretOptions {
  /**
   * The value encrypted with `kubeseal` for the Secret's name and namespace
   * (strict scope: seal it for the name the consumer gives, see docs/secrets-and-errors.md#secrets-you-create).
   */
  readonly encryptedValue: string;
}

/** Factories for the ways secret material can reach a cluster. */
export class SecretSource {
  /**
   * A Secret that already exists in the consumer's namespace; nothing is emitted. The app's
   * secrets report lists it, with the keys the consumer reads, as one you create.
   */
  public static fromExistingSecret(secretName: string): ISecretSource {
    if (typeof secretName === 'string' && isDns1123Subdomain(secretName)) return existingSecretWithDerivedName(secretName);
    const problem = `SecretSource.fromExistingSecret name (${show(secretName)}) must name a Secret: ${DNS1123_SUBDOMAIN_RULE}`;
    return { bind: (_scope, _id, bind) => ({ secretName, problem: sourceProblem(bind, problem) }) };
  }

  /**
   * A literal value written into the output as a Secret. You must opt in with
   * `{ allowSecretInOutput: true }`, because the YAML then carries the secret.
   */
  public static fromInlineValue(value: string | Buffer, options: InlineSecretOptions): ISecretSource {
    const optIn = (options as { allowSecretInOutput?: unknown } | undefined)?.allowSecretInOutput;
    if (optIn !== true) {
      // Reported by the consumer, with its construct path and its other problems, not thrown here without either.
      const problem = `SecretSource.fromInlineValue: allowSecretInOutput (${show(optIn)}) must be true to write secret material into the output; use fromExistingSecret, fromExternalSecret or fromSealedSecret otherwise`;
      return { bind: (_scope, _id, bind) => ({ secretName: bind.defaultName, problem: sourceProblem(bind, problem) }) };
    }
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
    return {
      bind: (scope, id, bind) => {
        const problem = bind.checkValue?.(bytes);
        if (problem) return { secretName: bind.defaultName, problem };
        new ApiObject(scope, id, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: bind.defaultName, namespace: bind.namespace, labels: bind.labels },
          type: bind.type,
          data: { [bind.key]: bytes.toString('base64') },
        });
        return { secretName: bind.defaultName };
      },
    };
  }

  /**
   * An ExternalSecret (external-secrets.io/v1) that the External Secrets Operator turns into the
   * Secret. The app's secrets report lists the store and remote key the value must be in.
   */
  public static fromExternalSecret(options: ExternalSecretOptions): ISecretSource {
    const problem = options.refreshInterval === undefined ? undefined : goDurationTextProblem('SecretSource.fromExternalSecret refreshInterval', options.refreshInterval);
    return {
      bind: (scope, id, bind) => {
        const storeKind = options.storeKind ?? 'ClusterSecretStore';
        recordSecretRequirement(scope, {
          name: bind.defaultName,
          namespace: bind.namespace,
          type: bind.type,
          keys: keysOf(bind),
          madeBy: SecretMaker.EXTERNAL_SECRETS,
          store: { kind: storeKind, name: options.storeName },
          remoteReferences: [{ secretKey: bind.key, remoteKey: options.remoteKey, remoteProperty: options.remoteProperty }],
        });
        new ApiObject(scope, id, {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name: bind.defaultName, namespace: bind.namespace, labels: bind.labels },
          spec: {
            refreshInterval: options.refreshInterval ?? '1h',
            secretStoreRef: { name: options.storeName, kind: storeKind },
            target: {
              name: bind.defaultName,
              creationPolicy: 'Owner',
              template: { type: bind.type, metadata: { labels: bind.labels } },
            },
            data: [{ secretKey: bind.key, remoteRef: { key: options.remoteKey, property: options.remoteProperty } }],
          },
        });
        return { secretName: bind.defaultName, problem: problem && sourceProblem(bind, problem) };
      },
    };
  }

  /** A SealedSecret (bitnami.com/v1alpha1) that the Sealed Secrets controller decrypts in the cluster. */
  public static fromSealedSecret(options: SealedSecretOptions): ISecretSource {
    return {
      bind: (scope, id, bind) => {
        recordSecretRequirement(scope, { name: bind.defaultName, namespace: bind.namespace, type: bind.type, keys: keysOf(bind), madeBy: SecretMaker.SEALED_SECRETS });
        new ApiObject(scope, id, {
          apiVersion: 'bitnami.com/v1alpha1',
          kind: 'SealedSecret',
          metadata: { name: bind.defaultName, namespace: bind.namespace, labels: bind.labels },
          spec: {
            encryptedData: { [bind.key]: options.encryptedValue },
            template: { type: bind.type, metadata: { name: bind.defaultName, namespace: bind.namespace, labels: bind.labels } },
          },
        });
        return { secretName: bind.defaultName };
      },
    };
  }
}

/**
 * A Secret that already exists under a name the consumer derives from its own, already checked
 * name (a cluster's default `<cluster>-etcd-encryption-key`): `SecretSource.fromExistingSecret`
 * without checking the name a second time, so that a bad cluster name is reported once. Listed in
 * the secrets report like any existing Secret.
 */
export function existingSecretWithDerivedName(secretName: string): ISecretSource {
  return {
    bind: (scope, _id, bind) => {
      recordSecretRequirement(scope, { name: secretName, namespace: bind.namespace, type: bind.type, keys: keysOf(bind), madeBy: SecretMaker.YOU });
      return { secretName };
    },
  };
}

/** The keys the consumer reads: the bound one first. */
function keysOf(bind: SecretBindOptions): string[] {
  return [bind.key, ...(bind.otherKeys ?? []).filter((key) => key !== bind.key)];
}
