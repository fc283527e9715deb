import { Construct } from 'constructs';
import * as machine from '../../imports/machineset-machine.openshift.io';
import { AWS_REGION, EC2_INSTANCE_TYPE, EC2_INSTANCE_TYPE_RULE, isAwsZoneOf } from '../core/formats';
import { isDns1123Label, isLabelValue, isQualifiedName } from '../core/names';
import { Problems, show } from '../core/problems';
import { MACHINE_API_NAMESPACE } from './metal3-provisioning';

/** An EBS volume type a machine's disk can have. */
export enum EbsVolumeType {
  /** General purpose SSD, previous generation. */
  GP2 = 'gp2',
  /** General purpose SSD, with IOPS set apart from size; the installer's default. */
  GP3 = 'gp3',
  /** Provisioned IOPS SSD. */
  IO1 = 'io1',
  /** Provisioned IOPS SSD, more durable. */
  IO2 = 'io2',
  /** Throughput-optimized HDD. */
  ST1 = 'st1',
  /** Cold HDD. */
  SC1 = 'sc1',
  /** Magnetic, previous generation. */
  STANDARD = 'standard',
}

/** An EBS volume of each machine. */
export interface MachineVolume {
  /** @default 120 for the root volume */
  readonly sizeGiB?: number;
  /** @default EbsVolumeType.GP3 */
  readonly type?: EbsVolumeType;
  /** Provisioned IOPS (io1, io2, gp3). @default - the volume type's baseline */
  readonly iops?: number;
  /** A KMS key ARN to encrypt the volume with. @default - the account's default EBS key */
  readonly kmsKeyArn?: string;
}

/** A second disk of each machine, such as the blog's `/dev/xvdb` for LVM Storage. */
export interface MachineDataVolume extends MachineVolume {
  /** The device name the instance sees, e.g. `/dev/xvdb`. */
  readonly deviceName: string;
  /** The disk's size in GiB. */
  readonly sizeGiB: number;
}

/** Props of AwsMachineSets: what the blog changes in a copy of the installer's worker MachineSet, and the per-hub values it keeps. */
export interface AwsMachineSetsProps {
  /**
   * The management cluster's infrastructure ID, which prefixes its AWS resources' names:
   * `oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}'` (the blog's `ocp-cluster-h5ffp`).
   */
  readonly infrastructureId: string;
  /** The cluster's AWS region, e.g. `us-east-2`. */
  readonly region: string;
  /** The Availability Zones to add machines in, one MachineSet each, e.g. `['us-east-2a', 'us-east-2b', 'us-east-2c']`. */
  readonly zones: string[];
  /** The EC2 instance type; a `.metal` type for nodes that run KubeVirt VMs (the blog's `m5.metal`). */
  readonly instanceType: string;
  /**
   * The RHCOS AMI of the cluster's region, as the existing worker MachineSets use it:
   * `oc get machineset -n openshift-machine-api -o jsonpath='{.items[0].spec.template.spec.providerSpec.value.ami.id}'`.
   */
  readonly amiId: string;
  /**
   * The middle of each MachineSet's name, `<infrastructureId>-<name>-<zone>` (the blog's `metal`).
   * @default - the construct id
   */
  readonly name?: string;
  /** Machines per zone. @default 1 */
  readonly replicasPerZone?: number;
  /**
   * Labels of the nodes (`spec.template.spec.metadata.labels`), such as the blog's `ocpvirt: host`,
   * which OpenShiftVirtualization and LvmStorage select.
   * @default - none
   */
  readonly nodeLabels?: Record<string, string>;
  /** @default - gp3, 120 GiB, encrypted */
  readonly rootVolume?: MachineVolume;
  /** More disks, encrypted, such as the blog's 1000 GiB `/dev/xvdb` for LVM Storage. @default - none */
  readonly dataVolumes?: MachineDataVolume[];
  /**
   * The `Name` tag of each zone's subnet, by zone, as the existing worker MachineSet of that zone
   * names it (`providerSpec.value.subnet`).
   * @default - `<infrastructureId>-subnet-private-<zone>`, the installer's private subnets (4.16 and later)
   */
  readonly subnetNames?: Record<string, string>;
  /**
   * The `Name` tags of the security groups, as the existing worker MachineSets name them (`providerSpec.value.securityGroups`).
   * @default - `<infrastructureId>-node` and `<infrastructureId>-lb`, the installer's groups (4.16 and later)
   */
  readonly securityGroupNames?: string[];
}

