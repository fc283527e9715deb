import { Duration, JsonPatch, Size } from 'cdk8s';
import {
  Arch,
  HcpApp,
  HostedCluster,
  HostedClusterProps,
  HyperShiftVersion,
  ManagementCluster,
  NodePool,
  NodePoolOptions,
  NodePoolPlatform,
  PlatformType,
  Release,
  TaintEffect,
  UpgradeType,
} from '../../lib';
import { DNS1123_LABEL_RULE } from '../../lib/core/names';
import { PLATFORMS, RELEASE, clusterProps, newCluster, synthAppOf } from '../props';
import { findObject, synthProblems, PRUNE_PROTECTION } from '../util';

/** The NodePool object of pool `workers` of cluster `hub/c1`. */
function nodePool(options: NodePoolOptions = {}, cluster: Partial<HostedClusterProps> = {}, configure?: (pool: NodePool) => void): any {
  const pool = newCluster(cluster).addNodePool('workers', options);
  configure?.(pool);
  return findObject(synthAppOf(pool), 'NodePool');
}

/** The problems reported for pool `hub/c1/workers`. */
function problemsOf(options: NodePoolOptions, cluster: Partial<HostedClusterProps> = {}): string[] {
  return synthProblems((app) => newCluster(cluster, app).addNodePool('workers', options));
}

describe('NodePool defaults', () => {
  test('is named <cluster>-<id> in the cluster namespace and points at its cluster', () => {
    const pool = nodePool();
    expect(pool.apiVersion).toBe('hypershift.openshift.io/v1beta1');
    expect(pool.metadata).toEqual({ name: 'c1-workers', namespace: 'clusters', annotations: { 'argocd.argoproj.io/sync-wave': '60', ...PRUNE_PROTECTION } });
    expect(pool.spec.clusterName).toBe('c1');
  });

  test('uses the hcp defaults: 2 replicas, amd64, no auto repair, drain forever', () => {
    const spec = nodePool().spec;
    expect(spec.replicas).toBe(2);
    expect(spec).not.toHaveProperty('autoScaling');
    expect(spec.arch).toBe('amd64');
    expect(spec.management).toEqual({ upgradeType: 'InPlace', autoRepair: false });
    expect(spec.nodeDrainTimeout).toBe('0s');
    expect(spec.nodeVolumeDetachTimeout).toBe('0s');
  });

  test('runs the cluster release by default', () => {
    expect(nodePool().spec.release).toEqual({ image: RELEASE.image });
  });

  test('leaves out what was not asked for', () => {
    const spec = nodePool().spec;
    for (const field of ['nodeLabels', 'taints', 'tuningConfig', 'config', 'pausedUntil']) expect(spec).not.toHaveProperty(field);
  });

  test.each([
    ['agent', 'InPlace'],
    ['none', 'InPlace'],
    ['kubevirt', 'Replace'],
    ['aws', 'Replace'],
  ])('upgrades %s pools %s by default', (platform, upgradeType) => {
    expect(nodePool({}, PLATFORMS[platform]()).spec.management.upgradeType).toBe(upgradeType);
  });

  test.each([
    ['agent', { type: 'Agent', agent: {} }],
    ['none', { type: 'None' }],
    [
      'kubevirt',
      {
        type: 'KubeVirt',
        kubevirt: {
          compute: { cores: 2, memory: '4Gi' },
          rootVolume: { type: 'Persistent', persistent: { size: '32Gi' } },
          networkInterfaceMultiqueue: 'Enable',
          attachDefaultNetwork: true,
        },
      },
    ],
    [
      'aws',
      {
        type: 'AWS',
        aws: {
          instanceType: 'm5.large',
          instanceProfile: 'c1-worker',
          subnet: { id: 'subnet-0123456789abcdef0' },
          rootVolume: { type: 'gp3', size: 120 },
        },
      },
    ],
  ])('uses the hcp platform defaults on %s', (platform, expected) => {
    expect(nodePool({}, PLATFORMS[platform]()).spec.platform).toEqual(expected);
  });

  test('names the AWS instance profile after the infrastructure ID', () => {
    expect(nodePool({}, { ...PLATFORMS.aws(), infraId: 'c1-x7k2p' }).spec.platform.aws.instanceProfile).toBe('c1-x7k2p-worker');
  });
});

