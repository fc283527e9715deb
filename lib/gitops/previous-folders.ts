import * as path from 'path';
import type { PreviousDeliveredOutput } from './delivery';
import { parseObjectFileName } from './output-layout';
import type { ObjectIdentity } from './unit-access';

/** An object of the previous output, as the engine that applied it still tracks it. */
export interface PreviousObject extends ObjectIdentity {
  /** Its file, '/'-separated under the output root. */
  readonly path: string;
  /** Its annotations as written: the engines' protection among them. */
  readonly annotations: Readonly<Record<string, string>>;
}

/**
 * The objects of the previous output by folder: what each Flux Kustomization has in its inventory
 * and each Argo CD Application tracks, since both apply a folder's files. Only the files a caller
 * asks about are read: a fleet's output has thousands.
 */
export class PreviousFolders {
  /** The folders of `previous`, or none when there is no previous output. */
  public static of(previous: PreviousDeliveredOutput | undefined): PreviousFolders {
    return new PreviousFolders(previous);
  }

  private readonly byFolder = new Map<string, string[]>();
  private readonly byFileName = new Map<string, string[]>();

  private constructor(private readonly previous: PreviousDeliveredOutput | undefined) {
    for (const file of previous?.paths() ?? []) {
      const name = path.posix.basename(file);
      if (parseObjectFileName(name) === undefined) continue;
      const folder = path.posix.dirname(file);
      this.byFolder.set(folder, [...(this.byFolder.get(folder) ?? []), file]);
      this.byFileName.set(name, [...(this.byFileName.get(name) ?? []), folder]);
    }
  }

  /** Whether there is a previous output to compare with. */
  public get found(): boolean {
    return this.previous !== undefined;
  }

  /** The folders that held an object file of this name (`<rank>-<kind>-<namespace>_<name>.yaml`). */
  public foldersOf(fileName: string): readonly string[] {
    return this.byFileName.get(fileName) ?? [];
  }

  /** The objects `folder` held (its own files, not its sub-folders') that `kept` (object keys, see objectKey) lacks. */
  public droppedFrom(folder: string, kept: ReadonlySet<string>): PreviousObject[] {
    const dropped: PreviousObject[] = [];
    for (const file of this.byFolder.get(folder) ?? []) {
      const parsed = parseObjectFileName(path.posix.basename(file))!;
      if (kept.has(objectKey(parsed.kind, parsed.namespace, parsed.name))) continue;
      const json = this.previous!.object(file) as any;
      // A file that no longer parses names what it held all the same, but not its API group: skip it.
      if (typeof json?.apiVersion !== 'string' || typeof json?.kind !== 'string') continue;
      dropped.push({ path: file, apiVersion: json.apiVersion, kind: json.kind, name: parsed.name, namespace: parsed.namespace, annotations: json.metadata?.annotations ?? {} });
    }
    return dropped;
  }
}

/** The key an object is known by within one cluster: its kind (any case), namespace and name. */
export function objectKey(kind: string, namespace: string | undefined, name: string): string {
  return `${kind.toLowerCase()}/${namespace ?? ''}/${name}`;
}

/** The cluster a file of the output is applied to: its top folder, or for `<engine>/<hub>/...` the hub. */
export function clusterOfPath(file: string, bootstrapFolder: string): string {
  const parts = file.split('/');
  return parts[0] === bootstrapFolder ? parts[1] : parts[0];
}
