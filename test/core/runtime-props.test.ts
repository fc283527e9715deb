// Callers TypeScript does not check (JavaScript, props read from JSON or YAML) get a message naming
// the construct, the prop and what it takes, never a TypeError from inside a construct.
import { Duration, Size } from 'cdk8s';
import { BmcCredentials, ClusterPlatform, EtcdStorage, Fleet, HostedCluster, InfraEnv, ManagementCluster, MetalLBIngress, NodePool, NodePoolPlatform, Release, SecretSource } from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { AWS_PLATFORM } from '../props';
import { synthProblems } from '../util';

/** Props as a JavaScript caller may pass them: anything. */
const loose = (props: Record<string, unknown>) => props as any;

function cluster(hub: ManagementCluster, props: Record<string, unknown> = {}): HostedCluster {
  return new HostedCluster(
    hub,
    'c1',
    loose({
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
      ...props,
    }),
  );
}

const problemsOf = (build: (hub: ManagementCluster) => void) => synthProblems((app) => build(new ManagementCluster(app, 'hub')));

describe('fails when a required prop is missing at run time', () => {
  test.each([
    ['release', 'release (undefined) must be a Release: Release.fromImage(...) or Release.fromVersion(...)'],
    ['pullSecret', 'pullSecret (undefined) must be a secret source: SecretSource.fromExistingSecret(...) or another SecretSource factory'],
    ['platform', 'platform (undefined) must be a cluster platform: ClusterPlatform.agent(...), .kubevirt(...), .aws(...) or .none(...)'],
  ])('HostedCluster %s', (prop, message) => {
    expect(problemsOf((hub) => cluster(hub, { [prop]: undefined }))).toEqual([`hub/c1: ${message}`]);
  });

  test('HostedCluster props of the wrong kind', () => {
    expect(problemsOf((hub) => cluster(hub, { release: '4.17.0', platform: SecretSource.fromExistingSecret('x') }))).toEqual([
      'hub/c1: release ("4.17.0") must be a Release: Release.fromImage(...) or Release.fromVersion(...)',
    ]);
  });

  test('HostedCluster without props at all', () => {
    expect(problemsOf((hub) => new HostedCluster(hub, 'c1', undefined as any))).toEqual(['hub/c1: props (undefined) must be an object with release, pullSecret, platform']);
  });

  test('NodePool without a cluster', () => {
    expect(problemsOf((hub) => new NodePool(hub, 'p', loose({})))).toEqual(['hub/p: cluster (undefined) must be a hosted cluster: a HostedCluster or HostedCluster.fromAttributes(...)']);
  });

  test('InfraEnv and its hosts', () => {
    expect(problemsOf((hub) => new InfraEnv(hub, 'inventory', loose({})))).toEqual([
      'hub/inventory: namespace (undefined) must be the namespace of the InfraEnv and its Agents, e.g. "hardware-inventory"',
      'hub/inventory: pullSecret (undefined) must be a secret source: SecretSource.fromExistingSecret(...) or another SecretSource factory',
    ]);
    expect(
      problemsOf((hub) => {
        new InfraEnv(hub, 'inventory', { namespace: 'agents', pullSecret: SecretSource.fromExistingSecret('p') }).addHost('h1', loose({ bmc: { address: 'ipmi://192.0.2.1' } }));
      }),
    ).toEqual([
      'hub/inventory/h1: bmc ({"address":"ipmi://192.0.2.1"}) must be the host\'s BMC: { address, credentials }',
      'hub/inventory/h1: bootMacAddress (undefined) must be the MAC address of the NIC the host boots from',
    ]);
  });

  test('MetalLBIngress addresses', () => {
    expect(
      problemsOf((hub) => {
        const c = cluster(hub);
        new MetalLBIngress(c.guest, 'ingress', loose({ cluster: c }));
      }),
    ).toEqual(['c1-guest/ingress: addresses (undefined) must be a list of addresses, ranges or CIDRs, e.g. ["192.0.2.100"]']);
  });

  test('incomplete fleet entries, by field path', () => {
    const problems = synthProblems((app) => Fleet.fromInventory(app, loose({ managementClusters: [{ name: 'hub' }] })));
    expect(problems).toEqual(['Fleet.fromInventory: Fleet inventory: spec.managementClusters[0].clusters: Required value']);
  });
});

