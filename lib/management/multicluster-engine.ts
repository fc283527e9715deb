import { ApiObject, Chart, JsonPatch, Lazy } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { HostedCluster, IHostedCluster } from '../core/hosted-cluster';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { NodePool } from '../core/node-pool';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';
import { Problems } from '../core/problems';

/** The namespace MCE installs its operands (the assisted service among them) into by default. */
export const MULTICLUSTER_ENGINE_NAMESPACE = 'multicluster-engine';

/** The namespace the multicluster engine Operator is installed into (`installOperator`). */
export const MULTICLUSTER_ENGINE_OPERATOR_NAMESPACE = 'multicluster-engine';

/** The OLM package of the multicluster engine operator. */
export const MULTICLUSTER_ENGINE_PACKAGE = 'multicluster-engine';

/**
 * API groups whose CRDs the multicluster engine's operands install, not its OLM bundle (which
 * brings the MultiClusterEngine CRD alone): they exist only once the MultiClusterEngine has been
 * reconciled. The cluster manager serves the open-cluster-management groups (ManagedCluster,
 * ManagedClusterSetBinding, Placement, AddOnDeploymentConfig), the assisted service the
 * agent-install ones (AgentServiceConfig, InfraEnv, NMStateConfig), Hive its own, and the
 * hypershift add-on installs the HyperShift operator with its CRDs. KlusterletAddonConfig
 * (agent.open-cluster-management.io) is not among them: ACM installs it, never MCE alone.
 */
export const MULTICLUSTER_ENGINE_OPERAND_GROUPS: ReadonlySet<string> = new Set([
  'cluster.open-cluster-management.io',
  'addon.open-cluster-management.io',
  'work.open-cluster-management.io',
  'agent-install.openshift.io',
  'capi-provider.agent-install.openshift.io',
  'extensions.hive.openshift.io',
  'hive.openshift.io',
  'hypershift.openshift.io',
]);

/** How many replicas MCE runs of its deployments (`spec.availabilityConfig`). */
export enum MultiClusterEngineAvailability {
  /** Two replicas of most deployments. */
  HIGH = 'High',
  /** One replica each, for small hubs. */
  BASIC = 'Basic',
}

/**
 * A component MCE can switch on or off in `spec.overrides.components`. The list grows with MCE
 * releases; `of()` names one this class has no constant for.
 */
export class MultiClusterEngineComponent {
  /** The hosted control planes feature. */
  public static readonly HYPERSHIFT = new MultiClusterEngineComponent('hypershift');
  /** The hypershift-addon on local-cluster, which installs the HyperShift Operator on the hub itself. */
  public static readonly HYPERSHIFT_LOCAL_HOSTING = new MultiClusterEngineComponent('hypershift-local-hosting');
  /** The assisted service, which serves AgentServiceConfig, InfraEnv and Agent (bare metal). */
  public static readonly ASSISTED_SERVICE = new MultiClusterEngineComponent('assisted-service');
  /** Provisions and upgrades clusters through Hive. */
  public static readonly CLUSTER_LIFECYCLE = new MultiClusterEngineComponent('cluster-lifecycle');
  /** The cluster manager (registration of managed clusters). */
  public static readonly CLUSTER_MANAGER = new MultiClusterEngineComponent('cluster-manager');
  /** The cluster proxy add-on. */
  public static readonly CLUSTER_PROXY_ADDON = new MultiClusterEngineComponent('cluster-proxy-addon');
  /** MCE's console plugin. */
  public static readonly CONSOLE = new MultiClusterEngineComponent('console-mce');
  /** Discovery of clusters from OpenShift Cluster Manager. */
  public static readonly DISCOVERY = new MultiClusterEngineComponent('discovery');
  /** Hive, which installs OpenShift clusters. */
  public static readonly HIVE = new MultiClusterEngineComponent('hive');
  /** The image-based install operator. */
  public static readonly IMAGE_BASED_INSTALL_OPERATOR = new MultiClusterEngineComponent('image-based-install-operator');
  /** Imports the hub itself as the managed cluster `local-cluster`; the hypershift-addon needs it. */
  public static readonly LOCAL_CLUSTER = new MultiClusterEngineComponent('local-cluster');
  /** The managed service account add-on. */
  public static readonly MANAGED_SERVICE_ACCOUNT = new MultiClusterEngineComponent('managedserviceaccount');
  /** Shared foundation services of the managed clusters. */
  public static readonly SERVER_FOUNDATION = new MultiClusterEngineComponent('server-foundation');

  /** A component by the name MCE gives it, e.g. `cluster-api-preview`. */
  public static of(name: string): MultiClusterEngineComponent {
    return new MultiClusterEngineComponent(name);
  }

