import { Size } from 'cdk8s';
import {
  ClusterPlatform,
  EtcdStorage,
  HcpApp,
  HostedCluster,
  HubNetworkType,
  HubStorageClass,
  IngressWildcardPolicy,
  KubevirtHub,
  KubevirtHubProps,
  LvmFilesystem,
  LvmStorage,
  LvmStorageProps,
  ManagementCluster,
  ManagementMetalLB,
  NodePoolPlatform,
  OpenShiftVirtualization,
  Release,
  SecretSource,
  ThinPoolChunkSizeCalculationPolicy,
  VmEvictionStrategy,
  VolumeBindingMode,
} from '../../lib';
import { findObject, synthFiles, synthObjects, synthProblems } from '../util';

const BLOG_DEVICE_CLASS = {
  name: 'vg1',
  default: true,
  fstype: LvmFilesystem.XFS,
  optionalPaths: ['/dev/nvme1n1', '/dev/nvme0n1'],
  nodeSelector: { ocpvirt: 'host' },
  thinPool: { name: 'thin-pool-1', sizePercent: 90, overprovisionRatio: 10, chunkSizeCalculationPolicy: ThinPoolChunkSizeCalculationPolicy.STATIC },
};

function lvmObjects(props: Partial<LvmStorageProps> = {}): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new LvmStorage(new ManagementCluster(app, 'hub'), 'lvm', { name: 'test-lvmcluster', deviceClasses: [BLOG_DEVICE_CLASS], ...props });
  return synthObjects(app);
}

function lvmProblems(props: Partial<LvmStorageProps>): string[] {
  return synthProblems((app) => new LvmStorage(new ManagementCluster(app, 'hub'), 'lvm', { deviceClasses: [BLOG_DEVICE_CLASS], ...props }));
}

