// `hcp-cdk rollout status` and `hcp-cdk rollout advance` against a real kube-apiserver with HyperShift's
// CRDs: a fleet of 24 clusters on two management folders (hub-0 and hub-1, two namespaces of the one
// test server, each reached through a kubeconfig context of its own name) in two rollouts of 4 waves,
// r-a under onFailure Continue and r-b under Stop, advanced by the command from start to done. Between
// steps the statuses HyperShift would write are put through the status subresource, taken from the
// status corpus (test/status/status-corpus.ts; a shape at rest at 4.17.3 is relabelled to 4.17.5 for
// a cluster done); after each advance that writes a state file, the app is synthesized again and the
// plan of the two outputs must do what the advance decided. The reader may only list.
import Ajv2020 from 'ajv/dist/2020';
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import {
  ChangeEffect,
  Fleet,
  HcpApp,
  OutputSnapshot,
  Plan,
  planChanges,
  Release,
  ROLLOUT_ADVANCE_JSON_SCHEMA,
  ROLLOUT_STATUS_JSON_SCHEMA,
  RolloutAdvanceOutcome,
  RolloutAdvanceRun,
  RolloutStatusReport,
} from '../../lib';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { digestImage } from '../status/hypershift-objects';
import { STATUS_CORPUS } from '../status/status-corpus';
import { ROOT } from '../util';
import { KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-rollout-advance-'));
const repo = path.join(work, 'repo');
const dist = path.join(repo, 'dist');
const validator = new ObjectValidator();
const image = (version: string): string => Release.fromVersion(version).image;
const HUB_NAMESPACE: Record<string, string> = { 'hub-0': 'rollout-0', 'hub-1': 'rollout-1' };
const T0 = Date.parse('2026-05-01T10:00:00Z');
const at = (minutes: number): string => `${new Date(T0 + minutes * 60_000).toISOString().slice(0, 19)}Z`;

/** Clusters a01..a12 and b01..b12: 1 to 6 of each track on hub-0, 7 to 12 on hub-1. */
const NAMES = ['a', 'b'].flatMap((track) => Array.from({ length: 12 }, (_, i) => `${track}${String(i + 1).padStart(2, '0')}`));
const hubOf = (name: string): string => (Number(name.slice(1)) <= 6 ? 'hub-0' : 'hub-1');
const idOf = (name: string): string => `${hubOf(name)}/${HUB_NAMESPACE[hubOf(name)]}/${name}`;

function inventory(): unknown {
  const clusters = (hub: string) => NAMES.filter((n) => hubOf(n) === hub).map((name) => ({ name, labels: { track: name[0] } }));
  const rollout = (track: string, onFailure: string) => ({
    name: `r-${track}`,
    releaseImage: image('4.17.5'),
    clusterLabels: { track },
    waves: [{ canaries: [`${track}01`, `${track}07`] }, { batch: 3 }, { batch: 3 }, { rest: true }],
    onFailure,
    ...(onFailure === 'Continue' ? { maxFailedClusters: 2 } : {}),
    stateFile: `rollouts/r-${track}.state.yaml`,
  });
  return {
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'Fleet',
    metadata: { name: 'rollout-advance' },
    spec: {
      defaults: { releaseImage: image('4.17.3'), baseDomain: 'fleet.example.com', platform: 'KubeVirt' },
      managementClusters: ['hub-0', 'hub-1'].map((hub) => ({ name: hub, defaults: { namespace: HUB_NAMESPACE[hub] }, clusters: clusters(hub) })),
      rollouts: [rollout('a', 'Continue'), rollout('b', 'Stop')],
    },
  };
}

let commit = 0;

/** Synthesizes the fleet into dist/ over the output there (as a repository's next commit does); returns a copy of the output before. */
function synth(): string {
  const before = path.join(work, `commit-${commit++}`);
  if (fs.existsSync(dist)) fs.cpSync(dist, before, { recursive: true });
  else fs.mkdirSync(before);
  const app = new HcpApp({ outdir: dist, keepLastGoodCopy: false, secretsReportFile: path.join(work, 'secrets.json') });
  Fleet.fromFile(app, path.join(repo, 'fleet.yaml'));
  const said = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    app.synth();
  } finally {
    said.mockRestore();
  }
  return before;
}

