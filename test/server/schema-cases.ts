// Generated cases for the validator differential (validator-differential.test.ts): for each
// constraint of a kind's structural schema (enum, pattern, bounds, lengths, item and property
// counts, required, unknown fields, formats, set and map uniqueness, int-or-string, null, type),
// an object that violates it and one that satisfies it, each made by changing one field of an
// object the API server accepts (a base). The constraint is found where a base has a value for
// it; a scalar field no base sets is added to an object that holds it, and an object or list no
// base has is added with its smallest value, whose fields are then tested in turn. Object
// metadata gets a few cases of its own.
import { re2 } from '../../lib/validation/re2';
import { OpenApiSchema } from '../../lib/validation/schema-catalog';
import { satisfiesFormat } from '../../lib/validation/kubernetes-formats';

/** The kinds of schema constraint the generator makes cases for. */
export type ConstraintKind =
  | 'enum'
  | 'pattern'
  | 'minLength'
  | 'maxLength'
  | 'minimum'
  | 'maximum'
  | 'minItems'
  | 'maxItems'
  | 'minProperties'
  | 'maxProperties'
  | 'required'
  | 'unknown field'
  | 'format'
  | 'set uniqueness'
  | 'map uniqueness'
  | 'int-or-string'
  | 'type'
  /** Object metadata, which the API server checks in Go for every kind: the name, label and annotation keys, label values. */
  | 'metadata'
  /** A null: kept where the field is nullable, the default where it has one, else refused (by server-side apply). */
  | 'null';

/**
 * How the API server words a refusal for each kind of constraint, in a cause at the constraint's
 * path: a violating case must draw one, a case that meets the constraint none. (A value of the
 * wrong type in an enum field is refused as unsupported; a null in a required field as missing.)
 */
export const REFUSAL_MESSAGES: Readonly<Record<ConstraintKind, RegExp>> = {
  'enum': /Unsupported value/,
  'pattern': /should match '/,
  'minLength': /should be at least \d+ chars long/,
  'maxLength': /Too long: may not be more than/,
  'minimum': /should be greater than/,
  'maximum': /should be less than/,
  'minItems': /should have at least \d+ items/,
  'maxItems': /Too many: \d+: must have at most \d+ items?$/,
  'minProperties': /should have at least \d+ properties/,
  'maxProperties': /should have at most \d+ properties|Too many: \d+: must have at most \d+ (items|properties)/,
  'required': /Required value/,
  'unknown field': /unknown field/,
  'format': /must be of type (date-time|datetime|date|duration|hostname|uri|email|ipv4|ipv6|cidr|mac|uuid|byte)\b|with format int(32|64)|should be less than or equal to 2147483647/,
  'set uniqueness': /Duplicate value/,
  'map uniqueness': /Duplicate value/,
  'int-or-string': /must be of type integer,string/,
  'type': /must be of type|Unsupported value/,
  'null': /must be of type [\w,]+: "null"|Required value|Unsupported value: null/,
  'metadata': /^Invalid value: /,
};

/** One constraint at one place of a kind's schema. */
export interface SchemaConstraint {
  /** `HostedCluster maxLength .spec.infraID`: the kind, the constraint and its schema path (`[]` an item, `{}` a map value). */
  readonly id: string;
  readonly kind: ConstraintKind;
}

/** A generated object, and what it is meant to test. */
export interface GeneratedCase {
  readonly name: string;
  readonly object: any;
  readonly constraint: SchemaConstraint;
  /** Whether the object breaks the constraint (else it meets it). */
  readonly violates: boolean;
  /** Where the API server reports the constraint, in its OpenAPI form: `spec.services[0].service`, `spec.nodeLabels.key`. */
  readonly path: string;
}

type Segment = string | number;

interface Location {
  readonly segments: Segment[];
  readonly schemaPath: string;
  readonly schema: OpenApiSchema;
  readonly value: unknown;
  /** Whether the object that holds it requires it. */
  readonly required?: boolean;
}

/** A field name no CRD declares. */
export const UNKNOWN_FIELD = 'differentialUnknownField';
/** Lengths and counts beyond this are not built (no bundled constraint of HostedCluster or NodePool is near it). */
const MAX_BUILT = 40000;

