// node build/bench/hot-calls.js: the cost of the calls that lean on a library or on hand-written
// parsing (RE2 patterns, CIDR blocks and IP addresses, release versions, YAML text), each with the
// inputs a fleet-inventory synth gives it, and what they add up to for a 1,000-cluster fleet.
// Cheaper than the fleet bench, for comparing one implementation of these calls with another;
// reports only.
import * as os from 'os';
import { dump, loadAll } from 'js-yaml';
import { cidrsOverlap, Fleet, HcpApp, parseCidr, parseIPv4, Release } from '../lib';
import { YAML_DUMP_OPTIONS, yamlText } from '../lib/core/yaml-text';
import { re2 } from '../lib/validation/re2';
import { fleetInventory } from './fleet-inventory';

// How often a 1,000-cluster fleet-inventory synth makes each call (counted once by wrapping the
// functions; most go through caches and so stay below one per object).
const PER_FLEET = { pattern: 7_688, parseCidr: 3_669, distinctCidrs: 337, parseIPv4: 2_338, overlap: 2_334, release: 1_000, compare: 2_333 };

const mac = (n: number) => ['02', '00', ...[24, 16, 8, 0].map((s) => ((n >> s) & 255).toString(16).padStart(2, '0'))].join(':');
const name = (i: number) => `c${String(i).padStart(5, '0')}`;
const net = (i: number) => `100.${64 + (i >> 8)}.${i & 255}`;

