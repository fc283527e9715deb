import { formatVersion } from '../release/release';
import { releaseVersionOf } from '../release/release-version';
import type { RolloutOutputs } from '../release/rollout-progress';

/** One HostedCluster's or NodePool's release in the new output and, when it was there, in the previous one. */
interface Releases {
  readonly next?: string;
  readonly previous?: string;
  /** Whether the object was in the previous output. */
  readonly before: boolean;
  /** Its `spec.pausedUntil` in the previous output. */
  readonly pausedBefore?: string;
  /** The OpenShift version of `next`, when known. */
  readonly nextVersion?: string;
}

/**
 * What the rollout rules ask of the synth's two outputs, gathered while synth renders: the release
 * of every HostedCluster and NodePool, and the one the previous output held, which is read only for
 * a file whose text changed (an unchanged file holds the same release).
 */
export class SynthRolloutOutputs implements RolloutOutputs {
  private readonly clusters = new Map<string, { controlPlane?: Releases; pools: Map<string, Releases> }>();

  constructor(public readonly previousFound: boolean) {}

  /**
   * Records an object written to `file` (a path under the output root).
   * @param previous the object the previous output holds in that file, if any
   */
  public add(file: string, json: any, previous: () => any): void {
    const kind = json?.kind;
    if (kind !== 'HostedCluster' && kind !== 'NodePool') return;
    const name = kind === 'HostedCluster' ? json.metadata?.name : json.spec?.clusterName;
    const id = `${file.split('/')[0]}/${json.metadata?.namespace}/${name}`;
    let cluster = this.clusters.get(id);
    if (!cluster) {
      cluster = { pools: new Map() };
      this.clusters.set(id, cluster);
    }
    const before = this.previousFound ? previous() : undefined;
    const version = releaseVersionOf(json);
    const releases = {
      next: json.spec?.release?.image,
      previous: before?.spec?.release?.image,
      before: before !== undefined,
      pausedBefore: typeof before?.spec?.pausedUntil === 'string' ? before.spec.pausedUntil : undefined,
      nextVersion: version && formatVersion(version),
    };
    if (kind === 'HostedCluster') cluster.controlPlane = releases;
    else cluster.pools.set(json.metadata?.name, releases);
  }

  public movedTo(image: string): ReadonlySet<string> {
    const moved = new Set<string>();
    const moves = (r: Releases | undefined): boolean => r !== undefined && r.before && r.previous !== image && r.next === image;
    for (const [id, cluster] of this.clusters) {
      if (moves(cluster.controlPlane) || [...cluster.pools.values()].some(moves)) moved.add(id);
    }
    return moved;
  }

  public movedFrom(image: string): ReadonlyMap<string, string | undefined> {
    const moved = new Map<string, string | undefined>();
    for (const [id, cluster] of this.clusters) {
      const controlPlane = cluster.controlPlane;
      if (controlPlane?.before && controlPlane.previous === image && controlPlane.next !== image) moved.set(id, controlPlane.nextVersion);
    }
    return moved;
  }

  public pausedBefore(id: string): ReadonlyMap<string, string> {
    const cluster = this.clusters.get(id);
    const paused = new Map<string, string>();
    if (cluster?.controlPlane?.pausedBefore) paused.set('control plane', cluster.controlPlane.pausedBefore);
    for (const [name, pool] of cluster?.pools ?? []) if (pool.pausedBefore) paused.set(`pool ${name}`, pool.pausedBefore);
    return paused;
  }

  public offTargetBefore(id: string, image: string): { controlPlane: boolean; pools: string[] } | undefined {
    const cluster = this.clusters.get(id);
    if (!cluster?.controlPlane?.before) return undefined;
    const pools = [...cluster.pools].filter(([, pool]) => pool.before && pool.previous !== image).map(([name]) => name);
    return { controlPlane: cluster.controlPlane.previous !== image, pools };
  }
}