/** Values of each checked string format: one it accepts, one it refuses. */
const FORMAT_VALUES: Readonly<Record<string, { readonly valid: string; readonly invalid: string }>> = {
  'date-time': { valid: '2025-01-02T03:04:05Z', invalid: 'yesterday at noon' },
  'datetime': { valid: '2025-01-02T03:04:05Z', invalid: 'yesterday at noon' },
  'date': { valid: '2025-01-02', invalid: '2025-13-45' },
  'duration': { valid: '30s', invalid: 'forever' },
  'hostname': { valid: 'host.example.com', invalid: 'not a hostname!' },
  'uri': { valid: 'https://example.com/path', invalid: 'not a uri' },
  'email': { valid: 'someone@example.com', invalid: 'someone' },
  'ipv4': { valid: '192.0.2.10', invalid: '300.1.2.3' },
  'ipv6': { valid: '2001:db8::10', invalid: '2001:db8::g' },
  'cidr': { valid: '10.0.0.0/16', invalid: '10.0.0.0/33' },
  'mac': { valid: '52:54:00:12:34:56', invalid: '52:54:00:12:34' },
  'uuid': { valid: '5d6e7f80-1a2b-4c3d-9e8f-0123456789ab', invalid: 'not-a-uuid' },
  'byte': { valid: 'aGNwLWNkaw==', invalid: 'not base64!' },
};
const INTEGER_FORMATS: Readonly<Record<string, number>> = { int32: 2 ** 31 - 1, int64: Number.MAX_SAFE_INTEGER };

/** Strings tried, in order, for a value that a pattern refuses (or accepts). */
const CANDIDATE_STRINGS = ['Not A Valid Value!', '-', '', 'a', '0', 'A', 'abc', 'a-b', '1.2.3', 'https://example.com', 'a/b', 'quay.io/ns/image:tag'];
/** Strings of common shapes that patterns ask for: durations, ranges, UUIDs, user names. */
const SAMPLE_STRINGS = ['10m', '30000-32767', '5d6e7f80-1a2b-4c3d-9e8f-0123456789ab', 'system:serviceaccount:ns:name', 'example.com'];

export interface GenerateOptions {
  /** Whether status is written through a status subresource, an update, which drops nulls. @default false */
  readonly statusSubresource?: boolean;
}

/**
 * The cases for one kind: each base must be an object the API server accepts. Each constraint
 * gets its cases at the first place a base holds (or can be given) a value for it.
 */
