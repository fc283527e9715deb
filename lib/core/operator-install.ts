import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ensureNamespace } from './kube-objects';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from './names';
import { type Problems, show } from './problems';

/** Whether OLM installs an operator's updates by itself or waits for someone to approve each InstallPlan. */
export enum InstallPlanApproval {
  /** OLM installs every update of the channel as it comes. */
  AUTOMATIC = 'Automatic',
  /** Each InstallPlan waits for `oc patch installplan ... approved: true` (or the console's Approve). */
  MANUAL = 'Manual',
}

/**
 * How OLM installs an operator: the Subscription's channel, catalog, name, starting version and
 * approval, and the OperatorGroup's name. Every construct that installs an operator takes these
 * props; each default is that construct's own (the names of the docs' "by using the CLI" procedure).
 * To adopt an operator installed from the console, give the names the console chose: the
 * Subscription is named after the package (`oc get subscription -n <namespace>`) and the
 * OperatorGroup after the namespace with a random suffix (`oc get operatorgroup -n <namespace>`).
 */
export interface OperatorInstallOptions {
  /** The Subscription's update channel. @default - the operator's own default channel (given per construct) */
  readonly channel?: string;
  /** The CatalogSource offering the operator. @default 'redhat-operators' */
  readonly catalogSource?: string;
  /** The namespace of the CatalogSource. @default 'openshift-marketplace' */
  readonly catalogSourceNamespace?: string;
  /**
   * `metadata.name` of the Subscription; the name of an existing one adopts it instead of adding a second.
   * @default - the name of the docs' CLI procedure (given per construct)
   */
  readonly subscriptionName?: string;
  /**
   * `metadata.name` of the OperatorGroup; a namespace holds one, so an existing one is adopted by its name.
   * @default - the name of the docs' CLI procedure (given per construct)
   */
  readonly operatorGroupName?: string;
  /**
   * The namespace has its OperatorGroup already (a console install made one, named with a random
   * suffix): write none, and adopt the install by its Subscription alone. Safer than copying the
   * name into `operatorGroupName`: a misspelt name adds a second OperatorGroup, and OLM then fails
   * every operator of the namespace (TooManyOperatorGroups).
   * @default false
   */
  readonly existingOperatorGroup?: boolean;
  /**
   * The ClusterServiceVersion to install first (`spec.startingCSV`), e.g. `lvms-operator.v4.17.0`; OLM
   * updates from there along the channel, unless `installPlanApproval` is Manual.
   * @default - not set; OLM installs the channel's latest version
   */
  readonly startingCsv?: string;
  /**
   * Whether updates install by themselves (`spec.installPlanApproval`).
   * @default - not set; OLM uses Automatic
   */
  readonly installPlanApproval?: InstallPlanApproval;
}

/** The channel and catalog of an operator install. @deprecated use OperatorInstallOptions, which has them and more */
export type OperatorSource = OperatorInstallOptions;

/** What one operator install needs: the package, where it goes, and whether it watches only its namespace. */
export interface OperatorInstall {
  readonly namespace: string;
  /** `metadata.name` of the OperatorGroup, as the docs name it, unless the options name another. */
  readonly operatorGroupName: string;
  readonly packageName: string;
  /** `metadata.name` of the Subscription, as the docs name it, unless the options name another. */
  readonly subscriptionName: string;
  readonly defaultChannel: string;
  /** OwnNamespace install mode (`spec.targetNamespaces: [namespace]`); otherwise AllNamespaces. */
  readonly ownNamespace: boolean;
  /** Labels of the Namespace, e.g. cluster monitoring. */
  readonly namespaceLabels?: Record<string, string>;
  /** Annotations of the Namespace, e.g. the management workload partition. */
  readonly namespaceAnnotations?: Record<string, string>;
  /**
   * Leave an AllNamespaces OperatorGroup's `spec` out instead of writing `spec: {}` (OLM reads both
   * alike): MetalLBIngress has always written it so, and its output stays byte for byte.
   * @default false
   */
  readonly omitEmptySpec?: boolean;
}

/**
 * The objects of one operator install, for escape hatches (`addJsonPatch`, annotations). The
 * Namespace is not among them: the chart holds one per name, which other constructs may share.
 */
export interface InstalledOperator {
  /** The OperatorGroup that lets OLM install into the namespace; undefined with `existingOperatorGroup`. */
  readonly operatorGroup?: ApiObject;
  /** The Subscription to the operator's package. */
  readonly subscription: ApiObject;
}

