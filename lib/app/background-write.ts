import * as fs from 'fs';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker, WorkerOptions } from 'worker_threads';
import { markIncomplete } from '../output/output-state';

/** One file of an output: its '/'-separated path under the output directory and its text. */
interface OutputFile {
  readonly path: string;
  readonly text: string;
}

// The writer thread's state, in shared memory: main and writer both read and change it.
const NOT_STARTED = 0;
const WRITING = 1;
/** Main wrote the files itself: the writer, should it start at all, writes nothing. */
const CANCELLED = 2;
const DONE = 3;
const FAILED = 4;

/** Slots of the shared array. */
const STATE = 0;
const FILES_WRITTEN = 1;

/**
 * The writer thread. Plain JavaScript run from this string (`eval`), not a module file, so that it
 * runs alike from build/lib, under ts-node and under jest. It writes each batch of files it is sent
 * (one mkdir per folder), counts them in shared memory, and on `end` says it is done; the first
 * error, wherever it is thrown, stops it and is sent back.
 */
const WRITER_SOURCE = `
const { workerData } = require('worker_threads');
const fs = require('fs');
const path = require('path');
const { root, shared, port } = workerData;
const state = new Int32Array(shared);
const folders = new Set();
const fail = (error) => {
  port.postMessage(String((error && error.message) || error));
  Atomics.store(state, ${STATE}, ${FAILED});
  Atomics.notify(state, ${STATE});
  port.close();
};
process.on('uncaughtException', fail);
if (Atomics.compareExchange(state, ${STATE}, ${NOT_STARTED}, ${WRITING}) === ${NOT_STARTED}) {
  port.on('message', (message) => {
    if (Atomics.load(state, ${STATE}) !== ${WRITING}) return;
    try {
      if (message === 'end') {
        Atomics.store(state, ${STATE}, ${DONE});
        Atomics.notify(state, ${STATE});
        port.close();
        return;
      }
      for (const file of message) {
        const target = path.join(root, file.path);
        const folder = path.dirname(target);
        if (!folders.has(folder)) {
          fs.mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        fs.writeFileSync(target, file.text);
        Atomics.add(state, ${FILES_WRITTEN}, 1);
      }
    } catch (error) {
      fail(error);
    }
  });
} else {
  port.close();
}
`;

/** How the writer thread is made and watched; the defaults are for use, the options for tests. */
export interface BackgroundWriteOptions {
  /** How many files make a thread worth starting. @default BackgroundWrite.DEFAULT_THRESHOLD */
  readonly threshold?: number;
  /** How long the thread may go without writing a file before it is given up. @default 60 s */
  readonly stallMillis?: number;
  /** Makes the thread from its source and options. @default - `new Worker(source, options)` */
  readonly startWorker?: (source: string, options: WorkerOptions) => Worker;
}

/**
 * The first write of an output (into an output directory that holds nothing, or does not exist),
 * done by a second thread while the synth goes on rendering and checking: on two cores the disk's
 * time (creating ten thousand files takes a second or more) mostly disappears behind the synth's.
 * Files are handed over as the synth makes them; the thread starts only once `threshold` files are
 * there, so a small output is written as before, by `OutputDirectory.replaceWith()`, without a thread.
 *
 * The thread writes into a staging directory beside the output directory (`<outdir>.writing-<pid>`),
 * with `INCOMPLETE_MARKER` in it; `finish()` renames it into the output directory's place, marker
 * and all, and the caller removes the marker once the copy is kept. A synth that fails calls
 * `abandon()`, which removes the staging directory: the output directory is never touched. A staging
 * directory left by a process that was killed is removed by the next synth into the same directory.
 */
export class BackgroundWrite {
  /** How many files make a thread worth starting. */
  public static readonly DEFAULT_THRESHOLD = 1000;
  private static readonly BATCH = 256;

  /** Where the thread writes until `finish()` moves it into the output directory's place. */
  public readonly staging: string;
  private readonly threshold: number;
  private readonly stallMillis: number;
  private readonly startWorker: (source: string, options: WorkerOptions) => Worker;
  private pending: OutputFile[] = [];
  private readonly sent = new Set<string>();
  private worker?: Worker;
  /** Set when no thread could be started: everything is left to the caller. */
  private unavailable = false;
  private port?: MessagePort;
  private state?: Int32Array;

  /** @param root an output directory that holds nothing, or does not exist */
  constructor(
    public readonly root: string,
    options: BackgroundWriteOptions = {},
  ) {
    this.staging = `${root}.writing-${process.pid}`;
    this.threshold = options.threshold ?? BackgroundWrite.DEFAULT_THRESHOLD;
    this.stallMillis = options.stallMillis ?? 60_000;
    this.startWorker = options.startWorker ?? ((source, workerOptions) => new Worker(source, workerOptions));
    removeStaleStaging(root);
  }

  /** Whether the thread took the write over (false until `threshold` files were added). */
  public get started(): boolean {
    return this.worker !== undefined;
  }

