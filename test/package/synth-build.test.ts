// `npm run synth` compiles before cdk8s runs the app: tsconfig.synth.json with `tsc -b`, which decides whether to
// compile by comparing the modification times of the project's own files only. Those must cover every source file
// the program compiles, or an edit to one left out would run stale JavaScript.
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';
import { ROOT } from '../util';

const CONFIG = path.join(ROOT, 'tsconfig.synth.json');
const config = ts.getParsedCommandLineOfConfigFile(
  CONFIG,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
)!;

test("the synth program's own files cover every source file it compiles, and leave out aws-cdk-lib", () => {
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const sources = program
    .getSourceFiles()
    .map((f) => f.fileName)
    .filter((f) => !f.includes('/node_modules/'));
  const roots = new Set(config.fileNames);
  expect(sources.length).toBeGreaterThan(50);
  expect(sources).toContain(path.join(ROOT, 'examples', 'agent-lab', 'main.ts').split(path.sep).join('/'));
  expect(sources.filter((f) => !roots.has(f))).toEqual([]);
  expect(
    program
      .getSourceFiles()
      .filter((f) => f.fileName.includes('/node_modules/aws-cdk-lib/'))
      .map((f) => f.fileName),
  ).toEqual([]);
});

test('npm run synth builds the synth program, and cdk8s.yaml runs the example it built', () => {
  const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts;
  expect(scripts.synth).toBe('tsc -b tsconfig.synth.json && cdk8s synth --no-check-upgrade');
  const app = YAML.parse(fs.readFileSync(path.join(ROOT, 'cdk8s.yaml'), 'utf8')).app;
  const outDir = path.relative(ROOT, config.options.outDir!);
  expect(app).toBe(`node ${outDir}/examples/agent-lab/main.js`);
});
