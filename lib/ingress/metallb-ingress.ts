import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { AddressSpan, parseAddressPool, poolEntryOverlaps, poolNetworkProblems } from '../core/address-pool';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';
import { Problems, show } from '../core/problems';
import { checkListItems, checkRequiredProps } from '../core/runtime-props';
import { MetalLBAdvertisement, MetalLBAdvertisementContext, MetalLBAdvertisementMode } from './metallb-advertisement';

/** The Service annotation that makes MetalLB allocate from a named pool. */
export const METALLB_ADDRESS_POOL_ANNOTATION = 'metallb.universe.tf/address-pool';

// The MetalLB CRDs arrive with the operator in the same Argo CD sync, so a dry run before the
// operator is installed would fail on the unknown kinds.
const SKIP_DRY_RUN = { 'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true' };
const ROUTER_SELECTOR = { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' };

/** Props of MetalLBIngress. */
export interface MetalLBIngressProps extends OperatorInstallOptions {
  /** The hosted cluster whose `*.apps` ingress this serves; the construct must be created in `cluster.guest`. */
  readonly cluster: HostedCluster;
  /**
   * The load-balancer addresses: single addresses (`192.168.122.23`), ranges
   * (`192.0.2.100-192.0.2.110`) or CIDR blocks, IPv4 or IPv6. With layer 2 they must lie in the
   * cluster's machine network; with BGP outside it. Point `*.apps.<name>.<baseDomain>` at them.
   */
  readonly addresses: string[];
  /**
   * `metadata.name` of the IPAddressPool; the Service names it in its address-pool annotation.
   * @default 'ingress-public-ip'
   */
  readonly poolName?: string;
  /**
   * Let MetalLB hand the pool's addresses to any LoadBalancer Service, not only to the ingress.
   * @default false
   */
  readonly autoAssign?: boolean;
  /** @default MetalLBAdvertisement.layer2() */
  readonly advertisement?: MetalLBAdvertisement;
  /**
   * The namespace of the operator, the MetalLB instance, the pool and the advertisement.
   * @default 'metallb'
   */
  readonly namespace?: string;
  /**
   * Install the MetalLB operator (Namespace, OperatorGroup `metallb-operator-operatorgroup`, Subscription
   * `metallb-operator` from channel `stable`) and the `MetalLB` instance.
   * Turn it off when the hosted cluster already runs MetalLB in `namespace`.
   * @default true
   */
  readonly installOperator?: boolean;
}

/** A parsed entry of `addresses`: one contiguous span of one family. */
export type { AddressSpan } from '../core/address-pool';

/**
 * The ingress of a bare-metal (Agent) hosted cluster on MetalLB (docs 4.2.3): the operator, its
 * `MetalLB` instance, an IPAddressPool with the ingress addresses, its advertisement, and a
 * LoadBalancer Service `metallb-ingress` in `openshift-ingress` in front of the default router.
 * Without it the console and ingress ClusterOperators of an Agent cluster stay degraded.
 */
export class MetalLBIngress extends Construct {
  /** `metadata.name` of the IPAddressPool. */
  public readonly poolName: string;
  /** The pool's `spec.addresses`, a single address written as the range `a-a`. */
  public readonly addresses: readonly string[];
  /** The LoadBalancer Service in `openshift-ingress`. */
  public readonly serviceName = 'metallb-ingress';
  /** The namespace MetalLB runs in, `metallb`. */
  public readonly namespace: string;
  /** The IPAddressPool. */
  public readonly resource: ApiObject;
  /** The L2Advertisement or BGPAdvertisement. */
  public readonly advertisement: ApiObject;
  /** The LoadBalancer Service in front of the default router. */
  public readonly service: ApiObject;
  /** The OperatorGroup and Subscription that install MetalLB; undefined with `installOperator: false`. */
  public readonly operator?: InstalledOperator;
  /** The `MetalLB` instance, written with the operator; undefined with `installOperator: false`. */
  public readonly metallb?: ApiObject;

  constructor(scope: Construct, id: string, props: MetalLBIngressProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      cluster: { accepts: (v) => v instanceof HostedCluster, expected: 'the HostedCluster whose ingress this is' },
      addresses: { accepts: (v) => Array.isArray(v), expected: 'a list of addresses, ranges or CIDRs, e.g. ["192.0.2.100"]' },
    });
    checkListItems(required, 'addresses', props?.addresses);
    required.throwIfAny();
    this.poolName = props.poolName ?? 'ingress-public-ip';
    this.namespace = props.namespace ?? 'metallb';
    const advertisement = props.advertisement ?? MetalLBAdvertisement.layer2();
    const context: MetalLBAdvertisementContext = { poolName: this.poolName, namespace: this.namespace, annotations: { ...SKIP_DRY_RUN } };

    const problems = new Problems(this);
    if (Chart.of(this) !== props.cluster.guest) {
      problems.add(`scope (${show(Chart.of(this).node.path)}) must be cluster.guest of ${show(props.cluster.clusterName)}: MetalLB and the ingress Service are applied inside the hosted cluster`);
    }
    problems.require(isDns1123Subdomain(this.poolName), 'poolName', this.poolName, DNS1123_SUBDOMAIN_RULE);
    problems.require(isDns1123Label(this.namespace), 'namespace', this.namespace, DNS1123_LABEL_RULE);
    checkOperatorInstallOptions(props, problems, props.installOperator ?? true);
    const spans = parseAddresses(props.addresses, problems);
    checkOverlaps(spans, problems);
    checkClusterNetworks(spans, props.cluster, advertisement.mode, problems);
    advertisement.problems(context).forEach((p) => problems.add(p));
    problems.report();

    this.addresses = props.addresses.map((text) => (text.includes('-') || text.includes('/') ? text : `${text}-${text}`));
    if (props.installOperator ?? true) [this.operator, this.metallb] = this.installOperator(props);
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      metadata: { name: this.poolName, namespace: this.namespace, annotations: { ...SKIP_DRY_RUN } },
      // No `protocol` here: that was a field of the old AddressPool the docs' recipe still shows.
      spec: { addresses: [...this.addresses], autoAssign: props.autoAssign ?? false },
    });
    this.advertisement = advertisement.bind(this, context);
    this.service = new ApiObject(this, 'Service', {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: this.serviceName,
        namespace: 'openshift-ingress',
        // Must name the pool: with autoAssign false it is the only way to get an address from it.
        annotations: { [METALLB_ADDRESS_POOL_ANNOTATION]: this.poolName },
      },
      spec: {
        type: 'LoadBalancer',
        selector: { ...ROUTER_SELECTOR },
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'https', protocol: 'TCP', port: 443, targetPort: 443 },
        ],
      },
    });
  }

  /** The operator and its instance share one namespace; OLM only installs where an OperatorGroup is. */
  private installOperator(props: MetalLBIngressProps): [InstalledOperator, ApiObject] {
    const operator = installOperator(
      this,
      {
        namespace: this.namespace,
        operatorGroupName: 'metallb-operator-operatorgroup',
        packageName: 'metallb-operator',
        subscriptionName: 'metallb-operator',
        defaultChannel: 'stable',
        ownNamespace: false,
        omitEmptySpec: true,
        namespaceLabels: { 'openshift.io/cluster-monitoring': 'true' },
        namespaceAnnotations: { 'workload.openshift.io/allowed': 'management' },
      },
      props,
    );
    const metallb = new ApiObject(this, 'MetalLB', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'MetalLB',
      metadata: { name: 'metallb', namespace: this.namespace, annotations: { ...SKIP_DRY_RUN } },
    });
    return [operator, metallb];
  }
}

