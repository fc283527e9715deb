import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import * as np from '../../imports/nodepool-hypershift.openshift.io';
import { AWS_REGION, EC2_INSTANCE_TYPE, EC2_INSTANCE_TYPE_RULE, IAM_ROLE_ARN, IAM_ROLE_ARN_RULE, isAwsZoneOf } from '../core/formats';
import { show } from '../core/problems';
import { ingressPublishing } from '../core/service-publishing';
import type { ClusterPlatformConfig, ClusterPlatformContext, IClusterPlatform } from './cluster-platform';
import type { INodePoolPlatform, NodePoolPlatformConfig, NodePoolPlatformContext } from './node-pool-platform';
import type { AwsClusterRoles, AwsHostedInfraZone, AwsKmsEncryption, IAwsHostedInfra } from './aws-infra';
import { awsHostedInfraValuesProblems, isUnresolvedToken } from './aws-infra';
import { platformRules } from './platform-rules';
import { PlatformType } from './platform-type';

const AWS_RULES = platformRules(PlatformType.AWS)!;

/** Who reaches the API server: `Public`, `PublicAndPrivate` or `Private`. */
export const AwsEndpointAccess = hc.HostedClusterSpecPlatformAwsEndpointAccess;
export type AwsEndpointAccess = hc.HostedClusterSpecPlatformAwsEndpointAccess;

/** Props of `ClusterPlatform.aws()`. */
export interface AwsClusterPlatformProps {
  /**
   * The AWS prerequisites to take every value below from: an `AwsHostedInfra` stack (values known
   * at synth) or `AwsHostedInfraOutputs.fromOutputsFile(...)` after `cdk deploy`. A value given
   * explicitly here wins over the infra's.
   * @default - give region, vpcId, defaultSubnet and roles (and the rest) yourself
   */
  readonly infra?: IAwsHostedInfra;
  /** @default - the infra's region */
  readonly region?: string;
  /** The VPC the nodes run in. @default - the infra's VPC */
  readonly vpcId?: string;
  /** The subnet (and its zone) for the cloud provider and for pools that name none. @default - the infra's first zone */
  readonly defaultSubnet?: {
    /** The subnet's ID. */
    readonly id: string;
    /** Its zone. @default - none */
    readonly zone?: string;
  };
  /** @default - the infra's roles */
  readonly roles?: AwsClusterRoles;
  /** @default AwsEndpointAccess.PUBLIC */
  readonly endpointAccess?: AwsEndpointAccess;
  /**
   * The OIDC issuer, `https://<bucket>.s3.<region>.amazonaws.com/<infraID>`.
   * @default - none; required for the IAM roles to trust the cluster's service accounts
   */
  readonly issuerUrl?: string;
  /** @default - none */
  readonly publicZoneId?: string;
  /** @default - none */
  readonly privateZoneId?: string;
  /** The VPC CIDR, written as the machine network. @default - none */
  readonly machineCidr?: string;
  /** Tags for every AWS resource the cluster creates. @default - none */
  readonly resourceTags?: Record<string, string>;
  /**
   * Encrypt etcd with this KMS key instead of an AES-CBC Secret.
   * @default - AES-CBC (see the HostedCluster's `secretEncryption`)
   */
  readonly kms?: AwsKmsEncryption;
  /** Principals allowed to connect to the private API endpoint service. @default - none */
  readonly additionalAllowedPrincipals?: string[];
}

/** The explicit props over the infra's values: what the platform writes. */
type ResolvedAwsProps = Omit<AwsClusterPlatformProps, 'infra'> & {
  readonly region: string;
  readonly vpcId: string;
  readonly defaultSubnet: { readonly id: string; readonly zone?: string };
  readonly roles: AwsClusterRoles;
  readonly infraId?: string;
};

function resolve(props: AwsClusterPlatformProps): ResolvedAwsProps {
  const v = props.infra?.values;
  // Values from JavaScript or JSON may lack zones or roles: bind() names them.
  const first = Array.isArray(v?.zones) ? (v.zones as readonly AwsHostedInfraZone[])[0] : undefined;
  const { infra, ...explicit } = props;
  const defined = Object.fromEntries(Object.entries(explicit).filter(([, value]) => value !== undefined));
  return {
    region: v?.region ?? '',
    vpcId: v?.vpcId ?? '',
    defaultSubnet: first ? { id: first.subnetId, zone: first.name } : { id: '' },
    roles: { ingressArn: '', imageRegistryArn: '', storageArn: '', networkArn: '', kubeCloudControllerArn: '', nodePoolManagementArn: '', controlPlaneOperatorArn: '', ...v?.roles },
    issuerUrl: v?.issuerUrl,
    publicZoneId: v?.publicZoneId,
    privateZoneId: v?.privateZoneId,
    machineCidr: v?.machineCidr,
    resourceTags: v?.resourceTags,
    kms: v?.kms,
    infraId: v?.infraId,
    ...defined,
  };
}

