// Two synths into one output directory at once (two CI jobs, a watcher and a hand-run synth): the
// second waits for the first's lock (app/output-lock.ts) and then writes over what the first wrote,
// so the directory always ends as one whole output, never a mix of the two.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { OutputLock, outputState } from '../../lib';
import { ROOT, readTree } from '../util';

/** One hosted cluster, delivered as HCP_TEST_DELIVERY says: two outputs with different files. */
const APP = `
const { ClusterPlatform, FluxDelivery, FluxSource, HcpApp, HostedCluster, KustomizeDelivery, ManagementCluster, Release, SecretSource } = require(process.env.HCP_CDK_LIB);
const delivery = process.env.HCP_TEST_DELIVERY === 'flux' ? new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: 'https://git.example.com/estate.git' }) }) : new KustomizeDelivery();
const app = new HcpApp({ outdir: process.argv[2], delivery });
const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'one', {
  release: Release.fromVersion('4.17.0'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
});
cluster.addNodePool('workers', { replicas: 2 });
app.synth();
`;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-concurrent-'));
const appFile = path.join(dir, 'app.js');
fs.writeFileSync(appFile, APP);

function synth(outdir: string, delivery: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [appFile, outdir], {
      env: { ...process.env, HCP_CDK_LIB: path.join(ROOT, 'build', 'lib'), HCP_TEST_DELIVERY: delivery },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('20 rounds of two synths at once, under two deliveries: both succeed, and the directory is one complete output of the two', async () => {
  // A whole output of either delivery, synthesized alone or over the other's: Flux's RBAC carries, for
  // one commit, the prune rights of what the previous output held, so its bytes depend on what it replaces.
  const expected = new Map<string, Map<string, string>>();
  for (const [delivery, over] of [
    ['kustomize', undefined],
    ['flux', undefined],
    ['flux', 'kustomize'],
    ['kustomize', 'flux'],
  ] as const) {
    const alone = path.join(dir, `alone-${delivery}-over-${over ?? 'nothing'}`);
    if (over) expect((await synth(alone, over)).code).toBe(0);
    expect((await synth(alone, delivery)).code).toBe(0);
    expected.set(`${delivery} over ${over ?? 'nothing'}`, readTree(alone, 'latin1'));
  }
  expect(expected.get('kustomize over nothing')).not.toEqual(expected.get('flux over nothing'));
  const out = path.join(dir, 'out');
  for (let round = 0; round < 20; round++) {
    const [first, second] = round % 2 === 0 ? ['kustomize', 'flux'] : ['flux', 'kustomize'];
    const results = await Promise.all([synth(out, first), synth(out, second)]);
    expect(results.map((r) => [r.code, r.stderr.match(/^.*(Error|error).*$/m)?.[0]])).toEqual([
      [0, undefined],
      [0, undefined],
    ]);
    expect(outputState(out)).toEqual({ complete: true });
    const tree = readTree(out, 'latin1');
    expect([...expected.values()]).toContainEqual(tree);
  }
  // No lock is left behind.
  expect(fs.readdirSync(dir).filter((name) => name.includes('lock'))).toEqual([]);
}, 180_000);

test('a lock left by a process that was killed is taken over', () => {
  const outdir = path.join(dir, 'killed');
  const lockFile = path.join(dir, '.killed.hcp-cdk-lock');
  // A process id that no process has: the one of a child that has exited.
  fs.writeFileSync(lockFile, `${JSON.stringify({ pid: 2 ** 22 + 1, host: os.hostname(), started: '2026-01-01T00:00:00Z' })}\n`);
  const lock = OutputLock.acquire(outdir, { waitMillis: 1000 });
  expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).pid).toBe(process.pid);
  lock.release();
  expect(fs.existsSync(lockFile)).toBe(false);
});

test('of two synths that saw a lock stale, the second does not remove the lock the first has made since', () => {
  const outdir = path.join(dir, 'raced');
  const lockFile = path.join(dir, '.raced.hcp-cdk-lock');
  // The first synth took the stale lock over and holds it now (a process that runs: this one) ...
  fs.writeFileSync(lockFile, `${JSON.stringify({ pid: process.pid, host: os.hostname(), started: '2026-01-01T00:00:01Z' })}\n`);
  // ... while the second read it a moment before, when it still named the killed process.
  const dead = `${JSON.stringify({ pid: 2 ** 22 + 1, host: os.hostname(), started: '2026-01-01T00:00:00Z' })}\n`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const nodeFs = require('fs') as typeof fs;
  const real = nodeFs.readFileSync;
  let first = true;
  const spy = jest.spyOn(nodeFs, 'readFileSync').mockImplementation(((file: fs.PathOrFileDescriptor, options?: unknown) => {
    if (file === lockFile && first) {
      first = false;
      return dead;
    }
    return (real as (f: fs.PathOrFileDescriptor, o?: unknown) => string | Buffer)(file, options);
  }) as typeof fs.readFileSync);
  try {
    expect(() => OutputLock.acquire(outdir, { waitMillis: 300 })).toThrow(/is being written by another synth \(process \d+ on .*, since 2026-01-01T00:00:01Z\)/);
  } finally {
    spy.mockRestore();
  }
  expect(JSON.parse(fs.readFileSync(lockFile, 'utf8')).started).toBe('2026-01-01T00:00:01Z');
  fs.rmSync(lockFile);
});

test('a lock a running synth holds is waited for, then refused with who holds it', () => {
  const outdir = path.join(dir, 'held');
  const held = OutputLock.acquire(outdir);
  try {
    expect(() => OutputLock.acquire(outdir, { waitMillis: 200 })).toThrow(
      new RegExp(`^hcp-cdk: ${outdir} is being written by another synth \\(process ${process.pid} on .*\\); waited 0 s, and nothing is written`),
    );
  } finally {
    held.release();
  }
});
