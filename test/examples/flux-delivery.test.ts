import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { PRUNE_PROTECTION, ROOT } from '../util';

const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

/** Runs the real cdk8s CLI on an example app with HCP_CDK_DELIVERY=flux, into a fresh directory. */
function fluxSynth(app: string): { outdir: string; status: number | null; output: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-flux-'));
  const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', `node ${app}`, '--output', outdir], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, HCP_CDK_DELIVERY: 'flux' },
  });
  return { outdir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file under `dir`, relative path to content. */
function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

const folderOf = (file: string) => file.slice(0, file.lastIndexOf('/'));

/** What every example must show under Flux: it synthesizes, validates clean, re-synthesizes identically, and Flux can take each folder. */
function describeFluxExample(title: string, app: string, hubs: string[], clusters: number, guests: number): void {
  describe(title, () => {
    const first = fluxSynth(app);
    const second = fluxSynth(app);
    const tree = readTree(first.outdir);
    const objects = [...tree].filter(([name]) => !name.endsWith('kustomization.yaml')).map(([name, text]) => ({ path: name, object: YAML.parse(text) }));
    const kustomizations = objects.filter((o) => o.object.kind === 'Kustomization');

    test('synthesizes, with a bootstrap folder per management cluster', () => {
      expect(first.output).not.toMatch(/Error/);
      expect(first.status).toBe(0);
      expect([...new Set([...tree.keys()].filter((f) => f.startsWith('flux/')).map((f) => f.split('/')[1]))].sort()).toEqual(hubs);
    });

    test('every object passes hcp-cdk validate (CRD schemas and CEL rules), the Kustomizations and GitRepositories included', () => {
      const result = spawnSync(process.execPath, ['build/bin/hcp-cdk.js', 'validate', first.outdir], { cwd: ROOT, encoding: 'utf8' });
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(new RegExp(`^hcp-cdk validate: ${objects.length} objects in ${tree.size} files, 0 problems`));
      expect(result.status).toBe(0);
    });

    test('re-synth is byte-identical', () => {
      expect(second.status).toBe(0);
      expect(readTree(second.outdir)).toEqual(tree);
    });

    test("each kustomization.yaml lists exactly its folder's own files, and every folder with files has one", () => {
      const folders = new Set(objects.map((o) => folderOf(o.path)));
      const listed = [...tree.keys()].filter((f) => f.endsWith('/kustomization.yaml')).map(folderOf);
      expect(listed.sort()).toEqual([...folders].sort());
      for (const folder of folders) {
        const own = objects.filter((o) => folderOf(o.path) === folder).map((o) => o.path.slice(folder.length + 1)).sort();
        expect([folder, YAML.parse(tree.get(`${folder}/kustomization.yaml`)!).resources]).toEqual([folder, own]);
      }
    });

    test('one Kustomization per folder with files, pointed at it; every dependsOn names one of them', () => {
      const folders = new Set(objects.map((o) => folderOf(o.path)));
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
        expect(applier.spec.healthChecks).toContainEqual({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: cluster.object.metadata.name, namespace: cluster.object.metadata.namespace });
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
