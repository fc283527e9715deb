/** What the file system said, in words a user acts on, by error code. */
const FAULTS: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENAMETOOLONG: 'a file name or path is too long for the file system',
  EMFILE: 'too many open files',
  EIO: 'an input/output error of the device',
  ENOTDIR: 'a folder on the path is a file',
  EEXIST: 'something else is already there',
};

/**
 * One line for a file-system error: `<code>: <what it means>, at <path>`, or the error's own first
 * line when it has no code hcp-cdk knows. Never a stack: the path and the code say where and what.
 */
export function describeFileError(error: unknown): string {
  const failure = error as NodeJS.ErrnoException;
  const meaning = failure?.code ? FAULTS[failure.code] : undefined;
  if (!meaning) return String(failure?.message ?? error).split('\n')[0];
  // Node names the path in the message when the error carries none of its own.
  const at = failure.path ?? /'([^']+)'/.exec(String(failure.message))?.[1];
  return `${failure.code}: ${meaning}${at ? `, at ${at}` : ''}`;
}

/** Whether `error` is a file-system error (it has an errno code), which a synth reports as one line. */
export function isFileError(error: unknown): error is NodeJS.ErrnoException {
  return typeof (error as NodeJS.ErrnoException)?.code === 'string' && typeof (error as NodeJS.ErrnoException)?.syscall === 'string';
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
