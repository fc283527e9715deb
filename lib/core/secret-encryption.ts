import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import type { ISecretSource } from '../secrets/secret-source';

const AES_CBC_KEY_BYTES = 32;

/** How etcd encrypts Secrets and other sensitive resources at rest. */
export class SecretEncryption {
  /**
   * AES-CBC with a 32-byte key held in a Secret under `key`. hcp-cdk never
   * generates the key: create it once (e.g. `openssl rand -base64 32`) and keep it.
   */
  public static aescbc(activeKey: ISecretSource, backupKey?: ISecretSource): SecretEncryption {
    return new SecretEncryption(activeKey, backupKey);
  }

  private constructor(
    /** The key that encrypts: a Secret with key `key`. */
    public readonly activeKey: ISecretSource,
    /** The key before it, still used to decrypt during a rotation. */
    public readonly backupKey?: ISecretSource,
  ) {}

  /** Checks an inline key: exactly 32 bytes. */
  public static checkKey(value: Buffer): string | undefined {
    return value.length === AES_CBC_KEY_BYTES
      ? undefined
      : `secretEncryption key (${value.length} bytes) must be exactly ${AES_CBC_KEY_BYTES} bytes (an AES-256 key; pass the decoded bytes, e.g. Buffer.from(base64, 'base64'))`;
  }

  /** `spec.secretEncryption`, naming the Secrets of the active key and the backup key. */
  public static render(activeKeyName: string, backupKeyName?: string): hc.HostedClusterSpecSecretEncryption {
    return {
      type: hc.HostedClusterSpecSecretEncryptionType.AESCBC,
      aescbc: { activeKey: { name: activeKeyName }, backupKey: backupKeyName ? { name: backupKeyName } : undefined },
    };
  }
}
