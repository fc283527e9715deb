import { Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as route53 from 'aws-cdk-lib/aws-route53';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY } from 'aws-cdk-lib/cx-api';
import { Construct } from 'constructs';
import { isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';

/**
 * The S3 bucket that serves the hosted clusters' OIDC discovery documents: what the HyperShift
 * Operator's `hypershift-operator-oidc-provider-s3-credentials` Secret names. `AwsManagementPrereqs`
 * is one; a bucket made elsewhere is `{ bucketName, bucketRegion }`.
 */
export interface IOidcDiscoveryBucket {
  /** The bucket's name. */
  readonly bucketName: string;
  /** The bucket's region, part of the issuer URL. */
  readonly bucketRegion: string;
}

/** The routable public Route 53 zone of the base domain (docs 3.1.3): made here, or one that exists. */
export class PublicZone {
  /**
   * A new public hosted zone for the base domain (`aws route53 create-hosted-zone`), retained when
   * the stack is deleted: records written by the hosted clusters and external-dns live in it.
   */
  public static create(): PublicZone {
    return new PublicZone();
  }

  /**
   * The public hosted zone the account already has for the base domain, by its ID
   * (`aws route53 list-hosted-zones-by-name`), e.g. `Z0123456789ABCDEFGHIJ`.
   */
  public static fromHostedZoneId(hostedZoneId: string): PublicZone {
    return new PublicZone(hostedZoneId);
  }

  private constructor(
    /** The existing zone's ID, or undefined when the zone is created. */
    public readonly hostedZoneId?: string,
  ) {}
}

/** The public zone external-dns writes the service endpoints' records into (docs 3.1.5); retained like the public zone. */
export interface ExternalDnsZoneOptions {
  /** The service-provider domain, e.g. `service-provider.example.com`; external-dns's `domain-filter`. */
  readonly domain: string;
  /**
   * The zone, in this account, to add the NS delegation record for `domain` to (docs 3.1.5.3, step 4).
   * @default - the public zone when `domain` is under `baseDomain`; otherwise no delegation
   * record (delegate at your registrar or in the parent domain's zone yourself)
   */
  readonly parentZone?: route53.IHostedZone;
}

/** The IAM role the `hcp` CLI assumes to create and destroy hosted-cluster infrastructure (docs 3.1.4). */
export interface HcpCliRoleOptions {
  /**
   * Who may assume the role, e.g. `new iam.ArnPrincipal(<aws sts get-caller-identity --query Arn>)`.
   * The trust policy grants it `sts:AssumeRole`.
   */
  readonly trustedPrincipal: iam.IPrincipal;
  /**
   * The role name (the docs use `hcp-cli-role`).
   * @default - a name CloudFormation generates; read it from `cliRole.roleName`
   */
  readonly roleName?: string;
  /**
   * The name of the inline permission policy (`aws iam put-role-policy --policy-name`).
   * @default 'hcp-cli-policy'
   */
  readonly policyName?: string;
}

/** Props of AwsManagementPrereqs. */
export interface AwsManagementPrereqsProps {
  /**
   * The name of the public S3 bucket for the OIDC discovery documents (docs 3.1.2). It must be
   * globally unique, and without dots: the issuer `https://<bucket>.s3.<region>.amazonaws.com/<infraID>`
   * is a virtual-hosted-style HTTPS URL.
   */
  readonly oidcBucketName: string;
  /**
   * Keep earlier versions of the OIDC documents.
   * @default false
   */
  readonly oidcBucketVersioned?: boolean;
  /**
   * Log requests to the OIDC bucket (S3 server access logs). With `false` nothing is logged, and
   * cdk-nag's AwsSolutions-S1 finding on the bucket is yours to acknowledge.
   * @default true
   */
  readonly serverAccessLogs?: boolean;
  /**
   * Where server access logs go; the logs of this bucket are written under `<oidcBucketName>/`.
   * @default - a private bucket created here (retained when the stack is deleted)
   */
  readonly serverAccessLogsBucket?: s3.IBucket;
  /** The base domain of the hosted clusters, e.g. `hcp.example.com`: the name of the public zone. */
  readonly baseDomain: string;
  /** The routable public zone of `baseDomain`: `PublicZone.create()` or `PublicZone.fromHostedZoneId(...)`. */
  readonly publicZone: PublicZone;
  /**
   * A public zone for external DNS (service-level DNS for API and OAuth hostnames).
   * @default - none; hosted cluster services publish under the management cluster's names
   */
  readonly externalDns?: ExternalDnsZoneOptions;
  /**
   * The IAM role for the `hcp` CLI with the permissions of docs 3.1.4 (`--role-arn`).
   * @default - none
   */
  readonly cliRole?: HcpCliRoleOptions;
}

/**
 * The permission policy of the `hcp` CLI role, as docs 3.1.4 give it (`policy.json`).
 *
 * @jsonDocument
 */
export const HCP_CLI_ROLE_POLICY = {
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
} as const;

/** The actions the HyperShift Operator needs on the OIDC bucket: upload and delete the documents. */
const OIDC_DOCUMENT_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject'];

const S3_BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const S3_RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '--x-s3', '--table-s3'];
const HOSTED_ZONE_ID = /^[A-Z0-9]{1,32}$/;
const INFRA_ID = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DOMAIN_RULE = 'must be a lower-case DNS name of two or more labels without a trailing dot, such as "hcp.example.com"';

