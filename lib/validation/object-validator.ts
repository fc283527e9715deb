import { HIDDEN_SECRET_VALUE, isSecretField, isSecretObject, redactSecrets } from '../core/redaction';
import { createHash } from 'crypto';
import { fieldsBefore, mapUnlessChanged } from '../core/copy-on-change';
import { isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from '../core/names';
import { isPlainObject } from '../core/runtime-props';
import { CompiledCelRule } from './cel/cel-rule';
import { satisfiesFormat } from './kubernetes-formats';
import { re2 } from './re2';
import { KindSchema, OpenApiSchema, ScaleSubresource, SchemaCatalog } from './schema-catalog';
import { SchemaDefinitions, SchemaNode } from './schema-node';
import { identify, ProblemObjectIdentity, ValidationProblem } from './validation-problem';
import { validatorCodeFingerprint } from './validator-fingerprint';

/** The integer `format`s of CRD fields and the Go types behind them. */
const INTEGER_RANGES: Readonly<Record<string, { readonly name: string; readonly min: number; readonly max: number }>> = {
  int32: { name: 'a 32-bit integer', min: -(2 ** 31), max: 2 ** 31 - 1 },
  int64: { name: 'a 64-bit integer', min: -(2 ** 63), max: 2 ** 63 - 1 },
};

/** Called for every CEL rule evaluated; the rule-coverage report listens here. */
export type RuleObserver = (rule: CompiledCelRule, passed: boolean, message?: string) => void;

/** Options of ObjectValidator. */
export interface ObjectValidatorOptions {
  /** @default SchemaCatalog.bundled() */
  readonly catalog?: SchemaCatalog;
  /** @default - none */
  readonly ruleObserver?: RuleObserver;
  /**
   * What the problem of an object without a schema tells the user to do, for its apiVersion and
   * kind: the ways out where the validator runs (HcpApp's, `hcp-cdk validate`'s).
   * @default - both ways out, for HcpApp and for `hcp-cdk validate`
   */
  readonly missingSchemaAdvice?: (apiVersion: string, kind: string) => string;
}

/** Options of `ObjectValidator.validate`. */
export interface ValidateOptions {
  /**
   * The object as it is stored now (for example the previously committed output). Transition rules
   * (those that use `oldSelf`) run only when it is given, as on an update.
   * @default - the object is checked as a create: transition rules are skipped
   */
  readonly previous?: unknown;
  /** Where the object came from, copied into each problem. @default - none */
  readonly source?: string;
  /**
   * Kinds (`<apiVersion>/<kind>`) whose objects without a schema pass unchecked, the object and
   * those it carries (see `allowUnvalidatedKind`); a kind with a schema is checked all the same.
   * @default - none: an object without a schema is a problem
   */
  readonly unvalidatedKinds?: ReadonlySet<string>;
  /** Called with `<apiVersion>/<kind>` for each object passed unchecked by `unvalidatedKinds`. @default - none */
  readonly onUnvalidated?: (kind: string) => void;
}

/** The advice of an object without a schema where the validator's user does not give its own. */
function defaultMissingSchemaAdvice(apiVersion: string, kind: string): string {
  return (
    `give its CRD (HcpApp's crds, or --crds of hcp-cdk validate), or waive the check of this kind with a reason ` +
    `(allowUnvalidatedKind(scope, { apiVersion: ${JSON.stringify(apiVersion)}, kind: ${JSON.stringify(kind)}, reason }), or --allow-unvalidated-kind ${apiVersion}/${kind}=<reason>)`
  );
}

/** Kinds whose names the API server checks as DNS-1123 labels rather than subdomains. */
const LABEL_NAMED_KINDS = new Set(['v1/Namespace', 'v1/Service']);
const OBJECT_META_REF: OpenApiSchema = { $ref: 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' };

/**
 * Checks objects the way the API server does on create (and, given the stored object, on update):
 * the OpenAPI structural schema with defaults applied, unknown fields as strict field validation
 * reports them, object metadata, and every `x-kubernetes-validations` CEL rule.
 */
export class ObjectValidator {
  private readonly catalog: SchemaCatalog;
  private readonly ruleObserver?: RuleObserver;
  private readonly missingSchemaAdvice: (apiVersion: string, kind: string) => string;

  constructor(options: ObjectValidatorOptions = {}) {
    this.catalog = options.catalog ?? SchemaCatalog.bundled();
    this.ruleObserver = options.ruleObserver;
    this.missingSchemaAdvice = options.missingSchemaAdvice ?? defaultMissingSchemaAdvice;
  }

  /** Whether the catalog has a schema for `apiVersion`/`kind`, and where it comes from. */
  schemaSource(apiVersion: string, kind: string): string | undefined {
    return this.catalog.lookup(apiVersion, kind)?.source;
  }

  /**
   * The digest of everything this validator's verdicts depend on: its schemas (bundled and added),
   * hcp-cdk's code, the rule packages' versions and Node's (see `validatorCodeFingerprint`). A
   * validator with the same fingerprint gives every object the verdict this one gives it, so a
   * verdict recorded under it can be reused. Undefined with a rule observer, which must see every
   * rule evaluated.
   */
  get fingerprint(): string | undefined {
    if (this.ruleObserver) return undefined;
    return createHash('sha1').update(validatorCodeFingerprint()).update(this.catalog.fingerprint()).digest('hex');
  }

  /** Every reason the API server would reject the object (schema, metadata, CEL and, with `previous`, transition rules). */
  validate(object: unknown, options: ValidateOptions = {}): ValidationProblem[] {
    const problems: ValidationProblem[] = [];
    this.check(object, options.previous, identify(object), '', options, problems);
    return problems;
  }

  /**
   * Checks `object`, then the objects it carries (see CARRIED_OBJECTS), each against its own
   * schema; problems name the outermost object, at `prefix` and the path within.
   */
  private check(object: unknown, previous: unknown, outer: ProblemObjectIdentity, prefix: string, options: ValidateOptions, problems: ValidationProblem[]): void {
    // A rule observer counts every evaluation, so nothing is taken from the cache for it.
    const walk = new SchemaWalk(this.catalog, outer, options.source, this.ruleObserver, prefix);
    // A Secret's values (at any depth of a wrapper) never reach a problem: validate prints them in every format.
    walk.secret = isSecretObject(object);
    const identity = identify(object);
    const kind = this.kindOf(object, identity, walk, options);
    if (kind) walk.checkObject(object as Record<string, unknown>, kind, previous);
    problems.push(...walk.problems);
    const carried = kind && CARRIED_OBJECTS[`${identity.apiVersion}/${identity.kind}`];
    if (!carried) return;
    const stored = carried(previous);
    for (const { path, object: inner } of carried(object)) {
      const { apiVersion, kind: innerKind, name } = identify(inner);
      const before = stored.find((s) => {
        const o = identify(s.object);
        return o.apiVersion === apiVersion && o.kind === innerKind && o.name === name;
      });
      this.check(inner, before?.object, outer, join(prefix, path), options, problems);
    }
  }

  /** The schema of `object`'s kind, or undefined after reporting why there is none (unless its kind is waived). */
  private kindOf(object: unknown, identity: ProblemObjectIdentity, walk: SchemaWalk, options: ValidateOptions): KindSchema | undefined {
    if (!isPlainObject(object)) {
      walk.report('', 'must be a Kubernetes object (a mapping with apiVersion, kind and metadata)', object);
      return undefined;
    }
    if (!identity.apiVersion || !identity.kind) {
      walk.report(identity.apiVersion ? 'kind' : 'apiVersion', 'Required value: every object needs apiVersion and kind');
      return undefined;
    }
    const kind = this.catalog.lookup(identity.apiVersion, identity.kind);
    const key = `${identity.apiVersion}/${identity.kind}`;
    if (!kind && options.unvalidatedKinds?.has(key)) options.onUnvalidated?.(key);
    else if (!kind) {
      walk.report(
        'apiVersion',
        `no schema for ${identity.kind} in ${identity.apiVersion}: its CRD is neither bundled with hcp-cdk nor among the CRDs given; ${this.missingSchemaAdvice(identity.apiVersion, identity.kind)}`,
        identity.apiVersion,
      );
    }
    return kind;
  }
}

/** An object carried inside another, at `path` in it. */
interface CarriedObject {
  readonly path: string;
  readonly object: unknown;
}

/**
 * Fields that hold whole objects a controller creates as they are, and that the CRD leaves
 * unchecked (`x-kubernetes-preserve-unknown-fields`). Each is checked against its own schema, as the
 * API server will check it when the controller creates it: a Policy's templates become
 * ConfigurationPolicies, OperatorPolicies and the like in each managed cluster's namespace. (A
 * ConfigurationPolicy's own object templates are not carried so: `musthave` merges a partial object.)
 */
const CARRIED_OBJECTS: Readonly<Record<string, (object: unknown) => CarriedObject[]>> = {
  'policy.open-cluster-management.io/v1/Policy': (policy: any) => {
    const templates = isPlainObject(policy) && isPlainObject(policy.spec) ? policy.spec['policy-templates'] : undefined;
    if (!Array.isArray(templates)) return [];
    // A template that is not an object, or has no object, is the Policy schema's to report.
    return templates.flatMap((template, i) =>
      isPlainObject(template) && isPlainObject(template.objectDefinition) ? [{ path: `spec.policy-templates[${i}].objectDefinition`, object: template.objectDefinition }] : [],
    );
  },
};

const rootSchemas = new WeakMap<OpenApiSchema, OpenApiSchema>();

/**
 * A kind's schema as the object's root is walked with it: metadata is checked against ObjectMeta
 * on its own, and CRD schemas only say `type: object` for it; apiVersion and kind are strings the
 * API server takes at the root whether or not a CRD's schema names them (hand-written CRDs often
 * do not). One per kind, so that the root's node and compiled rules are made once, like every
 * other node's.
 */
function rootSchemaOf(schema: OpenApiSchema): OpenApiSchema {
  let root = rootSchemas.get(schema);
  if (!root) {
    root = {
      ...schema,
      properties: {
        apiVersion: { type: 'string' },
        kind: { type: 'string' },
        ...schema.properties,
        metadata: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    };
    rootSchemas.set(schema, root);
  }
  return root;
}

/** One object's traversal: the schema and the value side by side, collecting every problem. */
class SchemaWalk {
  readonly problems: ValidationProblem[] = [];
  /** Whether the object is a Secret, whose values (see `isSecretField`) problems hide. */
  secret = false;
  private kind!: KindSchema;
  private definitions: SchemaDefinitions = {};
  private rulesEnabled = true;
  /**
   * Whether a null where the schema takes none counts as absent. It does in built-in kinds and
   * metadata, which the API server reads into Go types, and in status, which goes by an update. In
   * the rest of a custom resource, server-side apply (Flux, `kubectl apply --server-side`) keeps
   * the null and the schema refuses it, unless a default replaces it; only a create drops it.
   */
  private nullsDropped = true;

  constructor(
    private readonly catalog: SchemaCatalog,
    private readonly identity: ProblemObjectIdentity,
    private readonly source: string | undefined,
    private readonly ruleObserver: RuleObserver | undefined,
    /** Where the object lies in the object the problems name: '' for that object itself. */
    private readonly prefix = '',
  ) {}

  /** `path` may hold map keys as `mapKey()` marks them: a rule's problem writes them in brackets, any other problem after a dot. */
  report(path: string, message: string, value?: unknown, rule?: string): void {
    path = renderPath(path, rule !== undefined);
    const at = !this.prefix ? path : !path ? this.prefix : path.startsWith('[') ? `${this.prefix}${path}` : `${this.prefix}.${path}`;
    const hidden = this.secret && isSecretField([path.split(/[.[]/)[0]]);
    if (hidden && value !== undefined && value !== null) {
      // A message that quotes the value (an enum's "Unsupported value") quotes it no more.
      const quoted = typeof value === 'object' ? [JSON.stringify(value)] : [JSON.stringify(value), `${value as string | number | boolean}`];
      for (const text of quoted) if (text && text.length > 2) message = message.split(text).join(HIDDEN_SECRET_VALUE);
    }
    const problem: ValidationProblem = {
      object: this.identity,
      path: at,
      message,
      ...(arguments.length > 2 ? { value: hidden ? HIDDEN_SECRET_VALUE : redactSecrets(value) } : {}),
      ...(rule ? { rule } : {}),
      ...(this.source ? { source: this.source } : {}),
    };
    this.problems.push(problem);
  }

  checkObject(object: Record<string, unknown>, kind: KindSchema, previous: unknown): void {
    this.kind = kind;
    this.definitions = kind.builtIn ? kind.definitions : this.catalog.builtInDefinitions();
    this.nullsDropped = true;
    this.checkMetadata(object.metadata, kind);
    this.nullsDropped = kind.builtIn;
    const kindSchema = SchemaNode.of(kind.schema, this.definitions).schema; // resolved
    const root = SchemaNode.of(rootSchemaOf(kindSchema), this.definitions);
    // Metadata that is not a mapping is reported by the walk too, after the other fields. A
    // mapping (the usual case) gives the walk nothing to report, so the object goes as it is.
    const { metadata } = object;
    this.walk(metadata === undefined || isPlainObject(metadata) ? object : metadataLast(object), root, '', '', previous, true);
    if (kind.scale) this.checkScale(object, kind.scale);
    this.holdBackRules(kind.statusSubresource === true);
  }

  /**
   * As the API server does, the rules' verdicts stand only when no blocking problem was found: a
   * wrong type, a missing required field, a value not in an enum, or too long or too many. With
   * one, it runs no rule and says so once (hasBlockingErr, apiextensions-apiserver at 1aa2717a5,
   * pkg/registry/customresource/strategy.go), since a rule may read the field that is wrong (the
   * walk hands rules a mistyped field as absent, which would make up a second, misleading problem).
   * Status with a subresource of its own goes by a write of its own, checked apart from the rest.
   */
  private holdBackRules(statusApart: boolean): void {
    const within = (p: ValidationProblem): string => (this.prefix ? p.path.slice(this.prefix.length).replace(/^\./, '') : p.path);
    const inStatus = (p: ValidationProblem): boolean => statusApart && /^status($|[.[])/.test(within(p));
    const blockedParts = [false, true].filter((part) => {
      const problems = this.problems.filter((p) => inStatus(p) === part);
      return problems.some((p) => p.rule === undefined && BLOCKING.test(p.message)) && problems.some((p) => p.rule !== undefined);
    });
    if (blockedParts.length === 0) return;
    const kept = this.problems.filter((p) => p.rule === undefined || !blockedParts.includes(inStatus(p)));
    this.problems.length = 0;
    this.problems.push(...kept);
    for (const part of blockedParts) this.report(part ? 'status' : '', RULES_NOT_CHECKED);
  }

  /**
   * The scale subresource's fields, as the API server checks them on every write whatever the
   * schema says (NodePool's spec.replicas has no minimum): replica counts are non-negative int32s
   * and the label selector a string. It names the paths as the CRD gives them; here without the
   * leading dot.
   */
  private checkScale(object: Record<string, unknown>, scale: ScaleSubresource): void {
    for (const replicasPath of [scale.specReplicasPath, scale.statusReplicasPath]) {
      const value = valueAt(object, replicasPath);
      const at = replicasPath.replace(/^\./, '');
      // A null in status is dropped as the status subresource reads it (see walkFields).
      if (value === undefined || (value === null && this.kind.statusSubresource && at.startsWith('status.'))) continue;
      if (value === NOT_A_MAPPING) this.report(at, `Invalid value: cannot be read: a field on the way to it is not a mapping; the scale subresource reads it as a replica count`);
      else if (typeof value !== 'number' || !Number.isInteger(value)) this.report(at, 'Invalid value: must be an integer: the scale subresource reads it as a replica count', value);
      else if (value < 0) this.report(at, 'Invalid value: should be a non-negative integer: the scale subresource reads it as a replica count', value);
      else if (value > INTEGER_RANGES.int32.max)
        this.report(at, `Invalid value: should be less than or equal to ${INTEGER_RANGES.int32.max}: the scale subresource reads it as a replica count`, value);
    }
    if (scale.labelSelectorPath) {
      const selector = valueAt(object, scale.labelSelectorPath);
      const at = scale.labelSelectorPath.replace(/^\./, '');
      if (selector === NOT_A_MAPPING) this.report(at, 'Invalid value: cannot be read: a field on the way to it is not a mapping; the scale subresource reads it as a label selector');
      else if (selector !== undefined && typeof selector !== 'string') this.report(at, 'Invalid value: must be a string: the scale subresource reads it as a label selector', selector);
    }
  }

  private checkMetadata(metadata: unknown, kind: KindSchema): void {
    if (!isPlainObject(metadata)) {
      this.report('metadata', 'Required value: metadata with a name is required', metadata);
      return;
    }
    this.walk(metadata, SchemaNode.of(OBJECT_META_REF, this.definitions), 'metadata', '.metadata', undefined, true);
    const name = metadata.name;
    const key = `${this.identity.apiVersion}/${this.identity.kind}`;
    if (typeof name !== 'string' || name === '') {
      if (!metadata.generateName) this.report('metadata.name', 'Required value: name or generateName is required');
    } else if (kind.builtIn && LABEL_NAMED_KINDS.has(key) ? !isDns1123Label(name) : !isDns1123Subdomain(name)) {
      const what = LABEL_NAMED_KINDS.has(key)
        ? 'a DNS-1123 label (at most 63 lower-case letters, digits and "-")'
        : 'a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", at most 253 characters)';
      this.report('metadata.name', `Invalid value: must be ${what}`, name);
    }
    if (metadata.namespace !== undefined) {
      if (!kind.namespaced) this.report('metadata.namespace', `Invalid value: ${this.identity.kind} is cluster-scoped and takes no namespace`, metadata.namespace);
      else if (typeof metadata.namespace === 'string' && !isDns1123Label(metadata.namespace)) this.report('metadata.namespace', 'Invalid value: must be a DNS-1123 label', metadata.namespace);
    }
    for (const field of ['labels', 'annotations'] as const) {
      const entries = metadata[field];
      if (!isPlainObject(entries)) continue;
      for (const [k, v] of Object.entries(entries)) {
        if (!isQualifiedName(k))
          this.report(`metadata.${field}`, `Invalid value: key ${JSON.stringify(k)} must be a qualified name (an optional DNS prefix and "/", then at most 63 alphanumerics, "-", "_" or ".")`, k);
        // The API server names the labels, as for a key, and the value.
        if (field === 'labels' && typeof v === 'string' && !isLabelValue(v))
          this.report(
            'metadata.labels',
            `Invalid value: the value of ${JSON.stringify(k)} must be a label value (at most 63 alphanumerics, "-", "_" or ".", starting and ending with an alphanumeric)`,
            v,
          );
      }
    }
  }

  /**
   * Validates `value` against `node` and returns it as CEL sees it (integers as bigint), or
   * undefined when its type is wrong. `structural` is false inside allOf/anyOf/oneOf/not, where
   * only value constraints apply.
   */
  private walk(value: unknown, node: SchemaNode, path: string, schemaPath: string, previous: unknown, structural: boolean): unknown {
    if (value === null) {
      if (!node.nullable && structural) this.report(path, `Invalid value: null: must be ${describeType(node)}`, null);
      return null;
    }
    if (!this.checkType(value, node, path)) return undefined;

    if (node.constrained) this.checkValueConstraints(value, node, path);
    if (node.combined) {
      const { allOf, anyOf, oneOf, not } = node.combinations;
      for (const sub of allOf) this.walk(value, sub, path, schemaPath, undefined, false);
      if (anyOf && !anyOf.some((sub) => this.quietlyPasses(value, sub))) this.report(path, 'Invalid value: must match at least one of the schemas in anyOf', value);
      if (oneOf && oneOf.filter((sub) => this.quietlyPasses(value, sub)).length !== 1) this.report(path, 'Invalid value: must match exactly one of the schemas in oneOf', value);
      if (not && this.quietlyPasses(value, not)) this.report(path, 'Invalid value: must not match the schema in not', value);
    }

    let celValue: unknown = value;
    if (Array.isArray(value)) {
      celValue = this.walkList(value, node, path, schemaPath, previous, structural);
    } else if (isPlainObject(value)) {
      celValue = this.walkFields(value, node, path, schemaPath, previous, structural);
    } else if (typeof value === 'number' && node.numbersAreIntegers) {
      celValue = Number.isInteger(value) ? BigInt(value) : value;
    }
    if (structural && this.rulesEnabled && node.hasRules) this.runRules(celValue, node, path, schemaPath, previous);
    return celValue;
  }

  private checkType(value: unknown, node: SchemaNode, path: string): boolean {
    if (node.intOrString) {
      if (typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))) return true;
      this.report(path, 'Invalid value: must be an integer or a string', value);
      return false;
    }
    if (hasType(value, node.type)) return true;
    // A version such as 4.17 left unquoted in YAML is read as a number (and 4.10 as 4.1).
    const quote = node.type === 'string' && typeof value === 'number' ? `; in YAML, quote it: a bare ${value} is read as a number` : '';
    this.report(path, `Invalid value: must be of type ${node.type}, got ${jsonType(value)}${quote}`, value);
    return false;
  }

  private checkValueConstraints(value: unknown, node: SchemaNode, path: string): void {
    const schema = node.schema;
    if (node.enumJson && !(typeof value !== 'object' ? node.enumScalars!.has(value) : node.enumJson.has(JSON.stringify(value)))) {
      this.report(path, `Unsupported value: supported values: ${schema.enum!.map((v) => JSON.stringify(v)).join(', ')}`, value);
    }
    if (typeof value === 'string') {
      // Lengths count characters (code points); value.length (UTF-16 units) is never fewer, so
      // it settles most cases without the count.
      if (schema.maxLength !== undefined && value.length > schema.maxLength) {
        const length = codePoints(value);
        if (length > schema.maxLength) this.report(path, `Too long: may not be more than ${schema.maxLength} characters (has ${length})`, value);
      }
      if (schema.minLength !== undefined && codePoints(value) < schema.minLength) this.report(path, `Invalid value: must be at least ${schema.minLength} characters long`, value);
      if (schema.pattern !== undefined && !re2(schema.pattern).test(value)) this.report(path, `Invalid value: must match the pattern ${JSON.stringify(schema.pattern)}`, value);
      if (schema.format !== undefined && !satisfiesFormat(schema.format, value)) this.report(path, `Invalid value: must be a valid ${schema.format}`, value);
    } else if (typeof value === 'number') {
      if (schema.maximum !== undefined && (schema.exclusiveMaximum ? value >= schema.maximum : value > schema.maximum)) {
        this.report(path, `Invalid value: must be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`, value);
      }
      if (schema.minimum !== undefined && (schema.exclusiveMinimum ? value <= schema.minimum : value < schema.minimum)) {
        this.report(path, `Invalid value: must be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`, value);
      }
      if (schema.multipleOf !== undefined && !Number.isInteger(value / schema.multipleOf)) this.report(path, `Invalid value: must be a multiple of ${schema.multipleOf}`, value);
      if (schema.format !== undefined) {
        const range = INTEGER_RANGES[schema.format];
        // The API server refuses it too ("must be of type integer with format int32"): the controller's Go field cannot hold it.
        if (range && (value < range.min || value > range.max))
          this.report(path, `Invalid value: must fit in ${range.name} (${range.min} to ${range.max}), the type of the field the controller reads`, value);
      }
    } else if (Array.isArray(value)) {
      if (schema.maxItems !== undefined && value.length > schema.maxItems) this.report(path, `Too many: ${value.length}: must have at most ${schema.maxItems} items`, value.length);
      if (schema.minItems !== undefined && value.length < schema.minItems) this.report(path, `Invalid value: must have at least ${schema.minItems} items`, value.length);
    } else if (isPlainObject(value) && (schema.maxProperties !== undefined || schema.minProperties !== undefined)) {
      // Counted as the API server counts them, after defaults have filled absent fields.
      let count = 0;
      for (const field in value) if (!this.isAbsent(value[field], node.field(field) ?? node.additionalProperties)) count++;
      for (const [field, fieldNode] of node.defaulted) if (this.isAbsent(value[field], fieldNode)) count++;
      if (schema.maxProperties !== undefined && count > schema.maxProperties) this.report(path, `Too many: ${count}: must have at most ${schema.maxProperties} properties`, count);
      if (schema.minProperties !== undefined && count < schema.minProperties) this.report(path, `Invalid value: must have at least ${schema.minProperties} properties`, count);
    }
  }

  private walkList(list: unknown[], node: SchemaNode, path: string, schemaPath: string, previous: unknown, structural: boolean): unknown[] {
    const { listType, listMapKeys: keys, items } = node;
    if (structural && listType === 'set') {
      const seen = new Set<string>();
      list.forEach((item, i) => {
        const id = JSON.stringify(item);
        if (seen.has(id)) this.report(`${path}[${i}]`, 'Duplicate value: items of a set must be unique', item);
        seen.add(id);
      });
    }
    const itemKey = (item: unknown): string | undefined => (isPlainObject(item) ? JSON.stringify(keys.map((k) => item[k] ?? items?.field(k)?.schema.default)) : undefined);
    if (structural && listType === 'map') {
      const seen = new Set<string>();
      list.forEach((item, i) => {
        const id = itemKey(item);
        if (id === undefined) return;
        if (seen.has(id)) this.report(`${path}[${i}]`, `Duplicate value: another item has the same ${keys.join(', ')}`, Object.fromEntries(keys.map((k) => [k, (item as any)[k]])));
        seen.add(id);
      });
    }
    // Items correlate with the stored object only through list-map keys, as in the API server.
    const previousByKey = new Map<string, unknown>();
    if (listType === 'map' && Array.isArray(previous)) for (const item of previous) previousByKey.set(itemKey(item)!, item);
    if (!items) return list;
    // As for objects: the list itself unless an item's CEL form differs.
    return mapUnlessChanged(list, (item, i) => this.walk(item, items, `${path}[${i}]`, `${schemaPath}[]`, listType === 'map' ? previousByKey.get(itemKey(item)!) : undefined, structural));
  }

  private walkFields(object: Record<string, unknown>, node: SchemaNode, path: string, schemaPath: string, previous: unknown, structural: boolean): Record<string, unknown> {
    const previousObject = isPlainObject(previous) ? previous : undefined;
    // The CEL form is the object itself until a field differs (a whole number, a dropped null, a
    // default filled in): most parts of an object are strings all through and need no copy.
    let out: Record<string, unknown> | undefined;
    for (const field of node.required) {
      const fieldNode = node.field(field);
      if (this.isAbsent(object[field], fieldNode) && fieldNode?.schema.default === undefined) this.report(join(path, field), 'Required value');
    }
    const additional = node.additionalProperties;
    const embedded = node.embeddedResource;
    // The fields given, then the defaults of those absent: as the API server decodes, a null in a
    // field that is not nullable is dropped where a default replaces it (see nullsDropped), then
    // defaults fill absent fields, so rules see them.
    for (const field in object) {
      const value = object[field];
      const fieldNode = node.field(field);
      // The field's CEL form; undefined leaves it out (absent, unknown, or of the wrong type).
      let cel: unknown;
      if (fieldNode) {
        // Status goes through the status subresource, an update, which drops nulls (the main resource drops status altogether).
        const statusDropsNulls = schemaPath === '' && field === 'status' && this.kind.statusSubresource === true && !this.nullsDropped;
        if (statusDropsNulls) this.nullsDropped = true;
        if (value === null && !fieldNode.nullable && !this.isAbsent(value, fieldNode)) {
          if (structural)
            this.report(
              join(path, field),
              `Invalid value: null: must be ${describeType(fieldNode)} (server-side apply refuses a null in a field that is not nullable and has no default; a create drops it)`,
              null,
            );
          cel = null;
        } else if (!this.isAbsent(value, fieldNode)) {
          // The stored object is read with defaults applied too, so oldSelf sees them.
          const previousValue = previousObject && (previousObject[field] ?? clone(fieldNode.schema.default));
          cel = this.walk(value, fieldNode, join(path, field), `${schemaPath}.${field}`, previousValue, structural);
        }
        if (statusDropsNulls) this.nullsDropped = false;
      } else if (additional) {
        cel = this.walk(value, additional, mapKey(path, field), `${schemaPath}{}`, previousObject?.[field], structural);
      } else if (node.additionalPropertiesAllowed || node.preservesUnknownFields || (embedded && (field === 'apiVersion' || field === 'kind' || field === 'metadata'))) {
        cel = toCelValue(value);
      } else if (structural) {
        this.report(
          join(path, field),
          `unknown field ${JSON.stringify(renderPath(join(path, field), false))}: the schema has no such field (strict field validation rejects it; without it the field is silently dropped)`,
          value,
        );
      }
      if (out !== undefined) {
        if (cel !== undefined) out[field] = cel;
      } else if (cel === undefined || cel !== value) {
        out = fieldsBefore(object, field);
        if (cel !== undefined) out[field] = cel;
      }
    }
    if (structural) {
      for (const [field, fieldNode] of node.defaulted) {
        if (!this.isAbsent(object[field], fieldNode)) continue;
        const previousValue = previousObject && (previousObject[field] ?? clone(fieldNode.schema.default));
        const cel = this.walk(clone(fieldNode.schema.default), fieldNode, join(path, field), `${schemaPath}.${field}`, previousValue, structural);
        out ??= fieldsBefore(object, undefined);
        if (cel !== undefined) out[field] = cel;
      }
    }
    if (embedded && structural) {
      for (const field of ['apiVersion', 'kind']) if (typeof object[field] !== 'string') this.report(join(path, field), 'Required value: an embedded resource needs apiVersion and kind');
    }
    return out ?? object;
  }

  private runRules(celValue: unknown, node: SchemaNode, path: string, schemaPath: string, previous: unknown): void {
    const rules = this.catalog.rulesOf(node.schema, this.kind, schemaPath);
    for (const rule of rules) {
      const previousCel = rule.isTransitionRule && previous !== undefined ? this.quietCelValue(previous, node) : undefined;
      const outcome = rule.evaluate(celValue, previousCel);
      if (!outcome) continue;
      this.ruleObserver?.(rule, outcome.passed, outcome.passed ? undefined : outcome.message);
      if (!outcome.passed) {
        const fieldPath = rule.spec.fieldPath ?? '';
        const at = fieldPath.startsWith('[') ? `${path}${fieldPath}` : join(path, fieldPath.replace(/^\./, ''));
        this.report(at.replace(/\.$/, ''), outcome.message, shallow(celValue), rule.spec.rule);
      }
    }
  }

  /** As the API server decodes: a field is absent when not given, or null where null is dropped (see nullsDropped) or defaulted. */
  private isAbsent(value: unknown, node: SchemaNode | undefined): boolean {
    return value === undefined || (value === null && !node?.nullable && (this.nullsDropped || node?.schema.default !== undefined));
  }

  /** Whether `value` meets `node` with no problems, without reporting anything. */
  private quietlyPasses(value: unknown, node: SchemaNode): boolean {
    const before = this.problems.length;
    this.walk(value, node, '', '', undefined, false);
    const passed = this.problems.length === before;
    this.problems.length = before;
    return passed;
  }

  /** The stored value as CEL sees it, for `oldSelf`: converted without checks or rules. */
  private quietCelValue(value: unknown, node: SchemaNode): unknown {
    const before = this.problems.length;
    this.rulesEnabled = false;
    const cel = this.walk(value, node, '', '', undefined, true);
    this.rulesEnabled = true;
    this.problems.length = before;
    return cel;
  }
}

const NOT_A_MAPPING = Symbol('not a mapping');

/**
 * The problems after which the API server runs no CEL rule: of the field error types TypeInvalid,
 * Required, NotSupported, TooLong and TooMany (hasBlockingErr, apiextensions-apiserver
 * pkg/registry/customresource/strategy.go), as this validator words them.
 */
const BLOCKING = /^(Required value|Unsupported value|Too long|Too many|Invalid value: (null: must be|must be of type|must be an integer or a string))/;

/** The API server's own words when a blocking problem kept it from running the rules. */
const RULES_NOT_CHECKED = 'Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

/**
 * The value at a CRD's JSON path of plain fields (`.spec.replicas`), read as the API server reads
 * it: undefined when a step on the way is missing or null, NOT_A_MAPPING when one is no mapping.
 */
function valueAt(object: Record<string, unknown>, path: string): unknown {
  let value: unknown = object;
  for (const field of path.replace(/^\./, '').split('.')) {
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) return NOT_A_MAPPING;
    value = value[field];
  }
  return value;
}

function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

// A map key in a path under walk: the API server's OpenAPI checks write it as a field
// (`spec.nodeLabels.pool`), its CEL rules in brackets (`spec.nodeLabels[pool]`).
const KEY_START = '\u0001';
const KEY_END = '\u0002';
// eslint-disable-next-line no-control-regex -- the marks are control characters because no key holds them
const MARKED_KEY = /\u0001([^\u0002]*)\u0002/g;

function mapKey(path: string, key: string): string {
  return `${path}${KEY_START}${key}${KEY_END}`;
}

function renderPath(path: string, rule: boolean): string {
  if (!path.includes(KEY_START)) return path;
  return path.replace(MARKED_KEY, rule ? '[$1]' : '.$1').replace(/^\./, '');
}

function hasType(value: unknown, type: OpenApiSchema['type']): boolean {
  switch (type) {
    case undefined:
      return true;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
  }
}

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function describeType(node: SchemaNode): string {
  return node.intOrString ? 'an integer or a string' : `of type ${node.type ?? 'any'}`;
}

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

/** A copy of a schema default, so that no walk shares (or changes) the schema's own value. */
function clone<T>(value: T): T {
  return value === null || typeof value !== 'object' ? value : JSON.parse(JSON.stringify(value));
}

/** Untyped (preserved) JSON as CEL sees it: whole numbers are ints. */
function toCelValue(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  // Copied only where a whole number lies below: metadata, the usual case, is strings all through.
  if (Array.isArray(value)) return mapUnlessChanged(value, toCelValue);
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const key of Object.keys(value)) {
      const cel = toCelValue(value[key]);
      if (cel !== value[key]) (copy ??= { ...value })[key] = cel;
    }
    return copy ?? value;
  }
  return value;
}

/** The object with metadata moved to the end, so that the walk reports its problems last. */
function metadataLast(object: Record<string, unknown>): Record<string, unknown> {
  const { metadata, ...rest } = object;
  return { ...rest, metadata };
}

/** A failing rule's `self` for the message: scalars as they are, structures summarized. */
function shallow(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (Array.isArray(value) || isPlainObject(value)) return JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)));
  return value;
}
