import * as fs from 'fs';
import * as path from 'path';
import { GitOutputFolder } from './git-output-folder';
import { LastGoodCopy } from './last-good-copy';
import { PreviousOutput, PreviousOutputSource } from './previous-output';

/** Output directories whose last good output could not be put back: one attempt, one message. */
const restoreFailed = new Set<string>();

/** One synthesized file: its path under the output directory and its text. */
export interface SynthesizedFile {
  readonly path: string;
  readonly text: string;
}

export interface OutputDirectoryOptions {
  /**
   * Keep a copy of every successful synth's output beside the directory (`.<name>.last-good/`),
   * for when the directory itself is gone: `cdk8s synth` deletes it before it runs the app.
   * @default true
   */
  readonly keepLastGoodCopy?: boolean;
}

/** What a failed synth did about an output directory it found empty. */
export interface RestoreReport {
  /** Whether the last good output is back in the directory. */
  readonly restored: boolean;
  /** What happened and where the last good output is, for the user. */
  readonly message: string;
}

/**
 * The directory a synth writes to. It is replaced whole, in one rename, so that a reader never
 * sees half an output; what it held before is the previous synth, which in a GitOps repository is
 * what the clusters run, and transition rules (immutable fields) are checked against it. When the
 * directory is gone (`cdk8s synth` deletes it before it runs the app), the previous output is
 * found in the copy kept beside it or in git HEAD (see `previousOutput()`).
 */
export class OutputDirectory {
  public readonly root: string;
  /** The copy of the last successful synth kept beside the directory, unless keeping one is off. */
  public readonly lastGoodCopy?: LastGoodCopy;
  private git?: GitOutputFolder;

  constructor(outdir: string, options: OutputDirectoryOptions = {}) {
    this.root = path.resolve(outdir);
    if (options.keepLastGoodCopy ?? true) this.lastGoodCopy = LastGoodCopy.beside(this.root);
  }

  /** Whether the directory holds anything. */
  public hasFiles(): boolean {
    try {
      return fs.readdirSync(this.root).length > 0;
    } catch {
      return false;
    }
  }

  /**
   * The output of the previous synth, first found of: the directory itself, while it holds files;
   * the last good copy, if git HEAD's output folder is still what it was when the copy was made
   * (a commit, pull or checkout that changed it since makes HEAD's the newer); git HEAD's output
   * folder; the last good copy even so, when HEAD holds no output folder. Asks git (locally) only
   * when the directory is empty.
   */
  public previousOutput(): PreviousOutput {
    if (this.hasFiles()) return PreviousOutput.inDirectory(this.root);
    const git = this.gitFolder();
    const copy = this.lastGoodCopy;
    let copyAbsence: string | undefined;
    let gitAbsence: string | undefined;
    // Unreadable is as good as missing: the other place may have it, and the warning says why not.
    const fromCopy = (): PreviousOutput | undefined => {
      if (!copy?.exists()) {
        copyAbsence = copy ? `no copy is kept at ${copy.file}` : 'keepLastGoodCopy is false';
        return undefined;
      }
      try {
        return PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, copy.file, copy.contents());
      } catch (error) {
        copyAbsence = `${copy.file} cannot be read (${(error as Error).message})`;
        return undefined;
      }
    };
    const fromGit = (): PreviousOutput | undefined => {
      if (!git.tree) {
        gitAbsence = git.absence;
        return undefined;
      }
      try {
        return PreviousOutput.inFiles(PreviousOutputSource.GIT_HEAD, git.location, git.contents(), git.restoreCommand);
      } catch (error) {
        gitAbsence = `${git.location} cannot be read (${(error as Error).message})`;
        return undefined;
      }
    };
    const found = copy?.madeAt(git.tree) ? fromCopy() ?? fromGit() : fromGit() ?? fromCopy();
    const directoryAbsence = `${this.root} ${fs.existsSync(this.root) ? 'is empty' : 'does not exist'}`;
    return found ?? PreviousOutput.none([directoryAbsence, copyAbsence!, gitAbsence!]);
  }

  /**
   * Replaces the directory with `files`, in one rename, then the last good copy with it. Returns a
   * warning when the copy could not be kept (the output is written all the same).
   */
  public replaceWith(files: readonly SynthesizedFile[]): string | undefined {
    this.swapIn((staging) => {
      // One mkdir per folder, not per file: a fleet writes thousands of files into hundreds of folders.
      const folders = new Set<string>();
      for (const file of files) {
        const target = path.join(staging, file.path);
        const folder = path.dirname(target);
        if (!folders.has(folder)) {
          fs.mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        fs.writeFileSync(target, file.text);
      }
    });
    if (!this.lastGoodCopy) return undefined;
    try {
      this.lastGoodCopy.replaceWith(files, this.gitFolder().tree);
      return undefined;
    } catch (error) {
      return `hcp-cdk: warning: the output is written, but no copy of it could be kept at ${this.lastGoodCopy.file} (${(error as Error).message}); a failed cdk8s synth cannot put it back from there`;
    }
  }

  /**
   * After a failed synth: when the directory is empty (`cdk8s synth` deletes it before it runs the
   * app), puts the previous output back (`previous`, or what `previousOutput()` finds now).
   * @returns what was done, or undefined when the directory holds files or nothing can be put back
   */
  public restoreAfterFailure(previous?: PreviousOutput): RestoreReport | undefined {
    if (this.hasFiles() || restoreFailed.has(this.root)) return undefined;
    const last = previous?.found && previous.source !== PreviousOutputSource.OUTPUT_DIRECTORY ? previous : this.previousOutput();
    if (!last.found) return undefined;
    try {
      this.swapIn((staging) => last.copyTo(staging));
      return { restored: true, message: `hcp-cdk: the synth failed, so ${this.root}, which was empty (cdk8s synth deletes it before it runs the app), holds the last good output again, from ${last.location}` };
    } catch (error) {
      fs.rmSync(this.staging(), { recursive: true, force: true });
      restoreFailed.add(this.root);
      const byHand = last.restoreCommand ? ` (${last.restoreCommand})` : '';
      return { restored: false, message: `hcp-cdk: ${this.root} is left empty: the last good output could not be put back (${(error as Error).message}); it is in ${last.location}${byHand}` };
    }
  }

  /** Fills a fresh staging directory beside the root, then puts it in the root's place in one rename. */
  private swapIn(fill: (staging: string) => void): void {
    const staging = this.staging();
    fs.rmSync(staging, { recursive: true, force: true });
    fill(staging);
    fs.mkdirSync(staging, { recursive: true });
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.renameSync(staging, this.root);
  }

  private staging(): string {
    return `${this.root}.staging-${process.pid}`;
  }

  private gitFolder(): GitOutputFolder {
    this.git ??= GitOutputFolder.locate(this.root);
    return this.git;
  }
}
