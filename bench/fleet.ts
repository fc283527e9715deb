// npm run bench (fleet part): fleets of 10, 100, 1,000, 2,000 and 5,000 hosted clusters (a mix of
// Agent with hosts and MetalLB, KubeVirt and AWS; see fleet-inventory.ts), each measured in its own
// process: hcp-cdk in memory (build, check every object against its CRD, serialize), hcp-cdk's cold
// synth as a user runs it (the same, written into a new output directory), a re-synth of that
// output after one cluster changed (the whole process), the write floor (a plain loop writing the
// same files), the floor (the same objects as plain data written to one file by js-yaml) and stock
// cdk8s (one Chart of ApiObjects per hosted cluster, app.synth()). Wall time of the work and peak
// RSS of the process; for hcp-cdk and stock cdk8s also the synth alone, without making the
// constructs. Reports, never asserts.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SIZES = (process.env.FLEET_SIZES ?? '10,100,1000,2000,5000').split(',').map(Number);
// Stock cdk8s is quadratic in the number of charts: past this size it would run for minutes.
const STOCK_CDK8S_MAX = Number(process.env.STOCK_CDK8S_MAX ?? '2000');

interface Run {
  millis: number;
  synthMillis?: number;
  writeMillis?: number;
  objects: number;
  peakMiB: number;
  /** The whole process, start to exit, as the caller saw it. */
  wallMillis: number;
  /** For a re-synth: files written, removed and left alone. */
  written?: number;
  removed?: number;
  unchanged?: number;
}

// This machine's timings drift by a third and more between moments. Up to 1,000 clusters each size
// runs RUNS rounds of hcp-cdk, floor and stock cdk8s back to back; a figure is the median over the
// rounds, and a ratio the median of the rounds' own ratios, so that a slow moment counts against
// both sides of it. 2,000 runs three rounds (a round's stock cdk8s takes a minute; the target at
// 2,000 is a ratio that one slow write would halve), 5,000 one (its stock cdk8s is skipped anyway).
const RUNS = Number(process.env.FLEET_RUNS ?? '5');
const RUNS_AT_2000 = Math.min(RUNS, 3);

interface Round {
  hcp: Run;
  cold: Run;
  resynth: Run;
  writes: Run;
  floor: Run;
  stock?: Run;
}

