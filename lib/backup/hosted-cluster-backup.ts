import { Chart, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import * as velero from '../../imports/backup-velero.io';
import * as schedule from '../../imports/schedule-velero.io';
import { applyByHand, MANUAL_APPLY_ANNOTATIONS } from '../core/apply-by-hand';
import { durationProblem, toGoDuration } from '../core/go-duration';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkRequiredProps, isDuration } from '../core/runtime-props';
import { PlatformType } from '../platform/platform-type';
import { DataProtectionApplication } from './data-protection-application';
import { othersInHandAppliedChart } from './hand-applied-chart';

/**
 * The resources of docs 7.6.5's Backup (Example 7.1), in its order, with the Agent platform's
 * Cluster API objects and inventory (bmh, infraenv, agents, agentcluster, agentmachinetemplate,
 * agentmachine) replaced by each platform's own.
 */
const COMMON_BEFORE = ['sa', 'role', 'rolebinding', 'pod', 'pvc', 'pv'];
const COMMON_MIDDLE = ['configmap'];
const COMMON_AFTER = ['priorityclasses', 'pdb'];
const CLUSTER_OBJECTS = ['hostedcluster', 'nodepool', 'secrets', 'hostedcontrolplane', 'cluster'];
const MACHINES = ['machinedeployment', 'machineset', 'machine'];
const PLATFORM_CAPI: Record<PlatformType, readonly string[]> = {
  [PlatformType.AGENT]: ['agentcluster', 'agentmachinetemplate', 'agentmachine'],
  [PlatformType.KUBEVIRT]: ['kubevirtcluster', 'kubevirtmachinetemplate', 'kubevirtmachine'],
  [PlatformType.AWS]: ['awscluster', 'awsmachinetemplate', 'awsmachine'],
  [PlatformType.NONE]: [],
};

/** The `includedResources` of a hosted cluster's backup on `platform`: docs 7.6.5's list for Agent. */
export function hostedClusterBackupResources(platform: PlatformType): string[] {
  const agent = platform === PlatformType.AGENT;
  return [
    ...COMMON_BEFORE,
    ...(agent ? ['bmh'] : []),
    ...COMMON_MIDDLE,
    ...(agent ? ['infraenv'] : []),
    ...COMMON_AFTER,
    ...(agent ? ['agents'] : []),
    ...CLUSTER_OBJECTS,
    ...PLATFORM_CAPI[platform],
    ...MACHINES,
  ];
}

/** Props of HostedClusterBackup. */
export interface HostedClusterBackupProps {
  /** The hosted cluster to back up; it must be declared in this app, on the same management cluster. */
  readonly cluster: HostedCluster;
  /** The DataProtectionApplication whose Velero takes the backup. */
  readonly dataProtection: DataProtectionApplication;
  /**
   * A cron schedule (`0 1 * * *`): a Velero Schedule then takes a backup at each tick. Needs the
   * DataProtectionApplication's `hypershiftPlugin`, which pauses the cluster for each backup.
   * A Schedule is a state an engine may keep applied; a one-off Backup is an act, so it is declared
   * in a chart of its own that is applied by hand (see the class comment).
   * @default - one Backup, taken once when applied by hand, of a cluster paused beforehand
   */
  readonly schedule?: string;
  /**
   * `metadata.name` of the Backup or Schedule.
   * @default - `<cluster name>-backup`
   */
  readonly name?: string;
  /** How long Velero keeps each backup. @default Duration.hours(2) (docs 7.6.5) */
  readonly ttl?: Duration;
}

const CRON = /^(@(yearly|annually|monthly|weekly|daily|midnight|hourly)|@every \S+|(\S+\s+){4}\S+)$/;

/**
 * A Velero backup of one hosted cluster's control plane (docs 7.6.5, "Backing up the control plane
 * workload"): the HostedCluster namespace and the control-plane namespace, the resources of
 * Example 7.1 with the platform's Cluster API objects, persistent volumes by fs-backup and CSI data
 * movement. With `schedule` it is a Velero Schedule, which needs OADP's hypershift plugin and may
 * sit anywhere on the management cluster's chart. Without, it is one Backup, which is an act, not a
 * state: an engine that kept it applied would re-create it after Velero deletes it at its ttl and so
 * start an unplanned backup. So a one-off Backup is declared in a chart of its own (a
 * `ManagementCluster` such as `hub-backup`), which is marked applyByHand: no delivery applies it, and
 * it is applied with `oc apply -k` once the cluster and its NodePools are paused (steps 2 and 3,
 * `pausedUntil: 'true'`, unless the hypershift plugin pauses them). Once the backup has completed,
 * remove it from the app before unpausing: its folder is applied by hand, so nothing is deleted.
 * On the Agent platform the InfraEnv must sit in a namespace of its own, which is neither backed up
 * nor deleted, so that restored NodePools find their Agents. Restore it with HostedClusterRestore.
 */
export class HostedClusterBackup extends Construct {
  /** The hosted cluster it backs up. */
  public readonly cluster: HostedCluster;
  /** The DataProtectionApplication whose storage location the backups go to. */
  public readonly dataProtection: DataProtectionApplication;
  /** `metadata.name` of the Backup or Schedule. */
  public readonly backupName: string;
  /** Whether a Schedule (true) or a single Backup (false) was written. */
  public readonly scheduled: boolean;
  /** The Velero Backup or Schedule. */
  public readonly resource: velero.Backup | schedule.Schedule;

