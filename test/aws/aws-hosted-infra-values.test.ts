// How the AWS prerequisites reach the HostedCluster and its NodePools: ClusterPlatform.aws({ infra }),
// AwsNodePools.perZone, and the deployed outputs read back from `cdk deploy --outputs-file`.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AWS_HOSTED_INFRA_OUTPUTS, AwsHostedInfraOutputs, AwsHostedInfraValues, AwsNodePools, ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } from '../../lib';
import { findObject, synthObjects, synthProblems } from '../util';

const ACCOUNT_ROLE = (name: string) => `arn:aws:iam::123456789012:role/demo-x7k2p-${name}`;

const VALUES: AwsHostedInfraValues = {
  infraId: 'demo-x7k2p',
  region: 'eu-west-1',
  issuerUrl: 'https://hcp-oidc.s3.eu-west-1.amazonaws.com/demo-x7k2p',
  vpcId: 'vpc-0a1b2c3d4e5f60718',
  machineCidr: '10.0.0.0/16',
  zones: [
    { name: 'eu-west-1a', subnetId: 'subnet-0aaaaaaaaaaaaaaa1' },
    { name: 'eu-west-1b', subnetId: 'subnet-0bbbbbbbbbbbbbbb2' },
  ],
  publicZoneId: 'Z0PUBLIC',
  privateZoneId: 'Z0PRIVATE',
  localZoneId: 'Z0LOCAL',
  roles: {
    ingressArn: ACCOUNT_ROLE('openshift-ingress'),
    imageRegistryArn: ACCOUNT_ROLE('openshift-image-registry'),
    storageArn: ACCOUNT_ROLE('aws-ebs-csi-driver-controller'),
    networkArn: ACCOUNT_ROLE('cloud-network-config-controller'),
    kubeCloudControllerArn: ACCOUNT_ROLE('cloud-controller'),
    nodePoolManagementArn: ACCOUNT_ROLE('node-pool'),
    controlPlaneOperatorArn: ACCOUNT_ROLE('control-plane-operator'),
  },
  instanceProfileName: 'demo-x7k2p-worker',
  kms: { activeKeyArn: 'arn:aws:kms:eu-west-1:123456789012:key/0000-1111', providerRoleArn: ACCOUNT_ROLE('kms-provider') },
  resourceTags: { team: 'platform' },
};

function demo(app: HcpApp, values: AwsHostedInfraValues = VALUES, extra: { infraId?: string } = {}): HostedCluster {
  const hub = new ManagementCluster(app, 'hub');
  const infra = AwsHostedInfraOutputs.fromValues(values);
  const cluster = new HostedCluster(hub, 'demo', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    baseDomain: 'example.com',
    platform: ClusterPlatform.aws({ infra }),
    ...extra,
  });
  AwsNodePools.perZone(cluster, infra, { replicas: 1 });
  return cluster;
}

