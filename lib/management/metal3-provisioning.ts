import { ApiObject, Chart, JsonPatch, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { BareMetalHost } from '../baremetal/bare-metal-host';
import { Problems } from '../core/problems';

/** The Provisioning singleton's name; the cluster-baremetal-operator reads no other. */
export const PROVISIONING_NAME = 'provisioning-configuration';
/** The only namespace Metal3 reconciles BareMetalHosts in unless told to watch all. */
export const MACHINE_API_NAMESPACE = 'openshift-machine-api';

/** The state of the provisioning network Ironic boots hosts over (`spec.provisioningNetwork`). */
export enum ProvisioningNetwork {
  /** The installer's provisioning network, with DHCP served by Metal3 (PXE or virtual media). */
  MANAGED = 'Managed',
  /** A provisioning network whose DHCP you run yourself; virtual media recommended. */
  UNMANAGED = 'Unmanaged',
  /** No provisioning network: hosts boot by virtual media over the external network, BMCs reachable from it. */
  DISABLED = 'Disabled',
}

/** Props of Metal3Provisioning. */
export interface Metal3ProvisioningProps {
  /**
   * The provisioning network. Managed and Unmanaged need the provisioning interface, IP and CIDR
   * fields, which the bare-metal installer set on the existing object; give them with `addOverride`
   * when this object is new. On a hub installed with a provisioning network, give the value
   * `oc get provisioning provisioning-configuration -o jsonpath='{.spec.provisioningNetwork}'` prints.
   * @default ProvisioningNetwork.DISABLED - virtual media over the external network, the Agent flow of the docs
   */
  readonly provisioningNetwork?: ProvisioningNetwork;
  /**
   * Reconcile BareMetalHosts in every namespace, not only `openshift-machine-api`: the hosts of an
   * InfraEnv live in its own namespace (AG-09).
   * @default true
   */
  readonly watchAllNamespaces?: boolean;
}

/**
 * The Metal3 Provisioning (metal3.io/v1alpha1, cluster-scoped, named `provisioning-configuration`)
 * set up for BareMetalHosts outside `openshift-machine-api`. On a hub installed on bare metal the
 * installer has created this object already: applying this one (server-side apply, or Argo CD's)
 * takes over only the two fields written here and leaves the rest of the installer's spec alone.
 */
export class Metal3Provisioning extends Construct {
  /** The provisioning network setting written. */
  public readonly provisioningNetwork: ProvisioningNetwork;
  /** Whether Metal3 reconciles BareMetalHosts in every namespace. */
  public readonly watchAllNamespaces: boolean;
  /** The Provisioning object; use it for `addJsonPatch` escape hatches. */
  public readonly resource: ApiObject;

  /** @param scope usually the ManagementCluster */
  constructor(scope: Construct, id: string, props: Metal3ProvisioningProps = {}) {
    super(scope, id);
    this.provisioningNetwork = props.provisioningNetwork ?? ProvisioningNetwork.DISABLED;
    this.watchAllNamespaces = props.watchAllNamespaces ?? true;
    const problems = new Problems(this);
    const networks = Object.values(ProvisioningNetwork) as string[];
    problems.require(networks.includes(this.provisioningNetwork), 'provisioningNetwork', this.provisioningNetwork, `must be one of ${networks.join(', ')}`);
    problems.report();

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'metal3.io/v1alpha1',
      kind: 'Provisioning',
      metadata: { name: PROVISIONING_NAME },
      spec: Lazy.any({ produce: () => ({ provisioningNetwork: this.provisioningNetwork, watchAllNamespaces: this.watchAllNamespaces }) }) as unknown,
    });
    this.node.addValidation({ validate: () => this.checkHosts() });
  }

  /** Sets a field of the Provisioning by JSON path, e.g. `addOverride('spec.disableVirtualMediaTLS', true)`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }

  /** AG-09: Metal3 leaves BareMetalHosts outside openshift-machine-api alone unless it watches all namespaces. */
  private checkHosts(): string[] {
    if (this.watchAllNamespaces) return [];
    const outside = Chart.of(this)
      .node.findAll()
      .filter((c): c is BareMetalHost => c instanceof BareMetalHost && c.namespace !== MACHINE_API_NAMESPACE);
    if (outside.length === 0) return [];
    return [
      `watchAllNamespaces (false) leaves BareMetalHosts outside ${MACHINE_API_NAMESPACE} unreconciled, and this management cluster declares ` +
        `${outside.map((h) => `${h.node.path} (namespace ${h.namespace})`).join(', ')}; set watchAllNamespaces to true`,
    ];
  }
}
