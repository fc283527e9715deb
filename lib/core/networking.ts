import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { CidrBlock, cidrsOverlap, parseCidr } from './cidr';
import { Problems, show } from './problems';

export const NetworkType = hc.HostedClusterSpecNetworkingNetworkType;
export type NetworkType = hc.HostedClusterSpecNetworkingNetworkType;

/** The `hcp` CLI defaults (support/globalconfig/network.go). */
export const DEFAULT_CLUSTER_NETWORK = { ipv4: '10.132.0.0/14', ipv6: 'fd01::/48' };
export const DEFAULT_SERVICE_NETWORK = { ipv4: '172.31.0.0/16', ipv6: 'fd02::/112' };

const OVN_MTU = { min: 576, max: 9216 };
/** The prefix each node gets of the cluster network when none is given (OpenShift's network operator). */
export const DEFAULT_HOST_PREFIX = { ipv4: 23, ipv6: 64 };
/**
 * The largest service networks the Kubernetes API server accepts (kube-apiserver refuses a range
 * with more than 20 host bits: /12 for IPv4, /108 for IPv6).
 */
const MAX_SERVICE_HOST_BITS = 20;

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
  readonly clusterNetwork: readonly string[];
  readonly serviceNetwork: readonly string[];
  /** Empty when the cluster declares no machine network. */
  readonly machineNetwork: readonly string[];
}

export interface RenderedNetworking {
  readonly networks: ClusterNetworks;
  readonly networking: hc.HostedClusterSpecNetworking;
  readonly operatorConfiguration?: hc.HostedClusterSpecOperatorConfiguration;
}

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

  const parsed: { field: string; block: CidrBlock }[] = [];
  const parseAll = (field: string, cidrs: readonly string[]) => {
    if (cidrs.length === 0) problems.add(`${field} ([]) must list at least one CIDR`);
    if (cidrs.length > 2) problems.add(`${field} (${JSON.stringify(cidrs)}) must list at most two CIDRs (one IPv4, one IPv6)`);
    const families = new Set<number>();
    cidrs.forEach((text, i) => {
      const block = parseCidr(text);
      if (!block) {
        problems.add(`${field}[${i}] (${JSON.stringify(text)}) must be a CIDR block such as 10.132.0.0/14 or fd01::/48`);
        return;
      }
      // Host bits set: the API server and OVN would read a different network than the user meant.
      if (block.hostBitsSet) problems.add(`${field}[${i}] (${JSON.stringify(text)}) has host bits set; write it as ${block.canonical}`);
      if (families.has(block.family)) problems.add(`${field} (${JSON.stringify(cidrs)}) must not list two IPv${block.family} CIDRs`);
      families.add(block.family);
      parsed.push({ field: `${field}[${i}]`, block });
    });
  };
  parseAll('clusterNetwork', clusterNetwork);
  parseAll('serviceNetwork', serviceNetwork);
  if (machineNetwork) parseAll('machineNetwork', machineNetwork);
  checkFamilies(parsed, problems);
  checkSizes(parsed, props.hostPrefix, problems);

  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i];
      const b = parsed[j];
      if (a.field.split('[')[0] !== b.field.split('[')[0] && cidrsOverlap(a.block, b.block)) {
        problems.add(`${a.field} (${JSON.stringify(a.block.text)}) overlaps networking.${b.field} (${JSON.stringify(b.block.text)}); pod, service and machine networks must be disjoint`);
      }
    }
  }

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
    operatorConfiguration: props.ovnMtu === undefined ? undefined : {
      clusterNetworkOperator: { ovnKubernetesConfig: { mtu: props.ovnMtu } },
    },
  };
}

type ParsedCidr = { readonly field: string; readonly block: CidrBlock };

/** The networks of one cluster share its address families, in one order: the first is the primary family everywhere. */
function checkFamilies(parsed: readonly ParsedCidr[], problems: Problems): void {
  const byNetwork = new Map<string, ParsedCidr[]>();
  for (const entry of parsed) {
    const network = entry.field.split('[')[0];
    byNetwork.set(network, [...(byNetwork.get(network) ?? []), entry]);
  }
  const families = (entries: readonly ParsedCidr[]) => entries.map((e) => `IPv${e.block.family}`).join(', ');
  // A network listing one family twice is reported already, and has no order to compare.
  const [reference, ...others] = [...byNetwork].filter(([, entries]) => new Set(entries.map((e) => e.block.family)).size === entries.length);
  if (!reference) return;
  const [referenceName, referenceEntries] = reference;
  for (const [name, entries] of others) {
    const same = families(entries) === families(referenceEntries);
    const sameSet = new Set(entries.map((e) => e.block.family)).size === new Set([...entries, ...referenceEntries].map((e) => e.block.family)).size
      && entries.length === referenceEntries.length;
    if (same) continue;
    problems.add(sameSet
      ? `${name} (${JSON.stringify(entries.map((e) => e.block.text))}) lists its families as ${families(entries)}, but ${referenceName} as ${families(referenceEntries)}; dual-stack networks must list IPv4 and IPv6 in the same order (the first is the primary family)`
      : `${name} (${JSON.stringify(entries.map((e) => e.block.text))}) is ${families(entries)}, but ${referenceName} is ${families(referenceEntries)}; a cluster's networks must have the same address families`);
  }
}

/** Service networks the API server can allocate from, and cluster networks that hold at least one node block. */
function checkSizes(parsed: readonly ParsedCidr[], hostPrefix: number | undefined, problems: Problems): void {
  if (hostPrefix !== undefined && (!Number.isInteger(hostPrefix) || hostPrefix < 1 || hostPrefix > 30)) {
    problems.add(`hostPrefix (${show(hostPrefix)}) must be a whole number from 1 to 30`);
  }
  for (const { field, block } of parsed) {
    const bits = block.family === 4 ? 32 : 128;
    if (field.startsWith('serviceNetwork') && bits - block.prefixLength > MAX_SERVICE_HOST_BITS) {
      problems.add(`${field} (${JSON.stringify(block.text)}) is larger than the API server accepts: an IPv${block.family} service network must be /${bits - MAX_SERVICE_HOST_BITS} or smaller`);
    }
    if (field.startsWith('clusterNetwork')) {
      const nodePrefix = block.family === 4 ? hostPrefix ?? DEFAULT_HOST_PREFIX.ipv4 : DEFAULT_HOST_PREFIX.ipv6;
      if (block.prefixLength > nodePrefix) {
        problems.add(`${field} (${JSON.stringify(block.text)}) cannot hold one node's /${nodePrefix} (hostPrefix${block.family === 4 && hostPrefix !== undefined ? '' : `, default ${nodePrefix}`}); give a network of /${nodePrefix} or larger`);
      }
    }
  }
}
