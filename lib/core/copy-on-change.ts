/**
 * Copies made only where something changed. Render and the validator's CEL form leave most parts
 * of a fleet's objects as they are; copying them anyway costs time and memory.
 */

/** `list.map(fn)`, but the list itself when `fn` gives every item back unchanged. */
export function mapUnlessChanged<T>(list: readonly T[], fn: (item: T, index: number) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const mapped = fn(list[i], i);
    if (out) out.push(mapped);
    else if (mapped !== list[i]) (out = list.slice(0, i)).push(mapped);
  }
  return out ?? (list as T[]);
}

/**
 * A copy of the fields of `object` that come before `stop` (all of them without it): what a copy
 * started at the first changed field holds of the fields that did not change.
 */
export function fieldsBefore(object: Record<string, unknown>, stop: string | undefined): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const field in object) {
    if (field === stop) break;
    copy[field] = object[field];
  }
  return copy;
}
