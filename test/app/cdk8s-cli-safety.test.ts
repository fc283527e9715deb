// `cdk8s synth` (the quick start's way, `npm run synth`) deletes the output directory before it runs the
// app. These tests run the real CLI on a small app and check that it keeps the promises a direct
// `node main.js` keeps: a failed synth leaves the last good output in place, and transition rules
// (immutable fields) are checked against the previous output, from the copy kept beside the output
// directory or from git HEAD.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT, git, readTree } from '../util';

const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

/** One hosted cluster; HCP_TEST_VARIANT makes it invalid or changes an immutable field. */
const APP = `
const { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } = require(process.env.HCP_CDK_LIB);
const variant = process.env.HCP_TEST_VARIANT;
const app = new HcpApp();
const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'one', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.0-multi'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
  networking: { clusterNetwork: [variant === 'cluster-network' ? '10.136.0.0/14' : '10.128.0.0/14'], machineNetwork: ['192.0.2.0/24'] },
});
cluster.addNodePool('workers', variant === 'invalid' ? { autoScaling: { min: 3, max: 1 } } : { replicas: 2 });
if (variant === 'infra-id') cluster.addOverride('spec.infraID', 'one-renamed');
app.synth();
`;

/** A fresh project directory (its name has a space) holding the app. */
function project(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk cli-'));
  fs.writeFileSync(path.join(dir, 'app.js'), APP);
  return dir;
}

/** Runs `cdk8s synth` in `dir` on the app, output to `out/`. */
function cdk8sSynth(dir: string, variant: string): { status: number | null; stderr: string } {
  const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', 'node app.js', '--output', 'out'], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, HCP_CDK_LIB: path.join(ROOT, 'build', 'lib'), HCP_TEST_VARIANT: variant },
  });
  return { status: result.status, stderr: result.stderr };
}

const HOSTED_CLUSTER = path.join('hub', 'one', '50-hostedcluster-clusters_one.yaml');

