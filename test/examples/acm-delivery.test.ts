import * as path from 'path';
import * as YAML from 'yaml';
import { cdk8sSynth, expectKustomizationsListTheirFolders, foldersOf, isRolloutRecord, readTree, testValidAndRepeatable } from './example-synth';

/** What every delivery mode must show on an example: synth, validate clean, re-synth identically, kustomizations that list their folders. */
function describeAcmExample(title: string, app: string, check: (objects: Map<string, any>) => void): void {
  describe(title, () => {
    const first = cdk8sSynth(app, 'acm');
    const second = cdk8sSynth(app, 'acm');
    const tree = readTree(first.outdir);
    const objects = new Map([...tree].filter(([name]) => !name.endsWith('kustomization.yaml')).map(([name, text]) => [name, YAML.parse(text)]));

    test('synthesizes through the cdk8s CLI', () => {
      expect(first.output).not.toMatch(/Error/);
      expect(first.status).toBe(0);
    });

    testValidAndRepeatable(first, second, tree, objects.size);

    test("every folder below the root has a kustomization.yaml listing exactly its files and sub-folders (but the rollout records', applied by none)", () => {
      const folders = foldersOf(new Map([...tree].filter(([file]) => !isRolloutRecord(file))));
      expect([...tree.keys()].filter((f) => isRolloutRecord(f) && f.endsWith('kustomization.yaml'))).toEqual([]);
      expect(folders.size).toBeGreaterThan(2);
      expectKustomizationsListTheirFolders(tree, folders);
    });

    test('writes no guest folder: the guest objects are in policies, each Policy bound to the Placement of its hosted cluster', () => {
      expect([...tree.keys()].filter((f) => f.split('/')[0].endsWith('-guest'))).toEqual([]);
      const policies = [...objects].filter(([, o]) => o.kind === 'Policy');
      expect(policies.length).toBeGreaterThan(0);
      for (const [file, p] of policies) {
        const folder = path.posix.dirname(file);
        expect(folder).toMatch(/^[^/]+\/policies$/);
        const binding = [...objects].find(([f, o]) => o.kind === 'PlacementBinding' && path.posix.dirname(f) === folder && o.subjects.some((s: any) => s.name === p.metadata.name));
        expect([file, binding !== undefined]).toEqual([file, true]);
        const placement = objects.get(`${folder}/40-placement-hcp-policies_${binding![1].placementRef.name}.yaml`);
        expect(placement.spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels.name).toMatch(/^[a-z0-9-]+$/);
      }
    });

    test('every resources Policy that follows an operators Policy depends on it being compliant', () => {
      for (const [, p] of [...objects].filter(([, o]) => o.kind === 'Policy' && o.metadata.name.endsWith('-resources'))) {
        const operatorsName = p.metadata.name.replace(/-resources$/, '-operators');
        const operators = [...objects.values()].find((o) => o.kind === 'Policy' && o.metadata.name === operatorsName);
        expect(p.spec.dependencies).toEqual(
          operators
            ? [
                {
                  apiVersion: 'policy.open-cluster-management.io/v1',
                  kind: 'Policy',
                  name: operatorsName,
                  namespace: 'hcp-policies',
                  compliance: 'Compliant',
                },
              ]
            : undefined,
        );
      }
    });

    test('every OperatorPolicy waits for the ConfigurationPolicy of its Policy and removes nothing when it goes', () => {
      const operatorsPolicies = [...objects.values()].filter((o) => o.kind === 'Policy' && o.metadata.name.endsWith('-operators'));
      expect(operatorsPolicies.length).toBeGreaterThan(0);
      for (const p of operatorsPolicies) {
        const [first, ...rest] = p.spec['policy-templates'];
        expect([p.metadata.name, first.objectDefinition.kind, first.objectDefinition.metadata.name]).toEqual([p.metadata.name, 'ConfigurationPolicy', p.metadata.name]);
        expect(rest.length).toBeGreaterThan(0);
        for (const t of rest) {
          expect(t.objectDefinition.kind).toBe('OperatorPolicy');
          expect(t.extraDependencies).toEqual([{ apiVersion: 'policy.open-cluster-management.io/v1', kind: 'ConfigurationPolicy', name: p.metadata.name, compliance: 'Compliant' }]);
          expect(t.objectDefinition.spec.removalBehavior).toEqual({ operatorGroups: 'Keep', subscriptions: 'Keep', clusterServiceVersions: 'Keep', customResourceDefinitions: 'Keep' });
        }
      }
    });

    test('matches the example', () => check(objects));
  });
}

