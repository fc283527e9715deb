import * as fs from 'fs';
import * as path from 'path';
import { confinedPath } from '../core/path-part';
import { OUTPUT_MANIFEST, writeOutputManifest } from '../output/output-manifest';
import { parseManifestText } from '../validation/manifest-files';
import { sameText } from './output-changes';

/** Where a synth found the output of the synth before it. */
export enum PreviousOutputSource {
  /** The output directory itself, still holding the previous synth (`node main.js` leaves it in place). */
  OUTPUT_DIRECTORY = 'output-directory',
  /** The copy of the last successful synth that HcpApp keeps beside the output directory. */
  LAST_GOOD_COPY = 'last-good-copy',
  /** The output folder in the HEAD commit of the git repository around it. */
  GIT_HEAD = 'git-head',
  /** Nowhere: transition rules (immutable fields) cannot be checked. */
  NONE = 'none',
}

/**
 * The output of the previous synth, as far as it can still be found: what transition rules
 * (`oldSelf`: immutable fields and the like) are checked against, and what a failed synth puts back
 * into an output directory that `cdk8s synth` emptied.
 */
export class PreviousOutput {
  /** The files in a directory: the output directory itself, or another copy of an output. */
  public static inDirectory(directory: string, source = PreviousOutputSource.OUTPUT_DIRECTORY): PreviousOutput {
    const root = path.resolve(directory);
    // Each file is read once: synth compares it with the new text, and writing compares again.
    const read = new Map<string, Buffer | undefined>();
    let listed: readonly string[] | undefined;
    return new PreviousOutput(source, root, [], {
      read: (file) => {
        if (read.has(file)) return read.get(file);
        let bytes: Buffer | undefined;
        try {
          bytes = fs.readFileSync(path.join(root, file));
        } catch {
          bytes = undefined;
        }
        read.set(file, bytes);
        return bytes;
      },
      copyTo: (target) => copyTree(root, target),
      list: () => (listed ??= listTree(root)),
    });
  }

  /**
   * Files read in one go: the last good copy, or git HEAD's output folder.
   * @param files every file's bytes by its '/'-separated path under the output directory
   * @param restoreCommand a shell command that puts them back by hand
   */
  public static inFiles(source: PreviousOutputSource, location: string, files: ReadonlyMap<string, Buffer>, restoreCommand?: string, directoryIncomplete?: string): PreviousOutput {
    return new PreviousOutput(
      source,
      location,
      [],
      {
        read: (file) => files.get(file),
        list: () => [...files.keys()],
        copyTo: (target) => {
          for (const [file, bytes] of files) {
            // Paths read back (a copy, a commit) are held to the target: none leaves it.
            const into = confinedPath(target, file, location);
            fs.mkdirSync(path.dirname(into), { recursive: true });
            fs.writeFileSync(into, bytes);
          }
          // What a synth wrote, so that the next synth owns these files too.
          writeOutputManifest(
            target,
            [...files.keys()].filter((file) => file !== OUTPUT_MANIFEST),
          );
        },
      },
      restoreCommand,
      directoryIncomplete,
    );
  }

  /** No previous output; `reasons` say where it was looked for. */
  public static none(reasons: readonly string[]): PreviousOutput {
    return new PreviousOutput(PreviousOutputSource.NONE, 'nowhere', reasons, { read: () => undefined, copyTo: () => undefined, list: () => [] });
  }

  /** Where it was found. */
  public readonly source: PreviousOutputSource;
  /** Where it is, for messages: a directory, or `git HEAD of <repository> (<path>/)`. */
  public readonly location: string;
  /** When nothing was found: why not, one reason per place looked at. */
  public readonly reasons: readonly string[];
  /** A shell command that puts it back by hand, where one is simpler than a copy. */
  public readonly restoreCommand?: string;
  /** Why the output directory was passed over though it holds files: a synth stopped while writing it. */
  public readonly directoryIncomplete?: string;
  private readonly files: PreviousFiles;

