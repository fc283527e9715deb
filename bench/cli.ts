// npm run bench (CLI part): the default example through the real cdk8s CLI, as `npm run synth` runs
// it, whole process, median of RUNS runs; and the CLI's own cost with an app that does nothing.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const RUNS = Number(process.env.RUNS ?? '5');
const ROOT = path.join(__dirname, '..', '..');
const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

function median(app: string | undefined): number {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-cli-'));
    const started = process.hrtime.bigint();
    const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--output', outdir, ...(app ? ['--app', app] : [])], { cwd: ROOT, encoding: 'utf8' });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (result.status !== 0) throw new Error(result.stderr);
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

console.log(`cli bench: median of ${RUNS} runs of node_modules/.bin/cdk8s synth`);
const example = median(undefined);
console.log(`  default example (examples/agent-lab)   ${example.toFixed(0).padStart(6)} ms`);
console.log(`  an app that does nothing (CLI alone)   ${median(`node -e "require('fs').mkdirSync(process.env.CDK8S_OUTDIR, { recursive: true })"`).toFixed(0).padStart(6)} ms`);
console.log(`target: the default example's cdk8s synth through the CLI <= 1.5 s: ${(example / 1000).toFixed(2)} s (${example <= 1500 ? 'met' : 'NOT MET'})`);
