// The CRDs hcp-cdk validates against (cdk8s.yaml's validationSchemas), installed on the test server.
import * as fs from 'fs';
import * as yaml from 'js-yaml';
import * as path from 'path';
import { KubeClient, WatchEvent } from './kube-client';

// The core schema: a date-like string in a CRD (an example, a default) stays a string.
const SCHEMA = { schema: yaml.CORE_SCHEMA };

/** The files cdk8s.yaml lists under validationSchemas, as absolute paths (they are relative to the repository root). */
export function validationSchemaFiles(root: string): string[] {
  const config = yaml.load(fs.readFileSync(path.join(root, 'cdk8s.yaml'), 'utf8'), SCHEMA) as { validationSchemas?: string[] };
  if (!Array.isArray(config.validationSchemas) || config.validationSchemas.length === 0) {
    throw new Error(`${path.join(root, 'cdk8s.yaml')}: validationSchemas must list the CRD files hcp-cdk validates against`);
  }
  return config.validationSchemas.map((file) => path.resolve(root, file));
}

/** A CustomResourceDefinition and the file it is in. */
export interface CrdInFile {
  readonly file: string;
  readonly crd: any;
}

/** Every CustomResourceDefinition in `files`. */
export function readCrds(files: readonly string[]): CrdInFile[] {
  return files.flatMap((file) =>
    yaml
      .loadAll(fs.readFileSync(file, 'utf8'), undefined, SCHEMA)
      .filter((doc: any) => doc?.kind === 'CustomResourceDefinition')
      .map((crd) => ({ file, crd })),
  );
}

/** Creates every CRD of `crds`, then waits for them as `waitForCrds()` does. */
export async function installCrds(client: KubeClient, crds: readonly CrdInFile[], timeoutMs = 30000): Promise<void> {
  const created = await Promise.all(crds.map(async ({ file, crd }) => ({ file, crd, response: await client.create(crd) })));
  const failed = created.filter((c) => c.response.status !== 201);
  if (failed.length > 0) {
    throw new Error(`the test kube-apiserver refused CRDs: ${failed.map((c) => `${c.file}: ${c.crd.metadata.name}: ${c.response.status} ${c.response.message}`).join('; ')}`);
  }
  await waitForCrds(client, crds, timeoutMs);
}

/** Waits until every CRD of `crds` is Established and its kind is in its group version's discovery (which follows Established by a moment). */
export async function waitForCrds(client: KubeClient, crds: readonly CrdInFile[], timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const waiting = new Set(crds.map((c) => c.crd.metadata.name as string));
  const onEvent = (event: WatchEvent): boolean => {
    const established = (event.object?.status?.conditions ?? []).some((c: any) => c.type === 'Established' && c.status === 'True');
    if (established) waiting.delete(event.object.metadata.name);
    return waiting.size === 0;
  };
  // The server ends a watch of CRDs (megabytes each) whose reader falls behind, as the tests' node does on a busy machine: watch again.
  while (waiting.size > 0) {
    await client.watch('apiextensions.k8s.io/v1', 'CustomResourceDefinition', undefined, onEvent, Math.max(deadline - Date.now(), 1)).catch((error: Error) => {
      throw new Error(`${error.message}; not Established: ${[...waiting].join(', ')}`);
    });
  }

  for (const { crd } of crds) {
    const version = crd.spec.versions.find((v: any) => v.served).name;
    const probe = { apiVersion: `${crd.spec.group}/${version}`, kind: crd.spec.names.kind, metadata: { namespace: 'default' } };
    for (;;) {
      try {
        await client.objectPath(probe, { named: false });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }
}
