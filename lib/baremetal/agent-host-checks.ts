import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { allConstructs, nearestInScopes } from '../core/construct-walk';
import { reportProblems, show } from '../core/problems';
import { HostedCluster } from '../core/hosted-cluster';
import { NodePool } from '../core/node-pool';
import { AgentNodePoolPlatform, LabelSelectorOperator } from '../platform/agent';
import { BareMetalHost } from './bare-metal-host';
import { NMStateConfig } from './nmstate-config';

const registered = new WeakSet<IConstruct>();
/** Why the hosts under a construct may wait for no cluster, per construct. */
const waived = new WeakMap<IConstruct, string>();

/** Options of `allowHostsWithoutCluster`. */
export interface AllowHostsWithoutClusterOptions {
  /** Why these hosts wait for no cluster (spares, an inventory for clusters to come); written nowhere, required so that the choice is explicit in code review. */
  readonly reason: string;
}

/**
 * Lets the BareMetalHosts under `scope` (an InfraEnv, a ManagementCluster, a host) sit in a namespace
 * that no Agent HostedCluster on their management cluster takes Agents from. Without it synth fails
 * for such hosts: they become Agents that no cluster ever uses as nodes.
 */
export function allowHostsWithoutCluster(scope: IConstruct, options: AllowHostsWithoutClusterOptions): void {
  const reason: unknown = options?.reason;
  if (typeof reason !== 'string' || reason.trim() === '') {
    reportProblems(scope, [`${scope.node.path}: allowHostsWithoutCluster reason (${show(reason)}) must say why these hosts wait for no cluster, e.g. "spares for the clusters of next quarter"`]);
    return;
  }
  waived.set(scope, reason);
}

function isWaived(host: IConstruct): boolean {
  return nearestInScopes(host, (scope) => waived.get(scope)) !== undefined;
}

/**
 * Registers, once per app, the checks that span hosts and node pools: no two hosts share a MAC
 * address or a BMC, and every Agent NodePool can be filled from the BareMetalHosts declared in its
 * cluster's agent namespace. They run at synth, when every construct exists; each message names
 * the construct it is about.
 */
export function registerAgentHostChecks(scope: IConstruct): void {
  const root = scope.node.root;
  if (registered.has(root)) return;
  registered.add(root);
  root.node.addValidation({
    validate: () => {
      const all = allConstructs(root);
      return [...unwatchedHosts(all), ...duplicateHardware(all), ...poolCapacity(all)];
    },
  });
}

/**
 * Hosts whose Agents no cluster takes: their namespace is the agent namespace of no Agent
 * HostedCluster on their management cluster, so they would never become nodes. An inventory kept
 * for clusters to come says so with allowHostsWithoutCluster.
 */
function unwatchedHosts(all: readonly IConstruct[]): string[] {
  const problems: string[] = [];
  const watched = new Set<string>();
  // The other side of a mismatch: which namespace each Agent cluster of a hub does take Agents from.
  const takenFrom = new Map<string, string[]>();
  for (const cluster of all) {
    if (!(cluster instanceof HostedCluster) || cluster.agentNamespace === undefined) continue;
    watched.add(`${Chart.of(cluster).node.path}\u0000${cluster.agentNamespace}`);
    const hub = Chart.of(cluster).node.path;
    takenFrom.set(hub, [...(takenFrom.get(hub) ?? []), `${cluster.node.path} takes them from ${show(cluster.agentNamespace)}`]);
  }
  const hostsByNamespace = new Map<string, BareMetalHost[]>();
  for (const host of all) {
    if (!(host instanceof BareMetalHost) || isWaived(host)) continue;
    const key = `${Chart.of(host).node.path}\u0000${host.namespace}`;
    hostsByNamespace.set(key, [...(hostsByNamespace.get(key) ?? []), host]);
  }
  for (const [key, hosts] of hostsByNamespace) {
    if (watched.has(key)) continue;
    const others = takenFrom.get(Chart.of(hosts[0]).node.path);
    const taking = others ? `: ${others.join(', ')}` : '';
    problems.push(
      `${hosts[0].infraEnv.node.path}: namespace (${show(hosts[0].namespace)}) holds ${hosts.length} BareMetalHost${hosts.length === 1 ? '' : 's'} (${hosts.map((h) => h.hostName).join(', ')}), ` +
        `but no Agent HostedCluster on ${Chart.of(hosts[0]).node.path} takes Agents from it (platform.agentNamespace${taking}), so they would never become nodes; ` +
        'give a cluster that agent namespace, or keep them as spares with allowHostsWithoutCluster(scope, { reason })',
    );
  }
  return problems;
}

function duplicateHardware(all: readonly IConstruct[]): string[] {
  const problems: string[] = [];
  const hosts = all.filter((c): c is BareMetalHost => c instanceof BareMetalHost);
  const firstByMac = new Map<string, string>();
  const firstByBmc = new Map<string, string>();
  const claim = (index: Map<string, string>, key: string, path: string, what: string) => {
    const first = index.get(key);
    if (first === undefined) index.set(key, path);
    else if (first !== path) problems.push(`${path}: ${what} is also used by ${first}; every host needs its own`);
  };
  for (const host of hosts) {
    claim(firstByMac, host.bootMacAddress, host.node.path, `bootMacAddress (${JSON.stringify(host.bootMacAddress)})`);
    claim(firstByBmc, host.bmcEndpoint, host.node.path, `bmc.address (endpoint ${JSON.stringify(host.bmcEndpoint)})`);
  }
  // A host's own NMStateConfig may list its boot NIC; another host's may not.
  for (const config of all.filter((c): c is NMStateConfig => c instanceof NMStateConfig)) {
    const owner = config.node.scope instanceof BareMetalHost ? config.node.scope.node.path : config.node.path;
    for (const mac of new Set(config.macAddresses.map((m) => m.toLowerCase()))) claim(firstByMac, mac, owner, `interface MAC address (${JSON.stringify(mac)})`);
  }
  return problems;
}

