import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, JsonPatch, Size } from 'cdk8s';
import {
  AvailabilityPolicy,
  ClusterPlatform,
  ControlPlaneService,
  EtcdStorage,
  HcpApp,
  HcpValidationError,
  HostedCluster,
  HostedClusterProps,
  ManagementCluster,
  NetworkType,
  OlmCatalogPlacement,
  OptionalCapability,
  Release,
  SAFE_TO_DELETE_WITH_CLUSTER_LABEL,
  SecretEncryption,
  SecretSource,
  ServicePublishing,
  SshPublicKey,
  TrustBundle,
} from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { API_SERVER_ADDRESS, AWS_PLATFORM, PLATFORMS, PULL_SECRET_JSON, SSH_KEY, clusterProps, newCluster, synthAppOf } from '../props';
import { findObject, synthProblems, PRUNE_PROTECTION } from '../util';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';
const RELEASE_IMAGE_RULE = 'must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>';

/** The synthesized objects of cluster `hub/c1`. */
function synth(props: Partial<HostedClusterProps> = {}, configure?: (cluster: HostedCluster) => void): any[] {
  const cluster = newCluster(props);
  configure?.(cluster);
  return synthAppOf(cluster);
}

/** The HostedCluster object of cluster `hub/c1`. */
function hostedCluster(props: Partial<HostedClusterProps> = {}, configure?: (cluster: HostedCluster) => void): any {
  return findObject(synth(props, configure), 'HostedCluster', 'c1');
}

/** The problems reported for cluster `hub/c1`. */
function problemsOf(props: Partial<HostedClusterProps>): string[] {
  return synthProblems((app) => newCluster(props, app));
}

function objectKinds(objects: any[]): string[] {
  return objects.map((o) => `${o.kind}/${o.metadata.name}`).sort();
}

describe('HostedCluster defaults', () => {
  test('names the cluster after the construct id, in namespace clusters, which it creates', () => {
    const objects = synth();
    const cluster = findObject(objects, 'HostedCluster');
    expect(cluster.apiVersion).toBe('hypershift.openshift.io/v1beta1');
    expect(cluster.metadata).toEqual({ name: 'c1', namespace: 'clusters', annotations: { 'argocd.argoproj.io/sync-wave': '50', ...PRUNE_PROTECTION, 'hcp-cdk.io/delivery': 'kustomize' } });
    expect(findObject(objects, 'Namespace', 'clusters')).toBeDefined();
    expect(objectKinds(objects)).toEqual(['HostedCluster/c1', 'Namespace/clusters']);
  });

  test('takes name and namespace from props', () => {
    const objects = synth({ name: 'vcluster2', namespace: 'hcp' });
    expect(findObject(objects, 'HostedCluster').metadata).toEqual({
      name: 'vcluster2',
      namespace: 'hcp',
      annotations: { 'argocd.argoproj.io/sync-wave': '50', ...PRUNE_PROTECTION, 'hcp-cdk.io/delivery': 'kustomize' },
    });
    expect(findObject(objects, 'Namespace').metadata.name).toBe('hcp');
  });

  test('creates a shared namespace once for several clusters', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const hub = new ManagementCluster(app, 'hub');
    new HostedCluster(hub, 'c1', clusterProps());
    new HostedCluster(hub, 'c2', clusterProps());
    expect(synthAppOf(hub).filter((o) => o.kind === 'Namespace')).toHaveLength(1);
  });

  test('uses the hcp defaults for availability, FIPS, OLM catalogs and infrastructure ID', () => {
    const spec = hostedCluster().spec;
    expect(spec.controllerAvailabilityPolicy).toBe('HighlyAvailable');
    expect(spec.infrastructureAvailabilityPolicy).toBeUndefined();
    expect(spec.fips).toBe(false);
    expect(spec.olmCatalogPlacement).toBe('management');
    expect(spec.infraID).toBe('c1');
    expect(spec.release).toEqual({ image: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi' });
    expect(spec.pullSecret).toEqual({ name: 'pull-secret' });
  });

  test('leaves out what was not asked for', () => {
    const spec = hostedCluster().spec;
    for (const field of [
      'sshKey',
      'clusterID',
      'channel',
      'issuerURL',
      'imageContentSources',
      'additionalTrustBundle',
      'capabilities',
      'nodeSelector',
      'tolerations',
      'labels',
      'pausedUntil',
      'configuration',
      'kubeAPIServerDNSName',
      'operatorConfiguration',
    ]) {
      expect(spec).not.toHaveProperty(field);
    }
  });

  test('uses the hcp network defaults', () => {
    expect(hostedCluster().spec.networking).toEqual({
      clusterNetwork: [{ cidr: '10.132.0.0/14' }],
      serviceNetwork: [{ cidr: '172.31.0.0/16' }],
      networkType: 'OVNKubernetes',
    });
  });

  test('adds the IPv6 defaults with dualStack', () => {
    const networking = hostedCluster({ networking: { dualStack: true } }).spec.networking;
    expect(networking.clusterNetwork).toEqual([{ cidr: '10.132.0.0/14' }, { cidr: 'fd01::/48' }]);
    expect(networking.serviceNetwork).toEqual([{ cidr: '172.31.0.0/16' }, { cidr: 'fd02::/112' }]);
  });

  test('writes the networks, network type and machine network given', () => {
    const networking = hostedCluster({
      networking: { clusterNetwork: ['10.128.0.0/14'], serviceNetwork: ['172.30.0.0/16'], machineNetwork: ['192.168.122.0/24'], networkType: NetworkType.OTHER },
    }).spec.networking;
    expect(networking).toEqual({
      clusterNetwork: [{ cidr: '10.128.0.0/14' }],
      serviceNetwork: [{ cidr: '172.30.0.0/16' }],
      machineNetwork: [{ cidr: '192.168.122.0/24' }],
      networkType: 'Other',
    });
  });

  test('writes ovnMtu to the cluster network operator configuration', () => {
    expect(hostedCluster({ networking: { ovnMtu: 1400 } }).spec.operatorConfiguration).toEqual({
      clusterNetworkOperator: { ovnKubernetesConfig: { mtu: 1400 } },
    });
  });

  test('keeps etcd on 8Gi managed persistent volumes', () => {
    expect(hostedCluster().spec.etcd).toEqual({
      managementType: 'Managed',
      managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } },
    });
  });

  test('takes the etcd storage class and size', () => {
    const etcd = hostedCluster({ etcd: EtcdStorage.managed({ storageClass: 'lvms-vg1', size: Size.mebibytes(1536) }) }).spec.etcd;
    expect(etcd.managed.storage.persistentVolume).toEqual({ size: '1536Mi', storageClassName: 'lvms-vg1' });
  });

  test('points at an unmanaged etcd', () => {
    expect(hostedCluster({ etcd: EtcdStorage.unmanaged({ endpoint: 'https://etcd.example.com:2379', tlsClientSecretName: 'etcd-client' }) }).spec.etcd).toEqual({
      managementType: 'Unmanaged',
      unmanaged: { endpoint: 'https://etcd.example.com:2379', tls: { clientSecret: { name: 'etcd-client' } } },
    });
  });

  test('references the etcd encryption key Secret <name>-etcd-encryption-key without creating it', () => {
    const objects = synth();
    expect(findObject(objects, 'HostedCluster').spec.secretEncryption).toEqual({
      type: 'aescbc',
      aescbc: { activeKey: { name: 'c1-etcd-encryption-key' } },
    });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('references a backup encryption key', () => {
    const spec = hostedCluster({
      secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('key-2'), SecretSource.fromExistingSecret('key-1')),
    }).spec;
    expect(spec.secretEncryption.aescbc).toEqual({ activeKey: { name: 'key-2' }, backupKey: { name: 'key-1' } });
  });

  test('sets base domain example.com on Agent, as hcp does, and takes the one given', () => {
    expect(hostedCluster().spec.dns).toEqual({ baseDomain: 'example.com' });
    expect(hostedCluster({ baseDomain: 'int.massopen.cloud', baseDomainPrefix: 'lab' }).spec.dns).toEqual({ baseDomain: 'int.massopen.cloud', baseDomainPrefix: 'lab' });
  });

  test('leaves the base domain empty on KubeVirt without one (base-domain passthrough)', () => {
    expect(hostedCluster(PLATFORMS.kubevirt()).spec.dns).toEqual({ baseDomain: '' });
    expect(hostedCluster({ ...PLATFORMS.kubevirt(), baseDomain: 'apps.example.org' }).spec.dns).toEqual({ baseDomain: 'apps.example.org' });
  });

  test('writes the AWS zones, issuer, KMS-free encryption and gp3-csi etcd class', () => {
    const spec = hostedCluster({
      platform: ClusterPlatform.aws({ ...AWS_PLATFORM, publicZoneId: 'Z1', privateZoneId: 'Z2', issuerUrl: 'https://oidc.s3.us-east-1.amazonaws.com/c1', machineCidr: '10.0.0.0/16' }),
      baseDomain: 'example.org',
    }).spec;
    expect(spec.dns).toEqual({ baseDomain: 'example.org', publicZoneID: 'Z1', privateZoneID: 'Z2' });
    expect(spec.issuerURL).toBe('https://oidc.s3.us-east-1.amazonaws.com/c1');
    expect(spec.networking.machineNetwork).toEqual([{ cidr: '10.0.0.0/16' }]);
    expect(spec.etcd.managed.storage.persistentVolume.storageClassName).toBe('gp3-csi');
  });
});