/**
 * Why `name` cannot be the OIDC bucket (S3 general purpose bucket naming rules, and no dots), or
 * undefined. The message starts with the value's rendering and is prefixed by the caller's field.
 */
export function oidcBucketNameProblem(name: string): string | undefined {
  if (!S3_BUCKET_NAME.test(name)) {
    return `(${show(name)}) must be an S3 bucket name: 3 to 63 lower-case letters, digits and "-", starting and ending with a letter or digit`;
  }
  if (name.includes('.')) {
    return `(${show(name)}) must not contain ".": the issuer https://<bucket>.s3.<region>.amazonaws.com is a virtual-hosted-style HTTPS URL, and the S3 certificate does not cover dotted bucket names`;
  }
  const prefix = S3_RESERVED_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) return `(${show(name)}) must not start with ${show(prefix)}, which S3 reserves`;
  const suffix = S3_RESERVED_SUFFIXES.find((s) => name.endsWith(s));
  if (suffix) return `(${show(name)}) must not end with ${show(suffix)}, which S3 reserves`;
  return undefined;
}

function isDomainName(value: string): boolean {
  return isDns1123Subdomain(value) && value.includes('.');
}

/**
 * What a management cluster on AWS needs before the first hosted cluster (docs 3.1.2-3.1.5), one per
 * management cluster and account: the public S3 bucket serving the OIDC discovery documents of every
 * hosted cluster, the routable public zone of the base domain, optionally the external-DNS zone and
 * its delegation, and optionally the IAM role of the `hcp` CLI.
 *
 * Nothing secret is made here. The HyperShift Operator writes the OIDC documents with the AWS
 * credentials file of the `hypershift-operator-oidc-provider-s3-credentials` Secret
 * (`OidcS3CredentialsSecret`, fed through a `SecretSource`); give the identity behind those
 * credentials write access with `grantOidcDocumentWrite()`.
 */
export class AwsManagementPrereqs extends Construct implements IOidcDiscoveryBucket {
  /** The OIDC bucket's name, as given (concrete). */
  public readonly bucketName: string;
  /** The OIDC bucket's region: the stack's (a token when the stack is environment-agnostic). */
  public readonly bucketRegion: string;
  /** The OIDC discovery bucket. */
  public readonly oidcBucket: s3.IBucket;
  /** The bucket receiving the OIDC bucket's server access logs, unless they are off. */
  public readonly serverAccessLogsBucket?: s3.IBucket;
  /** The base domain, as given. */
  public readonly baseDomain: string;
  /** The routable public zone of the base domain. */
  public readonly publicZone: route53.IHostedZone;
  /** Its ID (a token when the zone is created here): the HostedCluster's `spec.dns.publicZoneID`. */
  public readonly publicZoneId: string;
  /** The external-DNS public zone, when `externalDns` is given. */
  public readonly externalDnsZone?: route53.IPublicHostedZone;
  /** The `hcp` CLI role, when `cliRole` is given. */
  public readonly cliRole?: iam.IRole;

  constructor(scope: Construct, id: string, props: AwsManagementPrereqsProps) {
    super(scope, id);
    this.checkProps(props);
    // Log delivery through a bucket policy (the logging service principal), not the LogDeliveryWrite
    // ACL, which BucketOwnerEnforced forbids. The flag is on in apps made by `cdk init`; set it here too.
    this.node.setContext(S3_SERVER_ACCESS_LOGS_USE_BUCKET_POLICY, true);
    this.bucketName = props.oidcBucketName;
    this.bucketRegion = Stack.of(this).region;
    this.baseDomain = props.baseDomain;

    const logging = props.serverAccessLogs ?? true;
    this.serverAccessLogsBucket = logging ? (props.serverAccessLogsBucket ?? this.createAccessLogsBucket()) : undefined;
    this.oidcBucket = this.createOidcBucket(props);

    this.publicZone =
      props.publicZone.hostedZoneId === undefined
        ? retained(new route53.PublicHostedZone(this, 'PublicZone', { zoneName: props.baseDomain }))
        : route53.HostedZone.fromHostedZoneAttributes(this, 'PublicZone', { hostedZoneId: props.publicZone.hostedZoneId, zoneName: props.baseDomain });
    this.publicZoneId = this.publicZone.hostedZoneId;

    if (props.externalDns) this.externalDnsZone = this.createExternalDnsZone(props.externalDns);
    if (props.cliRole) this.cliRole = this.createCliRole(props.cliRole);
  }

