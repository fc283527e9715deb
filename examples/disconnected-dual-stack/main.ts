// The disconnected dual-stack bare-metal cluster of the docs, 5.3.11 and 5.3.13: a mirror registry
// at registry.dns.base.domain.name:5000 with its own CA, the assisted service configured for it,
// a HostedCluster that pulls through the mirrors and trusts the CA, three BareMetalHosts booted
// through Redfish virtual media, and a NodePool of two with InPlace upgrades.
//
// Where the docs contradict themselves, this follows the API (see docs/bare-metal.md): the BMC
// address is written without brackets around its IPv4 host, the AgentServiceConfig is cluster-scoped,
// the API server is published as a NodePort on the node network, and ingress uses an L2 pool.
// BMC credentials come from a secret store through External Secrets, so no password is in git.
// One ImageMirrors description gives the HostedCluster its imageContentSources and trust bundle and
// the management cluster its ImageDigestMirrorSet (docs 5.2.3) and its trust of the registry's CA
// (docs 5.2.5.1: ConfigMap registry-config in openshift-config, named by the image configuration's
// additionalTrustedCA), so that none of them can drift apart. The
// OLM catalogs run in the guest (placement guest, as in the docs), so no catalog annotation is needed.
import {
  AssistedService,
  AvailabilityPolicy,
  BmcCredentials,
  ClusterPlatform,
  DisconnectedMirrors,
  HcpApp,
  HostedCluster,
  ImageMirrors,
  InfraEnv,
  ManagementCluster,
  Metal3Provisioning,
  MetalLBIngress,
  MirrorRegistryConfig,
  MirrorRegistryTrust,
  MultiClusterEngine,
  NodePoolPlatform,
  OlmCatalogPlacement,
  Release,
  SecretEncryption,
  SecretSource,
  SshPublicKey,
  UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

const DOMAIN = 'dns.base.domain.name';
const REGISTRY = `registry.${DOMAIN}:5000`;
// The mirror registry's CA (a placeholder certificate body; put your registry's here).
const REGISTRY_CA = [
  '-----BEGIN CERTIFICATE-----',
  'MIIBszCCAVmgAwIBAgIUZ2V4YW1wbGUtbWlycm9yLXJlZ2lzdHJ5LWNhMAoGCCqGSM49BAMCMC0xKzApBgNVBAMMInJl',
  'Z2lzdHJ5LmRucy5iYXNlLmRvbWFpbi5uYW1lIG1pcnJvciBDQTAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAwMDBa',
  '-----END CERTIFICATE-----',
  '',
].join('\n');
const SSH_KEY = SshPublicKey.fromString('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 admin@hypershift');
const RELEASE = Release.fromImage(`${REGISTRY}/openshift/release-images@sha256:e3ba11bd1e5e8ea5a0b36a75791c90f29afb0fdbe4125be4e48f69c76a5c47a0`, { version: '4.17.0' });

const MIRRORS = new ImageMirrors({
  registry: REGISTRY,
  caPem: REGISTRY_CA,
  repositories: [
    { source: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', mirrors: [`${REGISTRY}/openshift/release`] },
    { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${REGISTRY}/openshift/release-images`] },
  ],
});

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');

// Management cluster: MCE with HyperShift, Metal3 watching all namespaces, the assisted service
// with the mirror registry and the RHCOS images served by the local web server (port 8080).
new MultiClusterEngine(hub, 'mce');
new Metal3Provisioning(hub, 'provisioning');
new AssistedService(hub, 'assisted-service', {
  databaseStorage: { size: '10Gi', storageClassName: 'lvms-vg1' },
  filesystemStorage: { size: '20Gi', storageClassName: 'lvms-vg1' },
  mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(
    [
      'unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]',
      '',
      '[[registry]]',
      'prefix = ""',
      'location = "registry.redhat.io/openshift4"',
      'mirror-by-digest-only = true',
      '',
      '[[registry.mirror]]',
      `  location = "${REGISTRY}/openshift4"`,
      '',
    ].join('\n'),
    { caBundle: REGISTRY_CA },
  ),
  osImages: [
    {
      openshiftVersion: '4.17',
      version: '417.94.202409121747-0',
      url: `http://registry.${DOMAIN}:8080/images/rhcos-417.94.202409121747-0-live.x86_64.iso`,
      rootFsUrl: `http://registry.${DOMAIN}:8080/images/rhcos-417.94.202409121747-0-live-rootfs.x86_64.img`,
    },
  ],
});

const cluster = new HostedCluster(hub, 'hosted-dual', {
  release: RELEASE,
  baseDomain: DOMAIN,
  pullSecret: SecretSource.fromExistingSecret('hosted-dual-pull-secret'),
  sshKey: SSH_KEY,
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('hosted-dual-etcd-encryption-key')),
  controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
  olmCatalogPlacement: OlmCatalogPlacement.GUEST,
  additionalTrustBundle: MIRRORS.trustBundle,
  imageContentSources: MIRRORS.imageContentSources,
  networking: {
    clusterNetwork: ['10.132.0.0/14', 'fd01::/48'],
    serviceNetwork: ['172.31.0.0/16', 'fd02::/112'],
    machineNetwork: ['192.168.126.0/24', '2620:52:0:1306::/64'],
  },
  platform: ClusterPlatform.agent({ agentNamespace: 'clusters-hosted-dual', apiServerAddress: `api.hosted-dual.${DOMAIN}` }),
});

// Control-plane pods on the management cluster pull through the same mirrors, and the hub trusts
// the registry's CA, so that the HyperShift Operator can read the release payload there.
new DisconnectedMirrors(hub, 'release-mirrors', { mirrors: MIRRORS, clusters: [cluster] });
new MirrorRegistryTrust(hub, 'registry-trust', { mirrors: MIRRORS });

// The Agents live in the hosted control plane's namespace, as in the docs (5.3.13.3).
const infraEnv = new InfraEnv(hub, 'hosted-dual-infraenv', {
  name: 'hosted-dual',
  namespace: 'clusters-hosted-dual',
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  sshAuthorizedKey: SSH_KEY,
  additionalTrustBundle: REGISTRY_CA,
});
for (const n of [0, 1, 2]) {
  infraEnv.addHost(`hosted-dual-worker${n}`, {
    hostname: `hosted-dual-worker${n}`,
    bmc: {
      address: `redfish-virtualmedia://192.168.126.1:9000/redfish/v1/Systems/local/hosted-dual-worker${n}`,
      credentials: BmcCredentials.fromExternalSecret({
        storeName: 'lab-vault',
        username: { remoteKey: `bmc/hosted-dual-worker${n}`, remoteProperty: 'username' },
        password: { remoteKey: `bmc/hosted-dual-worker${n}`, remoteProperty: 'password' },
      }),
      disableCertificateVerification: true,
    },
    bootMacAddress: `aa:aa:aa:aa:02:1${n + 1}`,
  });
}

cluster.addNodePool('workers', {
  name: 'hosted-dual',
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  platform: NodePoolPlatform.agent(),
});

new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.168.126.30', '2620:52:0:1306::30'] });

app.synth();