describe('NodePool fields', () => {
  test('takes name, replicas, auto repair and arch', () => {
    const pool = nodePool({ name: 'vcluster2', replicas: 0, autoRepair: true, arch: Arch.ARM64 });
    expect(pool.metadata.name).toBe('vcluster2');
    expect(pool.spec.replicas).toBe(0);
    expect(pool.spec.management.autoRepair).toBe(true);
    expect(pool.spec.arch).toBe('arm64');
  });

  test('writes autoscaling instead of replicas', () => {
    const spec = nodePool({ autoScaling: { min: 1, max: 5 } }).spec;
    expect(spec.autoScaling).toEqual({ min: 1, max: 5 });
    expect(spec).not.toHaveProperty('replicas');
  });

  test('exposes the most nodes the pool can have', () => {
    const cluster = newCluster();
    expect(cluster.addNodePool('fixed', { replicas: 3 }).maxNodes).toBe(3);
    expect(cluster.addNodePool('scaled', { autoScaling: { min: 1, max: 7 } }).maxNodes).toBe(7);
  });

  test.each([
    [Duration.seconds(30), '30s'],
    [Duration.minutes(5), '5m0s'],
    [Duration.minutes(90), '1h30m0s'],
    [Duration.hours(25), '25h0m0s'],
  ])('formats a drain timeout of %p as Go does: %s', (timeout, text) => {
    const spec = nodePool({ nodeDrainTimeout: timeout, nodeVolumeDetachTimeout: timeout }).spec;
    expect(spec.nodeDrainTimeout).toBe(text);
    expect(spec.nodeVolumeDetachTimeout).toBe(text);
  });

  test('writes maxSurge and maxUnavailable as a rolling update for Replace', () => {
    expect(nodePool({ upgradeType: UpgradeType.REPLACE, maxSurge: '25%', maxUnavailable: 0 }).spec.management).toEqual({
      upgradeType: 'Replace',
      autoRepair: false,
      replace: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: 0 } },
    });
  });

  test('writes maxUnavailable alone for Replace', () => {
    expect(nodePool({ maxUnavailable: 2 }, PLATFORMS.kubevirt()).spec.management.replace).toEqual({ strategy: 'RollingUpdate', rollingUpdate: { maxUnavailable: 2 } });
  });

  test('writes maxUnavailable under inPlace for InPlace', () => {
    expect(nodePool({ maxUnavailable: '10%' }).spec.management).toEqual({ upgradeType: 'InPlace', autoRepair: false, inPlace: { maxUnavailable: '10%' } });
  });

  test('takes a release of its own', () => {
    expect(nodePool({ release: Release.fromVersion('4.16.5') }).spec.release).toEqual({ image: 'quay.io/openshift-release-dev/ocp-release:4.16.5-multi' });
  });

  test('writes node labels and taints', () => {
    const spec = nodePool({
      nodeLabels: { 'node-role.kubernetes.io/infra': '' },
      taints: [
        { key: 'node-role.kubernetes.io/infra', effect: TaintEffect.NO_SCHEDULE },
        { key: 'gpu', value: 'true', effect: TaintEffect.NO_EXECUTE },
      ],
    }).spec;
    expect(spec.nodeLabels).toEqual({ 'node-role.kubernetes.io/infra': '' });
    expect(spec.taints).toEqual([
      { key: 'node-role.kubernetes.io/infra', effect: 'NoSchedule' },
      { key: 'gpu', value: 'true', effect: 'NoExecute' },
    ]);
  });

  test('references tuning and config ConfigMaps by name', () => {
    const spec = nodePool({ tuningConfigMaps: ['performance-profile'], configMaps: ['chrony-config', 'kdump'] }).spec;
    expect(spec.tuningConfig).toEqual([{ name: 'performance-profile' }]);
    expect(spec.config).toEqual([{ name: 'chrony-config' }, { name: 'kdump' }]);
  });

  test('writes pausedUntil, labels and annotations', () => {
    const pool = nodePool({ pausedUntil: 'true', labels: { team: 'lab' }, annotations: { note: 'gpu pool' } });
    expect(pool.spec.pausedUntil).toBe('true');
    expect(pool.metadata.labels).toEqual({ team: 'lab' });
    expect(pool.metadata.annotations).toEqual({ note: 'gpu pool', 'argocd.argoproj.io/sync-wave': '60', ...PRUNE_PROTECTION });
  });

  test('takes a platform block of the cluster platform', () => {
    const spec = nodePool({ platform: NodePoolPlatform.kubevirt({ cores: 8, memory: Size.gibibytes(32) }) }, PLATFORMS.kubevirt()).spec;
    expect(spec.platform.kubevirt.compute).toEqual({ cores: 8, memory: '32Gi' });
  });

  test('can join a cluster this app does not own', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const hub = new ManagementCluster(app, 'hub');
    const cluster = HostedCluster.fromAttributes(hub, 'existing', {
      clusterName: 'prod',
      namespace: 'hcp',
      platformType: PlatformType.AWS,
      release: RELEASE,
      infraId: 'prod-abc12',
      defaultSubnetId: 'subnet-1',
    });
    new NodePool(hub, 'gpu', { cluster, replicas: 1 });
    const pool = findObject(synthAppOf(hub), 'NodePool');
    expect(pool.metadata).toEqual({ name: 'prod-gpu', namespace: 'hcp', annotations: { 'argocd.argoproj.io/sync-wave': '60', ...PRUNE_PROTECTION } });
    expect(pool.spec.clusterName).toBe('prod');
    expect(pool.spec.platform.aws).toMatchObject({ instanceProfile: 'prod-abc12-worker', subnet: { id: 'subnet-1' } });
  });
});

