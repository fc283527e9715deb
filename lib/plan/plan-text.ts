import { FieldChange } from './field-diff';
import { liveTextLines } from './live/live-text';
import { ChangeEffect, ClusterNoteKind, countsLine, effectsLine, groupByCluster, Plan, PlanAction, PlannedObject, PlannedRollout, PlannedRolloutCluster } from './plan-report';
import { NoteGroup, PlanReview, WarningGroup, waveMembersLine } from './plan-review';
import { rolloutLine } from './rollout-plan';

/** Options of `planText`. */
export interface PlanTextOptions {
  /**
   * ANSI colours: red for refused and destructive, yellow for rollouts, green for creations.
   * @default false (the CLI turns them on for a terminal, unless NO_COLOR is set)
   */
  readonly color?: boolean;
  /**
   * Values longer than this are cut, with `...`.
   * @default 120
   */
  readonly maxValueLength?: number;
}

const SIGN: Readonly<Record<PlanAction, string>> = { create: '+', update: '~', delete: '-', unchanged: ' ' };
const COLOR: Partial<Record<ChangeEffect, string>> = {
  [ChangeEffect.REFUSED]: '31',
  [ChangeEffect.DESTRUCTIVE]: '31',
  [ChangeEffect.CONTROL_PLANE_UPGRADE]: '33',
  [ChangeEffect.NODE_POOL_ROLLOUT]: '33',
  [ChangeEffect.CONFIGURATION_ROLLOUT]: '33',
  [ChangeEffect.CREATE]: '32',
};

/**
 * The plan for people: the counts and the effects first, then per hosted cluster each changed
 * object with what it does and the fields that differ.
 */
export function planText(plan: Plan, options: PlanTextOptions = {}): string {
  const paint = (code: string | undefined, text: string): string => (options.color && code ? `\u001b[${code}m${text}\u001b[0m` : text);
  const max = options.maxValueLength ?? 120;
  const lines = [`hcp-cdk plan: ${plan.next}`, `  against ${plan.previous}`, '', `${countsLine(plan.summary)}`];
  const effects = effectsLine(plan.summary);
  if (effects) lines.push(`effects: ${effects}`);
  for (const rollout of plan.rollouts ?? []) {
    lines.push(rolloutLine(rollout));
    lines.push(...rolloutMemberLines(rollout).map((line) => `  ${line}`));
    for (const refusal of rollout.refusals ?? []) lines.push(paint('31', `refused: rollout ${rollout.name}: ${refusal}`));
    for (const warning of rollout.warnings ?? []) lines.push(paint('33', `warning: ${warning}`));
  }
  if (plan.updateGraph) lines.push(`update graph: ${plan.updateGraph.summary}`);
  const review = new PlanReview(plan);
  for (const group of review.notes()) lines.push(...noteLines(group).map((line, i) => (i === 0 ? paint('33', line) : line)));
  for (const group of review.warnings()) lines.push(...warningLines(group, plan).map((line, i) => (i === 0 ? paint('33', line) : line)));
  lines.push(...liveTextLines(plan, paint));
  for (const group of groupByCluster(plan)) {
    lines.push('', group.cluster ? `cluster ${group.cluster}` : 'objects of no hosted cluster');
    for (const object of group.objects) lines.push(...objectLines(object, paint, max));
  }
  return `${lines.join('\n')}\n`;
}

/** What each kind of note is about, for the line of a group. */
export const NOTE_KIND_LABEL: Readonly<Record<ClusterNoteKind, string>> = {
  [ClusterNoteKind.UPGRADE_IN_ONE_COMMIT]: 'control plane and pools upgrade in one commit',
  [ClusterNoteKind.CONDITIONAL_UPDATE]: 'a conditional update of the update graph',
};

/** The failed, timed-out, held and paused clusters of a rollout, one line each: `failed: <cluster> (wave 1): <why>`. */
export function rolloutMemberLines(rollout: PlannedRollout): string[] {
  const line = (what: string, c: PlannedRolloutCluster): string => `${what}: ${c.cluster} (wave ${c.wave})${c.reason ? `: ${c.reason}` : ''}`;
  return [
    ...(rollout.failed ?? []).map((c) => line('failed', c)),
    ...(rollout.timedOut ?? []).map((c) => line('timed out', c)),
    ...(rollout.held ?? []).map((c) => line('held', c)),
    ...(rollout.paused ?? []).map((c) => line('paused', c)),
  ];
}

/** `note: <cluster>: <note>` for one cluster; for more, one line with the count and the first cluster's note, then the clusters by wave. */
function noteLines(group: NoteGroup): string[] {
  if (group.count === 1) return [`note: ${group.example.cluster}: ${group.example.note}`];
  return [
    `note: ${group.count.toLocaleString('en-US')} clusters: ${NOTE_KIND_LABEL[group.kind]}; as for ${group.example.cluster}: ${group.example.note}`,
    ...group.members.map((m) => `  ${waveMembersLine(m)}`),
  ];
}

/** `warning: <cluster>: <Kind> <name>: <warning>` for one object; for more, one line with the count, then the clusters by wave. */
function warningLines(group: WarningGroup, plan: Plan): string[] {
  if (group.count === 1) return [`warning: ${objectWarning(plan, group.warning)}`];
  const clusters = group.members.reduce((n, m) => n + m.clusters.length, 0);
  return [
    `warning: ${group.count.toLocaleString('en-US')} objects (${group.kinds.join(', ')}) of ${clusters.toLocaleString('en-US')} ${clusters === 1 ? 'cluster' : 'clusters'}: ${group.warning}`,
    ...group.members.map((m) => `  ${waveMembersLine(m)}`),
  ];
}

/** `<cluster>: <Kind> <namespace>/<name>: <warning>`, for the one object that carries `warning`. */
export function objectWarning(plan: Plan, warning: string): string {
  const object = plan.objects.find((o) => o.warnings?.includes(warning))!;
  return `${object.cluster ? `${object.cluster}: ` : ''}${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}: ${warning}`;
}

function objectLines(object: PlannedObject, paint: (code: string | undefined, text: string) => string, max: number): string[] {
  const name = object.namespace ? `${object.namespace}/${object.name}` : object.name;
  const moved = object.previousFile ? ` (was ${object.previousFile})` : '';
  const lines = [`  ${SIGN[object.action]} ${object.kind} ${name}  ${object.file}${moved}`];
  for (const effect of object.effects) lines.push(`      ${paint(COLOR[effect.effect], `${effect.effect}: ${effect.summary}`)}`);
  for (const change of object.changes) lines.push(`        ${changeLine(change, max)}`);
  return lines;
}

/** `spec.replicas: 2 -> 3`, `metadata.labels.tier: (none) -> "gold"`. */
export function changeLine(change: FieldChange, max: number): string {
  return `${change.path}: ${'before' in change ? show(change.before, max) : '(none)'} -> ${'after' in change ? show(change.after, max) : '(none)'}`;
}

function show(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