  private constructor(
    /** The component's name, as MCE's `spec.overrides.components` names it. */
    public readonly name: string,
  ) {}
}

/** Switches one MCE component on or off. */
export interface ComponentOverride {
  /** The component. */
  readonly component: MultiClusterEngineComponent;
  /** Whether it runs. */
  readonly enabled: boolean;
}

/** Props of MultiClusterEngine. */
export interface MultiClusterEngineProps extends OperatorInstallOptions {
  /**
   * Install the multicluster engine Operator itself, as a hub without it needs: Namespace
   * `multicluster-engine`, OperatorGroup `multicluster-engine` watching that namespace, and
   * Subscription `multicluster-engine` of package `multicluster-engine` from channel `stable-2.7`
   * (the MCE release for OpenShift 4.17). Off by default, because most hubs have MCE already:
   * Red Hat Advanced Cluster Management installs and upgrades it, and a second Subscription would
   * fight ACM's. To adopt an install made from the console, turn it on with its names
   * (`operatorGroupName`, and `subscriptionName` if it is not `multicluster-engine`).
   * @default false
   */
  readonly installOperator?: boolean;
  /**
   * `metadata.name`; `oc get mce` shows the name an existing hub uses.
   * @default 'multiclusterengine'
   */
  readonly name?: string;
  /**
   * The hosted control planes feature (component `hypershift`). Turning it off needs every
   * HostedCluster gone first (docs 2.6.2).
   * @default true
   */
  readonly hostedControlPlanes?: boolean;
  /**
   * Install the HyperShift Operator on this hub through the hypershift-addon of `local-cluster`
   * (component `hypershift-local-hosting`).
   * @default - the value of `hostedControlPlanes`
   */
  readonly localHosting?: boolean;
  /**
   * Other components to switch on or off.
   * @default - none; the operator keeps its defaults for every component not listed
   */
  readonly componentOverrides?: ComponentOverride[];
  /** @default - not set; the operator uses High */
  readonly availability?: MultiClusterEngineAvailability;
  /**
   * The namespace MCE deploys its operands into.
   * @default - not set; the operator uses 'multicluster-engine'
   */
  readonly targetNamespace?: string;
}

const COMPONENT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The MultiClusterEngine (multicluster.openshift.io/v1, cluster-scoped): the multicluster engine
 * Operator's one instance per hub, with the hosted control planes components switched on as in
 * docs 2.6.1. Only the components named here are written. The operator writes its defaults back
 * into the object (the other components in `spec.overrides.components`, `targetNamespace`,
 * `availabilityConfig`), so a GitOps tool comparing the live object should ignore those fields.
 */
export class MultiClusterEngine extends Construct {
  /** `metadata.name` of the MultiClusterEngine. */
  public readonly engineName: string;
  /** Where MCE runs its operands: the given `targetNamespace` or MCE's default. */
  public readonly targetNamespace: string;
  /** The MultiClusterEngine object; use it for `addJsonPatch` escape hatches. */
  public readonly resource: ApiObject;
  /** The OperatorGroup and Subscription that install the operator; undefined unless `installOperator` is true. */
  public readonly operator?: InstalledOperator;

  private readonly overrides = new Map<string, boolean>();