export function generateSchemaCases(kindName: string, schema: OpenApiSchema, bases: readonly any[], options: GenerateOptions = {}): GeneratedCase[] {
  const cases: GeneratedCase[] = [];
  const done = new Set<string>();
  // What meets a constraint when its own cases do not: the base, or the base with the added field's sample value.
  let meeting: { readonly name: string; readonly object: any } | undefined;
  const add = (constraintKind: ConstraintKind, schemaPath: string, build: () => Omit<GeneratedCase, 'constraint'>[]): void => {
    const id = `${kindName} ${constraintKind} ${schemaPath}`;
    if (done.has(id)) return;
    const made = build();
    if (made.length === 0) return;
    done.add(id);
    if (meeting && !made.some((c) => !c.violates)) made.push({ ...meeting, violates: false, path: made[0].path });
    for (const c of made) cases.push({ ...c, constraint: { id, kind: constraintKind } });
  };

  // The bases first, so that a constraint is tested where a real object has the field; then, for
  // each object or list no base has, a base given its smallest value (its required fields), in turn.
  const seen = new Set<string>();
  const pool = [...new Set(bases.flatMap((base) => [...locations(base, schema)].map((l) => l.value).filter((v): v is string => typeof v === 'string' && v.length <= 256)))];
  const queue: { readonly object: any; readonly at: Location }[] = [];
  for (const base of bases) for (const location of locations(base, schema)) seen.add(location.schemaPath);
  for (const base of bases) queue.push({ object: base, at: { segments: [], schemaPath: '', schema, value: base } });
  while (queue.length > 0) {
    const { object: base, at: top } = queue.shift()!;
    for (const { schema: node, segments, schemaPath, value, required } of locations(top.value, top.schema, top.segments, top.schemaPath)) {
      const at = render(segments);
      const set = (v: unknown) => changed(base, segments, v);
      const make: Make = (violates, object, what, path = at) => ({ name: `${kindName} ${what} at ${at}`, object, violates, path });
      meeting = { name: `${kindName} the base object, which holds ${at || 'the root'}`, object: base };
      if (value === null) continue;
      if (segments.length > 0) addValueCases(node, schemaPath, segments, value, set, make, add, { ...options, required });
      if (Array.isArray(value)) addListCases(node, schemaPath, value, at, set, make, add);
      if (!isObject(value)) continue;
      addObjectCases(node, schemaPath, value, segments, base, make, add);
      for (const [field, child] of Object.entries(node.properties ?? {})) {
        if (field in value || segments.length === 0) continue;
        const childSegments = [...segments, field];
        const childPath = `${schemaPath}.${field}`;
        if (child.type === 'object' || child.type === 'array') {
          // An object or list no base has: a base of its own, with its smallest value.
          const smallest = child['x-kubernetes-preserve-unknown-fields'] ? undefined : smallestValue(child, pool, 0);
          if (smallest === undefined || seen.has(childPath)) continue;
          seen.add(childPath);
          const extended = changed(base, childSegments, smallest);
          queue.push({ object: extended, at: { segments: childSegments, schemaPath: childPath, schema: child, value: smallest } });
          continue;
        }
        // A scalar field no base sets: given a value here, where the object that holds it is.
        const sample = sampleScalar(child, pool);
        if (sample === undefined) continue;
        const childAt = render(childSegments);
        const setChild = (v: unknown) => changed(base, childSegments, v);
        meeting = { name: `${kindName} ${JSON.stringify(sample)} at ${childAt} (added)`, object: setChild(sample) };
        const makeChild: Make = (violates, object, what, path = childAt) => ({ name: `${kindName} ${what} at ${childAt} (added)`, object, violates, path });
        addValueCases(child, childPath, childSegments, sample, setChild, makeChild, add, options);
      }
    }
  }
  return cases;
}

/** Cases of object metadata for one base: the name, label keys and values, annotation keys. */
export function metadataCases(kindName: string, base: any): GeneratedCase[] {
  const withMetadata = (change: Record<string, unknown>) => ({ ...base, metadata: { ...base.metadata, ...change } });
  const cases: [string, boolean, Record<string, unknown>, string][] = [
    ['name', true, { name: 'Not_A_DNS_Subdomain' }, 'metadata.name'],
    ['name', true, { name: `${'a'.repeat(250)}.com0` }, 'metadata.name'],
    ['name', false, { name: `${'a'.repeat(249)}.com` }, 'metadata.name'],
    ['label key', true, { labels: { 'not a key': 'x' } }, 'metadata.labels'],
    ['label key', false, { labels: { 'example.com/a_b.c-d': 'x' } }, 'metadata.labels'],
    ['label value', true, { labels: { a: '-starts-with-a-dash' } }, 'metadata.labels'],
    ['label value', true, { labels: { a: 'b'.repeat(64) } }, 'metadata.labels'],
    ['label value', false, { labels: { a: `${'b'.repeat(62)}c` } }, 'metadata.labels'],
    ['annotation key', true, { annotations: { 'example.com/not a key': 'x' } }, 'metadata.annotations'],
    ['annotation key', false, { annotations: { 'example.com/a': 'any text, even this: -' } }, 'metadata.annotations'],
  ];
  return cases.map(([what, violates, change, path]) => ({
    name: `${kindName} metadata: ${violates ? 'a bad' : 'a good'} ${what} (${JSON.stringify(change).slice(0, 60)})`,
    object: withMetadata(change),
    violates,
    path,
    constraint: { id: `${kindName} metadata ${what}`, kind: 'metadata' },
  }));
}

/**
 * The smallest value of an object or list the schema accepts, as far as its own schema says: an
 * object with its required fields, a list with one item (so that the item's constraints can be
 * tested), or as many as minItems asks; undefined when a required scalar has no easy value.
 */