/** What `hcp-cdk plan` says of the commit from `before` to dist/. */
function plan(before: string): Plan {
  return planChanges(OutputSnapshot.fromDirectory(before), OutputSnapshot.fromDirectory(dist), { validator });
}

/** Applies the HostedClusters and NodePools that changed from `before` to dist/, as the GitOps engine does (the other objects are not what a rollout reads). */
async function sync(before: string): Promise<void> {
  const previous = OutputSnapshot.fromDirectory(before);
  const next = OutputSnapshot.fromDirectory(dist);
  for (const file of next.files.values()) {
    const kind = file.key.split('|')[1];
    if ((kind !== 'hostedcluster' && kind !== 'nodepool') || previous.files.get(file.key)?.bytes.equals(file.bytes)) continue;
    const response = await client.apply(next.object(file), { fieldManager: 'argocd-controller' });
    expect([file.path, response.status < 300, response.message]).toEqual([file.path, true, '']);
  }
}

/** Versions a shape at rest at 4.17.3 (over 4.17.0) is relabelled by for a cluster at rest at 4.17.5 (over 4.17.3). */
const AT_4_17_5 = { '4.17.3': '4.17.5', '4.17.0': '4.17.3' };

/** The status of corpus shape `shape`, its versions (and their digests) relabelled by `versions`. */
function shapeStatus(shape: string, versions: Record<string, string> = {}): any {
  const found = STATUS_CORPUS.find((s) => s.name === shape);
  if (!found) throw new Error(`no corpus shape ${shape}`);
  const labels = new Map(Object.entries(versions).flatMap(([from, to]) => [[digestImage(from), digestImage(to)] as const, [from, to] as const]));
  const text = JSON.stringify(found.object.status);
  if (labels.size === 0) return JSON.parse(text);
  const pattern = new RegExp(
    [...labels.keys()]
      .sort((a, b) => b.length - a.length)
      .map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|'),
    'g',
  );
  return JSON.parse(text.replace(pattern, (match) => labels.get(match)!));
}

/** Writes a corpus status on cluster `name`'s HostedCluster, or its pool `<name>-workers`, stamped with the object's generation as HyperShift stamps it. */
async function writeStatus(name: string, kind: 'HostedCluster' | 'NodePool', shape: string, versions: Record<string, string> = {}): Promise<void> {
  const reference = { apiVersion: 'hypershift.openshift.io/v1beta1', kind, metadata: { name: kind === 'NodePool' ? `${name}-workers` : name, namespace: HUB_NAMESPACE[hubOf(name)] } };
  const current = await client.get(reference);
  expect([reference.metadata.name, current.status]).toEqual([reference.metadata.name, 200]);
  const status = shapeStatus(shape, versions);
  status.conditions = status.conditions.map((c: any) => ({ ...c, observedGeneration: current.body.metadata.generation }));
  const response = await client.updateStatus({ ...reference, status });
  expect([shape, response.status, response.message]).toEqual([shape, 200, '']);
}

const AT_REST = 'hc: at rest, released by tag, status by digest';
const POOL_READY = 'np: fixed size, Ready';

/** The cluster runs 4.17.3, its control plane and pool at rest. */
async function atRest(name: string): Promise<void> {
  await writeStatus(name, 'HostedCluster', AT_REST);
  await writeStatus(name, 'NodePool', POOL_READY);
}

/** The control plane upgrades to 4.17.5; the pool still runs 4.17.3. */
async function upgrading(name: string): Promise<void> {
  await writeStatus(name, 'HostedCluster', 'hc: control plane upgrading (version operator has taken it)');
}

/** The cluster runs 4.17.5: control plane and pool at rest there. */
async function done(name: string): Promise<void> {
  await writeStatus(name, 'HostedCluster', AT_REST, AT_4_17_5);
  await writeStatus(name, 'NodePool', POOL_READY, { '4.17.3': '4.17.5' });
}

