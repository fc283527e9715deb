import type { KindAccess, UnitAccess } from './unit-access';

/** The prefix of every Role and ClusterRole hcp-cdk writes for Flux, so that they never meet a name of the cluster's own. */
export const FLUX_ROLE_PREFIX = 'hcp-cdk-flux-';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
/**
 * Verbs on the objects a unit writes, by name. kustomize-controller reads each object, then
 * server-side applies it, as a dry run and for real (fluxcd/pkg ssa `ResourceManager.ApplyAll`,
 * a `get` then PATCHes): an apply that creates an object is a PATCH, authorized by name, so
 * `create`, which RBAC never matches by name, is not what lets it create.
 */
const WRITE_VERBS = ['create', 'get', 'patch', 'update'];
/**
 * Verbs on what a unit applied before and no longer writes, by name: Flux's prune reads each
 * object of the inventory the new one lacks, then deletes it unless it is protected (fluxcd/pkg
 * ssa `ResourceManager.Delete`: a `get`, then `delete`; a refused `get` fails the Kustomization
 * with PruneFailed, whatever the object, protected ones included).
 */
const PRUNE_READ = ['get'];
const PRUNE_DELETE = ['delete', 'get'];

/** One RBAC rule. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly resourceNames?: readonly string[];
  readonly verbs: readonly string[];
}

/** How a unit that writes Roles or ClusterRoles may grant what they hold. */
export enum RoleGrants {
  /**
   * `escalate` and `bind` on the roles it writes, by name, and within its namespaces: for a unit
   * whose folder holds RBAC. Never on the role that grants the unit itself.
   */
  ESCALATE_BY_NAME = 'escalate-by-name',
  /**
   * No `escalate`: the unit holds every rule of the roles it writes (`heldRules`), which is what the
   * API server asks of whoever writes a role without `escalate`; and `bind` on them, by name, since
   * Flux dry-runs a RoleBinding before the Role it names exists (fluxcd/pkg ssa `ApplyAll` dry-runs
   * a whole stage before it applies any of it, and Roles and RoleBindings share one), and binding a
   * role one holds is checked against the role itself, which is not found then. For
   * `flux-<hub>-access`, which writes Roles in namespaces it does not own: with `escalate` on their
   * names it could write a Role of one of those names anywhere, kube-system included; with `bind`
   * alone it binds a Role of those names only, whose rules it holds wherever it wrote one.
   */
  HOLD = 'hold',
}

/** Options of `fluxUnitRbac`. */
export interface FluxUnitRbacOptions {
  /** The Kustomization's (and its ServiceAccount's) name and namespace. */
  readonly name: string;
  readonly namespace: string;
  /** What the unit writes. */
  readonly access: UnitAccess;
  /**
   * Kinds (`<group>/<kind>`) of which the unit writes an object that Flux may prune: `delete` on
   * those names, so that a later commit that drops one can prune it (it is then carried in `pruned`).
   */
  readonly prunable: ReadonlySet<string>;
  /**
   * What the unit applied in the previous output and no longer writes, which Flux reads, and prunes
   * unless protected, on its next reconciliation: `get` on each, and `delete` on those in `deletable`.
   * @default - nothing
   */
  readonly pruned?: UnitAccess;
  /** Of `pruned`, what Flux deletes (not protected, and written by no other unit now). @default - nothing */
  readonly deletable?: UnitAccess;
  /**
   * Grant everything through one ClusterRole: for the hub's own unit, which makes the namespaces
   * it writes into, so no Role can be there before it.
   */
  readonly clusterWide: boolean;
  /** How the unit may grant what the roles it writes hold. @default RoleGrants.ESCALATE_BY_NAME */
  readonly roleGrants?: RoleGrants;
  /** With RoleGrants.HOLD: the rules of every role the unit writes. @default - none */
  readonly heldRules?: readonly PolicyRule[];
  /**
   * Kinds (`<group>/<resource>`) the unit writes in its own namespace (that of its Kustomization)
   * whose names change with the fleet: granted on the whole kind there, by a Role in that namespace,
   * so that adding a cluster does not widen the unit's own ClusterRole, which it may not do itself.
   * For `flux-<hub>`, which writes a Kustomization and a ServiceAccount per unit.
   * @default - none
   */
  readonly ownNamespaceKinds?: readonly { readonly group: string; readonly resource: string }[];
  /**
   * Rights on virtual subresources that admission webhooks ask of whoever writes the unit's objects
   * (OCM's `managedclustersets/bind`, ...), granted as they are: cluster-wide, by name.
   * @default - none
   */
  readonly admissionRules?: readonly PolicyRule[];
}