/** Fields that must be concrete in YAML, with where they come from, for the unresolved-token check. */
function concreteFields(p: ResolvedAwsProps): [string, string | undefined][] {
  return [
    ['region', p.region],
    ['vpcId', p.vpcId],
    ['defaultSubnet.id', p.defaultSubnet.id],
    ['defaultSubnet.zone', p.defaultSubnet.zone],
    ['issuerUrl', p.issuerUrl],
    ['publicZoneId', p.publicZoneId],
    ['privateZoneId', p.privateZoneId],
    ['machineCidr', p.machineCidr],
    ['kms.activeKeyArn', p.kms?.activeKeyArn],
    ['kms.providerRoleArn', p.kms?.providerRoleArn],
    ...Object.entries({ ...p.roles }).map(([field, arn]): [string, string] => [`roles.${field}`, arn]),
  ];
}

export class AwsClusterPlatform implements IClusterPlatform {
  /** The AWS platform. */
  public readonly type = PlatformType.AWS;
  public readonly defaultSubnetId: string;
  /** The infra ID the AWS prerequisites were made for, when they are given. */
  public readonly infraId?: string;
  private readonly props: ResolvedAwsProps;
  /** What the infra values lack of what the platform takes from them. */
  private readonly infraProblems: readonly string[];

  constructor(props: AwsClusterPlatformProps) {
    this.props = resolve(props);
    // A value given explicitly is not needed from the infra.
    const explicit = new Set(
      Object.entries(props ?? {})
        .filter(([, value]) => value !== undefined)
        .map(([key]) => (key === 'defaultSubnet' ? 'zones' : key)),
    );
    this.infraProblems = props?.infra === undefined ? [] : awsHostedInfraValuesProblems(props.infra.values, 'infra', explicit);
    this.defaultSubnetId = this.props.defaultSubnet.id;
    this.infraId = this.props.infraId;
  }

  public bind(context: ClusterPlatformContext): ClusterPlatformConfig {
    const p = this.props;
    const problems = context.problems;
    if (this.infraProblems.length > 0) {
      // Without them the rest would be checked against empty values: each missing one is named once.
      this.infraProblems.forEach((problem) => problems.add(problem));
      return { platform: { type: hc.HostedClusterSpecPlatformType.AWS }, defaultServices: ingressPublishing(), apiServerRoute: AWS_RULES.apiServerRoute };
    }
    let unresolved = false;
    for (const [field, value] of concreteFields(p)) {
      if (isUnresolvedToken(value)) {
        unresolved = true;
        problems.add(
          `${field} (a CloudFormation token) is only known once the AwsHostedInfra stack is deployed; read the values with AwsHostedInfraOutputs.fromOutputsFile(<cdk deploy --outputs-file>, <stack>) or give it explicitly`,
        );
      }
    }
    if (unresolved) return { platform: { type: hc.HostedClusterSpecPlatformType.AWS }, defaultServices: ingressPublishing(), apiServerRoute: AWS_RULES.apiServerRoute };
    const regionOk = AWS_REGION.test(p.region);
    if (!regionOk) problems.add(`region (${JSON.stringify(p.region)}) must be an AWS region such as us-east-1`);
    // A zone of the region: us-east-1a, or a Local Zone such as us-east-1-bos-1a.
    const zone = p.defaultSubnet.zone;
    if (regionOk && zone !== undefined && !isAwsZoneOf(zone, p.region)) {
      problems.require(false, 'defaultSubnet.zone', zone, `must be an availability zone of region ${p.region}, such as ${p.region}a`);
    }
    if (!p.vpcId) problems.add('vpcId ("") must be given, or come from platform.infra');
    if (!p.defaultSubnet.id) problems.add('defaultSubnet.id ("") must be given, or come from platform.infra');
    for (const [field, arn] of Object.entries({ ...p.roles })) {
      if (!arn) problems.add(`roles.${field} ("") must be an IAM role ARN`);
      else problems.require(IAM_ROLE_ARN.test(arn), `roles.${field}`, arn, IAM_ROLE_ARN_RULE);
    }
    const secretEncryption: hc.HostedClusterSpecSecretEncryption | undefined = p.kms
      ? {
          type: hc.HostedClusterSpecSecretEncryptionType.KMS,
          kms: {
            provider: hc.HostedClusterSpecSecretEncryptionKmsProvider.AWS,
            aws: {
              region: p.region,
              activeKey: { arn: p.kms.activeKeyArn },
              backupKey: p.kms.backupKeyArn ? { arn: p.kms.backupKeyArn } : undefined,
              auth: { awsKms: p.kms.providerRoleArn },
            },
          },
        }
      : undefined;
    const tags = Object.entries(p.resourceTags ?? {}).sort(([a], [b]) => a.localeCompare(b));
    return {
      platform: {
        type: hc.HostedClusterSpecPlatformType.AWS,
        aws: {
          region: p.region,
          endpointAccess: p.endpointAccess ?? AwsEndpointAccess.PUBLIC,
          multiArch: false,
          cloudProviderConfig: { vpc: p.vpcId, subnet: { id: p.defaultSubnet.id }, zone: p.defaultSubnet.zone },
          rolesRef: {
            ingressArn: p.roles.ingressArn,
            imageRegistryArn: p.roles.imageRegistryArn,
            storageArn: p.roles.storageArn,
            networkArn: p.roles.networkArn,
            kubeCloudControllerArn: p.roles.kubeCloudControllerArn,
            nodePoolManagementArn: p.roles.nodePoolManagementArn,
            controlPlaneOperatorArn: p.roles.controlPlaneOperatorArn,
          },
          resourceTags: tags.length === 0 ? undefined : tags.map(([key, value]) => ({ key, value })),
          additionalAllowedPrincipals: p.additionalAllowedPrincipals,
        },
      },
      defaultServices: ingressPublishing(),
      apiServerRoute: AWS_RULES.apiServerRoute,
      dns: { publicZoneId: p.publicZoneId, privateZoneId: p.privateZoneId },
      defaultEtcdStorageClass: 'gp3-csi',
      issuerUrl: p.issuerUrl,
      machineNetwork: p.machineCidr ? [p.machineCidr] : undefined,
      secretEncryption,
    };
  }
}

