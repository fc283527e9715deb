import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { CidrBlock, cidrsOverlap, parseCidr } from './cidr';
import { Problems, show } from './problems';

/** The cluster network plugin (`spec.networking.networkType`), e.g. `OVNKubernetes`. */
export const NetworkType = hc.HostedClusterSpecNetworkingNetworkType;
export type NetworkType = hc.HostedClusterSpecNetworkingNetworkType;

/** The `hcp` CLI defaults (support/globalconfig/network.go). */
export const DEFAULT_CLUSTER_NETWORK = {
  /** IPv4. */
  ipv4: '10.132.0.0/14',
  /** IPv6. */
  ipv6: 'fd01::/48',
};
/** The `hcp` CLI defaults of the service network (support/globalconfig/network.go). */
export const DEFAULT_SERVICE_NETWORK = {
  /** IPv4. */
  ipv4: '172.31.0.0/16',
  /** IPv6. */
  ipv6: 'fd02::/112',
};

const OVN_MTU = { min: 576, max: 9216 };
/** The prefix each node gets of the cluster network when none is given (OpenShift's network operator). */
export const DEFAULT_HOST_PREFIX = {
  /** IPv4. */
  ipv4: 23,
  /** IPv6. */
  ipv6: 64,
};
/**
 * The largest service networks the Kubernetes API server accepts (kube-apiserver refuses a range
 * with more than 20 host bits: /12 for IPv4, /108 for IPv6).
 */
const MAX_SERVICE_HOST_BITS = 20;

/** Props of a hosted cluster's networks (HostedClusterProps.networking). */
export interface NetworkingProps {
  /**
   * Pod network CIDRs (one IPv4 and one IPv6 for dual stack).
   * @default ['10.132.0.0/14'], plus 'fd01::/48' with `dualStack`
   */
  readonly clusterNetwork?: string[];
  /**
   * Service network CIDRs.
   * @default ['172.31.0.0/16'], plus 'fd02::/112' with `dualStack`
   */
  readonly serviceNetwork?: string[];
  /**
   * The networks the nodes are on.
   * @default - none (AWS: the VPC CIDR)
   */
  readonly machineNetwork?: string[];
  /**
   * Use the IPv4 and IPv6 defaults together, as `--default-dual` does.
   * @default false
   */
  readonly dualStack?: boolean;
  /**
   * The prefix length of the block each node gets of the IPv4 cluster network (`hostPrefix`); the
   * cluster network must be at least that large.
   * @default - the network operator's 23 (and 64 for IPv6)
   */
  readonly hostPrefix?: number;
  /** @default NetworkType.OVN_KUBERNETES */
  readonly networkType?: NetworkType;
  /**
   * The MTU of the OVN-Kubernetes overlay (576 to 9216).
   * @default - OVN-Kubernetes derives it from the node MTU
   */
  readonly ovnMtu?: number;
}

/** The CIDRs of a hosted cluster's networks, as written to `spec.networking`. */
export interface ClusterNetworks {
  /** The cluster (pod) network CIDRs. */
  readonly clusterNetwork: readonly string[];
  /** The service network CIDRs. */
  readonly serviceNetwork: readonly string[];
  /** Empty when the cluster declares no machine network. */
  readonly machineNetwork: readonly string[];
}

/** A cluster's networking, rendered: the CIDRs, `spec.networking` and the network operator's configuration. */
export interface RenderedNetworking {
  /** The CIDRs of each network. */
  readonly networks: ClusterNetworks;
  /** `spec.networking`. */
  readonly networking: hc.HostedClusterSpecNetworking;
  /** `spec.operatorConfiguration`, when the networking needs one (an MTU, OVN's internal subnets). @default - none */
  readonly operatorConfiguration?: hc.HostedClusterSpecOperatorConfiguration;
}

/** The networks of a cluster, as the rules below read them: every CIDR as written, with its hostPrefix. */
export interface ClusterNetworkInput {
  /** The cluster network entries, each with its hostPrefix. */
  readonly clusterNetwork: readonly {
    /** The CIDR, as written. */
    readonly cidr: unknown;
    /** The prefix each node gets, as written. */
    readonly hostPrefix?: unknown;
  }[];
  /** The service network entries. */
  readonly serviceNetwork: readonly {
    /** The CIDR, as written. */
    readonly cidr: unknown;
  }[];
  /** Undefined when the cluster declares none. */
  readonly machineNetwork?: readonly {
    /** The CIDR, as written. */
    readonly cidr: unknown;
  }[];
}

/** The name of one of a cluster's networks, as `spec.networking` names it. */
export type NetworkName = 'clusterNetwork' | 'serviceNetwork' | 'machineNetwork';

/** How the rules name fields: construct props (`clusterNetwork[0]`) or the object (`spec.networking.clusterNetwork[0].cidr`). */
export interface NetworkFieldNames {
  /** A network list, where a problem of the list is reported. */
  list(network: NetworkName): string;
  /** One CIDR, where a problem of it is reported. */
  cidr(network: NetworkName, index: number): string;
  /** One CIDR named inside a message about another. */
  refCidr(network: NetworkName, index: number): string;
  /** A network list named inside a message about another. */
  refList(network: NetworkName): string;
  /** The hostPrefix of a cluster network entry. */
  hostPrefix(index: number): string;
}

