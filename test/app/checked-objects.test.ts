// A re-synth checks only what changed: objects whose text the previous output holds unchanged, and
// which the last good synth's validator (same fingerprint) accepted, are not checked again; every
// other object is, and a record made under another validator, or none, means every object is.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { dump } from 'js-yaml';
import { ClusterPlatform, HcpApp, HcpAppProps, HostedCluster, ManagementCluster, Release, SecretSource } from '../../lib';
import { CheckedObjects } from '../../lib/app/checked-objects';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { readTree } from '../util';
import { widgetCrd } from '../validation/object-cases';

interface Fleet {
  /** Node pool replicas, by hosted cluster name. */
  readonly clusters: Readonly<Record<string, number>>;
  /** An override of one cluster's HostedCluster, by field path. */
  readonly override?: { readonly cluster: string; readonly path: string; readonly value: unknown };
}

const THREE: Fleet = { clusters: { one: 2, two: 2, three: 2 } };

function build(outdir: string, fleet: Fleet, props: HcpAppProps = {}): HcpApp {
  const app = new HcpApp({ outdir, ...props });
  const hub = new ManagementCluster(app, 'hub');
  for (const [name, replicas] of Object.entries(fleet.clusters)) {
    const cluster = new HostedCluster(hub, name, {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    });
    cluster.addNodePool('workers', { replicas });
    if (fleet.override?.cluster === name) cluster.addOverride(fleet.override.path, fleet.override.value);
  }
  return app;
}

interface Checked {
  /** The error synth threw, if any. */
  readonly error?: Error;
  /** `kind/name` of every object the validator checked, with whether it was given a previous version. */
  readonly checked: string[];
}

/** Synthesizes quietly, recording the objects the validator checks. */
function synth(outdir: string, fleet: Fleet, props: HcpAppProps = {}): Checked {
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  const validate = jest.spyOn(ObjectValidator.prototype, 'validate');
  try {
    build(outdir, fleet, props).synth();
    return { checked: checkedOf(validate) };
  } catch (error) {
    return { error: error as Error, checked: checkedOf(validate) };
  } finally {
    quiet.mockRestore();
    validate.mockRestore();
  }
}

function checkedOf(validate: jest.SpyInstance): string[] {
  return validate.mock.calls.map(([object, options]) => `${object.kind}/${object.metadata.name}${options?.previous === undefined ? '' : ' over its previous version'}`).sort();
}

/** A fresh project directory; outputs go to `out/` in it. */
function project(): { dir: string; out: string; record: string } {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-checked-')));
  return { dir, out: path.join(dir, 'out'), record: path.join(dir, '.out.last-good', 'checked.json') };
}

const EVERY_OBJECT = ['HostedCluster/one', 'HostedCluster/three', 'HostedCluster/two', 'Namespace/clusters', 'NodePool/one-workers', 'NodePool/three-workers', 'NodePool/two-workers'];

