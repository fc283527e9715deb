import { liveMarkdownLines } from './live/live-text';
import { changeLine, NOTE_KIND_LABEL, objectWarning, rolloutMemberLines } from './plan-text';
import { countsLine, EFFECT_ORDER, effectsLine, Plan, PlannedObject, PlannedRollout } from './plan-report';
import { AlikeClusters, NoteGroup, PlanReview, WarningGroup, WaveMembers, waveMembersLine } from './plan-review';
import { rolloutLine } from './rollout-plan';

/** The most characters a GitHub pull-request comment holds. */
export const PULL_REQUEST_COMMENT_LIMIT = 65_536;

/** Options of `planMarkdown`. */
export interface PlanMarkdownOptions {
  /**
   * The most characters the Markdown may have: what does not fit (the last clusters' tables, then
   * whole sections) is left out, and a last line says how much and where the full plan is.
   * @default PULL_REQUEST_COMMENT_LIMIT - 65,536, what a GitHub pull-request comment holds
   */
  readonly maxLength?: number;
  /**
   * Where the full plan is, for the last line when something is left out: a file written beside
   * the comment (`hcp-cdk plan --format markdown --full-plan <file>`) or a URL.
   * @default - the line says how to print it: hcp-cdk plan --format text
   */
  readonly fullPlan?: string;
}

/** How many clusters a list in the Markdown names before it counts the rest. */
const NAMED = 100;
/** How many a wave's list of the clusters it moves names: the one list a reviewer checks the wave by. */
const MOVED_NAMED = 1000;

/**
 * The plan as a pull-request comment (GitHub and GitLab Markdown): the counts and effects, each
 * rollout with its failed, timed-out, held and paused clusters, the notes and warnings grouped by
 * kind with the clusters listed once per wave, then a table per cluster (clusters whose changes are
 * alike share one), with the fields that differ folded away. It stays within `maxLength` for any
 * fleet: lists name the first clusters and count the rest, and what still does not fit is left out
 * with a line that says where the full plan is.
 */
export function planMarkdown(plan: Plan, options: PlanMarkdownOptions = {}): string {
  const max = options.maxLength ?? PULL_REQUEST_COMMENT_LIMIT;
  const review = new PlanReview(plan);
  const head = ['### hcp-cdk plan', '', `**${countsLine(plan.summary)}**`];
  const effects = effectsLine(plan.summary);
  if (effects) head.push('', `Effects: ${effects}`);
  const sections: string[][] = [head, ...(plan.rollouts ?? []).map(rolloutSection)];
  if (plan.updateGraph) sections.push(['', `> **update graph**: ${escape(plan.updateGraph.summary)}`]);
  sections.push(...review.notes().map(noteSection), ...review.warnings().map((group) => warningSection(group, plan)));
  const live = liveMarkdownLines(plan, escape);
  if (live.length > 0) sections.push(live);
  // The clusters whose changes a reviewer must see first (refused, destructive, ...) come first, as
  // what does not fit is left out from the end; in their order otherwise.
  const clusters = [...review.clusters()].sort((a, b) => severity(a) - severity(b));
  const clusterCount = (group: AlikeClusters): number => Math.max(group.clusters.length, 1);
  let text = '';
  let leftOut = 0;
  let clustersLeftOut = 0;
  const tail = (): string =>
    `\n\n---\n**${[leftOut > 0 ? `${leftOut} ${leftOut === 1 ? 'section' : 'sections'}` : '', clustersLeftOut > 0 ? `the changes of ${clustersLeftOut.toLocaleString('en-US')} ${clustersLeftOut === 1 ? 'cluster' : 'clusters'}` : ''].filter(Boolean).join(' and ')} left out** ` +
    `to keep this comment under ${max.toLocaleString('en-US')} characters; the full plan: ${options.fullPlan ? `\`${options.fullPlan}\`` : '`hcp-cdk plan --format text` prints it'}.\n`;
  const room = (block: string): boolean => text.length + block.length + tail().length + 64 <= max;
  for (const section of sections) {
    const block = `${text === '' ? '' : '\n'}${section.join('\n')}`;
    if (room(block)) text += block;
    else leftOut++;
  }
  let full = true;
  for (const group of clusters) {
    const block = `\n${clusterSection(group).join('\n')}`;
    if (full && room(block)) text += block;
    else {
      // The clusters are shown in order: once one does not fit, the rest is counted, not skipped over.
      full = false;
      clustersLeftOut += clusterCount(group);
    }
  }
  return `${text}${leftOut + clustersLeftOut > 0 ? tail() : '\n'}`;
}

/** The rank (in EFFECT_ORDER, most needed first) of the most needed effect of a group's changes. */
function severity(group: AlikeClusters): number {
  const ranks = group.example.objects.flatMap((o) => o.effects.map((e) => EFFECT_ORDER.indexOf(e.effect))).filter((rank) => rank >= 0);
  return ranks.length > 0 ? Math.min(...ranks) : EFFECT_ORDER.length;
}

/** A rollout: its line (the moved clusters folded away when they are many), its failed, timed-out, held and paused clusters, refusals and warnings. */
function rolloutSection(rollout: PlannedRollout): string[] {
  const moved = rollout.moves.reduce((n, wave) => n + wave.clusters.length, 0);
  const line = moved > NAMED ? rolloutLine(rollout).replace(/( moves? [\d,]+ clusters?): [^;]*;/, '$1;') : rolloutLine(rollout);
  const lines = ['', `> **${escape(line)}**`];
  if (moved > NAMED) {
    for (const wave of rollout.moves) {
      lines.push(
        '>',
        `> <details><summary>the ${wave.clusters.length.toLocaleString('en-US')} clusters wave ${wave.wave} (${wave.name}) moves</summary>`,
        '>',
        `> ${names(wave.clusters, '', MOVED_NAMED)}`,
        '>',
        '> </details>',
      );
    }
  }
  const members = rolloutMemberLines(rollout);
  for (const member of members.slice(0, NAMED)) lines.push('>', `> - ${escape(member)}`);
  if (members.length > NAMED) lines.push('>', `> - and ${(members.length - NAMED).toLocaleString('en-US')} more failed, timed-out, held or paused clusters (see the full plan)`);
  for (const refusal of rollout.refusals ?? []) lines.push('>', `> **refused**: ${escape(refusal)}`);
  for (const warning of rollout.warnings ?? []) lines.push('>', `> **warning**: ${escape(warning)}`);
  return lines;
}

function noteSection(group: NoteGroup): string[] {
  if (group.count === 1) return ['', `> **${escape(group.example.cluster)}**: ${escape(group.example.note)}`];
  return [
    '',
    `> **${group.count.toLocaleString('en-US')} clusters: ${NOTE_KIND_LABEL[group.kind]}**; as for \`${group.example.cluster}\`: ${escape(group.example.note)}`,
    ...membersLines(group.members),
  ];
}

