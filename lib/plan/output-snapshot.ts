import * as fs from 'fs';
import * as path from 'path';
import { INCOMPLETE_MARKER, outputState } from '../output/output-state';
import { FLUX_FOLDER_PARTS } from '../gitops/flux-delivery';
import { KUSTOMIZATION_FILE } from '../gitops/kustomization';
import { parseObjectFileName } from '../gitops/output-layout';
import { redactText } from '../core/redaction';
import { readRegularFile } from '../validation/bounded-read';
import { manifestDocumentsOrThrow, parseManifestText } from '../validation/manifest-files';

/** A previous or new output that cannot be planned against, with the reason. */
export class PlanInputError extends Error {
  constructor(message: string) {
    // A kubeconfig server URL with user:password, a key pasted in a path: never in a report.
    super(redactText(message));
    this.name = 'PlanInputError';
  }
}

/** One object file of an output. */
export interface OutputFile {
  /** '/'-separated path under the output root. */
  readonly path: string;
  /** The folder it is in, '' at the root. */
  readonly folder: string;
  /** The folder of the output layout it belongs to: `folder` without a part a delivery splits it into (Flux's `node-pools/`). */
  readonly layoutFolder: string;
  /**
   * Layout folder, kind, namespace and name: what stays the same when the object only moves, to
   * another rank or into a part of its folder (as NodePools into `node-pools/` under FluxDelivery).
   */
  readonly key: string;
  /** The file's bytes. */
  readonly bytes: Buffer;
}

/**
 * The objects of one synthesized output: a directory, a folder of a git commit, or the files of an
 * in-memory synth. Files are read but parsed only on demand (`object()`): a plan parses what
 * changed, not the thousands of files a fleet leaves alone.
 */
