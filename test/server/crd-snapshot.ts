// The etcd data of a test server with the CRDs installed, made once and kept beside the unpacked
// binaries. Creating the CRDs of validationSchemas (70 when this was written) (5.9 MB, thousands of CEL rules) keeps the server
// busy for 6 s on an idle machine and 12-15 s on a busy one; a server that starts from their stored
// state serves them about a second after it is ready.
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { CrdInFile, installCrds } from './install-crds';
import { KubeApiServer } from './kube-apiserver';
import { KubeClient } from './kube-client';
import { binaryCache, binarySource, unpackedBinary } from './server-binaries';

/** Snapshots not used for an hour (another branch's CRDs) are removed when a new one is made. */
const UNUSED_FOR_MS = 60 * 60 * 1000;

export interface CrdSnapshot {
  /** The etcd data directory, for KubeApiServer's `etcdData`. */
  readonly directory: string;
  /** How long making it took, when it was not in the cache. */
  readonly madeInMs?: number;
}

/**
 * An etcd data directory holding `crds`, Established: from the cache, or made now (a server
 * started, the CRDs installed, the server stopped) and kept. It is named after a digest of the
 * binaries, this harness's code and the CRDs' files, so a change to any of them makes a new one.
 */
export async function crdSnapshot(root: string, crds: readonly CrdInFile[]): Promise<CrdSnapshot> {
  const cache = binaryCache(root);
  const directory = path.join(cache, `etcd-crds-${snapshotKey(root, crds)}`);
  if (fs.existsSync(path.join(directory, 'member'))) {
    const now = new Date();
    fs.utimesSync(directory, now, now);
    return { directory };
  }
  const started = Date.now();
  const temporary = `${directory}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.partial`;
  const server = await KubeApiServer.start({ root });
  try {
    const client = new KubeClient(server.connection);
    try {
      await installCrds(client, crds);
    } finally {
      client.close();
    }
    await server.stop({ saveEtcdDataTo: temporary });
    try {
      fs.renameSync(temporary, directory);
    } catch (error) {
      // Another run made it at the same time: theirs is as good.
      if (!fs.existsSync(path.join(directory, 'member'))) throw error;
    }
  } finally {
    await server.stop();
    fs.rmSync(temporary, { recursive: true, force: true });
  }
  removeUnused(cache, directory);
  return { directory, madeInMs: Date.now() - started };
}

function snapshotKey(root: string, crds: readonly CrdInFile[]): string {
  const hash = crypto.createHash('sha256');
  // The unpacked binaries are named after their .gz file's digest.
  for (const name of ['etcd', 'kube-apiserver'] as const) hash.update(path.basename(unpackedBinary(name, binarySource(root), binaryCache(root))));
  // The code that starts the server (its flags) and installs the CRDs.
  for (const file of ['kube-apiserver.js', 'install-crds.js', 'crd-snapshot.js']) hash.update(fs.readFileSync(path.join(__dirname, file)));
  for (const file of new Set(crds.map((c) => c.file))) hash.update(`${path.relative(root, file)}\n`).update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 32);
}

function removeUnused(cache: string, keep: string): void {
  for (const name of fs.readdirSync(cache)) {
    const entry = path.join(cache, name);
    if (!name.startsWith('etcd-crds-') || entry === keep) continue;
    if (Date.now() - fs.statSync(entry).mtimeMs > UNUSED_FOR_MS) fs.rmSync(entry, { recursive: true, force: true });
  }
}