const AMI = /^ami-[0-9a-f]{8,17}$/;
const KMS_KEY_ARN = /^arn:aws(-[a-z]+)*:kms:[a-z0-9-]+:\d{12}:key\/\S+$/;
const DEVICE_NAME = /^\/dev\/(sd|xvd)[b-z]$/;
// A MachineSet's name is also the value of its machines' label, so at most 63 characters.
const MAX_NAME = 63;

/**
 * Worker MachineSets for a management cluster on AWS (the blog's KubeVirt hub: bare-metal workers
 * that run the hosted clusters' VMs), one per zone, in `openshift-machine-api`: the Machine API
 * creates the instances and they join as worker nodes. The typed subset is what the blog changes
 * in a copy of the installer's worker MachineSet (name, instance type, node labels, a local disk);
 * the rest is the installer's conventions for the infrastructure ID: the worker instance profile,
 * user data and credentials, the cluster's ownership tag. `resource` is the first zone's MachineSet;
 * `machineSets` has them all.
 */
export class AwsMachineSets extends Construct {
  /** The MachineSets, in the order of `zones`. */
  public readonly machineSets: readonly machine.MachineSet[];
  /** The first zone's MachineSet. */
  public readonly resource: machine.MachineSet;
  /** The MachineSets' names, in the order of `zones`. */
  public readonly machineSetNames: readonly string[];

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: AwsMachineSetsProps) {
    super(scope, id);
    const p = props;
    const problems = new Problems(this);
    const infraId = p.infrastructureId;
    const name = p.name ?? id;
    problems.require(
      typeof infraId === 'string' && isDns1123Label(infraId),
      'infrastructureId',
      infraId,
      "must be the cluster's infrastructure ID, such as ocp-cluster-h5ffp (oc get infrastructure cluster -o jsonpath='{.status.infrastructureName}')",
    );
    problems.require(isDns1123Label(name), 'name', name, 'must be a DNS-1123 label, such as metal');
    problems.require(typeof p.region === 'string' && AWS_REGION.test(p.region), 'region', p.region, 'must be an AWS region such as us-east-2');
    problems.require(typeof p.instanceType === 'string' && EC2_INSTANCE_TYPE.test(p.instanceType), 'instanceType', p.instanceType, EC2_INSTANCE_TYPE_RULE);
    problems.require(
      typeof p.amiId === 'string' && AMI.test(p.amiId),
      'amiId',
      p.amiId,
      "must be an AMI ID such as ami-08bb6907b96d2a024 (the existing worker MachineSets' providerSpec.value.ami.id)",
    );
    const zones = Array.isArray(p.zones) ? p.zones : [];
    if (zones.length === 0) problems.add(`zones (${show(p.zones)}) must list at least one Availability Zone, such as ["us-east-2a"]`);
    zones.forEach((zone, i) => {
      if (problems.require(typeof zone === 'string' && isAwsZoneOf(zone, p.region ?? ''), `zones[${i}]`, zone, `must be an Availability Zone of region ${p.region}, such as ${p.region}a`)) {
        const machineSetName = `${infraId}-${name}-${zone}`;
        if (problems.require(zones.indexOf(zone) === i, `zones[${i}]`, zone, 'is listed twice; give each zone once')) {
          problems.require(
            machineSetName.length <= MAX_NAME,
            `zones[${i}]`,
            zone,
            `makes MachineSet name ${machineSetName} (${machineSetName.length} characters), which must be at most ${MAX_NAME}: shorten name`,
          );
        }
      }
    });
    const replicas = p.replicasPerZone ?? 1;
    problems.require(Number.isInteger(replicas) && replicas >= 0, 'replicasPerZone', replicas, 'must be a whole number >= 0');
    for (const [key, value] of Object.entries(p.nodeLabels ?? {})) {
      if (!isQualifiedName(key) || !isLabelValue(value)) problems.add(`nodeLabels (${show(`${key}=${value}`)}) must be a valid label key=value pair`);
    }
    checkVolume(p.rootVolume ?? {}, 'rootVolume', 8, problems);
    (p.dataVolumes ?? []).forEach((volume, i) => {
      checkVolume(volume, `dataVolumes[${i}]`, 1, problems);
      problems.require(DEVICE_NAME.test(volume.deviceName ?? ''), `dataVolumes[${i}].deviceName`, volume.deviceName, 'must be a device name such as /dev/xvdb (/dev/sd[b-z] or /dev/xvd[b-z])');
      problems.require(
        (p.dataVolumes ?? []).findIndex((v) => v.deviceName === volume.deviceName) === i,
        `dataVolumes[${i}].deviceName`,
        volume.deviceName,
        'is used twice; give each disk its own device name',
      );
    });
    for (const zone of Object.keys(p.subnetNames ?? {})) {
      problems.require(zones.includes(zone), 'subnetNames', zone, `must name only zones of zones (${show(zones)})`);
    }
    (p.securityGroupNames ?? []).forEach((group, i) => problems.require(typeof group === 'string' && group.trim() !== '', `securityGroupNames[${i}]`, group, "must be a security group's Name tag"));
    problems.report();

    // Each zone once, so that a zone listed twice is reported rather than thrown on as a duplicate construct.
    const unique = [...new Set(zones)];
    this.machineSetNames = unique.map((zone) => `${infraId}-${name}-${zone}`);
    this.machineSets = unique.map((zone, i) => this.machineSet(p, zone, this.machineSetNames[i], replicas, i === 0 ? 'Resource' : zone));
    this.resource = this.machineSets[0];
  }

  private machineSet(p: AwsMachineSetsProps, zone: string, name: string, replicas: number, id: string): machine.MachineSet {
    const infraId = p.infrastructureId;
    const cluster = { 'machine.openshift.io/cluster-api-cluster': infraId };
    const root = p.rootVolume ?? {};
    return new machine.MachineSet(this, id, {
      metadata: { name, namespace: MACHINE_API_NAMESPACE, labels: { ...cluster } },
      spec: {
        replicas,
        selector: { matchLabels: { ...cluster, 'machine.openshift.io/cluster-api-machineset': name } },
        template: {
          metadata: {
            labels: {
              ...cluster,
              'machine.openshift.io/cluster-api-machine-role': 'worker',
              'machine.openshift.io/cluster-api-machine-type': 'worker',
              'machine.openshift.io/cluster-api-machineset': name,
            },
          },
          spec: {
            metadata: p.nodeLabels ? { labels: { ...p.nodeLabels } } : undefined,
            providerSpec: {
              value: {
                apiVersion: 'machine.openshift.io/v1beta1',
                kind: 'AWSMachineProviderConfig',
                ami: { id: p.amiId },
                instanceType: p.instanceType,
                blockDevices: [{ ebs: ebs(root, 120) }, ...(p.dataVolumes ?? []).map((v) => ({ deviceName: v.deviceName, ebs: ebs(v, v.sizeGiB) }))],
                credentialsSecret: { name: 'aws-cloud-credentials' },
                deviceIndex: 0,
                iamInstanceProfile: { id: `${infraId}-worker-profile` },
                placement: { availabilityZone: zone, region: p.region },
                securityGroups: (p.securityGroupNames ?? [`${infraId}-node`, `${infraId}-lb`]).map((group) => ({ filters: [{ name: 'tag:Name', values: [group] }] })),
                subnet: { filters: [{ name: 'tag:Name', values: [p.subnetNames?.[zone] ?? `${infraId}-subnet-private-${zone}`] }] },
                tags: [{ name: `kubernetes.io/cluster/${infraId}`, value: 'owned' }],
                userDataSecret: { name: 'worker-user-data' },
              },
            },
          },
        },
      },
    });
  }
}

