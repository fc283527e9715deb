import { Size } from 'cdk8s';
import {
  ClusterPlatform,
  KubevirtAccessMode,
  KubevirtClusterPlatformProps,
  KubevirtNodePoolPlatformProps,
  KubevirtQosClass,
  KubevirtRootVolumeCacheStrategy,
  KubevirtStorageDriverType,
  KubevirtVolumeMode,
  NodePoolPlatform,
  SecretSource,
  ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION,
} from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

function clusterObjects(props: KubevirtClusterPlatformProps = {}, baseDomain?: string): any[] {
  return synthAppOf(newCluster({ platform: ClusterPlatform.kubevirt(props), baseDomain }));
}

function clusterProblems(props: KubevirtClusterPlatformProps): string[] {
  return synthProblems((app) => newCluster({ platform: ClusterPlatform.kubevirt(props) }, app));
}

function kubevirtPool(props: KubevirtNodePoolPlatformProps): any {
  const pool = newCluster({ platform: ClusterPlatform.kubevirt() }).addNodePool('workers', { platform: NodePoolPlatform.kubevirt(props) });
  return findObject(synthAppOf(pool), 'NodePool').spec.platform.kubevirt;
}

function poolProblems(props: KubevirtNodePoolPlatformProps): string[] {
  return synthProblems((app) => newCluster({ platform: ClusterPlatform.kubevirt() }, app).addNodePool('workers', { platform: NodePoolPlatform.kubevirt(props) }));
}

