// HostedClusterIam against the facts of `hypershift create iam aws` (reference §4): role names, trust
// policies, the permission documents (written out here by hand from the reference, in upstream's
// form), the OIDC provider, the worker instance profile, the ARNs the HostedCluster gets, and its checks.
import * as fs from 'fs';
import * as path from 'path';
import { App, Stack, StackProps, Token } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as route53 from 'aws-cdk-lib/aws-route53';
import { HostedClusterIam, HostedClusterIamProps } from '../../lib/aws';
import { SHARED } from '../util';

const ENV = { account: '123456789012', region: 'us-east-1' };
const INFRA_ID = 'demo-x7k2p';
const ISSUER_HOST_PATH = 'hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p';
const PROVIDER_ARN = `arn:aws:iam::123456789012:oidc-provider/${ISSUER_HOST_PATH}`;
const KMS_KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/0000-1111';
const PROPS: HostedClusterIamProps = {
  infraId: INFRA_ID,
  issuerUrl: `https://${ISSUER_HOST_PATH}`,
  publicZoneId: 'Z0PUBLIC',
  privateZoneId: 'hostedzone/Z0PRIVATE',
  localZoneId: 'Z0LOCAL',
};
const roleArn = (name: string, account = '123456789012') => `arn:aws:iam::${account}:role/${name}`;

function newStack(env: StackProps['env'] = ENV, app = new App(), id = 'Stack'): Stack {
  return new Stack(app, id, { env });
}

function build(props: Partial<HostedClusterIamProps> = {}, stack = newStack()): { iam: HostedClusterIam; template: Template } {
  const iam = new HostedClusterIam(stack, 'iam', { ...PROPS, ...props });
  return { iam, template: Template.fromStack(stack) };
}

