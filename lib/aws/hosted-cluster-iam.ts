import { Stack, Tags, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { RegionInfo } from 'aws-cdk-lib/region-info';
import { Construct } from 'constructs';
import { Problems } from '../core/problems';
import type { AwsClusterRoles } from '../platform/aws-infra';
import {
  AWS_CLUSTER_COMPONENT_ROLES,
  AWS_KMS_PROVIDER_ROLE,
  AwsComponentRole,
  IAM_ROLE_NAME_MAX_LENGTH,
  SHARED_VPC_ASSUMING_ROLES,
  SHARED_VPC_ENDPOINT_ROLE_SUFFIX,
  SHARED_VPC_ROUTE53_ROLE_SUFFIX,
  WORKER_INSTANCE_PROFILE_SUFFIX,
  WORKER_ROLE_SUFFIX,
  allRoleSuffixes,
} from './component-roles';
import { ComponentPolicyOptions, allowAssumeRolePolicy, componentRolePolicy, sharedVpcEndpointPolicy, sharedVpcRoute53Policy, workerPolicy } from './iam-policies';

/** The tag upstream puts on every IAM resource of a cluster (`support/awsutil/tags.go`). */
const INFRA_ID_TAG = 'hypershift.openshift.io/infra-id';
/** The client IDs (audiences) of the cluster's OIDC provider. */
export const OIDC_CLIENT_IDS: readonly string[] = ['openshift', 'sts.amazonaws.com'];
/** The S3 root CA (DigiCert) thumbprint: AWS ignores it for S3-hosted issuers, but the provider needs one. */
export const OIDC_S3_THUMBPRINT = 'A9D53002E97E00E043244F3D170D6F4C414104FD';

/** A VPC shared from another account (upstream `--vpc-owner-aws-creds`). */
export interface HostedClusterIamSharedVpc {
  /** The 12-digit ID of the account that owns the VPC, its endpoint service and (by default) the private zones. */
  readonly vpcOwnerAccountId: string;
  /**
   * The private hosted zones are in the cluster's account, so the `<infraId>-shared-vpc-route53` role is
   * created here rather than in the VPC owner's account (upstream `--private-zones-in-cluster-account`).
   * @default false
   */
  readonly privateZonesInClusterAccount?: boolean;
}

/** The roles the HostedCluster's `spec.platform.aws.sharedVPC.rolesRef` names. */
export interface AwsSharedVpcRoles {
  /** `<infraId>-shared-vpc-route53`: the ingress operator and control-plane operator manage private records with it. */
  readonly ingressArn: string;
  /** `<infraId>-shared-vpc-endpoint`: the control-plane operator manages the API's VPC endpoint with it. */
  readonly controlPlaneArn: string;
}

/** The roles `createVpcOwnerRoles` adds to the VPC owner's stack. */
export interface HostedClusterVpcOwnerRoles {
  /** @default - none when the private zones are in the cluster's account (the role is `sharedVpcRoute53Role` then) */
  readonly route53Role?: iam.Role;
  /** The role the cluster's VPC endpoint controller assumes in the VPC owner's account. */
  readonly endpointRole: iam.Role;
}

/** Props of HostedClusterIam. */
export interface HostedClusterIamProps {
  /** The cluster's infrastructure ID, the prefix of every IAM name (upstream `--infra-id`). */
  readonly infraId: string;
  /**
   * The OIDC issuer of the cluster's service-account tokens, `https://<bucket>.s3.<region>.amazonaws.com/<infraId>`,
   * served from the management cluster's OIDC bucket. A concrete string: its host and path go into every trust policy.
   */
  readonly issuerUrl: string;
  /** The public hosted zone of the base domain, with or without `hostedzone/`; may be a token. */
  readonly publicZoneId: string;
  /** The cluster's private hosted zone; may be a token. */
  readonly privateZoneId: string;
  /** The cluster's `<name>.hypershift.local` zone; may be a token. */
  readonly localZoneId: string;
  /**
   * A KMS key ARN for etcd encryption: also creates the `<infraId>-kms-provider` role, limited to this key.
   * @default - no kms-provider role; etcd is encrypted with AES-CBC
   */
  readonly kmsKeyArn?: string;
  /**
   * The VPC is shared from another account: the ingress and control-plane-operator roles lose their
   * Route 53 and VPC-endpoint rights and may assume the shared-VPC roles instead, whose ARNs are
   * `sharedVpcRoles`. Create the roles of the VPC owner's account with `createVpcOwnerRoles()`.
   * @default - the VPC is in the cluster's account
   */
  readonly sharedVpc?: HostedClusterIamSharedVpc;
  /**
   * Tags for every IAM resource, besides `hypershift.openshift.io/infra-id=<infraId>` (upstream `--additional-tags`).
   * @default - only the infra-id tag
   */
  readonly tags?: Readonly<Record<string, string>>;
}

const INFRA_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const ZONE_ID = /^(hostedzone\/)?[A-Z0-9]+$/;
const ACCOUNT_ID = /^\d{12}$/;

/**
 * The IAM side of one hosted cluster on AWS, as `hypershift create iam aws` creates it: the OIDC
 * provider for the cluster's issuer, one role per control-plane component trusted by its service
 * accounts through that provider, and the worker instance profile. Role names are deterministic, so
 * their ARNs are known at synth and can go straight into the HostedCluster.
 */
export class HostedClusterIam extends Construct {
  /** The infrastructure ID every name starts with. */
  public readonly infraId: string;
  /** The OIDC issuer, for the HostedCluster's `issuerURL`. */
  public readonly issuerUrl: string;
  /** The seven `rolesRef` ARNs. */
  public readonly roles: AwsClusterRoles;
  /** The kms-provider role's ARN, for `secretEncryption.kms.aws.auth.awsKms`. @default - no KMS key given */
  public readonly kmsProviderRoleArn?: string;
  /** `<infraId>-worker`, the NodePools' `instanceProfile`. */
  public readonly instanceProfileName: string;
  /** `arn:<partition>:iam::<account>:oidc-provider/<issuer host and path>`. */
  public readonly oidcProviderArn: string;
  /** The shared-VPC roles' ARNs, for `spec.platform.aws.sharedVPC.rolesRef`. @default - no shared VPC */
  public readonly sharedVpcRoles?: AwsSharedVpcRoles;

  /** The native `AWS::IAM::OIDCProvider` (no custom resource). */
  public readonly oidcProvider: iam.CfnOIDCProvider;
  /** The component roles by their `rolesRef` field. */
  public readonly componentRoles: Readonly<Record<keyof AwsClusterRoles, iam.Role>>;
  /** @default - no KMS key given */
  public readonly kmsProviderRole?: iam.Role;
  /** `<infraId>-worker-role`, assumed by the worker instances. */
  public readonly workerRole: iam.Role;
  /** `<infraId>-worker`, holding the worker role. */
  public readonly instanceProfile: iam.CfnInstanceProfile;
  /** @default - none unless the shared VPC's private zones are in the cluster's account */
  public readonly sharedVpcRoute53Role?: iam.Role;

  private readonly partition: string;
  private readonly vpcOwnerAccountId?: string;
  private readonly tags: Readonly<Record<string, string>>;

  constructor(scope: Construct, id: string, props: HostedClusterIamProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const problems = new Problems(this);
    validate(problems, props);
    let partition = stack.partition;
    if (Token.isUnresolved(stack.account)) {
      problems.add("the stack's account (an unresolved token) must be a concrete account ID: role ARNs go into the HostedCluster at synth; give the stack env { account, region }");
    } else if (Token.isUnresolved(partition)) {
      // Without @aws-cdk/core:enablePartitionLiterals the partition is a token; a concrete region tells it.
      partition = Token.isUnresolved(stack.region) ? partition : (RegionInfo.get(stack.region).partition ?? partition);
      if (Token.isUnresolved(partition)) {
        problems.add(
          "the stack's region (an unresolved token) must be a concrete region: it gives the partition of the role ARNs that go into the HostedCluster at synth; give the stack env { account, region }",
        );
      }
    }
    problems.throwIfAny();

    this.partition = partition;
    this.infraId = props.infraId;
    this.issuerUrl = props.issuerUrl;
    this.tags = props.tags ?? {};
    this.vpcOwnerAccountId = props.sharedVpc?.vpcOwnerAccountId;
    const providerName = props.issuerUrl.replace(/^https:\/\//, '');
    this.oidcProviderArn = `arn:${partition}:iam::${stack.account}:oidc-provider/${providerName}`;
    this.instanceProfileName = `${props.infraId}-${WORKER_INSTANCE_PROFILE_SUFFIX}`;

    this.oidcProvider = new iam.CfnOIDCProvider(this, 'OidcProvider', {
      url: props.issuerUrl,
      clientIdList: [...OIDC_CLIENT_IDS],
      thumbprintList: [OIDC_S3_THUMBPRINT],
    });

    const sharedVpc = props.sharedVpc !== undefined;
    const policyOptions: ComponentPolicyOptions = {
      partition,
      sharedVpc,
      publicZoneId: props.publicZoneId,
      privateZoneId: props.privateZoneId,
      localZoneId: props.localZoneId,
      kmsKeyArn: props.kmsKeyArn,
    };
    const componentRole = (binding: AwsComponentRole): iam.Role => {
      const roleName = this.roleName(binding.name);
      const inlinePolicies: Record<string, iam.PolicyDocument> = { [roleName]: componentRolePolicy(binding.name, policyOptions) };
      if (sharedVpc && SHARED_VPC_ASSUMING_ROLES.includes(binding.name)) inlinePolicies[`${roleName}-assume`] = allowAssumeRolePolicy();
      const serviceAccounts = binding.serviceAccounts.length === 1 ? binding.serviceAccounts[0] : [...binding.serviceAccounts];
      const role = new iam.Role(this, binding.name, {
        roleName,
        assumedBy: new iam.WebIdentityPrincipal(this.oidcProviderArn, { StringEquals: { [`${providerName}:sub`]: serviceAccounts } }),
        inlinePolicies,
      });
      // IAM rejects a trust policy whose federated principal does not exist yet.
      role.node.addDependency(this.oidcProvider);
      return role;
    };

    const roles: Partial<Record<keyof AwsClusterRoles, iam.Role>> = {};
    const arns: Partial<Record<keyof AwsClusterRoles, string>> = {};
    for (const binding of AWS_CLUSTER_COMPONENT_ROLES) {
      roles[binding.rolesRefField] = componentRole(binding);
      arns[binding.rolesRefField] = this.roleArn(binding.name);
    }
    this.componentRoles = roles as Record<keyof AwsClusterRoles, iam.Role>;
    this.roles = arns as AwsClusterRoles;
    if (props.kmsKeyArn !== undefined) {
      this.kmsProviderRole = componentRole(AWS_KMS_PROVIDER_ROLE);
      this.kmsProviderRoleArn = this.roleArn(AWS_KMS_PROVIDER_ROLE.name);
    }

    const workerRoleName = this.roleName(WORKER_ROLE_SUFFIX);
    this.workerRole = new iam.Role(this, 'WorkerRole', {
      roleName: workerRoleName,
      path: '/',
      assumedBy: new iam.ServicePrincipal('ec2.amazonaws.com'),
      inlinePolicies: { [`${this.instanceProfileName}-policy`]: workerPolicy() },
    });
    this.instanceProfile = new iam.CfnInstanceProfile(this, 'WorkerInstanceProfile', {
      instanceProfileName: this.instanceProfileName,
      path: '/',
      roles: [this.workerRole.roleName],
    });

    if (props.sharedVpc) {
      const route53Account = props.sharedVpc.privateZonesInClusterAccount ? stack.account : props.sharedVpc.vpcOwnerAccountId;
      this.sharedVpcRoles = {
        ingressArn: this.roleArn(SHARED_VPC_ROUTE53_ROLE_SUFFIX, route53Account),
        controlPlaneArn: this.roleArn(SHARED_VPC_ENDPOINT_ROLE_SUFFIX, props.sharedVpc.vpcOwnerAccountId),
      };
      if (props.sharedVpc.privateZonesInClusterAccount) {
        this.sharedVpcRoute53Role = this.sharedVpcRoute53(this);
      }
    }

    Tags.of(this).add(INFRA_ID_TAG, props.infraId);
    for (const [key, value] of Object.entries(this.tags)) Tags.of(this).add(key, value);
    this.acknowledgeUpstreamPolicies();
  }

  /**
   * The security review (cdk-nag AwsSolutions) flags wildcards that are HyperShift's own policies;
   * each acknowledgment says why the policy cannot be narrower.
   */
  private acknowledgeUpstreamPolicies(): void {
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        "HyperShift's component policies (create iam aws) as upstream: the EC2, ELB, Route 53 listing, tag and " +
        'KMS-grant actions on * either support no resource-level permissions (Describe*, List*, tag:GetResources) or act on ' +
        'instances, volumes, load balancers and security groups the cluster creates at run time; KMS grants are limited ' +
        'by kms:GrantIsForAWSResource.',
    });
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:*:iam::*:role/aws-service-role/elasticloadbalancing.amazonaws.com/AWSServiceRoleForElasticLoadBalancing]',
      reason: 'The cloud controller may create the ELB service-linked role, whose ARN is fixed apart from the account (upstream policy).',
    });
    for (const action of ['kms:ReEncrypt*', 'kms:GenerateDataKey*']) {
      Validations.of(this).acknowledge({
        id: `AwsSolutions-IAM5[Action::${action}]`,
        reason: `The KMS provider re-encrypts and wraps etcd data keys (${action}, upstream kms-provider policy), on the one etcd key only.`,
      });
    }
    Validations.of(this).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:*:iam::*:role/*-worker-role]',
      reason: "The node-pool controller passes the worker role of this cluster to EC2 (iam:PassRole, upstream policy); the pattern is upstream's.",
    });
  }

  /**
   * Adds the shared-VPC roles that belong to the VPC owner's account to `scope`, which must be in a
   * stack of that account: `<infraId>-shared-vpc-endpoint`, and `<infraId>-shared-vpc-route53` unless
   * the private zones are in the cluster's account. They trust the ingress and control-plane-operator
   * roles by ARN, so that stack depends on this one.
   */
  public createVpcOwnerRoles(scope: Construct, id: string): HostedClusterVpcOwnerRoles {
    const group = new Construct(scope, id);
    const problems = new Problems(group);
    const owner = Stack.of(group);
    const expected = this.vpcOwnerAccountId;
    if (expected === undefined) {
      problems.add(`createVpcOwnerRoles() needs a shared VPC, but ${this.node.path} has no sharedVpc`);
    } else if (owner.account !== expected) {
      problems.add(
        `the stack's account (${Token.isUnresolved(owner.account) ? 'an unresolved token' : JSON.stringify(owner.account)}) must be the VPC owner's account ${JSON.stringify(expected)} given as ${this.node.path} sharedVpc.vpcOwnerAccountId`,
      );
    }
    problems.throwIfAny();

    const endpointName = this.roleName(SHARED_VPC_ENDPOINT_ROLE_SUFFIX);
    const endpointRole = new iam.Role(group, SHARED_VPC_ENDPOINT_ROLE_SUFFIX, {
      roleName: endpointName,
      assumedBy: new RolesPrincipal([this.roles.controlPlaneOperatorArn]),
      inlinePolicies: { [endpointName]: sharedVpcEndpointPolicy() },
    });
    const route53Role = this.sharedVpcRoute53Role ? undefined : this.sharedVpcRoute53(group);
    this.orderAfterComponentRoles(group);
    Tags.of(group).add(INFRA_ID_TAG, this.infraId);
    for (const [key, value] of Object.entries(this.tags)) Tags.of(group).add(key, value);
    return { endpointRole, route53Role };
  }

  private sharedVpcRoute53(scope: Construct): iam.Role {
    const name = this.roleName(SHARED_VPC_ROUTE53_ROLE_SUFFIX);
    const role = new iam.Role(scope, SHARED_VPC_ROUTE53_ROLE_SUFFIX, {
      roleName: name,
      assumedBy: new RolesPrincipal([this.roles.ingressArn, this.roles.controlPlaneOperatorArn]),
      inlinePolicies: { [name]: sharedVpcRoute53Policy() },
    });
    if (scope === this) this.orderAfterComponentRoles(role);
    return role;
  }

  /** IAM rejects a trust policy naming a role that does not exist yet. */
  private orderAfterComponentRoles(dependent: Construct): void {
    if (Stack.of(dependent) === Stack.of(this)) {
      dependent.node.addDependency(this.componentRoles.ingressArn, this.componentRoles.controlPlaneOperatorArn);
    } else {
      Stack.of(dependent).addStackDependency(Stack.of(this), `${dependent.node.path} trusts roles of ${this.node.path}`);
    }
  }

  private roleName(suffix: string): string {
    return `${this.infraId}-${suffix}`;
  }

  private roleArn(suffix: string, account = Stack.of(this).account): string {
    return `arn:${this.partition}:iam::${account}:role/${this.roleName(suffix)}`;
  }
}

