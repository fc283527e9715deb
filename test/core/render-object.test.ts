import * as path from 'path';
import { ApiObject, App, Chart, IResolver, JsonPatch, Lazy, ResolutionContext } from 'cdk8s';
import { Fleet, HcpApp } from '../../lib';
import { renderApiObject } from '../../lib/core/render-object';
import { fleetInventory } from '../../bench/fleet-inventory';
import { ROOT } from '../util';

/** The app an example builds, taken at its synth() call instead of writing it out. */
function exampleApp(file: string): App {
  let captured: App | undefined;
  const synth = jest.spyOn(HcpApp.prototype, 'synth').mockImplementation(function capture(this: HcpApp) {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- synth() is where the app an example builds can be taken
    captured = this;
  });
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- an example runs when loaded: by its path, at this moment
    require(path.join(ROOT, 'build', 'examples', file));
  } finally {
    synth.mockRestore();
  }
  if (!captured) throw new Error(`${file} did not call synth()`);
  return captured;
}

function apiObjects(app: App): ApiObject[] {
  return app.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
}

describe('renderApiObject gives what ApiObject.toJson gives', () => {
  const examples = ['agent-lab/main.js', 'disconnected-dual-stack/main.js', 'aws/clusters.js', 'fleet/main.js'];
  test.each(examples)('on every object of examples/%s', (file) => {
    const objects = apiObjects(exampleApp(file));
    expect(objects.length).toBeGreaterThan(5);
    for (const object of objects) expect({ at: object.node.path, json: renderApiObject(object) }).toEqual({ at: object.node.path, json: object.toJson() });
  });

  test('on every object of the benchmark fleet (Agent, KubeVirt, AWS) of 30 clusters', () => {
    const app = new HcpApp({ outdir: 'unused' });
    Fleet.fromInventory(app, fleetInventory(30));
    for (const object of apiObjects(app)) expect(JSON.stringify(renderApiObject(object))).toBe(JSON.stringify(object.toJson()));
  });

  function objectIn(app: App, props: Record<string, unknown>): ApiObject {
    return new ApiObject(new Chart(app, 'chart', { namespace: 'ns', labels: { team: 'a' } }), 'o', { apiVersion: 'v1', kind: 'ConfigMap', ...props });
  }

  test('on the values cdk8s resolves: Lazy, tokens, number-or-string unions, nulls, empty metadata', () => {
    const token = { resolve: () => ({ resolved: Lazy.any({ produce: () => 'deep' }) }) };
    class Quantity {
      constructor(readonly value: string) {}
    }
    const object = objectIn(new App(), {
      metadata: { name: 'x', annotations: {}, finalizers: [], labels: { b: '2' } },
      data: { z: 'last', a: Lazy.any({ produce: () => ({ nested: [1, null, undefined, { y: undefined, x: 'x' }] }) }), t: token, q: new Quantity('1Gi'), n: null, e: {}, l: [] },
    });
    const json = renderApiObject(object);
    expect(JSON.stringify(json)).toBe(JSON.stringify(object.toJson()));
    expect(Object.keys(json)).toEqual(['apiVersion', 'kind', 'metadata', 'data']);
    expect(json.data).toEqual({ a: { nested: [1, null, null, { x: 'x' }] }, e: {}, l: [], q: { value: '1Gi' }, t: { resolved: 'deep' }, z: 'last' });
    expect(json.metadata).toEqual({ labels: { b: '2', team: 'a' }, name: 'x', namespace: 'ns' });
  });

  test('on metadata with attributes of its own, given or added, among the fields cdk8s keeps apart', () => {
    const object = objectIn(new App(), { metadata: { name: 'x', generateName: 'x-', uid: Lazy.any({ produce: () => 'u' }), finalizers: ['f'] } });
    object.metadata.add('resourceVersion', '7');
    object.metadata.addOwnerReference({ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '1' });
    const json = renderApiObject(object);
    expect(JSON.stringify(json)).toBe(JSON.stringify(object.toJson()));
    expect(Object.keys(json.metadata)).toEqual(['finalizers', 'generateName', 'labels', 'name', 'namespace', 'ownerReferences', 'resourceVersion', 'uid']);
  });

  test('hands out parts that are plain JSON in key order as they are, copies the others', () => {
    const plain = { a: 1, b: { c: 'x' }, d: ['y', { e: true }] };
    const unsorted = { b: 1, a: 2 };
    const withNull = { a: 1, b: null };
    const list = ['x', Lazy.any({ produce: () => 'y' })];
    const object = objectIn(new App(), { metadata: { name: 'x' }, spec: { list, plain, unsorted, withNull } });
    const json = renderApiObject(object);
    expect(JSON.stringify(json)).toBe(JSON.stringify(object.toJson()));
    expect(json.spec.plain).toBe(plain);
    expect(json.spec.unsorted).not.toBe(unsorted);
    expect(json.spec.withNull).toEqual({ a: 1 });
    expect(json.spec.list).toEqual(['x', 'y']);
  });

  test("synth adds its sync wave to a copy: the object's own annotations stay as they were", () => {
    const app = new HcpApp({ outdir: 'unused' });
    const object = objectIn(app, { metadata: { name: 'x', annotations: { note: 'n' } } });
    app.synthesize();
    app.synthesize();
    expect(object.metadata.toJson().annotations).toEqual({ note: 'n' });
    expect(JSON.parse(JSON.stringify(renderApiObject(object))).metadata.annotations).toEqual({ note: 'n' });
  });

  test('leaves to toJson what it does not mirror: patches, subclasses, custom resolvers, odd values', () => {
    const patched = objectIn(new App(), { metadata: { name: 'p' }, data: { a: '1' } });
    patched.addJsonPatch(JsonPatch.add('/data/b', '2'));
    expect(renderApiObject(patched).data).toEqual({ a: '1', b: '2' });

    class Custom extends ApiObject {
      public toJson(): any {
        return { ...super.toJson(), custom: true };
      }
    }
    expect(renderApiObject(new Custom(new Chart(new App(), 'c'), 'o', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } })).custom).toBe(true);

    const upper: IResolver = {
      resolve(context: ResolutionContext) {
        if (typeof context.value === 'string' && context.value === 'shout') context.replaceValue('SHOUT');
      },
    };
    const resolved = objectIn(new App({ resolvers: [upper] }), { metadata: { name: 'r' }, data: { a: 'shout' } });
    expect(renderApiObject(resolved).data).toEqual({ a: 'SHOUT' });

    const odd = objectIn(new App(), { metadata: { name: 'n' }, data: { a: Number.NaN, when: new Date(0) } });
    expect(() => renderApiObject(odd)).toThrow(/Failed serializing construct at path 'chart\/o'/);
  });
});

