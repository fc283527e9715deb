import { IConstruct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { NodePool } from '../core/node-pool';
import { AgentNodePoolPlatform, LabelSelectorOperator } from '../platform/agent';
import { BareMetalHost } from './bare-metal-host';
import { NMStateConfig } from './nmstate-config';

const registered = new WeakSet<IConstruct>();

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
  root.node.addValidation({ validate: () => [...duplicateHardware(root), ...poolCapacity(root)] });
}

function duplicateHardware(root: IConstruct): string[] {
  const problems: string[] = [];
  const all = root.node.findAll();
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

function poolCapacity(root: IConstruct): string[] {
  const problems: string[] = [];
  const all = root.node.findAll();
  const hostsByNamespace = new Map<string, BareMetalHost[]>();
  for (const host of all.filter((c): c is BareMetalHost => c instanceof BareMetalHost)) {
    hostsByNamespace.set(host.namespace, [...(hostsByNamespace.get(host.namespace) ?? []), host]);
  }
  const demand = new Map<string, { pools: NodePool[]; hosts: Set<BareMetalHost> }>();
  for (const cluster of all.filter((c): c is HostedCluster => c instanceof HostedCluster)) {
    const namespace = cluster.agentNamespace;
    const hosts = namespace === undefined ? undefined : hostsByNamespace.get(namespace);
    // Hosts discovered by booting the ISO by hand are not declared here; nothing to check against.
    if (!namespace || !hosts) continue;
    for (const pool of cluster.pools) {
      if (!(pool.platform instanceof AgentNodePoolPlatform)) continue;
      const matching = hosts.filter((host) => selects(pool.platform as AgentNodePoolPlatform, host.agentLabels));
      const selector = describeSelector(pool.platform);
      if (matching.length === 0) {
        problems.push(`${pool.node.path}: the agent selector (${selector}) matches none of the ${hosts.length} BareMetalHosts in namespace ${namespace} (${hosts.map((h) => h.hostName).join(', ')}); the pool would wait for Agents forever`);
        continue;
      }
      if (pool.minNodes > matching.length) {
        problems.push(`${pool.node.path}: replicas (${pool.minNodes}) is more than the ${matching.length} BareMetalHosts in namespace ${namespace} its agent selector (${selector}) matches (${matching.map((h) => h.hostName).join(', ')})`);
      }
      const entry = demand.get(namespace) ?? { pools: [], hosts: new Set<BareMetalHost>() };
      entry.pools.push(pool);
      matching.forEach((h) => entry.hosts.add(h));
      demand.set(namespace, entry);
    }
  }
  // Pools sharing an inventory cannot together take more hosts than all of them can match.
  for (const [namespace, { pools, hosts }] of demand) {
    const wanted = pools.reduce((sum, p) => sum + p.minNodes, 0);
    if (pools.length > 1 && wanted > hosts.size) {
      problems.push(`${pools[0].node.path}: the Agent NodePools drawing on namespace ${namespace} (${pools.map((p) => `${p.node.path}: ${p.minNodes}`).join(', ')}) want ${wanted} hosts together, but their selectors match only ${hosts.size} BareMetalHosts`);
    }
  }
  return problems;
}

/** Label-selector semantics (matchLabels and matchExpressions, all must hold). */
function selects(platform: AgentNodePoolPlatform, labels: Readonly<Record<string, string>>): boolean {
  const { matchLabels = {}, matchExpressions = [] } = platform.props;
  if (!Object.entries(matchLabels).every(([k, v]) => labels[k] === v)) return false;
  return matchExpressions.every(({ key, operator, values = [] }) => {
    switch (operator) {
      case LabelSelectorOperator.IN: return key in labels && values.includes(labels[key]);
      case LabelSelectorOperator.NOT_IN: return !(key in labels) || !values.includes(labels[key]);
      case LabelSelectorOperator.EXISTS: return key in labels;
      case LabelSelectorOperator.DOES_NOT_EXIST: return !(key in labels);
    }
  });
}

function describeSelector(platform: AgentNodePoolPlatform): string {
  const { matchLabels = {}, matchExpressions = [] } = platform.props;
  const parts = [
    ...Object.entries(matchLabels).map(([k, v]) => `${k}=${v}`),
    ...matchExpressions.map((e) => `${e.key} ${e.operator}${e.values ? ` (${e.values.join(', ')})` : ''}`),
  ];
  return parts.length ? parts.join(', ') : 'any Agent';
}