/** The problems a failing construction reports, one per line of the error. */
function problemsOf(make: () => unknown): string[] {
  try {
    make();
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
  return [];
}

function resourceOf(template: Template, type: string, properties: object): { logicalId: string; resource: any } {
  const found = Object.entries(template.findResources(type, { Properties: properties }));
  if (found.length !== 1) throw new Error(`expected one ${type} with ${JSON.stringify(properties)}, found ${found.length}`);
  return { logicalId: found[0][0], resource: found[0][1] };
}

const roleNamed = (template: Template, name: string) => resourceOf(template, 'AWS::IAM::Role', { RoleName: name }).resource;

/** The inline policies of a role as { name: document }. */
function inlinePolicies(role: any): Record<string, any> {
  return Object.fromEntries((role.Properties.Policies ?? []).map((p: any) => [p.PolicyName, p.PolicyDocument]));
}

/**
 * A document in IAM's own terms: Action and Resource as lists without repeats (IAM reads "x" as ["x"]
 * and a repeated action as one), and no Sid (a label). Both upstream's form and CloudFormation's go through it.
 */
function iamMeaning(document: any): any {
  const list = (value: unknown) => (value === undefined ? undefined : [...new Set(Array.isArray(value) ? value : [value])]);
  return {
    Version: document.Version,
    Statement: document.Statement.map((s: any) => {
      const { Sid: _sid, Action, Resource, Principal, ...rest } = s;
      const out: any = { ...rest, Action: list(Action) };
      if (Resource !== undefined) out.Resource = list(Resource);
      if (Principal !== undefined) out.Principal = Object.fromEntries(Object.entries(Principal).map(([k, v]) => [k, list(v)]));
      return out;
    }),
  };
}

// ---- upstream's documents (reference §4.3-4.5), by hand, in upstream's form ----

const UPSTREAM = {
  ingress: (publicZone: string, privateZone: string) => ({
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: ['elasticloadbalancing:DescribeLoadBalancers', 'tag:GetResources', 'route53:ListHostedZones'], Resource: '*' },
      { Effect: 'Allow', Action: ['route53:ChangeResourceRecordSets'], Resource: [`arn:aws:route53:::${publicZone}`, `arn:aws:route53:::${privateZone}`] },
    ],
  }),
  ingressSharedVpc: (publicZone: string) => ({
    Version: '2012-10-17',
    Statement: [
      { Effect: 'Allow', Action: ['elasticloadbalancing:DescribeLoadBalancers', 'tag:GetResources', 'route53:ListHostedZones'], Resource: '*' },
      { Effect: 'Allow', Action: ['route53:ChangeResourceRecordSets'], Resource: [`arn:aws:route53:::${publicZone}`] },
    ],
  }),
  imageRegistry: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          's3:CreateBucket',
          's3:DeleteBucket',
          's3:PutBucketTagging',
          's3:GetBucketTagging',
          's3:PutBucketPublicAccessBlock',
          's3:GetBucketPublicAccessBlock',
          's3:PutEncryptionConfiguration',
          's3:GetEncryptionConfiguration',
          's3:PutLifecycleConfiguration',
          's3:GetLifecycleConfiguration',
          's3:GetBucketLocation',
          's3:ListBucket',
          's3:GetObject',
          's3:PutObject',
          's3:DeleteObject',
          's3:ListBucketMultipartUploads',
          's3:AbortMultipartUpload',
          's3:ListMultipartUploadParts',
        ],
        Resource: '*',
      },
    ],
  },
  ebsCsi: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ec2:AttachVolume',
          'ec2:CreateSnapshot',
          'ec2:CreateTags',
          'ec2:CreateVolume',
          'ec2:DeleteSnapshot',
          'ec2:DeleteTags',
          'ec2:DeleteVolume',
          'ec2:DescribeInstances',
          'ec2:DescribeSnapshots',
          'ec2:DescribeTags',
          'ec2:DescribeVolumes',
          'ec2:DescribeVolumesModifications',
          'ec2:DetachVolume',
          'ec2:ModifyVolume',
          'ec2:DescribeAvailabilityZones',
          'ec2:EnableFastSnapshotRestores',
          'ec2:DescribeInstanceTypes',
          'ec2:DescribeVolumeStatus',
          'ec2:CopyVolumes',
          'ec2:LockSnapshot',
        ],
        Resource: '*',
      },
      { Effect: 'Allow', Action: ['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlainText', 'kms:DescribeKey'], Resource: '*' },
      {
        Effect: 'Allow',
        Action: ['kms:RevokeGrant', 'kms:CreateGrant', 'kms:ListGrants'],
        Resource: '*',
        Condition: { Bool: { 'kms:GrantIsForAWSResource': true } },
      },
    ],
  },
  cloudController: {
    Version: '2012-10-17',
    Statement: [
      {
        Action: [
          'autoscaling:DescribeAutoScalingGroups',
          'autoscaling:DescribeLaunchConfigurations',
          'autoscaling:DescribeTags',
          'ec2:DescribeAvailabilityZones',
          'ec2:DescribeInstances',
          'ec2:DescribeImages',
          'ec2:DescribeRegions',
          'ec2:DescribeRouteTables',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeSubnets',
          'ec2:DescribeVolumes',
          'ec2:CreateSecurityGroup',
          'ec2:CreateTags',
          'ec2:CreateVolume',
          'ec2:ModifyInstanceAttribute',
          'ec2:ModifyVolume',
          'ec2:AttachVolume',
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:CreateRoute',
          'ec2:DeleteRoute',
          'ec2:DeleteSecurityGroup',
          'ec2:DeleteVolume',
          'ec2:DetachVolume',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:DescribeVpcs',
          'elasticloadbalancing:AddTags',
          'elasticloadbalancing:AttachLoadBalancerToSubnets',
          'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
          'elasticloadbalancing:CreateLoadBalancer',
          'elasticloadbalancing:CreateLoadBalancerPolicy',
          'elasticloadbalancing:CreateLoadBalancerListeners',
          'elasticloadbalancing:ConfigureHealthCheck',
          'elasticloadbalancing:DeleteLoadBalancer',
          'elasticloadbalancing:DeleteLoadBalancerListeners',
          'elasticloadbalancing:DescribeLoadBalancers',
          'elasticloadbalancing:DescribeLoadBalancerAttributes',
          'elasticloadbalancing:DetachLoadBalancerFromSubnets',
          'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
          'elasticloadbalancing:ModifyLoadBalancerAttributes',
          'elasticloadbalancing:ModifyTargetGroupAttributes',
          'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
          'elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer',
          'elasticloadbalancing:AddTags',
          'elasticloadbalancing:CreateListener',
          'elasticloadbalancing:CreateTargetGroup',
          'elasticloadbalancing:DeleteListener',
          'elasticloadbalancing:DeleteTargetGroup',
          'elasticloadbalancing:DeregisterTargets',
          'elasticloadbalancing:DescribeListeners',
          'elasticloadbalancing:DescribeLoadBalancerPolicies',
          'elasticloadbalancing:DescribeTargetGroups',
          'elasticloadbalancing:DescribeTargetGroupAttributes',
          'elasticloadbalancing:DescribeTargetHealth',
          'elasticloadbalancing:ModifyListener',
          'elasticloadbalancing:ModifyTargetGroup',
          'elasticloadbalancing:RegisterTargets',
          'elasticloadbalancing:SetLoadBalancerPoliciesOfListener',
          'elasticloadbalancing:SetSecurityGroups',
          'iam:CreateServiceLinkedRole',
          'kms:DescribeKey',
        ],
        Resource: ['*'],
        Effect: 'Allow',
      },
    ],
  },
  nodePool: {
    Version: '2012-10-17',
    Statement: [
      {
        Action: [
          'ec2:AssociateRouteTable',
          'ec2:AttachInternetGateway',
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:CreateInternetGateway',
          'ec2:CreateNatGateway',
          'ec2:CreateRoute',
          'ec2:CreateRouteTable',
          'ec2:CreateSecurityGroup',
          'ec2:CreateSubnet',
          'ec2:CreateTags',
          'ec2:DeleteInternetGateway',
          'ec2:DeleteNatGateway',
          'ec2:DeleteRouteTable',
          'ec2:DeleteSecurityGroup',
          'ec2:DeleteSubnet',
          'ec2:DeleteTags',
          'ec2:DescribeAccountAttributes',
          'ec2:DescribeAddresses',
          'ec2:DescribeAvailabilityZones',
          'ec2:DescribeImages',
          'ec2:DescribeInstances',
          'ec2:DescribeInstanceTypes',
          'ec2:DescribeInternetGateways',
          'ec2:DescribeNatGateways',
          'ec2:DescribeNetworkInterfaces',
          'ec2:DescribeNetworkInterfaceAttribute',
          'ec2:DescribeRouteTables',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeSubnets',
          'ec2:DescribeVpcs',
          'ec2:DescribeDhcpOptions',
          'ec2:DescribeVpcAttribute',
          'ec2:DescribeVolumes',
          'ec2:DetachInternetGateway',
          'ec2:DisassociateRouteTable',
          'ec2:DisassociateAddress',
          'ec2:ModifyInstanceAttribute',
          'ec2:ModifyNetworkInterfaceAttribute',
          'ec2:ModifySubnetAttribute',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:RunInstances',
          'ec2:TerminateInstances',
          'tag:GetResources',
          'ec2:CreateLaunchTemplate',
          'ec2:CreateLaunchTemplateVersion',
          'ec2:DescribeLaunchTemplates',
          'ec2:DescribeLaunchTemplateVersions',
          'ec2:DeleteLaunchTemplate',
          'ec2:DeleteLaunchTemplateVersions',
          'sqs:DeleteMessage',
          'sqs:ReceiveMessage',
        ],
        Resource: ['*'],
        Effect: 'Allow',
      },
      {
        Condition: { StringLike: { 'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com' } },
        Action: ['iam:CreateServiceLinkedRole'],
        Resource: ['arn:*:iam::*:role/aws-service-role/elasticloadbalancing.amazonaws.com/AWSServiceRoleForElasticLoadBalancing'],
        Effect: 'Allow',
      },
      { Action: ['iam:PassRole'], Resource: ['arn:*:iam::*:role/*-worker-role'], Effect: 'Allow' },
      { Effect: 'Allow', Action: ['kms:Decrypt', 'kms:ReEncrypt', 'kms:GenerateDataKeyWithoutPlainText', 'kms:DescribeKey'], Resource: '*' },
      { Effect: 'Allow', Action: ['kms:CreateGrant'], Resource: '*', Condition: { Bool: { 'kms:GrantIsForAWSResource': true } } },
    ],
  },
  controlPlaneOperator: (localZone: string) => ({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ec2:CreateVpcEndpoint',
          'ec2:DescribeVpcEndpoints',
          'ec2:ModifyVpcEndpoint',
          'ec2:DeleteVpcEndpoints',
          'ec2:CreateTags',
          'route53:ListHostedZones',
          'ec2:CreateSecurityGroup',
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:AuthorizeSecurityGroupEgress',
          'ec2:DeleteSecurityGroup',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:RevokeSecurityGroupEgress',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeVpcs',
          'ec2:DescribeSubnets',
        ],
        Resource: '*',
      },
      { Effect: 'Allow', Action: ['route53:ChangeResourceRecordSets', 'route53:ListResourceRecordSets'], Resource: `arn:aws:route53:::${localZone}` },
    ],
  }),
  controlPlaneOperatorSharedVpc: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ec2:DescribeVpcEndpoints',
          'ec2:CreateTags',
          'ec2:CreateSecurityGroup',
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:AuthorizeSecurityGroupEgress',
          'ec2:DeleteSecurityGroup',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:RevokeSecurityGroupEgress',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeVpcs',
          'ec2:DescribeSubnets',
        ],
        Resource: '*',
      },
    ],
  },
  cloudNetworkConfigController: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ec2:DescribeInstances',
          'ec2:DescribeInstanceStatus',
          'ec2:DescribeInstanceTypes',
          'ec2:UnassignPrivateIpAddresses',
          'ec2:AssignPrivateIpAddresses',
          'ec2:UnassignIpv6Addresses',
          'ec2:AssignIpv6Addresses',
          'ec2:DescribeSubnets',
          'ec2:DescribeNetworkInterfaces',
        ],
        Resource: '*',
      },
    ],
  },
  kmsProvider: (keyArn: string) => ({
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: ['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:DescribeKey'],
        Resource: keyArn,
      },
    ],
  }),
  workerTrust: {
    Version: '2012-10-17',
    Statement: [{ Action: 'sts:AssumeRole', Principal: { Service: 'ec2.amazonaws.com' }, Effect: 'Allow', Sid: '' }],
  },
  worker: {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeRegions'], Resource: '*' }],
  },
  allowAssumeRole: {
    Version: '2012-10-17',
    Statement: [{ Effect: 'Allow', Action: 'sts:AssumeRole', Resource: '*' }],
  },
  sharedVpcRoute53: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'route53:ListHostedZones',
          'route53:ListHostedZonesByName',
          'route53:ChangeTagsForResource',
          'route53:GetAccountLimit',
          'route53:GetChange',
          'route53:GetHostedZone',
          'route53:ListTagsForResource',
          'route53:UpdateHostedZoneComment',
          'tag:GetResources',
          'tag:UntagResources',
          'route53:ChangeResourceRecordSets',
          'route53:ListResourceRecordSets',
        ],
        Resource: '*',
      },
    ],
  },
  sharedVpcEndpoint: {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Action: [
          'ec2:CreateVpcEndpoint',
          'ec2:DescribeVpcEndpoints',
          'ec2:ModifyVpcEndpoint',
          'ec2:DeleteVpcEndpoints',
          'ec2:CreateTags',
          'ec2:CreateSecurityGroup',
          'ec2:AuthorizeSecurityGroupIngress',
          'ec2:AuthorizeSecurityGroupEgress',
          'ec2:DeleteSecurityGroup',
          'ec2:RevokeSecurityGroupIngress',
          'ec2:RevokeSecurityGroupEgress',
          'ec2:DescribeSecurityGroups',
          'ec2:DescribeVpcs',
          'ec2:DescribeSubnets',
        ],
        Resource: '*',
      },
    ],
  },
  sharedVpcTrust: (...arns: string[]) => ({
    Version: '2012-10-17',
    Statement: [{ Sid: 'Statement1', Effect: 'Allow', Principal: { AWS: arns.length === 1 ? arns[0] : arns }, Action: 'sts:AssumeRole' }],
  }),
};