/** `hcp-cdk rollout <args>` as a pipeline runs it, in a process of its own. */
function hcpCdk(args: readonly string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'rollout', ...args], { cwd: repo, env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

let kubeconfig: string;

/** `hcp-cdk rollout advance --json` at `minutes` after T0; the run, its exit status and stderr. */
async function advance(minutes: number): Promise<{ status: number | null; run: RolloutAdvanceRun; stderr: string }> {
  const result = await hcpCdk(['advance', 'dist', '--kubeconfig', kubeconfig, '--now', at(minutes), '--json', '--message-file', path.join(work, 'message.txt')]);
  if (result.stdout === '') throw new Error(`rollout advance printed nothing: ${result.stderr}`);
  const run: RolloutAdvanceRun = JSON.parse(result.stdout);
  expect(ajv.compile(ROLLOUT_ADVANCE_JSON_SCHEMA)(run)).toBe(true);
  return { status: result.status, run, stderr: result.stderr };
}

/** `hcp-cdk rollout status --json` at `minutes` after T0, checked against its schema. */
async function status(minutes: number, args: readonly string[] = []): Promise<{ status: number | null; report: RolloutStatusReport; stderr: string }> {
  const result = await hcpCdk(['status', 'dist', '--kubeconfig', kubeconfig, '--now', at(minutes), '--json', ...args]);
  const report: RolloutStatusReport = JSON.parse(result.stdout);
  expect(ajv.compile(ROLLOUT_STATUS_JSON_SCHEMA)(report)).toBe(true);
  return { status: result.status, report, stderr: result.stderr };
}

const ajv = new Ajv2020({ strict: true });

/** The outcome and the state it wrote of each rollout of a run, by name. */
function outcomes(run: RolloutAdvanceRun): Record<string, string> {
  return Object.fromEntries(run.rollouts.map((r) => [r.rollout, `${r.outcome}${r.written ? ', written' : ''}`]));
}

/** The clusters of wave `wave` (from 1) of rollout `name`, as dist/'s record lists them. */
function waveClusters(name: string, wave: number): string[] {
  const record = YAML.parse(fs.readFileSync(path.join(dist, 'rollouts', `40-releaserollout-${name}.yaml`), 'utf8'));
  return record.spec.waves[wave - 1].clusters;
}

/** The name of a cluster id. */
const nameOf = (id: string): string => id.split('/')[2];

/** What the plan of a commit says of rollout `name`: the waves it moves with their clusters, and its failed and timed-out clusters. */
function planned(result: Plan, name: string): { moves: string[][]; failed: string[]; timedOut: string[]; refusals: number } {
  const rollout = result.rollouts!.find((r) => r.name === name)!;
  return {
    moves: rollout.moves.map((m) => [...m.clusters]),
    failed: (rollout.failed ?? []).map((f) => f.cluster),
    timedOut: (rollout.timedOut ?? []).map((f) => f.cluster),
    refusals: (rollout.refusals ?? []).length,
  };
}

/**
 * Holds a commit's plan to what the advance decided, rollout by rollout: the wave it released (its
 * number and clusters) is the one the plan moves, and nothing moves otherwise; the plan's output
 * releases as many waves as the state file says; the failures it recorded are the plan's failed and
 * timed-out clusters, with the reasons.
 */
function expectPlanOf(run: RolloutAdvanceRun, result: Plan): void {
  for (const decided of run.rollouts) {
    const rollout = result.rollouts!.find((r) => r.name === decided.rollout)!;
    const state = YAML.parse(fs.readFileSync(path.join(repo, decided.stateFile), 'utf8')).spec;
    expect([decided.rollout, rollout.releasedWaves]).toEqual([decided.rollout, state.releasedWaves]);
    const released = decided.outcome === RolloutAdvanceOutcome.ADVANCE ? [{ wave: state.releasedWaves, clusters: waveClusters(decided.rollout, state.releasedWaves) }] : [];
    expect([decided.rollout, rollout.moves.map((m) => ({ wave: m.wave, clusters: m.clusters }))]).toEqual([decided.rollout, released]);
    const listed = [...(rollout.failed ?? []), ...(rollout.timedOut ?? [])];
    for (const failure of decided.newFailures) expect(listed).toContainEqual(expect.objectContaining({ cluster: failure.cluster, reason: failure.reason }));
  }
}

/** The HostedClusters a plan upgrades, by id. */
function upgraded(result: Plan): string[] {
  return result.objects
    .filter((o) => o.kind === 'HostedCluster' && o.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE))
    .map((o) => o.cluster!)
    .sort();
}