  private constructor(source: PreviousOutputSource, location: string, reasons: readonly string[], files: PreviousFiles, restoreCommand?: string, directoryIncomplete?: string) {
    this.source = source;
    this.location = location;
    this.reasons = reasons;
    this.files = files;
    this.restoreCommand = restoreCommand;
    this.directoryIncomplete = directoryIncomplete;
  }

  /** Whether there is a previous output at all. */
  public get found(): boolean {
    return this.source !== PreviousOutputSource.NONE;
  }

  /**
   * What synth tells the user about it on stderr: a warning when there is none (transition rules
   * go unchecked), a note when it is not the output directory itself.
   */
  public get notice(): string | undefined {
    switch (this.source) {
      case PreviousOutputSource.OUTPUT_DIRECTORY:
        return undefined;
      case PreviousOutputSource.NONE:
        return `hcp-cdk: warning: no previous output, so transition rules (immutable fields such as a HostedCluster's spec.infraID) are not checked on this synth: ${this.reasons.join('; ')}`;
      default:
        if (this.directoryIncomplete) return `hcp-cdk: ${this.directoryIncomplete}; transition rules are checked against ${this.location}`;
        return `hcp-cdk: the output directory is empty (cdk8s synth deletes it before it runs the app); transition rules are checked against ${this.location}`;
    }
  }

  /** The object `file` (a path under the output directory, '/'-separated) held, if it held one that parses. */
  public object(file: string): unknown {
    const bytes = this.files.read(file);
    if (bytes === undefined) return undefined;
    // The one bounded reader; a file that no longer parses (or is refused) is replaced, not compared with.
    const read = parseManifestText(bytes.toString('utf8'), file, false);
    return read.problems.length === 0 && read.documents.length === 1 ? read.documents[0] : undefined;
  }

  /** The bytes `file` (a path under the output directory, '/'-separated) held, if it was there. */
  public bytes(file: string): Buffer | undefined {
    return this.files.read(file);
  }

  /** The files directly in `folder` (a '/'-separated path under the output directory), by path. */
  public filesIn(folder: string): string[] {
    return this.files
      .list()
      .filter((file) => file.startsWith(`${folder}/`) && !file.slice(folder.length + 1).includes('/'))
      .sort();
  }

  /** Whether `file` (a path under the output directory, '/'-separated) held exactly `text`. */
  public holds(file: string, text: string): boolean {
    const bytes = this.files.read(file);
    return bytes !== undefined && sameText(bytes, text);
  }

  /**
   * The object `file` held, unless it held exactly `text`: an object that did not change has no
   * transition to check (the API server ratchets unchanged values the same way), and parsing the
   * thousands of unchanged files of a fleet would cost more than the rest of a re-synth.
   */
  public objectUnlessSame(file: string, text: string): unknown {
    return this.holds(file, text) ? undefined : this.object(file);
  }

  /** Every file's '/'-separated path under the output directory, for a delivery to see what each folder held. */
  public paths(): readonly string[] {
    return this.files.list();
  }

  /** Writes every file of it, byte for byte, under `directory` (which must not exist yet). */
  public copyTo(directory: string): void {
    this.files.copyTo(directory);
  }
}

/** Copies every file under `from` to the same path under `to`, creating `to`. */
function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  // Links are not followed: a copy of the output holds the output's files, nothing they point at.
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.isDirectory()) copyTree(path.join(from, entry.name), path.join(to, entry.name));
    else if (entry.isFile()) fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
  }
}

interface PreviousFiles {
  read(file: string): Buffer | undefined;
  copyTo(directory: string): void;
  /** Every file's path, once listed. */
  list(): readonly string[];
}

/** The '/'-separated paths of the files under `root`. */
function listTree(root: string, prefix = ''): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(path.join(root, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const file = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? listTree(root, file) : entry.isFile() ? [file] : [];
  });
}
