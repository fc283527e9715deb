import { fieldsBefore, mapUnlessChanged } from '../../lib/core/copy-on-change';

describe('mapUnlessChanged', () => {
  test('gives the list itself when every item maps to itself', () => {
    const list = ['a', { b: 1 }];
    expect(mapUnlessChanged(list, (item) => item)).toBe(list);
  });

  test('gives a new list, the original untouched, once an item changes', () => {
    const list = [1, 2, 3];
    const mapped = mapUnlessChanged(list, (item, i) => (i === 1 ? item * 10 : item));
    expect(mapped).toEqual([1, 20, 3]);
    expect(list).toEqual([1, 2, 3]);
  });
});

describe('fieldsBefore', () => {
  test('copies the fields up to the one named, or all', () => {
    const object = { a: 1, b: 2, c: 3 };
    expect(fieldsBefore(object, 'c')).toEqual({ a: 1, b: 2 });
    expect(fieldsBefore(object, undefined)).toEqual(object);
    expect(fieldsBefore(object, undefined)).not.toBe(object);
  });
});
