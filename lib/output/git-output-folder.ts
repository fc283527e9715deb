import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

/**
 * A folder as the HEAD commit of the git repository around it holds it: in a GitOps repository,
 * the output that the clusters run. Read with git itself (local commands only, never a fetch), so
 * that it survives `cdk8s synth`, which deletes the output directory before it runs the app.
 */
export class GitOutputFolder {
  /**
   * Asks git where `dir` sits: in which work tree, and what HEAD (or `ref`) holds there. Never throws.
   * @param ref a commit-ish of the repository around `dir`, e.g. `origin/main` @default 'HEAD'
   */
  public static locate(dir: string, ref = 'HEAD'): GitOutputFolder {
    const folder = path.resolve(dir);
    // The folder itself may be gone (the CLI deleted it); git is asked from its nearest ancestor.
    let base = path.dirname(folder);
    while (!fs.existsSync(base) && path.dirname(base) !== base) base = path.dirname(base);
    const relative = path.relative(base, folder).split(path.sep).join('/');
    // No .git above it: not in a work tree, known without starting git.
    if (!insideGitWorkTree(base)) return new GitOutputFolder(folder, { ref });
    let answer: string;
    try {
      // A ref that starts with '-' would be read as an option (this git's rev-parse has no --end-of-options).
      if (ref.startsWith('-')) return new GitOutputFolder(folder, { ref });
      // The path twice: as given, then with a '/', which resolves only to a tree, so that a file there is told from a folder.
      answer = git(base, ['rev-parse', '--show-toplevel', `${ref}^{commit}`, `${ref}:./${relative}`, `${ref}:./${relative}/`]).toString();
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return new GitOutputFolder(folder, { ref, missing: true });
      // rev-parse prints what it resolved before the argument it could not (and echoes that one).
      answer = String((error as { stdout?: Buffer }).stdout ?? '');
    }
    const [repository, head, object, tree] = answer.split('\n');
    if (!repository) return new GitOutputFolder(folder, { ref });
    const inRepository = path
      .relative(repository, path.join(fs.realpathSync(base), relative))
      .split(path.sep)
      .join('/');
    return new GitOutputFolder(folder, {
      ref,
      repository,
      pathInRepository: inRepository,
      hasCommits: isObjectId(head),
      tree: isObjectId(tree) ? tree : undefined,
      holdsFile: isObjectId(object) && !isObjectId(tree),
    });
  }

  /** The path of the work tree, when the folder is inside one. */
  public readonly repository?: string;
  /** The folder's path inside the repository, '/'-separated. */
  public readonly pathInRepository?: string;
  /** Whether the repository has a commit at all. */
  public readonly hasCommits: boolean;
  /** The id of the tree HEAD holds at the folder, when it holds one: changes whenever HEAD's copy does. */
  public readonly tree?: string;
  /**
   * Whether the ref holds a file (or a link or submodule), not a folder, at the folder's path: a
   * path given as the output directory by mistake.
   */
  public readonly holdsFile: boolean;
  /** The commit-ish read: HEAD unless another was asked for. */
  public readonly ref: string;
  private readonly folder: string;
  private readonly gitMissing: boolean;

  private constructor(
    folder: string,
    found: {
      readonly ref: string;
      readonly repository?: string;
      readonly pathInRepository?: string;
      readonly hasCommits?: boolean;
      readonly tree?: string;
      readonly holdsFile?: boolean;
      readonly missing?: boolean;
    },
  ) {
    this.folder = folder;
    this.ref = found.ref;
    this.repository = found.repository;
    this.pathInRepository = found.pathInRepository;
    this.hasCommits = found.hasCommits ?? false;
    this.tree = found.tree;
    this.holdsFile = found.holdsFile ?? false;
    this.gitMissing = found.missing ?? false;
  }

  /** What the folder is in git terms, for messages: `git <ref> of <repository> (<path>/)`. */
  public get location(): string {
    return `git ${this.ref} of ${this.repository} (${this.pathInRepository}/)`;
  }

