import { redactText } from '../../core/redaction';
import { KindIdentity, LiveReadError, ReadOnlyCluster } from '../live/read-only-cluster';
import { HubConnectionOptions, hubKubeconfig } from './hub-connections';

/** HyperShift's HostedCluster, as the output writes it. */
export const HOSTED_CLUSTER_KIND: KindIdentity = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster' };
/** HyperShift's NodePool, as the output writes it. */
export const NODE_POOL_KIND: KindIdentity = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool' };

/** A hosted cluster as its management cluster holds it. */
export interface LiveCluster {
  /** Its HostedCluster; undefined when the management cluster holds none. */
  readonly hostedCluster?: any;
  /** Its NodePools (`spec.clusterName`), in name order. */
  readonly nodePools: readonly any[];
}

/** How one management cluster was read. */
export interface HubRead {
  /** The management folder of the output. */
  readonly managementFolder: string;
  /** The kubeconfig context read. @default - none: no context fits (see error) */
  readonly context?: string;
  /** Its API server. @default - not known */
  readonly server?: string;
  /** The namespaces listed. */
  readonly namespaces: readonly string[];
  /** How many of the rollouts' clusters it runs, by the records. */
  readonly clusters: number;
  /** HostedClusters listed. */
  readonly hostedClustersRead: number;
  /** NodePools listed. */
  readonly nodePoolsRead: number;
  /** Pages of lists read. */
  readonly pages: number;
  /** Why it could not be read; its clusters are not known then. @default - read */
  readonly error?: string;
}

/** Options of the live read of a rollout's clusters. */
export interface LiveClusterReadOptions extends HubConnectionOptions {
  /**
   * Objects per page of a list (`limit`).
   * @default 500 - kubectl's chunk size
   */
  readonly pageSize?: number;
  /**
   * The management folders the rollouts span, read or not: a folder's current-context fallback holds
   * only when they span one.
   * @default - the folders of the clusters read
   */
  readonly spans?: readonly string[];
}

/** What was read: each management cluster, and each cluster asked for that was read. */
export interface LiveClusters {
  /** Each management cluster, in folder order. */
  readonly hubs: readonly HubRead[];
  /** Each cluster asked for on a management cluster that was read, by `<management folder>/<namespace>/<name>`. */
  readonly clusters: ReadonlyMap<string, LiveCluster>;
}

/**
 * Reads hosted clusters from their management clusters, and only reads: per management folder, its
 * HostedClusters and NodePools by list, one kind and namespace at a time and a page at a time
 * (never one request per object: thousands of clusters are a few dozen requests), keeping the
 * objects of the clusters asked for. The management clusters are read at once; one that cannot be
 * read (no context, out of reach, a list refused, HyperShift's CRDs not served) is reported with
 * its error and the others are read all the same.
 * @param clusters the clusters, `<management folder>/<namespace>/<name>`, as rollout records name them
 */
export async function readLiveClusters(clusters: readonly string[], options: LiveClusterReadOptions = {}): Promise<LiveClusters> {
  const byHub = new Map<string, Map<string, Set<string>>>();
  for (const id of clusters) {
    const [folder, namespace, name] = id.split('/');
    const namespaces = byHub.get(folder) ?? new Map<string, Set<string>>();
    namespaces.set(namespace, (namespaces.get(namespace) ?? new Set()).add(name));
    byHub.set(folder, namespaces);
  }
  const folders = [...byHub.keys()].sort();
  const found = new Map<string, LiveCluster>();
  const only = (options.spans ?? folders).length === 1;
  const hubs = await Promise.all(folders.map((folder) => readHub(folder, byHub.get(folder)!, only, options, found)));
  return { hubs, clusters: found };
}

/** Reads one management cluster's clusters into `found`; its report, with the error when it cannot be read. */
async function readHub(folder: string, wanted: ReadonlyMap<string, ReadonlySet<string>>, only: boolean, options: LiveClusterReadOptions, found: Map<string, LiveCluster>): Promise<HubRead> {
  const namespaces = [...wanted.keys()].sort();
  const members = [...wanted.values()].reduce((n, names) => n + names.size, 0);
  let context: string | undefined;
  let server: string | undefined;
  let hostedClustersRead = 0;
  let nodePoolsRead = 0;
  let pages = 0;
  const report = (error?: string): HubRead => ({
    managementFolder: folder,
    ...(context !== undefined ? { context } : {}),
    ...(server !== undefined ? { server: redactText(server) } : {}),
    namespaces,
    clusters: members,
    hostedClustersRead,
    nodePoolsRead,
    pages,
    ...(error !== undefined ? { error: redactText(error) } : {}),
  });
  const read = new Map<string, { hostedCluster?: any; nodePools: any[] }>();
  try {
    const cluster = ReadOnlyCluster.connect(hubKubeconfig(folder, options, only));
    context = cluster.context;
    server = cluster.server;
    for (const namespace of namespaces) {
      const names = wanted.get(namespace)!;
      const needed = `hcp-cdk rollout reads HostedClusters and NodePools by list: grant list on hostedclusters and nodepools (hypershift.openshift.io) in namespace ${namespace}`;
      // The two kinds at once (the server builds one answer while the other is read); the same cluster gives the same error, the HostedClusters' first.
      const [hostedClusters, nodePools] = (
        await Promise.allSettled([
          cluster.list(HOSTED_CLUSTER_KIND, namespace, { pageSize: options.pageSize, needed }),
          cluster.list(NODE_POOL_KIND, namespace, { pageSize: options.pageSize, needed }),
        ])
      ).map((read) => {
        if (read.status === 'rejected') throw read.reason;
        return read.value;
      });
      if (!hostedClusters.served) {
        throw new LiveReadError(
          `the management cluster at ${cluster.server} (context ${cluster.context}) does not serve ${HOSTED_CLUSTER_KIND.kind} (${HOSTED_CLUSTER_KIND.apiVersion}): HyperShift is not installed there; is it the management cluster of folder ${folder}? give its context with --context ${folder}=<context>`,
        );
      }
      hostedClustersRead += hostedClusters.items.length;
      nodePoolsRead += nodePools.items.length;
      pages += hostedClusters.pages + nodePools.pages;
      for (const object of hostedClusters.items) {
        const name = object?.metadata?.name;
        if (names.has(name)) read.set(`${folder}/${namespace}/${name}`, { hostedCluster: object, nodePools: [] });
      }
      for (const pool of nodePools.items) {
        const owner = read.get(`${folder}/${namespace}/${pool?.spec?.clusterName}`);
        if (owner) owner.nodePools.push(pool);
      }
      for (const name of names) if (!read.has(`${folder}/${namespace}/${name}`)) read.set(`${folder}/${namespace}/${name}`, { nodePools: [] });
    }
  } catch (error) {
    if (!(error instanceof LiveReadError)) throw error;
    return report(error.message);
  }
  for (const [id, cluster] of read) {
    const pools = [...cluster.nodePools].sort((a, b) => (String(a?.metadata?.name) < String(b?.metadata?.name) ? -1 : 1));
    found.set(id, cluster.hostedCluster === undefined ? { nodePools: pools } : { hostedCluster: cluster.hostedCluster, nodePools: pools });
  }
  return report();
}
