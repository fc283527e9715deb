// npm run bench: how long `hcp-cdk validate` takes on a directory of 1,000 objects, next to the
// synth that produced them (with and without its own object check). Whole processes, wall time,
// median of RUNS runs; nothing here asserts, it reports.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const RUNS = Number(process.env.RUNS ?? '5');
const CLUSTERS = 333; // 3 objects each, plus the shared Namespace: 1,000 objects.

function timeProcess(args: string[], env: Record<string, string> = {}): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { encoding: 'utf8', env: { ...process.env, ...env } });
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed:\n${result.stderr}`);
  return millis;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function countObjects(dir: string): number {
  let count = 0;
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(at, entry.name));
      else if (entry.name !== 'kustomization.yaml') count += fs.readFileSync(path.join(at, entry.name), 'utf8').split(/^---$/m).length;
    }
  };
  walk(dir);
  return count;
}

const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-bench-'));
const app = path.join(__dirname, 'apps', 'many-clusters.js');
const cli = path.join(__dirname, '..', 'bin', 'hcp-cdk.js');
const env = { CLUSTERS: String(CLUSTERS), OUTDIR: outdir };

const synthChecked: number[] = [];
const synthUnchecked: number[] = [];
const validate: number[] = [];
for (let i = 0; i < RUNS; i++) {
  synthUnchecked.push(timeProcess([app], { ...env, HCP_VALIDATE: 'false' }));
  synthChecked.push(timeProcess([app], env));
  validate.push(timeProcess([cli, 'validate', outdir]));
}
const objects = countObjects(outdir);
fs.rmSync(outdir, { recursive: true, force: true });

const rows: [string, number][] = [
  ['synth, object check off (node process)', median(synthUnchecked)],
  ['synth, object check on (node process)', median(synthChecked)],
  ['hcp-cdk validate <dir> (node process)', median(validate)],
];
console.log(`validate bench: ${objects} objects (${CLUSTERS} agent clusters), median of ${RUNS} runs, ${os.cpus().length} cores, node ${process.version}`);
for (const [label, millis] of rows) console.log(`  ${label.padEnd(42)} ${millis.toFixed(0).padStart(6)} ms`);
console.log(`  validate / synth without check: ${(median(validate) / median(synthUnchecked)).toFixed(2)}`);
