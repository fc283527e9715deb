import { FLUX_ROLE_PREFIX, PolicyRule } from './flux-access';

/**
 * The ServiceAccounts of Flux's own controllers (and every namespace's `default`): a management
 * cluster whose units' names could be one of them is refused, as the admission policy lets
 * `flux-<hub>` name the ServiceAccounts `<hub>`, `<hub>-…`, `flux-<hub>` and `flux-<hub>-…`.
 */
export const FLUX_CONTROLLER_SERVICE_ACCOUNTS: readonly string[] = [
  'default',
  'helm-controller',
  'image-automation-controller',
  'image-reflector-controller',
  'kustomize-controller',
  'notification-controller',
  'source-controller',
  'source-watcher',
];

/** What the admission policy of one management cluster's Flux objects is made from. */
export interface FluxAdmissionPolicyProps {
  /** The management cluster (its bootstrap folder `flux/<hub>`). */
  readonly hub: string;
  /** The namespace of its Kustomizations and ServiceAccounts. */
  readonly namespace: string;
  /** Every rule of every role its bootstrap folders write: the group and resource of each is all a role written there may grant. */
  readonly rules: readonly PolicyRule[];
  /** The Secret its GitRepository names, if any. */
  readonly gitRepositorySecret?: string;
}

const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** The verbs hcp-cdk's Flux roles grant: writing by name, and binding or escalating roles of its own. */
const WRITE_VERBS = ['create', 'delete', 'get', 'patch', 'update'];

/**
 * A ValidatingAdmissionPolicy and its binding, applied once by a cluster admin (never by Flux),
 * that pin what `flux-<hub>`, `flux-<hub>-access` and `flux-<hub>-guests` may write, so that the
 * rights they hold to write roles and bindings (`escalate` and `bind` on the hub's units' roles, by
 * name) and Kustomizations (which kustomize-controller runs as the ServiceAccount they name, or as
 * itself when they name none: fluxcd/kustomize-controller 186fb3b29138
 * internal/controller/kustomization_controller.go `reconcile`, over fluxcd/pkg runtime/client
 * impersonator.go `GetClient`) lead nowhere beyond the hub's units:
 * - a binding is named `hcp-cdk-flux-<unit>`, refers to the role of its own name and binds exactly
 *   the ServiceAccount `<unit>` in the Flux namespace, a unit of this hub;
 * - a role is named `hcp-cdk-flux-…`, and each rule names the objects it grants (resourceNames),
 *   on a kind the hub's roles grant today, with the verbs they use, no wildcard, no URL, and
 *   `bind` or `escalate` only on roles named `hcp-cdk-flux-…`; `flux-<hub>`'s own Role in its
 *   namespace alone grants ServiceAccounts and Kustomizations whatever their names;
 * - a Kustomization `flux-<hub>` writes is in the Flux namespace, named as a unit of this hub, and
 *   applies as the ServiceAccount of its own name, with no kubeConfig, no variable substitution
 *   from Secrets or ConfigMaps (which the controller reads as itself: `SubstituteVariables`) and
 *   no decryption; one `flux-<hub>-guests` writes applies through a hosted cluster's admin
 *   kubeconfig (`<name>-admin-kubeconfig`), as no ServiceAccount, and substitutes nothing either;
 * - a ServiceAccount or a Kustomization `flux-<hub>` writes or deletes is a unit's of this hub, in
 *   its namespace (it may write and delete those kinds there whatever their names, by RBAC);
 * - its GitRepository names no other Secret than the one the delivery gives it.
 * What stays possible is what the hub's units may be granted by name: a widened role grants the
 * kinds the hub writes already, by name (see docs/delivery.md, "Least privilege").
 */
