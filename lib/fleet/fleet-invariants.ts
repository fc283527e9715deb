import { Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { NMStateConfig } from '../baremetal/nmstate-config';
import { CidrBlock, cidrsOverlap, parseCidr, parseIPv4, parseIPv6 } from '../core/cidr';
import { allConstructs } from '../core/construct-walk';
import { HostedCluster } from '../core/hosted-cluster';
import { HcpValidationError, show } from '../core/problems';
import { ServicePublishingType } from '../core/service-publishing';
import { MetalLBIngress } from '../ingress/metallb-ingress';

// The groups declared routed together, per app root.
const routedGroups = new WeakMap<IConstruct, HostedCluster[][]>();

/**
 * The checks that span hosted clusters: names per namespace and management cluster, infra IDs,
 * explicit node ports, MetalLB address pools on one network, and the networks of clusters routed
 * together. HcpApp runs them at synth, when every construct exists, finding the clusters in the
 * tree itself; each message names the constructs it is about.
 */
export function checkFleetInvariants(root: IConstruct): string[] {
  const clusters = allConstructs(root).filter((c): c is HostedCluster => c instanceof HostedCluster);
  return [
    ...uniqueNames(clusters),
    ...uniqueInfraIds(clusters),
    ...uniqueNodePorts(clusters),
    ...disjointAddressPools(root, clusters),
    ...poolsOffNodeAddresses(root, clusters),
    ...disjointRoutedNetworks(routedGroups.get(root) ?? []),
  ];
}

/**
 * Declares that the networks of these hosted clusters are routed to each other (a flat network,
 * Submariner without Globalnet, static routes between the clusters' nodes): synth then fails when
 * a pod, service and machine network of one overlaps any network of another. A machine network
 * two of them share exactly is one node network, not a conflict. Call it once per group; a
 * cluster may be in several groups.
 */
export function routeTogether(...clusters: HostedCluster[]): void {
  const group = [...new Set(clusters)];
  if (group.length === 0) return;
  const root = group[0].node.root;
  const stranger = group.find((c) => c.node.root !== root);
  if (stranger) {
    throw new HcpValidationError([`${stranger.node.path}: routeTogether needs hosted clusters of one app, and it is not in the app of ${group[0].node.path}`]);
  }
  const groups = routedGroups.get(root) ?? [];
  routedGroups.set(root, [...groups, group]);
}

/** The management cluster a construct is applied to: the chart it is in. */
function managementClusterOf(construct: IConstruct): string {
  return Chart.of(construct).node.path;
}

/** HyperShift, the control-plane namespace `<namespace>-<name>` and the folder layout need one name per namespace. */
function uniqueNames(clusters: readonly HostedCluster[]): string[] {
  const problems: string[] = [];
  const first = new Map<string, HostedCluster>();
  for (const cluster of clusters) {
    const key = `${managementClusterOf(cluster)}\u0000${cluster.namespace}\u0000${cluster.clusterName}`;
    const earlier = first.get(key);
    if (!earlier) first.set(key, cluster);
    else {
      problems.push(
        `${cluster.node.path}: name (${show(cluster.clusterName)}) in namespace ${show(cluster.namespace)} is also used by ${earlier.node.path} ` +
          `on the same management cluster; a hosted cluster's name must be unique in its namespace`,
      );
    }
  }
  return problems;
}

/** Infra IDs name cloud resources and DNS records, which do not know about management clusters. */
function uniqueInfraIds(clusters: readonly HostedCluster[]): string[] {
  const problems: string[] = [];
  const first = new Map<string, HostedCluster>();
  for (const cluster of clusters) {
    const earlier = first.get(cluster.infraId);
    if (!earlier) first.set(cluster.infraId, cluster);
    else {
      problems.push(
        `${cluster.node.path}: infraId (${show(cluster.infraId)}) is also used by ${earlier.node.path}; ` +
          'infra IDs name cloud resources and DNS records, so every hosted cluster of the app needs its own (set infraId)',
      );
    }
  }
  return problems;
}

/**
 * Kubernetes allocates a node port once per cluster, whatever address clients use, so two
 * NodePort services asking for one port on a management cluster cannot both be created. Without a
 * port Kubernetes assigns a free one: only explicit ports can collide.
 */
function uniqueNodePorts(clusters: readonly HostedCluster[]): string[] {
  const problems: string[] = [];
  const first = new Map<string, string>();
  for (const cluster of clusters) {
    const services = [...cluster.publishedServices.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [service, publishing] of services) {
      const nodePort = publishing.type === ServicePublishingType.NODE_PORT ? publishing.strategy.nodePort : undefined;
      if (nodePort?.port === undefined) continue;
      const host = nodePort.address.includes(':') ? `[${nodePort.address}]` : nodePort.address;
      const described = `services.${service}.nodePort (${host}:${nodePort.port})`;
      const key = `${managementClusterOf(cluster)}\u0000${nodePort.port}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, `${described} of ${cluster.node.path}`);
      else {
        problems.push(
          `${cluster.node.path}: ${described} collides with ${earlier}; a node port is allocated once per management cluster ` +
            'whatever the address, so pick another port or leave it out for Kubernetes to assign one',
        );
      }
    }
  }
  return problems;
}

/** One entry of a pool's `spec.addresses`. */
interface PoolEntry {
  readonly field: string;
  readonly text: string;
  readonly family: 4 | 6;
  readonly first: bigint;
  readonly last: bigint;
}

interface Pool {
  readonly ingress: MetalLBIngress;
  readonly cluster?: HostedCluster;
  readonly entries: readonly PoolEntry[];
}

/**
 * MetalLB rejects a pool overlapping another in its cluster, and two clusters handing out one
 * address on one network answer ARP (or announce routes) for it both. Clusters whose machine
 * networks overlap are on one network; without a machine network nothing says they are.
 */
function disjointAddressPools(root: IConstruct, clusters: readonly HostedCluster[]): string[] {
  const problems: string[] = [];
  const ingresses = allConstructs(root).filter((c): c is MetalLBIngress => c instanceof MetalLBIngress);
  if (ingresses.length < 2) return problems;
  const clusterOf = guestClusters(clusters);
  const pools: Pool[] = ingresses.map((ingress) => ({ ingress, cluster: clusterOf(ingress), entries: poolEntries(ingress) }));
  for (const [j, i] of overlappingPools(pools)) {
    const [earlier, pool] = [pools[i], pools[j]];
    const where = sharedNetwork(earlier, pool);
    if (where === undefined) continue;
    for (const b of pool.entries) {
      for (const a of earlier.entries.filter((entry) => spansOverlap(entry, b))) {
        problems.push(
          `${pool.ingress.node.path}: ${b.field} (${show(b.text)}) overlaps ${a.field} (${show(a.text)}) of ${earlier.ingress.node.path} ` +
            `${where}; MetalLB address pools on one network must be disjoint`,
        );
      }
    }
  }
  return problems;
}

/**
 * A MetalLB pool must not hand out a node's own address: the Service would take the node's
 * traffic. The nodes' static addresses are those the NMStateConfigs on the cluster's management
 * cluster give their hosts, where they lie in the cluster's machine network (hosts booted by DHCP
 * are not known at synth).
 */
function poolsOffNodeAddresses(root: IConstruct, clusters: readonly HostedCluster[]): string[] {
  const configs = allConstructs(root).filter((c): c is NMStateConfig => c instanceof NMStateConfig && c.staticAddresses.length > 0);
  if (configs.length === 0) return [];
  const ingresses = allConstructs(root).filter((c): c is MetalLBIngress => c instanceof MetalLBIngress);
  const clusterOf = guestClusters(clusters);
  const problems: string[] = [];
  for (const ingress of ingresses) {
    const cluster = clusterOf(ingress);
    if (!cluster) continue;
    const machineNetworks = blocks(cluster.networks.machineNetwork);
    const nodes = configs
      .filter((config) => managementClusterOf(config) === managementClusterOf(cluster))
      .flatMap((config) => config.staticAddresses.map((address) => ({ config, address })))
      .filter(({ address }) => machineNetworks.some((net) => net.family === address.family && net.first <= address.value && address.value <= net.last));
    for (const entry of poolEntries(ingress)) {
      for (const { config, address } of nodes) {
        if (entry.family !== address.family || address.value < entry.first || address.value > entry.last) continue;
        problems.push(
          `${ingress.node.path}: ${entry.field} (${show(entry.text)}) covers ${address.ip}, the static address of ${address.interface} ` +
            `in ${config.node.path}; a MetalLB pool must not hand out a node's own address`,
        );
      }
    }
  }
  return problems;
}

