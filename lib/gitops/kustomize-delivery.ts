import type { Problems } from '../core/problems';
import { rankOf, SYNC_WAVE_ANNOTATION } from './apply-order';
import type { DeliveredFile, DeliveryAdditions, IDelivery, PlacedObject } from './delivery';
import { DeliveryMode, recordDeliveryMode } from './delivery-mode';
import { kustomizations } from './kustomization';
import { objectFileName } from './output-layout';
import { isProtected, protect } from './protection';

/** Props of KustomizeDelivery. */
export interface KustomizeDeliveryProps {
  /**
   * Annotate every object with its apply rank as `argocd.argoproj.io/sync-wave`, so that an Argo CD
   * Application pointed at a folder applies namespaces, operators, Secrets, HostedCluster, NodePools,
   * InfraEnv and BareMetalHosts in that order. An annotation set on the object itself wins.
   * @default true
   */
  readonly syncWaves?: boolean;
  /**
   * Write a `kustomization.yaml` in every folder below the output root, listing its files and
   * sub-folders, so that `oc apply -k dist/hub` or a GitOps tool can take any folder as it is.
   * @default true
   */
  readonly kustomizations?: boolean;
}

/**
 * The default delivery: plain folders that `oc apply -k` or any GitOps engine can take. One
 * folder per management cluster, hosted cluster, inventory and guest; one file per object, named
 * `<rank>-<kind>-<namespace>_<name>.yaml` so that name order is apply order; a `kustomization.yaml`
 * in each folder below the root. The other deliveries build on this layout.
 */
export class KustomizeDelivery implements IDelivery {
  private readonly syncWaves: boolean;
  private readonly kustomizations: boolean;

  constructor(props: KustomizeDeliveryProps = {}) {
    this.syncWaves = props.syncWaves ?? true;
    this.kustomizations = props.kustomizations ?? true;
  }

  public place(object: PlacedObject, _problems: Problems): string {
    const json = object.json;
    if (this.syncWaves) addSyncWave(json);
    // Both engines' protection, for whichever is pointed at the folders (see allowPruning).
    if (isProtected(json.kind, object, object.construct)) protect(json);
    recordDeliveryMode(json, DeliveryMode.KUSTOMIZE);
    return `${object.folder}/${objectFileName(json)}`;
  }

  public finish(files: readonly DeliveredFile[], _problems: Problems): DeliveryAdditions {
    return { objects: [], files: this.kustomizations ? kustomizations(files.map((f) => f.path)) : [] };
  }
}

/** Adds the wave last among the annotations; the rendered object is the synth's own to change. */
export function addSyncWave(json: any): void {
  const annotations = json.metadata.annotations;
  if (annotations === undefined) json.metadata.annotations = { [SYNC_WAVE_ANNOTATION]: String(rankOf(json.kind)) };
  else if (annotations[SYNC_WAVE_ANNOTATION] === undefined) annotations[SYNC_WAVE_ANNOTATION] = String(rankOf(json.kind));
}
