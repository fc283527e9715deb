// The default example: the agent lab's vcluster2 (shared/reference/seed-docs/readme-agent-hcp-lab.txt)
// on the Agent platform. A shared InfraEnv `hardware-inventory` holds four bare-metal hosts; the
// NodePool takes two of them; MetalLB gives the hosted cluster its ingress address. No secret
// material is written: the pull secret, etcd key and BMC credentials are referenced.
//
// Output: dist/hub/ (management cluster: namespaces, inventory, HostedCluster, NodePool) and
// dist/vcluster2-guest/ (applied inside the hosted cluster: MetalLB and the ingress Service).
import { Duration } from 'cdk8s';
import {
  AvailabilityPolicy,
  BmcCredentials,
  ClusterPlatform,
  HcpApp,
  HostedCluster,
  INFRAENV_LABEL,
  InfraEnv,
  ManagementCluster,
  MetalLBIngress,
  NodePoolPlatform,
  Release,
  SecretEncryption,
  SecretSource,
  SshPublicKey,
  UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

const SSH_KEY = SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 lab@example');

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');

// One inventory for all the lab's hosted clusters ("a common InfraEnv shared by all clusters").
const inventory = new InfraEnv(hub, 'hardware-inventory', {
  namespace: 'hardware-inventory',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshAuthorizedKey: SSH_KEY,
});
for (const n of [1, 2, 3, 4]) {
  inventory.addHost(`moc-host-${n}`, {
    bmc: {
      address: `redfish-virtualmedia://192.0.2.${10 + n}/redfish/v1/Systems/1`,
      credentials: BmcCredentials.fromExistingSecret(`moc-host-${n}-bmc`),
      disableCertificateVerification: true,
    },
    bootMacAddress: `aa:aa:aa:aa:00:0${n}`,
  });
}

const vcluster2 = new HostedCluster(hub, 'vcluster2', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.14.10' }),
  baseDomain: 'int.massopen.cloud',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshKey: SSH_KEY,
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  networking: { machineNetwork: ['192.0.2.0/24'] },
  platform: ClusterPlatform.agent({
    agentNamespace: inventory.namespace,
    apiServerAddress: 'api.vcluster2.int.massopen.cloud',
  }),
});

// Two of the inventory's Agents, whichever are free ("oc scale nodepool/vcluster2 --replicas 2").
vcluster2.addNodePool('workers', {
  name: 'vcluster2',
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  nodeDrainTimeout: Duration.minutes(5),
  platform: NodePoolPlatform.agent({ matchLabels: { [INFRAENV_LABEL]: inventory.infraEnvName } }),
});

// *.apps.vcluster2.int.massopen.cloud points at this address, announced on the node network.
new MetalLBIngress(vcluster2.guest, 'ingress', { cluster: vcluster2, addresses: ['192.0.2.100'] });

app.synth();
