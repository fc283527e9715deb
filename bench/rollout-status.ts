// npm run bench (rollout part): `hcp-cdk rollout status` over a fleet of 5,000 hosted clusters on the
// local test kube-apiserver (started as the server tests start it, from the etcd snapshot with the
// CRDs), two management folders of 2,500 clusters each, every HostedCluster and NodePool with a status
// of the corpus (most at rest at the target, some upgrading, some pools rolling, some failed). The
// rollout's record releases 3 of its 4 waves. Times the whole command (process start to exit,
// --json to a file), the API's read and report in one process, and `rollout advance --dry-run`.
// Reports, never asserts. ROLLOUT_STATUS_SIZE and ROLLOUT_STATUS_RUNS change the size and the runs.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { HcpApp, HostedCluster, ManagementCluster, readLiveClusters, readRolloutRecords, Release, rolloutStatusReport } from '../lib';
import { crdSnapshot } from '../test/server/crd-snapshot';
import { readCrds, validationSchemaFiles, waitForCrds } from '../test/server/install-crds';
import { KubeApiServer } from '../test/server/kube-apiserver';
import { KubeClient } from '../test/server/kube-client';
import { clusterProps } from '../test/props';
import { STATUS_CORPUS } from '../test/status/status-corpus';

const SIZE = Number(process.env.ROLLOUT_STATUS_SIZE ?? '5000');
const RUNS = Number(process.env.ROLLOUT_STATUS_RUNS ?? '3');
const ROOT = path.join(__dirname, '..', '..');
const CONCURRENCY = 16;

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (millis: number): string => `${(millis / 1000).toFixed(2)} s`;

