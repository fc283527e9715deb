import * as fs from 'fs';
import * as path from 'path';
import { MessageChannel, MessagePort, receiveMessageOnPort, Worker } from 'worker_threads';
import { markIncomplete } from './output-state';

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
 * error stops it and is sent back.
 */
const WRITER_SOURCE = `
const { workerData } = require('worker_threads');
const fs = require('fs');
const path = require('path');
const { root, shared, port } = workerData;
const state = new Int32Array(shared);
const folders = new Set();
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
      port.postMessage(String(error && error.message || error));
      Atomics.store(state, ${STATE}, ${FAILED});
      Atomics.notify(state, ${STATE});
      port.close();
    }
  });
} else {
  port.close();
}
`;

/** How long the writer may go without writing a file before main gives up on it. */
const STALL_MILLIS = 60_000;

/**
 * The first write of an output (into a directory that holds nothing), done by a second thread
 * while the synth goes on rendering and checking: on two cores the disk's time (creating ten
 * thousand files takes a second or more) mostly disappears behind the synth's. Files are handed
 * over as the synth makes them; the thread starts only once `threshold` files are there, so a small
 * output is written as before, by `OutputDirectory.replaceWith()`, without starting a thread.
 *
 * Before its first file it marks the directory incomplete (`INCOMPLETE_MARKER`); the caller
 * removes the marker once the copy is kept. A synth that fails calls `abandon()`, which waits for
 * the thread and empties the directory again (removing it if it did not exist).
 */
export class BackgroundWrite {
  /** How many files make a thread worth starting. */
  public static readonly DEFAULT_THRESHOLD = 1000;
  private static readonly BATCH = 256;

  private readonly existed: boolean;
  private pending: OutputFile[] = [];
  private readonly sent = new Set<string>();
  private worker?: Worker;
  /** Set when no thread could be started: everything is left to the caller. */
  private unavailable = false;
  private port?: MessagePort;
  private state?: Int32Array;

  /** @param root an output directory that holds nothing (or does not exist) */
  constructor(public readonly root: string, private readonly threshold = BackgroundWrite.DEFAULT_THRESHOLD) {
    this.existed = fs.existsSync(root);
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
   * Waits until every file of `files` is written, sending those not handed over yet. Throws when
   * a write failed (the directory stays marked incomplete: the next synth repairs it).
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
      this.clear();
      return false;
    }
    this.port!.postMessage('end');
    const failure = this.await() === DONE ? undefined : this.failure();
    this.stop();
    if (failure !== undefined) throw new Error(`writing ${this.root} failed: ${failure}`);
    return true;
  }

  /** After a failed synth: stops the thread and removes what it wrote, leaving the directory as it was. */
  public abandon(): void {
    if (!this.worker) return;
    if (Atomics.compareExchange(this.state!, STATE, NOT_STARTED, CANCELLED) !== NOT_STARTED) {
      this.port!.postMessage('end');
      try {
        this.await();
      } catch {
        // A stalled writer: what it wrote is removed all the same.
      }
    }
    this.stop();
    this.clear();
  }

  private start(): void {
    const shared = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    const { port1, port2 } = new MessageChannel();
    try {
      this.worker = new Worker(WRITER_SOURCE, { eval: true, workerData: { root: this.root, shared, port: port2 }, transferList: [port2] });
    } catch {
      // No threads here (a permission model that denies them, a limit): the main thread writes, as for a small output.
      this.unavailable = true;
      this.pending = [];
      port1.close();
      return;
    }
    this.state = new Int32Array(shared);
    this.port = port1;
    // The process never waits for the thread: finish() and abandon() do, while it matters.
    this.worker.unref();
    this.port.unref();
    // Before the thread is sent its first file.
    fs.mkdirSync(this.root, { recursive: true });
    markIncomplete(this.root);
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    for (const file of this.pending) this.sent.add(file.path);
    this.port!.postMessage(this.pending);
    this.pending = [];
  }

  /** Waits while the thread writes; gives up when it wrote nothing for STALL_MILLIS. */
  private await(): number {
    let written = Atomics.load(this.state!, FILES_WRITTEN);
    let idleSince = Date.now();
    for (;;) {
      const state = Atomics.load(this.state!, STATE);
      if (state === DONE || state === FAILED) return state;
      Atomics.wait(this.state!, STATE, state, 1000);
      const now = Atomics.load(this.state!, FILES_WRITTEN);
      if (now !== written) {
        written = now;
        idleSince = Date.now();
      } else if (Date.now() - idleSince > STALL_MILLIS) {
        throw new Error(`writing ${this.root} failed: the writer thread wrote nothing for ${STALL_MILLIS / 1000} s`);
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

  /** Empties the directory again, as it was before: it held nothing, or did not exist. */
  private clear(): void {
    if (!this.existed) {
      fs.rmSync(this.root, { recursive: true, force: true });
      return;
    }
    for (const entry of fs.readdirSync(this.root)) fs.rmSync(path.join(this.root, entry), { recursive: true, force: true });
  }
}