describe('NodePool escape hatches', () => {
  test('addOverride and resource.addJsonPatch reach the output', () => {
    const spec = nodePool({}, PLATFORMS.aws(), (pool) => {
      pool.addOverride('spec.platform.aws.ami', 'ami-0123456789abcdef0');
      pool.resource.addJsonPatch(JsonPatch.replace('/spec/nodeDrainTimeout', '10m0s'));
    }).spec;
    expect(spec.platform.aws.ami).toBe('ami-0123456789abcdef0');
    expect(spec.nodeDrainTimeout).toBe('10m0s');
  });

  test('addNodePool works after other pools were added', () => {
    const cluster = newCluster();
    cluster.addNodePool('a');
    cluster.addNodePool('b', { replicas: 1 });
    expect(
      synthAppOf(cluster)
        .filter((o) => o.kind === 'NodePool')
        .map((o) => o.metadata.name),
    ).toEqual(['c1-a', 'c1-b']);
  });
});

test('snapshot of an agent node pool', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'vcluster2', clusterProps());
  const pool = cluster.addNodePool('workers', {
    name: 'vcluster2',
    replicas: 2,
    upgradeType: UpgradeType.IN_PLACE,
    maxUnavailable: 1,
    nodeDrainTimeout: Duration.minutes(5),
    nodeLabels: { 'hcp.example.com/pool': 'vcluster2' },
    taints: [{ key: 'dedicated', value: 'lab', effect: TaintEffect.NO_SCHEDULE }],
    tuningConfigMaps: ['tuned-hugepages'],
    platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'vcluster2' } }),
  });
  expect(findObject(synthAppOf(pool), 'NodePool')).toMatchSnapshot();
});

