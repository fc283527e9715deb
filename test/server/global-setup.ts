// jest globalSetup of the `server` project: one kube-apiserver for the whole run, with the CRDs of
// cdk8s.yaml's validationSchemas installed. Suites reach it with KubeClient.fromEnvironment(), through
// the connection file that HCP_CDK_TEST_APISERVER names; global-teardown.ts stops it.
import * as fs from 'fs';
import * as path from 'path';
import { installCrds, validationSchemaFiles } from './install-crds';
import { KubeApiServer } from './kube-apiserver';
import { CONNECTION_FILE_VARIABLE, KubeClient } from './kube-client';

/** Where globalTeardown (same process) finds the server. */
export const SERVER_GLOBAL = '__hcpCdkKubeApiServer';

export default async function globalSetup(_globalConfig: unknown, projectConfig: { rootDir: string }): Promise<void> {
  const server = await KubeApiServer.start({ root: projectConfig.rootDir });
  (globalThis as Record<string, unknown>)[SERVER_GLOBAL] = server;
  const client = new KubeClient(server.connection);
  try {
    const started = Date.now();
    const crds = await installCrds(client, validationSchemaFiles(projectConfig.rootDir));
    const file = path.join(server.directory, 'connection.json');
    fs.writeFileSync(file, JSON.stringify(server.connection), { mode: 0o600 });
    process.env[CONNECTION_FILE_VARIABLE] = file;
    process.stdout.write(`\ntest kube-apiserver at ${server.connection.url}: ready in ${seconds(server.readyAfterMs)}, `
      + `${crds.length} CRDs Established ${seconds(Date.now() - started)} later\n`);
  } catch (error) {
    await server.stop();
    throw error;
  } finally {
    client.close();
  }
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
