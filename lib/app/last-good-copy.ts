import * as fs from 'fs';
import * as path from 'path';
import { copyTree } from './copy-tree';

/** What the copy records beside the files. */
interface CopyState {
  /** The tree git HEAD held at the output folder when the copy was made; null outside git or when it held none. */
  readonly gitTree: string | null;
}

/**
 * The copy of the last successful synth's output that HcpApp keeps beside the output directory,
 * in `.<name>.last-good/output/`. `cdk8s synth` deletes the output directory before it runs the
 * app; this copy is then what transition rules are checked against and what a failed synth puts
 * back. Its files are hard links to the output's where the filesystem allows, so keeping it costs
 * no second copy of the bytes. A `.gitignore` of `*` inside keeps it out of git, so it is never
 * committed and never reaches a cluster.
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

  /** The copied output: the files as the last successful synth wrote them. */
  public get output(): string {
    return path.join(this.root, 'output');
  }

  /** Whether a complete copy is there (its state is written last, so a copy cut short has none). */
  public exists(): boolean {
    return this.state() !== undefined;
  }

  /** Whether git HEAD still holds at the output folder what it held when the copy was made. */
  public madeAt(gitTree: string | undefined): boolean {
    return this.state()?.gitTree === (gitTree ?? null);
  }

  /** Replaces the copy with the files under `directory`; `gitTree` is HEAD's tree at the output folder now. */
  public replaceWith(directory: string, gitTree: string | undefined): void {
    fs.mkdirSync(this.root, { recursive: true });
    fs.writeFileSync(path.join(this.root, '.gitignore'), '# hcp-cdk keeps the last good output here, out of git\n*\n');
    const staging = path.join(this.root, `staging-${process.pid}`);
    fs.rmSync(staging, { recursive: true, force: true });
    copyTree(directory, staging, { link: true });
    // Without its state the copy is not used, so a swap cut short leaves no copy rather than a wrong one.
    fs.rmSync(this.statePath, { force: true });
    fs.rmSync(this.output, { recursive: true, force: true });
    fs.renameSync(staging, this.output);
    const state: CopyState = { gitTree: gitTree ?? null };
    fs.writeFileSync(this.statePath, `${JSON.stringify(state)}\n`);
  }

  private get statePath(): string {
    return path.join(this.root, 'state.json');
  }

  private state(): CopyState | undefined {
    try {
      const state = JSON.parse(fs.readFileSync(this.statePath, 'utf8'));
      return fs.existsSync(this.output) ? state : undefined;
    } catch {
      return undefined;
    }
  }
}
