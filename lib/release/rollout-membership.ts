import type { RolloutRecord } from './rollout-record';
import { RolloutWave, RolloutWaveSelection } from './rollout-wave';

/** Where a cluster that joins a rollout in flight goes (one the previous output's record does not list). */
export enum RolloutNewClusters {
  /** The last wave, so that no wave a reviewer has seen grows. */
  LAST_WAVE = 'LastWave',
  /** The first wave the previous output had not released: the next commit moves it. */
  NEXT_WAVE = 'NextWave',
}

/** A cluster as the membership rules see it. */
export interface MembershipCandidate {
  /** `<management folder>/<namespace>/<name>`, as plan names clusters. */
  readonly id: string;
  /** Its management folder. */
  readonly hub: string;
  /** `metadata.name`. */
  readonly clusterName: string;
  /** Its labels. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
}

/** Which wave a cluster is in, and why. */
export interface WaveAssignment {
  /** The wave (index); undefined when no wave takes it. */
  readonly wave?: number;
  /**
   * `pinned`: the previous output released it in this wave; `picked`: a wave names or selects it;
   * `joined`: new to a rollout in flight, placed by `newClusters`; `batch`: a batch or the rest.
   */
  readonly by: 'pinned' | 'picked' | 'joined' | 'batch';
  /** The waves not released before that name or select it: more than one is a problem. */
  readonly picks: readonly number[];
}

/**
 * Which wave each cluster of a rollout is in. Once the previous output records a wave as released,
 * its clusters are fixed by that record (pinned): a cluster added earlier in the inventory, a batch
 * that would count differently, or a label changed since cannot move a cluster into or out of a wave
 * that has run the release. The other clusters are placed by the waves' definitions as before;
 * a cluster new to a rollout in flight (one the record does not list) goes where `newClusters` says,
 * unless a wave not yet released names or selects it.
 */
export class RolloutMembership {
  /** Whether the previous output released a wave of the rollout (or kept one on a previous target). */
  public readonly inFlight: boolean;
  /** The waves (indexes) the previous output released: their clusters are pinned. */
  public readonly pinnedWaves: ReadonlySet<number>;
  private readonly pinned = new Map<string, number>();
  private readonly recorded = new Set<string>();
  /** How many clusters the batches have taken. */
  private unpicked = 0;

  constructor(
    private readonly waves: readonly RolloutWave[],
    waveNames: readonly string[],
    previous: RolloutRecord | undefined,
    private readonly newClusters: RolloutNewClusters,
  ) {
    const spec = previous?.spec;
    const released = Math.max(spec?.releasedWaves ?? 0, spec?.previousTarget?.releasedWaves ?? 0);
    this.inFlight = released > 0;
    const pinnedWaves = new Set<number>();
    (spec?.waves ?? []).forEach((wave, i) => {
      for (const cluster of wave.clusters) this.recorded.add(cluster);
      const index = waveNames.indexOf(wave.name);
      if (i >= released || index < 0) return;
      pinnedWaves.add(index);
      for (const cluster of wave.clusters) this.pinned.set(cluster, index);
    });
    this.pinnedWaves = pinnedWaves;
  }

  /** The wave of a cluster joining the rollout; call once per cluster, in the order they join. */
  public assign(member: MembershipCandidate): WaveAssignment {
    const picks = this.waves.map((wave, i) => (!this.pinnedWaves.has(i) && this.picks(wave, member) ? i : -1)).filter((i) => i >= 0);
    const pinned = this.pinned.get(member.id);
    if (pinned !== undefined) return { wave: pinned, by: 'pinned', picks: [] };
    if (picks.length > 0) return { wave: picks[0], by: 'picked', picks };
    if (this.inFlight && !this.recorded.has(member.id)) return { wave: this.joinedWave(), by: 'joined', picks };
    return { wave: this.batchOf(this.unpicked++), by: 'batch', picks };
  }

  /** Whether `wave` names the cluster (`<name>` or `<management cluster>/<name>`); labels do not count. */
  public names(wave: RolloutWave, member: MembershipCandidate): boolean {
    return (wave.clusters ?? []).some((name) => name === member.clusterName || name === `${member.hub}/${member.clusterName}`);
  }

  /** Whether `wave` picks the cluster by name or label (batches and rest pick what no wave does). */
  private picks(wave: RolloutWave, member: MembershipCandidate): boolean {
    if (wave.clusters) return this.names(wave, member);
    return wave.labels !== undefined && Object.entries(wave.labels).every(([key, value]) => member.labels?.[key] === value);
  }

  /** Whether the previous output released wave `index` with a cluster `name` (as waves name clusters) stands for. */
  public releasedWith(index: number, name: string): boolean {
    for (const [cluster, wave] of this.pinned) {
      if (wave !== index) continue;
      const [hub, , clusterName] = cluster.split('/');
      if (name === clusterName || name === `${hub}/${clusterName}`) return true;
    }
    return false;
  }

  private joinedWave(): number {
    if (this.newClusters === RolloutNewClusters.NEXT_WAVE) {
      const next = this.waves.findIndex((_, i) => !this.pinnedWaves.has(i));
      if (next >= 0) return next;
    }
    return this.waves.length - 1;
  }

  /** The wave of the `index`-th cluster no wave picked: the batches not released, in turn, then the rest. */
  private batchOf(index: number): number | undefined {
    let left = index;
    for (let i = 0; i < this.waves.length; i++) {
      const wave = this.waves[i];
      if (wave.selection === RolloutWaveSelection.REST) return i;
      if (wave.selection !== RolloutWaveSelection.BATCH || this.pinnedWaves.has(i)) continue;
      if (left < wave.size!) return i;
      left -= wave.size!;
    }
    return undefined;
  }
}
