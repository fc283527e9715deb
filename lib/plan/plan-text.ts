import { FieldChange } from './field-diff';
import { liveTextLines } from './live/live-text';
import { ChangeEffect, countsLine, effectsLine, groupByCluster, Plan, PlanAction, PlannedObject, planWarnings } from './plan-report';
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
    for (const refusal of rollout.refusals ?? []) lines.push(paint('31', `refused: rollout ${rollout.name}: ${refusal}`));
  }
  for (const note of plan.clusterNotes) lines.push(paint('33', `note: ${note.cluster}: ${note.note}`));
  for (const warning of planWarnings(plan)) lines.push(paint('33', `warning: ${warning}`));
  lines.push(...liveTextLines(plan, paint));
  for (const group of groupByCluster(plan)) {
    lines.push('', group.cluster ? `cluster ${group.cluster}` : 'objects of no hosted cluster');
    for (const object of group.objects) lines.push(...objectLines(object, paint, max));
  }
  return `${lines.join('\n')}\n`;
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