describe('ClusterPlatform.kubevirt', () => {
  test('passes the base domain through from the management cluster when none is given', () => {
    const spec = findObject(clusterObjects(), 'HostedCluster').spec;
    expect(spec.platform).toEqual({ type: 'KubeVirt', kubevirt: { baseDomainPassthrough: true } });
    expect(spec.dns).toEqual({ baseDomain: '' });
  });

  test('does not pass the base domain through when one is given', () => {
    const spec = findObject(clusterObjects({}, 'apps.example.org'), 'HostedCluster').spec;
    expect(spec.platform.kubevirt).not.toHaveProperty('baseDomainPassthrough');
    expect(spec.dns).toEqual({ baseDomain: 'apps.example.org' });
  });

  test('maps storage and snapshot classes with the Manual storage driver', () => {
    const spec = findObject(
      clusterObjects({
        storageClassMappings: [{ infraStorageClass: 'ocs-storagecluster-ceph-rbd', guestStorageClass: 'ceph-rbd', group: 'ceph' }],
        volumeSnapshotClassMappings: [{ infraVolumeSnapshotClass: 'ocs-rbd-snapclass', guestVolumeSnapshotClass: 'rbd-snap', group: 'ceph' }],
        generateId: 'x7k2p',
      }),
      'HostedCluster',
    ).spec;
    expect(spec.platform.kubevirt.storageDriver).toEqual({
      type: 'Manual',
      manual: {
        storageClassMapping: [{ infraStorageClassName: 'ocs-storagecluster-ceph-rbd', guestStorageClassName: 'ceph-rbd', group: 'ceph' }],
        volumeSnapshotClassMapping: [{ infraVolumeSnapshotClassName: 'ocs-rbd-snapclass', guestVolumeSnapshotClassName: 'rbd-snap', group: 'ceph' }],
      },
    });
    expect(spec.platform.kubevirt.generateID).toBe('x7k2p');
  });

  test('points at the external infrastructure cluster and its kubeconfig Secret <name>-infra-credentials', () => {
    const objects = clusterObjects({
      externalInfrastructure: { namespace: 'hcp-vms', kubeconfig: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'infra/kubeconfig' }) },
    });
    expect(findObject(objects, 'HostedCluster').spec.platform.kubevirt.credentials).toEqual({
      infraNamespace: 'hcp-vms',
      infraKubeConfigSecret: { name: 'c1-infra-credentials', key: 'kubeconfig' },
    });
    expect(findObject(objects, 'ExternalSecret', 'c1-infra-credentials').spec.data).toEqual([{ secretKey: 'kubeconfig', remoteRef: { key: 'infra/kubeconfig' } }]);
  });

  test('fails when a storage class name is invalid', () => {
    expect(clusterProblems({ storageClassMappings: [{ infraStorageClass: 'Fast_SSD', guestStorageClass: 'fast' }] })).toEqual([
      `hub/c1: platform.storageClassMappings[0].infraStorageClass ("Fast_SSD") ${DNS1123_SUBDOMAIN_RULE}`,
    ]);
  });

  test('fails when two mappings give the same guest class', () => {
    expect(
      clusterProblems({
        storageClassMappings: [
          { infraStorageClass: 'a', guestStorageClass: 'fast' },
          { infraStorageClass: 'b', guestStorageClass: 'fast' },
        ],
      }),
    ).toEqual(['hub/c1: platform.storageClassMappings[1].guestStorageClass ("fast") must be unique: each guest class maps to one infrastructure class']);
  });

  test('fails when snapshot classes are mapped without storage classes', () => {
    expect(clusterProblems({ volumeSnapshotClassMappings: [{ infraVolumeSnapshotClass: 'a', guestVolumeSnapshotClass: 'b' }] })).toEqual([
      'hub/c1: platform.volumeSnapshotClassMappings (given) needs storageClassMappings: snapshot mapping only works with the Manual storage driver',
    ]);
  });

  test('writes storageDriver None: the guest brings its own storage', () => {
    expect(findObject(clusterObjects({ storageDriver: KubevirtStorageDriverType.NONE }), 'HostedCluster').spec.platform.kubevirt.storageDriver).toEqual({ type: 'None' });
  });

  test('fails when storageDriver None is given with storage class mappings', () => {
    expect(clusterProblems({ storageDriver: KubevirtStorageDriverType.NONE, storageClassMappings: [{ infraStorageClass: 'lvms-vg1', guestStorageClass: 'lvms-vg1' }] })).toEqual([
      'hub/c1: platform.storageDriver ("None") cannot take storageClassMappings: only the Manual driver maps classes; leave storageDriver out',
    ]);
  });

  test('fails when a snapshot mapping names a group no storage mapping has, or repeats a guest snapshot class', () => {
    expect(
      clusterProblems({
        storageClassMappings: [{ infraStorageClass: 'ocs-storagecluster-ceph-rbd', guestStorageClass: 'ceph-rbd', group: 'ceph' }],
        volumeSnapshotClassMappings: [
          { infraVolumeSnapshotClass: 'ocs-rbd-snapclass', guestVolumeSnapshotClass: 'rbd-snap', group: 'ceph' },
          { infraVolumeSnapshotClass: 'lvms-snapclass', guestVolumeSnapshotClass: 'rbd-snap', group: 'lvm' },
        ],
      }),
    ).toEqual([
      'hub/c1: platform.volumeSnapshotClassMappings[1].guestVolumeSnapshotClass ("rbd-snap") must be unique: each guest snapshot class maps to one infrastructure class',
      'hub/c1: platform.volumeSnapshotClassMappings[1].group ("lvm") must be the group of a storage class mapping ("ceph"): snapshots are taken with the class of the volume\'s group',
    ]);
  });

  test('reads the external infrastructure kubeconfig from another key of an existing Secret', () => {
    const objects = clusterObjects({ externalInfrastructure: { namespace: 'hcp-vms', kubeconfig: SecretSource.fromExistingSecret('infra-access'), kubeconfigKey: 'admin.kubeconfig' } });
    expect(findObject(objects, 'HostedCluster').spec.platform.kubevirt.credentials).toEqual({
      infraNamespace: 'hcp-vms',
      infraKubeConfigSecret: { name: 'infra-access', key: 'admin.kubeconfig' },
    });
  });

  test('fails when the kubeconfig key is not a Secret key', () => {
    expect(clusterProblems({ externalInfrastructure: { namespace: 'hcp-vms', kubeconfig: SecretSource.fromExistingSecret('infra-access'), kubeconfigKey: 'admin/kubeconfig' } })).toEqual([
      'hub/c1: platform.externalInfrastructure.kubeconfigKey ("admin/kubeconfig") must be a Secret key: letters, digits, "-", "_" or "."',
    ]);
  });

  test('fails when the external infrastructure namespace is invalid', () => {
    expect(clusterProblems({ externalInfrastructure: { namespace: 'VMs', kubeconfig: SecretSource.fromExistingSecret('infra-kubeconfig') } })).toEqual([
      'hub/c1: platform.externalInfrastructure.namespace ("VMs") must be a DNS-1123 label',
    ]);
  });
});

