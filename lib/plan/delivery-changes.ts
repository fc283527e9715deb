import { ARGO_CD_ADOPTS_ANNOTATION, ARGO_CD_BOOTSTRAP_FOLDER } from '../gitops/argo-cd-delivery';
import { FLUX_ROLE_PREFIX } from '../gitops/flux-access';
import type { OutputSnapshot } from './output-snapshot';
import type { ClusterNote } from './plan-report';

/** The folder of Flux's bootstrap folders (see FluxDelivery). */
const FLUX_BOOTSTRAP_FOLDER = 'flux';
/** Below a Flux bootstrap folder, the admission policy its admin applies (see FluxDeliveryProps.admissionPolicy). */
const ADMISSION_FOLDER = 'admission';

/** What is said of one engine's bootstrap folders. */
interface Engine {
  readonly folder: string;
  /** The kind (lower case) of its units' objects. */
  readonly kind: string;
  /** What they are called. */
  readonly units: string;
  /** The object that keeps a bootstrap folder in sync, by name, and where its spec says what it reads. */
  readonly own: (hub: string) => string;
  readonly pathOf: (json: any) => string | undefined;
  readonly repositoryOf: (snapshot: OutputSnapshot, folder: string) => string | undefined;
}

const FLUX: Engine = {
  folder: FLUX_BOOTSTRAP_FOLDER,
  kind: 'kustomization',
  units: 'Kustomizations',
  own: (hub) => `flux-${hub}`,
  pathOf: (json) => json?.spec?.path,
  repositoryOf: (snapshot, folder) => snapshot.filesIn(folder, { kind: 'gitrepository' }).map((f) => snapshot.object(f)?.spec?.url)[0],
};

const ARGO_CD: Engine = {
  folder: ARGO_CD_BOOTSTRAP_FOLDER,
  kind: 'application',
  units: 'Applications and AppProjects',
  own: (hub) => `argocd-${hub}`,
  pathOf: (json) => json?.spec?.source?.path,
  repositoryOf: (snapshot, folder) => {
    const own = snapshot.filesIn(folder, { kind: 'application' }).find((f) => f.key.split('|')[3] === `argocd-${folder.split('/')[1]}`);
    return own && snapshot.object(own)?.spec?.source?.repoURL;
  },
};

/**
 * What a commit does to the engines' own objects, per bootstrap folder (`flux/<hub>`,
 * `argocd/<hub>`), as docs/delivery.md's catalogue of fleet changes says: the hand steps (a new
 * bootstrap folder to apply once; the engine objects of a folder that is gone to delete, before the
 * other engine's are applied when the hub switches engines; `flux-<hub>`'s own ClusterRole widened
 * or its admission policy changed, which it may not apply itself; the bootstrap folder read from an
 * output path or a repository the commit leaves), the Kustomizations and Applications pruned, the
 * Applications that adopt what others tracked. One note per bootstrap folder that changes.
 */
export function deliveryChangeNotes(previous: OutputSnapshot, next: OutputSnapshot): ClusterNote[] {
  const notes: ClusterNote[] = [];
  for (const engine of [FLUX, ARGO_CD]) {
    const other = engine === FLUX ? ARGO_CD : FLUX;
    const before = bootstrapFolders(previous, engine.folder);
    const after = bootstrapFolders(next, engine.folder);
    for (const folder of after.filter((f) => !before.includes(f))) {
      const hub = folder.split('/')[1];
      const admission = engine === FLUX && next.filesIn(`${folder}/${ADMISSION_FOLDER}`).length > 0 ? `dist/${folder}/${ADMISSION_FOLDER}, then ` : '';
      const parts = [`hand step: apply ${admission}dist/${folder} once, as a cluster admin (a new bootstrap folder: a hub added or renamed, or its engine switched)`];
      parts.push(...adoptions(engine, next, folder));
      if (bootstrapFolders(previous, other.folder).includes(`${other.folder}/${hub}`)) {
        parts.push(`only once ${other.units} of ${other.folder}/${hub} are deleted`);
      }
      notes.push({ cluster: folder, note: parts.join('; ') });
    }
    for (const folder of before.filter((f) => !after.includes(f))) {
      const hub = folder.split('/')[1];
      const names = namesIn(previous, folder, engine.kind).join(', ');
      const switched = bootstrapFolders(next, other.folder).includes(`${other.folder}/${hub}`);
      const note = !switched
        ? `hand step: its ${engine.units} (${names}) apply a folder that is gone: delete them once their successors are synced (nothing they applied is deleted)`
        : engine === ARGO_CD
          ? `hand step, before dist/${other.folder}/${hub} is applied: delete ${engine.own(hub)}, then its other ${engine.units} (${names}) but the locked default AppProject: ` +
            'until then they go on syncing the folders, whose objects Flux would take over from them (nothing they applied is deleted)'
          : `hand step, before dist/${other.folder}/${hub} is applied: delete ${engine.own(hub)}, then every other object of dist/${folder} as it was (${names}, their ServiceAccounts and RBAC): ` +
            "the units wait on it, which fails on its folder, and Argo CD's FailOnSharedResource does not see what Flux applied (nothing they applied is deleted)";
      notes.push({ cluster: folder, note });
    }
    for (const folder of after.filter((f) => before.includes(f))) {
      const hub = folder.split('/')[1];
      const removed = namesIn(previous, folder, engine.kind).filter((n) => !namesIn(next, folder, engine.kind).includes(n));
      const parts: string[] = [];
      const ownPath = (snapshot: OutputSnapshot) => {
        const own = snapshot.filesIn(folder, { kind: engine.kind }).find((f) => f.key.split('|')[3] === engine.own(hub));
        return own && engine.pathOf(snapshot.object(own));
      };
      if (ownPath(previous) !== ownPath(next)) {
        parts.push(`hand step: ${engine.own(hub)} reads ${ownPath(previous)}, which this commit leaves: apply dist/${folder} once by hand, as a cluster admin`);
      }
      const repository = [engine.repositoryOf(previous, folder), engine.repositoryOf(next, folder)];
      if (repository[0] !== repository[1]) parts.push(`push this commit to ${repository[0]} too: ${engine.own(hub)} reads it from there, and only then follows to ${repository[1]}`);
      if (removed.length > 0) parts.push(`prunes ${removed.join(', ')}, which orphans what they applied`);
      if (engine === ARGO_CD) {
        parts.push(...adoptions(engine, next, folder));
      } else {
        if (policyChanged(previous, next, folder)) {
          parts.push(`hand step: its admission policy changes (the hub's roles grant a kind they did not): apply dist/${folder}/${ADMISSION_FOLDER} as a cluster admin before this commit syncs`);
        }
        if (widensOwnRole(previous, next, folder)) {
          parts.push(`hand step: flux-${hub}'s own ClusterRole grows, which it may not do itself: apply dist/${folder} once, as a cluster admin`);
        }
      }
      if (parts.length > 0) notes.push({ cluster: folder, note: parts.join('; ') });
    }
  }
  return notes;
}

