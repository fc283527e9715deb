import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';

/** The namespace of the cluster's IngressControllers. */
export const INGRESS_OPERATOR_NAMESPACE = 'openshift-ingress-operator';

/** Props of IngressWildcardPolicy. */
export interface IngressWildcardPolicyProps {
  /**
   * The IngressController whose routes may be wildcards.
   * @default 'default' (the one docs 3.3.1.1 patch, which serves `*.apps` of the hub)
   */
  readonly ingressControllerName?: string;
}

/**
 * Lets the management cluster's router admit wildcard routes (`spec.routeAdmission.wildcardPolicy:
 * WildcardsAllowed`), which a KubeVirt hosted cluster without a base domain needs for its
 * `*.apps` subdomain of the hub's (docs 3.3.1.1, the `oc patch ingresscontroller` step). Written as
 * a partial IngressController that server-side apply merges into the one OpenShift made, so its
 * other fields stay; every delivery protects it from pruning, since deleting it would delete the
 * hub's router. A KubevirtHub of the same chart counts it as `wildcardRoutesAllowed`.
 * The IngressController has no typed class here (its CRD is too large to import); the validator
 * checks it against the CRD at synth.
 */
export class IngressWildcardPolicy extends Construct {
  /** The IngressController's name. */
  public readonly ingressControllerName: string;
  /** The partial IngressController. */
  public readonly resource: ApiObject;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: IngressWildcardPolicyProps = {}) {
    super(scope, id);
    this.ingressControllerName = props.ingressControllerName ?? 'default';
    const problems = new Problems(this);
    problems.require(isDns1123Subdomain(this.ingressControllerName), 'ingressControllerName', this.ingressControllerName, DNS1123_SUBDOMAIN_RULE);
    problems.report();
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'operator.openshift.io/v1',
      kind: 'IngressController',
      metadata: { name: this.ingressControllerName, namespace: INGRESS_OPERATOR_NAMESPACE },
      spec: { routeAdmission: { wildcardPolicy: 'WildcardsAllowed' } },
    });
  }
}