/**
 * Roles by ARN, in one statement (`"AWS": [a, b]`) as upstream's `sharedVPCRoleTrustPolicy` writes
 * them; a CompositePrincipal of ArnPrincipals would make one statement per role.
 */
class RolesPrincipal extends iam.PrincipalBase {
  constructor(private readonly arns: readonly string[]) {
    super();
  }

  public get policyFragment(): iam.PrincipalPolicyFragment {
    return new iam.PrincipalPolicyFragment({ AWS: this.arns.length === 1 ? [this.arns[0]] : [...this.arns] });
  }

  public dedupeString(): string {
    return `RolesPrincipal:${this.arns.join(',')}`;
  }

  public toString(): string {
    return `RolesPrincipal(${this.arns.join(', ')})`;
  }
}

function validate(problems: Problems, props: HostedClusterIamProps): void {
  const { infraId, issuerUrl } = props;
  const longest = allRoleSuffixes()[0];
  const maxInfraIdLength = IAM_ROLE_NAME_MAX_LENGTH - longest.length - 1;
  if (problems.require(!Token.isUnresolved(infraId), 'infraId', infraId, 'must be a concrete string: it names every IAM resource')) {
    problems.require(INFRA_ID.test(infraId), 'infraId', infraId, "must be lowercase alphanumerics and '-', starting and ending with an alphanumeric");
    problems.require(
      infraId.length <= maxInfraIdLength,
      'infraId',
      infraId,
      `must be at most ${maxInfraIdLength} characters (it has ${infraId.length}) so that the longest role name, <infraId>-${longest}, fits IAM's ${IAM_ROLE_NAME_MAX_LENGTH}-character limit`,
    );
  }
  if (problems.require(!Token.isUnresolved(issuerUrl), 'issuerUrl', issuerUrl, 'must be a concrete string: its host and path go into every trust policy')) {
    problems.require(/^https:\/\/[^/?#\s]+\/[^?#\s]*$/.test(issuerUrl), 'issuerUrl', issuerUrl, 'must be an https:// URL with a path, such as https://<bucket>.s3.<region>.amazonaws.com/<infraId>');
    if (!Token.isUnresolved(infraId)) {
      problems.require(issuerUrl.endsWith(`/${infraId}`), 'issuerUrl', issuerUrl, `must end with /<infraId> (/${infraId}): the cluster's tokens are issued there`);
    }
  }
  for (const field of ['publicZoneId', 'privateZoneId', 'localZoneId'] as const) {
    const zoneId = props[field];
    if (!Token.isUnresolved(zoneId)) {
      problems.require(ZONE_ID.test(zoneId), field, zoneId, 'must be a Route 53 hosted zone ID such as Z0123456789ABCDEFGHIJ, optionally prefixed hostedzone/');
    }
  }
  if (props.kmsKeyArn !== undefined && !Token.isUnresolved(props.kmsKeyArn)) {
    problems.require(props.kmsKeyArn.startsWith('arn:'), 'kmsKeyArn', props.kmsKeyArn, 'must be a KMS key ARN (arn:<partition>:kms:<region>:<account>:key/<id>)');
  }
  if (props.sharedVpc) {
    const owner = props.sharedVpc.vpcOwnerAccountId;
    problems.require(!Token.isUnresolved(owner) && ACCOUNT_ID.test(owner), 'sharedVpc.vpcOwnerAccountId', owner, 'must be a 12-digit AWS account ID');
  }
  const tagged = props.tags?.[INFRA_ID_TAG];
  if (tagged !== undefined && tagged !== infraId) {
    problems.require(false, `tags["${INFRA_ID_TAG}"]`, tagged, `must be omitted or equal infraId (${JSON.stringify(infraId)}): hcp-cdk sets it`);
  }
}
