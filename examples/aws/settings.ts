// What the two halves of the AWS example share: names, account and region. Only strings cross from
// the CloudFormation app to the cdk8s app (through the deployed outputs), never construct references.
export const ENV = { account: '123456789012', region: 'us-east-1' };

export const MANAGEMENT = {
  stackName: 'hcp-management',
  oidcBucketName: 'hcp-cdk-example-oidc',
  baseDomain: 'hcp.example.com',
};

export const CLUSTER = {
  name: 'demo',
  infraId: 'demo-x7k2p',
  infraStackName: 'hcp-demo-infra',
  baseDomain: MANAGEMENT.baseDomain,
  zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
};
