import { SubtreeCache } from '../../lib/validation/subtree-cache';

describe('SubtreeCache', () => {
  test('returns what was stored for a key, and nothing for another', () => {
    const cache = new SubtreeCache();
    cache.set('{"a":1}', { a: 1n });
    expect(cache.get('{"a":1}')).toEqual({ a: 1n });
    expect(cache.get('{"a":2}')).toBeUndefined();
  });

  test('stops caching a node whose parts come back too rarely', () => {
    const cache = new SubtreeCache();
    for (let i = 0; i < SubtreeCache.TRIAL; i++) {
      expect(cache.enabled).toBe(true);
      cache.get(`unique-${i}`);
      cache.set(`unique-${i}`, i);
    }
    expect(cache.enabled).toBe(false);
    expect(cache.get('unique-0')).toBeUndefined();
  });

  test('keeps caching a node whose parts repeat', () => {
    const cache = new SubtreeCache();
    for (let i = 0; i < 4 * SubtreeCache.TRIAL; i++) {
      const key = `part-${i % 5}`;
      if (cache.get(key) === undefined) cache.set(key, i);
    }
    expect(cache.enabled).toBe(true);
    expect(cache.get('part-3')).toBe(3);
  });
});