// renderApiObject reads cdk8s's private fields (an ApiObject's props and patches, its metadata's
// _additionalAttributes): it saves about 15% of a fleet's synth. cdk8s is pinned to one minor
// version for it (package.json: ~2.70); these tests fail when an update changes that shape, which
// would otherwise only make synth silently slower (every object through toJson()).
describe('the cdk8s internals renderApiObject reads', () => {
  test('the installed cdk8s is the pinned minor version', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file, read as node resolves it
    const pinned = require(path.join(ROOT, 'package.json')).peerDependencies.cdk8s as string;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a JSON file, read as node resolves it
    const installed = require('cdk8s/package.json').version as string;
    expect(pinned).toMatch(/^~2\.70\.\d+$/);
    expect(installed).toMatch(/^2\.70\./);
  });

  test('a plain ApiObject has them, and renders without toJson()', () => {
    const props = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { k: 'v' } };
    const object = new ApiObject(new Chart(new App(), 'chart'), 'o', props);
    const internals = object as unknown as { props: unknown; patches: unknown };
    expect(internals.props).toBe(props);
    expect(internals.patches).toEqual([]);
    expect((object.metadata as unknown as { _additionalAttributes: unknown })._additionalAttributes).toEqual({ name: 'c', labels: { a: 'b' } });
    const toJson = jest.spyOn(object, 'toJson');
    expect(renderApiObject(object)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { labels: { a: 'b' }, name: 'c' }, data: { k: 'v' } });
    expect(toJson).not.toHaveBeenCalled();
  });
});
