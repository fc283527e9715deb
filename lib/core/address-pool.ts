import { CidrBlock, parseCidr, parseIPv4, parseIPv6 } from './cidr';
import { show } from './problems';

/**
 * The rules of a MetalLB address pool (`spec.addresses` of an IPAddressPool), shared by the
 * constructs that write pools and by `hcp-cdk validate`'s lint of pools written by hand: each
 * function names fields as its caller gives them and returns the problems, one sentence each.
 */

const ADDRESS_RULE = 'must be an IPv4 or IPv6 address, a range "first-last" or a CIDR block';

/** A parsed entry of a pool's addresses: one contiguous span of one family. */
export interface AddressSpan {
  /** The field it was read from, for messages. */
  readonly field: string;
  /** The entry as written. */
  readonly text: string;
  /** The address family. */
  readonly family: 4 | 6;
  /** The first address, as a number. */
  readonly first: bigint;
  /** The last address, as a number. */
  readonly last: bigint;
}

/** A CIDR of a cluster's network, with the field it is named by in messages. */
export interface NamedCidr {
  readonly field: string;
  readonly text: string;
}

/** The networks of the hosted cluster a pool serves, each CIDR named by its field. */
export interface PoolClusterNetworks {
  /** How messages name the cluster, e.g. `of cluster "vcluster2"`. */
  readonly cluster: string;
  readonly clusterNetwork: readonly NamedCidr[];
  readonly serviceNetwork: readonly NamedCidr[];
  /** Empty when the cluster declares none: nothing to check layer 2 addresses against. */
  readonly machineNetwork: readonly NamedCidr[];
  /** How messages name the machine network as a whole, e.g. `networking.machineNetwork`. */
  readonly machineNetworkField: string;
}

function parseIP(text: string): { family: 4 | 6; value: bigint } | undefined {
  const family = text.includes(':') ? 6 : 4;
  const value = family === 6 ? parseIPv6(text) : parseIPv4(text);
  return value === undefined ? undefined : { family, value };
}

/** Parses each address, range or CIDR block the way MetalLB reads a pool's `spec.addresses`. */
export function parseAddressPool(addresses: readonly unknown[], fieldOf: (index: number) => string, listField: string): { spans: AddressSpan[]; problems: string[] } {
  const problems: string[] = [];
  if (addresses.length === 0) problems.push(`${listField} ([]) must list at least one address, range "first-last" or CIDR block`);
  const spans: AddressSpan[] = [];
  addresses.forEach((entry, i) => {
    const field = fieldOf(i);
    if (typeof entry !== 'string') {
      problems.push(`${field} (${show(entry)}) ${ADDRESS_RULE}`);
      return;
    }
    const text = entry;
    const bounds = text.split('-');
    if (text.includes('/')) {
      const block: CidrBlock | undefined = parseCidr(text);
      if (!block) {
        problems.push(`${field} (${show(text)}) ${ADDRESS_RULE}`);
      } else if (block.hostBitsSet) {
        // MetalLB would silently take the whole network, not the address the user probably meant.
        problems.push(`${field} (${show(text)}) has host bits set; write it as ${block.canonical}, or as the single address without a prefix`);
      } else {
        spans.push({ field, text, family: block.family, first: block.first, last: block.last });
      }
    } else if (bounds.length === 2) {
      const [first, last] = bounds.map(parseIP);
      if (!first || !last) problems.push(`${field} (${show(text)}) ${ADDRESS_RULE}`);
      else if (first.family !== last.family) problems.push(`${field} (${show(text)}) must not mix IPv4 and IPv6: both ends of a range are of one family`);
      else if (first.value > last.value) problems.push(`${field} (${show(text)}) must start at or below its end: write ${show(`${bounds[1]}-${bounds[0]}`)}`);
      else spans.push({ field, text, family: first.family, first: first.value, last: last.value });
    } else {
      const address = bounds.length === 1 ? parseIP(text) : undefined;
      if (!address) problems.push(`${field} (${show(text)}) ${ADDRESS_RULE}`);
      else spans.push({ field, text, family: address.family, first: address.value, last: address.value });
    }
  });
  return { spans, problems };
}

/** Whether two spans of addresses share one. */
export function spansOverlap(a: { family: number; first: bigint; last: bigint }, b: { family: number; first: bigint; last: bigint }): boolean {
  return a.family === b.family && a.first <= b.last && b.first <= a.last;
}

/** MetalLB rejects a pool whose entries overlap. */
export function poolEntryOverlaps(spans: readonly AddressSpan[]): string[] {
  const problems: string[] = [];
  spans.forEach((span, j) => {
    const earlier = spans.slice(0, j).find((other) => spansOverlap(other, span));
    if (earlier) problems.push(`${span.field} (${show(span.text)}) overlaps ${earlier.field} (${show(earlier.text)}); the entries of a pool must be disjoint`);
  });
  return problems;
}

/**
 * Load-balancer addresses against the networks of the cluster they serve: outside its pod and
 * service networks; with layer 2 inside its machine network (ARP and NDP are answered on the node
 * subnet only) but not the whole of it (the nodes' own addresses are in it, and MetalLB would hand
 * them to Services); with BGP outside it (the announced routes would shadow node addresses).
 */
export function poolNetworkProblems(spans: readonly AddressSpan[], networks: PoolClusterNetworks, mode: 'layer2' | 'bgp'): string[] {
  const problems: string[] = [];
  const blocks = (cidrs: readonly NamedCidr[]) =>
    cidrs.map((cidr) => ({ ...cidr, block: parseCidr(cidr.text) })).filter((entry): entry is NamedCidr & { block: CidrBlock } => entry.block !== undefined);
  const internal = [...blocks(networks.clusterNetwork), ...blocks(networks.serviceNetwork)];
  const machine = blocks(networks.machineNetwork);
  const where = networks.cluster;
  for (const span of spans) {
    for (const network of internal.filter((n) => spansOverlap(n.block, span))) {
      problems.push(`${span.field} (${show(span.text)}) overlaps ${network.field} (${show(network.text)}) ${where}; load-balancer addresses must lie outside the pod and service networks`);
    }
    if (mode === 'layer2' && machine.length > 0) {
      const whole = machine.find((n) => n.block.family === span.family && span.first <= n.block.first && n.block.last <= span.last);
      if (whole) {
        problems.push(
          `${span.field} (${show(span.text)}) covers the whole of ${whole.field} (${show(whole.text)}) ${where}, the nodes' own addresses among them, which MetalLB would hand to Services; ` +
            'give the free addresses of the network, e.g. a range "first-last"',
        );
      } else if (!machine.some((n) => n.block.family === span.family && n.block.first <= span.first && span.last <= n.block.last)) {
        problems.push(
          `${span.field} (${show(span.text)}) is outside any valid range: layer 2 mode answers ARP and NDP only on the node subnet, ` +
            `so it must lie inside ${networks.machineNetworkField} (${show(machine.map((n) => n.text))}) ${where}; use MetalLBAdvertisement.bgp() for other addresses`,
        );
      }
    }
    if (mode === 'bgp') {
      for (const network of machine.filter((n) => spansOverlap(n.block, span))) {
        problems.push(
          `${span.field} (${show(span.text)}) overlaps ${network.field} (${show(network.text)}) ${where}; ` +
            'in BGP mode the announced routes would shadow node addresses, so use addresses outside the machine network',
        );
      }
    }
  }
  return problems;
}