  /** @param scope usually the ManagementCluster */
  constructor(scope: Construct, id: string, props: MultiClusterEngineProps = {}) {
    super(scope, id);
    this.engineName = props.name ?? 'multiclusterengine';
    this.targetNamespace = props.targetNamespace ?? MULTICLUSTER_ENGINE_NAMESPACE;
    const hostedControlPlanes = props.hostedControlPlanes ?? true;
    const localHosting = props.localHosting ?? hostedControlPlanes;

    const problems = new Problems(this);
    const installs = props.installOperator ?? false;
    checkOperatorInstallOptions(props, problems, installs);
    problems.require(isDns1123Subdomain(this.engineName), 'name', this.engineName, DNS1123_SUBDOMAIN_RULE);
    if (props.targetNamespace !== undefined) problems.require(isDns1123Label(props.targetNamespace), 'targetNamespace', props.targetNamespace, DNS1123_LABEL_RULE);
    if (props.availability !== undefined) {
      problems.require(Object.values(MultiClusterEngineAvailability).includes(props.availability), 'availability', props.availability, 'must be High or Basic');
    }
    // The add-on installs the HyperShift Operator, which the hypershift component provides.
    if (localHosting && !hostedControlPlanes) problems.add('localHosting (true) needs hostedControlPlanes; the hypershift-addon installs the operator the hypershift component provides');
    this.overrides.set(MultiClusterEngineComponent.HYPERSHIFT.name, hostedControlPlanes);
    this.overrides.set(MultiClusterEngineComponent.HYPERSHIFT_LOCAL_HOSTING.name, localHosting);
    (props.componentOverrides ?? []).forEach((override, i) => {
      const problem = this.checkOverride(override.component);
      if (problem) problems.add(`componentOverrides[${i}].component ${problem}`);
      else this.overrides.set(override.component.name, override.enabled);
    });
    problems.report();

    this.operator = installs
      ? installOperator(
          this,
          {
            namespace: MULTICLUSTER_ENGINE_OPERATOR_NAMESPACE,
            operatorGroupName: 'multicluster-engine',
            packageName: MULTICLUSTER_ENGINE_PACKAGE,
            subscriptionName: 'multicluster-engine',
            defaultChannel: 'stable-2.7',
            ownNamespace: true,
          },
          props,
        )
      : undefined;
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'multicluster.openshift.io/v1',
      kind: 'MultiClusterEngine',
      metadata: { name: this.engineName },
      spec: Lazy.any({
        produce: () => ({
          availabilityConfig: props.availability,
          targetNamespace: props.targetNamespace,
          overrides: { components: [...this.overrides].map(([name, enabled]) => ({ name, enabled })) },
        }),
      }) as unknown,
    });
    this.node.addValidation({ validate: () => this.checkHub() });
  }

  /** Switches one more component on or off. */
  public overrideComponent(component: MultiClusterEngineComponent, enabled: boolean): void {
    const problem = this.checkOverride(component);
    if (problem) {
      const problems = new Problems(this);
      problems.add(`component ${problem}`);
      problems.report();
    }
    this.overrides.set(component.name, enabled);
  }

  /** Whether this MCE turns a component on or off, or undefined when it leaves it to the operator. */
  public isEnabled(component: MultiClusterEngineComponent): boolean | undefined {
    return this.overrides.get(component.name);
  }

  /** Sets a field of the MultiClusterEngine by JSON path, e.g. `addOverride('spec.nodeSelector', {...})`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }

  private checkOverride(component: MultiClusterEngineComponent): string | undefined {
    const name = component.name;
    if (!COMPONENT_NAME.test(name)) return `(${JSON.stringify(name)}) must be an MCE component name such as "cluster-proxy-addon"`;
    if (name === MultiClusterEngineComponent.HYPERSHIFT.name) return `(${JSON.stringify(name)}) is set by hostedControlPlanes`;
    if (name === MultiClusterEngineComponent.HYPERSHIFT_LOCAL_HOSTING.name) return `(${JSON.stringify(name)}) is set by localHosting`;
    if (this.overrides.has(name)) return `(${JSON.stringify(name)}) is overridden twice; give each component once`;
    return undefined;
  }

  /** Rules spanning the hub: one MCE, and no switching hosted control planes off under HostedClusters (MG-05). */
  private checkHub(): string[] {
    const problems: string[] = [];
    const chart = Chart.of(this);
    const inChart = chart.node.findAll();
    const engines = inChart.filter((c): c is MultiClusterEngine => c instanceof MultiClusterEngine);
    if (engines[0] !== this) problems.push(`a management cluster runs one MultiClusterEngine, and ${engines[0].node.path} already declares it`);

    const clusters = hostedClustersIn(inChart);
    if (clusters.length > 0) {
      const names = clusters.map((c) => c.node.path).join(', ');
      if (!this.isEnabled(MultiClusterEngineComponent.HYPERSHIFT)) {
        problems.push(
          `hostedControlPlanes (false) turns component hypershift off, but this management cluster declares HostedClusters (${names}); ` +
            'destroy them before disabling hosted control planes (docs 2.6.2)',
        );
      } else if (!this.isEnabled(MultiClusterEngineComponent.HYPERSHIFT_LOCAL_HOSTING)) {
        problems.push(
          `localHosting (false) uninstalls the HyperShift Operator from this hub, but this management cluster declares HostedClusters (${names}); ` +
            'destroy them before disabling the hypershift-addon (docs 2.6.2.1)',
        );
      }
    }
    return problems;
  }
}

/** The hosted clusters among `constructs`: the ones declared here and the imported ones NodePools are added to. */
function hostedClustersIn(constructs: IConstruct[]): IHostedCluster[] {
  const clusters = new Set<IHostedCluster>();
  for (const c of constructs) {
    if (c instanceof HostedCluster) clusters.add(c);
    else if (c instanceof NodePool) clusters.add(c.cluster);
  }
  return [...clusters];
}
