// The escape hatch of every exported construct: its main object is `resource` (or, for the AWS
// constructs, its L1 and L2 children are named properties), and a patch made through it is in the
// output. The table below must name every construct class the two entry points export, so a new
// construct without an entry fails the first test.
import { App as AwsApp, CfnResource, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import * as hcp from '../lib';
import * as hcpAws from '../lib/aws';
import {
  AssistedService,
  AuditProfile,
  BmcCredentials,
  CertificateAuthority,
  ClusterOAuth,
  ClusterProxy,
  DataProtectionApplication,
  DisconnectedMirrors,
  FeatureGates,
  FeatureSet,
  HcpApp,
  HostedCluster,
  HostedClusterBackup,
  HostedClusterRestore,
  HubStorageClass,
  IdentityProvider,
  ImageMirrors,
  ImageRegistryPolicy,
  InfraEnv,
  KubevirtHub,
  LvmFilesystem,
  LvmStorage,
  MachineConfiguration,
  ManagementCluster,
  ManagementMetalLB,
  HypershiftAddonConfig,
  MirrorRegistryTrust,
  IngressWildcardPolicy,
  AwsMachineSets,
  Metal3Provisioning,
  MetalLBIngress,
  MultiClusterEngine,
  NMStateConfig,
  NodePerformanceProfile,
  NodeTuning,
  OpenShiftVirtualization,
  Release,
  ReleaseRollout,
  RolloutWave,
  SecretSource,
  SshPublicKey,
  UpdateGraph,
  allowHostsWithoutCluster,
  ApiServerConfiguration,
  InstalledOperator,
  BareMetalHost,
  ClusterPlatform,
  SecretEncryption,
  TrustBundle,
} from '../lib';
import { AwsHostedInfra, AwsManagementPrereqs, ExternalDnsCredentialsSecret, HostedClusterIam, HostedClusterNetwork, OidcS3CredentialsSecret, PublicZone } from '../lib/aws';
import { clusterProps, SSH_KEY } from './props';
import { synthObjects } from './util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';
const REGISTRY = 'registry.example.com:5000';
const ENV = { account: '123456789012', region: 'us-east-1' };

/** The release images mirrored to REGISTRY, which CA signs. */
function mirrors(): ImageMirrors {
  return new ImageMirrors({ registry: REGISTRY, caPem: CA, repositories: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${REGISTRY}/openshift/release-images`] }] });
}

/** A hub with one Agent cluster, `c1`, in a fresh app. */
interface Lab {
  readonly app: HcpApp;
  readonly hub: ManagementCluster;
  readonly cluster: HostedCluster;
}

function lab(props: Parameters<typeof clusterProps>[0] = {}): Lab {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const hub = new ManagementCluster(app, 'hub');
  return { app, hub, cluster: new HostedCluster(hub, 'c1', clusterProps(props)) };
}

function infraEnv({ hub }: Lab): InfraEnv {
  return new InfraEnv(hub, 'lab', { namespace: 'hardware-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret'), capiProviderRole: false });
}

function dataProtection({ hub }: Lab): DataProtectionApplication {
  return new DataProtectionApplication(hub, 'oadp', { storage: { bucket: 'hcp-backups', region: 'us-east-1', credentials: SecretSource.fromExistingSecret('cloud-credentials') } });
}

/** A one-off backup of `c1`, paused as docs 7.6.5 take one, in a lab of its own: in a chart of its own, applied by hand. */
function backup(l = lab({ pausedUntil: 'true' })): HostedClusterBackup {
  return new HostedClusterBackup(new ManagementCluster(l.app, 'hub-backup'), 'backup', { cluster: l.cluster, dataProtection: dataProtection(l) });
}

/** The OperatorGroup and Subscription of a construct that installs its operator (the Namespace is the chart's, shared). */
function installed(construct: { readonly operator?: InstalledOperator }): ApiObject[] {
  if (!construct.operator) throw new Error('expected the construct to install its operator, so that `operator` names its objects');
  if (!construct.operator.operatorGroup) throw new Error('expected the construct to write its OperatorGroup');
  return [construct.operator.operatorGroup, construct.operator.subscription];
}

/** How the objects of one construct class are reached. */
type Entry =
  /**
   * A cdk8s construct: `resource` is its main object; `others` the named properties of the rest,
   * which must name every other object it writes.
   */
  | {
      readonly writes: 'kubernetes';
      readonly make: (lab: Lab) => IConstruct & { readonly resource?: ApiObject };
      readonly others?: (construct: any) => readonly (ApiObject | undefined)[];
    }
  /** An aws-cdk construct: its L1s (an L2's through `node.defaultChild`), through the named properties that expose them. */
  | { readonly writes: 'cloudformation'; readonly make: (stack: Stack) => IConstruct; readonly children: (construct: any) => readonly CfnResource[] }
  /** Writes no object (it checks, or declares facts); the test holds it to that. */
  | { readonly writes: 'nothing'; readonly why: string; readonly make: (lab: Lab) => IConstruct }
  /** An app or a chart: objects are added to it, it is no object itself. */
  | { readonly writes: 'scope'; readonly why: string };

const ENTRIES: Readonly<Record<string, Entry>> = {
  HcpApp: { writes: 'scope', why: 'the app: charts are added to it' },
  ManagementCluster: { writes: 'scope', why: "the management cluster's chart: any ApiObject can be added to it" },
  GuestCluster: { writes: 'scope', why: "a hosted cluster's guest chart: any ApiObject can be added to it" },
  NodeConfigMap: { writes: 'scope', why: 'the abstract base of MachineConfiguration, NodeTuning and NodePerformanceProfile, which have entries of their own' },
  KubevirtHub: { writes: 'nothing', why: 'declares what the hub has and checks KubeVirt clusters against it', make: ({ hub }) => new KubevirtHub(hub, 'kubevirt', { wildcardRoutesAllowed: true }) },
  ReleaseRollout: {
    writes: 'nothing',
    why: 'its record is written by the app under rollouts/, not an object of any cluster',
    make: ({ app }) => new ReleaseRollout(app, 'r', { release: Release.fromVersion('4.17.3'), waves: [RolloutWave.rest()], releasedWaves: 0 }),
  },
  UpdateGraph: {
    writes: 'nothing',
    why: "its record (the channel's update graph, for plan) is written by the app under rollouts/, not an object of any cluster",
    make: ({ app }) =>
      new UpdateGraph(app, 'stable-4.17', { channel: 'stable-4.17', graph: { nodes: [{ version: '4.17.3', payload: 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi' }], edges: [] } }),
  },

  HostedCluster: {
    writes: 'kubernetes',
    // Every source that writes an object of its own: external Secrets, a PEM trust bundle, a KubeVirt infrastructure kubeconfig.
    make: () => {
      const vault = (remoteKey: string) => SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey });
      return lab({
        sshKey: SshPublicKey.fromString(SSH_KEY),
        pullSecret: vault('hcp/pull-secret'),
        additionalTrustBundle: TrustBundle.fromPem(CA),
        secretEncryption: SecretEncryption.aescbc(vault('hcp/etcd-key'), vault('hcp/etcd-backup-key')),
        baseDomain: 'example.com',
        platform: ClusterPlatform.kubevirt({ externalInfrastructure: { namespace: 'guests', kubeconfig: vault('hcp/infra-kubeconfig') } }),
      }).cluster;
    },
    others: (cluster: HostedCluster) => [
      cluster.pullSecretObject!,
      cluster.sshKeySecret!,
      cluster.trustBundleConfigMap!,
      cluster.etcdEncryptionKeyObject!,
      cluster.etcdEncryptionBackupKeyObject!,
      cluster.infraCredentialsObject!,
    ],
  },
  NodePool: { writes: 'kubernetes', make: ({ cluster }) => cluster.addNodePool('workers', { replicas: 1 }) },
  InfraEnv: { writes: 'kubernetes', make: infraEnv },
  NMStateConfig: {
    writes: 'kubernetes',
    make: (l) => {
      const env = infraEnv(l);
      return new NMStateConfig(env, 'static-0', { infraEnv: env, interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:00:00' }], config: { interfaces: [{ name: 'eno1' }] } });
    },
  },
  BareMetalHost: {
    writes: 'kubernetes',
    make: (l) => {
      allowHostsWithoutCluster(l.hub, { reason: 'a host under test' });
      return infraEnv(l).addHost('worker-0', {
        bmc: {
          address: 'redfish-virtualmedia://192.0.2.20/redfish/v1/Systems/1',
          credentials: BmcCredentials.fromSealedSecret({ username: 'AgBy3i4OJSWK+PiTySYZZA==', password: 'AgBy3i4OJSWK+PiTySYZZB==' }),
        },
        bootMacAddress: 'aa:bb:cc:00:11:22',
      });
    },
    others: (host: BareMetalHost) => [host.bmcSecretObject!],
  },
  MetalLBIngress: {
    writes: 'kubernetes',
    make: ({ cluster }) => new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.0.2.100'] }),
    others: (ingress: MetalLBIngress) => [ingress.advertisement, ingress.service, ...installed(ingress), ingress.metallb!],
  },
  DataProtectionApplication: { writes: 'kubernetes', make: dataProtection, others: installed },
  HostedClusterBackup: { writes: 'kubernetes', make: () => backup() },
  HostedClusterRestore: {
    writes: 'kubernetes',
    make: () => {
      const b = backup();
      // In a chart of its own, applied only for recovery.
      return new HostedClusterRestore(new ManagementCluster(b.node.root, 'recovery'), 'restore', { backup: b });
    },
  },
  MultiClusterEngine: { writes: 'kubernetes', make: ({ hub }) => new MultiClusterEngine(hub, 'mce', { installOperator: true }), others: installed },
  HypershiftAddonConfig: { writes: 'kubernetes', make: ({ hub }) => new HypershiftAddonConfig(hub, 'hypershift-addon', { autoImport: true }) },
  MirrorRegistryTrust: {
    writes: 'kubernetes',
    make: ({ hub }) => new MirrorRegistryTrust(hub, 'registry-trust', { mirrors: mirrors() }),
    others: (trust: MirrorRegistryTrust) => [trust.configMap],
  },
  IngressWildcardPolicy: { writes: 'kubernetes', make: ({ hub }) => new IngressWildcardPolicy(hub, 'wildcard-routes') },
  AwsMachineSets: {
    writes: 'kubernetes',
    make: ({ hub }) =>
      new AwsMachineSets(hub, 'metal', {
        infrastructureId: 'ocp-cluster-h5ffp',
        region: 'us-east-2',
        zones: ['us-east-2a', 'us-east-2b'],
        instanceType: 'm5.metal',
        amiId: 'ami-08bb6907b96d2a024',
      }),
    others: (sets: AwsMachineSets) => sets.machineSets,
  },
  Metal3Provisioning: { writes: 'kubernetes', make: ({ hub }) => new Metal3Provisioning(hub, 'provisioning') },
  HubStorageClass: { writes: 'kubernetes', make: ({ hub }) => new HubStorageClass(hub, 'ceph', { name: 'ceph-rbd', provisioner: 'openshift-storage.rbd.csi.ceph.com' }) },
  ManagementMetalLB: {
    writes: 'kubernetes',
    make: ({ hub }) => new ManagementMetalLB(hub, 'metallb', { addresses: ['192.168.216.32-192.168.216.122'] }),
    others: (metallb: ManagementMetalLB) => [...installed(metallb), metallb.metallb, metallb.advertisement],
  },
  LvmStorage: {
    writes: 'kubernetes',
    make: ({ hub }) => new LvmStorage(hub, 'lvm', { deviceClasses: [{ name: 'vg1', default: true, fstype: LvmFilesystem.XFS, optionalPaths: ['/dev/nvme1n1'] }] }),
    others: installed,
  },
  AssistedService: {
    writes: 'kubernetes',
    make: ({ hub }) =>
      new AssistedService(hub, 'agent', {
        osImages: [{ openshiftVersion: '4.17', version: '417.94.202409121747-0', url: 'http://registry.example.com:8080/images/rhcos-417.94.202409121747-0-live.x86_64.iso' }],
      }),
    others: (service: AssistedService) => [service.mirrorRegistryConfigMap],
  },
  OpenShiftVirtualization: { writes: 'kubernetes', make: ({ hub }) => new OpenShiftVirtualization(hub, 'virtualization'), others: installed },
  DisconnectedMirrors: {
    writes: 'kubernetes',
    make: () => {
      const { hub, cluster } = lab({
        release: Release.fromImage(`${REGISTRY}/openshift/release-images@sha256:${'e3'.repeat(32)}`, { version: '4.17.0' }),
        imageContentSources: mirrors().imageContentSources,
        additionalTrustBundle: mirrors().trustBundle,
        olmCatalogPlacement: hcp.OlmCatalogPlacement.GUEST,
      });
      return new DisconnectedMirrors(hub, 'mirrors', { mirrors: mirrors(), clusters: [cluster] });
    },
  },
  MachineConfiguration: {
    writes: 'kubernetes',
    make: ({ cluster }) => new MachineConfiguration(cluster, 'chrony', { files: [{ path: '/etc/chrony.conf', contents: 'server ntp.example.com iburst\n', mode: 0o644 }] }),
  },
  NodeTuning: {
    writes: 'kubernetes',
    make: ({ cluster }) =>
      new NodeTuning(cluster, 'tuned', {
        profiles: [{ name: 'tuned-1-profile', data: '[main]\nsummary=Custom OpenShift profile\ninclude=openshift-node\n' }],
        recommend: [{ priority: 20, profile: 'tuned-1-profile' }],
      }),
  },
  NodePerformanceProfile: { writes: 'kubernetes', make: ({ cluster }) => new NodePerformanceProfile(cluster, 'low-latency', { cpu: { reserved: '0', isolated: '1-3' } }) },
  FeatureGates: { writes: 'kubernetes', make: ({ cluster }) => new FeatureGates(cluster, 'features', { featureSet: FeatureSet.DEFAULT }) },
  ImageRegistryPolicy: { writes: 'kubernetes', make: ({ cluster }) => new ImageRegistryPolicy(cluster, 'images', { allowedRegistries: ['quay.io'] }) },
  ClusterProxy: {
    writes: 'kubernetes',
    make: ({ cluster }) => new ClusterProxy(cluster, 'proxy', { httpsProxy: 'http://proxy.example.com:3128', trustedCa: CertificateAuthority.fromPem(CA) }),
    others: (proxy: ClusterProxy) => [proxy.trustedCaConfigMap],
  },
  ClusterOAuth: {
    writes: 'kubernetes',
    make: ({ cluster }) =>
      new ClusterOAuth(cluster, 'oauth', {
        identityProviders: [
          IdentityProvider.openId({
            name: 'IAM',
            clientId: 'hcp-client',
            clientSecret: SecretSource.fromExistingSecret('iam-client-secret'),
            issuer: 'https://example.com/identity',
            ca: CertificateAuthority.fromPem(CA),
          }),
        ],
      }),
    others: (oauth: ClusterOAuth) => oauth.identityProviderObjects,
  },
  ApiServerConfiguration: { writes: 'kubernetes', make: ({ cluster }) => new ApiServerConfiguration(cluster, 'api', { auditProfile: AuditProfile.WRITE_REQUEST_BODIES }) },
  OidcS3CredentialsSecret: {
    writes: 'kubernetes',
    make: ({ hub }) =>
      new OidcS3CredentialsSecret(hub, 'oidc', {
        bucket: { bucketName: 'acme-hcp-oidc', bucketRegion: 'eu-west-1' },
        credentials: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'hcp/oidc' }),
      }),
  },
  ExternalDnsCredentialsSecret: {
    writes: 'kubernetes',
    make: ({ hub }) =>
      new ExternalDnsCredentialsSecret(hub, 'external-dns', {
        domainFilter: 'service-provider.example.com',
        credentials: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'hcp/external-dns' }),
      }),
  },

  HostedClusterNetwork: {
    writes: 'cloudformation',
    make: (stack) => new HostedClusterNetwork(stack, 'Network', { infraId: 'demo-x7k2p', clusterName: 'demo', baseDomain: 'example.com', zones: ['us-east-1a'] }),
    children: (n: HostedClusterNetwork) => [n.vpc, n.dhcpOptions, n.internetGateway, n.publicRouteTable, n.s3Endpoint, n.privateHostedZone, n.localHostedZone],
  },
  HostedClusterIam: {
    writes: 'cloudformation',
    make: (stack) =>
      new HostedClusterIam(stack, 'Iam', {
        infraId: 'demo-x7k2p',
        issuerUrl: 'https://acme-hcp-oidc.s3.us-east-1.amazonaws.com/demo-x7k2p',
        publicZoneId: 'Z0PUBLIC',
        privateZoneId: 'Z0PRIVATE',
        localZoneId: 'Z0LOCAL',
      }),
    children: (i: HostedClusterIam) => [i.oidcProvider, i.instanceProfile, l1(i.workerRole), ...Object.values(i.componentRoles).map(l1)],
  },
  AwsHostedInfra: {
    writes: 'cloudformation',
    make: (stack) =>
      new AwsHostedInfra(stack, 'Infra', {
        infraId: 'demo-x7k2p',
        clusterName: 'demo',
        baseDomain: 'hcp.example.com',
        publicZoneId: 'Z0EXAMPLEPUBLICZONE',
        oidcBucketName: 'hcp-oidc',
        zones: ['us-east-1a'],
      }),
    // Its parts are constructs with entries of their own, reached through `network` and `iam`.
    children: (infra: AwsHostedInfra) => [infra.network!.vpc, infra.iam.oidcProvider],
  },
  AwsManagementPrereqs: {
    writes: 'cloudformation',
    make: (stack) => new AwsManagementPrereqs(stack, 'Prereqs', { oidcBucketName: 'acme-hcp-oidc', baseDomain: 'hcp.example.com', publicZone: PublicZone.create() }),
    children: (p: AwsManagementPrereqs) => [l1(p.oidcBucket), l1(p.publicZone)],
  },
};

/** The L1 of an L2 construct: its default child (id `Resource`). */
function l1(construct: IConstruct): CfnResource {
  const child = construct.node.defaultChild;
  if (!CfnResource.isCfnResource(child)) throw new Error(`${construct.node.path} has no CfnResource as its default child`);
  return child;
}

/** The exported classes that are constructs, by export name. */
function exportedConstructClasses(): string[] {
  const exported = { ...hcp, ...hcpAws } as Record<string, unknown>;
  return Object.entries(exported)
    .filter(([, value]) => typeof value === 'function' && (value as { prototype?: unknown }).prototype instanceof Construct)
    .map(([name]) => name)
    .sort();
}

const PATCH_KEY = 'escape-hatch.example.com/patched';

/** Adds annotation PATCH_KEY through a JSON patch, whether or not the object has annotations yet. */
function patchThrough(resource: ApiObject, value: string): void {
  const annotations = resource.toJson().metadata?.annotations;
  resource.addJsonPatch(annotations === undefined ? JsonPatch.add('/metadata/annotations', { [PATCH_KEY]: value }) : JsonPatch.add(`/metadata/annotations/${PATCH_KEY.replace('/', '~1')}`, value));
}

function objectOf(objects: readonly any[], resource: ApiObject): any {
  const found = objects.filter((o) => o.kind === resource.kind && o.metadata?.name === resource.name && o.apiVersion === resource.apiVersion);
  if (found.length !== 1) throw new Error(`expected one ${resource.kind} ${resource.name} in the output, found ${found.length}`);
  return found[0];
}

const byKind = (writes: Entry['writes']) =>
  Object.entries(ENTRIES)
    .filter(([, e]) => e.writes === writes)
    .map(([name, e]) => [name, e] as const);

test('every construct class exported by hcp-cdk and hcp-cdk/aws has an entry, and the table names no other', () => {
  const exported = exportedConstructClasses();
  expect(exported.length).toBeGreaterThan(30);
  expect(Object.keys(ENTRIES).sort()).toEqual(exported);
});

describe.each(byKind('kubernetes'))('%s', (name, entry) => {
  const e = entry as Extract<Entry, { writes: 'kubernetes' }>;

  test('exposes its main object as `resource`, and a JSON patch through it is in the output', () => {
    const l = lab();
    const construct = e.make(l);
    expect(construct.constructor.name).toBe(name);
    const resource = construct.resource;
    expect(ApiObject.isApiObject(resource)).toBe(true);
    patchThrough(resource!, name);
    const objects = synthObjects(construct.node.root as HcpApp);
    expect(objectOf(objects, resource!).metadata.annotations[PATCH_KEY]).toBe(name);
  });

  test('writes no object that its properties do not name', () => {
    const construct = e.make(lab());
    const named = new Set<unknown>([construct.resource, ...(e.others?.(construct) ?? [])]);
    // The objects of a construct of its own (a host's NMStateConfig, a cluster's NodePools) are that construct's.
    const ownedByOther = (o: IConstruct) => {
      for (let s = o.node.scope; s && s !== construct; s = s.node.scope) if (Object.keys(ENTRIES).includes(s.constructor.name)) return true;
      return false;
    };
    const unnamed = construct.node
      .findAll()
      .filter((o) => ApiObject.isApiObject(o))
      .filter((o) => !named.has(o) && !ownedByOther(o))
      .map((o) => o.node.id);
    expect(unnamed).toEqual([]);
  });

  if (e.others) {
    test('exposes its other objects as named properties, each in the output and patchable', () => {
      const construct = e.make(lab());
      const others = e.others!(construct);
      expect(others.length).toBeGreaterThan(0);
      for (const [i, other] of others.entries()) {
        if (other === undefined) continue;
        expect(ApiObject.isApiObject(other)).toBe(true);
        patchThrough(other, `${name}-${i}`);
      }
      const objects = synthObjects(construct.node.root as HcpApp);
      for (const [i, other] of others.entries()) if (other) expect(objectOf(objects, other).metadata.annotations[PATCH_KEY]).toBe(`${name}-${i}`);
    });
  }
});

describe.each(byKind('cloudformation'))('%s', (name, entry) => {
  const e = entry as Extract<Entry, { writes: 'cloudformation' }>;

  test('exposes its L1 and L2 children as named properties, and an override through each is in the template', () => {
    const stack = new Stack(new AwsApp(), 'Stack', { env: ENV });
    const construct = e.make(stack);
    expect(construct.constructor.name).toBe(name);
    const children = e.children(construct);
    expect(children.length).toBeGreaterThan(0);
    children.forEach((child, i) => child.addOverride('Metadata.EscapeHatch', `${name}-${i}`));
    const resources = Template.fromStack(stack).toJSON().Resources;
    children.forEach((child, i) => expect(resources[stack.getLogicalId(child)].Metadata.EscapeHatch).toBe(`${name}-${i}`));
  });
});

describe.each(byKind('nothing'))('%s', (name, entry) => {
  const e = entry as Extract<Entry, { writes: 'nothing' }>;

  test(`writes no object, so it has no resource (${e.why})`, () => {
    const construct = e.make(lab());
    expect(construct.constructor.name).toBe(name);
    expect(
      construct.node
        .findAll()
        .filter((o) => ApiObject.isApiObject(o))
        .map((o) => o.node.path),
    ).toEqual([]);
    expect('resource' in construct).toBe(false);
  });
});
