// Writing only what changed: a re-synth leaves unchanged files alone (same inode, same mtime),
// rewrites a changed cluster's files only, deletes a removed cluster's folder, writes nothing when
// validation fails, and a synth stopped while writing (fault injection: a write that fails, and a
// process killed mid-write) is reported as incomplete and repaired by the next synth.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
// The module object itself (not the namespace copy of `import *`), whose functions a test can replace.
import nodeFs = require('fs');
import { ClusterPlatform, HcpApp, HcpAppProps, HostedCluster, INCOMPLETE_MARKER, ManagementCluster, OutputDirectory, outputState, PreviousOutputSource, Release, SecretSource } from '../../lib';
import { ROOT, readTree } from '../util';

interface Variant {
  /** The hosted clusters, by name; each has one node pool of `replicas`. */
  readonly clusters: Readonly<Record<string, number>>;
  /** An infraID that fails validation, for one cluster. */
  readonly invalidInfraId?: string;
}

const THREE: Variant = { clusters: { one: 2, two: 2, three: 2 } };

function build(outdir: string, variant: Variant, props: HcpAppProps = {}): HcpApp {
  const app = new HcpApp({ outdir, ...props });
  const hub = new ManagementCluster(app, 'hub');
  for (const [name, replicas] of Object.entries(variant.clusters)) {
    const cluster = new HostedCluster(hub, name, {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    });
    cluster.addNodePool('workers', { replicas });
    if (variant.invalidInfraId && name === 'one') cluster.addOverride('spec.infraID', variant.invalidInfraId);
  }
  return app;
}

/** Synthesizes quietly (synth prints the secrets report); returns the error, if any. */
function synth(outdir: string, variant: Variant, props: HcpAppProps = {}): Error | undefined {
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    build(outdir, variant, props).synth();
    return undefined;
  } catch (error) {
    return error as Error;
  } finally {
    spy.mockRestore();
  }
}

/** Inode and mtime of every file under `dir`, and of every folder, by '/'-separated path. */
function stats(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      const stat = fs.statSync(full, { bigint: true });
      found.set(path.relative(dir, full).split(path.sep).join('/') + (entry.isDirectory() ? '/' : ''), `${stat.ino}@${stat.mtimeNs}`);
      if (entry.isDirectory()) walk(full);
    }
  };
  walk(dir);
  return found;
}

/** The files whose inode or mtime differ between two `stats()`, and those only in one of them. */
function touched(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()].filter((p) => !p.endsWith('/')));
  return [...paths].filter((p) => before.get(p) !== after.get(p)).sort();
}

/** A fresh project directory; outputs go to `out/` in it. */
function project(): { dir: string; out: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-incremental-')));
  return { dir, out: path.join(dir, 'out') };
}

/** Synthesizes `variant` into `out` and expects it to be what a synth into a fresh directory writes, complete. */
function expectRepairedBySynth(out: string, variant: Variant): void {
  expect(synth(out, variant)).toBeUndefined();
  const fresh = project().out;
  synth(fresh, variant);
  expect(readTree(out, 'latin1')).toEqual(readTree(fresh, 'latin1'));
  expect(outputState(out)).toEqual({ complete: true });
}

/** Waits until the clock has moved on, so that a rewritten file could not keep its mtime. */
function tick(): void {
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < 20_000_000n);
}

