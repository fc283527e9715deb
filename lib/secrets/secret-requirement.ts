import { IConstruct } from 'constructs';

/** Who makes a Secret that the output references but does not itself contain. */
export enum SecretMaker {
  /** You: nothing in the output makes it; create it before the objects that read it are applied. */
  YOU = 'you',
  /** The External Secrets Operator, from an ExternalSecret in the output; the store must hold the values. */
  EXTERNAL_SECRETS = 'external-secrets',
  /** The Sealed Secrets controller, from a SealedSecret in the output (sealed for this name and namespace). */
  SEALED_SECRETS = 'sealed-secrets',
}

/** The SecretStore or ClusterSecretStore an ExternalSecret reads from. */
export interface SecretStoreReference {
  /** Whether the store is namespaced or cluster-wide. */
  readonly kind: 'SecretStore' | 'ClusterSecretStore';
  /** The store's name. */
  readonly name: string;
}

/** Where External Secrets reads one key of the Secret from. */
export interface SecretRemoteReference {
  /** The key in the Secret. */
  readonly secretKey: string;
  /** The key of the value in the store. */
  readonly remoteKey: string;
  /**
   * A property inside the remote value.
   * @default - the whole remote value
   */
  readonly remoteProperty?: string;
}

/** A Secret one construct reads and that a source did not write into the output. */
export interface SecretRequirement {
  /** The Secret's name. */
  readonly name: string;
  /** The Secret's namespace. */
  readonly namespace: string;
  /** The Secret type, e.g. `kubernetes.io/dockerconfigjson`. */
  readonly type: string;
  /** The data keys the construct reads. */
  readonly keys: readonly string[];
  /** Who makes the Secret: you, External Secrets or Sealed Secrets. */
  readonly madeBy: SecretMaker;
  /**
   * EXTERNAL_SECRETS only: the store the values come from.
   * @default - none (other makers)
   */
  readonly store?: SecretStoreReference;
  /**
   * EXTERNAL_SECRETS only: where each fetched key is in the store (keys not listed are plain template data).
   * @default - none (other makers)
   */
  readonly remoteReferences?: readonly SecretRemoteReference[];
}

/** The construct metadata type a requirement is recorded under. */
const REQUIREMENT_METADATA = 'hcp-cdk:secret-requirement';

/**
 * Records on `consumer` that it reads a Secret which the output does not contain, for the app's
 * secrets report (`HcpApp.secretsReport()`). Kept in the construct's own metadata, so that each
 * app's tree carries its requirements and nothing is shared between apps. Sources call it from
 * `bind`; a construct that references a Secret by other means (a name it derives) calls it itself.
 */
export function recordSecretRequirement(consumer: IConstruct, requirement: SecretRequirement): void {
  consumer.node.addMetadata(REQUIREMENT_METADATA, requirement);
}

/** The requirements recorded on `construct` itself (not its children), in the order recorded. */
export function secretRequirementsOf(construct: IConstruct): SecretRequirement[] {
  return construct.node.metadata.filter((entry) => entry.type === REQUIREMENT_METADATA).map((entry) => entry.data as SecretRequirement);
}
