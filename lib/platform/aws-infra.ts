/** The IAM roles the control-plane components assume through the cluster's OIDC provider. */
export interface AwsClusterRoles {
  readonly ingressArn: string;
  readonly imageRegistryArn: string;
  readonly storageArn: string;
  readonly networkArn: string;
  readonly kubeCloudControllerArn: string;
  readonly nodePoolManagementArn: string;
  readonly controlPlaneOperatorArn: string;
}

/** A customer-managed KMS key for etcd encryption and the role the KMS provider assumes. */
export interface AwsKmsEncryption {
  readonly activeKeyArn: string;
  /** @default - no backup key */
  readonly backupKeyArn?: string;
  readonly providerRoleArn: string;
}

/** One Availability Zone of a hosted cluster and the private subnet its nodes use there. */
export interface AwsHostedInfraZone {
  readonly name: string;
  readonly subnetId: string;
}

/**
 * Everything the HostedCluster and its NodePools need from the AWS prerequisites (upstream's
 * `create infra aws` and `create iam aws` outputs). Role ARNs, the issuer URL and the instance
 * profile are known at synth (deterministic names); VPC, subnet and zone IDs and a new KMS key's
 * ARN are only known once the stack is deployed.
 */
export interface AwsHostedInfraValues {
  readonly infraId: string;
  readonly region: string;
  readonly issuerUrl: string;
  readonly vpcId: string;
  /** The VPC CIDR, written as the cluster's machine network. */
  readonly machineCidr: string;
  /** The first zone is the cluster's default (cloud provider) subnet. */
  readonly zones: readonly AwsHostedInfraZone[];
  /** @default - no public zone (private clusters) */
  readonly publicZoneId?: string;
  readonly privateZoneId: string;
  /** The `<name>.hypershift.local` zone. @default - none */
  readonly localZoneId?: string;
  readonly roles: AwsClusterRoles;
  readonly instanceProfileName: string;
  /** @default - etcd is encrypted with AES-CBC, not KMS */
  readonly kms?: AwsKmsEncryption;
  /** @default - none */
  readonly resourceTags?: Readonly<Record<string, string>>;
}

/** Something that knows a hosted cluster's AWS prerequisites: AwsHostedInfra, or its deployed outputs. */
export interface IAwsHostedInfra {
  readonly values: AwsHostedInfraValues;
}

/** Whether a string is an unresolved CDK token (`${Token[...]}`), i.e. only known after deploy. */
export function isUnresolvedToken(value: unknown): boolean {
  return typeof value === 'string' && /\$\{Token\[|#\{Token\[|\[TOKEN\./.test(value);
}