/** The seven rolesRef roles and the kms-provider role: reference §4.1's binding table, by hand. */
const BINDINGS = [
  {
    role: 'demo-x7k2p-openshift-ingress',
    field: 'ingressArn',
    serviceAccounts: 'system:serviceaccount:openshift-ingress-operator:ingress-operator',
    policy: UPSTREAM.ingress('hostedzone/Z0PUBLIC', 'hostedzone/Z0PRIVATE'),
  },
  {
    role: 'demo-x7k2p-openshift-image-registry',
    field: 'imageRegistryArn',
    serviceAccounts: ['system:serviceaccount:openshift-image-registry:cluster-image-registry-operator', 'system:serviceaccount:openshift-image-registry:registry'],
    policy: UPSTREAM.imageRegistry,
  },
  {
    role: 'demo-x7k2p-aws-ebs-csi-driver-controller',
    field: 'storageArn',
    serviceAccounts: 'system:serviceaccount:openshift-cluster-csi-drivers:aws-ebs-csi-driver-controller-sa',
    policy: UPSTREAM.ebsCsi,
  },
  {
    role: 'demo-x7k2p-cloud-controller',
    field: 'kubeCloudControllerArn',
    serviceAccounts: 'system:serviceaccount:kube-system:kube-controller-manager',
    policy: UPSTREAM.cloudController,
  },
  {
    role: 'demo-x7k2p-node-pool',
    field: 'nodePoolManagementArn',
    serviceAccounts: 'system:serviceaccount:kube-system:capa-controller-manager',
    policy: UPSTREAM.nodePool,
  },
  {
    role: 'demo-x7k2p-control-plane-operator',
    field: 'controlPlaneOperatorArn',
    serviceAccounts: 'system:serviceaccount:kube-system:control-plane-operator',
    policy: UPSTREAM.controlPlaneOperator('hostedzone/Z0LOCAL'),
  },
  {
    role: 'demo-x7k2p-cloud-network-config-controller',
    field: 'networkArn',
    serviceAccounts: 'system:serviceaccount:openshift-cloud-network-config-controller:cloud-network-config-controller',
    policy: UPSTREAM.cloudNetworkConfigController,
  },
  {
    role: 'demo-x7k2p-kms-provider',
    field: undefined,
    serviceAccounts: 'system:serviceaccount:kube-system:kms-provider',
    policy: UPSTREAM.kmsProvider(KMS_KEY_ARN),
  },
];

