// `hcp-cdk plan --live` against a real kube-apiserver with the HyperShift CRDs: the last committed
// output is applied, the statuses are written through the status subresource as HyperShift writes
// them, objects are edited by hand, and plan reads the cluster through a kubeconfig file of its own,
// as a ServiceAccount that may only get (and one that may do nothing, for the 403).
import Ajv2020 from 'ajv/dist/2020';
import { execFile, spawn } from 'child_process';
import * as fs from 'fs';
import * as http from 'http';
import * as https from 'https';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { HcpApp, HostedCluster, HyperShiftVersion, LivePlanOptions, ManagementCluster, OutputSnapshot, Plan, PLAN_JSON_SCHEMA, planChanges, Release } from '../../lib';
import { clusterProps } from '../props';
import { STATUS_CORPUS } from '../status/status-corpus';
import { ROOT } from '../util';
import { KubeClient } from './kube-client';
import type { LiveJob } from './live-runner';

const client = KubeClient.fromEnvironment();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-live-'));
const NAMESPACE = 'plan-live';
const image = (version: string): string => Release.fromVersion(version).image;

/** A management folder `hub` holding one agent cluster `name` at `release`, whose pool `workers` is at `poolRelease` with `replicas`. */
interface ClusterSpec {
  readonly name: string;
  readonly release: string;
  readonly poolRelease?: string;
  readonly replicas?: number;
  /** A second pool, `<name>-extra`. */
  readonly extraPool?: boolean;
  /** What the management cluster states its HyperShift runs. */
  readonly hyperShift?: HyperShiftVersion;
}

/** Writes the synth of `spec` to a new directory and returns it, with `extra` files (path relative to it: YAML text) besides. */
function output(label: string, spec: ClusterSpec, extra: Record<string, string> = {}): string {
  const app = new HcpApp({ outdir: path.join(work, label) });
  const cluster = new HostedCluster(new ManagementCluster(app, 'hub', { hyperShift: spec.hyperShift }), spec.name, clusterProps({ release: Release.fromVersion(spec.release) }));
  cluster.addNodePool('workers', { replicas: spec.replicas ?? 2, release: spec.poolRelease ? Release.fromVersion(spec.poolRelease) : undefined });
  if (spec.extraPool) cluster.addNodePool('extra', { replicas: 1 });
  const dir = path.join(work, label);
  for (const file of [...app.synthesize(), ...Object.entries(extra).map(([name, text]) => ({ path: name, text }))]) {
    fs.mkdirSync(path.dirname(path.join(dir, file.path)), { recursive: true });
    fs.writeFileSync(path.join(dir, file.path), file.text);
  }
  return dir;
}

/** Applies every object of an output, as the GitOps engine does (not the rollout records of rollouts/, which no engine applies). */
async function sync(dir: string): Promise<void> {
  for (const file of walk(dir).filter((f) => !f.endsWith('kustomization.yaml') && !path.relative(dir, f).startsWith('rollouts/'))) {
    const response = await client.apply(YAML.parse(fs.readFileSync(file, 'utf8')), { fieldManager: 'argocd-controller' });
    expect([file, response.status < 300, response.message]).toEqual([file, true, '']);
  }
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

interface HistoryEntry {
  readonly state: 'Partial' | 'Completed';
  readonly version: string;
  readonly started: string;
}

/** Writes a HostedCluster's status as HyperShift does: the version history (newest first), the desired release and conditions. */
async function hostedClusterStatus(
  name: string,
  history: readonly HistoryEntry[],
  desired: string,
  conditions: readonly { type: string; status: string; reason: string; message: string }[] = [AVAILABLE],
): Promise<void> {
  const status = {
    version: {
      desired: { image: image(desired), version: desired },
      history: history.map((h) => ({
        state: h.state,
        version: h.version,
        image: image(h.version),
        startedTime: h.started,
        completionTime: h.state === 'Completed' ? h.started : null,
        verified: false,
      })),
      observedGeneration: 1,
      availableUpdates: null,
    },
    conditions: conditions.map((c) => ({ ...c, lastTransitionTime: '2026-05-01T10:00:00Z' })),
  };
  const response = await client.updateStatus({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name, namespace: 'clusters' }, status });
  expect([response.status, response.message]).toEqual([200, '']);
}

const AVAILABLE = { type: 'Available', status: 'True', reason: 'AsExpected', message: 'The hosted control plane is available' };

/**
 * Writes the status of corpus shape `shape` (test/status/status-corpus.ts) on the object of its kind
 * named `name`, through the status subresource, its conditions stamped with the object's generation
 * on the server (as HyperShift stamps them) unless the shape is about generations.
 */
