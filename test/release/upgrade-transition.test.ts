import { HcpApp, HostedClusterProps, ObjectValidator, SchemaCatalog, NodePoolOptions, PreviousOutput, PreviousOutputSource, Release, UpgradeType, upgradeTransitionProblems } from '../../lib';
import { newCluster } from '../props';
import { findObject, synthObjects } from '../util';

interface Shape {
  readonly cluster?: Partial<HostedClusterProps>;
  readonly pool?: NodePoolOptions;
}

function build(shape: Shape, strict = false): HcpApp {
  const app = new HcpApp({ outdir: '/nonexistent', strict });
  newCluster(shape.cluster ?? {}, app).addNodePool('workers', shape.pool ?? {});
  return app;
}

/** The output of `before`, as a previous output to compare with. */
function outputOf(before: Shape): PreviousOutput {
  const files = new Map(
    build(before)
      .synthesize()
      .map((f) => [f.path, Buffer.from(f.text)]),
  );
  return PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, 'test', files);
}

/** The problems of synthesizing `after` against the output of `before`, or [] when it succeeds. */
function transitionProblems(before: Shape, after: Shape, strict = false): string[] {
  try {
    build(after, strict).synthesize({ previousOutput: outputOf(before) });
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

const v = (version: string) => Release.fromVersion(version);

describe('update paths against the previous output', () => {
  test('accepts a z-stream and a next-minor update of control plane and pools', () => {
    expect(transitionProblems({ cluster: { release: v('4.17.0') } }, { cluster: { release: v('4.17.5') } })).toEqual([]);
    expect(transitionProblems({ cluster: { release: v('4.16.9') } }, { cluster: { release: v('4.17.0') } })).toEqual([]);
  });

  test('accepts a control-plane minor update while the pool stays behind within the skew', () => {
    expect(transitionProblems({ cluster: { release: v('4.16.9') } }, { cluster: { release: v('4.17.0') }, pool: { release: v('4.16.9') } })).toEqual([]);
  });

  test('accepts a pool going from one EUS minor to the next (EUS-to-EUS)', () => {
    expect(transitionProblems({ cluster: { release: v('4.18.0') }, pool: { release: v('4.16.9') } }, { cluster: { release: v('4.18.0') } })).toEqual([]);
  });

  test('fails when the control plane skips a minor', () => {
    expect(transitionProblems({ cluster: { release: v('4.16.9') } }, { cluster: { release: v('4.18.0') }, pool: { release: v('4.16.9') } })).toEqual([
      'hub/c1/Resource: HostedCluster clusters/c1: spec.release.image: refused: updates from 4.16.9 to 4.18.0, which skips 4.17; ' +
        'a control plane accepts a later 4.16.z or 4.17.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides ' +
        '(node pools may then go from 4.16 to 4.18 directly) (value: "quay.io/openshift-release-dev/ocp-release:4.18.0-multi")',
    ]);
  });

  test('fails when the control plane goes back, and its pools with it', () => {
    expect(transitionProblems({ cluster: { release: v('4.17.5') } }, { cluster: { release: v('4.17.3') } })).toEqual([
      'hub/c1/Resource: HostedCluster clusters/c1: spec.release.image: refused: goes back from 4.17.5 to 4.17.3: OpenShift supports no downgrade; ' +
        'a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides ' +
        '(value: "quay.io/openshift-release-dev/ocp-release:4.17.3-multi")',
      'hub/c1/workers/Resource: NodePool clusters/c1-workers: spec.release.image: refused: goes back from 4.17.5 to 4.17.3: OpenShift supports no downgrade; ' +
        'a node pool accepts any later release, up to its control plane\'s (value: "quay.io/openshift-release-dev/ocp-release:4.17.3-multi")',
    ]);
  });

  test("accepts a pool skipping minors up to its control plane, as HyperShift's NodePool controller does", () => {
    expect(transitionProblems({ cluster: { release: v('4.18.0') }, pool: { release: v('4.15.9') } }, { cluster: { release: v('4.18.0') } })).toEqual([]);
  });

  test('fails when the control plane goes back a minor, even when forced: HyperShift refuses it', () => {
    const target = v('4.16.9');
    expect(transitionProblems({ cluster: { release: v('4.17.5') } }, { cluster: { release: target, forceUpgradeTo: target }, pool: { release: target } })).toEqual([
      'hub/c1/Resource: HostedCluster clusters/c1: spec.release.image: refused: goes back from 4.17.5 to 4.16.9: OpenShift supports no downgrade, and HyperShift refuses a minor one even when forced ' +
        '(ValidReleaseImage False: IsValidReleaseVersion, support/supportedversion/version.go); a control plane accepts a later 4.17.z or 4.18.z, one minor at a time ' +
        '(value: "quay.io/openshift-release-dev/ocp-release:4.16.9-multi")',
      'hub/c1/workers/Resource: NodePool clusters/c1-workers: spec.release.image: refused: goes back from 4.17.5 to 4.16.9: OpenShift supports no downgrade; ' +
        'a node pool accepts any later release, up to its control plane\'s (value: "quay.io/openshift-release-dev/ocp-release:4.16.9-multi")',
    ]);
  });

  test('accepts a skipped minor when forceUpgradeTo names the new release', () => {
    const target = v('4.18.0');
    expect(transitionProblems({ cluster: { release: v('4.16.9') } }, { cluster: { release: target, forceUpgradeTo: target }, pool: { release: v('4.16.9') } })).toEqual([]);
  });

  test('fails when the force-upgrade-to annotation names another image of the same version', () => {
    const problems = transitionProblems(
      { cluster: { release: v('4.16.9') } },
      { cluster: { release: v('4.18.0'), annotations: { 'hypershift.openshift.io/force-upgrade-to': 'quay.io/openshift-release-dev/ocp-release:4.18.0-x86_64' } }, pool: { release: v('4.16.9') } },
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^hub\/c1\/Resource: HostedCluster clusters\/c1: spec.release.image: refused: updates from 4.16.9 to 4.18.0/);
  });

  test("fails when upgradeType changes, saying what to do instead of the CRD rule's terse message", () => {
    expect(transitionProblems({ pool: { upgradeType: UpgradeType.IN_PLACE } }, { pool: { upgradeType: UpgradeType.REPLACE } })).toEqual([
      'hub/c1/workers/Resource: NodePool clusters/c1-workers: spec.management.upgradeType: refused: upgradeType is immutable (InPlace before); ' +
        'create a new pool with upgradeType Replace, move the workloads, then delete this one (doc 6.5) (value: "Replace")',
    ]);
  });

  test('the CRD refuses the upgradeType change on its own (HcpApp replaces its message)', () => {
    const objects = (shape: Shape) => findObject(synthObjects(build(shape)), 'NodePool');
    const validator = new ObjectValidator({ catalog: SchemaCatalog.bundled() });
    const found = validator.validate(objects({ pool: { upgradeType: UpgradeType.REPLACE } }), { previous: objects({ pool: { upgradeType: UpgradeType.IN_PLACE } }) });
    expect(found.map((p) => `${p.path}: ${p.message}`)).toEqual(['spec.management.upgradeType: UpgradeType is immutable']);
  });

  test('does not check releases whose version the image does not tell', () => {
    const digest = (hex: string) => Release.fromImage(`quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`);
    expect(transitionProblems({ cluster: { release: digest('a') } }, { cluster: { release: digest('b') } })).toEqual([]);
  });
});

describe('releases by digest: their version is read from the release-version annotation', () => {
  const IMAGE = (hex: string) => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
  const d = (hex: string, version?: string) => Release.fromImage(IMAGE(hex), version === undefined ? {} : { version });

  test('fails when a digest change skips a minor (4.14.10 to 4.16.0), for the control plane and the pool that follows it', () => {
    expect(transitionProblems({ cluster: { release: d('a', '4.14.10') } }, { cluster: { release: d('b', '4.16.0') } })).toEqual([
      'hub/c1/Resource: HostedCluster clusters/c1: spec.release.image: refused: updates from 4.14.10 to 4.16.0, which skips 4.15; ' +
        'a control plane accepts a later 4.14.z or 4.15.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides ' +
        `(node pools may then go from 4.14 to 4.16 directly) (value: "${IMAGE('b')}")`,
    ]);
  });

  test('refuses a digest change exactly as the same change by tag', () => {
    const byTag = transitionProblems({ cluster: { release: v('4.14.10') } }, { cluster: { release: v('4.16.0') } });
    const byDigest = transitionProblems({ cluster: { release: d('a', '4.14.10') } }, { cluster: { release: d('b', '4.16.0') } });
    expect(byDigest.map((p) => p.replace(/ \(value: .*\)$/, ''))).toEqual(byTag.map((p) => p.replace(/ \(value: .*\)$/, '')));
  });

  test('fails when a pool by digest is left further behind than the skew allows', () => {
    expect(
      transitionProblems({ cluster: { release: d('a', '4.17.0') }, pool: { release: d('c', '4.14.10') } }, { cluster: { release: d('b', '4.18.0') }, pool: { release: d('c', '4.14.10') } }),
    ).toEqual([
      `hub/c1/workers: release ("${IMAGE('c')}") is 4.14.10, 4 minors behind the control plane's 4.18.0; HyperShift main (hcp-cdk's default: hub "hub" states no HyperShift version) ` +
        'allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.15 or later here: it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, ' +
        'which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
    ]);
  });

  test('fails when a pool by digest runs ahead of its control plane', () => {
    expect(transitionProblems({ cluster: { release: d('a', '4.17.0') } }, { cluster: { release: d('a', '4.17.0') }, pool: { release: d('c', '4.17.3') } })).toEqual([
      `hub/c1/workers: release ("${IMAGE('c')}") is 4.17.3, newer than the control plane's 4.17.0; node pools must not run ahead of the control plane (doc 6.6), ` +
        'and HyperShift reports SupportedVersionSkew False (ValidateVersionSkew, support/supportedversion/version.go): update the cluster first',
    ]);
  });

  test('accepts a refused path when forceUpgradeTo names the new release by digest, as HyperShift compares the annotation with the image', () => {
    const target = d('b', '4.16.0');
    const forced = build({ cluster: { release: target, forceUpgradeTo: target } });
    const objects = forced.synthesize({ previousOutput: outputOf({ cluster: { release: d('a', '4.14.10') } }) });
    const cluster = objects.map((f) => f.text).find((text) => text.includes('kind: HostedCluster'))!;
    expect(cluster).toContain(`hypershift.openshift.io/force-upgrade-to: quay.io/openshift-release-dev/ocp-release@sha256:${'b'.repeat(64)}`);
    expect(cluster).toContain(`image: quay.io/openshift-release-dev/ocp-release@sha256:${'b'.repeat(64)}`);
    // The annotation by hand, naming the digest: the same.
    expect(transitionProblems({ cluster: { release: d('a', '4.14.10') } }, { cluster: { release: target, annotations: { 'hypershift.openshift.io/force-upgrade-to': IMAGE('b') } } })).toEqual([]);
    // Naming the same version by tag does not force the digest: HyperShift compares the strings.
    expect(
      transitionProblems(
        { cluster: { release: d('a', '4.14.10') } },
        { cluster: { release: target, annotations: { 'hypershift.openshift.io/force-upgrade-to': 'quay.io/openshift-release-dev/ocp-release:4.16.0-multi' } } },
      ),
    ).toEqual([expect.stringMatching(/^hub\/c1\/Resource: HostedCluster clusters\/c1: spec.release.image: refused: updates from 4.14.10 to 4.16.0, which skips 4.15/)]);
  });

  test('a digest accepted on a supported path', () => {
    expect(transitionProblems({ cluster: { release: d('a', '4.14.10') } }, { cluster: { release: d('b', '4.15.3') } })).toEqual([]);
  });

  test('a previous release whose version the output does not tell: a warning naming the object and the image; an error with strict', () => {
    const app = build({ cluster: { release: d('b', '4.16.0') } });
    app.synthesize({ previousOutput: outputOf({ cluster: { release: d('a') } }) });
    const warning = (path: string, kind: string) =>
      `${path}: ${kind}: spec.release.image: the update path is not checked: the previous release ("${IMAGE('a')}") tells no OpenShift version ` +
      '(no version tag, no hcp-cdk.io/release-version annotation); synthesize the previous release once with its version (Release.fromImage(image, { version })) before changing it [HCP-W004]';
    const expected = [warning('hub/c1/Resource', 'HostedCluster clusters/c1'), warning('hub/c1/workers/Resource', 'NodePool clusters/c1-workers')];
    expect(app.warnings).toEqual(expected);
    expect(transitionProblems({ cluster: { release: d('a') } }, { cluster: { release: d('b', '4.16.0') } }, true)).toEqual(expected);
  });
});

describe('upgradeTransitionProblems', () => {
  const objects = synthObjects(build({ cluster: { release: v('4.17.5') } }));
  const cluster = findObject(objects, 'HostedCluster');

  test('finds nothing without a previous object of the same kind, or with the same image', () => {
    expect(upgradeTransitionProblems(cluster, undefined)).toEqual([]);
    expect(upgradeTransitionProblems(cluster, findObject(objects, 'NodePool'))).toEqual([]);
    expect(upgradeTransitionProblems(cluster, cluster)).toEqual([]);
  });

  test('fails when the previous HostedCluster ran a later release', () => {
    const previous = { ...cluster, spec: { ...cluster.spec, release: { image: 'quay.io/openshift-release-dev/ocp-release:4.18.0-multi' } } };
    expect(upgradeTransitionProblems(cluster, previous, 'hub/c1/Resource')).toEqual([
      {
        object: { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', namespace: 'clusters', name: 'c1' },
        path: 'spec.release.image',
        message:
          'refused: goes back from 4.18.0 to 4.17.5: OpenShift supports no downgrade, and HyperShift refuses a minor one even when forced ' +
          '(ValidReleaseImage False: IsValidReleaseVersion, support/supportedversion/version.go); a control plane accepts a later 4.18.z or 4.19.z, one minor at a time',
        value: 'quay.io/openshift-release-dev/ocp-release:4.17.5-multi',
        source: 'hub/c1/Resource',
      },
    ]);
  });
});
