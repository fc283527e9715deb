// The Kubernetes half of the self-managed AWS example: the HostedCluster `demo` and one NodePool per
// zone, every AWS value read from the deployed infra stack's outputs (no ARN or ID copied by hand).
//
//   npx cdk deploy --app 'node build/examples/aws/infra.js' --all --outputs-file outputs.json
//   AWS_OUTPUTS_FILE=outputs.json npx cdk8s synth --no-check-upgrade --app 'node build/examples/aws/clusters.js'
//
// Without AWS_OUTPUTS_FILE it reads examples/aws/outputs.example.json, a sample of what cdk deploy
// writes (the IDs in it are made up), so the example synthesizes without an AWS account.
import { AvailabilityPolicy, AwsHostedInfraOutputs, AwsNodePools, ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource, SshPublicKey } from '../../lib';
import { exampleFile } from '../example-file';
import { exampleDelivery } from '../delivery';
import { CLUSTER } from './settings';

const outputsFile = process.env.AWS_OUTPUTS_FILE ?? exampleFile('aws', 'outputs.example.json');
const infra = AwsHostedInfraOutputs.fromOutputsFile(outputsFile, CLUSTER.infraStackName);

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');
const cluster = new HostedCluster(hub, CLUSTER.name, {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.0-multi'),
  baseDomain: CLUSTER.baseDomain,
  pullSecret: SecretSource.fromExistingSecret(`${CLUSTER.name}-pull-secret`),
  sshKey: SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 admin@example.com'),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  platform: ClusterPlatform.aws({ infra }),
});
AwsNodePools.perZone(cluster, infra, { replicas: 1 });

app.synth();