/** The EC2 tenancy of a pool's instances: `default`, `dedicated` or `host`. */
export const AwsTenancy = np.NodePoolSpecPlatformAwsPlacementTenancy;
export type AwsTenancy = np.NodePoolSpecPlatformAwsPlacementTenancy;

/** The root volume of each instance. */
export interface AwsRootVolume {
  /** @default 'gp3' */
  readonly type?: string;
  /** @default 120; at least 8 */
  readonly sizeGiB?: number;
  /** Provisioned IOPS (io1, io2, gp3). @default - the volume type's baseline */
  readonly iops?: number;
  /** A KMS key ARN to encrypt the volume with. @default - the account's default EBS key */
  readonly kmsKeyArn?: string;
}

/** Props of `NodePoolPlatform.aws()`. */
export interface AwsNodePoolPlatformProps {
  /** @default 'm5.large' for amd64, 'm6g.large' for arm64 */
  readonly instanceType?: string;
  /** @default '<infraID>-worker', the profile AwsHostedInfra and `hcp create iam aws` create */
  readonly instanceProfile?: string;
  /** @default - the cluster's default subnet */
  readonly subnetId?: string;
  /** @default - gp3, 120 GiB */
  readonly rootVolume?: AwsRootVolume;
  /** Extra security groups for the instances. @default - only the cluster's default group */
  readonly securityGroupIds?: string[];
  /** @default - shared tenancy */
  readonly tenancy?: AwsTenancy;
  /** A custom AMI. @default - the release's RHCOS AMI for the region */
  readonly ami?: string;
}

const DEFAULT_INSTANCE_TYPE: Record<string, string> = { amd64: 'm5.large', arm64: 'm6g.large' };
const MIN_ROOT_VOLUME_GIB = 8;

export class AwsNodePoolPlatform implements INodePoolPlatform {
  /** The AWS platform. */
  public readonly type = PlatformType.AWS;
  public readonly defaultUpgradeType = np.NodePoolSpecManagementUpgradeType.REPLACE;

  constructor(private readonly props: AwsNodePoolPlatformProps) {}

  /** The NodePool's `spec.platform`, with the instance type, profile, subnet and volume. */
  public render(context: NodePoolPlatformContext): NodePoolPlatformConfig {
    const p = this.props;
    const problems = context.problems;
    const instanceType = p.instanceType ?? DEFAULT_INSTANCE_TYPE[context.arch];
    if (!instanceType) problems.add(`instanceType (undefined) must be given for arch ${context.arch}`);
    else problems.require(EC2_INSTANCE_TYPE.test(instanceType), 'instanceType', instanceType, EC2_INSTANCE_TYPE_RULE);
    const subnetId = p.subnetId ?? context.clusterDefaultSubnetId;
    if (!subnetId) problems.add('subnetId (undefined) must be given when the cluster has no default subnet');
    const instanceProfile = p.instanceProfile ?? (context.clusterInfraId ? `${context.clusterInfraId}-worker` : undefined);
    const size = p.rootVolume?.sizeGiB ?? 120;
    if (!Number.isInteger(size) || size < MIN_ROOT_VOLUME_GIB) problems.add(`rootVolume.sizeGiB (${show(size)}) must be a whole number >= ${MIN_ROOT_VOLUME_GIB}`);
    if (p.rootVolume?.iops !== undefined && (!Number.isInteger(p.rootVolume.iops) || p.rootVolume.iops < 0)) {
      problems.add(`rootVolume.iops (${show(p.rootVolume.iops)}) must be a whole number >= 0`);
    }
    const aws: np.NodePoolSpecPlatformAws = {
      instanceType: instanceType ?? '',
      instanceProfile,
      subnet: { id: subnetId },
      rootVolume: { type: p.rootVolume?.type ?? 'gp3', size, iops: p.rootVolume?.iops, encryptionKey: p.rootVolume?.kmsKeyArn },
      securityGroups: p.securityGroupIds?.map((id) => ({ id })),
      placement: p.tenancy ? { tenancy: p.tenancy } : undefined,
      ami: p.ami,
    };
    return { platform: { type: np.NodePoolSpecPlatformType.AWS, aws } };
  }
}
