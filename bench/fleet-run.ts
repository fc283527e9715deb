// One measurement, in its own process so that its time and peak memory are its own:
//   node fleet-run.js hcp   <size> <dir> <round>   hcp-cdk in memory: build the fleet, check every object, serialize
//   node fleet-run.js cold  <size> <dir> <round>   hcp-cdk as a user runs it the first time (HcpApp defaults,
//                                          app.synth()): build, check, write into a new output directory
//   node fleet-run.js floor <size> <dir> <round>   the same objects as plain data, written to one file by js-yaml
//   node fleet-run.js cdk8s <size> <dir> <round>   stock cdk8s: one Chart per hosted cluster of ApiObjects, app.synth()
//   node fleet-run.js resynth <size> <dir> <round> hcp-cdk as a user runs it again, on the output `cold` wrote,
//                                          with one cluster's node pool changed; timed whole by the caller
//   node fleet-run.js writes <size> <dir> <round>  the write floor: a plain loop writing the files `hcp` made
//                                          (one mkdir per folder, one writeFileSync per file) into an empty folder
// Prints one JSON line: { millis, objects, ... }. For hcp-cdk and stock cdk8s, millis is buildMillis
// (making the constructs) plus synthMillis (synthesizing them; for `cold` and stock cdk8s, writing
// included). `hcp` also saves the objects for `floor` and `cdk8s`, and the files for `writes`. Each
// round writes into folders of its own and deletes nothing (see fleet.ts).
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, Chart } from 'cdk8s';
import { dump, load } from 'js-yaml';
import { Fleet, HcpApp } from '../lib';
import { fleetInventory } from './fleet-inventory';

const [mode, sizeText, dir, round] = process.argv.slice(2);
const size = Number(sizeText);
const objectsFile = path.join(dir, `objects-${size}.json`);
const filesFile = path.join(dir, `files-${size}.json`);

function time<T>(work: () => T): { millis: number; result: T } {
  const started = process.hrtime.bigint();
  const result = work();
  return { millis: Number(process.hrtime.bigint() - started) / 1e6, result };
}

switch (mode) {
  case 'hcp': {
    // In memory: build, check every object, serialize; nothing is read or written.
    const app = new HcpApp({ outdir: path.join(dir, `hcp-${size}-${round}`), compareWithPreviousOutput: false });
    // The inventory is the input, as a file read in would be; making the fleet from it is timed.
    const inventory = fleetInventory(size);
    const built = time(() => Fleet.fromInventory(app, inventory));
    const { millis: synthMillis, result: files } = time(() => app.synthesize());
    // The objects, with the folder hcp-cdk writes each to, for the floor and stock cdk8s runs.
    const objects = files.filter((file) => path.basename(file.path) !== 'kustomization.yaml').map((file) => ({ folder: path.dirname(file.path), object: load(file.text) }));
    fs.writeFileSync(objectsFile, JSON.stringify(objects));
    fs.writeFileSync(filesFile, JSON.stringify(files));
    console.log(JSON.stringify({ millis: built.millis + synthMillis, buildMillis: built.millis, synthMillis, files: files.length, objects: objects.length }));
    break;
  }
  case 'cold': {
    // A first synth: a new output directory, nothing kept beside it yet.
    const app = new HcpApp({ outdir: path.join(dir, `cold-${size}-${round}`) });
    const inventory = fleetInventory(size);
    const built = time(() => Fleet.fromInventory(app, inventory));
    const { millis: synthMillis } = time(() => app.synth());
    console.log(JSON.stringify({ millis: built.millis + synthMillis, buildMillis: built.millis, synthMillis, objects: 0, ...app.lastWrite }));
    break;
  }
  case 'floor': {
    const objects = JSON.parse(fs.readFileSync(objectsFile, 'utf8')) as { object: unknown }[];
    const { millis, result: text } = time(() => objects.map((o) => dump(o.object, { noRefs: true, lineWidth: -1 })).join('---\n'));
    const written = time(() => fs.writeFileSync(path.join(dir, `floor-${size}.yaml`), text));
    console.log(JSON.stringify({ millis, writeMillis: written.millis, objects: objects.length }));
    break;
  }
  case 'cdk8s': {
    const objects = JSON.parse(fs.readFileSync(objectsFile, 'utf8')) as { folder: string; object: any }[];
    const { millis: buildMillis, result: app } = time(() => {
      const stock = new App({ outdir: path.join(dir, `cdk8s-${size}-${round}`) });
      const charts = new Map<string, Chart>();
      objects.forEach(({ folder, object }, i) => {
        const owner = chartOwner(folder);
        let chart = charts.get(owner);
        if (!chart) {
          chart = new Chart(stock, owner, { disableResourceNameHashes: true });
          charts.set(owner, chart);
        }
        new ApiObject(chart, `o${i}`, object);
      });
      return stock;
    });
    const { millis: synthMillis } = time(() => app.synth());
    console.log(JSON.stringify({ millis: buildMillis + synthMillis, buildMillis, synthMillis, objects: objects.length }));
    break;
  }
  case 'resynth': {
    // What `node main.js` does after an edit to one cluster: everything, with the defaults (the
    // previous output read for transition rules, the last good copy and its checks kept).
    const app = new HcpApp({ outdir: path.join(dir, `cold-${size}-${round}`) });
    const inventory = fleetInventory(size);
    const changed = inventory.managementClusters[0].clusters[0];
    (changed.nodePools![0] as { replicas?: number }).replicas! += 1;
    Fleet.fromInventory(app, inventory);
    app.synth();
    console.log(JSON.stringify({ millis: 0, objects: 0, ...app.lastWrite }));
    break;
  }
  case 'writes': {
    const files = JSON.parse(fs.readFileSync(filesFile, 'utf8')) as { path: string; text: string }[];
    const outdir = path.join(dir, `writes-${size}-${round}`);
    const written = time(() => {
      const folders = new Set<string>();
      for (const file of files) {
        const target = path.join(outdir, file.path);
        const folder = path.dirname(target);
        if (!folders.has(folder)) {
          fs.mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        fs.writeFileSync(target, file.text);
      }
    });
    console.log(JSON.stringify({ millis: 0, writeMillis: written.millis, objects: files.length }));
    break;
  }
  default:
    throw new Error(`unknown mode ${mode}`);
}

/**
 * Stock cdk8s gets one Chart per hosted cluster, as the issue specifies: the cluster's management
 * side (`<hub>/<cluster>/...`) and its guest side (`<cluster>-guest`) together; the objects of a
 * management cluster itself (`<hub>`) in one chart of their own.
 */
function chartOwner(folder: string): string {
  const [top, cluster] = folder.split('/');
  return cluster ?? top.replace(/-guest$/, '');
}