async function corpusStatus(shape: string, name: string): Promise<void> {
  const found = STATUS_CORPUS.find((s) => s.name === shape);
  if (!found) throw new Error(`no corpus shape ${shape}`);
  const reference = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: found.object.kind, metadata: { name, namespace: 'clusters' } };
  const current = await client.get(reference);
  expect(current.status).toBe(200);
  const generation: number = current.body.metadata.generation;
  const status = { ...found.object.status, conditions: found.object.status.conditions.map((c: any) => ({ ...c, observedGeneration: generation })) };
  const response = await client.updateStatus({ ...reference, status });
  expect([shape, response.status, response.message]).toEqual([shape, 200, '']);
}

/** A token of ServiceAccount `name` of NAMESPACE, from the TokenRequest API. */
async function tokenOf(name: string): Promise<string> {
  await client.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: NAMESPACE } }, { fieldManager: 'test' });
  const response = await client.request('POST', `/api/v1/namespaces/${NAMESPACE}/serviceaccounts/${name}/token`, {
    body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } }),
  });
  expect(response.status).toBe(201);
  return response.body.status.token;
}

/** A kubeconfig with a context per user, each a token user of the test server (or of `server`, e.g. a proxy). */
function kubeconfig(file: string, users: Record<string, string>, current: string, server: { url: string; insecure?: boolean } = { url: client.connection.url }): string {
  const cluster = server.insecure ? { server: server.url, 'insecure-skip-tls-verify': true } : { server: server.url, 'certificate-authority': client.connection.caFile };
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'test', cluster }],
    users: Object.entries(users).map(([name, token]) => ({ name, user: { token } })),
    contexts: Object.keys(users).map((name) => ({ name, context: { cluster: 'test', user: name } })),
    'current-context': current,
  };
  const full = path.join(work, file);
  fs.writeFileSync(full, YAML.stringify(config), { mode: 0o600 });
  return full;
}

let config: string;

beforeAll(async () => {
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }, { fieldManager: 'test' });
  // The reader may get what plan reads, and nothing else: no list, no write.
  await client.apply(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'plan-live-reader' },
      rules: [
        { apiGroups: ['hypershift.openshift.io'], resources: ['hostedclusters', 'nodepools'], verbs: ['get'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
      ],
    },
    { fieldManager: 'test' },
  );
  await client.apply(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'plan-live-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'plan-live-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NAMESPACE }],
    },
    { fieldManager: 'test' },
  );
  const [reader, nobody] = await Promise.all([tokenOf('reader'), tokenOf('nobody')]);
  config = kubeconfig('kubeconfig', { reader, nobody }, 'reader');
}, 30_000);

afterAll(() => {
  client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

/** A job of live-runner.js: the API in a node process of its own (see there why). */
function runLive(job: LiveJob): Promise<any> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(__dirname, 'live-runner.js'), JSON.stringify(job)], { cwd: ROOT }, (error, stdout, stderr) => {
      if (error) reject(new Error(`live-runner: ${stderr || error.message}`));
      else resolve(JSON.parse(stdout));
    });
  });
}

/** addLiveState: plans `next` against `committed` (directories) and reads the cluster. */
function livePlan(committed: string, next: string, options: LivePlanOptions = {}): Promise<Plan> {
  return runLive({ job: 'plan', committed, next, options: { kubeconfig: config, ...options } });
}

