import type { RolloutRecord } from './rollout-record';

/**
 * What the rollout rules need to know of two outputs, the previous one (what the clusters run) and
 * the new one. Synth answers from the objects it renders and the previous output it reads; plan
 * from the two outputs it compares. Clusters are named as plan names them: `<management folder>/<namespace>/<name>`.
 */
export interface RolloutOutputs {
  /** Whether there is a previous output; without one nothing below is asked. */
  readonly previousFound: boolean;
  /**
   * The clusters whose HostedCluster or one of whose NodePools ran another release in the previous
   * output and runs `image` in the new one: what this commit moves to `image`.
   */
  movedTo(image: string): ReadonlySet<string>;
  /**
   * What of a cluster does not run `image` in the previous output: `control plane`, and the names of
   * its NodePools; empty when all of it does; undefined when its HostedCluster is not in the previous output.
   */
  offTargetBefore(
    cluster: string,
    image: string,
  ):
    | {
        /** Whether the control plane runs another release. */
        readonly controlPlane: boolean;
        /** The pools that run another release. */
        readonly pools: readonly string[];
      }
    | undefined;
}

/** The clusters of one wave that something is said of. */
export interface WaveClusters {
  /** The wave's place, from 1. */
  readonly wave: number;
  /** The wave's name. */
  readonly name: string;
  /** The clusters, as plan names them: `<management folder>/<namespace>/<name>`. */
  readonly clusters: readonly string[];
}

/** What a commit does to one rollout. */
export interface RolloutProgress {
  /** The rollout's name. */
  readonly rollout: string;
  /** The rollout's release. */
  readonly release: {
    /** The release image. */
    readonly image: string;
    /** Its OpenShift version, when known. */
    readonly version?: string;
  };
  /** How many waves the rollout has. */
  readonly waves: number;
  /** How many waves, from the first, are released after the commit. */
  readonly releasedWaves: number;
  /** The waves this commit moves, with the clusters it moves to the release. */
  readonly moves: readonly WaveClusters[];
  /** The clusters of the waves not released, by wave. */
  readonly left: readonly WaveClusters[];
  /** Clusters whose upgrade failed, as the record says. */
  readonly failedClusters: readonly string[];
  /** Why the commit cannot move what it moves, each a sentence starting with the field. */
  readonly problems: readonly string[];
  /** One line: `wave 2 of 3 (ring-1) moves 12 clusters: …; 450 left in wave 3 (rest)`. */
  readonly summary: string;
}

/** How many clusters a message names before it counts the rest. */
const NAMED = 3;

/**
 * What a commit does to a rollout and why it may not: it moves one wave at a time, each once the
 * waves before it run the release in the previous output (a failed cluster counts as done under
 * onFailure Continue and stops the rollout under Stop), and moves nothing before the rollouts it
 * waits for (after) are complete in the previous output.
 * @param record the rollout as the new output records it
 * @param records every rollout of the new output, by name, for `after`
 */
