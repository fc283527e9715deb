import type { PolicyRule } from './flux-access';

/** The label that puts a ManagedCluster in a ManagedClusterSet. */
export const CLUSTER_SET_LABEL = 'cluster.open-cluster-management.io/clusterset';

/** The API group of ManagedClusters, ManagedClusterSets and their bindings. */
const CLUSTER_GROUP = 'cluster.open-cluster-management.io';
/** The API group of the virtual `managedclusters/accept` subresource. */
const REGISTER_GROUP = 'register.open-cluster-management.io';

/**
 * The rights Open Cluster Management's admission webhooks ask of whoever writes `json`, beyond
 * writing it, by a SubjectAccessReview of the writer (open-cluster-management-io/ocm 1ff6815cdd27,
 * pkg/registration/webhook): a ManagedClusterSetBinding needs `create` on the virtual subresource
 * `managedclustersets/bind` of its set (v1beta2/managedclustersetbinding_validating.go,
 * `AllowBindingToClusterSet`; the binding is named after its set); a ManagedCluster that the hub
 * accepts needs `update` on `managedclusters/accept` of its name (v1/managedcluster_validating.go,
 * `allowUpdateAcceptField`), and one in a cluster set `create` on `managedclustersets/join` of that
 * set (`allowUpdateClusterSet`). Nothing for any other object.
 */
export function ocmAdmissionRules(json: any): PolicyRule[] {
  const group = typeof json?.apiVersion === 'string' ? json.apiVersion.split('/')[0] : '';
  if (group !== CLUSTER_GROUP) return [];
  if (json.kind === 'ManagedClusterSetBinding') {
    return [{ apiGroups: [CLUSTER_GROUP], resources: ['managedclustersets/bind'], resourceNames: [json.spec?.clusterSet ?? json.metadata.name], verbs: ['create'] }];
  }
  if (json.kind !== 'ManagedCluster') return [];
  const rules: PolicyRule[] = [];
  if (json.spec?.hubAcceptsClient === true) rules.push({ apiGroups: [REGISTER_GROUP], resources: ['managedclusters/accept'], resourceNames: [json.metadata.name], verbs: ['update'] });
  const set = json.metadata.labels?.[CLUSTER_SET_LABEL];
  if (set) rules.push({ apiGroups: [CLUSTER_GROUP], resources: ['managedclustersets/join'], resourceNames: [set], verbs: ['create'] });
  return rules;
}
