// Parity with the platform block of `hypershift create nodepool` / `hcp create nodepool` (the upstream
// golden fixtures).
//
// Approach: these fixtures serialize only `spec.platform.<platform>` of a NodePool built from fixed core
// options (name test-nodepool, namespace clusters, cluster test-cluster, 3 replicas, arch amd64) and the
// platform flags of one case in ../shared/hypershift-fixtures/CASES.md. Each test adds a NodePool with
// the matching platform options to a HostedCluster.fromAttributes(...) (for AWS, as the upstream test's
// fake cluster: infraID test-infra, default subnet subnet-default), synthesizes in memory and compares
// our `spec.platform.<platform>` to the fixture (read from ../shared at run time) as parsed objects,
// field by field. No case needs a deliberate difference: an empty agent label selector is `{}` on both
// sides. (The named differences of the cluster fixtures are documented in cluster-parity.test.ts.)
import { Size } from 'cdk8s';
import {
  Arch,
  HcpApp,
  HostedCluster,
  KubevirtAccessMode,
  KubevirtQosClass,
  KubevirtRootVolumeCacheStrategy,
  KubevirtVolumeMode,
  LabelSelectorOperator,
  ManagementCluster,
  NodePool,
  NodePoolPlatform,
  PlatformType,
  Release,
  allowPruning,
  KustomizeDelivery,
} from '../../lib';
import type { INodePoolPlatform } from '../../lib';
import { findObject, synthObjects } from '../util';
import { readFixture, RELEASE_IMAGE } from './differences';

/** Our `spec.platform.<key>` of the NodePool the upstream tests build, with `platform`. */
function renderPlatformBlock(platformType: PlatformType, platform: INodePoolPlatform): any {
  // Sync waves and prune protection are hcp-cdk additions for GitOps engines; the CLI renders neither.
  const app = new HcpApp({ outdir: '/nonexistent', delivery: new KustomizeDelivery({ syncWaves: false }) });
  const hub = new ManagementCluster(app, 'hub');
  allowPruning(hub, { reason: 'compared with the upstream render, which carries no GitOps annotations' });
  const cluster = HostedCluster.fromAttributes(hub, 'test-cluster', {
    clusterName: 'test-cluster',
    namespace: 'clusters',
    platformType,
    release: Release.fromImage(RELEASE_IMAGE),
    ...(platformType === PlatformType.AWS ? { infraId: 'test-infra', defaultSubnetId: 'subnet-default' } : {}),
  });
  new NodePool(hub, 'test-nodepool', { cluster, name: 'test-nodepool', replicas: 3, arch: Arch.AMD64, platform });
  const spec = findObject(synthObjects(app), 'NodePool', 'test-nodepool').spec;
  expect(spec.platform.type).toBe(platformType);
  return spec.platform[PLATFORM_KEY[platformType]];
}

const PLATFORM_KEY: Record<PlatformType, string> = {
  [PlatformType.AGENT]: 'agent',
  [PlatformType.AWS]: 'aws',
  [PlatformType.KUBEVIRT]: 'kubevirt',
  [PlatformType.NONE]: 'none',
};

const HYPERSHIFT_AWS = 'cmd/nodepool/aws/testdata/zz_fixture_TestCreateNodePool_When_flags_are_parsed_it_should_generate_correct_nodepool_When_';
const HYPERSHIFT_KUBEVIRT = 'cmd/nodepool/kubevirt/testdata/zz_fixture_TestCreateNodePool_When_flags_are_parsed_it_should_generate_correct_nodepool_When_';
const HCP_AGENT = 'product-cli/cmd/nodepool/agent/testdata/zz_fixture_TestUpdateNodePool_When_';
const HCP_AWS = 'product-cli/cmd/nodepool/aws/testdata/zz_fixture_TestUpdateNodePool_When_';
const HCP_KUBEVIRT = 'product-cli/cmd/nodepool/kubevirt/testdata/zz_fixture_TestUpdateNodePool_When_';

// The developer and product CLI tests pass the same flags in these cases; each case still compares with its own fixture.
const AWS_MINIMAL = () => NodePoolPlatform.aws({ instanceType: 'm5.large', subnetId: 'subnet-test123' });
const AWS_FULL = () =>
  NodePoolPlatform.aws({
    instanceType: 'm5.xlarge',
    subnetId: 'subnet-test456',
    securityGroupIds: ['sg-test789'],
    instanceProfile: 'test-worker-profile',
    rootVolume: { type: 'gp3', sizeGiB: 150, iops: 5000, kmsKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/test-key' },
  });
const KUBEVIRT_MINIMAL = () => NodePoolPlatform.kubevirt({ cores: 2, memory: Size.gibibytes(4), rootVolumeSize: Size.gibibytes(32) });

describe('aws (hypershift)', () => {
  test('C25 aws (hypershift): minimal configuration', () => {
    const ours = renderPlatformBlock(PlatformType.AWS, AWS_MINIMAL());
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_AWS}minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C26 aws (hypershift): full configuration', () => {
    const ours = renderPlatformBlock(PlatformType.AWS, AWS_FULL());
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_AWS}full_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C27 aws (hypershift): custom root volume configuration', () => {
    const ours = renderPlatformBlock(
      PlatformType.AWS,
      NodePoolPlatform.aws({
        instanceType: 'm6g.large',
        subnetId: 'subnet-arm64',
        rootVolume: { type: 'io2', sizeGiB: 200, iops: 10000 },
      }),
    );
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_AWS}custom_root_volume_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });
});

