import * as YAML from 'yaml';
import { cdk8sSynth, isRolloutRecord, readTree, testValidAndRepeatable } from './example-synth';
import { PRUNE_PROTECTION } from '../util';

const folderOf = (file: string) => file.slice(0, file.lastIndexOf('/'));

/** What every example must show under Flux: it synthesizes, validates clean, re-synthesizes identically, and Flux can take each folder. */
function describeFluxExample(title: string, app: string, hubs: string[], clusters: number, guests: number): void {
  describe(title, () => {
    const first = cdk8sSynth(app, 'flux');
    const second = cdk8sSynth(app, 'flux');
    const tree = readTree(first.outdir);
    const written = [...tree].filter(([name]) => !name.endsWith('kustomization.yaml')).map(([name, text]) => ({ path: name, object: YAML.parse(text) }));
    // The rollout records (rollouts/) are applied by no Kustomization: what is checked below is what Flux delivers.
    const objects = written.filter((o) => !isRolloutRecord(o.path));
    const kustomizations = objects.filter((o) => o.object.kind === 'Kustomization');

    test('synthesizes, with a bootstrap folder per management cluster', () => {
      expect(first.output).not.toMatch(/Error/);
      expect(first.status).toBe(0);
      expect([...new Set([...tree.keys()].filter((f) => f.startsWith('flux/')).map((f) => f.split('/')[1]))].sort()).toEqual(hubs);
    });

    testValidAndRepeatable(first, second, tree, written.length);

    test('no Kustomization applies the rollout records, and their folder has no kustomization.yaml', () => {
      expect(kustomizations.filter((k) => isRolloutRecord(`${k.object.spec.path.replace(/^\.\/dist\//, '')}/`))).toEqual([]);
      expect([...tree.keys()].filter((f) => isRolloutRecord(f) && f.endsWith('kustomization.yaml'))).toEqual([]);
    });

    test("each kustomization.yaml lists exactly its folder's own files, and every folder with files has one", () => {
      const folders = new Set(objects.map((o) => folderOf(o.path)));
      const listed = [...tree.keys()].filter((f) => f.endsWith('/kustomization.yaml')).map(folderOf);
      expect(listed.sort()).toEqual([...folders].sort());
      for (const folder of folders) {
        const own = objects
          .filter((o) => folderOf(o.path) === folder)
          .map((o) => o.path.slice(folder.length + 1))
          .sort();
        expect([folder, YAML.parse(tree.get(`${folder}/kustomization.yaml`)!).resources]).toEqual([folder, own]);
      }
    });

    test('one Kustomization per folder with files, pointed at it, but the admission policy the admin applies; every dependsOn names one of them', () => {
      const folders = new Set(objects.map((o) => folderOf(o.path)).filter((folder) => !/^flux\/[^/]+\/admission$/.test(folder)));
      expect(kustomizations.map((k) => k.object.spec.path.replace(/^\.\/dist\//, '')).sort()).toEqual([...folders].sort());
      for (const k of kustomizations) {
        const bootstrap = k.path.split('/')[1];
        for (const d of k.object.spec.dependsOn ?? []) {
          const found = kustomizations.filter((o) => o.path.split('/')[1] === bootstrap && o.object.metadata.name === d.name && o.object.metadata.namespace === d.namespace);
          expect([k.object.metadata.name, d.name, found.length]).toEqual([k.object.metadata.name, d.name, 1]);
        }
      }
    });

    test('each HostedCluster is protected and its folder waits for it to be Available; each guest waits for that folder', () => {
      const hostedClusters = objects.filter((o) => o.object.kind === 'HostedCluster');
      expect(hostedClusters).toHaveLength(clusters);
      const byPath = new Map(kustomizations.map((k) => [k.object.spec.path, k.object]));
      for (const cluster of hostedClusters) {
        expect(cluster.object.metadata.annotations).toMatchObject(PRUNE_PROTECTION);
        const applier = byPath.get(`./dist/${folderOf(cluster.path)}`)!;
        expect(applier.spec.healthChecks).toContainEqual({
          apiVersion: 'hypershift.openshift.io/v1beta1',
          kind: 'HostedCluster',
          name: cluster.object.metadata.name,
          namespace: cluster.object.metadata.namespace,
        });
        expect(applier.spec.healthCheckExprs.map((e: any) => e.kind)).toEqual(['HostedCluster']);
      }
      const guestOperators = kustomizations.filter((k) => k.object.spec.kubeConfig && k.object.metadata.name.endsWith('-guest-operators'));
      expect(guestOperators).toHaveLength(guests);
      for (const { object } of guestOperators) {
        const name = object.metadata.name.replace(/-guest-operators$/, '');
        expect(object.spec.kubeConfig).toEqual({ secretRef: { name: `${name}-admin-kubeconfig`, key: 'kubeconfig' } });
        const [dependency] = object.spec.dependsOn;
        const cluster = hostedClusters.find((c) => c.object.metadata.name === name)!;
        expect(byPath.get(`./dist/${folderOf(cluster.path)}`)!.metadata).toEqual({ name: dependency.name, namespace: dependency.namespace });
        expect(object.metadata.namespace).toBe(cluster.object.metadata.namespace);
      }
    });
  });
}

describeFluxExample('the default example (agent lab vcluster2) under HCP_CDK_DELIVERY=flux', 'build/examples/agent-lab/main.js', ['hub'], 1, 1);
describeFluxExample('the example fleet under HCP_CDK_DELIVERY=flux', 'build/examples/fleet/main.js', ['hub-0', 'hub-1'], 24, 8);