  /** Hands a file over; starts the thread at the threshold. */
  public add(file: OutputFile): void {
    if (this.unavailable) return;
    this.pending.push(file);
    if (!this.worker && this.pending.length >= this.threshold) this.start();
    if (this.worker && this.pending.length >= BackgroundWrite.BATCH) this.flush();
  }

  /**
   * Waits until every file of `files` is written, sending those not handed over yet, then puts the
   * staging directory in the output directory's place. Throws when a write failed; the output
   * directory is then as it was.
   * @returns false when the thread never started or did not take the work: nothing was written, and
   *   the caller writes `files` itself
   */
  public finish(files: readonly OutputFile[]): boolean {
    if (!this.worker) return false;
    this.pending = files.filter((file) => !this.sent.has(file.path));
    this.flush();
    // Not started by now, on a machine too busy to give it a moment: main writes instead.
    if (Atomics.compareExchange(this.state!, STATE, NOT_STARTED, CANCELLED) === NOT_STARTED) {
      this.stop();
      fs.rmSync(this.staging, { recursive: true, force: true });
      return false;
    }
    this.port!.postMessage('end');
    let failure: string | undefined;
    try {
      failure = this.await() === DONE ? undefined : this.failure();
    } finally {
      this.stop();
    }
    if (failure !== undefined) {
      fs.rmSync(this.staging, { recursive: true, force: true });
      throw new Error(`writing ${this.root} failed: ${failure}; the output directory is as it was`);
    }
    try {
      // The output directory held nothing when the synth began (or did not exist): it makes way.
      if (fs.existsSync(this.root)) fs.rmdirSync(this.root);
      fs.renameSync(this.staging, this.root);
    } catch (error) {
      fs.rmSync(this.staging, { recursive: true, force: true });
      throw new Error(`writing ${this.root} failed: it could not take the written files' place (${(error as Error).message}); the output directory is as it was`, { cause: error });
    }
    return true;
  }

  /** After a failed synth: stops the thread and removes what it wrote. The output directory was never touched. */
  public abandon(): void {
    if (!this.worker) return;
    if (Atomics.compareExchange(this.state!, STATE, NOT_STARTED, CANCELLED) !== NOT_STARTED) {
      this.port!.postMessage('end');
      try {
        this.await();
      } catch {
        // A stalled thread may still write: its staging directory goes with the next synth.
        this.stop();
        return;
      }
    }
    this.stop();
    fs.rmSync(this.staging, { recursive: true, force: true });
  }

  private start(): void {
    const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const { port1, port2 } = new MessageChannel();
    try {
      // No execArgv: the thread needs none of the process's loaders (ts-node's, say), which slow its start.
      this.worker = this.startWorker(WRITER_SOURCE, { eval: true, execArgv: [], workerData: { root: this.staging, shared, port: port2 }, transferList: [port2] });
    } catch {
      // No threads here (a permission model that denies them, a limit): the main thread writes, as for a small output.
      this.unavailable = true;
      this.pending = [];
      port1.close();
      return;
    }
    // What went wrong shows in the shared state; an 'error' nobody listens to would end the process.
    this.worker.on('error', () => undefined);
    this.state = new Int32Array(shared);
    this.port = port1;
    // The process never waits for the thread: finish() and abandon() do, while it matters.
    this.worker.unref();
    this.port.unref();
    // Before the thread is sent its first file.
    fs.rmSync(this.staging, { recursive: true, force: true });
    fs.mkdirSync(this.staging, { recursive: true });
    markIncomplete(this.staging);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    for (const file of this.pending) this.sent.add(file.path);
    this.port!.postMessage(this.pending);
    this.pending = [];
  }

  /** Waits while the thread writes; gives up when it wrote nothing for `stallMillis`. */
  private await(): number {
    let written = Atomics.load(this.state!, FILES_WRITTEN);
    let idleSince = Date.now();
    for (;;) {
      const state = Atomics.load(this.state!, STATE);
      if (state === DONE || state === FAILED) return state;
      Atomics.wait(this.state!, STATE, state, Math.min(1000, this.stallMillis));
      const now = Atomics.load(this.state!, FILES_WRITTEN);
      if (now !== written) {
        written = now;
        idleSince = Date.now();
      } else if (Date.now() - idleSince > this.stallMillis) {
        throw new Error(`writing ${this.root} failed: the writer thread wrote nothing for ${this.stallMillis / 1000} s; the output directory is as it was`);
      }
    }
  }

  private failure(): string {
    return (receiveMessageOnPort(this.port!)?.message as string | undefined) ?? 'the writer thread stopped';
  }

  private stop(): void {
    void this.worker?.terminate();
    this.port?.close();
  }
}

/** Removes the staging directories of `root` that processes no longer running left behind. */
function removeStaleStaging(root: string): void {
  const prefix = `${path.basename(root)}.writing-`;
  let siblings: string[];
  try {
    siblings = fs.readdirSync(path.dirname(root));
  } catch {
    return;
  }
  for (const name of siblings) {
    const pid = Number(name.slice(prefix.length));
    if (!name.startsWith(prefix) || !Number.isInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    fs.rmSync(path.join(path.dirname(root), name), { recursive: true, force: true });
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
