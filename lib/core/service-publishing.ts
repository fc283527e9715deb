import { isHostOrAddress } from './formats';
import { show } from './problems';

/** The control-plane services a HostedCluster publishes to its nodes and users. */
export enum ControlPlaneService {
  API_SERVER = 'APIServer',
  OAUTH_SERVER = 'OAuthServer',
  KONNECTIVITY = 'Konnectivity',
  IGNITION = 'Ignition',
  OIDC = 'OIDC',
  OVN_SB_DB = 'OVNSbDb',
}

/** The kinds of publishing strategy the API accepts (`servicePublishingStrategy.type`). */
export enum ServicePublishingType {
  LOAD_BALANCER = 'LoadBalancer',
  ROUTE = 'Route',
  NODE_PORT = 'NodePort',
  NONE = 'None',
}

export interface RouteOptions {
  /**
   * A hostname for the route, served through external DNS.
   * @default - the management cluster's ingress domain picks one
   */
  readonly hostname?: string;
}

export interface LoadBalancerOptions {
  /**
   * A hostname clients use for the load balancer.
   * @default - the load balancer's own address
   */
  readonly hostname?: string;
}

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
  readonly type: ServicePublishingType;
  readonly nodePort?: { readonly address: string; readonly port?: number };
  readonly route?: { readonly hostname?: string };
  readonly loadBalancer?: { readonly hostname?: string };
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
      return new ServicePublishing({ type: ServicePublishingType.NODE_PORT, nodePort: { address: '' } },
        `(ServicePublishing.nodePort(${show(options)})) must be ServicePublishing.nodePort({ address, port? }), e.g. ServicePublishing.nodePort({ address: "192.0.2.10" })`);
    }
    return new ServicePublishing({ type: ServicePublishingType.NODE_PORT, nodePort: { address: options.address, port: options.port } });
  }

  /**
   * @param problem why the factory's arguments make no strategy, after the field that names it
   */
  private constructor(public readonly strategy: ServicePublishingStrategyJson, public readonly problem?: string) {}

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