const oidcTrust = (serviceAccounts: string | string[]) => ({
  Version: '2012-10-17',
  Statement: [
    {
      Effect: 'Allow',
      Principal: { Federated: PROVIDER_ARN },
      Action: 'sts:AssumeRoleWithWebIdentity',
      Condition: { StringEquals: { [`${ISSUER_HOST_PATH}:sub`]: serviceAccounts } },
    },
  ],
});

describe('HostedClusterIam', () => {
  const { iam, template } = build({ kmsKeyArn: KMS_KEY_ARN, tags: { team: 'platform', 'cost-center': '42' } });
  const provider = resourceOf(template, 'AWS::IAM::OIDCProvider', {});

  test('creates the native OIDC provider for the issuer, with upstream client IDs and thumbprint', () => {
    expect(provider.resource.Properties).toEqual({
      Url: 'https://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p',
      ClientIdList: ['openshift', 'sts.amazonaws.com'],
      ThumbprintList: ['A9D53002E97E00E043244F3D170D6F4C414104FD'],
      Tags: expect.any(Array),
    });
    template.resourceCountIs('Custom::AWSCDKOpenIdConnectProvider', 0);
    template.resourceCountIs('AWS::Lambda::Function', 0);
  });

  test('creates nine roles, one instance profile and nothing else', () => {
    template.resourceCountIs('AWS::IAM::Role', 9);
    template.resourceCountIs('AWS::IAM::InstanceProfile', 1);
    template.resourceCountIs('AWS::IAM::Policy', 0);
    template.resourceCountIs('AWS::IAM::ManagedPolicy', 0);
    expect(Object.keys(template.toJSON().Resources)).toHaveLength(11);
  });

  describe.each(BINDINGS)('role $role', ({ role, serviceAccounts, policy }) => {
    const resource = roleNamed(template, role);

    test('trusts the OIDC provider for its service accounts only', () => {
      expect(iamMeaning(resource.Properties.AssumeRolePolicyDocument)).toEqual(iamMeaning(oidcTrust(serviceAccounts)));
      // A single service account stays a string, several a list, as upstream's template writes them.
      expect(resource.Properties.AssumeRolePolicyDocument.Statement[0].Condition).toEqual(oidcTrust(serviceAccounts).Statement[0].Condition);
    });

    test("holds one inline policy, named like the role, with upstream's statements", () => {
      const policies = inlinePolicies(resource);
      expect(Object.keys(policies)).toEqual([role]);
      expect(iamMeaning(policies[role])).toEqual(iamMeaning(policy));
    });

    test('is created after the OIDC provider it trusts', () => {
      expect(resource.DependsOn).toEqual([provider.logicalId]);
    });

    test('has no path, boundary or managed policies', () => {
      expect(Object.keys(resource.Properties).sort()).toEqual(['AssumeRolePolicyDocument', 'Policies', 'RoleName', 'Tags']);
    });
  });

  test('keeps the action order of upstream and drops only its repeated elasticloadbalancing:AddTags', () => {
    const statement = inlinePolicies(roleNamed(template, 'demo-x7k2p-cloud-controller'))['demo-x7k2p-cloud-controller'].Statement[0];
    expect(statement.Action).toEqual([...new Set(UPSTREAM.cloudController.Statement[0].Action)]);
    expect(statement.Action).toHaveLength(UPSTREAM.cloudController.Statement[0].Action.length - 1);
  });

  test('exposes the seven rolesRef ARNs, the kms-provider ARN, the provider ARN and the profile name', () => {
    expect(iam.roles).toEqual({
      ingressArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-openshift-ingress',
      imageRegistryArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-openshift-image-registry',
      storageArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-aws-ebs-csi-driver-controller',
      networkArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-cloud-network-config-controller',
      kubeCloudControllerArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-cloud-controller',
      nodePoolManagementArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-node-pool',
      controlPlaneOperatorArn: 'arn:aws:iam::123456789012:role/demo-x7k2p-control-plane-operator',
    });
    expect(iam.kmsProviderRoleArn).toBe('arn:aws:iam::123456789012:role/demo-x7k2p-kms-provider');
    expect(iam.oidcProviderArn).toBe('arn:aws:iam::123456789012:oidc-provider/hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p');
    expect(iam.instanceProfileName).toBe('demo-x7k2p-worker');
    expect(iam.sharedVpcRoles).toBeUndefined();
    const all = [...Object.values(iam.roles), iam.kmsProviderRoleArn, iam.oidcProviderArn, iam.instanceProfileName];
    expect(all.filter((value) => Token.isUnresolved(value))).toEqual([]);
  });

  test('each exposed ARN names a role of the template', () => {
    for (const binding of BINDINGS) {
      const arn = binding.field ? (iam.roles as any)[binding.field] : iam.kmsProviderRoleArn;
      expect(arn).toBe(roleArn(binding.role));
    }
  });

  test('exposes the role constructs for escape hatches', () => {
    const resolve = (x: unknown) => Stack.of(iam).resolve(x);
    expect(resolve(iam.componentRoles.ingressArn.roleName)).toEqual({ Ref: expect.stringMatching(/^iamopenshiftingress/) });
    expect(Object.keys(iam.componentRoles).sort()).toEqual([
      'controlPlaneOperatorArn',
      'imageRegistryArn',
      'ingressArn',
      'kubeCloudControllerArn',
      'networkArn',
      'nodePoolManagementArn',
      'storageArn',
    ]);
    expect(iam.kmsProviderRole).toBeDefined();
    expect(iam.oidcProvider.url).toBe(PROPS.issuerUrl);
    expect(iam.instanceProfile.instanceProfileName).toBe('demo-x7k2p-worker');
    expect(iam.sharedVpcRoute53Role).toBeUndefined();
  });

  test('creates the worker role trusted by EC2, with its inline policy', () => {
    const worker = roleNamed(template, 'demo-x7k2p-worker-role');
    expect(iamMeaning(worker.Properties.AssumeRolePolicyDocument)).toEqual(iamMeaning(UPSTREAM.workerTrust));
    expect(worker.Properties.Path).toBe('/');
    const policies = inlinePolicies(worker);
    expect(Object.keys(policies)).toEqual(['demo-x7k2p-worker-policy']);
    expect(iamMeaning(policies['demo-x7k2p-worker-policy'])).toEqual(iamMeaning(UPSTREAM.worker));
    expect(worker.DependsOn).toBeUndefined();
  });

  test('creates the worker instance profile holding the worker role', () => {
    const workerRole = resourceOf(template, 'AWS::IAM::Role', { RoleName: 'demo-x7k2p-worker-role' }).logicalId;
    expect(resourceOf(template, 'AWS::IAM::InstanceProfile', {}).resource.Properties).toEqual({
      InstanceProfileName: 'demo-x7k2p-worker',
      Path: '/',
      Roles: [{ Ref: workerRole }],
    });
  });

  test('tags every role and the OIDC provider with the infra ID and the given tags', () => {
    const expected = [
      { Key: 'cost-center', Value: '42' },
      { Key: 'hypershift.openshift.io/infra-id', Value: 'demo-x7k2p' },
      { Key: 'team', Value: 'platform' },
    ];
    const roles = Object.values(template.findResources('AWS::IAM::Role'));
    expect(roles).toHaveLength(9);
    for (const role of roles) expect(role.Properties.Tags).toEqual(expected);
    expect(provider.resource.Properties.Tags).toEqual(expected);
  });

  test('matches the snapshot', () => {
    expect(template.toJSON()).toMatchSnapshot();
  });
});

