// The kube-apiserver and etcd binaries the server tests run, unpacked once from the gzip files in
// ../shared/tools/kube-apiserver (read-only) into a cache that every worktree's test run shares.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';

/** The binaries the harness runs. */
export type ServerBinary = 'kube-apiserver' | 'etcd';

/** Where the gzip-compressed binaries are: ../shared/tools/kube-apiserver beside the repository root. */
export function binarySource(root: string): string {
  return path.resolve(root, '..', 'shared', 'tools', 'kube-apiserver');
}

/** Where they are unpacked: node_modules/.cache/hcp-cdk-kube-apiserver under the repository root. */
export function binaryCache(root: string): string {
  return path.join(root, 'node_modules', '.cache', 'hcp-cdk-kube-apiserver');
}

/**
 * The path of `name` unpacked from `<source>/<name>.gz`, unpacking it unless the cache holds it.
 * The cached file is named after the .gz file's sha256, so a new binary is unpacked beside the old
 * one, and it appears only complete: written under a name of its own, then renamed.
 */
export function unpackedBinary(name: ServerBinary, source: string, cache: string): string {
  const packed = path.join(source, `${name}.gz`);
  if (!fs.existsSync(packed)) {
    throw new Error(`${name}: ${packed} does not exist; the server tests need the binaries of ../shared/tools/kube-apiserver (see its README.md)`);
  }
  const bytes = fs.readFileSync(packed);
  const digest = crypto.createHash('sha256').update(bytes).digest('hex');
  const target = path.join(cache, `${name}-${digest}`);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(cache, { recursive: true });
  const temporary = `${target}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.partial`;
  try {
    fs.writeFileSync(temporary, zlib.gunzipSync(bytes), { mode: 0o755 });
    fs.renameSync(temporary, target);
  } finally {
    fs.rmSync(temporary, { force: true });
  }
  return target;
}
