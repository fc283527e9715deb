import { liveMarkdownLines } from './live/live-text';
import { changeLine } from './plan-text';
import { countsLine, effectsLine, groupByCluster, Plan, PlannedObject, planWarnings } from './plan-report';
import { rolloutLine } from './rollout-plan';

/**
 * The plan as a pull-request comment (GitHub and GitLab Markdown): the counts and effects, the
 * notes, then a table per hosted cluster, with the fields that differ folded away.
 */
export function planMarkdown(plan: Plan): string {
  const lines = ['### hcp-cdk plan', '', `**${countsLine(plan.summary)}**`];
  const effects = effectsLine(plan.summary);
  if (effects) lines.push('', `Effects: ${effects}`);
  for (const rollout of plan.rollouts ?? []) {
    lines.push('', `> **${escape(rolloutLine(rollout))}**`);
    for (const refusal of rollout.refusals ?? []) lines.push('>', `> **refused**: ${escape(refusal)}`);
  }
  for (const note of plan.clusterNotes) lines.push('', `> **${escape(note.cluster)}**: ${escape(note.note)}`);
  for (const warning of planWarnings(plan)) lines.push('', `> **warning**: ${escape(warning)}`);
  lines.push(...liveMarkdownLines(plan, escape));
  for (const group of groupByCluster(plan)) {
    lines.push('', group.cluster ? `#### Cluster \`${group.cluster}\`` : '#### Objects of no hosted cluster', '', '| | object | effects |', '|---|---|---|');
    for (const object of group.objects) lines.push(row(object));
    const changed = group.objects.filter((o) => o.changes.length > 0);
    if (changed.length > 0) {
      lines.push('', '<details><summary>Fields that change</summary>', '', '```diff');
      for (const object of changed) {
        lines.push(`# ${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`);
        for (const change of object.changes) lines.push(`~ ${changeLine(change, 200)}`);
      }
      lines.push('```', '', '</details>');
    }
  }
  return `${lines.join('\n')}\n`;
}

function row(object: PlannedObject): string {
  const name = object.namespace ? `${object.namespace}/${object.name}` : object.name;
  const effects = object.effects.map((e) => `**${e.effect}**: ${escape(e.summary)}`).join('<br>');
  return `| ${object.action} | ${object.kind} \`${name}\` | ${effects} |`;
}

/** Keeps a sentence from breaking the table or the quote it sits in. */
function escape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}