describe('NodePool validation', () => {
  test('fails when replicas and autoScaling are both given', () => {
    expect(problemsOf({ replicas: 3, autoScaling: { min: 1, max: 3 } })).toEqual(['hub/c1/workers: replicas (3) and autoScaling ({"min":1,"max":3}) are mutually exclusive; give one']);
  });

  test('fails when autoScaling.max is below autoScaling.min', () => {
    expect(problemsOf({ autoScaling: { min: 3, max: 1 } })).toEqual(['hub/c1/workers: autoScaling.max (1) must be >= autoScaling.min (3)']);
  });

  test('fails when autoScaling.min is negative and max is 0', () => {
    expect(problemsOf({ autoScaling: { min: -1, max: 0 } })).toEqual([
      'hub/c1/workers: autoScaling.min (-1) must be a whole number >= 0',
      'hub/c1/workers: autoScaling.max (0) must be a whole number >= 1',
    ]);
  });

  test('fails when a JavaScript caller gives counts as strings, each shown quoted as written', () => {
    expect(problemsOf({ replicas: '3' as any, autoScaling: { min: '1' as any, max: '5' as any } })).toEqual([
      'hub/c1/workers: replicas ("3") and autoScaling ({"min":"1","max":"5"}) are mutually exclusive; give one',
      'hub/c1/workers: autoScaling.min ("1") must be a whole number >= 0',
      'hub/c1/workers: autoScaling.max ("5") must be a whole number >= 1',
    ]);
  });

  test('fails when autoscaling from zero on a platform other than AWS, which HyperShift refuses', () => {
    expect(problemsOf({ autoScaling: { min: 0, max: 3 } })).toEqual([
      'hub/c1/workers: autoScaling.min (0) scales from zero, which HyperShift supports on AWS and Azure only; give at least 1 on platform Agent',
    ]);
  });

  test.each([-1, 1.5])('fails when replicas is %p', (replicas) => {
    expect(problemsOf({ replicas })).toEqual([`hub/c1/workers: replicas (${replicas}) must be a whole number >= 0`]);
  });

  test('fails when the pool platform differs from the cluster platform', () => {
    expect(problemsOf({ platform: NodePoolPlatform.kubevirt() })).toEqual(['hub/c1/workers: platform (KubeVirt) must match the platform of cluster c1 (Agent)']);
  });

  test('fails when maxSurge is given with InPlace upgrades', () => {
    expect(problemsOf({ maxSurge: 1 })).toEqual(['hub/c1/workers: maxSurge (1) only applies to upgradeType Replace, not InPlace']);
  });

  test.each([
    ['maxSurge', '150%'],
    ['maxSurge', -1],
    ['maxUnavailable', '10'],
    ['maxUnavailable', 0.5],
  ] as const)('fails when %s is %p', (field, count) => {
    expect(problemsOf({ upgradeType: UpgradeType.REPLACE, [field]: count })).toEqual([`hub/c1/workers: ${field} (${JSON.stringify(count)}) must be a whole number >= 0 or a percentage such as "25%"`]);
  });

  test('fails when the pool release is newer than the cluster release: a newer minor HyperShift refuses outright', () => {
    expect(problemsOf({ release: Release.fromVersion('4.18.0') })).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:4.18.0-multi") is 4.18.0, newer than the control plane\'s 4.17.0; ' +
        "node pools must not run ahead of the control plane (doc 6.6), and HyperShift's NodePool controller refuses a newer minor (ValidReleaseImage False: IsValidReleaseVersion): update the cluster first",
    ]);
  });

  test('fails when a GA pool runs under a release-candidate control plane (candidates order before their release)', () => {
    expect(problemsOf({ release: Release.fromVersion('4.18.0') }, { release: Release.fromVersion('4.18.0-rc.2') })).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:4.18.0-multi") is 4.18.0, newer than the control plane\'s 4.18.0-rc.2; ' +
        'node pools must not run ahead of the control plane (doc 6.6), and HyperShift reports SupportedVersionSkew False (ValidateVersionSkew, support/supportedversion/version.go): update the cluster first',
    ]);
    expect(problemsOf({ release: Release.fromVersion('4.18.0-rc.2') }, { release: Release.fromVersion('4.18.0') })).toEqual([]);
  });

  test('the default rule (HyperShift main): a 4.15 control plane with 4.12 pools synthesizes, three minors behind', () => {
    const pool = nodePool({ release: Release.fromVersion('4.12.30') }, { release: Release.fromVersion('4.15.2') });
    expect(pool.spec.release).toEqual({ image: 'quay.io/openshift-release-dev/ocp-release:4.12.30-multi' });
    expect(pool.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '60', ...PRUNE_PROTECTION });
    // No HyperShift version stated: none recorded on the HostedCluster either.
    const cluster = findObject(synthAppOf(newCluster({ release: Release.fromVersion('4.15.2') })), 'HostedCluster');
    expect(cluster.metadata.annotations).not.toHaveProperty('hcp-cdk.io/hypershift-version');
  });

  test('fails under the default rule when the pool is four minors behind', () => {
    expect(problemsOf({ release: Release.fromVersion('4.14.0') }, { release: Release.fromVersion('4.18.2') })).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:4.14.0-multi") is 4.14.0, 4 minors behind the control plane\'s 4.18.2; ' +
        'HyperShift main (hcp-cdk\'s default: hub "hub" states no HyperShift version) allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.15 or later here: ' +
        'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
    ]);
  });

  test('the default rule counts 5.0 as 4.23: a 5.0 control plane with 4.22 or 4.20 pools synthesizes, 4.19 is four behind', () => {
    expect(nodePool({ release: Release.fromVersion('4.22.5') }, { release: Release.fromVersion('5.0.1') }).spec.release).toEqual({ image: 'quay.io/openshift-release-dev/ocp-release:4.22.5-multi' });
    expect(problemsOf({ release: Release.fromVersion('4.20.0') }, { release: Release.fromVersion('5.0.1') })).toEqual([]);
    expect(problemsOf({ release: Release.fromVersion('4.19.9') }, { release: Release.fromVersion('5.0.1') })).toEqual([
      expect.stringMatching(/^hub\/c1\/workers: release \(.*4\.19\.9-multi"\) is 4\.19\.9, 4 minors behind the control plane's 5\.0\.1; HyperShift main .* so 4\.20 or later here: /),
    ]);
    // 4.23 is 5.0: a 4.23 pool is not ahead of a 5.0 control plane of a later patch.
    expect(problemsOf({ release: Release.fromVersion('4.23.0') }, { release: Release.fromVersion('5.0.1') })).toEqual([]);
  });

  test('fails when the pool runs another major version than 4 or 5', () => {
    expect(problemsOf({ release: Release.fromVersion('3.11.0') })).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:3.11.0-multi") is 3.11.0, another major version than the control plane\'s 4.17.0; HyperShift compares only 4.y and 5.y versions',
    ]);
  });

  test('accepts pools one, two and three minors behind under the default rule, on odd and even minors', () => {
    expect(problemsOf({ release: Release.fromVersion('4.16.3') })).toEqual([]);
    expect(problemsOf({ release: Release.fromVersion('4.15.9') })).toEqual([]);
    expect(problemsOf({ release: Release.fromVersion('4.15.0') }, { release: Release.fromVersion('4.18.2') })).toEqual([]);
  });
});

