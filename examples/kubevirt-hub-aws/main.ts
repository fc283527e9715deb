// The blog's KubeVirt hub on AWS (shared/reference/seed-docs/blog-hcp-kubevirt-on-aws-baremetal.txt),
// built from scratch in typed code, with the hub-side procedures of the docs:
// - "Bare metal nodes addition": three MachineSets of m5.metal workers, one per zone, labelled
//   ocpvirt=host, each with a 1000 GiB disk for LVM Storage (AwsMachineSets);
// - the multicluster engine Operator installed from scratch: Namespace, OperatorGroup, Subscription
//   and the MultiClusterEngine (MultiClusterEngine installOperator);
// - LVM Storage and OpenShift Virtualization, which the blog installed from the web console, adopted
//   under the console's names, so that no second Subscription appears (subscriptionName, operatorGroupName);
// - wildcard routes on the hub's default IngressController, which a KubeVirt cluster without a base
//   domain needs (docs 3.3.1.1; IngressWildcardPolicy);
// - automatic import of hosted clusters into MCE turned off and back on (docs 14.3): HCP_AUTO_IMPORT=off
//   (the default here, the procedure's first commit) writes autoImportDisabled "true", HCP_AUTO_IMPORT=on
//   "false" (HypershiftAddonConfig). With import off, a cluster is imported by hand (docs 14.2), or by
//   AcmDelivery with autoImport: false, as this example's ACM delivery does.
//
// Per-hub values (yours differ): the infrastructure ID (`oc get infrastructure cluster -o
// jsonpath='{.status.infrastructureName}'`), the region's RHCOS AMI (any worker MachineSet's
// providerSpec.value.ami.id), and the console's OperatorGroup names (`oc get operatorgroup -n <namespace>`).
//
//   HCP_AUTO_IMPORT=on npx cdk8s synth --no-check-upgrade --app 'node build/examples/kubevirt-hub-aws/main.js'
import { Duration, Size } from 'cdk8s';
import {
  AvailabilityPolicy,
  AwsMachineSets,
  ClusterPlatform,
  EtcdStorage,
  HcpApp,
  HcpValidationError,
  HostedCluster,
  HypershiftAddonConfig,
  IngressWildcardPolicy,
  KubevirtHub,
  LvmFilesystem,
  LvmStorage,
  ManagementCluster,
  MultiClusterEngine,
  NodePoolPlatform,
  OpenShiftVirtualization,
  Release,
  SecretSource,
  UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

/** Whether hosted clusters are imported into MCE automatically: HCP_AUTO_IMPORT=on or off. */
function autoImport(): boolean {
  const value = process.env.HCP_AUTO_IMPORT ?? 'off';
  if (value !== 'on' && value !== 'off') throw new HcpValidationError([`HCP_AUTO_IMPORT (${JSON.stringify(value)}) must be on or off`]);
  return value === 'on';
}

// Exactly one of the add-on and the delivery imports the clusters: under ACM delivery with import
// off, hcp-cdk writes each cluster's ManagedCluster and KlusterletAddonConfig (docs 14.2).
const AUTO_IMPORT = autoImport();
const app = new HcpApp({ delivery: exampleDelivery({ autoImport: AUTO_IMPORT }) });
const hub = new ManagementCluster(app, 'hub');

// The bare-metal workers that run the hosted clusters' VMs, with a local disk for LVM Storage.
new AwsMachineSets(hub, 'metal', {
  infrastructureId: 'ocp-cluster-h5ffp',
  region: 'us-east-2',
  zones: ['us-east-2a', 'us-east-2b', 'us-east-2c'],
  instanceType: 'm5.metal',
  amiId: 'ami-08bb6907b96d2a024',
  nodeLabels: { ocpvirt: 'host' },
  dataVolumes: [{ deviceName: '/dev/xvdb', sizeGiB: 1000, iops: 10000 }],
});

// A hub without MCE: the operator from OLM, then its one instance with hosted control planes on.
new MultiClusterEngine(hub, 'mce', { installOperator: true });
new HypershiftAddonConfig(hub, 'hypershift-addon', { autoImport: AUTO_IMPORT });

// Installed from the console: the Subscriptions are named after the packages, the OperatorGroups
// after the namespaces with a random suffix. Giving those names adopts the installs.
new OpenShiftVirtualization(hub, 'virtualization', {
  subscriptionName: 'kubevirt-hyperconverged',
  operatorGroupName: 'openshift-cnv-b8xkq',
});
new LvmStorage(hub, 'lvm', {
  subscriptionName: 'lvms-operator',
  operatorGroupName: 'openshift-storage-9fd2w',
  deviceClasses: [
    {
      name: 'vg1',
      default: true,
      fstype: LvmFilesystem.XFS,
      optionalPaths: ['/dev/nvme1n1', '/dev/nvme0n1'],
      nodeSelector: { ocpvirt: 'host' },
    },
  ],
});

// The hub's router admits wildcard routes, so the cluster below needs no base domain of its own;
// AWS load balancers serve LoadBalancer Services, and the installer made gp3-csi.
new IngressWildcardPolicy(hub, 'wildcard-routes');
new KubevirtHub(hub, 'kubevirt', { externalLoadBalancer: true, existingStorageClasses: ['gp3-csi'] });

const cluster = new HostedCluster(hub, 'metal-hcp', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.16.18-x86_64'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  infrastructureAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  etcd: EtcdStorage.managed({ storageClass: 'gp3-csi' }),
  platform: ClusterPlatform.kubevirt({
    storageClassMappings: [{ infraStorageClass: 'lvms-vg1', guestStorageClass: 'lvms-vg1' }],
  }),
});
cluster.addNodePool('workers', {
  name: 'metal-hcp',
  replicas: 3,
  autoRepair: true,
  upgradeType: UpgradeType.REPLACE,
  nodeDrainTimeout: Duration.seconds(60),
  platform: NodePoolPlatform.kubevirt({
    cores: 4,
    memory: Size.gibibytes(16),
    rootVolumeSize: Size.gibibytes(120),
    rootVolumeStorageClass: 'lvms-vg1',
    vmNodeSelector: { ocpvirt: 'host' },
  }),
});

app.synth();
