import { RolloutOutputs, rolloutProgress } from '../release/rollout-progress';
import { ROLLOUT_RECORD_FOLDER, ROLLOUT_RECORD_KIND, RolloutRecord } from '../release/rollout-record';
import { OutputFile, OutputSnapshot, PlanInputError } from './output-snapshot';
import { PlanAction, PlannedObject, PlannedRollout } from './plan-report';

const RECORD_KEY = `${ROLLOUT_RECORD_FOLDER}|${ROLLOUT_RECORD_KIND.toLowerCase()}|`;

/** Whether an output file (by its key) is a rollout's record, which no cluster applies. */
export function isRolloutRecord(file: OutputFile): boolean {
  return file.key.startsWith(RECORD_KEY);
}

/**
 * The release rollouts the new output records, and what the commit does to each: the wave it moves,
 * the clusters it moves and those left, and why the rollout refuses it (see `rolloutProgress`).
 * @param objects the plan's changed objects, which tell what moved without parsing anything else
 * @returns the rollouts, by name, and the refusals of each moved object, by file
 */
export function planRollouts(previous: OutputSnapshot, next: OutputSnapshot, objects: readonly PlannedObject[]): { rollouts: PlannedRollout[]; refusals: Map<string, string[]> } {
  const records = new Map<string, RolloutRecord>();
  for (const file of next.files.values()) {
    if (isRolloutRecord(file)) records.set(file.key.split('|')[3], recordIn(next, file));
  }
  const outputs = new SnapshotRolloutOutputs(previous, objects);
  const rollouts: PlannedRollout[] = [];
  const refusals = new Map<string, string[]>();
  for (const name of [...records.keys()].sort()) {
    const record = records.get(name)!;
    const progress = rolloutProgress(record, records, outputs);
    const moved = new Set(progress.problems.length > 0 ? progress.moves.flatMap((m) => m.clusters) : []);
    for (const object of objects.filter((o) => o.cluster !== undefined && moved.has(o.cluster) && outputs.movesTo(o, record.spec.release.image))) {
      refusals.set(object.file, [...(refusals.get(object.file) ?? []), ...progress.problems.map((p) => `rollout ${name} refuses it: ${p}`)]);
    }
    rollouts.push({
      name,
      release: progress.release,
      waves: progress.waves,
      releasedWaves: progress.releasedWaves,
      moves: progress.moves,
      left: progress.left,
      ...(progress.failedClusters.length > 0 ? { failedClusters: progress.failedClusters } : {}),
      ...(progress.problems.length > 0 ? { refusals: progress.problems } : {}),
      summary: progress.summary,
    });
  }
  return { rollouts, refusals };
}

/** The record in `file`, checked to have the fields plan reads. */
function recordIn(snapshot: OutputSnapshot, file: OutputFile): RolloutRecord {
  const record = snapshot.object(file);
  const spec = record?.spec;
  const wellFormed =
    typeof spec?.release?.image === 'string' &&
    Number.isInteger(spec.releasedWaves) &&
    Array.isArray(spec.waves) &&
    spec.waves.every((wave: any) => typeof wave?.name === 'string' && Array.isArray(wave.clusters));
  if (!wellFormed) {
    throw new PlanInputError(
      `${snapshot.description}: ${file.path} is not a release rollout's record as hcp-cdk writes it (spec.release.image, spec.releasedWaves and spec.waves, each with a name and clusters); synthesize again`,
    );
  }
  return record;
}

/** `rollout r-4-17-3 (4.17.3): wave 2 of 3 (ring-1) moves 12 clusters: …; 450 left in wave 3 (rest)`. */
export function rolloutLine(rollout: PlannedRollout): string {
  return `rollout ${rollout.name} (${rollout.release.version ?? rollout.release.image}): ${rollout.summary}`;
}

/** What the rollout rules ask of two outputs, answered from the plan's changed objects and, for the previous output, by reading what is asked. */
class SnapshotRolloutOutputs implements RolloutOutputs {
  public readonly previousFound: boolean;
  private hostedClusters?: Map<string, OutputFile>;

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

  public offTargetBefore(cluster: string, image: string): { controlPlane: boolean; pools: string[] } | undefined {
    const file = this.hostedClusterFile(cluster);
    if (!file) return undefined;
    const hostedCluster = this.previous.object(file);
    const pools: string[] = [];
    for (const poolFile of this.previous.filesIn(file.layoutFolder, { below: true, kind: 'nodepool' })) {
      const pool = this.previous.object(poolFile);
      const ours = pool.metadata?.namespace === hostedCluster.metadata?.namespace && pool.spec?.clusterName === hostedCluster.metadata?.name;
      if (ours && pool.spec?.release?.image !== image) pools.push(pool.metadata?.name);
    }
    return { controlPlane: hostedCluster.spec?.release?.image !== image, pools };
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
