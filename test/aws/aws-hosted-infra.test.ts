// AwsHostedInfra: the network and IAM of one hosted cluster in one stack, its values and outputs,
// the security review, and the inputs it refuses.
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AWS_HOSTED_INFRA_OUTPUTS } from '../../lib';
import { AwsHostedInfra, AwsHostedInfraProps } from '../../lib/aws';
import { nagFindings } from './cdk-nag';

const ENV = { account: '123456789012', region: 'us-east-1' };
const PROPS: AwsHostedInfraProps = {
  infraId: 'demo-x7k2p',
  clusterName: 'demo',
  baseDomain: 'hcp.example.com',
  publicZoneId: 'Z0EXAMPLEPUBLICZONE',
  oidcBucketName: 'hcp-oidc',
  zones: ['us-east-1a', 'us-east-1b'],
};

function build(props: Partial<AwsHostedInfraProps> = {}, env: { account?: string; region?: string } | undefined = ENV) {
  const app = new App();
  const stack = new Stack(app, 'Infra', { env });
  const infra = new AwsHostedInfra(stack, 'Infra', { ...PROPS, ...props });
  return { stack, infra };
}

function problemsOf(props: Partial<AwsHostedInfraProps>, env?: { account?: string; region?: string }): string {
  try {
    build(props, env ?? ENV);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('AwsHostedInfra with a new network', () => {
  const { stack, infra } = build({ etcdEncryption: { createKey: true }, tags: { team: 'platform' } });
  const template = Template.fromStack(stack);

  test('values known at synth are plain strings; generated IDs are tokens', () => {
    expect(infra.values.issuerUrl).toBe('https://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p');
    expect(infra.values.roles.ingressArn).toBe('arn:aws:iam::123456789012:role/demo-x7k2p-openshift-ingress');
    expect(infra.values.instanceProfileName).toBe('demo-x7k2p-worker');
    expect(infra.values.machineCidr).toBe('10.0.0.0/16');
    expect(infra.values.zones.map((z) => z.name)).toEqual(['us-east-1a', 'us-east-1b']);
    expect(infra.values.vpcId).toMatch(/\$\{Token\[/);
    expect(infra.values.kms?.providerRoleArn).toBe('arn:aws:iam::123456789012:role/demo-x7k2p-kms-provider');
    expect(infra.values.resourceTags).toEqual({ team: 'platform' });
  });

  test('creates a retained customer-managed etcd key with rotation, and the KMS provider role for it', () => {
    template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain', Properties: Match.objectLike({ EnableKeyRotation: true }) });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/demo-x7k2p-etcd' });
    template.hasResourceProperties('AWS::IAM::Role', { RoleName: 'demo-x7k2p-kms-provider' });
  });

  test('writes every value as an output under the keys AwsHostedInfraOutputs reads', () => {
    const outputs = template.toJSON().Outputs;
    const K = AWS_HOSTED_INFRA_OUTPUTS;
    expect(Object.keys(outputs).sort()).toEqual(
      [
        K.infraId,
        K.region,
        K.issuerUrl,
        K.vpcId,
        K.machineCidr,
        K.zoneNames,
        K.subnetIds,
        K.publicZoneId,
        K.privateZoneId,
        K.localZoneId,
        K.instanceProfileName,
        K.kmsKeyArn,
        K.kmsProviderRoleArn,
        K.resourceTags,
        ...Object.values(K.roles),
      ].sort(),
    );
    expect(outputs[K.zoneNames].Value).toBe('us-east-1a,us-east-1b');
    expect(outputs[K.issuerUrl].Value).toBe('https://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p');
  });

  test('has no unacknowledged cdk-nag AwsSolutions finding', () => {
    const { stack: fresh } = build({ etcdEncryption: { createKey: true } });
    expect(nagFindings(fresh)).toEqual([]);
  });
});

describe('AwsHostedInfra with a network you have', () => {
  const { stack, infra } = build({
    zones: undefined,
    existingNetwork: {
      vpcId: 'vpc-0123',
      machineCidr: '10.1.0.0/16',
      zones: [{ name: 'us-east-1a', subnetId: 'subnet-0a' }],
      privateZoneId: 'Z0PRIVATE',
      localZoneId: 'Z0LOCAL',
    },
    etcdEncryption: { keyArn: 'arn:aws:kms:us-east-1:123456789012:key/existing' },
  });

  test('creates no network, only the IAM side, and passes the given values on', () => {
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::EC2::VPC', 0);
    template.resourceCountIs('AWS::EC2::Subnet', 0);
    template.resourceCountIs('AWS::KMS::Key', 0);
    expect(infra.values.vpcId).toBe('vpc-0123');
    expect(infra.values.zones).toEqual([{ name: 'us-east-1a', subnetId: 'subnet-0a' }]);
    expect(infra.values.kms?.activeKeyArn).toBe('arn:aws:kms:us-east-1:123456789012:key/existing');
  });
});

describe('AwsHostedInfra refuses', () => {
  test('fails when the OIDC bucket name cannot form the issuer URL, as AwsManagementPrereqs refuses it', () => {
    expect(problemsOf({ oidcBucketName: 'hcp.oidc' })).toBe(
      'Infra/Infra: oidcBucketName ("hcp.oidc") must not contain ".": the issuer https://<bucket>.s3.<region>.amazonaws.com is a virtual-hosted-style HTTPS URL, and the S3 certificate does not cover dotted bucket names',
    );
    expect(problemsOf({ oidcBucketName: 'HCP OIDC' })).toBe(
      'Infra/Infra: oidcBucketName ("HCP OIDC") must be an S3 bucket name: 3 to 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
    );
  });

  test('fails when KMS is asked for without a key', () => {
    expect(problemsOf({ etcdEncryption: {} })).toBe('Infra/Infra: etcdEncryption ({}) asks for KMS without a key: set createKey: true or give keyArn');
  });

  test('fails when both a new key and a key ARN are given', () => {
    expect(problemsOf({ etcdEncryption: { createKey: true, keyArn: 'arn:aws:kms:us-east-1:1:key/x' } })).toBe(
      'Infra/Infra: etcdEncryption gives both createKey and keyArn ("arn:aws:kms:us-east-1:1:key/x"); choose one',
    );
  });

  test('fails when neither zones nor an existing network are given', () => {
    expect(problemsOf({ zones: undefined })).toBe('Infra/Infra: zones (undefined) must list the Availability Zones, unless existingNetwork is given');
  });

  test('fails when the region is an unresolved token (no stack env)', () => {
    expect(problemsOf({}, { account: '123456789012' })).toBe(
      "Infra/Infra: the stack's region (an unresolved token) must be concrete: the OIDC issuer URL goes into the HostedCluster at synth; give the stack env { account, region } or oidcBucketRegion",
    );
  });

  test('fails when the account is an unresolved token: role ARNs must be concrete', () => {
    expect(problemsOf({}, { region: 'us-east-1' })).toMatch(/the stack's account \(an unresolved token\) must be a concrete account ID/);
  });

  test('fails when the VPC CIDR is not a /16', () => {
    expect(problemsOf({ vpcCidr: '10.0.0.0/20' })).toMatch(/vpcCidr \("10\.0\.0\.0\/20"\) must be an IPv4 \/16/);
  });

  test('fails when there are more zones than the region has', () => {
    expect(problemsOf({ zones: ['us-east-2a', 'us-east-2b', 'us-east-2c', 'us-east-2d'] }, { account: '123456789012', region: 'us-east-2' })).toMatch(/zones/);
  });

  test('fails when the base domain is not a DNS name', () => {
    expect(problemsOf({ baseDomain: 'Not A Domain' })).toMatch(/baseDomain \("Not A Domain"\)/);
  });

  test('fails when the infra ID is too long for the role names it feeds', () => {
    expect(problemsOf({ infraId: 'a-very-long-infra-id-for-a-cluster-name' })).toMatch(/infraId \("a-very-long-infra-id-for-a-cluster-name"\).*64/);
  });

  test('fails when the infra ID is malformed', () => {
    expect(problemsOf({ infraId: 'Demo_X7K2P' })).toMatch(/infraId \("Demo_X7K2P"\)/);
  });
});