describe('ClusterPlatform.aws({ infra })', () => {
  const app = new HcpApp();
  demo(app);
  const objects = synthObjects(app);
  const cluster = findObject(objects, 'HostedCluster');

  test('fills infraID, issuerURL, zone IDs and the machine network', () => {
    expect(cluster.spec.infraID).toBe('demo-x7k2p');
    expect(cluster.spec.issuerURL).toBe('https://hcp-oidc.s3.eu-west-1.amazonaws.com/demo-x7k2p');
    expect(cluster.spec.dns).toEqual({ baseDomain: 'example.com', publicZoneID: 'Z0PUBLIC', privateZoneID: 'Z0PRIVATE' });
    expect(cluster.spec.networking.machineNetwork).toEqual([{ cidr: '10.0.0.0/16' }]);
  });

  test("fills platform.aws: region, VPC, the first zone's subnet, roles and tags", () => {
    expect(cluster.spec.platform.aws).toEqual({
      region: 'eu-west-1',
      endpointAccess: 'Public',
      multiArch: false,
      cloudProviderConfig: { vpc: 'vpc-0a1b2c3d4e5f60718', subnet: { id: 'subnet-0aaaaaaaaaaaaaaa1' }, zone: 'eu-west-1a' },
      rolesRef: {
        ingressARN: ACCOUNT_ROLE('openshift-ingress'),
        imageRegistryARN: ACCOUNT_ROLE('openshift-image-registry'),
        storageARN: ACCOUNT_ROLE('aws-ebs-csi-driver-controller'),
        networkARN: ACCOUNT_ROLE('cloud-network-config-controller'),
        kubeCloudControllerARN: ACCOUNT_ROLE('cloud-controller'),
        nodePoolManagementARN: ACCOUNT_ROLE('node-pool'),
        controlPlaneOperatorARN: ACCOUNT_ROLE('control-plane-operator'),
      },
      resourceTags: [{ key: 'team', value: 'platform' }],
    });
  });

  test("encrypts etcd with the infra's KMS key through its provider role", () => {
    expect(cluster.spec.secretEncryption).toEqual({
      type: 'kms',
      kms: { provider: 'AWS', aws: { region: 'eu-west-1', activeKey: { arn: VALUES.kms!.activeKeyArn }, auth: { awsKms: ACCOUNT_ROLE('kms-provider') } } },
    });
  });

  test('AwsNodePools.perZone makes one pool per zone, <cluster>-<zone>, in its subnet with the worker profile', () => {
    const pools = objects.filter((o) => o.kind === 'NodePool');
    expect(pools.map((p) => [p.metadata.name, p.spec.platform.aws.subnet.id, p.spec.platform.aws.instanceProfile])).toEqual([
      ['demo-eu-west-1a', 'subnet-0aaaaaaaaaaaaaaa1', 'demo-x7k2p-worker'],
      ['demo-eu-west-1b', 'subnet-0bbbbbbbbbbbbbbb2', 'demo-x7k2p-worker'],
    ]);
  });

  test("an explicit prop wins over the infra's value", () => {
    const app2 = new HcpApp();
    const hub = new ManagementCluster(app2, 'hub');
    new HostedCluster(hub, 'demo', {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      baseDomain: 'example.com',
      platform: ClusterPlatform.aws({ infra: AwsHostedInfraOutputs.fromValues(VALUES), region: 'eu-west-1', privateZoneId: 'Z0OTHER' }),
    });
    expect(findObject(synthObjects(app2), 'HostedCluster').spec.dns.privateZoneID).toBe('Z0OTHER');
  });

  test('fails when the HostedCluster names another infraId than the infra was made for', () => {
    expect(synthProblems((a) => demo(a, VALUES, { infraId: 'other' }))).toEqual([
      'hub/demo: infraId ("other") differs from the infra ID "demo-x7k2p" its AWS infrastructure was made for; leave it out to use that one',
    ]);
  });

  test("fails when a JavaScript caller's values lack some fields, naming each one the platform does not get explicitly", () => {
    const { vpcId, zones, roles, ...partial } = VALUES;
    const problems = synthProblems((a) => {
      new HostedCluster(new ManagementCluster(a, 'hub'), 'demo', {
        release: Release.fromVersion('4.17.0'),
        pullSecret: SecretSource.fromExistingSecret('pull-secret'),
        baseDomain: 'example.com',
        // The explicit vpcId is taken; zones and roles are not given any other way.
        platform: ClusterPlatform.aws({ infra: AwsHostedInfraOutputs.fromValues({ ...partial, roles: { ...roles, storageArn: undefined } } as any), vpcId }),
      });
    });
    expect(zones).toHaveLength(2);
    expect(problems).toEqual([
      "hub/demo: platform.infra.zones (undefined) must list the cluster's zones, each { name, subnetId }",
      'hub/demo: platform.infra.roles.storageArn (undefined) must be given, as text',
    ]);
  });

  test('fails, naming each field, when values are CloudFormation tokens (the stack is not deployed yet)', () => {
    const tokens = { ...VALUES, vpcId: '${Token[TOKEN.101]}', zones: [{ name: 'eu-west-1a', subnetId: '${Token[TOKEN.102]}' }], privateZoneId: '${Token[TOKEN.103]}' };
    const problems = synthProblems((a) => {
      const hub = new ManagementCluster(a, 'hub');
      new HostedCluster(hub, 'demo', {
        release: Release.fromVersion('4.17.0'),
        pullSecret: SecretSource.fromExistingSecret('pull-secret'),
        baseDomain: 'example.com',
        platform: ClusterPlatform.aws({ infra: AwsHostedInfraOutputs.fromValues(tokens) }),
      });
    });
    const hint = 'is only known once the AwsHostedInfra stack is deployed; read the values with AwsHostedInfraOutputs.fromOutputsFile(<cdk deploy --outputs-file>, <stack>) or give it explicitly';
    expect(problems).toEqual([
      `hub/demo: platform.vpcId (a CloudFormation token) ${hint}`,
      `hub/demo: platform.defaultSubnet.id (a CloudFormation token) ${hint}`,
      `hub/demo: platform.privateZoneId (a CloudFormation token) ${hint}`,
    ]);
  });
});

