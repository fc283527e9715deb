import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeFileError, OutputWriteError } from './file-fault';

/** What the lock file records: who holds it. */
interface LockHolder {
  readonly pid: number;
  readonly host: string;
  readonly started: string;
}

/** How a synth waits for another one writing the same output directory. */
export interface OutputLockOptions {
  /** How long to wait for the other synth before refusing. @default 120 s */
  readonly waitMillis?: number;
}

/**
 * The lock a synth holds on its output directory from the moment it reads the previous output
 * until the last file is written: a second synth into the same directory waits for the first, and
 * then reads what the first wrote, so the directory always ends as one whole output. A file
 * beside the directory (`.<name>.hcp-cdk-lock`), made with O_EXCL and naming the holder's process:
 * one that was killed leaves it behind, and the next synth on this host sees that the process is
 * gone and takes the lock over.
 */
export class OutputLock {
  /** Takes the lock on `outputDirectory`, waiting while a running synth holds it. */
  public static acquire(outputDirectory: string, options: OutputLockOptions = {}): OutputLock {
    const root = path.resolve(outputDirectory);
    const file = path.join(path.dirname(root), `.${path.basename(root)}.hcp-cdk-lock`);
    const deadline = Date.now() + (options.waitMillis ?? 120_000);
    const me: LockHolder = { pid: process.pid, host: os.hostname(), started: new Date().toISOString() };
    const pause = new Int32Array(new SharedArrayBuffer(4));
    for (;;) {
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `${JSON.stringify(me)}\n`, { flag: 'wx' });
        return new OutputLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
          throw new OutputWriteError(`hcp-cdk: cannot lock ${root} for this synth: ${describeFileError(error)}; nothing is written there`, error);
        }
      }
      const holder = readHolder(file);
      const stale = holder === undefined || isGone(holder);
      // Left by a synth that was killed (or cut short while writing it): taken over.
      if (stale && takeOver(file, holder)) continue;
      if (!stale && Date.now() > deadline) {
        throw new OutputWriteError(
          `hcp-cdk: ${root} is being written by another synth (process ${holder.pid} on ${holder.host}, since ${holder.started}); waited ${Math.round((options.waitMillis ?? 120_000) / 1000)} s, and nothing is written. Remove ${file} only if no such synth runs`,
          undefined,
        );
      }
      Atomics.wait(pause, 0, 0, 50);
    }
  }

  private constructor(
    /** The lock file. */
    public readonly file: string,
  ) {}

  /** Gives the lock up (its file is removed), for the next synth. */
  public release(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/** How old a takeover guard must be to count as left by a synth killed while it held it. */
const GUARD_STALE_MILLIS = 5000;

/**
 * Removes the lock file `file` that names `gone` (a process that no longer runs; undefined for a file
 * cut short), unless another synth has taken it over and made a lock of its own since: under a
 * guard (`<file>.takeover`, made with O_EXCL) the file is read again and removed only if it still
 * names `gone`. Of two synths that both saw it stale, the second would otherwise remove the lock the
 * first had just made, and both would write. Whether it was removed: false while another synth
 * holds the guard (a guard older than a few seconds, left by one killed in these lines, is cleared).
 */
function takeOver(file: string, gone: LockHolder | undefined): boolean {
  const guard = `${file}.takeover`;
  try {
    fs.writeFileSync(guard, `${process.pid}\n`, { flag: 'wx' });
  } catch (error) {
    const age = Date.now() - (fs.statSync(guard, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' && age > GUARD_STALE_MILLIS) fs.rmSync(guard, { force: true });
    return false;
  }
  try {
    const now = readHolder(file);
    const same = now === undefined || gone === undefined ? now === gone : now.pid === gone.pid && now.host === gone.host && now.started === gone.started;
    if (same) fs.rmSync(file, { force: true });
    return same;
  } finally {
    fs.rmSync(guard, { force: true });
  }
}

/** The holder a lock file names; undefined when it names none (cut short while it was written). */
function readHolder(file: string): LockHolder | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { pid: 0, host: '', started: '' }; // Gone again: the loop tries to make it.
  }
  try {
    const holder = JSON.parse(text) as LockHolder;
    return typeof holder.pid === 'number' ? holder : undefined;
  } catch {
    // Being written this instant, or cut short: only a file older than a second is taken as cut short.
    return Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0) > 1000 ? undefined : { pid: process.pid, host: os.hostname(), started: 'now' };
  }
}

/** Whether the holder's process no longer runs (only knowable on this host). */
function isGone(holder: LockHolder): boolean {
  if (holder.pid === 0) return false;
  if (holder.host !== os.hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
