import { SchemaCatalog } from './schema-catalog';

/** Kinds whose resource is not a plural made by the English rules below. */
const IRREGULAR_PLURALS: Readonly<Record<string, string>> = { Endpoints: 'endpoints' };

/**
 * The resource name of a kind (what RBAC rules, API paths and a CRD's name use): the CRD's plural
 * for the kinds `catalog` knows, otherwise the kind in lower case with the English plural that
 * Kubernetes' built-in kinds and CRD authors use (`Policy` gives `policies`, `Ingress` `ingresses`).
 */
export function resourceNameOf(apiVersion: string, kind: string, catalog: SchemaCatalog = SchemaCatalog.bundled()): string {
  const known = catalog.resourceOf(apiVersion, kind) ?? IRREGULAR_PLURALS[kind];
  if (known) return known;
  const lower = kind.toLowerCase();
  if (/[^aeiou]y$/.test(lower)) return `${lower.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(lower)) return `${lower}es`;
  return `${lower}s`;
}
