import { HyperShiftVersion, maxNodePoolMinorSkew, nodePoolSkewProblem, Release, ReleaseVersion, unsupportedReleaseProblem } from '../../lib';

function v(text: string): ReleaseVersion {
  return Release.fromVersion(text).version!;
}

const MAIN = {};
const HYPERSHIFT_4_19 = { hub: 'hub-a', hyperShift: HyperShiftVersion.ofOpenShift('4.19') };
const MCE_2_8 = { hub: 'hub-b', hyperShift: HyperShiftVersion.ofMultiClusterEngine('2.8') };

describe("maxNodePoolMinorSkew, by the hub's HyperShift", () => {
  test('three on every minor by default (HyperShift main) and from 4.21; two on an even minor and one on an odd one on 4.19 and 4.20; none up to 4.18', () => {
    expect([maxNodePoolMinorSkew(v('4.18.0')), maxNodePoolMinorSkew(v('4.17.0')), maxNodePoolMinorSkew(v('5.0.0'))]).toEqual([3, 3, 3]);
    expect(maxNodePoolMinorSkew(v('4.18.0'), { hyperShift: HyperShiftVersion.ofOpenShift('4.21') })).toBe(3);
    expect([maxNodePoolMinorSkew(v('4.18.0'), HYPERSHIFT_4_19), maxNodePoolMinorSkew(v('4.17.0'), HYPERSHIFT_4_19)]).toEqual([2, 1]);
    expect(maxNodePoolMinorSkew(v('4.18.0'), MCE_2_8)).toBeUndefined();
  });
});

describe('nodePoolSkewProblem', () => {
  test.each([
    // [control plane, pool, rules]: accepted pairs
    ['4.15.2', '4.12.30', MAIN],
    ['4.18.5', '4.15.0', MAIN],
    ['5.0.0', '4.22.9', MAIN],
    ['5.0.0', '4.20.0', MAIN],
    ['5.1.0', '4.21.0', MAIN],
    ['4.18.5', '4.18.5', MAIN],
    ['4.18.10', '4.18.5', MAIN],
    ['4.18.0', '4.16.0', HYPERSHIFT_4_19],
    ['4.17.0', '4.16.0', HYPERSHIFT_4_19],
    ['4.18.0', '4.14.0', MCE_2_8],
    ['4.18.0', '4.10.0', MCE_2_8],
  ] as const)('a %s control plane with %s pools is supported (%j)', (controlPlane, pool, rules) => {
    expect(nodePoolSkewProblem(v(pool), v(controlPlane), rules)).toBeUndefined();
  });

  test('fails under the default rule four minors behind, across the 4.23 = 5.0 bridge too', () => {
    expect(nodePoolSkewProblem(v('4.14.0'), v('4.18.5'))).toBe(
      "is 4.14.0, 4 minors behind the control plane's 4.18.5; HyperShift main (hcp-cdk's default: the hub states no HyperShift version) allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.15 or later here: " +
        'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
    );
    expect(nodePoolSkewProblem(v('4.20.0'), v('5.1.0'))).toMatch(/^is 4\.20\.0, 4 minors behind the control plane's 5\.1\.0; .* so 4\.21 or later here: /);
  });

  test('fails under the older rule (HyperShift 4.19, 4.20) two behind an odd minor, naming the hub and the rule', () => {
    expect(nodePoolSkewProblem(v('4.15.0'), v('4.17.5'), HYPERSHIFT_4_19)).toBe(
      'is 4.15.0, 2 minors behind the control plane\'s 4.17.5; HyperShift 4.19 on hub "hub-a" allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.16 or later here: ' +
        'its CLI refuses to create such a pool (validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20)',
    );
  });

  test('fails when the pool runs ahead, whatever the hub: a newer patch HyperShift reports (from 4.21), a newer minor it refuses', () => {
    expect(nodePoolSkewProblem(v('4.17.6'), v('4.17.5'))).toBe(
      "is 4.17.6, newer than the control plane's 4.17.5; node pools must not run ahead of the control plane (doc 6.6), and HyperShift reports SupportedVersionSkew False (ValidateVersionSkew, support/supportedversion/version.go): update the cluster first",
    );
    expect(nodePoolSkewProblem(v('4.17.6'), v('4.17.5'), MCE_2_8)).toBe(
      "is 4.17.6, newer than the control plane's 4.17.5; node pools must not run ahead of the control plane (doc 6.6): update the cluster first",
    );
    expect(nodePoolSkewProblem(v('4.18.0'), v('4.17.5'), MCE_2_8)).toBe(
      "is 4.18.0, newer than the control plane's 4.17.5; node pools must not run ahead of the control plane (doc 6.6), and HyperShift's NodePool controller refuses a newer minor (ValidReleaseImage False: IsValidReleaseVersion): update the cluster first",
    );
    expect(nodePoolSkewProblem(v('5.0.0'), v('4.22.3'))).toMatch(/^is 5\.0\.0, newer than the control plane's 4\.22\.3;/);
  });
});

describe('unsupportedReleaseProblem', () => {
  test('checks nothing when the hub states no HyperShift version', () => {
    expect(unsupportedReleaseProblem(v('4.10.0'), MAIN, 'cluster')).toBeUndefined();
    expect(unsupportedReleaseProblem(v('6.2.0'), MAIN, 'pool')).toBeUndefined();
  });

  test("fails outside the range the hub's operator accepts, its own minor and its oldest included", () => {
    expect(unsupportedReleaseProblem(v('4.18.0'), MCE_2_8, 'cluster')).toBeUndefined();
    expect(unsupportedReleaseProblem(v('4.14.0'), MCE_2_8, 'pool')).toBeUndefined();
    expect(unsupportedReleaseProblem(v('4.19.0'), MCE_2_8, 'cluster')).toBe(
      'is 4.19.0, newer than HyperShift 4.18 (MCE 2.8) on hub "hub-b" supports (4.14 to 4.18): the HostedCluster controller sets ValidReleaseImage False and reconciles the cluster no further ' +
        "(IsValidReleaseVersion, support/supportedversion/version.go); upgrade the hub's HyperShift operator (a new MCE minor) first",
    );
    expect(unsupportedReleaseProblem(v('4.13.2'), HYPERSHIFT_4_19, 'pool')).toBe(
      'is 4.13.2, older than HyperShift 4.19 on hub "hub-a" supports (4.14 to 4.19): the NodePool controller sets ValidReleaseImage False and does not reconcile the pool (IsValidReleaseVersion, support/supportedversion/version.go)',
    );
    expect(unsupportedReleaseProblem(v('5.0.0'), { hyperShift: HyperShiftVersion.ofOpenShift('4.22') }, 'cluster')).toMatch(/^is 5\.0\.0, newer than HyperShift 4\.22 supports \(4\.14 to 4\.22\)/);
    expect(unsupportedReleaseProblem(v('4.23.2'), { hyperShift: HyperShiftVersion.ofOpenShift('5.0') }, 'cluster')).toBeUndefined();
  });
});
