// The default example: the lab's vcluster2 on the Agent platform
// (shared/reference/seed-docs/readme-agent-hcp-lab.txt), with no secret material in the output.
import { Duration } from 'cdk8s';
import {
  AvailabilityPolicy, ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, NodePoolPlatform,
  Release, SecretEncryption, SecretSource, SshPublicKey, UpgradeType,
} from '../../lib';

const app = new HcpApp();
const hub = new ManagementCluster(app, 'hub');

const vcluster2 = new HostedCluster(hub, 'vcluster2', {
  release: Release.fromImage(
    'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa',
    { version: '4.14.10' },
  ),
  baseDomain: 'int.massopen.cloud',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshKey: SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 lab@example'),
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  platform: ClusterPlatform.agent({
    agentNamespace: 'hardware-inventory',
    apiServerAddress: 'api.vcluster2.int.massopen.cloud',
  }),
});

vcluster2.addNodePool('workers', {
  name: 'vcluster2',
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  nodeDrainTimeout: Duration.minutes(5),
  platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'vcluster2' } }),
});

app.synth();
