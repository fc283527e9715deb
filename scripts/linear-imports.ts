/**
 * Rewrites one expression in the L1 files `cdk8s import` generates (imports/*.ts). Each generated
 * `toJson_*` drops undefined fields with `reduce((r, i) => ... ({ ...r, [i[0]]: i[1] }), {})`,
 * which copies the object once per field: quadratic, and at fleet size a sixth of synth. The
 * replacement, `definedFields(x)` from lib/core/defined-fields.ts, keeps the same fields in the
 * same order in one loop. Maps of quantities (`[i[0]]: i[1]?.value`, in AddOnDeploymentConfig's
 * resource requirements) become `definedFields(x, (v) => v?.value)`. Run by `npm run import`, after
 * `cdk8s import` and before the compile.
 */
import * as fs from 'fs';
import * as path from 'path';

const IMPORTS = path.resolve(__dirname, '..', '..', 'imports');
const QUADRATIC = /Object\.entries\(([^()]*(?:\([^()]*\))?[^()]*)\)\.reduce\(\(r, i\) => \(i\[1\] === undefined\) \? r : \(\{ \.\.\.r, \[i\[0\]\]: i\[1\](\?\.value)? \}\), \{\}\)/g;

// The helper lives in lib/, imported after the generated file's last import line.
const LAST_GENERATED_IMPORT = "import { Construct } from 'constructs';\n";
const HELPER_IMPORT = "import { definedFields } from '../lib/core/defined-fields';\n";

for (const name of fs
  .readdirSync(IMPORTS)
  .filter((n) => n.endsWith('.ts'))
  .sort()) {
  const file = path.join(IMPORTS, name);
  const text = fs.readFileSync(file, 'utf8');
  let count = 0;
  const linear = text.replace(QUADRATIC, (_, subject: string, quantity: string | undefined) => {
    count++;
    return quantity ? `definedFields(${subject}, (v) => v?.value)` : `definedFields(${subject})`;
  });
  if (linear.includes('.reduce((r, i) =>')) throw new Error(`${name}: a generated filter has a shape this script does not know; update QUADRATIC`);
  if (count > 0 && !linear.includes(LAST_GENERATED_IMPORT))
    throw new Error(`${name}: no line ${JSON.stringify(LAST_GENERATED_IMPORT.trim())} to put the definedFields import after; update LAST_GENERATED_IMPORT`);
  fs.writeFileSync(file, count > 0 ? linear.replace(LAST_GENERATED_IMPORT, `${LAST_GENERATED_IMPORT}${HELPER_IMPORT}`) : linear);
  console.log(`imports/${name}: ${count} filters made linear`);
}
