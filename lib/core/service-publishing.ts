import { isHostOrAddress } from './formats';
import { show } from './problems';

/** The control-plane services a HostedCluster publishes to its nodes and users. */
export enum ControlPlaneService {
  /** The Kubernetes API server. */
  API_SERVER = 'APIServer',
  /** The OAuth server users log in through. */
  OAUTH_SERVER = 'OAuthServer',
  /** Konnectivity, the tunnel from the control plane to the nodes. */
  KONNECTIVITY = 'Konnectivity',
  /** The Ignition server new nodes fetch their configuration from. */
  IGNITION = 'Ignition',
  /** The OIDC discovery endpoint. */
  OIDC = 'OIDC',
  /** OVN's southbound database. */
  OVN_SB_DB = 'OVNSbDb',
}

/** The kinds of publishing strategy the API accepts (`servicePublishingStrategy.type`). */
export enum ServicePublishingType {
  /** A LoadBalancer Service. */
  LOAD_BALANCER = 'LoadBalancer',
  /** An OpenShift Route on the management cluster's router. */
  ROUTE = 'Route',
  /** A NodePort on the management cluster's nodes. */
  NODE_PORT = 'NodePort',
  /** Not published. */
  NONE = 'None',
}

/** Options of `ServicePublishing.route()`. */
export interface RouteOptions {
  /**
   * A hostname for the route, served through external DNS.
   * @default - the management cluster's ingress domain picks one
   */
  readonly hostname?: string;
}

/** Options of `ServicePublishing.loadBalancer()`. */
export interface LoadBalancerOptions {
  /**
   * A hostname clients use for the load balancer.
   * @default - the load balancer's own address
   */
  readonly hostname?: string;
}

/** Options of `ServicePublishing.nodePort()`. */
export interface NodePortOptions {
  /** The address (IP or DNS name) of the management-cluster nodes clients connect to. */
  readonly address: string;
  /**
   * A fixed node port.
   * @default - Kubernetes assigns one
   */
  readonly port?: number;
}

/** The wire form of one `servicePublishingStrategy`. */
export interface ServicePublishingStrategyJson {
  /** The strategy's type. */
  readonly type: ServicePublishingType;
  /** The NodePort strategy's address and port. */
  readonly nodePort?: {
    /** The address clients connect to. */
    readonly address: string;
    /** The port. @default - one the API server picks */
    readonly port?: number;
  };
  /** The Route strategy's host name. */
  readonly route?: {
    /** The host name. @default - none */
    readonly hostname?: string;
  };
  /** The LoadBalancer strategy's host name. */
  readonly loadBalancer?: {
    /** The host name. @default - none */
    readonly hostname?: string;
  };
}

/** How one control-plane service is reached. */
export class ServicePublishing {
  /** A Service of type LoadBalancer on the management cluster (MetalLB on bare metal, an NLB on AWS). */
  public static loadBalancer(options: LoadBalancerOptions = {}): ServicePublishing {
    return new ServicePublishing({ type: ServicePublishingType.LOAD_BALANCER, loadBalancer: options.hostname ? { hostname: options.hostname } : undefined });
  }

  /** An OpenShift Route on the management cluster's ingress. */
  public static route(options: RouteOptions = {}): ServicePublishing {
    return new ServicePublishing({ type: ServicePublishingType.ROUTE, route: options.hostname ? { hostname: options.hostname } : undefined });
  }

  /** A NodePort Service on the management cluster, reached at `address`. */
  public static nodePort(options: NodePortOptions): ServicePublishing {
    // A JavaScript caller may pass the address itself: the cluster reports it where it is used.
    if (typeof options !== 'object' || options === null) {
      return new ServicePublishing(
        { type: ServicePublishingType.NODE_PORT, nodePort: { address: '' } },
        `(ServicePublishing.nodePort(${show(options)})) must be ServicePublishing.nodePort({ address, port? }), e.g. ServicePublishing.nodePort({ address: "192.0.2.10" })`,
      );
    }
    return new ServicePublishing({ type: ServicePublishingType.NODE_PORT, nodePort: { address: options.address, port: options.port } });
  }

  /**
   * @param problem why the factory's arguments make no strategy, after the field that names it
   */
  private constructor(
    /** The strategy as written to the HostedCluster. */
    public readonly strategy: ServicePublishingStrategyJson,
    /** Why the factory's arguments make no strategy, or undefined. */
    public readonly problem?: string,
  ) {}

  /** The strategy's type. */
  public get type(): ServicePublishingType {
    return this.strategy.type;
  }
}

/** Which strategy each control-plane service uses. */
export type ServicePublishingMap = { readonly [service in ControlPlaneService]?: ServicePublishing };

/**
 * The mapping `hcp create cluster` uses when nodes reach the control plane
 * through an ingress: APIServer behind a load balancer, the rest as Routes.
 */
export function ingressPublishing(): ServicePublishingMap {
  return {
    [ControlPlaneService.API_SERVER]: ServicePublishing.loadBalancer(),
    [ControlPlaneService.IGNITION]: ServicePublishing.route(),
    [ControlPlaneService.KONNECTIVITY]: ServicePublishing.route(),
    [ControlPlaneService.OAUTH_SERVER]: ServicePublishing.route(),
  };
}