// The patterns a fleet synth checks (from the HostedCluster, NodePool, BareMetalHost and
// Kubernetes schemas), each with its share of the calls and the values the fleet gives it.
const PATTERNS: { pattern: string; share: number; input: (i: number) => string }[] = [
  { pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', share: 1333, input: (i) => (i % 2 ? name(i) : `${name(i)}-${name(i).slice(1)}`) },
  { pattern: '[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}', share: 1336, input: mac },
  { pattern: '^((\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2})$', share: 337, input: (i) => `${net(i)}.0/24` },
  { pattern: '^(([a-zA-Z0-9][-a-zA-Z0-9]*\\.)+[a-zA-Z]{2,}|localhost)$', share: 334, input: (i) => `api.${name(i)}.fleet.example.com` },
  { pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$', share: 3, input: (i) => `${[8, 4, 32][i % 3]}Gi` },
  { pattern: '^(?:(?:[a-zA-Z0-9-]+\\.)+[a-zA-Z]{2,}|[a-zA-Z0-9-]+)$', share: 1, input: () => 'fleet.example.com' },
  { pattern: '^(\\w+\\S+)$', share: 1, input: () => 'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa' },
];

const DIGEST = 'sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa';
const RELEASES = [
  () => Release.fromImage(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`, { version: '4.17.0' }),
  () => Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi'),
  () => Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64'),
  () => Release.fromVersion('4.16.12'),
];

let sink = 0;

/** Median nanoseconds per call over 7 rounds of `calls` calls, after a warm-up round. */
function nsPerCall(calls: number, work: (i: number) => unknown): number {
  for (let i = 0; i < calls; i++) sink += work(i) ? 1 : 0;
  const rounds: number[] = [];
  for (let r = 0; r < 7; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += work(i) ? 1 : 0;
    rounds.push(Number(process.hrtime.bigint() - started) / calls);
  }
  return rounds.sort((a, b) => a - b)[3];
}

const rows: { label: string; ns: number; perFleet: number }[] = [];
function measure(label: string, perFleet: number, calls: number, work: (i: number) => unknown): void {
  rows.push({ label, ns: nsPerCall(calls, work), perFleet });
}

// First use of each pattern: compiling it (later uses hit re2's cache).
const compileStarted = process.hrtime.bigint();
for (const { pattern } of PATTERNS) re2(pattern);
const compileMillis = Number(process.hrtime.bigint() - compileStarted) / 1e6;

// Inputs made beforehand, so that only the calls are timed.
const weighted = PATTERNS.flatMap((p) => Array.from({ length: p.share }, (_, k) => ({ pattern: p.pattern, value: p.input(k) })));
measure('re2(pattern).test(value), fleet mix', PER_FLEET.pattern, 200_000, (i) => {
  const { pattern, value } = weighted[i % weighted.length];
  return re2(pattern).test(value);
});
for (const p of PATTERNS.filter((q) => q.share > 100)) {
  const values = Array.from({ length: 1000 }, (_, i) => p.input(i));
  measure(`  ${p.pattern.slice(0, 44)}`, Math.round((PER_FLEET.pattern * p.share) / weighted.length), 100_000, (i) => re2(p.pattern).test(values[i % values.length]));
}
const fleetCidrs = ['10.132.0.0/14', '172.31.0.0/16', '10.0.0.0/16', ...Array.from({ length: 334 }, (_, i) => `${net(i * 3)}.0/24`)];
measure("parseCidr, the fleet's blocks (cached)", PER_FLEET.parseCidr - PER_FLEET.distinctCidrs, 200_000, (i) => parseCidr(fleetCidrs[i % fleetCidrs.length]));
// Fresh texts, 8 rounds' worth: the cache holds 10,000, so each call parses.
const freshV4 = Array.from({ length: 8 * 50_000 }, (_, i) => `${10 + (i >> 16)}.${(i >> 8) & 255}.${i & 255}.0/24`);
const freshV6 = Array.from({ length: 8 * 20_000 }, (_, i) => `fd${(i & 255).toString(16)}:${(i >> 8).toString(16)}::/48`);
let fresh = 0;
measure('parseCidr, IPv4 text seen for the first time', PER_FLEET.distinctCidrs, 50_000, () => parseCidr(freshV4[fresh++ % freshV4.length]));
fresh = 0;
measure('parseCidr, IPv6 text seen for the first time', 0, 20_000, () => parseCidr(freshV6[fresh++ % freshV6.length]));
const addresses = Array.from({ length: 1000 }, (_, i) => (i % 2 ? '192.0.2.1' : `${net(i)}.200`));
measure("parseIPv4, the fleet's addresses", PER_FLEET.parseIPv4, 200_000, (i) => parseIPv4(addresses[i % addresses.length]));
const blocks = fleetCidrs.map((text) => parseCidr(text)!);
measure('cidrsOverlap', PER_FLEET.overlap, 1_000_000, (i) => cidrsOverlap(blocks[i % blocks.length], blocks[(i * 7) % blocks.length]));
measure('Release.fromImage / fromVersion', PER_FLEET.release, 200_000, (i) => RELEASES[i % RELEASES.length]().version);
const versions = RELEASES.map((make) => make().version!);
measure('Release.compareVersions', PER_FLEET.compare, 1_000_000, (i) => Release.compareVersions(versions[i % versions.length], versions[(i * 3) % versions.length]));

// Every object of a 1,000-cluster fleet, read back from the text synth wrote, as js-yaml's dump
// and yamlText (what synth writes with) write it. A YAML row's ns/call is per object and includes
// flattening the text into one string, as writing the file does.
const fleetApp = new HcpApp({ outdir: 'unused' });
Fleet.fromInventory(fleetApp, fleetInventory(1000));
const fleetObjects = fleetApp
  .synthesize()
  .filter((file) => /\.ya?ml$/.test(file.path))
  .flatMap((file) => loadAll(file.text));
const flat = (text: string) => text.charCodeAt(text.length >> 1);
// yamlText's first pass over the fleet: every string's style worked out once, and no JIT warm-up.
const firstPassStarted = process.hrtime.bigint();
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- written, never read: the measured calls' results go somewhere
for (const object of fleetObjects) sink += flat(yamlText(object));
const yamlFirstPassMillis = Number(process.hrtime.bigint() - firstPassStarted) / 1e6;
const differing = fleetObjects.filter((object) => yamlText(object) !== dump(object, YAML_DUMP_OPTIONS)).length;
measure('js-yaml dump, every fleet object', fleetObjects.length, fleetObjects.length, (i) => flat(dump(fleetObjects[i], YAML_DUMP_OPTIONS)));
measure('  yamlText, the same objects', fleetObjects.length, fleetObjects.length, (i) => flat(yamlText(fleetObjects[i])));

console.log(`hot-calls bench: ${os.cpus().length} cores (${os.cpus()[0].model.trim()}), node ${process.version}; median of 7 rounds`);
console.log(`first use of the fleet's ${PATTERNS.length} patterns (compiling them): ${compileMillis.toFixed(1)} ms`);
console.log(`yamlText: first pass over the fleet's ${fleetObjects.length} objects ${yamlFirstPassMillis.toFixed(1)} ms; objects whose text differs from js-yaml's: ${differing}`);
console.log(`${'call'.padEnd(50)} ${'ns/call'.padStart(8)} ${'calls/fleet'.padStart(12)} ${'ms/fleet'.padStart(9)}`);
let total = 0;
for (const { label, ns, perFleet } of rows) {
  const millis = (ns * perFleet) / 1e6;
  if (!label.startsWith('  ')) total += millis;
  console.log(`${label.padEnd(50)} ${ns.toFixed(0).padStart(8)} ${String(perFleet).padStart(12)} ${millis.toFixed(2).padStart(9)}`);
}
console.log(`total for a 1,000-cluster fleet: ${(total + compileMillis).toFixed(1)} ms (compiling included)`);