export function fluxAdmissionPolicy(props: FluxAdmissionPolicyProps): any[] {
  const { hub, namespace } = props;
  const name = `${FLUX_ROLE_PREFIX}${hub}`;
  const account = (unit: string) => `system:serviceaccount:${namespace}:${unit}`;
  const bootstrap = `flux-${hub}`;
  const unitName = (n: string) => `(${n} == '${hub}' || ${n}.startsWith('${hub}-') || ${n} == '${bootstrap}' || ${n}.startsWith('${bootstrap}-'))`;
  const kinds = [...new Set(props.rules.flatMap((r) => r.apiGroups.flatMap((g) => r.resources.map((x) => `${g}/${x}`))))].sort();
  const list = (items: readonly string[]) => `[${items.map((i) => `'${i}'`).join(', ')}]`;
  const verbsOk =
    `r.verbs.all(v, v in ${list(WRITE_VERBS)} || (v in ['bind', 'escalate'] && r.apiGroups.all(g, g == '${RBAC_GROUP}') && ` +
    `r.resources.all(x, x in ['roles', 'clusterroles']) && has(r.resourceNames) && r.resourceNames.all(n, n.startsWith('${FLUX_ROLE_PREFIX}'))))`;
  const ownKindWide = `(request.kind.kind == 'Role' && request.namespace == '${namespace}' && object.metadata.name == '${FLUX_ROLE_PREFIX}${bootstrap}' && r.resources.all(x, x in ['serviceaccounts', 'kustomizations']))`;
  const ruleOk =
    `!has(r.nonResourceURLs) && r.apiGroups.all(g, g != '*') && r.resources.all(x, x != '*' && !x.endsWith('/*')) && ${verbsOk} && ` +
    `((has(r.resourceNames) && size(r.resourceNames) > 0 && r.resourceNames.all(n, n != '*')) || ${ownKindWide}) && ` +
    `r.apiGroups.all(g, r.resources.all(x, (g + '/' + x) in variables.kinds))`;
  const validations = [
    {
      expression:
        `!(request.kind.kind in ['RoleBinding', 'ClusterRoleBinding']) || (object.metadata.name.startsWith('${FLUX_ROLE_PREFIX}') && ` +
        `object.roleRef.name == object.metadata.name && object.roleRef.kind == (request.kind.kind == 'RoleBinding' ? 'Role' : 'ClusterRole') && ` +
        `size(object.subjects) == 1 && object.subjects[0].kind == 'ServiceAccount' && object.subjects[0].namespace == '${namespace}' && ` +
        `object.subjects[0].name == object.metadata.name.substring(${FLUX_ROLE_PREFIX.length}) && ${unitName('object.subjects[0].name')})`,
      message: `a binding written by the Flux units of ${hub} binds the role of its own name to the one ServiceAccount of that name (hcp-cdk-flux-<unit> to <unit> in ${namespace})`,
    },
    {
      expression: `!(request.kind.kind in ['Role', 'ClusterRole']) || (object.metadata.name.startsWith('${FLUX_ROLE_PREFIX}') && (!has(object.rules) || object.rules.all(r, ${ruleOk})))`,
      message: `a role written by the Flux units of ${hub} grants, by name and without wildcards, only the kinds the hub's roles grant (bind and escalate on hcp-cdk-flux-… roles alone)`,
    },
    {
      expression:
        `request.kind.kind != 'Kustomization' || variables.writer != '${bootstrap}' || (request.namespace == '${namespace}' && ${unitName('request.name')} && ` +
        `(request.operation == 'DELETE' || (has(object.spec.serviceAccountName) && object.spec.serviceAccountName == object.metadata.name && ` +
        `!has(object.spec.kubeConfig) && !has(object.spec.postBuild) && !has(object.spec.decryption))))`,
      message: `a Kustomization written or deleted by ${bootstrap} is a unit of ${hub} in ${namespace}, and applies as the ServiceAccount of its own name, with no kubeConfig, postBuild or decryption`,
    },
    {
      expression:
        `request.kind.kind != 'Kustomization' || variables.writer != '${bootstrap}-guests' || request.operation == 'DELETE' || (has(object.spec.kubeConfig) && has(object.spec.kubeConfig.secretRef) && ` +
        `object.spec.kubeConfig.secretRef.name.endsWith('-admin-kubeconfig') && !has(object.spec.serviceAccountName) && !has(object.spec.postBuild) && !has(object.spec.decryption))`,
      message: `a Kustomization written by ${bootstrap}-guests applies through a hosted cluster's admin kubeconfig, as no ServiceAccount, with no postBuild or decryption`,
    },
    {
      expression: `request.kind.kind != 'ServiceAccount' || (request.namespace == '${namespace}' && ${unitName('request.name')})`,
      message: `a ServiceAccount written or deleted by the Flux units of ${hub} is one of its units', in ${namespace}`,
    },
    {
      expression:
        `request.kind.kind != 'GitRepository' || (!has(object.spec.proxySecretRef) && ` +
        `(!has(object.spec.secretRef) || object.spec.secretRef.name in ${list(props.gitRepositorySecret ? [props.gitRepositorySecret] : [])}))`,
      message: `the GitRepository of ${hub} names no Secret but the one the delivery gives it`,
    },
  ];
  const policy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: [
          { apiGroups: [RBAC_GROUP], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['roles', 'clusterroles', 'rolebindings', 'clusterrolebindings'] },
          { apiGroups: ['kustomize.toolkit.fluxcd.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['kustomizations'] },
          { apiGroups: [''], apiVersions: ['*'], operations: ['CREATE', 'UPDATE', 'DELETE'], resources: ['serviceaccounts'] },
          { apiGroups: ['source.toolkit.fluxcd.io'], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: ['gitrepositories'] },
        ],
      },
      matchConditions: [{ name: 'written-by-the-bootstrap-units', expression: `request.userInfo.username in ${list([bootstrap, `${bootstrap}-access`, `${bootstrap}-guests`].map(account))}` }],
      variables: [
        { name: 'writer', expression: `request.userInfo.username.substring(${account('').length})` },
        { name: 'kinds', expression: list(kinds) },
      ],
      // Refused as RBAC refuses (403), not as an invalid object.
      validations: validations.map((v) => ({ ...v, reason: 'Forbidden' })),
    },
  };
  const binding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: { policyName: name, validationActions: ['Deny'] },
  };
  return [policy, binding];
}
