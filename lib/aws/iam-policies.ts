import * as iam from 'aws-cdk-lib/aws-iam';

// The permission documents of `hypershift create iam aws` (cmd/infra/aws/iam.go), as data. Action
// lists keep upstream's order; IAM treats a repeated action as one, so the duplicate
// `elasticloadbalancing:AddTags` of the cloud-controller policy renders once.

/** Where a document's Route 53 zones live, for the policies that name hosted zones. */
export interface HostedZonePolicyOptions {
  /**
   * The AWS partition of the Route 53 ARNs.
   * @default 'aws' (upstream writes `arn:aws:route53:::` whatever the partition)
   */
  readonly partition?: string;
  /**
   * The VPC (and its private zones) belongs to another account (upstream `--vpc-owner-aws-creds`).
   * @default false
   */
  readonly sharedVpc?: boolean;
}

export interface IngressPolicyOptions extends HostedZonePolicyOptions {
  /** The public zone ID, with or without the `hostedzone/` prefix; may be a token. */
  readonly publicZoneId: string;
  /** The private zone ID; not used with a shared VPC, where the zone is the VPC owner's. */
  readonly privateZoneId: string;
}

export interface ControlPlaneOperatorPolicyOptions extends HostedZonePolicyOptions {
  /** The `<name>.hypershift.local` zone ID; not used with a shared VPC. */
  readonly localZoneId: string;
}

/** Parameters of every component policy of one hosted cluster. */
export interface ComponentPolicyOptions extends IngressPolicyOptions, ControlPlaneOperatorPolicyOptions {
  /** @default - no kms-provider policy */
  readonly kmsKeyArn?: string;
}

const HOSTED_ZONE_PREFIX = 'hostedzone/';

/**
 * `hostedzone/<id>`, as upstream's `ensureHostedZonePrefix`: a zone ID given with the prefix keeps it.
 * A token (say `zone.hostedZoneId`, which resolves to the bare ID) always gets the prefix.
 */
export function ensureHostedZonePrefix(zoneId: string): string {
  return zoneId.startsWith(HOSTED_ZONE_PREFIX) ? zoneId : `${HOSTED_ZONE_PREFIX}${zoneId}`;
}

/** `arn:<partition>:route53:::hostedzone/<id>`. */
export function hostedZoneArn(zoneId: string, partition = 'aws'): string {
  return `arn:${partition}:route53:::${ensureHostedZonePrefix(zoneId)}`;
}

function allow(actions: readonly string[], resources: readonly string[] = ['*'], conditions?: Record<string, unknown>): iam.PolicyStatement {
  return new iam.PolicyStatement({ effect: iam.Effect.ALLOW, actions: [...actions], resources: [...resources], conditions });
}

// minimize: false, so that apps with @aws-cdk/aws-iam:minimizePolicies still get upstream's statements.
function document(...statements: iam.PolicyStatement[]): iam.PolicyDocument {
  return new iam.PolicyDocument({ statements, minimize: false });
}

const GRANT_IS_FOR_AWS_RESOURCE = { Bool: { 'kms:GrantIsForAWSResource': true } };

/** openshift-ingress (`ingressPermPolicy`): DNS records for the ingress load balancers. */
export function ingressPolicy(options: IngressPolicyOptions): iam.PolicyDocument {
  const zones = options.sharedVpc ? [options.publicZoneId] : [options.publicZoneId, options.privateZoneId];
  return document(
    allow(['elasticloadbalancing:DescribeLoadBalancers', 'tag:GetResources', 'route53:ListHostedZones']),
    allow(
      ['route53:ChangeResourceRecordSets'],
      zones.map((zone) => hostedZoneArn(zone, options.partition)),
    ),
  );
}

/** openshift-image-registry (`imageRegistryPermPolicy`): the registry's S3 bucket. */
export function imageRegistryPolicy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
  );
}

/** aws-ebs-csi-driver-controller (`awsEBSCSIPermPolicy`): EBS volumes and their KMS keys. */
export function ebsCsiDriverPolicy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
    allow(['kms:Decrypt', 'kms:Encrypt', 'kms:GenerateDataKey', 'kms:GenerateDataKeyWithoutPlainText', 'kms:DescribeKey']),
    allow(['kms:RevokeGrant', 'kms:CreateGrant', 'kms:ListGrants'], ['*'], GRANT_IS_FOR_AWS_RESOURCE),
  );
}

/** cloud-controller (`kubeControllerPolicy`): the cloud controller manager's load balancers and routes. */
export function cloudControllerPolicy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
  );
}

