import { rfc3339Seconds } from '../../core/formats';
import { ControlPlaneRolloutState, RolloutAdvanceDecision, RolloutAdvanceOutcome, RolloutMemberStatus, RolloutMemberVerdict } from '../../release/rollout-advance';
import { DEFAULT_WAVE_TIMEOUT_MINUTES, ROLLOUT_RECORD_FOLDER, RolloutRecord } from '../../release/rollout-record';
import { hostedClusterStatus } from '../../status/hosted-cluster-status';
import { nodePoolStatus } from '../../status/node-pool-status';
import { HyperShiftStatus, statusToken } from '../../status/status-report';
import { OutputSnapshot, PlanInputError } from '../output-snapshot';
import { recordsIn } from '../rollout-plan';
import { checkHubNames } from './hub-connections';
import { HubRead, LiveClusterReadOptions, LiveClusters, readLiveClusters } from './live-clusters';
import { liveDecisions, unreadHubs } from './live-decisions';

/** The format version of `hcp-cdk rollout status --json`: fields are only added within a version. */
export const ROLLOUT_STATUS_SCHEMA_VERSION = 'hcp-cdk.io/rollout-status/v1';

/** Where a cluster of a rollout is. */
export enum RolloutClusterState {
  /** Its wave is not released: it runs what it ran. */
  PENDING = 'pending',
  /** Its wave is released and its control plane does not run the rollout's release yet (not started, updating, or not Available). */
  CONTROL_PLANE_UPGRADING = 'control-plane-upgrading',
  /** Its control plane runs the release; a pool does not yet, or is not Ready. */
  POOLS_ROLLING = 'pools-rolling',
  /** The control plane Completed and every pool Ready at the release. */
  DONE = 'done',
  /** HyperShift refuses, blocks or reports degraded its HostedCluster or a pool (`reason` says which, with the condition), or the rollout records it failed. */
  FAILED = 'failed',
  /** Its HostedCluster or a pool is paused (`spec.pausedUntil`). */
  PAUSED = 'paused',
  /** Still upgrading past its wave's timeout, or recorded as timed out. */
  TIMED_OUT = 'timed-out',
  /** Its control plane is done and its wave holds its pools on the release before (holdNodePools). */
  HELD = 'held',
  /** Its wave is released and its management cluster holds no HostedCluster of that name. */
  NOT_FOUND = 'not-found',
  /** Its management cluster could not be read. */
  UNREAD = 'unread',
}

/** A part of a cluster as read: its version and hcp-cdk's reading of its status. */
export interface RolloutStatusPart {
  /** The NodePool's name (absent for the control plane). @default - the control plane */
  readonly name?: string;
  /** The version it runs (a control plane: the newest Completed history entry; a pool: status.version). @default - none yet */
  readonly version?: string;
  /** hcp-cdk's model: `state` or `state/progress` (see hostedClusterStatus, nodePoolStatus). */
  readonly model: string;
  /** The model's one line, with HyperShift's condition when one decided it. */
  readonly summary: string;
}

/** One cluster of a rollout. */
export interface RolloutStatusCluster {
  /** `<management folder>/<namespace>/<name>`. */
  readonly cluster: string;
  /** Where it is. */
  readonly state: RolloutClusterState;
  /** Why, for every state but done and pending. @default - none */
  readonly reason?: string;
  /** Whether the failure (or timeout) is the one the rollout's record lists, not one found now. @default false */
  readonly recorded?: boolean;
  /** Its control plane, when read. @default - not read (its management cluster was not read, or holds no such cluster) */
  readonly controlPlane?: RolloutStatusPart;
  /** Its NodePools, when read. @default - not read */
  readonly nodePools?: readonly RolloutStatusPart[];
}

