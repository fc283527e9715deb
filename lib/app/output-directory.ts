import * as fs from 'fs';
import * as path from 'path';
import { describeFileError, OutputWriteError } from './file-fault';
import { BackgroundWrite } from './background-write';
import { GitOutputFolder } from '../output/git-output-folder';
import { LastGoodCopy } from './last-good-copy';
import { applyOutputChanges, outputChanges } from './output-changes';
import { INCOMPLETE_MARKER, markIncomplete, outputState, OutputState, readMarker } from '../output/output-state';
import { OUTPUT_MANIFEST, readOutputManifest, writeOutputManifest } from '../output/output-manifest';
import { PreviousOutput, PreviousOutputSource } from './previous-output';

/** Output directories whose last good output could not be put back: one attempt, one message. */
const restoreFailed = new Set<string>();

/** One synthesized file: its path under the output directory and its text. */
export interface SynthesizedFile {
  /** The file's path under the output directory, with forward slashes. */
  readonly path: string;
  /** The file's text, as written. */
  readonly text: string;
}

/** How an OutputDirectory keeps its last good copy and finds the previous output. */
export interface OutputDirectoryOptions {
  /**
   * Keep a copy of every successful synth's output beside the directory (`.<name>.last-good/`),
   * for when the directory itself is gone: `cdk8s synth` deletes it before it runs the app.
   * @default true
   */
  readonly keepLastGoodCopy?: boolean;
  /**
   * Let the directory hold files hcp-cdk did not write, which synth then leaves alone: it deletes
   * and replaces only the files its manifest (`.hcp-cdk-output`) says a synth wrote. Without it, a
   * directory holding anything else is refused (see `otherFiles()`).
   * @default false
   */
  readonly allowOtherFiles?: boolean;
}

/** What writing an output did. */
export interface WriteSummary {
  /** Files created or replaced. */
  readonly written: number;
  /** Files deleted because the output no longer has them. */
  readonly removed: number;
  /** Files that held their bytes already and were left alone. */
  readonly unchanged: number;
}

/** What stands where an output directory must be (see `OutputDirectory.obstacle()`). */
export interface OutputObstacle {
  /** The path that is no directory: the output directory's own, or that of a folder that would hold it. */
  readonly path: string;
  /** What is there, for the message: 'a file', 'a symbolic link to nothing' or 'not a directory'. */
  readonly what: string;
}

/** What `OutputDirectory.restoreFileFromGit()` did about a file git holds at the directory's path. */
export interface FileRestore {
  /** Whether the file is back in the work tree. */
  readonly restored: boolean;
  /** Where git holds it, for the message: `notes.txt in git HEAD of /repo`. */
  readonly location: string;
  /** Why it could not be put back, and the command that does, when it is not back. */
  readonly failure?: string;
}

/** What a failed synth did about an output directory it found empty. */
export interface RestoreReport {
  /** Whether the last good output is back in the directory. */
  readonly restored: boolean;
  /** What happened and where the last good output is, for the user. */
  readonly message: string;
}

/**
 * The directory a synth writes to. Only what changed is written, each changed file in one rename;
 * while a synth writes, a marker in the directory says it is incomplete (see `replaceWith()`).
 * What it held before is the previous synth, which in a GitOps repository is what the clusters
 * run, and transition rules (immutable fields) are checked against it. When the
 * directory is gone (`cdk8s synth` deletes it before it runs the app), the previous output is
 * found in the copy kept beside it or in git HEAD (see `previousOutput()`).
 */
export class OutputDirectory {
  /** The directory's absolute path. */
  public readonly root: string;
  /** The copy of the last successful synth kept beside the directory, unless keeping one is off. */
  public readonly lastGoodCopy?: LastGoodCopy;
  /** Whether files hcp-cdk did not write may stay in the directory (see `OutputDirectoryOptions`). */
  public readonly allowOtherFiles: boolean;
  private git?: GitOutputFolder;
  private lastWrite?: WriteSummary;

  constructor(outdir: string, options: OutputDirectoryOptions = {}) {
    this.root = path.resolve(outdir);
    if (options.keepLastGoodCopy ?? true) this.lastGoodCopy = LastGoodCopy.beside(this.root);
    this.allowOtherFiles = options.allowOtherFiles ?? false;
  }

