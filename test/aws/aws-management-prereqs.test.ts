import { App, CfnElement, Lazy, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { IConstruct } from 'constructs';
import { show } from '../../lib';
import { AwsManagementPrereqs, AwsManagementPrereqsProps, PublicZone } from '../../lib/aws';
import { nagAcknowledgments, nagFindings } from './cdk-nag';

const ENV = { account: '123456789012', region: 'eu-west-1' };
const BASE: AwsManagementPrereqsProps = {
  oidcBucketName: 'acme-hcp-oidc',
  baseDomain: 'hcp.example.com',
  publicZone: PublicZone.create(),
};
const ALICE = 'arn:aws:iam::123456789012:user/alice';

/** Props on top of BASE; a function when they need the stack (imported zones and buckets). */
type PropsFor = Partial<AwsManagementPrereqsProps> | ((stack: Stack) => Partial<AwsManagementPrereqsProps>);

interface BuildOptions {
  /** @default ENV */
  readonly env?: { account?: string; region?: string };
  /** Adds to the stack before it is synthesized. */
  readonly extend?: (stack: Stack, prereqs: AwsManagementPrereqs) => void;
}

function build(props: PropsFor = {}, options: BuildOptions = {}) {
  const stack = new Stack(new App(), 'Mgmt', { env: 'env' in options ? options.env : ENV });
  const extra = typeof props === 'function' ? props(stack) : props;
  const prereqs = new AwsManagementPrereqs(stack, 'Prereqs', { ...BASE, ...extra });
  options.extend?.(stack, prereqs);
  return { stack, prereqs, template: Template.fromStack(stack) };
}

/** The problems the constructor reports, or [] when it succeeds. */
function problemsOf(props: PropsFor): string[] {
  try {
    build(props);
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

function logicalId(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** `<bucket ARN>/*` as CloudFormation writes it. */
function objectsOf(bucketLogicalId: string) {
  return { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketLogicalId, 'Arn'] }, '/*']] };
}

function tlsOnly(bucketLogicalId: string) {
  return {
    Action: 's3:*',
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
    Effect: 'Deny',
    Principal: { AWS: '*' },
    Resource: [{ 'Fn::GetAtt': [bucketLogicalId, 'Arn'] }, objectsOf(bucketLogicalId)],
  };
}

function resourceOf(template: Template, logical: string): any {
  return template.toJSON().Resources[logical];
}

function bucketPolicyOf(template: Template, bucketLogicalId: string): any {
  const policies = Object.values(template.findResources('AWS::S3::BucketPolicy', { Properties: { Bucket: { Ref: bucketLogicalId } } }));
  expect(policies).toHaveLength(1);
  return (policies[0] as any).Properties.PolicyDocument;
}

