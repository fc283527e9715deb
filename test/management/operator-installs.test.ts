// The one operator-install description (OperatorInstallOptions), through every construct that
// installs an operator: its defaults are each construct's own, every option reaches the
// Subscription or OperatorGroup it names, and bad values are refused with the field and value.
import {
  ClusterPlatform,
  DataProtectionApplication,
  HcpApp,
  HostedCluster,
  InstalledOperator,
  InstallPlanApproval,
  LvmStorage,
  ManagementCluster,
  ManagementMetalLB,
  MetalLBIngress,
  MultiClusterEngine,
  OpenShiftVirtualization,
  OperatorInstallOptions,
  Release,
  SecretSource,
} from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthObjects, synthProblems } from '../util';

interface Installer {
  /** The construct's path, as its problems name it. */
  readonly path: string;
  /** The Namespace, OperatorGroup, Subscription (name, package, channel) the construct writes by default. */
  readonly namespace: string;
  readonly operatorGroup: string;
  readonly subscription: string;
  readonly packageName: string;
  readonly channel: string;
  /** Declares the construct in a fresh app with `options`, installing the operator unless `install` is false. */
  readonly build: (app: HcpApp, options: OperatorInstallOptions & { installOperator?: boolean }) => { readonly operator?: InstalledOperator };
}

const DEVICE_CLASS = { name: 'vg1', optionalPaths: ['/dev/nvme1n1'], nodeSelector: { ocpvirt: 'host' } };
const STORAGE = { bucket: 'hcp-backups', region: 'us-east-1', credentials: SecretSource.fromExistingSecret('cloud-credentials') };

function hub(app: HcpApp): ManagementCluster {
  return new ManagementCluster(app, 'hub');
}

const INSTALLERS: Record<string, Installer> = {
  LvmStorage: {
    path: 'hub/lvm',
    namespace: 'openshift-storage',
    operatorGroup: 'openshift-storage-operatorgroup',
    subscription: 'lvms',
    packageName: 'lvms-operator',
    channel: 'stable',
    build: (app, options) => new LvmStorage(hub(app), 'lvm', { deviceClasses: [DEVICE_CLASS], ...options }),
  },
  OpenShiftVirtualization: {
    path: 'hub/cnv',
    namespace: 'openshift-cnv',
    operatorGroup: 'kubevirt-hyperconverged-group',
    subscription: 'hco-operatorhub',
    packageName: 'kubevirt-hyperconverged',
    channel: 'stable',
    build: (app, options) => new OpenShiftVirtualization(hub(app), 'cnv', options),
  },
  ManagementMetalLB: {
    path: 'hub/metallb',
    namespace: 'metallb-system',
    operatorGroup: 'metallb-operator',
    subscription: 'metallb-operator-sub',
    packageName: 'metallb-operator',
    channel: 'stable',
    build: (app, options) => new ManagementMetalLB(hub(app), 'metallb', { addresses: ['192.168.216.32-192.168.216.122'], ...options }),
  },
  DataProtectionApplication: {
    path: 'hub/oadp',
    namespace: 'openshift-adp',
    operatorGroup: 'oadp-operator-group',
    subscription: 'redhat-oadp-operator',
    packageName: 'redhat-oadp-operator',
    channel: 'stable-1.4',
    build: (app, options) => new DataProtectionApplication(hub(app), 'oadp', { storage: STORAGE, ...options }),
  },
  MultiClusterEngine: {
    path: 'hub/mce',
    namespace: 'multicluster-engine',
    operatorGroup: 'multicluster-engine',
    subscription: 'multicluster-engine',
    packageName: 'multicluster-engine',
    channel: 'stable-2.7',
    build: (app, options) => new MultiClusterEngine(hub(app), 'mce', { installOperator: true, ...options }),
  },
  MetalLBIngress: {
    path: 'vcluster2-guest/ingress',
    namespace: 'metallb',
    operatorGroup: 'metallb-operator-operatorgroup',
    subscription: 'metallb-operator',
    packageName: 'metallb-operator',
    channel: 'stable',
    build: (app, options) => {
      const cluster = new HostedCluster(hub(app), 'vcluster2', {
        release: Release.fromVersion('4.17.0'),
        pullSecret: SecretSource.fromExistingSecret('pull-secret'),
        platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
        networking: { machineNetwork: ['192.168.122.0/24'] },
      });
      return new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.168.122.23'], ...options });
    },
  },
};