/** A kubeconfig with a context per hub (named as the management folder), one with no rights, one on a port nothing listens on. */
async function writeKubeconfig(): Promise<string> {
  const token = async (name: string): Promise<string> => {
    await client.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'rollout-0' } }, { fieldManager: 'test' });
    const response = await client.request('POST', `/api/v1/namespaces/rollout-0/serviceaccounts/${name}/token`, {
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } }),
    });
    expect(response.status).toBe(201);
    return response.body.status.token;
  };
  const [lister, nobody] = await Promise.all([token('rollout-lister'), token('rollout-nobody')]);
  const cluster = (server: string) => ({ server, 'certificate-authority': client.connection.caFile });
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'test', cluster: cluster(client.connection.url) },
      { name: 'gone', cluster: cluster('https://127.0.0.1:9') },
    ],
    users: [
      { name: 'lister', user: { token: lister } },
      { name: 'nobody', user: { token: nobody } },
    ],
    contexts: [
      { name: 'hub-0', context: { cluster: 'test', user: 'lister' } },
      { name: 'hub-1', context: { cluster: 'test', user: 'lister' } },
      { name: 'nobody', context: { cluster: 'test', user: 'nobody' } },
      { name: 'gone', context: { cluster: 'gone', user: 'lister' } },
    ],
    'current-context': 'nobody',
  };
  const file = path.join(work, 'kubeconfig');
  fs.writeFileSync(file, YAML.stringify(config), { mode: 0o600 });
  return file;
}

function writeState(track: string, spec: unknown): void {
  fs.writeFileSync(path.join(repo, 'rollouts', `r-${track}.state.yaml`), YAML.stringify({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'ReleaseRolloutState', metadata: { name: `r-${track}` }, spec }));
}

