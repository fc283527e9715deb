// An app with several mistakes at once, for the test that synth writes nothing and reports them all.
import { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } from '../../lib';

const app = new HcpApp();
const hub = new ManagementCluster(app, 'hub');
const cluster = new HostedCluster(hub, 'Bad_Name', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.0-multi'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
  networking: { clusterNetwork: ['10.0.0.0/14'], machineNetwork: ['10.1.0.0/16'] },
});
cluster.addNodePool('workers', { replicas: 2, autoScaling: { min: 3, max: 1 } });
app.synth();
