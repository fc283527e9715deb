// Parity with `hypershift create cluster <platform> --render` (the upstream golden fixtures).
//
// Approach: each test builds, with the hcp-cdk constructs, the cluster that the flags of one case in
// ../shared/hypershift-fixtures/CASES.md describe, synthesizes it in memory, parses the fixture (read
// from ../shared at run time, never copied here) and compares the two object by object (matched by
// kind, namespace and name) and field by field, as parsed objects. Values the CLI draws at random
// (infraID suffix, etcd AES-CBC key) are injected, as CASES.md lists them. The fixtures come from the
// developer CLI, whose control-plane availability default is SingleReplica, so the tests pass it.
//
// A test may only differ from its fixture by the differences it names; each is a documented
// transformation in ./differences.ts:
// - status: the fixture carries Go zero-value `status` blocks; status is server-owned, hcp-cdk emits none.
// - goZeroValueStructs: Go serializes empty structs (`autoscaling: {}`, `capabilities: {}`,
//   `configuration: {}`, `sshKey: {}`, Namespace `spec: {}`); hcp-cdk omits them. Dropped only where the
//   fixture has `{}` and our side is absent or equally empty, so no real content is hidden.
// - releaseImage: the fixture's `release.image` is `""` (rejected by the CRD, minLength 1) or
//   `fake`/`fakeReleaseImage` (no image reference, which hcp-cdk rejects); the test uses a real release
//   image and writes it into the fixture.
// - pullSecretByReference: the fixture's pull secret holds the 4 bytes `fake`, not dockerconfigjson, so
//   the API server would reject it as a typed Secret; the test references `<name>-pull-secret` with
//   SecretSource.fromExistingSecret and drops the fixture's Secret.
// - agentNamespace: without `--agent-namespace` the CLI writes `agentNamespace: ""`; hcp-cdk requires the
//   namespace of the Agents, so the test passes one and writes it into the fixture.
// - fakeAwsValues: the AWS side files hold fake values some of which are invalid: `fakeInfraID` (the CRD
//   wants lower case), `fakeIssuerURL` (the CRD wants a URL), the zone `fakeName` and so the pool name
//   `<name>-fakeName` (hcp-cdk wants a zone of the region; Kubernetes names are lower case) and `fakeBaseDomain` (hcp-cdk wants a lower-case DNS name). The test passes
//   valid stand-ins (AWS_STAND_INS) and writes them into the fixture; all other fake values pass unchanged.
//   Also `fakeSubnetID` (the NodePool CRD wants `subnet-...`) and `fakeKMSKeyARN` (the CRD wants an ARN).
// - fakeNodePortAddress: the agent and none fixtures publish on NodePort address `fakeAddress`, which the
//   CRD rejects (a host name needs a dot); the test uses NODE_PORT_ADDRESS_STAND_IN.
// Every synthesized object also passes the CRD schema and CEL check (HcpApp runs it in synthesize()), so
// a fake value the API server would reject cannot pass unnoticed.
import { Size } from 'cdk8s';
import {
  AvailabilityPolicy,
  AwsHostedInfraOutputs,
  AwsNodePools,
  ClusterPlatform,
  EtcdStorage,
  HcpApp,
  HostedCluster,
  KubevirtAccessMode,
  ManagementCluster,
  NodePoolPlatform,
  Release,
  SecretEncryption,
  SecretSource,
  allowPruning,
  KustomizeDelivery,
} from '../../lib';
import { AWS_STAND_INS, compareCluster, NODE_PORT_ADDRESS_STAND_IN, RELEASE_IMAGE, roleArnStandIn, zoneStandIn } from './differences';

const AGENT_FIXTURE = 'cmd/cluster/agent/testdata/zz_fixture_TestCreateCluster_When_minimal_flags_are_provided__it_should_render_successfully.yaml';
const AWS_FIXTURES = 'cmd/cluster/aws/testdata';
const KUBEVIRT_FIXTURES = 'cmd/cluster/kubevirt/testdata';
const NONE_FIXTURE = 'cmd/cluster/none/testdata/zz_fixture_TestCreateCluster_When_minimal_flags_are_provided__it_should_render_successfully.yaml';