describe('HostedClusterIam without a KMS key', () => {
  const { iam, template } = build();

  test('creates no kms-provider role', () => {
    template.resourceCountIs('AWS::IAM::Role', 8);
    expect(template.findResources('AWS::IAM::Role', { Properties: { RoleName: 'demo-x7k2p-kms-provider' } })).toEqual({});
    expect(iam.kmsProviderRoleArn).toBeUndefined();
    expect(iam.kmsProviderRole).toBeUndefined();
  });

  test('tags with the infra ID alone', () => {
    for (const role of Object.values(template.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.Tags).toEqual([{ Key: 'hypershift.openshift.io/infra-id', Value: 'demo-x7k2p' }]);
    }
  });
});

describe('HostedClusterIam with values known at deploy', () => {
  const stack = newStack();
  const zone = new route53.HostedZone(stack, 'Local', { zoneName: 'demo.hypershift.local' });
  const key = new kms.Key(stack, 'Key');
  const { iam, template } = build({ localZoneId: zone.hostedZoneId, kmsKeyArn: key.keyArn }, stack);
  const zoneId = stack.getLogicalId(zone.node.defaultChild as route53.CfnHostedZone);
  const keyId = stack.getLogicalId(key.node.defaultChild as kms.CfnKey);

  test('prefixes a zone token with hostedzone/ and grants on a key token', () => {
    const cpo = inlinePolicies(roleNamed(template, 'demo-x7k2p-control-plane-operator'))['demo-x7k2p-control-plane-operator'];
    expect(cpo.Statement[1].Resource).toEqual({ 'Fn::Join': ['', ['arn:aws:route53:::hostedzone/', { Ref: zoneId }]] });
    const kmsPolicy = inlinePolicies(roleNamed(template, 'demo-x7k2p-kms-provider'))['demo-x7k2p-kms-provider'];
    expect(kmsPolicy.Statement[0].Resource).toEqual({ 'Fn::GetAtt': [keyId, 'Arn'] });
    expect(iam.kmsProviderRoleArn).toBe(roleArn('demo-x7k2p-kms-provider'));
  });
});

describe('HostedClusterIam in another partition', () => {
  const { iam, template } = build({ issuerUrl: 'https://hcp-oidc.s3.cn-north-1.amazonaws.com.cn/demo-x7k2p' }, newStack({ account: '123456789012', region: 'cn-north-1' }));

  test('writes the partition of the stack region into ARNs', () => {
    expect(iam.roles.ingressArn).toBe('arn:aws-cn:iam::123456789012:role/demo-x7k2p-openshift-ingress');
    expect(iam.oidcProviderArn).toBe('arn:aws-cn:iam::123456789012:oidc-provider/hcp-oidc.s3.cn-north-1.amazonaws.com.cn/demo-x7k2p');
    const ingress = inlinePolicies(roleNamed(template, 'demo-x7k2p-openshift-ingress'))['demo-x7k2p-openshift-ingress'];
    expect(ingress.Statement[1].Resource).toEqual(['arn:aws-cn:route53:::hostedzone/Z0PUBLIC', 'arn:aws-cn:route53:::hostedzone/Z0PRIVATE']);
  });

  test('uses the literal partition when the app enables partition literals', () => {
    const app = new App({ context: { '@aws-cdk/core:enablePartitionLiterals': true } });
    const { iam: literal } = build({}, newStack(ENV, app));
    expect(literal.roles.ingressArn).toBe(roleArn('demo-x7k2p-openshift-ingress'));
  });
});

