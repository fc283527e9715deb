import { show } from '../core/problems';
import { isPlainObject } from '../core/runtime-props';

/** The IAM roles the control-plane components assume through the cluster's OIDC provider. */
export interface AwsClusterRoles {
  /** The role of the ingress operator. */
  readonly ingressArn: string;
  /** The role of the image registry operator. */
  readonly imageRegistryArn: string;
  /** The role of the EBS CSI driver. */
  readonly storageArn: string;
  /** The role of the cloud network config controller. */
  readonly networkArn: string;
  /** The role of the Kubernetes cloud controller manager. */
  readonly kubeCloudControllerArn: string;
  /** The role of the node pool management (Cluster API provider AWS). */
  readonly nodePoolManagementArn: string;
  /** The role of the control-plane operator. */
  readonly controlPlaneOperatorArn: string;
}

/** A customer-managed KMS key for etcd encryption and the role the KMS provider assumes. */
export interface AwsKmsEncryption {
  /** The KMS key that encrypts etcd. */
  readonly activeKeyArn: string;
  /** @default - no backup key */
  readonly backupKeyArn?: string;
  /** The role the KMS provider assumes to use the key. */
  readonly providerRoleArn: string;
}

/** One Availability Zone of a hosted cluster and the private subnet its nodes use there. */
export interface AwsHostedInfraZone {
  /** The zone's name, e.g. `us-east-1a`. */
  readonly name: string;
  /** The private subnet's ID. */
  readonly subnetId: string;
}

/**
 * Everything the HostedCluster and its NodePools need from the AWS prerequisites (upstream's
 * `create infra aws` and `create iam aws` outputs). Role ARNs, the issuer URL and the instance
 * profile are known at synth (deterministic names); VPC, subnet and zone IDs and a new KMS key's
 * ARN are only known once the stack is deployed.
 */
export interface AwsHostedInfraValues {
  /** The infrastructure ID, the prefix of every resource's name. */
  readonly infraId: string;
  /** The region. */
  readonly region: string;
  /** The OIDC issuer URL the service account tokens name. */
  readonly issuerUrl: string;
  /** The VPC's ID. */
  readonly vpcId: string;
  /** The VPC CIDR, written as the cluster's machine network. */
  readonly machineCidr: string;
  /** The first zone is the cluster's default (cloud provider) subnet. */
  readonly zones: readonly AwsHostedInfraZone[];
  /** @default - no public zone (private clusters) */
  readonly publicZoneId?: string;
  /** The private hosted zone's ID, `<name>.<baseDomain>`. */
  readonly privateZoneId: string;
  /** The `<name>.hypershift.local` zone. @default - none */
  readonly localZoneId?: string;
  /** The component roles' ARNs. */
  readonly roles: AwsClusterRoles;
  /** The worker instance profile's name. */
  readonly instanceProfileName: string;
  /** @default - etcd is encrypted with AES-CBC, not KMS */
  readonly kms?: AwsKmsEncryption;
  /** @default - none */
  readonly resourceTags?: Readonly<Record<string, string>>;
}

/** Something that knows a hosted cluster's AWS prerequisites: AwsHostedInfra, or its deployed outputs. */
export interface IAwsHostedInfra {
  /** The values, known at synth or read from the deployed outputs. */
  readonly values: AwsHostedInfraValues;
}

/** Whether a string is an unresolved CDK token (`${Token[...]}`), i.e. only known after deploy. */
export function isUnresolvedToken(value: unknown): boolean {
  return typeof value === 'string' && /\$\{Token\[|#\{Token\[|\[TOKEN\./.test(value);
}

const INFRA_TEXT_VALUES = ['infraId', 'region', 'issuerUrl', 'vpcId', 'machineCidr', 'privateZoneId', 'instanceProfileName'] as const;
const INFRA_ROLES: readonly (keyof AwsClusterRoles)[] = ['ingressArn', 'imageRegistryArn', 'storageArn', 'networkArn', 'kubeCloudControllerArn', 'nodePoolManagementArn', 'controlPlaneOperatorArn'];

/**
 * What AwsHostedInfraValues given as data (a fleet file, JSON, a JavaScript object) lack: each
 * missing or mistyped value by its field under `field` (`aws.infra.vpcId (undefined) ...`), so that a
 * partial set is named rather than read as if it were whole.
 * @param except values given another way (the platform's explicit props), not needed here
 */
export function awsHostedInfraValuesProblems(values: unknown, field: string, except: ReadonlySet<string> = new Set()): string[] {
  if (!isPlainObject(values)) {
    return [`${field} (${show(values)}) must be the AwsHostedInfra values: ${INFRA_TEXT_VALUES.join(', ')}, zones and roles`];
  }
  const problems: string[] = [];
  const text = (name: string, value: unknown, required: boolean) => {
    if (value === undefined ? required : typeof value !== 'string' || value === '') problems.push(`${field}.${name} (${show(value)}) must be given, as text`);
  };
  for (const name of INFRA_TEXT_VALUES) if (!except.has(name)) text(name, values[name], true);
  for (const name of ['publicZoneId', 'localZoneId']) text(name, values[name], false);
  const zones = values.zones;
  if (!except.has('zones')) {
    if (!Array.isArray(zones) || zones.length === 0) problems.push(`${field}.zones (${show(zones)}) must list the cluster's zones, each { name, subnetId }`);
    else zones.forEach((zone, i) => ['name', 'subnetId'].forEach((name) => text(`zones[${i}].${name}`, (zone as Record<string, unknown> | undefined)?.[name], true)));
  }
  const roles = values.roles;
  if (!except.has('roles')) {
    if (!isPlainObject(roles)) problems.push(`${field}.roles (${show(roles)}) must give the role ARNs ${INFRA_ROLES.join(', ')}`);
    else for (const name of INFRA_ROLES) text(`roles.${name}`, roles[name], true);
  }
  const kms = values.kms;
  if (kms !== undefined) {
    if (!isPlainObject(kms)) problems.push(`${field}.kms (${show(kms)}) must give activeKeyArn and providerRoleArn`);
    else {
      text('kms.activeKeyArn', kms.activeKeyArn, true);
      text('kms.providerRoleArn', kms.providerRoleArn, true);
      text('kms.backupKeyArn', kms.backupKeyArn, false);
    }
  }
  const tags = values.resourceTags;
  if (tags !== undefined && (!isPlainObject(tags) || Object.values(tags).some((v) => typeof v !== 'string'))) {
    problems.push(`${field}.resourceTags (${show(tags)}) must map tag keys to text values`);
  }
  return problems;
}