/** The RBAC objects of one unit. */
export interface FluxUnitRbac {
  /** The ServiceAccount, and the ClusterRole and ClusterRoleBinding when the unit needs one. */
  readonly clusterScoped: any[];
  /** A Role and RoleBinding per namespace the unit writes into, created once the namespaces exist. */
  readonly namespaced: any[];
  /** Every rule the unit's roles hold: what a unit that writes them must hold itself (RoleGrants.HOLD). */
  readonly rules: readonly PolicyRule[];
}

/**
 * The ServiceAccount a Flux Kustomization applies as (`spec.serviceAccountName`), and the RBAC
 * that lets it write exactly the objects of its folder: read and patch each by name, delete those
 * Flux may prune, by name, read (and delete, when not protected) what it applied before and Flux
 * prunes now. Nothing is granted on a whole kind, so no unit lists or reads another's objects in
 * a namespace they share: kustomize-controller reads the objects it health-checks by name
 * (kstatus's direct cluster reader, its default since v1.2 with the feature gate
 * DisableStatusPollerCache; see docs/delivery.md for the cache). Cluster-scoped objects, and
 * objects in namespaces the unit makes itself, are granted by a ClusterRole (still by name); the
 * others by a Role in their namespace, so that the unit cannot write into another namespace.
 */
