import { assessUpgrade, Release, ReleaseVersion, UpgradeKind } from '../../lib';

const IMAGE = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';
const DIGEST = `quay.io/openshift-release-dev/ocp-release@sha256:${'d'.repeat(64)}`;

function v(text: string): ReleaseVersion {
  return Release.fromVersion(text).version!;
}

describe('assessUpgrade', () => {
  test.each([
    ['4.17.3', '4.17.3', UpgradeKind.NONE],
    ['4.17.3', '4.17.9', UpgradeKind.Z_STREAM],
    ['4.18.0-rc.2', '4.18.0', UpgradeKind.Z_STREAM],
    ['4.16.9', '4.17.0', UpgradeKind.MINOR],
  ])('accepts %s -> %s as %s', (from, to, kind) => {
    expect(assessUpgrade(v(from), v(to))).toEqual({ kind, from: v(from), to: v(to) });
  });

  test('fails when a control plane skips a minor', () => {
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'))).toEqual({
      kind: UpgradeKind.UNSUPPORTED,
      from: v('4.15.2'),
      to: v('4.17.1'),
      problem:
        'updates from 4.15.2 to 4.17.1, which skips 4.16; a control plane accepts a later 4.15.z or 4.16.z, one minor at a time; ' + 'forceUpgradeTo (the force-upgrade-to annotation) overrides',
    });
  });

  test('fails when a control plane skips two minors, naming both', () => {
    expect(assessUpgrade(v('4.14.0'), v('4.17.0')).problem).toBe(
      'updates from 4.14.0 to 4.17.0, which skips 4.15 and 4.16; ' +
        'a control plane accepts a later 4.14.z or 4.15.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    );
  });

  test('fails when a control plane goes from one EUS minor to the next directly', () => {
    const assessment = assessUpgrade(v('4.16.3'), v('4.18.0'));
    expect(assessment.kind).toBe(UpgradeKind.EUS_TO_EUS);
    expect(assessment.problem).toBe(
      'updates from 4.16.3 to 4.18.0, which skips 4.17; a control plane accepts a later 4.16.z or 4.17.z, one minor at a time; ' +
        'forceUpgradeTo (the force-upgrade-to annotation) overrides (node pools may then go from 4.16 to 4.18 directly)',
    );
  });

  test("accepts any later release for a node pool, minors skipped or not (HyperShift's NodePool controller)", () => {
    expect(assessUpgrade(v('4.16.3'), v('4.18.0'), { nodePool: true })).toEqual({ kind: UpgradeKind.EUS_TO_EUS, from: v('4.16.3'), to: v('4.18.0') });
    expect(assessUpgrade(v('4.15.3'), v('4.17.0'), { nodePool: true })).toEqual({ kind: UpgradeKind.UNSUPPORTED, from: v('4.15.3'), to: v('4.17.0') });
    expect(assessUpgrade(v('4.15.3'), v('4.18.0'), { nodePool: true })).toEqual({ kind: UpgradeKind.UNSUPPORTED, from: v('4.15.3'), to: v('4.18.0') });
  });

  test("fails when the version goes down: a z-stream unless forced, a control plane's minor even when forced", () => {
    expect(assessUpgrade(v('4.17.9'), v('4.17.3'))).toEqual({
      kind: UpgradeKind.DOWNGRADE,
      from: v('4.17.9'),
      to: v('4.17.3'),
      problem:
        'goes back from 4.17.9 to 4.17.3: OpenShift supports no downgrade; a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; ' +
        'forceUpgradeTo (the force-upgrade-to annotation) overrides',
    });
    expect(assessUpgrade(v('4.17.9'), v('4.17.3'), { forceUpgradeTo: '4.17.3' })).toEqual({ kind: UpgradeKind.DOWNGRADE, from: v('4.17.9'), to: v('4.17.3'), forced: true });
    const minor = {
      kind: UpgradeKind.DOWNGRADE,
      from: v('4.18.0'),
      to: v('4.17.3'),
      problem:
        'goes back from 4.18.0 to 4.17.3: OpenShift supports no downgrade, and HyperShift refuses a minor one even when forced ' +
        '(ValidReleaseImage False: IsValidReleaseVersion, support/supportedversion/version.go); a control plane accepts a later 4.18.z or 4.19.z, one minor at a time',
    };
    expect(assessUpgrade(v('4.18.0'), v('4.17.3'))).toEqual(minor);
    expect(assessUpgrade(v('4.18.0'), v('4.17.3'), { forceUpgradeTo: IMAGE, toImage: IMAGE })).toEqual(minor);
    // skip-release-image-validation lifts HyperShift's check: what is left is OpenShift's, which forcing overrides.
    expect(assessUpgrade(v('4.18.0'), v('4.17.3'), { forceUpgradeTo: IMAGE, toImage: IMAGE, releaseImageValidationSkipped: true })).toEqual({ ...minor, problem: undefined, forced: true });
    expect(assessUpgrade(v('4.18.0'), v('4.17.3'), { nodePool: true }).problem).toBe(
      "goes back from 4.18.0 to 4.17.3: OpenShift supports no downgrade; a node pool accepts any later release, up to its control plane's",
    );
  });

  test('counts 5.y as 4.(23+y), as HyperShift does: 4.22 to 5.0 is the next minor, 4.23 to 5.0 a z-stream', () => {
    expect(assessUpgrade(v('4.22.7'), v('5.0.0'))).toEqual({ kind: UpgradeKind.MINOR, from: v('4.22.7'), to: v('5.0.0') });
    expect(assessUpgrade(v('4.23.1'), v('5.0.2')).kind).toBe(UpgradeKind.Z_STREAM);
    expect(assessUpgrade(v('5.0.3'), v('4.23.1')).kind).toBe(UpgradeKind.DOWNGRADE);
    expect(assessUpgrade(v('4.22.0'), v('5.1.0')).kind).toBe(UpgradeKind.EUS_TO_EUS);
    expect(assessUpgrade(v('4.19.0'), v('5.0.0')).problem).toBe(
      'updates from 4.19.0 to 5.0.0, which skips 4.20, 4.21 and 4.22; ' +
        'a control plane accepts a later 4.19.z or 4.20.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    );
    expect(assessUpgrade(v('5.0.0'), v('5.1.0')).kind).toBe(UpgradeKind.MINOR);
  });

  test('fails when the major version is neither 4 nor 5', () => {
    expect(assessUpgrade(v('4.19.0'), v('6.0.0')).problem).toBe(
      'updates from 4.19.0 to 6.0.0, which changes the major version; ' +
        'a control plane accepts a later 4.19.z or 4.20.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    );
  });

  test('accepts a refused control-plane path when forceUpgradeTo names the target, by image or by version', () => {
    const forced = { kind: UpgradeKind.UNSUPPORTED, from: v('4.15.2'), to: v('4.17.1'), forced: true };
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/openshift-release-dev/ocp-release:4.17.1-x86_64' })).toEqual(forced);
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: '4.17.1' })).toEqual(forced);
  });

  test('with the target image known, forceUpgradeTo names it only as that very string, as HyperShift compares: a digest too', () => {
    const forced = { kind: UpgradeKind.UNSUPPORTED, from: v('4.15.2'), to: v('4.17.1'), forced: true };
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: DIGEST, toImage: DIGEST })).toEqual(forced);
    // The same version by tag is another image: HyperShift's isUpgrading does not force it.
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/openshift-release-dev/ocp-release:4.17.1-multi', toImage: DIGEST }).problem).toMatch(/^updates from 4.15.2 to 4.17.1/);
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: '4.17.1', toImage: DIGEST }).forced).toBeUndefined();
  });

  test('fails when forceUpgradeTo names another release, or a node pool', () => {
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64' }).problem).toMatch(/^updates from 4.15.2 to 4.17.1/);
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: DIGEST }).problem).toBeDefined();
    expect(assessUpgrade(v('4.17.5'), v('4.17.1'), { forceUpgradeTo: '4.17.1', nodePool: true }).problem).toBeDefined();
  });

  test('fails when the channel cannot offer the target of a control-plane update', () => {
    expect(assessUpgrade(v('4.16.2'), v('4.17.1'), { channel: 'stable-4.17' }).problem).toBeUndefined();
    expect(assessUpgrade(v('4.16.2'), v('4.17.1'), { channel: 'stable-4.16' })).toEqual({
      kind: UpgradeKind.MINOR,
      from: v('4.16.2'),
      to: v('4.17.1'),
      problem: 'updates to 4.17.1, but channel ("stable-4.16") does not fit release 4.17.1: a channel names the release\'s minor or the next one to update to (stable-4.17 or stable-4.18)',
    });
  });
});