function warningSection(group: WarningGroup, plan: Plan): string[] {
  if (group.count === 1) return ['', `> **warning**: ${escape(objectWarning(plan, group.warning))}`];
  const clusters = group.members.reduce((n, m) => n + m.clusters.length, 0);
  const lines = ['', `> **warning (${group.count.toLocaleString('en-US')} objects: ${group.kinds.join(', ')})**: ${escape(group.warning)}`];
  return clusters > 0 ? [...lines, ...membersLines(group.members)] : lines;
}

/** The clusters by wave, each wave a quoted line. */
function membersLines(members: readonly WaveMembers[]): string[] {
  return members.flatMap((m) => ['>', `> - ${escape(waveMembersLine(m, names))}`]);
}

/** One cluster's table, or that of the first of clusters whose changes are alike, with the others named. */
function clusterSection(group: AlikeClusters): string[] {
  const example = group.example;
  const lines =
    group.clusters.length > 1
      ? [
          '',
          `#### ${group.clusters.length.toLocaleString('en-US')} clusters whose changes are alike, as \`${example.cluster}\`'s`,
          '',
          ...group.members.flatMap((m) => [`- ${escape(waveMembersLine(m, (c) => names(c, '`')))}`]),
        ]
      : ['', example.cluster ? `#### Cluster \`${example.cluster}\`` : '#### Objects of no hosted cluster'];
  lines.push('', '| | object | effects |', '|---|---|---|');
  for (const object of example.objects) lines.push(row(object));
  const changed = example.objects.filter((o) => o.changes.length > 0);
  if (changed.length > 0) {
    lines.push('', '<details><summary>Fields that change</summary>', '', '```diff');
    for (const object of changed) {
      lines.push(`# ${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`);
      for (const change of object.changes) lines.push(`~ ${changeLine(change, 200)}`);
    }
    lines.push('```', '', '</details>');
  }
  return lines;
}

/** `a, b, c … and 12 more`: the first `most` clusters. */
function names(clusters: readonly string[], quote = '', most = NAMED): string {
  const shown = clusters.slice(0, most).map((c) => `${quote}${c}${quote}`);
  return clusters.length > most ? `${shown.join(', ')} and ${(clusters.length - most).toLocaleString('en-US')} more` : shown.join(', ');
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
