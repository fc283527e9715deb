import { namedList } from '../../release/named-list';
import type { RolloutMemberVerdict } from '../../release/rollout-advance';
import type { AdvancedRollout, RolloutAdvanceRun } from './advance-rollouts';
import { hubLine, oneLine } from './rollout-status-text';

/** How many members of one verdict a rollout lists before it counts the rest. */
const LISTED_PER_VERDICT = 20;

/**
 * `hcp-cdk rollout advance` for people and pipeline logs: per rollout its decision in one line, why
 * not (wait, blocked), the members of the released waves that are not done with why, the failures
 * it records, and the state file it wrote.
 */
export function advanceText(run: RolloutAdvanceRun): string {
  const lines = [`rollout advance of ${run.output} at ${run.time} (exit ${run.exitCode})`, ...run.hubs.map((hub) => `  ${hubLine(hub)}`)];
  for (const rollout of run.rollouts) {
    lines.push('', `${rollout.summary} (${rollout.outcome}, exit ${rollout.exitCode})`);
    for (const reason of rollout.reasons) lines.push(`  why: ${oneLine(reason)}`);
    for (const [verdict, members] of byVerdict(rollout.members)) {
      for (const member of members.slice(0, LISTED_PER_VERDICT)) lines.push(`  ${verdict}: ${member.cluster} (wave ${member.wave})${member.reason ? `: ${oneLine(member.reason)}` : ''}`);
      if (members.length > LISTED_PER_VERDICT) lines.push(`  ${verdict}: ${members.length - LISTED_PER_VERDICT} more`);
    }
    lines.push(`  ${stateLine(rollout)}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The commit message of what the run wrote: its first line the rollouts' one-line summaries, then per
 * rollout why, and the failures it records. Undefined when it wrote nothing.
 */
export function advanceCommitMessage(run: RolloutAdvanceRun): string | undefined {
  const written = run.rollouts.filter((r) => r.written);
  if (written.length === 0) return undefined;
  const body = written.flatMap((rollout) => [
    '',
    `${rollout.summary}`,
    ...rollout.reasons.map((reason) => `- ${reason}`),
    ...rollout.newFailures.map((f) => `- ${f.timedOut ? 'timed out' : 'failed'}: ${f.cluster}: ${oneLine(f.reason ?? '')}`),
  ]);
  return `${written.map((r) => r.summary).join('; ')}\n${body.join('\n')}\n\nWritten by hcp-cdk rollout advance at ${run.time}.\n`;
}

/** The members that are not done, by verdict, in the verdicts' order of first appearance. */
function byVerdict(members: readonly RolloutMemberVerdict[]): Map<string, RolloutMemberVerdict[]> {
  const groups = new Map<string, RolloutMemberVerdict[]>();
  for (const member of members.filter((m) => m.verdict !== 'done')) {
    const group = groups.get(member.verdict);
    if (group) group.push(member);
    else groups.set(member.verdict, [member]);
  }
  return groups;
}

/** What became of the state file. */
function stateLine(rollout: AdvancedRollout): string {
  if (!rollout.state) return `${rollout.stateFile}: unchanged`;
  const failures =
    rollout.newFailures.length > 0 ? `, records ${namedList(rollout.newFailures.map((f) => f.cluster))} as ${rollout.newFailures.every((f) => f.timedOut) ? 'timed out' : 'failed'}` : '';
  return `${rollout.stateFile}: ${rollout.written ? 'written' : 'not written (dry run)'}: releasedWaves ${rollout.state.releasedWaves}${failures}`;
}
