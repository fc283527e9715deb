import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { parseIPv4, parseIPv6 } from '../core/cidr';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { show } from '../core/problems';

/** How MetalLB announces the addresses of a pool to the network. */
export enum MetalLBAdvertisementMode {
  /** ARP (IPv4) and NDP (IPv6) answers from one node on the node subnet. */
  LAYER2 = 'layer2',
  /** Routes announced to BGP routers. */
  BGP = 'bgp',
}

/** Options of `MetalLBAdvertisement.layer2()`. */
export interface MetalLBLayer2Options {
  /**
   * The node interfaces to answer ARP and NDP on (`spec.interfaces`).
   * @default - every interface
   */
  readonly interfaces?: string[];
}

/** A BGP router the MetalLB speakers open sessions to (a `BGPPeer`, metallb.io/v1beta2). */
export interface MetalLBBgpPeer {
  /** The router's IPv4 or IPv6 address (`spec.peerAddress`). */
  readonly address: string;
  /** The router's AS number (`spec.peerASN`), 1 to 4294967295. */
  readonly asn: number;
  /** The AS number the speakers use (`spec.myASN`), 1 to 4294967295. */
  readonly myAsn: number;
  /**
   * `metadata.name` of the BGPPeer.
   * @default - `<pool name>-peer-<index>`
   */
  readonly name?: string;
}

/** Options of `MetalLBAdvertisement.bgp()`. */
export interface MetalLBBgpOptions {
  /** The routers to announce the pool to; at least one. */
  readonly peers: MetalLBBgpPeer[];
  /**
   * The BGP LOCAL_PREF attribute of the announced routes (`spec.localPref`), for iBGP peers.
   * @default - not sent
   */
  readonly localPref?: number;
}

/** What the MetalLBIngress gives its advertisement to bind to. */
export interface MetalLBAdvertisementContext {
  /** The IPAddressPool's name. */
  readonly poolName: string;
  /** The namespace MetalLB runs in. */
  readonly namespace: string;
  /** Annotations every custom resource of the ingress carries (Argo CD sync options); copy them per object. */
  readonly annotations: Record<string, string>;
}

const MAX_ASN = 4294967295;

/**
 * How the addresses of a MetalLBIngress pool are announced: `layer2()` (the default, what the lab
 * uses) or `bgp()` with the routers to peer with. A BGPAdvertisement without peers announces
 * nothing, which is why the docs' recipe (doc 4.2.3) is not followed there.
 */
export abstract class MetalLBAdvertisement {
  /** An `L2Advertisement`: one node answers for each address on the node subnet. */
  public static layer2(options: MetalLBLayer2Options = {}): MetalLBAdvertisement {
    return new Layer2Advertisement(options);
  }

  /** `BGPPeer`s and a `BGPAdvertisement` announcing the pool to exactly those peers. */
  public static bgp(options: MetalLBBgpOptions): MetalLBAdvertisement {
    return new BgpAdvertisement(options);
  }

  /** Layer 2 or BGP. */
  public abstract readonly mode: MetalLBAdvertisementMode;

  /** Problems with the options, each "advertisement.<field> (<value>) <expectation>". */
  public abstract problems(context: MetalLBAdvertisementContext): string[];

  /** Adds the advertisement objects under `scope`; returns the advertisement itself. */
  public abstract bind(scope: Construct, context: MetalLBAdvertisementContext): ApiObject;
}

class Layer2Advertisement extends MetalLBAdvertisement {
  public readonly mode = MetalLBAdvertisementMode.LAYER2;

  constructor(private readonly options: MetalLBLayer2Options) {
    super();
  }

  public problems(): string[] {
    const problems: string[] = [];
    (this.options.interfaces ?? []).forEach((name, i) => {
      if (!/^\S+$/.test(name)) problems.push(`advertisement.interfaces[${i}] (${show(name)}) must be a network interface name such as enp1s0`);
    });
    return problems;
  }

  public bind(scope: Construct, context: MetalLBAdvertisementContext): ApiObject {
    return new ApiObject(scope, 'Advertisement', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'L2Advertisement',
      metadata: { name: context.poolName, namespace: context.namespace, annotations: { ...context.annotations } },
      spec: { ipAddressPools: [context.poolName], interfaces: this.options.interfaces },
    });
  }
}

class BgpAdvertisement extends MetalLBAdvertisement {
  public readonly mode = MetalLBAdvertisementMode.BGP;

  constructor(private readonly options: MetalLBBgpOptions) {
    super();
  }

  public problems(context: MetalLBAdvertisementContext): string[] {
    const problems: string[] = [];
    const { peers, localPref } = this.options;
    if (peers.length === 0) problems.push('advertisement.peers ([]) must list at least one BGP peer: a BGP advertisement without peers announces nothing');
    const names = new Set<string>();
    peers.forEach((peer, i) => {
      const field = `advertisement.peers[${i}]`;
      const family = peer.address.includes(':') ? parseIPv6(peer.address) : parseIPv4(peer.address);
      if (family === undefined) problems.push(`${field}.address (${show(peer.address)}) must be an IPv4 or IPv6 address`);
      for (const [key, asn] of [
        ['asn', peer.asn],
        ['myAsn', peer.myAsn],
      ] as const) {
        if (!Number.isInteger(asn) || asn < 1 || asn > MAX_ASN) problems.push(`${field}.${key} (${show(asn)}) must be an AS number from 1 to ${MAX_ASN}`);
      }
      const name = peerName(context.poolName, peer, i);
      if (!isDns1123Subdomain(name)) problems.push(`${field}.name (${show(name)}) ${DNS1123_SUBDOMAIN_RULE}`);
      else if (names.has(name)) problems.push(`${field}.name (${show(name)}) must be unique among the peers`);
      names.add(name);
    });
    if (localPref !== undefined && (!Number.isInteger(localPref) || localPref < 0 || localPref > MAX_ASN)) {
      problems.push(`advertisement.localPref (${show(localPref)}) must be a whole number from 0 to ${MAX_ASN}`);
    }
    return problems;
  }

  public bind(scope: Construct, context: MetalLBAdvertisementContext): ApiObject {
    const names = this.options.peers.map((peer, i) => {
      const name = peerName(context.poolName, peer, i);
      // A name given twice is reported (problems); the first peer of that name stands for both.
      if (scope.node.tryFindChild(`BGPPeer-${name}`)) return name;
      new ApiObject(scope, `BGPPeer-${name}`, {
        apiVersion: 'metallb.io/v1beta2',
        kind: 'BGPPeer',
        metadata: { name, namespace: context.namespace, annotations: { ...context.annotations } },
        spec: { peerAddress: peer.address, peerASN: peer.asn, myASN: peer.myAsn },
      });
      return name;
    });
    return new ApiObject(scope, 'Advertisement', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'BGPAdvertisement',
      metadata: { name: context.poolName, namespace: context.namespace, annotations: { ...context.annotations } },
      // Naming the peers keeps the pool from being announced to routers other constructs peer with.
      spec: { ipAddressPools: [context.poolName], peers: names, localPref: this.options.localPref },
    });
  }
}

function peerName(poolName: string, peer: MetalLBBgpPeer, index: number): string {
  return peer.name ?? `${poolName}-peer-${index}`;
}