describe('HostedCluster services', () => {
  const nodePort = { type: 'NodePort', nodePort: { address: API_SERVER_ADDRESS } };

  test.each(['agent', 'none'])('publishes all five services as NodePorts at the apiServerAddress on %s', (platform) => {
    expect(hostedCluster(PLATFORMS[platform]()).spec.services).toEqual([
      { service: 'APIServer', servicePublishingStrategy: nodePort },
      { service: 'Ignition', servicePublishingStrategy: nodePort },
      { service: 'Konnectivity', servicePublishingStrategy: nodePort },
      { service: 'OAuthServer', servicePublishingStrategy: nodePort },
      { service: 'OIDC', servicePublishingStrategy: nodePort },
    ]);
  });

  test.each(['kubevirt', 'aws'])('publishes the API server as a LoadBalancer and the rest as Routes, sorted by service, on %s', (platform) => {
    expect(hostedCluster(PLATFORMS[platform]()).spec.services).toEqual([
      { service: 'APIServer', servicePublishingStrategy: { type: 'LoadBalancer' } },
      { service: 'Ignition', servicePublishingStrategy: { type: 'Route' } },
      { service: 'Konnectivity', servicePublishingStrategy: { type: 'Route' } },
      { service: 'OAuthServer', servicePublishingStrategy: { type: 'Route' } },
    ]);
  });

  test('replaces only the platform defaults of the services given', () => {
    const services = hostedCluster({
      ...PLATFORMS.kubevirt(),
      services: { [ControlPlaneService.API_SERVER]: ServicePublishing.nodePort({ address: 'api.c1.example.org', port: 30443 }) },
    }).spec.services;
    expect(services.map((s: any) => `${s.service}:${s.servicePublishingStrategy.type}`)).toEqual(['APIServer:NodePort', 'Ignition:Route', 'Konnectivity:Route', 'OAuthServer:Route']);
    expect(services[0].servicePublishingStrategy.nodePort).toEqual({ address: 'api.c1.example.org', port: 30443 });
  });

  test('takes every service from props when the platform has no apiServerAddress', () => {
    const lb = ServicePublishing.loadBalancer({ hostname: 'api.c1.example.org' });
    const route = ServicePublishing.route({ hostname: 'oauth.c1.example.org' });
    const services = hostedCluster({
      platform: ClusterPlatform.agent({ agentNamespace: 'agents' }),
      services: { APIServer: lb, OAuthServer: route, Konnectivity: ServicePublishing.route(), Ignition: ServicePublishing.route() },
    }).spec.services;
    expect(services).toEqual([
      { service: 'APIServer', servicePublishingStrategy: { type: 'LoadBalancer', loadBalancer: { hostname: 'api.c1.example.org' } } },
      { service: 'Ignition', servicePublishingStrategy: { type: 'Route' } },
      { service: 'Konnectivity', servicePublishingStrategy: { type: 'Route' } },
      { service: 'OAuthServer', servicePublishingStrategy: { type: 'Route', route: { hostname: 'oauth.c1.example.org' } } },
    ]);
  });

  test('publishService replaces a service after construction', () => {
    const spec = hostedCluster(PLATFORMS.kubevirt(), (cluster) => cluster.publishService(ControlPlaneService.OIDC, ServicePublishing.route()));
    expect(spec.spec.services.map((s: any) => s.service)).toEqual(['APIServer', 'Ignition', 'Konnectivity', 'OAuthServer', 'OIDC']);
  });

  test('allows a Route with a hostname for the API server on AWS', () => {
    const services = hostedCluster({ ...PLATFORMS.aws(), services: { APIServer: ServicePublishing.route({ hostname: 'api.c1.example.org' }) } }).spec.services;
    expect(services[0]).toEqual({ service: 'APIServer', servicePublishingStrategy: { type: 'Route', route: { hostname: 'api.c1.example.org' } } });
  });
});

