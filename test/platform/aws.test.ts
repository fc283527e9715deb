import {
  Arch,
  AwsClusterPlatformProps,
  AwsEndpointAccess,
  AwsNodePoolPlatformProps,
  AwsTenancy,
  ClusterPlatform,
  HostedCluster,
  ManagementCluster,
  NodePool,
  NodePoolOptions,
  NodePoolPlatform,
  PlatformType,
  SecretEncryption,
  SecretSource,
} from '../../lib';
import { AWS_PLATFORM, RELEASE, newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

function awsCluster(props: Partial<AwsClusterPlatformProps> = {}, secretEncryption?: SecretEncryption): any[] {
  return synthAppOf(newCluster({ platform: ClusterPlatform.aws({ ...AWS_PLATFORM, ...props }), baseDomain: 'example.org', secretEncryption }));
}

function clusterProblems(props: Partial<AwsClusterPlatformProps>): string[] {
  return synthProblems((app) => newCluster({ platform: ClusterPlatform.aws({ ...AWS_PLATFORM, ...props }), baseDomain: 'example.org' }, app));
}

function awsPool(props: AwsNodePoolPlatformProps = {}, options: NodePoolOptions = {}): any {
  const cluster = newCluster({ platform: ClusterPlatform.aws(AWS_PLATFORM), baseDomain: 'example.org' });
  return findObject(synthAppOf(cluster.addNodePool('workers', { ...options, platform: NodePoolPlatform.aws(props) })), 'NodePool').spec.platform.aws;
}

function poolProblems(props: AwsNodePoolPlatformProps, options: NodePoolOptions = {}): string[] {
  return synthProblems((app) =>
    newCluster({ platform: ClusterPlatform.aws(AWS_PLATFORM), baseDomain: 'example.org' }, app).addNodePool('workers', { ...options, platform: NodePoolPlatform.aws(props) }),
  );
}

describe('ClusterPlatform.aws', () => {
  test('writes region, VPC, subnet, zone and IAM roles, with public endpoint access', () => {
    const platform = findObject(awsCluster(), 'HostedCluster').spec.platform;
    expect(platform).toEqual({
      type: 'AWS',
      aws: {
        region: 'us-east-1',
        endpointAccess: 'Public',
        multiArch: false,
        cloudProviderConfig: { vpc: 'vpc-0123456789abcdef0', subnet: { id: 'subnet-0123456789abcdef0' }, zone: 'us-east-1a' },
        rolesRef: {
          ingressARN: AWS_PLATFORM.roles.ingressArn,
          imageRegistryARN: AWS_PLATFORM.roles.imageRegistryArn,
          storageARN: AWS_PLATFORM.roles.storageArn,
          networkARN: AWS_PLATFORM.roles.networkArn,
          kubeCloudControllerARN: AWS_PLATFORM.roles.kubeCloudControllerArn,
          nodePoolManagementARN: AWS_PLATFORM.roles.nodePoolManagementArn,
          controlPlaneOperatorARN: AWS_PLATFORM.roles.controlPlaneOperatorArn,
        },
      },
    });
  });

  test('writes endpoint access, resource tags sorted by key and allowed principals', () => {
    const aws = findObject(
      awsCluster({
        endpointAccess: AwsEndpointAccess.PRIVATE,
        resourceTags: { team: 'lab', env: 'test' },
        additionalAllowedPrincipals: ['arn:aws:iam::123456789012:role/admin'],
      }),
      'HostedCluster',
    ).spec.platform.aws;
    expect(aws.endpointAccess).toBe('Private');
    expect(aws.resourceTags).toEqual([
      { key: 'env', value: 'test' },
      { key: 'team', value: 'lab' },
    ]);
    expect(aws.additionalAllowedPrincipals).toEqual(['arn:aws:iam::123456789012:role/admin']);
  });

  test('encrypts etcd with the KMS key instead of an AES-CBC Secret', () => {
    const kms = { activeKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/a', backupKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/b', providerRoleArn: 'arn:aws:iam::123456789012:role/kms' };
    expect(findObject(awsCluster({ kms }), 'HostedCluster').spec.secretEncryption).toEqual({
      type: 'kms',
      kms: {
        provider: 'AWS',
        aws: { region: 'us-east-1', activeKey: { arn: kms.activeKeyArn }, backupKey: { arn: kms.backupKeyArn }, auth: { awsKms: kms.providerRoleArn } },
      },
    });
  });

  test('lets an explicit secretEncryption win over the KMS key', () => {
    const kms = { activeKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/a', providerRoleArn: 'arn:aws:iam::123456789012:role/kms' };
    const spec = findObject(awsCluster({ kms }, SecretEncryption.aescbc(SecretSource.fromExistingSecret('etcd-key'))), 'HostedCluster').spec;
    expect(spec.secretEncryption).toEqual({ type: 'aescbc', aescbc: { activeKey: { name: 'etcd-key' } } });
  });

  test.each(['US-EAST-1', 'useast1', 'us-east'])('fails when the region is %j', (region) => {
    expect(clusterProblems({ region })).toEqual([`hub/c1: platform.region (${JSON.stringify(region)}) must be an AWS region such as us-east-1`]);
  });

  test('fails when a role ARN is empty', () => {
    expect(clusterProblems({ roles: { ...AWS_PLATFORM.roles, storageArn: '' } })).toEqual(['hub/c1: platform.roles.storageArn ("") must be an IAM role ARN']);
  });
});

describe('NodePoolPlatform.aws', () => {
  test('uses m5.large, the <infraID>-worker profile, the cluster subnet and a 120 GiB gp3 root volume by default', () => {
    expect(awsPool()).toEqual({
      instanceType: 'm5.large',
      instanceProfile: 'c1-worker',
      subnet: { id: 'subnet-0123456789abcdef0' },
      rootVolume: { type: 'gp3', size: 120 },
    });
  });

  test('uses m6g.large on arm64', () => {
    expect(awsPool({}, { arch: Arch.ARM64 }).instanceType).toBe('m6g.large');
  });

  test('writes the instance, subnet, volume, security groups, tenancy and AMI given', () => {
    expect(
      awsPool({
        instanceType: 'm6i.2xlarge',
        instanceProfile: 'custom-profile',
        subnetId: 'subnet-b',
        rootVolume: { type: 'io2', sizeGiB: 200, iops: 4000, kmsKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/ebs' },
        securityGroupIds: ['sg-1'],
        tenancy: AwsTenancy.DEDICATED,
        ami: 'ami-0123456789abcdef0',
      }),
    ).toEqual({
      instanceType: 'm6i.2xlarge',
      instanceProfile: 'custom-profile',
      subnet: { id: 'subnet-b' },
      rootVolume: { type: 'io2', size: 200, iops: 4000, encryptionKey: 'arn:aws:kms:us-east-1:123456789012:key/ebs' },
      securityGroups: [{ id: 'sg-1' }],
      placement: { tenancy: 'dedicated' },
      ami: 'ami-0123456789abcdef0',
    });
  });

  test('fails when the root volume is smaller than 8 GiB', () => {
    expect(poolProblems({ rootVolume: { sizeGiB: 4 } })).toEqual(['hub/c1/workers: platform.rootVolume.sizeGiB (4) must be a whole number >= 8']);
  });

  test('fails when IOPS are negative', () => {
    expect(poolProblems({ rootVolume: { iops: -1 } })).toEqual(['hub/c1/workers: platform.rootVolume.iops (-1) must be a whole number >= 0']);
  });

  test('fails when no instance type is known for the arch', () => {
    expect(poolProblems({}, { arch: Arch.PPC64LE })).toEqual(['hub/c1/workers: platform.instanceType (undefined) must be given for arch ppc64le']);
  });

  test('fails when neither the pool nor the cluster names a subnet', () => {
    const problems = synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      const cluster = HostedCluster.fromAttributes(hub, 'existing', { clusterName: 'prod', platformType: PlatformType.AWS, release: RELEASE });
      new NodePool(hub, 'workers', { cluster });
    });
    expect(problems).toEqual(['hub/workers: platform.subnetId (undefined) must be given when the cluster has no default subnet']);
  });
});
