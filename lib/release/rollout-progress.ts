import { namedList } from './named-list';
import { formatVersion, Release } from './release';
import type { RolloutRecord, RolloutRecordWave } from './rollout-record';

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
  /**
   * What of a cluster is paused in the previous output (`spec.pausedUntil` of its HostedCluster or a
   * NodePool): `pausedUntil` values by part (`control plane`, `pool <name>`); empty when nothing is.
   * @default - pausing is not known: nothing holds a wave for it
   */
  pausedBefore?(cluster: string): ReadonlyMap<string, string>;
  /**
   * The clusters whose HostedCluster ran `image` in the previous output and runs another release in
   * the new one, with the OpenShift version it runs now (undefined when unknown).
   * @default - not known: clusters leaving a released wave are not explained
   */
  movedFrom?(image: string): ReadonlyMap<string, string | undefined>;
}

/** Options of `rolloutProgress`. */
export interface RolloutProgressOptions {
  /**
   * The rollout's record in the previous output: released waves are neither taken back, removed nor
   * redefined, and a rollout in flight is retargeted one way (see ReleaseRollout).
   * @default - none: the rollout is new
   */
  readonly previous?: RolloutRecord;
  /** The time a `pausedUntil` time is compared with. @default - now */
  readonly now?: Date;
}