describe('HostedClusterIam with a shared VPC', () => {
  const OWNER = '210987654321';
  const app = new App();
  const clusterStack = newStack(ENV, app, 'Cluster');
  const ownerStack = newStack({ account: OWNER, region: 'us-east-1' }, app, 'VpcOwner');
  const iam = new HostedClusterIam(clusterStack, 'iam', { ...PROPS, sharedVpc: { vpcOwnerAccountId: OWNER }, tags: { team: 'platform' } });
  const ownerRoles = iam.createVpcOwnerRoles(ownerStack, 'demo-shared-vpc');
  const template = Template.fromStack(clusterStack);
  const owner = Template.fromStack(ownerStack);
  const ingressArn = roleArn('demo-x7k2p-openshift-ingress');
  const cpoArn = roleArn('demo-x7k2p-control-plane-operator');

  test('limits the ingress role to the public zone and lets it assume roles', () => {
    const policies = inlinePolicies(roleNamed(template, 'demo-x7k2p-openshift-ingress'));
    expect(Object.keys(policies)).toEqual(['demo-x7k2p-openshift-ingress', 'demo-x7k2p-openshift-ingress-assume']);
    expect(iamMeaning(policies['demo-x7k2p-openshift-ingress'])).toEqual(iamMeaning(UPSTREAM.ingressSharedVpc('hostedzone/Z0PUBLIC')));
    expect(iamMeaning(policies['demo-x7k2p-openshift-ingress-assume'])).toEqual(iamMeaning(UPSTREAM.allowAssumeRole));
  });

  test('takes Route 53 and VPC-endpoint rights from the control-plane operator and lets it assume roles', () => {
    const policies = inlinePolicies(roleNamed(template, 'demo-x7k2p-control-plane-operator'));
    expect(Object.keys(policies)).toEqual(['demo-x7k2p-control-plane-operator', 'demo-x7k2p-control-plane-operator-assume']);
    expect(iamMeaning(policies['demo-x7k2p-control-plane-operator'])).toEqual(iamMeaning(UPSTREAM.controlPlaneOperatorSharedVpc));
    expect(iamMeaning(policies['demo-x7k2p-control-plane-operator-assume'])).toEqual(iamMeaning(UPSTREAM.allowAssumeRole));
  });

  test('leaves the other roles as they are', () => {
    expect(Object.keys(inlinePolicies(roleNamed(template, 'demo-x7k2p-node-pool')))).toEqual(['demo-x7k2p-node-pool']);
    template.resourceCountIs('AWS::IAM::Role', 8);
  });

  test("exposes the shared-VPC roles' ARNs in the VPC owner's account", () => {
    expect(iam.sharedVpcRoles).toEqual({
      ingressArn: 'arn:aws:iam::210987654321:role/demo-x7k2p-shared-vpc-route53',
      controlPlaneArn: 'arn:aws:iam::210987654321:role/demo-x7k2p-shared-vpc-endpoint',
    });
  });

  test("creates the Route 53 role in the owner's stack, trusted by the ingress and control-plane-operator roles", () => {
    const role = roleNamed(owner, 'demo-x7k2p-shared-vpc-route53');
    expect(iamMeaning(role.Properties.AssumeRolePolicyDocument)).toEqual(iamMeaning(UPSTREAM.sharedVpcTrust(ingressArn, cpoArn)));
    expect(Object.keys(inlinePolicies(role))).toEqual(['demo-x7k2p-shared-vpc-route53']);
    expect(iamMeaning(inlinePolicies(role)['demo-x7k2p-shared-vpc-route53'])).toEqual(iamMeaning(UPSTREAM.sharedVpcRoute53));
  });

  test("creates the VPC-endpoint role in the owner's stack, trusted by the control-plane-operator role", () => {
    const role = roleNamed(owner, 'demo-x7k2p-shared-vpc-endpoint');
    expect(iamMeaning(role.Properties.AssumeRolePolicyDocument)).toEqual(iamMeaning(UPSTREAM.sharedVpcTrust(cpoArn)));
    expect(iamMeaning(inlinePolicies(role)['demo-x7k2p-shared-vpc-endpoint'])).toEqual(iamMeaning(UPSTREAM.sharedVpcEndpoint));
    expect(ownerRoles.endpointRole).toBeDefined();
    expect(ownerRoles.route53Role).toBeDefined();
  });

  test("tags the owner's roles and orders the owner's stack after the cluster's", () => {
    for (const role of Object.values(owner.findResources('AWS::IAM::Role'))) {
      expect(role.Properties.Tags).toEqual([
        { Key: 'hypershift.openshift.io/infra-id', Value: 'demo-x7k2p' },
        { Key: 'team', Value: 'platform' },
      ]);
    }
    owner.resourceCountIs('AWS::IAM::Role', 2);
    expect(ownerStack.dependencies).toEqual([clusterStack]);
  });
});

describe('HostedClusterIam with a shared VPC and the private zones in the cluster account', () => {
  const OWNER = '210987654321';
  const app = new App();
  const clusterStack = newStack(ENV, app, 'Cluster');
  const ownerStack = newStack({ account: OWNER, region: 'us-east-1' }, app, 'VpcOwner');
  const iam = new HostedClusterIam(clusterStack, 'iam', { ...PROPS, sharedVpc: { vpcOwnerAccountId: OWNER, privateZonesInClusterAccount: true } });
  const ownerRoles = iam.createVpcOwnerRoles(ownerStack, 'demo-shared-vpc');
  const template = Template.fromStack(clusterStack);
  const owner = Template.fromStack(ownerStack);

  test("creates the Route 53 role in the cluster's stack, after the roles it trusts", () => {
    const role = roleNamed(template, 'demo-x7k2p-shared-vpc-route53');
    expect(role.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
      AWS: [roleArn('demo-x7k2p-openshift-ingress'), roleArn('demo-x7k2p-control-plane-operator')],
    });
    const ids = ['demo-x7k2p-openshift-ingress', 'demo-x7k2p-control-plane-operator'].map((name) => resourceOf(template, 'AWS::IAM::Role', { RoleName: name }).logicalId);
    expect([...role.DependsOn].sort()).toEqual(ids.sort());
    expect(iam.sharedVpcRoles?.ingressArn).toBe('arn:aws:iam::123456789012:role/demo-x7k2p-shared-vpc-route53');
    expect(iam.sharedVpcRoute53Role).toBeDefined();
  });

  test("leaves only the VPC-endpoint role to the owner's stack", () => {
    owner.resourceCountIs('AWS::IAM::Role', 1);
    roleNamed(owner, 'demo-x7k2p-shared-vpc-endpoint');
    expect(ownerRoles.route53Role).toBeUndefined();
    expect(iam.sharedVpcRoles?.controlPlaneArn).toBe('arn:aws:iam::210987654321:role/demo-x7k2p-shared-vpc-endpoint');
  });
});