function smallestValue(node: OpenApiSchema, pool: readonly string[], depth: number): unknown {
  if (depth > 16) return undefined;
  if (node.type === 'object') {
    if (node['x-kubernetes-preserve-unknown-fields'] || !node.properties) return {};
    const out: Record<string, unknown> = {};
    for (const field of node.required ?? []) {
      const child = node.properties[field];
      const value = child ? (child.type === 'object' || child.type === 'array' ? smallestValue(child, pool, depth + 1) : sampleScalar(child, pool)) : undefined;
      if (value === undefined) return undefined;
      out[field] = value;
    }
    return out;
  }
  if (node.type === 'array' && node.items) {
    const items = node.items;
    const item = items.type === 'object' || items.type === 'array' ? smallestValue(items, pool, depth + 1) : sampleScalar(items, pool);
    if (item === undefined) return undefined;
    return Array.from({ length: Math.max(1, node.minItems ?? 1) }, (_, i) => distinctItem(item, i, node['x-kubernetes-list-type'], node['x-kubernetes-list-map-keys'] ?? []));
  }
  return sampleScalar(node, pool);
}

/** The cases of a field's own value: its type, a null, and the constraints of its scalar type. */
function addValueCases(
  node: OpenApiSchema,
  schemaPath: string,
  segments: readonly Segment[],
  value: unknown,
  set: (v: unknown) => any,
  make: Make,
  add: Add,
  options: GenerateOptions & { readonly required?: boolean },
): void {
  add('type', schemaPath, () => {
    const wrong = wrongType(node, value);
    return wrong === undefined ? [] : [make(true, set(wrong), `a ${jsonType(wrong)} where the schema wants ${node.type}`)];
  });
  // Server-side apply keeps a null where the schema takes none (a create drops it): refused unless
  // the field is nullable or a default replaces it. Status goes by an update, which drops it: then
  // it is refused only as a required field left out.
  if (typeof segments[segments.length - 1] === 'string') {
    add('null', schemaPath, () => {
      const dropped = options.statusSubresource === true && segments[0] === 'status';
      const what = node.nullable
        ? 'null in a nullable field'
        : node.default !== undefined
          ? 'null in a field with a default'
          : dropped
            ? `null in status, which the status subresource drops${options.required ? ' (the field is required)' : ''}`
            : 'null in a field that is neither nullable nor defaulted';
      return [make(!node.nullable && node.default === undefined && (!dropped || options.required === true), set(null), what)];
    });
  }
  if (node['x-kubernetes-int-or-string']) {
    add('int-or-string', schemaPath, () => [
      make(true, set(true), 'a boolean in an int-or-string field'),
      make(false, set(typeof value === 'string' ? 1 : '1'), `${typeof value === 'string' ? 'an integer' : 'a string'} in an int-or-string field`),
    ]);
  }
  if (typeof value === 'string') addStringCases(node, schemaPath, value, set, make, add);
  if (typeof value === 'number') addNumberCases(node, schemaPath, set, make, add);
}

/**
 * Every constraint of a kind's schema that generateSchemaCases makes cases for where it finds a
 * place for them (spec and status): the figure its coverage is measured against.
 */
