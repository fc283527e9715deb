// Raw ApiObjects of kinds hcp-cdk knows nothing about, in a ManagementCluster and in a hosted
// cluster's guest chart, reach their clusters under every delivery: in the apply order of kinds
// the table does not name, pruned like any object (no protection), skipped at Argo CD's dry run in
// a guest (whose CRD may come with the same sync), and with the RBAC plural their CRD gives.
import * as YAML from 'yaml';
import { IDelivery } from '../../lib';
import { DELIVERIES, GROUP, rawObjectsApp } from './raw-objects-app';

interface Written {
  /** Every object written as a file, by path. */
  readonly files: Map<string, any>;
  /** Objects an ACM Policy carries to a hosted cluster. */
  readonly carried: any[];
}

function synth(delivery: IDelivery): Written {
  const app = rawObjectsApp(delivery);
  const files = new Map<string, any>();
  const carried: any[] = [];
  for (const file of app.synthesize()) {
    if (file.path.endsWith('/kustomization.yaml')) continue;
    const json = YAML.parse(file.text);
    files.set(file.path, json);
    for (const template of json.kind === 'Policy' ? json.spec['policy-templates'] : []) {
      carried.push(...(template.objectDefinition.spec['object-templates'] ?? []).map((t: any) => t.objectDefinition));
    }
  }
  return { files, carried };
}

describe.each(Object.keys(DELIVERIES))('raw objects of unknown kinds under %s delivery', (mode) => {
  const written = synth(DELIVERIES[mode]());
  const filesOf = (kind: string, name: string) => [...written.files].filter(([, o]) => o.kind === kind && o.metadata.name === name);

  test.each([
    ['Chassis', 'rack-hub'],
    ['Gizmo', 'gizmo-hub'],
  ])("the hub's %s is a file of the hub's folder, ranked with the kinds the table does not name, and not protected", (kind, name) => {
    const found = filesOf(kind, name);
    expect(found.map(([path]) => path)).toEqual([expect.stringMatching(new RegExp(`^hub/40-${kind.toLowerCase()}-tools_${name}\\.yaml$`))]);
    const annotations = found[0][1].metadata.annotations ?? {};
    expect(annotations['kustomize.toolkit.fluxcd.io/prune']).toBeUndefined();
    expect(annotations['argocd.argoproj.io/sync-options'] ?? '').not.toContain('Prune=false');
  });

  test.each([
    ['Chassis', 'rack-guest'],
    ['Gizmo', 'gizmo-guest'],
  ])("the guest's %s reaches the hosted cluster", (kind, name) => {
    if (mode === 'acm') {
      expect(written.carried.filter((o) => o.kind === kind && o.metadata.name === name)).toHaveLength(1);
      return;
    }
    const found = filesOf(kind, name);
    expect(found.map(([path]) => path)).toEqual([expect.stringMatching(new RegExp(`^c1-guest/(resources/)?40-${kind.toLowerCase()}-tools_${name}\\.yaml$`))]);
    const options = found[0][1].metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '';
    // Argo CD dry-runs a sync first; the kind's CRD may only come with it.
    if (mode === 'argocd') expect(options).toContain('SkipDryRunOnMissingResource=true');
    expect(options).not.toContain('Prune=false');
  });

  if (mode === 'flux') {
    test("the RBAC of Flux's units names the kind by the plural its CRD gives", () => {
      const rules = [...written.files.values()].filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole').flatMap((o) => o.rules ?? []);
      const resources = rules.filter((r: any) => r.apiGroups.includes(GROUP)).flatMap((r: any) => r.resources);
      expect(resources).toContain('chassis');
      expect(resources).toContain('gizmos');
      expect(resources).not.toContain('chassises');
    });
  }
});
