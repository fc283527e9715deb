import * as path from 'path';

/** The file kustomize reads in each folder. */
export const KUSTOMIZATION_FILE = 'kustomization.yaml';

/** Options of `kustomizations`. */
export interface KustomizationsOptions {
  /**
   * List each folder's sub-folders too, so that applying a folder applies everything below it.
   * Off for engines that apply every folder on its own (Flux: one Kustomization per folder),
   * where a parent listing its sub-folders would apply them twice; then only folders that hold
   * files get a `kustomization.yaml`.
   * @default true
   */
  readonly subFolders?: boolean;
}

/**
 * A `kustomization.yaml` for every folder of the output, listing its files and its sub-folders in
 * name order (which is apply order: file names start with their rank), so that `oc apply -k` or an
 * Argo CD / Flux path can point at any management cluster, hosted cluster or guest folder.
 * The output root gets none: its folders are different target clusters.
 */
export function kustomizations(
  files: readonly string[],
  options: KustomizationsOptions = {},
): {
  /** The file's path under the output root. */
  path: string;
  /** The file's text. */
  text: string;
}[] {
  const subFolders = options.subFolders ?? true;
  const entries = new Map<string, Set<string>>();
  // A folder seen before has its place in its parents already: each is walked up once.
  const add = (folder: string, name: string): void => {
    let names = entries.get(folder);
    if (!names) {
      entries.set(folder, (names = new Set()));
      const slash = folder.lastIndexOf('/');
      if (subFolders && slash >= 0) add(folder.slice(0, slash), `${folder.slice(slash + 1)}/`);
    }
    names.add(name);
  };
  for (const file of files) {
    const slash = file.lastIndexOf('/');
    if (slash >= 0) add(file.slice(0, slash), file.slice(slash + 1));
  }
  return [...entries].map(([folder, names]) => {
    const sorted = [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const resources = sorted.map((name) => (name.endsWith('/') ? name.slice(0, -1) : name));
    return {
      path: path.posix.join(folder, KUSTOMIZATION_FILE),
      text: ['apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', 'resources:', ...resources.map((r) => `  - ${r}`), ''].join('\n'),
    };
  });
}

/** The `kustomization.yaml` of a folder that holds nothing: what applies it prunes all it applied before. */
export function emptyKustomization(folder: string): {
  /** The file's path under the output root. */
  path: string;
  /** The file's text. */
  text: string;
} {
  return { path: path.posix.join(folder, KUSTOMIZATION_FILE), text: ['apiVersion: kustomize.config.k8s.io/v1beta1', 'kind: Kustomization', 'resources: []', ''].join('\n') };
}