// Docs 3.1.4, policy.json, written out again by hand.
const CLI_POLICY = {
  Version: '2012-10-17',
  Statement: [
    {
      Sid: 'EC2',
      Effect: 'Allow',
      Action: [
        'ec2:CreateDhcpOptions',
        'ec2:DeleteSubnet',
        'ec2:ReplaceRouteTableAssociation',
        'ec2:DescribeAddresses',
        'ec2:DescribeInstances',
        'ec2:DeleteVpcEndpoints',
        'ec2:CreateNatGateway',
        'ec2:CreateVpc',
        'ec2:DescribeDhcpOptions',
        'ec2:AttachInternetGateway',
        'ec2:DeleteVpcEndpointServiceConfigurations',
        'ec2:DeleteRouteTable',
        'ec2:AssociateRouteTable',
        'ec2:DescribeInternetGateways',
        'ec2:DescribeAvailabilityZones',
        'ec2:CreateRoute',
        'ec2:CreateInternetGateway',
        'ec2:RevokeSecurityGroupEgress',
        'ec2:ModifyVpcAttribute',
        'ec2:DeleteInternetGateway',
        'ec2:DescribeVpcEndpointConnections',
        'ec2:RejectVpcEndpointConnections',
        'ec2:DescribeRouteTables',
        'ec2:ReleaseAddress',
        'ec2:AssociateDhcpOptions',
        'ec2:TerminateInstances',
        'ec2:CreateTags',
        'ec2:DeleteRoute',
        'ec2:CreateRouteTable',
        'ec2:DetachInternetGateway',
        'ec2:DescribeVpcEndpointServiceConfigurations',
        'ec2:DescribeNatGateways',
        'ec2:DisassociateRouteTable',
        'ec2:AllocateAddress',
        'ec2:DescribeSecurityGroups',
        'ec2:RevokeSecurityGroupIngress',
        'ec2:CreateVpcEndpoint',
        'ec2:DescribeVpcs',
        'ec2:DeleteSecurityGroup',
        'ec2:DeleteDhcpOptions',
        'ec2:DeleteNatGateway',
        'ec2:DescribeVpcEndpoints',
        'ec2:DeleteVpc',
        'ec2:CreateSubnet',
        'ec2:DescribeSubnets',
      ],
      Resource: '*',
    },
    {
      Sid: 'ELB',
      Effect: 'Allow',
      Action: ['elasticloadbalancing:DeleteLoadBalancer', 'elasticloadbalancing:DescribeLoadBalancers', 'elasticloadbalancing:DescribeTargetGroups', 'elasticloadbalancing:DeleteTargetGroup'],
      Resource: '*',
    },
    {
      Sid: 'IAMPassRole',
      Effect: 'Allow',
      Action: 'iam:PassRole',
      Resource: 'arn:*:iam::*:role/*-worker-role',
      Condition: { 'ForAnyValue:StringEqualsIfExists': { 'iam:PassedToService': 'ec2.amazonaws.com' } },
    },
    {
      Sid: 'IAM',
      Effect: 'Allow',
      Action: [
        'iam:CreateInstanceProfile',
        'iam:DeleteInstanceProfile',
        'iam:GetRole',
        'iam:UpdateAssumeRolePolicy',
        'iam:GetInstanceProfile',
        'iam:TagRole',
        'iam:RemoveRoleFromInstanceProfile',
        'iam:CreateRole',
        'iam:DeleteRole',
        'iam:PutRolePolicy',
        'iam:AddRoleToInstanceProfile',
        'iam:CreateOpenIDConnectProvider',
        'iam:ListOpenIDConnectProviders',
        'iam:DeleteRolePolicy',
        'iam:UpdateRole',
        'iam:DeleteOpenIDConnectProvider',
        'iam:GetRolePolicy',
      ],
      Resource: '*',
    },
    {
      Sid: 'Route53',
      Effect: 'Allow',
      Action: [
        'route53:ListHostedZonesByVPC',
        'route53:CreateHostedZone',
        'route53:ListHostedZones',
        'route53:ChangeResourceRecordSets',
        'route53:ListResourceRecordSets',
        'route53:DeleteHostedZone',
        'route53:AssociateVPCWithHostedZone',
        'route53:ListHostedZonesByName',
      ],
      Resource: '*',
    },
    {
      Sid: 'S3',
      Effect: 'Allow',
      Action: ['s3:ListAllMyBuckets', 's3:ListBucket', 's3:DeleteObject', 's3:DeleteBucket'],
      Resource: '*',
    },
  ],
};

