import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { ensureNamespace } from './kube-objects';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from './names';
import type { Problems } from './problems';

/** Where OLM takes an operator from: the Subscription's channel and catalog. */
export interface OperatorSource {
  /** The Subscription's update channel. @default - the operator's own default channel (given per construct) */
  readonly channel?: string;
  /** The CatalogSource offering the operator. @default 'redhat-operators' */
  readonly catalogSource?: string;
  /** The namespace of the CatalogSource. @default 'openshift-marketplace' */
  readonly catalogSourceNamespace?: string;
}

/** What one operator install needs: the package, where it goes, and whether it watches only its namespace. */
export interface OperatorInstall {
  readonly namespace: string;
  readonly operatorGroupName: string;
  readonly packageName: string;
  /** `metadata.name` of the Subscription, as the docs name it. */
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

/** Records problems with the channel and catalog names under their field names. */
export function checkOperatorSource(source: OperatorSource, problems: Problems): void {
  if (source.catalogSource !== undefined) problems.require(isDns1123Subdomain(source.catalogSource), 'catalogSource', source.catalogSource, DNS1123_SUBDOMAIN_RULE);
  if (source.catalogSourceNamespace !== undefined) problems.require(isDns1123Label(source.catalogSourceNamespace), 'catalogSourceNamespace', source.catalogSourceNamespace, DNS1123_LABEL_RULE);
  if (source.channel !== undefined) problems.require(/^\S+$/.test(source.channel), 'channel', source.channel, 'must be a channel name such as stable');
}

/**
 * The Namespace, OperatorGroup and Subscription that make OLM install an operator, as the docs'
 * "Installing ... by using the CLI" procedures write them. Children of `scope`: `OperatorGroup`
 * and `Subscription`; the Namespace is the chart's one per name.
 */
export function installOperator(scope: Construct, install: OperatorInstall, source: OperatorSource): ApiObject {
  const namespace = ensureNamespace(scope, install.namespace);
  for (const [key, value] of Object.entries(install.namespaceLabels ?? {})) namespace.metadata.addLabel(key, value);
  for (const [key, value] of Object.entries(install.namespaceAnnotations ?? {})) namespace.metadata.addAnnotation(key, value);
  new ApiObject(scope, 'OperatorGroup', {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name: install.operatorGroupName, namespace: install.namespace },
    ...(install.ownNamespace ? { spec: { targetNamespaces: [install.namespace] } } : install.omitEmptySpec ? {} : { spec: {} }),
  });
  return new ApiObject(scope, 'Subscription', {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: { name: install.subscriptionName, namespace: install.namespace },
    spec: {
      channel: source.channel ?? install.defaultChannel,
      name: install.packageName,
      source: source.catalogSource ?? 'redhat-operators',
      sourceNamespace: source.catalogSourceNamespace ?? 'openshift-marketplace',
    },
  });
}
