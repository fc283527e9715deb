import { isPlainObject } from './runtime-props';

/**
 * The fields of `given` that `rendered` lost: the paths of keys the user set (to anything but
 * undefined) that the generated `toJson_*` function of an L1 type did not carry over because
 * the type has no such field. Those functions copy the fields they know and drop the rest, so
 * a typo in a pass-through object such as `configuration` would silently vanish. Keys are
 * matched without case, as the functions rename `issuerUrl` to its wire name `issuerURL`.
 */
export function droppedFields(given: unknown, rendered: unknown, path: string): { readonly path: string; readonly value: unknown }[] {
  if (Array.isArray(given)) {
    if (!Array.isArray(rendered)) return [];
    return given.flatMap((item, i) => droppedFields(item, rendered[i], `${path}[${i}]`));
  }
  if (!isPlainObject(given) || !isPlainObject(rendered)) return [];
  const renderedKeys = new Map(Object.keys(rendered).map((key) => [key.toLowerCase(), key]));
  const dropped: { path: string; value: unknown }[] = [];
  for (const [key, value] of Object.entries(given)) {
    if (value === undefined) continue;
    const renderedKey = renderedKeys.get(key.toLowerCase());
    if (renderedKey === undefined) dropped.push({ path: `${path}.${key}`, value });
    else dropped.push(...droppedFields(value, rendered[renderedKey], `${path}.${key}`));
  }
  return dropped;
}
