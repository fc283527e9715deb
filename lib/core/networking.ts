import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { CidrBlock, cidrsOverlap, parseCidr } from './cidr';

export const NetworkType = hc.HostedClusterSpecNetworkingNetworkType;
export type NetworkType = hc.HostedClusterSpecNetworkingNetworkType;

/** The `hcp` CLI defaults (support/globalconfig/network.go). */
export const DEFAULT_CLUSTER_NETWORK = { ipv4: '10.132.0.0/14', ipv6: 'fd01::/48' };
export const DEFAULT_SERVICE_NETWORK = { ipv4: '172.31.0.0/16', ipv6: 'fd02::/112' };

const OVN_MTU = { min: 576, max: 9216 };

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
  readonly problems: string[];
}

/** Builds `spec.networking` and checks the CIDRs: syntax, canonical form, families and overlaps. */
export function renderNetworking(props: NetworkingProps, platformMachineNetwork?: readonly string[]): RenderedNetworking {
  const problems: string[] = [];
  const dual = props.dualStack ?? false;
  const clusterNetwork = props.clusterNetwork ?? (dual ? [DEFAULT_CLUSTER_NETWORK.ipv4, DEFAULT_CLUSTER_NETWORK.ipv6] : [DEFAULT_CLUSTER_NETWORK.ipv4]);
  const serviceNetwork = props.serviceNetwork ?? (dual ? [DEFAULT_SERVICE_NETWORK.ipv4, DEFAULT_SERVICE_NETWORK.ipv6] : [DEFAULT_SERVICE_NETWORK.ipv4]);
  const machineNetwork = props.machineNetwork ?? (platformMachineNetwork ? [...platformMachineNetwork] : undefined);
  const networkType = props.networkType ?? NetworkType.OVN_KUBERNETES;

  const parsed: { field: string; block: CidrBlock }[] = [];
  const parseAll = (field: string, cidrs: readonly string[]) => {
    if (cidrs.length === 0) problems.push(`networking.${field} ([]) must list at least one CIDR`);
    if (cidrs.length > 2) problems.push(`networking.${field} (${JSON.stringify(cidrs)}) must list at most two CIDRs (one IPv4, one IPv6)`);
    const families = new Set<number>();
    cidrs.forEach((text, i) => {
      const block = parseCidr(text);
      if (!block) {
        problems.push(`networking.${field}[${i}] (${JSON.stringify(text)}) must be a CIDR block such as 10.132.0.0/14 or fd01::/48`);
        return;
      }
      // Host bits set: the API server and OVN would read a different network than the user meant.
      if (block.hostBitsSet) problems.push(`networking.${field}[${i}] (${JSON.stringify(text)}) has host bits set; write it as ${block.canonical}`);
      if (families.has(block.family)) problems.push(`networking.${field} (${JSON.stringify(cidrs)}) must not list two IPv${block.family} CIDRs`);
      families.add(block.family);
      parsed.push({ field: `${field}[${i}]`, block });
    });
  };
  parseAll('clusterNetwork', clusterNetwork);
  parseAll('serviceNetwork', serviceNetwork);
  if (machineNetwork) parseAll('machineNetwork', machineNetwork);

  for (let i = 0; i < parsed.length; i++) {
    for (let j = i + 1; j < parsed.length; j++) {
      const a = parsed[i];
      const b = parsed[j];
      if (a.field.split('[')[0] !== b.field.split('[')[0] && cidrsOverlap(a.block, b.block)) {
        problems.push(`networking.${a.field} (${JSON.stringify(a.block.text)}) overlaps networking.${b.field} (${JSON.stringify(b.block.text)}); pod, service and machine networks must be disjoint`);
      }
    }
  }

  if (props.ovnMtu !== undefined) {
    if (networkType !== NetworkType.OVN_KUBERNETES) problems.push(`networking.ovnMtu (${props.ovnMtu}) needs networkType OVNKubernetes, not ${networkType}`);
    if (!Number.isInteger(props.ovnMtu) || props.ovnMtu < OVN_MTU.min || props.ovnMtu > OVN_MTU.max) {
      problems.push(`networking.ovnMtu (${props.ovnMtu}) must be a whole number from ${OVN_MTU.min} to ${OVN_MTU.max}`);
    }
  }

  return {
    networks: { clusterNetwork, serviceNetwork, machineNetwork: machineNetwork ?? [] },
    networking: {
      clusterNetwork: clusterNetwork.map((cidr) => ({ cidr })),
      serviceNetwork: serviceNetwork.map((cidr) => ({ cidr })),
      machineNetwork: machineNetwork?.map((cidr) => ({ cidr })),
      networkType,
    },
    operatorConfiguration: props.ovnMtu === undefined ? undefined : {
      clusterNetworkOperator: { ovnKubernetesConfig: { mtu: props.ovnMtu } },
    },
    problems,
  };
}