describe('a re-synth writes only what changed', () => {
  test('with no change it rewrites no file: inodes and mtimes of the files, and of the last good copy, stay', () => {
    const { dir, out } = project();
    expect(synth(out, THREE)).toBeUndefined();
    const before = stats(out);
    const copyBefore = stats(path.join(dir, '.out.last-good'));
    tick();
    expect(synth(out, THREE)).toBeUndefined();
    expect(touched(before, stats(out))).toEqual([]);
    expect(touched(copyBefore, stats(path.join(dir, '.out.last-good')))).toEqual([]);
    expect(outputState(out)).toEqual({ complete: true });
  });

  test('one changed cluster rewrites only its changed file, byte-identical to a synth from scratch', () => {
    const { out } = project();
    synth(out, THREE);
    const before = stats(out);
    tick();
    const changed = { clusters: { ...THREE.clusters, two: 5 } };
    expect(synth(out, changed)).toBeUndefined();
    expect(touched(before, stats(out))).toEqual(['hub/two/60-nodepool-clusters_two-workers.yaml']);
    expect(fs.readFileSync(path.join(out, 'hub/two/60-nodepool-clusters_two-workers.yaml'), 'utf8')).toMatch(/^ {2}replicas: 5$/m);
    const fresh = project().out;
    synth(fresh, changed);
    expect(readTree(out, 'latin1')).toEqual(readTree(fresh, 'latin1'));
  });

  test("a removed cluster's folder disappears, and the kustomization above it no longer lists it", () => {
    const { out } = project();
    synth(out, THREE);
    const before = stats(out);
    tick();
    expect(synth(out, { clusters: { one: 2, three: 2 } })).toBeUndefined();
    expect(fs.existsSync(path.join(out, 'hub', 'two'))).toBe(false);
    // The manifest of what synth wrote changes with the list of files.
    expect(touched(before, stats(out))).toEqual([
      '.hcp-cdk-output',
      'hub/kustomization.yaml',
      'hub/two/50-hostedcluster-clusters_two.yaml',
      'hub/two/60-nodepool-clusters_two-workers.yaml',
      'hub/two/kustomization.yaml',
    ]);
    expect(fs.readFileSync(path.join(out, 'hub', 'kustomization.yaml'), 'utf8')).toBe(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - 00-namespace-clusters.yaml\n  - one\n  - three\n',
    );
  });

  test('a file of the output edited by hand is put right: the output is what synth says', () => {
    const { out } = project();
    synth(out, THREE);
    fs.appendFileSync(path.join(out, 'hub/one/50-hostedcluster-clusters_one.yaml'), '# edited by hand\n');
    const fresh = project().out;
    synth(fresh, THREE);
    expect(synth(out, THREE)).toBeUndefined();
    expect(readTree(out, 'latin1')).toEqual(readTree(fresh, 'latin1'));
  });

  test('fails when a file synth did not write is in the output directory, naming it, and deletes nothing; with allowOtherFiles it is left alone', () => {
    const { out } = project();
    synth(out, THREE);
    fs.mkdirSync(path.join(out, 'stray', 'deep'), { recursive: true });
    fs.writeFileSync(path.join(out, 'stray', 'deep', 'extra.yaml'), 'kind: ConfigMap\n');
    const bytes = readTree(out, 'latin1');
    expect(synth(out, { clusters: { one: 2 } })?.message).toBe(
      `HcpApp: outdir (${JSON.stringify(out)}) holds files hcp-cdk did not write (stray/deep/extra.yaml); synth deletes and replaces only what it wrote, so nothing is written and nothing there is deleted: ` +
        'give an output directory of its own, or set allowOtherFiles (HCP_CDK_ALLOW_OTHER_FILES=1) to write beside them and leave them alone',
    );
    expect(readTree(out, 'latin1')).toEqual(bytes);
    expect(synth(out, { clusters: { one: 2 } }, { allowOtherFiles: true })).toBeUndefined();
    expect(fs.readFileSync(path.join(out, 'stray', 'deep', 'extra.yaml'), 'utf8')).toBe('kind: ConfigMap\n');
    expect(fs.existsSync(path.join(out, 'hub', 'two'))).toBe(false);
  });

  test('fails when validation fails, and leaves the directory byte-identical, inodes and mtimes included', () => {
    const { out } = project();
    synth(out, THREE);
    const bytes = readTree(out, 'latin1');
    const before = stats(out);
    tick();
    const error = synth(out, { clusters: { ...THREE.clusters, two: 7 }, invalidInfraId: 'Not_Valid' });
    expect(error?.message).toContain('hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID must consist of');
    expect(readTree(out, 'latin1')).toEqual(bytes);
    expect(stats(out)).toEqual(before);
  });

  test('lastWrite says what a synth wrote, removed and left alone', () => {
    const { out } = project();
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const first = build(out, THREE);
      expect(first.lastWrite).toBeUndefined();
      first.synth();
      expect(first.lastWrite).toEqual({ written: 11, removed: 0, unchanged: 0 });
      const second = build(out, { clusters: { one: 2, two: 3 } });
      second.synth();
      expect(second.lastWrite).toEqual({ written: 2, removed: 3, unchanged: 6 });
    } finally {
      quiet.mockRestore();
    }
  });

  test('an output directory OutputDirectory is given no files for is made, empty', () => {
    const { out } = project();
    new OutputDirectory(out).replaceWith([]);
    // Only the manifest, which records that the synth wrote no file.
    expect(fs.readdirSync(out)).toEqual(['.hcp-cdk-output']);
    expect(outputState(out)).toEqual({ complete: true });
  });
});

