import type { Duration } from 'cdk8s';
import type { Problems } from './problems';
import { show } from './problems';

/**
 * Checks for callers TypeScript does not stop (JavaScript, props read from JSON or YAML): a
 * required prop that is missing or of the wrong kind becomes a message naming the prop and what
 * is accepted, instead of a TypeError deep inside the construct.
 */
export interface PropCheck {
  /** Whether the value is what the prop takes. */
  readonly accepts: (value: unknown) => boolean;
  /** What the prop takes, in words: `a Release (Release.fromImage or Release.fromVersion)`. */
  readonly expected: string;
}

/** Records a problem for each required prop of `props` that is missing or not what `checks` accept. */
export function checkRequiredProps(problems: Problems, props: unknown, checks: Readonly<Record<string, PropCheck>>): void {
  if (typeof props !== 'object' || props === null) {
    problems.add(`props (${show(props)}) must be an object with ${Object.keys(checks).join(', ')}`);
    return;
  }
  for (const [name, check] of Object.entries(checks)) {
    const value = (props as Record<string, unknown>)[name];
    if (!check.accepts(value)) problems.add(`${name} (${describe(value)}) must be ${check.expected}`);
  }
}

/** Records a problem for each item of a list prop that is missing (`[undefined]`, a hole, `null`). */
export function checkListItems(problems: Problems, field: string, list: unknown): boolean {
  if (list === undefined) return true;
  if (!Array.isArray(list)) {
    problems.add(`${field} (${describe(list)}) must be a list`);
    return false;
  }
  let complete = true;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === undefined || list[i] === null) {
      problems.add(`${field}[${i}] (${show(list[i])}) must be given: a list may not hold empty entries`);
      complete = false;
    }
  }
  return complete;
}

/** A cdk8s `Size` (Size.gibibytes(8)), not a string such as "8Gi". */
export function isSize(value: unknown): boolean {
  return typeof (value as { toMebibytes?: unknown })?.toMebibytes === 'function';
}

/** A cdk8s `Duration` (Duration.minutes(5)), not a string such as "5m". */
export function isDuration(value: unknown): value is Duration {
  return typeof (value as { toSeconds?: unknown })?.toSeconds === 'function';
}

/** An object of one of hcp-cdk's classes (it has `method`), not a plain value. */
export function hasMethod(method: string): (value: unknown) => boolean {
  return (value) => typeof (value as Record<string, unknown> | undefined)?.[method] === 'function';
}

/** A value as an error message shows it; objects of classes by their class, as their fields mean nothing to the user. */
function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && value.constructor !== Object) return `a ${value.constructor.name}`;
  return show(value);
}

/** Whether `value` is a mapping (a JSON object): not null, not an array. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
