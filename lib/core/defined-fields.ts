/**
 * The fields of `obj` that are not undefined, in order, in one pass, each passed through `map` when
 * given (a quantity's `value`). The generated `toJson_*` of imports/ call it (scripts/linear-imports.ts
 * puts it in place of their quadratic filter).
 */
export function definedFields(obj: Record<string, any>, map?: (value: any) => any): Record<string, any> {
  const result: Record<string, any> = {};
  for (const key of Object.keys(obj)) {
    const given = obj[key];
    if (given === undefined) continue;
    const value = map ? map(given) : given;
    // An own field named __proto__, as the object literal it replaces makes, not a prototype.
    if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
    else result[key] = value;
  }
  return result;
}