/** A cluster something is said of, with why. */
export interface RolloutClusterNote {
  /** The cluster, as plan names it. */
  readonly cluster: string;
  /** Its wave's place, from 1; 0 for a failed or timed-out cluster of the record that is in none of its waves. */
  readonly wave: number;
  /** The sentence: a failure's reason, what is paused, what is held. */
  readonly reason?: string;
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

/**
 * What a commit does to one rollout. Plan's JSON takes `release`, `waves`, `releasedWaves`, `moves`,
 * `left` and `summary` as they are declared here (see PlannedRollout): a change to them is a change
 * to that versioned format.
 */
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
  /** Clusters whose upgrade failed, as the record says (timed out ones included). */
  readonly failedClusters: readonly string[];
  /** The failed clusters with their wave and reason, and those that timed out. */
  readonly failures: readonly (RolloutClusterNote & {
    /** Whether it timed out rather than failed. */
    readonly timedOut?: boolean;
  })[];
  /** Clusters of released waves whose pools the wave holds on the release before (holdNodePools) in the new output. */
  readonly held: readonly RolloutClusterNote[];
  /** Clusters of released waves paused in the previous output (what is paused, until when). */
  readonly paused: readonly RolloutClusterNote[];
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
export function rolloutProgress(record: RolloutRecord, records: ReadonlyMap<string, RolloutRecord>, outputs: RolloutOutputs, options: RolloutProgressOptions = {}): RolloutProgress {
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
  const paused = outputs.previousFound ? pausedMembers(record, outputs, options.now ?? new Date()) : [];
  const pinned = options.previous && outputs.previousFound ? pinProblems(record, options.previous, outputs) : { problems: [], retargetRefused: false };
  problems.push(...pinned.problems);
  // A retarget done otherwise than the one way moves every released wave at once: its own problem says why.
  if (moves.length > 1 && !pinned.retargetRefused) {
    problems.push(`${field}: ${moves.length} waves move in one commit, ${andList(moves.map(waveName))}; a commit moves one wave: release them one commit at a time`);
  }
  for (const move of pinned.retargetRefused ? [] : moves) {
    const over = overBudget(record, move.wave - 1);
    if (over) {
      problems.push(`${field}: ${waveName(move)} moves while ${over}; take clusters out of failedClusters once they run well again, or raise the budget`);
      break;
    }
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
      const pausedHere = spec.onPaused === 'Continue' ? [] : paused.filter((p) => p.wave === earlier.wave && !failed.has(p.cluster));
      if (pausedHere.length > 0) {
        problems.push(
          `${field}: ${waveName(move)} moves while ${waveName(earlier)} has paused clusters in the previous output (${clusterList(pausedHere.map((p) => ({ cluster: p.cluster, parts: p.reason ?? '' })))}), ` +
            `which HyperShift does not reconcile, so they may not run ${releaseName(record)} yet; unpause them and move ${waveName(move)} once they do, or set onPaused to Continue`,
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
    failures: failuresOf(record),
    held: heldMembers(record, outputs),
    paused,
    problems,
    summary: summaryOf(moves, left, waves.length, spec.releasedWaves),
  };
}

/**
 * What removing rollouts from the output does, for the rollouts of the previous output the new one
 * no longer records: a warning when one recorded failed clusters (their record goes with it), and a
 * problem for each cluster of its released waves that goes back to an older release, with that cause.
 * @returns `problems` and `warnings`, each starting with `rollout <name>`
 */
export function removedRollouts(
  previousRecords: ReadonlyMap<string, RolloutRecord>,
  records: ReadonlyMap<string, RolloutRecord>,
  outputs: RolloutOutputs,
): {
  /** Clusters of removed rollouts that go back, with the cause. */
  readonly problems: readonly string[];
  /** Removed rollouts that recorded failures. */
  readonly warnings: readonly string[];
} {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const [name, previous] of [...previousRecords].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (records.has(name)) continue;
    const failed = previous.spec.failedClusters ?? [];
    if (failed.length > 0) {
      const reasons = previous.spec.failureReasons ?? {};
      const listed = clusterList(failed.map((c) => ({ cluster: c, parts: reasons[c] ?? '' })));
      warnings.push(
        `rollout ${name} leaves the output while it records ${failed.length === 1 ? 'a failed cluster' : `${failed.length} failed clusters`} (${listed}); ` +
          'the record of their failure goes with it: make sure they run well, or keep the rollout until they do',
      );
    }
    const released = releasedClusters(previous);
    const back = wentBack(previous, outputs, (c) => released.has(c));
    if (back.length > 0) {
      problems.push(
        `rollout ${name} is removed from the output, and ${back.length === 1 ? 'a cluster' : `${back.length} clusters`} of its released waves ${goesBack(back)}: ` +
          `OpenShift supports no downgrade; before removing a rollout, give its clusters its release (${releaseName(previous)}) as their own`,
      );
    }
  }
  return { problems, warnings };
}

/**
 * Released waves stay as the previous output released them: neither taken back (releasedWaves lower),
 * removed, renamed, moved, nor picking their clusters otherwise; a rollout in flight is retargeted
 * one way (a new release with releasedWaves 0); and a cluster of a released wave that goes back to
 * an older release is named with its cause.
 */
function pinProblems(record: RolloutRecord, previous: RolloutRecord, outputs: RolloutOutputs): { problems: string[]; retargetRefused: boolean } {
  const spec = record.spec;
  const before = previous.spec;
  const problems: string[] = [];
  const pinned = Math.max(before.releasedWaves, before.previousTarget?.releasedWaves ?? 0);
  const target = releaseName(previous);
  before.waves.slice(0, pinned).forEach((wave, i) => {
    const now = spec.waves[i];
    const place = spec.waves.findIndex((w) => w.name === wave.name);
    const was = `wave ${i + 1} (${wave.name})`;
    const runs = `its ${wave.clusters.length === 1 ? 'cluster runs' : `${wave.clusters.length} clusters run`} ${i < before.releasedWaves ? target : releaseOf(before.previousTarget!)}`;
    if (place < 0) problems.push(`waves: ${was} is released in the previous output and ${runs}; a released wave cannot be removed or renamed: put it back as it was`);
    else if (place !== i) problems.push(`waves: ${was} is released in the previous output and is now wave ${place + 1}; a released wave keeps its place: put the waves back in their order`);
    else if (wave.selection !== undefined && now.selection !== undefined && redefines(wave.selection, now.selection)) {
      problems.push(
        `waves[${i}] (${now.selection}): ${was} is released in the previous output as ${wave.selection}, and ${runs}; a released wave's clusters are fixed by the output's record: give it back its definition`,
      );
    }
  });
  const retargeted = spec.release.image !== before.release.image && pinned > 0;
  const retargetRefused = retargeted && before.releasedWaves > 0 && (before.previousTarget !== undefined || spec.releasedWaves > 0);
  if (retargeted && before.previousTarget && before.releasedWaves > 0) {
    problems.push(
      `release (${releaseName(record)}): the rollout was retargeted from ${releaseOf(before.previousTarget)} to ${target} and has released ${before.releasedWaves} of its waves again since; ` +
        `finish with ${target}, or retarget once the ${before.previousTarget.releasedWaves} waves that ran ${releaseOf(before.previousTarget)} are released again`,
    );
  } else if (retargeted && before.releasedWaves > 0 && spec.releasedWaves > 0) {
    problems.push(
      `release (${releaseName(record)}) replaces ${target} while ${before.releasedWaves} ${before.releasedWaves === 1 ? 'wave is' : 'waves are'} released in the previous output: to retarget a rollout in flight, ` +
        `set releasedWaves to 0 in the same commit; the released waves keep ${target} until each is released again, one commit at a time`,
    );
  } else if (!retargeted && spec.releasedWaves < before.releasedWaves) {
    problems.push(
      `releasedWaves (${spec.releasedWaves}) is below the ${before.releasedWaves} waves released in the previous output: a released wave cannot be taken back, ` +
        `its clusters run ${target} and OpenShift supports no downgrade; to stop the rollout, leave releasedWaves as it is (onFailure Stop holds the next waves while a cluster is listed as failed)`,
    );
  }
  const released = releasedClusters(previous);
  const waveNow = new Map(spec.waves.flatMap((wave, i) => wave.clusters.map((c) => [c, i] as const)));
  const back = wentBack(previous, outputs, (c) => released.has(c));
  const left = back.filter((b) => !waveNow.has(b.cluster));
  const unreleased = back.filter((b) => waveNow.has(b.cluster) && waveNow.get(b.cluster)! >= spec.releasedWaves);
  const they = (n: number, one: string, many: string): string => (n === 1 ? one : many);
  if (left.length > 0) {
    problems.push(
      `${they(left.length, 'a cluster', `${left.length} clusters`)} of waves released in the previous output ${goesBack(left)} because ${they(left.length, 'it is', 'they are')} no longer in the rollout ` +
        `(its clusterLabels, their labels or their rollout prop changed); OpenShift supports no downgrade: keep ${they(left.length, 'it', 'them')} in the rollout, or give ${they(left.length, 'it', 'them')} ${target} as ${they(left.length, 'its', 'their')} own release`,
    );
  }
  // A lower releasedWaves says so above; otherwise the waves placed a released cluster anew (no record was read when the rollout was made).
  if (unreleased.length > 0 && spec.releasedWaves >= before.releasedWaves) {
    const recordedIn = (c: string): number => before.waves.findIndex((w) => w.clusters.includes(c));
    const now = [...new Set(unreleased.map((b) => waveNow.get(b.cluster)!))].map((i) => `wave ${i + 1} (${spec.waves[i].name})`);
    const was = [...new Set(unreleased.map((b) => recordedIn(b.cluster)))].map((i) => `wave ${i + 1} (${before.waves[i].name})`);
    problems.push(
      `${they(unreleased.length, 'a cluster', `${unreleased.length} clusters`)} of waves released in the previous output ${goesBack(unreleased)} because the rollout now puts ${they(unreleased.length, 'it', 'them')} in ${andList(now)}, not released, ` +
        `where the previous output's record released ${they(unreleased.length, 'it', 'them')} in ${andList(was)}: the waves were placed without that record (a cluster added before a batch's clusters moves the batch); ` +
        'in an HcpApp that compares with its previous output the record fixes them, elsewhere give the rollout previousRecord',
    );
  }
  return { problems, retargetRefused };
}

/** Whether a released wave's definition `now` picks otherwise than `was`: another kind, batch size or labels; a list of names may only lose names (of clusters gone). */
function redefines(was: string, now: string): boolean {
  const kindOf = (s: string): string => s.split(' ')[0];
  if (kindOf(was) !== kindOf(now)) return true;
  if (kindOf(was) !== 'canaries' && kindOf(was) !== 'clusters') return was !== now;
  const names = (s: string): string[] => {
    try {
      return JSON.parse(s.slice(s.indexOf(' ') + 1));
    } catch {
      return [];
    }
  };
  const before = new Set(names(was));
  return names(now).some((name) => !before.has(name));
}

/** The clusters of the waves a record released, with the previous target's. */
function releasedClusters(record: RolloutRecord): Set<string> {
  const count = Math.max(record.spec.releasedWaves, record.spec.previousTarget?.releasedWaves ?? 0);
  return new Set(record.spec.waves.slice(0, count).flatMap((wave) => wave.clusters));
}

/** The clusters `which` keeps that ran the record's release in the previous output and run an older version in the new one. */
function wentBack(record: RolloutRecord, outputs: RolloutOutputs, which: (cluster: string) => boolean): { cluster: string; from: string; to: string }[] {
  const target = record.spec.release.version && Release.fromVersion(record.spec.release.version).version;
  if (!outputs.movedFrom || !target) return [];
  const back: { cluster: string; from: string; to: string }[] = [];
  for (const [cluster, to] of outputs.movedFrom(record.spec.release.image)) {
    const version = to === undefined ? undefined : Release.fromVersion(to).version;
    if (which(cluster) && version && Release.compareVersions(version, target) < 0) back.push({ cluster, from: formatVersion(target), to: formatVersion(version) });
  }
  return back.sort((a, b) => (a.cluster < b.cluster ? -1 : 1));
}

/** `goes back from 4.17.12 to 4.16.20 (hub/clusters/a)`, or `go back … (a, b and 3 more)`. */
function goesBack(back: readonly { cluster: string; from: string; to: string }[]): string {
  const pairs = [...new Set(back.map((b) => `from ${b.from} to ${b.to}`))];
  return `${back.length === 1 ? 'goes' : 'go'} back ${pairs.join(', ')} (${clusterList(back.map((b) => ({ cluster: b.cluster, parts: '' })))})`;
}

/**
 * The failure budget a record's failed clusters exceed before wave `released` + 1 moves, said as a
 * sentence; undefined within it (or under Stop, which has none). A percentage is of the clusters of
 * the waves released before that wave.
 */
function overBudget(record: RolloutRecord, released: number): string | undefined {
  const spec = record.spec;
  const failed = spec.failedClusters?.length ?? 0;
  if (spec.onFailure === 'Stop' || failed === 0) return undefined;
  if (spec.maxFailedClusters !== undefined && failed > spec.maxFailedClusters) {
    return `${failed} clusters failed (failedClusters), over the ${spec.maxFailedClusters} maxFailedClusters allows`;
  }
  const clusters = spec.waves.slice(0, released).reduce((n, wave) => n + wave.clusters.length, 0);
  if (spec.maxFailedPercent !== undefined && clusters > 0 && (failed * 100) / clusters > spec.maxFailedPercent) {
    return `${failed} of the ${clusters} clusters of the waves released before it failed (failedClusters), over the ${spec.maxFailedPercent}% maxFailedPercent allows`;
  }
  return undefined;
}

/** The failed clusters of a record, with their wave and reason. */
function failuresOf(record: RolloutRecord): (RolloutClusterNote & { timedOut?: boolean })[] {
  const reasons = record.spec.failureReasons ?? {};
  const timedOut = new Set(record.spec.timedOutClusters ?? []);
  return (record.spec.failedClusters ?? []).map((cluster) => ({
    cluster,
    wave: waveOf(record, cluster),
    ...(reasons[cluster] ? { reason: reasons[cluster] } : {}),
    ...(timedOut.has(cluster) ? { timedOut: true } : {}),
  }));
}

/** Clusters of the released waves that hold their pools, with the pools still off the release in the previous output. */
function heldMembers(record: RolloutRecord, outputs: RolloutOutputs): RolloutClusterNote[] {
  const held: RolloutClusterNote[] = [];
  record.spec.waves.slice(0, record.spec.releasedWaves).forEach((wave: RolloutRecordWave, i) => {
    if (!wave.holdNodePools) return;
    for (const cluster of wave.clusters) {
      const off = outputs.previousFound ? outputs.offTargetBefore(cluster, record.spec.release.image) : undefined;
      const pools = off?.pools ?? [];
      held.push({ cluster, wave: i + 1, reason: pools.length > 0 ? `pools ${pools.join(', ')} held on the release before` : 'pools held on the release before' });
    }
  });
  return held;
}

/** Clusters of the released waves paused in the previous output at `now`, with what is paused. */
function pausedMembers(record: RolloutRecord, outputs: RolloutOutputs, now: Date): RolloutClusterNote[] {
  if (!outputs.pausedBefore) return [];
  const paused: RolloutClusterNote[] = [];
  record.spec.waves.slice(0, record.spec.releasedWaves).forEach((wave, i) => {
    for (const cluster of wave.clusters) {
      const parts = [...outputs.pausedBefore!(cluster)].filter(([, until]) => until === 'true' || !(Date.parse(until) <= now.getTime()));
      if (parts.length === 0) continue;
      paused.push({ cluster, wave: i + 1, reason: parts.map(([part, until]) => `${part} paused ${until === 'true' ? 'indefinitely' : `until ${until}`}`).join(', ') });
    }
  });
  return paused;
}

/** The wave (from 1) a record puts a cluster in; 0 when none. */
function waveOf(record: RolloutRecord, cluster: string): number {
  return record.spec.waves.findIndex((wave) => wave.clusters.includes(cluster)) + 1;
}

/** `4.17.3`, or the image, of a previous target. */
function releaseOf(target: { readonly image: string; readonly version?: string }): string {
  return target.version ?? target.image;
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
  return namedList(
    behind.map((b) => (b.parts ? `${b.cluster} (${b.parts})` : b.cluster)),
    NAMED,
  );
}

function andList(items: readonly string[]): string {
  return namedList(items, Infinity);
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