  /**
   * What the directory holds that no synth wrote, '/'-separated and sorted: files its manifest
   * (`OUTPUT_MANIFEST`) does not name, and every link (never followed). A directory without a
   * manifest (written by an hcp-cdk from before it) owns its YAML and JSON files inside folders
   * (every output file is in its chart's folder), none hidden.
   * Throws OutputManifestError when the manifest is not hcp-cdk's or names a path outside.
   */
  public otherFiles(): string[] {
    const owned = this.ownership();
    const others: string[] = [];
    const walk = (dir: string, prefix: string): void => {
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return; // Missing, or not a directory: obstacle() and the write say so.
      }
      for (const entry of entries) {
        const relative = prefix + entry.name;
        if (entry.isDirectory()) walk(path.join(dir, entry.name), `${relative}/`);
        else if (entry.isSymbolicLink() || !owned(relative)) others.push(relative);
      }
    };
    walk(this.root, '');
    return others.sort();
  }

  /** Whether a file (a '/'-separated path under the directory) is one a synth wrote there. */
  private ownership(): (file: string) => boolean {
    const manifest = readOutputManifest(this.root);
    const own = (file: string): boolean => {
      const name = file.slice(file.lastIndexOf('/') + 1);
      // What a synth makes besides the files: its markers, and a file's or the manifest's staging copy left by a killed synth.
      if (file === INCOMPLETE_MARKER || file === OUTPUT_MANIFEST || /^\.hcp-cdk-output\.\d+$/.test(file) || /^\..+\.hcp-cdk-\d+$/.test(name)) return true;
      if (manifest) return manifest.has(file);
      // Without a manifest (an older hcp-cdk's output): YAML and JSON inside a folder, as every output file is, none hidden.
      return file.includes('/') && /\.(ya?ml|json)$/.test(file) && !file.split('/').some((part) => part.startsWith('.'));
    };
    return own;
  }

  /**
   * What stands where the directory must be, when nothing can be written there: the path itself,
   * or a folder that would hold it, is a file (or another thing that is no directory). Undefined
   * when the path is a directory or one can be made there.
   */
  public obstacle(): OutputObstacle | undefined {
    for (let at = this.root; path.dirname(at) !== at; at = path.dirname(at)) {
      try {
        const stat = fs.statSync(at, { throwIfNoEntry: false });
        if (stat) return stat.isDirectory() ? undefined : { path: at, what: stat.isFile() ? 'a file' : 'not a directory' };
        if (fs.lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink()) return { path: at, what: 'a symbolic link to nothing' };
      } catch (error) {
        // ENOTDIR: a folder above is a file, found further up. Anything else (no permission) the write reports.
        if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') return undefined;
      }
    }
    return undefined; // The file system root is a directory.
  }

  /**
   * For a directory that does not exist: when git holds a file at its path, in HEAD and in the
   * index, puts the file back as the index holds it. `cdk8s synth` deletes whatever is at its
   * `--output` before it runs the app, a file too; a file git holds is how a deleted file is told
   * from a deleted directory (one git does not hold leaves no trace). Asks git only what
   * `previousOutput()` asks it anyway, and more only when HEAD holds a file there.
   * @returns what was done; undefined when the directory exists or git holds no file at its path
   */
  public restoreFileFromGit(): FileRestore | undefined {
    if (fs.lstatSync(this.root, { throwIfNoEntry: false })) return undefined;
    const git = this.gitFolder();
    if (!git.holdsFile) return undefined;
    const location = `${git.pathInRepository} in git ${git.ref} of ${git.repository}`;
    try {
      // The index does not hold it: the file was taken out of git (git rm), and a directory may take its place.
      if (!git.restoreFileFromIndex()) return undefined;
      return { restored: true, location };
    } catch (error) {
      const message = (error as { stderr?: Buffer }).stderr?.toString().trim() || (error as Error).message;
      return { restored: false, location, failure: `${message}; ${git.restoreCommand} puts it back` };
    }
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
   * The output of the previous synth, first found of: the directory itself, while it holds files
   * and no synth stopped while writing them (see `outputState()`);
   * the last good copy, if git HEAD's output folder is still what it was when the copy was made
   * (a commit, pull or checkout that changed it since makes HEAD's the newer); git HEAD's output
   * folder; the last good copy even so, when HEAD holds no output folder. Asks git (locally) only
   * when the directory is empty.
   */
  public previousOutput(): PreviousOutput {
    const hasFiles = this.hasFiles();
    // A directory a synth stopped writing is half old, half new: the copy or git has the whole old one.
    const incomplete = hasFiles ? this.incompleteReason() : undefined;
    if (hasFiles && !incomplete) return PreviousOutput.inDirectory(this.root);
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
        return PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, copy.file, copy.contents(), undefined, incomplete);
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
        return PreviousOutput.inFiles(PreviousOutputSource.GIT_HEAD, git.location, git.contents(), git.restoreCommand, incomplete);
      } catch (error) {
        gitAbsence = `${git.location} cannot be read (${(error as Error).message})`;
        return undefined;
      }
    };
    const found = copy?.madeAt(git.tree) ? (fromCopy() ?? fromGit()) : (fromGit() ?? fromCopy());
    const directoryAbsence = incomplete ?? `${this.root} ${fs.existsSync(this.root) ? 'is empty' : 'does not exist'}`;
    return found ?? PreviousOutput.none([directoryAbsence, copyAbsence!, gitAbsence!]);
  }

  /**
   * Brings the directory to `files`, touching only what changed: files that already hold their
   * bytes are left alone (same inode, same mtime), changed files are replaced one by one, each in
   * one rename, and files the output no longer has are deleted with the folders they leave empty.
   * Before the first change, `INCOMPLETE_MARKER` is created in the directory; it is removed after
   * the last, once the last good copy is kept, so a synth stopped half-way (killed, disk full) is
   * seen by `outputState()` and `hcp-cdk validate`, and the next synth repairs it. A write that
   * fails throws with that said; a warning is returned when only the copy could not be kept.
   * @param previous the previous output as synth read it, whose bytes need not be read again
   * @param background the write a second thread did of the files while synth made them (see
   *   `backgroundWrite()`): waited for and moved into place, and the copy kept, instead of comparing
   *   and writing here; when it fails, this throws with the directory as it was
   */
  public replaceWith(files: readonly SynthesizedFile[], previous?: PreviousOutput, background?: BackgroundWrite): string | undefined {
    // Throws, with the directory as it was, when the thread's write failed.
    if (asOutputWriteError(() => background?.finish(files), 'the output directory is as it was')) {
      this.lastWrite = { written: files.length, removed: 0, unchanged: 0 };
      asOutputWriteError(
        () =>
          writeOutputManifest(
            this.root,
            files.map((f) => f.path),
          ),
        `${this.root} is left incomplete (${INCOMPLETE_MARKER} marks it) and the next synth repairs it`,
      );
      const warning = this.keepCopy(files);
      fs.rmSync(path.join(this.root, INCOMPLETE_MARKER), { force: true });
      return warning;
    }
    const incomplete = readMarker(this.root) !== undefined;
    const known = previous?.source === PreviousOutputSource.OUTPUT_DIRECTORY && previous.location === this.root ? previous : undefined;
    const changes = asOutputWriteError(() => outputChanges(this.root, files, known ? (file) => known.bytes(file) : undefined, this.ownership()), 'nothing is written there');
    const recorded = readOutputManifest(this.root);
    const manifestStale = recorded === undefined || recorded.size !== files.length || files.some((f) => !recorded.has(f.path));
    const changed = changes.write.length > 0 || changes.remove.length > 0 || incomplete || manifestStale;
    this.lastWrite = { written: changes.write.length, removed: changes.remove.length, unchanged: changes.unchanged };
    if (changed) {
      asOutputWriteError(() => {
        fs.mkdirSync(this.root, { recursive: true });
        markIncomplete(this.root);
      }, 'nothing is written there');
      asOutputWriteError(() => {
        applyOutputChanges(this.root, changes);
        if (manifestStale)
          writeOutputManifest(
            this.root,
            files.map((f) => f.path),
          );
      }, `${this.root} is left incomplete (${INCOMPLETE_MARKER} marks it) and the next synth repairs it`);
    } else if (!fs.existsSync(this.root)) {
      asOutputWriteError(() => fs.mkdirSync(this.root, { recursive: true }), 'nothing is written there'); // An output of no files is still a directory.
    }
    const warning = this.keepCopy(files);
    if (changed) fs.rmSync(path.join(this.root, INCOMPLETE_MARKER), { force: true });
    return warning;
  }

  /**
   * For a synth into this directory while it holds nothing (the first one, or any under `cdk8s
   * synth`, which deletes it first): a write by a second thread, into a staging directory beside
   * it, that takes the files as the synth makes them (see `BackgroundWrite`); `replaceWith()` then
   * waits for it and moves it into place. Undefined while the directory holds files (a re-synth
   * compares them instead) or is not a plain directory.
   */
  public backgroundWrite(): BackgroundWrite | undefined {
    // Missing, or a real, empty directory, it makes way for the staging directory; a link is written in place.
    const stat = fs.lstatSync(this.root, { throwIfNoEntry: false });
    if (stat && (!stat.isDirectory() || this.hasFiles())) return undefined;
    return new BackgroundWrite(this.root);
  }

  /** Why the directory is not one whole synth, when it exists and carries the marker. */
  private incompleteReason(): string | undefined {
    return readMarker(this.root) === undefined ? undefined : this.state().reason;
  }

  /** Whether the directory holds one whole synth (see `outputState()`). */
  public state(): OutputState {
    return outputState(this.root);
  }

  /** What the last `replaceWith()` did: files written, files removed, files left alone. */
  public get lastWriteSummary(): WriteSummary | undefined {
    return this.lastWrite;
  }

  /**
   * After a failed synth: when the directory is empty (`cdk8s synth` deletes it before it runs the
   * app), puts the previous output back (`previous`, or what `previousOutput()` finds now).
   * @returns what was done, or undefined when the directory holds files or nothing can be put back
   */
  public restoreAfterFailure(previous?: PreviousOutput): RestoreReport | undefined {
    const incomplete = this.incompleteReason();
    if ((this.hasFiles() && !incomplete) || restoreFailed.has(this.root)) return undefined;
    // A path that is no directory, or where git holds a file, never becomes one here: the file is the user's.
    if (this.obstacle() || (!fs.existsSync(this.root) && this.gitFolder().holdsFile)) return undefined;
    // Files hcp-cdk did not write are never swapped out with the rest.
    if (this.holdsOtherFiles()) return undefined;
    const last = previous?.found && previous.source !== PreviousOutputSource.OUTPUT_DIRECTORY ? previous : this.previousOutput();
    if (!last.found) return undefined;
    try {
      this.swapIn((staging) => last.copyTo(staging));
      const was = incomplete ? 'which a synth had left incomplete' : 'which was empty (cdk8s synth deletes it before it runs the app)';
      return { restored: true, message: `hcp-cdk: the synth failed, so ${this.root}, ${was}, holds the last good output again, from ${last.location}` };
    } catch (error) {
      fs.rmSync(this.staging(), { recursive: true, force: true });
      restoreFailed.add(this.root);
      const byHand = last.restoreCommand ? ` (${last.restoreCommand})` : '';
      // Say what is there: a synth stopped half-way leaves a partial output, not an empty folder.
      const left = readMarker(this.root) !== undefined ? `incomplete (a partial output; ${INCOMPLETE_MARKER} marks it)` : this.hasFiles() ? 'as it was' : 'empty';
      return { restored: false, message: `hcp-cdk: ${this.root} is left ${left}: the last good output could not be put back (${describeFileError(error)}); it is in ${last.location}${byHand}` };
    }
  }

  /** Whether the directory holds files no synth wrote (or a manifest that cannot be trusted, which is as bad). */
  private holdsOtherFiles(): boolean {
    try {
      return this.otherFiles().length > 0;
    } catch {
      return true;
    }
  }

  /**
   * Fills a fresh staging directory beside the root, then puts it in the root's place in one
   * rename. A root that is a link to a directory stays a link: its target's files (all of them the
   * output's, see `holdsOtherFiles()`) are replaced by the staging directory's.
   */
  private swapIn(fill: (staging: string) => void): void {
    const staging = this.staging();
    fs.rmSync(staging, { recursive: true, force: true });
    fill(staging);
    fs.mkdirSync(staging, { recursive: true });
    if (fs.lstatSync(this.root, { throwIfNoEntry: false })?.isSymbolicLink()) {
      const target = fs.realpathSync(this.root);
      for (const name of fs.readdirSync(target)) fs.rmSync(path.join(target, name), { recursive: true, force: true });
      for (const name of fs.readdirSync(staging)) fs.renameSync(path.join(staging, name), path.join(target, name));
      fs.rmSync(staging, { recursive: true, force: true });
      return;
    }
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.renameSync(staging, this.root);
  }

  private staging(): string {
    return `${this.root}.staging-${process.pid}`;
  }

  /** Keeps the copy of `files` beside the directory, unless it holds them already; a warning when it cannot. */
  private keepCopy(files: readonly SynthesizedFile[]): string | undefined {
    if (!this.lastGoodCopy) return undefined;
    try {
      this.lastGoodCopy.keep(files, this.gitFolder().tree);
      return undefined;
    } catch (error) {
      return `hcp-cdk: warning: the output is written, but no copy of it could be kept at ${this.lastGoodCopy.file} (${(error as Error).message}); a failed cdk8s synth cannot put it back from there`;
    }
  }

  private gitFolder(): GitOutputFolder {
    this.git ??= GitOutputFolder.locate(this.root);
    return this.git;
  }
}

/**
 * Runs one step of a write; a failure becomes an OutputWriteError of one line: what failed
 * (`describeFileError`) and `state`, what the directory holds now.
 */
function asOutputWriteError<T>(step: () => T, state: string): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof OutputWriteError) throw error;
    const what = describeFileError(error).replace(/; the output directory is as it was$/, '');
    throw new OutputWriteError(`hcp-cdk: ${what.startsWith('writing ') ? what : `writing the output failed: ${what}`}; ${state}`, error);
  }
}
