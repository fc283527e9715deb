// A benchmark app: CLUSTERS agent clusters, each a HostedCluster, an SSH-key Secret and a NodePool
// (3 objects), under one management cluster. HCP_VALIDATE=false turns the object check off.
import { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, NodePoolPlatform, Release, SecretSource, SshPublicKey } from '../../lib';

export function buildApp(clusters: number, outdir: string, validateObjects: boolean): HcpApp {
  const app = new HcpApp({ outdir, validateObjects, compareWithPreviousOutput: false });
  const hub = new ManagementCluster(app, 'hub');
  for (let i = 0; i < clusters; i++) {
    const name = `cluster-${String(i).padStart(4, '0')}`;
    const cluster = new HostedCluster(hub, name, {
      release: Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.17.0' }),
      baseDomain: 'bench.example.com',
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      sshKey: SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 bench@example'),
      platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: `api.${name}.bench.example.com` }),
    });
    cluster.addNodePool('workers', { replicas: 2, platform: NodePoolPlatform.agent({ matchLabels: { pool: name } }) });
  }
  return app;
}

if (require.main === module) {
  const clusters = Number(process.env.CLUSTERS ?? '333');
  buildApp(clusters, process.env.OUTDIR ?? 'dist-bench', process.env.HCP_VALIDATE !== 'false').synth();
}