  /** The command that puts the ref's copy back into the work tree. */
  public get restoreCommand(): string {
    return `git -C ${quote(this.repository ?? '.')} checkout ${quote(this.ref)} -- ${quote(this.pathInRepository ?? '.')}`;
  }

  /** Why the ref holds nothing at the folder, when it does not (for the "no previous output" warning). */
  public get absence(): string | undefined {
    if (this.tree) return undefined;
    if (this.gitMissing) return 'git is not installed (no git command on PATH)';
    if (!this.repository) return `${this.folder} is not inside a git work tree`;
    if (!this.hasCommits) return this.ref === 'HEAD' ? `the git repository at ${this.repository} has no commits` : `the git repository at ${this.repository} has no commit ${JSON.stringify(this.ref)}`;
    if (this.holdsFile) return `git ${this.ref} of ${this.repository} holds a file at ${this.pathInRepository}, not a folder`;
    return `git ${this.ref} of ${this.repository} holds nothing at ${this.pathInRepository}/`;
  }

  /**
   * Puts the file git's index holds at the folder's path back into the work tree, as staged
   * (`git checkout -- <path>`, which leaves the index as it is), when the index holds one: the
   * file `cdk8s synth` deleted, when it was given as the output directory.
   * @returns whether the index held a file there (and it is back); throws when git fails
   */
  public restoreFileFromIndex(): boolean {
    if (!this.repository || this.pathInRepository === undefined) return false;
    const staged = git(this.repository, ['ls-files', '-z', '--full-name', '--', this.pathInRepository]).toString().split('\0');
    // The path itself, not files under a folder of that name.
    if (!staged.includes(this.pathInRepository)) return false;
    git(this.repository, ['checkout', '--', this.pathInRepository]);
    return true;
  }

  /** Every file HEAD holds under the folder, by '/'-separated path inside it, as committed (no filters). */
  public contents(): ReadonlyMap<string, Buffer> {
    const files = new Map<string, Buffer>();
    if (!this.tree || !this.repository) return files;
    // -z: paths as they are, spaces and newlines included; --full-tree: relative to the tree given.
    const blobs: { path: string; id: string }[] = [];
    for (const entry of git(this.repository, ['ls-tree', '-r', '-z', '--full-tree', this.tree]).toString().split('\0')) {
      const match = /^(100644|100755) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (match) blobs.push({ id: match[2], path: match[3] }); // symlinks and submodules are not output
    }
    if (blobs.length === 0) return files;
    // One process for every blob: `<id> blob <size>\n<bytes>\n` each.
    const batch = git(this.repository, ['cat-file', '--batch'], blobs.map((b) => b.id).join('\n') + '\n');
    let at = 0;
    for (const blob of blobs) {
      const header = batch.indexOf(0x0a, at);
      const size = Number(/ blob (\d+)$/.exec(batch.subarray(at, header).toString())?.[1]);
      if (!Number.isInteger(size)) throw new Error(`git cat-file gave no blob for ${blob.path} in ${this.location}`);
      files.set(blob.path, batch.subarray(header + 1, header + 1 + size));
      at = header + 1 + size + 1;
    }
    return files;
  }
}

/** Runs a local git command in `cwd`; throws when git fails or is missing. */
function git(cwd: string, args: string[], input?: string): Buffer {
  const env: NodeJS.ProcessEnv = { ...process.env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_NO_LAZY_FETCH: '1', GIT_OPTIONAL_LOCKS: '0' };
  // The repository is the one around the output, not one a git hook running this app points at.
  for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_INDEX_FILE', 'GIT_PREFIX']) delete env[name];
  return execFileSync('git', ['--literal-pathspecs', ...args], { cwd, env, input, stdio: ['pipe', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
}

/** Whether `dir` or a folder above it has a `.git` (a directory, or a file in worktrees and submodules). */
function insideGitWorkTree(dir: string): boolean {
  for (let at = dir; ; at = path.dirname(at)) {
    if (fs.existsSync(path.join(at, '.git'))) return true;
    if (path.dirname(at) === at) return false;
  }
}

function isObjectId(text: string | undefined): boolean {
  return text !== undefined && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(text);
}

function quote(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}
