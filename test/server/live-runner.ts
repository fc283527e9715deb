// Runs the plan --live API in a node process of its own, for plan-live.test.ts: @kubernetes/client-node
// is ES-module only, which node loads with require() and jest's module system does not (it would
// need ~1,000 files of it transformed). `node live-runner.js '<job JSON>'` prints the result as JSON.
import * as path from 'path';
import { addLiveState, HcpApp, HostedCluster, LivePlanOptions, ManagementCluster, OutputSnapshot, planChanges, ReadOnlyCluster, Release } from '../../lib';
import { clusterProps } from '../props';

/** What the runner does. */
export type LiveJob =
  /** addLiveState over two output directories. */
  | { readonly job: 'plan'; readonly committed: string; readonly next: string; readonly options: LivePlanOptions }
  /** app.plan({ previous: { directory }, live }) of an app with cluster `name` at `release`, pool at `poolRelease`. */
  | { readonly job: 'app'; readonly committed: string; readonly name: string; readonly release: string; readonly poolRelease: string; readonly options: LivePlanOptions }
  /** Writes through the ReadOnlyCluster's own client, which must refuse them: the error of each. */
  | { readonly job: 'write'; readonly options: LivePlanOptions; readonly object: any };

async function run(job: LiveJob): Promise<unknown> {
  if (job.job === 'plan') {
    const previous = OutputSnapshot.fromDirectory(job.committed);
    const next = OutputSnapshot.fromDirectory(job.next);
    return addLiveState(planChanges(previous, next), previous, next, job.options);
  }
  if (job.job === 'app') {
    const app = new HcpApp({ outdir: path.join(path.dirname(job.committed), 'app-out') });
    const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), job.name, clusterProps({ release: Release.fromVersion(job.release) }));
    cluster.addNodePool('workers', { replicas: 2, release: Release.fromVersion(job.poolRelease) });
    return app.plan({ previous: { directory: job.committed }, live: job.options });
  }
  // The client a ReadOnlyCluster holds, reached past its only method (get): what a bug could do.
  const api = (ReadOnlyCluster.connect(job.options) as any).api;
  const attempts = [() => api.create(job.object), () => api.replace(job.object), () => api.patch(job.object), () => api.delete(job.object)];
  const errors: string[] = [];
  for (const attempt of attempts)
    errors.push(
      await attempt().then(
        () => 'written',
        (error: Error) => error.message,
      ),
    );
  return errors;
}

run(JSON.parse(process.argv[2])).then(
  (result) => process.stdout.write(JSON.stringify(result)),
  (error: Error) => {
    process.stderr.write(`${error.name}: ${error.message}\n`);
    process.exitCode = 1;
  },
);
