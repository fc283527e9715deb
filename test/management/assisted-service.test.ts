import { Size } from 'cdk8s';
import {
  Arch,
  AssistedService,
  AssistedServiceProps,
  ClusterPlatform,
  CpuArchitecture,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  MirrorRegistryConfig,
  MultiClusterEngine,
  MultiClusterEngineComponent,
  OsImage,
  Release,
  SecretSource,
  VolumeAccessMode,
} from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

const IMAGES = 'http://registry.example.com:8080/images';
const OS_IMAGE_417: OsImage = {
  openshiftVersion: '4.17',
  version: '417.94.202409121747-0',
  url: `${IMAGES}/rhcos-417.94.202409121747-0-live.x86_64.iso`,
};
const REGISTRIES_CONF = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]

[[registry]]
prefix = ""
location = "registry.redhat.io/openshift4"
mirror-by-digest-only = true

  [[registry.mirror]]
  location = "registry.example.com:5000/openshift4"
`;
const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUEXAMPLE\n-----END CERTIFICATE-----\n';

function newApp(): HcpApp {
  return new HcpApp({ outdir: '/nonexistent' });
}

function props(overrides: Partial<AssistedServiceProps> = {}): AssistedServiceProps {
  return { osImages: [OS_IMAGE_417], ...overrides };
}

/** An Agent HostedCluster on `version`, as test/core/hcp-app.test.ts builds them. */
function agentCluster(scope: ManagementCluster, id: string, version = '4.17.0'): HostedCluster {
  return new HostedCluster(scope, id, {
    release: Release.fromVersion(version),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
  });
}

/** Every object synthesized for `hub/agent` (and what `extra` adds to the hub). */
function objectsOf(overrides: Partial<AssistedServiceProps> = {}, extra?: (hub: ManagementCluster, service: AssistedService) => void): any[] {
  const app = newApp();
  const hub = new ManagementCluster(app, 'hub');
  const service = new AssistedService(hub, 'agent', props(overrides));
  extra?.(hub, service);
  return synthObjects(app);
}

function agentServiceConfig(overrides: Partial<AssistedServiceProps> = {}): any {
  return findObject(objectsOf(overrides), 'AgentServiceConfig');
}

/** The problems reported for `hub/agent`, with `extra` declared beside it. */
function problemsOf(overrides: Partial<AssistedServiceProps>, extra?: (hub: ManagementCluster) => void): string[] {
  return synthProblems((app) => {
    const hub = new ManagementCluster(app, 'hub');
    new AssistedService(hub, 'agent', props(overrides));
    extra?.(hub);
  });
}

describe('AssistedService defaults', () => {
  test('is the cluster-scoped AgentServiceConfig named agent, after MCE and before Secrets', () => {
    const app = newApp();
    new AssistedService(new ManagementCluster(app, 'hub'), 'assisted', props());
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/06-agentserviceconfig-agent.yaml']);
    const config = findObject(synthObjects(app), 'AgentServiceConfig');
    expect(config.apiVersion).toBe('agent-install.openshift.io/v1beta1');
    expect(config.metadata).toEqual({ name: 'agent', annotations: { 'argocd.argoproj.io/sync-wave': '6', ...PRUNE_PROTECTION } });
  });

  test('claims 10 GiB for the database and 100 GiB for files, ReadWriteOnce in the default class', () => {
    const spec = agentServiceConfig().spec;
    expect(spec.databaseStorage).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } });
    expect(spec.filesystemStorage).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } });
  });

  test('leaves out image storage, mirrors and the config map annotation', () => {
    const config = agentServiceConfig();
    for (const field of ['imageStorage', 'mirrorRegistryRef']) expect(config.spec).not.toHaveProperty(field);
    expect(Object.keys(config.metadata.annotations)).toEqual(['argocd.argoproj.io/sync-wave', ...Object.keys(PRUNE_PROTECTION)]);
  });

  test('writes OS images for x86_64 without a rootfs URL', () => {
    expect(agentServiceConfig().spec.osImages).toEqual([{ ...OS_IMAGE_417, cpuArchitecture: 'x86_64' }]);
  });

  test('writes no ConfigMap without mirrors', () => {
    expect(objectsOf().map((o) => o.kind)).toEqual(['AgentServiceConfig']);
  });
});

describe('AssistedService props', () => {
  test('turns storage props into PersistentVolumeClaim specs, from a Size or a quantity', () => {
    const spec = agentServiceConfig({
      databaseStorage: { size: Size.gibibytes(20), storageClassName: 'lvms-vg1' },
      filesystemStorage: { size: '200Gi', storageClassName: 'lvms-vg1', accessModes: [VolumeAccessMode.READ_WRITE_MANY] },
      imageStorage: { size: '50Gi' },
    }).spec;
    expect(spec.databaseStorage).toEqual({ storageClassName: 'lvms-vg1', accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '20Gi' } } });
    expect(spec.filesystemStorage).toEqual({ storageClassName: 'lvms-vg1', accessModes: ['ReadWriteMany'], resources: { requests: { storage: '200Gi' } } });
    expect(spec.imageStorage).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '50Gi' } } });
  });

  test('writes each OS image with its wire names', () => {
    const arm: OsImage = {
      openshiftVersion: '4.17',
      version: '417.94.202409121747-0',
      cpuArchitecture: CpuArchitecture.AARCH64,
      url: `${IMAGES}/rhcos-live.aarch64.iso`,
      rootFsUrl: `${IMAGES}/rhcos-live-rootfs.aarch64.img`,
    };
    expect(agentServiceConfig({ osImages: [OS_IMAGE_417, arm] }).spec.osImages[1]).toEqual({
      openshiftVersion: '4.17',
      version: '417.94.202409121747-0',
      url: `${IMAGES}/rhcos-live.aarch64.iso`,
      rootFSUrl: `${IMAGES}/rhcos-live-rootfs.aarch64.img`,
      cpuArchitecture: 'aarch64',
    });
  });

  test('writes the mirror registries to custom-registries in multicluster-engine and references it (docs 5.3.11.1)', () => {
    const objects = objectsOf({ mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF, { caBundle: CA }) });
    const configMap = findObject(objects, 'ConfigMap');
    expect(configMap.metadata).toEqual({
      name: 'custom-registries',
      namespace: 'multicluster-engine',
      labels: { app: 'assisted-service' },
      annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION },
    });
    expect(configMap.data).toEqual({ 'ca-bundle.crt': CA, 'registries.conf': REGISTRIES_CONF });
    expect(findObject(objects, 'AgentServiceConfig').spec.mirrorRegistryRef).toEqual({ name: 'custom-registries' });
  });

  test('writes the ConfigMap under its rank', () => {
    const app = newApp();
    new AssistedService(new ManagementCluster(app, 'hub'), 'agent', props({ mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF) }));
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/06-agentserviceconfig-agent.yaml', 'hub/20-configmap-multicluster-engine_custom-registries.yaml']);
  });

  test('leaves ca-bundle.crt out when the mirrors need no CA', () => {
    const configMap = findObject(objectsOf({ mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF) }), 'ConfigMap');
    expect(configMap.data).toEqual({ 'registries.conf': REGISTRIES_CONF });
  });

  test('references an existing mirror ConfigMap without writing one', () => {
    for (const name of ['mirror-registries', 'custom-registries']) {
      const objects = objectsOf({ mirrorRegistries: MirrorRegistryConfig.fromExistingConfigMap(name) });
      expect(objects.map((o) => o.kind)).toEqual(['AgentServiceConfig']);
      expect(objects[0].spec.mirrorRegistryRef).toEqual({ name });
    }
  });

  test('puts the mirror ConfigMap in the namespace the assisted service runs in', () => {
    const objects = objectsOf({ namespace: 'mce', mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF) });
    expect(findObject(objects, 'ConfigMap').metadata.namespace).toBe('mce');
  });

  test('names the assisted-service ConfigMap in the unsupported annotation', () => {
    expect(agentServiceConfig({ assistedServiceConfigMap: 'assisted-service-config' }).metadata.annotations).toEqual({
      'unsupported.agent-install.openshift.io/assisted-service-configmap': 'assisted-service-config',
      'argocd.argoproj.io/sync-wave': '6',
      ...PRUNE_PROTECTION,
    });
  });

  test('tells which versions and architectures it has images for', () => {
    const service = new AssistedService(new ManagementCluster(newApp(), 'hub'), 'agent', props());
    expect(service.hasOsImage({ major: 4, minor: 17, patch: 3 })).toBe(true);
    expect(service.hasOsImage({ major: 4, minor: 17, patch: 0 }, CpuArchitecture.X86_64)).toBe(true);
    expect(service.hasOsImage({ major: 4, minor: 17, patch: 0 }, CpuArchitecture.AARCH64)).toBe(false);
    expect(service.hasOsImage({ major: 4, minor: 16, patch: 0 })).toBe(false);
  });

  test('takes JSON overrides for fields without a prop', () => {
    const objects = objectsOf({}, (_hub, service) => service.addOverride('spec.iPXEHTTPRoute', 'enabled'));
    expect(findObject(objects, 'AgentServiceConfig').spec.iPXEHTTPRoute).toBe('enabled');
  });

  test('passes Agent clusters and pools it has images for, and ignores other platforms and unknown versions', () => {
    expect(
      problemsOf({}, (hub) => {
        agentCluster(hub, 'one').addNodePool('workers');
        new HostedCluster(hub, 'virt', {
          release: Release.fromVersion('4.16.0'),
          pullSecret: SecretSource.fromExistingSecret('pull-secret'),
          platform: ClusterPlatform.kubevirt(),
        });
        new HostedCluster(hub, 'pinned', {
          release: Release.fromImage(`quay.io/openshift-release-dev/ocp-release@sha256:${'a'.repeat(64)}`),
          pullSecret: SecretSource.fromExistingSecret('pull-secret'),
          platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
        });
      }),
    ).toEqual([]);
  });

  test('checks only the clusters of its own management cluster', () => {
    expect(problemsOf({}, (hub) => agentCluster(new ManagementCluster(hub.node.root as HcpApp, 'other'), 'one', '4.16.0'))).toEqual([]);
  });

  test('agrees with a MultiClusterEngine of the same hub', () => {
    expect(
      problemsOf(
        {},
        (hub) =>
          new MultiClusterEngine(hub, 'mce', {
            componentOverrides: [{ component: MultiClusterEngineComponent.ASSISTED_SERVICE, enabled: true }],
          }),
      ),
    ).toEqual([]);
  });
});

describe('AssistedService rules', () => {
  test('fails when there are no OS images (AG-11)', () => {
    expect(problemsOf({ osImages: [] })).toEqual(['hub/agent: osImages ([]) must list at least one image: the assisted service boots hosts only from these (docs 5.3.11.1)']);
  });

  test('fails when the OpenShift version is not major.minor', () => {
    expect(problemsOf({ osImages: [{ ...OS_IMAGE_417, openshiftVersion: '4.17.0' }] })).toEqual(['hub/agent: osImages[0].openshiftVersion ("4.17.0") must be major.minor such as "4.17"']);
  });

  test('fails when the RHCOS version is empty', () => {
    expect(problemsOf({ osImages: [{ ...OS_IMAGE_417, version: '' }] })).toEqual(['hub/agent: osImages[0].version ("") must be the RHCOS version of the image, such as "417.94.202409121747-0"']);
  });

  test.each([
    ['url', 'ftp://registry.example.com/rhcos.iso'],
    ['url', 'registry.example.com/rhcos.iso'],
    ['rootFsUrl', 'file:///srv/rhcos-rootfs.img'],
  ])('fails when %s (%s) is not an http(s) URL', (field, url) => {
    expect(problemsOf({ osImages: [{ ...OS_IMAGE_417, [field]: url }] })).toEqual([`hub/agent: osImages[0].${field} (${JSON.stringify(url)}) must be an http:// or https:// URL`]);
  });

  test('fails when the CPU architecture is not one the assisted service names', () => {
    expect(problemsOf({ osImages: [{ ...OS_IMAGE_417, cpuArchitecture: 'arm64' as CpuArchitecture }] })).toEqual([
      'hub/agent: osImages[0].cpuArchitecture ("arm64") must be one of x86_64, aarch64, ppc64le, s390x',
    ]);
  });

  test('fails when two images share OpenShift version and architecture', () => {
    expect(problemsOf({ osImages: [OS_IMAGE_417, { ...OS_IMAGE_417, version: '417.94.202410090854-0', cpuArchitecture: CpuArchitecture.X86_64 }] })).toEqual([
      'hub/agent: osImages[1] (4.17 x86_64) repeats osImages[0]; give each OpenShift version and architecture one image',
    ]);
  });

  test.each([
    ['databaseStorage', '0Gi'],
    ['filesystemStorage', '-100Gi'],
    ['imageStorage', 'ten gigabytes'],
  ])('fails when %s.size (%s) is not a positive quantity', (field, size) => {
    expect(problemsOf({ [field]: { size } })).toEqual([`hub/agent: ${field}.size (${JSON.stringify(size)}) must be a positive quantity such as "10Gi"`]);
  });

  test('fails when a Size is zero', () => {
    expect(problemsOf({ databaseStorage: { size: Size.gibibytes(0) } })).toEqual(['hub/agent: databaseStorage.size ("0Gi") must be a positive quantity such as "10Gi"']);
  });

  test('fails when the storage class is not a DNS subdomain', () => {
    expect(problemsOf({ databaseStorage: { size: '10Gi', storageClassName: 'LVMS_vg1' } })).toEqual([`hub/agent: databaseStorage.storageClassName ("LVMS_vg1") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('fails when the access modes are empty or unknown', () => {
    expect(
      problemsOf({
        databaseStorage: { size: '10Gi', accessModes: [] },
        filesystemStorage: { size: '100Gi', accessModes: ['RWO' as VolumeAccessMode] },
      }),
    ).toEqual([
      'hub/agent: databaseStorage.accessModes ([]) must list one or more of ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod',
      'hub/agent: filesystemStorage.accessModes (["RWO"]) must list one or more of ReadWriteOnce, ReadOnlyMany, ReadWriteMany, ReadWriteOncePod',
    ]);
  });

  test('fails when image storage is less than 2 GiB per OS image', () => {
    const arm = { ...OS_IMAGE_417, cpuArchitecture: CpuArchitecture.AARCH64 };
    expect(problemsOf({ osImages: [OS_IMAGE_417, arm], imageStorage: { size: Size.mebibytes(3072) } })).toEqual([
      'hub/agent: imageStorage.size ("3072Mi") must be at least 4Gi: the image service needs 2 GiB per osImages entry (2)',
    ]);
  });

  test('fails when the mirror CA bundle holds no certificate', () => {
    expect(problemsOf({ mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF, { caBundle: '/etc/pki/ca.crt' }) })).toEqual([
      'hub/agent: mirrorRegistries.caBundle ("/etc/pki/ca.crt") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
    ]);
  });

  test('fails when registries.conf has no registry table', () => {
    expect(problemsOf({ mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf('unqualified-search-registries = ["docker.io"]\n') })).toEqual([
      'hub/agent: mirrorRegistries (registries.conf text) must contain at least one [[registry]] table (containers-registries.conf v2, as in docs 5.3.11.1)',
    ]);
  });

  test('fails when an existing mirror ConfigMap name is not a DNS subdomain', () => {
    expect(problemsOf({ mirrorRegistries: MirrorRegistryConfig.fromExistingConfigMap('Custom_Registries') })).toEqual([
      'hub/agent: mirrorRegistries (MirrorRegistryConfig.fromExistingConfigMap("Custom_Registries")) must name a ConfigMap: ' +
        'a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters',
    ]);
  });

  test('fails when the assisted-service ConfigMap name is not a DNS subdomain', () => {
    expect(problemsOf({ assistedServiceConfigMap: 'Assisted Config' })).toEqual([`hub/agent: assistedServiceConfigMap ("Assisted Config") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('fails when the namespace is not a DNS label', () => {
    expect(problemsOf({ namespace: 'multicluster.engine' })).toEqual([`hub/agent: namespace ("multicluster.engine") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails with every problem at once', () => {
    expect(problemsOf({ osImages: [{ ...OS_IMAGE_417, openshiftVersion: 'latest', url: 'nope' }], databaseStorage: { size: '0' }, namespace: 'X' })).toHaveLength(4);
  });

  test('fails when an Agent HostedCluster runs a version without an OS image (AG-11)', () => {
    expect(
      problemsOf({}, (hub) => {
        agentCluster(hub, 'one', '4.16.2').addNodePool('workers');
        agentCluster(hub, 'two', '4.17.1');
      }),
    ).toEqual(['hub/agent: osImages has no image for OpenShift 4.16, the release of HostedCluster hub/one (clusters/one); add one with openshiftVersion "4.16"']);
  });

  test('fails when an Agent NodePool runs a version or architecture without an OS image (AG-11)', () => {
    expect(
      problemsOf({}, (hub) => {
        const cluster = agentCluster(hub, 'one');
        cluster.addNodePool('arm', { arch: Arch.ARM64 });
        cluster.addNodePool('older', { release: Release.fromVersion('4.16.5') });
        cluster.addNodePool('patched').addOverride('spec.arch', 's390x');
      }),
    ).toEqual([
      'hub/agent: osImages has no aarch64 image for OpenShift 4.17, the release of NodePool hub/one/arm (arch arm64); add one with openshiftVersion "4.17" and cpuArchitecture aarch64',
      'hub/agent: osImages has no x86_64 image for OpenShift 4.16, the release of NodePool hub/one/older (arch amd64); add one with openshiftVersion "4.16" and cpuArchitecture x86_64',
      'hub/agent: osImages has no s390x image for OpenShift 4.17, the release of NodePool hub/one/patched (arch s390x); add one with openshiftVersion "4.17" and cpuArchitecture s390x',
      // The patched pool's schema problem comes in the same report.
      expect.stringContaining('hub/one/patched/Resource: NodePool clusters/one-patched: spec: s390x is only supported on KubeVirt platform'),
    ]);
  });

  test('fails when the MultiClusterEngine turns the assisted service off', () => {
    expect(
      problemsOf(
        {},
        (hub) =>
          new MultiClusterEngine(hub, 'mce', {
            componentOverrides: [{ component: MultiClusterEngineComponent.ASSISTED_SERVICE, enabled: false }],
          }),
      ),
    ).toEqual(['hub/agent: the MultiClusterEngine hub/mce turns component assisted-service off, and nothing serves this AgentServiceConfig; enable the component']);
  });

  test('fails when the MultiClusterEngine runs the assisted service in another namespace', () => {
    expect(problemsOf({}, (hub) => new MultiClusterEngine(hub, 'mce', { targetNamespace: 'mce' }))).toEqual([
      'hub/agent: namespace ("multicluster-engine") must be the target namespace of the MultiClusterEngine hub/mce ("mce"), where the assisted service runs',
    ]);
  });
});

test('AssistedService snapshot', () => {
  expect(
    objectsOf({
      osImages: [
        { ...OS_IMAGE_417, rootFsUrl: `${IMAGES}/rhcos-417.94.202409121747-0-live-rootfs.x86_64.img` },
        { openshiftVersion: '4.16', version: '416.94.202406251923-0', url: `${IMAGES}/rhcos-416.94.202406251923-0-live.x86_64.iso` },
      ],
      databaseStorage: { size: Size.gibibytes(10), storageClassName: 'lvms-vg1' },
      filesystemStorage: { size: '20Gi', storageClassName: 'lvms-vg1' },
      imageStorage: { size: '10Gi', storageClassName: 'lvms-vg1' },
      mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(REGISTRIES_CONF, { caBundle: CA }),
      assistedServiceConfigMap: 'assisted-service-config',
    }),
  ).toMatchSnapshot();
});
