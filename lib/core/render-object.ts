import { ApiObject, App, ImplicitTokenResolver, Lazy, LazyResolver, NumberStringUnionResolver } from 'cdk8s';
import { fieldsBefore, mapUnlessChanged } from './copy-on-change';

/**
 * `ApiObject.toJson()` in one pass over the object, for large apps. cdk8s resolves every value
 * with a fresh context, a copy of its key path and a walk up to the App, then sanitizes in a second
 * pass and deep-copies in a third: a fleet spends more time there than on checking its objects.
 *
 * The output is the same: Lazy values produced, tokens resolved, `{ value }` for number-or-string
 * unions, null and undefined dropped, keys sorted, empty metadata maps and lists dropped,
 * apiVersion, kind and metadata first. It is used only where that holds: a plain ApiObject (a
 * subclass may override toJson), with no JSON patches, in an app with only cdk8s's own resolvers.
 * Anything else, or any value it does not know, goes through `toJson()` itself.
 * test/core/render-object.test.ts compares the two on every object of every example.
 *
 * It reads cdk8s's private fields (`props`, `patches`, `metadata._additionalAttributes`), which
 * is why cdk8s is pinned to one minor version (package.json `~2.70`); the same test file fails
 * when an update changes them. It saves about 15% of a fleet's synth (CPU time, 1,000 clusters).
 */
export function renderApiObject(object: ApiObject): any {
  const internals = object as unknown as { props?: Record<string, unknown>; patches?: unknown[] };
  const metadata = object.metadata as unknown as MetadataInternals;
  if (object.constructor !== ApiObject || !internals.props || internals.patches?.length !== 0 || !metadata._additionalAttributes || !hasDefaultResolvers(App.of(object))) {
    return object.toJson();
  }
  try {
    const renderedMetadata = renderMetadata(metadata);
    // apiVersion, kind and metadata first, then the other fields in key order. Built field by
    // field: object rest and conditional spreads are slow paths in V8, and this runs per object.
    const props = internals.props;
    if (props.constructor !== Object) throw UNKNOWN_VALUE;
    const out: Record<string, unknown> = {};
    const apiVersion = render(props.apiVersion, false);
    if (apiVersion !== undefined) out.apiVersion = apiVersion;
    const kind = render(props.kind, false);
    if (kind !== undefined) out.kind = kind;
    if (renderedMetadata !== undefined) out.metadata = renderedMetadata;
    for (const key of sortedKeys(props)) {
      if (key === 'apiVersion' || key === 'kind' || key === 'metadata') continue;
      const rendered = render(props[key], false);
      if (rendered !== undefined && rendered !== null) out[key] = rendered;
    }
    return out;
  } catch {
    // toJson() again, so that whatever failed fails as cdk8s reports it (producers are pure).
    return object.toJson();
  }
}

interface MetadataInternals {
  readonly _additionalAttributes?: Record<string, unknown>;
  readonly name?: string;
  readonly namespace?: string;
  readonly annotations?: unknown;
  readonly finalizers?: unknown;
  readonly ownerReferences?: unknown;
  readonly labels?: unknown;
}

/** The metadata fields cdk8s keeps apart, in the order render() writes keys. */
const METADATA_FIELDS = ['annotations', 'finalizers', 'labels', 'name', 'namespace', 'ownerReferences'] as const;
const METADATA_FIELD_SET: ReadonlySet<string> = new Set(METADATA_FIELDS);

/**
 * `metadata.toJson()`: the additional attributes, then the fields cdk8s keeps apart over them.
 * Objects rarely have attributes other than those fields; then the fields are all there is, and
 * they are written in order without merging and sorting first.
 */
function renderMetadata(metadata: MetadataInternals): unknown {
  const additional = metadata._additionalAttributes!;
  for (const key in additional) {
    if (!METADATA_FIELD_SET.has(key)) {
      return render(
        {
          ...additional,
          name: metadata.name,
          namespace: metadata.namespace,
          annotations: metadata.annotations,
          finalizers: metadata.finalizers,
          ownerReferences: metadata.ownerReferences,
          labels: metadata.labels,
        },
        true,
      );
    }
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const field of METADATA_FIELDS) {
    const rendered = render(metadata[field], true);
    if (rendered !== undefined && rendered !== null) {
      out[field] = rendered;
      count++;
    }
  }
  return count === 0 ? undefined : out;
}

