import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { goDurationTextProblem } from '../core/go-duration';
import { show } from '../core/problems';
import { recordSecretRequirement, SecretMaker } from '../secrets/secret-requirement';
import type { ExternalSecretOptions, InlineSecretOptions } from '../secrets/secret-source';

/** The keys a BareMetalHost's credentials Secret holds, in the order Metal3 documents them. */
const BMC_KEYS = ['username', 'password'] as const;

/** Where a BareMetalHost's BMC user name and password come from: one Secret with `username` and `password`. */
export interface IBmcCredentials {
  /**
   * Why the options the source was made with cannot work (`<field> (<value>) ...`), which the host
   * reports under `bmc.credentials`.
   * @default - none
   */
  readonly problem?: string;
  /** Adds the Secret (or what makes it) under `scope` when this source creates one; returns its name. */
  bind(scope: Construct, id: string, defaultName: string, namespace: string): string;
}

/** Where External Secrets finds a BMC's user name and password. */
export interface BmcExternalSecretOptions extends Omit<ExternalSecretOptions, 'remoteKey' | 'remoteProperty'> {
  /** Where the user name is in the external store. */
  readonly username: {
    /** The key in the store. */
    readonly remoteKey: string;
    /** The property of the key's value. @default - the whole value */
    readonly remoteProperty?: string;
  };
  /** Where the password is in the external store. */
  readonly password: {
    /** The key in the store. */
    readonly remoteKey: string;
    /** The property of the key's value. @default - the whole value */
    readonly remoteProperty?: string;
  };
}

/**
 * BMC credentials, kept out of the output unless you opt in (as with SecretSource): reference a
 * Secret, let External Secrets or Sealed Secrets make it, or write it inline for a lab.
 */
export class BmcCredentials {
  /**
   * A Secret that already exists in the host's namespace, with keys `username` and `password`.
   * The app's secrets report lists it as one you create.
   */
  public static fromExistingSecret(secretName: string): IBmcCredentials {
    return {
      bind: (scope, _id, _defaultName, namespace) => {
        recordSecretRequirement(scope, { name: secretName, namespace, type: 'Opaque', keys: BMC_KEYS, madeBy: SecretMaker.YOU });
        return secretName;
      },
    };
  }

  /**
   * The user name and password written into the output as a Secret. You must opt in with
   * `{ allowSecretInOutput: true }`: the password then sits, base64-encoded, in git.
   */
  public static fromInlineValues(username: string, password: string, options: InlineSecretOptions): IBmcCredentials {
    const optIn = (options as { allowSecretInOutput?: unknown } | undefined)?.allowSecretInOutput;
    if (optIn !== true) {
      // Reported by the host, with its construct path and its other problems, not thrown here without either.
      return {
        problem: `allowSecretInOutput (${show(optIn)}) must be true to write a BMC password into the output (BmcCredentials.fromInlineValues); use fromExistingSecret, fromExternalSecret or fromSealedSecret otherwise`,
        bind: (_scope, _id, name) => name,
      };
    }
    return {
      bind: (scope, id, name, namespace) => {
        new ApiObject(scope, id, {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name, namespace },
          type: 'Opaque',
          data: { username: Buffer.from(username).toString('base64'), password: Buffer.from(password).toString('base64') },
        });
        return name;
      },
    };
  }

  /**
   * An ExternalSecret (external-secrets.io/v1) that fills `username` and `password` from a secret
   * store. The app's secrets report lists where in the store each must be.
   */
  public static fromExternalSecret(options: BmcExternalSecretOptions): IBmcCredentials {
    return {
      problem: options.refreshInterval === undefined ? undefined : goDurationTextProblem('refreshInterval', options.refreshInterval),
      bind: (scope, id, name, namespace) => {
        const storeKind = options.storeKind ?? 'ClusterSecretStore';
        const remoteReferences = BMC_KEYS.map((key) => ({ secretKey: key, remoteKey: options[key].remoteKey, remoteProperty: options[key].remoteProperty }));
        recordSecretRequirement(scope, {
          name,
          namespace,
          type: 'Opaque',
          keys: BMC_KEYS,
          madeBy: SecretMaker.EXTERNAL_SECRETS,
          store: { kind: storeKind, name: options.storeName },
          remoteReferences,
        });
        new ApiObject(scope, id, {
          apiVersion: 'external-secrets.io/v1',
          kind: 'ExternalSecret',
          metadata: { name, namespace },
          spec: {
            refreshInterval: options.refreshInterval ?? '1h',
            secretStoreRef: { name: options.storeName, kind: storeKind },
            target: { name, creationPolicy: 'Owner', template: { type: 'Opaque' } },
            data: remoteReferences.map((ref) => ({ secretKey: ref.secretKey, remoteRef: { key: ref.remoteKey, property: ref.remoteProperty } })),
          },
        });
        return name;
      },
    };
  }

  /** A SealedSecret (bitnami.com/v1alpha1) holding both values, sealed with kubeseal for the Secret's name and namespace. */
  public static fromSealedSecret(encrypted: { readonly username: string; readonly password: string }): IBmcCredentials {
    return {
      bind: (scope, id, name, namespace) => {
        recordSecretRequirement(scope, { name, namespace, type: 'Opaque', keys: BMC_KEYS, madeBy: SecretMaker.SEALED_SECRETS });
        new ApiObject(scope, id, {
          apiVersion: 'bitnami.com/v1alpha1',
          kind: 'SealedSecret',
          metadata: { name, namespace },
          spec: { encryptedData: { username: encrypted.username, password: encrypted.password }, template: { type: 'Opaque', metadata: { name, namespace } } },
        });
        return name;
      },
    };
  }
}