export function schemaConstraints(kindName: string, schema: OpenApiSchema): string[] {
  const ids: string[] = [];
  const visit = (node: OpenApiSchema, schemaPath: string): void => {
    const id = (kind: ConstraintKind, at = schemaPath) => ids.push(`${kindName} ${kind} ${at}`);
    if (schemaPath !== '') {
      if (wrongType(node, sampleOf(node)) !== undefined) id('type');
      if (!schemaPath.endsWith('[]')) id('null');
      if (node['x-kubernetes-int-or-string']) id('int-or-string');
      if (node.enum?.some((e) => typeof e === 'string')) id('enum');
      if (node.pattern !== undefined) id('pattern');
      if (node.minLength !== undefined && node.minLength > 0) id('minLength');
      if (node.maxLength !== undefined && node.maxLength < MAX_BUILT) id('maxLength');
      if (node.format !== undefined && (FORMAT_VALUES[node.format] || (INTEGER_FORMATS[node.format] !== undefined && node.maximum === undefined))) id('format');
      if (node.minimum !== undefined) id('minimum');
      if (node.maximum !== undefined) id('maximum');
      if (node.minItems !== undefined && node.minItems > 0) id('minItems');
      if (node.maxItems !== undefined && node.maxItems < MAX_BUILT) id('maxItems');
      if (node['x-kubernetes-list-type'] === 'set') id('set uniqueness');
      if (node['x-kubernetes-list-type'] === 'map') id('map uniqueness');
      if (node.minProperties !== undefined && node.minProperties > 0) id('minProperties');
      if (node.maxProperties !== undefined && typeof node.additionalProperties === 'object') id('maxProperties');
    }
    for (const field of node.required ?? []) if (schemaPath !== '' || !['apiVersion', 'kind', 'metadata'].includes(field)) id('required', `${schemaPath}.${field}`);
    if (node.properties && !node['x-kubernetes-preserve-unknown-fields'] && node.additionalProperties === undefined) id('unknown field');
    for (const [field, child] of Object.entries(node.properties ?? {})) {
      if (schemaPath === '' && (field === 'apiVersion' || field === 'kind' || field === 'metadata')) continue;
      visit(child, `${schemaPath}.${field}`);
    }
    if (node.items) visit(node.items, `${schemaPath}[]`);
    if (typeof node.additionalProperties === 'object') visit(node.additionalProperties, `${schemaPath}{}`);
  };
  visit(schema, '');
  return ids;
}

/** A value of the node's type, for wrongType(). */
function sampleOf(node: OpenApiSchema): unknown {
  switch (node.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {};
    case 'array':
      return [];
    default:
      return undefined;
  }
}

type Make = (violates: boolean, object: any, what: string, path?: string) => Omit<GeneratedCase, 'constraint'>;
type Add = (kind: ConstraintKind, schemaPath: string, build: () => Omit<GeneratedCase, 'constraint'>[]) => void;

function addStringCases(node: OpenApiSchema, schemaPath: string, value: string, set: (v: unknown) => any, make: Make, add: Add): void {
  // A value that breaks only the constraint tested, where one can be found: it meets the node's other constraints.
  const meetsAllBut = (candidate: string, except: keyof OpenApiSchema): boolean =>
    (['enum', 'pattern', 'minLength', 'maxLength', 'format'] as const).every((keyword) => keyword === except || meets(node, keyword, candidate));
  if (node.enum) {
    add('enum', schemaPath, () => {
      const other = node.enum!.find((e) => typeof e === 'string' && e !== value) as string | undefined;
      return [make(true, set('NotInTheEnum'), 'a value outside the enum'), ...(other !== undefined ? [make(false, set(other), `the enum value ${JSON.stringify(other)}`)] : [])];
    });
  }
  if (node.pattern !== undefined) {
    add('pattern', schemaPath, () => {
      // Candidates of the length the field wants, too: the API server reports a string's first failing check only (length before pattern).
      const candidates = [
        ...CANDIDATE_STRINGS,
        `!${value.slice(1)}`,
        `z${value.slice(1)}`,
        `Z${value.slice(1)}`,
        `${value}!`,
        ` ${value}`,
        value.toUpperCase(),
        '!'.repeat(Math.max(1, node.minLength ?? 1)),
      ];
      const breaking = candidates.find((c) => !meets(node, 'pattern', c) && meetsAllBut(c, 'pattern')) ?? candidates.find((c) => !meets(node, 'pattern', c));
      return breaking === undefined ? [] : [make(true, set(breaking), `a value the pattern refuses (${JSON.stringify(breaking)})`), make(false, set(value), 'a value the pattern accepts')];
    });
  }
  if (node.minLength !== undefined && node.minLength > 0) {
    add('minLength', schemaPath, () => {
      const shortest = fill(value, node.minLength!, node);
      return [
        make(true, set(fill(value, node.minLength! - 1, node)), `a value of ${node.minLength! - 1} characters (minLength ${node.minLength})`),
        make(false, set(shortest), `a value of exactly ${node.minLength} characters`),
      ];
    });
  }
  if (node.maxLength !== undefined && node.maxLength < MAX_BUILT) {
    add('maxLength', schemaPath, () => [
      make(true, set(fill(value, node.maxLength! + 1, node)), `a value of ${node.maxLength! + 1} characters (maxLength ${node.maxLength})`),
      make(false, set(fill(value, node.maxLength!, node)), `a value of exactly ${node.maxLength} characters`),
    ]);
  }
  if (node.format !== undefined && FORMAT_VALUES[node.format]) {
    add('format', schemaPath, () => [
      make(true, set(FORMAT_VALUES[node.format!].invalid), `a value that is not a ${node.format}`),
      make(false, set(FORMAT_VALUES[node.format!].valid), `a ${node.format}`),
    ]);
  }
}