/**
 * The pairs of pools with overlapping addresses, as [later, earlier] indexes in pool order. One
 * sweep over the spans sorted by their first address, not a look at every pair: a fleet has
 * hundreds of pools and almost none overlap.
 */
function overlappingPools(pools: readonly Pool[]): [number, number][] {
  const spans = pools.flatMap((pool, index) => pool.entries.map((entry) => ({ index, entry })));
  spans.sort((x, y) => x.entry.family - y.entry.family || compareBigInts(x.entry.first, y.entry.first));
  const pairs = new Map<string, [number, number]>();
  let open: typeof spans = [];
  for (const span of spans) {
    open = open.filter((other) => spansOverlap(other.entry, span.entry));
    for (const other of open) {
      if (other.index === span.index) continue;
      const pair: [number, number] = [Math.max(other.index, span.index), Math.min(other.index, span.index)];
      pairs.set(pair.join(), pair);
    }
    open.push(span);
  }
  return [...pairs.values()].sort(([a, b], [c, d]) => a - c || b - d);
}

function compareBigInts(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Why two pools are on one network, or undefined when they are not. */
function sharedNetwork(a: Pool, b: Pool): string | undefined {
  if (Chart.of(a.ingress) === Chart.of(b.ingress)) return 'in the same hosted cluster';
  if (!a.cluster || !b.cluster || managementClusterOf(a.cluster) !== managementClusterOf(b.cluster)) return undefined;
  for (const x of blocks(a.cluster.networks.machineNetwork)) {
    for (const y of blocks(b.cluster.networks.machineNetwork)) {
      if (!cidrsOverlap(x, y)) continue;
      const networks = x.canonical === y.canonical ? `machine network ${show(x.text)}` : `overlapping machine networks ${show(x.text)} and ${show(y.text)}`;
      return `(${a.cluster.node.path} and ${b.cluster.node.path} share ${networks})`;
    }
  }
  return undefined;
}

/**
 * Finds the hosted cluster whose guest chart holds an ingress (its constructor made sure it is
 * one), by the guest folder's name. The chart's folder is taken, so `guest` never creates one
 * here: it returns the cluster's own chart, or throws for a cluster of the same name in another
 * namespace or management cluster.
 */
function guestClusters(clusters: readonly HostedCluster[]): (ingress: MetalLBIngress) => HostedCluster | undefined {
  const byFolder = new Map<string, HostedCluster[]>();
  for (const cluster of clusters) {
    const folder = `${cluster.clusterName}-guest`;
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), cluster]);
  }
  return (ingress) => {
    const chart = Chart.of(ingress);
    return byFolder.get(chart.node.id)?.find((cluster) => {
      if (chart.node.scope !== cluster.node.root) return false;
      try {
        return cluster.guest === chart;
      } catch {
        return false;
      }
    });
  };
}

