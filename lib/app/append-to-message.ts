/** Adds text to an error's message, and to the stack Node prints for it (which holds a copy). */
export function appendToMessage(error: unknown, text: string): void {
  if (!(error instanceof Error)) return;
  const before = error.message;
  error.message = `${before}${text}`;
  if (error.stack?.includes(before)) error.stack = error.stack.replace(before, error.message);
}
