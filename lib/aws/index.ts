// The `hcp-cdk/aws` entry point: the constructs that load aws-cdk-lib (the CloudFormation side) and the
// hub credentials Secrets of an AWS management cluster. The main entry (`hcp-cdk`) never loads this
// file, so Kubernetes-only apps do not pay for aws-cdk-lib; what a cdk8s app reads back from a deployed
// stack (AwsHostedInfraOutputs, AwsNodePools) is in the main entry.
export * from './aws-hosted-infra';
export * from './aws-management-prereqs';
export * from './component-roles';
export * from './external-dns-credentials';
export * from './hosted-cluster-iam';
export * from './hosted-cluster-network';
export * from './iam-policies';
export * from './oidc-s3-credentials';
