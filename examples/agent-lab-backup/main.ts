// A nightly backup of the agent lab's vcluster2 with OADP, and the Restore that recovers it
// (docs 7.6, "Disaster recovery for a hosted cluster by using OADP"). The cluster is the default
// example's (examples/agent-lab), declared in lab.ts. OADP's hypershift plugin pauses the
// HostedCluster and NodePool for each backup, which a Schedule needs. procedure.ts is the other way,
// the docs' own: one-off Backup, restore and unpause, as commits.
//
// Output: dist/hub/ (OADP, the DataProtectionApplication, the cluster and its nightly Schedule) and
// dist/hub-restore/ (the Restore: apply it only to recover, after the cluster is destroyed).
import { Duration } from 'cdk8s';
import { HcpApp, HostedClusterBackup, HostedClusterRestore, ManagementCluster } from '../../lib';
import { exampleDelivery } from '../delivery';
import { agentLab } from './lab';

const app = new HcpApp({ delivery: exampleDelivery() });
const { cluster: vcluster2, oadp } = agentLab(app, { hypershiftPlugin: true });

// Docs 7.6.5, "Backing up the control plane workload", every night at 01:00, kept for a week.
const backup = new HostedClusterBackup(vcluster2, 'backup', {
  cluster: vcluster2,
  dataProtection: oadp,
  schedule: '0 1 * * *',
  ttl: Duration.days(7),
});

// Docs 7.6.6, "Restoring a hosted cluster by using OADP": the latest backup of the schedule.
new HostedClusterRestore(new ManagementCluster(app, 'hub-restore'), 'vcluster2', { backup });

app.synth();