/** The problems of a cluster's networks, by rule: overlapping networks, and each network's own shape. */
export interface NetworkProblems {
  /** CIDRs of different networks that contain or overlap each other (the CRD's rule compares equal ranges only). */
  readonly overlaps: string[];
  /** Syntax, canonical form, count, families and their order, and the sizes the API server and node allocation accept. */
  readonly shape: string[];
}

/**
 * The rules of a hosted cluster's networks, one source for HostedCluster (at synth) and for the lint
 * of hand-written HostedClusters (`hcp-cdk validate`): each problem a sentence starting with the
 * field `names` gives it.
 * @param checkSyntax report CIDRs that do not parse (the CRD's own rules do for hand-written objects)
 */
export function clusterNetworkProblems(input: ClusterNetworkInput, names: NetworkFieldNames, checkSyntax = true): NetworkProblems {
  const shape: string[] = [];
  const parsed: ParsedCidr[] = [];
  const parseAll = (network: NetworkName, entries: readonly { readonly cidr: unknown; readonly hostPrefix?: unknown }[]) => {
    const cidrs = entries.map((e) => e.cidr);
    if (entries.length === 0) shape.push(`${names.list(network)} ([]) must list at least one CIDR`);
    if (entries.length > 2) shape.push(`${names.list(network)} (${JSON.stringify(cidrs)}) must list at most two CIDRs (one IPv4, one IPv6)`);
    const families = new Set<number>();
    entries.forEach((entry, i) => {
      const block = typeof entry.cidr === 'string' ? parseCidr(entry.cidr) : undefined;
      if (!block) {
        if (checkSyntax) shape.push(`${names.cidr(network, i)} (${JSON.stringify(entry.cidr)}) must be a CIDR block such as 10.132.0.0/14 or fd01::/48`);
        return;
      }
      // Host bits set: the API server and OVN would read a different network than the user meant.
      if (block.hostBitsSet) shape.push(`${names.cidr(network, i)} (${JSON.stringify(entry.cidr)}) has host bits set; write it as ${block.canonical}`);
      if (families.has(block.family)) shape.push(`${names.list(network)} (${JSON.stringify(cidrs)}) must not list two IPv${block.family} CIDRs`);
      families.add(block.family);
      parsed.push({ network, index: i, block, hostPrefix: entry.hostPrefix });
    });
  };
  parseAll('clusterNetwork', input.clusterNetwork);
  parseAll('serviceNetwork', input.serviceNetwork);
  if (input.machineNetwork) parseAll('machineNetwork', input.machineNetwork);
  shape.push(...familyProblems(parsed, names), ...sizeProblems(parsed, names));

  const overlaps: string[] = [];
  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i];
      const b = parsed[j];
      if (a.network !== b.network && cidrsOverlap(a.block, b.block)) {
        overlaps.push(
          `${names.cidr(a.network, a.index)} (${JSON.stringify(a.block.text)}) overlaps ${names.refCidr(b.network, b.index)} (${JSON.stringify(b.block.text)}); pod, service and machine networks must be disjoint`,
        );
      }
    }
  }
  return { overlaps, shape };
}

/** How HostedCluster's props name the fields, under `networking.`. */
const PROP_NAMES: NetworkFieldNames = {
  list: (network) => network,
  cidr: (network, index) => `${network}[${index}]`,
  refCidr: (network, index) => `networking.${network}[${index}]`,
  refList: (network) => network,
  hostPrefix: () => 'hostPrefix',
};

/**
 * Builds `spec.networking` and checks the CIDRs: syntax, canonical form, overlaps, families that
 * agree between the networks (and in the same order, dual stack), sizes the API server and the
 * node allocation accept. Problems are recorded under `networking.`.
 */
