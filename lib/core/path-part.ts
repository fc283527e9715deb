import * as fs from 'fs';
import * as path from 'path';
import { DNS1123_SUBDOMAIN_MAX } from './names';
import { show } from './problems';

/**
 * What a name may be to become one part of an output path: a DNS-1123 subdomain (what the API
 * server accepts for the names of nearly every kind), with ':' also allowed inside, as RBAC names
 * (`system:openshift:scc:privileged`) use it. It starts and ends with a letter or digit, so it is
 * never '.', '..', empty or hidden, and it holds no '/', '\' or NUL, so it never leaves its folder.
 */
export const PATH_PART_PATTERN = '^[a-z0-9]([-a-z0-9.:]*[a-z0-9])?$';
const PATH_PART = new RegExp(PATH_PART_PATTERN);

/** What `pathPartProblem` accepts, for messages. */
export const PATH_PART_RULE =
  'must be a DNS-1123 name (lower-case letters, digits, "-" and ".", ":" for RBAC names, starting and ending with a letter or digit, at most 253 characters), which never leaves its folder';

/** Thrown when a name cannot become part of an output path (see `pathPart`). */
export class PathPartError extends Error {
  /**
   * @param message what is wrong, from the field on
   * @param subject the path of the construct the name is of (a chart, a cluster), when it is not
   *   the object being placed: its problem is then reported once, not for each of its objects
   */
  constructor(
    message: string,
    readonly subject?: string,
  ) {
    super(message);
    this.name = 'PathPartError';
    // The message says what and where; the stack of hcp-cdk internals would only bury it.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * Why `value` cannot be one part of an output path (a folder or a file's name stem): undefined
 * when it can. `what` names the field in the message (`management cluster name`, `metadata.name`).
 */
export function pathPartProblem(what: string, value: unknown): string | undefined {
  if (typeof value === 'string' && value.length <= DNS1123_SUBDOMAIN_MAX && PATH_PART.test(value)) return undefined;
  return `${what} (${show(value)}) ${PATH_PART_RULE}`;
}

/**
 * `value` as one part of an output path; throws a PathPartError naming `what` when it is not a
 * DNS-1123 name or would leave its folder. The one way hcp-cdk turns a name (a hub, a cluster, a
 * guest, a namespace, an object of any kind) into a folder or a file name.
 */
export function pathPart(what: string, value: unknown, subject?: string): string {
  const problem = pathPartProblem(what, value);
  if (problem) throw new PathPartError(problem, subject);
  return value as string;
}

/**
 * Why `relative`, a '/'-separated path read back from a file (the last good copy, an output
 * manifest) or made by a delivery, cannot be a path under its root: undefined when every part of
 * it is a plain name (not empty, '.' or '..', no '\' or NUL) and it is not absolute.
 */
export function relativePathProblem(relative: unknown): string | undefined {
  if (typeof relative !== 'string' || relative === '') return `${show(relative)} is not a path`;
  if (relative.startsWith('/') || /^[a-zA-Z]:/.test(relative)) return `${show(relative)} is absolute`;
  for (const part of relative.split('/')) {
    if (part === '' || part === '.' || part === '..' || /[\\\0]/.test(part)) return `${show(relative)} would leave its folder (part ${show(part)})`;
  }
  return undefined;
}

/**
 * `relative` resolved under `root`; throws when it would leave `root`, by its text (see
 * `relativePathProblem`) or through a symbolic link on the way (a folder under `root` that is a
 * link to elsewhere). `where` names what the path was read from, for the message.
 */
export function confinedPath(root: string, relative: unknown, where: string): string {
  const problem = relativePathProblem(relative);
  if (problem) throw new PathPartError(`${where}: the path ${problem}; it is refused, as everything outside ${root} is`);
  const target = path.join(root, relative as string);
  const link = linkOnTheWay(root, target);
  if (link) throw new PathPartError(`${where}: the path ${show(relative)} goes through ${link}, a symbolic link, which may lead outside ${root}; it is refused`);
  return target;
}

/**
 * Why `relative`, a path a hand-written file names for hcp-cdk to read (a fleet inventory's state
 * or graph file), leads outside `root`, the folder it is relative to: absolute, leaving it by `..`,
 * or, resolved, through a symbolic link (the file's own or a folder's on the way). Undefined when it
 * stays inside; a file that does not exist stays inside by its text (its reader says it is missing).
 */
export function readPathOutsideProblem(root: string, relative: string): string | undefined {
  if (path.isAbsolute(relative) || /^[a-zA-Z]:/.test(relative)) return 'it is absolute';
  const normalized = path.posix.normalize(relative);
  if (normalized === '..' || normalized.startsWith('../')) return 'it leads out of it by ".."';
  const top = resolvedPath(root);
  const target = resolvedPath(path.join(root, normalized));
  return target === top || target.startsWith(`${top}${path.sep}`) ? undefined : `it leads to ${target} through a symbolic link`;
}

/** `file` with every symbolic link resolved, as far as it exists; the parts that do not exist yet as named. */
function resolvedPath(file: string): string {
  const missing: string[] = [];
  for (let at = path.resolve(file); ; at = path.dirname(at)) {
    try {
      return path.join(fs.realpathSync(at), ...missing);
    } catch {
      if (path.dirname(at) === at) return path.resolve(file);
      missing.unshift(path.basename(at));
    }
  }
}

/** The first folder between `root` (excluded) and `target` (excluded) that is a symbolic link, if any. */
function linkOnTheWay(root: string, target: string): string | undefined {
  const parts = path
    .relative(root, path.dirname(target))
    .split(path.sep)
    .filter((p) => p !== '');
  let at = root;
  for (const part of parts) {
    at = path.join(at, part);
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return undefined; // Nothing there yet: what is made is a folder.
    if (stat.isSymbolicLink()) return at;
  }
  return undefined;
}
