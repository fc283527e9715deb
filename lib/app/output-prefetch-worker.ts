// The worker thread of OutputPrefetch (output-prefetch.ts): reads every file of an output directory,
// posts them in one message, then raises the flag the main thread waits on. The flag is raised
// whatever happens, so that the main thread never waits for a worker that failed.
import * as fs from 'fs';
import * as path from 'path';
import { MessagePort, workerData } from 'worker_threads';

/** What the worker posts: the files' '/'-separated paths, their bytes end to end, and where each ends. */
export interface PrefetchedFiles {
  readonly paths: readonly string[];
  readonly bytes: Uint8Array;
  readonly ends: Float64Array;
}

const { root, done, port } = workerData as { root: string; done: SharedArrayBuffer; port: MessagePort };
const flag = new Int32Array(done);
try {
  const paths: string[] = [];
  const contents: Buffer[] = [];
  collect(root, '', paths, contents);
  const bytes = new Uint8Array(contents.reduce((total, content) => total + content.length, 0));
  const ends = new Float64Array(contents.length);
  let at = 0;
  contents.forEach((content, i) => {
    bytes.set(content, at);
    at += content.length;
    ends[i] = at;
  });
  const files: PrefetchedFiles = { paths, bytes, ends };
  // Transferred, not copied: the main thread gets the bytes as they are.
  port.postMessage(files, [bytes.buffer, ends.buffer]);
} catch (error) {
  port.postMessage({ error: (error as Error).message });
} finally {
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/** Adds every regular file under `dir`; anything else is left to the main thread, which reads what it needs. */
function collect(dir: string, prefix: string, paths: string[], contents: Buffer[]): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collect(full, `${prefix}${entry.name}/`, paths, contents);
    else if (entry.isFile()) {
      paths.push(prefix + entry.name);
      contents.push(fs.readFileSync(full));
    }
  }
}