function rounds(size: number, dir: string): Round[] {
  // In this order: the write floor, the floor and stock cdk8s use what the in-memory run made, the
  // re-synth what the cold synth wrote.
  return Array.from({ length: size > 2000 ? 1 : size > 1000 ? RUNS_AT_2000 : RUNS }, (_, round) => ({
    hcp: run('hcp', size, dir, round),
    cold: run('cold', size, dir, round),
    resynth: run('resynth', size, dir, round),
    writes: run('writes', size, dir, round),
    floor: run('floor', size, dir, round),
    stock: size <= STOCK_CDK8S_MAX ? run('cdk8s', size, dir, round) : undefined,
  }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The run of median time among the rounds' runs of one mode. */
function medianRun(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.millis - b.millis)[Math.floor(runs.length / 2)];
}

function run(mode: string, size: number, dir: string, round: number): Run {
  // Flush what earlier runs wrote first: the kernel writing back ten thousand files takes CPU
  // from whatever runs meanwhile.
  spawnSync('sync');
  const started = process.hrtime.bigint();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, path.join(__dirname, 'fleet-run.js'), mode, String(size), dir, String(round)], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallMillis = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${mode} ${size} failed:\n${result.stderr}`);
  const { millis, synthMillis, writeMillis, objects, written, removed, unchanged } = JSON.parse(result.stdout.trim().split('\n').pop()!);
  const peakKiB = Number(result.stderr.trim().split('\n').pop());
  return { millis, synthMillis, writeMillis, objects, peakMiB: peakKiB / 1024, wallMillis, written, removed, unchanged };
}

// Every run writes into folders of its own, and nothing is deleted before the bench ends. On ext4
// without a journal (as on these machines), the kernel skips inodes freed in the last minute
// (five, while their blocks are unwritten) when it allocates one, and checks them one by one: ten
// thousand files created after ten thousand were deleted took 5 to 8 s of kernel time instead of
// 0.25 s, so whichever run came after a deletion paid for it.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-fleet-'));
// Also when a run fails: the rounds' folders hold hundreds of thousands of files.
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
interface Row {
  size: number;
  hcp: Run;
  cold: Run;
  floor: Run;
  stock?: Run;
  hcpPerFloor: number;
  /** hcp-cdk's synth alone (validation included), without making the constructs, per floor. */
  hcpSynthPerFloor: number;
  stockPerHcp?: number;
  /** Stock cdk8s per hcp-cdk's cold synth: making the constructs, synth and writing the files. */
  stockPerHcpEndToEnd?: number;
  /** The re-synth after one changed cluster, whole process, per hcp-cdk's in-memory synth (constructs and synth). */
  resynthPerSynth: number;
  /** hcp-cdk's cold synth, per its in-memory synth and the write floor. */
  coldPerWriteFloor: number;
}
const rows: Row[] = [];
console.log(`fleet bench: ${os.cpus().length} cores, node ${process.version}, medians of ${RUNS} interleaved rounds up to 1,000 clusters, ${RUNS_AT_2000} at 2,000, one above`);
console.log(
  'hcp-cdk ms: make the constructs, then synth (check every object, serialize) in memory; synth: that part alone. cold synth ms: the same as a user runs it the first time, app.synth() writing a new output directory (and the last good copy); MiB: its peak.',
);
console.log(
  "write floor ms: a plain loop writing the same files. re-synth ms: `node` on the fleet with one node pool changed, over the cold synth's output, whole process. floor ms: js-yaml writing the same objects to one string.",
);
console.log('stock cdk8s ms: one Chart of ApiObjects per hosted cluster, then app.synth() (writing included); synth: app.synth() alone.');
console.log(
  'clusters  objects  hcp-cdk ms   synth  cold synth  write floor  re-synth (files)  MiB  floor ms  stock cdk8s ms   synth  MiB  synth/floor  re-synth/synth  cold/(synth+floor)  stock/hcp e2e  stock/hcp',
);
for (const size of SIZES) {
  const measured = rounds(size, dir);
  const hcp = medianRun(measured.map((r) => r.hcp));
  const cold = medianRun(measured.map((r) => r.cold));
  const resynth = [...measured.map((r) => r.resynth)].sort((a, b) => a.wallMillis - b.wallMillis)[Math.floor(measured.length / 2)];
  const writes = [...measured.map((r) => r.writes)].sort((a, b) => a.writeMillis! - b.writeMillis!)[Math.floor(measured.length / 2)];
  const floor = medianRun(measured.map((r) => r.floor));
  const stocks = measured.flatMap((r) => (r.stock ? [r.stock] : []));
  const stock = stocks.length > 0 ? medianRun(stocks) : undefined;
  const ratio = (of: (r: Round) => number | undefined) => {
    const ratios = measured.map(of).filter((r): r is number => r !== undefined);
    return ratios.length > 0 ? median(ratios) : undefined;
  };
  const row: Row = {
    size,
    hcp,
    cold,
    floor,
    stock,
    hcpPerFloor: ratio((r) => r.hcp.millis / r.floor.millis)!,
    hcpSynthPerFloor: ratio((r) => r.hcp.synthMillis! / r.floor.millis)!,
    stockPerHcp: ratio((r) => (r.stock ? r.stock.millis / r.hcp.millis : undefined)),
    stockPerHcpEndToEnd: ratio((r) => (r.stock ? r.stock.millis / r.cold.millis : undefined)),
    resynthPerSynth: ratio((r) => r.resynth.wallMillis / r.hcp.millis)!,
    coldPerWriteFloor: ratio((r) => r.cold.millis / (r.hcp.millis + r.writes.writeMillis!))!,
  };
  rows.push(row);
  const f = (n: number, w: number) => n.toFixed(0).padStart(w);
  const x = (n: number | undefined, w: number) => (n === undefined ? ''.padStart(w) : n.toFixed(2).padStart(w));
  const files = `(${resynth.written}+${resynth.removed}-)`;
  console.log(
    `${f(size, 8)}  ${f(hcp.objects, 7)}  ${f(hcp.millis, 10)}  ${f(hcp.synthMillis!, 6)}  ${f(cold.millis, 10)}  ${f(writes.writeMillis!, 11)}  ${f(resynth.wallMillis, 8)} ${files.padStart(8)}  ${f(cold.peakMiB, 3)}  ${f(floor.millis, 8)}  ${stock ? f(stock.millis, 14) : '       not run'}  ${stock ? f(stock.synthMillis!, 6) : '      '}  ${stock ? f(stock.peakMiB, 3) : '   '}  ${x(row.hcpSynthPerFloor, 11)}  ${x(row.resynthPerSynth, 14)}  ${x(row.coldPerWriteFloor, 18)}  ${x(row.stockPerHcpEndToEnd, 13)}  ${x(row.stockPerHcp, 9)}`,
  );
}
const at = (size: number) => rows.find((r) => r.size === size);
const thousand = at(1000);
const twoThousand = at(2000);
const fiveThousand = at(5000);
const n = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(2));
const mark = (ok: boolean) => (ok ? 'met' : 'NOT MET');
if (thousand) {
  console.log(
    `target: synth with validation of 1,000 clusters in memory <= 3x the floor: ${n(thousand.hcpSynthPerFloor)} (${mark(thousand.hcpSynthPerFloor <= 3)}); with making the constructs ${n(thousand.hcpPerFloor)}`,
  );
  console.log(`target: re-synth of 1,000 after one changed cluster, whole process, <= 1.5x the in-memory synth: ${n(thousand.resynthPerSynth)} (${mark(thousand.resynthPerSynth <= 1.5)})`);
  console.log(`target: cold synth of 1,000 into an empty directory <= 1.3x (in-memory synth + write floor): ${n(thousand.coldPerWriteFloor)} (${mark(thousand.coldPerWriteFloor <= 1.3)})`);
  console.log(`target: peak memory at 1,000 (the cold synth) <= 250 MiB: ${thousand.cold.peakMiB.toFixed(0)} MiB (${mark(thousand.cold.peakMiB <= 250)})`);
  console.log(`report: stock cdk8s / hcp-cdk's cold synth (end to end) at 1,000: ${n(thousand.stockPerHcpEndToEnd)}`);
}
if (twoThousand) console.log(`target: stock cdk8s / hcp-cdk's cold synth (end to end) at 2,000 >= 10: ${n(twoThousand.stockPerHcpEndToEnd)} (${mark((twoThousand.stockPerHcpEndToEnd ?? 0) >= 10)})`);
if (thousand && fiveThousand) {
  const growth = fiveThousand.hcp.millis / thousand.hcp.millis;
  console.log(`target: time(5,000) <= 6 x time(1,000): ${n(growth)} (${mark(growth <= 6)})`);
}
