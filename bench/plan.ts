// npm run bench (plan part): `hcp-cdk plan` over a 1,000-cluster fleet in which one cluster
// changed (its pool scaled), beside the in-memory synth of the same fleet. Plan reads both outputs
// from disk, as the command does, and parses only the files whose bytes differ. Target: plan
// within 2x the synth. Then a release rollout over a 5,000-cluster fleet (2 canaries, batches of
// 50, the rest): the commit that moves its second wave, 50 clusters, planned against the commit
// before it. Target: plan within 1x the in-memory synth of that fleet. Reports, never asserts.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Fleet, FleetInventory, HcpApp, OutputSnapshot, planChanges, planMarkdown } from '../lib';
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
console.log(`  plan (read both, diff) ${plan.toFixed(0).padStart(5)} ms   ${median(rows.map((r) => r.plan / r.synth)).toFixed(2)}x synth (target <= 2x)`);

const ROLLOUT_SIZE = Number(process.env.PLAN_ROLLOUT_SIZE ?? '5000');
const ROLLOUT_RUNS = Number(process.env.PLAN_ROLLOUT_RUNS ?? '1');
const TARGET = 'quay.io/openshift-release-dev/ocp-release@sha256:5b9c2ad3e8e4bd2cc0f25d6c1e9e0a4b7c8d9f0e1a2b3c4d5e6f708192a3b4c5';

/** The bench fleet of ROLLOUT_SIZE with a rollout to 4.17.3 (2 canaries, then batches of 50, then the rest), `releasedWaves` released. */
function rolloutInventory(releasedWaves: number): FleetInventory {
  return {
    ...fleetInventory(ROLLOUT_SIZE),
    rollouts: [{ name: 'r-4-17-3', releaseImage: TARGET, releaseVersion: '4.17.3', waves: [{ canaries: ['c00000', 'c00001'] }, { batch: 50 }, { batch: 50 }, { rest: true }], releasedWaves }],
  };
}

/**
 * Synthesizes the rollout fleet at `releasedWaves` into `outdir`; returns the in-memory times
 * (constructs, synth). With `previous`, the output there is the previous one: copied into `outdir`
 * first, so that the rollout reads its record there and its released waves are pinned, as in a
 * repository where each commit's synth finds the last.
 */
function synthRollout(outdir: string, releasedWaves: number, previous?: string): { build: number; synth: number } {
  if (previous) fs.cpSync(previous, outdir, { recursive: true });
  const app = new HcpApp({ outdir, compareWithPreviousOutput: previous !== undefined, keepLastGoodCopy: false });
  const inventory = rolloutInventory(releasedWaves);
  const built = time(() => Fleet.fromInventory(app, inventory));
  const { millis, result: files } = time(() => app.synthesize());
  app.writeFiles(files);
  return { build: built.millis, synth: millis };
}

const rolloutDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-plan-rollout-bench-'));
const rolloutRows: { build: number; synth: number; plan: number; markdown: number; markdownLength: number; moved: number; summary: string }[] = [];
for (let run = 0; run < ROLLOUT_RUNS; run++) {
  synthRollout(path.join(rolloutDir, `before-${run}`), 1);
  const after = synthRollout(path.join(rolloutDir, `after-${run}`), 2, path.join(rolloutDir, `before-${run}`));
  const plan = time(() => planChanges(OutputSnapshot.fromDirectory(path.join(rolloutDir, `before-${run}`)), OutputSnapshot.fromDirectory(path.join(rolloutDir, `after-${run}`)), { validator }));
  const rollout = plan.result.rollouts![0];
  const markdown = time(() => planMarkdown(plan.result));
  rolloutRows.push({
    ...after,
    plan: plan.millis,
    markdown: markdown.millis,
    markdownLength: markdown.result.length,
    moved: rollout.moves.flatMap((m) => m.clusters).length,
    summary: rollout.summary.replace(/: hub-.*;/, ': …;'),
  });
}
fs.rmSync(rolloutDir, { recursive: true, force: true });
const rolloutSynth = median(rolloutRows.map((r) => r.synth));
const rolloutBuild = median(rolloutRows.map((r) => r.build));
const rolloutPlan = median(rolloutRows.map((r) => r.plan));
const rolloutRatio = median(rolloutRows.map((r) => r.plan / r.synth));
console.log(`\nplan over a ${ROLLOUT_SIZE.toLocaleString('en-US')}-cluster fleet, a release rollout's wave of ${rolloutRows[0].moved} clusters moved, median of ${ROLLOUT_RUNS}`);
console.log(`  (${rolloutRows[0].summary})`);
console.log(`  constructs             ${rolloutBuild.toFixed(0).padStart(6)} ms`);
console.log(`  synth in memory        ${rolloutSynth.toFixed(0).padStart(6)} ms`);
console.log(
  `  plan (read both, diff) ${rolloutPlan.toFixed(0).padStart(6)} ms   ${rolloutRatio.toFixed(2)}x synth, ${median(rolloutRows.map((r) => r.plan / (r.build + r.synth))).toFixed(2)}x constructs + synth`,
);
console.log(
  `  markdown               ${median(rolloutRows.map((r) => r.markdown))
    .toFixed(0)
    .padStart(6)} ms   ${rolloutRows[0].markdownLength.toLocaleString('en-US')} characters (a pull-request comment holds 65,536)`,
);
console.log(
  `target: plan of a rollout wave of 50 over ${ROLLOUT_SIZE.toLocaleString('en-US')} clusters <= 1x the in-memory synth: ${rolloutRatio.toFixed(2)} (${rolloutRatio <= 1 ? 'met' : 'NOT MET'})`,
);
