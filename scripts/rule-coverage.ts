/**
 * Which CEL rules of the bundled CRDs the hand-written validation cases exercise (npm run coverage:rules).
 *
 * A rule counts as passed when it evaluated to true on some case's object, and as failed when a
 * failing case (one with `rejects`) made it evaluate to false with the very message the case expects.
 * A rule is covered when both happened.
 *
 *   node build/scripts/rule-coverage.js                  the table, one row per CRD with rules
 *   node build/scripts/rule-coverage.js --uncovered Kind  the rules of Kind not yet covered both ways
 *   node build/scripts/rule-coverage.js --list Kind       every rule of Kind: id, message, rule
 */
import { CompiledCelRule } from '../lib/validation/cel/cel-rule';
import { ObjectValidator } from '../lib/validation/object-validator';
import { SchemaCatalog } from '../lib/validation/schema-catalog';
import { loadCaseFiles } from '../test/validation/case-files';

interface Tally {
  passed: boolean;
  failed: boolean;
}

function main(args: string[]): void {
  const catalog = SchemaCatalog.bundled();
  const tallies = new Map<string, Tally>();
  let current: { rejects?: string } = {};
  const validator = new ObjectValidator({
    catalog,
    ruleObserver: (rule: CompiledCelRule, passed: boolean, message?: string) => {
      const tally = tallies.get(rule.id) ?? { passed: false, failed: false };
      if (passed) tally.passed = true;
      else if (current.rejects !== undefined && message?.includes(current.rejects)) tally.failed = true;
      tallies.set(rule.id, tally);
    },
  });
  let cases = 0;
  for (const file of loadCaseFiles()) {
    for (const c of file.cases) {
      current = c;
      validator.validate(c.object, { previous: c.previous });
      cases++;
    }
  }

  const kinds = catalog
    .knownKinds()
    .map((key) => catalog.lookup(key.slice(0, key.lastIndexOf('/')), key.slice(key.lastIndexOf('/') + 1))!)
    .filter((kind, i, all) => !kind.builtIn && all.findIndex((k) => k.id === kind.id) === i);

  const [option, kindName] = args;
  if (option === '--list' || option === '--uncovered') {
    // A kind name (NodePool) or a CRD id (bgppeers.metallb.io@v1beta2); every served version.
    const matching = kinds.filter((k) => k.id.split('.')[0] === `${kindName.toLowerCase()}s` || k.id.startsWith(kindName));
    if (matching.length === 0) throw new Error(`no bundled CRD for ${kindName}`);
    for (const rule of matching.flatMap((kind) => catalog.allRules(kind))) {
      const tally = tallies.get(rule.id);
      if (option === '--uncovered' && tally?.passed && tally.failed) continue;
      const state = option === '--uncovered' ? ` [passed: ${tally?.passed ? 'yes' : 'no'}, failed: ${tally?.failed ? 'yes' : 'no'}]` : '';
      console.log(`${rule.id}${state}\n  message: ${ruleMessage(rule)}\n  rule:    ${rule.spec.rule}`);
    }
    return;
  }

  console.log(`CEL rule coverage of the bundled CRDs by ${cases} validation cases (test/validation/cases)`);
  console.log('covered = made to pass by some case and to fail, with its own message, by a failing case');
  console.log('');
  const rows: string[][] = [['CRD', 'rules', 'passed', 'failed', 'covered', '%']];
  let allRules = 0;
  let allCovered = 0;
  for (const kind of kinds.sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const rules = catalog.allRules(kind);
    if (rules.length === 0) continue;
    const passed = rules.filter((r) => tallies.get(r.id)?.passed).length;
    const failed = rules.filter((r) => tallies.get(r.id)?.failed).length;
    const covered = rules.filter((r) => tallies.get(r.id)?.passed && tallies.get(r.id)?.failed).length;
    allRules += rules.length;
    allCovered += covered;
    rows.push([kind.id, String(rules.length), String(passed), String(failed), String(covered), `${Math.floor((100 * covered) / rules.length)}`]);
  }
  rows.push(['all', String(allRules), '', '', String(allCovered), `${Math.floor((100 * allCovered) / allRules)}`]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

function ruleMessage(rule: CompiledCelRule): string {
  return rule.spec.message ?? rule.spec.messageExpression ?? `failed rule: ${rule.spec.rule}`;
}

main(process.argv.slice(2));