describe('fails when a list holds an empty entry', () => {
  test.each([
    ['taints', { taints: [undefined] }, 'hub/c1/workers: taints[0] (undefined) must be given: a list may not hold empty entries'],
    ['configMaps', { configMaps: ['a', null] }, 'hub/c1/workers: configMaps[1] (null) must be given: a list may not hold empty entries'],
  ])('NodePool %s', (_, options, message) => {
    expect(problemsOf((hub) => cluster(hub).addNodePool('workers', loose(options)))).toEqual([message]);
  });

  test('HostedCluster imageContentSources, and a source without mirrors', () => {
    expect(problemsOf((hub) => cluster(hub, { imageContentSources: [undefined] }))).toEqual(['hub/c1: imageContentSources[0] (undefined) must be given: a list may not hold empty entries']);
    expect(problemsOf((hub) => cluster(hub, { imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release' }] }))).toEqual([
      'hub/c1: imageContentSources[0].mirrors (undefined) must list at least one mirror',
    ]);
  });

  test('MetalLBIngress addresses', () => {
    expect(
      problemsOf((hub) => {
        const c = cluster(hub, { networking: { machineNetwork: ['192.0.2.0/24'] } });
        new MetalLBIngress(c.guest, 'ingress', loose({ cluster: c, addresses: ['192.0.2.100', undefined] }));
      }),
    ).toEqual(['c1-guest/ingress: addresses[1] (undefined) must be given: a list may not hold empty entries']);
  });
});

describe('fails when a string is given where a Size or Duration is expected', () => {
  test('NodePool drain and detach timeouts', () => {
    expect(problemsOf((hub) => cluster(hub).addNodePool('workers', loose({ nodeDrainTimeout: '5m', nodeVolumeDetachTimeout: Duration.minutes(1) })))).toEqual([
      'hub/c1/workers: nodeDrainTimeout ("5m") must be a Duration, e.g. Duration.minutes(5)',
    ]);
  });

  test('fails when a duration is under a second or not whole seconds: named by field, not a cdk8s serialization error', () => {
    expect(problemsOf((hub) => cluster(hub).addNodePool('workers', { nodeDrainTimeout: Duration.millis(500), nodeVolumeDetachTimeout: Duration.millis(1500) }))).toEqual([
      'hub/c1/workers: nodeDrainTimeout ("500ms") must be a whole number of seconds, e.g. Duration.seconds(1)',
      'hub/c1/workers: nodeVolumeDetachTimeout ("1.5s") must be a whole number of seconds, e.g. Duration.seconds(2)',
    ]);
  });

  test('the etcd volume size', () => {
    expect(problemsOf((hub) => cluster(hub, { etcd: EtcdStorage.managed(loose({ size: '8Gi' })) }))).toEqual(['hub/c1: etcd.size ("8Gi") must be a Size, e.g. Size.gibibytes(8)']);
  });

  test('KubeVirt memory and root volume', () => {
    expect(
      problemsOf((hub) => {
        const c = cluster(hub, { platform: ClusterPlatform.kubevirt() });
        c.addNodePool('workers', { platform: NodePoolPlatform.kubevirt(loose({ memory: '4Gi', rootVolumeSize: Size.gibibytes(40) })) });
      }),
    ).toEqual(['hub/c1/workers: platform.memory ("4Gi") must be a Size, e.g. Size.gibibytes(4)']);
  });
});

describe('messages show values as the user wrote them', () => {
  test('NaN and Infinity are not printed as null', () => {
    expect(problemsOf((hub) => cluster(hub).addNodePool('workers', { replicas: Number.NaN }))).toEqual(['hub/c1/workers: replicas (NaN) must be a whole number >= 0']);
    expect(problemsOf((hub) => cluster(hub).addNodePool('workers', { replicas: Infinity }))).toEqual(['hub/c1/workers: replicas (Infinity) must be a whole number >= 0']);
  });

  test('empty strings are visible and quoted', () => {
    expect(problemsOf((hub) => cluster(hub, { infraId: '' }))).toEqual(['hub/c1: infraId ("") must be lower-case letters, digits and "-", at most 63 characters']);
  });
});

test('BmcCredentials keep working for hosts given in full (no false alarm)', () => {
  expect(
    problemsOf((hub) => {
      cluster(hub);
      new InfraEnv(hub, 'inventory', { namespace: 'agents', pullSecret: SecretSource.fromExistingSecret('p') }).addHost('h1', {
        bmc: { address: 'ipmi://192.0.2.1', credentials: BmcCredentials.fromExistingSecret('h1-bmc') },
        bootMacAddress: 'aa:bb:cc:00:11:22',
      });
    }),
  ).toEqual([]);
});

describe('fails when a string that reaches a controller has the wrong format', () => {
  test('an IAM role ARN that is not one', () => {
    const roles = { ...AWS_PLATFORM.roles, storageArn: 'c1-aws-ebs-csi-driver-controller' };
    expect(problemsOf((hub) => cluster(hub, { platform: ClusterPlatform.aws({ ...AWS_PLATFORM, roles }), baseDomain: 'example.org' }))).toEqual([
      'hub/c1: platform.roles.storageArn ("c1-aws-ebs-csi-driver-controller") must be an IAM role ARN such as arn:aws:iam::123456789012:role/name',
    ]);
  });

  test('an EC2 instance type', () => {
    expect(
      problemsOf((hub) => {
        const c = cluster(hub, { platform: ClusterPlatform.aws(AWS_PLATFORM), baseDomain: 'example.org' });
        c.addNodePool('workers', { platform: NodePoolPlatform.aws({ instanceType: 'M5 Large' }) });
      }),
    ).toEqual(['hub/c1/workers: platform.instanceType ("M5 Large") must be an EC2 instance type such as m5.large: family and size, lower case, separated by "."']);
  });

  test('a Secret name and a StorageClass name', () => {
    expect(
      problemsOf((hub) =>
        cluster(hub, {
          pullSecret: SecretSource.fromExistingSecret('Pull_Secret'),
          etcd: EtcdStorage.managed({ storageClass: 'fast ssd' }),
        }),
      ),
    ).toEqual([
      `hub/c1: pullSecret: SecretSource.fromExistingSecret name ("Pull_Secret") must name a Secret: ${DNS1123_SUBDOMAIN_RULE}`,
      `hub/c1: etcd.storageClass ("fast ssd") must name a StorageClass: ${DNS1123_SUBDOMAIN_RULE}`,
    ]);
  });

  test('an NTP source', () => {
    expect(
      problemsOf(
        (hub) =>
          new InfraEnv(hub, 'inventory', {
            namespace: 'agents',
            pullSecret: SecretSource.fromExistingSecret('p'),
            additionalNtpSources: ['ntp.example.com', '192.0.2.1', 'ntp://clock.example.com'],
          }),
      ),
    ).toEqual(['hub/inventory: additionalNtpSources[2] ("ntp://clock.example.com") must be a host name or an IP address of an NTP server (no scheme, port or spaces)']);
  });
});

test("fails when the default subnet's availability zone is outside the cluster's region", () => {
  expect(
    problemsOf((hub) =>
      cluster(hub, {
        platform: ClusterPlatform.aws({ ...AWS_PLATFORM, defaultSubnet: { id: 'subnet-0123456789abcdef0', zone: 'us-west-2a' } }),
        baseDomain: 'example.org',
      }),
    ),
  ).toEqual(['hub/c1: platform.defaultSubnet.zone ("us-west-2a") must be an availability zone of region us-east-1, such as us-east-1a']);
  expect(
    problemsOf((hub) =>
      cluster(hub, {
        platform: ClusterPlatform.aws({ ...AWS_PLATFORM, defaultSubnet: { id: 'subnet-0123456789abcdef0', zone: 'us-east-1-bos-1a' } }),
        baseDomain: 'example.org',
      }),
    ),
  ).toEqual([]);
});