function addNumberCases(node: OpenApiSchema, schemaPath: string, set: (v: unknown) => any, make: Make, add: Add): void {
  const step = node.type === 'number' ? 0.5 : 1;
  // A bound past 2^53 has no neighbour that a JSON number written here can hold.
  const representable = (n: number) => node.type === 'number' || Number.isSafeInteger(n);
  if (node.minimum !== undefined && representable(node.minimum - step)) {
    add('minimum', schemaPath, () => [
      make(true, set(node.exclusiveMinimum ? node.minimum : node.minimum! - step), `a value below the minimum ${node.minimum}`),
      make(false, set(node.exclusiveMinimum ? node.minimum! + step : node.minimum), `the smallest value allowed (minimum ${node.minimum})`),
    ]);
  }
  if (node.maximum !== undefined && representable(node.maximum + step)) {
    add('maximum', schemaPath, () => [
      make(true, set(node.exclusiveMaximum ? node.maximum : node.maximum! + step), `a value above the maximum ${node.maximum}`),
      make(false, set(node.exclusiveMaximum ? node.maximum! - step : node.maximum), `the largest value allowed (maximum ${node.maximum})`),
    ]);
  }
  const largest = node.format !== undefined ? INTEGER_FORMATS[node.format] : undefined;
  if (largest !== undefined && node.maximum === undefined) {
    add('format', schemaPath, () => [
      make(true, set(node.format === 'int32' ? 2 ** 31 : 2 ** 64), `a value too large for ${node.format}`),
      make(false, set(largest), `a large value that fits ${node.format}`),
    ]);
  }
}

function addListCases(node: OpenApiSchema, schemaPath: string, list: readonly unknown[], at: string, set: (v: unknown) => any, make: Make, add: Add): void {
  const listType = node['x-kubernetes-list-type'];
  const keys = node['x-kubernetes-list-map-keys'] ?? [];
  // Items distinct under the list's type, as many as asked, from the list's own.
  const items = (count: number): unknown[] => Array.from({ length: count }, (_, i) => distinctItem(list[i % list.length], i, listType, keys));
  if (node.minItems !== undefined && node.minItems > 0) {
    add('minItems', schemaPath, () => [
      make(true, set(list.slice(0, node.minItems! - 1)), `${node.minItems! - 1} items (minItems ${node.minItems})`),
      ...(list.length > 0 ? [make(false, set(items(node.minItems!)), `exactly ${node.minItems} items`)] : []),
    ]);
  }
  if (node.maxItems !== undefined && node.maxItems < MAX_BUILT && list.length > 0) {
    add('maxItems', schemaPath, () => [
      make(true, set(items(node.maxItems! + 1)), `${node.maxItems! + 1} items (maxItems ${node.maxItems})`),
      make(false, set(items(node.maxItems!)), `exactly ${node.maxItems} items`),
    ]);
  }
  if ((listType === 'set' || listType === 'map') && list.length > 0) {
    add(listType === 'set' ? 'set uniqueness' : 'map uniqueness', schemaPath, () => [
      make(true, set([...list, list[0]]), `a repeated ${listType === 'set' ? 'item' : `key (${keys.join(', ')})`}`, `${at}[${list.length}]`),
      ...(list.length > 1 ? [] : [make(false, set(items(2)), 'two distinct items')]),
    ]);
  }
}