export function rolloutProgress(record: RolloutRecord, records: ReadonlyMap<string, RolloutRecord>, outputs: RolloutOutputs): RolloutProgress {
  const spec = record.spec;
  const image = spec.release.image;
  const failed = new Set(spec.failedClusters ?? []);
  const stop = spec.onFailure === 'Stop';
  const moved = outputs.previousFound ? outputs.movedTo(image) : new Set<string>();
  const waves = spec.waves.map((wave, i) => ({ wave: i + 1, name: wave.name, clusters: wave.clusters }));
  const moves = waves.map((wave) => ({ ...wave, clusters: wave.clusters.filter((c) => moved.has(c)) })).filter((wave) => wave.clusters.length > 0);
  const left = waves.slice(spec.releasedWaves).filter((wave) => wave.clusters.length > 0);
  const problems: string[] = [];
  const field = `releasedWaves (${spec.releasedWaves})`;
  if (moves.length > 1) {
    problems.push(`${field}: ${moves.length} waves move in one commit, ${andList(moves.map(waveName))}; a commit moves one wave: release them one commit at a time`);
  }
  for (const move of moves) {
    for (const earlier of waves.slice(0, move.wave - 1)) {
      if (stop) {
        const broken = earlier.clusters.find((c) => failed.has(c));
        if (broken) {
          problems.push(
            `${field}: ${waveName(move)} moves while ${broken} of ${waveName(earlier)} failed (failedClusters) and onFailure is Stop; take it out of failedClusters once it runs well again, or set onFailure to Continue`,
          );
          break;
        }
      }
      const behind = offTarget(
        earlier.clusters.filter((c) => stop || !failed.has(c)),
        image,
        outputs,
      );
      if (behind.length > 0) {
        problems.push(
          `${field}: ${waveName(move)} moves while ${waveName(earlier)} is not on the target release in the previous output (${clusterList(behind)}); move ${waveName(move)} in a later commit, once ${waveName(earlier)} runs ${releaseName(record)}`,
        );
        break;
      }
    }
  }
  if (moves.length > 0) {
    for (const name of spec.after ?? []) {
      const other = records.get(name);
      if (!other) continue;
      const otherFailed = new Set(other.spec.onFailure === 'Stop' ? [] : (other.spec.failedClusters ?? []));
      const clusters = other.spec.waves.flatMap((wave) => wave.clusters).filter((c) => !otherFailed.has(c));
      const behind = offTarget(clusters, other.spec.release.image, outputs);
      const stopped = other.spec.onFailure === 'Stop' ? (other.spec.failedClusters ?? []) : [];
      if (behind.length > 0 || stopped.length > 0) {
        const why = behind.length > 0 ? `${clusterList(behind)} not on its release` : `${clusterList(stopped.map((c) => ({ cluster: c, parts: '' })))} failed under onFailure Stop`;
        problems.push(
          `${field}: ${waveName(moves[0])} moves while rollout ${name}, which this one waits for (after), is not complete in the previous output (${why}); move it once every cluster of ${name} runs ${releaseName(other)}`,
        );
      }
    }
  }
  return {
    rollout: record.metadata.name,
    release: spec.release,
    waves: waves.length,
    releasedWaves: spec.releasedWaves,
    moves,
    left,
    failedClusters: [...failed],
    problems,
    summary: summaryOf(moves, left, waves.length, spec.releasedWaves),
  };
}

/** `4.17.3`, or the image when the record gives no version. */
export function releaseName(record: RolloutRecord): string {
  return record.spec.release.version ?? record.spec.release.image;
}

/** `wave 2 (ring-1)`. */
function waveName(wave: { readonly wave: number; readonly name: string }): string {
  return `wave ${wave.wave} (${wave.name})`;
}

/** The clusters (of `clusters`) that do not run `image` in the previous output, with what does not. */
function offTarget(clusters: readonly string[], image: string, outputs: RolloutOutputs): { cluster: string; parts: string }[] {
  const behind: { cluster: string; parts: string }[] = [];
  for (const cluster of clusters) {
    const off = outputs.offTargetBefore(cluster, image);
    if (off === undefined || (!off.controlPlane && off.pools.length === 0)) continue;
    const pools = off.pools.length === 1 ? `pool ${off.pools[0]}` : off.pools.length > 1 ? `${off.pools.length} pools` : '';
    behind.push({ cluster, parts: off.controlPlane ? (pools ? `control plane and ${pools}` : 'control plane') : pools });
  }
  return behind;
}

/** `hub-0/clusters/a (control plane and 2 pools), hub-1/clusters/b (pool b-small) and 4 more`. */
function clusterList(behind: readonly { cluster: string; parts: string }[]): string {
  const named = behind.slice(0, NAMED).map((b) => (b.parts ? `${b.cluster} (${b.parts})` : b.cluster));
  return behind.length > NAMED ? `${named.join(', ')} and ${behind.length - NAMED} more` : andList(named);
}

function andList(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '');
}

function summaryOf(moves: readonly WaveClusters[], left: readonly WaveClusters[], waves: number, released: number): string {
  const count = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'cluster' : 'clusters'}`;
  const moved = moves.flatMap((m) => m.clusters);
  const what =
    moves.length === 0
      ? `no wave moves (${released} of ${waves} released)`
      : moves.length === 1
        ? `wave ${moves[0].wave} of ${waves} (${moves[0].name}) moves ${count(moved.length)}: ${moved.join(', ')}`
        : `waves ${andList(moves.map((m) => `${m.wave} (${m.name})`))} of ${waves} move ${count(moved.length)}: ${moved.join(', ')}`;
  const remaining = left.reduce((n, wave) => n + wave.clusters.length, 0);
  const rest =
    left.length === 0
      ? 'none left'
      : left.length === 1
        ? `${remaining.toLocaleString('en-US')} left in wave ${left[0].wave} (${left[0].name})`
        : `${remaining.toLocaleString('en-US')} left: ${left.map((wave) => `${wave.clusters.length.toLocaleString('en-US')} in wave ${wave.wave} (${wave.name})`).join(', ')}`;
  return `${what}; ${rest}`;
}