export class OutputSnapshot {
  /**
   * The files under `directory`; with `folder`, only those under that top folder of it (the rollouts'
   * records in `rollouts/`, say), so that a reader of one folder does not read a fleet's output.
   */
  public static fromDirectory(directory: string, options: { readonly folder?: string } = {}): OutputSnapshot {
    const root = path.resolve(directory);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(root);
    } catch {
      throw new PlanInputError(`${directory}: no such directory`);
    }
    if (!stat.isDirectory()) throw new PlanInputError(`${directory}: not a directory; give the output directory of a synth`);
    // Half of one synth and half of another would plan changes nobody made.
    const state = outputState(root);
    if (!state.complete) throw new PlanInputError(`${directory}: ${state.reason}; synthesize again before planning`);
    const files = new Map<string, Buffer>();
    const walk = (at: string): void => {
      for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
        // Dot files (a marker, a .gitignore) are not output.
        if (entry.name.startsWith('.')) continue;
        const full = path.join(at, entry.name);
        if (entry.isDirectory() || (entry.isSymbolicLink() && isDirectory(full))) walk(full);
        else if (entry.isFile() || entry.isSymbolicLink()) files.set(path.relative(root, full).split(path.sep).join('/'), readFile(full, directory));
      }
    };
    const start = options.folder === undefined ? root : path.join(root, options.folder);
    if (start === root || isDirectory(start)) walk(start);
    return new OutputSnapshot(directory, files);
  }

  /** Files by '/'-separated path (an in-memory synth, or a git tree), described as `description`. */
  public static fromFiles(description: string, files: ReadonlyMap<string, Buffer>): OutputSnapshot {
    if (files.has(INCOMPLETE_MARKER)) {
      throw new PlanInputError(`${description}: holds ${INCOMPLETE_MARKER}, so a synth stopped while writing it (and it was committed so); synthesize again and commit the whole output`);
    }
    const visible = new Map([...files].filter(([file]) => !file.split('/').some((part) => part.startsWith('.'))));
    return new OutputSnapshot(description, visible);
  }

  /** What it is, for messages: a directory, or `<ref> of <repository> (<path>/)`. */
  public readonly description: string;
  /** The object files by key (see OutputFile.key). */
  public readonly files: ReadonlyMap<string, OutputFile>;
  private readonly parsed = new Map<string, any>();
  private readonly byFolder = new Map<string, OutputFile[]>();
  private hostedClustersByName?: Map<string, OutputFile[]>;

  private constructor(description: string, files: ReadonlyMap<string, Buffer>) {
    this.description = description;
    const byKey = new Map<string, OutputFile>();
    for (const [file, bytes] of [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const slash = file.lastIndexOf('/');
      const name = file.slice(slash + 1);
      const folder = slash < 0 ? '' : file.slice(0, slash);
      // hcp-cdk writes objects to .yaml files only: anything else beside them (a README, a renovate.json) is not output.
      if (name === KUSTOMIZATION_FILE || !name.endsWith('.yaml')) continue;
      const named = parseObjectFileName(name);
      if (!named) {
        throw new PlanInputError(`${description}: ${file} is not named as hcp-cdk names its files (<rank>-<kind>-[<namespace>_]<name>.yaml), so this is not the output of an hcp-cdk synth`);
      }
      const layoutFolder = FLUX_FOLDER_PARTS.includes(folder.slice(folder.lastIndexOf('/') + 1)) ? folder.slice(0, Math.max(folder.lastIndexOf('/'), 0)) : folder;
      const key = `${layoutFolder}|${named.kind}|${named.namespace ?? ''}|${named.name}`;
      const twin = byKey.get(key);
      if (twin) {
        throw new PlanInputError(
          `${description}: ${twin.path} and ${file} are two versions of one object (${named.kind} ${named.namespace ? `${named.namespace}/` : ''}${named.name}) in one folder; an output holds each object once`,
        );
      }
      const entry = { path: file, folder, layoutFolder, key, bytes };
      byKey.set(key, entry);
      const inFolder = this.byFolder.get(layoutFolder);
      if (inFolder) inFolder.push(entry);
      else this.byFolder.set(layoutFolder, [entry]);
    }
    this.files = byKey;
  }

  /** The object files of the layout folder `folder` and, with `below`, of the folders under it; `kind` in lower case filters them. */
  public filesIn(folder: string, options: { readonly below?: boolean; readonly kind?: string } = {}): OutputFile[] {
    const folders = options.below ? [...this.byFolder.keys()].filter((f) => f === folder || f.startsWith(`${folder}/`)) : [folder];
    const files = folders.flatMap((f) => this.byFolder.get(f) ?? []);
    return options.kind === undefined ? files : files.filter((f) => f.key.split('|')[1] === options.kind);
  }

  /** The HostedCluster files of clusters named `name`, in any folder (read from the file names: nothing is parsed). */
  public hostedClusterFiles(name: string): OutputFile[] {
    if (this.hostedClustersByName === undefined) {
      this.hostedClustersByName = new Map();
      for (const file of this.files.values()) {
        const [, kind, , named] = file.key.split('|');
        if (kind === 'hostedcluster') this.hostedClustersByName.set(named, [...(this.hostedClustersByName.get(named) ?? []), file]);
      }
    }
    return this.hostedClustersByName.get(name) ?? [];
  }

  /** The object in `file`, parsed and checked to be the one its name says; throws PlanInputError otherwise. */
  public object(file: OutputFile): any {
    let object = this.parsed.get(file.key);
    if (object === undefined) {
      object = parseObjectFile(file, this.description);
      this.parsed.set(file.key, object);
    }
    return object;
  }
}

function readFile(full: string, directory: string): Buffer {
  try {
    return readRegularFile(full);
  } catch (error) {
    throw new PlanInputError(`${directory}: cannot read ${(error as Error).message}`);
  }
}

function isDirectory(full: string): boolean {
  try {
    return fs.statSync(full).isDirectory();
  } catch {
    return false; // a link to nothing: reading it says so
  }
}

function parseObjectFile(file: OutputFile, description: string): any {
  // The one bounded reader: aliases, depth and syntax, as validate reads a file.
  const read = parseManifestText(file.bytes.toString('utf8'), file.path, false);
  const documents = manifestDocumentsOrThrow(read, (message) => new PlanInputError(`${description}: ${message}`)).filter((d) => d !== null && d !== undefined);
  if (documents.length !== 1) {
    throw new PlanInputError(`${description}: ${file.path} holds ${documents.length} objects; hcp-cdk writes one object per file, so this is not the output of an hcp-cdk synth`);
  }
  const object = documents[0] as any;
  const [, kind, namespace, name] = file.key.split('|');
  const actual = `${String(object?.kind).toLowerCase()}|${object?.metadata?.namespace ?? ''}|${object?.metadata?.name}`;
  if (typeof object?.apiVersion !== 'string' || actual !== `${kind}|${namespace}|${name}`) {
    throw new PlanInputError(
      `${description}: ${file.path} holds ${object?.kind ?? 'no kind'} ${object?.metadata?.namespace ? `${object.metadata.namespace}/` : ''}${object?.metadata?.name ?? '<unnamed>'}, not the object its name says; this is not the output of an hcp-cdk synth`,
    );
  }
  return object;
}
