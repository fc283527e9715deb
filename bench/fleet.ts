// npm run bench (fleet part): fleets of 10, 100, 1,000 and 5,000 hosted clusters (a mix of Agent
// with hosts and MetalLB, KubeVirt and AWS; see fleet-inventory.ts), each measured in its own
// process: hcp-cdk (build, check every object against its CRD, write the folders), the floor (the
// same objects as plain data written to one file by js-yaml) and stock cdk8s (one Chart of
// ApiObjects per hosted cluster, app.synth()). Wall time of the work and peak RSS of the process.
// Reports, never asserts.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const SIZES = (process.env.FLEET_SIZES ?? '10,100,1000,5000').split(',').map(Number);
// Stock cdk8s is quadratic in the number of charts: past this size it would run for minutes.
const STOCK_CDK8S_MAX = Number(process.env.STOCK_CDK8S_MAX ?? '1000');

interface Run { millis: number; writeMillis?: number; objects: number; peakMiB: number }

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
  const { millis, writeMillis, objects } = JSON.parse(result.stdout.trim().split('\n').pop()!);
  const peakKiB = Number(result.stderr.trim().split('\n').pop());
  return { millis, writeMillis, objects, peakMiB: peakKiB / 1024 };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-fleet-'));
const rows: { size: number; hcp: Run; floor: Run; stock?: Run; hcpPerFloor: number; stockPerHcp?: number }[] = [];
console.log(`fleet bench: ${os.cpus().length} cores, node ${process.version}, medians of ${RUNS} interleaved rounds up to 1,000 clusters`);
console.log('hcp-cdk ms: build, check every object, serialize, in memory; + write: one file per object and a kustomization per folder.');
console.log('floor ms: serialize the same objects with js-yaml; + write: one file. stock cdk8s ms: one Chart of ApiObjects per hosted cluster, app.synth(), writing included.');
console.log('clusters  objects   hcp-cdk ms  + write  MiB   floor ms  + write  MiB   stock cdk8s ms  MiB   hcp/floor  stock/hcp');
for (const size of SIZES) {
  const measured = rounds(size, dir);
  const hcp = medianRun(measured.map((r) => r.hcp));
  const floor = medianRun(measured.map((r) => r.floor));
  const stocks = measured.flatMap((r) => (r.stock ? [r.stock] : []));
  const stock = stocks.length > 0 ? medianRun(stocks) : undefined;
  const hcpPerFloor = median(measured.map((r) => r.hcp.millis / r.floor.millis));
  const stockPerHcp = stock ? median(measured.map((r) => r.stock!.millis / r.hcp.millis)) : undefined;
  rows.push({ size, hcp, floor, stock, hcpPerFloor, stockPerHcp });
  const f = (n: number, w: number) => n.toFixed(0).padStart(w);
  console.log(`${f(size, 8)}  ${f(hcp.objects, 7)}  ${f(hcp.millis, 11)}  ${f(hcp.writeMillis ?? 0, 7)} ${f(hcp.peakMiB, 4)}  ${f(floor.millis, 9)}  ${f(floor.writeMillis ?? 0, 7)} ${f(floor.peakMiB, 4)}  ${stock ? f(stock.millis, 15) : '        skipped'} ${stock ? f(stock.peakMiB, 4) : '    '}  ${hcpPerFloor.toFixed(1).padStart(9)}  ${stockPerHcp !== undefined ? stockPerHcp.toFixed(1).padStart(9) : '         '}`);
  fs.rmSync(path.join(dir, `hcp-${size}`), { recursive: true, force: true });
  fs.rmSync(path.join(dir, `cdk8s-${size}`), { recursive: true, force: true });
}
const at = (size: number) => rows.find((r) => r.size === size);
const thousand = at(1000);
const fiveThousand = at(5000);
if (thousand) {
  console.log(`targets at 1,000: hcp/floor ${thousand.hcpPerFloor.toFixed(1)} (<= 3), `
    + `stock/hcp ${thousand.stockPerHcp !== undefined ? thousand.stockPerHcp.toFixed(1) : 'n/a'} (>= 10), peak ${thousand.hcp.peakMiB.toFixed(0)} MiB (<= 250)`);
}
if (thousand && fiveThousand) console.log(`growth: time(5,000) / time(1,000) = ${(fiveThousand.hcp.millis / thousand.hcp.millis).toFixed(1)} (<= 6)`);
fs.rmSync(dir, { recursive: true, force: true });
