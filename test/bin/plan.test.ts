// `hcp-cdk plan`, run as users run it: a separate node process in a GitOps repository on disk.
import Ajv2020 from 'ajv/dist/2020';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { load } from 'js-yaml';
import { Fleet, FleetInventory, HcpApp, PLAN_JSON_SCHEMA, Release } from '../../lib';
import { newCluster } from '../props';
import { git, ROOT } from '../util';

function hcpCdk(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return hcpCdkWith({}, cwd, ...args);
}

function hcpCdkWith(env: Record<string, string>, cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const base: Record<string, string | undefined> = { ...process.env, NO_COLOR: '' };
  delete base.HCP_CDK_STRICT;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'plan', ...args], { cwd, encoding: 'utf8', env: { ...base, ...env } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Writes the synth of agent cluster c1 (at `release`, a version or a Release; pool of `replicas`) into `<repo>/dist`, replacing what is there. */
function synthInto(repo: string, release: string | Release = '4.17.0', replicas = 2, poolRelease?: Release): void {
  const app = new HcpApp({ outdir: path.join(repo, 'dist') });
  newCluster({ release: typeof release === 'string' ? Release.fromVersion(release) : release }, app).addNodePool('workers', { replicas, release: poolRelease });
  const files = app.synthesize();
  fs.rmSync(path.join(repo, 'dist'), { recursive: true, force: true });
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(repo, 'dist', file.path)), { recursive: true });
    fs.writeFileSync(path.join(repo, 'dist', file.path), file.text);
  }
}

/** A git repository whose last commit holds the synth at 4.17.0 (or `release`, the pool at `poolRelease`) in dist/. */
function gitOpsRepository(release: string | Release = '4.17.0', poolRelease?: Release): string {
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-'));
  git(repo, 'init', '-q');
  synthInto(repo, release, 2, poolRelease);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'the clusters as they run');
  return repo;
}

