// Day 2 on one disconnected bare-metal cluster: who logs in (OpenID for people, htpasswd for break-glass),
// what the API server presents and records, the egress proxy and registry policy, a Technology
// Preview feature set, node configuration and tuning for two pools, and the mirror registry feeding
// the HostedCluster, the management cluster's ImageDigestMirrorSet, the assisted service and the
// OLM catalogs from one description. No secret material is in the output: every Secret is one you
// create, or one External Secrets makes from a secret store.
import { Duration } from 'cdk8s';
import {
  ApiServerConfiguration,
  AssistedService,
  AuditProfile,
  ClusterOAuth,
  ClusterPlatform,
  ClusterProxy,
  DisconnectedMirrors,
  FeatureGates,
  FeatureSet,
  HcpApp,
  HostedCluster,
  IdentityProvider,
  ImageMirrors,
  ImageRegistryPolicy,
  MachineConfiguration,
  ManagementCluster,
  MappingMethod,
  MirrorRegistryConfig,
  MultiClusterEngine,
  NodePerformanceProfile,
  NodePoolPlatform,
  NodeTuning,
  OlmCatalogMirrors,
  OlmCatalogPlacement,
  Release,
  SecretEncryption,
  SecretSource,
  UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

const DOMAIN = 'lab.example.com';
const REGISTRY = `registry.${DOMAIN}:5000`;
// The mirror registry's CA (a placeholder certificate body; put your registry's here).
const REGISTRY_CA = ['-----BEGIN CERTIFICATE-----', 'MIIBszCCAVmgAwIBAgIUZGF5Mi1taXJyb3ItcmVnaXN0cnktY2EwCgYIKoZIzj0EAwIwKzEpMCcGA1UEAwwgcmVnaXN0', '-----END CERTIFICATE-----', ''].join('\n');
const VAULT = 'lab-vault';

// The mirror registry, once: the release repositories, the assisted service's images and the OLM
// catalogs, mirrored under their names (so registry overrides suffice for the catalogs, docs 5.2.3).
const mirrors = new ImageMirrors({
  registry: REGISTRY,
  caPem: REGISTRY_CA,
  repositories: [
    { source: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', mirrors: [`${REGISTRY}/openshift/release`] },
    { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${REGISTRY}/openshift/release-images`] },
    { source: 'registry.redhat.io/openshift4', mirrors: [`${REGISTRY}/openshift4`] },
    { source: 'registry.redhat.io/redhat', mirrors: [`${REGISTRY}/redhat`] },
  ],
  olmCatalogs: OlmCatalogMirrors.registryOverrides({ 'registry.redhat.io/redhat': `${REGISTRY}/redhat` }),
});

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');
new MultiClusterEngine(hub, 'mce');
new AssistedService(hub, 'assisted-service', {
  mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(mirrors.registriesConf, { caBundle: REGISTRY_CA }),
  osImages: [
    {
      openshiftVersion: '4.17',
      version: '417.94.202409121747-0',
      url: `http://registry.${DOMAIN}:8080/images/rhcos-417.94.202409121747-0-live.x86_64.iso`,
    },
  ],
});

const cluster = new HostedCluster(hub, 'day2', {
  // Mirrors match digests, so the release is named by one.
  release: Release.fromImage(`${REGISTRY}/openshift/release-images@sha256:${'5d'.repeat(32)}`, { version: '4.17.0' }),
  baseDomain: DOMAIN,
  pullSecret: SecretSource.fromExistingSecret('day2-pull-secret'),
  secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('day2-etcd-encryption-key')),
  imageContentSources: mirrors.imageContentSources,
  additionalTrustBundle: mirrors.trustBundle,
  olmCatalogPlacement: OlmCatalogPlacement.MANAGEMENT,
  kubeApiServerDnsName: `api.day2.corp.example.com`,
  platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: '192.168.126.10' }),
});
new DisconnectedMirrors(hub, 'mirrors', { mirrors, clusters: [cluster] });

// Identity: people through the corporate OpenID provider (docs 8.1), a break-glass htpasswd user.
new ClusterOAuth(cluster, 'oauth', {
  identityProviders: [
    IdentityProvider.openId({
      name: 'corp-sso',
      mappingMethod: MappingMethod.CLAIM,
      clientId: 'day2',
      clientSecret: SecretSource.fromExternalSecret({ storeName: VAULT, remoteKey: 'oauth/day2', remoteProperty: 'clientSecret' }),
      issuer: 'https://sso.example.com/realms/corp',
      claims: { preferredUsername: ['preferred_username'], name: ['name'], email: ['email'], groups: ['groups'] },
    }),
    IdentityProvider.htpasswd({ name: 'break-glass', fileData: SecretSource.fromExternalSecret({ storeName: VAULT, remoteKey: 'oauth/day2-htpasswd' }) }),
  ],
  accessTokenInactivityTimeout: Duration.hours(8),
});

// The API server presents the corporate certificate at the corporate name and records write bodies.
new ApiServerConfiguration(cluster, 'api-server', {
  // A TLS Secret cert-manager keeps current (a SecretSource carries one key, a certificate needs two).
  namedCertificates: [{ names: ['api.day2.corp.example.com'], certificate: SecretSource.fromExistingSecret('day2-api-certificate') }],
  auditProfile: AuditProfile.WRITE_REQUEST_BODIES,
});
new ClusterProxy(cluster, 'proxy', { httpsProxy: 'http://proxy.example.com:3128', noProxy: [`.${DOMAIN}`, '192.168.126.0/24'] });
new ImageRegistryPolicy(cluster, 'registries', { allowedRegistries: [REGISTRY, 'quay.io/openshift-release-dev', 'registry.redhat.io'] });
new FeatureGates(cluster, 'features', { featureSet: FeatureSet.TECH_PREVIEW_NO_UPGRADE, acknowledgeIrreversibleNoUpgrade: true });

// Nodes: chrony from the lab's time server everywhere, a shared Tuned (docs 9.2), and a
// low-latency pool with a PerformanceProfile.
const chrony = new MachineConfiguration(cluster, 'chrony', {
  files: [{ path: '/etc/chrony.conf', contents: `server ntp.${DOMAIN} iburst\ndriftfile /var/lib/chrony/drift\nmakestep 1.0 3\nrtcsync\n` }],
});
const dirtyRatio = new NodeTuning(cluster, 'tuned-1', {
  name: 'tuned-1',
  profiles: [{ name: 'tuned-1-profile', data: '[main]\nsummary=Custom OpenShift profile\ninclude=openshift-node\n[sysctl]\nvm.dirty_ratio="55"\n' }],
  recommend: [{ priority: 20, profile: 'tuned-1-profile' }],
});
const lowLatency = new NodePerformanceProfile(cluster, 'performance', {
  cpu: { reserved: '0-1', isolated: '2-15' },
  hugepages: { defaultHugepagesSize: '1G', pages: [{ size: '1G', count: 8 }] },
  realTimeKernel: true,
});
cluster.addNodePool('workers', {
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  platform: NodePoolPlatform.agent({ matchLabels: { pool: 'workers' } }),
  machineConfigs: [chrony],
  tuningConfigs: [dirtyRatio],
});
cluster.addNodePool('low-latency', {
  replicas: 2,
  upgradeType: UpgradeType.IN_PLACE,
  platform: NodePoolPlatform.agent({ matchLabels: { pool: 'low-latency' } }),
  machineConfigs: [chrony],
  tuningConfigs: [dirtyRatio, lowLatency],
});

app.synth();