beforeAll(async () => {
  const started = Date.now();
  for (const namespace of Object.values(HUB_NAMESPACE)) await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, { fieldManager: 'test' });
  // The reader may list HostedClusters and NodePools, and nothing else: no get, no write.
  await client.apply(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'rollout-lister' },
      rules: [{ apiGroups: ['hypershift.openshift.io'], resources: ['hostedclusters', 'nodepools'], verbs: ['list'] }],
    },
    { fieldManager: 'test' },
  );
  await client.apply(
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'rollout-lister' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'rollout-lister' },
      subjects: [{ kind: 'ServiceAccount', name: 'rollout-lister', namespace: 'rollout-0' }],
    },
    { fieldManager: 'test' },
  );
  kubeconfig = await writeKubeconfig();
  fs.mkdirSync(path.join(repo, 'rollouts'), { recursive: true });
  fs.writeFileSync(path.join(repo, 'fleet.yaml'), YAML.stringify(inventory()));
  writeState('a', { releasedWaves: 0 });
  writeState('b', { releasedWaves: 0 });
  const first = synth();
  await sync(first);
  for (const name of NAMES) await atRest(name);
  process.stdout.write(`rollout-advance: the fleet of ${NAMES.length} clusters applied at 4.17.3 in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}, 60_000);

afterAll(() => {
  client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('rollout status and advance against a real API server', () => {
  test('a fleet of 24 clusters in two rollouts of 4 waves, advanced by the command from start to done; each commit planned as the advance decided', async () => {
    const started = Date.now();
    const a = (n: number) => waveClusters('r-a', n);
    const b = (n: number) => waveClusters('r-b', n);
    expect([1, 2, 3, 4].map((n) => a(n).length)).toEqual([2, 3, 3, 4]);
    expect(a(1)).toEqual([idOf('a01'), idOf('a07')]);

    // 1. Nothing released yet: both rollouts release their canaries.
    let step = await advance(0);
    expect([step.status, outcomes(step.run), step.stderr]).toEqual([0, { 'r-a': 'advance, written', 'r-b': 'advance, written' }, '']);
    // No wave is released, so no cluster is asked about and no management cluster read.
    expect(step.run.hubs).toEqual([]);
    expect(fs.readFileSync(path.join(work, 'message.txt'), 'utf8').split('\n')[0]).toBe('r-a: release wave 1 (canaries), 2 clusters; r-b: release wave 1 (canaries), 2 clusters');
    let before = synth();
    let result = plan(before);
    expectPlanOf(step.run, result);
    expect([planned(result, 'r-a'), planned(result, 'r-b')]).toEqual([
      { moves: [a(1)], failed: [], timedOut: [], refusals: 0 },
      { moves: [b(1)], failed: [], timedOut: [], refusals: 0 },
    ]);
    expect(upgraded(result)).toEqual([...a(1), ...b(1)].sort());
    await sync(before);

    // 2. The canaries' control planes are upgrading: no wave may advance, and nothing is written.
    for (const id of [...a(1), ...b(1)]) await upgrading(nameOf(id));
    step = await advance(30);
    expect([step.status, outcomes(step.run)]).toEqual([2, { 'r-a': 'wait', 'r-b': 'wait' }]);
    // Each management folder through the context of its name, by list: one page of each kind in its namespace.
    expect(step.run.hubs).toEqual(
      ['hub-0', 'hub-1'].map((hub) => ({
        managementFolder: hub,
        context: hub,
        server: client.connection.url,
        namespaces: [HUB_NAMESPACE[hub]],
        clusters: 2,
        hostedClustersRead: 12,
        nodePoolsRead: 12,
        pages: 2,
      })),
    );
    expect(step.run.rollouts[0].reasons).toEqual([`${a(1).join(' and ')} of the released waves are still upgrading (control plane updating: 2)`]);
    const seen = await status(30);
    expect(seen.status).toBe(0);
    const ra = seen.report.rollouts.find((r) => r.name === 'r-a')!;
    expect([ra.releasedWaves, ra.counts, ra.next?.outcome]).toEqual([1, { 'control-plane-upgrading': 2, 'pending': 10 }, 'wait']);
    expect(ra.waves[0].clusters[0]).toMatchObject({
      cluster: idOf('a01'),
      state: 'control-plane-upgrading',
      reason: 'control plane updating to 4.17.5',
      controlPlane: { version: '4.17.3', model: 'progressing/upgrading', summary: 'the control plane is upgrading from 4.17.3 to 4.17.5' },
      // The pool's spec moved with the commit, and HyperShift has not written its status for it yet.
      nodePools: [
        { name: 'a01-workers', version: '4.17.3', model: 'progressing/not-reconciled', summary: 'HyperShift has not reconciled generation 2 yet (its UpdatingVersion condition is of generation 1)' },
      ],
    });
    expect(ra.waves[0]).toMatchObject({ released: true, releasedAt: at(0), timesOutAt: at(240) });

    // 3. One canary of each is done; r-a's other canary is refused its release (Continue: recorded, the next wave released),
    // r-b's other canary's pool cannot get machines (Stop: recorded, blocked).
    await done('a01');
    await writeStatus('a07', 'HostedCluster', 'hc: release payload not accepted by the version operator');
    await done('b01');
    await done('b07');
    await writeStatus('b07', 'NodePool', 'np: cannot get machines, no cloud capacity');
    step = await advance(60);
    expect([step.status, outcomes(step.run)]).toEqual([3, { 'r-a': 'advance, written', 'r-b': 'blocked, written' }]);
    const [runA, runB] = step.run.rollouts;
    expect(runA.newFailures).toEqual([
      {
        cluster: idOf('a07'),
        reason: expect.stringMatching(/^control plane: HyperShift refuses the spec: ClusterVersionReleaseAccepted is False \(RetrievePayload\): Retrieving payload failed version="4\.17\.5"/),
      },
    ]);
    expect(runB.newFailures).toEqual([{ cluster: idOf('b07'), reason: expect.stringMatching(/^pool b07-workers: cannot get machines: AllMachinesReady is False \(InstanceProvisionFailed\)/) }]);
    expect(runB.reasons[0]).toBe('1 cluster has failed and onFailure is Stop: take it out of failedClusters once it runs well again');
    before = synth();
    result = plan(before);
    expectPlanOf(step.run, result);
    expect([planned(result, 'r-a'), planned(result, 'r-b')]).toEqual([
      { moves: [a(2)], failed: [idOf('a07')], timedOut: [], refusals: 0 },
      { moves: [], failed: [idOf('b07')], timedOut: [], refusals: 0 },
    ]);
    expect(upgraded(result)).toEqual(a(2));
    await sync(before);

    // 4. r-b: a person repairs b07's pool and takes it out of failedClusters (a commit of their own).
    // r-a: of wave 2, one is done, one upgrading, one paused by hand for good (onPaused Hold: blocked).
    await writeStatus('b07', 'NodePool', POOL_READY, { '4.17.3': '4.17.5' });
    const stateB = YAML.parse(fs.readFileSync(path.join(repo, 'rollouts', 'r-b.state.yaml'), 'utf8')).spec;
    writeState('b', { ...stateB, failedClusters: undefined });
    before = synth();
    expect(planned(plan(before), 'r-b')).toEqual({ moves: [], failed: [], timedOut: [], refusals: 0 });
    const [done2, upgrading2, paused2] = a(2).map(nameOf);
    await done(done2);
    await upgrading(upgrading2);
    const pause = await client.apply(
      { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name: paused2, namespace: HUB_NAMESPACE[hubOf(paused2)] }, spec: { pausedUntil: 'true' } },
      { fieldManager: 'kubectl-edit' },
    );
    expect(pause.status).toBe(200);
    await writeStatus(paused2, 'HostedCluster', 'hc: reconciliation paused');
    step = await advance(90);
    expect([step.status, outcomes(step.run)]).toEqual([3, { 'r-a': 'blocked', 'r-b': 'advance, written' }]);
    expect(step.run.rollouts[0].reasons).toEqual([
      `${idOf(paused2)} of wave 2 is paused indefinitely; unpause it, or set onPaused to Continue`,
      `${idOf(upgrading2)} of the released waves is still upgrading (control plane updating: 1)`,
    ]);
    const blocked = await status(90, ['--rollout', 'r-a']);
    expect(blocked.report.rollouts.map((r) => r.name)).toEqual(['r-a']);
    expect(blocked.report.rollouts[0].waves[1].clusters.map((c) => [nameOf(c.cluster), c.state])).toEqual([
      [done2, 'done'],
      [upgrading2, 'control-plane-upgrading'],
      [paused2, 'paused'],
    ]);
    expect(blocked.report.rollouts[0].waves[0].clusters.map((c) => [nameOf(c.cluster), c.state, c.recorded])).toEqual([
      ['a01', 'done', undefined],
      ['a07', 'failed', true],
    ]);
    before = synth();
    result = plan(before);
    expectPlanOf(step.run, result);
    expect([planned(result, 'r-a'), planned(result, 'r-b')]).toEqual([
      { moves: [], failed: [idOf('a07')], timedOut: [], refusals: 0 },
      { moves: [b(2)], failed: [], timedOut: [], refusals: 0 },
    ]);
    await sync(before);

    // 5. Unpaused, and the rest of r-a's wave 2 and r-b's wave 2 done: both release wave 3.
    const unpause = await client.apply(
      { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', metadata: { name: paused2, namespace: HUB_NAMESPACE[hubOf(paused2)] } },
      { fieldManager: 'kubectl-edit' },
    );
    expect(unpause.status).toBe(200);
    for (const id of [idOf(upgrading2), idOf(paused2), ...b(2)]) await done(nameOf(id));
    step = await advance(120);
    expect([step.status, outcomes(step.run)]).toEqual([0, { 'r-a': 'advance, written', 'r-b': 'advance, written' }]);
    before = synth();
    result = plan(before);
    expectPlanOf(step.run, result);
    expect([planned(result, 'r-a'), planned(result, 'r-b')]).toEqual([
      { moves: [a(3)], failed: [idOf('a07')], timedOut: [], refusals: 0 },
      { moves: [b(3)], failed: [], timedOut: [], refusals: 0 },
    ]);
    await sync(before);

    // 6. 241 minutes after wave 3 was released, one of r-a's is still upgrading: timed out, recorded, and within
    // maxFailedClusters (2) the last wave goes; r-b's wave 3 is done.
    const [late, ...onTime] = a(3).map(nameOf);
    await upgrading(late);
    for (const name of [...onTime, ...b(3).map(nameOf)]) await done(name);
    step = await advance(120 + 241);
    expect([step.status, outcomes(step.run)]).toEqual([0, { 'r-a': 'advance, written', 'r-b': 'advance, written' }]);
    expect(step.run.rollouts[0].newFailures).toEqual([
      { cluster: idOf(late), reason: 'control plane updating to 4.17.5 240 minutes after wave 3 (wave-3) started (waveTimeoutMinutes 240)', timedOut: true },
    ]);
    before = synth();
    result = plan(before);
    expectPlanOf(step.run, result);
    expect([planned(result, 'r-a'), planned(result, 'r-b')]).toEqual([
      { moves: [a(4)], failed: [idOf('a07')], timedOut: [idOf(late)], refusals: 0 },
      { moves: [b(4)], failed: [], timedOut: [], refusals: 0 },
    ]);
    await sync(before);

    // 7. The last waves done: both complete, nothing written.
    for (const id of [...a(4), ...b(4)]) await done(nameOf(id));
    step = await advance(420);
    expect([step.status, outcomes(step.run)]).toEqual([4, { 'r-a': 'complete', 'r-b': 'complete' }]);
    const last = await status(420);
    expect(last.report.rollouts.map((r) => [r.name, r.counts])).toEqual([
      ['r-a', { 'done': 10, 'failed': 1, 'timed-out': 1 }],
      ['r-b', { done: 12 }],
    ]);
    process.stdout.write(`rollout-advance: 7 advances, 7 synths and plans in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }, 120_000);
});