describe('AwsHostedInfraOutputs.fromOutputsFile', () => {
  const K = AWS_HOSTED_INFRA_OUTPUTS;
  const outputs: Record<string, string> = {
    [K.infraId]: VALUES.infraId,
    [K.region]: VALUES.region,
    [K.issuerUrl]: VALUES.issuerUrl,
    [K.vpcId]: VALUES.vpcId,
    [K.machineCidr]: VALUES.machineCidr,
    [K.zoneNames]: 'eu-west-1a,eu-west-1b',
    [K.subnetIds]: 'subnet-0aaaaaaaaaaaaaaa1,subnet-0bbbbbbbbbbbbbbb2',
    [K.publicZoneId]: 'Z0PUBLIC',
    [K.privateZoneId]: 'Z0PRIVATE',
    [K.localZoneId]: 'Z0LOCAL',
    [K.instanceProfileName]: 'demo-x7k2p-worker',
    [K.kmsKeyArn]: VALUES.kms!.activeKeyArn,
    [K.kmsProviderRoleArn]: VALUES.kms!.providerRoleArn,
    [K.resourceTags]: '{"team":"platform"}',
    ...Object.fromEntries(Object.entries(K.roles).map(([field, key]) => [key, (VALUES.roles as any)[field]])),
  };
  const write = (content: unknown) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-outputs-')), 'outputs.json');
    fs.writeFileSync(file, JSON.stringify(content));
    return file;
  };

  test('reads back exactly the values the stack wrote', () => {
    expect(AwsHostedInfraOutputs.fromOutputsFile(write({ 'demo-infra': outputs }), 'demo-infra').values).toEqual(VALUES);
  });

  test('fails when the stack is not in the file, naming those that are', () => {
    const file = write({ 'demo-infra': outputs });
    expect(() => AwsHostedInfraOutputs.fromOutputsFile(file, 'other')).toThrow(`AwsHostedInfraOutputs.fromOutputsFile: ${file} has no stack "other" (it has "demo-infra")`);
  });

  test('fails when outputs are missing, naming them', () => {
    const { [K.vpcId]: _vpc, [K.roles.storageArn]: _storage, ...partial } = outputs;
    const file = write({ s: partial });
    expect(() => AwsHostedInfraOutputs.fromOutputsFile(file, 's')).toThrow(`AwsHostedInfraOutputs: ${file} (stack s) lacks StorageRoleArn, VpcId; was it written by an AwsHostedInfra stack?`);
  });

  test('fails when the file cannot be read', () => {
    expect(() => AwsHostedInfraOutputs.fromOutputsFile('/nonexistent/outputs.json', 's')).toThrow(/cannot read \/nonexistent\/outputs.json .*cdk deploy --outputs-file/);
  });
});
