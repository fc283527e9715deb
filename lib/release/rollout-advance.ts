import { rfc3339Seconds } from '../core/formats';
import { namedList } from './named-list';
import { DEFAULT_WAVE_TIMEOUT_MINUTES, type RolloutRecord } from './rollout-record';
import type { RolloutFailure, RolloutStateSpec } from './rollout-state';

/** Where a member's control plane is, as its HostedCluster's status says (`status.version.history[0]`, conditions). */
export enum ControlPlaneRolloutState {
  /** The newest history entry is Completed: the control plane runs `version`. */
  COMPLETED = 'Completed',
  /** An update is in progress (the newest entry is Partial), or the spec names a release status has not taken up. */
  PARTIAL = 'Partial',
  /** The update cannot go on (HyperShift reports it failing, or refuses the release): `reason` says why. */
  FAILED = 'Failed',
}

/** Where a member's node pool is, as its NodePool's status says. */
export enum NodePoolRolloutState {
  /** Its nodes run `version` and the pool is Ready (UpdatingVersion false, all replicas ready). */
  READY = 'Ready',
  /** Its nodes are being replaced or rebooted (UpdatingVersion or UpdatingConfig true), or not all are ready. */
  ROLLING = 'Rolling',
  /** The rollout cannot go on (a refused release, machines that do not come up): `reason` says why. */
  FAILED = 'Failed',
}

/**
 * A member cluster as the rollout sees it on its management cluster: what the advance decision is
 * made from. The command that reads the live clusters fills it from each HostedCluster and its
 * NodePools; tests write it by hand.
 */
export interface RolloutMemberStatus {
  /** The cluster, `<management folder>/<namespace>/<name>`, as the rollout's record names it. */
  readonly cluster: string;
  /** Whether its HostedCluster is on the management cluster at all. @default true */
  readonly found?: boolean;
  /** The control plane. */
  readonly controlPlane: {
    /** The OpenShift version it runs (Completed) or is updating to (Partial). @default - not known */
    readonly version?: string;
    /** Where its update is. */
    readonly state: ControlPlaneRolloutState;
    /** HyperShift's reason and message, for FAILED. @default - none */
    readonly reason?: string;
    /** When the update to `version` started (the history entry's startedTime). @default - not known */
    readonly startedAt?: Date;
  };
  /** Its node pools. */
  readonly nodePools: readonly {
    /** The pool's name. */
    readonly name: string;
    /** The OpenShift version its nodes run. @default - not known */
    readonly version?: string;
    /** Where its rollout is. */
    readonly state: NodePoolRolloutState;
    /** Why, for FAILED. @default - none */
    readonly reason?: string;
  }[];
  /** `spec.pausedUntil` of the HostedCluster or a pool (`"true"` or an RFC 3339 time), when one is set. @default - not paused */
  readonly pausedUntil?: string;
}

/** What the advance decision concludes. */
export enum RolloutAdvanceOutcome {
  /** The released waves are done within the failure budget: the next wave is released. */
  ADVANCE = 'advance',
  /** A released wave is still upgrading, or paused until a time: try again later. */
  WAIT = 'wait',
  /** A person must act: failures over the budget or under Stop, a member paused for good, pools held. */
  BLOCKED = 'blocked',
  /** Every wave is released and done: remove the rollout (see the docs). */
  COMPLETE = 'complete',
}

/** The exit code of each outcome, for a pipeline to branch on (1 is an error of the command itself). */
export const ROLLOUT_ADVANCE_EXIT_CODES: Readonly<Record<RolloutAdvanceOutcome, number>> = {
  [RolloutAdvanceOutcome.ADVANCE]: 0,
  [RolloutAdvanceOutcome.WAIT]: 2,
  [RolloutAdvanceOutcome.BLOCKED]: 3,
  [RolloutAdvanceOutcome.COMPLETE]: 4,
};

/** What the decision is made from. */
export interface RolloutAdvanceInput {
  /** The rollout as the committed output records it (`rollouts/`): its waves, their clusters, its policies. */
  readonly record: RolloutRecord;
  /**
   * The rollout's state file as committed: the change is written to it. One that differs from the
   * record (a state changed but not synthesized and merged yet) makes the decision wait.
   * @default - the record's state
   */
  readonly state?: RolloutStateSpec;
  /** The clusters of the released waves as read from their management clusters; a cluster left out counts as not found. */
  readonly members: readonly RolloutMemberStatus[];
  /** The time of the decision: timeouts and pauses are measured against it. */
  readonly now: Date;
  /** The rollouts this one waits for (`after`) and whether each is complete. @default - none */
  readonly waitsFor?: readonly {
    /** The rollout's name. */
    readonly rollout: string;
    /** Whether its decision is `complete`. */
    readonly complete: boolean;
  }[];
}