/** The etcd AES-CBC keys the seeded RNG gives the first and second case of a test (CASES.md). */
const FIRST_ETCD_KEY = '7o9RQL/BlcNrBWfNBVrJg55oKrDDaDu2kfoULl9MNIE=';
const SECOND_ETCD_KEY = 'FYHY8RFxHaJUPFFWuo2z9iWCO01hcj3fqHMMWMeEHHw=';

function inlineEtcdKey(base64: string): SecretEncryption {
  return SecretEncryption.aescbc(SecretSource.fromInlineValue(Buffer.from(base64, 'base64'), { allowSecretInOutput: true }));
}

function newHub(): { app: HcpApp; hub: ManagementCluster } {
  // Sync waves and prune protection are hcp-cdk additions for GitOps engines; the CLI renders neither.
  const app = new HcpApp({ outdir: '/nonexistent', delivery: new KustomizeDelivery({ syncWaves: false }) });
  const hub = new ManagementCluster(app, 'hub');
  allowPruning(hub, { reason: 'compared with the upstream render, which carries no GitOps annotations' });
  return { app, hub };
}

describe('agent', () => {
  test('C01 agent: minimal flags', () => {
    const { app, hub } = newHub();
    const cluster = new HostedCluster(hub, 'example', {
      release: Release.fromImage(RELEASE_IMAGE),
      pullSecret: SecretSource.fromExistingSecret('example-pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: NODE_PORT_ADDRESS_STAND_IN }),
      infraId: 'example-sffhb',
      secretEncryption: inlineEtcdKey(FIRST_ETCD_KEY),
      controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
    });
    cluster.addNodePool('example', { name: 'example', replicas: 0 });

    const { ours, fixture } = compareCluster(app, AGENT_FIXTURE, ['status', 'goZeroValueStructs', 'releaseImage', 'pullSecretByReference', 'agentNamespace', 'fakeNodePortAddress'], {
      agentNamespace: 'agents',
    });
    expect(ours).toEqual(fixture);
  });
});

describe('aws', () => {
  /**
   * The values of the infra and IAM JSON files of the AWS tests (CASES.md), as an AwsHostedInfra
   * stack would output them: the cluster and its pools take every AWS value from here.
   */
  function awsInfra(region: string) {
    return AwsHostedInfraOutputs.fromValues({
      infraId: AWS_STAND_INS.infraId,
      region,
      vpcId: 'fakeVPCID',
      zones: [{ name: zoneStandIn(region), subnetId: AWS_STAND_INS.subnetId }],
      roles: {
        ingressArn: roleArnStandIn('fakeIngressARN'),
        imageRegistryArn: roleArnStandIn('fakeImageRegistryARN'),
        storageArn: roleArnStandIn('fakeStorageARN'),
        networkArn: roleArnStandIn('fakeNetworkARN'),
        kubeCloudControllerArn: roleArnStandIn('fakeKubeCloudControllerARN'),
        nodePoolManagementArn: roleArnStandIn('fakeNodePoolManagementARN'),
        controlPlaneOperatorArn: roleArnStandIn('fakeControlPlaneOperatorARN'),
      },
      issuerUrl: AWS_STAND_INS.issuerUrl,
      publicZoneId: 'fakePublicZoneID',
      privateZoneId: 'fakePrivateZoneID',
      machineCidr: '192.0.2.0/24',
      instanceProfileName: 'fakeProfileName',
      kms: { activeKeyArn: AWS_STAND_INS.kmsKeyArn, providerRoleArn: 'fakeKMSProviderRoleARN' },
    });
  }

  interface AwsCase {
    readonly name: string;
    readonly region?: string;
    readonly replicas?: number;
    readonly autoRepair?: boolean;
    readonly annotations?: Record<string, string>;
    readonly kubeApiServerDnsName?: string;
    readonly ovnMtu?: number;
  }

  function awsCluster(c: AwsCase): HcpApp {
    const { app, hub } = newHub();
    const infra = awsInfra(c.region ?? 'us-east-1');
    const cluster = new HostedCluster(hub, c.name, {
      release: Release.fromImage(RELEASE_IMAGE),
      pullSecret: SecretSource.fromExistingSecret(`${c.name}-pull-secret`),
      platform: ClusterPlatform.aws({ infra }),
      baseDomain: AWS_STAND_INS.baseDomain,
      baseDomainPrefix: 'fakeBaseDomainPrefix',
      controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
      // The infra JSON's proxyAddr.
      configuration: { proxy: { httpProxy: 'fakeProxyAddr', httpsProxy: 'fakeProxyAddr', trustedCa: { name: '' } } },
      annotations: c.annotations,
      kubeApiServerDnsName: c.kubeApiServerDnsName,
      networking: { ovnMtu: c.ovnMtu },
    });
    // One pool per zone, named <cluster>-<zone>, as the CLI makes them.
    AwsNodePools.perZone(cluster, infra, { replicas: c.replicas ?? 0, autoRepair: c.autoRepair });
    return app;
  }

  test('C02 aws: minimal flags', () => {
    const { ours, fixture } = compareCluster(awsCluster({ name: 'example' }), `${AWS_FIXTURES}/zz_fixture_TestCreateCluster_When_minimal_flags_are_provided__it_should_render_successfully.yaml`, [
      'status',
      'goZeroValueStructs',
      'releaseImage',
      'pullSecretByReference',
      'fakeAwsValues',
    ]);
    expect(ours).toEqual(fixture);
  });

  test('C03 aws: default creation flags', () => {
    const app = awsCluster({
      name: 'cesar',
      region: 'us-east-2',
      replicas: 2,
      autoRepair: true,
      annotations: {
        'hypershift.openshift.io/cleanup-cloud-resources': 'true',
        'hypershift.openshift.io/control-plane-operator-image': 'fakeCPOImage',
      },
    });
    const { ours, fixture } = compareCluster(app, `${AWS_FIXTURES}/zz_fixture_TestCreateCluster_When_default_creation_flags_are_provided__it_should_create_cluster_with_expected_configuration.yaml`, [
      'status',
      'goZeroValueStructs',
      'releaseImage',
      'pullSecretByReference',
      'fakeAwsValues',
    ]);
    expect(ours).toEqual(fixture);
  });

  test('C04 aws: KubeAPIServerDNSName', () => {
    // Without --render-sensitive the CLI renders no Secrets, so the referenced pull secret is no difference here.
    const { ours, fixture } = compareCluster(
      awsCluster({ name: 'example', kubeApiServerDnsName: 'test-dns-name.example.com' }),
      `${AWS_FIXTURES}/zz_fixture_TestCreateCluster_When_KubeAPIServerDNSName_is_provided__it_should_configure_custom_DNS_name.yaml`,
      ['status', 'goZeroValueStructs', 'releaseImage', 'fakeAwsValues'],
    );
    expect(ours).toEqual(fixture);
  });

  test('C05 aws: OVNKubernetesMTU', () => {
    const { ours, fixture } = compareCluster(
      awsCluster({ name: 'example', ovnMtu: 1400 }),
      `${AWS_FIXTURES}/zz_fixture_TestCreateCluster_When_OVNKubernetesMTU_is_provided__it_should_configure_custom_MTU.yaml`,
      ['status', 'goZeroValueStructs', 'releaseImage', 'pullSecretByReference', 'fakeAwsValues'],
    );
    expect(ours).toEqual(fixture);
  });
});

describe('kubevirt', () => {
  test('C19 kubevirt: minimal flags', () => {
    const { app, hub } = newHub();
    const cluster = new HostedCluster(hub, 'example', {
      release: Release.fromImage(RELEASE_IMAGE),
      pullSecret: SecretSource.fromExistingSecret('example-pull-secret'),
      platform: ClusterPlatform.kubevirt(),
      infraId: 'example-sffhb',
      secretEncryption: inlineEtcdKey(FIRST_ETCD_KEY),
      controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
    });
    cluster.addNodePool('example', { name: 'example', replicas: 0 });

    const { ours, fixture } = compareCluster(app, `${KUBEVIRT_FIXTURES}/zz_fixture_TestCreateCluster_When_minimal_flags_are_provided__it_should_render_successfully.yaml`, [
      'status',
      'goZeroValueStructs',
      'releaseImage',
      'pullSecretByReference',
    ]);
    expect(ours).toEqual(fixture);
  });

  test('C20 kubevirt: complex configuration flags', () => {
    const { app, hub } = newHub();
    const cluster = new HostedCluster(hub, 'test1', {
      release: Release.fromImage(RELEASE_IMAGE),
      pullSecret: SecretSource.fromExistingSecret('test1-pull-secret'),
      platform: ClusterPlatform.kubevirt({
        storageClassMappings: [
          { infraStorageClass: 'gp3-csi', guestStorageClass: 'gp3' },
          { infraStorageClass: 'ocs-storagecluster-ceph-rbd', guestStorageClass: 'ceph-rbd' },
        ],
        volumeSnapshotClassMappings: [{ infraVolumeSnapshotClass: 'ocs-storagecluster-rbd-snap', guestVolumeSnapshotClass: 'rdb-snap' }],
      }),
      infraId: 'test1-f9nvz',
      secretEncryption: inlineEtcdKey(SECOND_ETCD_KEY),
      etcd: EtcdStorage.managed({ storageClass: 'gp3-csi' }),
      controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
      infrastructureAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
      controlPlaneTolerations: [
        { key: 'key1', value: 'value1', effect: 'NoSchedule' },
        { key: 'key2', value: 'value2', effect: 'NoSchedule' },
      ],
    });
    cluster.addNodePool('test1', {
      name: 'test1',
      replicas: 2,
      platform: NodePoolPlatform.kubevirt({
        cores: 4,
        memory: Size.gibibytes(12),
        rootVolumeSize: Size.gibibytes(32),
        rootVolumeStorageClass: 'gp3-csi',
        rootVolumeAccessModes: [KubevirtAccessMode.READ_WRITE_ONCE],
        vmNodeSelector: { key: 'val' },
        additionalNetworks: ['ns1/nad-foo', 'ns2/nad-foo2'],
      }),
    });

    const { ours, fixture } = compareCluster(app, `${KUBEVIRT_FIXTURES}/zz_fixture_TestCreateCluster_When_complex_configuration_flags_are_provided__it_should_create_cluster_with_all_options.yaml`, [
      'status',
      'goZeroValueStructs',
      'releaseImage',
      'pullSecretByReference',
    ]);
    expect(ours).toEqual(fixture);
  });
});

describe('none', () => {
  test('C21 none: minimal flags', () => {
    const { app, hub } = newHub();
    const cluster = new HostedCluster(hub, 'example', {
      release: Release.fromImage(RELEASE_IMAGE),
      pullSecret: SecretSource.fromExistingSecret('example-pull-secret'),
      platform: ClusterPlatform.none({ apiServerAddress: NODE_PORT_ADDRESS_STAND_IN }),
      infraId: 'example-sffhb',
      secretEncryption: inlineEtcdKey(FIRST_ETCD_KEY),
      controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
    });
    cluster.addNodePool('example', { name: 'example', replicas: 0 });

    const { ours, fixture } = compareCluster(app, NONE_FIXTURE, ['status', 'goZeroValueStructs', 'releaseImage', 'pullSecretByReference', 'fakeNodePortAddress']);
    expect(ours).toEqual(fixture);
  });
});