describe('hcp-cdk plan', () => {
  const repo = gitOpsRepository();

  test('no change: exit 0, and says so', () => {
    const result = hcpCdk(repo);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('0 to create, 0 to update, 0 to delete, ');
  });

  test('changes: exit 2; --json matches the documented schema and says what each change does', () => {
    synthInto(repo, '4.17.3', 3);
    const result = hcpCdk(repo, '--json');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(2);
    const plan = JSON.parse(result.stdout);
    const validate = new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA);
    expect(validate(plan)).toBe(true);
    expect(plan.schemaVersion).toBe('hcp-cdk.io/plan/v1');
    expect(plan.previous).toBe(`git HEAD of ${fs.realpathSync(repo)} (dist/)`);
    // The pool follows the cluster's release, so it upgrades too.
    expect(plan.summary).toEqual({ create: 0, update: 2, delete: 0, unchanged: 1, effects: { 'control-plane-upgrade': 1, 'node-pool-rollout': 1, scale: 1 }, clustersChanged: ['hub/clusters/c1'] });
    expect(plan.objects.map((o: any) => [o.kind, o.effects.map((e: any) => e.effect)])).toEqual([
      ['HostedCluster', ['control-plane-upgrade']],
      ['NodePool', ['node-pool-rollout', 'scale']],
    ]);
    expect(plan.clusterNotes).toEqual([
      { cluster: 'hub/clusters/c1', delivery: 'kustomize', poolsWait: false, note: expect.stringContaining('and nothing waits: oc apply -k hub/c1 applies the control plane and the pools at once') },
    ]);
  });

  test('text: the counts and effects first, then per cluster, without colour off a terminal', () => {
    synthInto(repo, '4.17.3', 3);
    const result = hcpCdk(repo);
    expect(result.status).toBe(2);
    expect(result.stdout).not.toContain('\u001b[');
    expect(result.stdout.split('\n').slice(3, 5)).toEqual(['0 to create, 2 to update, 0 to delete, 1 unchanged', 'effects: 1 control-plane-upgrade, 1 node-pool-rollout, 1 scale']);
    expect(result.stdout).toContain(
      'cluster hub/clusters/c1\n  ~ HostedCluster clusters/c1  hub/c1/50-hostedcluster-clusters_c1.yaml\n      control-plane-upgrade: the control plane upgrades from 4.17.0 to 4.17.3 (z-stream)\n',
    );
  });

  test('markdown: a pull-request comment with a table per cluster', () => {
    synthInto(repo, '4.17.3', 3);
    const result = hcpCdk(repo, '--format', 'markdown');
    expect(result.status).toBe(2);
    expect(result.stdout).toContain('### hcp-cdk plan\n\n**0 to create, 2 to update, 0 to delete, 1 unchanged**');
    expect(result.stdout).toContain(
      '| update | NodePool `clusters/c1-workers` | **node-pool-rollout**: nodes upgrade from 4.17.0 to 4.17.3: InPlace, nodes reboot into the new configuration 1 at a time, 3 nodes in 3 rounds<br>**scale**: scales from 2 nodes to 3 nodes; no node is replaced |',
    );
  });

  test('--ref reads another commit; an unknown ref is an error, exit 1', () => {
    synthInto(repo);
    expect(hcpCdk(repo, '--ref', 'main').status).toBe(0);
    const unknown = hcpCdk(repo, '--ref', 'no-such-branch');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe(`hcp-cdk plan: unknown git ref "no-such-branch" in ${fs.realpathSync(repo)}; give a branch, tag or commit it holds (git branch -a lists them)\n`);
  });

  test('--against a directory that is not an hcp-cdk output: exit 1, naming the file', () => {
    const foreign = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-foreign-'));
    fs.writeFileSync(path.join(foreign, 'cluster.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n');
    const result = hcpCdk(repo, '--against', foreign);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `hcp-cdk plan: ${foreign}: cluster.yaml is not named as hcp-cdk names its files (<rank>-<kind>-[<namespace>_]<name>.yaml), so this is not the output of an hcp-cdk synth\n`,
    );
  });

  test('two versions of one object in one folder: exit 1, naming both files', () => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-twice-'));
    fs.cpSync(path.join(repo, 'dist'), copy, { recursive: true });
    fs.copyFileSync(path.join(copy, 'hub/c1/60-nodepool-clusters_c1-workers.yaml'), path.join(copy, 'hub/c1/61-nodepool-clusters_c1-workers.yaml'));
    const result = hcpCdk(repo, '--against', copy);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'hub/c1/60-nodepool-clusters_c1-workers.yaml and hub/c1/61-nodepool-clusters_c1-workers.yaml are two versions of one object (nodepool clusters/c1-workers) in one folder',
    );
  });

  test('files that cannot be read or parsed: exit 1, naming the file', () => {
    const broken = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-broken-'));
    fs.cpSync(path.join(repo, 'dist'), broken, { recursive: true });
    fs.writeFileSync(path.join(broken, 'hub/c1/60-nodepool-clusters_c1-workers.yaml'), 'spec: [unclosed\n');
    const unparsable = hcpCdk(repo, '--against', broken);
    expect(unparsable.status).toBe(1);
    expect(unparsable.stderr).toMatch(/^hcp-cdk plan: .*: hub\/c1\/60-nodepool-clusters_c1-workers\.yaml: not valid YAML: /);

    fs.rmSync(path.join(broken, 'hub/c1/60-nodepool-clusters_c1-workers.yaml'));
    fs.symlinkSync(path.join(broken, 'gone.yaml'), path.join(broken, 'hub/c1/60-nodepool-clusters_c1-workers.yaml'));
    const unreadable = hcpCdk(repo, '--against', broken);
    expect(unreadable.status).toBe(1);
    expect(unreadable.stderr).toBe(
      `hcp-cdk plan: ${broken}: cannot read ${path.join(broken, 'hub/c1/60-nodepool-clusters_c1-workers.yaml')}: no such file or directory (or a symbolic link to nothing)\n`,
    );
  });

  test('an output a synth left incomplete (its marker present): exit 1, saying why', () => {
    synthInto(repo);
    fs.writeFileSync(path.join(repo, 'dist', '.hcp-cdk-incomplete'), JSON.stringify({ pid: 4242, started: '2026-11-25T20:00:00.000Z' }));
    try {
      const result = hcpCdk(repo);
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `hcp-cdk plan: dist: ${path.join(fs.realpathSync(repo), 'dist')} is incomplete: a synth stopped while writing it (process 4242, started 2026-11-25T20:00:00.000Z); the next synth repairs it; synthesize again before planning\n`,
      );
    } finally {
      fs.rmSync(path.join(repo, 'dist', '.hcp-cdk-incomplete'));
    }
  });

  test('a change the API server would refuse: exit 1, and the plan shows it', () => {
    synthInto(repo);
    const file = path.join(repo, 'dist/hub/c1/50-hostedcluster-clusters_c1.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('infraID: c1', 'infraID: c2'));
    const result = hcpCdk(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('refused: the API server refuses it: spec.infraID: infraID is immutable');
    expect(result.stderr).toBe('hcp-cdk plan: 1 of the changes would be refused (effect refused: by the API server, HyperShift or a release rollout); the output cannot be applied as it is\n');
  });

  test('an object of a kind no CRD serves is refused, unless --allow-unvalidated-kind waives its kind', () => {
    synthInto(repo);
    fs.writeFileSync(path.join(repo, 'dist/hub/40-widget-tools_w1.yaml'), 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w1\n  namespace: tools\n');
    const refused = hcpCdk(repo);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('refused: the API server refuses it: apiVersion: no schema for Widget in example.com/v1');
    const waived = hcpCdk(repo, '--allow-unvalidated-kind', 'example.com/v1/Widget=no CRD published');
    expect(waived.stderr).toBe('');
    expect(waived.status).toBe(2);
    expect(waived.stdout).not.toContain('refused');
    expect(hcpCdk(repo, '--allow-unvalidated-kind', 'example.com/v1/Widget').stderr).toContain('hcp-cdk plan: --allow-unvalidated-kind ("example.com/v1/Widget") must be <apiVersion>/<Kind>=<reason>');
  });

  test('an empty new output against a full one: exit 1 unless --allow-empty (a failed synth leaves one)', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-empty-'));
    synthInto(repo);
    const refused = hcpCdk(repo, empty, '--against', 'dist');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      `hcp-cdk plan: ${empty} holds no objects, and dist holds 3: a synth that failed leaves an empty output, and this plan would delete everything; synthesize again, or give --allow-empty if deleting every object is meant\n`,
    );
    const allowed = hcpCdk(repo, empty, '--allow-empty', '--json', '--against', 'dist');
    expect(allowed.stderr).toBe('');
    expect(allowed.status).toBe(2);
    expect(JSON.parse(allowed.stdout).summary.delete).toBe(3);
  });

  test('CRDs that cannot be read: exit 1, naming them', () => {
    const result = hcpCdk(repo, '--crds', '/nonexistent/crds');
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      'hcp-cdk plan: --crds ("/nonexistent/crds") does not exist; give a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)\n',
    );
  });

  test('usage errors: exit 1 with the usage; --help and --json-schema: exit 0', () => {
    const twoRefs = hcpCdk(repo, '--ref', 'main', '--against', 'x');
    expect(twoRefs.status).toBe(1);
    expect(twoRefs.stderr).toMatch(/^hcp-cdk plan: --against and --ref both name the previous output; give one\nusage: hcp-cdk plan/);
    expect(hcpCdk(repo, '--format', 'yaml').stderr).toMatch(/^hcp-cdk plan: --format \("yaml"\) must be one of text, json, markdown/);
    const help = hcpCdk(repo, '--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('exit status (as terraform plan -detailed-exitcode): 0 no changes; 2 changes; 1 an error');
    const schema = hcpCdk(repo, '--json-schema');
    expect(schema.status).toBe(0);
    expect(JSON.parse(schema.stdout)).toEqual(JSON.parse(JSON.stringify(PLAN_JSON_SCHEMA)));
  });
});