function objectsOf(installer: Installer, options: OperatorInstallOptions & { installOperator?: boolean } = {}): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  installer.build(app, options);
  return synthObjects(app);
}

function problemsOf(installer: Installer, options: OperatorInstallOptions & { installOperator?: boolean }): string[] {
  return synthProblems((app) => installer.build(app, options));
}

const CONSTRUCTS = Object.keys(INSTALLERS);

describe.each(CONSTRUCTS)('%s installs its operator from one OperatorInstallOptions', (construct) => {
  const installer = INSTALLERS[construct];

  test("by default: the docs' CLI names, the default catalog, no approval or starting CSV", () => {
    const objects = objectsOf(installer);
    const subscription = findObject(objects, 'Subscription');
    expect(subscription.metadata.name).toBe(installer.subscription);
    expect(subscription.metadata.namespace).toBe(installer.namespace);
    expect(subscription.spec).toEqual({ channel: installer.channel, name: installer.packageName, source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' });
    const group = findObject(objects, 'OperatorGroup');
    expect(group.metadata.name).toBe(installer.operatorGroup);
    expect(group.metadata.namespace).toBe(installer.namespace);
    expect(findObject(objects, 'Namespace', installer.namespace).metadata.name).toBe(installer.namespace);
  });

  test('names the OperatorGroup and Subscription it writes as `operator`, and has none without installing', () => {
    const { operator } = installer.build(new HcpApp({ outdir: '/nonexistent' }), {});
    expect([operator?.subscription.kind, operator?.subscription.name, operator?.subscription.metadata.namespace]).toEqual(['Subscription', installer.subscription, installer.namespace]);
    expect([operator?.operatorGroup?.kind, operator?.operatorGroup?.name, operator?.operatorGroup?.metadata.namespace]).toEqual(['OperatorGroup', installer.operatorGroup, installer.namespace]);
    expect(installer.build(new HcpApp({ outdir: '/nonexistent' }), { installOperator: false }).operator).toBeUndefined();
  });

  test('adopts an install under other names, with a pinned starting CSV and manual approval', () => {
    const objects = objectsOf(installer, {
      subscriptionName: 'adopted-subscription',
      operatorGroupName: `${installer.namespace}-x7k2p`,
      startingCsv: `${installer.packageName}.v4.17.3`,
      installPlanApproval: InstallPlanApproval.MANUAL,
      channel: 'stable-next',
      catalogSource: 'mirror-operators',
      catalogSourceNamespace: 'mirror',
    });
    const subscription = findObject(objects, 'Subscription');
    expect(subscription.metadata.name).toBe('adopted-subscription');
    expect(subscription.spec).toEqual({
      channel: 'stable-next',
      name: installer.packageName,
      source: 'mirror-operators',
      sourceNamespace: 'mirror',
      installPlanApproval: 'Manual',
      startingCSV: `${installer.packageName}.v4.17.3`,
    });
    expect(findObject(objects, 'OperatorGroup').metadata.name).toBe(`${installer.namespace}-x7k2p`);
  });

  test('adopts an install by its Subscription alone when the namespace has its OperatorGroup already', () => {
    const objects = objectsOf(installer, { existingOperatorGroup: true, subscriptionName: 'adopted-subscription' });
    expect(objects.filter((o) => o.kind === 'OperatorGroup')).toEqual([]);
    expect([findObject(objects, 'Subscription').metadata.name, findObject(objects, 'Subscription').metadata.namespace]).toEqual(['adopted-subscription', installer.namespace]);
    expect(installer.build(new HcpApp({ outdir: '/nonexistent' }), { existingOperatorGroup: true }).operator?.operatorGroup).toBeUndefined();
    expect(problemsOf(installer, { existingOperatorGroup: true, operatorGroupName: 'group-x7k2p' })).toEqual([
      `${installer.path}: operatorGroupName ("group-x7k2p") names an OperatorGroup to write, but existingOperatorGroup (true) writes none: give one of them`,
    ]);
  });

  test('writes Automatic approval when asked to, not only when left out', () => {
    expect(findObject(objectsOf(installer, { installPlanApproval: InstallPlanApproval.AUTOMATIC }), 'Subscription').spec.installPlanApproval).toBe('Automatic');
  });

  test('fails with the field, the value and what is accepted for each bad option, all at once', () => {
    expect(
      problemsOf(installer, {
        subscriptionName: 'LVMS Operator',
        operatorGroupName: 'group_1',
        startingCsv: 'lvms-operator-4.17',
        installPlanApproval: 'manual' as InstallPlanApproval,
        channel: 'stable 4.17',
        catalogSource: 'Red Hat',
        catalogSourceNamespace: 'openshift.marketplace',
      }),
    ).toEqual([
      `${installer.path}: catalogSource ("Red Hat") ${DNS1123_SUBDOMAIN_RULE}`,
      `${installer.path}: catalogSourceNamespace ("openshift.marketplace") ${DNS1123_LABEL_RULE}`,
      `${installer.path}: channel ("stable 4.17") must be a channel name such as stable`,
      `${installer.path}: subscriptionName ("LVMS Operator") ${DNS1123_SUBDOMAIN_RULE}`,
      `${installer.path}: operatorGroupName ("group_1") ${DNS1123_SUBDOMAIN_RULE}`,
      `${installer.path}: startingCsv ("lvms-operator-4.17") must be a ClusterServiceVersion name, <package>.v<version>, such as lvms-operator.v4.17.0 (oc get packagemanifest <package> -o yaml lists them)`,
      `${installer.path}: installPlanApproval ("manual") must be Automatic or Manual`,
    ]);
  });

  test('fails when an option is given but the construct does not install the operator', () => {
    expect(problemsOf(installer, { installOperator: false, subscriptionName: installer.packageName })).toEqual([
      `${installer.path}: subscriptionName (${JSON.stringify(installer.packageName)}) has no effect with installOperator false; leave it out, or let this construct install the operator`,
    ]);
  });
});

describe("the consoles' installs adopted", () => {
  test("LVM Storage and OpenShift Virtualization keep the console's Subscription and OperatorGroup instead of adding a second", () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const hubCluster = hub(app);
    new LvmStorage(hubCluster, 'lvm', { deviceClasses: [DEVICE_CLASS], subscriptionName: 'lvms-operator', operatorGroupName: 'openshift-storage-4kz9d' });
    new OpenShiftVirtualization(hubCluster, 'cnv', { subscriptionName: 'kubevirt-hyperconverged', operatorGroupName: 'openshift-cnv-8sd2m' });
    const objects = synthObjects(app);
    const names = (kind: string) =>
      objects
        .filter((o) => o.kind === kind)
        .map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
        .sort();
    expect(names('Subscription')).toEqual(['openshift-cnv/kubevirt-hyperconverged', 'openshift-storage/lvms-operator']);
    expect(names('OperatorGroup')).toEqual(['openshift-cnv/openshift-cnv-8sd2m', 'openshift-storage/openshift-storage-4kz9d']);
  });
});

describe('MultiClusterEngine operator install', () => {
  test('is off by default: the CR alone, as before, for hubs where ACM or the console installed MCE', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new MultiClusterEngine(hub(app), 'mce');
    expect(synthObjects(app).map((o) => o.kind)).toEqual(['MultiClusterEngine']);
  });

  test('from scratch: the namespace, an OwnNamespace OperatorGroup and the Subscription before the CR', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new MultiClusterEngine(hub(app), 'mce', { installOperator: true });
    const files = app
      .synthesize()
      .filter((f) => !f.path.endsWith('kustomization.yaml'))
      .map((f) => f.path);
    expect(files).toEqual([
      'hub/00-namespace-multicluster-engine.yaml',
      'hub/02-operatorgroup-multicluster-engine_multicluster-engine.yaml',
      'hub/03-subscription-multicluster-engine_multicluster-engine.yaml',
      'hub/05-multiclusterengine-multiclusterengine.yaml',
    ]);
    expect(findObject(synthObjects(app), 'OperatorGroup').spec).toEqual({ targetNamespaces: ['multicluster-engine'] });
  });
});

test('snapshot: MultiClusterEngine installed from scratch with every install option', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new MultiClusterEngine(hub(app), 'mce', {
    installOperator: true,
    channel: 'stable-2.7',
    startingCsv: 'multicluster-engine.v2.7.2',
    installPlanApproval: InstallPlanApproval.MANUAL,
    subscriptionName: 'multicluster-engine',
    operatorGroupName: 'multicluster-engine-f7kqm',
  });
  expect(synthObjects(app)).toMatchSnapshot();
});