/** What the Applications of an Argo CD bootstrap folder adopt (none for Flux). */
function adoptions(engine: Engine, snapshot: OutputSnapshot, folder: string): string[] {
  if (engine !== ARGO_CD) return [];
  const parts: string[] = [];
  for (const file of snapshot.filesIn(folder, { kind: engine.kind })) {
    const adopts = snapshot.object(file)?.metadata?.annotations?.[ARGO_CD_ADOPTS_ANNOTATION];
    if (adopts) parts.push(`${snapshot.object(file).metadata.name} adopts what ${adopts} tracked`);
  }
  return parts;
}

/** The bootstrap folders `<engine>/<hub>` of an output. */
function bootstrapFolders(snapshot: OutputSnapshot, engine: string): string[] {
  const folders = new Set<string>();
  for (const file of snapshot.files.values()) {
    const parts = file.path.split('/');
    if (parts[0] === engine && parts.length > 2) folders.add(`${engine}/${parts[1]}`);
  }
  return [...folders].sort();
}

/** The names of the objects of `kind` (lower case) in `folder` itself. */
function namesIn(snapshot: OutputSnapshot, folder: string, kind: string): string[] {
  return snapshot
    .filesIn(folder, { kind })
    .map((f) => f.key.split('|')[3])
    .sort();
}

/** Whether the admission policy of a Flux bootstrap folder differs between the two outputs (one it gains counts). */
function policyChanged(previous: OutputSnapshot, next: OutputSnapshot, folder: string): boolean {
  const policy = (snapshot: OutputSnapshot) =>
    JSON.stringify(
      snapshot
        .filesIn(`${folder}/${ADMISSION_FOLDER}`)
        .map((f) => snapshot.object(f))
        .filter((o) => o !== undefined),
    );
  return next.filesIn(`${folder}/${ADMISSION_FOLDER}`).length > 0 && policy(previous) !== policy(next);
}

/** Whether `flux-<hub>`'s own ClusterRole grants, in `next`, a verb on a resource or name it did not before. */
function widensOwnRole(previous: OutputSnapshot, next: OutputSnapshot, folder: string): boolean {
  const name = `${FLUX_ROLE_PREFIX}flux-${folder.split('/')[1]}`;
  const grants = (snapshot: OutputSnapshot): Set<string> | undefined => {
    const file = snapshot.filesIn(folder, { kind: 'clusterrole' }).find((f) => f.key.split('|')[3] === name);
    if (file === undefined) return undefined;
    const set = new Set<string>();
    for (const rule of snapshot.object(file).rules ?? []) {
      for (const group of rule.apiGroups ?? [''])
        for (const resource of rule.resources ?? []) for (const verb of rule.verbs ?? []) for (const named of rule.resourceNames ?? ['*']) set.add(`${group}/${resource}/${verb}/${named}`);
    }
    return set;
  };
  const was = grants(previous);
  const now = grants(next);
  return was !== undefined && now !== undefined && [...now].some((g) => !was.has(g));
}
