import { ARGO_CD_ADOPTS_ANNOTATION, ARGO_CD_BOOTSTRAP_FOLDER } from '../gitops/argo-cd-delivery';
import { FLUX_ROLE_PREFIX } from '../gitops/flux-access';
import type { OutputSnapshot } from './output-snapshot';
import type { ClusterNote } from './plan-report';

/** The folder of Flux's bootstrap folders (see FluxDelivery). */
const FLUX_BOOTSTRAP_FOLDER = 'flux';

/**
 * What a commit does to the engines' own objects, per bootstrap folder (`flux/<hub>`,
 * `argocd/<hub>`), as docs/delivery.md's catalogue of fleet changes says: the hand steps (a new
 * bootstrap folder to apply once, the engine objects of a folder that is gone to delete, `flux-<hub>`'s
 * own ClusterRole widened, which it may not do itself), the Kustomizations and Applications pruned,
 * the Applications that adopt what others tracked. One note per bootstrap folder that changes.
 */
export function deliveryChangeNotes(previous: OutputSnapshot, next: OutputSnapshot): ClusterNote[] {
  const notes: ClusterNote[] = [];
  for (const engine of [FLUX_BOOTSTRAP_FOLDER, ARGO_CD_BOOTSTRAP_FOLDER]) {
    const kind = engine === FLUX_BOOTSTRAP_FOLDER ? 'kustomization' : 'application';
    const before = bootstrapFolders(previous, engine);
    const after = bootstrapFolders(next, engine);
    const added = after.filter((f) => !before.includes(f));
    const gone = before.filter((f) => !after.includes(f));
    for (const folder of added) {
      notes.push({ cluster: folder, note: `hand step: apply dist/${folder} once, as a cluster admin (a new bootstrap folder: a hub added or renamed)` });
    }
    for (const folder of gone) {
      const names = namesIn(previous, folder, kind);
      notes.push({
        cluster: folder,
        note: `hand step: its ${engine === FLUX_BOOTSTRAP_FOLDER ? 'Kustomizations' : 'Applications and AppProjects'} (${names.join(', ')}) apply a folder that is gone: delete them once their successors are synced (nothing they applied is deleted)`,
      });
    }
    for (const folder of after.filter((f) => before.includes(f))) {
      const removed = namesIn(previous, folder, kind).filter((n) => !namesIn(next, folder, kind).includes(n));
      const parts: string[] = [];
      if (removed.length > 0) parts.push(`prunes ${removed.join(', ')}, which orphans what they applied`);
      if (engine === ARGO_CD_BOOTSTRAP_FOLDER) {
        for (const file of next.filesIn(folder, { kind })) {
          const adopts = next.object(file)?.metadata?.annotations?.[ARGO_CD_ADOPTS_ANNOTATION];
          if (adopts) parts.push(`${next.object(file).metadata.name} adopts what ${adopts} tracked`);
        }
      } else if (widensOwnRole(previous, next, folder)) {
        parts.push(`hand step: flux-${folder.split('/')[1]}'s own ClusterRole grows, which it may not do itself: apply dist/${folder} once, as a cluster admin`);
      }
      if (parts.length > 0) notes.push({ cluster: folder, note: parts.join('; ') });
    }
  }
  return notes;
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
