// Every hand-written case under ./cases through the validator: a failing case must be rejected with
// its rule's message (and path, when given); a passing case must produce no problem at all.
import { formatProblem, ObjectValidator } from '../../lib';
import { loadCaseFiles } from './case-files';
import { HOSTED_CLUSTER, NODE_POOL } from './object-cases';

const validator = new ObjectValidator();

test('the base HostedCluster and NodePool are valid', () => {
  expect(validator.validate(HOSTED_CLUSTER).map(formatProblem)).toEqual([]);
  expect(validator.validate(NODE_POOL).map(formatProblem)).toEqual([]);
});

for (const { file, cases } of loadCaseFiles()) {
  describe(file, () => {
    for (const c of cases) {
      test(c.name, () => {
        const problems = validator.validate(c.object, { previous: c.previous });
        if (c.rejects === undefined) {
          expect(problems.map(formatProblem)).toEqual([]);
          return;
        }
        const matching = problems.filter((p) => p.message.includes(c.rejects!) && (c.at === undefined || p.path === c.at));
        if (matching.length === 0) {
          throw new Error(`expected a problem containing ${JSON.stringify(c.rejects)}${c.at ? ` at ${c.at}` : ''}, got:\n${problems.map(formatProblem).join('\n') || '(none)'}`);
        }
      });
    }
  });
}

test('the cases include at least 60 invalid objects', () => {
  const invalid = loadCaseFiles()
    .flatMap((f) => f.cases)
    .filter((c) => c.rejects !== undefined);
  expect(invalid.length).toBeGreaterThanOrEqual(60);
});