// After the rollouts above are complete: what the commands say, and what they refuse to do, when a
// management cluster cannot be read, or is named wrongly.
describe('rollout status and advance: what they say', () => {
  const state = (track: string): string => fs.readFileSync(path.join(repo, 'rollouts', `r-${track}.state.yaml`), 'utf8');

  test('status as text: per rollout, wave and cluster; the recorded failures with their reasons; what advance would decide', async () => {
    const result = await hcpCdk(['status', 'dist', '--kubeconfig', kubeconfig, '--now', at(420)]);
    expect([result.status, result.stderr]).toEqual([0, '']);
    const url = client.connection.url;
    expect(result.stdout.split('\n').slice(0, 13)).toEqual([
      `rollout status of dist at ${at(420)}: 24 clusters of 2 rollouts on 2 management clusters`,
      `  hub-0: context hub-0 (${url}): 12 HostedClusters and 12 NodePools listed in namespace rollout-0 (2 pages)`,
      `  hub-1: context hub-1 (${url}): 12 HostedClusters and 12 NodePools listed in namespace rollout-1 (2 pages)`,
      '',
      'rollout r-a (4.17.5): 4 of 4 waves released: 10 done, 1 failed, 1 timed-out',
      '  next: complete (exit 4): r-a: complete: every wave runs 4.17.5',
      `  wave 1 (canaries), released ${at(0)}: 1 done, 1 failed`,
      `    failed: ${idOf('a07')} (recorded): control plane: HyperShift refuses the spec: ClusterVersionReleaseAccepted is False (RetrievePayload): Retrieving payload failed version="4.17.5" image="${digestImage('4.17.5')}" failure=The update cannot be verified: unable to verify sha256 against keyrings: verifier-public-key-redhat`,
      `  wave 2 (wave-2), released ${at(60)}: 3 done`,
      `  wave 3 (wave-3), released ${at(120)}: 2 done, 1 timed-out`,
      `    timed-out: ${idOf('a05')} (recorded): control plane updating to 4.17.5 240 minutes after wave 3 (wave-3) started (waveTimeoutMinutes 240)`,
      `  wave 4 (rest), released ${at(361)}: 4 done`,
      '',
    ]);
  }, 30_000);

  test('a management cluster out of reach: status reports its clusters unread and decides nothing for the rollouts it holds (exit 1); Markdown within a comment', async () => {
    const result = await hcpCdk(['status', 'dist', '--kubeconfig', kubeconfig, '--now', at(420), '--context', 'hub-1=gone', '--markdown']);
    const error =
      'cannot reach the management cluster at https://127.0.0.1:9 (context gone): Failed to fetch resource metadata for hypershift.openshift.io/v1beta1/HostedCluster: request to https://127.0.0.1:9/apis/hypershift.openshift.io/v1beta1 failed, reason: connect ECONNREFUSED 127.0.0.1:9';
    expect([result.status, result.stderr]).toEqual([1, `hcp-cdk rollout status: management cluster hub-1 not read: ${error}\n`]);
    expect(result.stdout).toContain(`- hub-1: not read (context gone (https://127.0.0.1:9)): ${error}; its 12 clusters are unread\n`);
    expect(result.stdout).toContain(`**Next:** not decided: management cluster hub-1, which runs clusters of its released waves, could not be read: ${error}\n`);
    expect(result.stdout).toContain('| 3 wave-3 | 2026-05-01T12:00:00Z | 3 | 1 done, 1 timed-out, 1 unread |\n');
    expect(result.stdout).toContain(`- wave 1: unread: ${idOf('a07')}: management cluster hub-1 could not be read\n`);
    expect(result.stdout.length).toBeLessThan(65_536);
  }, 30_000);

  test('advance refuses to decide when a management cluster of a released wave refuses the list (403), and writes nothing', async () => {
    const before = [state('a'), state('b')];
    const result = await hcpCdk(['advance', 'dist', '--kubeconfig', kubeconfig, '--now', at(420), '--context', 'hub-1=nobody']);
    const refused =
      `management cluster hub-1, which runs clusters of its released waves, could not be read: the management cluster at ${client.connection.url} (context nobody) refuses to let user "nobody" list HostedCluster objects in namespace rollout-1 ` +
      '(403 Forbidden: hostedclusters.hypershift.openshift.io is forbidden: User "system:serviceaccount:rollout-0:rollout-nobody" cannot list resource "hostedclusters" in API group "hypershift.openshift.io" in the namespace "rollout-1"); ' +
      'hcp-cdk rollout reads HostedClusters and NodePools by list: grant list on hostedclusters and nodepools (hypershift.openshift.io) in namespace rollout-1';
    expect([result.status, result.stdout, result.stderr]).toEqual([
      1,
      '',
      `hcp-cdk rollout advance: rollout r-a cannot be decided: ${refused}\nhcp-cdk rollout advance: rollout r-b cannot be decided: ${refused}\n`,
    ]);
    expect([state('a'), state('b')]).toEqual(before);
  }, 30_000);

  test('a context without a folder is for one management cluster; a kubeconfig and context per folder; smaller pages', async () => {
    const bare = await hcpCdk(['status', 'dist', '--kubeconfig', kubeconfig, '--context', 'hub-0', '--json']);
    expect(bare.status).toBe(1);
    expect(JSON.parse(bare.stdout).hubs.map((h: any) => h.error)).toEqual(
      ['hub-0', 'hub-1'].map(
        (hub) => `--context hub-0 names no management folder, and the rollouts span several: give each its own, --context ${hub}=<context> (a kubeconfig context named as the folder needs none)`,
      ),
    );
    // hub-1 through a kubeconfig of its own, whose one context is named otherwise.
    const own = path.join(work, 'hub-1.kubeconfig');
    const config = YAML.parse(fs.readFileSync(kubeconfig, 'utf8'));
    fs.writeFileSync(own, YAML.stringify({ ...config, contexts: [{ name: 'admin@hub-1', context: { cluster: 'test', user: 'lister' } }], 'current-context': 'admin@hub-1' }), { mode: 0o600 });
    const before = [state('a'), state('b')];
    const result = await hcpCdk([
      'advance',
      'dist',
      '--kubeconfig',
      kubeconfig,
      '--kubeconfig',
      `hub-1=${own}`,
      '--context',
      'hub-1=admin@hub-1',
      '--now',
      at(420),
      '--page-size',
      '5',
      '--dry-run',
      '--json',
    ]);
    expect(result.status).toBe(4);
    const run: RolloutAdvanceRun = JSON.parse(result.stdout);
    expect(run.hubs.map((h) => [h.managementFolder, h.context, h.hostedClustersRead, h.nodePoolsRead, h.pages])).toEqual([
      ['hub-0', 'hub-0', 12, 12, 6],
      ['hub-1', 'admin@hub-1', 12, 12, 6],
    ]);
    expect(outcomes(run)).toEqual({ 'r-a': 'complete', 'r-b': 'complete' });
    expect([state('a'), state('b')]).toEqual(before);
  }, 30_000);
});
