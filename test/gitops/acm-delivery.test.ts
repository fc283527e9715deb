import { ApiObject } from 'cdk8s';
import * as YAML from 'yaml';
import {
  AcmDelivery,
  AcmDeliveryProps,
  allowPruning,
  ArgoCdDelivery,
  FluxDelivery,
  FluxSource,
  GuestCluster,
  HcpApp,
  HostedCluster,
  IDelivery,
  KustomizeDelivery,
  ManagementCluster,
  MetalLBIngress,
  PlatformType,
  Release,
  SshPublicKey,
} from '../../lib';
import { clusterProps, SSH_KEY } from '../props';
import { commit, exampleInventory, fleetChange } from './fleet-commits';
import { PRUNE_PROTECTION } from '../util';

const WAVE = 'argocd.argoproj.io/sync-wave';
const DEPENDS_ON_OPERATORS = {
  apiVersion: 'policy.open-cluster-management.io/v1',
  kind: 'Policy',
  name: 'c1-guest-operators',
  namespace: 'hcp-policies',
  compliance: 'Compliant',
};

interface Lab {
  readonly app: HcpApp;
  readonly cluster: HostedCluster;
}

/** Hub `hub` with hosted cluster `name` and, unless `guest` is false, MetalLB ingress in its guest folder. */
function lab(delivery: IDelivery = new AcmDelivery(), options: { name?: string; guest?: boolean; app?: HcpApp } = {}): Lab {
  const app = options.app ?? new HcpApp({ outdir: '/nonexistent', delivery });
  const cluster = new HostedCluster(
    new ManagementCluster(app, 'hub'),
    options.name ?? 'c1',
    clusterProps({ networking: { machineNetwork: ['192.0.2.0/24'] }, sshKey: SshPublicKey.fromString(SSH_KEY) }),
  );
  cluster.addNodePool('workers', { replicas: 2 });
  if (options.guest ?? true) new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.0.2.100'] });
  return { app, cluster };
}

/** Every written object by path; kustomization.yaml files by folder. */
function synth(app: HcpApp): { objects: Map<string, any>; kustomizations: Map<string, string[]> } {
  const objects = new Map<string, any>();
  const kustomizations = new Map<string, string[]>();
  for (const file of app.synthesize()) {
    if (file.path.endsWith('/kustomization.yaml')) kustomizations.set(file.path.slice(0, -'/kustomization.yaml'.length), YAML.parse(file.text).resources);
    else objects.set(file.path, YAML.parse(file.text));
  }
  return { objects, kustomizations };
}

function acm(props: AcmDeliveryProps = {}, options: { name?: string; guest?: boolean } = {}): Map<string, any> {
  return synth(lab(new AcmDelivery(props), options).app).objects;
}

function problems(props: AcmDeliveryProps, options: { name?: string; guest?: boolean } = {}): string[] {
  return problemsOf(lab(new AcmDelivery(props), options).app);
}