/** A KubeVirt cluster as the blog's lvm-hcp (no base domain), on `hub`. */
function lvmHcp(hub: ManagementCluster, options: { storageClass?: string; mapping?: string; rootVolume?: string } = {}): HostedCluster {
  const cluster = new HostedCluster(hub, 'lvm-hcp', {
    release: Release.fromVersion('4.16.18'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    etcd: EtcdStorage.managed({ storageClass: options.storageClass ?? 'gp3-csi' }),
    platform: ClusterPlatform.kubevirt({ storageClassMappings: [{ infraStorageClass: options.mapping ?? 'lvms-vg1', guestStorageClass: 'lvms-vg1' }] }),
  });
  cluster.addNodePool('workers', { platform: NodePoolPlatform.kubevirt({ rootVolumeStorageClass: options.rootVolume ?? 'lvms-vg1', rootVolumeSize: Size.gibibytes(120) }) });
  return cluster;
}

/** A hub with everything docs 3.3.1.1 ask for, with `props` for the KubevirtHub and `extra` to change it. */
function fullHub(app: HcpApp, props: KubevirtHubProps = {}, extra?: (hub: ManagementCluster) => void): ManagementCluster {
  const hub = new ManagementCluster(app, 'hub');
  new OpenShiftVirtualization(hub, 'virtualization');
  new LvmStorage(hub, 'lvm', { deviceClasses: [BLOG_DEVICE_CLASS] });
  new ManagementMetalLB(hub, 'metallb', { addresses: ['192.168.216.32-192.168.216.122'] });
  new KubevirtHub(hub, 'kubevirt', { wildcardRoutesAllowed: true, existingStorageClasses: ['gp3-csi'], ...props });
  extra?.(hub);
  return hub;
}

describe('OpenShiftVirtualization (installing by using the CLI, and the HyperConverged of docs 3.3.1.1)', () => {
  test('installs the operator into openshift-cnv and writes the HyperConverged kubevirt-hyperconverged', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new OpenShiftVirtualization(new ManagementCluster(app, 'hub'), 'virtualization', {
      workloadsNodeSelector: { ocpvirt: 'host' },
      evictionStrategy: VmEvictionStrategy.LIVE_MIGRATE,
    });
    const objects = synthObjects(app);
    expect(findObject(objects, 'OperatorGroup').spec).toEqual({ targetNamespaces: ['openshift-cnv'] });
    expect(findObject(objects, 'Subscription').metadata.name).toBe('hco-operatorhub');
    expect(findObject(objects, 'Subscription').spec).toEqual({
      channel: 'stable',
      name: 'kubevirt-hyperconverged',
      source: 'redhat-operators',
      sourceNamespace: 'openshift-marketplace',
    });
    const hco = findObject(objects, 'HyperConverged');
    expect([hco.apiVersion, hco.metadata.name, hco.metadata.namespace]).toEqual(['hco.kubevirt.io/v1beta1', 'kubevirt-hyperconverged', 'openshift-cnv']);
    expect(hco.spec).toEqual({ workloads: { nodePlacement: { nodeSelector: { ocpvirt: 'host' } } }, evictionStrategy: 'LiveMigrate' });
  });

  test('fails when the HyperConverged gets an invalid field: the validator checks it against the CRD', () => {
    const problems = synthProblems((app) => {
      new OpenShiftVirtualization(new ManagementCluster(app, 'hub'), 'virtualization').addOverride('spec.evictionStrategy', 'Migrate');
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^hub\/virtualization\/Resource: HyperConverged openshift-cnv\/kubevirt-hyperconverged: spec\.evictionStrategy: .*"Migrate"/);
    const unknown = synthProblems((app) => new OpenShiftVirtualization(new ManagementCluster(app, 'hub'), 'virtualization').addOverride('spec.liveMigration', {}));
    expect(unknown).toEqual([expect.stringMatching(/spec\.liveMigration: unknown field "spec\.liveMigration"/)]);
  });

  test('fails when a node selector is not a label', () => {
    expect(synthProblems((app) => new OpenShiftVirtualization(new ManagementCluster(app, 'hub'), 'v', { workloadsNodeSelector: { 'bad key': 'x' } }))).toEqual([
      'hub/v: workloadsNodeSelector ("bad key=x") must be a valid label key=value pair',
    ]);
  });
});

describe('LvmStorage (the blog\'s "Creating the LVMCluster")', () => {
  test("writes the blog's LVMCluster test-lvmcluster field by field, and the operator in openshift-storage", () => {
    const objects = lvmObjects();
    const cluster = findObject(objects, 'LVMCluster');
    expect(cluster.metadata).toMatchObject({ name: 'test-lvmcluster', namespace: 'openshift-storage' });
    expect(cluster.spec).toEqual({
      storage: {
        deviceClasses: [
          {
            name: 'vg1',
            default: true,
            fstype: 'xfs',
            deviceSelector: { optionalPaths: ['/dev/nvme1n1', '/dev/nvme0n1'] },
            nodeSelector: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'ocpvirt', operator: 'In', values: ['host'] }] }] },
            thinPoolConfig: { name: 'thin-pool-1', sizePercent: 90, overprovisionRatio: 10, chunkSizeCalculationPolicy: 'Static' },
          },
        ],
      },
    });
    expect(findObject(objects, 'Subscription').spec.name).toBe('lvms-operator');
    expect(findObject(objects, 'OperatorGroup').spec).toEqual({ targetNamespaces: ['openshift-storage'] });
  });

  test('names the StorageClasses LVMS creates, lvms-<device class>, and the default one', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const lvm = new LvmStorage(new ManagementCluster(app, 'hub'), 'lvm', {
      deviceClasses: [
        { ...BLOG_DEVICE_CLASS, default: false },
        { name: 'fast', default: true, paths: ['/dev/disk/by-id/nvme-fast'] },
      ],
    });
    expect(lvm.storageClassNames).toEqual(['lvms-vg1', 'lvms-fast']);
    expect(lvm.defaultStorageClassName).toBe('lvms-fast');
  });

  test('fails when a device class has no devices while there are several device classes', () => {
    expect(lvmProblems({ deviceClasses: [BLOG_DEVICE_CLASS, { name: 'extra', default: false }] })).toEqual([
      'hub/lvm: deviceClasses[1].paths (none) must name the class\'s disks (paths or optionalPaths): with 2 device classes LVMS cannot tell which disks belong to "extra"',
    ]);
  });

  test('fails when two classes are default, a disk is in two classes, or a path is not under /dev', () => {
    expect(lvmProblems({ deviceClasses: [BLOG_DEVICE_CLASS, { name: 'vg2', default: true, paths: ['/dev/nvme1n1', 'sdb'] }] })).toEqual([
      'hub/lvm: deviceClasses[1].paths ("/dev/nvme1n1") is also a disk of deviceClasses[0]; a disk belongs to one device class, once',
      'hub/lvm: deviceClasses[1].paths ("sdb") must be a device path under /dev/, such as /dev/disk/by-id/nvme-…',
      'hub/lvm: deviceClasses (defaults: ["vg1","vg2"]) must mark exactly one device class default when there are several',
    ]);
  });

  test("fails when the thin pool is out of the CRD's range", () => {
    expect(lvmProblems({ deviceClasses: [{ name: 'vg1', thinPool: { sizePercent: 5, overprovisionRatio: 0 } }] })).toEqual([
      'hub/lvm: deviceClasses[0].thinPool.sizePercent (5) must be a whole number from 10 to 100',
      'hub/lvm: deviceClasses[0].thinPool.overprovisionRatio (0) must be a whole number from 1 to 100',
    ]);
  });
});

