import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import { checkListItems, checkRequiredProps } from '../core/runtime-props';
import { checkOverlaps, parseAddresses } from '../ingress/metallb-ingress';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';

/** The namespace docs 3.3.5 install MetalLB into on the management cluster. */
export const MANAGEMENT_METALLB_NAMESPACE = 'metallb-system';

export interface ManagementMetalLBProps extends OperatorInstallOptions {
  /**
   * Addresses for LoadBalancer Services on the management cluster (the hosted API servers of
   * KubeVirt clusters): single addresses, ranges `first-last` or CIDR blocks, unused, in the node network.
   */
  readonly addresses: string[];
  /** `metadata.name` of the IPAddressPool. @default 'metallb' */
  readonly poolName?: string;
  /**
   * Install the MetalLB operator besides the `MetalLB` instance: Namespace `metallb-system`, OperatorGroup
   * `metallb-operator`, Subscription `metallb-operator-sub` from channel `stable`.
   * @default true
   */
  readonly installOperator?: boolean;
}

/**
 * MetalLB on the management cluster, the load balancer docs 3.3.1.1 require before a KubeVirt
 * hosted cluster is provisioned on bare metal (docs 3.3.5, "Optional: Configuring MetalLB"): the
 * operator, the `MetalLB` instance, an IPAddressPool any LoadBalancer Service may draw from and
 * its L2Advertisement. (MetalLBIngress is the other MetalLB: inside a hosted cluster, for its ingress.)
 */
export class ManagementMetalLB extends Construct {
  /** The namespace MetalLB runs in, `metallb-system`. */
  public readonly namespace = MANAGEMENT_METALLB_NAMESPACE;
  /** The IPAddressPool's name. */
  public readonly poolName: string;
  /** The IPAddressPool. */
  public readonly resource: ApiObject;
  /** The OperatorGroup and Subscription that install the operator; undefined with `installOperator: false`. */
  public readonly operator?: InstalledOperator;
  /** The `MetalLB` instance that starts MetalLB's speakers and controller. */
  public readonly metallb: ApiObject;
  /** The L2Advertisement that announces the pool's addresses. */
  public readonly advertisement: ApiObject;

  constructor(scope: Construct, id: string, props: ManagementMetalLBProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      addresses: { accepts: (v) => Array.isArray(v), expected: 'a list of addresses, ranges or CIDRs, e.g. ["192.168.216.32-192.168.216.122"]' },
    });
    checkListItems(required, 'addresses', props?.addresses);
    required.throwIfAny();
    this.poolName = props.poolName ?? 'metallb';
    const problems = new Problems(this);
    checkOperatorInstallOptions(props, problems, props.installOperator ?? true);
    problems.require(isDns1123Subdomain(this.poolName), 'poolName', this.poolName, DNS1123_SUBDOMAIN_RULE);
    checkOverlaps(parseAddresses(props.addresses, problems), problems);
    problems.report();

    this.operator =
      (props.installOperator ?? true)
        ? installOperator(
            this,
            {
              namespace: this.namespace,
              operatorGroupName: 'metallb-operator',
              packageName: 'metallb-operator',
              subscriptionName: 'metallb-operator-sub',
              defaultChannel: 'stable',
              ownNamespace: false,
            },
            props,
          )
        : undefined;
    this.metallb = new ApiObject(this, 'MetalLB', { apiVersion: 'metallb.io/v1beta1', kind: 'MetalLB', metadata: { name: 'metallb', namespace: this.namespace } });
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'IPAddressPool',
      metadata: { name: this.poolName, namespace: this.namespace },
      spec: { addresses: [...props.addresses] },
    });
    this.advertisement = new ApiObject(this, 'L2Advertisement', {
      apiVersion: 'metallb.io/v1beta1',
      kind: 'L2Advertisement',
      metadata: { name: 'l2advertisement', namespace: this.namespace },
      spec: { ipAddressPools: [this.poolName] },
    });
  }
}