describeAcmExample('agent lab (vcluster2) under HCP_CDK_DELIVERY=acm', 'build/examples/agent-lab/main.js', (objects) => {
  expect([...objects.keys()].sort()).toEqual([
    'hub/00-namespace-clusters.yaml',
    'hub/00-namespace-hardware-inventory.yaml',
    'hub/hardware-inventory/45-infraenv-hardware-inventory_hardware-inventory.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-1.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-2.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-3.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-4.yaml',
    'hub/policies/00-namespace-hcp-policies.yaml',
    'hub/policies/40-managedclustersetbinding-hcp-policies_default.yaml',
    'hub/policies/40-placement-hcp-policies_vcluster2-guest.yaml',
    'hub/policies/40-placementbinding-hcp-policies_vcluster2-guest.yaml',
    'hub/policies/40-policy-hcp-policies_vcluster2-guest-operators.yaml',
    'hub/policies/40-policy-hcp-policies_vcluster2-guest-resources.yaml',
    'hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml',
    'hub/vcluster2/50-hostedcluster-clusters_vcluster2.yaml',
    'hub/vcluster2/60-nodepool-clusters_vcluster2.yaml',
  ]);
  const kindsIn = (name: string) =>
    objects.get(`hub/policies/40-policy-hcp-policies_vcluster2-guest-${name}.yaml`).spec['policy-templates'][0].objectDefinition.spec['object-templates'].map((t: any) => t.objectDefinition.kind);
  expect(kindsIn('operators')).toEqual(['Namespace']);
  expect(kindsIn('resources')).toEqual(['MetalLB', 'IPAddressPool', 'L2Advertisement', 'Service']);
  // The MetalLB operator of the guest, by OperatorPolicy (its Namespace first, by the ConfigurationPolicy).
  expect(objects.get('hub/policies/40-policy-hcp-policies_vcluster2-guest-operators.yaml').spec['policy-templates'][1]).toEqual({
    extraDependencies: [{ apiVersion: 'policy.open-cluster-management.io/v1', kind: 'ConfigurationPolicy', name: 'vcluster2-guest-operators', compliance: 'Compliant' }],
    objectDefinition: {
      apiVersion: 'policy.open-cluster-management.io/v1beta1',
      kind: 'OperatorPolicy',
      metadata: { name: 'vcluster2-guest-metallb-operator' },
      spec: {
        remediationAction: 'enforce',
        complianceType: 'musthave',
        subscription: { name: 'metallb-operator', namespace: 'metallb', channel: 'stable', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' },
        operatorGroup: { name: 'metallb-operator-operatorgroup', namespace: 'metallb' },
        upgradeApproval: 'Automatic',
        removalBehavior: { operatorGroups: 'Keep', subscriptions: 'Keep', clusterServiceVersions: 'Keep', customResourceDefinitions: 'Keep' },
      },
    },
  });
  expect(objects.get('hub/policies/40-policy-hcp-policies_vcluster2-guest-resources.yaml').spec.dependencies).toEqual([
    {
      apiVersion: 'policy.open-cluster-management.io/v1',
      kind: 'Policy',
      name: 'vcluster2-guest-operators',
      namespace: 'hcp-policies',
      compliance: 'Compliant',
    },
  ]);
  expect(objects.get('hub/policies/40-placement-hcp-policies_vcluster2-guest.yaml').spec.predicates).toEqual([{ requiredClusterSelector: { labelSelector: { matchLabels: { name: 'vcluster2' } } } }]);
});

describeAcmExample('example fleet under HCP_CDK_DELIVERY=acm', 'build/examples/fleet/main.js', (objects) => {
  const guests = [...objects].filter(([, o]) => o.kind === 'Placement').map(([f, o]) => `${f.split('/')[0]} ${o.metadata.name}`);
  expect(guests).toHaveLength(8);
  expect(new Set(guests.map((g) => g.split(' ')[0]))).toEqual(new Set(['hub-0', 'hub-1']));
  // Each guest is placed on its own hub: its hosted cluster's folder is beside the policies folder.
  for (const guest of guests) {
    const [hub, name] = guest.split(' ');
    const cluster = name.replace(/-guest$/, '');
    expect([guest, objects.has(`${hub}/${cluster}/50-hostedcluster-clusters_${cluster}.yaml`)]).toEqual([guest, true]);
  }
  expect([...objects.values()].filter((o) => o.kind === 'ManagedClusterSetBinding')).toHaveLength(2);
  expect([...objects.values()].filter((o) => o.kind === 'ManagedCluster')).toEqual([]);
});
