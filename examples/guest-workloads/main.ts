// A hosted cluster with something running in it: KubeVirt cluster `apps1` on the management cluster
// `hub`, and in its guest chart (`apps1.guest`) a small web workload written with cdk8s-plus-28 —
// a Namespace, a ConfigMap with the page, a Deployment that serves it and a Service in front.
//
// The guest chart's objects are applied inside the hosted cluster, not on the hub: they land in
// dist/apps1-guest/, ranked and with sync waves like every other object, and the delivery applies
// that folder once the HostedCluster is Available. No secret material is written: the pull secret
// and etcd key are referenced.
import { Size } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { AvailabilityPolicy, ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, NodePoolPlatform, Release, SecretEncryption, SecretSource } from '../../lib';
import { exampleDelivery } from '../delivery';

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');

const apps1 = new HostedCluster(hub, 'apps1', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.14.10' }),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('apps1-etcd-encryption-key')),
  controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
  // The VMs run on the hub; the guest's *.apps is a subdomain of the hub's own.
  platform: ClusterPlatform.kubevirt(),
});
apps1.addNodePool('workers', { replicas: 2, platform: NodePoolPlatform.kubevirt() });

// Inside apps1: everything below is in the guest chart, so it reaches apps1, not the hub.
const namespace = new kplus.Namespace(apps1.guest, 'hello-namespace', { metadata: { name: 'hello' } });
const content = new kplus.ConfigMap(apps1.guest, 'hello-content', {
  metadata: { name: 'hello-content', namespace: namespace.name },
  data: { 'index.html': '<!doctype html><title>apps1</title><p>Served from apps1, delivered with its hosted cluster.</p>\n' },
});
const web = new kplus.Deployment(apps1.guest, 'hello', {
  metadata: { name: 'hello', namespace: namespace.name },
  replicas: 2,
  containers: [
    {
      name: 'web',
      // Runs as any non-root user, as OpenShift's restricted SCC assigns one.
      image: 'docker.io/nginxinc/nginx-unprivileged:1.27-alpine',
      portNumber: 8080,
      imagePullPolicy: kplus.ImagePullPolicy.IF_NOT_PRESENT,
      resources: {
        cpu: { request: kplus.Cpu.millis(50), limit: kplus.Cpu.millis(200) },
        memory: { request: Size.mebibytes(32), limit: Size.mebibytes(128) },
      },
    },
  ],
});
web.containers[0].mount('/usr/share/nginx/html', kplus.Volume.fromConfigMap(apps1.guest, 'hello-content-volume', content));
// kplus keeps the root filesystem read-only; nginx writes its pid and caches under /tmp.
web.containers[0].mount('/tmp', kplus.Volume.fromEmptyDir(apps1.guest, 'hello-tmp', 'tmp'));
web.exposeViaService({ name: 'hello', ports: [{ port: 80, targetPort: 8080 }] });

app.synth();