/** One wave of a rollout. */
export interface RolloutStatusWave {
  /** Its name. */
  readonly name: string;
  /** Its place, from 1. */
  readonly number: number;
  /** Whether the output releases it. */
  readonly released: boolean;
  /** When it was released, as the state file records it. @default - not known */
  readonly releasedAt?: string;
  /** When its unfinished clusters time out (releasedAt plus waveTimeoutMinutes), while some are. @default - none */
  readonly timesOutAt?: string;
  /** Whether it holds its pools on the release before. @default false */
  readonly holdNodePools?: boolean;
  /** How many of its clusters are in each state. */
  readonly counts: Readonly<Partial<Record<RolloutClusterState, number>>>;
  /** Its clusters, in the record's order. */
  readonly clusters: readonly RolloutStatusCluster[];
}

/** What `rollout advance` would decide now. */
export interface RolloutStatusNext {
  /** The outcome. */
  readonly outcome: RolloutAdvanceOutcome;
  /** Its exit code. */
  readonly exitCode: number;
  /** One line. */
  readonly summary: string;
  /** Why not (wait, blocked). */
  readonly reasons: readonly string[];
}

/** One rollout. */
export interface RolloutStatus {
  /** Its name. */
  readonly name: string;
  /** Its release. */
  readonly release: {
    /** The release image. */
    readonly image: string;
    /** Its OpenShift version, when known. */
    readonly version?: string;
  };
  /** How many waves the output releases. */
  readonly releasedWaves: number;
  /** `Continue` or `Stop`. */
  readonly onFailure: string;
  /** `Hold` or `Continue`. */
  readonly onPaused: string;
  /** A wave's timeout. */
  readonly waveTimeoutMinutes: number;
  /** Its state file, relative to the output directory. @default - none */
  readonly stateFile?: string;
  /** How many of its clusters are in each state. */
  readonly counts: Readonly<Partial<Record<RolloutClusterState, number>>>;
  /** What `rollout advance` would decide now, with the state the output records. @default - undecided (see `undecided`) */
  readonly next?: RolloutStatusNext;
  /** Why there is no decision: a management cluster of its released waves not read. @default - decided */
  readonly undecided?: string;
  /** Its waves. */
  readonly waves: readonly RolloutStatusWave[];
}

/** What `hcp-cdk rollout status` reports. */
export interface RolloutStatusReport {
  /** `hcp-cdk.io/rollout-status/v1`. */
  readonly schemaVersion: typeof ROLLOUT_STATUS_SCHEMA_VERSION;
  /** When the clusters were read (RFC 3339, UTC). */
  readonly time: string;
  /** The output whose records were read. */
  readonly output: string;
  /** Each management cluster, in folder order. */
  readonly hubs: readonly HubRead[];
  /** Each rollout, in name order. */
  readonly rollouts: readonly RolloutStatus[];
}

/** Options of `readRolloutStatus`. */
export interface RolloutStatusOptions extends LiveClusterReadOptions {
  /**
   * The output directory whose records (`rollouts/`) say which clusters are in which wave: the one
   * the management clusters run.
   * @default 'dist'
   */
  readonly output?: string;
  /**
   * The rollouts to report, by name.
   * @default - every rollout the output records
   */
  readonly rollouts?: readonly string[];
  /**
   * The time timeouts and pauses are measured against.
   * @default - now
   */
  readonly now?: Date;
}

/**
 * Where each rollout the output records stands on the live management clusters (`hcp-cdk rollout status`):
 * per rollout, wave and cluster, read through hcp-cdk's status model, and what `rollout advance`
 * would decide. Reads every cluster of the rollouts by list (see readLiveClusters). Rejects with a
 * PlanInputError when the output cannot be read; a management cluster that cannot be read is in
 * `hubs` with its error, and its clusters are `unread`.
 */
export async function readRolloutStatus(options: RolloutStatusOptions = {}): Promise<RolloutStatusReport> {
  const output = options.output ?? 'dist';
  const records = selectedRecords(readRolloutRecords(output), options.rollouts, output);
  const clusters = [...records.values()].flatMap((r) => r.spec.waves.flatMap((w) => w.clusters));
  const spans = managementFolders(clusters);
  checkHubNames(options, spans);
  const live = await readLiveClusters(clusters, { ...options, spans });
  return rolloutStatusReport({ output, records, live, now: options.now ?? new Date() });
}

/** The management folders of clusters named `<management folder>/<namespace>/<name>`, sorted. */
export function managementFolders(clusters: readonly string[]): string[] {
  return [...new Set(clusters.map((c) => c.split('/')[0]))].sort();
}

