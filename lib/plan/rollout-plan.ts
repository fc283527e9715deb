import { formatVersion, Release } from '../release/release';
import { removedRollouts, RolloutOutputs, RolloutProgress, rolloutProgress } from '../release/rollout-progress';
import { isWellFormedRolloutRecord, ROLLOUT_RECORD_FOLDER, ROLLOUT_RECORD_KIND, RolloutRecord } from '../release/rollout-record';
import { UPDATE_GRAPH_RECORD_KIND, updateGraphsOfRecords } from '../release/update-graph';
import type { UpdateGraphs } from '../release/update-graphs';
import { riskSentence } from '../release/update-risk';
import { OutputFile, OutputSnapshot, PlanInputError } from './output-snapshot';
import { ChangeEffect, ClusterNote, ClusterNoteKind, PlanAction, PlannedObject, PlannedRollout, PlanUpdateGraph } from './plan-report';

const RECORDS = `${ROLLOUT_RECORD_FOLDER}|`;
const PAUSED_UNTIL = Buffer.from('pausedUntil:');
const ROLLOUT_KIND = ROLLOUT_RECORD_KIND.toLowerCase();

/** Whether an output file (by its key) is one of the records in `rollouts/` (a rollout's, an update graph's), which no cluster applies. */
export function isRolloutRecord(file: OutputFile): boolean {
  return file.key.startsWith(RECORDS);
}

/** The update graphs an output keeps in `rollouts/` (see UpdateGraph), which plan checks updates against. */
export function updateGraphsIn(snapshot: OutputSnapshot): UpdateGraphs {
  const kind = UPDATE_GRAPH_RECORD_KIND.toLowerCase();
  return updateGraphsOfRecords([...snapshot.files.values()].filter((f) => isRolloutRecord(f) && f.key.split('|')[1] === kind).map((f) => snapshot.object(f)));
}

/**
 * The release rollouts the new output records, and what the commit does to each: the wave it moves,
 * the clusters it moves and those left, and why the rollout refuses it (see `rolloutProgress`); and
 * the rollouts of the previous output it no longer records (see `removedRollouts`).
 * @param objects the plan's changed objects, which tell what moved without parsing anything else
 * @returns the rollouts, by name, and the refusals of each moved object, by file
 */
export function planRollouts(previous: OutputSnapshot, next: OutputSnapshot, objects: readonly PlannedObject[]): { rollouts: PlannedRollout[]; refusals: Map<string, string[]> } {
  const records = recordsIn(next, true);
  const previousRecords = recordsIn(previous, false);
  const outputs = new SnapshotRolloutOutputs(previous, objects);
  const rollouts: PlannedRollout[] = [];
  const refusals = new Map<string, string[]>();
  for (const name of [...records.keys()].sort()) {
    const record = records.get(name)!;
    const progress = rolloutProgress(record, records, outputs, { previous: previousRecords.get(name) });
    const moved = new Set(progress.problems.length > 0 ? progress.moves.flatMap((m) => m.clusters) : []);
    for (const object of objects.filter((o) => o.cluster !== undefined && moved.has(o.cluster) && outputs.movesTo(o, record.spec.release.image))) {
      refusals.set(object.file, [...(refusals.get(object.file) ?? []), ...progress.problems.map((p) => `rollout ${name} refuses it: ${p}`)]);
    }
    rollouts.push(plannedRollout(progress));
  }
  const removed = removedRollouts(previousRecords, records, outputs);
  for (const [name, record] of [...previousRecords].filter(([n]) => !records.has(n)).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const about = (said: readonly string[]): string[] => said.filter((s) => s.startsWith(`rollout ${name} `));
    const spec = record.spec;
    const refused = about(removed.problems);
    const warned = about(removed.warnings);
    rollouts.push({
      name,
      release: spec.release,
      waves: spec.waves.length,
      releasedWaves: spec.releasedWaves,
      moves: [],
      left: [],
      removed: true,
      ...(spec.failedClusters?.length ? { failedClusters: spec.failedClusters } : {}),
      ...(refused.length > 0 ? { refusals: refused } : {}),
      ...(warned.length > 0 ? { warnings: warned } : {}),
      summary: `removed from the output, with ${spec.releasedWaves} of ${spec.waves.length} waves released`,
    });
  }
  return { rollouts, refusals };
}