describe('ManagementMetalLB (docs 3.3.5, "Optional: Configuring MetalLB")', () => {
  test('writes the MetalLB, the IPAddressPool metallb and the L2Advertisement of docs 3.3.5 in metallb-system', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new ManagementMetalLB(new ManagementCluster(app, 'hub'), 'metallb', { addresses: ['192.168.216.32-192.168.216.122'] });
    const objects = synthObjects(app);
    expect(findObject(objects, 'MetalLB').metadata).toMatchObject({ name: 'metallb', namespace: 'metallb-system' });
    expect(findObject(objects, 'IPAddressPool').spec).toEqual({ addresses: ['192.168.216.32-192.168.216.122'] });
    expect(findObject(objects, 'L2Advertisement').spec).toEqual({ ipAddressPools: ['metallb'] });
    expect(findObject(objects, 'Subscription').metadata.name).toBe('metallb-operator-sub');
  });

  test('fails when an address is not an address, range or CIDR', () => {
    expect(synthProblems((app) => new ManagementMetalLB(new ManagementCluster(app, 'hub'), 'metallb', { addresses: ['192.168.216.300'] }))).toEqual([
      'hub/metallb: addresses[0] ("192.168.216.300") must be an IPv4 or IPv6 address, a range "first-last" or a CIDR block',
    ]);
  });
});