describe('hcp-cdk plan on releases by digest', () => {
  const IMAGE = (hex: string) => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
  const d = (hex: string, version?: string) => Release.fromImage(IMAGE(hex), version === undefined ? {} : { version });

  test('a digest change declared 4.14.10 to 4.16.0 (a skipped minor): exit 1', () => {
    const repo = gitOpsRepository(d('a', '4.14.10'));
    synthInto(repo, d('b', '4.16.0'));
    const result = hcpCdk(repo);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      'cluster hub/clusters/c1\n  ~ HostedCluster clusters/c1  hub/c1/50-hostedcluster-clusters_c1.yaml\n' +
        '      refused: spec.release.image: refused: updates from 4.14.10 to 4.16.0, which skips 4.15; a control plane accepts a later 4.14.z or 4.15.z, one minor at a time; ' +
        'forceUpgradeTo (the force-upgrade-to annotation) overrides (node pools may then go from 4.14 to 4.16 directly)\n' +
        '      control-plane-upgrade: the control plane upgrades from 4.14.10 to 4.16.0 (eus-to-eus)\n',
    );
    expect(result.stderr).toBe('hcp-cdk plan: 1 of the changes would be refused (effect refused: by the API server, HyperShift or a release rollout); the output cannot be applied as it is\n');
  });

  test('a control plane by digest moved past what its pool by digest may lag behind (edited into the output): exit 1, naming the pool', () => {
    const repo = gitOpsRepository(d('a', '4.17.0'), d('c', '4.14.9'));
    const file = path.join(repo, 'dist/hub/c1/50-hostedcluster-clusters_c1.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(IMAGE('a'), IMAGE('b')).replace('hcp-cdk.io/release-version: 4.17.0', 'hcp-cdk.io/release-version: 4.18.0'));
    const result = hcpCdk(repo, '--json');
    expect(result.status).toBe(1);
    const plan = JSON.parse(result.stdout);
    expect(plan.objects.map((o: any) => [o.kind, o.effects.map((e: any) => e.summary)])).toEqual([
      [
        'HostedCluster',
        [
          "HyperShift does not support it: spec.release.image: pool c1-workers's release is 4.14.9, 4 minors behind the control plane's 4.18.0; " +
            'HyperShift main (hcp-cdk\'s default: hub "hub" states no HyperShift version) allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.15 or later here: ' +
            'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
          'the control plane upgrades from 4.17.0 to 4.18.0 (minor)',
        ],
      ],
    ]);
  });

  test('a digest without a version: a warning and exit 2; with --strict or HCP_CDK_STRICT=1, exit 1', () => {
    const repo = gitOpsRepository(d('a', '4.17.0'));
    synthInto(repo, d('b'));
    const warning =
      `warning: hub/clusters/c1: HostedCluster clusters/c1: spec.release.image: the release ("${IMAGE('b')}") tells no OpenShift version ` +
      "(no version tag, no hcp-cdk.io/release-version annotation), so plan cannot check its update path or its node pools' version skew; " +
      'give the version with the digest: Release.fromImage(image, { version })';
    const lenient = hcpCdk(repo);
    expect(lenient.status).toBe(2);
    expect(lenient.stderr).toBe('');
    expect(lenient.stdout.split('\n')).toContain(warning);
    const strict = hcpCdk(repo, '--strict');
    expect(strict.status).toBe(1);
    expect(strict.stdout).toBe(lenient.stdout);
    expect(strict.stderr).toBe('hcp-cdk plan: 2 warnings under strict: what the plan cannot check is an error; give the versions it names, or plan without strict\n');
    expect(hcpCdkWith({ HCP_CDK_STRICT: '1' }, repo).status).toBe(1);
  });
});