describe('the hand-written upstream documents', () => {
  // Guards the expectations above against transcription slips: they must mean what the reference's
  // verbatim blocks mean (reference §4.3-4.5, `Verbatim from cmd/infra/aws/iam.go lines A-B`).
  const reference = fs.readFileSync(path.join(SHARED, 'reference', 'hypershift-reference.md'), 'utf8');
  const block = (lines: string, ...args: string[]): any => {
    const at = reference.search(new RegExp(`Verbatim from \`cmd/infra/aws/iam\\.go\` lines ${lines}\\D`));
    if (at < 0) throw new Error(`no verbatim block for lines ${lines}`);
    const start = reference.indexOf('```json\n', at) + '```json\n'.length;
    let text = reference.slice(start, reference.indexOf('\n```', start));
    for (const arg of args) text = text.replace(/%[sq]/, arg);
    return JSON.parse(text);
  };

  test.each([
    ['ingress', '632-655', UPSTREAM.ingress('hostedzone/A', 'hostedzone/B'), ['hostedzone/A', 'hostedzone/B']],
    ['ingress, shared VPC', '608-630', UPSTREAM.ingressSharedVpc('hostedzone/A'), ['hostedzone/A']],
    ['image registry', '64-92', UPSTREAM.imageRegistry, []],
    ['EBS CSI driver', '99-154', UPSTREAM.ebsCsi, []],
    ['cloud controller', '161-233', UPSTREAM.cloudController, []],
    ['node pool', '463-571', UPSTREAM.nodePool, []],
    ['control-plane operator', '694-727', UPSTREAM.controlPlaneOperator('hostedzone/L'), ['hostedzone/L']],
    ['control-plane operator, shared VPC', '671-692', UPSTREAM.controlPlaneOperatorSharedVpc, []],
    ['cloud network config controller', '578-597', UPSTREAM.cloudNetworkConfigController, []],
    ['kms provider', '806-821', UPSTREAM.kmsProvider('arn:k'), ['"arn:k"']],
    ['worker trust', '1152-1164', UPSTREAM.workerTrust, []],
    ['worker', '1165-1177', UPSTREAM.worker, []],
    ['allow assume role', '46-55', UPSTREAM.allowAssumeRole, []],
    ['shared-vpc-route53', '739-761', UPSTREAM.sharedVpcRoute53, []],
    ['shared-vpc-endpoint', '770-794', UPSTREAM.sharedVpcEndpoint, []],
    ['shared-vpc trust', '1511-1523', UPSTREAM.sharedVpcTrust('arn:a', 'arn:b'), ['[ "arn:a", "arn:b" ]']],
  ])('%s is the reference document', (_name, lines, document, args) => {
    expect(document).toEqual(block(lines, ...(args as string[])));
  });
});

