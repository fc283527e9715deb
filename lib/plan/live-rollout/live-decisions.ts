import { decideRolloutAdvance, RolloutAdvanceDecision, RolloutAdvanceOutcome, RolloutMemberStatus } from '../../release/rollout-advance';
import type { RolloutRecord } from '../../release/rollout-record';
import type { RolloutStateSpec } from '../../release/rollout-state';
import { rolloutMemberStatus } from '../../status/rollout-member-status';
import type { LiveClusters } from './live-clusters';

/** The clusters of a record's released waves. */
export function releasedClusters(record: RolloutRecord): string[] {
  return record.spec.waves.slice(0, record.spec.releasedWaves).flatMap((wave) => wave.clusters);
}

/** The management folders that could not be read, by folder, with why. */
export function unreadHubs(live: LiveClusters): ReadonlyMap<string, string> {
  return new Map(live.hubs.filter((hub) => hub.error !== undefined).map((hub) => [hub.managementFolder, hub.error!]));
}

/**
 * The advance decision of every rollout, from what the live clusters report (see decideRolloutAdvance):
 * each member of a released wave through hcp-cdk's status model (rolloutMemberStatus), each rollout's
 * `after` answered by the decisions of the rollouts it names (one the output no longer records was
 * removed once complete). A rollout with a member of a released wave on a management cluster that
 * could not be read, or that waits for such a one, is decided all the same from the members that
 * were read (for their verdicts), and `undecided` says why its decision is not to be acted on.
 * @param states the state of the rollouts whose state file is read (the rest: their record's)
 */
export function liveDecisions(
  records: ReadonlyMap<string, RolloutRecord>,
  live: LiveClusters,
  now: Date,
  states: ReadonlyMap<string, RolloutStateSpec> = new Map(),
): { decisions: Map<string, RolloutAdvanceDecision>; undecided: Map<string, string>; members: Map<string, RolloutMemberStatus> } {
  const unread = unreadHubs(live);
  const members = new Map<string, RolloutMemberStatus>();
  const memberStatus = (cluster: string): RolloutMemberStatus | undefined => {
    let status = members.get(cluster);
    if (status === undefined) {
      const read = live.clusters.get(cluster);
      if (read === undefined) return undefined;
      status = rolloutMemberStatus(cluster, read.hostedCluster, read.nodePools);
      members.set(cluster, status);
    }
    return status;
  };
  const decisions = new Map<string, RolloutAdvanceDecision>();
  const undecided = new Map<string, string>();
  const decide = (name: string, trail: readonly string[]): void => {
    if (decisions.has(name) || trail.includes(name)) return;
    const record = records.get(name)!;
    const waitsFor: { rollout: string; complete: boolean }[] = [];
    for (const other of record.spec.after ?? []) {
      if (!records.has(other)) {
        waitsFor.push({ rollout: other, complete: true });
        continue;
      }
      decide(other, [...trail, name]);
      if (undecided.has(other)) undecided.set(name, `it waits for rollout ${other}, which cannot be decided: ${undecided.get(other)}`);
      waitsFor.push({ rollout: other, complete: decisions.get(other)?.outcome === RolloutAdvanceOutcome.COMPLETE });
    }
    const released = releasedClusters(record);
    const hubs = [...new Set(released.map((c) => c.split('/')[0]).filter((folder) => unread.has(folder)))].sort();
    if (hubs.length > 0) undecided.set(name, hubs.map((folder) => `management cluster ${folder}, which runs clusters of its released waves, could not be read: ${unread.get(folder)}`).join('; '));
    const statuses = released.map(memberStatus).filter((s): s is RolloutMemberStatus => s !== undefined);
    const state = states.get(name);
    decisions.set(name, decideRolloutAdvance({ record, ...(state ? { state } : {}), members: statuses, now, waitsFor }));
  };
  for (const name of [...records.keys()].sort()) decide(name, []);
  return { decisions, undecided, members };
}
