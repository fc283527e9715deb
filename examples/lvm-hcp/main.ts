// The blog's lvm-hcp cluster (shared/reference/seed-docs/blog-hcp-kubevirt-on-aws-baremetal.txt) with
// its whole management side: OpenShift Virtualization, LVM Storage with the blog's LVMCluster
// ("Creating the LVMCluster"), the multicluster engine, and the prerequisites of docs 3.3.1.1
// checked at synth. The hub runs on AWS bare-metal nodes labelled ocpvirt=host; its LoadBalancer
// Services get AWS load balancers, and gp3-csi (EBS) is made by the installer, so both are declared.
//
//   hcp create cluster kubevirt --infra-availability-policy HighlyAvailable --cores 4 --memory 16Gi \
//     --root-volume-size 120 --auto-repair --control-plane-availability-policy HighlyAvailable \
//     --pull-secret ./pull-secret.txt --node-upgrade-type Replace --node-pool-replicas 3 \
//     --node-drain-timeout 60s --node-selector node-role.kubernetes.io/infra="" \
//     --vm-node-selector ocpvirt=host --etcd-storage-class gp3-csi --root-volume-storage-class lvms-vg1 \
//     --name lvm-hcp --release-image=quay.io/openshift-release-dev/ocp-release:4.16.18-x86_64 \
//     --infra-storage-class-mapping=lvms-vg1/lvms-vg1
//
// Output: dist/hub/ (operators, LVMCluster, HyperConverged, MultiClusterEngine) and dist/hub/lvm-hcp/.
import { Duration, Size } from 'cdk8s';
import {
  AvailabilityPolicy,
  ClusterPlatform,
  EtcdStorage,
  HcpApp,
  HostedCluster,
  KubevirtHub,
  LvmFilesystem,
  LvmStorage,
  ManagementCluster,
  MultiClusterEngine,
  NodePoolPlatform,
  OpenShiftVirtualization,
  Release,
  SecretSource,
  ThinPoolChunkSizeCalculationPolicy,
  UpgradeType,
} from '../../lib';
import { exampleDelivery } from '../delivery';

const app = new HcpApp({ delivery: exampleDelivery() });
const hub = new ManagementCluster(app, 'hub');

// "Virtualization and hosted control plane operators installation": both with default options.
new OpenShiftVirtualization(hub, 'virtualization');
new MultiClusterEngine(hub, 'mce');

// "Creating the LVMCluster", field for field; LVMS then creates StorageClass lvms-vg1.
new LvmStorage(hub, 'lvm', {
  name: 'test-lvmcluster',
  deviceClasses: [
    {
      name: 'vg1',
      default: true,
      fstype: LvmFilesystem.XFS,
      optionalPaths: ['/dev/nvme1n1', '/dev/nvme0n1'],
      nodeSelector: { ocpvirt: 'host' },
      thinPool: { name: 'thin-pool-1', sizePercent: 90, overprovisionRatio: 10, chunkSizeCalculationPolicy: ThinPoolChunkSizeCalculationPolicy.STATIC },
    },
  ],
});

// What the app cannot see: the blog patches the IngressController for wildcard routes, and the hub is on AWS.
new KubevirtHub(hub, 'kubevirt', {
  wildcardRoutesAllowed: true,
  externalLoadBalancer: true,
  existingStorageClasses: ['gp3-csi'],
});

const lvmHcp = new HostedCluster(hub, 'lvm-hcp', {
  release: Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.16.18-x86_64'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  controllerAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  infrastructureAvailabilityPolicy: AvailabilityPolicy.HIGHLY_AVAILABLE,
  controlPlaneNodeSelector: { 'node-role.kubernetes.io/infra': '' },
  etcd: EtcdStorage.managed({ storageClass: 'gp3-csi' }),
  platform: ClusterPlatform.kubevirt({
    storageClassMappings: [{ infraStorageClass: 'lvms-vg1', guestStorageClass: 'lvms-vg1' }],
  }),
});

lvmHcp.addNodePool('workers', {
  name: 'lvm-hcp',
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
