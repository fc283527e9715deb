// The validator held to the API server: every hand-written case of test/validation/cases, and
// generated cases for every schema constraint of the kinds those cases hold (HostedCluster and
// NodePool above all), go to ObjectValidator and, as strict server-side apply dry runs, to the real
// kube-apiserver with the bundled CRDs. The verdicts must be the same, field path by field path
// (see differential.ts for what is compared when the server stops early). The figures are asserted,
// so that docs/validation.md's cannot drift: change them there too when cases or CRDs change.
import { ROOT } from '../util';
import { CaseOutcome, DifferentialReport, PRUNED_BY_APPLY, runDifferential } from './differential';
import { KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
let report: DifferentialReport;

beforeAll(async () => {
  const started = Date.now();
  report = await runDifferential(client, ROOT);
  const all = [...report.written, ...report.generated];
  const agreeing = all.filter((o) => o.agree).length;
  process.stdout.write(
    `\nvalidator differential: ${report.distinctCases} distinct cases over ${report.rules.heldBothWays} CEL rules and ${report.constraints.heldBothWays} ` +
      `schema constraints; the validator and the server agree on ${report.distinctAgreeing} (${agreeing} of ${all.length} outcomes: ${report.written.length} written, ` +
      `${report.generated.length} generated), the others are ${explanations(all)}; ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
      `  constraints by kind: ${JSON.stringify(report.constraints.byKind)}\n` +
      `  of the whole schemas: ${report.constraints.schemas.map((s) => `${s.kind} ${s.held} of ${s.constraints} (${s.withCases} with cases)`).join(', ')}\n`,
  );
}, 180_000);

afterAll(() => client.close());

test('the validator and the server agree on every case, but where docs/validation.md explains why not', () => {
  const unexplained = [...report.written, ...report.generated].filter((o) => !o.agree && !o.explained).map(describe);
  expect(unexplained).toEqual([]);
});

test('the one difference: server-side apply drops undeclared fields below a node that preserves unknown fields, which a strict create refuses', () => {
  const explained = [...report.written, ...report.generated].filter((o) => o.explained);
  expect(explained.map((o) => o.explained)).toEqual(explained.map(() => PRUNED_BY_APPLY));
  // All of them under the ingress operator's endpointPublishingStrategy, the one such node the cases reach.
  expect(explained.map((o) => o.case.name).every((name) => name.includes('spec.operatorConfiguration.ingressOperator.endpointPublishingStrategy.'))).toBe(true);
  expect(explained).toHaveLength(13);
});

test('the figures docs/validation.md gives', () => {
  const all = [...report.written, ...report.generated];
  expect({
    distinctCases: report.distinctCases,
    distinctAgreeing: report.distinctAgreeing,
    written: report.written.length,
    generated: report.generated.length,
    agreeing: all.filter((o) => o.agree).length,
    rules: { heldBothWays: report.rules.heldBothWays, total: report.rules.total },
    constraints: report.constraints.heldBothWays,
    constraintsWithCases: report.constraints.total,
    schemas: report.constraints.schemas,
  }).toEqual({
    distinctCases: 6809,
    distinctAgreeing: 6796,
    written: 562,
    generated: 9649,
    agreeing: 10198,
    rules: { heldBothWays: 304, total: 308 },
    constraints: 4885,
    constraintsWithCases: 4898,
    schemas: [
      { kind: 'HostedCluster', constraints: 2906, withCases: 2889, held: 2876 },
      { kind: 'NodePool', constraints: 565, withCases: 561, held: 561 },
    ],
  });
});

test('the CEL rules not held both ways can never fail on the server', () => {
  // Three because a default always satisfies them; self.size() <= 1 because maxItems: 1 refuses a
  // second item first, and a maxItems error keeps the server from running the rules.
  expect(report.rules.notHeld).toEqual([
    'hostedclusters.hypershift.openshift.io@v1beta1 .spec#6', // has(self.issuerURL) || !has(self.serviceAccountSigningKey): issuerURL's default
    'hostedclusters.hypershift.openshift.io@v1beta1 .spec.etcd.managed.storage.restoreSnapshotURL#0', // self.size() <= 1
    'nodepools.hypershift.openshift.io@v1beta1 .spec#0', // !has(oldSelf.arch) || has(self.arch): arch's default
    'nodepools.hypershift.openshift.io@v1beta1 .spec.platform.azure.image.azureMarketplace#0', // has(self.imageGeneration) || ...: imageGeneration's default
  ]);
});

test('a negative NodePool spec.replicas is refused by both, at spec.replicas (the scale subresource, whatever the schema says)', () => {
  const negative = report.written.find((o) => o.case.name.endsWith('fails when replicas is negative, which the scale subresource refuses'))!;
  expect(negative.agree).toBe(true);
  expect(negative.comparisons.map((x) => x.server.paths)).toEqual([['spec.replicas']]);
  expect(negative.problems.map((p) => p.message)).toEqual(['Invalid value: should be a non-negative integer: the scale subresource reads it as a replica count']);
});

function explanations(outcomes: readonly CaseOutcome[]): string {
  const counts = new Map<string, number>();
  for (const o of outcomes) if (!o.agree) counts.set(o.explained ?? 'UNEXPLAINED', (counts.get(o.explained ?? 'UNEXPLAINED') ?? 0) + 1);
  return [...counts].map(([why, n]) => `${n}: ${why}`).join('; ') || 'none';
}

function describe(o: CaseOutcome): string {
  const server = o.comparisons.map((x) => `${x.server.stage} ${JSON.stringify(x.server.paths)} (validator: ${JSON.stringify(x.validatorPaths)}) ${x.server.message.slice(0, 300)}`).join(' | ');
  return `${o.case.name}: server ${server}; validator: ${o.problems.map((p) => `${p.path}: ${p.message}`).join('; ') || 'no problem'}`;
}
