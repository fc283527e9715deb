import { Environment } from '@marcbachmann/cel-js';
import type { OpenApiSchema } from '../schema-catalog';

/**
 * The largest estimated cost the API server accepts for one rule, and for all the rules of a CRD
 * (k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation/validation.go:
 * StaticEstimatedCostLimit and StaticEstimatedCRDCostLimit). A CRD past either is refused at
 * creation, so its rules never run.
 */
export const RULE_COST_LIMIT = 10_000_000;
export const CRD_COST_LIMIT = 100_000_000;

/** The largest request the API server takes (k8s.io/apiserver pkg/cel/limits.go, DefaultMaxRequestSizeBytes: 3 MiB). */
const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

/** A schema node and how many values of it one object may hold at most. */
interface Sized {
  readonly schema?: OpenApiSchema;
}

/**
 * The smallest JSON text of a value of `schema` (k8s.io/apiserver pkg/cel/common/schemas.go,
 * SchemaDeclType's MinSerializedSize): `{}` plus each required property without a default, `""`
 * for a string, 1 for a number, 4 for a boolean, 2 for a list or a map.
 */
function minSerializedSize(schema: OpenApiSchema | undefined, depth = 0): number {
  if (!schema || depth > 32) return 1;
  switch (schema.type) {
    case 'string':
      return 2;
    case 'boolean':
      return 4;
    case 'integer':
    case 'number':
      return 1;
    case 'array':
      return 2;
    case 'object': {
      if (typeof schema.additionalProperties === 'object') return 2;
      let size = 2;
      for (const name of schema.required ?? []) {
        const property = schema.properties?.[name];
        if (property && property.default === undefined) size += name.length + minSerializedSize(property, depth + 1) + 4;
      }
      return size;
    }
    default:
      return 1;
  }
}

/**
 * How many elements a value of `schema` holds at most, as the API server estimates it (schemas.go:
 * maxItems, maxProperties or 4 × maxLength when declared, else what fits in one request:
 * estimateMaxArrayItemsFromMinSize, estimateMaxAdditionalPropertiesFromMinSize,
 * estimateMaxStringLengthPerRequest). 1 for a scalar.
 */
export function maxElements(schema: OpenApiSchema | undefined): number {
  if (!schema) return 1;
  if (schema.type === 'array') return schema.maxItems ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(schema.items) + 1));
  if (schema.type === 'object' && typeof schema.additionalProperties === 'object') {
    return schema.maxProperties ?? Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (minSerializedSize(schema.additionalProperties) + 6));
  }
  if (schema.type === 'string' || schema['x-kubernetes-int-or-string']) {
    if (schema.maxLength !== undefined) return schema.maxLength * 4;
    if (Array.isArray(schema.enum)) return Math.max(0, ...schema.enum.map((v) => (typeof v === 'string' ? v.length : 0)));
    if (schema.format === 'duration' || schema.format === 'date-time') return 32;
    if (schema.format === 'date') return 12;
    return MAX_REQUEST_SIZE_BYTES - 2;
  }
  return 1;
}

/** The schema of the elements of `schema` (a list's items, a map's values, a string's characters). */
function elementOf(schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  if (schema?.type === 'array') return schema.items;
  if (schema?.type === 'object' && typeof schema.additionalProperties === 'object') return schema.additionalProperties;
  return undefined;
}

/** Functions whose cost grows with the length of the string they read (cel-go checker/cost.go: a traversal cost of 0.1 per character). */
const STRING_TRAVERSALS = new Set([
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'matchesRe2',
  'lowerAscii',
  'upperAscii',
  'trim',
  'split',
  'replace',
  'indexOf',
  'lastIndexOf',
  'substring',
  'join',
  'format',
  'url',
  'isURL',
  'ip',
  'isIP',
  'cidr',
  'isCIDR',
  'quantity',
  'isQuantity',
]);
/** Macros that run their body once per element of their range. */
const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

interface Node {
  readonly op: string;
  readonly args: any;
}

/**
 * The estimated cost of one evaluation of `expression` with `self` of `schema`, after cel-go's
 * checker/cost.go as the API server runs it: 1 per identifier, field selection and function
 * call, 0.1 per character a string function reads, and a comprehension's body once per element
 * its range may hold (`maxElements`), nested ones multiplied. An estimate of the same order as the
 * API server's, made to refuse what it refuses: rules that loop over unbounded lists (nested, or
 * over unbounded strings), not to reproduce its figure to the unit.
 */
