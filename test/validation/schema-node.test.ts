import type { OpenApiSchema } from '../../lib/validation/schema-catalog';
import { SchemaNode } from '../../lib/validation/schema-node';

describe('SchemaNode', () => {
  const definitions: Record<string, OpenApiSchema> = {
    Port: { type: 'integer', minimum: 1, maximum: 65535 },
    PortAlias: { $ref: 'Port' },
  };
  const schema: OpenApiSchema = {
    type: 'object',
    required: ['port'],
    properties: {
      port: { $ref: 'PortAlias' },
      mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      size: { 'x-kubernetes-int-or-string': true, nullable: true },
    },
  };

  test('follows $refs, through definitions that are themselves $refs', () => {
    const port = SchemaNode.of(schema, definitions).field('port')!;
    expect(port.schema).toBe(definitions.Port);
    expect(port.type).toBe('integer');
    expect(port.constrained).toBe(true);
    expect(port.numbersAreIntegers).toBe(true);
  });

  test('is made once per schema and definitions, and links its children', () => {
    const node = SchemaNode.of(schema, definitions);
    expect(SchemaNode.of(schema, definitions)).toBe(node);
    expect(node.field('port')).toBe(node.field('port'));
    // The same schema object under other definitions resolves there.
    const other = SchemaNode.of(schema, { ...definitions, Port: { type: 'string' } });
    expect(other).not.toBe(node);
    expect(other.field('port')!.type).toBe('string');
  });

  test('knows its fields, items, additional properties and defaults', () => {
    const node = SchemaNode.of(schema, definitions);
    expect(node.required).toEqual(['port']);
    expect(node.field('unknown')).toBeUndefined();
    // Only declared fields: not what every object inherits.
    expect(node.field('constructor')).toBeUndefined();
    expect(node.field('tags')!.listType).toBe('set');
    expect(node.field('tags')!.items!.type).toBe('string');
    expect(node.field('labels')!.additionalProperties!.type).toBe('string');
    expect(node.field('labels')!.additionalPropertiesAllowed).toBe(false);
    expect(node.defaulted.map(([field, child]) => [field, child.schema.default])).toEqual([['mode', 'a']]);
    expect([...node.field('mode')!.enumScalars!]).toEqual(['a', 'b']);
    expect(node.field('size')!.intOrString).toBe(true);
    expect(node.field('size')!.nullable).toBe(true);
    expect(node.constrained).toBe(false);
    expect(node.hasRules).toBe(false);
  });

  test('an unknown $ref fails when it is reached, naming the definition', () => {
    const node = SchemaNode.of({ type: 'object', properties: { broken: { $ref: 'Missing' } } }, definitions);
    expect(() => node.field('broken')).toThrow('schema: unknown definition Missing');
  });
});
