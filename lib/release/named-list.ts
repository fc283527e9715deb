/**
 * Items for a message, at most `most` of them named: `a`, `a and b`, `a, b and c`, or
 * `a, b, c and 4 more` when there are more; so that a rule a thousand clusters break says so in one line.
 */
export function namedList(items: readonly string[], most = 3): string {
  if (items.length > most) return `${items.slice(0, most).join(', ')} and ${(items.length - most).toLocaleString('en-US')} more`;
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}` : (items[0] ?? '');
}
