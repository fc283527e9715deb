import { ApiObject } from 'cdk8s';
import { AwsMachineSets, AwsMachineSetsProps, EbsVolumeType, HcpApp, ManagementCluster } from '../../lib';
import { EC2_INSTANCE_TYPE_RULE } from '../../lib/core/formats';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

/** The blog's bare-metal workers: three zones of us-east-2, m5.metal, label ocpvirt=host, a 1000 GiB disk for LVM Storage. */
const BLOG: AwsMachineSetsProps = {
  infrastructureId: 'ocp-cluster-h5ffp',
  region: 'us-east-2',
  zones: ['us-east-2a', 'us-east-2b', 'us-east-2c'],
  instanceType: 'm5.metal',
  amiId: 'ami-08bb6907b96d2a024',
  name: 'metal',
  nodeLabels: { ocpvirt: 'host' },
  dataVolumes: [{ deviceName: '/dev/xvdb', sizeGiB: 1000, iops: 10000 }],
};

function objectsOf(props: AwsMachineSetsProps): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new AwsMachineSets(new ManagementCluster(app, 'hub'), 'metal', props);
  return synthObjects(app);
}

function problemsOf(props: Partial<AwsMachineSetsProps>): string[] {
  return synthProblems((app) => new AwsMachineSets(new ManagementCluster(app, 'hub'), 'metal', { ...BLOG, ...props }));
}