describe('a synth stopped while writing', () => {
  /** Makes the `count`-th write of a file (after `skip`) fail as a full disk does. */
  const failWrites = (skip: number): jest.SpyInstance => {
    const real = nodeFs.writeFileSync;
    let calls = 0;
    return jest.spyOn(nodeFs, 'writeFileSync').mockImplementation((...args: Parameters<typeof fs.writeFileSync>) => {
      if (typeof args[0] === 'string' && args[0].includes('.yaml') && ++calls > skip) {
        throw Object.assign(new Error(`ENOSPC: no space left on device, open '${args[0]}'`), { code: 'ENOSPC' });
      }
      return real(...args);
    });
  };

  test('fails with the directory marked incomplete, which validate refuses, and the next synth repairs it', () => {
    const { dir, out } = project();
    synth(out, THREE);
    const changed = { clusters: { one: 3, two: 3, three: 3 } };
    const spy = failWrites(1);
    let error: Error | undefined;
    try {
      error = synth(out, changed);
    } finally {
      spy.mockRestore();
    }
    expect(error?.message).toBe(
      `hcp-cdk: writing the output failed: ENOSPC: no space left on the device, at ${out}/hub/three/.60-nodepool-clusters_three-workers.yaml.hcp-cdk-${process.pid}; ${out} is left incomplete (${INCOMPLETE_MARKER} marks it) and the next synth repairs it`,
    );
    // Node prints the stack of an error nobody catches: it is the one line, with no trace.
    expect(error?.stack).toBe(`OutputWriteError: ${error?.message}`);
    // One pool was written, the next was not: a mix of two outputs.
    expect(fs.readFileSync(path.join(out, 'hub/one/60-nodepool-clusters_one-workers.yaml'), 'utf8')).toMatch(/^ {2}replicas: 3$/m);
    expect(fs.readFileSync(path.join(out, 'hub/two/60-nodepool-clusters_two-workers.yaml'), 'utf8')).toMatch(/^ {2}replicas: 2$/m);
    const state = outputState(out);
    expect(state.complete).toBe(false);
    expect(state.reason).toMatch(
      new RegExp(`^${out} is incomplete: a synth stopped while writing it \\(process ${process.pid}, started \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\); the next synth repairs it$`),
    );

    const validate = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'validate', out], { encoding: 'utf8' });
    expect([validate.status, validate.stderr]).toEqual([2, `hcp-cdk validate: ${state.reason}\n`]);

    // The half-written directory is not what transition rules are checked against: the copy is.
    const previous = new OutputDirectory(out).previousOutput();
    expect([previous.source, previous.notice]).toEqual([PreviousOutputSource.LAST_GOOD_COPY, `hcp-cdk: ${state.reason}; transition rules are checked against ${dir}/.out.last-good/output.json`]);

    expectRepairedBySynth(out, changed);
  });

  test('a failed synth after an interrupted one puts the last good output back', () => {
    const { dir, out } = project();
    synth(out, THREE);
    const good = readTree(out, 'latin1');
    const spy = failWrites(1);
    try {
      synth(out, { clusters: { one: 3, two: 3, three: 3 } });
    } finally {
      spy.mockRestore();
    }
    const stderr: string[] = [];
    const quiet = jest.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
    try {
      expect(() => build(out, { ...THREE, invalidInfraId: 'Not_Valid' }).synth()).toThrow(/infraID must consist of/);
    } finally {
      quiet.mockRestore();
    }
    expect(stderr[1]).toBe(`hcp-cdk: the synth failed, so ${out}, which a synth had left incomplete, holds the last good output again, from ${dir}/.out.last-good/output.json`);
    expect(readTree(out, 'latin1')).toEqual(good);
    expect(outputState(out)).toEqual({ complete: true });
  });

  test('a process killed in the middle of writing leaves the directory marked incomplete, and the next synth repairs it', () => {
    const { dir, out } = project();
    synth(out, THREE);
    // The app in a process of its own that kills itself (SIGKILL: no handler runs) on its second rename of a file.
    const app = `
      const fs = require('fs');
      const rename = fs.renameSync;
      let renames = 0;
      fs.renameSync = (...args) => (++renames === 2 ? process.kill(process.pid, 'SIGKILL') : rename(...args));
      const { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))});
      const app = new HcpApp({ outdir: ${JSON.stringify(out)} });
      const hub = new ManagementCluster(app, 'hub');
      for (const name of ['one', 'two', 'three']) {
        new HostedCluster(hub, name, {
          release: Release.fromVersion('4.17.0'),
          pullSecret: SecretSource.fromExistingSecret('pull-secret'),
          platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
        }).addNodePool('workers', { replicas: 4 });
      }
      app.synth();
    `;
    fs.writeFileSync(path.join(dir, 'app.js'), app);
    const killed = spawnSync(process.execPath, [path.join(dir, 'app.js')], { encoding: 'utf8' });
    expect(killed.signal).toBe('SIGKILL');
    expect(outputState(out).complete).toBe(false);
    // The temporary file of the write that was cut short is still there; the repair removes it.
    expect(fs.readdirSync(path.join(out, 'hub', 'three')).filter((f) => f.includes('.hcp-cdk-'))).toHaveLength(1);
    expectRepairedBySynth(out, { clusters: { one: 4, two: 4, three: 4 } });
  });

  test('outputState says a directory that does not exist is not complete', () => {
    const { out } = project();
    expect(outputState(out)).toEqual({ complete: false, reason: `${out} does not exist` });
  });
});