  /** The OIDC issuer URL of a hosted cluster: `https://<bucket>.s3.<region>.amazonaws.com/<infraId>`. */
  public issuerUrlFor(infraId: string): string {
    const problems = new Problems(this);
    problems.require(
      infraId.length <= 253 && INFRA_ID.test(infraId),
      'issuerUrlFor infraId',
      infraId,
      'must be lower-case letters, digits and "-", starting and ending with a letter or digit (the HostedCluster\'s spec.infraID rule)',
    );
    if (Token.isUnresolved(this.bucketRegion)) {
      problems.add(`region (a CloudFormation token) must be concrete for issuerUrlFor(${show(infraId)}): give the stack an env with a region, e.g. { region: 'eu-west-1' }`);
    }
    problems.throwIfAny();
    return `https://${this.bucketName}.s3.${this.bucketRegion}.amazonaws.com/${infraId}`;
  }

  /**
   * Lets `grantee` upload and delete OIDC documents (`s3:PutObject`, `s3:DeleteObject` on the
   * bucket's objects): the identity whose credentials file goes into the
   * `hypershift-operator-oidc-provider-s3-credentials` Secret.
   */
  public grantOidcDocumentWrite(grantee: iam.IGrantable): iam.Grant {
    return iam.Grant.addToPrincipalOrResource({
      grantee,
      actions: OIDC_DOCUMENT_WRITE_ACTIONS,
      resourceArns: [this.oidcBucket.arnForObjects('*')],
      resource: this.oidcBucket,
    });
  }

  private checkProps(props: AwsManagementPrereqsProps): void {
    const problems = new Problems(this);
    const name = props.oidcBucketName;
    if (Token.isUnresolved(name)) {
      problems.add('oidcBucketName (a CloudFormation token) must be a literal name: the issuer URLs and the Kubernetes Secret need it at synth');
    } else {
      const problem = oidcBucketNameProblem(name);
      if (problem) problems.add(`oidcBucketName ${problem}`);
    }
    if (props.serverAccessLogs === false && props.serverAccessLogsBucket) {
      problems.add('serverAccessLogsBucket is given but serverAccessLogs is false; give one or the other');
    }
    problems.require(isDomainName(props.baseDomain), 'baseDomain', props.baseDomain, DOMAIN_RULE);
    const zoneId = props.publicZone.hostedZoneId;
    if (zoneId !== undefined) {
      if (!HOSTED_ZONE_ID.test(zoneId)) {
        problems.add(
          `publicZone (PublicZone.fromHostedZoneId(${show(zoneId)})) must name a Route 53 hosted zone ID such as "Z0123456789ABCDEFGHIJ" (upper-case letters and digits, without "/hostedzone/")`,
        );
      }
    }
    const external = props.externalDns;
    if (external) {
      if (problems.require(isDomainName(external.domain), 'externalDns.domain', external.domain, DOMAIN_RULE) && external.domain === props.baseDomain) {
        problems.add(`externalDns.domain (${show(external.domain)}) must differ from baseDomain: it gets a public zone of its own, delegated from its parent`);
      }
      const parentName = zoneNameOf(external.parentZone);
      if (parentName !== undefined && !Token.isUnresolved(parentName) && !external.domain.endsWith(`.${stripDot(parentName)}`)) {
        problems.add(`externalDns.domain (${show(external.domain)}) must be a subdomain of externalDns.parentZone (${show(stripDot(parentName))}) to be delegated from it`);
      }
    }
    problems.throwIfAny();
  }

