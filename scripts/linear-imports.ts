/**
 * Rewrites one expression in the L1 files `cdk8s import` generates (imports/*.ts). Each generated
 * `toJson_*` drops undefined fields with `reduce((r, i) => ... ({ ...r, [i[0]]: i[1] }), {})`,
 * which copies the object once per field: quadratic, and at fleet size a sixth of synth. The
 * replacement, `definedFields(x)` (appended to each file), keeps the same fields in the same order
 * in one loop, without the entry arrays of `Object.entries`. Run by `npm run import`, after
 * `cdk8s import` and before the compile.
 */
import * as fs from 'fs';
import * as path from 'path';

const IMPORTS = path.resolve(__dirname, '..', '..', 'imports');
const QUADRATIC = /Object\.entries\(([^()]*(?:\([^()]*\))?[^()]*)\)\.reduce\(\(r, i\) => \(i\[1\] === undefined\) \? r : \(\{ \.\.\.r, \[i\[0\]\]: i\[1\] \}\), \{\}\)/g;

const DEFINED_FIELDS = `
/** The fields of \`obj\` that are not undefined, in order (added by scripts/linear-imports.ts). */
function definedFields(obj: Record<string, any>): Record<string, any> {
  const result: Record<string, any> = {};
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined) continue;
    // An own field named __proto__, as the object literal it replaces makes, not a prototype.
    if (key === '__proto__') Object.defineProperty(result, key, { value, enumerable: true, writable: true, configurable: true });
    else result[key] = value;
  }
  return result;
}
`;

for (const name of fs.readdirSync(IMPORTS).filter((n) => n.endsWith('.ts')).sort()) {
  const file = path.join(IMPORTS, name);
  const text = fs.readFileSync(file, 'utf8');
  let count = 0;
  const linear = text.replace(QUADRATIC, (_, subject: string) => {
    count++;
    return `definedFields(${subject})`;
  });
  if (linear.includes('.reduce((r, i) =>')) throw new Error(`${name}: a generated filter has a shape this script does not know; update QUADRATIC`);
  fs.writeFileSync(file, count > 0 ? `${linear}${DEFINED_FIELDS}` : linear);
  console.log(`imports/${name}: ${count} filters made linear`);
}
