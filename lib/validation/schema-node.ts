import type { OpenApiSchema } from './schema-catalog';

/** Where a schema's `$ref`s point: the definitions of the file it came from. */
export type SchemaDefinitions = Readonly<Record<string, OpenApiSchema>>;

const VALUE_CONSTRAINTS = ['enum', 'maxLength', 'minLength', 'pattern', 'format', 'maximum', 'minimum', 'multipleOf', 'maxItems', 'minItems', 'maxProperties', 'minProperties'] as const;

const NO_FIELDS: readonly string[] = [];

/** The nodes of a schema's allOf, anyOf, oneOf and not. */
export interface SchemaCombinations {
  readonly allOf: readonly SchemaNode[];
  readonly anyOf?: readonly SchemaNode[];
  readonly oneOf?: readonly SchemaNode[];
  readonly not?: SchemaNode;
}

// Per definitions, so that one schema object (ObjectMeta's $ref, say) under two files stays two nodes.
const nodesByDefinitions = new WeakMap<SchemaDefinitions, WeakMap<OpenApiSchema, SchemaNode>>();

/**
 * One node of a schema as the validator walks it: `$ref` resolved, and everything a visit reads
 * worked out once, in one object shape, with its children linked. A fleet checks thousands of
 * objects against the same few schemas; reading the raw schema objects on every visit (each of
 * its own shape, found again through lookups) cost more than the checks themselves.
 *
 * Children are made on first use: built-in definitions refer to themselves, and most of a large
 * CRD is never reached by the objects one app writes.
 */
export class SchemaNode {
  /** The node of `schema`, whose `$ref`s point into `definitions`. */
  static of(schema: OpenApiSchema, definitions: SchemaDefinitions): SchemaNode {
    let nodes = nodesByDefinitions.get(definitions);
    if (!nodes) nodesByDefinitions.set(definitions, (nodes = new WeakMap()));
    let node = nodes.get(schema);
    if (!node) {
      node = new SchemaNode(resolve(schema, definitions), definitions);
      nodes.set(schema, node);
    }
    return node;
  }

  /** The resolved schema: for the keywords only a few nodes set (limits, patterns, messages). */
  readonly schema: OpenApiSchema;
  readonly type: OpenApiSchema['type'];
  readonly nullable: boolean;
  readonly intOrString: boolean;
  /** Whether a number here is an integer to CEL (int-or-string, integer, or untyped). */
  readonly numbersAreIntegers: boolean;
  readonly preservesUnknownFields: boolean;
  readonly embeddedResource: boolean;
  readonly additionalPropertiesAllowed: boolean;
  readonly required: readonly string[];
  readonly listType: OpenApiSchema['x-kubernetes-list-type'];
  readonly listMapKeys: readonly string[];
  /** The enum values as JSON, for a lookup instead of a scan. */
  readonly enumJson: ReadonlySet<string> | undefined;
  /** The enum's strings, numbers and booleans themselves, so that a scalar needs no JSON. */
  readonly enumScalars: ReadonlySet<unknown> | undefined;
  /** Whether the node sets any keyword that the value-constraint check reads: most leaves set none. */
  readonly constrained: boolean;
  /** Whether the node has allOf, anyOf, oneOf or not. */
  readonly combined: boolean;
  readonly hasRules: boolean;

  private readonly fields = new Map<string, SchemaNode | undefined>();
  private itemsNode: SchemaNode | null | undefined;
  private additionalNode: SchemaNode | null | undefined;
  private defaultedFields: readonly (readonly [string, SchemaNode])[] | undefined;
  private combinedNodes: SchemaCombinations | undefined;

  private constructor(
    schema: OpenApiSchema,
    private readonly definitions: SchemaDefinitions,
  ) {
    this.schema = schema;
    this.type = schema.type;
    this.nullable = schema.nullable === true;
    this.intOrString = schema['x-kubernetes-int-or-string'] === true;
    this.numbersAreIntegers = this.intOrString || schema.type === 'integer' || !schema.type;
    this.preservesUnknownFields = schema['x-kubernetes-preserve-unknown-fields'] === true;
    this.embeddedResource = schema['x-kubernetes-embedded-resource'] === true;
    this.additionalPropertiesAllowed = schema.additionalProperties === true;
    this.required = schema.required ?? NO_FIELDS;
    this.listType = schema['x-kubernetes-list-type'];
    this.listMapKeys = schema['x-kubernetes-list-map-keys'] ?? NO_FIELDS;
    this.enumJson = schema.enum ? new Set(schema.enum.map((v) => JSON.stringify(v))) : undefined;
    this.enumScalars = schema.enum ? new Set(schema.enum.filter((v) => typeof v !== 'object')) : undefined;
    this.constrained = VALUE_CONSTRAINTS.some((keyword) => schema[keyword] !== undefined);
    this.combined = Boolean(schema.allOf || schema.anyOf || schema.oneOf || schema.not);
    this.hasRules = (schema['x-kubernetes-validations']?.length ?? 0) > 0;
  }

  /** The node of a declared property, or undefined when the schema has no such field. */
  field(name: string): SchemaNode | undefined {
    const properties = this.schema.properties;
    // Maps (labels, data) declare no properties: their keys are not remembered, there is no end to them.
    if (!properties) return undefined;
    let node = this.fields.get(name);
    if (node === undefined && !this.fields.has(name)) {
      node = Object.hasOwn(properties, name) ? SchemaNode.of(properties[name], this.definitions) : undefined;
      this.fields.set(name, node);
    }
    return node;
  }

  get items(): SchemaNode | undefined {
    if (this.itemsNode === undefined) this.itemsNode = this.schema.items ? SchemaNode.of(this.schema.items, this.definitions) : null;
    return this.itemsNode ?? undefined;
  }

  /** The node every undeclared field must meet, when additionalProperties is a schema. */
  get additionalProperties(): SchemaNode | undefined {
    if (this.additionalNode === undefined) {
      const additional = this.schema.additionalProperties;
      this.additionalNode = typeof additional === 'object' ? SchemaNode.of(additional, this.definitions) : null;
    }
    return this.additionalNode ?? undefined;
  }

  /** The declared fields with a default, which fill in when absent. */
  get defaulted(): readonly (readonly [string, SchemaNode])[] {
    this.defaultedFields ??= Object.keys(this.schema.properties ?? {})
      .map((name) => [name, this.field(name)!] as const)
      .filter(([, node]) => node.schema.default !== undefined);
    return this.defaultedFields;
  }

  /** The nodes of allOf, anyOf, oneOf and not. */
  get combinations(): SchemaCombinations {
    if (!this.combinedNodes) {
      const of = (schemas: readonly OpenApiSchema[] | undefined) => schemas?.map((s) => SchemaNode.of(s, this.definitions));
      this.combinedNodes = {
        allOf: of(this.schema.allOf) ?? [],
        anyOf: of(this.schema.anyOf),
        oneOf: of(this.schema.oneOf),
        not: this.schema.not ? SchemaNode.of(this.schema.not, this.definitions) : undefined,
      };
    }
    return this.combinedNodes;
  }
}

function resolve(schema: OpenApiSchema, definitions: SchemaDefinitions): OpenApiSchema {
  let resolved = schema;
  while (resolved.$ref) {
    const target = definitions[resolved.$ref];
    if (!target) throw new Error(`schema: unknown definition ${resolved.$ref}`);
    resolved = target;
  }
  return resolved;
}
