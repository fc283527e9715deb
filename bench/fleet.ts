// npm run bench (fleet part): fleets of 10, 100, 1,000 and 5,000 hosted clusters (a mix of Agent
// with hosts and MetalLB, KubeVirt and AWS; see fleet-inventory.ts), each measured in its own
// process: hcp-cdk (build, check every object against its CRD, write the folders), the floor (the
// same objects as plain data written to one file by js-yaml) and stock cdk8s (one Chart of
// ApiObjects per hosted cluster, app.synth()). Wall time of the work and peak RSS of the process;
// for hcp-cdk and stock cdk8s also the synth alone, without making the constructs.
// Reports, never asserts.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SIZES = (process.env.FLEET_SIZES ?? '10,100,1000,5000').split(',').map(Number);
// Stock cdk8s is quadratic in the number of charts: past this size it would run for minutes.
const STOCK_CDK8S_MAX = Number(process.env.STOCK_CDK8S_MAX ?? '1000');

interface Run { millis: number; synthMillis?: number; writeMillis?: number; objects: number; peakMiB: number }

// This machine's timings drift by a third and more between moments. Up to 1,000 clusters each size
// runs RUNS rounds of hcp-cdk, floor and stock cdk8s back to back; a figure is the median over the
// rounds, and a ratio the median of the rounds' own ratios, so that a slow moment counts against
// both sides of it. 5,000 runs one round (its stock cdk8s is skipped anyway).
const RUNS = Number(process.env.FLEET_RUNS ?? '5');

interface Round { hcp: Run; floor: Run; stock?: Run }

function rounds(size: number, dir: string): Round[] {
  return Array.from({ length: size > 1000 ? 1 : RUNS }, () => ({
    hcp: run('hcp', size, dir),
    floor: run('floor', size, dir),
    stock: size <= STOCK_CDK8S_MAX ? run('cdk8s', size, dir) : undefined,
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

function run(mode: string, size: number, dir: string): Run {
  // Flush what earlier runs wrote first: the kernel writing back ten thousand files takes CPU
  // from whatever runs meanwhile.
  spawnSync('sync');
  const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, path.join(__dirname, 'fleet-run.js'), mode, String(size), dir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${mode} ${size} failed:\n${result.stderr}`);
  const { millis, synthMillis, writeMillis, objects } = JSON.parse(result.stdout.trim().split('\n').pop()!);
  const peakKiB = Number(result.stderr.trim().split('\n').pop());
  return { millis, synthMillis, writeMillis, objects, peakMiB: peakKiB / 1024 };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-fleet-'));
interface Row {
  size: number;
  hcp: Run;
  floor: Run;
  stock?: Run;
  hcpPerFloor: number;
  /** hcp-cdk's synth alone (validation included), without making the constructs, per floor. */
  hcpSynthPerFloor: number;
  stockPerHcp?: number;
  stockSynthPerHcpSynth?: number;
}
const rows: Row[] = [];
console.log(`fleet bench: ${os.cpus().length} cores, node ${process.version}, medians of ${RUNS} interleaved rounds up to 1,000 clusters`);
console.log('hcp-cdk ms: make the constructs, then synth (check every object, serialize) in memory; synth: that part alone; + write: one file per object and a kustomization per folder.');
console.log('floor ms: serialize the same objects with js-yaml; + write: one file. stock cdk8s ms: one Chart of ApiObjects per hosted cluster, then app.synth() (writing included); synth: app.synth() alone.');
console.log('clusters  objects   hcp-cdk ms   synth  + write  MiB   floor ms  + write  MiB   stock cdk8s ms   synth  MiB   hcp/floor  synth/floor  stock/hcp  synth/synth');
for (const size of SIZES) {
  const measured = rounds(size, dir);
  const hcp = medianRun(measured.map((r) => r.hcp));
  const floor = medianRun(measured.map((r) => r.floor));
  const stocks = measured.flatMap((r) => (r.stock ? [r.stock] : []));
  const stock = stocks.length > 0 ? medianRun(stocks) : undefined;
  const ratio = (of: (r: Round) => number | undefined) => {
    const ratios = measured.map(of).filter((r): r is number => r !== undefined);
    return ratios.length > 0 ? median(ratios) : undefined;
  };
  const row: Row = {
    size, hcp, floor, stock,
    hcpPerFloor: ratio((r) => r.hcp.millis / r.floor.millis)!,
    hcpSynthPerFloor: ratio((r) => r.hcp.synthMillis! / r.floor.millis)!,
    stockPerHcp: ratio((r) => (r.stock ? r.stock.millis / r.hcp.millis : undefined)),
    stockSynthPerHcpSynth: ratio((r) => (r.stock ? r.stock.synthMillis! / r.hcp.synthMillis! : undefined)),
  };
  rows.push(row);
  const f = (n: number, w: number) => n.toFixed(0).padStart(w);
  const x = (n: number | undefined, w: number) => (n === undefined ? ''.padStart(w) : n.toFixed(1).padStart(w));
  console.log(`${f(size, 8)}  ${f(hcp.objects, 7)}  ${f(hcp.millis, 11)}  ${f(hcp.synthMillis!, 6)}  ${f(hcp.writeMillis ?? 0, 7)} ${f(hcp.peakMiB, 4)}  ${f(floor.millis, 9)}  ${f(floor.writeMillis ?? 0, 7)} ${f(floor.peakMiB, 4)}  ${stock ? f(stock.millis, 15) : '        skipped'}  ${stock ? f(stock.synthMillis!, 6) : '      '} ${stock ? f(stock.peakMiB, 4) : '    '}  ${x(row.hcpPerFloor, 9)}  ${x(row.hcpSynthPerFloor, 11)}  ${x(row.stockPerHcp, 9)}  ${x(row.stockSynthPerHcpSynth, 11)}`);
  fs.rmSync(path.join(dir, `hcp-${size}`), { recursive: true, force: true });
  fs.rmSync(path.join(dir, `cdk8s-${size}`), { recursive: true, force: true });
}
const at = (size: number) => rows.find((r) => r.size === size);
const thousand = at(1000);
const fiveThousand = at(5000);
if (thousand) {
  const n = (v: number | undefined) => (v === undefined ? 'n/a' : v.toFixed(1));
  console.log(`targets at 1,000: hcp/floor ${n(thousand.hcpPerFloor)} (synth alone ${n(thousand.hcpSynthPerFloor)}) (<= 3), `
    + `stock/hcp ${n(thousand.stockPerHcp)} (synth alone ${n(thousand.stockSynthPerHcpSynth)}) (>= 10), peak ${thousand.hcp.peakMiB.toFixed(0)} MiB (<= 250)`);
}
if (thousand && fiveThousand) console.log(`growth: time(5,000) / time(1,000) = ${(fiveThousand.hcp.millis / thousand.hcp.millis).toFixed(1)} (<= 6)`);
fs.rmSync(dir, { recursive: true, force: true });
