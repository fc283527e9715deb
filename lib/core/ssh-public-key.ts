import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from './names';

/** An SSH public key for the nodes (`core` user). It is public, so it may sit in git. */
const KEY_TYPES = ['ssh-rsa', 'ssh-ed25519', 'ssh-dss', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'sk-ssh-ed25519@openssh.com', 'sk-ecdsa-sha2-nistp256@openssh.com'];

/** What an SSH public key must look like, for error messages. */
export const SSH_PUBLIC_KEY_RULE = `must be one line of OpenSSH public key text: "<type> <base64> [comment]" with type one of ${KEY_TYPES.join(', ')}`;

/** Options of `SshPublicKey.fromString`. */
export interface SshPublicKeyOptions {
  /**
   * The name of the Secret the HostedCluster writes the key into (key `id_rsa.pub`).
   * @default - `<cluster name>-ssh-key`
   */
  readonly secretName?: string;
}

/** The SSH public key put on every node, in a Secret the HostedCluster names. */
export class SshPublicKey {
  /** Key text as in `~/.ssh/id_ed25519.pub`: `ssh-ed25519 AAAA… user@host`. */
  public static fromString(publicKey: string, options: SshPublicKeyOptions = {}): SshPublicKey {
    return new SshPublicKey(publicKey.trim(), undefined, options.secretName);
  }

  /** A Secret that already holds the key under `id_rsa.pub`, in the HostedCluster's namespace. */
  public static fromExistingSecret(secretName: string): SshPublicKey {
    return new SshPublicKey(undefined, secretName, undefined);
  }

  private constructor(
    /** The key text when given inline. */
    public readonly publicKey: string | undefined,
    /** The name of an existing Secret when referenced. */
    public readonly existingSecretName: string | undefined,
    /** The name of the Secret to write the inline key into, when chosen. */
    public readonly secretName: string | undefined,
  ) {}

  /** Why the key is unusable, or undefined. Catches paths and private keys pasted by mistake. */
  public get problem(): string | undefined {
    if (this.publicKey === undefined) return undefined;
    if (this.secretName !== undefined && !isDns1123Subdomain(this.secretName)) return `sshKey.secretName (${JSON.stringify(this.secretName)}) ${DNS1123_SUBDOMAIN_RULE}`;
    const shown = this.publicKey.length > 40 ? `${this.publicKey.slice(0, 37)}...` : this.publicKey;
    if (this.publicKey.includes('PRIVATE KEY')) return `sshKey (${JSON.stringify(shown)}) is a private key; give the public key`;
    if (/^(~|\.{0,2}\/)\S*$/.test(this.publicKey)) return `sshKey (${JSON.stringify(shown)}) is a file path; give the key text, e.g. fs.readFileSync(path, "utf8")`;
    const [type, body, ...rest] = this.publicKey.split(/\s+/);
    const bodyOk = !!body && /^[A-Za-z0-9+/]+={0,3}$/.test(body) && body.length >= 16;
    const ok = KEY_TYPES.includes(type) && bodyOk && !this.publicKey.includes('\n') && rest.length <= 8;
    return ok ? undefined : `sshKey (${JSON.stringify(shown)}) ${SSH_PUBLIC_KEY_RULE}`;
  }
}