describe('HostedCluster objects beside the HostedCluster', () => {
  test('puts an inline SSH key in Secret <name>-ssh-key under id_rsa.pub', () => {
    const objects = synth({ sshKey: SshPublicKey.fromString(`${SSH_KEY}\n`) });
    const secret = findObject(objects, 'Secret', 'c1-ssh-key');
    expect(secret.metadata).toEqual({
      name: 'c1-ssh-key',
      namespace: 'clusters',
      labels: { [SAFE_TO_DELETE_WITH_CLUSTER_LABEL]: 'true' },
      annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION },
    });
    expect(secret.type).toBe('Opaque');
    expect(Buffer.from(secret.data['id_rsa.pub'], 'base64').toString('utf8')).toBe(SSH_KEY);
    expect(findObject(objects, 'HostedCluster').spec.sshKey).toEqual({ name: 'c1-ssh-key' });
  });

  test('puts an inline SSH key in the Secret it names', () => {
    const objects = synth({ sshKey: SshPublicKey.fromString(SSH_KEY, { secretName: 'lab-ssh-key' }) });
    expect(Buffer.from(findObject(objects, 'Secret', 'lab-ssh-key').data['id_rsa.pub'], 'base64').toString('utf8')).toBe(SSH_KEY);
    expect(findObject(objects, 'HostedCluster').spec.sshKey).toEqual({ name: 'lab-ssh-key' });
  });

  test('fails when the SSH key Secret name is not a DNS-1123 subdomain', () => {
    expect(problemsOf({ sshKey: SshPublicKey.fromString(SSH_KEY, { secretName: 'Lab_Key' }) })).toEqual([`hub/c1: sshKey.secretName ("Lab_Key") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('references an existing SSH key Secret without creating one', () => {
    const objects = synth({ sshKey: SshPublicKey.fromExistingSecret('lab-ssh-key') });
    expect(findObject(objects, 'HostedCluster').spec.sshKey).toEqual({ name: 'lab-ssh-key' });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
  });

  test('puts a PEM trust bundle in ConfigMap user-ca-bundle under ca-bundle.crt', () => {
    const objects = synth({ additionalTrustBundle: TrustBundle.fromPem(PEM) });
    const bundle = findObject(objects, 'ConfigMap', 'user-ca-bundle');
    expect(bundle.metadata.namespace).toBe('clusters');
    expect(bundle.data).toEqual({ 'ca-bundle.crt': PEM });
    expect(findObject(objects, 'HostedCluster').spec.additionalTrustBundle).toEqual({ name: 'user-ca-bundle' });
  });

  test('references an existing trust bundle ConfigMap without creating one', () => {
    const objects = synth({ additionalTrustBundle: TrustBundle.fromExistingConfigMap('mirror-ca') });
    expect(findObject(objects, 'HostedCluster').spec.additionalTrustBundle).toEqual({ name: 'mirror-ca' });
    expect(objects.filter((o) => o.kind === 'ConfigMap')).toEqual([]);
  });

  test('writes an inline pull secret as a dockerconfigjson Secret <name>-pull-secret', () => {
    const objects = synth({ pullSecret: SecretSource.fromInlineValue(PULL_SECRET_JSON, { allowSecretInOutput: true }) });
    const secret = findObject(objects, 'Secret', 'c1-pull-secret');
    expect(secret.type).toBe('kubernetes.io/dockerconfigjson');
    expect(secret.metadata.labels).toEqual({ [SAFE_TO_DELETE_WITH_CLUSTER_LABEL]: 'true' });
    expect(Buffer.from(secret.data['.dockerconfigjson'], 'base64').toString('utf8')).toBe(PULL_SECRET_JSON);
    expect(findObject(objects, 'HostedCluster').spec.pullSecret).toEqual({ name: 'c1-pull-secret' });
  });

  test('emits an ExternalSecret, and no Secret, for a pull secret from an external store', () => {
    const objects = synth({ pullSecret: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret' }) });
    const external = findObject(objects, 'ExternalSecret', 'c1-pull-secret');
    expect(external.apiVersion).toBe('external-secrets.io/v1');
    expect(external.spec.target.template.type).toBe('kubernetes.io/dockerconfigjson');
    expect(external.spec.data).toEqual([{ secretKey: '.dockerconfigjson', remoteRef: { key: 'ocp/pull-secret' } }]);
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(findObject(objects, 'HostedCluster').spec.pullSecret).toEqual({ name: 'c1-pull-secret' });
  });

  test('emits a SealedSecret, and no Secret, for a sealed etcd encryption key', () => {
    const objects = synth({ secretEncryption: SecretEncryption.aescbc(SecretSource.fromSealedSecret({ encryptedValue: 'AgBy3i4OJSWK+PiTySYZZA==' })) });
    const sealed = findObject(objects, 'SealedSecret', 'c1-etcd-encryption-key');
    expect(sealed.spec.encryptedData).toEqual({ key: 'AgBy3i4OJSWK+PiTySYZZA==' });
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(findObject(objects, 'HostedCluster').spec.secretEncryption.aescbc.activeKey).toEqual({ name: 'c1-etcd-encryption-key' });
  });

  test('writes an inline 32-byte etcd encryption key when opted in', () => {
    const key = Buffer.alloc(32, 7);
    const objects = synth({ secretEncryption: SecretEncryption.aescbc(SecretSource.fromInlineValue(key, { allowSecretInOutput: true })) });
    expect(findObject(objects, 'Secret', 'c1-etcd-encryption-key').data).toEqual({ key: key.toString('base64') });
  });
});

describe('HostedCluster fields', () => {
  test('writes tolerations as given, adding operator Exists only to a toleration without a key', () => {
    const spec = hostedCluster({
      controlPlaneTolerations: [{ key: 'hcp', value: 'true', effect: 'NoSchedule' }, { key: 'dedicated', operator: 'Exists' }, { effect: 'NoExecute' }],
    }).spec;
    expect(spec.tolerations).toEqual([
      { key: 'hcp', value: 'true', effect: 'NoSchedule' },
      { key: 'dedicated', operator: 'Exists' },
      { operator: 'Exists', effect: 'NoExecute' },
    ]);
  });

  test('writes the control-plane node selector and pod labels', () => {
    const spec = hostedCluster({ controlPlaneNodeSelector: { 'node-role.kubernetes.io/infra': '' }, controlPlanePodLabels: { team: 'lab' } }).spec;
    expect(spec.nodeSelector).toEqual({ 'node-role.kubernetes.io/infra': '' });
    expect(spec.labels).toEqual({ team: 'lab' });
  });

  test('writes disabled and enabled capabilities', () => {
    const spec = hostedCluster({
      disabledCapabilities: [OptionalCapability.IMAGE_REGISTRY, OptionalCapability.INGRESS, OptionalCapability.CONSOLE],
      enabledCapabilities: [OptionalCapability.BAREMETAL],
    }).spec;
    expect(spec.capabilities).toEqual({ disabled: ['ImageRegistry', 'Ingress', 'Console'], enabled: ['baremetal'] });
  });

  test.each(['true', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00.5+02:00'])('writes pausedUntil %j', (pausedUntil) => {
    expect(hostedCluster({ pausedUntil }).spec.pausedUntil).toBe(pausedUntil);
  });

  test('writes availability policies, FIPS and OLM catalog placement', () => {
    const spec = hostedCluster({
      controllerAvailabilityPolicy: AvailabilityPolicy.SINGLE_REPLICA,
      infrastructureAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
      fips: true,
      olmCatalogPlacement: OlmCatalogPlacement.GUEST,
    }).spec;
    expect(spec.controllerAvailabilityPolicy).toBe('SingleReplica');
    expect(spec.infrastructureAvailabilityPolicy).toBe('HighlyAvailable');
    expect(spec.fips).toBe(true);
    expect(spec.olmCatalogPlacement).toBe('guest');
  });

  test('writes identity, channel, issuer and API server DNS name under their wire names', () => {
    const spec = hostedCluster({
      infraId: 'c1-x7k2p',
      clusterId: '0b9c1f7e-5f3a-4d1e-9a57-4f0c6b1e2d3c',
      channel: 'stable-4.17',
      issuerUrl: 'https://oidc.example.org/c1',
      kubeApiServerDnsName: 'api.c1.example.org',
    }).spec;
    expect(spec.infraID).toBe('c1-x7k2p');
    expect(spec.clusterID).toBe('0b9c1f7e-5f3a-4d1e-9a57-4f0c6b1e2d3c');
    expect(spec.channel).toBe('stable-4.17');
    expect(spec.issuerURL).toBe('https://oidc.example.org/c1');
    expect(spec.kubeAPIServerDNSName).toBe('api.c1.example.org');
  });

  test('writes image content sources', () => {
    const spec = hostedCluster({ imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp/release'] }] }).spec;
    expect(spec.imageContentSources).toEqual([{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp/release'] }]);
  });

  test('passes the typed cluster configuration through', () => {
    const spec = hostedCluster({ configuration: { proxy: { httpProxy: 'http://proxy.example.com:3128', noProxy: '.cluster.local' } } }).spec;
    expect(spec.configuration).toEqual({ proxy: { httpProxy: 'http://proxy.example.com:3128', noProxy: '.cluster.local' } });
  });

  test('puts labels and annotations on the HostedCluster metadata', () => {
    const metadata = hostedCluster({ labels: { env: 'lab' }, annotations: { 'hypershift.openshift.io/cleanup-cloud-resources': 'true' } }).metadata;
    expect(metadata.labels).toEqual({ env: 'lab' });
    expect(metadata.annotations).toEqual({ 'hypershift.openshift.io/cleanup-cloud-resources': 'true', 'argocd.argoproj.io/sync-wave': '50', ...PRUNE_PROTECTION, 'hcp-cdk.io/delivery': 'kustomize' });
  });
});

describe('HostedCluster escape hatches', () => {
  test('addOverride sets a field by its wire name', () => {
    const spec = hostedCluster({}, (cluster) => {
      cluster.addOverride('spec.infraID', 'c1-patched');
      cluster.addOverride('spec.autoscaling', { maxNodesTotal: 10 });
    }).spec;
    expect(spec.infraID).toBe('c1-patched');
    expect(spec.autoscaling).toEqual({ maxNodesTotal: 10 });
  });

  test('resource.addJsonPatch reaches the output', () => {
    const spec = hostedCluster({}, (cluster) => cluster.resource.addJsonPatch(JsonPatch.remove('/spec/fips'), JsonPatch.add('/spec/dns/privateZoneID', 'Z9'))).spec;
    expect(spec).not.toHaveProperty('fips');
    expect(spec.dns.privateZoneID).toBe('Z9');
  });
});

test('snapshot of a full agent cluster', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'vcluster2', {
    release: Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.14.10' }),
    baseDomain: 'int.massopen.cloud',
    pullSecret: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret' }),
    sshKey: SshPublicKey.fromString(SSH_KEY),
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret('vcluster2-etcd-encryption-key')),
    additionalTrustBundle: TrustBundle.fromPem(PEM),
    platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: 'api.vcluster2.int.massopen.cloud' }),
    networking: { machineNetwork: ['192.168.50.0/24'], ovnMtu: 1400 },
    etcd: EtcdStorage.managed({ storageClass: 'lvms-vg1' }),
    controlPlaneTolerations: [{ key: 'hcp', value: 'true', effect: 'NoSchedule' }],
    controlPlaneNodeSelector: { 'node-role.kubernetes.io/infra': '' },
    imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp/release'] }],
  });
  cluster.addNodePool('workers', { name: 'vcluster2', replicas: 2 });
  expect(synthAppOf(cluster)).toMatchSnapshot();
});

describe('HostedCluster validation', () => {
  test('in an HcpApp, keeps its problems for synth, which throws them as an HcpValidationError; elsewhere, throws from the constructor', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    newCluster({ name: 'Bad' }, app);
    expect(() => app.synthesize()).toThrow(HcpValidationError);
    expect(() => newCluster({ name: 'Bad' }, new App() as HcpApp)).toThrow(HcpValidationError);
  });

  test('reports several problems at once, in one error', () => {
    let error: HcpValidationError | undefined;
    try {
      const app = new HcpApp({ outdir: '/nonexistent' });
      newCluster(
        {
          name: 'Lab_Cluster',
          release: Release.fromImage('not an image'),
          networking: { clusterNetwork: ['10.0.0.0/33'] },
          sshKey: SshPublicKey.fromString('garbage'),
        },
        app,
      );
      app.synthesize();
    } catch (e) {
      error = e as HcpValidationError;
    }
    expect(error).toBeInstanceOf(HcpValidationError);
    expect(error!.problems).toEqual([
      `hub/c1: name ("Lab_Cluster") ${DNS1123_LABEL_RULE}`,
      `hub/c1: release image ("not an image") ${RELEASE_IMAGE_RULE}`,
      expect.stringMatching(/^hub\/c1: sshKey \("garbage"\) must be one line of OpenSSH public key text/),
      'hub/c1: networking.clusterNetwork[0] ("10.0.0.0/33") must be a CIDR block such as 10.132.0.0/14 or fd01::/48',
    ]);
    expect(error!.message).toMatch(/^4 problems:\n {2}- hub\/c1: name/);
  });

  test('fails when the name has upper-case letters', () => {
    expect(problemsOf({ name: 'MyCluster' })).toEqual([`hub/c1: name ("MyCluster") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails when the name has an underscore', () => {
    expect(problemsOf({ name: 'my_cluster' })).toEqual([`hub/c1: name ("my_cluster") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails when the name is longer than 53 characters', () => {
    const name = 'c'.repeat(54);
    expect(problemsOf({ name })).toContain(`hub/c1: name ("${name}") must be at most 53 characters (HyperShift derives longer names from it)`);
  });

  test('fails when <namespace>-<name> is longer than 63 characters', () => {
    const namespace = 'hosted-control-planes';
    const name = 'a'.repeat(42);
    expect(problemsOf({ name, namespace })).toEqual([
      `hub/c1: namespace ("${namespace}") and name together make the control-plane namespace "${namespace}-${name}", which must be at most 63 characters`,
    ]);
  });

  test('fails when the name is one MCE reserves', () => {
    expect(problemsOf({ name: 'local-cluster' })).toEqual(['hub/c1: name ("local-cluster") must not be "clusters" or "local-cluster", which MCE reserves']);
  });

  test('fails when the namespace is not a DNS-1123 label', () => {
    expect(problemsOf({ namespace: 'Clusters' })).toEqual([`hub/c1: namespace ("Clusters") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails when the infraId is not lower case', () => {
    expect(problemsOf({ infraId: 'C1-ABC' })).toEqual(['hub/c1: infraId ("C1-ABC") must be lower-case letters, digits and "-", at most 63 characters']);
  });

  test.each(['not an image', 'Quay.io/UPPER:tag', 'quay.io/openshift-release-dev/ocp-release@sha256:0123'])('fails when the release image is malformed: %j', (image) => {
    expect(problemsOf({ release: Release.fromImage(image) })).toEqual([`hub/c1: release image (${JSON.stringify(image)}) ${RELEASE_IMAGE_RULE}`]);
  });

  test.each(['10.0.0.0/33', '300.1.1.1/8', 'fd01::zz/48'])('fails when a CIDR is invalid: %j', (cidr) => {
    expect(problemsOf({ networking: { clusterNetwork: [cidr] } })).toEqual([`hub/c1: networking.clusterNetwork[0] (${JSON.stringify(cidr)}) must be a CIDR block such as 10.132.0.0/14 or fd01::/48`]);
  });

  test('fails when a CIDR has host bits set', () => {
    expect(problemsOf({ networking: { serviceNetwork: ['172.31.5.0/16'] } })).toEqual(['hub/c1: networking.serviceNetwork[0] ("172.31.5.0/16") has host bits set; write it as 172.31.0.0/16']);
  });

  test('fails when the cluster and service networks overlap', () => {
    expect(problemsOf({ networking: { clusterNetwork: ['10.0.0.0/14'], serviceNetwork: ['10.2.0.0/16'] } })).toEqual([
      'hub/c1: networking.clusterNetwork[0] ("10.0.0.0/14") overlaps networking.serviceNetwork[0] ("10.2.0.0/16"); pod, service and machine networks must be disjoint',
    ]);
  });

  test('fails when the machine network overlaps the cluster network', () => {
    expect(problemsOf({ networking: { machineNetwork: ['10.133.0.0/16'] } })).toEqual([
      'hub/c1: networking.clusterNetwork[0] ("10.132.0.0/14") overlaps networking.machineNetwork[0] ("10.133.0.0/16"); pod, service and machine networks must be disjoint',
    ]);
  });

  test('fails when configuration holds a field the CRD does not have, instead of dropping it', () => {
    const configuration = {
      apiServer: { audit: { profile: 'Default' } },
      oauth: { identityProviders: [{ name: 'sso', mappingMethod: 'claim', type: 'OpenID', openId: { clientId: 'hcp', issuerUrl: 'https://sso.example.com', claims: {} } }] },
      featureGates: { featureSet: 'Default' },
    } as unknown as HostedClusterProps['configuration'];
    expect(problemsOf({ configuration })).toEqual([
      'hub/c1: configuration.oauth.identityProviders[0].openId.issuerUrl ("https://sso.example.com") is not a field of spec.configuration, so it would be dropped; check its spelling against the HostedCluster CRD',
      'hub/c1: configuration.featureGates ({"featureSet":"Default"}) is not a field of spec.configuration, so it would be dropped; check its spelling against the HostedCluster CRD',
    ]);
  });

  test('keeps every field of a configuration the CRD knows, renamed to its wire name', () => {
    const configuration = {
      oauth: { identityProviders: [{ name: 'sso', mappingMethod: 'claim', type: 'OpenID', openId: { clientId: 'hcp', issuer: 'https://sso.example.com', claims: {}, clientSecret: { name: 's' } } }] },
    };
    expect(problemsOf({ configuration })).toEqual([]);
    expect(hostedCluster({ configuration }).spec.configuration.oauth.identityProviders[0].openID).toEqual({
      claims: {},
      clientID: 'hcp',
      clientSecret: { name: 's' },
      issuer: 'https://sso.example.com',
    });
  });

  test('fails when the networks disagree on their address families', () => {
    expect(problemsOf({ networking: { clusterNetwork: ['fd01::/48'], serviceNetwork: ['172.31.0.0/16'] } })).toEqual([
      'hub/c1: networking.serviceNetwork (["172.31.0.0/16"]) is IPv4, but clusterNetwork is IPv6; a cluster\'s networks must have the same address families',
    ]);
    expect(problemsOf({ networking: { dualStack: true, machineNetwork: ['192.0.2.0/24'] } })).toEqual([
      'hub/c1: networking.machineNetwork (["192.0.2.0/24"]) is IPv4, but clusterNetwork is IPv4, IPv6; a cluster\'s networks must have the same address families',
    ]);
  });

  test('fails when dual-stack networks list their families in different orders', () => {
    expect(problemsOf({ networking: { clusterNetwork: ['10.132.0.0/14', 'fd01::/48'], serviceNetwork: ['fd02::/112', '172.31.0.0/16'] } })).toEqual([
      'hub/c1: networking.serviceNetwork (["fd02::/112","172.31.0.0/16"]) lists its families as IPv6, IPv4, but clusterNetwork as IPv4, IPv6; dual-stack networks must list IPv4 and IPv6 in the same order (the first is the primary family)',
    ]);
  });

  test.each([
    ['fd02::/64', 'IPv6', '/108'],
    ['172.0.0.0/11', 'IPv4', '/12'],
  ])('fails when the service network %s is larger than the API server accepts', (cidr, family, limit) => {
    const cluster = family === 'IPv6' ? 'fd01::/48' : '10.132.0.0/14';
    expect(problemsOf({ networking: { clusterNetwork: [cluster], serviceNetwork: [cidr] } })).toEqual([
      `hub/c1: networking.serviceNetwork[0] (${JSON.stringify(cidr)}) is larger than the API server accepts: an ${family} service network must be ${limit} or smaller`,
    ]);
    expect(problemsOf({ networking: { clusterNetwork: [cluster], serviceNetwork: [family === 'IPv6' ? 'fd02::/108' : '172.16.0.0/12'] } })).toEqual([]);
  });

  test('fails when the cluster network cannot hold one node block of its hostPrefix', () => {
    expect(problemsOf({ networking: { clusterNetwork: ['10.132.0.0/24'] } })).toEqual([
      'hub/c1: networking.clusterNetwork[0] ("10.132.0.0/24") cannot hold one node\'s /23 (hostPrefix, default 23); give a network of /23 or larger',
    ]);
    expect(problemsOf({ networking: { clusterNetwork: ['10.132.0.0/24'], hostPrefix: 25 } })).toEqual([]);
    expect(problemsOf({ networking: { clusterNetwork: ['10.132.0.0/20'], hostPrefix: 19 } })).toEqual([
      'hub/c1: networking.clusterNetwork[0] ("10.132.0.0/20") cannot hold one node\'s /19 (hostPrefix); give a network of /19 or larger',
    ]);
    expect(problemsOf({ networking: { dualStack: true, clusterNetwork: ['10.132.0.0/14', 'fd01::/96'] } })).toEqual([
      'hub/c1: networking.clusterNetwork[1] ("fd01::/96") cannot hold one node\'s /64 (hostPrefix, default 64); give a network of /64 or larger',
    ]);
    expect(problemsOf({ networking: { hostPrefix: Number.NaN } })).toEqual(['hub/c1: networking.hostPrefix (NaN) must be a whole number from 1 to 30']);
  });

  test('writes hostPrefix on the IPv4 cluster network when given', () => {
    expect(hostedCluster({ networking: { dualStack: true, hostPrefix: 24 } }).spec.networking.clusterNetwork).toEqual([{ cidr: '10.132.0.0/14', hostPrefix: 24 }, { cidr: 'fd01::/48' }]);
  });

  test('fails when a network lists two CIDRs of one family', () => {
    expect(problemsOf({ networking: { clusterNetwork: ['10.128.0.0/14', '10.132.0.0/14'] } })).toEqual([
      'hub/c1: networking.clusterNetwork (["10.128.0.0/14","10.132.0.0/14"]) must not list two IPv4 CIDRs',
    ]);
  });

  test('fails when a network lists no CIDR', () => {
    expect(problemsOf({ networking: { serviceNetwork: [] } })).toEqual(['hub/c1: networking.serviceNetwork ([]) must list at least one CIDR']);
  });

  test.each([100, 9217, 1400.5])('fails when ovnMtu is %p', (ovnMtu) => {
    expect(problemsOf({ networking: { ovnMtu } })).toEqual([`hub/c1: networking.ovnMtu (${ovnMtu}) must be a whole number from 576 to 9216`]);
  });

  test('fails when ovnMtu is given for another network type', () => {
    expect(problemsOf({ networking: { ovnMtu: 1400, networkType: NetworkType.CALICO } })).toEqual(['hub/c1: networking.ovnMtu (1400) needs networkType OVNKubernetes, not Calico']);
  });

  test("fails when networkType is one HyperShift's IsValidReleaseVersion refuses for the release: OpenShiftSDN after 4.10, OVNKubernetes up to 4.10", () => {
    expect(problemsOf({ networking: { networkType: NetworkType.OPEN_SHIFT_SDN } })).toEqual([
      'hub/c1: networking.networkType ("OpenShiftSDN") cannot run release 4.17.0: HyperShift refuses OpenShiftSDN after 4.10 ' +
        '(ValidReleaseImage False: cannot use OpenShiftSDN with OCP version "4.17.0" > 4.10; IsValidReleaseVersion, support/supportedversion/version.go) and reconciles the cluster no further; use OVNKubernetes',
    ]);
    expect(problemsOf({ release: Release.fromVersion('4.10.3') })).toEqual([
      'hub/c1: networking.networkType ("OVNKubernetes") cannot run release 4.10.3: HyperShift refuses OVNKubernetes up to 4.10 ' +
        '(ValidReleaseImage False: cannot use OVNKubernetes with OCP version "4.10.3" < 4.11; IsValidReleaseVersion, support/supportedversion/version.go) and reconciles the cluster no further; use OpenShiftSDN',
    ]);
    expect(problemsOf({ networking: { networkType: NetworkType.OPEN_SHIFT_SDN }, release: Release.fromVersion('4.10.3') })).toEqual([]);
    expect(problemsOf({ networking: { networkType: NetworkType.CALICO } })).toEqual([]);
    // The annotation that skips HyperShift's release checks skips this one too (validateReleaseImage returns first).
    expect(problemsOf({ networking: { networkType: NetworkType.OPEN_SHIFT_SDN }, annotations: { 'hypershift.openshift.io/skip-release-image-validation': 'true' } })).toEqual([]);
  });

  test('fails when the controller availability policy is unknown', () => {
    expect(problemsOf({ controllerAvailabilityPolicy: 'Sometimes' as any })).toEqual(['hub/c1: controllerAvailabilityPolicy ("Sometimes") must be HighlyAvailable or SingleReplica']);
  });

  test('fails when the infrastructure availability policy is unknown', () => {
    expect(problemsOf({ infrastructureAvailabilityPolicy: 'highlyavailable' as any })).toEqual([
      'hub/c1: infrastructureAvailabilityPolicy ("highlyavailable") must be HighlyAvailable or SingleReplica',
    ]);
  });

  test('fails when the SSH key is a file path', () => {
    expect(problemsOf({ sshKey: SshPublicKey.fromString('~/.ssh/id_rsa.pub') })).toEqual([
      'hub/c1: sshKey ("~/.ssh/id_rsa.pub") is a file path; give the key text, e.g. fs.readFileSync(path, "utf8")',
    ]);
  });

  test('fails when the SSH key is a private key, without echoing the key', () => {
    const privateKey = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----\n';
    const problems = problemsOf({ sshKey: SshPublicKey.fromString(privateKey) });
    expect(problems).toEqual([expect.stringMatching(/^hub\/c1: sshKey \(".*"\) is a private key; give the public key$/)]);
    expect(problems[0]).not.toContain('b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ');
  });

  test.each(['garbage', 'ssh-rsa', 'ssh-foo AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host', 'ssh-ed25519 not*base64*at*all user@host', `${SSH_KEY}\n${SSH_KEY}`])(
    'fails when the SSH key is malformed: %j',
    (text) => {
      const shown = text.trim().length > 40 ? `${text.trim().slice(0, 37)}...` : text.trim();
      expect(problemsOf({ sshKey: SshPublicKey.fromString(text) })).toEqual([
        `hub/c1: sshKey (${JSON.stringify(shown)}) must be one line of OpenSSH public key text: "<type> <base64> [comment]" with type one of ssh-rsa, ssh-ed25519, ssh-dss, ecdsa-sha2-nistp256, ecdsa-sha2-nistp384, ecdsa-sha2-nistp521, sk-ssh-ed25519@openssh.com, sk-ecdsa-sha2-nistp256@openssh.com`,
      ]);
    },
  );

  test.each([
    ['agent', 'Agent'],
    ['kubevirt', 'KubeVirt'],
    ['none', 'None'],
  ])('fails when the API server is published as a Route on %s', (platform, type) => {
    const problems = problemsOf({ ...PLATFORMS[platform](), services: { APIServer: ServicePublishing.route({ hostname: 'api.c1.example.org' }) } });
    expect(problems).toEqual([`hub/c1: services.APIServer (Route) is not supported on platform ${type}; use NodePort or LoadBalancer`]);
  });

  test('fails when the API server Route has no hostname on AWS', () => {
    expect(problemsOf({ ...PLATFORMS.aws(), services: { APIServer: ServicePublishing.route() } })).toEqual([
      'hub/c1: services.APIServer (Route without hostname) needs a hostname served by external DNS',
    ]);
  });

  test('fails when two services are published on one Route hostname: the router admits the first Route of a host only', () => {
    expect(
      problemsOf({
        ...PLATFORMS.aws(),
        services: {
          OAuthServer: ServicePublishing.route({ hostname: 'c1.apps.example.org' }),
          Konnectivity: ServicePublishing.route({ hostname: 'c1.apps.example.org' }),
        },
      }),
    ).toEqual(['hub/c1: services.OAuthServer ("OAuthServer") is published at the Route hostname "c1.apps.example.org" services.Konnectivity ("Konnectivity") uses already; give each service its own']);
  });

  test('fails when services are missing on Agent without an apiServerAddress', () => {
    expect(problemsOf({ platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory' }) })).toEqual([
      'hub/c1: services (undefined) must publish APIServer, OAuthServer, Konnectivity, Ignition; give the platform an apiServerAddress or set services for platform Agent',
    ]);
  });

  test('fails when some services are missing on None without an apiServerAddress', () => {
    expect(problemsOf({ platform: ClusterPlatform.none(), services: { APIServer: ServicePublishing.loadBalancer() } })).toEqual([
      'hub/c1: services (["APIServer"]) must publish OAuthServer, Konnectivity, Ignition; give the platform an apiServerAddress or set services for platform None',
    ]);
  });

  test('fails when publishService leaves an invalid combination', () => {
    expect(synthProblems((app) => newCluster({}, app).publishService(ControlPlaneService.API_SERVER, ServicePublishing.route({ hostname: 'api.c1.example.org' })))).toEqual([
      'hub/c1: services.APIServer (Route) is not supported on platform Agent; use NodePort or LoadBalancer',
    ]);
  });

  test('fails when a NodePort is outside the NodePort range', () => {
    expect(problemsOf({ services: { APIServer: ServicePublishing.nodePort({ address: API_SERVER_ADDRESS, port: 6443 }) } })).toEqual([
      'hub/c1: services.APIServer.nodePort.port (6443) must be a NodePort from 30000 to 32767',
    ]);
  });

  test('fails when a NodePort has no address', () => {
    expect(problemsOf({ services: { Ignition: ServicePublishing.nodePort({ address: '' }) } })).toEqual([
      'hub/c1: services.Ignition.nodePort.address ("") must be an IP address or DNS name of the management cluster\'s nodes',
    ]);
  });

  test.each([
    ['agent', () => ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: '' })],
    ['none', () => ClusterPlatform.none({ apiServerAddress: '' })],
  ])("fails when the %s platform's apiServerAddress is empty, naming the field and showing the empty string written", (_, platform) => {
    expect(problemsOf({ platform: platform() })).toEqual(['hub/c1: platform.apiServerAddress ("") must be an IP address or DNS name of the management cluster\'s nodes']);
  });

  test('fails when a NodePort address is no host name or address, or a JavaScript caller passes the address for the options', () => {
    expect(problemsOf({ services: { APIServer: ServicePublishing.nodePort({ address: 'api server' }), Ignition: ServicePublishing.nodePort('192.0.2.10' as any) } })).toEqual([
      'hub/c1: services.APIServer.nodePort.address ("api server") must be an IP address or DNS name of the management cluster\'s nodes',
      'hub/c1: services.Ignition (ServicePublishing.nodePort("192.0.2.10")) must be ServicePublishing.nodePort({ address, port? }), e.g. ServicePublishing.nodePort({ address: "192.0.2.10" })',
    ]);
  });

  test('fails when a JavaScript caller gives a NodePort as a string, shown quoted', () => {
    expect(problemsOf({ services: { APIServer: ServicePublishing.nodePort({ address: API_SERVER_ADDRESS, port: '30443' as any }) } })).toEqual([
      'hub/c1: services.APIServer.nodePort.port ("30443") must be a NodePort from 30000 to 32767',
    ]);
  });

  test.each(['1 hour', 'hourly', '1d', '-5m'])("fails when an ExternalSecret's refresh interval is %j, which the External Secrets Operator cannot parse", (refreshInterval) => {
    expect(problemsOf({ pullSecret: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret', refreshInterval }) })).toEqual([
      `hub/c1: pullSecret: SecretSource.fromExternalSecret refreshInterval (${JSON.stringify(refreshInterval)}) must be a Go duration such as 1h, 15m or 1h30m: numbers with a unit ns, us, ms, s, m or h, no spaces`,
    ]);
  });

  test('fails when an inline pull secret lacks the opt-in, naming the field it is given in', () => {
    expect(problemsOf({ pullSecret: SecretSource.fromInlineValue(PULL_SECRET_JSON, {} as never) })).toEqual([
      'hub/c1: pullSecret: SecretSource.fromInlineValue: allowSecretInOutput (undefined) must be true to write secret material into the output; use fromExistingSecret, fromExternalSecret or fromSealedSecret otherwise',
    ]);
  });

  test('fails when an inline pull secret is not dockerconfigjson', () => {
    expect(problemsOf({ pullSecret: SecretSource.fromInlineValue('{"auths": null}', { allowSecretInOutput: true }) })).toEqual([
      'hub/c1: pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}',
    ]);
    expect(problemsOf({ pullSecret: SecretSource.fromInlineValue('user:password', { allowSecretInOutput: true }) })).toEqual([
      'hub/c1: pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}',
    ]);
  });

  test('fails when an inline etcd encryption key is not 32 bytes', () => {
    const key = SecretSource.fromInlineValue(Buffer.from('c2hvcnQ=', 'utf8'), { allowSecretInOutput: true });
    expect(problemsOf({ secretEncryption: SecretEncryption.aescbc(key) })).toEqual([
      "hub/c1: secretEncryption key (8 bytes) must be exactly 32 bytes (an AES-256 key; pass the decoded bytes, e.g. Buffer.from(base64, 'base64'))",
    ]);
  });

  test('reports a bad inline secret together with the other problems', () => {
    const problems = problemsOf({ name: 'C1', pullSecret: SecretSource.fromInlineValue('nope', { allowSecretInOutput: true }) });
    expect(problems).toEqual([`hub/c1: name ("C1") ${DNS1123_LABEL_RULE}`, 'hub/c1: pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}']);
  });

  test('fails when the unmanaged etcd endpoint is not an https URL', () => {
    expect(problemsOf({ etcd: EtcdStorage.unmanaged({ endpoint: 'http://etcd:2379', tlsClientSecretName: 'etcd-client' }) })).toEqual([
      'hub/c1: etcd.endpoint ("http://etcd:2379") must be an https URL such as https://etcd.example.com:2379',
    ]);
  });

  test('fails when the etcd volume size is 0', () => {
    expect(problemsOf({ etcd: EtcdStorage.managed({ size: Size.gibibytes(0) }) })).toEqual(['hub/c1: etcd.size (0 GiB) must be more than 0']);
  });

  test('fails when the base domain is missing on AWS', () => {
    expect(problemsOf({ platform: ClusterPlatform.aws(AWS_PLATFORM) })).toEqual(['hub/c1: baseDomain (undefined) must be given on platform AWS']);
  });

  test('fails when the base domain is not a DNS subdomain', () => {
    expect(problemsOf({ baseDomain: 'Example.com.' })).toEqual([`hub/c1: baseDomain ("Example.com.") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('fails when the trust bundle is not PEM', () => {
    expect(problemsOf({ additionalTrustBundle: TrustBundle.fromPem('MIIBszCCAVmgAwIBAgIU') })).toEqual([
      'hub/c1: additionalTrustBundle ("MIIBszCCAVmgAwIBAgIU") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
    ]);
  });

  test('fails when the cluster ID is not a UUID', () => {
    expect(problemsOf({ clusterId: 'cluster-1' })).toEqual(['hub/c1: clusterId ("cluster-1") must be a lower-case UUID']);
  });

  test('fails when pausedUntil is neither "true" nor an RFC 3339 time', () => {
    expect(problemsOf({ pausedUntil: 'tomorrow' })).toEqual(['hub/c1: pausedUntil ("tomorrow") must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z']);
  });

  test('fails when the channel is not <stream>-<major>.<minor>', () => {
    expect(problemsOf({ channel: 'stable' })).toEqual(['hub/c1: channel ("stable") must look like stable-4.17 (stable, fast, candidate or eus)']);
  });

  test('fails when the issuer URL is not https', () => {
    expect(problemsOf({ issuerUrl: 'http://oidc.example.org' })).toEqual(['hub/c1: issuerUrl ("http://oidc.example.org") must be an https URL']);
  });

  test('fails when the API server DNS name is not a DNS subdomain', () => {
    expect(problemsOf({ kubeApiServerDnsName: 'api_c1' })).toEqual([`hub/c1: kubeApiServerDnsName ("api_c1") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('fails when Ingress is disabled without Console', () => {
    expect(problemsOf({ disabledCapabilities: [OptionalCapability.INGRESS] })).toEqual([
      'hub/c1: disabledCapabilities (["Ingress"]) must also disable Console: the console needs the ingress capability',
    ]);
  });

  test('fails when a control-plane node selector label is invalid', () => {
    expect(problemsOf({ controlPlaneNodeSelector: { 'bad key': 'x' } })).toEqual(['hub/c1: label "bad key=x" must be a valid label key and value']);
  });

  test('fails when an image content source has no mirror', () => {
    expect(problemsOf({ imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [] }] })).toEqual([
      'hub/c1: imageContentSources[0].mirrors ([]) must list at least one mirror',
    ]);
  });
});

describe('etcd snapshot restore at creation (docs 7.4.2, "Restoring an etcd snapshot on a hosted cluster")', () => {
  const URL = 'https://hcp-backups.s3.amazonaws.com/c1-snapshot.db?X-Amz-Signature=abc';
  // The snapshot's AES key (docs 7.4.2 step 3).
  const secretEncryption = SecretEncryption.aescbc(SecretSource.fromExistingSecret('c1-etcd-encryption-key'));
  const build = (outdir: string, restoreSnapshotUrl?: string) => {
    const app = new HcpApp({ outdir });
    newCluster({ etcd: EtcdStorage.managed({ restoreSnapshotUrl }), secretEncryption }, app);
    return app;
  };

  test('writes restoreSnapshotURL into the managed etcd storage', () => {
    expect(synth({ etcd: EtcdStorage.managed({ restoreSnapshotUrl: URL }), secretEncryption }).find((o) => o.kind === 'HostedCluster').spec.etcd.managed.storage).toEqual({
      type: 'PersistentVolume',
      persistentVolume: { size: '8Gi' },
      restoreSnapshotURL: [URL],
    });
  });

  test('fails when the URL is neither https nor s3', () => {
    expect(problemsOf({ etcd: EtcdStorage.managed({ restoreSnapshotUrl: 'http://backups/c1.db' }), secretEncryption })).toEqual([
      'hub/c1: etcd.restoreSnapshotUrl ("http://backups/c1.db") must be an https (pre-signed) or s3:// URL of at most 1024 characters',
    ]);
  });

  test("fails when the URL is added, changed or removed after creation: the CRD's transition rules, checked against the previous output", () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-restore-'));
    build(outdir).synth();
    expect(() => build(outdir, URL).synth()).toThrow(/restoreSnapshotURL cannot be added or removed after creation/);
    const restored = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-restore-'));
    build(restored, URL).synth();
    expect(() => build(restored, `${URL}2`).synth()).toThrow(/restoreSnapshotURL is immutable/);
    expect(() => build(restored).synth()).toThrow(/restoreSnapshotURL cannot be added or removed after creation/);
    expect(() => build(restored, URL).synth()).not.toThrow();
  });
});
