/**
 * How many values a parsed YAML document holds once its aliases are expanded, as the API server's
 * decoder would expand them, counting up to `limit`. A YAML parser shares the aliased value
 * instead of copying it, so a "billion laughs" document of a few hundred bytes parses quickly but
 * expands to billions of values that every later walk would visit. Each distinct value is counted
 * once (memoized), so this costs one pass over what was parsed. Aliases that contain themselves
 * come back as 'cycle'.
 */
export function expandedSize(value: unknown, limit: number): number | 'cycle' {
  const sizes = new Map<object, number>();
  const open = new Set<object>();
  let cycle = false;
  const size = (node: unknown): number => {
    if (node === null || typeof node !== 'object') return 1;
    const known = sizes.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) {
      cycle = true;
      return limit;
    }
    open.add(node);
    let total = 1;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      total += size(child);
      if (total > limit || cycle) break;
    }
    open.delete(node);
    sizes.set(node, total);
    return total;
  };
  const total = size(value);
  return cycle ? 'cycle' : total;
}