/** The pool's `spec.addresses` as spans; the MetalLBIngress constructor has validated them. */
function poolEntries(ingress: MetalLBIngress): PoolEntry[] {
  const entries: PoolEntry[] = [];
  ingress.addresses.forEach((address, i) => {
    const field = `addresses[${i}]`;
    if (address.includes('/')) {
      const block = parseCidr(address);
      if (block) entries.push({ field, text: address, family: block.family, first: block.first, last: block.last });
      return;
    }
    const [from, to] = address.split('-');
    const family = from.includes(':') ? 6 : 4;
    const parse = family === 6 ? parseIPv6 : parseIPv4;
    const first = parse(from);
    const last = parse(to ?? from);
    // The pool writes a single address as `a-a`; show it as the user gave it.
    if (first !== undefined && last !== undefined) entries.push({ field, text: from === to ? from : address, family, first, last });
  });
  return entries;
}

function spansOverlap(a: PoolEntry, b: PoolEntry): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}

function blocks(cidrs: readonly string[]): CidrBlock[] {
  return cidrs.map((text) => parseCidr(text)).filter((block): block is CidrBlock => block !== undefined);
}

const NETWORK_FIELDS = ['clusterNetwork', 'serviceNetwork', 'machineNetwork'] as const;

/** Routed together, an address in two clusters' networks has two destinations. */
function disjointRoutedNetworks(groups: readonly (readonly HostedCluster[])[]): string[] {
  const problems: string[] = [];
  const checked = new Set<string>();
  for (const group of groups) {
    group.forEach((cluster, j) => {
      for (const earlier of group.slice(0, j)) {
        const pair = [earlier.node.path, cluster.node.path].sort().join('\u0000');
        if (checked.has(pair)) continue;
        checked.add(pair);
        for (const b of networkBlocks(cluster)) {
          for (const a of networkBlocks(earlier).filter((entry) => cidrsOverlap(entry.block, b.block))) {
            // One node network both clusters' nodes sit on is not a routing conflict.
            if (a.kind === 'machineNetwork' && b.kind === 'machineNetwork' && a.block.canonical === b.block.canonical) continue;
            problems.push(
              `${cluster.node.path}: networking.${b.field} (${show(b.block.text)}) overlaps networking.${a.field} (${show(a.block.text)}) ` +
                `of ${earlier.node.path}, which it is routed together with; clusters routed together need disjoint pod, service and machine networks`,
            );
          }
        }
      }
    });
  }
  return problems;
}

function networkBlocks(cluster: HostedCluster): { kind: (typeof NETWORK_FIELDS)[number]; field: string; block: CidrBlock }[] {
  return NETWORK_FIELDS.flatMap((kind) =>
    cluster.networks[kind].flatMap((text, i) => {
      const block = parseCidr(text);
      return block ? [{ kind, field: `${kind}[${i}]`, block }] : [];
    }),
  );
}
