// Running the examples as users do: the real cdk8s CLI into a fresh directory, and hcp-cdk validate on what it wrote.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ROLLOUT_RECORD_FOLDER } from '../../lib';
import { readTree, ROOT } from '../util';

export { readTree };

/**
 * Whether an output file is a release rollout's record (`rollouts/`), which no delivery applies:
 * the folder has no kustomization.yaml, and no Application, Kustomization or Policy points at it.
 */
export function isRolloutRecord(file: string): boolean {
  return file.startsWith(`${ROLLOUT_RECORD_FOLDER}/`);
}

const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

export interface ExampleSynth {
  readonly outdir: string;
  readonly status: number | null;
  readonly output: string;
}

/** `cdk8s synth` of an example app into a fresh directory, under a delivery mode (HCP_CDK_DELIVERY) when given. */
export function cdk8sSynth(app: string, mode?: string): ExampleSynth {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), `hcp-cdk-${mode ?? 'example'}-`));
  const env = mode === undefined ? process.env : { ...process.env, HCP_CDK_DELIVERY: mode };
  const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', `node ${app}`, '--output', outdir], { cwd: ROOT, encoding: 'utf8', env });
  return { outdir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/**
 * `hcp-cdk validate --strict <dir>`, as a separate process: an example's output passes the CRDs and
 * breaks no lint rule (a finding would be a problem, on stderr).
 */
export function hcpCdkValidate(dir: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ['build/bin/hcp-cdk.js', 'validate', '--strict', dir], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/**
 * What every example shows under every delivery, as tests of the enclosing describe: the first
 * synth passes `hcp-cdk validate` with `objects` objects and no problem, and a second synth writes
 * the same bytes.
 */
export function testValidAndRepeatable(first: ExampleSynth, second: ExampleSynth, tree: ReadonlyMap<string, string>, objects: number): void {
  test("every object passes hcp-cdk validate --strict (CRD schemas and CEL rules, and no lint finding), the delivery's own included", () => {
    const result = hcpCdkValidate(first.outdir);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(new RegExp(`^hcp-cdk validate: ${objects} objects in ${tree.size} files, 0 problems`));
    expect(result.status).toBe(0);
  });

  test('re-synth is byte-identical', () => {
    expect(second.status).toBe(0);
    expect(readTree(second.outdir)).toEqual(tree);
  });
}

/** The folders of an output tree, every level below the root. */
export function foldersOf(tree: ReadonlyMap<string, string>): Set<string> {
  return new Set(
    [...tree.keys()].flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );
}

/** Asserts that the kustomization.yaml of each of `folders` lists exactly its files and sub-folders, in name order (a folder's name ending in `/`). */
export function expectKustomizationsListTheirFolders(tree: ReadonlyMap<string, string>, folders: Iterable<string>): void {
  for (const folder of folders) {
    const kustomization = YAML.parse(tree.get(`${folder}/kustomization.yaml`)!);
    // Sub-folders sort as `<name>/`, as hcp-cdk writes them: `c1-infraenv` before `c1`.
    const entries = new Set(
      [...tree.keys()]
        .filter((f) => f.startsWith(`${folder}/`) && f !== `${folder}/kustomization.yaml`)
        .map((f) => {
          const rest = f.slice(folder.length + 1);
          return rest.includes('/') ? `${rest.split('/')[0]}/` : rest;
        }),
    );
    expect([folder, kustomization.resources]).toEqual([folder, [...entries].sort().map((e) => e.replace(/\/$/, ''))]);
  }
}
