import * as fs from 'fs';
import * as path from 'path';

/** A path `hcp-cdk validate` cannot read: named, with why, instead of a stack trace. */
export class ManifestPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManifestPathError';
  }
}

/**
 * The YAML and JSON files under `root` (a file or a directory), in name order. Symbolic links
 * are followed, but a link back into a directory already being walked is an error rather than
 * an endless walk, and a path that cannot be read says why.
 */
export function manifestFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (at: string, open: ReadonlySet<string>): void => {
    const stat = statOf(at);
    if (!stat.isDirectory()) {
      if (at === root || /\.(ya?ml|json)$/.test(at)) files.push(at);
      return;
    }
    const real = fs.realpathSync(at);
    if (open.has(real)) throw new ManifestPathError(`${at}: symbolic link loop: it leads back to ${real}, which is being read already`);
    const inside = new Set(open).add(real);
    for (const name of readDirectory(at).sort()) walk(path.join(at, name), inside);
  };
  walk(root, new Set());
  return files;
}

function statOf(at: string): fs.Stats {
  try {
    return fs.statSync(at);
  } catch (error) {
    throw new ManifestPathError(`${at}: ${reason(error)}`);
  }
}

function readDirectory(at: string): string[] {
  try {
    return fs.readdirSync(at);
  } catch (error) {
    throw new ManifestPathError(`${at}: ${reason(error)}`);
  }
}

/** What an fs error means, in words. */
export function reason(error: unknown): string {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT': return 'no such file or directory (or a symbolic link to nothing)';
    case 'EACCES': case 'EPERM': return 'permission denied';
    case 'ELOOP': return 'symbolic link loop';
    case 'ENOTDIR': return 'not a directory';
    case 'EISDIR': return 'is a directory';
    default: return (error as Error).message;
  }
}
