import * as fs from 'fs';
import * as path from 'path';
import { confinedPath } from '../core/path-part';
import { OutputWriteError } from './file-fault';
import { OUTPUT_MANIFEST } from '../output/output-manifest';
import { INCOMPLETE_MARKER } from '../output/output-state';

/** One file of an output: its '/'-separated path under the output directory and its text. */
interface OutputFile {
  readonly path: string;
  readonly text: string;
}

/** What it takes to turn what an output directory holds into a new output. */
export interface OutputChanges {
  /** The files that are new or whose bytes differ, and whether a file is there now (replaced, not created). */
  readonly write: readonly { readonly file: OutputFile; readonly replaces: boolean }[];
  /** The paths of files (or links, or anything not a folder) the new output does not have. */
  readonly remove: readonly string[];
  /** How many files already hold their new bytes and are left alone. */
  readonly unchanged: number;
}

/** Whether `bytes` are `text` in UTF-8. Decoding and comparing strings is faster than encoding `text`. */
export function sameText(bytes: Buffer, text: string): boolean {
  return bytes.length >= text.length && bytes.toString('utf8') === text && bytes.length === Buffer.byteLength(text);
}

/**
 * Compares `files` with what `root` holds, byte for byte: what is on disk is the truth, whatever
 * wrote it (a synth, git, an editor). `read` gives a file's bytes when they were read already.
 * Only files `owned` says a synth wrote are removed; replacing one it does not own throws, before
 * anything is changed. Links are never followed: a link is an entry like a file.
 */
export function outputChanges(
  root: string,
  files: readonly OutputFile[],
  read: (file: string) => Buffer | undefined = (file) => readOrUndefined(path.join(root, file)),
  owned: (file: string) => boolean = () => true,
): OutputChanges {
  const present = new Set<string>();
  listFiles(root, '', present);
  present.delete(INCOMPLETE_MARKER);
  present.delete(OUTPUT_MANIFEST);
  const write: { file: OutputFile; replaces: boolean }[] = [];
  let unchanged = 0;
  for (const file of files) {
    if (!present.delete(file.path)) {
      write.push({ file, replaces: false });
      continue;
    }
    const bytes = read(file.path);
    if (bytes !== undefined && sameText(bytes, file.text)) unchanged++;
    else if (!owned(file.path))
      throw new OutputWriteError(`hcp-cdk: ${path.join(root, file.path)} is a file hcp-cdk did not write, and the output has a file of that name; it is not replaced`, undefined);
    else write.push({ file, replaces: true });
  }
  return { write, remove: [...present].filter(owned).sort(), unchanged };
}

/**
 * Removes what is gone (and the folders left empty), then writes the new and changed files. A
 * changed file is written beside itself and renamed over the old one, so that a reader sees the
 * old bytes or the new, never half of them. A new file is written in place: until the marker is
 * removed, the directory says it is incomplete anyway.
 */
export function applyOutputChanges(root: string, changes: OutputChanges): void {
  const emptied = new Set<string>();
  for (const file of changes.remove) {
    fs.rmSync(path.join(root, file), { force: true });
    emptied.add(path.dirname(path.join(root, file)));
  }
  // Deepest first, so that a folder whose only content was folders goes too.
  for (const folder of [...emptied].sort((a, b) => b.length - a.length)) removeEmptyFolders(folder, root);
  const folders = new Set<string>();
  for (const { file, replaces } of changes.write) {
    const target = path.join(root, file.path);
    const folder = path.dirname(target);
    // One mkdir per folder, not per file: a fleet writes thousands of files into hundreds of folders.
    if (!folders.has(folder)) {
      // A folder that is a link (made by someone else) is not followed out of the output directory.
      confinedPath(root, file.path, 'the output');
      fs.mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    if (!replaces) {
      fs.writeFileSync(target, file.text);
      continue;
    }
    const temporary = path.join(folder, `.${path.basename(target)}.hcp-cdk-${process.pid}`);
    fs.writeFileSync(temporary, file.text);
    fs.renameSync(temporary, target);
  }
}

/** Removes `folder` and the folders above it, up to `root` (kept), while they are empty. */
function removeEmptyFolders(folder: string, root: string): void {
  for (let at = folder; at !== root && at.startsWith(root + path.sep); at = path.dirname(at)) {
    try {
      fs.rmdirSync(at);
    } catch {
      return; // Not empty (or already gone with a deeper pass).
    }
  }
}

/** Adds the '/'-separated path of every entry under `dir` that is not a folder; nothing when `dir` is missing. */
function listFiles(dir: string, prefix: string, into: Set<string>): void {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const relative = prefix + entry.name;
    if (entry.isDirectory()) listFiles(path.join(dir, entry.name), `${relative}/`, into);
    else into.add(relative);
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}
