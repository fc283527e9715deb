import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { depthOf, fileErrorReason, jsonTextProblem, MAX_DEPTH, readRegularFile } from './bounded-read';
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
    throw new ManifestPathError(`${at}: ${fileErrorReason(error)}`);
  }
}

function readDirectory(at: string): string[] {
  try {
    return fs.readdirSync(at);
  } catch (error) {
    throw new ManifestPathError(`${at}: ${fileErrorReason(error)}`);
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
 * and for every other reader of hand-written files (a fleet inventory, `--crds`): a regular file
 * of at most MAX_FILE_BYTES (see `readRegularFile`), then `parseManifestText`. A file that cannot
 * be read is a ManifestPathError saying why, in one line.
 */
export function readManifestFile(file: string): ManifestDocuments {
  let text: string;
  try {
    text = readRegularFile(file).toString('utf8');
  } catch (error) {
    throw new ManifestPathError((error as Error).message);
  }
  return parseManifestText(text, file, file.endsWith('.json'));
}

/**
 * The documents of YAML or JSON text, each within the bounds every reader of hcp-cdk keeps: YAML by
 * the core schema (timestamps stay strings, as the API server reads them); a syntax error or a key
 * an object holds twice (in JSON too, where JSON.parse would keep the last) as a problem of the
 * text; a document deeper than MAX_DEPTH, or whose aliases expand past MAX_EXPANDED_VALUES values
 * (an "alias bomb") or contain themselves, refused without expanding it. `source` names the text
 * in problems.
 */
export function parseManifestText(text: string, source: string, json: boolean): ManifestDocuments {
  const problem = (message: string): ValidationProblem => ({ object: {}, path: '', message, source });
  let parsed: unknown[];
  if (json) {
    try {
      parsed = [JSON.parse(text)];
    } catch (error) {
      return { documents: [], problems: [problem(`not valid JSON: ${(error as Error).message}`)] };
    }
    const refused = jsonTextProblem(text);
    if (refused) return { documents: [], problems: [problem(`not read: ${refused}`)] };
  } else {
    try {
      // js-yaml parses several times faster than the yaml package, which matters for a repository of thousands of objects.
      parsed = loadAll(text, undefined, { schema: CORE_SCHEMA, filename: source });
    } catch (error) {
      // A flow collection nested thousands deep overflows the parser's stack: a bound, not a syntax error.
      if (error instanceof RangeError) return { documents: [], problems: [problem(`not read: it nests deeper than ${MAX_DEPTH} levels`)] };
      return { documents: [], problems: [problem(`not valid YAML: ${(error as Error).message.split('\n')[0]}`)] };
    }
  }
  const problems: ValidationProblem[] = [];
  const documents: unknown[] = [];
  parsed.forEach((document, index) => {
    if (depthOf(document) > MAX_DEPTH) {
      problems.push(problem(`document ${index + 1} nests deeper than ${MAX_DEPTH} levels; it is not read`));
      return;
    }
    const size = expandedSize(document, MAX_EXPANDED_VALUES);
    if (size === 'cycle' || size > MAX_EXPANDED_VALUES) {
      const what = size === 'cycle' ? 'an alias that contains itself' : `aliases that expand to more than ${MAX_EXPANDED_VALUES} values`;
      problems.push(problem(`document ${index + 1} has ${what}; it is not read (an API server would refuse it too)`));
    } else {
      documents.push(document);
    }
  });
  return { documents, problems };
}

/**
 * The documents of a file or text, or a one-line error: for readers that take nothing less than the
 * whole (a CRD file, an output's object file), the first problem is the error.
 */
export function manifestDocumentsOrThrow(read: ManifestDocuments, fail: (message: string) => Error): unknown[] {
  if (read.problems.length > 0) throw fail(`${read.problems[0].source}: ${read.problems[0].message}`);
  return [...read.documents];
}