describe("NodePool version rules of the management cluster's HyperShift", () => {
  /** The problems of pool hub/c1/workers at `pool` under a control plane at `controlPlane` on a hub running `hyperShift`. */
  const under = (hyperShift: HyperShiftVersion, controlPlane: string, pool: string): string[] =>
    synthProblems((app) =>
      newCluster({ release: Release.fromVersion(controlPlane) }, app, new ManagementCluster(app, 'hub', { hyperShift })).addNodePool('workers', { release: Release.fromVersion(pool) }),
    );

  test('HyperShift 4.19 and 4.20 (MCE 2.9, 2.10) have the older rule: two minors behind on an even minor, one on an odd one', () => {
    expect(under(HyperShiftVersion.ofMultiClusterEngine('2.10'), '4.19.2', '4.17.5')).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:4.17.5-multi") is 4.17.5, 2 minors behind the control plane\'s 4.19.2; ' +
        'HyperShift 4.20 (MCE 2.10) on hub "hub" allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.18 or later here: ' +
        'its CLI refuses to create such a pool (validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20)',
    ]);
    expect(under(HyperShiftVersion.ofOpenShift('4.19'), '4.18.2', '4.16.0')).toEqual([]);
    expect(under(HyperShiftVersion.ofOpenShift('4.19'), '4.18.2', '4.15.0')).toEqual([
      expect.stringContaining('is 4.15.0, 3 minors behind the control plane\'s 4.18.2; HyperShift 4.19 on hub "hub" allows'),
    ]);
    // The same pair HyperShift 4.21 on accepts.
    expect(under(HyperShiftVersion.ofOpenShift('4.21'), '4.19.2', '4.17.5')).toEqual([]);
  });

  test('HyperShift up to 4.18 checks no skew, only its oldest supported version (and the cluster annotation that skips it)', () => {
    expect(under(HyperShiftVersion.ofMultiClusterEngine('2.8'), '4.18.2', '4.14.0')).toEqual([]);
    expect(under(HyperShiftVersion.ofMultiClusterEngine('2.8'), '4.18.2', '4.13.9')).toEqual([
      'hub/c1/workers: release ("quay.io/openshift-release-dev/ocp-release:4.13.9-multi") is 4.13.9, older than HyperShift 4.18 (MCE 2.8) on hub "hub" supports (4.14 to 4.18): ' +
        'the NodePool controller sets ValidReleaseImage False and does not reconcile the pool (IsValidReleaseVersion, support/supportedversion/version.go)',
    ]);
    const skipped = synthProblems((app) =>
      newCluster(
        { release: Release.fromVersion('4.18.2'), annotations: { 'hypershift.openshift.io/skip-release-image-validation': 'true' } },
        app,
        new ManagementCluster(app, 'hub', { hyperShift: HyperShiftVersion.ofOpenShift('4.18') }),
      ).addNodePool('workers', { release: Release.fromVersion('4.13.9') }),
    );
    expect(skipped).toEqual([]);
  });

  test("fails when the control plane is newer than the hub's HyperShift supports; the HostedCluster records the version", () => {
    const hub = (app: HcpApp): ManagementCluster => new ManagementCluster(app, 'hub', { hyperShift: HyperShiftVersion.ofMultiClusterEngine('2.7') });
    expect(synthProblems((app) => newCluster({ release: Release.fromVersion('4.18.0') }, app, hub(app)))).toEqual([
      'hub/c1: release ("quay.io/openshift-release-dev/ocp-release:4.18.0-multi") is 4.18.0, newer than HyperShift 4.17 (MCE 2.7) on hub "hub" supports (4.14 to 4.17): ' +
        "the HostedCluster controller sets ValidReleaseImage False and reconciles the cluster no further (IsValidReleaseVersion, support/supportedversion/version.go); upgrade the hub's HyperShift operator (a new MCE minor) first",
    ]);
    const app = new HcpApp({ outdir: '/nonexistent' });
    const cluster = findObject(synthAppOf(newCluster({}, app, hub(app))), 'HostedCluster');
    expect(cluster.metadata.annotations['hcp-cdk.io/hypershift-version']).toBe('mce-2.7');
  });
});