export function fluxUnitRbac(options: FluxUnitRbacOptions): FluxUnitRbac {
  const { name, namespace, access } = options;
  const roleName = `${FLUX_ROLE_PREFIX}${name}`;
  const subject = { kind: 'ServiceAccount', name, namespace };
  const grants = options.roleGrants ?? RoleGrants.ESCALATE_BY_NAME;
  const ownNamespaceKinds = options.ownNamespaceKinds ?? [];
  const kindWideHere = (where: string | undefined, k: KindAccess): boolean => where === namespace && ownNamespaceKinds.some((o) => o.group === k.group && o.resource === k.resource);
  const rulesIn = (where: string | undefined, kinds: readonly KindAccess[]): PolicyRule[] =>
    rulesFor(
      kinds.filter((k) => !kindWideHere(where, k)),
      options.prunable,
      grants === RoleGrants.ESCALATE_BY_NAME ? { verbs: ['bind', 'escalate'], except: roleName } : { verbs: ['bind'] },
    );
  const prunedIn = (where: string | undefined, kinds: readonly KindAccess[] | undefined): PolicyRule[] => {
    const deletable = where === undefined ? options.deletable?.clusterScoped : options.deletable?.namespaces.get(where);
    return prunedRules(
      (kinds ?? []).filter((k) => !kindWideHere(where, k)),
      deletable ?? [],
    );
  };
  const ownNamespaces = new Set(access.clusterScoped.filter((k) => k.group === '' && k.kind === 'Namespace').flatMap((k) => k.names));
  const clusterRules: PolicyRule[] = [...rulesIn(undefined, access.clusterScoped), ...prunedIn(undefined, options.pruned?.clusterScoped)];
  const byNamespace = new Map<string, PolicyRule[]>();
  for (const where of new Set([...access.namespaces.keys(), ...(options.pruned?.namespaces.keys() ?? [])])) {
    const rules = [...rulesIn(where, access.namespaces.get(where) ?? []), ...prunedIn(where, options.pruned?.namespaces.get(where))];
    if (options.clusterWide || ownNamespaces.has(where)) clusterRules.push(...rules);
    else if (rules.length > 0) byNamespace.set(where, rules);
  }
  // Kind-wide in its own namespace only, whatever else is cluster-wide.
  if (ownNamespaceKinds.length > 0) {
    const own = ownNamespaceKinds.map((k) => ({ apiGroups: [k.group], resources: [k.resource], verbs: [...WRITE_VERBS, 'delete'] }));
    byNamespace.set(namespace, [...(byNamespace.get(namespace) ?? []), ...own]);
  }
  clusterRules.push(...(options.admissionRules ?? []));
  if (grants === RoleGrants.HOLD) clusterRules.push(...(options.heldRules ?? []));
  const namespaced: any[] = [];
  const allRules: PolicyRule[] = [];
  for (const [where, rules] of [...byNamespace].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const merged = mergeRules(rules);
    allRules.push(...merged);
    namespaced.push(
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: roleName, namespace: where }, rules: merged },
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
  if (clusterRules.length > 0) {
    const merged = mergeRules(clusterRules);
    allRules.push(...merged);
    clusterScoped.push(...clusterRole(roleName, merged, subject));
  }
  return { clusterScoped, namespaced, rules: allRules };
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

/**
 * The rules for writing `kinds`, by name, with `delete` where prunable. Writing a Role or
 * ClusterRole that grants what the writer itself lacks takes `escalate`, binding one takes `bind`:
 * `grant.verbs` of those on the roles written, by name, never on `grant.except` (the role that
 * grants the unit itself).
 */
function rulesFor(kinds: readonly KindAccess[], prunable: ReadonlySet<string>, grant: { readonly verbs: readonly string[]; readonly except?: string }): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const k of kinds) {
    const verbs = [...WRITE_VERBS, ...(prunable.has(`${k.group}/${k.kind}`) ? ['delete'] : [])];
    const grantsRoles = k.group === RBAC_GROUP && (k.kind === 'Role' || k.kind === 'ClusterRole');
    const others = grantsRoles ? k.names.filter((n) => n !== grant.except) : [];
    const own = k.names.filter((n) => !others.includes(n));
    if (own.length > 0) rules.push({ apiGroups: [k.group], resources: [k.resource], resourceNames: own, verbs });
    if (others.length > 0) rules.push({ apiGroups: [k.group], resources: [k.resource], resourceNames: others, verbs: [...verbs, ...grant.verbs] });
  }
  return rules;
}

/** `get` on what Flux prunes now, and `delete` on those of it in `deletable`. */
function prunedRules(kinds: readonly KindAccess[], deletable: readonly KindAccess[]): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const k of kinds) {
    const doomed = new Set(deletable.find((d) => d.group === k.group && d.kind === k.kind)?.names ?? []);
    const kept = k.names.filter((n) => !doomed.has(n));
    if (doomed.size > 0) rules.push({ apiGroups: [k.group], resources: [k.resource], resourceNames: [...doomed].sort(), verbs: PRUNE_DELETE });
    if (kept.length > 0) rules.push({ apiGroups: [k.group], resources: [k.resource], resourceNames: kept, verbs: PRUNE_READ });
  }
  return rules;
}

/** Rules gathered from several namespaces or units: the names of one group, resource and verbs merged. */
export function mergeRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const merged = new Map<string, { rule: PolicyRule; names?: Set<string> }>();
  for (const rule of rules) {
    const key = JSON.stringify([rule.apiGroups, rule.resources, [...rule.verbs].sort(), rule.resourceNames === undefined]);
    const found = merged.get(key);
    if (found === undefined) merged.set(key, { rule, names: rule.resourceNames ? new Set(rule.resourceNames) : undefined });
    else rule.resourceNames?.forEach((n) => found.names!.add(n));
  }
  return [...merged.values()].map(({ rule, names }) => (names ? { ...rule, resourceNames: [...names].sort() } : rule));
}
