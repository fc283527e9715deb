import { assessUpgrade, maxNodePoolMinorSkew, nodePoolSkewProblem, Release, ReleaseVersion, UpgradeKind } from '../../lib';

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

  test('accepts EUS-to-EUS for a node pool, from an even minor only', () => {
    expect(assessUpgrade(v('4.16.3'), v('4.18.0'), { nodePool: true })).toEqual({ kind: UpgradeKind.EUS_TO_EUS, from: v('4.16.3'), to: v('4.18.0') });
    expect(assessUpgrade(v('4.15.3'), v('4.17.0'), { nodePool: true })).toEqual({
      kind: UpgradeKind.UNSUPPORTED,
      from: v('4.15.3'),
      to: v('4.17.0'),
      problem: 'updates from 4.15.3 to 4.17.0, which skips 4.16; a node pool accepts a later 4.15.z or 4.16.z',
    });
  });

  test('fails when the version goes down, a z-stream or a minor', () => {
    expect(assessUpgrade(v('4.17.9'), v('4.17.3'))).toEqual({
      kind: UpgradeKind.DOWNGRADE,
      from: v('4.17.9'),
      to: v('4.17.3'),
      problem:
        'goes back from 4.17.9 to 4.17.3: OpenShift supports no downgrade; a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; ' +
        'forceUpgradeTo (the force-upgrade-to annotation) overrides',
    });
    expect(assessUpgrade(v('4.18.0'), v('4.17.3'), { nodePool: true }).problem).toBe(
      'goes back from 4.18.0 to 4.17.3: OpenShift supports no downgrade; a node pool accepts a later 4.18.z, 4.19.z or 4.20.z (EUS-to-EUS)',
    );
  });

  test('fails when the major version changes', () => {
    expect(assessUpgrade(v('4.19.0'), v('5.0.0')).problem).toBe(
      'updates from 4.19.0 to 5.0.0, which changes the major version; ' +
        'a control plane accepts a later 4.19.z or 4.20.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    );
  });

  test('accepts a refused control-plane path when forceUpgradeTo names the target, by image or by version', () => {
    const forced = { kind: UpgradeKind.UNSUPPORTED, from: v('4.15.2'), to: v('4.17.1'), forced: true };
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/openshift-release-dev/ocp-release:4.17.1-x86_64' })).toEqual(forced);
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: '4.17.1' })).toEqual(forced);
  });

  test('fails when forceUpgradeTo names another release, or a node pool', () => {
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64' }).problem).toMatch(/^updates from 4.15.2 to 4.17.1/);
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: 'quay.io/ocp/release@sha256:' + 'a'.repeat(64) }).problem).toBeDefined();
    expect(assessUpgrade(v('4.15.2'), v('4.17.1'), { forceUpgradeTo: '4.17.1', nodePool: true }).problem).toBeDefined();
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

describe('node pool skew', () => {
  test('allows two minors behind an even control plane, one behind an odd one', () => {
    expect(maxNodePoolMinorSkew(v('4.18.0'))).toBe(2);
    expect(maxNodePoolMinorSkew(v('4.17.0'))).toBe(1);
    expect(nodePoolSkewProblem(v('4.16.0'), v('4.18.5'))).toBeUndefined();
    expect(nodePoolSkewProblem(v('4.16.0'), v('4.17.5'))).toBeUndefined();
    expect(nodePoolSkewProblem(v('4.17.5'), v('4.17.5'))).toBeUndefined();
  });

  test('fails when the pool is too far behind or ahead', () => {
    expect(nodePoolSkewProblem(v('4.15.0'), v('4.17.5'))).toBe(
      "is 4.15.0, 2 minors behind the control plane's 4.17.5; " + 'HyperShift supports pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.16 or later here',
    );
    expect(nodePoolSkewProblem(v('4.17.6'), v('4.17.5'))).toBe(
      "is 4.17.6, newer than the control plane's 4.17.5; " + 'node pools must not run ahead of the control plane (doc 6.6): update the cluster first',
    );
  });
});
