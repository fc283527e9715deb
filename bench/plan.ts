// npm run bench (plan part): `hcp-cdk plan` over a 1,000-cluster fleet in which one cluster
// changed (its pool scaled), beside the in-memory synth of the same fleet. Plan reads both outputs
// from disk, as the command does, and parses only the files whose bytes differ. Target: plan
// within 2x the synth. Reports, never asserts.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Fleet, HcpApp, OutputSnapshot, planChanges } from '../lib';
import { ObjectValidator } from '../lib/validation/object-validator';
import { fleetInventory } from './fleet-inventory';

const SIZE = Number(process.env.PLAN_FLEET_SIZE ?? '1000');
const RUNS = Number(process.env.PLAN_RUNS ?? '3');

function time<T>(work: () => T): { millis: number; result: T } {
  const started = process.hrtime.bigint();
  const result = work();
  return { millis: Number(process.hrtime.bigint() - started) / 1e6, result };
}

/** Synthesizes the fleet (with cluster c00001's pools at `replicas`) into `outdir`; returns the in-memory synth time. */
function synthFleet(outdir: string, replicas?: number): number {
  const inventory = fleetInventory(SIZE);
  if (replicas !== undefined) {
    // c00001, a KubeVirt cluster (an Agent cluster could not grow past its hosts).
    const first = inventory.managementClusters[1].clusters[0] as any;
    first.nodePools = first.nodePools.map((pool: any) => ({ ...pool, replicas }));
  }
  const app = new HcpApp({ outdir, compareWithPreviousOutput: false, keepLastGoodCopy: false });
  Fleet.fromInventory(app, inventory);
  const { millis, result: files } = time(() => app.synthesize());
  app.writeFiles(files);
  return millis;
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-bench-'));
const validator = new ObjectValidator();
const rows: { synth: number; plan: number; changed: number }[] = [];
for (let run = 0; run < RUNS; run++) {
  const synth = synthFleet(path.join(dir, 'before'));
  synthFleet(path.join(dir, 'after'), 3);
  const plan = time(() => planChanges(OutputSnapshot.fromDirectory(path.join(dir, 'before')), OutputSnapshot.fromDirectory(path.join(dir, 'after')), { validator }));
  rows.push({ synth, plan: plan.millis, changed: plan.result.objects.length });
}
fs.rmSync(dir, { recursive: true, force: true });
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const synth = median(rows.map((r) => r.synth));
const plan = median(rows.map((r) => r.plan));
console.log(`\nplan over a ${SIZE.toLocaleString('en-US')}-cluster fleet, one cluster changed (${rows[0].changed} objects), median of ${RUNS}`);
console.log(`  synth in memory       ${synth.toFixed(0).padStart(6)} ms`);
console.log(`  plan (read both, diff) ${plan.toFixed(0).padStart(5)} ms   ${(median(rows.map((r) => r.plan / r.synth))).toFixed(2)}x synth (target <= 2x)`);