describe('cdk8s synth without git: the copy kept beside the output', () => {
  const dir = project();
  const out = path.join(dir, 'out');
  const first = cdk8sSynth(dir, 'good');
  const good = readTree(out);
  const copyFile = path.join(dir, '.out.last-good', 'output.json');
  const copyBefore = fs.statSync(copyFile, { bigint: true });
  const again = cdk8sSynth(dir, 'good');
  const copyAfter = fs.statSync(copyFile, { bigint: true });
  const invalid = cdk8sSynth(dir, 'invalid');
  const afterInvalid = readTree(out);
  const infraId = cdk8sSynth(dir, 'infra-id');
  const afterInfraId = readTree(out);
  const clusterNetwork = cdk8sSynth(dir, 'cluster-network');
  const afterClusterNetwork = readTree(out);

  test('a first synth writes the output and warns that there is no previous output to check transition rules against', () => {
    expect(first.status).toBe(0);
    expect(good.get(HOSTED_CLUSTER)).toMatch(/^ {2}infraID: one$/m);
    expect(first.stderr).toContain(
      `hcp-cdk: warning: no previous output, so transition rules (immutable fields such as a HostedCluster's spec.infraID) are not checked on this synth: ${out} does not exist; no copy is kept at ${path.join(dir, '.out.last-good', 'output.json')}; ${out} is not inside a git work tree`,
    );
  });

  test('keeps a copy of every file beside the output, out of git', () => {
    const copy = JSON.parse(fs.readFileSync(path.join(dir, '.out.last-good', 'output.json'), 'utf8'));
    expect(new Map(copy.files.map((f: { path: string; text: string }) => [f.path, f.text]))).toEqual(good);
    expect(fs.readFileSync(path.join(dir, '.out.last-good', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  test('the next synth checks transition rules against the copy and does not warn', () => {
    expect(again.status).toBe(0);
    expect(again.stderr).not.toContain('warning');
    expect(again.stderr).toContain(`transition rules are checked against ${path.join(dir, '.out.last-good', 'output.json')}`);
    expect(readTree(out)).toEqual(good);
  });

  test('the next synth writes the same bytes again (the CLI deleted them) and leaves the kept copy alone', () => {
    expect(readTree(out)).toEqual(good);
    expect([copyAfter.ino, copyAfter.mtimeNs]).toEqual([copyBefore.ino, copyBefore.mtimeNs]);
  });

  test('fails when the app is invalid, and the last good output is back in place, byte-identical', () => {
    expect(invalid.status).not.toBe(0);
    expect(invalid.stderr).toContain('hub/one/workers: autoScaling.max (1) must be >= autoScaling.min (3)');
    expect(invalid.stderr).toContain(
      `hcp-cdk: the synth failed, so ${out}, which was empty (cdk8s synth deletes it before it runs the app), holds the last good output again, from ${path.join(dir, '.out.last-good', 'output.json')}`,
    );
    expect(afterInvalid).toEqual(good);
  });

  test("fails when spec.infraID changes, with the CRD rule's message, and the last good output is back", () => {
    expect(infraId.status).not.toBe(0);
    expect(infraId.stderr).toContain('hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID is immutable (value: "one-renamed")');
    expect(afterInfraId).toEqual(good);
  });

  test('fails when the cluster network changes (an immutable list), and the last good output is back', () => {
    expect(clusterNetwork.status).not.toBe(0);
    expect(clusterNetwork.stderr).toContain('spec.networking.clusterNetwork: clusterNetwork is immutable and cannot be modified once set.');
    expect(afterClusterNetwork).toEqual(good);
  });
});

describe('cdk8s synth in a GitOps repository: git HEAD when no copy is kept', () => {
  const dir = project();
  const out = path.join(dir, 'out');
  git(dir, 'init', '-q');
  const first = cdk8sSynth(dir, 'good');
  const good = readTree(out);
  git(dir, 'add', 'out', 'app.js');
  git(dir, 'commit', '-q', '-m', 'first synth');
  const status = git(dir, 'status', '--porcelain', '--untracked-files=all');
  // As in a fresh clone: the output is committed, no copy is kept beside it.
  fs.rmSync(path.join(dir, '.out.last-good'), { recursive: true });
  const infraId = cdk8sSynth(dir, 'infra-id');
  const afterInfraId = readTree(out);

  test('the kept copy never shows in git', () => {
    expect(first.status).toBe(0);
    expect(status).toBe('');
  });

  test('fails when spec.infraID changes, checked against the output committed at HEAD', () => {
    expect(infraId.status).not.toBe(0);
    expect(infraId.stderr).toContain(`transition rules are checked against git HEAD of ${fs.realpathSync(dir)} (out/)`);
    expect(infraId.stderr).toContain('hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID is immutable (value: "one-renamed")');
  });

  test('puts the committed output back, byte-identical, and git sees no change', () => {
    expect(infraId.stderr).toContain(`holds the last good output again, from git HEAD of ${fs.realpathSync(dir)} (out/)`);
    expect(afterInfraId).toEqual(good);
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
  });
});

describe('cdk8s synth of an app that fails before it makes its HcpApp', () => {
  // The example apps read HCP_CDK_DELIVERY before `new HcpApp()`: a misspelt mode throws there.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk cli-'));
  const out = path.join(dir, 'out');
  const example = (mode: string) =>
    spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', `node ${path.join(ROOT, 'build', 'examples', 'agent-lab', 'main.js')}`, '--output', out], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, HCP_CDK_DELIVERY: mode },
    });
  const first = example('kustomize');
  const good = readTree(out, 'latin1');
  const copy = fs.readFileSync(path.join(dir, '.out.last-good', 'output.json'));
  const argo = example('argo');
  const afterArgo = readTree(out, 'latin1');
  const flux = example('Flux');
  const afterFlux = readTree(out, 'latin1');

  test.each([
    ['argo', () => argo, () => afterArgo],
    ['Flux', () => flux, () => afterFlux],
  ])('fails when HCP_CDK_DELIVERY is %j, and the last good output is back in place, byte-identical', (mode, result, after) => {
    expect(first.status).toBe(0);
    expect(good.size).toBeGreaterThan(0);
    expect(result().status).not.toBe(0);
    expect(result().stderr).toContain(`HcpValidationError: HCP_CDK_DELIVERY ("${mode}") must be one of kustomize, argocd, flux, acm`);
    expect(result().stderr).toContain(
      `hcp-cdk: the synth failed, so ${out}, which was empty (cdk8s synth deletes it before it runs the app), holds the last good output again, from ${path.join(dir, '.out.last-good', 'output.json')}`,
    );
    expect(after()).toEqual(good);
    expect(fs.readFileSync(path.join(dir, '.out.last-good', 'output.json'))).toEqual(copy);
  });

  test('prints the message without a stack trace', () => {
    // The cdk8s CLI prints its own stack (of the child process that failed); the app's has none.
    expect(argo.stderr).not.toMatch(/^\s+at .*(examples|build[/\\]lib)/m);
  });
});

describe('the guard that restores the output of a failed cdk8s synth', () => {
  /** How many 'exit' listeners loading hcp-cdk and making two apps adds, in a process of its own. */
  const listenersAdded = (env: NodeJS.ProcessEnv): string =>
    spawnSync(
      process.execPath,
      [
        '-e',
        `
    const before = process.listenerCount('exit');
    const { HcpApp } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))});
    const loaded = process.listenerCount('exit') - before;
    new HcpApp({ outdir: 'a' }); new HcpApp({ outdir: 'b' });
    console.log(loaded, process.listenerCount('exit') - before);
  `,
      ],
      { cwd: os.tmpdir(), encoding: 'utf8', env },
    ).stdout.trim();
  const withoutCli = { ...process.env };
  delete withoutCli.CDK8S_OUTDIR;

  test('adds no listener to a process the cdk8s CLI did not start', () => {
    expect(listenersAdded(withoutCli)).toBe('0 0');
  });

  test('adds one listener when hcp-cdk is loaded under the cdk8s CLI, and none for the apps made after', () => {
    expect(listenersAdded({ ...withoutCli, CDK8S_OUTDIR: 'a' })).toBe('1 1');
  });
});

describe('an output path that is a file', () => {
  const NOTES = 'notes, not output\n';

  test('fails when the app is run directly with outdir a file, and leaves the file byte-identical', () => {
    const dir = project();
    fs.writeFileSync(path.join(dir, 'app.js'), APP.replace('new HcpApp()', "new HcpApp({ outdir: 'out' })"));
    fs.writeFileSync(path.join(dir, 'out'), NOTES);
    const result = spawnSync(process.execPath, ['app.js'], { cwd: dir, encoding: 'utf8', env: { ...process.env, HCP_CDK_LIB: path.join(ROOT, 'build', 'lib'), HCP_TEST_VARIANT: 'good' } });
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `HcpValidationError: HcpApp: outdir ("out") must be a directory or a path where synth can make one, and ${path.join(dir, 'out')} is a file; nothing is written and it is left as it is`,
    );
    expect(result.stderr).not.toMatch(/ENOTDIR|^\s+at /m);
    expect(fs.readFileSync(path.join(dir, 'out'), 'utf8')).toBe(NOTES);
    expect(fs.readdirSync(dir).sort()).toEqual(['app.js', 'out']);
  });

  test('fails when cdk8s synth is given a file git holds: the CLI deletes it before the app runs, and it is put back from git', () => {
    const dir = project();
    git(dir, 'init', '-q');
    fs.writeFileSync(path.join(dir, 'out'), 'committed\n');
    git(dir, 'add', 'out', 'app.js');
    git(dir, 'commit', '-q', '-m', 'notes');
    fs.writeFileSync(path.join(dir, 'out'), NOTES);
    git(dir, 'add', 'out');
    const status = git(dir, 'status', '--porcelain', '--untracked-files=all');
    const result = cdk8sSynth(dir, 'good');
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain(
      `HcpValidationError: HcpApp: outdir ("out") must be a directory or a path where synth can make one, and cdk8s synth deleted the file there (out in git HEAD of ${fs.realpathSync(dir)}) before it ran the app; it is back as git's index holds it (changes that were not staged, if any, are lost), and nothing is written`,
    );
    expect(fs.readFileSync(path.join(dir, 'out'), 'utf8')).toBe(NOTES);
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe(status);
    expect(fs.readdirSync(dir).sort()).toEqual(['.git', 'app.js', 'out']);
  });

  test('cdk8s synth deletes a file git does not hold before the app runs, which nothing can tell from a directory (docs/design.md)', () => {
    // Pins the CLI's behaviour (cdk8s-cli's synth: fs.rmSync(outdir, { recursive: true, force: true })), which hcp-cdk cannot prevent.
    const dir = project();
    fs.writeFileSync(path.join(dir, 'out'), NOTES);
    expect(cdk8sSynth(dir, 'good').status).toBe(0);
    expect(fs.statSync(path.join(dir, 'out')).isDirectory()).toBe(true);
  });
});