describe('NodePool validation, continued', () => {
  test('fails when the pool release image is malformed', () => {
    expect(problemsOf({ release: Release.fromImage('quay.io/ocp/release@sha256:beef') })).toEqual([
      'hub/c1/workers: release image ("quay.io/ocp/release@sha256:beef") must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>',
    ]);
  });

  test('fails when the name is not a DNS-1123 label', () => {
    expect(problemsOf({ name: 'Workers_1' })).toEqual([`hub/c1/workers: name ("Workers_1") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails when a node label is invalid', () => {
    expect(problemsOf({ nodeLabels: { 'node role': 'infra' } })).toEqual(['hub/c1/workers: nodeLabels ("node role=infra") must be a valid label key and value']);
  });

  test('fails when a taint key is invalid', () => {
    expect(problemsOf({ taints: [{ key: 'bad key', effect: TaintEffect.NO_SCHEDULE }] })).toEqual(['hub/c1/workers: taints[0].key ("bad key") must be a label key']);
  });

  test.each(['tuningConfigMaps', 'configMaps'] as const)('fails when a %s name is invalid', (field) => {
    expect(problemsOf({ [field]: ['ok', 'Tuned_Profile'] })).toEqual([`hub/c1/workers: ${field}[1] ("Tuned_Profile") must name a ConfigMap (DNS-1123 subdomain)`]);
  });

  test('reports several problems at once', () => {
    expect(problemsOf({ replicas: -1, maxSurge: 1, platform: NodePoolPlatform.none() })).toEqual([
      'hub/c1/workers: replicas (-1) must be a whole number >= 0',
      'hub/c1/workers: platform (None) must match the platform of cluster c1 (Agent)',
      'hub/c1/workers: maxSurge (1) only applies to upgradeType Replace, not InPlace',
    ]);
  });
});