/** What plan says of one rollout, from its progress. */
function plannedRollout(progress: RolloutProgress): PlannedRollout {
  const failed = progress.failures.filter((f) => !f.timedOut);
  const timedOut = progress.failures.filter((f) => f.timedOut);
  const notes = (list: readonly { cluster: string; wave: number; reason?: string }[]) => list.map((n) => ({ cluster: n.cluster, wave: n.wave, ...(n.reason ? { reason: n.reason } : {}) }));
  // Field by field, not a spread of the progress: the JSON keeps its key order (summary last).
  return {
    name: progress.rollout,
    release: progress.release,
    waves: progress.waves,
    releasedWaves: progress.releasedWaves,
    moves: progress.moves,
    left: progress.left,
    ...(progress.failedClusters.length > 0 ? { failedClusters: progress.failedClusters } : {}),
    ...(failed.length > 0 ? { failed: notes(failed) } : {}),
    ...(timedOut.length > 0 ? { timedOut: notes(timedOut) } : {}),
    ...(progress.held.length > 0 ? { held: notes(progress.held) } : {}),
    ...(progress.paused.length > 0 ? { paused: notes(progress.paused) } : {}),
    ...(progress.problems.length > 0 ? { refusals: progress.problems } : {}),
    summary: progress.summary,
  };
}

/**
 * What plan says of the control planes' updates and the update graph: per cluster, the conditional
 * edge an update takes and that edge's risks, when the new output keeps the graph of the cluster's
 * channel (an update without an edge is refused with the other refusals); for the plan, the updates
 * no graph checked, by channel, which follow version arithmetic.
 * @param objects the plan's changed objects
 * @returns the notes, and the summary when anything updates a control plane or the output keeps a graph
 */
export function updateGraphFindings(next: OutputSnapshot, objects: readonly PlannedObject[], graphs: UpdateGraphs): { notes: ClusterNote[]; summary?: PlanUpdateGraph } {
  const upgrades = objects.filter((o) => o.kind === 'HostedCluster' && o.cluster !== undefined && o.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE));
  const notes: ClusterNote[] = [];
  const unchecked = new Map<string, string[]>();
  const hostedClusters = upgrades.length === 0 ? new Map<string, OutputFile>() : new Map([...next.files.values()].filter((f) => f.key.split('|')[1] === 'hostedcluster').map((f) => [f.path, f]));
  for (const object of upgrades) {
    const details = object.effects.find((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE)!.details ?? {};
    const from = Release.fromVersion(String(details.from)).version;
    const to = Release.fromVersion(String(details.to)).version;
    const file = hostedClusters.get(object.file);
    if (!from || !to || !file) continue;
    const channel: string | undefined = next.object(file).spec?.channel;
    const graph = graphs.forChannel(channel);
    if (!graph) {
      unchecked.set(channel ?? '', [...(unchecked.get(channel ?? '') ?? []), object.cluster!]);
      continue;
    }
    const risks = graph.path(from, to).risks;
    if (risks) {
      notes.push({
        cluster: object.cluster!,
        kind: ClusterNoteKind.CONDITIONAL_UPDATE,
        note: `the update from ${formatVersion(from)} to ${formatVersion(to)} is a conditional edge of ${graph.channel}: risk ${risks.map(riskSentence).join('; risk ')}; make sure the risks do not apply to the cluster`,
      });
    }
  }
  if (unchecked.size === 0 && graphs.channels.length === 0) return { notes };
  const byChannel = [...unchecked].sort(([a], [b]) => (a < b ? -1 : 1)).map(([channel, clusters]) => ({ ...(channel ? { channel } : {}), clusters: clusters.sort() }));
  const count = byChannel.reduce((n, c) => n + c.clusters.length, 0);
  const checked = graphs.channels.length > 0 ? `update graphs of ${graphs.channels.join(', ')} in the output` : 'no update graph in the output';
  const summary =
    count === 0
      ? `${checked}; every control-plane update it could check follows them`
      : `${checked}; not checked against a graph (version arithmetic only): ${count} control-plane ${count === 1 ? 'update' : 'updates'} on ${byChannel.map((c) => (c.channel ? `channel ${c.channel}` : 'no channel')).join(', ')} (see UpdateGraph)`;
  return { notes, summary: { graphs: graphs.channels, ...(byChannel.length > 0 ? { unchecked: byChannel } : {}), summary } };
}

/** The records of release rollouts in an output, by name; in the new output, one that is not as hcp-cdk writes it is an error. */
export function recordsIn(snapshot: OutputSnapshot, strict: boolean): Map<string, RolloutRecord> {
  const records = new Map<string, RolloutRecord>();
  for (const file of snapshot.files.values()) {
    if (!isRolloutRecord(file) || file.key.split('|')[1] !== ROLLOUT_KIND) continue;
    const record = snapshot.object(file);
    if (isWellFormedRolloutRecord(record)) records.set(record.metadata.name, record);
    else if (strict) {
      throw new PlanInputError(
        `${snapshot.description}: ${file.path} is not a release rollout's record as hcp-cdk writes it (spec.release.image, spec.releasedWaves and spec.waves, each with a name and clusters); synthesize again`,
      );
    }
  }
  return records;
}

