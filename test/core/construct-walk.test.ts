import { Construct } from 'constructs';
import { allConstructs, withConstructWalk } from '../../lib/core/construct-walk';

describe('allConstructs', () => {
  const root = new Construct(undefined as any, '');
  new Construct(new Construct(root, 'a'), 'b');

  test('walks the tree when no walk is under way', () => {
    expect(allConstructs(root).map((c) => c.node.path)).toEqual(['', 'a', 'a/b']);
  });

  test('hands out the walk under way for its root, and walks again after it', () => {
    const walk = root.node.findAll();
    withConstructWalk(root, walk, () => {
      expect(allConstructs(root)).toBe(walk);
      // Another root is walked as usual.
      const other = new Construct(undefined as any, '');
      expect(allConstructs(other)).toEqual([other]);
    });
    expect(allConstructs(root)).not.toBe(walk);
  });

  test('ends the walk when the work throws', () => {
    const walk = root.node.findAll();
    expect(() =>
      withConstructWalk(root, walk, () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(allConstructs(root)).not.toBe(walk);
  });
});
