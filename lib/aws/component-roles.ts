import type { AwsClusterRoles } from '../platform/aws-infra';

/**
 * One control-plane component that reaches AWS through the cluster's OIDC provider: upstream's
 * `policyBinding` (`hypershift create iam aws`). The role is named `<infraId>-<name>` and trusts
 * exactly these service accounts of the hosted cluster.
 */
export interface AwsComponentRole {
  /** The binding name, also the role name's suffix. */
  readonly name: string;
  /** The service accounts (`system:serviceaccount:<namespace>:<name>`) allowed to assume the role. */
  readonly serviceAccounts: readonly string[];
}

/** A component role whose ARN goes into the HostedCluster's `spec.platform.aws.rolesRef`. */
export interface AwsClusterComponentRole extends AwsComponentRole {
  /** The `AwsClusterRoles` field (HostedCluster `rolesRef.<field>`, spelled `...ARN` there) the ARN fills. */
  readonly rolesRefField: keyof AwsClusterRoles;
}

/** The seven roles of `rolesRef`, in the order of upstream's binding table. */
export const AWS_CLUSTER_COMPONENT_ROLES: readonly AwsClusterComponentRole[] = [
  {
    name: 'openshift-ingress',
    rolesRefField: 'ingressArn',
    serviceAccounts: ['system:serviceaccount:openshift-ingress-operator:ingress-operator'],
  },
  {
    name: 'openshift-image-registry',
    rolesRefField: 'imageRegistryArn',
    serviceAccounts: ['system:serviceaccount:openshift-image-registry:cluster-image-registry-operator', 'system:serviceaccount:openshift-image-registry:registry'],
  },
  {
    name: 'aws-ebs-csi-driver-controller',
    rolesRefField: 'storageArn',
    serviceAccounts: ['system:serviceaccount:openshift-cluster-csi-drivers:aws-ebs-csi-driver-controller-sa'],
  },
  {
    name: 'cloud-controller',
    rolesRefField: 'kubeCloudControllerArn',
    serviceAccounts: ['system:serviceaccount:kube-system:kube-controller-manager'],
  },
  {
    name: 'node-pool',
    rolesRefField: 'nodePoolManagementArn',
    serviceAccounts: ['system:serviceaccount:kube-system:capa-controller-manager'],
  },
  {
    name: 'control-plane-operator',
    rolesRefField: 'controlPlaneOperatorArn',
    serviceAccounts: ['system:serviceaccount:kube-system:control-plane-operator'],
  },
  {
    name: 'cloud-network-config-controller',
    rolesRefField: 'networkArn',
    serviceAccounts: ['system:serviceaccount:openshift-cloud-network-config-controller:cloud-network-config-controller'],
  },
];

/**
 * The role the KMS provider assumes to encrypt etcd with a customer key; only created with a key.
 * Its ARN goes into the HostedCluster's `spec.secretEncryption.kms.aws.auth.awsKms`.
 */
export const AWS_KMS_PROVIDER_ROLE: AwsComponentRole = {
  name: 'kms-provider',
  serviceAccounts: ['system:serviceaccount:kube-system:kms-provider'],
};

/** The binding names that get an extra `<role>-assume` policy in shared-VPC mode (upstream `allowAssumeRole`). */
export const SHARED_VPC_ASSUMING_ROLES: readonly string[] = ['openshift-ingress', 'control-plane-operator'];

/** The role of the worker instance profile, `<infraId>-worker-role` (not assumed through OIDC). */
export const WORKER_ROLE_SUFFIX = 'worker-role';
/** The worker instance profile `<infraId>-worker`, the NodePools' default `instanceProfile`. */
export const WORKER_INSTANCE_PROFILE_SUFFIX = 'worker';
/** Shared VPC: the Route 53 role (VPC owner's account, or the cluster's with private zones there). */
export const SHARED_VPC_ROUTE53_ROLE_SUFFIX = 'shared-vpc-route53';
/** Shared VPC: the VPC-endpoint role, always in the VPC owner's account. */
export const SHARED_VPC_ENDPOINT_ROLE_SUFFIX = 'shared-vpc-endpoint';

/** IAM's limit on role names. */
export const IAM_ROLE_NAME_MAX_LENGTH = 64;

/** Every role suffix one hosted cluster can get, longest first. */
export function allRoleSuffixes(): string[] {
  return [...AWS_CLUSTER_COMPONENT_ROLES.map((r) => r.name), AWS_KMS_PROVIDER_ROLE.name, WORKER_ROLE_SUFFIX, SHARED_VPC_ROUTE53_ROLE_SUFFIX, SHARED_VPC_ENDPOINT_ROLE_SUFFIX].sort(
    (a, b) => b.length - a.length,
  );
}