function addObjectCases(node: OpenApiSchema, schemaPath: string, object: Record<string, unknown>, segments: readonly Segment[], base: any, make: Make, add: Add): void {
  const at = render(segments);
  for (const field of node.required ?? []) {
    if (!(field in object) || (segments.length === 0 && ['apiVersion', 'kind', 'metadata'].includes(field))) continue;
    // A default fills a required field left out: then nothing can break the requirement.
    const defaulted = node.properties?.[field]?.default !== undefined;
    add('required', `${schemaPath}.${field}`, () => [
      make(!defaulted, changed(base, [...segments, field], undefined), `no ${field}, which is required${defaulted ? ' and has a default' : ''}`, join(at, field)),
    ]);
  }
  if (node.properties && !node['x-kubernetes-preserve-unknown-fields'] && node.additionalProperties === undefined) {
    add('unknown field', schemaPath, () => [make(true, changed(base, [...segments, UNKNOWN_FIELD], 'x'), 'a field the schema does not declare', join(at, UNKNOWN_FIELD))]);
  }
  const count = Object.keys(object).length;
  if (node.minProperties !== undefined && node.minProperties > 0 && count >= node.minProperties) {
    add('minProperties', schemaPath, () => {
      const fewer = Object.fromEntries(Object.entries(object).slice(0, node.minProperties! - 1));
      // Defaults fill the fields left out before the count: with enough of them, nothing can break it.
      const filled = Object.entries(node.properties ?? {}).filter(([field, child]) => !(field in fewer) && child.default !== undefined).length;
      const violates = Object.keys(fewer).length + filled < node.minProperties!;
      return [make(violates, changed(base, segments, fewer), `${node.minProperties! - 1} fields (minProperties ${node.minProperties})${violates ? '' : ', defaults filling the rest'}`)];
    });
  }
  if (node.maxProperties !== undefined && typeof node.additionalProperties === 'object' && count > 0) {
    add('maxProperties', schemaPath, () => {
      const [, sample] = Object.entries(object)[0];
      const entries = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`key${i}`, sample]));
      return [
        make(true, changed(base, segments, entries(node.maxProperties! + 1)), `${node.maxProperties! + 1} entries (maxProperties ${node.maxProperties})`),
        make(false, changed(base, segments, entries(node.maxProperties!)), `exactly ${node.maxProperties} entries`),
      ];
    });
  }
}

/** Every value of `object` (spec and status, not metadata) with the schema node that governs it; below `segments` when given. */
function* locations(object: any, schema: OpenApiSchema, segments: Segment[] = [], schemaPath = ''): Generator<Location> {
  function* walk(value: unknown, node: OpenApiSchema, segments: Segment[], schemaPath: string, required: boolean): Generator<Location> {
    yield { segments, schemaPath, schema: node, value, required };
    if (Array.isArray(value)) {
      if (node.items) for (const [i, item] of value.entries()) yield* walk(item, node.items, [...segments, i], `${schemaPath}[]`, false);
    } else if (isObject(value)) {
      for (const [field, child] of Object.entries(value)) {
        if (segments.length === 0 && (field === 'apiVersion' || field === 'kind' || field === 'metadata')) continue;
        const declared = node.properties?.[field];
        if (declared) yield* walk(child, declared, [...segments, field], `${schemaPath}.${field}`, node.required?.includes(field) ?? false);
        else if (typeof node.additionalProperties === 'object') yield* walk(child, node.additionalProperties, [...segments, field], `${schemaPath}{}`, false);
      }
    }
  }
  yield* walk(object, schema, segments, schemaPath, false);
}

