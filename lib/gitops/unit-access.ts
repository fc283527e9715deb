import { resourceNameOf } from '../validation/resource-name';
import { SchemaCatalog } from '../validation/schema-catalog';
import type { DeliveredFile } from './delivery';

/** What the access of a unit is worked out from: each object's kind, name and namespace. */
export type ObjectIdentity = Pick<DeliveredFile, 'apiVersion' | 'kind' | 'name' | 'namespace' | 'resource'>;

/** One kind a delivery unit writes, with the names it writes of it. */
export interface KindAccess {
  /** The API group: '' for the core group. */
  readonly group: string;
  readonly kind: string;
  /** The resource name RBAC rules use: the plural, e.g. `hostedclusters`. */
  readonly resource: string;
  /** `metadata.name` of each object of this kind the unit writes, sorted. */
  readonly names: readonly string[];
}

/** Everything a delivery unit writes: what an Argo CD AppProject or the RBAC of a Flux ServiceAccount must allow, and nothing more. */
export interface UnitAccess {
  /** Kinds of objects outside any namespace (a Namespace, a ClusterRole), sorted by group and kind. */
  readonly clusterScoped: readonly KindAccess[];
  /** Per namespace, sorted by name, the kinds written into it. */
  readonly namespaces: ReadonlyMap<string, readonly KindAccess[]>;
}

/**
 * What the objects of `files` are, by namespace, API group and kind. An object without a
 * namespace is cluster-scoped: every namespaced object hcp-cdk writes names its namespace.
 */
export function unitAccess(files: readonly ObjectIdentity[]): UnitAccess {
  const catalog = SchemaCatalog.bundled();
  const clusterScoped = new Map<string, { group: string; kind: string; resource: string; names: Set<string> }>();
  const namespaces = new Map<string, typeof clusterScoped>();
  for (const file of files) {
    const group = groupOf(file.apiVersion);
    const kinds = file.namespace === undefined ? clusterScoped : getOrAdd(namespaces, file.namespace, () => new Map());
    const key = `${group}/${file.kind}`;
    const entry = getOrAdd(kinds, key, () => ({ group, kind: file.kind, resource: file.resource ?? resourceNameOf(file.apiVersion, file.kind, catalog), names: new Set<string>() }));
    entry.names.add(file.name);
  }
  const sorted = (kinds: typeof clusterScoped): KindAccess[] =>
    [...kinds.keys()].sort(compare).map((key) => {
      const { names, ...rest } = kinds.get(key)!;
      return { ...rest, names: [...names].sort(compare) };
    });
  return {
    clusterScoped: sorted(clusterScoped),
    namespaces: new Map([...namespaces.keys()].sort(compare).map((namespace) => [namespace, sorted(namespaces.get(namespace)!)])),
  };
}

/** The API group of an apiVersion: '' for `v1`. */
export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function getOrAdd<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
