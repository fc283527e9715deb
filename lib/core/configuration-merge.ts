import { show } from './problems';

/** Two contributions that set one field of `spec.configuration` to different values. */
export interface ConfigurationConflict {
  readonly path: string;
  readonly first: unknown;
  readonly second: unknown;
}

/**
 * Merges parts of `spec.configuration` (the `configuration` prop and what day-2 constructs add):
 * objects merge key by key, anything else (lists included) is one value that only one
 * part may set, unless both set it equally. Returns the merged object and every conflict.
 */
export function mergeConfigurations(parts: readonly Record<string, unknown>[]): { merged: Record<string, unknown>; conflicts: ConfigurationConflict[] } {
  const conflicts: ConfigurationConflict[] = [];
  const merge = (into: Record<string, unknown>, from: Record<string, unknown>, path: string): void => {
    for (const [key, value] of Object.entries(from)) {
      if (value === undefined) continue;
      const at = `${path}.${key}`;
      const existing = into[key];
      if (existing === undefined) into[key] = isObject(value) ? copyInto({}, value, at) : value;
      else if (isObject(existing) && isObject(value)) merge(existing, value, at);
      else if (show(existing) !== show(value)) conflicts.push({ path: at, first: existing, second: value });
    }
  };
  const copyInto = (into: Record<string, unknown>, from: Record<string, unknown>, path: string) => {
    merge(into, from, path);
    return into;
  };
  const merged: Record<string, unknown> = {};
  for (const part of parts) merge(merged, part, 'configuration');
  return { merged, conflicts };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