  /** Private and TLS-only; as a log destination it needs no access logs of its own (nor does cdk-nag's S1 ask). */
  private createAccessLogsBucket(): s3.Bucket {
    return new s3.Bucket(this, 'AccessLogs', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  private createOidcBucket(props: AwsManagementPrereqsProps): s3.Bucket {
    const bucket = new s3.Bucket(this, 'OidcBucket', {
      bucketName: props.oidcBucketName,
      // Objects are public through the bucket policy only; ACLs stay off (BucketOwnerEnforced) and
      // blocked. HyperShift uploads without an ACL since 4.13 (openshift/hypershift#2423).
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      blockPublicAccess: new s3.BlockPublicAccess({
        blockPublicAcls: true,
        ignorePublicAcls: true,
        blockPublicPolicy: false,
        restrictPublicBuckets: false,
      }),
      // SSE-S3, not KMS: anonymous readers (AWS STS fetching the JWKS) cannot use a KMS key.
      encryption: s3.BucketEncryption.S3_MANAGED,
      // The issuer is an https URL, so denying plain HTTP costs the OIDC readers nothing.
      enforceSSL: true,
      versioned: props.oidcBucketVersioned ?? false,
      serverAccessLogsBucket: this.serverAccessLogsBucket,
      serverAccessLogsPrefix: this.serverAccessLogsBucket && props.serverAccessLogsBucket ? `${props.oidcBucketName}/` : undefined,
      // The issuer of every hosted cluster points here; deleting the stack must not break them.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    // Docs 3.1.2: public read of the objects (the discovery document and JWKS of each cluster), nothing else.
    bucket.addToResourcePolicy(
      new iam.PolicyStatement({
        effect: iam.Effect.ALLOW,
        principals: [new iam.StarPrincipal()],
        actions: ['s3:GetObject'],
        resources: [bucket.arnForObjects('*')],
      }),
    );
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S2',
      reason:
        "The OIDC discovery bucket must be publicly readable: AWS STS fetches each hosted cluster's " +
        '<infraID>/.well-known/openid-configuration and JWKS anonymously to verify its service-account tokens (docs 3.1.2). ' +
        'Only the bucket policy grants public access, and only s3:GetObject on objects; public ACLs stay blocked and ignored.',
    });
    return bucket;
  }

  private createExternalDnsZone(options: ExternalDnsZoneOptions): route53.PublicHostedZone {
    const zone = retained(new route53.PublicHostedZone(this, 'ExternalDnsZone', { zoneName: options.domain }));
    const parent = options.parentZone ?? (options.domain.endsWith(`.${this.baseDomain}`) ? this.publicZone : undefined);
    if (parent) {
      new route53.ZoneDelegationRecord(this, 'ExternalDnsDelegation', {
        zone: parent,
        // Fully qualified, so that a parent imported by ID alone (no zone name) works too.
        recordName: `${options.domain}.`,
        nameServers: zone.hostedZoneNameServers!,
        ttl: Duration.days(2),
      });
    }
    return zone;
  }

  private createCliRole(options: HcpCliRoleOptions): iam.Role {
    const policyName = options.policyName ?? 'hcp-cli-policy';
    const role = new iam.Role(this, 'CliRole', {
      roleName: options.roleName,
      description: 'Role the hcp CLI assumes to create and destroy hosted-cluster infrastructure (OpenShift hosted control planes docs 3.1.4)',
      assumedBy: options.trustedPrincipal,
      inlinePolicies: { [policyName]: iam.PolicyDocument.fromJson(HCP_CLI_ROLE_POLICY) },
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Docs 3.1.4 grant the hcp CLI its EC2, ELB, IAM, Route 53 and S3 actions on all resources: it creates and ' +
        "deletes each hosted cluster's VPC, subnets, gateways, instance profiles, roles, OIDC provider and zones, whose IDs " +
        'and names do not exist before hcp create cluster aws runs, and many of the actions (Describe*, List*) support no resource scoping.',
    });
    Validations.of(role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::arn:*:iam::*:role/*-worker-role]',
      reason:
        'Docs 3.1.4 scope iam:PassRole to roles named *-worker-role and to the EC2 service (iam:PassedToService): ' +
        'the worker role carries the infra ID of each future hosted cluster, which is unknown here.',
    });
    return role;
  }
}

function retained<T extends Construct & { applyRemovalPolicy(policy: RemovalPolicy): void }>(zone: T): T {
  // external-dns and the hosted clusters write records CloudFormation does not know, so a delete would
  // fail on a non-empty zone; and dropping a delegated zone would break name resolution.
  zone.applyRemovalPolicy(RemovalPolicy.RETAIN);
  return zone;
}

/** The zone's name, or undefined when the zone was imported by ID alone. */
function zoneNameOf(zone: route53.IHostedZone | undefined): string | undefined {
  if (!zone) return undefined;
  try {
    return zone.zoneName;
  } catch {
    return undefined;
  }
}

function stripDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