/** How one member of a released wave stands. */
export interface RolloutMemberVerdict {
  /** The cluster. */
  readonly cluster: string;
  /** Its wave's place, from 1. */
  readonly wave: number;
  /** done, upgrading (or not started), failed, timed-out, paused, held (its pools, by the wave), or failed before (in the record already). */
  readonly verdict: 'done' | 'upgrading' | 'failed' | 'timed-out' | 'paused' | 'held' | 'failed-before';
  /** Why, for every verdict but done. */
  readonly reason?: string;
}

/** What the advance decision found and decided. */
export interface RolloutAdvanceDecision {
  /** The rollout. */
  readonly rollout: string;
  /** What it concludes. */
  readonly outcome: RolloutAdvanceOutcome;
  /** Its exit code (see ROLLOUT_ADVANCE_EXIT_CODES). */
  readonly exitCode: number;
  /** Why the next wave is not released (WAIT, BLOCKED), each a sentence; empty otherwise. */
  readonly reasons: readonly string[];
  /** Every member of the released waves, with its verdict. */
  readonly members: readonly RolloutMemberVerdict[];
  /** The clusters found failed or timed out now, recorded in `state`. */
  readonly newFailures: readonly RolloutFailure[];
  /** The state file's next content, when it changes (a wave released, failures recorded); undefined when nothing changes. */
  readonly state?: RolloutStateSpec;
  /** One line, for the commit message or the pipeline's log. */
  readonly summary: string;
}

/**
 * Whether the next wave of a release rollout may be released, from what its released waves' clusters
 * report, as TALM's ClusterGroupUpgrade controller decides between batches
 * (openshift-kni/cluster-group-upgrades-operator at dacf199e5: pkg/api/clustergroupupgrades/v1alpha1/types.go,
 * `RemediationStrategySpec.Timeout` defaults to 240 minutes and `BatchTimeoutAction` is Continue or
 * Abort; controllers/clustergroupupgrade_controller.go `Reconcile` moves to the next batch once the
 * current one is complete, and on a batch timeout (`handleBatchTimeout`, the batch's share of the
 * timeout from controllers/utils/batches.go `CalculateBatchTimeout`) marks the unfinished clusters
 * timed out and continues or aborts). Here one
 * wave is a batch and the decision is one commit: the released waves must be done (control planes
 * Completed at the target, pools Ready at it), failed and timed-out clusters are recorded with why
 * and count against the budget (`onFailure`, `maxFailedClusters`, `maxFailedPercent`), a paused
 * member holds the next wave unless `onPaused` is Continue, and a wave past its timeout
 * (`waveTimeoutMinutes`, from its release or its first member's start) times its unfinished members out.
 */
