import { CfnOutput, Fn, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { Problems } from '../core/problems';
import type { AwsHostedInfraValues, AwsHostedInfraZone, IAwsHostedInfra } from '../platform/aws-infra';
import { AWS_HOSTED_INFRA_OUTPUTS } from './aws-hosted-infra-values';
import { oidcBucketNameProblem } from './aws-management-prereqs';
import { HostedClusterIam } from './hosted-cluster-iam';
import { HostedClusterNetwork } from './hosted-cluster-network';

/** A network you already have, instead of the one AwsHostedInfra would create. */
export interface AwsExistingNetwork {
  /** The VPC's ID. */
  readonly vpcId: string;
  /** The VPC's CIDR, the cluster's machine network. */
  readonly machineCidr: string;
  /** The zones and the private subnet the nodes use in each; the first is the cluster's default. */
  readonly zones: AwsHostedInfraZone[];
  /** The ID of the private hosted zone `<clusterName>.<baseDomain>`. */
  readonly privateZoneId: string;
  /** The ID of the private hosted zone `<clusterName>.hypershift.local`. */
  readonly localZoneId: string;
}

/** The etcd encryption key: created here, or one you have. */
export interface AwsEtcdEncryption {
  /** Create a customer-managed key (rotation on, retained on delete). @default false */
  readonly createKey?: boolean;
  /** The ARN of a key you manage. @default - none */
  readonly keyArn?: string;
}

/** Props of AwsHostedInfra. */
export interface AwsHostedInfraProps {
  /**
   * Every AWS resource name derives from it (`<infraId>-vpc`, `<infraId>-openshift-ingress`, ...),
   * which makes role ARNs known at synth. Lower case, at most 32 characters.
   */
  readonly infraId: string;
  /** The HostedCluster's name: zone names and the cluster-name tag. */
  readonly clusterName: string;
  /** The base domain; the private zone is `<clusterName>.<baseDomain>`. */
  readonly baseDomain: string;
  /** @default - the private zone is `<clusterName>.<baseDomain>` */
  readonly baseDomainPrefix?: string;
  /** The public Route 53 zone of the base domain (AwsManagementPrereqs has it). */
  readonly publicZoneId: string;
  /** The OIDC discovery bucket (AwsManagementPrereqs' `bucketName`); the issuer is `https://<bucket>.s3.<region>.amazonaws.com/<infraId>`. */
  readonly oidcBucketName: string;
  /** @default - the stack's region */
  readonly oidcBucketRegion?: string;
  /** Availability Zones, one private and one public subnet each. Required unless `existingNetwork` is given. @default - none */
  readonly zones?: string[];
  /** @default '10.0.0.0/16' (must be a /16) */
  readonly vpcCidr?: string;
  /** One NAT gateway for all zones instead of one per zone (cheaper, not zone-redundant). @default false */
  readonly singleNatGateway?: boolean;
  /** Bring your own VPC, subnets and private zones instead. @default - created */
  readonly existingNetwork?: AwsExistingNetwork;
  /** Encrypt etcd with KMS. @default - no KMS; the HostedCluster uses AES-CBC */
  readonly etcdEncryption?: AwsEtcdEncryption;
  /** Tags for every resource here, and the HostedCluster's resourceTags. @default - none */
  readonly tags?: Record<string, string>;
}

/**
 * The AWS prerequisites of one self-managed hosted cluster, as `hypershift create infra aws` and
 * `create iam aws` make them, in CloudFormation: the VPC and its subnets, NAT, routes and S3
 * endpoint, the private zones, the IAM OIDC provider, the component roles, the worker instance
 * profile and optionally a KMS key. Hand it to `ClusterPlatform.aws({ infra })`; every value is
 * also a stack output (AWS_HOSTED_INFRA_OUTPUTS) for `AwsHostedInfraOutputs.fromOutputsFile`.
 * Put each cluster in its own stack: about 35 resources for three zones, and no cross-stack exports.
 */
export class AwsHostedInfra extends Construct implements IAwsHostedInfra {
  /** The values the HostedCluster reads: IDs and ARNs (tokens until deploy where the name is not deterministic). */
  public readonly values: AwsHostedInfraValues;
  /** The network this construct created. @default - none with `existingNetwork` */
  public readonly network?: HostedClusterNetwork;
  /** The OIDC provider, component roles and instance profile. */
  public readonly iam: HostedClusterIam;
  /** The etcd encryption key this construct created. @default - none unless `etcdEncryption.createKey` */
  public readonly etcdKey?: kms.Key;

  constructor(scope: Construct, id: string, props: AwsHostedInfraProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const problems = new Problems(this);
    const region = props.oidcBucketRegion ?? stack.region;
    if (Token.isUnresolved(region)) {
      problems.add("the stack's region (an unresolved token) must be concrete: the OIDC issuer URL goes into the HostedCluster at synth; give the stack env { account, region } or oidcBucketRegion");
    }
    // The issuer URL is made from the bucket name: checked as AwsManagementPrereqs checks the bucket it makes.
    const bucketProblem = Token.isUnresolved(props.oidcBucketName) ? undefined : oidcBucketNameProblem(props.oidcBucketName);
    if (bucketProblem) problems.add(`oidcBucketName ${bucketProblem}`);
    if (!props.zones && !props.existingNetwork) problems.add('zones (undefined) must list the Availability Zones, unless existingNetwork is given');
    if (props.zones && props.existingNetwork) problems.add('zones and existingNetwork are mutually exclusive: give the zones to create a network, or the network you have');
    const encryption = props.etcdEncryption;
    if (encryption && !encryption.createKey && !encryption.keyArn) problems.add('etcdEncryption ({}) asks for KMS without a key: set createKey: true or give keyArn');
    if (encryption?.createKey && encryption.keyArn) problems.add(`etcdEncryption gives both createKey and keyArn (${JSON.stringify(encryption.keyArn)}); choose one`);
    problems.throwIfAny();

    const tags = props.tags ?? {};
    this.network = props.existingNetwork
      ? undefined
      : new HostedClusterNetwork(this, 'Network', {
          infraId: props.infraId,
          clusterName: props.clusterName,
          baseDomain: props.baseDomain,
          baseDomainPrefix: props.baseDomainPrefix,
          zones: props.zones!,
          vpcCidr: props.vpcCidr,
          singleNatGateway: props.singleNatGateway,
          additionalTags: tags,
        });
    const network: AwsExistingNetwork = props.existingNetwork ?? {
      vpcId: this.network!.vpcId,
      machineCidr: this.network!.machineCidr,
      zones: this.network!.privateSubnets.map((s) => ({ name: s.zone, subnetId: s.subnetId })),
      privateZoneId: this.network!.privateZoneId,
      localZoneId: this.network!.localZoneId,
    };

    if (encryption?.createKey) {
      this.etcdKey = new kms.Key(this, 'EtcdKey', {
        alias: `${props.infraId}-etcd`,
        description: `etcd encryption key of hosted cluster ${props.clusterName} (${props.infraId})`,
        enableKeyRotation: true,
        removalPolicy: RemovalPolicy.RETAIN,
      });
    }
    const keyArn = this.etcdKey?.keyArn ?? encryption?.keyArn;
    this.iam = new HostedClusterIam(this, 'Iam', {
      infraId: props.infraId,
      issuerUrl: `https://${props.oidcBucketName}.s3.${region}.amazonaws.com/${props.infraId}`,
      publicZoneId: props.publicZoneId,
      privateZoneId: network.privateZoneId,
      localZoneId: network.localZoneId,
      kmsKeyArn: keyArn,
      tags,
    });

    this.values = {
      infraId: props.infraId,
      region: stack.region,
      issuerUrl: this.iam.issuerUrl,
      vpcId: network.vpcId,
      machineCidr: network.machineCidr,
      zones: network.zones,
      publicZoneId: props.publicZoneId,
      privateZoneId: network.privateZoneId,
      localZoneId: network.localZoneId,
      roles: this.iam.roles,
      instanceProfileName: this.iam.instanceProfileName,
      kms: keyArn ? { activeKeyArn: keyArn, providerRoleArn: this.iam.kmsProviderRoleArn! } : undefined,
      resourceTags: Object.keys(tags).length ? tags : undefined,
    };
    this.addOutputs();
    if (this.network) {
      Validations.of(this.network).acknowledge({
        id: 'AwsSolutions-VPC7',
        reason:
          "The hosted cluster's VPC is created as hypershift create infra aws creates it, without flow logs; where the " +
          'organisation requires them, add an AWS::EC2::FlowLog for the VpcId output to its own log destination.',
      });
    }
  }

  /** One output per value, under the keys AwsHostedInfraOutputs reads back. */
  private addOutputs(): void {
    const K = AWS_HOSTED_INFRA_OUTPUTS;
    const v = this.values;
    const output = (key: string, value: string | undefined) => {
      if (value !== undefined) new CfnOutput(this, key, { key, value });
    };
    output(K.infraId, v.infraId);
    output(K.region, v.region);
    output(K.issuerUrl, v.issuerUrl);
    output(K.vpcId, v.vpcId);
    output(K.machineCidr, v.machineCidr);
    output(K.zoneNames, v.zones.map((z) => z.name).join(','));
    output(
      K.subnetIds,
      Fn.join(
        ',',
        v.zones.map((z) => z.subnetId),
      ),
    );
    output(K.publicZoneId, v.publicZoneId);
    output(K.privateZoneId, v.privateZoneId);
    output(K.localZoneId, v.localZoneId);
    output(K.instanceProfileName, v.instanceProfileName);
    output(K.kmsKeyArn, v.kms?.activeKeyArn);
    output(K.kmsProviderRoleArn, v.kms?.providerRoleArn);
    if (v.resourceTags) output(K.resourceTags, JSON.stringify(v.resourceTags));
    for (const [field, key] of Object.entries(K.roles)) output(key, v.roles[field as keyof typeof v.roles]);
  }
}
