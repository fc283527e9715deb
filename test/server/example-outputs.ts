// The examples' output as the server tests read it: each example app run with node, as `cdk8s synth`
// runs it (the output directory in CDK8S_OUTDIR), under a delivery mode, and every object it writes.
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { readTree } from '../util';
import type { ExampleJob } from './example-runner';
import type { KubeClient } from './kube-client';
import { ROLLOUT_RECORD_FOLDER } from '../../lib/release/rollout-record';

/** The delivery modes `HCP_CDK_DELIVERY` picks (examples/delivery.ts). */
export const DELIVERY_MODES = ['kustomize', 'argocd', 'flux', 'acm'] as const;
export type DeliveryMode = (typeof DELIVERY_MODES)[number];

/** The examples whose cdk8s app is not main.js: the AWS example's infra.js is its CloudFormation half. */
const APPS: Readonly<Record<string, string>> = { aws: 'clusters.js' };

export interface ExampleApp {
  /** The example's folder under examples/. */
  readonly name: string;
  /** Its compiled cdk8s app. */
  readonly app: string;
}

/** Every example, one per folder of examples/, with the compiled app that writes its Kubernetes objects. */
export function exampleApps(root: string): ExampleApp[] {
  const folders = fs
    .readdirSync(path.join(root, 'examples'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return folders.map((name) => {
    const app = path.join(root, 'build', 'examples', name, APPS[name] ?? 'main.js');
    if (!fs.existsSync(app)) {
      throw new Error(`examples/${name}: ${path.relative(root, app)} does not exist; an example is a folder with a main.ts, or its app is named in APPS (test/server/example-outputs.ts)`);
    }
    return { name, app };
  });
}

/**
 * Runs the example apps of `jobs`, each writing its output directory, in `processes` node processes
 * of example-runner.js (the library loaded once per process); rejects with the output of a failed app.
 */
export async function synthExamples(jobs: readonly ExampleJob[], root: string, processes = 2): Promise<void> {
  const runner = path.join(__dirname, 'example-runner.js');
  const shares = Array.from({ length: Math.min(processes, jobs.length) }, (_, i) => jobs.filter((_job, j) => j % processes === i));
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((resolve, reject) => {
          execFile(process.execPath, [runner, JSON.stringify(share)], { cwd: root, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
            if (error) reject(new Error(`the example apps did not all synthesize (${error.message.split('\n')[0]}):\n${`${stdout}${stderr}`.slice(-8000)}`));
            else resolve();
          });
        }),
    ),
  );
}

/** One object of an output. */
export interface OutputObject {
  /** Where it is: its file in the output directory, and for an object inside another, the path to it there. */
  readonly source: string;
  readonly object: any;
  /** The file's YAML text, for an object that is a file of its own. */
  readonly text?: string;
}

/**
 * Every object under `outdir`, the objects ACM Policies put on clusters included; not the
 * kustomization.yaml files, which kustomize reads, not the API server.
 */
export function outputObjects(outdir: string): OutputObject[] {
  const objects: OutputObject[] = [];
  for (const [file, text] of readTree(outdir)) {
    if (path.posix.basename(file) === 'kustomization.yaml') continue;
    // hcp-cdk's record of each release rollout, for plan: no engine applies it, no cluster serves it.
    if (file.startsWith(`${ROLLOUT_RECORD_FOLDER}/`)) continue;
    const documents = YAML.parseAllDocuments(text)
      .map((d) => d.toJS())
      .filter((d) => d !== null);
    for (const [n, object] of documents.entries()) {
      objects.push({ source: documents.length > 1 ? `${file} (document ${n + 1})` : file, object, text: documents.length > 1 ? undefined : text });
      objects.push(...policyObjects(object, file));
    }
  }
  return objects;
}

/** The objects a Policy's ConfigurationPolicies create on the clusters it is placed on. */
function policyObjects(policy: any, file: string): OutputObject[] {
  if (policy.kind !== 'Policy' || !String(policy.apiVersion).startsWith('policy.open-cluster-management.io/')) return [];
  return (policy.spec?.['policy-templates'] ?? []).flatMap((template: any, i: number) => {
    if (template.objectDefinition?.kind !== 'ConfigurationPolicy') return [];
    return (template.objectDefinition.spec?.['object-templates'] ?? []).map((entry: any, j: number) => ({
      source: `${file} policy-templates[${i}].objectDefinition.spec.object-templates[${j}].objectDefinition`,
      object: entry.objectDefinition,
    }));
  });
}

/** `kind namespace/name` (or `kind name` when cluster-scoped). */
export function objectName(object: any): string {
  const { name, namespace } = object.metadata ?? {};
  return `${object.kind} ${namespace ? `${namespace}/` : ''}${name}`;
}

/**
 * Creates the namespaces `objects` are in, each once; one that exists already is fine. Namespaces
 * never finish deleting on a server without controllers, so the server suites create them and keep them.
 */
export async function createNamespacesOf(client: KubeClient, objects: readonly OutputObject[]): Promise<void> {
  const namespaces = new Set(objects.map((o) => o.object.metadata?.namespace).filter((n): n is string => typeof n === 'string'));
  await Promise.all(
    [...namespaces].map(async (name) => {
      const created = await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      if (created.status !== 201 && created.status !== 409) throw new Error(`namespace ${name}: ${created.status} ${created.message}`);
    }),
  );
}