describe('KubevirtHub: the prerequisites of docs 3.3.1.1 checked at synth', () => {
  test('a hub with all of them synthesizes lvm-hcp without problems or warnings', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    lvmHcp(fullHub(app));
    expect(synthFiles(app).length).toBeGreaterThan(0);
    expect(app.warnings).toEqual([]);
  });

  test('fails when OpenShift Virtualization, a default storage class, wildcard routes and a load balancer are missing, or the network is not OVN-Kubernetes', () => {
    const problems = synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      new KubevirtHub(hub, 'kubevirt', { networkType: HubNetworkType.OPENSHIFT_SDN, existingStorageClasses: ['gp3-csi', 'lvms-vg1'] });
      lvmHcp(hub);
    });
    expect(problems).toEqual([
      'hub/kubevirt: KubeVirt hosted clusters (lvm-hcp) run their VMs on this hub, which has no OpenShiftVirtualization; add one or declare virtualizationInstalledOutsideApp (docs 3.3.1.1)',
      'hub/kubevirt: networkType ("OpenShiftSDN") must be OVNKubernetes: KubeVirt hosted clusters (lvm-hcp) need OVN-Kubernetes as the hub\'s pod network (docs 3.3.1.1)',
      'hub/kubevirt: the hub has no default StorageClass, which KubeVirt hosted clusters (lvm-hcp) need (docs 3.3.1.1); mark an LvmStorage device class or a HubStorageClass default, or declare existingDefaultStorageClass',
      'hub/kubevirt: hub/lvm-hcp publishes services.APIServer as LoadBalancer, which needs a load balancer on the hub (docs 3.3.1.1, 3.3.5); add a ManagementMetalLB or declare externalLoadBalancer',
      "hub/kubevirt: wildcardRoutesAllowed (false): hub/lvm-hcp has no baseDomain, so its *.apps is a subdomain of the hub's and needs wildcard routes; add an IngressWildcardPolicy " +
        '(routeAdmission.wildcardPolicy WildcardsAllowed on the default IngressController, docs 3.3.1.1), declare wildcardRoutesAllowed when it is patched outside this app, or give the cluster a baseDomain',
    ]);
  });

  test('an IngressWildcardPolicy on the default IngressController counts as wildcard routes allowed; one on another does not', () => {
    expect(synthProblems((app) => lvmHcp(fullHub(app, { wildcardRoutesAllowed: undefined }, (hub) => new IngressWildcardPolicy(hub, 'wildcard-routes'))))).toEqual([]);
    const problems = synthProblems((app) =>
      lvmHcp(fullHub(app, { wildcardRoutesAllowed: undefined }, (hub) => new IngressWildcardPolicy(hub, 'wildcard-routes', { ingressControllerName: 'sharded' }))),
    );
    expect(problems).toEqual([expect.stringMatching(/^hub\/kubevirt: wildcardRoutesAllowed \(false\): hub\/lvm-hcp has no baseDomain/)]);
  });

  test('clusters whose VMs run on another infrastructure cluster are not checked against this hub', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        new KubevirtHub(hub, 'kubevirt');
        new HostedCluster(hub, 'ext', {
          release: Release.fromVersion('4.17.0'),
          pullSecret: SecretSource.fromExistingSecret('pull-secret'),
          platform: ClusterPlatform.kubevirt({ externalInfrastructure: { namespace: 'vms', kubeconfig: SecretSource.fromExistingSecret('infra') } }),
        });
      }),
    ).toEqual([]);
  });

  test('warns about a storage class no construct makes and none is declared, naming etcd, mapping and root volume fields', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    lvmHcp(fullHub(app, { existingStorageClasses: [] }), { mapping: 'lvms-vg2', rootVolume: 'ocs-storagecluster-ceph-rbd' });
    app.synthesize();
    const unknown = 'no LvmStorage or HubStorageClass makes it and existingStorageClasses ([]) does not declare it; volumes would stay Pending [HCP-W010]';
    expect(app.warnings).toEqual([
      `hub/lvm-hcp: etcd.storageClass ("gp3-csi") is no StorageClass of hub/kubevirt: ${unknown}`,
      `hub/lvm-hcp: platform.storageClassMappings[0].infraStorageClass ("lvms-vg2") is no StorageClass of hub/kubevirt: ${unknown}`,
      `hub/lvm-hcp/workers: platform.rootVolumeStorageClass ("ocs-storagecluster-ceph-rbd") is no StorageClass of hub/kubevirt: ${unknown}`,
    ]);
  });

  test('fails when a storage class mapping names a class the hub declares missing, under strict', () => {
    expect(synthProblems((app) => lvmHcp(fullHub(app), { mapping: 'lvms-vg2' }), { strict: true })).toEqual([
      expect.stringMatching(/^hub\/lvm-hcp: platform\.storageClassMappings\[0\]\.infraStorageClass \("lvms-vg2"\) is no StorageClass of hub\/kubevirt: .* \[HCP-W010\]$/),
    ]);
  });

  test('counts a HubStorageClass as provided and as the default', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const hub = new ManagementCluster(app, 'hub');
    new OpenShiftVirtualization(hub, 'virtualization');
    new HubStorageClass(hub, 'ceph', { name: 'ocs-storagecluster-ceph-rbd', provisioner: 'openshift-storage.rbd.csi.ceph.com', isDefault: true, volumeBindingMode: VolumeBindingMode.IMMEDIATE });
    new KubevirtHub(hub, 'kubevirt', { wildcardRoutesAllowed: true, externalLoadBalancer: true, existingStorageClasses: ['gp3-csi', 'lvms-vg1'] });
    lvmHcp(hub, { rootVolume: 'ocs-storagecluster-ceph-rbd' });
    const objects = synthObjects(app);
    expect(findObject(objects, 'StorageClass').metadata.annotations['storageclass.kubernetes.io/is-default-class']).toBe('true');
    expect(app.warnings).toEqual([]);
  });

  test('warns about multiqueue on a hub with an MTU under 9000 (docs 3.3.1.1)', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    lvmHcp(fullHub(app, { mtu: 1400 }));
    app.synthesize();
    expect(app.warnings).toEqual([
      'hub/lvm-hcp/workers: platform.networkInterfaceMultiqueue (true) on a hub with MTU 1400: docs 3.3.1.1 advise multiqueue only from MTU 9000; set it false or raise the MTU [HCP-W011]',
    ]);
  });
});

test('snapshot of a full KubeVirt hub with lvm-hcp', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  lvmHcp(fullHub(app, { mtu: 9000 }, (hub) => new HubStorageClass(hub, 'gp3', { name: 'gp3-csi', provisioner: 'ebs.csi.aws.com', parameters: { type: 'gp3' } })));
  expect(synthObjects(app)).toMatchSnapshot();
});
