// The lint `hcp-cdk validate` runs over objects the API server accepts: each rule on a hand-written
// object that breaks it once, with the exact message, and nothing on objects that break none.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { LINT_RULES, MANIFEST_LINT_RULES, validateManifests } from '../../lib';
import { formatLintFinding } from '../../lib/validation/manifest-lint';
import { LINT_CASES, writeLintFixtures } from './lint-fixtures';
import { HOSTED_CLUSTER, NODE_POOL } from './object-cases';

const ROOT = writeLintFixtures(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-lint-')));

/** The lint lines of one case folder, file names relative to it. */
function lintLines(folder: string): { problems: string[]; findings: string[] } {
  const dir = path.join(ROOT, folder);
  const result = validateManifests([dir], { lint: true });
  const relative = (line: string) => line.split(`${dir}${path.sep}`).join('');
  return { problems: result.problems.map((p) => relative(`${p.source}: ${p.path}: ${p.message}`)), findings: result.findings.map((f) => relative(formatLintFinding(f))) };
}

describe('hcp-cdk validate lint', () => {
  test.each(Object.entries(LINT_CASES))('fails when %s: the rule fires, with its message, on an object the API server accepts', (folder, lintCase) => {
    const { problems, findings } = lintLines(folder);
    expect(problems).toEqual([]);
    expect(findings).toEqual(lintCase.findings);
    expect(findings.every((f) => f.endsWith(`[${lintCase.rule}]`))).toBe(true);
  });

  test("every rule has a case, and the ids are unique across the synth lint and validate's", () => {
    expect(new Set(Object.values(LINT_CASES).map((c) => c.rule))).toEqual(new Set(Object.values(MANIFEST_LINT_RULES).map((r) => r.id)));
    const ids = [...Object.values(LINT_RULES), ...Object.values(MANIFEST_LINT_RULES)].map((r) => r.id);
    expect(new Set(ids).size).toBe(new Set([...Object.values(LINT_RULES), ...Object.values(MANIFEST_LINT_RULES)]).size);
  });

  test("docs/validation.md lists every rule, in its table of hcp-cdk validate's lint", () => {
    const readme = fs.readFileSync(path.join(process.cwd(), 'docs', 'validation.md'), 'utf8');
    const listed = [...readme.matchAll(/^\| `(HCP-W\d{3})` \| (.+) \|$/gm)].map((m) => m[1]);
    expect(listed).toEqual(Object.values(MANIFEST_LINT_RULES).map((r) => r.id));
  });

  test('passes the valid bases: no finding on a HostedCluster and NodePool that break no rule', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-lint-clean-'));
    fs.writeFileSync(path.join(dir, 'objects.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [HOSTED_CLUSTER, NODE_POOL] }));
    expect(validateManifests([dir], { lint: true })).toEqual(expect.objectContaining({ objects: 2, problems: [], findings: [] }));
  });

  test('leaves out objects the API server refuses: their problems come first', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-lint-refused-'));
    fs.writeFileSync(path.join(dir, 'pool.json'), JSON.stringify({ ...NODE_POOL, spec: { ...NODE_POOL.spec, replicas: -1, arch: 'sparc' } }));
    const result = validateManifests([dir], { lint: true });
    expect(result.problems.length).toBeGreaterThan(0);
    expect(result.findings).toEqual([]);
  });

  test('lints nothing unless asked', () => {
    expect(validateManifests([path.join(ROOT, 'oversized-pool')]).findings).toEqual([]);
  });
});
