// jest globalSetup of the `server` project: one kube-apiserver for the whole run, with the CRDs of
// cdk8s.yaml's validationSchemas installed (from the etcd snapshot of crd-snapshot.ts). Suites reach it
// with KubeClient.fromEnvironment(), through the connection file that HCP_CDK_TEST_APISERVER names;
// global-teardown.ts stops it.
import * as fs from 'fs';
import * as path from 'path';
import { crdSnapshot } from './crd-snapshot';
import { readCrds, validationSchemaFiles, waitForCrds } from './install-crds';
import { KubeApiServer } from './kube-apiserver';
import { CONNECTION_FILE_VARIABLE, KubeClient } from './kube-client';

/** Where globalTeardown (same process) finds the server. */
export const SERVER_GLOBAL = '__hcpCdkKubeApiServer';

export default async function globalSetup(_globalConfig: unknown, projectConfig: { rootDir: string }): Promise<void> {
  const root = projectConfig.rootDir;
  const started = Date.now();
  const crds = readCrds(validationSchemaFiles(root));
  const snapshot = await crdSnapshot(root, crds);
  const server = await KubeApiServer.start({ root, etcdData: snapshot.directory });
  (globalThis as Record<string, unknown>)[SERVER_GLOBAL] = server;
  const client = new KubeClient(server.connection);
  try {
    await waitForCrds(client, crds);
    const file = path.join(server.directory, 'connection.json');
    fs.writeFileSync(file, JSON.stringify(server.connection), { mode: 0o600 });
    process.env[CONNECTION_FILE_VARIABLE] = file;
    const made = snapshot.madeInMs === undefined ? '' : `, after making the etcd snapshot with the CRDs in ${seconds(snapshot.madeInMs)}`;
    process.stdout.write(
      `\ntest kube-apiserver at ${server.connection.url}: ready in ${seconds(server.readyAfterMs)}, ` +
        `its ${crds.length} CRDs served in ${seconds(Date.now() - started)} from the start of the setup${made}\n`,
    );
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
