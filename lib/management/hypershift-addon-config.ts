import { Construct } from 'constructs';
import * as addon from '../../imports/addondeploymentconfig-addon.open-cluster-management.io';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems, show } from '../core/problems';
import { MULTICLUSTER_ENGINE_NAMESPACE } from './multicluster-engine';

/** The AddOnDeploymentConfig MCE creates for the hypershift-addon, which the docs edit. */
export const HYPERSHIFT_ADDON_CONFIG_NAME = 'hypershift-addon-deploy-config';

/** The label and taint of OpenShift infrastructure nodes (docs 5.4.3). */
const INFRA_NODE_ROLE = 'node-role.kubernetes.io/infra';
// The variables this construct types; `variables` may not set them a second time.
const TYPED_VARIABLES: Readonly<Record<string, string>> = { autoImportDisabled: 'autoImport', disableMetrics: 'metrics' };
// A customized variable's name and value, as the CRD accepts them.
const VARIABLE_NAME = /^[a-zA-Z_][_a-zA-Z0-9]*$/;

/** Props of HypershiftAddonConfig: the fields of hypershift-addon-deploy-config the docs change. */
export interface HypershiftAddonConfigProps {
  /**
   * Whether the add-on imports each new hosted cluster into MCE as a ManagedCluster once its control
   * plane is available (docs 14.3). `false` writes `autoImportDisabled: "true"`; `true` writes
   * `"false"` rather than dropping the variable, so that turning import back on is a change every
   * way of applying makes: a field left out is kept by a client-side apply, and by server-side apply
   * once another manager (MCE, an `oc edit`) owns it. Clusters imported already stay imported.
   * @default - not written; the add-on imports automatically
   */
  readonly autoImport?: boolean;
  /**
   * Whether the add-on's metrics are scraped by OpenShift monitoring (docs 2.3.2); `false` writes
   * `disableMetrics: "true"`.
   * @default - not written; metric service monitoring is on
   */
  readonly metrics?: boolean;
  /**
   * Run the add-on's agent on infrastructure nodes: node selector `node-role.kubernetes.io/infra: ""`
   * and a toleration of that taint (docs 5.4.3), so it counts against no subscription.
   * @default false
   */
  readonly onInfrastructureNodes?: boolean;
  /**
   * Other customized variables of the add-on by name, such as the docs' `hcMaxNumber: '80'` and
   * `hcThresholdNumber: '60'`.
   * @default - none
   */
  readonly variables?: Record<string, string>;
  /**
   * The namespace MCE is installed into, where the configuration lives.
   * @default 'multicluster-engine'
   */
  readonly namespace?: string;
}

/**
 * The hypershift-addon's AddOnDeploymentConfig `hypershift-addon-deploy-config` on the management
 * cluster, which the docs change with `oc edit`: automatic import of hosted clusters off or on
 * (docs 14.3), metric service monitoring (2.3.2), and the agent on infrastructure nodes (5.4.3).
 * MCE creates the object; this writes only the fields given, as a partial object that server-side
 * apply merges into it: `customizedVariables` is a list keyed by name, so the variables MCE or an
 * administrator set (`hcMaxNumber` …) stay. Argo CD (`ServerSideApply=true`) and Flux apply it so;
 * a hub folder applied by hand (KustomizeDelivery, and the hub folders under AcmDelivery) needs
 * `oc apply --server-side -k`, since a client-side `oc apply` replaces the whole list.
 */
export class HypershiftAddonConfig extends Construct {
  /** The AddOnDeploymentConfig. */
  public readonly resource: addon.AddOnDeploymentConfig;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: HypershiftAddonConfigProps = {}) {
    super(scope, id);
    const problems = new Problems(this);
    const namespace = props.namespace ?? MULTICLUSTER_ENGINE_NAMESPACE;
    problems.require(isDns1123Label(namespace), 'namespace', namespace, DNS1123_LABEL_RULE);
    for (const field of ['autoImport', 'metrics', 'onInfrastructureNodes'] as const) {
      if (props[field] !== undefined) problems.require(typeof props[field] === 'boolean', field, props[field], 'must be true or false');
    }
    for (const [name, value] of Object.entries(props.variables ?? {})) {
      const field = `variables.${name}`;
      if (TYPED_VARIABLES[name] !== undefined) problems.add(`${field} (${show(value)}) is set by the ${TYPED_VARIABLES[name]} prop; give it there`);
      else if (
        problems.require(VARIABLE_NAME.test(name) && name.length <= 255, 'variables', name, 'must name variables with letters, digits and "_", not starting with a digit, at most 255 characters')
      ) {
        problems.require(typeof value === 'string' && value.length <= 1024, field, value, 'must be a string of at most 1024 characters, e.g. "80"');
      }
    }
    const given = props.autoImport !== undefined || props.metrics !== undefined || props.onInfrastructureNodes !== undefined || Object.keys(props.variables ?? {}).length > 0;
    // An empty partial object changes nothing on the cluster: most likely a prop was forgotten.
    if (!given) problems.add('props ({}) set nothing to change in hypershift-addon-deploy-config; give autoImport, metrics, onInfrastructureNodes or variables');
    problems.report();

    const variables: addon.AddOnDeploymentConfigSpecCustomizedVariables[] = [
      ...(props.autoImport === undefined ? [] : [{ name: 'autoImportDisabled', value: String(!props.autoImport) }]),
      ...(props.metrics === undefined ? [] : [{ name: 'disableMetrics', value: String(!props.metrics) }]),
      ...Object.entries(props.variables ?? {}).map(([name, value]) => ({ name, value })),
    ];
    this.resource = new addon.AddOnDeploymentConfig(this, 'Resource', {
      metadata: { name: HYPERSHIFT_ADDON_CONFIG_NAME, namespace },
      spec: {
        customizedVariables: variables.length > 0 ? variables : undefined,
        nodePlacement: props.onInfrastructureNodes
          ? {
              nodeSelector: { [INFRA_NODE_ROLE]: '' },
              tolerations: [{ effect: 'NoSchedule', key: INFRA_NODE_ROLE, operator: 'Exists' }],
            }
          : undefined,
      },
    });
  }
}
