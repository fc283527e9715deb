import * as fs from 'fs';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import type { PrefetchedFiles } from './output-prefetch-worker';

/** The compiled worker; absent when the library runs from its TypeScript sources (ts-node). */
const WORKER = path.join(__dirname, 'output-prefetch-worker.js');

/**
 * How long `take()` waits at most: a guard against a worker that died without a word, never the
 * expected wait. Past it, synth reads the files itself.
 */
const WAIT_LIMIT_MILLIS = 60_000;

/**
 * The files of an output directory, read in a worker thread while the app builds its constructs.
 * A re-synth compares every file with its new text; reading the ten thousand files of a fleet
 * output one by one costs the main thread a tenth of a second or more, which another core can
 * spend instead. `HcpApp` starts one when it is created over an output directory that holds files
 * and takes it at its first `synth()`; what the worker could not read is read from disk as before.
 */
export class OutputPrefetch {
  /** Starts reading `directory` in a worker; undefined when it is missing or empty, or no worker can run. */
  public static start(directory: string): OutputPrefetch | undefined {
    const root = path.resolve(directory);
    try {
      if (!fs.existsSync(WORKER) || fs.readdirSync(root).length === 0) return undefined;
      const done = new SharedArrayBuffer(4);
      const { port1, port2 } = new MessageChannel();
      const worker = new Worker(WORKER, { workerData: { root, done, port: port2 }, transferList: [port2] });
      // Never what keeps the process alive: an app that exits without synth() exits.
      worker.unref();
      return new OutputPrefetch(new Int32Array(done), port1, worker);
    } catch {
      return undefined; // No directory, or no worker: synth reads from disk.
    }
  }

  private constructor(private readonly done: Int32Array, private readonly port: MessagePort, private readonly worker: Worker) {}

  /**
   * Waits for the worker, then gives every file's bytes by its '/'-separated path under the
   * directory, as they were when it read them; undefined when it failed. Call once.
   */
  public take(): ReadonlyMap<string, Buffer> | undefined {
    const waited = Atomics.wait(this.done, 0, 0, WAIT_LIMIT_MILLIS);
    const message = waited === 'timed-out' ? undefined : (receiveMessageOnPort(this.port)?.message as PrefetchedFiles | { error: string } | undefined);
    this.cancel();
    if (message === undefined || 'error' in message) return undefined;
    const files = new Map<string, Buffer>();
    let start = 0;
    message.paths.forEach((file, i) => {
      const end = message.ends[i];
      files.set(file, Buffer.from(message.bytes.buffer, message.bytes.byteOffset + start, end - start));
      start = end;
    });
    return files;
  }

  /** Stops the worker, whose files are not wanted (or were taken). */
  public cancel(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