/** The `ebs` block of a volume: encrypted always, as the installer writes its MachineSets. */
function ebs(volume: MachineVolume, defaultSize: number): Record<string, unknown> {
  return {
    encrypted: true,
    volumeSize: volume.sizeGiB ?? defaultSize,
    volumeType: volume.type ?? EbsVolumeType.GP3,
    ...(volume.iops !== undefined ? { iops: volume.iops } : {}),
    ...(volume.kmsKeyArn !== undefined ? { kmsKey: { arn: volume.kmsKeyArn } } : {}),
  };
}

function checkVolume(volume: MachineVolume, field: string, minSize: number, problems: Problems): void {
  if (volume.sizeGiB !== undefined)
    problems.require(Number.isInteger(volume.sizeGiB) && volume.sizeGiB >= minSize && volume.sizeGiB <= 65536, `${field}.sizeGiB`, volume.sizeGiB, `must be a whole number from ${minSize} to 65536`);
  if (volume.type !== undefined) problems.require(Object.values(EbsVolumeType).includes(volume.type), `${field}.type`, volume.type, 'must be gp2, gp3, io1, io2, st1, sc1 or standard');
  if (volume.iops !== undefined) problems.require(Number.isInteger(volume.iops) && volume.iops >= 0, `${field}.iops`, volume.iops, 'must be a whole number >= 0');
  if (volume.kmsKeyArn !== undefined)
    problems.require(KMS_KEY_ARN.test(volume.kmsKeyArn), `${field}.kmsKeyArn`, volume.kmsKeyArn, 'must be a KMS key ARN such as arn:aws:kms:us-east-2:123456789012:key/…');
}