  constructor(scope: Construct, id: string, props: HostedClusterBackupProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      cluster: { accepts: (v) => v instanceof HostedCluster, expected: 'the HostedCluster to back up' },
      dataProtection: { accepts: (v) => v instanceof DataProtectionApplication, expected: 'the DataProtectionApplication whose Velero takes the backup' },
    });
    required.throwIfAny();
    this.cluster = props.cluster;
    this.dataProtection = props.dataProtection;
    this.backupName = props.name ?? `${props.cluster.clusterName}-backup`;
    this.scheduled = props.schedule !== undefined;
    const cluster = props.cluster;
    const controlPlaneNamespace = cluster.controlPlaneNamespace;

    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.backupName) && this.backupName.length <= 63, 'name', this.backupName, `${DNS1123_SUBDOMAIN_RULE}, at most 63 characters (Velero labels backups with it)`);
    if (props.schedule !== undefined)
      problems.require(CRON.test(props.schedule.trim()), 'schedule', props.schedule, 'must be a cron expression of five fields such as "0 1 * * *", or @daily, @every 6h ...');
    const ttlProblem = props.ttl === undefined ? undefined : durationProblem('ttl', props.ttl, { example: 'Duration.hours(2)' });
    if (ttlProblem) problems.add(ttlProblem);
    if (Chart.of(cluster) !== Chart.of(props.dataProtection)) {
      problems.add(
        `dataProtection (${props.dataProtection.node.path}) must be on the management cluster of ${cluster.node.path} (${Chart.of(cluster).node.path}): Velero backs up the cluster it runs on`,
      );
    }
    const agentNamespace = cluster.agentNamespace;
    if (agentNamespace !== undefined && (agentNamespace === cluster.namespace || agentNamespace === controlPlaneNamespace)) {
      problems.add(
        `cluster (${cluster.node.path}) keeps its Agents and InfraEnv in ${show(agentNamespace)}, a namespace the backup includes and the restore replaces; ` +
          'docs 7.6.5 and 7.6.6 require the InfraEnv in a namespace of its own that is not deleted, so give platform.agentNamespace another namespace',
      );
    }
    const chart = Chart.of(this);
    if (!this.scheduled && chart === Chart.of(cluster)) {
      problems.add(
        `scope (${show(chart.node.path)}) is the chart of ${cluster.node.path}, which an engine keeps applied: it would re-create the one-off Backup after Velero deletes it at its ttl, ` +
          `starting an unplanned backup; declare it in a chart of its own that is applied by hand (new ManagementCluster(app, '${chart.node.id}-backup')), or give schedule for a Velero Schedule`,
      );
    }
    if (this.scheduled && !props.dataProtection.hypershiftPlugin) {
      problems.add(
        `schedule (${show(props.schedule)}) needs hypershiftPlugin on ${props.dataProtection.node.path}: docs 7.6.5 pause the HostedCluster and its NodePools before each backup, ` +
          'which a Schedule cannot do by hand; without the plugin take one-off Backups of a paused cluster',
      );
    }
    const broken = problems.report();
    if (!this.scheduled && !broken) {
      applyByHand(chart, { reason: 'applying a one-off Velero Backup starts a backup, and an engine would re-create it after Velero deletes it at its ttl' });
      // No engine delivers the chart now: anything else in it would silently never be applied.
      this.node.addValidation({ validate: () => othersInHandAppliedChart(chart, 'Backup') });
    }

    // Fields both the Backup spec and the Schedule's template have, with the same types.
    const template = {
      includedNamespaces: [cluster.namespace, controlPlaneNamespace],
      includedResources: hostedClusterBackupResources(cluster.platformType),
      excludedResources: [],
      storageLocation: props.dataProtection.storageLocation,
      ttl: toGoDuration(isDuration(props.ttl) ? props.ttl : Duration.hours(2)),
      snapshotMoveData: true,
      datamover: 'velero',
      defaultVolumesToFsBackup: true,
    } satisfies velero.BackupSpec & schedule.ScheduleSpecTemplate;
    const metadata = { name: this.backupName, namespace: props.dataProtection.namespace, labels: { 'velero.io/storage-location': props.dataProtection.storageLocation } };
    this.resource = this.scheduled
      ? new schedule.Schedule(this, 'Resource', { metadata, spec: { schedule: props.schedule!.trim(), template } })
      : new velero.Backup(this, 'Resource', { metadata: { ...metadata, annotations: { ...MANUAL_APPLY_ANNOTATIONS } }, spec: { hooks: {}, ...template } });
    if (!this.scheduled && !props.dataProtection.hypershiftPlugin) this.node.addValidation({ validate: () => this.checkPaused() });
  }

  /** Docs 7.6.5 steps 2 and 3: a one-off backup is of a paused cluster, so that nothing changes under Velero. */
  private checkPaused(): string[] {
    const paused = (spec: unknown) => (spec as { spec?: { pausedUntil?: string } }).spec?.pausedUntil === 'true';
    const unpaused = [this.cluster, ...this.cluster.pools].filter((c) => !paused(c.resource.toJson())).map((c) => c.node.path);
    if (unpaused.length === 0) return [];
    return [
      `cluster (${this.cluster.node.path}) must be paused before its backup (docs 7.6.5 steps 2 and 3): set pausedUntil "true" on ${unpaused.join(', ')}, ` +
        'or give the DataProtectionApplication hypershiftPlugin, which pauses them for the backup; once the backup has completed (and any restore from it), ' +
        'remove it from the app before unpausing: its chart is applied by hand, so removing it deletes nothing',
    ];
  }
}
