// The docs' own backup and restore of vcluster2 (docs 7.6.5 and 7.6.6, without OADP's hypershift
// plugin), as the commits a user makes to the app, one step each. Which step to synthesize is
// HCP_CDK_PROCEDURE_STEP (default: backup):
//   HCP_CDK_PROCEDURE_STEP=backup npx cdk8s synth --no-check-upgrade --app 'node build/examples/agent-lab-backup/procedure.js'
//
// A one-off Backup and a Restore are acts, not states: each is declared in a chart of its own
// (dist/hub-backup/, dist/hub-restore/) that no engine applies, and applied with `oc apply -k` at
// its moment. Everything else is delivered as usual from dist/hub/.
import { HcpApp, HcpAppProps, HcpValidationError, HostedClusterBackup, HostedClusterRestore, ManagementCluster } from '../../lib';
import { exampleDelivery } from '../delivery';
import { agentLab } from './lab';

/** The procedure's commits, in order. */
export enum ProcedureStep {
  /** Before the procedure: vcluster2 with 2 nodes, reconciled. */
  RUNNING = 'running',
  /** Docs 7.6.5 step 1: the NodePool scaled to 0 (while still reconciled, so that the nodes go). */
  SCALED_DOWN = 'scaled-down',
  /**
   * Steps 2-5: the HostedCluster and NodePool paused, and the one-off Backup declared in hub-backup.
   * Once the engine has applied the pause, `oc apply -k dist/hub-backup` takes the backup.
   */
  BACKUP = 'backup',
  /**
   * Docs 7.6.6 steps 2-3: the Restore declared in hub-restore. After the hosted cluster is destroyed
   * (no pods or PVCs in clusters-vcluster2), `oc apply -k dist/hub-restore` restores it.
   */
  RESTORE = 'restore',
  /**
   * Steps 5-6: pausedUntil removed (the one way to unpause) and the NodePool scaled back to 2; the
   * Backup and Restore leave the app, which deletes nothing, as no engine applied them.
   */
  RESUMED = 'resumed',
}

/** The steps in the order they are committed. */
export const PROCEDURE: readonly ProcedureStep[] = [ProcedureStep.RUNNING, ProcedureStep.SCALED_DOWN, ProcedureStep.BACKUP, ProcedureStep.RESTORE, ProcedureStep.RESUMED];

/** The app as it stands at `step`. */
export function agentLabAt(step: ProcedureStep, props: HcpAppProps = {}): HcpApp {
  const at = PROCEDURE.indexOf(step);
  if (at < 0) throw new HcpValidationError([`HCP_CDK_PROCEDURE_STEP (${JSON.stringify(step)}) must be one of ${PROCEDURE.join(', ')}`]);
  const during = (first: ProcedureStep, last: ProcedureStep) => at >= PROCEDURE.indexOf(first) && at <= PROCEDURE.indexOf(last);
  const app = new HcpApp(props);
  const { cluster, oadp } = agentLab(app, {
    replicas: during(ProcedureStep.SCALED_DOWN, ProcedureStep.RESTORE) ? 0 : 2,
    paused: during(ProcedureStep.BACKUP, ProcedureStep.RESTORE),
  });
  if (during(ProcedureStep.BACKUP, ProcedureStep.RESTORE)) {
    const backup = new HostedClusterBackup(new ManagementCluster(app, 'hub-backup'), 'vcluster2', { cluster, dataProtection: oadp });
    if (step === ProcedureStep.RESTORE) new HostedClusterRestore(new ManagementCluster(app, 'hub-restore'), 'vcluster2', { backup });
  }
  return app;
}

if (require.main === module) {
  agentLabAt((process.env.HCP_CDK_PROCEDURE_STEP ?? ProcedureStep.BACKUP) as ProcedureStep, { delivery: exampleDelivery() }).synth();
}