function poolCapacity(all: readonly IConstruct[]): string[] {
  const problems: string[] = [];
  // Hosts serve the management cluster (chart) they are declared for, in their namespace.
  const inventoryKey = (scope: IConstruct, namespace: string) => `${Chart.of(scope).node.path}\u0000${namespace}`;
  const hostsByInventory = new Map<string, BareMetalHost[]>();
  for (const host of all.filter((c): c is BareMetalHost => c instanceof BareMetalHost)) {
    const key = inventoryKey(host, host.namespace);
    hostsByInventory.set(key, [...(hostsByInventory.get(key) ?? []), host]);
  }
  const demand = new Map<string, { namespace: string; pools: NodePool[]; candidates: BareMetalHost[][] }>();
  for (const pool of all.filter((c): c is NodePool => c instanceof NodePool)) {
    const cluster = pool.cluster;
    if (!(cluster instanceof HostedCluster) || !(pool.platform instanceof AgentNodePoolPlatform)) continue;
    const namespace = cluster.agentNamespace;
    const hosts = namespace === undefined ? undefined : hostsByInventory.get(inventoryKey(cluster, namespace));
    // Hosts discovered by booting the ISO by hand are not declared here; nothing to check against.
    if (!namespace || !hosts || pool.maxNodes === 0) continue;
    const matching = hosts.filter((host) => selects(pool.platform as AgentNodePoolPlatform, host.agentLabels));
    const selector = describeSelector(pool.platform);
    if (matching.length === 0) {
      problems.push(
        `${pool.node.path}: the agent selector (${selector}) matches none of the ${hosts.length} BareMetalHosts in namespace ${namespace} (${hosts.map((h) => h.hostName).join(', ')}); the pool would wait for Agents forever`,
      );
      continue;
    }
    if (pool.minNodes > matching.length) {
      problems.push(
        `${pool.node.path}: ${wantedField(pool)} (${pool.minNodes}) is more than the ${matching.length} BareMetalHosts in namespace ${namespace} its agent selector (${selector}) matches (${matching.map((h) => h.hostName).join(', ')})`,
      );
      continue;
    }
    const key = inventoryKey(cluster, namespace);
    const entry = demand.get(key) ?? { namespace, pools: [], candidates: [] };
    entry.pools.push(pool);
    entry.candidates.push(matching);
    demand.set(key, entry);
  }
  // Pools sharing an inventory must be fillable together: each host serves one pool (a matching).
  for (const { namespace, pools, candidates } of demand.values()) {
    if (pools.length < 2) continue;
    const filled = maximumAssignment(
      pools.map((p) => p.minNodes),
      candidates,
    );
    const wanted = pools.reduce((sum, p) => sum + p.minNodes, 0);
    if (filled < wanted) {
      problems.push(
        `${pools[0].node.path}: the Agent NodePools drawing on namespace ${namespace} (${pools.map((p) => `${p.node.path}: ${p.minNodes}`).join(', ')}) want ${wanted} hosts together, but their selectors let at most ${filled} of the BareMetalHosts serve them at once`,
      );
    }
  }
  return problems;
}

function wantedField(pool: NodePool): string {
  return pool.minNodes === pool.maxNodes ? 'replicas' : 'autoScaling.min';
}

/**
 * How many of the pools' wanted nodes can be served at once when each host serves one pool and
 * only pools whose selector matches it: a bipartite matching, grown by augmenting paths.
 */
function maximumAssignment(wanted: number[], candidates: BareMetalHost[][]): number {
  const slots = wanted.flatMap((count, pool) => Array<number>(count).fill(pool));
  const ownerOf = new Map<BareMetalHost, number>();
  const tryAssign = (slot: number, seen: Set<BareMetalHost>): boolean => {
    for (const host of candidates[slots[slot]]) {
      if (seen.has(host)) continue;
      seen.add(host);
      const owner = ownerOf.get(host);
      if (owner === undefined || tryAssign(owner, seen)) {
        ownerOf.set(host, slot);
        return true;
      }
    }
    return false;
  };
  return slots.filter((_, slot) => tryAssign(slot, new Set())).length;
}

/** Label-selector semantics (matchLabels and matchExpressions, all must hold). */
function selects(platform: AgentNodePoolPlatform, labels: Readonly<Record<string, string>>): boolean {
  const { matchLabels = {}, matchExpressions = [] } = platform.props;
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return matchExpressions.every(({ key, operator, values = [] }) => {
    switch (operator) {
      case LabelSelectorOperator.IN:
        return key in labels && values.includes(labels[key]);
      case LabelSelectorOperator.NOT_IN:
        return !(key in labels) || !values.includes(labels[key]);
      case LabelSelectorOperator.EXISTS:
        return key in labels;
      case LabelSelectorOperator.DOES_NOT_EXIST:
        return !(key in labels);
    }
  });
}

function describeSelector(platform: AgentNodePoolPlatform): string {
  const { matchLabels = {}, matchExpressions = [] } = platform.props;
  const parts = [...Object.entries(matchLabels).map(([k, v]) => `${k}=${v}`), ...matchExpressions.map((e) => `${e.key} ${e.operator}${e.values ? ` (${e.values.join(', ')})` : ''}`)];
  return parts.length ? parts.join(', ') : 'any Agent';
}