/** The problems a failing synth reports, or [] when it succeeds. */
function problemsOf(app: HcpApp): string[] {
  try {
    app.synthesize();
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

function kinds(objects: Map<string, any>, kind: string): [string, any][] {
  return [...objects].filter(([, o]) => o.kind === kind);
}

/** The object templates of a Policy's ConfigurationPolicy, its first template. */
function templates(p: any): any[] {
  expect(p.spec['policy-templates'][0].objectDefinition.kind).toBe('ConfigurationPolicy');
  return p.spec['policy-templates'][0].objectDefinition.spec['object-templates'];
}

/** The OperatorPolicies among a Policy's templates. */
function operatorPolicies(p: any): any[] {
  return p.spec['policy-templates'].map((t: any) => t.objectDefinition).filter((o: any) => o.kind === 'OperatorPolicy');
}

/** An OLM object of the guest of `cluster`, as a user would write it. */
function olm(cluster: HostedCluster, kind: 'Subscription' | 'OperatorGroup' | 'CatalogSource', id: string, namespace: string, body: object = {}): ApiObject {
  const apiVersion = kind === 'OperatorGroup' ? 'operators.coreos.com/v1' : 'operators.coreos.com/v1alpha1';
  return new ApiObject(cluster.guest, id, { apiVersion, kind, metadata: { name: id, namespace }, ...body });
}

/** A Subscription to package `name` from redhat-operators. */
function subscribe(cluster: HostedCluster, name: string, namespace: string, spec: object = {}): ApiObject {
  return olm(cluster, 'Subscription', name, namespace, { spec: { name, source: 'redhat-operators', sourceNamespace: 'openshift-marketplace', ...spec } });
}

/** The one OperatorPolicy a synth writes, of hosted cluster c1's guest, after `build` adds to that guest. */
function onlyOperatorPolicy(build: (cluster: HostedCluster) => void): any {
  const { app, cluster } = lab(new AcmDelivery(), { guest: false });
  build(cluster);
  const found = operatorPolicies(synth(app).objects.get('hub/policies/40-policy-hcp-policies_c1-guest-operators.yaml'));
  expect(found).toHaveLength(1);
  return found[0];
}

describe('AcmDelivery', () => {
  describe('import of hosted clusters', () => {
    test('with autoImport (the default) writes no ManagedCluster or KlusterletAddonConfig: the hypershift add-on creates them', () => {
      const objects = acm();
      expect(kinds(objects, 'HostedCluster').map(([path]) => path)).toEqual(['hub/c1/50-hostedcluster-clusters_c1.yaml']);
      expect(kinds(objects, 'ManagedCluster')).toEqual([]);
      expect(kinds(objects, 'KlusterletAddonConfig')).toEqual([]);
    });

    test('with autoImport false writes the ManagedCluster of docs 14.2 in the cluster folder, protected from pruning', () => {
      const managedCluster = acm({ autoImport: false }).get('hub/c1/55-managedcluster-c1.yaml');
      expect(managedCluster).toEqual({
        apiVersion: 'cluster.open-cluster-management.io/v1',
        kind: 'ManagedCluster',
        metadata: {
          name: 'c1',
          labels: { 'cloud': 'auto-detect', 'cluster.open-cluster-management.io/clusterset': 'default', 'name': 'c1', 'vendor': 'OpenShift' },
          annotations: {
            'import.open-cluster-management.io/hosting-cluster-name': 'local-cluster',
            'import.open-cluster-management.io/klusterlet-deploy-mode': 'Hosted',
            'open-cluster-management/created-via': 'hypershift',
            [WAVE]: '55',
            ...PRUNE_PROTECTION,
          },
        },
        spec: { hubAcceptsClient: true, leaseDurationSeconds: 60 },
      });
    });

    test("with autoImport false writes the KlusterletAddonConfig of docs 14.2 in the managed cluster's namespace", () => {
      expect(acm({ autoImport: false }).get('hub/c1/56-klusterletaddonconfig-c1_c1.yaml')).toEqual({
        apiVersion: 'agent.open-cluster-management.io/v1',
        kind: 'KlusterletAddonConfig',
        metadata: { name: 'c1', namespace: 'c1', annotations: { [WAVE]: '56' } },
        spec: {
          applicationManager: { enabled: true },
          certPolicyController: { enabled: true },
          clusterLabels: { cloud: 'auto-detect', vendor: 'auto-detect' },
          clusterName: 'c1',
          clusterNamespace: 'c1',
          iamPolicyController: { enabled: true },
          policyController: { enabled: true },
          searchCollector: { enabled: false },
        },
      });
    });

    test('with klusterletAddons false (MCE alone) writes the ManagedCluster only', () => {
      const objects = acm({ autoImport: false, klusterletAddons: false, guestPolicies: false });
      expect(kinds(objects, 'ManagedCluster').map(([path]) => path)).toEqual(['hub/c1/55-managedcluster-c1.yaml']);
      expect(kinds(objects, 'KlusterletAddonConfig')).toEqual([]);
    });

    test('labels the ManagedCluster with the cluster set', () => {
      const managedCluster = acm({ autoImport: false, clusterSet: 'lab' }).get('hub/c1/55-managedcluster-c1.yaml');
      expect(managedCluster.metadata.labels['cluster.open-cluster-management.io/clusterset']).toBe('lab');
    });

    test('leaves the ManagedCluster unprotected when pruning its hosted cluster is allowed, as the HostedCluster is', () => {
      const { app, cluster } = lab(new AcmDelivery({ autoImport: false }));
      allowPruning(cluster, { reason: 'a throwaway lab cluster' });
      const { objects } = synth(app);
      expect(objects.get('hub/c1/50-hostedcluster-clusters_c1.yaml').metadata.annotations).toEqual({ [WAVE]: '50', 'hcp-cdk.io/delivery': 'acm' });
      expect(objects.get('hub/c1/55-managedcluster-c1.yaml').metadata.annotations).toEqual({
        'import.open-cluster-management.io/hosting-cluster-name': 'local-cluster',
        'import.open-cluster-management.io/klusterlet-deploy-mode': 'Hosted',
        'open-cluster-management/created-via': 'hypershift',
        [WAVE]: '55',
      });
    });

    test("writes one ManagedCluster per hosted cluster, in each cluster's folder", () => {
      const app = new HcpApp({ outdir: '/nonexistent', delivery: new AcmDelivery({ autoImport: false, guestPolicies: false }) });
      const hub = new ManagementCluster(app, 'hub');
      for (const name of ['a1', 'b2']) new HostedCluster(hub, name, clusterProps());
      const { objects } = synth(app);
      expect(kinds(objects, 'ManagedCluster').map(([path, o]) => [path, o.metadata.name])).toEqual([
        ['hub/a1/55-managedcluster-a1.yaml', 'a1'],
        ['hub/b2/55-managedcluster-b2.yaml', 'b2'],
      ]);
    });
  });

  describe('guest folders delivered by policy', () => {
    const { objects, kustomizations } = synth(lab().app);
    const operators = objects.get('hub/policies/40-policy-hcp-policies_c1-guest-operators.yaml');
    const resources = objects.get('hub/policies/40-policy-hcp-policies_c1-guest-resources.yaml');

    test('writes no -guest folder, and the hub folder lists the policies folder', () => {
      expect([...objects.keys()].filter((path) => !path.startsWith('hub/'))).toEqual([]);
      expect(kustomizations.get('hub')).toContain('policies');
      expect(kustomizations.get('hub/policies')).toEqual([
        '00-namespace-hcp-policies.yaml',
        '40-managedclustersetbinding-hcp-policies_default.yaml',
        '40-placement-hcp-policies_c1-guest.yaml',
        '40-placementbinding-hcp-policies_c1-guest.yaml',
        '40-policy-hcp-policies_c1-guest-operators.yaml',
        '40-policy-hcp-policies_c1-guest-resources.yaml',
      ]);
    });

    test('writes the policy namespace, protected like every hub namespace', () => {
      expect(objects.get('hub/policies/00-namespace-hcp-policies.yaml')).toEqual({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'hcp-policies', annotations: { [WAVE]: '0', ...PRUNE_PROTECTION } },
      });
    });

    test('binds the cluster set to the policy namespace', () => {
      expect(objects.get('hub/policies/40-managedclustersetbinding-hcp-policies_default.yaml')).toEqual({
        apiVersion: 'cluster.open-cluster-management.io/v1beta2',
        kind: 'ManagedClusterSetBinding',
        metadata: { name: 'default', namespace: 'hcp-policies', annotations: { [WAVE]: '40' } },
        spec: { clusterSet: 'default' },
      });
    });

    test("places the guest's policies on the hosted cluster's ManagedCluster, by its name label", () => {
      expect(objects.get('hub/policies/40-placement-hcp-policies_c1-guest.yaml')).toEqual({
        apiVersion: 'cluster.open-cluster-management.io/v1beta1',
        kind: 'Placement',
        metadata: { name: 'c1-guest', namespace: 'hcp-policies', annotations: { [WAVE]: '40' } },
        spec: { clusterSets: ['default'], predicates: [{ requiredClusterSelector: { labelSelector: { matchLabels: { name: 'c1' } } } }] },
      });
      expect(objects.get('hub/policies/40-placementbinding-hcp-policies_c1-guest.yaml')).toEqual({
        apiVersion: 'policy.open-cluster-management.io/v1',
        kind: 'PlacementBinding',
        metadata: { name: 'c1-guest', namespace: 'hcp-policies', annotations: { [WAVE]: '40' } },
        placementRef: { apiGroup: 'cluster.open-cluster-management.io', kind: 'Placement', name: 'c1-guest' },
        subjects: [
          { apiGroup: 'policy.open-cluster-management.io', kind: 'Policy', name: 'c1-guest-operators' },
          { apiGroup: 'policy.open-cluster-management.io', kind: 'Policy', name: 'c1-guest-resources' },
        ],
      });
    });

    test('the operators policy enforces the Namespace by ConfigurationPolicy, pruning nothing, then the operator by OperatorPolicy', () => {
      expect(operators.metadata).toEqual({ name: 'c1-guest-operators', namespace: 'hcp-policies', annotations: { [WAVE]: '40' } });
      expect(operators.spec.disabled).toBe(false);
      expect(operators.spec.copyPolicyMetadata).toBe(false);
      expect(operators.spec.remediationAction).toBeUndefined();
      expect(operators.spec.dependencies).toBeUndefined();
      expect(operators.spec['policy-templates'].map((t: any) => [t.objectDefinition.kind, t.objectDefinition.metadata.name])).toEqual([
        ['ConfigurationPolicy', 'c1-guest-operators'],
        ['OperatorPolicy', 'c1-guest-metallb-operator'],
      ]);
      const configurationPolicy = operators.spec['policy-templates'][0].objectDefinition;
      expect(configurationPolicy.apiVersion).toBe('policy.open-cluster-management.io/v1');
      expect(configurationPolicy.spec.remediationAction).toBe('enforce');
      expect(configurationPolicy.spec.pruneObjectBehavior).toBe('None');
      expect(templates(operators).map((t) => [t.complianceType, t.objectDefinition.kind, t.objectDefinition.metadata.name])).toEqual([['musthave', 'Namespace', 'metallb']]);
    });

    test('the OperatorPolicy installs the Subscription with its OperatorGroup, approves upgrades as OLM would, and keeps everything when removed', () => {
      expect(operators.spec['policy-templates'][1]).toEqual({
        extraDependencies: [{ apiVersion: 'policy.open-cluster-management.io/v1', kind: 'ConfigurationPolicy', name: 'c1-guest-operators', compliance: 'Compliant' }],
        objectDefinition: {
          apiVersion: 'policy.open-cluster-management.io/v1beta1',
          kind: 'OperatorPolicy',
          metadata: { name: 'c1-guest-metallb-operator' },
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
    });

    test('the resources policy enforces the rest, once the operators policy is compliant', () => {
      expect(resources.metadata).toEqual({ name: 'c1-guest-resources', namespace: 'hcp-policies', annotations: { [WAVE]: '40' } });
      expect(resources.spec.dependencies).toEqual([DEPENDS_ON_OPERATORS]);
      expect(resources.spec['policy-templates'][0].objectDefinition.spec.remediationAction).toBe('enforce');
      expect(resources.spec['policy-templates'][0].objectDefinition.spec.pruneObjectBehavior).toBe('None');
      expect(templates(resources).map((t) => [t.complianceType, t.objectDefinition.kind, t.objectDefinition.metadata.name])).toEqual([
        ['musthave', 'MetalLB', 'metallb'],
        ['musthave', 'IPAddressPool', 'ingress-public-ip'],
        ['musthave', 'L2Advertisement', 'ingress-public-ip'],
        ['musthave', 'Service', 'metallb-ingress'],
      ]);
    });

    test("each object definition is the guest object as the -guest folder holds it, without the folder's sync wave; the OperatorPolicy holds the rest", () => {
      const folder = synth(lab(new KustomizeDelivery({ syncWaves: false })).app).objects;
      const guest = [...folder].filter(([path]) => path.startsWith('c1-guest/')).map(([, o]) => o);
      const embedded = [...templates(operators), ...templates(resources)].map((t) => t.objectDefinition);
      const carried = guest.filter((o) => o.kind !== 'Subscription' && o.kind !== 'OperatorGroup');
      expect(embedded).toHaveLength(carried.length);
      expect(embedded).toEqual(expect.arrayContaining(carried));
      const subscription = guest.find((o) => o.kind === 'Subscription');
      const operatorGroup = guest.find((o) => o.kind === 'OperatorGroup');
      const [operatorPolicy] = operatorPolicies(operators);
      expect(operatorPolicy.spec.subscription).toEqual({ ...subscription.spec, namespace: subscription.metadata.namespace });
      expect(operatorPolicy.spec.operatorGroup).toEqual({ ...operatorGroup.metadata, ...operatorGroup.spec });
    });

    test('a guest with no operators gets one policy, with no dependencies', () => {
      const app = new HcpApp({ outdir: '/nonexistent', delivery: new AcmDelivery() });
      const { cluster } = lab(undefined, { app, guest: false });
      new ApiObject(cluster.guest, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'openshift-config' }, data: { a: 'b' } });
      const objects = synth(app).objects;
      const policies = kinds(objects, 'Policy');
      expect(policies.map(([path]) => path)).toEqual(['hub/policies/40-policy-hcp-policies_c1-guest-resources.yaml']);
      expect(policies[0][1].spec.dependencies).toBeUndefined();
      expect(templates(policies[0][1]).map((t) => t.objectDefinition)).toEqual([{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'openshift-config' }, data: { a: 'b' } }]);
      expect(objects.get('hub/policies/40-placementbinding-hcp-policies_c1-guest.yaml').subjects.map((s: any) => s.name)).toEqual(['c1-guest-resources']);
    });

    test('a hosted cluster without guest objects gets no policies, and a hub without any no policies folder', () => {
      const objects = acm({}, { guest: false });
      expect([...objects.keys()].filter((path) => path.startsWith('hub/policies/'))).toEqual([]);
    });

    test('puts everything in policyNamespace, the dependency too', () => {
      const objects = acm({ policyNamespace: 'guest-config' });
      expect(objects.get('hub/policies/00-namespace-guest-config.yaml').metadata.name).toBe('guest-config');
      const policies = [...objects].filter(([path]) => path.startsWith('hub/policies/') && !path.includes('namespace-'));
      expect(policies.map(([, o]) => o.metadata.namespace)).toEqual(['guest-config', 'guest-config', 'guest-config', 'guest-config', 'guest-config']);
      expect(objects.get('hub/policies/40-policy-guest-config_c1-guest-resources.yaml').spec.dependencies).toEqual([{ ...DEPENDS_ON_OPERATORS, namespace: 'guest-config' }]);
    });

    test('still checks the guest objects against their CRDs, naming the construct', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      new ApiObject(cluster.guest, 'sub', {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'x', namespace: 'n' },
        spec: { name: 'x', source: 's', sourceNamespace: 'n', channel: 5 },
      });
      const found = problemsOf(app);
      expect(found).toEqual(['c1-guest/sub: Subscription n/x: spec.channel: Invalid value: must be of type string, got integer; in YAML, quote it: a bare 5 is read as a number (value: 5)']);
    });

    test('with guestPolicies false writes the -guest folder as KustomizeDelivery does, and no policies', () => {
      const plain = synth(lab(new KustomizeDelivery()).app).objects;
      const objects = acm({ guestPolicies: false });
      expect([...objects].filter(([path]) => path.startsWith('c1-guest/'))).toEqual([...plain].filter(([path]) => path.startsWith('c1-guest/')));
      expect([...objects.keys()].filter((path) => path.startsWith('hub/policies/'))).toEqual([]);
    });

    test("with guestPolicies false and autoImport false the hub folders are KustomizeDelivery's plus the import objects", () => {
      const plain = synth(lab(new KustomizeDelivery()).app).objects;
      const objects = acm({ guestPolicies: false, autoImport: false });
      expect([...objects.keys()].filter((path) => !plain.has(path))).toEqual(['hub/c1/55-managedcluster-c1.yaml', 'hub/c1/56-klusterletaddonconfig-c1_c1.yaml']);
      // The same objects, but for the delivery mode each HostedCluster records.
      const recorded = (object: any) =>
        object.kind !== 'HostedCluster' ? object : { ...object, metadata: { ...object.metadata, annotations: { ...object.metadata.annotations, 'hcp-cdk.io/delivery': 'acm' } } };
      for (const [path, object] of plain) expect([path, objects.get(path)]).toEqual([path, recorded(object)]);
    });
  });

  describe('operators by OperatorPolicy', () => {
    test('a Manual Subscription leaves upgrades to a person (upgradeApproval None); startingCSV and config pass through, installPlanApproval does not', () => {
      const config = { nodeSelector: { 'node-role.kubernetes.io/infra': '' } };
      const operatorPolicy = onlyOperatorPolicy((cluster) =>
        subscribe(cluster, 'local-storage-operator', 'openshift-local-storage', {
          channel: 'stable',
          installPlanApproval: 'Manual',
          startingCSV: 'local-storage-operator.v4.17.0',
          config,
        }),
      );
      expect(operatorPolicy.spec.upgradeApproval).toBe('None');
      expect(operatorPolicy.spec.subscription).toEqual({
        name: 'local-storage-operator',
        namespace: 'openshift-local-storage',
        channel: 'stable',
        source: 'redhat-operators',
        sourceNamespace: 'openshift-marketplace',
        startingCSV: 'local-storage-operator.v4.17.0',
        config,
      });
      expect(operatorPolicy.spec.versions).toBeUndefined();
    });

    test("an Automatic Subscription, and one that says nothing (OLM's default), have their upgrades approved", () => {
      expect(onlyOperatorPolicy((cluster) => subscribe(cluster, 'a', 'ns', { installPlanApproval: 'Automatic' })).spec.upgradeApproval).toBe('Automatic');
      expect(onlyOperatorPolicy((cluster) => subscribe(cluster, 'a', 'ns')).spec.upgradeApproval).toBe('Automatic');
    });

    test("the OperatorGroup of the Subscription's namespace becomes spec.operatorGroup, its spec fields beside name and namespace", () => {
      const operatorPolicy = onlyOperatorPolicy((cluster) => {
        olm(cluster, 'OperatorGroup', 'own', 'ns', { spec: { targetNamespaces: ['ns'], upgradeStrategy: 'Default' } });
        subscribe(cluster, 'a', 'ns');
      });
      expect(operatorPolicy.spec.operatorGroup).toEqual({ name: 'own', namespace: 'ns', targetNamespaces: ['ns'], upgradeStrategy: 'Default' });
    });

    test("without an OperatorGroup in the guest, the OperatorPolicy names none (the controller uses the namespace's, or makes an AllNamespaces one)", () => {
      expect(onlyOperatorPolicy((cluster) => subscribe(cluster, 'a', 'openshift-operators')).spec.operatorGroup).toBeUndefined();
    });

    test('a guest with Subscriptions alone gets OperatorPolicies alone, with nothing to wait for', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      subscribe(cluster, 'a', 'openshift-operators');
      const operators = synth(app).objects.get('hub/policies/40-policy-hcp-policies_c1-guest-operators.yaml');
      expect(operators.spec['policy-templates']).toEqual([{ objectDefinition: expect.objectContaining({ kind: 'OperatorPolicy', metadata: { name: 'c1-guest-a' } }) }]);
    });

    test('CatalogSources and OperatorGroups of namespaces without a Subscription stay in the ConfigurationPolicy, which every OperatorPolicy waits for', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      new ApiObject(cluster.guest, 'ns', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns' } });
      olm(cluster, 'CatalogSource', 'mirror', 'openshift-marketplace', { spec: { sourceType: 'grpc', image: 'registry.example.com/index:v4.17' } });
      olm(cluster, 'OperatorGroup', 'spare', 'other');
      subscribe(cluster, 'b', 'ns', { source: 'mirror' });
      subscribe(cluster, 'a', 'openshift-operators', { source: 'mirror' });
      const operators = synth(app).objects.get('hub/policies/40-policy-hcp-policies_c1-guest-operators.yaml');
      expect(templates(operators).map((t) => `${t.objectDefinition.kind} ${t.objectDefinition.metadata.name}`)).toEqual(['Namespace ns', 'OperatorGroup spare', 'CatalogSource mirror']);
      expect(operators.spec['policy-templates'].slice(1).map((t: any) => [t.objectDefinition.metadata.name, t.extraDependencies.map((d: any) => `${d.kind} ${d.name}`)])).toEqual([
        ['c1-guest-b', ['ConfigurationPolicy c1-guest-operators']],
        ['c1-guest-a', ['ConfigurationPolicy c1-guest-operators']],
      ]);
    });

    test('the templates are checked against the OperatorPolicy and ConfigurationPolicy CRDs, naming the Policy', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      const name = 'x'.repeat(250);
      subscribe(cluster, name, 'openshift-operators');
      const found = problemsOf(app);
      expect(found).toHaveLength(1);
      expect(found[0]).toContain(
        'delivery/hub/policies/Policy: Policy hcp-policies/c1-guest-operators: spec.policy-templates[0].objectDefinition.metadata.name: ' +
          `Invalid value: must be a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", at most 253 characters) (value: "c1-guest-${name.slice(0, 100)}`,
      );
    });

    test("one cluster never holds back another: each guest's Policies are placed on its cluster alone and depend on nothing of another's", () => {
      const app = new HcpApp({ outdir: '/nonexistent', delivery: new AcmDelivery() });
      const hub = new ManagementCluster(app, 'hub');
      for (const [name, network] of [
        ['lab-east', '192.0.2'],
        ['lab-west', '198.51.100'],
      ]) {
        const cluster = new HostedCluster(hub, name, clusterProps({ networking: { machineNetwork: [`${network}.0/24`] }, sshKey: SshPublicKey.fromString(SSH_KEY) }));
        new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: [`${network}.100`] });
      }
      const objects = synth(app).objects;
      for (const [own, other] of [
        ['lab-east', 'lab-west'],
        ['lab-west', 'lab-east'],
      ]) {
        const mine = [...objects].filter(([path]) => path.startsWith(`hub/policies/40-`) && path.includes(`_${own}-guest`)).map(([, o]) => o);
        expect(mine.map((o) => `${o.kind} ${o.metadata.name}`).sort()).toEqual([
          `Placement ${own}-guest`,
          `PlacementBinding ${own}-guest`,
          `Policy ${own}-guest-operators`,
          `Policy ${own}-guest-resources`,
        ]);
        const where = mine.find((o) => o.kind === 'Placement');
        expect(where.spec.predicates).toEqual([{ requiredClusterSelector: { labelSelector: { matchLabels: { name: own } } } }]);
        expect(mine.find((o) => o.kind === 'PlacementBinding').subjects.map((s: any) => s.name)).toEqual([`${own}-guest-operators`, `${own}-guest-resources`]);
        for (const p of mine.filter((o) => o.kind === 'Policy')) {
          for (const d of p.spec.dependencies ?? []) expect(d.name).toBe(`${own}-guest-operators`);
          const templateNames = p.spec['policy-templates'].map((t: any) => t.objectDefinition.metadata.name);
          for (const t of p.spec['policy-templates']) for (const d of t.extraDependencies ?? []) expect(templateNames).toContain(d.name);
        }
        // A cluster that is never imported (or never Available) matches no Placement but its own.
        expect(JSON.stringify(mine)).not.toContain(other);
      }
    });
  });

  describe('order', () => {
    const objects = acm({ autoImport: false });
    const wave = (path: string): number => Number(objects.get(path).metadata.annotations[WAVE]);
    const operators = objects.get('hub/policies/40-policy-hcp-policies_c1-guest-operators.yaml');
    const resources = objects.get('hub/policies/40-policy-hcp-policies_c1-guest-resources.yaml');

    test('the ManagedCluster and KlusterletAddonConfig come after the HostedCluster and before its NodePools (the import waits for the control plane, not for machines), by wave and by file name', () => {
      const folder = [...objects.keys()].filter((path) => path.startsWith('hub/c1/')).sort();
      expect(folder.map((path) => objects.get(path).kind)).toEqual(['Secret', 'HostedCluster', 'ManagedCluster', 'KlusterletAddonConfig', 'NodePool']);
      expect(wave('hub/c1/50-hostedcluster-clusters_c1.yaml')).toBeLessThan(wave('hub/c1/60-nodepool-clusters_c1-workers.yaml'));
      expect(wave('hub/c1/55-managedcluster-c1.yaml')).toBeLessThan(wave('hub/c1/60-nodepool-clusters_c1-workers.yaml'));
      expect(wave('hub/c1/55-managedcluster-c1.yaml')).toBeLessThan(wave('hub/c1/56-klusterletaddonconfig-c1_c1.yaml'));
    });

    test('the policy namespace comes before what lives in it', () => {
      const inNamespace = [...objects.keys()].filter((path) => path.startsWith('hub/policies/') && objects.get(path).metadata.namespace === 'hcp-policies');
      expect(inNamespace).toHaveLength(5);
      for (const path of inNamespace) expect(wave('hub/policies/00-namespace-hcp-policies.yaml')).toBeLessThan(wave(path));
    });

    test("the guest's operators are installed before its resources: the resources policy depends on the operators policy being compliant", () => {
      expect(resources.spec.dependencies).toEqual([DEPENDS_ON_OPERATORS]);
      expect(operators.spec.dependencies).toBeUndefined();
    });

    test('the chain: the namespace ConfigurationPolicy, then the OperatorPolicy, then the resources Policy', () => {
      const [namespaces, operator] = operators.spec['policy-templates'];
      expect(namespaces.extraDependencies).toBeUndefined();
      expect(templates(operators).map((t) => t.objectDefinition.kind)).toEqual(['Namespace']);
      // Same Policy, so the same cluster namespace: a ConfigurationPolicy dependency names none.
      expect(operator.extraDependencies).toEqual([
        {
          apiVersion: 'policy.open-cluster-management.io/v1',
          kind: 'ConfigurationPolicy',
          name: namespaces.objectDefinition.metadata.name,
          compliance: 'Compliant',
        },
      ]);
      // Pending templates keep the operators Policy from being Compliant, and so the resources waiting.
      expect(operator.ignorePending).toBeUndefined();
      expect(resources.spec.dependencies).toEqual([{ ...DEPENDS_ON_OPERATORS, name: operators.metadata.name }]);
    });

    test('the operators policy is compliant once the operator is installed and its deployments available: no status checks', () => {
      const [operatorPolicy] = operatorPolicies(operators);
      // The defaults: only unavailable deployments make it NonCompliant, upgrades and deprecations do not.
      expect(operatorPolicy.spec.complianceConfig).toBeUndefined();
      expect(operatorPolicy.spec.complianceType).toBe('musthave');
      expect(operatorPolicy.spec.remediationAction).toBe('enforce');
      expect([...templates(operators), ...templates(resources)].filter((t) => t.objectDefinition.status !== undefined)).toEqual([]);
    });

    test('within each policy the objects come in rank order: MetalLB before its pools', () => {
      expect(templates(resources).map((t) => t.objectDefinition.kind)).toEqual(['MetalLB', 'IPAddressPool', 'L2Advertisement', 'Service']);
    });

    test('guest content is placed only on the imported cluster: the Placement selects its ManagedCluster by name from the bound set, tolerating no taint', () => {
      const managedCluster = objects.get('hub/c1/55-managedcluster-c1.yaml');
      const where = objects.get('hub/policies/40-placement-hcp-policies_c1-guest.yaml');
      expect(where.spec.predicates[0].requiredClusterSelector.labelSelector.matchLabels).toEqual({ name: managedCluster.metadata.labels.name });
      expect(where.spec.clusterSets).toEqual([managedCluster.metadata.labels['cluster.open-cluster-management.io/clusterset']]);
      // No tolerations: a cluster not yet joined or not available carries a NoSelect taint, so no policy reaches it.
      expect(where.spec.tolerations).toBeUndefined();
      expect(objects.get('hub/policies/40-managedclustersetbinding-hcp-policies_default.yaml').spec.clusterSet).toBe(where.spec.clusterSets[0]);
      const bound = objects.get('hub/policies/40-placementbinding-hcp-policies_c1-guest.yaml');
      expect(bound.placementRef.name).toBe(where.metadata.name);
      expect(bound.subjects.map((s: any) => s.name).sort()).toEqual([operators.metadata.name, resources.metadata.name]);
    });
  });

  describe('protection', () => {
    const objects = acm({ autoImport: false });
    const protectedPaths = [...objects].filter(([, o]) => o.metadata.annotations?.['kustomize.toolkit.fluxcd.io/prune'] === 'disabled').map(([path]) => path);

    test('protects the HostedCluster, NodePool, its Secret, the ManagedCluster and the hub namespaces, and nothing else', () => {
      expect(protectedPaths.sort()).toEqual([
        'hub/00-namespace-clusters.yaml',
        'hub/c1/20-secret-clusters_c1-ssh-key.yaml',
        'hub/c1/50-hostedcluster-clusters_c1.yaml',
        'hub/c1/55-managedcluster-c1.yaml',
        'hub/c1/60-nodepool-clusters_c1-workers.yaml',
        'hub/policies/00-namespace-hcp-policies.yaml',
      ]);
      for (const path of protectedPaths) expect(objects.get(path).metadata.annotations).toMatchObject(PRUNE_PROTECTION);
    });

    test('deleting a policy leaves its objects in the hosted cluster: ConfigurationPolicies prune nothing, OperatorPolicies remove nothing', () => {
      const all = kinds(objects, 'Policy').flatMap(([, p]) => p.spec['policy-templates'].map((t: any) => t.objectDefinition));
      expect(all.map((o: any) => o.kind)).toEqual(['ConfigurationPolicy', 'OperatorPolicy', 'ConfigurationPolicy']);
      for (const o of all.filter((t: any) => t.kind === 'ConfigurationPolicy')) expect(o.spec.pruneObjectBehavior).toBe('None');
      for (const o of all.filter((t: any) => t.kind === 'OperatorPolicy')) {
        expect(o.spec.removalBehavior).toEqual({ operatorGroups: 'Keep', subscriptions: 'Keep', clusterServiceVersions: 'Keep', customResourceDefinitions: 'Keep' });
      }
    });
  });

  describe('fails when', () => {
    test('policyNamespace is not a DNS-1123 label', () => {
      expect(problems({ policyNamespace: 'Hcp_Policies' })).toEqual([
        'delivery.policyNamespace ("Hcp_Policies") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
      ]);
    });

    test('clusterSet is not a ManagedClusterSet name', () => {
      expect(problems({ clusterSet: 'Lab Set', autoImport: false })).toEqual([
        'delivery.clusterSet ("Lab Set") must be a ManagedClusterSet name: a DNS-1123 subdomain of at most 63 characters (it is the value of the cluster.open-cluster-management.io/clusterset label)',
      ]);
    });

    test('clusterSet is not default with autoImport', () => {
      expect(problems({ clusterSet: 'lab' })).toEqual([
        'delivery.clusterSet ("lab") must be "default" with autoImport: the hypershift add-on imports hosted clusters into the default set; set autoImport: false to import them into another',
      ]);
    });

    test('guestPolicies is on for a hub declared without RHACM (klusterletAddons false)', () => {
      expect(problems({ klusterletAddons: false })).toEqual([
        "delivery.guestPolicies (true) needs klusterletAddons: governance policies are RHACM's, and klusterletAddons: false declares a hub without RHACM (MCE alone); set guestPolicies: false to write the guest folders instead",
      ]);
    });

    test('policy namespace and name add up to more than 62 characters', () => {
      const namespace = 'p'.repeat(45);
      expect(problems({ policyNamespace: namespace })).toEqual([
        `delivery.guestPolicies: policy "c1-guest-operators" of guest folder "c1-guest" in policyNamespace "${namespace}" makes 63 characters of namespace and name; ` +
          "ACM accepts at most 62 (its copy in the cluster's namespace is named <namespace>.<name>, a label value); shorten policyNamespace or the hosted cluster's name",
        `delivery.guestPolicies: policy "c1-guest-resources" of guest folder "c1-guest" in policyNamespace "${namespace}" makes 63 characters of namespace and name; ` +
          "ACM accepts at most 62 (its copy in the cluster's namespace is named <namespace>.<name>, a label value); shorten policyNamespace or the hosted cluster's name",
      ]);
      // 62 is accepted.
      expect(problems({ policyNamespace: 'p'.repeat(44) })).toEqual([]);
    });

    test("a guest folder is for a cluster named local-cluster, the hub's own ManagedCluster", () => {
      const app = new HcpApp({ outdir: '/nonexistent', delivery: new AcmDelivery() });
      const hub = new ManagementCluster(app, 'hub');
      const self = HostedCluster.fromAttributes(hub, 'self', { clusterName: 'local-cluster', platformType: PlatformType.AGENT, release: Release.fromVersion('4.17.0') });
      new ApiObject(new GuestCluster(app, 'self-guest', { cluster: self, clusterManagedElsewhere: { reason: 'the hub itself' } }), 'cm', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'x', namespace: 'default' },
      });
      expect(problemsOf(app)).toEqual([
        'delivery.guestPolicies: guest folder "self-guest" is for hosted cluster "local-cluster", the name of the hub\'s own ManagedCluster; its policies would configure the hub',
      ]);
    });

    test('policyNamespace is the namespace ACM makes for a hosted cluster', () => {
      expect(problems({ policyNamespace: 'c1' })).toEqual([
        'delivery.policyNamespace ("c1") is the namespace ACM makes for hosted cluster hub/c1; policies there count as copies, so the guest policies need a namespace of their own',
      ]);
    });

    test('the policies folder of a hub is taken by a hosted cluster named policies', () => {
      expect(problems({}, { name: 'policies' })).toEqual([
        'delivery.guestPolicies: folder "hub/policies" holds hub/policies/20-secret-clusters_policies-ssh-key.yaml, and the guest policies of hub go there; rename what uses that folder',
      ]);
    });

    test('a guest folder is not a DNS-1123 label', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      const guest = new GuestCluster(app, 'Odd_Guest', { cluster });
      new ApiObject(guest, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'default' } });
      const found = problemsOf(app);
      expect(found).toEqual([
        // The folder is refused before the delivery places anything in it (see pathPart).
        'Odd_Guest: chart id ("Odd_Guest") must be a DNS-1123 name (lower-case letters, digits, "-" and ".", ":" for RBAC names, starting and ending with a letter or digit, at most 253 characters), which never leaves its folder',
      ]);
    });

    test('a guest Subscription is not named after its package: the OperatorPolicy names it so', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      olm(cluster, 'Subscription', 'metallb-sub', 'metallb', { spec: { name: 'metallb-operator', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' } });
      expect(problemsOf(app)).toEqual([
        'delivery.guestPolicies: Subscription metallb/metallb-sub of guest folder "c1-guest" has metadata.name "metallb-sub" and package (spec.name) "metallb-operator"; ' +
          'its OperatorPolicy names the Subscription after the package, so the two must be the same (or set guestPolicies: false to write the guest folder instead)',
      ]);
    });

    test('two Subscriptions of one guest folder have one name', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      subscribe(cluster, 'a', 'one');
      new ApiObject(cluster.guest, 'again', {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'a', namespace: 'two' },
        spec: { name: 'a', source: 's', sourceNamespace: 'n' },
      });
      expect(problemsOf(app)).toEqual([
        'delivery.guestPolicies: Subscription two/a of guest folder "c1-guest" has the name of Subscription one/a; both would make OperatorPolicy "c1-guest-a", ' +
          'and template names must differ, so one guest folder installs a package in one namespace only',
      ]);
    });

    test("a Subscription's namespace has two OperatorGroups", () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      olm(cluster, 'OperatorGroup', 'g1', 'ns');
      olm(cluster, 'OperatorGroup', 'g2', 'ns');
      subscribe(cluster, 'a', 'ns');
      expect(problemsOf(app)).toEqual([
        'delivery.guestPolicies: Subscription ns/a of guest folder "c1-guest" has 2 OperatorGroups in its namespace ("g1", "g2"); OLM installs an operator only in a namespace with exactly one',
      ]);
    });

    test('a Subscription or its OperatorGroup has labels or annotations, which an OperatorPolicy cannot set', () => {
      const { app, cluster } = lab(new AcmDelivery(), { guest: false });
      olm(cluster, 'OperatorGroup', 'g', 'ns').metadata.addAnnotation('example.com/owner', 'team-a');
      subscribe(cluster, 'a', 'ns').metadata.addLabel('team', 'a');
      expect(problemsOf(app)).toEqual([
        'delivery.guestPolicies: Subscription ns/a of guest folder "c1-guest" has metadata.labels, which an OperatorPolicy cannot set (it takes the name, namespace and spec); ' +
          'remove them, or set guestPolicies: false to write the guest folder instead',
        'delivery.guestPolicies: OperatorGroup ns/g of guest folder "c1-guest" has metadata.annotations, which an OperatorPolicy cannot set (it takes the name, namespace and spec); ' +
          'remove them, or set guestPolicies: false to write the guest folder instead',
      ]);
    });

    test('several props are wrong: every problem is reported together and nothing is returned', () => {
      const { app } = lab(new AcmDelivery({ policyNamespace: 'Bad', clusterSet: 'lab', klusterletAddons: false }));
      expect(() => app.synthesize()).toThrow(/^3 problems:\n {2}- delivery\.policyNamespace \("Bad"\).*\n {2}- delivery\.clusterSet \("lab"\).*\n {2}- delivery\.guestPolicies \(true\)/);
    });
  });

  describe('hubDelivery: the hub folders applied by an engine, each unit on its own', () => {
    const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';

    test("with an ArgoCdDelivery: an Application (and AppProject) per unit, the guest policies one of them, the ManagedCluster in its cluster's", () => {
      const { objects, kustomizations } = synth(lab(new AcmDelivery({ autoImport: false, hubDelivery: new ArgoCdDelivery({ repoUrl: REPOSITORY }) })).app);
      const applications = kinds(objects, 'Application').map(([, a]) => [a.metadata.name, a.spec.source.path]);
      expect(applications).toEqual([
        ['argocd-hub', 'dist/argocd/hub'],
        ['hub-c1', 'dist/hub/c1'],
        ['hub-policies', 'dist/hub/policies'],
        ['hub', 'dist/hub'],
      ]);
      const project = kinds(objects, 'AppProject').find(([, p]) => p.metadata.name === 'hub-policies')![1];
      expect(project.spec.clusterResourceWhitelist).toEqual([{ group: '', kind: 'Namespace' }]);
      expect(project.spec.namespaceResourceWhitelist.map((k: any) => k.kind)).toEqual(['ManagedClusterSetBinding', 'Placement', 'PlacementBinding', 'Policy']);
      // Each folder lists its own files: the hub's Application never reaches into its clusters' or the policies.
      expect(kustomizations.get('hub')).toEqual(['00-namespace-clusters.yaml']);
      expect(kustomizations.get('hub/c1')).toContain('55-managedcluster-c1.yaml');
      expect(objects.get('hub/c1/50-hostedcluster-clusters_c1.yaml').metadata.annotations['hcp-cdk.io/delivery']).toBe('argocd-without-health-checks');
      expect(objects.get('hub/policies/00-namespace-hcp-policies.yaml').metadata.annotations['argocd.argoproj.io/sync-options']).toBe('Prune=false,Delete=false');
    });

    test('with a FluxDelivery: a Kustomization per unit, the policies unit allowed to bind the cluster set as OCM asks', () => {
      const delivery = new AcmDelivery({ hubDelivery: new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY }) }) });
      const { objects } = synth(lab(delivery).app);
      const policies = kinds(objects, 'Kustomization').find(([, k]) => k.metadata.name === 'hub-policies')![1];
      expect(policies.spec).toMatchObject({
        path: './dist/hub/policies',
        serviceAccountName: 'hub-policies',
        dependsOn: [{ name: 'hub' }, { name: 'flux-hub-access' }].map((d) => ({ ...d, namespace: 'flux-system' })),
      });
      const role = objects.get('flux/hub/access/10-clusterrole-hcp-cdk-flux-hub-policies.yaml');
      expect(role.rules).toContainEqual({ apiGroups: ['cluster.open-cluster-management.io'], resources: ['managedclustersets/bind'], resourceNames: ['default'], verbs: ['create'] });
      expect(objects.get('hub/c1/50-hostedcluster-clusters_c1.yaml').metadata.annotations['hcp-cdk.io/delivery']).toBe('flux');
    });

    test("a hub's last guest gone: its policies folder keeps the Namespace and binding one commit, and its AppProject still permits the Policies, so that Argo CD prunes them", () => {
      const delivery = () => new AcmDelivery({ hubDelivery: new ArgoCdDelivery({ repoUrl: REPOSITORY }) });
      const base = fleetChange.firstClusters(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), 1);
      const before = commit('guest', base, delivery());
      const after = commit('no guest', fleetChange.dropGuest(base, 'c00000'), delivery(), before);
      expect(after.folders.get('hub-0/policies')!.map((o) => o.kind)).toEqual(['Namespace', 'ManagedClusterSetBinding']);
      const project = after.folders.get('argocd/hub-0')!.find((o) => o.kind === 'AppProject' && o.metadata.name === 'hub-0-policies')!;
      expect(project.spec.namespaceResourceWhitelist.map((k: any) => k.kind)).toEqual(['ManagedClusterSetBinding', 'Placement', 'PlacementBinding', 'Policy']);
      const later = commit('still no guest', fleetChange.dropGuest(base, 'c00000'), delivery(), after);
      expect(later.folders.has('hub-0/policies')).toBe(false);
    });

    test("fails when hubDelivery is not an engine, the engine's own props are given, or Flux would apply a KlusterletAddonConfig before its namespace exists", () => {
      expect(problems({ hubDelivery: new KustomizeDelivery() as any, syncWaves: false })).toEqual([
        'delivery.hubDelivery ("a KustomizeDelivery") must be an ArgoCdDelivery or a FluxDelivery, the engine that applies the hub folders (leave it out for plain Kustomize folders)',
        "delivery.syncWaves (false) must be left out with hubDelivery: the folders and their sync waves are the engine's",
      ]);
      expect(problems({ autoImport: false, hubDelivery: new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY }) }) })).toEqual([
        expect.stringMatching(/^delivery\.hubDelivery \(a FluxDelivery\) cannot apply the KlusterletAddonConfig that autoImport: false writes beside each HostedCluster/),
      ]);
    });
  });

  test('one delivery synthesizes the same app twice alike (what place() saw is not carried into the next synth)', () => {
    const { app } = lab(new AcmDelivery({ autoImport: false }));
    expect(app.synthesize()).toEqual(app.synthesize());
  });
});
