import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { expandedSize } from './expanded-size';
import type { ValidationProblem } from './validation-problem';

/**
 * The most values one document may expand to through YAML aliases. The largest object hcp-cdk
 * writes (a HostedCluster with every option) holds a few hundred; an alias bomb holds billions.
 */
export const MAX_EXPANDED_VALUES = 100_000;

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
    case 'ENOENT':
      return 'no such file or directory (or a symbolic link to nothing)';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'symbolic link loop';
    case 'ENOTDIR':
      return 'not a directory';
    case 'EISDIR':
      return 'is a directory';
    default:
      return (error as Error).message;
  }
}

/** The documents of one YAML or JSON file, and why any of it cannot be read as objects. */
export interface ManifestDocuments {
  /** The documents that parsed, each within the alias bound; `null` for an empty document. */
  readonly documents: readonly unknown[];
  /** Not JSON or YAML (a duplicated key, a syntax error), or a document whose aliases expand too far: problems of the file. */
  readonly problems: readonly ValidationProblem[];
}

/**
 * Reads one YAML (every document) or JSON file the way `hcp-cdk validate` reads manifests, for it
 * and for every other reader of hand-written files (a fleet inventory): YAML by the core schema
 * (timestamps stay strings, as the API server reads them), a duplicated key or a syntax error as a
 * problem of the file, and a document whose aliases expand past MAX_EXPANDED_VALUES values (an
 * "alias bomb") or contain themselves refused without expanding it. A file that cannot be read is
 * a ManifestPathError saying why.
 */
export function readManifestFile(file: string): ManifestDocuments {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ManifestPathError(`${file}: ${reason(error)}`);
  }
  const problems: ValidationProblem[] = [];
  let parsed: unknown[];
  if (file.endsWith('.json')) {
    try {
      parsed = [JSON.parse(text)];
    } catch (error) {
      return { documents: [], problems: [{ object: {}, path: '', message: `not valid JSON: ${(error as Error).message}`, source: file }] };
    }
  } else {
    try {
      // js-yaml parses several times faster than the yaml package, which matters for a repository of thousands of objects.
      parsed = loadAll(text, undefined, { schema: CORE_SCHEMA, filename: file });
    } catch (error) {
      return { documents: [], problems: [{ object: {}, path: '', message: `not valid YAML: ${(error as Error).message.split('\n')[0]}`, source: file }] };
    }
  }
  const documents: unknown[] = [];
  parsed.forEach((document, index) => {
    const size = expandedSize(document, MAX_EXPANDED_VALUES);
    if (size === 'cycle' || size > MAX_EXPANDED_VALUES) {
      const what = size === 'cycle' ? 'an alias that contains itself' : `aliases that expand to more than ${MAX_EXPANDED_VALUES} values`;
      problems.push({ object: {}, path: '', message: `document ${index + 1} has ${what}; it is not read (an API server would refuse it too)`, source: file });
    } else {
      documents.push(document);
    }
  });
  return { documents, problems };
}