// A ClusterServiceVersion's name: the package, ".v", and a version, e.g. kubevirt-hyperconverged-operator.v4.17.3.
const CSV_NAME = /\.v\d+\.\d+\.\d+/;

const OPTION_FIELDS = ['channel', 'catalogSource', 'catalogSourceNamespace', 'subscriptionName', 'operatorGroupName', 'existingOperatorGroup', 'startingCsv', 'installPlanApproval'] as const;

/**
 * Records problems with the install options under their field names; `installs` false (the
 * construct's `installOperator: false`) makes any option given a problem, since nothing would read it.
 */
export function checkOperatorInstallOptions(options: OperatorInstallOptions, problems: Problems, installs = true): void {
  if (!installs) {
    for (const field of OPTION_FIELDS) {
      if (options[field] !== undefined) problems.add(`${field} (${show(options[field])}) has no effect with installOperator false; leave it out, or let this construct install the operator`);
    }
  }
  if (options.catalogSource !== undefined) problems.require(isDns1123Subdomain(options.catalogSource), 'catalogSource', options.catalogSource, DNS1123_SUBDOMAIN_RULE);
  if (options.catalogSourceNamespace !== undefined) problems.require(isDns1123Label(options.catalogSourceNamespace), 'catalogSourceNamespace', options.catalogSourceNamespace, DNS1123_LABEL_RULE);
  if (options.channel !== undefined) problems.require(/^\S+$/.test(options.channel), 'channel', options.channel, 'must be a channel name such as stable');
  if (options.existingOperatorGroup && options.operatorGroupName !== undefined) {
    problems.add(`operatorGroupName (${show(options.operatorGroupName)}) names an OperatorGroup to write, but existingOperatorGroup (true) writes none: give one of them`);
  }
  for (const field of ['subscriptionName', 'operatorGroupName'] as const) {
    const name = options[field];
    if (name !== undefined) problems.require(isDns1123Subdomain(name), field, name, DNS1123_SUBDOMAIN_RULE);
  }
  if (options.startingCsv !== undefined) {
    problems.require(
      isDns1123Subdomain(options.startingCsv) && CSV_NAME.test(options.startingCsv),
      'startingCsv',
      options.startingCsv,
      'must be a ClusterServiceVersion name, <package>.v<version>, such as lvms-operator.v4.17.0 (oc get packagemanifest <package> -o yaml lists them)',
    );
  }
  if (options.installPlanApproval !== undefined) {
    problems.require(Object.values(InstallPlanApproval).includes(options.installPlanApproval), 'installPlanApproval', options.installPlanApproval, 'must be Automatic or Manual');
  }
}

/**
 * The Namespace, OperatorGroup and Subscription that make OLM install an operator, as the docs'
 * "Installing ... by using the CLI" procedures write them. Children of `scope`: `OperatorGroup`
 * (unless the namespace has one, `existingOperatorGroup`) and `Subscription`; the Namespace is the
 * chart's one per name.
 */
export function installOperator(scope: Construct, install: OperatorInstall, options: OperatorInstallOptions): InstalledOperator {
  const namespace = ensureNamespace(scope, install.namespace);
  for (const [key, value] of Object.entries(install.namespaceLabels ?? {})) namespace.metadata.addLabel(key, value);
  for (const [key, value] of Object.entries(install.namespaceAnnotations ?? {})) namespace.metadata.addAnnotation(key, value);
  const operatorGroup = options.existingOperatorGroup
    ? undefined
    : new ApiObject(scope, 'OperatorGroup', {
        apiVersion: 'operators.coreos.com/v1',
        kind: 'OperatorGroup',
        metadata: { name: options.operatorGroupName ?? install.operatorGroupName, namespace: install.namespace },
        ...(install.ownNamespace ? { spec: { targetNamespaces: [install.namespace] } } : install.omitEmptySpec ? {} : { spec: {} }),
      });
  const subscription = new ApiObject(scope, 'Subscription', {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name: options.subscriptionName ?? install.subscriptionName, namespace: install.namespace },
    spec: {
      channel: options.channel ?? install.defaultChannel,
      name: install.packageName,
      source: options.catalogSource ?? 'redhat-operators',
      sourceNamespace: options.catalogSourceNamespace ?? 'openshift-marketplace',
      installPlanApproval: options.installPlanApproval,
      startingCSV: options.startingCsv,
    },
  });
  return { operatorGroup, subscription };
}
