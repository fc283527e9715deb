import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { HcpApp, HcpAppProps } from '../lib';

/** The repository root (tests run from build/test, so go by the working directory). */
export const ROOT = process.cwd();
/** The shared reference material beside the repository. */
export const SHARED = path.resolve(ROOT, '..', 'shared');
export const FIXTURES = path.join(SHARED, 'hypershift-fixtures');

/** Synthesizes in memory and returns every object, parsed back from the YAML hcp-cdk writes. */
export function synthObjects(app: HcpApp): any[] {
  return synthFiles(app).map((file) => YAML.parse(file.text));
}

/** The files of the synthesized objects, without the kustomization.yaml of each folder. */
export function synthFiles(app: HcpApp): { path: string; text: string }[] {
  return app.synthesize().filter((file) => !file.path.endsWith('/kustomization.yaml'));
}

/** The one object of `kind` (and `name`, when given). */
export function findObject(objects: any[], kind: string, name?: string): any {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata?.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}`);
  return found[0];
}

/** The problems a failing synth reports, or [] when it succeeds. */
export function synthProblems(build: (app: HcpApp) => void, props: HcpAppProps = {}): string[] {
  try {
    const app = new HcpApp({ outdir: '/nonexistent', ...props });
    build(app);
    app.synthesize();
    return [];
  } catch (error) {
    const problems = (error as { problems?: string[] }).problems;
    return problems ? [...problems] : [(error as Error).message];
  }
}

/** The annotations every delivery puts on objects whose deletion destroys a cluster (see allowPruning). */
export const PRUNE_PROTECTION = {
  'argocd.argoproj.io/sync-options': 'Prune=false,Delete=false',
  'kustomize.toolkit.fluxcd.io/prune': 'disabled',
} as const;

/**
 * Every file under `dir` but the output manifest: '/'-separated relative path to content, empty when `dir` is missing.
 * `latin1` keeps any byte as one character, for comparing files byte for byte.
 */
export function readTree(dir: string, encoding: BufferEncoding = 'utf8'): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      // The manifest of what a synth wrote (OUTPUT_MANIFEST) is bookkeeping, not output.
      else if (at === dir && entry.name === '.hcp-cdk-output') continue;
      else files.set(path.relative(dir, full).split(path.sep).join('/'), fs.readFileSync(full, encoding));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

/** git in `dir`, with an identity and settings of its own so that the machine's config does not matter. */
export function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=hcp-cdk test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', '-c', 'commit.gpgsign=false', ...args], {
    cwd: dir,
    encoding: 'utf8',
  });
}