describe('a re-synth checks only what changed', () => {
  test('the first synth checks every object and records them; an unchanged re-synth checks none', () => {
    const { out, record } = project();
    expect(synth(out, THREE)).toEqual({ checked: EVERY_OBJECT });
    const recorded = JSON.parse(fs.readFileSync(record, 'utf8'));
    expect(recorded).toEqual({ format: 'hcp-cdk checked objects, v1', validator: new ObjectValidator().fingerprint, objects: expect.any(Array) });
    // One digest per object file: the kustomizations are not objects the validator checks.
    expect(recorded.objects).toHaveLength(EVERY_OBJECT.length);
    expect(recorded.objects).toEqual([...recorded.objects].sort());
    expect(synth(out, THREE)).toEqual({ checked: [] });
  });

  test('one changed node pool is the one object checked, over its previous version, and the output is what a full check writes', () => {
    const { out } = project();
    synth(out, THREE);
    const changed = { clusters: { ...THREE.clusters, two: 5 } };
    expect(synth(out, changed)).toEqual({ checked: ['NodePool/two-workers over its previous version'] });
    const fresh = project().out;
    expect(synth(fresh, changed)).toEqual({ checked: EVERY_OBJECT });
    expect(readTree(out, 'latin1')).toEqual(readTree(fresh, 'latin1'));
  });

  test('fails when a changed object is invalid, though every other object is taken as checked', () => {
    const { out } = project();
    synth(out, THREE);
    const bytes = readTree(out, 'latin1');
    const { error, checked } = synth(out, { ...THREE, override: { cluster: 'one', path: 'spec.infraID', value: 'Not_Valid' } });
    expect(error?.message).toContain('HostedCluster clusters/one: spec.infraID: infraID must consist of');
    expect(checked).toEqual(['HostedCluster/one over its previous version']);
    expect(readTree(out, 'latin1')).toEqual(bytes);
  });

  test('an object the output directory holds edited by hand is checked again, over the edited version', () => {
    const { out } = project();
    synth(out, THREE);
    const file = path.join(out, 'hub/two/60-nodepool-clusters_two-workers.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('replicas: 2', 'replicas: 9'));
    expect(synth(out, THREE)).toEqual({ checked: ['NodePool/two-workers over its previous version'] });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^ {2}replicas: 2$/m);
  });

  test('under cdk8s synth (output directory deleted) unchanged objects are taken as checked against the last good copy', () => {
    const { out } = project();
    synth(out, THREE);
    fs.rmSync(out, { recursive: true });
    expect(synth(out, THREE)).toEqual({ checked: [] });
    expect(synth(out, { clusters: { ...THREE.clusters, three: 1 } })).toEqual({ checked: ['NodePool/three-workers over its previous version'] });
  });

  test('a record made by another validator, a damaged one or none means every object is checked again', () => {
    const { out, record } = project();
    synth(out, THREE);
    const recorded = JSON.parse(fs.readFileSync(record, 'utf8'));
    fs.writeFileSync(record, JSON.stringify({ ...recorded, validator: 'another hcp-cdk' }));
    expect(synth(out, THREE)).toEqual({ checked: EVERY_OBJECT });
    // That synth recorded its own checks, under this validator.
    expect(JSON.parse(fs.readFileSync(record, 'utf8'))).toEqual(recorded);
    fs.writeFileSync(record, '{"format": "hcp-cdk checked obj');
    expect(synth(out, THREE)).toEqual({ checked: EVERY_OBJECT });
    fs.rmSync(record);
    expect(synth(out, THREE)).toEqual({ checked: EVERY_OBJECT });
    expect(synth(out, THREE)).toEqual({ checked: [] });
  });

  test('other CRDs (the crds prop) make another validator: every object is checked again', () => {
    const { dir, out } = project();
    synth(out, THREE);
    const crd = path.join(dir, 'widget-crd.yaml');
    fs.writeFileSync(crd, dump(widgetCrd({ type: 'object' })));
    expect(synth(out, THREE, { crds: [crd] })).toEqual({ checked: EVERY_OBJECT });
    expect(synth(out, THREE, { crds: [crd] })).toEqual({ checked: [] });
  });

  test('an object accepted only over its previous version is checked again as new once unchanged: optionalOldSelf rules run on both', () => {
    const { dir, out, record } = project();
    const crd = path.join(dir, 'widget-crd.yaml');
    fs.writeFileSync(
      crd,
      dump(
        widgetCrd({
          'type': 'object',
          'properties': { size: { type: 'string' } },
          'x-kubernetes-validations': [{ rule: "oldSelf.hasValue() || self.size == 'small'", optionalOldSelf: true, message: 'a new widget must be small' }],
        }),
      ),
    );
    const widget = (size: string): Error | undefined => {
      const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        const app = new HcpApp({ outdir: out, crds: [crd] });
        new ApiObject(new Chart(app, 'widgets'), 'w', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size } });
        app.synth();
        return undefined;
      } catch (error) {
        return error as Error;
      } finally {
        quiet.mockRestore();
      }
    };
    expect(widget('small')).toBeUndefined();
    // Growing an existing widget is allowed; the record does not take the large one as accepted.
    expect(widget('large')).toBeUndefined();
    expect(JSON.parse(fs.readFileSync(record, 'utf8')).objects).toEqual([]);
    // Unchanged, it is checked as a new object, as a synth without any record checks it.
    expect(widget('large')?.message).toContain('a new widget must be small');
  });

  test('without a last good copy nothing is recorded, and every synth checks every object', () => {
    const { dir, out } = project();
    synth(out, THREE, { keepLastGoodCopy: false });
    expect(synth(out, THREE, { keepLastGoodCopy: false })).toEqual({ checked: EVERY_OBJECT });
    expect(fs.existsSync(path.join(dir, '.out.last-good'))).toBe(false);
  });

  test('synthesize() (and so plan(), which calls it) checks every object: only synth() takes checks over', () => {
    const { out } = project();
    synth(out, THREE);
    const validate = jest.spyOn(ObjectValidator.prototype, 'validate');
    try {
      build(out, THREE).synthesize({ compareWithPreviousOutput: true });
      expect(validate).toHaveBeenCalledTimes(EVERY_OBJECT.length);
    } finally {
      validate.mockRestore();
    }
  });
});

describe('CheckedObjects', () => {
  test('reads nothing from a missing file, and writes a record only when it changes', () => {
    const file = path.join(project().dir, 'checked.json');
    const record = CheckedObjects.read(file, 'v1');
    expect(record.size).toBe(0);
    record.update(new Set(['b', 'a']));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ format: 'hcp-cdk checked objects, v1', validator: 'v1', objects: ['a', 'b'] });
    const inode = fs.statSync(file).ino;
    const again = CheckedObjects.read(file, 'v1');
    expect([again.has('a'), again.has('b'), again.has('c')]).toEqual([true, true, false]);
    again.update(new Set(['a', 'b']));
    expect(fs.statSync(file).ino).toBe(inode);
    expect(CheckedObjects.read(file, 'v2').size).toBe(0);
  });

  test('digestOf tells texts apart byte for byte', () => {
    expect(CheckedObjects.digestOf('replicas: 2\n')).toBe(CheckedObjects.digestOf('replicas: 2\n'));
    expect(CheckedObjects.digestOf('replicas: 2\n')).not.toBe(CheckedObjects.digestOf('replicas: 2 \n'));
  });
});
