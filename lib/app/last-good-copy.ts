import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { relativePathProblem } from '../core/path-part';
import { show } from '../core/problems';
import type { SynthesizedFile } from './output-directory';

/** What the copy records beside the files. */
interface CopyState {
  /** The tree git HEAD held at the output folder when the copy was made; null outside git or when it held none. */
  readonly gitTree: string | null;
  /** The digest of the files (see `digestOf`), to tell whether a new output is the same one. */
  readonly digest?: string;
}

/** The copy's one file: every output file's path and text. */
interface CopyContents {
  readonly format: typeof FORMAT;
  readonly files: readonly SynthesizedFile[];
}

const FORMAT = 'hcp-cdk last good output, v1';

/**
 * The copy of the last successful synth's output that HcpApp keeps beside the output directory,
 * in `.<name>.last-good/`. `cdk8s synth` deletes the output directory before it runs the app;
 * this copy is then what transition rules are checked against and what a failed synth puts back.
 * It is one JSON file of every output file's path and text, so that keeping it costs one write
 * however many files a fleet has (a second tree of thousands of small files would double the
 * output's write time). A `.gitignore` of `*` keeps it out of git: never committed, never applied.
 */
export class LastGoodCopy {
  /** The copy kept for the output directory `outputDirectory`. */
  public static beside(outputDirectory: string): LastGoodCopy {
    const root = path.resolve(outputDirectory);
    return new LastGoodCopy(path.join(path.dirname(root), `.${path.basename(root)}.last-good`));
  }

  /** The folder that holds the copy and its state. */
  public readonly root: string;

  private constructor(root: string) {
    this.root = root;
  }

  /** The file that holds the output: `{ format, files: [{ path, text }] }`. */
  public get file(): string {
    return path.join(this.root, 'output.json');
  }

  /** The record of the objects the copy's synth checked and accepted (see `CheckedObjects`). */
  public get checkedObjectsFile(): string {
    return path.join(this.root, 'checked.json');
  }

  /** Whether a complete copy is there (its state is written last, so a copy cut short has none). */
  public exists(): boolean {
    return this.state() !== undefined;
  }

  /** Whether git HEAD still holds at the output folder what it held when the copy was made. */
  public madeAt(gitTree: string | undefined): boolean {
    return this.state()?.gitTree === (gitTree ?? null);
  }

  /** Every file of the copy, by its path under the output directory. */
  public contents(): Map<string, Buffer> {
    const contents = JSON.parse(fs.readFileSync(this.file, 'utf8')) as CopyContents;
    if (contents.format !== FORMAT || !Array.isArray(contents.files)) throw new Error(`${this.file} is not a copy hcp-cdk can read (format ${JSON.stringify(contents.format)})`);
    for (const file of contents.files) {
      // A copy may have been committed, or written by someone else: every path it names stays under the output directory.
      const outside = relativePathProblem(file?.path);
      if (outside || typeof file.text !== 'string') throw new Error(`it names a file outside the output directory or without text: ${outside ?? show(file.path)}; the copy is not used`);
    }
    return new Map(contents.files.map((f) => [f.path, Buffer.from(f.text, 'utf8')]));
  }

  /**
   * Makes the copy hold `files`: leaves it alone when it holds them already and `gitTree` is
   * unchanged (a synth that changed nothing writes nothing here either), else replaces it.
   */
  public keep(files: readonly SynthesizedFile[], gitTree: string | undefined): void {
    const digest = digestOf(files);
    const state = this.state();
    if (state?.digest === digest && state.gitTree === (gitTree ?? null)) return;
    if (state?.digest === digest) {
      fs.writeFileSync(this.statePath, stateText({ gitTree: gitTree ?? null, digest }));
      return;
    }
    this.replaceWith(files, gitTree, digest);
  }

  /** Replaces the copy with `files`; `gitTree` is what HEAD holds at the output folder now. */
  public replaceWith(files: readonly SynthesizedFile[], gitTree: string | undefined, digest = digestOf(files)): void {
    // Never written through a link: the copy is hcp-cdk's own folder.
    if (fs.lstatSync(this.root, { throwIfNoEntry: false })?.isSymbolicLink()) throw new Error(`${this.root} is a symbolic link; the copy is kept only in a folder of its own`);
    fs.mkdirSync(this.root, { recursive: true });
    fs.writeFileSync(path.join(this.root, '.gitignore'), '# hcp-cdk keeps the last good output here, out of git\n*\n');
    // Without its state the copy is not used, so a write cut short leaves no copy rather than a wrong one.
    fs.rmSync(this.statePath, { force: true });
    const contents: CopyContents = { format: FORMAT, files: files.map((f) => ({ path: f.path, text: f.text })) };
    const staging = `${this.file}.staging-${process.pid}`;
    fs.writeFileSync(staging, JSON.stringify(contents));
    fs.renameSync(staging, this.file);
    fs.writeFileSync(this.statePath, stateText({ gitTree: gitTree ?? null, digest }));
  }

  private get statePath(): string {
    return path.join(this.root, 'state.json');
  }

  private state(): CopyState | undefined {
    try {
      const state = JSON.parse(fs.readFileSync(this.statePath, 'utf8'));
      return fs.existsSync(this.file) ? state : undefined;
    } catch {
      return undefined;
    }
  }
}

/** A digest of every file's path and text, in order (SHA-1: a fingerprint, not a signature). */
function digestOf(files: readonly SynthesizedFile[]): string {
  const hash = createHash('sha1');
  for (const file of files) hash.update(file.path).update('\0').update(file.text).update('\0');
  return hash.digest('hex');
}

function stateText(state: CopyState): string {
  return `${JSON.stringify(state)}\n`;
}