/** `rollout r-4-17-3 (4.17.3): wave 2 of 3 (ring-1) moves 12 clusters: …; 450 left in wave 3 (rest)`. */
export function rolloutLine(rollout: PlannedRollout): string {
  return `rollout ${rollout.name} (${rollout.release.version ?? rollout.release.image}): ${rollout.summary}`;
}

/** What the rollout rules ask of two outputs, answered from the plan's changed objects and, for the previous output, by reading what is asked. */
class SnapshotRolloutOutputs implements RolloutOutputs {
  public readonly previousFound: boolean;
  private hostedClusters?: Map<string, OutputFile>;
  /** What the previous output pauses, by cluster: `pausedUntil` by part. */
  private paused?: Map<string, Map<string, string>>;

  constructor(
    private readonly previous: OutputSnapshot,
    private readonly objects: readonly PlannedObject[],
  ) {
    this.previousFound = previous.files.size > 0;
  }

  /** Whether a planned object's change moves its release to `image`. */
  public movesTo(object: PlannedObject, image: string): boolean {
    if (object.action !== PlanAction.UPDATE || (object.kind !== 'HostedCluster' && object.kind !== 'NodePool')) return false;
    const change = object.changes.find((c) => c.path === 'spec.release.image');
    return change !== undefined && 'after' in change && change.after === image && change.before !== image;
  }

  public movedTo(image: string): ReadonlySet<string> {
    return new Set(this.objects.filter((o) => o.cluster !== undefined && this.movesTo(o, image)).map((o) => o.cluster!));
  }

  public movedFrom(image: string): ReadonlyMap<string, string | undefined> {
    const moved = new Map<string, string | undefined>();
    for (const object of this.objects) {
      if (object.kind !== 'HostedCluster' || object.action !== PlanAction.UPDATE || object.cluster === undefined) continue;
      const change = object.changes.find((c) => c.path === 'spec.release.image');
      if (!change || !('before' in change) || change.before !== image || !('after' in change) || change.after === image) continue;
      const to = object.effects.find((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE)?.details?.to;
      moved.set(object.cluster, typeof to === 'string' && Release.fromVersion(to).version ? to : undefined);
    }
    return moved;
  }

  public pausedBefore(cluster: string): ReadonlyMap<string, string> {
    if (this.paused === undefined) {
      // One pass over the previous output's HostedClusters and NodePools, parsing only those that say
      // pausedUntil: a fleet at its last waves has thousands of released clusters to ask about.
      this.paused = new Map();
      for (const file of this.previous.files.values()) {
        const [, kind, namespace, name] = file.key.split('|');
        if ((kind !== 'hostedcluster' && kind !== 'nodepool') || !file.bytes.includes(PAUSED_UNTIL)) continue;
        const object = this.previous.object(file);
        const until = object.spec?.pausedUntil;
        if (typeof until !== 'string') continue;
        const id = `${file.path.split('/')[0]}/${namespace}/${kind === 'hostedcluster' ? name : object.spec?.clusterName}`;
        const parts = this.paused.get(id) ?? new Map<string, string>();
        parts.set(kind === 'hostedcluster' ? 'control plane' : `pool ${name}`, until);
        this.paused.set(id, parts);
      }
    }
    return this.paused.get(cluster) ?? new Map();
  }

  public offTargetBefore(cluster: string, image: string): { controlPlane: boolean; pools: string[] } | undefined {
    const file = this.hostedClusterFile(cluster);
    if (!file) return undefined;
    const hostedCluster = this.previous.object(file);
    const pools = this.poolsOf(file, hostedCluster)
      .filter((pool) => pool.spec?.release?.image !== image)
      .map((pool) => pool.metadata?.name);
    return { controlPlane: hostedCluster.spec?.release?.image !== image, pools };
  }

  /** The previous output's NodePools of a HostedCluster, in its layout folder and below. */
  private poolsOf(file: OutputFile, hostedCluster: any): any[] {
    return this.previous
      .filesIn(file.layoutFolder, { below: true, kind: 'nodepool' })
      .map((poolFile) => this.previous.object(poolFile))
      .filter((pool) => belongsTo(pool, hostedCluster));
  }

  /** The previous output's HostedCluster file of `<management folder>/<namespace>/<name>`, found by file names alone. */
  private hostedClusterFile(cluster: string): OutputFile | undefined {
    if (this.hostedClusters === undefined) {
      this.hostedClusters = new Map();
      for (const file of this.previous.files.values()) {
        const [, kind, namespace, name] = file.key.split('|');
        if (kind === 'hostedcluster') this.hostedClusters.set(`${file.path.split('/')[0]}/${namespace}/${name}`, file);
      }
    }
    return this.hostedClusters.get(cluster);
  }
}

function belongsTo(pool: any, hostedCluster: any): boolean {
  return pool.metadata?.namespace === hostedCluster.metadata?.namespace && pool.spec?.clusterName === hostedCluster.metadata?.name;
}
