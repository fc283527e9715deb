import type { Plan } from '../plan-report';
import { LiveFieldDrift, LiveFinding, liveCountsLine } from './live-report';

/** How many live findings refuse a change (0 without --live): the plan then exits 1. */
export function liveRefusals(plan: Plan): number {
  return plan.live?.findings.filter((f) => f.refused).length ?? 0;
}

/**
 * The live part of the text plan, after the summary: where it read, what it found, a line per
 * finding (`refused` or its kind, the cluster, the object, the sentence) and a line per drifted field.
 */
export function liveTextLines(plan: Plan, paint: (code: string | undefined, text: string) => string = (_c, t) => t): string[] {
  const live = plan.live;
  if (!live) return [];
  const counts = liveCountsLine(live);
  const lines = [
    '',
    `live: context ${live.context} (${live.server}), management folder ${live.managementFolder}: ${live.objectsFound} of ${live.objectsRead} objects on the cluster${counts ? `; ${counts}` : ', nothing found'}`,
    ...(live.hyperShift ? [`  version rules: ${live.hyperShift.summary}`] : []),
  ];
  for (const finding of live.findings) {
    lines.push(paint(finding.refused ? '31' : '33', `  ${finding.refused ? 'refused' : finding.finding}: ${subject(finding)}: ${finding.summary}`));
    for (const field of finding.fields ?? []) lines.push(`      ${driftLine(field)}`);
  }
  return lines;
}

/** The live part of the Markdown plan: a table of findings, drifted fields folded away. */
export function liveMarkdownLines(plan: Plan, escape: (text: string) => string): string[] {
  const live = plan.live;
  if (!live) return [];
  const counts = liveCountsLine(live);
  const lines = [
    '',
    `#### Live: context \`${live.context}\`, management folder \`${live.managementFolder}\``,
    '',
    `${live.objectsFound} of ${live.objectsRead} objects on the cluster${counts ? `; ${counts}` : ', nothing found'}.`,
    ...(live.hyperShift ? ['', `Version rules: ${escape(live.hyperShift.summary)}.`] : []),
  ];
  if (live.findings.length === 0) return lines;
  lines.push('', '| finding | object | |', '|---|---|---|');
  for (const finding of live.findings) lines.push(`| ${finding.refused ? `**refused** (${finding.finding})` : finding.finding} | ${escape(subject(finding))} | ${escape(finding.summary)} |`);
  const drifted = live.findings.filter((f) => (f.fields ?? []).length > 0);
  if (drifted.length > 0) {
    lines.push('', '<details><summary>Fields changed on the cluster</summary>', '', '```');
    for (const finding of drifted) {
      lines.push(`# ${subject(finding)}`);
      for (const field of finding.fields!) lines.push(driftLine(field));
    }
    lines.push('```', '', '</details>');
  }
  return lines;
}

function subject(finding: LiveFinding): string {
  return `${finding.cluster ? `${finding.cluster}: ` : ''}${finding.kind} ${finding.namespace ? `${finding.namespace}/` : ''}${finding.name}`;
}

/** `spec.replicas: 2 committed, 5 live; this commit sets 3`. */
export function driftLine(field: LiveFieldDrift, max = 120): string {
  const next = !('next' in field)
    ? 'the new output does not set it'
    : JSON.stringify(field.next) === JSON.stringify(field.committed)
      ? 'this commit sets it back'
      : `this commit sets ${show(field.next, max)}`;
  return `${field.path}: ${show(field.committed, max)} committed, ${'live' in field ? show(field.live, max) : '(none)'} live; ${next}`;
}

function show(value: unknown, max: number): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
