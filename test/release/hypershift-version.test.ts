import { HcpApp, HyperShiftVersion, ManagementCluster, NodePoolSkewPolicy, recordedHyperShiftVersion } from '../../lib';
import { synthProblems } from '../util';

/** The facts of a version, field by field. */
const facts = (version: HyperShiftVersion): Record<string, unknown> => ({
  latestSupported: version.latestSupported,
  minSupported: version.minSupported,
  nodePoolSkew: version.nodePoolSkew,
  multiClusterEngine: version.multiClusterEngine,
  record: version.record,
  name: version.name,
  problem: version.problem,
});

describe('HyperShiftVersion', () => {
  test('of an OpenShift minor: the operator of its release branch, its range and its skew policy', () => {
    expect(facts(HyperShiftVersion.ofOpenShift('4.17'))).toEqual({
      latestSupported: { major: 4, minor: 17, patch: 0 },
      minSupported: { major: 4, minor: 14, patch: 0 },
      nodePoolSkew: NodePoolSkewPolicy.NOT_CHECKED,
      multiClusterEngine: undefined,
      record: '4.17',
      name: 'HyperShift 4.17',
      problem: undefined,
    });
  });

  test.each([
    // MinSupportedVersion and the skew rule of each release branch (support/supportedversion/version.go, cmd/nodepool/core/create.go).
    ['4.14', 12, NodePoolSkewPolicy.NOT_CHECKED],
    ['4.15', 13, NodePoolSkewPolicy.NOT_CHECKED],
    ['4.16', 13, NodePoolSkewPolicy.NOT_CHECKED],
    ['4.18', 14, NodePoolSkewPolicy.NOT_CHECKED],
    ['4.19', 14, NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD],
    ['4.20', 14, NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD],
    ['4.21', 14, NodePoolSkewPolicy.THREE_MINORS],
    ['4.22', 14, NodePoolSkewPolicy.THREE_MINORS],
    ['5.0', 14, NodePoolSkewPolicy.THREE_MINORS],
    ['5.1', 14, NodePoolSkewPolicy.THREE_MINORS],
  ])('HyperShift %s accepts hosted clusters from 4.%s, and its pools %s', (minor, oldest, policy) => {
    const version = HyperShiftVersion.ofOpenShift(minor);
    expect([version.minSupported, version.nodePoolSkew, version.problem]).toEqual([{ major: 4, minor: oldest, patch: 0 }, policy, undefined]);
  });

  test('4.23 and 5.0 are one release: the same operator, named 5.0', () => {
    expect(facts(HyperShiftVersion.ofOpenShift('4.23'))).toEqual(facts(HyperShiftVersion.ofOpenShift('5.0')));
    expect(HyperShiftVersion.ofOpenShift('4.23').latestSupported).toEqual({ major: 5, minor: 0, patch: 0 });
  });

  test('an operator newer than the rules hcp-cdk read takes the newest ones (HyperShift main at the pinned commit)', () => {
    const newer = HyperShiftVersion.ofOpenShift('5.4');
    expect([newer.newerThanRead, newer.nodePoolSkew, newer.latestSupported, newer.problem]).toEqual([true, NodePoolSkewPolicy.THREE_MINORS, { major: 5, minor: 4, patch: 0 }, undefined]);
    expect(HyperShiftVersion.ofOpenShift('5.1').newerThanRead).toBe(false);
  });

  test('of a multicluster engine: MCE 2.y ships the operator of OpenShift 4.(y+10); a z-stream brings no new operator', () => {
    expect(facts(HyperShiftVersion.ofMultiClusterEngine('2.7'))).toEqual({
      latestSupported: { major: 4, minor: 17, patch: 0 },
      minSupported: { major: 4, minor: 14, patch: 0 },
      nodePoolSkew: NodePoolSkewPolicy.NOT_CHECKED,
      multiClusterEngine: '2.7',
      record: 'mce-2.7',
      name: 'HyperShift 4.17 (MCE 2.7)',
      problem: undefined,
    });
    expect(facts(HyperShiftVersion.ofMultiClusterEngine('2.7.3'))).toEqual(facts(HyperShiftVersion.ofMultiClusterEngine('2.7')));
    expect(HyperShiftVersion.ofMultiClusterEngine('2.4').latestSupported.minor).toBe(14);
    expect(HyperShiftVersion.ofMultiClusterEngine('2.12').nodePoolSkew).toBe(NodePoolSkewPolicy.THREE_MINORS);
  });

  test('reads back what it records', () => {
    for (const version of [HyperShiftVersion.ofOpenShift('4.19'), HyperShiftVersion.ofMultiClusterEngine('2.9'), HyperShiftVersion.ofOpenShift('5.0')]) {
      expect(facts(HyperShiftVersion.fromRecord(version.record))).toEqual(facts(version));
    }
    expect(recordedHyperShiftVersion({ metadata: { annotations: { 'hcp-cdk.io/hypershift-version': 'mce-2.10' } } })?.name).toBe('HyperShift 4.20 (MCE 2.10)');
    expect(recordedHyperShiftVersion({ metadata: { annotations: { 'hcp-cdk.io/hypershift-version': 'four' } } })).toBeUndefined();
    expect(recordedHyperShiftVersion({ metadata: {} })).toBeUndefined();
  });

  test.each([
    ['4.13', 'hyperShift ("4.13") must be the OpenShift minor a HyperShift operator was released for, 4.14 or later, such as 4.17 or 5.0'],
    ['4.17.2', 'hyperShift ("4.17.2") must be the OpenShift minor a HyperShift operator was released for, 4.14 or later, such as 4.17 or 5.0'],
    ['6.0', 'hyperShift ("6.0") must be the OpenShift minor a HyperShift operator was released for, 4.14 or later, such as 4.17 or 5.0'],
  ])('knows no operator of OpenShift %s', (minor, problem) => {
    expect(HyperShiftVersion.ofOpenShift(minor).problem).toBe(problem);
  });

  test.each(['2.3', '2.13', '3.0', 'latest'])('knows no multicluster engine %s', (version) => {
    expect(HyperShiftVersion.ofMultiClusterEngine(version).problem).toBe(
      `hyperShift (multicluster engine "${version}") must be an MCE version from 2.4 to 2.12, such as 2.7; for another, give the HyperShift operator's OpenShift minor: HyperShiftVersion.ofOpenShift('4.17')`,
    );
  });
});

describe("ManagementCluster's hyperShift", () => {
  test('is kept when known', () => {
    const hub = new ManagementCluster(new HcpApp({ outdir: '/nonexistent' }), 'hub', { hyperShift: HyperShiftVersion.ofOpenShift('4.20') });
    expect(hub.hyperShift?.name).toBe('HyperShift 4.20');
  });

  test('fails at synth when the version is unknown or not a HyperShiftVersion, naming the management cluster', () => {
    expect(synthProblems((app) => new ManagementCluster(app, 'hub', { hyperShift: HyperShiftVersion.ofMultiClusterEngine('2.2') }))).toEqual([
      `hub: hyperShift (multicluster engine "2.2") must be an MCE version from 2.4 to 2.12, such as 2.7; for another, give the HyperShift operator's OpenShift minor: HyperShiftVersion.ofOpenShift('4.17')`,
    ]);
    expect(synthProblems((app) => new ManagementCluster(app, 'hub', { hyperShift: '4.17' as any }))).toEqual([
      `hub: hyperShift ("4.17") must be a HyperShiftVersion: HyperShiftVersion.ofOpenShift('4.17') or HyperShiftVersion.ofMultiClusterEngine('2.7')`,
    ]);
  });
});
