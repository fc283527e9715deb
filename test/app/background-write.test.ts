// The first write of an output, by a second thread while the synth goes on: the same files as a
// write by the main thread, nothing left behind when the synth fails, a failed write reported with
// the directory marked incomplete, and a process killed while the thread writes repaired by the
// next synth.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
// The module object itself, whose Worker a test can replace.
import workerThreads = require('worker_threads');
import { Fleet, FleetInventory, HcpApp, INCOMPLETE_MARKER, NodePool, outputState } from '../../lib';
import { BackgroundWrite } from '../../lib/app/background-write';
import { ROOT, readTree } from '../util';

/**
 * A fleet of `clusters` KubeVirt clusters of five node pools, seven files each: 300 make twice the
 * thread's threshold, so that the synth goes on long after the thread is started.
 */
function inventory(clusters: number, replicas = 1): FleetInventory {
  return {
    defaults: {
      releaseImage: 'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa',
      releaseVersion: '4.17.0',
      baseDomain: 'fleet.example.com',
    },
    managementClusters: [{
      name: 'hub',
      clusters: Array.from({ length: clusters }, (_, i) => ({
        name: `k${String(i).padStart(3, '0')}`,
        platform: 'KubeVirt' as const,
        nodePools: ['a', 'b', 'c', 'd', 'e'].map((pool) => ({ name: pool, replicas })),
      })),
    }],
  };
}

/**
 * Synthesizes the fleet quietly into `outdir`; returns the error, if any, and whether a thread
 * wrote the files (or, for a synth that failed, had started writing them).
 */
function synth(outdir: string, fleet: FleetInventory, change?: (app: HcpApp) => void): { error?: Error; threaded: boolean } {
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const finish = jest.spyOn(BackgroundWrite.prototype, 'finish');
  const abandon = jest.spyOn(BackgroundWrite.prototype, 'abandon');
  try {
    const app = new HcpApp({ outdir });
    Fleet.fromInventory(app, fleet);
    change?.(app);
    app.synth();
    return { threaded: finish.mock.results.some((result) => result.value === true) };
  } catch (error) {
    return { error: error as Error, threaded: abandon.mock.contexts.some((write) => (write as BackgroundWrite).started) };
  } finally {
    quiet.mockRestore();
    finish.mockRestore();
    abandon.mockRestore();
  }
}

function project(): { dir: string; out: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-background-')));
  return { dir, out: path.join(dir, 'out') };
}

/** Waits (at most 10 s) until `file` exists: the thread has started and written it. */
function waitFor(file: string): void {
  const until = Date.now() + 10_000;
  while (!fs.existsSync(file)) {
    if (Date.now() > until) throw new Error(`${file} was not written within 10 s`);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}

const FLEET = inventory(300);

describe('a synth into an empty output directory', () => {
  test('is written by a second thread, byte for byte what the main thread writes, and complete', () => {
    const { out } = project();
    expect(synth(out, FLEET)).toEqual({ threaded: true });
    expect(outputState(out)).toEqual({ complete: true });
    // A directory that holds a file is compared and written by the main thread.
    const other = project().out;
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'stray.yaml'), 'kind: ConfigMap\n');
    expect(synth(other, FLEET)).toEqual({ threaded: false });
    const tree = readTree(out, 'latin1');
    expect(tree.size).toBe(2 + 300 * 7);
    expect(tree).toEqual(readTree(other, 'latin1'));
    // The next synth compares what the thread wrote, as any output.
    expect(synth(out, FLEET)).toEqual({ threaded: false });
  });

  test('a small output is written by the main thread: no thread is started for it', () => {
    const { out } = project();
    expect(synth(out, inventory(3))).toEqual({ threaded: false });
    expect(readTree(out, 'latin1').size).toBe(2 + 3 * 7);
  });

  test('fails when validation fails, and leaves no directory where there was none, an empty one where it was empty', () => {
    const invalid = (app: HcpApp): void => {
      (app.node.findChild('hub').node.findChild('k299').node.findChild('e') as NodePool).addOverride('spec.management.upgradeType', 'Sideways');
    };
    const { out } = project();
    const { error, threaded } = synth(out, FLEET, invalid);
    expect(error?.message).toContain('NodePool clusters/k299-e: spec.management.upgradeType');
    expect(threaded).toBe(true);
    expect(fs.existsSync(out)).toBe(false);
    const empty = project().out;
    fs.mkdirSync(empty);
    expect(synth(empty, FLEET, invalid)).toEqual({ error: expect.objectContaining({ message: expect.stringContaining('NodePool clusters/k299-e: spec.management.upgradeType') }), threaded: true });
    expect(fs.readdirSync(empty)).toEqual([]);
  });

  test('a process killed while the thread writes leaves the directory marked incomplete, and the next synth repairs it', () => {
    const { dir, out } = project();
    // The app in a process of its own that kills itself (SIGKILL: no handler runs) once the synth is
    // done and the thread is still writing.
    const app = `
      const { BackgroundWrite } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib', 'app', 'background-write'))});
      BackgroundWrite.prototype.finish = () => process.kill(process.pid, 'SIGKILL');
      const { Fleet, HcpApp } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))});
      const app = new HcpApp({ outdir: ${JSON.stringify(out)} });
      Fleet.fromInventory(app, ${JSON.stringify(FLEET)});
      app.synth();
    `;
    fs.writeFileSync(path.join(dir, 'app.js'), app);
    const killed = spawnSync(process.execPath, [path.join(dir, 'app.js')], { encoding: 'utf8' });
    expect(killed.signal).toBe('SIGKILL');
    expect(outputState(out).complete).toBe(false);
    expect(synth(out, FLEET)).toEqual({ threaded: false });
    expect(outputState(out)).toEqual({ complete: true });
    const fresh = project().out;
    synth(fresh, FLEET);
    expect(readTree(out, 'latin1')).toEqual(readTree(fresh, 'latin1'));
  });
});

