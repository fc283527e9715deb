import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cdk8sSynth, isRolloutRecord, readTree, testValidAndRepeatable } from './example-synth';

interface Written {
  readonly file: string;
  readonly object: any;
}

const wave = (o: Written): number => Number(o.object.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
const syncOptions = (o: Written): string[] => (o.object.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '').split(',');

/** What the Argo CD mode must show on an example: the Must-shows of every mode, in Argo CD's terms. */
function describeArgoCdExample(title: string, app: string, expect_: { hubs: string[]; units: string[]; guests: number }): void {
  describe(title, () => {
    const first = cdk8sSynth(app, 'argocd');
    const second = cdk8sSynth(app, 'argocd');
    const plain = cdk8sSynth(app, 'kustomize');
    const tree = readTree(first.outdir);
    const objects: Written[] = [...tree].filter(([file]) => !file.endsWith('/kustomization.yaml')).map(([file, text]) => ({ file, object: YAML.parse(text) }));
    const applications = objects.filter((o) => o.object.kind === 'Application');
    /** The objects an Application syncs: its path (under the example's stand-in `dist`), whose kustomization.yaml lists its own files only. */
    const synced = (application: Written): Written[] => {
      const folder = application.object.spec.source.path.replace(/^dist\//, '');
      return objects.filter((o) => path.posix.dirname(o.file) === folder);
    };

    test('synthesizes through the cdk8s CLI with HCP_CDK_DELIVERY=argocd', () => {
      expect(first.output).not.toMatch(/Error/);
      expect(first.status).toBe(0);
    });

    testValidAndRepeatable(first, second, tree, objects.length);

    test("the folders are the kustomize mode's, plus one bootstrap folder per management cluster", () => {
      expect(plain.status).toBe(0);
      const plainFiles = [...readTree(plain.outdir).keys()].sort();
      expect([...tree.keys()].filter((f) => !f.startsWith('argocd/')).sort()).toEqual(plainFiles);
      expect([...new Set([...tree.keys()].filter((f) => f.startsWith('argocd/')).map((f) => f.split('/')[1]))].sort()).toEqual(expect_.hubs);
    });

    test("every folder's kustomization.yaml lists exactly its own files, no sub-folder; argocd/ itself has none (each hub applies its own), nor has the rollout records' folder, which no Application delivers", () => {
      // Every folder that holds files (a folder with only sub-folders has no kustomization.yaml).
      const folders = new Set([...tree.keys()].filter((f) => !isRolloutRecord(f)).map((f) => path.posix.dirname(f)));
      expect([...tree.keys()].filter((f) => isRolloutRecord(f) && f.endsWith('kustomization.yaml'))).toEqual([]);
      expect(applications.filter((a) => isRolloutRecord(`${a.object.spec.source.path.replace(/^dist\//, '')}/`))).toEqual([]);
      folders.add('argocd');
      expect(folders.has('argocd')).toBe(true);
      expect(tree.has('argocd/kustomization.yaml')).toBe(false);
      folders.delete('argocd');
      for (const folder of folders) {
        const kustomization = YAML.parse(tree.get(`${folder}/kustomization.yaml`)!);
        const own = [...tree.keys()].filter((f) => path.posix.dirname(f) === folder && f !== `${folder}/kustomization.yaml`).map((f) => path.posix.basename(f));
        expect([folder, kustomization?.resources ?? []]).toEqual([folder, own.sort()]);
      }
    });

    test("one Application per unit (the hub's own folder, each hosted cluster's and inventory's, each guest), each in its own project, delivering a folder that exists, none with a finalizer", () => {
      expect(
        applications
          .filter((a) => a.object.spec.destination.server === 'https://kubernetes.default.svc')
          .map((a) => a.object.metadata.name)
          .sort(),
      ).toEqual(expect_.units);
      expect(applications.filter((a) => a.object.spec.destination.name !== undefined)).toHaveLength(expect_.guests);
      for (const application of applications) {
        expect(application.object.metadata.finalizers).toBeUndefined();
        expect(application.object.spec.syncPolicy.automated).toEqual({ prune: true, selfHeal: true });
        expect(application.object.spec.syncPolicy.syncOptions).toEqual(expect.arrayContaining(['ServerSideApply=true', 'FailOnSharedResource=true']));
        expect(application.object.spec.project).toBe(application.object.metadata.name);
        expect([application.file, synced(application).length > 0]).toEqual([application.file, true]);
      }
    });

    test('a management Application skips the dry run of kinds whose CRD is missing exactly when its folder installs an operator by Subscription', () => {
      for (const application of applications.filter((a) => a.object.spec.destination.server)) {
        const installs = synced(application).some((o) => o.object.kind === 'Subscription' && o.object.apiVersion.startsWith('operators.coreos.com/'));
        const skips = application.object.spec.syncPolicy.syncOptions.includes('SkipDryRunOnMissingResource=true');
        expect([application.file, skips]).toEqual([application.file, installs]);
      }
    });

    test('HostedClusters, NodePools and their Secrets are never pruned or deleted with their Application', () => {
      const guarded = objects.filter(
        (o) =>
          ['HostedCluster', 'NodePool'].includes(o.object.kind) ||
          (['Secret', 'ExternalSecret', 'ConfigMap'].includes(o.object.kind) && objects.some((c) => c.object.kind === 'HostedCluster' && path.dirname(c.file) === path.dirname(o.file))),
      );
      expect(guarded.length).toBeGreaterThan(0);
      for (const o of guarded) expect([o.file, syncOptions(o)]).toEqual([o.file, expect.arrayContaining(['Prune=false', 'Delete=false'])]);
    });

    test('inside each management Application: namespaces first, Secrets and ConfigMaps before the HostedCluster, the inventory and the HostedCluster before its NodePools', () => {
      for (const hub of applications.filter((a) => a.object.spec.destination.server)) {
        const inside = synced(hub);
        for (const namespace of inside.filter((o) => o.object.kind === 'Namespace')) {
          for (const o of inside.filter((x) => x.object.metadata.namespace === namespace.object.metadata.name)) {
            expect([o.file, wave(namespace) < wave(o)]).toEqual([o.file, true]);
          }
        }
        for (const cluster of inside.filter((o) => o.object.kind === 'HostedCluster')) {
          const folder = path.dirname(cluster.file);
          const secrets = inside.filter((o) => ['Secret', 'ExternalSecret', 'ConfigMap'].includes(o.object.kind) && path.dirname(o.file) === folder);
          const pools = inside.filter((o) => o.object.kind === 'NodePool' && o.object.spec.clusterName === cluster.object.metadata.name);
          expect(secrets.length).toBeGreaterThan(0);
          expect(pools.length).toBeGreaterThan(0);
          for (const secret of secrets) expect([secret.file, wave(secret) < wave(cluster)]).toEqual([secret.file, true]);
          for (const pool of pools) expect([pool.file, wave(cluster) < wave(pool)]).toEqual([pool.file, true]);
          for (const host of inside.filter((o) => ['BareMetalHost', 'InfraEnv', 'NMStateConfig'].includes(o.object.kind))) {
            for (const pool of pools) expect([host.file, wave(host) < wave(pool)]).toEqual([host.file, true]);
          }
        }
      }
    });

    test('inside each guest Application: the Subscription before the custom resources of its operator, which skip the dry run', () => {
      for (const guest of applications.filter((a) => a.object.spec.destination.name)) {
        const inside = synced(guest);
        const [subscription] = inside.filter((o) => o.object.kind === 'Subscription');
        const served = inside.filter((o) => o.object.apiVersion.startsWith('metallb.io/'));
        expect(served.length).toBeGreaterThan(0);
        for (const resource of served) {
          expect([resource.file, wave(subscription) < wave(resource)]).toEqual([resource.file, true]);
          expect([resource.file, syncOptions(resource)]).toEqual([resource.file, expect.arrayContaining(['SkipDryRunOnMissingResource=true'])]);
        }
      }
    });

    test("each guest Application is created with its hosted cluster's, after the hub's, and only ACM's placement of that hub lets it in", () => {
      for (const guest of applications.filter((a) => a.object.spec.destination.name)) {
        const hubFolder = guest.file.split('/')[1];
        const clusterName = guest.object.spec.destination.name;
        const [cluster] = applications.filter((a) => a.file.startsWith(`argocd/${hubFolder}/`) && synced(a).some((o) => o.object.kind === 'HostedCluster' && o.object.metadata.name === clusterName));
        const [hub] = applications.filter((a) => a.file.startsWith(`argocd/${hubFolder}/`) && a.object.metadata.name === hubFolder);
        expect(wave(hub)).toBeLessThan(wave(guest));
        expect(wave(cluster)).toBe(wave(guest));
        const placement = objects.find((o) => o.file.startsWith(`argocd/${hubFolder}/`) && o.object.kind === 'Placement')!;
        expect(placement.object.spec.predicates[0].requiredClusterSelector.labelSelector.matchExpressions[0].values).toContain(clusterName);
      }
    });
  });
}

const clusterUnits = (hub: string, from: number) => Array.from({ length: 12 }, (_, i) => `${hub}-c${String(from + 2 * i).padStart(5, '0')}`);
describeArgoCdExample('default example (agent lab vcluster2) delivered by Argo CD', 'build/examples/agent-lab/main.js', {
  hubs: ['hub'],
  units: ['argocd-hub', 'hub', 'hub-hardware-inventory', 'hub-vcluster2'],
  guests: 1,
});
describeArgoCdExample('the example fleet delivered by Argo CD', 'build/examples/fleet/main.js', {
  hubs: ['hub-0', 'hub-1'],
  units: ['argocd-hub-0', 'argocd-hub-1', 'hub-0', ...clusterUnits('hub-0', 0), 'hub-1', ...clusterUnits('hub-1', 1)].sort(),
  guests: 8,
});

describe("the agent lab's bootstrap folder", () => {
  const { outdir, status } = cdk8sSynth('build/examples/agent-lab/main.js', 'argocd');
  const read = (file: string) => YAML.parse(fs.readFileSync(path.join(outdir, file), 'utf8'));

  test("holds the hub and guest Applications and ACM's registration of vcluster2, listed for oc apply -k", () => {
    expect(status).toBe(0);
    expect(read('argocd/hub/kustomization.yaml').resources).toEqual([
      '40-application-openshift-gitops_argocd-hub.yaml',
      '40-application-openshift-gitops_hub-hardware-inventory.yaml',
      '40-application-openshift-gitops_hub-vcluster2.yaml',
      '40-application-openshift-gitops_hub.yaml',
      '40-application-openshift-gitops_vcluster2-guest.yaml',
      '40-appproject-openshift-gitops_argocd-hub.yaml',
      '40-appproject-openshift-gitops_default.yaml',
      '40-appproject-openshift-gitops_hub-hardware-inventory.yaml',
      '40-appproject-openshift-gitops_hub-vcluster2.yaml',
      '40-appproject-openshift-gitops_hub.yaml',
      '40-appproject-openshift-gitops_vcluster2-guest.yaml',
      '40-gitopscluster-openshift-gitops_hub-hosted-clusters.yaml',
      '40-managedclustersetbinding-openshift-gitops_default.yaml',
      '40-placement-openshift-gitops_hub-hosted-clusters.yaml',
    ]);
    expect(read('argocd/hub/40-application-openshift-gitops_vcluster2-guest.yaml').spec).toEqual({
      destination: { name: 'vcluster2', namespace: 'metallb' },
      project: 'vcluster2-guest',
      source: { path: 'dist/vcluster2-guest', repoURL: 'https://git.example.com/platform/hcp-estate.git', targetRevision: 'HEAD' },
      syncPolicy: {
        automated: { prune: true, selfHeal: true },
        retry: { backoff: { duration: '30s', factor: 2, maxDuration: '10m' }, limit: 5 },
        syncOptions: ['ServerSideApply=true', 'FailOnSharedResource=true'],
      },
    });
  });
});