/** node-pool (`nodePoolPolicy`): CAPA's instances, launch templates and networking. */
export function nodePoolManagementPolicy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
    allow(['iam:CreateServiceLinkedRole'], ['arn:*:iam::*:role/aws-service-role/elasticloadbalancing.amazonaws.com/AWSServiceRoleForElasticLoadBalancing'], {
      StringLike: { 'iam:AWSServiceName': 'elasticloadbalancing.amazonaws.com' },
    }),
    allow(['iam:PassRole'], ['arn:*:iam::*:role/*-worker-role']),
    allow(['kms:Decrypt', 'kms:ReEncrypt', 'kms:GenerateDataKeyWithoutPlainText', 'kms:DescribeKey']),
    allow(['kms:CreateGrant'], ['*'], GRANT_IS_FOR_AWS_RESOURCE),
  );
}

/** control-plane-operator (`controlPlaneOperatorPolicy`): the API's VPC endpoint and the local zone's records. */
export function controlPlaneOperatorPolicy(options: ControlPlaneOperatorPolicyOptions): iam.PolicyDocument {
  if (options.sharedVpc) {
    // The endpoint and the zone are the VPC owner's; the operator assumes the shared-vpc roles for them.
    return document(
      allow([
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
      ]),
    );
  }
  return document(
    allow([
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
    ]),
    allow(['route53:ChangeResourceRecordSets', 'route53:ListResourceRecordSets'], [hostedZoneArn(options.localZoneId, options.partition)]),
  );
}

/** cloud-network-config-controller (`cloudNetworkConfigControllerPolicy`): egress IPs on node interfaces. */
export function cloudNetworkConfigControllerPolicy(): iam.PolicyDocument {
  return document(
    allow([
      'ec2:DescribeInstances',
      'ec2:DescribeInstanceStatus',
      'ec2:DescribeInstanceTypes',
      'ec2:UnassignPrivateIpAddresses',
      'ec2:AssignPrivateIpAddresses',
      'ec2:UnassignIpv6Addresses',
      'ec2:AssignIpv6Addresses',
      'ec2:DescribeSubnets',
      'ec2:DescribeNetworkInterfaces',
    ]),
  );
}

/** kms-provider (`kmsProviderPolicy`): etcd encryption with the one given key. */
export function kmsProviderPolicy(kmsKeyArn: string): iam.PolicyDocument {
  return document(allow(['kms:Encrypt', 'kms:Decrypt', 'kms:ReEncrypt*', 'kms:GenerateDataKey*', 'kms:DescribeKey'], [kmsKeyArn]));
}

/** The inline policy of the worker role, `<infraId>-worker-policy` (`workerPolicy`). */
export function workerPolicy(): iam.PolicyDocument {
  return document(allow(['ec2:DescribeInstances', 'ec2:DescribeRegions']));
}

/** Shared VPC: the extra `<role>-assume` policy of the ingress and control-plane-operator roles (`allowAssumeRolePolicy`). */
export function allowAssumeRolePolicy(): iam.PolicyDocument {
  return document(allow(['sts:AssumeRole']));
}

/** Shared VPC: `<infraId>-shared-vpc-route53`, the private zones' records (`sharedVPCRoute53Role`). */
export function sharedVpcRoute53Policy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
  );
}

/** Shared VPC: `<infraId>-shared-vpc-endpoint`, the API's VPC endpoint in the owner's VPC (`sharedVPCEndpointRole`). */
export function sharedVpcEndpointPolicy(): iam.PolicyDocument {
  return document(
    allow([
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
    ]),
  );
}

/**
 * The permission document of a component role by binding name (see `AWS_CLUSTER_COMPONENT_ROLES`
 * and `AWS_KMS_PROVIDER_ROLE`).
 */
export function componentRolePolicy(bindingName: string, options: ComponentPolicyOptions): iam.PolicyDocument {
  switch (bindingName) {
    case 'openshift-ingress':
      return ingressPolicy(options);
    case 'openshift-image-registry':
      return imageRegistryPolicy();
    case 'aws-ebs-csi-driver-controller':
      return ebsCsiDriverPolicy();
    case 'cloud-controller':
      return cloudControllerPolicy();
    case 'node-pool':
      return nodePoolManagementPolicy();
    case 'control-plane-operator':
      return controlPlaneOperatorPolicy(options);
    case 'cloud-network-config-controller':
      return cloudNetworkConfigControllerPolicy();
    case 'kms-provider':
      if (options.kmsKeyArn === undefined) throw new Error('componentRolePolicy: the kms-provider policy needs kmsKeyArn');
      return kmsProviderPolicy(options.kmsKeyArn);
    default:
      throw new Error(`componentRolePolicy: unknown binding ${JSON.stringify(bindingName)}`);
  }
}
