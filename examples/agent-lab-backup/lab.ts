// The agent lab's vcluster2 (examples/agent-lab) as both backup apps of this folder declare it: its
// InfraEnv in a namespace of its own, hardware-inventory, which the backup neither includes nor the
// restore replaces (docs 7.6.5 and 7.6.6), and OADP with an S3-compatible store (docs 7.6.3, here
// MinIO in the lab).
import { Duration } from 'cdk8s';
import {
  AvailabilityPolicy,
  ClusterPlatform,
  DataProtectionApplication,
  HcpApp,
  HostedCluster,
  INFRAENV_LABEL,
  InfraEnv,
  ManagementCluster,
  NodePoolPlatform,
  PausedUntil,
  Release,
  SecretEncryption,
  SecretSource,
  SshPublicKey,
  UpgradeType,
} from '../../lib';

const SSH_KEY = SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 lab@example');

/** How the lab stands at one point of a procedure. */
export interface AgentLabOptions {
  /** The NodePool's node count. @default 2 */
  readonly replicas?: number;
  /** Pause the HostedCluster and its NodePool (docs 7.6.5 steps 2 and 3). @default false: leaving pausedUntil out is how to unpause */
  readonly paused?: boolean;
  /** OADP's hypershift plugin, which pauses the cluster for each backup itself. @default false */
  readonly hypershiftPlugin?: boolean;
}

/** The lab's management cluster, vcluster2 and OADP. */
export interface AgentLab {
  readonly hub: ManagementCluster;
  readonly cluster: HostedCluster;
  readonly oadp: DataProtectionApplication;
}

/** Declares the lab on the management cluster `hub` of `app`. */
export function agentLab(app: HcpApp, options: AgentLabOptions = {}): AgentLab {
  const hub = new ManagementCluster(app, 'hub');
  const paused = options.paused ? PausedUntil.indefinitely() : undefined;
  const inventory = new InfraEnv(hub, 'hardware-inventory', {
    namespace: 'hardware-inventory',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    sshAuthorizedKey: SSH_KEY,
  });
  const cluster = new HostedCluster(hub, 'vcluster2', {
    release: Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.14.10' }),
    baseDomain: 'int.massopen.cloud',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    sshKey: SSH_KEY,
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')),
    controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
    networking: { machineNetwork: ['192.0.2.0/24'] },
    platform: ClusterPlatform.agent({ agentNamespace: inventory.namespace, apiServerAddress: 'api.vcluster2.int.massopen.cloud' }),
    pausedUntil: paused,
  });
  cluster.addNodePool('workers', {
    name: 'vcluster2',
    replicas: options.replicas ?? 2,
    upgradeType: UpgradeType.IN_PLACE,
    nodeDrainTimeout: Duration.minutes(5),
    platform: NodePoolPlatform.agent({ matchLabels: { [INFRAENV_LABEL]: inventory.infraEnvName } }),
    pausedUntil: paused,
  });
  const oadp = new DataProtectionApplication(hub, 'oadp', {
    storage: {
      bucket: 'hcp-backups',
      prefix: 'vcluster2',
      region: 'minio',
      s3Url: 'http://minio.minio.svc:9000',
      credentials: SecretSource.fromExistingSecret('cloud-credentials'),
    },
    hypershiftPlugin: options.hypershiftPlugin,
  });
  return { hub, cluster, oadp };
}