export function decideRolloutAdvance(input: RolloutAdvanceInput): RolloutAdvanceDecision {
  const record = input.record.spec;
  const name = input.record.metadata.name;
  const current: RolloutStateSpec = input.state ?? stateOf(input.record);
  const decide = (
    outcome: RolloutAdvanceOutcome,
    reasons: string[],
    members: RolloutMemberVerdict[],
    newFailures: RolloutFailure[],
    state: RolloutStateSpec | undefined,
    summary: string,
  ): RolloutAdvanceDecision => ({
    rollout: name,
    outcome,
    exitCode: ROLLOUT_ADVANCE_EXIT_CODES[outcome],
    reasons,
    members,
    newFailures,
    ...(state ? { state } : {}),
    summary: `${name}: ${summary}`,
  });
  if (current.releasedWaves !== record.releasedWaves) {
    return decide(
      RolloutAdvanceOutcome.WAIT,
      [`the state file releases ${current.releasedWaves} waves and the committed output ${record.releasedWaves}: synthesize, review and merge the state first`],
      [],
      [],
      undefined,
      'waits for the output to catch up with the state file',
    );
  }
  const target = record.release.version;
  const timeout = record.waveTimeoutMinutes ?? DEFAULT_WAVE_TIMEOUT_MINUTES;
  const statuses = new Map(input.members.map((m) => [m.cluster, m]));
  const failedBefore = new Set(record.failedClusters ?? []);
  const members: RolloutMemberVerdict[] = [];
  const released = record.waves.slice(0, record.releasedWaves);
  released.forEach((wave, i) => {
    const statusesOfWave = wave.clusters.map((c) => statuses.get(c)).filter((s): s is RolloutMemberStatus => s !== undefined && s.found !== false);
    const started = wave.releasedAt ? Date.parse(wave.releasedAt) : earliest(statusesOfWave.map((s) => s.controlPlane.startedAt));
    const overdue = started !== undefined && input.now.getTime() - started > timeout * 60_000;
    for (const cluster of wave.clusters) {
      if (failedBefore.has(cluster)) {
        members.push({ cluster, wave: i + 1, verdict: 'failed-before', reason: record.failureReasons?.[cluster] ?? 'listed as failed' });
        continue;
      }
      const verdict = verdictOf(statuses.get(cluster), target, wave.holdNodePools ?? false, input.now);
      const late = overdue && verdict.verdict === 'upgrading';
      members.push({
        cluster,
        wave: i + 1,
        ...(late ? { verdict: 'timed-out', reason: `${verdict.reason} ${timeout} minutes after wave ${i + 1} (${wave.name}) started (waveTimeoutMinutes ${timeout})` } : verdict),
      });
    }
  });
  const newFailures: RolloutFailure[] = members
    .filter((m) => m.verdict === 'failed' || m.verdict === 'timed-out')
    .map((m) => ({ cluster: m.cluster, reason: m.reason!, ...(m.verdict === 'timed-out' ? { timedOut: true } : {}) }));
  const failedCount = failedBefore.size + newFailures.length;
  const releasedCount = released.reduce((n, wave) => n + wave.clusters.length, 0);
  const withFailures: RolloutStateSpec | undefined =
    newFailures.length > 0 ? { ...current, failedClusters: [...(current.failedClusters ?? []), ...newFailures.map((f) => ({ ...f, reason: f.reason }))] } : undefined;
  const count = (verdict: RolloutMemberVerdict['verdict']): RolloutMemberVerdict[] => members.filter((m) => m.verdict === verdict);
  const reasons: string[] = [];
  const blockers: string[] = [];
  const upgrading = count('upgrading');
  if (upgrading.length > 0) reasons.push(`${clusters(upgrading)} of the released waves ${upgrading.length === 1 ? 'is' : 'are'} still upgrading (${describe(upgrading)})`);
  const paused = record.onPaused === 'Continue' ? [] : count('paused');
  for (const member of paused)
    (member.reason!.includes('indefinitely') ? blockers : reasons).push(`${member.cluster} of wave ${member.wave} is ${member.reason}; unpause it, or set onPaused to Continue`);
  const held = count('held');
  if (held.length > 0) {
    const waves = [...new Set(held.map((m) => m.wave))].map((w) => `wave ${w} (${record.waves[w - 1].name})`);
    blockers.push(
      `${waves.join(' and ')} ${waves.length === 1 ? 'holds its' : 'hold their'} pools on the release before and ${waves.length === 1 ? 'its' : 'their'} control planes are done: drop holdNodePools in the next commit to move the pools`,
    );
  }
  if (failedCount > 0 && record.onFailure === 'Stop')
    blockers.push(
      `${plural(failedCount, 'cluster has', 'clusters have')} failed and onFailure is Stop: take ${failedCount === 1 ? 'it' : 'them'} out of failedClusters once ${failedCount === 1 ? 'it runs' : 'they run'} well again`,
    );
  else if (record.maxFailedClusters !== undefined && failedCount > record.maxFailedClusters)
    blockers.push(`${plural(failedCount, 'cluster has', 'clusters have')} failed, over the ${record.maxFailedClusters} maxFailedClusters allows`);
  else if (record.maxFailedPercent !== undefined && releasedCount > 0 && (failedCount * 100) / releasedCount > record.maxFailedPercent) {
    blockers.push(
      `${failedCount.toLocaleString('en-US')} of the ${releasedCount.toLocaleString('en-US')} clusters of the released waves ${failedCount === 1 ? 'has' : 'have'} failed, over the ${record.maxFailedPercent}% maxFailedPercent allows`,
    );
  }
  for (const other of (input.waitsFor ?? []).filter((w) => !w.complete)) reasons.push(`rollout ${other.rollout}, which this one waits for (after), is not complete`);
  const recorded = newFailures.length > 0 ? `; ${plural(newFailures.length, 'failure', 'failures')} recorded (${namedList(newFailures.map((f) => f.cluster))})` : '';
  if (blockers.length > 0) return decide(RolloutAdvanceOutcome.BLOCKED, [...blockers, ...reasons], members, newFailures, withFailures, `blocked: ${blockers[0]}${recorded}`);
  if (reasons.length > 0) return decide(RolloutAdvanceOutcome.WAIT, reasons, members, newFailures, withFailures, `waits: ${reasons[0]}${recorded}`);
  if (record.releasedWaves >= record.waves.length)
    return decide(RolloutAdvanceOutcome.COMPLETE, [], members, newFailures, withFailures, `complete: every wave runs ${target ?? record.release.image}${recorded}`);
  const next = record.waves[record.releasedWaves];
  const base = withFailures ?? current;
  const state: RolloutStateSpec = {
    ...base,
    releasedWaves: record.releasedWaves + 1,
    waves: [...(base.waves ?? []).filter((w) => w.wave !== next.name), { wave: next.name, releasedAt: rfc3339Seconds(input.now) }],
  };
  const done = count('done').length;
  return decide(
    RolloutAdvanceOutcome.ADVANCE,
    [],
    members,
    newFailures,
    state,
    `release wave ${record.releasedWaves + 1} (${next.name}), ${plural(next.clusters.length, 'cluster', 'clusters')}${record.releasedWaves > 0 ? `: ${done.toLocaleString('en-US')} of the ${releasedCount.toLocaleString('en-US')} clusters of the released waves run ${target ?? record.release.image}` : ''}${recorded}`,
  );
}