describe('AwsMachineSets', () => {
  test("one MachineSet per zone, named <infrastructure ID>-<name>-<zone>, first of the hub's objects, protected", () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const sets = new AwsMachineSets(new ManagementCluster(app, 'hub'), 'metal', BLOG);
    expect(synthFiles(app).map((f) => f.path)).toEqual([
      'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2a.yaml',
      'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2b.yaml',
      'hub/01-machineset-openshift-machine-api_ocp-cluster-h5ffp-metal-us-east-2c.yaml',
    ]);
    expect(sets.machineSetNames).toEqual(['ocp-cluster-h5ffp-metal-us-east-2a', 'ocp-cluster-h5ffp-metal-us-east-2b', 'ocp-cluster-h5ffp-metal-us-east-2c']);
    expect(ApiObject.of(sets.resource).name).toBe('ocp-cluster-h5ffp-metal-us-east-2a');
    expect(findObject(synthObjects(app), 'MachineSet', 'ocp-cluster-h5ffp-metal-us-east-2b').metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '1', ...PRUNE_PROTECTION });
  });

  test("zone a is the blog's MachineSet, field by field", () => {
    const set = findObject(objectsOf(BLOG), 'MachineSet', 'ocp-cluster-h5ffp-metal-us-east-2a');
    expect(set.apiVersion).toBe('machine.openshift.io/v1beta1');
    expect(set.metadata.namespace).toBe('openshift-machine-api');
    expect(set.metadata.labels).toEqual({ 'machine.openshift.io/cluster-api-cluster': 'ocp-cluster-h5ffp' });
    expect(set.spec.replicas).toBe(1);
    expect(set.spec.selector).toEqual({
      matchLabels: { 'machine.openshift.io/cluster-api-cluster': 'ocp-cluster-h5ffp', 'machine.openshift.io/cluster-api-machineset': 'ocp-cluster-h5ffp-metal-us-east-2a' },
    });
    expect(set.spec.template.metadata.labels).toEqual({
      'machine.openshift.io/cluster-api-cluster': 'ocp-cluster-h5ffp',
      'machine.openshift.io/cluster-api-machine-role': 'worker',
      'machine.openshift.io/cluster-api-machine-type': 'worker',
      'machine.openshift.io/cluster-api-machineset': 'ocp-cluster-h5ffp-metal-us-east-2a',
    });
    expect(set.spec.template.spec.metadata).toEqual({ labels: { ocpvirt: 'host' } });
    const value = set.spec.template.spec.providerSpec.value;
    expect(value.apiVersion).toBe('machine.openshift.io/v1beta1');
    expect(value.kind).toBe('AWSMachineProviderConfig');
    expect(value.ami).toEqual({ id: 'ami-08bb6907b96d2a024' });
    expect(value.instanceType).toBe('m5.metal');
    expect(value.blockDevices).toEqual([
      { ebs: { encrypted: true, volumeSize: 120, volumeType: 'gp3' } },
      { deviceName: '/dev/xvdb', ebs: { encrypted: true, iops: 10000, volumeSize: 1000, volumeType: 'gp3' } },
    ]);
    expect(value.credentialsSecret).toEqual({ name: 'aws-cloud-credentials' });
    expect(value.deviceIndex).toBe(0);
    expect(value.iamInstanceProfile).toEqual({ id: 'ocp-cluster-h5ffp-worker-profile' });
    expect(value.placement).toEqual({ availabilityZone: 'us-east-2a', region: 'us-east-2' });
    expect(value.securityGroups).toEqual([{ filters: [{ name: 'tag:Name', values: ['ocp-cluster-h5ffp-node'] }] }, { filters: [{ name: 'tag:Name', values: ['ocp-cluster-h5ffp-lb'] }] }]);
    expect(value.subnet).toEqual({ filters: [{ name: 'tag:Name', values: ['ocp-cluster-h5ffp-subnet-private-us-east-2a'] }] });
    expect(value.tags).toEqual([{ name: 'kubernetes.io/cluster/ocp-cluster-h5ffp', value: 'owned' }]);
    expect(value.userDataSecret).toEqual({ name: 'worker-user-data' });
  });

  test('the other zones differ only in zone and name', () => {
    const b = findObject(objectsOf(BLOG), 'MachineSet', 'ocp-cluster-h5ffp-metal-us-east-2b');
    expect(b.spec.template.spec.providerSpec.value.placement).toEqual({ availabilityZone: 'us-east-2b', region: 'us-east-2' });
    expect(b.spec.template.spec.providerSpec.value.subnet.filters[0].values).toEqual(['ocp-cluster-h5ffp-subnet-private-us-east-2b']);
    expect(b.spec.selector.matchLabels['machine.openshift.io/cluster-api-machineset']).toBe('ocp-cluster-h5ffp-metal-us-east-2b');
  });

  test('replicas, root volume, subnets and security groups given', () => {
    const set = findObject(
      objectsOf({
        ...BLOG,
        zones: ['us-east-2a'],
        replicasPerZone: 3,
        dataVolumes: undefined,
        nodeLabels: undefined,
        rootVolume: { sizeGiB: 200, type: EbsVolumeType.IO2, iops: 4000, kmsKeyArn: 'arn:aws:kms:us-east-2:123456789012:key/1234abcd' },
        subnetNames: { 'us-east-2a': 'ocp-cluster-h5ffp-private-us-east-2a' },
        securityGroupNames: ['ocp-cluster-h5ffp-worker-sg'],
      }),
      'MachineSet',
    );
    expect(set.spec.replicas).toBe(3);
    expect(set.spec.template.spec.metadata).toBeUndefined();
    const value = set.spec.template.spec.providerSpec.value;
    expect(value.blockDevices).toEqual([{ ebs: { encrypted: true, iops: 4000, kmsKey: { arn: 'arn:aws:kms:us-east-2:123456789012:key/1234abcd' }, volumeSize: 200, volumeType: 'io2' } }]);
    expect(value.subnet.filters[0].values).toEqual(['ocp-cluster-h5ffp-private-us-east-2a']);
    expect(value.securityGroups).toEqual([{ filters: [{ name: 'tag:Name', values: ['ocp-cluster-h5ffp-worker-sg'] }] }]);
  });

  test('fails for every bad input at once, naming the field, the value and where the right one comes from', () => {
    expect(
      problemsOf({
        infrastructureId: 'OCP_cluster',
        region: 'us east 2',
        instanceType: 'metal',
        amiId: 'ami-xyz',
        zones: [],
        replicasPerZone: -1,
        nodeLabels: { 'ocp virt': 'host' },
        rootVolume: { sizeGiB: 4, type: 'gp9' as EbsVolumeType },
        dataVolumes: [{ deviceName: '/dev/nvme1', sizeGiB: 0 }],
        securityGroupNames: [''],
      }),
    ).toEqual([
      "hub/metal: infrastructureId (\"OCP_cluster\") must be the cluster's infrastructure ID, such as ocp-cluster-h5ffp (oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
      'hub/metal: region ("us east 2") must be an AWS region such as us-east-2',
      `hub/metal: instanceType ("metal") ${EC2_INSTANCE_TYPE_RULE}`,
      'hub/metal: amiId ("ami-xyz") must be an AMI ID such as ami-08bb6907b96d2a024 (the existing worker MachineSets\' providerSpec.value.ami.id)',
      'hub/metal: zones ([]) must list at least one Availability Zone, such as ["us-east-2a"]',
      'hub/metal: replicasPerZone (-1) must be a whole number >= 0',
      'hub/metal: nodeLabels ("ocp virt=host") must be a valid label key=value pair',
      'hub/metal: rootVolume.sizeGiB (4) must be a whole number from 8 to 65536',
      'hub/metal: rootVolume.type ("gp9") must be gp2, gp3, io1, io2, st1, sc1 or standard',
      'hub/metal: dataVolumes[0].sizeGiB (0) must be a whole number from 1 to 65536',
      'hub/metal: dataVolumes[0].deviceName ("/dev/nvme1") must be a device name such as /dev/xvdb (/dev/sd[b-z] or /dev/xvd[b-z])',
      'hub/metal: securityGroupNames[0] ("") must be a security group\'s Name tag',
    ]);
  });

  test('fails for zones of another region, twice, too long a name, and subnets of zones not listed', () => {
    expect(
      problemsOf({
        zones: ['us-west-1a', 'us-east-2a', 'us-east-2a'],
        name: 'baremetal-workers-for-kubevirt-hosted-clusters',
        subnetNames: { 'us-east-2b': 'x' },
      }),
    ).toEqual([
      'hub/metal: zones[0] ("us-west-1a") must be an Availability Zone of region us-east-2, such as us-east-2a',
      'hub/metal: zones[1] ("us-east-2a") makes MachineSet name ocp-cluster-h5ffp-baremetal-workers-for-kubevirt-hosted-clusters-us-east-2a (75 characters), which must be at most 63: shorten name',
      'hub/metal: zones[2] ("us-east-2a") is listed twice; give each zone once',
      'hub/metal: subnetNames ("us-east-2b") must name only zones of zones (["us-west-1a","us-east-2a","us-east-2a"])',
    ]);
  });
});

test("snapshot: the blog's three MachineSets", () => {
  expect(objectsOf(BLOG)).toMatchSnapshot();
});
