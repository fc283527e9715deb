import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ChangeEffect, HcpApp, PlanAction, Release } from '../../lib';
import { newCluster } from '../props';
import { git } from '../util';

function app(outdir: string, version: string): HcpApp {
  const result = new HcpApp({ outdir, keepLastGoodCopy: false });
  newCluster({ release: Release.fromVersion(version) }, result).addNodePool('workers', { replicas: 2 });
  return result;
}

describe('HcpApp.plan()', () => {
  // synth() prints its notes (no previous output, Secrets to create) to stderr.
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  test('compares the app with git HEAD of its output directory by default, writing nothing', () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-app-plan-'));
    const outdir = path.join(repo, 'dist');
    git(repo, 'init', '-q');
    app(outdir, '4.17.0').synth();
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'first');
    const before = fs.readdirSync(path.join(outdir, 'hub', 'c1'));

    const plan = app(outdir, '4.17.3').plan();
    expect(plan.previous).toBe(`git HEAD of ${fs.realpathSync(repo)} (dist/)`);
    expect(plan.objects.map((o) => [o.action, o.kind, o.effects.map((e) => e.effect)])).toEqual([
      [PlanAction.UPDATE, 'HostedCluster', [ChangeEffect.CONTROL_PLANE_UPGRADE]],
      [PlanAction.UPDATE, 'NodePool', [ChangeEffect.NODE_POOL_ROLLOUT]],
    ]);
    expect(fs.readdirSync(path.join(outdir, 'hub', 'c1'))).toEqual(before);
    expect(fs.readFileSync(path.join(outdir, 'hub', 'c1', '50-hostedcluster-clusters_c1.yaml'), 'utf8')).toContain('4.17.0-multi');
  });

  test('reports a change synth would refuse instead of throwing, against a directory', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-app-plan-dir-'));
    const first = new HcpApp({ outdir, keepLastGoodCopy: false });
    newCluster({ infraId: 'c1-a' }, first);
    first.synth();
    const second = new HcpApp({ outdir: '/nonexistent' });
    newCluster({ infraId: 'c1-b' }, second);
    const plan = second.plan({ previous: { directory: outdir } });
    const hc = plan.objects.find((o) => o.kind === 'HostedCluster')!;
    expect(hc.effects.map((e) => e.effect)).toEqual([ChangeEffect.REFUSED, ChangeEffect.DESTRUCTIVE]);
    expect(() => second.synthesize({ previousOutput: undefined })).not.toThrow();
  });

  test('under strict, a release by digest without its version is an error, not a plan', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-app-plan-strict-'));
    const image = `quay.io/openshift-release-dev/ocp-release@sha256:${'e'.repeat(64)}`;
    const strict = new HcpApp({ outdir, strict: true, keepLastGoodCopy: false });
    newCluster({ release: Release.fromImage(image) }, strict);
    expect(() => strict.plan({ previous: { directory: outdir } })).toThrow(
      `hub/c1: release ("${image}") tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ` +
        "its update paths or its node pools' version skew; give it: Release.fromImage(image, { version: '4.17.0' }) [HCP-W004]",
    );
    const lenient = new HcpApp({ outdir, keepLastGoodCopy: false });
    newCluster({ release: Release.fromImage(image) }, lenient);
    const plan = lenient.plan({ previous: { directory: outdir } });
    expect(plan.objects.find((o) => o.kind === 'HostedCluster')!.warnings).toEqual([
      `spec.release.image: the release ("${image}") tells no OpenShift version ` +
        "(no version tag, no hcp-cdk.io/release-version annotation), so plan cannot check its node pools' version skew; give the version with the digest: Release.fromImage(image, { version })",
    ]);
  });
});