/** `hcp-cdk plan --live` as a user runs it, in a node process of its own. */
function hcpCdkPlan(args: readonly string[], env: Record<string, string | undefined> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'plan', ...args], { env: { ...process.env, NO_COLOR: '1', HCP_CDK_STRICT: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('plan --live against a real API server', () => {
  test('an upgrade on top of one in progress is refused, naming the version in progress; --json carries it and matches the schema', async () => {
    // The last commit started 4.17.0 -> 4.17.3, which the control plane is still rolling out.
    const committed = output('up-1', { name: 'live-up', release: '4.17.3', poolRelease: '4.17.0' });
    await sync(committed);
    await hostedClusterStatus(
      'live-up',
      [
        { state: 'Partial', version: '4.17.3', started: '2026-05-01T10:00:00Z' },
        { state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' },
      ],
      '4.17.3',
    );
    const next = output('up-2', { name: 'live-up', release: '4.18.0', poolRelease: '4.17.0' });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--json']);
    expect(result.stderr).toBe(
      'hcp-cdk plan: 1 of the changes would be refused as the management cluster is now (live findings refused: an upgrade on top of one in progress, a pool ahead of the version its control plane reports); apply once the cluster allows them\n',
    );
    expect(result.status).toBe(1);
    const plan = JSON.parse(result.stdout);
    expect(new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA)(plan)).toBe(true);
    // Without --live the upgrade 4.17.3 -> 4.18.0 is a plain minor update.
    expect(plan.objects.find((o: any) => o.kind === 'HostedCluster').effects.map((e: any) => e.effect)).toEqual(['control-plane-upgrade']);
    expect(plan.live).toMatchObject({ context: 'reader', server: client.connection.url, managementFolder: 'hub', objectsRead: 3, objectsFound: 3 });
    expect(plan.live.findings).toEqual([
      {
        finding: 'upgrade-in-progress',
        refused: true,
        cluster: 'hub/clusters/live-up',
        apiVersion: 'hypershift.openshift.io/v1beta1',
        kind: 'HostedCluster',
        namespace: 'clusters',
        name: 'live-up',
        summary:
          'spec.release.image: refused: the control plane is still upgrading to 4.17.3 (status.version.history[0] is Partial since 2026-05-01T10:00:00Z), and a hosted cluster is not Upgradeable while an update is in progress (condition ClusterVersionUpgradeable), so HyperShift starts no minor update to 4.18.0 until that one is Completed; apply this commit after that, or name 4.18.0 in forceUpgradeTo',
        details: { inProgress: '4.17.3', inProgressImage: image('4.17.3'), to: '4.18.0', toImage: image('4.18.0') },
      },
    ]);

    // The API: app.plan({ live }) resolves to the same plan.
    const fromApp = await runLive({ job: 'app', committed, name: 'live-up', release: '4.18.0', poolRelease: '4.17.0', options: { kubeconfig: config, context: 'reader' } });
    expect(fromApp.live).toEqual(plan.live);
  }, 30_000);

  test("a pool is checked against the version the control plane reports, not its spec's", async () => {
    // The spec says 4.17.3; the control plane has not finished it and reports 4.17.0.
    const committed = output('skew-1', { name: 'live-skew', release: '4.17.3', poolRelease: '4.17.0' });
    await sync(committed);
    await hostedClusterStatus(
      'live-skew',
      [
        { state: 'Partial', version: '4.17.3', started: '2026-05-02T10:00:00Z' },
        { state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' },
      ],
      '4.17.3',
    );
    const next = output('skew-2', { name: 'live-skew', release: '4.17.3', poolRelease: '4.17.3' });

    expect(planChanges(OutputSnapshot.fromDirectory(committed), OutputSnapshot.fromDirectory(next)).summary.effects).toEqual({ 'node-pool-rollout': 1 });
    const plan = await livePlan(committed, next);
    expect(plan.live!.findings.map((f) => [f.finding, f.refused, f.name, f.summary])).toEqual([
      [
        'version-skew',
        true,
        'live-skew-workers',
        "spec.release.image: HyperShift does not roll it out: the control plane reports 4.17.0 (its newest Completed status.version.history entry), not the 4.17.3 its spec names, and against it the pool's release is 4.17.3, newer than the control plane's 4.17.0; node pools must not run ahead of the control plane (doc 6.6), and HyperShift reports SupportedVersionSkew False (ValidateVersionSkew, support/supportedversion/version.go): update the cluster first; its upgrade to 4.17.3 is in progress (status.version.history[0] is Partial since 2026-05-02T10:00:00Z): apply this commit once it is Completed",
      ],
      [
        'upgrade-in-progress',
        false,
        'live-skew',
        "the control plane is still upgrading to 4.17.3 (status.version.history[0] is Partial since 2026-05-02T10:00:00Z): this commit's changes to the cluster meet that upgrade in progress",
      ],
    ]);

    // Once the upgrade completes, the same commit meets nothing.
    await hostedClusterStatus(
      'live-skew',
      [
        { state: 'Completed', version: '4.17.3', started: '2026-05-02T10:00:00Z' },
        { state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' },
      ],
      '4.17.3',
    );
    expect((await livePlan(committed, next)).live!.findings).toEqual([]);
  }, 30_000);

  test('a field edited by hand is drift, by field path; a protected pool the commit removes stays on the cluster; a cluster not Available is a risk', async () => {
    const committed = output('drift-1', { name: 'live-drift', release: '4.17.0', replicas: 2, extraPool: true });
    await sync(committed);
    await hostedClusterStatus('live-drift', [{ state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' }], '4.17.0', [
      { type: 'Available', status: 'False', reason: 'WaitingForAvailable', message: 'Waiting for hosted control plane kube-apiserver to become available' },
    ]);
    // kubectl edit: another field manager takes the field over.
    const edit = await client.apply(
      { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', metadata: { name: 'live-drift-workers', namespace: 'clusters' }, spec: { replicas: 5 } },
      { fieldManager: 'kubectl-edit' },
    );
    expect(edit.status).toBe(200);
    const next = output('drift-2', { name: 'live-drift', release: '4.17.0', replicas: 3 });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--context', 'reader']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(2);
    const live = result.stdout.slice(result.stdout.indexOf('\nlive: ') + 1, result.stdout.indexOf('\n\ncluster '));
    expect(live.split('\n')).toEqual([
      `live: context reader (${client.connection.url}), management folder hub: 4 of 4 objects on the cluster; 1 not-available, 1 drift, 1 left-in-place`,
      "  version rules: HyperShift main's skew rule (hcp-cdk's default): the output records no HyperShift version, and plan --live may not read ConfigMap hypershift/supported-versions (403 Forbidden): " +
        'grant get on configmaps in namespace hypershift to apply the rules of the operator that runs there',
      '  not-available: hub/clusters/live-drift: HostedCluster clusters/live-drift: not Available (condition Available is False, reason WaitingForAvailable since 2026-05-01T10:00:00Z): Waiting for hosted control plane kube-apiserver to become available; what this commit changes lands on a control plane that is not serving',
      '  left-in-place: hub/clusters/live-drift: NodePool clusters/live-drift-extra: on the cluster and protected from pruning, so it stays after this commit, managed by no commit; delete it by hand if that is meant (oc delete nodepool/live-drift-extra -n clusters)',
      '  drift: hub/clusters/live-drift: NodePool clusters/live-drift-workers: 1 field differs from the last committed output: changed on the cluster since the last sync, by hand or by another controller; applying this commit sets the fields the new output names as it names them',
      '      spec.replicas: 2 committed, 5 live; this commit sets 3',
    ]);
  }, 30_000);

  test('what HyperShift reports on a cluster the commit changes: the control plane Degraded at rest, a pool whose release it refuses, a pool still rolling; --json matches the schema', async () => {
    const committed = output('status-1', { name: 'live-status', release: '4.17.3', extraPool: true });
    await sync(committed);
    await corpusStatus('hc: Degraded while Available, at rest', 'live-status');
    await corpusStatus('np: release refused (a minor ahead of its control plane)', 'live-status-workers');
    await corpusStatus('np: rolling a new version', 'live-status-extra');
    const next = output('status-2', { name: 'live-status', release: '4.17.3', replicas: 3, extraPool: true });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--json']);
    expect([result.status, result.stderr]).toEqual([2, '']);
    const plan = JSON.parse(result.stdout);
    expect(new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA)(plan)).toBe(true);
    expect(plan.live.findings.map((f: any) => [f.finding, f.refused, f.kind, f.name, f.summary])).toEqual([
      [
        'degraded',
        false,
        'HostedCluster',
        'live-status',
        'HyperShift reports it degraded (Degraded is True (UnavailableReplicas): kube-apiserver deployment has 1 unavailable replicas): what this commit changes lands on it as it is',
      ],
      [
        'pool-rolling',
        false,
        'NodePool',
        'live-status-extra',
        'UpdatingVersion: Updating version in progress. Target version: 4.17.5: HyperShift is still rolling the pool out; what this commit changes in the pool joins that rollout',
      ],
      [
        'hypershift-refuses',
        false,
        'NodePool',
        'live-status-workers',
        'HyperShift refuses the spec: ValidReleaseImage is False (ValidationFailed): Failed to get release image: the latest version supported is: "4.17". Attempting to use: "4.18.0"; what this commit changes waits on it, unless the commit fixes it',
      ],
    ]);
    expect(plan.live.findings[2].details).toEqual({
      state: 'refused',
      condition: {
        type: 'ValidReleaseImage',
        status: 'False',
        reason: 'ValidationFailed',
        message: 'Failed to get release image: the latest version supported is: "4.17". Attempting to use: "4.18.0"',
      },
      running: '4.17.3',
    });
  }, 30_000);

  test('a first install is an install in progress, not an upgrade; a pool on its first install needs no finding', async () => {
    const committed = output('install-1', { name: 'live-install', release: '4.17.0' });
    await sync(committed);
    await corpusStatus('hc: first install, control plane Available, nodes booting', 'live-install');
    await corpusStatus('np: first install, no Agent bound yet', 'live-install-workers');
    const next = output('install-2', { name: 'live-install', release: '4.17.0', replicas: 3 });

    const plan = await livePlan(committed, next);
    expect(plan.live!.findings.map((f) => [f.finding, f.refused, f.name, f.summary])).toEqual([
      [
        'install-in-progress',
        false,
        'live-install',
        "the first install of 4.17.0 is still in progress (no status.version.history entry is Completed yet): this commit's changes to the cluster meet that install in progress",
      ],
    ]);
  }, 30_000);

  test('what HyperShift reports on a HostedCluster: an upgrade it blocks (Progressing Blocked, not Upgradeable) names the reason, and a refused spec (pull secret missing) the condition it wrote', async () => {
    const blocked = STATUS_CORPUS.find((s) => s.name === 'hc: upgrade blocked, not Upgradeable')!;
    const committed = output('blocked-1', { name: 'live-blocked', release: '4.18.1', poolRelease: '4.17.3' });
    await sync(committed);
    await corpusStatus(blocked.name, 'live-blocked');
    const next = output('blocked-2', { name: 'live-blocked', release: '4.18.1', poolRelease: '4.17.3', replicas: 3 });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--json']);
    expect(result.stderr).toBe('');
    const findings = JSON.parse(result.stdout).live.findings;
    const onCluster = findings.filter((f: any) => f.kind === 'HostedCluster');
    expect(onCluster.map((f: any) => [f.finding, f.name])).toEqual([['hypershift-refuses', 'live-blocked']]);
    // Both conditions as HyperShift wrote them: its own Progressing verdict and the ClusterVersionUpgradeable reason behind it.
    const written = (type: string) => blocked.object.status.conditions.find((c: any) => c.type === type);
    for (const type of ['Progressing', 'ClusterVersionUpgradeable']) {
      const c = written(type);
      expect(onCluster[0].summary).toContain(`${type} is ${c.status} (${c.reason})`);
    }
    expect(onCluster[0].summary).toContain(written('ClusterVersionUpgradeable').message.slice(0, 40));
    expect(onCluster[0].details).toMatchObject({ state: 'blocked', condition: { type: 'Progressing', status: 'False', reason: 'Blocked' } });

    const missing = STATUS_CORPUS.find((s) => s.name === 'hc: pull secret missing')!;
    const refusedCommit = output('secret-1', { name: 'live-secret', release: '4.17.3' });
    await sync(refusedCommit);
    await corpusStatus(missing.name, 'live-secret');
    const plan = await livePlan(refusedCommit, output('secret-2', { name: 'live-secret', release: '4.17.3', replicas: 3 }));
    const refused = plan.live!.findings.filter((f) => f.kind === 'HostedCluster');
    const condition = missing.object.status.conditions.find((c: any) => c.type === 'ValidReleaseImage');
    // The findings the corpus names for the shape, in its order: the refusal, then Available False carrying its message.
    expect(refused.map((f) => f.finding)).toEqual(missing.planLive.map((f) => f.finding));
    expect((refused[0].details as any)?.condition).toEqual({ type: condition.type, status: 'False', reason: condition.reason, message: condition.message });
    expect(refused[0].summary).toContain(`ValidReleaseImage is False (${condition.reason}): ${condition.message}`);
  }, 30_000);

  test('a kind the cluster does not serve: one finding naming its CRD and the objects that need it, and no drift', async () => {
    const committed = output('crd-1', { name: 'live-crd', release: '4.17.0' });
    await sync(committed);
    await hostedClusterStatus('live-crd', [{ state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' }], '4.17.0');
    const widget = (name: string) => `apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\n  namespace: clusters\nspec: {}\n`;
    const next = output('crd-2', { name: 'live-crd', release: '4.17.0' }, { 'hub/live-crd/90-widget-clusters_w1.yaml': widget('w1'), 'hub/live-crd/90-widget-clusters_w2.yaml': widget('w2') });

    const plan = await livePlan(committed, next);
    expect(plan.live).toMatchObject({ objectsRead: 5, objectsFound: 3 });
    expect(plan.live!.findings).toEqual([
      {
        finding: 'missing-crd',
        refused: false,
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        name: 'widgets.example.com',
        summary:
          'not on the cluster: it serves no Widget (example.com/v1), so applying the output fails for the 2 Widgets that need it (clusters/w1, clusters/w2); install the operator that brings the CRD first, or check that --context names the management cluster',
        details: { servesKind: 'Widget', servesApiVersion: 'example.com/v1', objects: ['clusters/w1', 'clusters/w2'] },
      },
    ]);
  }, 30_000);

  test('--hub for a folder this cluster does not run: one finding that it looks like another cluster, naming the folder, context and server, instead of drift per object', async () => {
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'clusters' } }, { fieldManager: 'test' });
    // Never synced to this cluster: its HostedCluster and NodePool are not there.
    const committed = output('wrong-1', { name: 'live-elsewhere', release: '4.17.0' });
    const next = output('wrong-2', { name: 'live-elsewhere', release: '4.17.0', replicas: 3 });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--hub', 'hub']);
    expect([result.status, result.stderr]).toEqual([2, '']);
    const live = result.stdout.slice(result.stdout.indexOf('\nlive: ') + 1, result.stdout.indexOf('\n\ncluster '));
    expect(live.split('\n')).toEqual([
      `live: context reader (${client.connection.url}), management folder hub: 1 of 3 objects on the cluster; 1 wrong-cluster`,
      "  version rules: HyperShift main's skew rule (hcp-cdk's default): the output records no HyperShift version, and plan --live may not read ConfigMap hypershift/supported-versions (403 Forbidden): grant get on configmaps in namespace hypershift to apply the rules of the operator that runs there",
      `  wrong-cluster: ManagementCluster hub: 2 of the 3 objects of the last committed output for management folder hub are not on the cluster of context reader (${client.connection.url}): it looks like another cluster than the one hub/ is applied to, or one that output was never applied to; check --context and --hub (drift is not listed object by object)`,
    ]);
  }, 30_000);

  test('the record of release rollouts (rollouts/) is not a management cluster: plan --live reads the one hub without --hub', async () => {
    const record = [
      'apiVersion: hcp-cdk.io/v1alpha1',
      'kind: ReleaseRollout',
      'metadata:',
      '  name: z-stream',
      'spec:',
      `  release: { image: "${image('4.17.3')}", version: 4.17.3 }`,
      '  releasedWaves: 1',
      '  onFailure: Stop',
      '  waves: [{ name: canary, clusters: [hub/clusters/live-record] }]',
      '',
    ].join('\n');
    const committed = output('record-1', { name: 'live-record', release: '4.17.0' }, { 'rollouts/90-releaserollout-z-stream.yaml': record });
    await sync(committed);
    await hostedClusterStatus('live-record', [{ state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' }], '4.17.0');
    const next = output('record-2', { name: 'live-record', release: '4.17.0', replicas: 3 }, { 'rollouts/90-releaserollout-z-stream.yaml': record });

    const plan = await livePlan(committed, next);
    expect(plan.live).toMatchObject({ managementFolder: 'hub', objectsRead: 3, objectsFound: 3, findings: [] });
  }, 30_000);

  test('read-only: every request plan sends is a GET, and its transport refuses a write before sending it', async () => {
    const committed = output('ro-1', { name: 'live-ro', release: '4.17.0' });
    await sync(committed);
    await hostedClusterStatus('live-ro', [{ state: 'Completed', version: '4.17.0', started: '2026-04-01T10:00:00Z' }], '4.17.0');
    const next = output('ro-2', { name: 'live-ro', release: '4.17.3', poolRelease: '4.17.3', replicas: 4 });
    // A proxy on the way to the server that records each request, as an audit log would.
    const seen: string[] = [];
    const ca = fs.readFileSync(client.connection.caFile);
    const target = new URL(client.connection.url);
    const proxy = http.createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      const upstream = https.request({ host: target.hostname, port: target.port, path: request.url, method: request.method, headers: { ...request.headers, host: target.host }, ca }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as { port: number }).port;
      const viaProxy = kubeconfig('kubeconfig-proxy', { admin: client.connection.token }, 'admin', { url: `http://127.0.0.1:${port}`, insecure: true });
      const plan = await livePlan(committed, next, { kubeconfig: viaProxy });
      expect(plan.live!.objectsFound).toBe(3);
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.filter((line) => !line.startsWith('GET '))).toEqual([]);

      // As admin, a write would be allowed: only the client stops it.
      seen.length = 0;
      const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'written-by-plan', namespace: NAMESPACE }, data: { a: 'b' } };
      const errors: string[] = await runLive({ job: 'write', options: { kubeconfig: viaProxy }, object: configMap });
      const refused = (method: string, named: boolean): string =>
        `hcp-cdk only reads management clusters (plan --live, rollout status and advance): a ${method} request to http://127.0.0.1:${port}/api/v1/namespaces/plan-live/configmaps${named ? '/written-by-plan' : ''} was refused before it was sent`;
      expect(errors).toEqual([refused('POST', false), refused('PUT', true), refused('PATCH', true), refused('DELETE', true)]);
      expect(seen.filter((line) => !line.startsWith('GET '))).toEqual([]);
      expect((await client.get(configMap)).status).toBe(404);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  }, 30_000);

  test('no kubeconfig, an unknown context, a forbidden read, an unreachable server: one line each, exit 1, nothing else printed', async () => {
    const committed = output('err-1', { name: 'live-err', release: '4.17.0' });
    const next = output('err-2', { name: 'live-err', release: '4.17.3' });
    const home = fs.mkdtempSync(path.join(work, 'home-'));
    const unreachable = kubeconfig('kubeconfig-unreachable', { reader: 'x' }, 'reader', { url: 'https://127.0.0.1:1' });
    const plan = (...args: string[]): string[] => [next, '--against', committed, '--live', ...args];
    const results = await Promise.all([
      hcpCdkPlan(plan(), { HOME: home, KUBECONFIG: undefined }),
      hcpCdkPlan(plan('--context', 'prod-hub'), { KUBECONFIG: config }),
      hcpCdkPlan(plan('--kubeconfig', config, '--context', 'nobody')),
      hcpCdkPlan(plan('--kubeconfig', unreachable)),
    ]);
    expect(results.map((r) => [r.status, r.stdout, r.stderr.split('\n').length])).toEqual(Array(4).fill([1, '', 2]));
    expect(results.map((r) => r.stderr.trimEnd())).toEqual([
      `hcp-cdk plan: --live: no kubeconfig: KUBECONFIG is not set and ${home}/.kube/config does not exist; give --kubeconfig <file> (plan --live reads the management cluster with it)`,
      `hcp-cdk plan: --live: context "prod-hub" is not in ${config} (its contexts: reader, nobody); give one of them with --context`,
      `hcp-cdk plan: --live: the management cluster at ${client.connection.url} (context nobody) refuses to let user "nobody" read HostedCluster clusters/live-err (403 Forbidden: hostedclusters.hypershift.openshift.io "live-err" is forbidden: User "system:serviceaccount:plan-live:nobody" cannot get resource "hostedclusters" in API group "hypershift.openshift.io" in the namespace "clusters"); plan --live needs get on every kind of the output but Secrets, which it does not read`,
      'hcp-cdk plan: --live: cannot reach the management cluster at https://127.0.0.1:1 (context reader): Failed to fetch resource metadata for hypershift.openshift.io/v1beta1/HostedCluster: request to https://127.0.0.1:1/apis/hypershift.openshift.io/v1beta1 failed, reason: connect ECONNREFUSED 127.0.0.1:1',
    ]);

    // The cluster options without --live are a usage error, not a plan that silently reads nothing.
    const usage = await hcpCdkPlan([next, '--against', committed, '--context', 'reader']);
    expect([usage.status, usage.stdout, usage.stderr.split('\n')[0]]).toEqual([1, '', 'hcp-cdk plan: --context is for --live, which reads the management cluster; give --live too']);
  }, 30_000);
});

describe('plan --live applies the version rules of the HyperShift operator the hub runs (its supported-versions ConfigMap)', () => {
  const SUPPORTED = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'supported-versions', namespace: 'hypershift' } };
  /**
   * The ConfigMap as HyperShift's ensureSupportedVersionConfigMap writes it (hypershift-operator/controllers/supportedversion/reconciler.go):
   * the label, supported-versions (Supported(): the newest first, down to MinSupportedVersion) and server-version (the operator's commit).
   */
  const supportedVersions = async (versions: readonly string[]): Promise<void> => {
    const response = await client.apply(
      {
        ...SUPPORTED,
        metadata: { ...SUPPORTED.metadata, labels: { 'hypershift.openshift.io/supported-versions': 'true' } },
        data: { 'supported-versions': JSON.stringify({ versions }), 'server-version': '3ee9615567' },
      },
      { fieldManager: 'hypershift-operator' },
    );
    expect([response.status < 300, response.message]).toEqual([true, '']);
  };
  const minors = (newest: number): string[] => Array.from({ length: newest - 13 }, (_, i) => `4.${newest - i}`);

  beforeAll(async () => {
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'hypershift' } }, { fieldManager: 'test' });
    // The reader may get the ConfigMaps of the operator's namespace too, as docs/plan-and-upgrades.md says.
    await client.apply(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'plan-live-reader', namespace: 'hypershift' },
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      },
      { fieldManager: 'test' },
    );
    await client.apply(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'plan-live-reader', namespace: 'hypershift' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'plan-live-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NAMESPACE }],
      },
      { fieldManager: 'test' },
    );
  }, 30_000);

  test('a hub running HyperShift 4.20 (the older skew rule): a 4.19 control plane over a 4.17 pool, which the default accepts, is refused; the CLI exits 1 and says which rules applied', async () => {
    await supportedVersions(minors(20));
    const committed = output('hs-1', { name: 'live-hs', release: '4.18.0', poolRelease: '4.17.0' });
    await sync(committed);
    await hostedClusterStatus('live-hs', [{ state: 'Completed', version: '4.18.0', started: '2026-04-01T10:00:00Z' }], '4.18.0');
    const next = output('hs-2', { name: 'live-hs', release: '4.19.0', poolRelease: '4.17.0' });
    // From the two outputs alone (which record no version), the default rule: nothing refused.
    expect(planChanges(OutputSnapshot.fromDirectory(committed), OutputSnapshot.fromDirectory(next)).summary.effects).toEqual({ 'control-plane-upgrade': 1 });

    const result = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config, '--json']);
    expect(result.status).toBe(1);
    const plan = JSON.parse(result.stdout);
    expect(new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA)(plan)).toBe(true);
    expect(plan.live.hyperShift).toEqual({
      version: '4.20',
      source: 'cluster',
      serverVersion: '3ee9615567',
      summary:
        'HyperShift 4.20, as its ConfigMap hypershift/supported-versions reports, build 3ee9615567; the output records none (the management cluster states no hyperShift), ' +
        'so synth and plan apply the default rules: state it on the management cluster',
    });
    expect(plan.summary.effects).toEqual({ 'control-plane-upgrade': 1, refused: 1 });
    const hc = plan.objects.find((o: any) => o.kind === 'HostedCluster');
    expect(hc.effects.map((e: any) => e.effect)).toEqual(['refused', 'control-plane-upgrade']);
    expect(hc.effects[0].details.problems).toEqual([
      "HyperShift does not support it: spec.release.image: pool live-hs-workers's release is 4.17.0, 2 minors behind the control plane's 4.19.0; " +
        'HyperShift 4.20 on hub "hub" allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.18 or later here: ' +
        'its CLI refuses to create such a pool (validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20)',
    ]);

    const text = await hcpCdkPlan([next, '--against', committed, '--live', '--kubeconfig', config]);
    expect(text.status).toBe(1);
    expect(text.stdout).toContain(
      '\n  version rules: HyperShift 4.20, as its ConfigMap hypershift/supported-versions reports, build 3ee9615567; the output records none (the management cluster states no hyperShift), so synth and plan apply the default rules: state it on the management cluster\n',
    );
  }, 30_000);

  test("a hub running a newer HyperShift than the output records: the recorded refusal goes; without the ConfigMap, the output's record applies", async () => {
    // HyperShift main at the pinned commit: LatestSupportedVersion 5.1, so Supported() bridges 5.x to 4.23.
    await supportedVersions(['5.1', '5.0', ...minors(23)]);
    const committed = output('hs-3', { name: 'live-hs2', release: '4.18.0', poolRelease: '4.17.0', hyperShift: HyperShiftVersion.ofMultiClusterEngine('2.10') });
    await sync(committed);
    await hostedClusterStatus('live-hs2', [{ state: 'Completed', version: '4.18.0', started: '2026-04-01T10:00:00Z' }], '4.18.0');
    // The next output under MCE 2.10 with the control plane at 4.19: synth would refuse it, so the commit is edited by hand.
    const next = output('hs-4', { name: 'live-hs2', release: '4.18.0', poolRelease: '4.17.0', hyperShift: HyperShiftVersion.ofMultiClusterEngine('2.10') });
    const clusterFile = walk(next).find((f) => /hostedcluster/.test(f))!;
    const edited = YAML.parse(fs.readFileSync(clusterFile, 'utf8'));
    expect(edited.metadata.annotations['hcp-cdk.io/hypershift-version']).toBe('mce-2.10');
    edited.spec.release.image = image('4.19.0');
    fs.writeFileSync(clusterFile, YAML.stringify(edited));
    const fromOutputs = planChanges(OutputSnapshot.fromDirectory(committed), OutputSnapshot.fromDirectory(next));
    expect(fromOutputs.summary.effects).toEqual({ 'control-plane-upgrade': 1, refused: 1 });

    const plan = await livePlan(committed, next);
    expect(plan.summary.effects).toEqual({ 'control-plane-upgrade': 1 });
    expect(plan.live!.hyperShift).toEqual({
      version: '5.1',
      source: 'cluster',
      recorded: 'mce-2.10',
      serverVersion: '3ee9615567',
      summary:
        'HyperShift 5.1, as its ConfigMap hypershift/supported-versions reports, build 3ee9615567; the output records HyperShift 4.20 (MCE 2.10) (hcp-cdk.io/hypershift-version): ' +
        "plan --live applies the rules of the operator that runs; state it on the management cluster (hyperShift: HyperShiftVersion.ofOpenShift('5.1'))",
    });

    // No ConfigMap (no operator there, or another namespace): the output's record.
    expect((await client.delete(SUPPORTED)).status).toBe(200);
    const fallback = await livePlan(committed, next);
    expect(fallback.summary.effects).toEqual({ 'control-plane-upgrade': 1, refused: 1 });
    expect(fallback.live!.hyperShift).toEqual({
      version: 'mce-2.10',
      source: 'output',
      summary:
        'HyperShift 4.20 (MCE 2.10), as the output records (hcp-cdk.io/hypershift-version); the cluster has no ConfigMap hypershift/supported-versions (the HyperShift operator writes it in its namespace)',
    });
  }, 30_000);
});