describe('kubevirt (hypershift)', () => {
  test('C30 kubevirt (hypershift): minimal configuration', () => {
    const ours = renderPlatformBlock(PlatformType.KUBEVIRT, KUBEVIRT_MINIMAL());
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_KUBEVIRT}minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C31 kubevirt (hypershift): full configuration with additional networks', () => {
    const ours = renderPlatformBlock(
      PlatformType.KUBEVIRT,
      NodePoolPlatform.kubevirt({
        cores: 4,
        memory: Size.gibibytes(8),
        rootVolumeSize: Size.gibibytes(64),
        rootVolumeStorageClass: 'fast-storage',
        rootVolumeAccessModes: [KubevirtAccessMode.READ_WRITE_ONCE],
        rootVolumeVolumeMode: KubevirtVolumeMode.BLOCK,
        networkInterfaceMultiqueue: true,
        qosClass: KubevirtQosClass.GUARANTEED,
        additionalNetworks: ['default/nad1', 'default/nad2'],
        attachDefaultNetwork: false,
      }),
    );
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_KUBEVIRT}full_configuration_with_additional_networks_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C32 kubevirt (hypershift): host devices', () => {
    const ours = renderPlatformBlock(
      PlatformType.KUBEVIRT,
      NodePoolPlatform.kubevirt({
        cores: 8,
        memory: Size.gibibytes(16),
        rootVolumeSize: Size.gibibytes(128),
        hostDevices: [{ deviceName: 'gpu-device', count: 2 }],
        qosClass: KubevirtQosClass.BURSTABLE,
      }),
    );
    expect(ours).toEqual(readFixture(`${HYPERSHIFT_KUBEVIRT}host_devices_are_configured__it_should_generate_correct_nodepool.yaml`));
  });
});

describe('agent (hcp)', () => {
  test('C35 agent (hcp): empty label selector', () => {
    // The case gives the selector, empty (`--agentLabelSelector ""`); without one nothing is written, as in C01.
    const ours = renderPlatformBlock(PlatformType.AGENT, NodePoolPlatform.agent({ matchLabels: {} }));
    expect(ours).toEqual(readFixture(`${HCP_AGENT}empty_label_selector_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C36 agent (hcp): single label selector', () => {
    const ours = renderPlatformBlock(PlatformType.AGENT, NodePoolPlatform.agent({ matchLabels: { size: 'large' } }));
    expect(ours).toEqual(readFixture(`${HCP_AGENT}single_label_selector_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C37 agent (hcp): multi label selector', () => {
    // --agentLabelSelector "size=large,zone notin (az1,az2)"
    const ours = renderPlatformBlock(
      PlatformType.AGENT,
      NodePoolPlatform.agent({
        matchLabels: { size: 'large' },
        matchExpressions: [{ key: 'zone', operator: LabelSelectorOperator.NOT_IN, values: ['az1', 'az2'] }],
      }),
    );
    expect(ours).toEqual(readFixture(`${HCP_AGENT}multi_label_selector_is_provided__it_should_generate_correct_nodepool.yaml`));
  });
});

describe('aws (hcp)', () => {
  test('C38 aws (hcp): minimal configuration', () => {
    const ours = renderPlatformBlock(PlatformType.AWS, AWS_MINIMAL());
    expect(ours).toEqual(readFixture(`${HCP_AWS}minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C39 aws (hcp): full configuration', () => {
    const ours = renderPlatformBlock(PlatformType.AWS, AWS_FULL());
    expect(ours).toEqual(readFixture(`${HCP_AWS}full_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C40 aws (hcp): subnet-id omitted uses the hosted cluster default subnet', () => {
    const ours = renderPlatformBlock(PlatformType.AWS, NodePoolPlatform.aws({ instanceType: 'm5.large' }));
    expect(ours).toEqual(readFixture(`${HCP_AWS}subnet_id_is_omitted__it_should_use_the_hosted_cluster_default_subnet.yaml`));
  });
});

describe('kubevirt (hcp)', () => {
  test('C43 kubevirt (hcp): minimal configuration', () => {
    const ours = renderPlatformBlock(PlatformType.KUBEVIRT, KUBEVIRT_MINIMAL());
    expect(ours).toEqual(readFixture(`${HCP_KUBEVIRT}minimal_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });

  test('C44 kubevirt (hcp): full configuration', () => {
    const ours = renderPlatformBlock(
      PlatformType.KUBEVIRT,
      NodePoolPlatform.kubevirt({
        cores: 4,
        memory: Size.gibibytes(8),
        rootVolumeSize: Size.gibibytes(64),
        rootVolumeStorageClass: 'fast-storage',
        rootVolumeAccessModes: [KubevirtAccessMode.READ_WRITE_ONCE],
        rootVolumeVolumeMode: KubevirtVolumeMode.BLOCK,
        rootVolumeCacheStrategy: KubevirtRootVolumeCacheStrategy.NONE,
        networkInterfaceMultiqueue: true,
        qosClass: KubevirtQosClass.GUARANTEED,
        additionalNetworks: ['default/nad1'],
        attachDefaultNetwork: false,
        vmNodeSelector: { role: 'kubevirt', size: 'large' },
        hostDevices: [{ deviceName: 'testdevice', count: 1 }],
      }),
    );
    expect(ours).toEqual(readFixture(`${HCP_KUBEVIRT}full_configuration_is_provided__it_should_generate_correct_nodepool.yaml`));
  });
});
