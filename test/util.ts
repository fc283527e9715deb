import * as path from 'path';
import * as YAML from 'yaml';
import { HcpApp } from '../lib';

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
export function synthProblems(build: (app: HcpApp) => void): string[] {
  try {
    const app = new HcpApp({ outdir: '/nonexistent' });
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
