import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject, JsonPatch } from 'cdk8s';
import * as YAML from 'yaml';
import { ClusterPlatform, HcpApp, HcpAppProps, HostedCluster, KustomizeDelivery, ManagementCluster, Release, SecretSource } from '../../lib';
import { synthFiles, synthProblems } from '../util';

function agentCluster(scope: ManagementCluster, id: string): HostedCluster {
  return new HostedCluster(scope, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
  });
}

describe('HcpApp', () => {
  test('lays out one folder per management cluster and one per hosted cluster, ranked for apply', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    agentCluster(hub, 'one').addNodePool('workers');
    agentCluster(hub, 'two');
    expect(synthFiles(app).map((f) => f.path)).toEqual([
      'hub/00-namespace-clusters.yaml',
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/60-nodepool-clusters_one-workers.yaml',
      'hub/two/50-hostedcluster-clusters_two.yaml',
    ]);
  });

  test('clusters sharing a namespace share one Namespace object', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    agentCluster(hub, 'one');
    agentCluster(hub, 'two');
    expect(synthFiles(app).filter((f) => /^kind: Namespace$/m.test(f.text))).toHaveLength(1);
  });

  test('fails when two objects would write the same file', () => {
    const problems = synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      new ApiObject(hub, 'a', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same', namespace: 'ns' } });
      new ApiObject(hub, 'b', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'same', namespace: 'ns' } });
    });
    expect(problems).toEqual(['hub/b: writes hub/20-configmap-ns_same.yaml, as hub/a does; two objects share kind, namespace and name']);
  });

  test('fails with every construct validation at once and writes nothing', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-app-'));
    const app = new HcpApp({ outdir });
    const hub = new ManagementCluster(app, 'hub');
    agentCluster(hub, 'one').node.addValidation({ validate: () => ['first problem'] });
    agentCluster(hub, 'two').node.addValidation({ validate: () => ['second problem'] });
    expect(() => app.synth()).toThrow('2 problems:\n  - hub/one: first problem\n  - hub/two: second problem');
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('reports construct problems and schema problems of one synth together, in one list', () => {
    const problems = synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      agentCluster(hub, 'one').node.addValidation({ validate: () => ['a cross-construct problem'] });
      agentCluster(hub, 'two').addOverride('spec.infraID', 'Not_Valid');
    });
    expect(problems).toEqual([
      'hub/one: a cross-construct problem',
      expect.stringMatching(/^hub\/two\/Resource: HostedCluster clusters\/two: spec\.infraID: infraID must consist of lowercase alphanumeric characters/),
    ]);
  });

  test('fails when several clusters are broken and another breaks its schema: one synth reports all of them, and writes nothing', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-app-'));
    const app = new HcpApp({ outdir });
    const hub = new ManagementCluster(app, 'hub');
    // Each constructor keeps its problems for synth instead of stopping the app at the first.
    new HostedCluster(hub, 'Bad_A', { release: Release.fromVersion('4.17.0'), pullSecret: SecretSource.fromExistingSecret('pull-secret'), platform: ClusterPlatform.kubevirt() });
    agentCluster(hub, 'b').addNodePool('workers', { replicas: -1 });
    agentCluster(hub, 'c').addOverride('spec.infraID', 'Not_Valid');
    expect(() => app.synth()).toThrow(
      [
        '3 problems:',
        '  - hub/Bad_A: name ("Bad_A") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
        '  - hub/b/workers: replicas (-1) must be a whole number >= 0',
        '  - hub/c/Resource: HostedCluster clusters/c: spec.infraID: infraID must consist of lowercase alphanumeric characters or \'-\', start and end with an alphanumeric character, and be between 1 and 253 characters (value: "Not_Valid")',
      ].join('\n'),
    );
    expect(fs.readdirSync(outdir)).toEqual([]);
  });

  test('leaves out the objects of a construct with problems of its own, which would say the same again', () => {
    const problems = synthProblems((app) => {
      const one = agentCluster(new ManagementCluster(app, 'hub'), 'one');
      one.node.addValidation({ validate: () => ['a cross-construct problem'] });
      one.addOverride('spec.infraID', 'Not_Valid');
    });
    expect(problems).toEqual(['hub/one: a cross-construct problem']);
  });

  test('synth replaces the previous output in one piece', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-app-'));
    // An output of an older hcp-cdk (no manifest) owns the YAML inside its folders.
    fs.mkdirSync(path.join(outdir, 'hub'));
    fs.writeFileSync(path.join(outdir, 'hub', 'stale.yaml'), 'stale: true\n');
    const app = new HcpApp({ outdir });
    agentCluster(new ManagementCluster(app, 'hub'), 'one');
    app.synth();
    expect(fs.existsSync(path.join(outdir, 'hub', 'stale.yaml'))).toBe(false);
    expect(fs.readFileSync(path.join(outdir, 'hub', 'one', '50-hostedcluster-clusters_one.yaml'), 'utf8')).toMatch(/^kind: HostedCluster$/m);
  });

  describe('checks every object against its CRD before writing', () => {
    test('fails on what an escape hatch broke, naming construct, object, field, rule message and value, and writes nothing', () => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-app-'));
      const app = new HcpApp({ outdir });
      const cluster = agentCluster(new ManagementCluster(app, 'hub'), 'one');
      cluster.addOverride('spec.infraID', 'Not_Valid');
      ApiObject.of(cluster.addNodePool('workers').resource).addJsonPatch(JsonPatch.add('/spec/colour', 'red'));
      expect(() => app.synth()).toThrow(
        [
          '2 problems:',
          '  - hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID must consist of lowercase alphanumeric characters or \'-\', start and end with an alphanumeric character, and be between 1 and 253 characters (value: "Not_Valid")',
          '  - hub/one/workers/Resource: NodePool clusters/one-workers: spec.colour: unknown field "spec.colour": the schema has no such field (strict field validation rejects it; without it the field is silently dropped) (value: "red")',
        ].join('\n'),
      );
      expect(fs.readdirSync(outdir)).toEqual([]);
    });

    test('compares with the previous output, so changing an immutable field fails synth', () => {
      const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-app-'));
      const first = new HcpApp({ outdir });
      agentCluster(new ManagementCluster(first, 'hub'), 'one');
      first.synth();

      const build = (props: HcpAppProps) => {
        const app = new HcpApp({ outdir, ...props });
        agentCluster(new ManagementCluster(app, 'hub'), 'one').addOverride('spec.infraID', 'one-renamed');
        return app;
      };
      expect(() => build({}).synth()).toThrow('hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID is immutable (value: "one-renamed")');
      expect(() => build({}).synthesize()).not.toThrow();
      expect(() => build({}).synthesize({ compareWithPreviousOutput: true })).toThrow(/infraID is immutable/);
      expect(() => build({ compareWithPreviousOutput: false }).synth()).not.toThrow();
    });

    test('validateObjects: false skips the check', () => {
      const app = new HcpApp({ validateObjects: false });
      agentCluster(new ManagementCluster(app, 'hub'), 'one').addOverride('spec.infraID', 'Not_Valid');
      expect(() => synthFiles(app)).not.toThrow();
    });
  });

  describe('Argo CD sync waves', () => {
    test('annotate every object with its apply rank', () => {
      const app = new HcpApp();
      agentCluster(new ManagementCluster(app, 'hub'), 'one').addNodePool('workers');
      const waves = synthFiles(app).map((f) => [f.path, YAML.parse(f.text).metadata.annotations['argocd.argoproj.io/sync-wave']]);
      expect(waves).toEqual([
        ['hub/00-namespace-clusters.yaml', '0'],
        ['hub/one/50-hostedcluster-clusters_one.yaml', '50'],
        ['hub/one/60-nodepool-clusters_one-workers.yaml', '60'],
      ]);
    });

    test('keep a wave the object sets itself, and can be turned off', () => {
      const build = (syncWaves: boolean) => {
        const app = new HcpApp({ delivery: new KustomizeDelivery({ syncWaves }) });
        new ApiObject(new ManagementCluster(app, 'hub'), 'cm', {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'x', namespace: 'ns', annotations: { 'argocd.argoproj.io/sync-wave': '-1' } },
        });
        new ApiObject(app.node.findChild('hub'), 'other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'y', namespace: 'ns' } });
        return synthFiles(app).map((f) => YAML.parse(f.text).metadata.annotations?.['argocd.argoproj.io/sync-wave']);
      };
      expect(build(true)).toEqual(['-1', '20']);
      expect(build(false)).toEqual(['-1', undefined]);
    });
  });

  describe('guest folders', () => {
    test('objects for inside a hosted cluster go to <cluster>-guest, beside the management folder', () => {
      const app = new HcpApp();
      const cluster = agentCluster(new ManagementCluster(app, 'hub'), 'one');
      new ApiObject(cluster.guest, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'openshift-config' } });
      expect(cluster.guest).toBe(cluster.guest);
      expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/00-namespace-clusters.yaml', 'hub/one/50-hostedcluster-clusters_one.yaml', 'one-guest/20-configmap-openshift-config_x.yaml']);
    });

    test('fails when two hosted clusters of one app share a name and both want a guest folder', () => {
      const app = new HcpApp();
      const a = agentCluster(new ManagementCluster(app, 'hub-a'), 'same');
      const b = agentCluster(new ManagementCluster(app, 'hub-b'), 'same');
      expect(a.guest.node.id).toBe('same-guest');
      expect(() => b.guest).toThrow('hub-b/same: guest folder "same-guest" is already taken by same-guest; two hosted clusters named "same" in one app need separate apps');
    });
  });

  test('writes a kustomization.yaml in each folder below the root, listing files and sub-folders in apply order', () => {
    const app = new HcpApp();
    agentCluster(new ManagementCluster(app, 'hub'), 'one').addNodePool('workers');
    const files = app.synthesize();
    expect(files.map((f) => f.path)).toEqual([
      'hub/00-namespace-clusters.yaml',
      'hub/kustomization.yaml',
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/60-nodepool-clusters_one-workers.yaml',
      'hub/one/kustomization.yaml',
    ]);
    expect(files.find((f) => f.path === 'hub/kustomization.yaml')!.text).toBe(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - 00-namespace-clusters.yaml\n  - one\n',
    );
    expect(files.find((f) => f.path === 'hub/one/kustomization.yaml')!.text).toBe(
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - 50-hostedcluster-clusters_one.yaml\n  - 60-nodepool-clusters_one-workers.yaml\n',
    );
    const without = new HcpApp({ delivery: new KustomizeDelivery({ kustomizations: false }) });
    agentCluster(new ManagementCluster(without, 'hub'), 'one');
    expect(without.synthesize().map((f) => f.path)).toEqual(['hub/00-namespace-clusters.yaml', 'hub/one/50-hostedcluster-clusters_one.yaml']);
  });
});