/** How one member stands, before timeouts: from its status, the target version and whether its wave holds its pools. */
function verdictOf(status: RolloutMemberStatus | undefined, target: string | undefined, holdsPools: boolean, now: Date): Omit<RolloutMemberVerdict, 'cluster' | 'wave'> {
  if (!status || status.found === false) return { verdict: 'upgrading', reason: 'not on its management cluster yet' };
  if (status.pausedUntil !== undefined && (status.pausedUntil === 'true' || !(Date.parse(status.pausedUntil) <= now.getTime()))) {
    return { verdict: 'paused', reason: status.pausedUntil === 'true' ? 'paused indefinitely' : `paused until ${status.pausedUntil}` };
  }
  const controlPlane = status.controlPlane;
  if (controlPlane.state === ControlPlaneRolloutState.FAILED) return { verdict: 'failed', reason: `control plane: ${controlPlane.reason ?? 'failed'}` };
  const failedPool = status.nodePools.find((p) => p.state === NodePoolRolloutState.FAILED);
  if (failedPool) return { verdict: 'failed', reason: `pool ${failedPool.name}: ${failedPool.reason ?? 'failed'}` };
  const atTarget = (version: string | undefined): boolean => target !== undefined && version === target;
  if (!atTarget(controlPlane.version)) return { verdict: 'upgrading', reason: `control plane not started on ${target ?? 'the target'} (runs ${controlPlane.version ?? 'an unknown version'})` };
  if (controlPlane.state !== ControlPlaneRolloutState.COMPLETED) return { verdict: 'upgrading', reason: `control plane updating to ${target}` };
  const behind = status.nodePools.filter((p) => !atTarget(p.version));
  if (holdsPools && behind.length > 0) return { verdict: 'held', reason: `pools ${behind.map((p) => p.name).join(', ')} held on the release before` };
  const rolling = status.nodePools.filter((p) => !atTarget(p.version) || p.state !== NodePoolRolloutState.READY);
  if (rolling.length > 0) return { verdict: 'upgrading', reason: `${rolling.length === 1 ? 'pool' : 'pools'} ${rolling.map((p) => p.name).join(', ')} rolling` };
  return { verdict: 'done' };
}

/** The state a record says the rollout is in, for a rollout that has no state file yet. */
function stateOf(record: RolloutRecord): RolloutStateSpec {
  const spec = record.spec;
  const reasons = spec.failureReasons ?? {};
  const timedOut = new Set(spec.timedOutClusters ?? []);
  const failed = (spec.failedClusters ?? []).map((cluster) => ({ cluster, ...(reasons[cluster] ? { reason: reasons[cluster] } : {}), ...(timedOut.has(cluster) ? { timedOut: true } : {}) }));
  const waves = spec.waves.filter((w) => w.releasedAt).map((w) => ({ wave: w.name, releasedAt: w.releasedAt! }));
  return { releasedWaves: spec.releasedWaves, ...(waves.length > 0 ? { waves } : {}), ...(failed.length > 0 ? { failedClusters: failed } : {}) };
}

/** `1 cluster`, `3 clusters`. */
function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

function earliest(times: readonly (Date | undefined)[]): number | undefined {
  const known = times.filter((t): t is Date => t !== undefined).map((t) => t.getTime());
  return known.length > 0 ? Math.min(...known) : undefined;
}

/** `a, b, c and 4 more`. */
function clusters(members: readonly RolloutMemberVerdict[]): string {
  return namedList(members.map((m) => m.cluster));
}

/** Where an upgrading member is, by how its reason starts. */
const STAGES: readonly (readonly [string, string])[] = [
  ['not on', 'not on their management cluster yet'],
  ['control plane not started', 'control plane not started'],
  ['control plane updating', 'control plane updating'],
  ['pool', 'pools rolling'],
];

/** `control plane updating: 3, pools rolling: 1`: where the upgrading members are, counted. */
function describe(members: readonly RolloutMemberVerdict[]): string {
  const counts = new Map<string, number>();
  for (const m of members) {
    const stage = STAGES.find(([start]) => (m.reason ?? '').startsWith(start))?.[1] ?? 'upgrading';
    counts.set(stage, (counts.get(stage) ?? 0) + 1);
  }
  return [...counts].map(([stage, n]) => `${stage}: ${n}`).join(', ');
}
