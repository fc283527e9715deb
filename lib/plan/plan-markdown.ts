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
   * The most characters the Markdown may have, at least 1,000: what does not fit (the last clusters'
   * tables, then whole sections) is left out, and a last line says how much and where the full plan is.
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

/** The least maxLength: the counts and the line that says what is left out fit in it. */
const MIN_LENGTH = 1_000;
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
  if (!(max >= MIN_LENGTH)) {
    throw new RangeError(
      `planMarkdown: maxLength ${max} is too small; it must be at least ${MIN_LENGTH.toLocaleString('en-US')} characters, room for the counts and the line that says what is left out`,
    );
  }
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
  const blocks: Block[] = [
    ...sections.map((section, i) => ({ text: `${i === 0 ? '' : '\n'}${section.join('\n')}`, clusters: 0, unowned: false })),
    ...clusters.map((group) => ({ text: `\n${clusterSection(group).join('\n')}`, clusters: group.example.cluster ? group.clusters.length : 0, unowned: !group.example.cluster })),
  ];
  const shown: Block[] = [];
  const left: LeftOut = { sections: 0, clusters: 0, unowned: false };
  const ending = (): string => (left.sections + left.clusters > 0 || left.unowned ? leftOutLine(left, max, options.fullPlan) : '\n');
  // A block is taken while it fits with the last line and room for that line's counts to grow; the
  // whole is then held to `max` exactly, giving back the last blocks taken if the line grew past that.
  let length = 0;
  // A section that does not fit is skipped; the tables are shown in order, so once one does not fit the rest is counted.
  let tablesFull = false;
  for (const block of blocks) {
    const table = block.clusters > 0 || block.unowned;
    if (!(table && tablesFull) && length + block.text.length + ending().length + 64 <= max) {
      shown.push(block);
      length += block.text.length;
    } else {
      leaveOut(block, left);
      tablesFull ||= table;
    }
  }
  while (shown.length > 1 && length + ending().length > max) {
    const given = shown.pop()!;
    length -= given.text.length;
    leaveOut(given, left);
  }
  return `${shown.map((b) => b.text).join('')}${ending()}`;
}

/** A section or a cluster's table of the Markdown plan, with what it shows. */
interface Block {
  readonly text: string;
  /** The clusters whose changes it shows; 0 for a section, or for the objects of no hosted cluster. */
  readonly clusters: number;
  /** The table of the objects of no hosted cluster (a management cluster's own). */
  readonly unowned: boolean;
}

/** What the Markdown plan left out: sections, the changes of clusters, and whether the objects of no hosted cluster. */
interface LeftOut {
  sections: number;
  clusters: number;
  unowned: boolean;
}

function leaveOut(block: Block, left: LeftOut): void {
  if (block.unowned) left.unowned = true;
  else if (block.clusters > 0) left.clusters += block.clusters;
  else left.sections++;
}

/** The last line when something is left out: what, and where the full plan is. */
function leftOutLine(left: Readonly<LeftOut>, max: number, fullPlan: string | undefined): string {
  const what = [
    left.sections > 0 ? `${left.sections} ${left.sections === 1 ? 'section' : 'sections'}` : '',
    left.clusters > 0 ? `the changes of ${left.clusters.toLocaleString('en-US')} ${left.clusters === 1 ? 'cluster' : 'clusters'}` : '',
    left.unowned ? 'the changes of objects of no hosted cluster' : '',
  ].filter(Boolean);
  const listed = what.length > 1 ? `${what.slice(0, -1).join(', ')} and ${what[what.length - 1]}` : what[0];
  return (
    `\n\n---\n**${listed} left out** to keep this comment under ${max.toLocaleString('en-US')} characters; ` +
    `the full plan: ${fullPlan ? `\`${fullPlan}\`` : '`hcp-cdk plan --format text` prints it'}.\n`
  );
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