describe("hcp-cdk plan of the example fleet's release rollout", () => {
  const document = load(fs.readFileSync(path.join(ROOT, 'examples', 'fleet', 'fleet.yaml'), 'utf8')) as { spec: FleetInventory };
  /** Writes the example fleet, its rollout at `releasedWaves`, into `<repo>/dist`, as synth() does against what is there. */
  const synthFleetInto = (repo: string, releasedWaves: number): void => {
    const spec = JSON.parse(JSON.stringify(document.spec));
    spec.rollouts[0].releasedWaves = releasedWaves;
    const app = new HcpApp({ outdir: path.join(repo, 'dist'), keepLastGoodCopy: false });
    Fleet.fromInventory(app, spec);
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      app.synth();
    } finally {
      spy.mockRestore();
    }
  };
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-rollout-'));
  git(repo, 'init', '-q');
  synthFleetInto(repo, 0);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'the fleet, its rollout declared');

  test('the first commit: the rollout line names wave 1 and its clusters, in text, markdown and --json; exit 2', () => {
    synthFleetInto(repo, 1);
    const line = 'rollout r-4-17-3 (4.17.3): wave 1 of 3 (canaries) moves 2 clusters: hub-0/clusters/c00000, hub-1/clusters/c00001; 22 left: 6 in wave 2 (ring-1), 16 in wave 3 (rest)';
    const text = hcpCdk(repo);
    expect(text.status).toBe(2);
    expect(text.stdout.split('\n').slice(3, 6)).toEqual(['0 to create, 6 to update, 0 to delete, 204 unchanged', 'effects: 2 control-plane-upgrade, 4 node-pool-rollout', line]);
    expect(hcpCdk(repo, '--markdown').stdout).toContain(`\n> **${line}**\n`);
    const json = hcpCdk(repo, '--json');
    const plan = JSON.parse(json.stdout);
    expect(new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA)(plan)).toBe(true);
    expect(plan.rollouts.map((r: any) => [r.name, r.moves, r.left.map((w: any) => [w.wave, w.name, w.clusters.length])])).toEqual([
      [
        'r-4-17-3',
        [{ wave: 1, name: 'canaries', clusters: ['hub-0/clusters/c00000', 'hub-1/clusters/c00001'] }],
        [
          [2, 'ring-1', 6],
          [3, 'rest', 16],
        ],
      ],
    ]);
    expect(plan.summary.clustersChanged).toEqual(['hub-0/clusters/c00000', 'hub-1/clusters/c00001']);
  });

  test("a commit that moves two waves (written without synth's check): exit 1, refused on every object it moves", () => {
    const app = new HcpApp({ outdir: path.join(repo, 'dist'), keepLastGoodCopy: false });
    const spec = JSON.parse(JSON.stringify(document.spec));
    spec.rollouts[0].releasedWaves = 2;
    Fleet.fromInventory(app, spec);
    app.writeFiles(app.synthesize());
    const result = hcpCdk(repo);
    expect(result.status).toBe(1);
    expect(result.stdout.split('\n').filter((l) => l.startsWith('refused: rollout'))).toEqual([
      'refused: rollout r-4-17-3: releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time',
      'refused: rollout r-4-17-3: releasedWaves (2): wave 2 (ring-1) moves while wave 1 (canaries) is not on the target release in the previous output ' +
        '(hub-0/clusters/c00000 (control plane and 2 pools) and hub-1/clusters/c00001 (control plane and 2 pools)); move wave 2 (ring-1) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
    expect(result.stderr).toBe('hcp-cdk plan: 26 of the changes would be refused (effect refused: by the API server, HyperShift or a release rollout); the output cannot be applied as it is\n');
  });

  test("a released wave renamed (written without synth's check): exit 1 although no cluster changes, the rollout refusing it", () => {
    git(repo, 'checkout', '-q', '--', 'dist');
    synthFleetInto(repo, 1);
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'r-4-17-3: wave 1');
    const app = new HcpApp({ outdir: path.join(repo, 'dist'), keepLastGoodCopy: false });
    const spec = JSON.parse(JSON.stringify(document.spec));
    spec.rollouts[0].releasedWaves = 1;
    spec.rollouts[0].waves[0].name = 'first';
    Fleet.fromInventory(app, spec);
    app.writeFiles(app.synthesize());
    const result = hcpCdk(repo);
    expect(result.stdout).toContain('0 to create, 0 to update, 0 to delete, ');
    expect(result.stdout.split('\n').filter((l) => l.startsWith('refused: rollout'))).toEqual([
      'refused: rollout r-4-17-3: waves: wave 1 (canaries) is released in the previous output and its 2 clusters run 4.17.3; a released wave cannot be removed or renamed: put it back as it was',
    ]);
    expect(result.stderr).toBe('hcp-cdk plan: release rollout r-4-17-3 refuses the commit (refused: lines of the plan); the output cannot be applied as it is\n');
    expect(result.status).toBe(1);
  });

  test('--full-plan: the whole plan in a file beside the comment; only with --format markdown', () => {
    git(repo, 'checkout', '-q', '--', 'dist');
    synthFleetInto(repo, 2);
    const full = path.join(repo, 'plan-full.md');
    const result = hcpCdk(repo, '--markdown', '--full-plan', full);
    expect(result.status).toBe(2);
    expect(fs.readFileSync(full, 'utf8')).toBe(result.stdout);
    expect(hcpCdk(repo, '--full-plan', full).stderr).toMatch(/^hcp-cdk plan: --full-plan is for --format markdown, whose comment it completes\n/);
  });
});
