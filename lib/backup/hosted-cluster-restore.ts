import { Chart } from 'cdk8s';
import { Construct } from 'constructs';
import * as velero from '../../imports/restore-velero.io';
import { applyByHand, MANUAL_APPLY_ANNOTATIONS } from '../core/apply-by-hand';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkRequiredProps } from '../core/runtime-props';
import { othersInHandAppliedChart } from './hand-applied-chart';
import { HostedClusterBackup } from './hosted-cluster-backup';

/** What docs 7.6.6's Restore leaves out: cluster-bound objects and Velero's own. */
export const RESTORE_EXCLUDED_RESOURCES: readonly string[] = ['nodes', 'events', 'events.events.k8s.io', 'backups.velero.io', 'restores.velero.io', 'resticrepositories.velero.io'];

/** Props of HostedClusterRestore. */
export interface HostedClusterRestoreProps {
  /** The backup to restore from. */
  readonly backup: HostedClusterBackup;
  /** `metadata.name` of the Restore. @default - `<cluster name>-restore` */
  readonly name?: string;
  /**
   * For a scheduled backup, the name of one of its Backups (`<schedule>-<timestamp>`).
   * @default - a one-off backup: its name; a Schedule: its latest completed Backup (`spec.scheduleName`)
   */
  readonly backupName?: string;
}

/**
 * The Velero Restore of a hosted cluster (docs 7.6.6, "Restoring a hosted cluster by using OADP"):
 * persistent volumes restored, existing objects updated, nodes, events and Velero's own objects
 * left out. Applying it starts the restore, so declare it in a chart of its own (a
 * `ManagementCluster` such as `hub-restore`, written to its own folder) and apply that folder by
 * hand only when disaster recovery calls for it (the chart is marked applyByHand, so no delivery's
 * Application, Kustomization or Policy applies it): after the hosted cluster is destroyed (no pods
 * or PVCs left in its control-plane namespace), with its InfraEnv still in place. Then unpause the HostedCluster
 * and NodePools by removing their `pausedUntil` prop (not `'false'`, which is refused) and scale the
 * NodePools back, as the procedure's steps 5 and 6.
 */
export class HostedClusterRestore extends Construct {
  /** `metadata.name` of the Restore. */
  public readonly restoreName: string;
  /** The Restore this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: velero.Restore;

  constructor(scope: Construct, id: string, props: HostedClusterRestoreProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      backup: { accepts: (v) => v instanceof HostedClusterBackup, expected: 'the HostedClusterBackup to restore from' },
    });
    required.throwIfAny();
    const backup = props.backup;
    this.restoreName = props.name ?? `${backup.cluster.clusterName}-restore`;
    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.restoreName), 'name', this.restoreName, DNS1123_SUBDOMAIN_RULE);
    if (props.backupName !== undefined) {
      problems.require(isDns1123Subdomain(props.backupName), 'backupName', props.backupName, DNS1123_SUBDOMAIN_RULE);
      if (!backup.scheduled) problems.add(`backupName (${show(props.backupName)}) is only for a scheduled backup; ${backup.node.path} is the one Backup ${show(backup.backupName)}`);
    }
    // Applied with the backup, a Restore would run at once and overwrite the live cluster.
    if (Chart.of(this) === Chart.of(backup.cluster)) {
      problems.add(
        `scope (${show(Chart.of(this).node.path)}) must not be the chart of ${backup.cluster.node.path}: applying the Restore starts it, so keep it in a chart of its own applied only for recovery`,
      );
    }
    problems.report();
    const chart = Chart.of(this);
    applyByHand(chart, { reason: 'applying a Velero Restore starts a restore over what runs' });
    // No engine delivers the chart now: anything else in it would silently never be applied.
    this.node.addValidation({ validate: () => othersInHandAppliedChart(chart, 'Restore') });

    const source = backup.scheduled ? (props.backupName !== undefined ? { backupName: props.backupName } : { scheduleName: backup.backupName }) : { backupName: backup.backupName };
    this.resource = new velero.Restore(this, 'Resource', {
      metadata: { name: this.restoreName, namespace: backup.dataProtection.namespace, annotations: { ...MANUAL_APPLY_ANNOTATIONS } },
      spec: {
        ...source,
        restorePVs: true,
        existingResourcePolicy: 'update',
        excludedResources: [...RESTORE_EXCLUDED_RESOURCES],
      },
    });
  }
}