/** A HostedCluster and its NodePool as hcp-cdk synthesizes them (the spec the API server validates), at 4.17.5. */
function template(): { hostedCluster: any; nodePool: any } {
  const app = new HcpApp({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-rollout-bench-template-')) });
  const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'template', clusterProps({ release: Release.fromVersion('4.17.5') }));
  cluster.addNodePool('workers', { replicas: 2 });
  const objects = app.synthesize().map((file) => YAML.parse(file.text));
  return { hostedCluster: objects.find((o) => o?.kind === 'HostedCluster'), nodePool: objects.find((o) => o?.kind === 'NodePool') };
}

/** A corpus shape's status, its versions relabelled (4.17.3 at rest becomes 4.17.5 at rest over 4.17.3). */
function status(shape: string, relabel: boolean): any {
  const text = JSON.stringify(STATUS_CORPUS.find((s) => s.name === shape)!.object.status);
  return JSON.parse(relabel ? text.replace(/4\.17\.3/g, '4.17.5').replace(/4\.17\.0/g, '4.17.3') : text);
}

/** What cluster `i` reports: 90% done, 5% its control plane upgrading, 3% its pool rolling, 2% failed. */
function statusesOf(i: number): { hostedCluster: any; nodePool: any } {
  const done = { hostedCluster: status('hc: at rest, released by tag, status by digest', true), nodePool: status('np: fixed size, Ready', true) };
  const slot = i % 100;
  if (slot < 90) return done;
  if (slot < 95) return { hostedCluster: status('hc: control plane upgrading (version operator has taken it)', false), nodePool: status('np: fixed size, Ready', false) };
  if (slot < 98) return { ...done, nodePool: status('np: rolling a new version', false) };
  return { ...done, hostedCluster: status('hc: release payload not accepted by the version operator', false) };
}

/** Runs `work` over `items`, CONCURRENCY at a time. */
async function each<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function main(): Promise<void> {
  const crds = readCrds(validationSchemaFiles(ROOT));
  const snapshot = await crdSnapshot(ROOT, crds);
  const server = await KubeApiServer.start({ root: ROOT, etcdData: snapshot.directory });
  const client = new KubeClient(server.connection);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-rollout-status-bench-'));
  try {
    await waitForCrds(client, crds);
    const { hostedCluster, nodePool } = template();
    const ids = Array.from({ length: SIZE }, (_, i) => {
      const hub = `hub-${i % 2}`;
      return { i, hub, namespace: `bench-${i % 2}`, name: `c${String(i).padStart(5, '0')}` };
    });
    for (const namespace of ['bench-0', 'bench-1']) await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, { fieldManager: 'bench' });
    const loading = Date.now();
    await each(ids, async ({ i, namespace, name }) => {
      const statuses = statusesOf(i);
      const objects = [
        { object: { ...hostedCluster, metadata: { ...hostedCluster.metadata, name, namespace } }, status: statuses.hostedCluster },
        { object: { ...nodePool, metadata: { ...nodePool.metadata, name: `${name}-workers`, namespace }, spec: { ...nodePool.spec, clusterName: name } }, status: statuses.nodePool },
      ];
      for (const { object, status: written } of objects) {
        const created = await client.create(object);
        if (created.status !== 201) throw new Error(`create ${object.kind} ${namespace}/${object.metadata.name}: ${created.status} ${created.message}`);
        const conditions = written.conditions.map((c: any) => ({ ...c, observedGeneration: created.body.metadata.generation }));
        const updated = await client.updateStatus({ ...object, metadata: { ...object.metadata, resourceVersion: created.body.metadata.resourceVersion }, status: { ...written, conditions } });
        if (updated.status !== 200) throw new Error(`status of ${object.kind} ${namespace}/${object.metadata.name}: ${updated.status} ${updated.message}`);
      }
    });
    const loaded = Date.now() - loading;

    // The output's record: 2 canaries, 50, 2,000, the rest; 3 waves released.
    const clusters = ids.map(({ hub, namespace, name }) => `${hub}/${namespace}/${name}`);
    const waves = [
      { name: 'canaries', clusters: clusters.slice(0, 2), releasedAt: '2026-05-01T10:00:00Z' },
      { name: 'wave-2', clusters: clusters.slice(2, 52), releasedAt: '2026-05-01T11:00:00Z' },
      { name: 'wave-3', clusters: clusters.slice(52, 2052), releasedAt: '2026-05-01T12:00:00Z' },
      { name: 'rest', clusters: clusters.slice(2052) },
    ];
    const output = path.join(work, 'dist');
    fs.mkdirSync(path.join(output, 'rollouts'), { recursive: true });
    fs.writeFileSync(path.join(work, 'r.state.yaml'), YAML.stringify({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'ReleaseRolloutState', metadata: { name: 'r-4-17-5' }, spec: { releasedWaves: 3 } }));
    fs.writeFileSync(
      path.join(output, 'rollouts', '40-releaserollout-r-4-17-5.yaml'),
      YAML.stringify({
        apiVersion: 'hcp-cdk.io/v1alpha1',
        kind: 'ReleaseRollout',
        metadata: { name: 'r-4-17-5' },
        spec: { release: { image: Release.fromVersion('4.17.5').image, version: '4.17.5' }, releasedWaves: 3, onFailure: 'Continue', stateFile: '../r.state.yaml', waves },
      }),
    );
    const kubeconfig = path.join(work, 'kubeconfig');
    fs.writeFileSync(
      kubeconfig,
      YAML.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'bench', cluster: { 'server': server.connection.url, 'certificate-authority': server.connection.caFile } }],
        users: [{ name: 'admin', user: { token: server.connection.token } }],
        contexts: ['hub-0', 'hub-1'].map((name) => ({ name, context: { cluster: 'bench', user: 'admin' } })),
        'current-context': 'hub-0',
      }),
      { mode: 0o600 },
    );

    const command = (args: string[]): number => {
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'rollout', ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const millis = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0 && !(args[0] === 'advance' && [2, 3, 4].includes(result.status ?? -1))) throw new Error(`rollout ${args.join(' ')}: ${result.status} ${result.stderr}`);
      return millis;
    };
    // The floor: the same pages read with a plain https client (the server's part, and parsing them).
    const floor = async (): Promise<number> => {
      const started = process.hrtime.bigint();
      await Promise.all(
        ['bench-0', 'bench-1'].flatMap((namespace) =>
          ['hostedclusters', 'nodepools'].map(async (resource) => {
            let token: string | undefined;
            do {
              const page = await client.request('GET', `/apis/hypershift.openshift.io/v1beta1/namespaces/${namespace}/${resource}`, { query: { limit: '500', ...(token ? { continue: token } : {}) } });
              token = page.body?.metadata?.continue || undefined;
            } while (token !== undefined);
          }),
        ),
      );
      return Number(process.hrtime.bigint() - started) / 1e6;
    };
    const floorRuns: number[] = [];
    const statusRuns: number[] = [];
    const advanceRuns: number[] = [];
    const readRuns: number[] = [];
    const reportRuns: number[] = [];
    let pages = 0;
    let jsonLength = 0;
    for (let run = 0; run < RUNS; run++) {
      statusRuns.push(command(['status', output, '--kubeconfig', kubeconfig, '--json']));
      advanceRuns.push(command(['advance', output, '--kubeconfig', kubeconfig, '--dry-run', '--json']));
      floorRuns.push(await floor());
      const records = readRolloutRecords(output);
      const reading = process.hrtime.bigint();
      const live = await readLiveClusters(clusters, { kubeconfig });
      readRuns.push(Number(process.hrtime.bigint() - reading) / 1e6);
      const reporting = process.hrtime.bigint();
      const report = rolloutStatusReport({ output, records, live, now: new Date('2026-05-01T13:00:00Z') });
      reportRuns.push(Number(process.hrtime.bigint() - reporting) / 1e6);
      pages = live.hubs.reduce((n, hub) => n + hub.pages, 0);
      jsonLength = JSON.stringify(report).length;
    }
    console.log(`\nrollout status over ${SIZE.toLocaleString('en-US')} hosted clusters on the local test kube-apiserver (2 management folders), median of ${RUNS}`);
    console.log(`  loading the fleet (create and status of ${(2 * SIZE).toLocaleString('en-US')} objects, ${CONCURRENCY} at a time)  ${seconds(loaded)}`);
    console.log(`  hcp-cdk rollout status --json, whole process   ${seconds(median(statusRuns))}`);
    console.log(`  hcp-cdk rollout advance --dry-run, whole process ${seconds(median(advanceRuns))}`);
    console.log(`  the read (readLiveClusters, ${pages} pages of 500)  ${seconds(median(readRuns))}`);
    console.log(`  floor: the same pages with a plain https client    ${seconds(median(floorRuns))}`);
    console.log(`  the report (rolloutStatusReport)               ${seconds(median(reportRuns))}   JSON ${(jsonLength / 1e6).toFixed(1)} MB`);
  } finally {
    client.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
