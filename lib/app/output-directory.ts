import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, load } from 'js-yaml';

/** One synthesized file: its path under the output directory and its text. */
export interface SynthesizedFile {
  readonly path: string;
  readonly text: string;
}

/**
 * The directory a synth writes to. It is replaced whole, in one rename, so that a reader never
 * sees half an output; what it held before is the previous synth, which in a GitOps repository is
 * what the clusters run, and transition rules (immutable fields) are checked against it.
 */
export class OutputDirectory {
  public readonly root: string;

  constructor(outdir: string) {
    this.root = path.resolve(outdir);
  }

  /** The object `file` held after the previous synth, if the directory has it. */
  public previousObject(file: string): unknown {
    const previous = path.join(this.root, file);
    if (!fs.existsSync(previous)) return undefined;
    try {
      return load(fs.readFileSync(previous, 'utf8'), { schema: CORE_SCHEMA });
    } catch {
      return undefined; // A file that no longer parses is replaced, not compared with.
    }
  }

  /** Replaces the directory with `files`, in one rename. */
  public replaceWith(files: readonly SynthesizedFile[]): void {
    const staging = `${this.root}.staging-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
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
    fs.mkdirSync(staging, { recursive: true });
    fs.rmSync(this.root, { recursive: true, force: true });
    fs.renameSync(staging, this.root);
  }
}
