import { diffFields } from '../../lib';

describe('diffFields', () => {
  test('reports leaves, with keys that are not identifiers quoted', () => {
    expect(diffFields({ metadata: { annotations: { 'a.io/x': '1' } }, spec: { replicas: 2, paused: true } }, { metadata: { annotations: { 'a.io/x': '2' } }, spec: { replicas: 2 } })).toEqual([
      { path: 'metadata.annotations["a.io/x"]', before: '1', after: '2' },
      { path: 'spec.paused', before: true },
    ]);
  });

  test('addresses list items by name when every item has a distinct one', () => {
    expect(
      diffFields(
        {
          spec: {
            services: [
              { name: 'api', port: 1 },
              { name: 'oauth', port: 2 },
            ],
          },
        },
        {
          spec: {
            services: [
              { name: 'oauth', port: 3 },
              { name: 'api', port: 1 },
              { name: 'ignition', port: 4 },
            ],
          },
        },
      ),
    ).toEqual([
      { path: 'spec.services[name=oauth].port', before: 2, after: 3 },
      { path: 'spec.services[name=ignition].name', after: 'ignition' },
      { path: 'spec.services[name=ignition].port', after: 4 },
    ]);
  });

  test('compares other lists item by item, or whole when their lengths differ', () => {
    expect(diffFields({ a: [1, 2] }, { a: [1, 3] })).toEqual([{ path: 'a[1]', before: 2, after: 3 }]);
    expect(diffFields({ a: [1, 2] }, { a: [1, 2, 3] })).toEqual([{ path: 'a', before: [1, 2], after: [1, 2, 3] }]);
  });

  test('a mapping added whole is reported leaf by leaf; equal values are no change', () => {
    expect(diffFields({ metadata: {} }, { metadata: { labels: { tier: 'gold' } } })).toEqual([{ path: 'metadata.labels.tier', after: 'gold' }]);
    expect(diffFields({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2 }] } })).toEqual([]);
  });
});

test('a field set to null is a field not set, as the API server reads it', () => {
  expect(diffFields({ spec: { config: null, a: 1 } }, { spec: { a: 1 } })).toEqual([]);
  expect(diffFields({ spec: { a: null } }, { spec: { a: 2 } })).toEqual([{ path: 'spec.a', after: 2 }]);
});