/** The rollout records of an output directory (its `rollouts/` folder alone is read); a PlanInputError when it records none. */
export function readRolloutRecords(output: string): Map<string, RolloutRecord> {
  const snapshot = OutputSnapshot.fromDirectory(output, { folder: ROLLOUT_RECORD_FOLDER });
  const records = recordsIn(snapshot, true);
  if (records.size === 0)
    throw new PlanInputError(`${output} records no release rollout (no ${ROLLOUT_RECORD_FOLDER}/*-releaserollout-*.yaml): give the output directory of an app with a ReleaseRollout`);
  return records;
}

/** The records named, all when none is; a PlanInputError naming the rollouts there are for a name the output does not record. */
export function selectedRecords(records: ReadonlyMap<string, RolloutRecord>, names: readonly string[] | undefined, output: string): Map<string, RolloutRecord> {
  if (names === undefined || names.length === 0) return new Map(records);
  const unknown = names.filter((n) => !records.has(n));
  if (unknown.length > 0) throw new PlanInputError(`${output} records no rollout ${unknown.join(', ')} (it records ${[...records.keys()].sort().join(', ')})`);
  // The rollouts they wait for are decided too: `after` needs their outcome.
  const selected = new Map<string, RolloutRecord>();
  const add = (name: string): void => {
    const record = records.get(name);
    if (!record || selected.has(name)) return;
    selected.set(name, record);
    for (const other of record.spec.after ?? []) add(other);
  };
  for (const name of names) add(name);
  return selected;
}

/** The report from records and what was read (pure: the reading is readRolloutStatus's). */
export function rolloutStatusReport(input: {
  /** The output directory, for the report. */
  readonly output: string;
  /** The rollouts to report. */
  readonly records: ReadonlyMap<string, RolloutRecord>;
  /** What was read. */
  readonly live: LiveClusters;
  /** The time of the read. */
  readonly now: Date;
}): RolloutStatusReport {
  const { decisions, undecided, members } = liveDecisions(input.records, input.live, input.now);
  const unread = unreadHubs(input.live);
  const rollouts = [...input.records.values()]
    .sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))
    .map((record) => rolloutStatus(record, decisions.get(record.metadata.name), undecided.get(record.metadata.name), input.live, unread, members, input.now));
  return { schemaVersion: ROLLOUT_STATUS_SCHEMA_VERSION, time: rfc3339Seconds(input.now), output: input.output, hubs: input.live.hubs, rollouts };
}

function rolloutStatus(
  record: RolloutRecord,
  decision: RolloutAdvanceDecision | undefined,
  undecided: string | undefined,
  live: LiveClusters,
  unread: ReadonlyMap<string, string>,
  members: ReadonlyMap<string, RolloutMemberStatus>,
  now: Date,
): RolloutStatus {
  const spec = record.spec;
  const timeout = spec.waveTimeoutMinutes ?? DEFAULT_WAVE_TIMEOUT_MINUTES;
  const verdicts = new Map((decision?.members ?? []).map((m) => [m.cluster, m]));
  const timedOutBefore = new Set(spec.timedOutClusters ?? []);
  const waves: RolloutStatusWave[] = spec.waves.map((wave, i) => {
    const released = i < spec.releasedWaves;
    const clusters = wave.clusters.map((cluster) => {
      const parts = partsOf(live, cluster);
      const base = { cluster, ...parts };
      if (!released) return { ...base, state: RolloutClusterState.PENDING };
      const folder = cluster.split('/')[0];
      if (unread.has(folder)) return { ...base, state: RolloutClusterState.UNREAD, reason: `management cluster ${folder} could not be read` };
      return { ...base, ...stateOf(verdicts.get(cluster), members.get(cluster), spec.release.version, timedOutBefore.has(cluster)) };
    });
    const releasedAt = released ? wave.releasedAt : undefined;
    const unfinished = clusters.some((c) => ![RolloutClusterState.DONE, RolloutClusterState.FAILED, RolloutClusterState.TIMED_OUT].includes(c.state));
    const timesOut = releasedAt !== undefined && unfinished ? new Date(Date.parse(releasedAt) + timeout * 60_000) : undefined;
    return {
      name: wave.name,
      number: i + 1,
      released,
      ...(releasedAt !== undefined ? { releasedAt } : {}),
      ...(timesOut !== undefined && timesOut.getTime() > now.getTime() ? { timesOutAt: rfc3339Seconds(timesOut) } : {}),
      ...(wave.holdNodePools ? { holdNodePools: true } : {}),
      counts: countStates(clusters),
      clusters,
    };
  });
  return {
    name: record.metadata.name,
    release: spec.release,
    releasedWaves: spec.releasedWaves,
    onFailure: spec.onFailure,
    onPaused: spec.onPaused ?? 'Hold',
    waveTimeoutMinutes: timeout,
    ...(spec.stateFile !== undefined ? { stateFile: spec.stateFile } : {}),
    counts: countStates(waves.flatMap((w) => w.clusters)),
    ...(decision && undecided === undefined ? { next: { outcome: decision.outcome, exitCode: decision.exitCode, summary: decision.summary, reasons: decision.reasons } } : {}),
    ...(undecided !== undefined ? { undecided } : {}),
    waves,
  };
}

