import { ApiObject, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { isLabelValue, isQualifiedName } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkOperatorInstallOptions, InstalledOperator, installOperator, OperatorInstallOptions } from '../core/operator-install';

/** The namespace OpenShift Virtualization is installed into; the HyperConverged must live there. */
export const OPENSHIFT_VIRTUALIZATION_NAMESPACE = 'openshift-cnv';
/** The HyperConverged Cluster Operator reconciles only a HyperConverged of this name. */
export const HYPERCONVERGED_NAME = 'kubevirt-hyperconverged';

/** What happens to a VM when its node is drained (`spec.evictionStrategy`). */
export enum VmEvictionStrategy {
  /** The VM is shut down. */
  NONE = 'None',
  /** The VM is live-migrated; a VM that cannot migrate blocks the drain. */
  LIVE_MIGRATE = 'LiveMigrate',
  /** Live-migrated when possible, else shut down. */
  LIVE_MIGRATE_IF_POSSIBLE = 'LiveMigrateIfPossible',
  /** Another controller (such as the KubeVirt CAPI provider) handles it. */
  EXTERNAL = 'External',
}

export interface OpenShiftVirtualizationProps extends OperatorInstallOptions {
  /**
   * Install the operator besides the HyperConverged: Namespace `openshift-cnv`, OperatorGroup
   * `kubevirt-hyperconverged-group`, Subscription `hco-operatorhub` of package `kubevirt-hyperconverged`
   * from channel `stable` (the docs' CLI names; the console names the Subscription `kubevirt-hyperconverged`:
   * pass `subscriptionName` and `operatorGroupName` to adopt it). Turn it off when something else manages it.
   * @default true
   */
  readonly installOperator?: boolean;
  /**
   * Labels of the nodes that run VMs, and so the hosted clusters' workers (`spec.workloads.nodePlacement`);
   * the blog labels its bare-metal nodes `ocpvirt=host`.
   * @default - every schedulable node
   */
  readonly workloadsNodeSelector?: Record<string, string>;
  /**
   * Labels of the nodes that run the virtualization infrastructure pods (`spec.infra.nodePlacement`).
   * @default - every schedulable node
   */
  readonly infraNodeSelector?: Record<string, string>;
  /**
   * What a node drain does to the VMs.
   * @default - not set; the operator uses LiveMigrate on multi-node clusters
   */
  readonly evictionStrategy?: VmEvictionStrategy;
}

/**
 * OpenShift Virtualization on the management cluster, which KubeVirt hosted clusters run their
 * workers on (docs 3.3.1.1: version 4.14 or later): the operator from OLM and the HyperConverged
 * custom resource that starts it (hco.kubevirt.io/v1beta1, as "Installing OpenShift
 * Virtualization by using the CLI" writes it). The HyperConverged has no typed class here (its
 * CRD is too large to import); the validator checks it against the CRD at synth, so an
 * `addOverride` with a misspelt field fails.
 */
export class OpenShiftVirtualization extends Construct {
  /** The namespace OpenShift Virtualization runs in, `openshift-cnv`. */
  public readonly namespace = OPENSHIFT_VIRTUALIZATION_NAMESPACE;
  /** The HyperConverged object. */
  public readonly resource: ApiObject;
  /** The OperatorGroup and Subscription that install the operator; undefined with `installOperator: false`. */
  public readonly operator?: InstalledOperator;

  constructor(scope: Construct, id: string, props: OpenShiftVirtualizationProps = {}) {
    super(scope, id);
    const problems = new Problems(this);
    checkOperatorInstallOptions(props, problems, props.installOperator ?? true);
    for (const field of ['workloadsNodeSelector', 'infraNodeSelector'] as const) {
      for (const [key, value] of Object.entries(props[field] ?? {})) {
        if (!isQualifiedName(key) || !isLabelValue(value)) problems.add(`${field} (${show(`${key}=${value}`)}) must be a valid label key=value pair`);
      }
    }
    if (props.evictionStrategy !== undefined) {
      problems.require(Object.values(VmEvictionStrategy).includes(props.evictionStrategy), 'evictionStrategy', props.evictionStrategy, 'must be None, LiveMigrate, LiveMigrateIfPossible or External');
    }
    problems.report();

    this.operator =
      (props.installOperator ?? true)
        ? installOperator(
            this,
            {
              namespace: this.namespace,
              operatorGroupName: 'kubevirt-hyperconverged-group',
              packageName: 'kubevirt-hyperconverged',
              subscriptionName: 'hco-operatorhub',
              defaultChannel: 'stable',
              ownNamespace: true,
            },
            props,
          )
        : undefined;
    const placement = (selector?: Record<string, string>) => (selector ? { nodePlacement: { nodeSelector: { ...selector } } } : undefined);
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'hco.kubevirt.io/v1beta1',
      kind: 'HyperConverged',
      metadata: { name: HYPERCONVERGED_NAME, namespace: this.namespace },
      spec: {
        infra: placement(props.infraNodeSelector),
        workloads: placement(props.workloadsNodeSelector),
        evictionStrategy: props.evictionStrategy,
      },
    });
  }

  /** Sets a field of the HyperConverged by JSON path, e.g. `addOverride('spec.featureGates.enableCommonBootImageImport', false)`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }
}