/** A copy of `base` with the value at `segments` replaced (or removed, for undefined). */
function changed(base: any, segments: readonly Segment[], value: unknown): any {
  const out = clone(base);
  let node = out;
  for (const segment of segments.slice(0, -1)) node = node[segment];
  const last = segments[segments.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = clone(value);
  return out;
}

/** The path as the API server's OpenAPI checks write it: fields and map keys after dots, items in brackets. */
export function render(segments: readonly Segment[]): string {
  return segments.reduce<string>((path, s) => (typeof s === 'number' ? `${path}[${s}]` : join(path, s)), '');
}

function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function meets(node: OpenApiSchema, keyword: keyof OpenApiSchema, value: string): boolean {
  switch (keyword) {
    case 'enum':
      return !node.enum || node.enum.includes(value);
    case 'pattern':
      return node.pattern === undefined || re2(node.pattern).test(value);
    case 'minLength':
      return node.minLength === undefined || [...value].length >= node.minLength;
    case 'maxLength':
      return node.maxLength === undefined || [...value].length <= node.maxLength;
    case 'format':
      return node.format === undefined || satisfiesFormat(node.format, value);
    default:
      return true;
  }
}

/** A string of `length` characters, made to meet the node's pattern when a fill character can. */
function fill(value: string, length: number, node: OpenApiSchema): string {
  if (length <= 0) return '';
  const options = [...new Set([...value, 'a', '1', 'A'])].flatMap((c) => [value.slice(0, length) + c.repeat(Math.max(0, length - value.length)), c.repeat(length)]);
  return options.find((s) => [...s].length === length && meets(node, 'pattern', s) && meets(node, 'format', s)) ?? 'a'.repeat(length);
}

/**
 * A value the node accepts, for a scalar field no base sets; undefined when none is easily had.
 * A string is tried from the candidates, the pattern's literal start, and `pool`: the strings the
 * bases hold (another field's UUID, duration or URL often fits).
 */
function sampleScalar(node: OpenApiSchema, pool: readonly string[]): unknown {
  if (node.default !== undefined && typeof node.default !== 'object') return node.default;
  if (node.enum) return node.enum.find((e) => typeof e === 'string');
  if (node['x-kubernetes-int-or-string']) return 1;
  switch (node.type) {
    case 'boolean':
      return true;
    case 'integer':
      return Math.max(node.minimum ?? 1, Math.min(node.maximum ?? 1, 1));
    case 'number':
      return Math.max(node.minimum ?? 1, Math.min(node.maximum ?? 1, 1));
    case 'string': {
      if (node.format && FORMAT_VALUES[node.format]) return FORMAT_VALUES[node.format].valid;
      const lengthOf = Math.max(node.minLength ?? 1, 1);
      const prefix = /^\^((?:[A-Za-z0-9:/_-]|\\.)*)/.exec(node.pattern ?? '')?.[1].replace(/\\(.)/g, '$1') ?? '';
      const candidates = [...CANDIDATE_STRINGS, ...SAMPLE_STRINGS, `${prefix}a`, `${prefix}1`, prefix, 'a'.repeat(lengthOf), ...pool];
      return candidates.find((c) => (['pattern', 'minLength', 'maxLength'] as const).every((k) => meets(node, k, c)));
    }
    default:
      return undefined;
  }
}

/** A value of another JSON type than the node takes, or undefined for a node that takes any. */
function wrongType(node: OpenApiSchema, value: unknown): unknown {
  if (node['x-kubernetes-int-or-string']) return undefined; // its own cases
  switch (node.type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return String(value);
    case 'boolean':
      return 'true';
    case 'object':
      return node['x-kubernetes-preserve-unknown-fields'] ? undefined : 'an object';
    case 'array':
      return 'a list';
    default:
      return undefined;
  }
}

/** The `i`th copy of `item`, distinct from the others under a set or map list (keys and strings numbered). */
function distinctItem(item: unknown, i: number, listType: string | undefined, keys: readonly string[]): unknown {
  if (i === 0 || (listType !== 'set' && listType !== 'map')) return clone(item);
  if (typeof item === 'string') return `${item}${i}`;
  if (typeof item === 'number') return item + i;
  if (!isObject(item)) return clone(item);
  const copy: Record<string, unknown> = clone(item);
  for (const key of listType === 'map' ? keys : Object.keys(copy)) {
    const v = copy[key];
    if (typeof v === 'string') copy[key] = `${v}${i}`;
    else if (typeof v === 'number') copy[key] = v + i;
    else continue;
    if (listType === 'set') break;
  }
  return copy;
}

/**
 * A deep copy made of JSON. Not structuredClone: under jest its copies come from another realm,
 * whose objects the validator does not take for plain objects.
 */
function clone<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
