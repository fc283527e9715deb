import * as fs from 'fs';

/**
 * The most bytes one hand-written file may hold: the API server takes a request of at most 3 MiB
 * and etcd stores an object of at most 1.5 MiB, so a file of many objects (a CRD bundle, a list)
 * is far below this; a `*.yaml` link to `/dev/zero` or a runaway file is far above.
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/**
 * The deepest one document may nest (objects and lists). The largest objects Kubernetes serves
 * (CRD schemas) nest a few dozen levels; hcp-cdk's checks walk objects recursively, and a document
 * thousands of levels deep would end them in a stack overflow instead of a message.
 */
export const MAX_DEPTH = 1000;

/** A file hcp-cdk will not read, and why, in one line (no stack trace). */
export class UnreadableFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableFileError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * The bytes of `file`, which must be a regular file (a link to one is followed) of at most
 * `maxBytes`: a FIFO would block the read forever, a device (`/dev/zero`, which git can store as a
 * link's target) never ends, so both are refused before a byte is read. Opened without blocking,
 * so that a FIFO is told, not waited on; the size is checked on what was opened, not on the name.
 */
export function readRegularFile(file: string, maxBytes = MAX_FILE_BYTES): Buffer {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw new UnreadableFileError(`${file}: ${fileErrorReason(error)}`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new UnreadableFileError(`${file}: ${kindOf(stat)}, not a regular file; only regular files are read (a link must lead to one)`);
    if (stat.size > maxBytes) throw new UnreadableFileError(`${file}: ${stat.size} bytes, more than the ${maxBytes} a file may hold`);
    // Read up to one byte past the bound: a file that grows while it is read is refused too.
    const buffer = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length < buffer.length; length += read) read = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (length > maxBytes) throw new UnreadableFileError(`${file}: grew past the ${maxBytes} bytes a file may hold while it was read`);
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`${file}: ${fileErrorReason(error)}`);
  } finally {
    fs.closeSync(fd);
  }
}

function kindOf(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  if (stat.isSocket()) return 'a socket';
  if (stat.isDirectory()) return 'a directory';
  return 'not a file';
}

/** What the file system said, in words a user acts on, by error code. */
const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory (or a symbolic link to nothing)',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ELOOP: 'symbolic link loop',
  ENOTDIR: 'not a directory',
  EISDIR: 'is a directory',
  ENAMETOOLONG: 'a file name or path is too long for the file system',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EMFILE: 'too many open files',
  EIO: 'an input/output error of the device',
  EEXIST: 'something else is already there',
};

/** What an fs error means, in words; undefined for an error without a code known here. */
export function knownFileErrorReason(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === undefined ? undefined : FILE_ERRORS[code];
}

/** What an fs error means, in words (its own first line when its code is not known here). */
export function fileErrorReason(error: unknown): string {
  return knownFileErrorReason(error) ?? String((error as Error)?.message ?? error).split('\n')[0];
}

/** How deep `value` nests, counting up to `limit` + 1 (iterative: no stack to overflow). */
export function depthOf(value: unknown, limit = MAX_DEPTH): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    // Shared (aliased) values are walked once: expandedSize counts their copies.
    seen.add(node);
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Why JSON text `text` is not one the API server would take as the same object: the first key an
 * object holds twice (JSON.parse keeps the last silently; the API server's strict decoding refuses
 * it), or a nesting deeper than `MAX_DEPTH`. Undefined when it has neither. Scans the text once,
 * without parsing values: call it on text JSON.parse accepted.
 */
export function jsonTextProblem(text: string): string | undefined {
  const keys: (Set<string> | undefined)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '{' || c === '[') {
      keys.push(c === '{' ? new Set() : undefined);
      if (keys.length > MAX_DEPTH) return `it nests deeper than ${MAX_DEPTH} levels`;
      expectKey = c === '{';
    } else if (c === '}' || c === ']') {
      keys.pop();
      expectKey = false;
    } else if (c === ',') {
      expectKey = keys[keys.length - 1] !== undefined;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        const present = keys[keys.length - 1]!;
        if (present.has(key)) return `the key ${JSON.stringify(key)} appears twice in one object (the API server refuses duplicate keys)`;
        present.add(key);
        expectKey = false;
      }
      i = j;
    }
  }
  return undefined;
}