/** A released member's state, from the decision's verdict on it and what it reports. */
function stateOf(
  verdict: RolloutMemberVerdict | undefined,
  member: RolloutMemberStatus | undefined,
  target: string | undefined,
  timedOutBefore: boolean,
): Pick<RolloutStatusCluster, 'state' | 'reason' | 'recorded'> {
  const reason = verdict?.reason !== undefined ? { reason: verdict.reason } : {};
  switch (verdict?.verdict) {
    case 'done':
      return { state: RolloutClusterState.DONE };
    case 'failed':
      return { state: RolloutClusterState.FAILED, ...reason };
    case 'failed-before':
      return { state: timedOutBefore ? RolloutClusterState.TIMED_OUT : RolloutClusterState.FAILED, ...reason, recorded: true };
    case 'timed-out':
      return { state: RolloutClusterState.TIMED_OUT, ...reason };
    case 'paused':
      return { state: RolloutClusterState.PAUSED, ...reason };
    case 'held':
      return { state: RolloutClusterState.HELD, ...reason };
    default:
      if (member === undefined || member.found === false) return { state: RolloutClusterState.NOT_FOUND, reason: 'its management cluster holds no HostedCluster of that name' };
      if (member.controlPlane.state === ControlPlaneRolloutState.COMPLETED && target !== undefined && member.controlPlane.version === target) {
        return { state: RolloutClusterState.POOLS_ROLLING, ...reason };
      }
      return { state: RolloutClusterState.CONTROL_PLANE_UPGRADING, ...reason };
  }
}

/** The control plane and pools of a cluster as read, by the model. */
function partsOf(live: LiveClusters, cluster: string): Pick<RolloutStatusCluster, 'controlPlane' | 'nodePools'> {
  const read = live.clusters.get(cluster);
  if (read?.hostedCluster === undefined) return {};
  const controlPlane = hostedClusterStatus(read.hostedCluster);
  return {
    controlPlane: part(undefined, controlPlane.versions.running, controlPlane),
    nodePools: read.nodePools.map((pool) => {
      const status = nodePoolStatus(pool);
      return part(String(pool?.metadata?.name ?? ''), status.versions.running, status);
    }),
  };
}

function part(name: string | undefined, version: string | undefined, status: HyperShiftStatus): RolloutStatusPart {
  return { ...(name !== undefined ? { name } : {}), ...(version ? { version } : {}), model: statusToken(status), summary: status.summary };
}

/** How many clusters are in each state, in the enum's order. */
export function countStates(clusters: readonly { readonly state: RolloutClusterState }[]): Partial<Record<RolloutClusterState, number>> {
  const counts: Partial<Record<RolloutClusterState, number>> = {};
  for (const state of Object.values(RolloutClusterState)) {
    const n = clusters.filter((c) => c.state === state).length;
    if (n > 0) counts[state] = n;
  }
  return counts;
}