/** Parses each address, range or CIDR block the way MetalLB reads a pool's `spec.addresses`. */
export function parseAddresses(addresses: readonly string[], problems: Problems): AddressSpan[] {
  const parsed = parseAddressPool(addresses, (i) => `addresses[${i}]`, 'addresses');
  parsed.problems.forEach((problem) => problems.add(problem));
  return parsed.spans;
}

/** MetalLB rejects a pool whose entries overlap. */
export function checkOverlaps(spans: readonly AddressSpan[], problems: Problems): void {
  poolEntryOverlaps(spans).forEach((problem) => problems.add(problem));
}

function checkClusterNetworks(spans: readonly AddressSpan[], cluster: HostedCluster, mode: MetalLBAdvertisementMode, problems: Problems): void {
  const named = (field: string, cidrs: readonly string[]) => cidrs.map((text, i) => ({ field: `networking.${field}[${i}]`, text }));
  const networks = {
    cluster: `of cluster ${show(cluster.clusterName)}`,
    clusterNetwork: named('clusterNetwork', cluster.networks.clusterNetwork),
    serviceNetwork: named('serviceNetwork', cluster.networks.serviceNetwork),
    machineNetwork: named('machineNetwork', cluster.networks.machineNetwork),
    machineNetworkField: 'networking.machineNetwork',
  };
  poolNetworkProblems(spans, networks, mode === MetalLBAdvertisementMode.BGP ? 'bgp' : 'layer2').forEach((problem) => problems.add(problem));
}