export function estimatedCost(expression: string, schema: OpenApiSchema): number {
  const ast = new Environment({ enableOptionalTypes: true }).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn').parse(expression).ast as Node;
  const cost = (node: Node, scope: ReadonlyMap<string, Sized>): { cost: number; sized: Sized } => {
    if (node === null || typeof node !== 'object' || typeof node.op !== 'string') return { cost: 0, sized: {} };
    switch (node.op) {
      case 'value':
        return { cost: 0, sized: {} };
      case 'id':
        return { cost: 1, sized: scope.get(node.args as string) ?? {} };
      case '.':
      case '?.': {
        const inner = cost(node.args[0] as Node, scope);
        const field = node.args[1] as string;
        const parent = inner.sized.schema;
        const child = parent?.properties?.[field] ?? (typeof parent?.additionalProperties === 'object' ? parent.additionalProperties : undefined);
        return { cost: inner.cost + 1, sized: { schema: child } };
      }
      case '[]':
      case '[?]': {
        const inner = cost(node.args[0] as Node, scope);
        const index = cost(node.args[1] as Node, scope);
        return { cost: inner.cost + index.cost + 1, sized: { schema: elementOf(inner.sized.schema) } };
      }
      case 'rcall': {
        const [name, receiverNode, argNodes] = node.args as [string, Node, Node[]];
        const receiver = cost(receiverNode, scope);
        if (COMPREHENSIONS.has(name) && argNodes.length >= 2) {
          const variable = argNodes[0].args as string;
          const range = receiver.sized.schema;
          const element = range?.type === 'object' && range.properties ? { schema: { type: 'string' } as OpenApiSchema } : { schema: elementOf(range) };
          const inner = new Map(scope).set(variable, element);
          const body = argNodes.slice(1).reduce((total, arg) => total + cost(arg, inner).cost, 0);
          // Each iteration also evaluates the loop condition and step (cel-go: about 2 more).
          return { cost: receiver.cost + maxElements(range) * (body + 2), sized: name === 'map' || name === 'filter' ? { schema: range } : {} };
        }
        const args = argNodes.reduce((total, arg) => total + cost(arg, scope).cost, 0);
        const reads = STRING_TRAVERSALS.has(name) ? Math.ceil(0.1 * maxElements(receiver.sized.schema)) : 0;
        return { cost: receiver.cost + args + 1 + reads, sized: {} };
      }
      case 'call': {
        const [, argNodes] = node.args as [string, Node[]];
        const args = (argNodes ?? []).map((arg) => cost(arg, scope));
        return { cost: args.reduce((total, arg) => total + arg.cost, 0) + 1, sized: {} };
      }
      case 'in': {
        const [item, list] = (node.args as Node[]).map((arg) => cost(arg, scope));
        // Membership reads the list (or the map's keys) element by element.
        return { cost: item.cost + list.cost + maxElements(list.sized.schema), sized: {} };
      }
      case '==':
      case '!=': {
        const [left, right] = (node.args as Node[]).map((arg) => cost(arg, scope));
        // Two strings or lists are compared element by element (0.1 per character for strings).
        const size = Math.min(maxElements(left.sized.schema), maxElements(right.sized.schema) || maxElements(left.sized.schema));
        return { cost: left.cost + right.cost + 1 + Math.ceil(0.1 * size), sized: {} };
      }
      default: {
        const children = Array.isArray(node.args) ? (node.args as unknown[]) : [node.args];
        const total = children.flat().reduce<number>((sum, child) => sum + (child && typeof child === 'object' && 'op' in child ? cost(child as Node, scope).cost : 0), 0);
        return { cost: total + 1, sized: {} };
      }
    }
  };
  return cost(
    ast,
    new Map([
      ['self', { schema }],
      ['oldSelf', { schema }],
    ]),
  ).cost;
}

/** A rule the API server refuses as over its cost budget: where, and by what factor. */
export interface OverBudgetRule {
  /** The schema path of the rule, as the API server names it: `openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule`. */
  readonly path: string;
  /** The message, as the API server words it. */
  readonly message: string;
}

/**
 * The rules of `schema` (a CRD version's openAPIV3Schema) that the API server refuses at CRD
 * creation as over the cost budget, each with its estimated cost times how many times it may run
 * in one object (the product of maxElements of the lists and maps above it:
 * cel_validation.go's MaxCardinality); and the CRD's total, when past CRD_COST_LIMIT.
 */
export function overBudgetRules(schema: OpenApiSchema): OverBudgetRule[] {
  const found: OverBudgetRule[] = [];
  let total = 0;
  const visit = (node: OpenApiSchema | undefined, path: string, cardinality: number, depth: number): void => {
    if (!node || depth > 64) return;
    (node['x-kubernetes-validations'] ?? []).forEach((rule, index) => {
      let cost: number;
      try {
        cost = estimatedCost(rule.rule, node) * cardinality;
      } catch {
        return; // A rule that does not parse is refused when it is compiled, with its own message.
      }
      total += cost;
      if (cost > RULE_COST_LIMIT) found.push({ path: `${path}.x-kubernetes-validations[${index}].rule`, message: costMessage('estimated rule cost', cost, RULE_COST_LIMIT) });
    });
    for (const [name, child] of Object.entries(node.properties ?? {})) visit(child, `${path}.properties[${name}]`, cardinality, depth + 1);
    if (node.items) visit(node.items, `${path}.items`, cardinality * maxElements(node), depth + 1);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${path}.additionalProperties`, cardinality * maxElements(node), depth + 1);
  };
  visit(schema, 'openAPIV3Schema', 1, 0);
  if (total > CRD_COST_LIMIT) found.push({ path: 'openAPIV3Schema', message: costMessage('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema', total, CRD_COST_LIMIT) });
  return found;
}

/** The API server's words (validation.go, getCostErrorMessage). */
function costMessage(what: string, cost: number, limit: number): string {
  const factor = cost / limit;
  const shown = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${factor.toFixed(1)}x`;
  return `${what} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}
