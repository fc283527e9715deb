import * as fs from 'fs';
import * as path from 'path';
import { relativePathProblem } from '../core/path-part';

/**
 * The file in which an output directory records the files its synth wrote: the only files a later
 * synth deletes or replaces there. A dotfile with no YAML extension, so GitOps engines and
 * kustomize never read it; committed with the output, so a fresh clone knows what is the output's.
 */
export const OUTPUT_MANIFEST = '.hcp-cdk-output';

const FORMAT = 'hcp-cdk output files, v1';

/** The manifest's text: its format and the '/'-separated paths of the files, sorted. */
interface ManifestContents {
  readonly format: typeof FORMAT;
  readonly files: readonly string[];
}

/** An output manifest that cannot be trusted: not hcp-cdk's, or naming a path outside its directory. */
export class OutputManifestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutputManifestError';
    this.stack = `${this.name}: ${this.message}`;
  }
}

/**
 * The files the manifest in `root` says a synth wrote there, checked: hcp-cdk's format, every
 * path under `root` (see `relativePathProblem`). Undefined when `root` has no manifest (nothing
 * written yet, or the output of an hcp-cdk from before the manifest); throws OutputManifestError
 * when it has one that fails the check.
 */
export function readOutputManifest(root: string): ReadonlySet<string> | undefined {
  const file = path.join(root, OUTPUT_MANIFEST);
  let text: string;
  try {
    const stat = fs.lstatSync(file, { throwIfNoEntry: false });
    if (stat === undefined) return undefined;
    if (!stat.isFile()) throw new OutputManifestError(`${file} is not a regular file; hcp-cdk writes it as one`);
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof OutputManifestError) throw error;
    throw new OutputManifestError(`${file} cannot be read (${(error as Error).message})`);
  }
  let contents: ManifestContents;
  try {
    contents = JSON.parse(text) as ManifestContents;
  } catch (error) {
    throw new OutputManifestError(`${file} is not JSON (${(error as Error).message})`);
  }
  if (contents?.format !== FORMAT || !Array.isArray(contents.files)) throw new OutputManifestError(`${file} is not an hcp-cdk output manifest (format ${JSON.stringify(contents?.format)})`);
  for (const entry of contents.files) {
    const problem = relativePathProblem(entry);
    if (problem) throw new OutputManifestError(`${file} names a file outside ${root}: ${problem}`);
  }
  return new Set(contents.files);
}

/** Records `files` ('/'-separated paths under `root`) as what a synth wrote there, in one rename. */
export function writeOutputManifest(root: string, files: readonly string[]): void {
  const contents: ManifestContents = { format: FORMAT, files: [...files].sort() };
  const file = path.join(root, OUTPUT_MANIFEST);
  const staging = `${file}.${process.pid}`;
  fs.writeFileSync(staging, `${JSON.stringify(contents, undefined, 1)}\n`);
  fs.renameSync(staging, file);
}
