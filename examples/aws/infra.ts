// The CloudFormation half of the self-managed AWS example: one stack for the management account's
// prerequisites (OIDC discovery bucket, public zone of the base domain) and one stack per hosted
// cluster (VPC, subnets, NAT, private zones, OIDC provider, component roles, worker profile, etcd key).
//
//   npx cdk synth  --app 'node build/examples/aws/infra.js'
//   npx cdk deploy --app 'node build/examples/aws/infra.js' --all --outputs-file outputs.json
//
// Stacks exchange strings, not references: the cluster stack gets the bucket name and the public
// zone ID as values, so no CloudFormation export ties one cluster's stack to another's.
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { AwsHostedInfra, AwsManagementPrereqs, PublicZone } from '../../lib/aws';
import { CLUSTER, ENV, MANAGEMENT } from './settings';

const app = new App();

const management = new Stack(app, MANAGEMENT.stackName, { env: ENV, description: 'hcp-cdk: management-account prerequisites of hosted control planes' });
const prereqs = new AwsManagementPrereqs(management, 'Prerequisites', {
  oidcBucketName: MANAGEMENT.oidcBucketName,
  baseDomain: MANAGEMENT.baseDomain,
  publicZone: PublicZone.create(),
});

const clusterStack = new Stack(app, CLUSTER.infraStackName, { env: ENV, description: `hcp-cdk: AWS infrastructure of hosted cluster ${CLUSTER.name}` });
new AwsHostedInfra(clusterStack, 'Infra', {
  infraId: CLUSTER.infraId,
  clusterName: CLUSTER.name,
  baseDomain: CLUSTER.baseDomain,
  // A value, not a reference: read it from the management stack's outputs in a real pipeline.
  publicZoneId: process.env.PUBLIC_ZONE_ID ?? 'Z0EXAMPLEPUBLICZONE',
  oidcBucketName: prereqs.bucketName,
  zones: CLUSTER.zones,
  etcdEncryption: { createKey: true },
  tags: { 'hcp-cdk.example/cluster': CLUSTER.name },
});

// Security review on every synth: unacknowledged AwsSolutions findings fail `cdk synth`.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
