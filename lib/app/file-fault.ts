import { knownFileErrorReason } from '../validation/bounded-read';

/**
 * One line for a file-system error: `<code>: <what it means>, at <path>`, or the error's own first
 * line when it has no code hcp-cdk knows. Never a stack: the path and the code say where and what.
 */
export function describeFileError(error: unknown): string {
  const failure = error as NodeJS.ErrnoException;
  const meaning = knownFileErrorReason(error);
  if (!meaning) return String(failure?.message ?? error).split('\n')[0];
  // Node names the path in the message when the error carries none of its own.
  const at = failure.path ?? /'([^']+)'/.exec(String(failure.message))?.[1];
  return `${failure.code}: ${meaning}${at ? `, at ${at}` : ''}`;
}

/** A write of the output that failed on the file system: one line, no stack trace. */
export class OutputWriteError extends Error {
  constructor(
    message: string,
    /** The file-system error, with its code and path. */
    readonly cause: unknown,
  ) {
    super(message);
    this.name = 'OutputWriteError';
    this.stack = `${this.name}: ${this.message}`;
  }
}