/**
 * Why `address` cannot be where nodes and users reach the control plane (`<field> (<value>) ...`),
 * or undefined: an IP address or DNS name, as the NodePort publishing strategy takes it.
 */
export function nodePortAddressProblem(field: string, address: unknown): string | undefined {
  return isHostOrAddress(address) ? undefined : `${field} (${show(address)}) must be an IP address or DNS name of the management cluster's nodes`;
}

/**
 * The mapping `hcp create cluster` uses with `--api-server-address`: every
 * service, OIDC included, as a NodePort on the management nodes at `address`.
 */
export function nodePortPublishing(address: string): ServicePublishingMap {
  const at = () => ServicePublishing.nodePort({ address });
  return {
    [ControlPlaneService.API_SERVER]: at(),
    [ControlPlaneService.IGNITION]: at(),
    [ControlPlaneService.KONNECTIVITY]: at(),
    [ControlPlaneService.OAUTH_SERVER]: at(),
    [ControlPlaneService.OIDC]: at(),
  };
}

/** The services HyperShift needs published on every platform hcp-cdk models. */
export const REQUIRED_SERVICES: readonly ControlPlaneService[] = [ControlPlaneService.API_SERVER, ControlPlaneService.OAUTH_SERVER, ControlPlaneService.KONNECTIVITY, ControlPlaneService.IGNITION];

/** One entry of `spec.services` as the rules below read it, with how messages name it. */
export interface PublishedServiceEntry {
  /** `APIServer`, ... as written. */
  readonly service: unknown;
  /** The strategy as written (`{ type, nodePort?, route?, loadBalancer? }`). */
  readonly strategy: Partial<ServicePublishingStrategyJson> | undefined;
  /** How messages name the entry: `services.APIServer`, `spec.services[0]`. */
  readonly field: string;
}

/** The required services no entry publishes, in the order HyperShift lists them. */
export function missingServices(entries: readonly PublishedServiceEntry[]): ControlPlaneService[] {
  const published = new Set(entries.map((e) => e.service));
  return REQUIRED_SERVICES.filter((service) => !published.has(service));
}

/**
 * An APIServer published as a Route where the platform cannot serve it so (only AWS's control-plane
 * operator can), or without the hostname external DNS serves it at.
 */
export function apiServerRouteProblems(entries: readonly PublishedServiceEntry[], platform: { readonly type: string; readonly apiServerRoute: boolean }): string[] {
  const problems: string[] = [];
  for (const entry of entries) {
    if (entry.service !== ControlPlaneService.API_SERVER || entry.strategy?.type !== ServicePublishingType.ROUTE) continue;
    if (!platform.apiServerRoute) problems.push(`${entry.field} (Route) is not supported on platform ${platform.type}; use NodePort or LoadBalancer`);
    if (!entry.strategy.route?.hostname) problems.push(`${entry.field} (Route without hostname) needs a hostname served by external DNS`);
  }
  return problems;
}

/** A fixed NodePort outside the range the API server allocates NodePorts from. */
export function nodePortPortProblem(field: string, port: unknown): string | undefined {
  if (port === undefined) return undefined;
  return typeof port === 'number' && Number.isInteger(port) && port >= 30000 && port <= 32767 ? undefined : `${field} (${show(port)}) must be a NodePort from 30000 to 32767`;
}

/**
 * Services listed twice, and two services published at one endpoint: one Route or load-balancer
 * hostname (the router admits the first Route of a host only; DNS points a name at one load
 * balancer), or one NodePort address and port.
 */
export function sharedEndpointProblems(entries: readonly PublishedServiceEntry[]): string[] {
  const problems: string[] = [];
  const firstOfService = new Map<unknown, PublishedServiceEntry>();
  const firstAt = new Map<string, PublishedServiceEntry>();
  for (const entry of entries) {
    const twin = firstOfService.get(entry.service);
    if (twin) problems.push(`${entry.field} (${show(entry.service)}) lists a service ${twin.field} lists already; HyperShift reads one strategy per service`);
    else firstOfService.set(entry.service, entry);
    const s = entry.strategy;
    const endpoint =
      s?.type === ServicePublishingType.ROUTE && s.route?.hostname
        ? `Route hostname ${show(s.route.hostname)}`
        : s?.type === ServicePublishingType.LOAD_BALANCER && s.loadBalancer?.hostname
          ? `load-balancer hostname ${show(s.loadBalancer.hostname)}`
          : s?.type === ServicePublishingType.NODE_PORT && s.nodePort?.port !== undefined
            ? `NodePort ${s.nodePort.address}:${s.nodePort.port}`
            : undefined;
    if (endpoint === undefined || twin) continue;
    const earlier = firstAt.get(endpoint);
    if (earlier) problems.push(`${entry.field} (${show(entry.service)}) is published at the ${endpoint} ${earlier.field} (${show(earlier.service)}) uses already; give each service its own`);
    else firstAt.set(endpoint, entry);
  }
  return problems;
}
