// A nightly backup of the agent lab's vcluster2 with OADP, and the Restore that recovers it
// (docs 7.6, "Disaster recovery for a hosted cluster by using OADP"). The cluster is the default
// example's (examples/agent-lab); its InfraEnv sits in its own namespace, hardware-inventory, which
// the backup neither includes nor the restore replaces (docs 7.6.5 and 7.6.6). OADP's hypershift
// plugin pauses the HostedCluster and NodePool for each backup, which a Schedule needs.
//
// Output: dist/hub/ (OADP, the DataProtectionApplication, the cluster and its nightly Schedule) and
// dist/hub-restore/ (the Restore: apply it only to recover, after the cluster is destroyed).
import { Duration } from 'cdk8s';
import {
  AvailabilityPolicy, ClusterPlatform, DataProtectionApplication, HcpApp, HostedCluster, HostedClusterBackup, HostedClusterRestore,
  INFRAENV_LABEL, InfraEnv, ManagementCluster, NodePoolPlatform, Release, SecretEncryption, SecretSource, SshPublicKey, UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

const SSH_KEY = SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 lab@example');

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');

const inventory = new InfraEnv(hub, 'hardware-inventory', {
  namespace: 'hardware-inventory',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshAuthorizedKey: SSH_KEY,
});

const vcluster2 = new HostedCluster(hub, 'vcluster2', {
  release: Release.fromImage(
    'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa',
    { version: '4.14.10' },
  ),
  baseDomain: 'int.massopen.cloud',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshKey: SSH_KEY,
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  networking: { machineNetwork: ['192.0.2.0/24'] },
  platform: ClusterPlatform.agent({ agentNamespace: inventory.namespace, apiServerAddress: 'api.vcluster2.int.massopen.cloud' }),
});
vcluster2.addNodePool('workers', {
  name: 'vcluster2',
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  nodeDrainTimeout: Duration.minutes(5),
  platform: NodePoolPlatform.agent({ matchLabels: { [INFRAENV_LABEL]: inventory.infraEnvName } }),
});

// Docs 7.6.3, "Preparing bare metal to use OADP": an S3-compatible store (here MinIO in the lab).
const oadp = new DataProtectionApplication(hub, 'oadp', {
  storage: {
    bucket: 'hcp-backups',
    prefix: 'vcluster2',
    region: 'minio',
    s3Url: 'http://minio.minio.svc:9000',
    credentials: SecretSource.fromExistingSecret('cloud-credentials'),
  },
  hypershiftPlugin: true,
});

// Docs 7.6.5, "Backing up the control plane workload", every night at 01:00, kept for a week.
const backup = new HostedClusterBackup(vcluster2, 'backup', {
  cluster: vcluster2,
  dataProtection: oadp,
  schedule: '0 1 * * *',
  ttl: Duration.days(7),
});

// Docs 7.6.6, "Restoring a hosted cluster by using OADP": the latest backup of the schedule.
new HostedClusterRestore(new ManagementCluster(app, 'hub-restore'), 'vcluster2', { backup });

app.synth();
