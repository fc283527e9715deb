import type { KindAccess, UnitAccess } from './unit-access';

/** The prefix of every Role and ClusterRole hcp-cdk writes for Flux, so that they never meet a name of the cluster's own. */
export const FLUX_ROLE_PREFIX = 'hcp-cdk-flux-';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
/** Verbs on the objects a unit writes, by name: server-side apply reads, creates and patches them. */
const WRITE_VERBS = ['create', 'get', 'patch', 'update'];
/**
 * Kinds a Kustomization health-checks: kstatus reads them, and may list and watch them. Objects
 * of other kinds are only read by name.
 */
const WATCHED_KINDS: ReadonlySet<string> = new Set(['HostedCluster', 'NodePool', 'Subscription']);

/** One RBAC rule. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
}

/** Options of `fluxUnitRbac`. */
export interface FluxUnitRbacOptions {
  /** The Kustomization's (and its ServiceAccount's) name and namespace. */
  readonly name: string;
  readonly namespace: string;
  /** What the unit writes. */
  readonly access: UnitAccess;
  /**
   * Kinds (`<group>/<kind>`) of which the unit writes an object that Flux may prune: they need
   * `delete` on the whole kind in its namespace, since a pruned object is by then gone from Git,
   * and from the names below. Protected objects are never pruned.
   */
  readonly prunable: ReadonlySet<string>;
  /**
   * Grant everything through one ClusterRole: for the hub's own unit, which makes the namespaces
   * it writes into, so no Role can be there before it.
   */
  readonly clusterWide: boolean;
}

/** The RBAC objects of one unit. */
export interface FluxUnitRbac {
  /** The ServiceAccount, and the ClusterRole and ClusterRoleBinding when the unit needs one. */
  readonly clusterScoped: any[];
  /** A Role and RoleBinding per namespace the unit writes into, created once the namespaces exist. */
  readonly namespaced: any[];
}

/**
 * The ServiceAccount a Flux Kustomization applies as (`spec.serviceAccountName`), and the RBAC
 * that lets it write exactly the objects of its folder: create, read and patch each by name,
 * delete only the kinds it may prune, list and watch only the kinds it health-checks. Cluster-
 * scoped objects, and objects in namespaces the unit makes itself, are granted by a ClusterRole
 * (still by name); the others by a Role in their namespace, so that the unit cannot write into
 * another namespace, or write an object another unit owns there.
 */
export function fluxUnitRbac(options: FluxUnitRbacOptions): FluxUnitRbac {
  const { name, namespace, access } = options;
  const roleName = `${FLUX_ROLE_PREFIX}${name}`;
  const subject = { kind: 'ServiceAccount', name, namespace };
  const ownNamespaces = new Set(access.clusterScoped.filter((k) => k.group === '' && k.kind === 'Namespace').flatMap((k) => k.names));
  const clusterRules: PolicyRule[] = [...rulesFor(access.clusterScoped, options.prunable)];
  const namespaced: any[] = [];
  for (const [where, kinds] of access.namespaces) {
    if (options.clusterWide || ownNamespaces.has(where)) {
      clusterRules.push(...rulesFor(kinds, options.prunable));
      continue;
    }
    namespaced.push(
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: roleName, namespace: where }, rules: rulesFor(kinds, options.prunable) },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: roleName, namespace: where },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: roleName },
        subjects: [subject],
      },
    );
  }
  const clusterScoped: any[] = [{ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } }];
  if (clusterRules.length > 0) clusterScoped.push(...clusterRole(roleName, mergeRules(clusterRules), subject));
  return { clusterScoped, namespaced };
}

/** A ClusterRole with `rules`, bound to `subject`. */
export function clusterRole(name: string, rules: readonly PolicyRule[], subject: { kind: string; name: string; namespace: string }): any[] {
  return [
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [subject],
    },
  ];
}

/** The rules for writing `kinds`: by name, plus delete where prunable and list/watch where health-checked. */
function rulesFor(kinds: readonly KindAccess[], prunable: ReadonlySet<string>): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const k of kinds) {
    // Writing a Role or ClusterRole that grants what the writer itself lacks takes escalate, binding one takes bind.
    const grants = k.group === RBAC_GROUP && (k.kind === 'Role' || k.kind === 'ClusterRole');
    rules.push({ apiGroups: [k.group], resources: [k.resource], resourceNames: k.names, verbs: grants ? [...WRITE_VERBS, 'bind', 'escalate'] : WRITE_VERBS });
    const kindWide = [...(prunable.has(`${k.group}/${k.kind}`) ? ['delete'] : []), ...(WATCHED_KINDS.has(k.kind) ? ['list', 'watch'] : [])];
    if (kindWide.length > 0) rules.push({ apiGroups: [k.group], resources: [k.resource], verbs: kindWide });
  }
  return rules;
}

/** Rules of one ClusterRole gathered from several namespaces: the names of one group, resource and verbs merged. */
function mergeRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const merged = new Map<string, { rule: PolicyRule; names?: Set<string> }>();
  for (const rule of rules) {
    const key = JSON.stringify([rule.apiGroups, rule.resources, rule.verbs, rule.resourceNames === undefined]);
    const found = merged.get(key);
    if (found === undefined) merged.set(key, { rule, names: rule.resourceNames ? new Set(rule.resourceNames) : undefined });
    else rule.resourceNames?.forEach((n) => found.names!.add(n));
  }
  return [...merged.values()].map(({ rule, names }) => (names ? { ...rule, resourceNames: [...names].sort() } : rule));
}