/** Thrown inside render for a value cdk8s would treat in a way not mirrored here. */
const UNKNOWN_VALUE = new Error('a value the fast path does not mirror');

const checkedApps = new WeakMap<App, boolean>();

function hasDefaultResolvers(app: App): boolean {
  let plain = checkedApps.get(app);
  if (plain === undefined) {
    const [lazy, implicit, union, ...more] = app.resolvers;
    plain = more.length === 0 && lazy instanceof LazyResolver && implicit instanceof ImplicitTokenResolver && union instanceof NumberStringUnionResolver;
    checkedApps.set(app, plain);
  }
  return plain;
}

/**
 * Resolves and sanitizes `value` as cdk8s's resolve() then sanitizeValue() (then the JSON copy of
 * JsonPatch.apply) do. `dropEmpty` is sanitizeValue's filterEmptyArrays/Objects, set for metadata.
 */
function render(input: unknown, dropEmpty: boolean): unknown {
  let value = input;
  // The resolvers, in cdk8s's order, until none replaces the value.
  for (;;) {
    if (value === null || value === undefined) return undefined;
    const type = typeof value;
    if (type === 'string' || type === 'boolean') return value;
    // NaN and the infinities become null in cdk8s's JSON copy, after null fields were dropped.
    if (type === 'number' && !Number.isFinite(value)) throw UNKNOWN_VALUE;
    if (type === 'number') return value;
    if (type !== 'object') throw UNKNOWN_VALUE;
    const candidate = value as { resolve?: unknown; value?: unknown };
    if (value instanceof Lazy) value = value.produce();
    else if (typeof candidate.resolve === 'function') value = (candidate.resolve as () => unknown)();
    else if (value.constructor !== Object && (typeof candidate.value === 'number' || typeof candidate.value === 'string')) value = { value: candidate.value };
    else break;
  }
  if (Array.isArray(value)) {
    if (dropEmpty && value.length === 0) return undefined;
    // JsonPatch.apply's JSON copy turns a dropped list entry into null.
    if (dropEmpty) return value.map((item) => render(item, dropEmpty) ?? null);
    return mapUnlessChanged(value as unknown[], (item) => render(item, false) ?? null);
  }
  if (value.constructor !== Object) throw UNKNOWN_VALUE;
  const source = value as Record<string, unknown>;
  // Outside metadata, a part that is already plain JSON in key order is its own rendering. Metadata
  // is always copied: synth adds an annotation to the rendered copy.
  if (!dropEmpty && Object.getPrototypeOf(source) === Object.prototype && keysInOrder(source)) return renderFieldsShared(source);
  const out: Record<string, unknown> = {};
  let count = 0;
  for (const key of sortedKeys(source)) {
    const rendered = render(source[key], dropEmpty);
    if (rendered !== undefined && rendered !== null) {
      out[key] = rendered;
      count++;
    }
  }
  return dropEmpty && count === 0 ? undefined : out;
}

/** The fields of an object whose keys are in order, rendered; the object itself when all render as themselves. */
function renderFieldsShared(source: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in source) {
    const value = source[key];
    const rendered = render(value, false);
    const kept = rendered !== undefined && rendered !== null;
    if (out === undefined) {
      if (kept && rendered === value) continue;
      // Every field before this one rendered as itself.
      out = fieldsBefore(source, key);
    }
    if (kept) out[key] = rendered;
  }
  return out ?? source;
}

/** Whether the object's keys come in the order render() writes them (sorted by UTF-16 code units). */
function keysInOrder(source: Record<string, unknown>): boolean {
  let previous: string | undefined;
  for (const key in source) {
    if (previous !== undefined && key < previous) return false;
    previous = key;
  }
  return true;
}

/**
 * `Object.keys(value).sort()`, the same order (UTF-16 code units), by insertion sort: twice as fast
 * as the built-in sort on the few keys a Kubernetes object has per level, and most come in order.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length > 32) return keys.sort();
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i];
    let j = i - 1;
    for (; j >= 0 && keys[j] > key; j--) keys[j + 1] = keys[j];
    keys[j + 1] = key;
  }
  return keys;
}