describe('NodePoolPlatform.kubevirt', () => {
  test('writes compute, root volume and networks', () => {
    expect(
      kubevirtPool({
        cores: 8,
        memory: Size.gibibytes(32),
        qosClass: KubevirtQosClass.GUARANTEED,
        rootVolumeSize: Size.gibibytes(120),
        rootVolumeStorageClass: 'lvms-vg1',
        rootVolumeAccessModes: [KubevirtAccessMode.READ_WRITE_ONCE],
        rootVolumeVolumeMode: KubevirtVolumeMode.BLOCK,
        rootVolumeCacheStrategy: KubevirtRootVolumeCacheStrategy.PVC,
        networkInterfaceMultiqueue: false,
        additionalNetworks: ['hcp-vms/vlan-100'],
        attachDefaultNetwork: false,
        vmNodeSelector: { 'node-role.kubernetes.io/worker': '' },
        hostDevices: [{ deviceName: 'nvidia.com/GA102GL_A10' }],
      }),
    ).toEqual({
      compute: { cores: 8, memory: '32Gi', qosClass: 'Guaranteed' },
      rootVolume: {
        type: 'Persistent',
        persistent: { size: '120Gi', storageClass: 'lvms-vg1', accessModes: ['ReadWriteOnce'], volumeMode: 'Block' },
        cacheStrategy: { type: 'PVC' },
      },
      networkInterfaceMultiqueue: 'Disable',
      attachDefaultNetwork: false,
      additionalNetworks: [{ name: 'hcp-vms/vlan-100' }],
      nodeSelector: { 'node-role.kubernetes.io/worker': '' },
      hostDevices: [{ deviceName: 'nvidia.com/GA102GL_A10', count: 1 }],
    });
  });

  test('writes networkInterfaceMultiqueue Disable for false: left out, the CRD would default it to Enable', () => {
    expect(kubevirtPool({ networkInterfaceMultiqueue: false }).networkInterfaceMultiqueue).toBe('Disable');
    expect(kubevirtPool({}).networkInterfaceMultiqueue).toBe('Enable');
  });

  test('clones the root volume from a container disk image (rootVolume.diskImage, as --containerdisk)', () => {
    expect(kubevirtPool({ rootVolumeContainerDiskImage: 'quay.io/containerdisks/rhcos:4.17' }).rootVolume).toEqual({
      type: 'Persistent',
      persistent: { size: '32Gi' },
      diskImage: { containerDiskImage: 'quay.io/containerdisks/rhcos:4.17' },
    });
  });

  test('fails when the container disk image is not an image reference', () => {
    expect(poolProblems({ rootVolumeContainerDiskImage: 'rhcos disk.qcow2' })).toEqual([
      'hub/c1/workers: platform.rootVolumeContainerDiskImage ("rhcos disk.qcow2") must be a container image reference such as quay.io/containerdisks/rhcos:4.17',
    ]);
  });

  test('carries the unsupported-RHCOS-variants annotation from the HostedCluster to its NodePools, as hcp does', () => {
    const cluster = newCluster({ platform: ClusterPlatform.kubevirt(), annotations: { [ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION]: 'true', other: 'x' } });
    cluster.addNodePool('workers', { platform: NodePoolPlatform.kubevirt(), annotations: { mine: 'y' } });
    const pool = findObject(synthAppOf(cluster), 'NodePool');
    expect(pool.metadata.annotations['hypershift.openshift.io/allow-unsupported-kubevirt-rhcos-variants']).toBe('true');
    expect(pool.metadata.annotations.mine).toBe('y');
    expect(pool.metadata.annotations).not.toHaveProperty('other');
    const plain = findObject(synthAppOf(newCluster({ platform: ClusterPlatform.kubevirt() }).addNodePool('w', {})), 'NodePool');
    expect(plain.metadata.annotations).not.toHaveProperty([ALLOW_UNSUPPORTED_KUBEVIRT_RHCOS_VARIANTS_ANNOTATION]);
  });

  test('fails when the root volume is smaller than 16Gi', () => {
    expect(poolProblems({ rootVolumeSize: Size.gibibytes(10) })).toEqual(['hub/c1/workers: platform.rootVolumeSize (10 GiB) must be a whole number of GiB >= 16']);
  });

  test('fails when the root volume is not a whole number of GiB', () => {
    expect(poolProblems({ rootVolumeSize: Size.mebibytes(20 * 1024 + 512) })).toEqual(['hub/c1/workers: platform.rootVolumeSize (20.5 GiB) must be a whole number of GiB >= 16']);
  });

  test('fails when cores is 0', () => {
    expect(poolProblems({ cores: 0 })).toEqual(['hub/c1/workers: platform.cores (0) must be a whole number >= 1']);
  });

  test("fails when the root volume's StorageClass is no StorageClass name (a space), which the CRD takes and CDI cannot clone into", () => {
    expect(poolProblems({ rootVolumeStorageClass: 'fast ssd' })).toEqual([
      'hub/c1/workers: platform.rootVolumeStorageClass ("fast ssd") must name a StorageClass: must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters',
    ]);
  });

  test('fails when a JavaScript caller gives cores or a device count as a string, shown quoted', () => {
    expect(poolProblems({ cores: '4' as any, hostDevices: [{ deviceName: 'gpu', count: '1' as any }] })).toEqual([
      'hub/c1/workers: platform.cores ("4") must be a whole number >= 1',
      'hub/c1/workers: platform.hostDevices[0].count ("1") must be a whole number >= 1',
    ]);
  });

  test('fails when memory is 0', () => {
    expect(poolProblems({ memory: Size.gibibytes(0) })).toEqual(['hub/c1/workers: platform.memory (0 GiB) must be more than 0']);
  });

  test('fails when the default network is detached without an additional network', () => {
    expect(poolProblems({ attachDefaultNetwork: false })).toEqual(['hub/c1/workers: platform.attachDefaultNetwork (false) needs at least one additionalNetworks entry, or the VMs have no network']);
  });

  test.each(['vlan-100', 'a/b/c', 'Hcp/vlan', '/vlan'])('fails when an additional network is %j', (network) => {
    expect(poolProblems({ additionalNetworks: [network] })).toEqual([
      `hub/c1/workers: platform.additionalNetworks[0] (${JSON.stringify(network)}) must be "<namespace>/<network-attachment-definition>"`,
    ]);
  });

  test('fails when a VM node selector label is invalid', () => {
    expect(poolProblems({ vmNodeSelector: { 'bad key': 'x' } })).toEqual(['hub/c1/workers: platform.vmNodeSelector ("bad key=x") must be a valid label key=value pair']);
  });

  test('fails when a host device count is 0', () => {
    expect(poolProblems({ hostDevices: [{ deviceName: 'gpu', count: 0 }] })).toEqual(['hub/c1/workers: platform.hostDevices[0].count (0) must be a whole number >= 1']);
  });
});