describe('HostedClusterIam checks', () => {
  const fails = (props: Partial<HostedClusterIamProps>, stack?: Stack) => problemsOf(() => build(props, stack));

  test('accepts a 32-character infra ID, whose longest role name is exactly 64 characters', () => {
    const infraId = 'a'.repeat(32);
    expect(fails({ infraId, issuerUrl: `https://b.s3.us-east-1.amazonaws.com/${infraId}` })).toEqual([]);
    expect(`${infraId}-cloud-network-config-controller`).toHaveLength(64);
  });

  test('fails when the infra ID is longer than 32 characters', () => {
    const infraId = 'a'.repeat(33);
    expect(fails({ infraId, issuerUrl: `https://b.s3.us-east-1.amazonaws.com/${infraId}` })).toEqual([
      `Stack/iam: infraId ("${infraId}") must be at most 32 characters (it has 33) so that the longest role name, <infraId>-cloud-network-config-controller, fits IAM's 64-character limit`,
    ]);
  });

  test.each(['Demo-X7K2P', 'demo_x7k2p', '-demo', 'demo-', 'demo.x7k2p'])('fails when the infra ID is %j', (infraId) => {
    expect(fails({ infraId, issuerUrl: `https://b.s3.us-east-1.amazonaws.com/${infraId}` })).toEqual([
      `Stack/iam: infraId (${JSON.stringify(infraId)}) must be lowercase alphanumerics and '-', starting and ending with an alphanumeric`,
    ]);
  });

  test('fails when the infra ID is empty', () => {
    expect(fails({ infraId: '', issuerUrl: 'https://b.s3.us-east-1.amazonaws.com/x' })).toEqual([
      'Stack/iam: infraId ("") must be lowercase alphanumerics and \'-\', starting and ending with an alphanumeric',
      'Stack/iam: issuerUrl ("https://b.s3.us-east-1.amazonaws.com/x") must end with /<infraId> (/): the cluster\'s tokens are issued there',
    ]);
  });

  test('fails when the infra ID is a token', () => {
    const stack = newStack();
    const infraId = Token.asString({ Ref: 'InfraId' });
    expect(fails({ infraId }, stack)).toEqual([`Stack/iam: infraId (${JSON.stringify(infraId)}) must be a concrete string: it names every IAM resource`]);
  });

  test.each([
    'http://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p',
    'hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p',
    'https:///demo-x7k2p',
    'https://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p?x=/demo-x7k2p',
  ])('fails when the issuer URL is %j', (issuerUrl) => {
    expect(fails({ issuerUrl })).toEqual([`Stack/iam: issuerUrl (${JSON.stringify(issuerUrl)}) must be an https:// URL with a path, such as https://<bucket>.s3.<region>.amazonaws.com/<infraId>`]);
  });

  test.each(['https://hcp-oidc.s3.us-east-1.amazonaws.com/other', 'https://hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p/', 'https://hcp-oidc.s3.us-east-1.amazonaws.com/xdemo-x7k2p'])(
    'fails when the issuer URL %j does not end with /<infraId>',
    (issuerUrl) => {
      expect(fails({ issuerUrl })).toEqual([`Stack/iam: issuerUrl (${JSON.stringify(issuerUrl)}) must end with /<infraId> (/demo-x7k2p): the cluster's tokens are issued there`]);
    },
  );

  test('fails when the issuer URL is a token', () => {
    const issuerUrl = Token.asString({ Ref: 'Issuer' });
    expect(fails({ issuerUrl })).toEqual([`Stack/iam: issuerUrl (${JSON.stringify(issuerUrl)}) must be a concrete string: its host and path go into every trust policy`]);
  });

  test.each([
    ['publicZoneId', 'z0public'],
    ['privateZoneId', '/hostedzone/Z0PRIVATE'],
    ['localZoneId', ''],
  ] as const)('fails when %s is %j', (field, value) => {
    expect(fails({ [field]: value })).toEqual([`Stack/iam: ${field} (${JSON.stringify(value)}) must be a Route 53 hosted zone ID such as Z0123456789ABCDEFGHIJ, optionally prefixed hostedzone/`]);
  });

  test('fails when the KMS key ARN does not start with arn:', () => {
    expect(fails({ kmsKeyArn: 'alias/etcd' })).toEqual(['Stack/iam: kmsKeyArn ("alias/etcd") must be a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<id>)']);
  });

  test.each(['21098765432', 'owner'])('fails when the VPC owner account is %j', (vpcOwnerAccountId) => {
    expect(fails({ sharedVpc: { vpcOwnerAccountId } })).toEqual([`Stack/iam: sharedVpc.vpcOwnerAccountId (${JSON.stringify(vpcOwnerAccountId)}) must be a 12-digit AWS account ID`]);
  });

  test('fails when the tags set another infra ID', () => {
    expect(fails({ tags: { 'hypershift.openshift.io/infra-id': 'other' } })).toEqual([
      'Stack/iam: tags["hypershift.openshift.io/infra-id"] ("other") must be omitted or equal infraId ("demo-x7k2p"): hcp-cdk sets it',
    ]);
    expect(fails({ tags: { 'hypershift.openshift.io/infra-id': 'demo-x7k2p' } })).toEqual([]);
  });

  test("fails when the stack's account is an unresolved token", () => {
    expect(fails({}, new Stack(new App(), 'Stack'))).toEqual([
      "Stack/iam: the stack's account (an unresolved token) must be a concrete account ID: role ARNs go into the HostedCluster at synth; give the stack env { account, region }",
    ]);
  });

  test("fails when the stack's region, and so the partition, is an unresolved token", () => {
    expect(fails({}, newStack({ account: '123456789012' }))).toEqual([
      "Stack/iam: the stack's region (an unresolved token) must be a concrete region: it gives the partition of the role ARNs that go into the HostedCluster at synth; give the stack env { account, region }",
    ]);
  });

  test('reports every problem at once and creates nothing', () => {
    const stack = new Stack(new App(), 'Stack');
    const error = (() => {
      try {
        new HostedClusterIam(stack, 'iam', { ...PROPS, infraId: 'Demo', issuerUrl: 'http://x/demo', localZoneId: 'bad', kmsKeyArn: 'key' });
      } catch (e) {
        return e as Error;
      }
      throw new Error('no error');
    })();
    expect(error.name).toBe('HcpValidationError');
    expect(error.message).toBe(
      [
        '6 problems:',
        'Stack/iam: infraId ("Demo") must be lowercase alphanumerics and \'-\', starting and ending with an alphanumeric',
        'Stack/iam: issuerUrl ("http://x/demo") must be an https:// URL with a path, such as https://<bucket>.s3.<region>.amazonaws.com/<infraId>',
        'Stack/iam: issuerUrl ("http://x/demo") must end with /<infraId> (/Demo): the cluster\'s tokens are issued there',
        'Stack/iam: localZoneId ("bad") must be a Route 53 hosted zone ID such as Z0123456789ABCDEFGHIJ, optionally prefixed hostedzone/',
        'Stack/iam: kmsKeyArn ("key") must be a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<id>)',
        "Stack/iam: the stack's account (an unresolved token) must be a concrete account ID: role ARNs go into the HostedCluster at synth; give the stack env { account, region }",
      ].join('\n  - '),
    );
    expect(stack.node.findChild('iam').node.children).toEqual([]);
  });

  test('fails when VPC-owner roles are asked of a cluster without a shared VPC', () => {
    const app = new App();
    const { iam } = build({}, newStack(ENV, app));
    const owner = newStack({ account: '210987654321', region: 'us-east-1' }, app, 'Owner');
    expect(problemsOf(() => iam.createVpcOwnerRoles(owner, 'shared'))).toEqual(['Owner/shared: createVpcOwnerRoles() needs a shared VPC, but Stack/iam has no sharedVpc']);
  });

  test("fails when VPC-owner roles go to a stack of another account than the VPC owner's", () => {
    const app = new App();
    const { iam } = build({ sharedVpc: { vpcOwnerAccountId: '210987654321' } }, newStack(ENV, app));
    expect(problemsOf(() => iam.createVpcOwnerRoles(newStack(ENV, app, 'Owner'), 'shared'))).toEqual([
      'Owner/shared: the stack\'s account ("123456789012") must be the VPC owner\'s account "210987654321" given as Stack/iam sharedVpc.vpcOwnerAccountId',
    ]);
    expect(problemsOf(() => iam.createVpcOwnerRoles(new Stack(app, 'Agnostic'), 'shared'))).toEqual([
      'Agnostic/shared: the stack\'s account (an unresolved token) must be the VPC owner\'s account "210987654321" given as Stack/iam sharedVpc.vpcOwnerAccountId',
    ]);
  });
});
