import { Size } from 'cdk8s';
import { ClusterPlatform, EtcdStorage, HcpApp, HostedCluster, LINT_RULES, ManagementCluster, Release, SecretSource } from '../../lib';

function cluster(app: HcpApp, etcdSize = Size.gibibytes(8)): HostedCluster {
  return new HostedCluster(new ManagementCluster(app, 'hub'), 'c1', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    etcd: EtcdStorage.managed({ size: etcdSize }),
  });
}

describe('lint: legal but almost certainly not meant', () => {
  test('the rules have stable, distinct ids', () => {
    expect(Object.values(LINT_RULES).map((r) => r.id)).toEqual(['HCP-W001', 'HCP-W002', 'HCP-W004', 'HCP-W005', 'HCP-W006', 'HCP-W010', 'HCP-W011']);
  });

  test('an etcd volume of a few hundred MiB is a warning, and synth still writes', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    cluster(app, Size.mebibytes(512));
    expect(app.synthesize().length).toBeGreaterThan(0);
    expect(app.warnings).toEqual(['hub/c1: etcd.size (512 MiB) is under 1 GiB: etcd fills such a volume within days and the control plane stops; hcp sizes it at 8 GiB [HCP-W001]']);
  });

  test('a pool of 2^31 - 1 replicas (a legal int32) is a warning', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    cluster(app).addNodePool('huge', { replicas: 2 ** 31 - 1 });
    app.synthesize();
    expect(app.warnings).toEqual(['hub/c1/huge: replicas (2147483647) is more nodes than an OpenShift cluster supports (2000) [HCP-W002]']);
    const atTheLimit = new HcpApp({ outdir: '/nonexistent' });
    cluster(atTheLimit).addNodePool('scaled', { autoScaling: { min: 1, max: 2000 } });
    atTheLimit.synthesize();
    expect(atTheLimit.warnings).toEqual([]);
  });

  test('a release by tag on a cluster with imageContentSources is HCP-W005, with or without DisconnectedMirrors', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new HostedCluster(new ManagementCluster(app, 'hub'), 'c1', {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
      imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp/release'] }],
    });
    app.synthesize();
    expect(app.warnings).toEqual([
      expect.stringMatching(/^hub\/c1: release \("quay\.io\/openshift-release-dev\/ocp-release:4\.17\.0-multi"\) is a tag, but the cluster pulls through mirrors, .* \[HCP-W005\]$/),
    ]);
  });

  test('nothing to say about the defaults', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    cluster(app).addNodePool('workers');
    app.synthesize();
    expect(app.warnings).toEqual([]);
  });

  test('fails when strict makes the warnings errors', () => {
    const app = new HcpApp({ outdir: '/nonexistent', strict: true });
    cluster(app, Size.mebibytes(512)).addNodePool('huge', { autoScaling: { min: 1, max: 5000 } });
    expect(() => app.synthesize()).toThrow(
      [
        '2 problems:',
        '  - hub/c1: etcd.size (512 MiB) is under 1 GiB: etcd fills such a volume within days and the control plane stops; hcp sizes it at 8 GiB [HCP-W001]',
        '  - hub/c1/huge: autoScaling.max (5000) is more nodes than an OpenShift cluster supports (2000) [HCP-W002]',
      ].join('\n'),
    );
  });

  test('fails when HCP_CDK_STRICT=1 asks for strict (cdk8s synth in CI)', () => {
    const before = process.env.HCP_CDK_STRICT;
    process.env.HCP_CDK_STRICT = '1';
    try {
      const app = new HcpApp({ outdir: '/nonexistent' });
      cluster(app, Size.mebibytes(512));
      expect(() => app.synthesize()).toThrow('[HCP-W001]');
    } finally {
      if (before === undefined) delete process.env.HCP_CDK_STRICT;
      else process.env.HCP_CDK_STRICT = before;
    }
  });
});
