import { definedFields } from '../../lib/core/defined-fields';

describe('definedFields', () => {
  test('keeps the fields that are not undefined, in their order; null stays', () => {
    const fields = definedFields({ b: 1, a: undefined, c: null, d: 'x' });
    expect(Object.entries(fields)).toEqual([
      ['b', 1],
      ['c', null],
      ['d', 'x'],
    ]);
  });

  test('a field named __proto__ stays a field, as in the object literal it replaces', () => {
    const fields = definedFields(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
    expect(Object.keys(fields)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(fields)).toBe(Object.prototype);
    expect((fields as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

describe('definedFields with a map', () => {
  test('maps each defined field (a quantity to its value) and still drops the undefined ones', () => {
    const fields = definedFields({ cpu: { value: '500m' }, memory: undefined, storage: { value: '1Gi' } }, (v) => v?.value);
    expect(Object.entries(fields)).toEqual([
      ['cpu', '500m'],
      ['storage', '1Gi'],
    ]);
  });
});
