import { redactText } from '../../core/redaction';
import { ARGO_CD_BOOTSTRAP_FOLDER } from '../../gitops/argo-cd-delivery';
import { ROLLOUT_RECORD_FOLDER } from '../../release/rollout-record';
import { OutputFile, OutputSnapshot } from '../output-snapshot';
import { withHubHyperShift } from '../plan';
import type { Plan } from '../plan-report';
import { liveFindings, LiveObjectState } from './live-findings';
import { readHubHyperShiftVersion } from './live-hypershift-version';
import { LiveReport } from './live-report';
import { KubeconfigOptions, LiveReadError, ReadOnlyCluster } from './read-only-cluster';

/** Where and how `plan --live` reads the management cluster. */
export interface LivePlanOptions extends KubeconfigOptions {
  /**
   * The management folder of the output (its top folder, `hub` in `hub/clusters/...`) whose
   * objects the context's cluster runs.
   * @default - the outputs' only management folder; an error when they have several
   */
  readonly managementFolder?: string;
  /**
   * How many reads are sent at once.
   * @default 8
   */
  readonly concurrency?: number;
}

/**
 * Folders at the top of an output that are not a management cluster's: the engines' own, the record
 * of release rollouts (which no engine applies), and guest folders (applied in hosted clusters).
 */
const NOT_MANAGEMENT = [ARGO_CD_BOOTSTRAP_FOLDER, 'flux', ROLLOUT_RECORD_FOLDER];

/**
 * The plan with what the management cluster holds (`plan.live`): reads, and only reads, the
 * objects of the management folder of both outputs (not Secrets) through a kubeconfig context,
 * and adds what the cluster's state means for the change (see `liveFindings`). Rejects with a
 * LiveReadError when the cluster cannot be read; then nothing of the plan is to be trusted as live.
 */
export async function addLiveState(plan: Plan, previous: OutputSnapshot, next: OutputSnapshot, options: LivePlanOptions = {}): Promise<Plan> {
  const folder = managementFolder(previous, next, options.managementFolder);
  const cluster = ReadOnlyCluster.connect(options);
  const states = await readAll(cluster, objectsOf(folder, previous, next), options.concurrency ?? 8);
  // The version rules of the operator that runs there, in place of those the output records.
  const hub = await readHubHyperShiftVersion(cluster, folder, next);
  const planned = hub.hyperShift ? withHubHyperShift(plan, previous, next, folder, hub.hyperShift) : plan;
  const live: LiveReport = {
    context: cluster.context,
    server: redactText(cluster.server),
    managementFolder: folder,
    objectsRead: states.length,
    objectsFound: states.filter((s) => s.live !== undefined).length,
    hyperShift: hub.report,
    findings: liveFindings(planned, states, { managementFolder: folder, context: cluster.context, server: cluster.server }, { hub: folder, hyperShift: hub.hyperShift }),
  };
  return { ...planned, live };
}

/** The management folder to read: the one given, which the outputs must have, else their only one. */
export function managementFolder(previous: OutputSnapshot, next: OutputSnapshot, given?: string): string {
  const folders = new Set<string>();
  for (const snapshot of [previous, next]) {
    for (const file of snapshot.files.values()) {
      const top = file.path.split('/')[0];
      if (file.path.includes('/') && !NOT_MANAGEMENT.includes(top) && !top.endsWith('-guest')) folders.add(top);
    }
  }
  const known = [...folders].sort();
  const list = known.length > 0 ? `they have ${known.join(', ')}` : 'they have none';
  if (given !== undefined) {
    if (!folders.has(given)) throw new LiveReadError(`--hub ${given}: the outputs have no management folder ${given} (${list})`);
    return given;
  }
  if (known.length !== 1)
    throw new LiveReadError(
      `plan --live reads one management cluster, and the outputs have ${known.length === 0 ? 'no management folder' : `${known.length} management folders (${known.join(', ')})`}: name the one the context's cluster runs with --hub <folder>`,
    );
  return known[0];
}

/** The objects of `folder` in either output, but Secrets (not read: their values are not the plan's business, and the view role does not read them). */
function objectsOf(folder: string, previous: OutputSnapshot, next: OutputSnapshot): Omit<LiveObjectState, 'served' | 'live'>[] {
  const keys = new Set([...previous.filesIn(folder, { below: true }), ...next.filesIn(folder, { below: true })].map((f) => f.key));
  const objects: Omit<LiveObjectState, 'served' | 'live'>[] = [];
  for (const key of [...keys].sort()) {
    if (key.split('|')[1] === 'secret') continue;
    const before = previous.files.get(key);
    const after = next.files.get(key);
    const committed = before && previous.object(before);
    const nextObject = after && next.object(after);
    const object = nextObject ?? committed;
    const file = (after ?? before)!;
    const cluster = clusterOf(folder, after ? next : previous, file, object);
    objects.push({
      apiVersion: object.apiVersion,
      kind: object.kind,
      ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}),
      name: object.metadata?.name,
      file: file.path,
      ...(cluster ? { cluster } : {}),
      ...(committed ? { committed } : {}),
      ...(nextObject ? { next: nextObject } : {}),
    });
  }
  return objects;
}

/** As plan names clusters: `<management folder>/<namespace>/<name>`, for a HostedCluster, a NodePool, or an object in the folder of exactly one HostedCluster. */
function clusterOf(folder: string, snapshot: OutputSnapshot, file: OutputFile, object: any): string | undefined {
  if (object.kind === 'HostedCluster') return `${folder}/${object.metadata?.namespace}/${object.metadata?.name}`;
  if (object.kind === 'NodePool' && object.spec?.clusterName) return `${folder}/${object.metadata?.namespace}/${object.spec.clusterName}`;
  const hostedClusters = snapshot.filesIn(file.layoutFolder, { kind: 'hostedcluster' });
  if (hostedClusters.length !== 1) return undefined;
  const [, , namespace, name] = hostedClusters[0].key.split('|');
  return `${folder}/${namespace}/${name}`;
}

/**
 * Reads every object, `concurrency` at a time. A failure stops taking more, and what is thrown is
 * the failure of the first object in order, so that the same cluster gives the same error.
 */
async function readAll(cluster: ReadOnlyCluster, objects: readonly Omit<LiveObjectState, 'served' | 'live'>[], concurrency: number): Promise<LiveObjectState[]> {
  const states: LiveObjectState[] = new Array(objects.length);
  const failures = new Map<number, unknown>();
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < objects.length && failures.size === 0) {
      const i = nextIndex++;
      try {
        const read = await cluster.get(objects[i]);
        states[i] = { ...objects[i], served: read.served, ...(read.object !== undefined ? { live: read.object } : {}) };
      } catch (error) {
        failures.set(i, error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, objects.length)) }, worker));
  if (failures.size > 0) throw failures.get(Math.min(...failures.keys()));
  return states;
}
