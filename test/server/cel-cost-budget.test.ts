// The CEL cost budget hcp-cdk holds supplied CRDs to (validation/cel/cel-cost.ts) against the real
// kube-apiserver: each CRD below is created (dry run) on the server and given to the catalog, and
// both must refuse it or both accept it. A rule the server refuses never runs on it; hcp-cdk must
// not run it either (such a rule can take minutes on a large list).
import { overBudgetRules } from '../../lib/validation/cel/cel-cost';
import { KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
afterAll(() => client.close());

/** A CRD whose spec has `items` (strings) and one rule at `at`. */
function crd(name: string, rule: string, limits: { readonly maxItems?: number; readonly maxLength?: number } = {}, at: 'spec' | 'items' = 'spec'): any {
  const item: any = { type: 'string', ...(limits.maxLength !== undefined ? { maxLength: limits.maxLength } : {}) };
  if (at === 'items') item['x-kubernetes-validations'] = [{ rule }];
  const spec: any = {
    type: 'object',
    properties: { items: { type: 'array', items: item, ...(limits.maxItems !== undefined ? { maxItems: limits.maxItems } : {}) } },
    ...(at === 'spec' ? { 'x-kubernetes-validations': [{ rule }] } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${name}s.budget.example.com` },
    spec: {
      group: 'budget.example.com',
      scope: 'Namespaced',
      names: { kind: name[0].toUpperCase() + name.slice(1), plural: `${name}s`, singular: name, listKind: `${name[0].toUpperCase()}${name.slice(1)}List` },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } }],
    },
  };
}

const CASES: readonly [string, any][] = [
  ['every pair of an unbounded list', crd('pairs', 'self.items.all(x, self.items.all(y, x == y))')],
  ['every pair of a bounded list', crd('boundedpairs', 'self.items.all(x, self.items.all(y, x == y))', { maxItems: 20, maxLength: 16 })],
  ['a regular expression on every string of an unbounded list', crd('regexes', "self.items.all(x, x.matches('^a+$'))")],
  ['a regular expression on every string of a bounded list', crd('boundedregexes', "self.items.all(x, x.matches('^a+$'))", { maxItems: 100, maxLength: 64 })],
  ['the size of every string of an unbounded list', crd('sizes', 'self.items.all(x, size(x) < 10)')],
  ['a rule on each unbounded string of an unbounded list', crd('contains', "self.contains('a')", {}, 'items')],
  ['a rule on each bounded string of a bounded list', crd('boundedcontains', "self.contains('a')", { maxItems: 100, maxLength: 64 }, 'items')],
  ['a transition rule on each unbounded string of an unbounded list', crd('immutables', 'self == oldSelf', {}, 'items')],
  ['a comparison of each unbounded string of an unbounded list', crd('comparisons', "self == 'a'", {}, 'items')],
  ['a size on each unbounded string of an unbounded list', crd('itemsizes', 'size(self) < 10', {}, 'items')],
];

test.each(CASES)('%s: refused by hcp-cdk exactly when the API server refuses the CRD', async (_, definition) => {
  const response = await client.create(definition, { dryRun: true });
  const serverRefuses = response.status === 422 && /exceeds budget/.test(response.message);
  if (!serverRefuses) expect(response.status).toBeLessThan(300);
  const refused = overBudgetRules(definition.spec.versions[0].schema.openAPIV3Schema);
  // The factor is the estimate's, which may differ from the server's; the verdict and the words may not.
  const words = (message: string | undefined): string | undefined =>
    /estimated rule cost exceeds budget by factor of .*?\)/.exec(message ?? '')?.[0].replace(/factor of (more than 100x|\S+)/, 'factor of N');
  expect({ refused: refused.length > 0, message: words(refused[0]?.message) }).toEqual({ refused: serverRefuses, message: serverRefuses ? words(response.message) : undefined });
});