describe('BackgroundWrite', () => {
  // The thread is sent files 256 at a time: 300 make one batch and some left for finish().
  const files = (n: number) => Array.from({ length: n }, (_, i) => ({ path: `f${i % 3}/file-${i}.yaml`, text: `index: ${i}\n` }));

  test('below its threshold it starts nothing and writes nothing: finish() says the caller writes', () => {
    const { out } = project();
    const write = new BackgroundWrite(out, 10);
    for (const file of files(9)) write.add(file);
    expect([write.started, write.finish(files(9)), fs.existsSync(out)]).toEqual([false, false, false]);
  });

  test('from its threshold on the thread writes every file, also those finish() is given that were not added', () => {
    const { out } = project();
    const write = new BackgroundWrite(out, 2);
    for (const file of files(300)) write.add(file);
    expect(write.started).toBe(true);
    expect(fs.existsSync(path.join(out, INCOMPLETE_MARKER))).toBe(true);
    waitFor(path.join(out, 'f0/file-0.yaml'));
    expect(write.finish(files(310))).toBe(true);
    const tree = readTree(out, 'utf8');
    tree.delete(INCOMPLETE_MARKER);
    expect(tree).toEqual(new Map(files(310).map((f) => [f.path, f.text])));
  });

  test('where no thread can be started (a permission model that denies them), the caller writes everything', () => {
    const { out } = project();
    const denied = jest.spyOn(workerThreads, 'Worker').mockImplementation(() => {
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
    });
    try {
      const write = new BackgroundWrite(out, 2);
      for (const file of files(300)) write.add(file);
      expect([write.started, write.finish(files(300)), fs.existsSync(out)]).toEqual([false, false, false]);
      expect(denied).toHaveBeenCalledTimes(1);
    } finally {
      denied.mockRestore();
    }
  });

  test('a thread that has not started when finish() is called writes nothing: the caller does', () => {
    const { out } = project();
    const write = new BackgroundWrite(out, 1);
    write.add(files(1)[0]);
    // No waiting: finish() wins the race against the thread's start (which takes milliseconds).
    expect(write.finish(files(1))).toBe(false);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('fails with the thread\'s error when a write fails, and leaves the marker', () => {
    const { out } = project();
    fs.mkdirSync(out);
    // A file where the thread must make a folder.
    fs.writeFileSync(path.join(out, 'f1'), 'in the way');
    const write = new BackgroundWrite(out, 1);
    for (const file of files(300)) write.add(file);
    waitFor(path.join(out, 'f0/file-0.yaml'));
    expect(() => write.finish(files(300))).toThrow(new RegExp(`^writing ${out} failed: EEXIST: file already exists, mkdir '${out}/f1'$`));
    expect(fs.existsSync(path.join(out, INCOMPLETE_MARKER))).toBe(true);
  });

  test('abandon() waits for the thread and removes what it wrote: the directory is as it was', () => {
    const { out } = project();
    fs.mkdirSync(out);
    const write = new BackgroundWrite(out, 2);
    for (const file of files(300)) write.add(file);
    waitFor(path.join(out, 'f0/file-0.yaml'));
    write.abandon();
    expect(fs.readdirSync(out)).toEqual([]);
  });
});
