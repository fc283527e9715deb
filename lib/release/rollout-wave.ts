/** What every wave factory takes. */
export interface RolloutWaveOptions {
  /**
   * The wave's name, in messages, the plan and the output's record of the rollout.
   * @default - 'canaries' for `canaries()`, 'rest' for `rest()`, else `wave-<n>` (its place, from 1)
   */
  readonly name?: string;
  /**
   * Keep the node pools of the wave's clusters on the release they run while their control planes
   * move: the commit that releases the wave upgrades control planes only, and the next commit,
   * which drops the hold, upgrades the pools. The wave is complete, and the next one may follow,
   * only once its pools run the release too. A hold on a wave not released yet holds nothing.
   * @default false - the pools move in the same commit as their control planes
   */
  readonly holdNodePools?: boolean;
}

/** How a wave picks its clusters among those its rollout covers. */
export enum RolloutWaveSelection {
  /** Named clusters, moved first. */
  CANARIES = 'canaries',
  /** Named clusters. */
  CLUSTERS = 'clusters',
  /** Clusters carrying every one of the labels. */
  LABELS = 'labels',
  /** The next clusters no wave picks by name or label, in the order they joined the rollout. */
  BATCH = 'batch',
  /** Every cluster no other wave picks. */
  REST = 'rest',
}

/**
 * One wave of a `ReleaseRollout`: the clusters that move to the rollout's release in one commit.
 * A cluster is in one wave: named waves (canaries, clusters) and label waves pick clusters by what
 * they are; batches take the next clusters no wave names or selects by label, in the order the
 * clusters joined the rollout (a fleet's: the inventory's order); `rest` takes what is left.
 */
export class RolloutWave {
  /**
   * The canary clusters, by name (a HostedCluster's name, or `<management cluster>/<name>` when
   * two management clusters have one of that name): the first wave, whose health the others wait on.
   * They move together; give each its own `clusters()` wave to move them one at a time.
   */
  public static canaries(clusters: readonly string[], options: RolloutWaveOptions = {}): RolloutWave {
    return new RolloutWave(RolloutWaveSelection.CANARIES, options, { clusters });
  }

  /** Clusters by name: a HostedCluster's name, or `<management cluster>/<name>`. */
  public static clusters(clusters: readonly string[], options: RolloutWaveOptions = {}): RolloutWave {
    return new RolloutWave(RolloutWaveSelection.CLUSTERS, options, { clusters });
  }

  /** The clusters whose HostedCluster carries every one of these labels (`metadata.labels`). */
  public static labels(labels: Readonly<Record<string, string>>, options: RolloutWaveOptions = {}): RolloutWave {
    return new RolloutWave(RolloutWaveSelection.LABELS, options, { labels });
  }

  /**
   * The next `size` clusters that no wave picks by name or label, in the order they joined the
   * rollout (TALM's batches of maxConcurrency); fewer when fewer are left.
   */
  public static batch(size: number, options: RolloutWaveOptions = {}): RolloutWave {
    return new RolloutWave(RolloutWaveSelection.BATCH, options, { size });
  }

  /** Every cluster of the rollout that no other wave picks: the last wave. */
  public static rest(options: RolloutWaveOptions = {}): RolloutWave {
    return new RolloutWave(RolloutWaveSelection.REST, options, {});
  }

  /** How the wave picks its clusters. */
  public readonly selection: RolloutWaveSelection;
  /** The name given, if any (the rollout names the others). */
  public readonly name?: string;
  /** Whether the wave's node pools stay on the release before while its control planes move. */
  public readonly holdNodePools: boolean;
  /** canaries and clusters: the names given. */
  public readonly clusters?: readonly string[];
  /** labels: the labels given. */
  public readonly labels?: Readonly<Record<string, string>>;
  /** batch: the size given. */
  public readonly size?: number;

  private constructor(selection: RolloutWaveSelection, options: RolloutWaveOptions, picks: { clusters?: readonly string[]; labels?: Readonly<Record<string, string>>; size?: number }) {
    this.selection = selection;
    this.name = options.name;
    this.holdNodePools = options.holdNodePools ?? false;
    this.clusters = picks.clusters;
    this.labels = picks.labels;
    this.size = picks.size;
  }

  /** What the wave picks, for messages: `clusters ["a","b"]`, `labels {"ring":"1"}`, `batch 10`, `rest`. */
  public get description(): string {
    switch (this.selection) {
      case RolloutWaveSelection.CANARIES:
      case RolloutWaveSelection.CLUSTERS:
        return `${this.selection} ${JSON.stringify(this.clusters)}`;
      case RolloutWaveSelection.LABELS:
        return `labels ${JSON.stringify(this.labels)}`;
      case RolloutWaveSelection.BATCH:
        return `batch ${JSON.stringify(this.size)}`;
      default:
        return 'rest';
    }
  }
}
