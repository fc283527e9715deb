// Commits of a fleet repository: the fleet example's inventory changed as a platform team changes it,
// each synthesized with the commit before it as the previous output (as `hcp-cdk synth` reads it from
// git HEAD), so that the engine objects can let each unit prune, or adopt, what it applied before.
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { Fleet, FleetInventory, HcpApp, IDelivery, PreviousOutput, PreviousOutputSource } from '../../lib';
import { exampleFile } from '../../examples/example-file';

/** One commit's output. */
export interface Commit {
  readonly name: string;
  /** Each file's text, by path under the output root. */
  readonly files: ReadonlyMap<string, string>;
  /** Each folder's objects (kustomization.yaml left out), in file-name order. */
  readonly folders: ReadonlyMap<string, any[]>;
}

/** The fleet example's inventory, to change. */
export function exampleInventory(): FleetInventory {
  return YAML.parse(fs.readFileSync(exampleFile('fleet', 'fleet.yaml'), 'utf8')).spec as FleetInventory;
}

/** The output of `inventory` under `delivery`, synthesized over `previous` when given. */
export function commit(name: string, inventory: FleetInventory, delivery: IDelivery, previous?: Commit): Commit {
  const app = new HcpApp({ outdir: '/nonexistent', delivery });
  Fleet.fromInventory(app, inventory);
  const previousOutput = previous
    ? PreviousOutput.inFiles(PreviousOutputSource.GIT_HEAD, `commit ${previous.name}`, new Map([...previous.files].map(([file, text]) => [file, Buffer.from(text)])))
    : undefined;
  const files = new Map<string, string>();
  const folders = new Map<string, any[]>();
  for (const file of app.synthesize({ previousOutput })) {
    files.set(file.path, file.text);
    const folder = path.posix.dirname(file.path);
    // A folder with a kustomization.yaml and nothing else is there, empty.
    if (file.path.endsWith('kustomization.yaml')) {
      if (!folders.has(folder)) folders.set(folder, []);
      continue;
    }
    folders.set(folder, [...(folders.get(folder) ?? []), ...YAML.parseAllDocuments(file.text).map((d) => d.toJSON())]);
  }
  return { name, files, folders };
}

/** Changes of the inventory, each returning a new one. */
export const fleetChange = {
  /** Only the management clusters named. */
  onlyHubs(inventory: FleetInventory, ...hubs: string[]): FleetInventory {
    return { ...inventory, rollouts: undefined, managementClusters: inventory.managementClusters.filter((m) => hubs.includes(m.name)) };
  },
  /**
   * Every hosted cluster in namespace `namespace` and its Agents in `<prefix><agent namespace>`: a
   * fleet of its own on a server that other suites' fleets share.
   */
  inNamespaces(inventory: FleetInventory, namespace: string, prefix: string): FleetInventory {
    return {
      ...inventory,
      managementClusters: inventory.managementClusters.map((m) => ({
        ...m,
        clusters: m.clusters.map((c) => ({ ...c, namespace, ...(c.agent ? { agent: { ...c.agent, agentNamespace: `${prefix}${c.agent.agentNamespace}` } } : {}) })),
      })),
    };
  },
  /** Only the first `count` hosted clusters of each management cluster. */
  firstClusters(inventory: FleetInventory, count: number): FleetInventory {
    return { ...inventory, managementClusters: inventory.managementClusters.map((m) => ({ ...m, clusters: m.clusters.slice(0, count) })) };
  },
  /** Without hosted cluster `cluster`. */
  removeCluster(inventory: FleetInventory, cluster: string): FleetInventory {
    return { ...inventory, managementClusters: inventory.managementClusters.map((m) => ({ ...m, clusters: m.clusters.filter((c) => c.name !== cluster) })) };
  },
  /** With `spec` added to management cluster `hub`. */
  addCluster(inventory: FleetInventory, hub: string, spec: FleetInventory['managementClusters'][number]['clusters'][number]): FleetInventory {
    return { ...inventory, managementClusters: inventory.managementClusters.map((m) => (m.name === hub ? { ...m, clusters: [...m.clusters, spec] } : m)) };
  },
  /** Without NodePool `pool` of `cluster`. */
  dropNodePool(inventory: FleetInventory, cluster: string, pool: string): FleetInventory {
    return {
      ...inventory,
      managementClusters: inventory.managementClusters.map((m) => ({
        ...m,
        clusters: m.clusters.map((c) => (c.name === cluster ? { ...c, nodePools: (c.nodePools ?? []).filter((p) => p.name !== pool) } : c)),
      })),
    };
  },
  /** Without the guest of `cluster` (its MetalLB ingress: an Agent cluster's `ingressAddresses`). */
  dropGuest(inventory: FleetInventory, cluster: string): FleetInventory {
    return {
      ...inventory,
      managementClusters: inventory.managementClusters.map((m) => ({
        ...m,
        clusters: m.clusters.map((c) => (c.name === cluster && c.agent ? { ...c, agent: { ...c.agent, ingressAddresses: undefined } } : c)),
      })),
    };
  },
  /** Every NodePool of every cluster that is not on Agents (whose hosts are counted) with `by` more replicas. */
  scalePools(inventory: FleetInventory, by: number): FleetInventory {
    return {
      ...inventory,
      managementClusters: inventory.managementClusters.map((m) => ({
        ...m,
        clusters: m.clusters.map((c) => (c.agent ? c : { ...c, nodePools: (c.nodePools ?? []).map((p) => ({ ...p, replicas: (p.replicas ?? 0) + by })) })),
      })),
    };
  },
  /** Management cluster `from` named `to`. */
  renameHub(inventory: FleetInventory, from: string, to: string): FleetInventory {
    return { ...inventory, managementClusters: inventory.managementClusters.map((m) => (m.name === from ? { ...m, name: to } : m)) };
  },
  /** The cluster spec named `cluster`. */
  clusterSpec(inventory: FleetInventory, cluster: string): FleetInventory['managementClusters'][number]['clusters'][number] {
    return inventory.managementClusters.flatMap((m) => m.clusters).find((c) => c.name === cluster)!;
  },
};