export function renderNetworking(props: NetworkingProps, problems: Problems, platformMachineNetwork?: readonly string[]): RenderedNetworking {
  const dual = props.dualStack ?? false;
  const clusterNetwork = props.clusterNetwork ?? (dual ? [DEFAULT_CLUSTER_NETWORK.ipv4, DEFAULT_CLUSTER_NETWORK.ipv6] : [DEFAULT_CLUSTER_NETWORK.ipv4]);
  const serviceNetwork = props.serviceNetwork ?? (dual ? [DEFAULT_SERVICE_NETWORK.ipv4, DEFAULT_SERVICE_NETWORK.ipv6] : [DEFAULT_SERVICE_NETWORK.ipv4]);
  const machineNetwork = props.machineNetwork ?? (platformMachineNetwork ? [...platformMachineNetwork] : undefined);
  const networkType = props.networkType ?? NetworkType.OVN_KUBERNETES;

  if (props.hostPrefix !== undefined && !isHostPrefix(props.hostPrefix)) {
    problems.add(`hostPrefix (${show(props.hostPrefix)}) must be a whole number from 1 to 30`);
  }
  const checked = clusterNetworkProblems(
    {
      clusterNetwork: clusterNetwork.map((cidr) => ({ cidr, hostPrefix: cidr.includes(':') ? undefined : props.hostPrefix })),
      serviceNetwork: serviceNetwork.map((cidr) => ({ cidr })),
      machineNetwork: machineNetwork?.map((cidr) => ({ cidr })),
    },
    PROP_NAMES,
  );
  // In the order the checks ran before they were shared: each CIDR, families and sizes, then overlaps.
  for (const problem of [...checked.shape, ...checked.overlaps]) problems.add(problem);

  if (props.ovnMtu !== undefined) {
    if (networkType !== NetworkType.OVN_KUBERNETES) problems.add(`ovnMtu (${show(props.ovnMtu)}) needs networkType OVNKubernetes, not ${networkType}`);
    if (!Number.isInteger(props.ovnMtu) || props.ovnMtu < OVN_MTU.min || props.ovnMtu > OVN_MTU.max) {
      problems.add(`ovnMtu (${show(props.ovnMtu)}) must be a whole number from ${OVN_MTU.min} to ${OVN_MTU.max}`);
    }
  }

  return {
    networks: { clusterNetwork, serviceNetwork, machineNetwork: machineNetwork ?? [] },
    networking: {
      clusterNetwork: clusterNetwork.map((cidr) => ({ cidr, hostPrefix: props.hostPrefix !== undefined && !cidr.includes(':') ? props.hostPrefix : undefined })),
      serviceNetwork: serviceNetwork.map((cidr) => ({ cidr })),
      machineNetwork: machineNetwork?.map((cidr) => ({ cidr })),
      networkType,
    },
    operatorConfiguration:
      props.ovnMtu === undefined
        ? undefined
        : {
            clusterNetworkOperator: { ovnKubernetesConfig: { mtu: props.ovnMtu } },
          },
  };
}

type ParsedCidr = { readonly network: NetworkName; readonly index: number; readonly block: CidrBlock; readonly hostPrefix?: unknown };

function isHostPrefix(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 30;
}

/** The networks of one cluster share its address families, in one order: the first is the primary family everywhere. */
function familyProblems(parsed: readonly ParsedCidr[], names: NetworkFieldNames): string[] {
  const problems: string[] = [];
  const byNetwork = new Map<NetworkName, ParsedCidr[]>();
  for (const entry of parsed) byNetwork.set(entry.network, [...(byNetwork.get(entry.network) ?? []), entry]);
  const families = (entries: readonly ParsedCidr[]) => entries.map((e) => `IPv${e.block.family}`).join(', ');
  // A network listing one family twice is reported already, and has no order to compare.
  const [reference, ...others] = [...byNetwork].filter(([, entries]) => new Set(entries.map((e) => e.block.family)).size === entries.length);
  if (!reference) return problems;
  const [referenceName, referenceEntries] = reference;
  for (const [name, entries] of others) {
    const same = families(entries) === families(referenceEntries);
    const sameSet = new Set(entries.map((e) => e.block.family)).size === new Set([...entries, ...referenceEntries].map((e) => e.block.family)).size && entries.length === referenceEntries.length;
    if (same) continue;
    problems.push(
      sameSet
        ? `${names.list(name)} (${JSON.stringify(entries.map((e) => e.block.text))}) lists its families as ${families(entries)}, but ${names.refList(referenceName)} as ${families(referenceEntries)}; dual-stack networks must list IPv4 and IPv6 in the same order (the first is the primary family)`
        : `${names.list(name)} (${JSON.stringify(entries.map((e) => e.block.text))}) is ${families(entries)}, but ${names.refList(referenceName)} is ${families(referenceEntries)}; a cluster's networks must have the same address families`,
    );
  }
  return problems;
}

/** Service networks the API server can allocate from, and cluster networks that hold at least one node block. */
function sizeProblems(parsed: readonly ParsedCidr[], names: NetworkFieldNames): string[] {
  const problems: string[] = [];
  for (const { network, index, block, hostPrefix } of parsed) {
    const field = names.cidr(network, index);
    const bits = block.family === 4 ? 32 : 128;
    if (network === 'serviceNetwork' && bits - block.prefixLength > MAX_SERVICE_HOST_BITS) {
      problems.push(`${field} (${JSON.stringify(block.text)}) is larger than the API server accepts: an IPv${block.family} service network must be /${bits - MAX_SERVICE_HOST_BITS} or smaller`);
    }
    if (network === 'clusterNetwork') {
      const given = typeof hostPrefix === 'number' && Number.isInteger(hostPrefix) ? hostPrefix : undefined;
      const nodePrefix = given ?? (block.family === 4 ? DEFAULT_HOST_PREFIX.ipv4 : DEFAULT_HOST_PREFIX.ipv6);
      if (block.prefixLength > nodePrefix) {
        problems.push(
          `${field} (${JSON.stringify(block.text)}) cannot hold one node's /${nodePrefix} (${names.hostPrefix(index)}${given !== undefined ? '' : `, default ${nodePrefix}`}); give a network of /${nodePrefix} or larger`,
        );
      }
    }
  }
  return problems;
}