describe('AwsManagementPrereqs OIDC bucket', () => {
  test('is named as given, SSE-S3 encrypted, ACL-free, public by policy only, logged and retained', () => {
    const { prereqs, template } = build();
    const bucket = resourceOf(template, logicalId(prereqs.oidcBucket));
    expect(bucket).toEqual({
      Type: 'AWS::S3::Bucket',
      Properties: {
        BucketName: 'acme-hcp-oidc',
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: false, RestrictPublicBuckets: false },
        LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(prereqs.serverAccessLogsBucket!) } },
      },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  test('has exactly two policy statements: deny plain HTTP, allow anyone s3:GetObject on objects (docs 3.1.2)', () => {
    const { prereqs, template } = build();
    const id = logicalId(prereqs.oidcBucket);
    expect(bucketPolicyOf(template, id)).toEqual({
      Version: '2012-10-17',
      Statement: [tlsOnly(id), { Action: 's3:GetObject', Effect: 'Allow', Principal: '*', Resource: objectsOf(id) }],
    });
  });

  test('is versioned only when asked', () => {
    const off = build();
    expect(resourceOf(off.template, logicalId(off.prereqs.oidcBucket)).Properties.VersioningConfiguration).toBeUndefined();
    const on = build({ oidcBucketVersioned: true });
    expect(resourceOf(on.template, logicalId(on.prereqs.oidcBucket)).Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
  });

  test('exposes its name and the stack region, and the issuer URL per infra ID', () => {
    const { prereqs } = build();
    expect(prereqs.bucketName).toBe('acme-hcp-oidc');
    expect(prereqs.bucketRegion).toBe('eu-west-1');
    expect(prereqs.issuerUrlFor('c1')).toBe('https://acme-hcp-oidc.s3.eu-west-1.amazonaws.com/c1');
    expect(prereqs.issuerUrlFor('prod-eu-7x2k9')).toBe('https://acme-hcp-oidc.s3.eu-west-1.amazonaws.com/prod-eu-7x2k9');
  });

  test('grants the operator identity put and delete on the objects, nothing else', () => {
    let user!: iam.User;
    const { prereqs, template } = build(
      {},
      {
        extend: (stack, p) => {
          user = new iam.User(stack, 'OidcWriter');
          p.grantOidcDocumentWrite(user);
        },
      },
    );
    const policies = Object.values(template.findResources('AWS::IAM::Policy')) as any[];
    expect(policies).toHaveLength(1);
    expect(policies[0].Properties.Users).toEqual([{ Ref: logicalId(user) }]);
    expect(policies[0].Properties.PolicyDocument.Statement).toEqual([{ Action: ['s3:PutObject', 's3:DeleteObject'], Effect: 'Allow', Resource: objectsOf(logicalId(prereqs.oidcBucket)) }]);
    // The public bucket policy is unchanged.
    expect(bucketPolicyOf(template, logicalId(prereqs.oidcBucket)).Statement).toHaveLength(2);
  });
});

describe('AwsManagementPrereqs server access logs', () => {
  test('go by default to a private, TLS-only, retained bucket that only the S3 logging service may write, for this bucket', () => {
    const { prereqs, template } = build();
    const logs = logicalId(prereqs.serverAccessLogsBucket!);
    expect(resourceOf(template, logs)).toEqual({
      Type: 'AWS::S3::Bucket',
      Properties: {
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true },
      },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(bucketPolicyOf(template, logs)).toEqual({
      Version: '2012-10-17',
      Statement: [
        tlsOnly(logs),
        {
          Action: 's3:PutObject',
          Condition: {
            ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [logicalId(prereqs.oidcBucket), 'Arn'] } },
            StringEquals: { 'aws:SourceAccount': '123456789012' },
          },
          Effect: 'Allow',
          Principal: { Service: 'logging.s3.amazonaws.com' },
          Resource: objectsOf(logs),
        },
      ],
    });
  });

  test('go to a given bucket under <bucket name>/, and no log bucket is made', () => {
    const { prereqs, template } = build((stack) => ({ serverAccessLogsBucket: s3.Bucket.fromBucketName(stack, 'Central', 'central-access-logs') }));
    template.resourceCountIs('AWS::S3::Bucket', 1);
    expect(resourceOf(template, logicalId(prereqs.oidcBucket)).Properties.LoggingConfiguration).toEqual({
      DestinationBucketName: 'central-access-logs',
      LogFilePrefix: 'acme-hcp-oidc/',
    });
  });

  test('can be switched off, leaving cdk-nag AwsSolutions-S1 to the user', () => {
    const { stack, prereqs, template } = build({ serverAccessLogs: false });
    template.resourceCountIs('AWS::S3::Bucket', 1);
    expect(prereqs.serverAccessLogsBucket).toBeUndefined();
    expect(resourceOf(template, logicalId(prereqs.oidcBucket)).Properties.LoggingConfiguration).toBeUndefined();
    expect(nagFindings(stack)).toEqual(['Mgmt/Prereqs/OidcBucket/Resource: AwsSolutions-S1: The S3 Bucket has server access logs disabled.']);
  });
});

describe('AwsManagementPrereqs public zone', () => {
  test('is created for the base domain and retained (docs 3.1.3)', () => {
    const { stack, prereqs, template } = build();
    const id = logicalId(prereqs.publicZone);
    expect(template.findResources('AWS::Route53::HostedZone')).toEqual({
      [id]: { Type: 'AWS::Route53::HostedZone', Properties: { Name: 'hcp.example.com.' }, DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' },
    });
    expect(stack.resolve(prereqs.publicZoneId)).toEqual({ Ref: id });
    expect(prereqs.baseDomain).toBe('hcp.example.com');
  });

  test('is imported by ID, with the base domain as its name, and nothing is created', () => {
    const { prereqs, template } = build({ publicZone: PublicZone.fromHostedZoneId('Z0123456789ABCDEFGHIJ') });
    template.resourceCountIs('AWS::Route53::HostedZone', 0);
    expect(prereqs.publicZoneId).toBe('Z0123456789ABCDEFGHIJ');
    expect(prereqs.publicZone.zoneName).toBe('hcp.example.com');
  });
});

describe('AwsManagementPrereqs external DNS zone', () => {
  test('is a public zone delegated from the public zone when it lies under the base domain (docs 3.1.5.3)', () => {
    const { prereqs, template } = build({ externalDns: { domain: 'svc.hcp.example.com' } });
    const zone = logicalId(prereqs.externalDnsZone!);
    expect(resourceOf(template, zone)).toEqual({
      Type: 'AWS::Route53::HostedZone',
      Properties: { Name: 'svc.hcp.example.com.' },
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
    expect(Object.values(template.findResources('AWS::Route53::RecordSet'))).toEqual([
      {
        Type: 'AWS::Route53::RecordSet',
        Properties: {
          HostedZoneId: { Ref: logicalId(prereqs.publicZone) },
          Name: 'svc.hcp.example.com.',
          Type: 'NS',
          TTL: '172800',
          ResourceRecords: { 'Fn::GetAtt': [zone, 'NameServers'] },
        },
      },
    ]);
  });

  test('is delegated from an imported public zone too', () => {
    const { template } = build({ publicZone: PublicZone.fromHostedZoneId('ZBASE'), externalDns: { domain: 'svc.hcp.example.com' } });
    template.hasResourceProperties('AWS::Route53::RecordSet', { HostedZoneId: 'ZBASE', Name: 'svc.hcp.example.com.', Type: 'NS' });
  });

  test('is delegated from the given parent zone, named or imported by ID alone', () => {
    const named = build((stack) => ({
      externalDns: { domain: 'hcp.example.net', parentZone: route53.HostedZone.fromHostedZoneAttributes(stack, 'Parent', { hostedZoneId: 'ZNET', zoneName: 'example.net' }) },
    }));
    named.template.hasResourceProperties('AWS::Route53::RecordSet', { HostedZoneId: 'ZNET', Name: 'hcp.example.net.', Type: 'NS' });
    const byId = build((stack) => ({ externalDns: { domain: 'hcp.example.net', parentZone: route53.HostedZone.fromHostedZoneId(stack, 'Parent', 'ZNET') } }));
    byId.template.hasResourceProperties('AWS::Route53::RecordSet', { HostedZoneId: 'ZNET', Name: 'hcp.example.net.', Type: 'NS' });
  });

  test('gets no delegation record when it is outside the base domain and no parent is given', () => {
    const { prereqs, template } = build({ externalDns: { domain: 'service-provider.example.net' } });
    expect(prereqs.externalDnsZone).toBeDefined();
    template.resourceCountIs('AWS::Route53::HostedZone', 2);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  test('is absent by default', () => {
    const { prereqs, template } = build();
    expect(prereqs.externalDnsZone).toBeUndefined();
    template.resourceCountIs('AWS::Route53::HostedZone', 1);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
  });
});

describe('AwsManagementPrereqs CLI role', () => {
  const cliRole = { trustedPrincipal: new iam.ArnPrincipal(ALICE), roleName: 'hcp-cli-role' };

  test('trusts the given principal with sts:AssumeRole and carries the docs 3.1.4 policy inline', () => {
    const { prereqs, template } = build({ cliRole });
    expect(resourceOf(template, logicalId(prereqs.cliRole!))).toEqual({
      Type: 'AWS::IAM::Role',
      Properties: {
        RoleName: 'hcp-cli-role',
        Description: 'Role the hcp CLI assumes to create and destroy hosted-cluster infrastructure (OpenShift hosted control planes docs 3.1.4)',
        AssumeRolePolicyDocument: {
          Version: '2012-10-17',
          Statement: [{ Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { AWS: ALICE } }],
        },
        Policies: [{ PolicyName: 'hcp-cli-policy', PolicyDocument: CLI_POLICY }],
      },
    });
  });

  test('takes the policy name, and leaves the role name to CloudFormation by default', () => {
    const { prereqs, template } = build({ cliRole: { trustedPrincipal: new iam.ArnPrincipal(ALICE), policyName: 'hcp-cli' } });
    const role = resourceOf(template, logicalId(prereqs.cliRole!));
    expect(role.Properties.RoleName).toBeUndefined();
    expect(role.Properties.Policies.map((p: any) => p.PolicyName)).toEqual(['hcp-cli']);
  });

  test('is absent by default', () => {
    const { prereqs, template } = build();
    expect(prereqs.cliRole).toBeUndefined();
    template.resourceCountIs('AWS::IAM::Role', 0);
  });
});

describe('AwsManagementPrereqs cdk-nag', () => {
  const everything: Partial<AwsManagementPrereqsProps> = {
    externalDns: { domain: 'svc.hcp.example.com' },
    cliRole: { trustedPrincipal: new iam.ArnPrincipal(ALICE), roleName: 'hcp-cli-role' },
  };

  test('has no unacknowledged AwsSolutions findings, with every part switched on', () => {
    expect(nagFindings(build(everything).stack)).toEqual([]);
    expect(nagFindings(build({ ...everything, publicZone: PublicZone.fromHostedZoneId('Z0123456789ABCDEFGHIJ') }).stack)).toEqual([]);
  });

  test("acknowledges only the public OIDC bucket and the CLI policy's documented wildcards, each with its reason", () => {
    const acknowledged = nagAcknowledgments(build(everything).stack);
    expect(acknowledged.map(({ path, id }) => `${path}: ${id}`)).toEqual([
      'Mgmt/Prereqs/OidcBucket: AwsSolutions-S2',
      'Mgmt/Prereqs/CliRole: AwsSolutions-IAM5[Resource::*]',
      'Mgmt/Prereqs/CliRole: AwsSolutions-IAM5[Resource::arn:*:iam::*:role/*-worker-role]',
    ]);
    for (const { reason } of acknowledged) expect(reason).toMatch(/^\S.{80,}\.$/);
    expect(acknowledged[0].reason).toContain('AWS STS fetches');
    expect(acknowledged[1].reason).toContain('Docs 3.1.4');
    expect(acknowledged[2].reason).toContain('iam:PassRole');
  });

  test('acknowledges only the public bucket when no CLI role is made, and finds nothing', () => {
    const { stack } = build();
    expect(nagAcknowledgments(stack).map(({ id }) => id)).toEqual(['AwsSolutions-S2']);
    expect(nagFindings(stack)).toEqual([]);
  });
});

describe('AwsManagementPrereqs fails when', () => {
  test('the bucket name is not an S3 bucket name', () => {
    for (const name of ['Acme_OIDC', 'ab', '-acme-oidc', 'acme-oidc-', 'a'.repeat(64)]) {
      expect(problemsOf({ oidcBucketName: name })).toEqual([
        `Mgmt/Prereqs: oidcBucketName (${show(name)}) must be an S3 bucket name: 3 to 63 lower-case letters, digits and "-", starting and ending with a letter or digit`,
      ]);
    }
  });

  test('the bucket name has dots', () => {
    expect(problemsOf({ oidcBucketName: 'oidc.hcp.example.com' })).toEqual([
      'Mgmt/Prereqs: oidcBucketName ("oidc.hcp.example.com") must not contain ".": the issuer https://<bucket>.s3.<region>.amazonaws.com is a virtual-hosted-style HTTPS URL, and the S3 certificate does not cover dotted bucket names',
    ]);
  });

  test('the bucket name has a prefix or suffix S3 reserves', () => {
    expect(problemsOf({ oidcBucketName: 'xn--oidc' })).toEqual(['Mgmt/Prereqs: oidcBucketName ("xn--oidc") must not start with "xn--", which S3 reserves']);
    expect(problemsOf({ oidcBucketName: 'oidc-s3alias' })).toEqual(['Mgmt/Prereqs: oidcBucketName ("oidc-s3alias") must not end with "-s3alias", which S3 reserves']);
  });

  test('the bucket name is a token', () => {
    const name = Lazy.string({ produce: () => 'acme-hcp-oidc' });
    expect(problemsOf({ oidcBucketName: name })).toEqual(['Mgmt/Prereqs: oidcBucketName (a CloudFormation token) must be a literal name: the issuer URLs and the Kubernetes Secret need it at synth']);
  });

  test('issuerUrlFor meets a stack without a region', () => {
    const { prereqs } = build({}, { env: undefined });
    expect(() => prereqs.issuerUrlFor('c1')).toThrow(
      'Mgmt/Prereqs: region (a CloudFormation token) must be concrete for issuerUrlFor("c1"): give the stack an env with a region, e.g. { region: \'eu-west-1\' }',
    );
  });

  test('issuerUrlFor is given an infra ID the HostedCluster would reject', () => {
    const { prereqs } = build();
    expect(() => prereqs.issuerUrlFor('C1_prod')).toThrow(
      'Mgmt/Prereqs: issuerUrlFor infraId ("C1_prod") must be lower-case letters, digits and "-", starting and ending with a letter or digit (the HostedCluster\'s spec.infraID rule)',
    );
  });

  test('the base domain is not a DNS name', () => {
    for (const domain of ['Example.com', 'example.com.', 'localhost', 'hcp..example.com', 'hcp_example.com']) {
      expect(problemsOf({ baseDomain: domain })).toEqual([
        `Mgmt/Prereqs: baseDomain (${show(domain)}) must be a lower-case DNS name of two or more labels without a trailing dot, such as "hcp.example.com"`,
      ]);
    }
  });

  test('the public zone ID is not a Route 53 zone ID', () => {
    expect(problemsOf({ publicZone: PublicZone.fromHostedZoneId('/hostedzone/Z0123456789ABCDEFGHIJ') })).toEqual([
      'Mgmt/Prereqs: publicZone (PublicZone.fromHostedZoneId("/hostedzone/Z0123456789ABCDEFGHIJ")) must name a Route 53 hosted zone ID such as "Z0123456789ABCDEFGHIJ" (upper-case letters and digits, without "/hostedzone/")',
    ]);
  });

  test('the external DNS domain is not a DNS name, is the base domain, or lies outside its parent zone', () => {
    expect(problemsOf({ externalDns: { domain: 'Svc.Example.com' } })).toEqual([
      'Mgmt/Prereqs: externalDns.domain ("Svc.Example.com") must be a lower-case DNS name of two or more labels without a trailing dot, such as "hcp.example.com"',
    ]);
    expect(problemsOf({ externalDns: { domain: 'hcp.example.com' } })).toEqual([
      'Mgmt/Prereqs: externalDns.domain ("hcp.example.com") must differ from baseDomain: it gets a public zone of its own, delegated from its parent',
    ]);
    expect(
      problemsOf((stack) => ({
        externalDns: { domain: 'svc.example.org', parentZone: route53.HostedZone.fromHostedZoneAttributes(stack, 'Parent', { hostedZoneId: 'ZNET', zoneName: 'example.net.' }) },
      })),
    ).toEqual(['Mgmt/Prereqs: externalDns.domain ("svc.example.org") must be a subdomain of externalDns.parentZone ("example.net") to be delegated from it']);
  });

  test('a log bucket is given with server access logs off', () => {
    expect(problemsOf((stack) => ({ serverAccessLogs: false, serverAccessLogsBucket: s3.Bucket.fromBucketName(stack, 'Central', 'central-access-logs') }))).toEqual([
      'Mgmt/Prereqs: serverAccessLogsBucket is given but serverAccessLogs is false; give one or the other',
    ]);
  });

  test('several props are wrong: all are reported at once', () => {
    expect(problemsOf({ oidcBucketName: 'acme.oidc', baseDomain: 'localhost', publicZone: PublicZone.fromHostedZoneId('z-lower') })).toHaveLength(3);
  });
});

describe('AwsManagementPrereqs snapshot', () => {
  test('with every part switched on', () => {
    const { template } = build({
      publicZone: PublicZone.create(),
      externalDns: { domain: 'svc.hcp.example.com' },
      cliRole: { trustedPrincipal: new iam.ArnPrincipal(ALICE), roleName: 'hcp-cli-role' },
    });
    expect(template.toJSON()).toMatchSnapshot();
  });
});
