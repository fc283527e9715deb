/** Whether `text` is a JSON object (not null, an array or a scalar), as Ignition configs must be. */
export function isJsonObject(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}
