// The first write of an output, by a second thread while the synth goes on, into a staging
// directory that then takes the output directory's place: the same files as a write by the main
// thread, the output directory untouched when the synth or the write fails, and a process killed
// while the thread writes leaving only a staging directory, which the next synth removes.
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
    managementClusters: [
      {
        name: 'hub',
        clusters: Array.from({ length: clusters }, (_, i) => ({
          name: `k${String(i).padStart(3, '0')}`,
          platform: 'KubeVirt' as const,
          nodePools: ['a', 'b', 'c', 'd', 'e'].map((pool) => ({ name: pool, replicas })),
        })),
      },
    ],
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
    fs.mkdirSync(path.join(other, 'hub'));
    fs.writeFileSync(path.join(other, 'hub', 'stray.yaml'), 'kind: ConfigMap\n');
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
    const before = fs.statSync(empty, { bigint: true });
    expect(synth(empty, FLEET, invalid)).toEqual({ error: expect.objectContaining({ message: expect.stringContaining('NodePool clusters/k299-e: spec.management.upgradeType') }), threaded: true });
    const after = fs.statSync(empty, { bigint: true });
    expect([fs.readdirSync(empty), after.ino, after.mtimeNs]).toEqual([[], before.ino, before.mtimeNs]);
    expect(fs.readdirSync(path.dirname(empty))).toEqual(['out']);
  });

  test('a process killed while the thread writes leaves the output directory as it was, and the next synth removes its staging directory', () => {
    const { dir, out } = project();
    // The app in a process of its own that kills itself (SIGKILL: no handler runs) once the synth is
    // done and the thread has written some of the files.
    const app = `
      const fs = require('fs');
      const { BackgroundWrite } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib', 'app', 'background-write'))});
      BackgroundWrite.prototype.finish = function () {
        while (!fs.existsSync(this.staging + '/hub/k000/kustomization.yaml')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
        process.kill(process.pid, 'SIGKILL');
      };
      const { Fleet, HcpApp } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))});
      const app = new HcpApp({ outdir: ${JSON.stringify(out)} });
      Fleet.fromInventory(app, ${JSON.stringify(FLEET)});
      app.synth();
    `;
    fs.writeFileSync(path.join(dir, 'app.js'), app);
    const killed = spawnSync(process.execPath, [path.join(dir, 'app.js')], { encoding: 'utf8' });
    expect(killed.signal).toBe('SIGKILL');
    expect(outputState(out)).toEqual({ complete: false, reason: `${out} does not exist` });
    const [staging] = fs.readdirSync(dir).filter((name) => name.startsWith('out.writing-'));
    expect(fs.existsSync(path.join(dir, staging, 'hub/k000/kustomization.yaml'))).toBe(true);
    expect(synth(out, FLEET)).toEqual({ threaded: true });
    expect(outputState(out)).toEqual({ complete: true });
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('out.writing-'))).toEqual([]);
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
    const write = new BackgroundWrite(out, { threshold: 10 });
    for (const file of files(9)) write.add(file);
    expect([write.started, write.finish(files(9)), fs.existsSync(out), fs.existsSync(write.staging)]).toEqual([false, false, false, false]);
  });

  test('from its threshold on the thread writes every file into the staging directory, which finish() puts in place', () => {
    const { out } = project();
    const write = new BackgroundWrite(out, { threshold: 2 });
    for (const file of files(300)) write.add(file);
    expect(write.started).toBe(true);
    expect(fs.existsSync(path.join(write.staging, INCOMPLETE_MARKER))).toBe(true);
    waitFor(path.join(write.staging, 'f0/file-0.yaml'));
    expect(fs.existsSync(out)).toBe(false);
    // Also the files finish() is given that were not added.
    expect(write.finish(files(310))).toBe(true);
    const tree = readTree(out, 'utf8');
    expect(tree.delete(INCOMPLETE_MARKER)).toBe(true);
    expect(tree).toEqual(new Map(files(310).map((f) => [f.path, f.text])));
    expect(fs.existsSync(write.staging)).toBe(false);
  });

  test('an empty output directory makes way for the staging directory', () => {
    const { out } = project();
    fs.mkdirSync(out);
    const write = new BackgroundWrite(out, { threshold: 1 });
    for (const file of files(300)) write.add(file);
    waitFor(path.join(write.staging, 'f0/file-0.yaml'));
    expect(write.finish(files(300))).toBe(true);
    expect(readTree(out).size).toBe(301);
  });

  test('where no thread can be started (a permission model that denies them), the caller writes everything', () => {
    const { out } = project();
    const startWorker = jest.fn(() => {
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
    });
    const write = new BackgroundWrite(out, { threshold: 2, startWorker });
    for (const file of files(300)) write.add(file);
    expect([write.started, write.finish(files(300)), fs.existsSync(out), fs.existsSync(write.staging)]).toEqual([false, false, false, false]);
    expect(startWorker).toHaveBeenCalledTimes(1);
  });

  test('a thread that has not started when finish() is called is cancelled: it writes nothing, the caller does', () => {
    const { out } = project();
    // A thread that never gets as far as taking the work.
    const write = new BackgroundWrite(out, { threshold: 1, startWorker: (_source, options) => new workerThreads.Worker('', { ...options, eval: true }) });
    write.add(files(1)[0]);
    expect([write.started, write.finish(files(1)), fs.existsSync(out), fs.existsSync(write.staging)]).toEqual([true, false, false, false]);
  });

  test("fails with the thread's error when a write fails, the output directory as it was and no staging directory left", () => {
    const { out } = project();
    const write = new BackgroundWrite(out, { threshold: 1 });
    const broken = [...files(299), { path: 'f1/bad\0name.yaml', text: 'x' }];
    for (const file of broken) write.add(file);
    waitFor(path.join(write.staging, 'f0/file-0.yaml'));
    expect(() => write.finish(broken)).toThrow(new RegExp(`^writing ${out} failed: .*bad.*; the output directory is as it was$`));
    expect([fs.existsSync(out), fs.existsSync(write.staging)]).toEqual([false, false]);
  });

  test('fails when the thread stops without a word (it died): after the stall limit, not forever, and the process goes on', () => {
    const { out } = project();
    // A thread that takes the work, says so with a file, and dies with an error nobody catches.
    const dying = (_source: string, options: workerThreads.WorkerOptions) =>
      new workerThreads.Worker(
        [
          'const { workerData } = require("worker_threads");',
          'Atomics.store(new Int32Array(workerData.shared), 0, 1);',
          'require("fs").writeFileSync(workerData.root + "/taken", "");',
          'throw new Error("out of luck");',
        ].join('\n'),
        { ...options, eval: true },
      );
    const write = new BackgroundWrite(out, { threshold: 1, stallMillis: 300, startWorker: dying });
    for (const file of files(3)) write.add(file);
    waitFor(path.join(write.staging, 'taken'));
    expect(() => write.finish(files(3))).toThrow(`writing ${out} failed: the writer thread wrote nothing for 0.3 s; the output directory is as it was`);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('abandon() waits for the thread and removes the staging directory: the output directory is never touched', () => {
    const { out } = project();
    fs.mkdirSync(out);
    const before = fs.statSync(out, { bigint: true });
    const write = new BackgroundWrite(out, { threshold: 2 });
    for (const file of files(300)) write.add(file);
    waitFor(path.join(write.staging, 'f0/file-0.yaml'));
    write.abandon();
    const after = fs.statSync(out, { bigint: true });
    expect([fs.readdirSync(out), after.mtimeNs, fs.existsSync(write.staging)]).toEqual([[], before.mtimeNs, false]);
  });

  test('a staging directory a dead process left is removed; one of a running process is not', () => {
    const { dir, out } = project();
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.mkdirSync(path.join(dir, `out.writing-${dead}`, 'hub'), { recursive: true });
    fs.mkdirSync(path.join(dir, `out.writing-${process.ppid}`));
    new BackgroundWrite(out);
    expect(fs.readdirSync(dir).sort()).toEqual([`out.writing-${process.ppid}`]);
  });
});
