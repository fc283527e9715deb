import { POLICIES_FOLDER } from '../gitops/acm-delivery';
import { ARGO_CD_BOOTSTRAP_FOLDER } from '../gitops/argo-cd-delivery';
import { DeliveryMode } from '../gitops/delivery-mode';
import { FLUX_FOLDER_PARTS } from '../gitops/flux-delivery';
import type { OutputFile } from './output-snapshot';

/** The suffix of a hosted cluster's guest folder, `<cluster name>-guest` (HostedCluster.guest, a chart of that id). */
const GUEST_SUFFIX = '-guest';
const FLUX_FOLDER = 'flux';

/** What an object of an output has to do with a hosted cluster's guest content. */
export interface GuestContent {
  /** The hosted cluster's name. */
  readonly cluster: string;
  /** The management folder it is on, when the output tells (engine objects and ACM policies live in their hub's folders). */
  readonly hub?: string;
  /** The guest folder, when the object is one of its objects or delivers it. */
  readonly folder?: string;
  /** `object`: in the guest folder; `application`, `kustomization`: the Argo CD Application or Flux Kustomization that applies it; `policy`, `placement`: ACM's Policy, or Placement and PlacementBinding, of it. */
  readonly role: 'object' | 'application' | 'kustomization' | 'policy' | 'placement';
}

/**
 * Whether an object is a hosted cluster's guest content, and whose: an object of its guest folder
 * (`<cluster>-guest/` at the top of the output), the Application or Kustomization that applies
 * that folder, or under ACM the Policies, Placement and PlacementBinding (`<cluster>-guest[-operators|-resources]`
 * in `<hub>/policies/`) that carry it. Read from the layout hcp-cdk writes; undefined for anything else.
 */
export function guestContentOf(file: OutputFile, object: any): GuestContent | undefined {
  const folder = file.layoutFolder;
  if (!folder.includes('/') && isGuestFolder(folder)) return { cluster: folder.slice(0, -GUEST_SUFFIX.length), folder, role: 'object' };
  const parts = folder.split('/');
  if (parts.length === 2 && parts[1] === POLICIES_FOLDER && ['Policy', 'Placement', 'PlacementBinding'].includes(object?.kind)) {
    const named = /^(.+)-guest(?:-operators|-resources)?$/.exec(String(object.metadata?.name));
    if (named) return { cluster: named[1], hub: parts[0], folder: `${named[1]}${GUEST_SUFFIX}`, role: object.kind === 'Policy' ? 'policy' : 'placement' };
  }
  const group = String(object?.apiVersion).split('/')[0];
  const path =
    object?.kind === 'Application' && group === 'argoproj.io' ? object.spec?.source?.path : object?.kind === 'Kustomization' && group === 'kustomize.toolkit.fluxcd.io' ? object.spec?.path : undefined;
  if (typeof path === 'string') {
    const segments = path.split('/').filter((s) => s !== '' && s !== '.');
    if (segments.length > 0 && FLUX_FOLDER_PARTS.includes(segments[segments.length - 1])) segments.pop();
    const applied = segments[segments.length - 1];
    if (applied !== undefined && isGuestFolder(applied)) {
      const hub = parts[0] === ARGO_CD_BOOTSTRAP_FOLDER || parts[0] === FLUX_FOLDER ? parts[1] : undefined;
      return { cluster: applied.slice(0, -GUEST_SUFFIX.length), ...(hub ? { hub } : {}), folder: applied, role: object.kind === 'Application' ? 'application' : 'kustomization' };
    }
  }
  return undefined;
}

function isGuestFolder(folder: string): boolean {
  return folder.endsWith(GUEST_SUFFIX) && folder.length > GUEST_SUFFIX.length;
}

/** Where a deleted piece of guest content stands, as plan worked it out. */
export interface GuestDeletion {
  readonly content: GuestContent;
  /** The delivery mode of its hosted cluster's output. */
  readonly mode?: DeliveryMode;
  /** Whether the hosted cluster's HostedCluster goes from the output too. */
  readonly clusterRemoved: boolean;
  /** Whether that HostedCluster is protected from pruning (it keeps running when it leaves the output). */
  readonly clusterProtected: boolean;
  /** Whether the whole guest folder goes (and with it the engine object that applied it). */
  readonly folderRemoved: boolean;
}

/**
 * What the engine does to a deleted piece of guest content, for people; undefined when it is what
 * plan says of any deleted object (the engine prunes it). Guest objects are pruned only by the engine
 * object that applies their folder: when that goes too (the guest folder, or the cluster, leaves
 * the output), Flux's `deletionPolicy: Orphan`, Argo CD's missing resources finalizer and ACM's
 * `pruneObjectBehavior: None` leave them in the hosted cluster; `oc apply -k` never deletes.
 */
export function guestDeletionSummary(deletion: GuestDeletion): string | undefined {
  const { content, mode, clusterRemoved } = deletion;
  const stay = staying(deletion, 'stay', 'them');
  switch (content.role) {
    case 'application':
      return (
        `the guest Application goes${clusterRemoved ? ' (left in place, it would have no destination once the cluster is unregistered)' : ''}; ` +
        `it has no resources finalizer, so deleting it deletes nothing it applied: the objects of ${content.folder} ${stay}`
      );
    case 'kustomization':
      return `the guest Kustomization goes; its deletionPolicy is Orphan, so deleting it deletes nothing it applied: the objects of ${content.folder} ${stay}`;
    case 'policy':
      return `the guest policy goes; with pruneObjectBehavior None, ACM deletes nothing it enforced: the objects of ${content.folder} ${stay}`;
    case 'placement':
      return `the guest policies are no longer placed on the hosted cluster; with pruneObjectBehavior None, ACM deletes nothing they enforced: the objects of ${content.folder} ${stay}`;
    default:
      break;
  }
  const it = staying(deletion, 'stays', 'it');
  const folderGoes = deletion.folderRemoved || clusterRemoved;
  switch (mode) {
    case DeliveryMode.FLUX:
      return folderGoes ? `${it}: the guest Kustomization goes with its folder, and its deletionPolicy is Orphan, so Flux deletes nothing it applied` : undefined;
    case DeliveryMode.ARGO_CD:
    case DeliveryMode.ARGO_CD_WITHOUT_HEALTH_CHECKS:
      return folderGoes
        ? `${it}: the guest Application goes with its folder (left in place, it has nothing to sync${clusterRemoved ? ' and no destination' : ''}), ` +
            'and it has no resources finalizer, so Argo CD deletes nothing it applied'
        : undefined;
    case DeliveryMode.KUSTOMIZE:
      return `${it}: oc apply -k of ${content.folder} deletes nothing${clusterRemoved ? '' : '; delete it there by hand if that is meant'}`;
    case DeliveryMode.ACM:
      return clusterRemoved ? `${it}, unless the engine pointed at ${content.folder} deletes it` : undefined;
    default:
      return clusterRemoved ? `${it}, unless the engine that applies ${content.folder} deletes it: the output does not record how it is delivered` : undefined;
  }
}

/** `stay in the hosted cluster` and, when the cluster leaves the output, for how long. */
function staying(deletion: GuestDeletion, verb: string, them: string): string {
  if (!deletion.clusterRemoved) return `${verb} in the hosted cluster`;
  return deletion.clusterProtected
    ? `${verb} in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing ${them}`
    : `${verb} in the hosted cluster until the engine prunes its HostedCluster, which destroys the cluster and ${them} with it`;
}
