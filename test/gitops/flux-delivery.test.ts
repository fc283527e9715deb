import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { Environment } from '@marcbachmann/cel-js';
import * as YAML from 'yaml';
import {
  allowPruning,
  BmcCredentials,
  ClusterPlatform,
  FLUX_HEALTH_CHECKS,
  FluxDelivery,
  FluxDeliveryProps,
  FleetInventory,
  FluxSource,
  GuestCluster,
  HcpApp,
  HostedCluster,
  InfraEnv,
  HypershiftAddonConfig,
  kustomizations,
  ManagementCluster,
  MetalLBIngress,
  MultiClusterEngine,
  PlatformType,
  Release,
  SecretEncryption,
  SecretSource,
  SshPublicKey,
} from '../../lib';
import { SSH_KEY } from '../props';
import { Commit, commit, exampleInventory, fleetChange } from './fleet-commits';
import { PRUNE_PROTECTION, synthProblems } from '../util';

const REPOSITORY = 'https://git.example.com/platform/estate.git';
const SOURCE = FluxSource.gitRepository({ name: 'estate', url: REPOSITORY });

/** A hub with an inventory, an Agent cluster (SSH key Secret, etcd key ExternalSecret, a pool) and a MetalLB guest. */
function estate(app: HcpApp, hubId = 'hub'): HostedCluster {
  const hub = new ManagementCluster(app, hubId);
  new InfraEnv(hub, 'inventory', { namespace: 'inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret'), sshAuthorizedKey: SshPublicKey.fromString(SSH_KEY) });
  const cluster = new HostedCluster(hub, 'one', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    sshKey: SshPublicKey.fromString(SSH_KEY),
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'one/etcd' })),
    networking: { machineNetwork: ['192.0.2.0/24'] },
    platform: ClusterPlatform.agent({ agentNamespace: 'inventory', apiServerAddress: '192.0.2.10' }),
  });
  cluster.addNodePool('workers');
  new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.0.2.100'] });
  return cluster;
}

function fluxApp(props: Partial<FluxDeliveryProps> = {}): HcpApp {
  return new HcpApp({ outdir: '/nonexistent', delivery: new FluxDelivery({ source: SOURCE, ...props }) });
}

interface Written {
  readonly path: string;
  /** The parsed object (or kustomization.yaml). */
  readonly object: any;
}

function written(app: HcpApp): Written[] {
  return app.synthesize().map((f) => ({ path: f.path, object: YAML.parse(f.text) }));
}

const objectsOf = (files: readonly Written[]) => files.filter((f) => !f.path.endsWith('/kustomization.yaml'));
const fluxKustomizations = (files: readonly Written[]) => files.filter((f) => f.object.apiVersion === 'kustomize.toolkit.fluxcd.io/v1');
const kustomizationNamed = (files: readonly Written[], name: string) => {
  const found = fluxKustomizations(files).filter((f) => f.object.metadata.name === name);
  if (found.length !== 1) throw new Error(`expected one Kustomization ${name}, found ${found.length}`);
  return found[0].object;
};

/** The problems a failing synth under `delivery` reports, or [] when it succeeds. */
function problemsOf(delivery: FluxDelivery, build: (app: HcpApp) => void = (app) => estate(app)): string[] {
  return synthProblems(build, { delivery });
}

/** What every Kustomization of the default props has. */
const COMMON_SPEC = {
  interval: '10m0s',
  retryInterval: '2m0s',
  timeout: '30m0s',
  sourceRef: { kind: 'GitRepository', name: 'estate', namespace: 'flux-system' },
  prune: true,
  deletionPolicy: 'Orphan',
};
/** The HostedCluster check; what its expression decides is tested by evaluating it (below). */
const HOSTED_CLUSTER_SETTLED = {
  apiVersion: 'hypershift.openshift.io/v1beta1',
  kind: 'HostedCluster',
  inProgress: expect.any(String),
  current: expect.any(String),
  failed: expect.any(String),
};
/** The NodePool check, likewise (test/gitops/health-checks.test.ts evaluates it). */
const NODE_POOL_SETTLED = { kind: 'NodePool', ...FLUX_HEALTH_CHECKS.NodePool };
/** What a unit below the hub root waits for besides its folder above: the Roles its ServiceAccount applies with. */
const ACCESS = { name: 'flux-hub-access', namespace: 'flux-system' };
const SUBSCRIPTION_INSTALLED = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  current: "status.?installedCSV.orValue('') != ''",
  failed: "status.?conditions.orValue([]).exists(c, c.type == 'InstallPlanFailed' && c.status == 'True')",
};

describe('FluxDelivery layout', () => {
  const app = fluxApp();
  estate(app);
  const files = written(app);

  test("one Kustomization per folder in flux/<hub>/, the guests' one folder below, with the GitRepository", () => {
    expect(files.filter((f) => f.path.startsWith('flux/')).map((f) => f.path)).toEqual([
      'flux/hub/10-clusterrole-hcp-cdk-flux-flux-hub-access.yaml',
      'flux/hub/10-clusterrole-hcp-cdk-flux-flux-hub-guests.yaml',
      'flux/hub/10-clusterrole-hcp-cdk-flux-flux-hub.yaml',
      'flux/hub/10-clusterrole-hcp-cdk-flux-hub.yaml',
      'flux/hub/10-role-flux-system_hcp-cdk-flux-flux-hub.yaml',
      'flux/hub/10-serviceaccount-flux-system_flux-hub-access.yaml',
      'flux/hub/10-serviceaccount-flux-system_flux-hub-guests.yaml',
      'flux/hub/10-serviceaccount-flux-system_flux-hub.yaml',
      'flux/hub/10-serviceaccount-flux-system_hub-inventory.yaml',
      'flux/hub/10-serviceaccount-flux-system_hub-one-node-pools.yaml',
      'flux/hub/10-serviceaccount-flux-system_hub-one.yaml',
      'flux/hub/10-serviceaccount-flux-system_hub.yaml',
      'flux/hub/11-clusterrolebinding-hcp-cdk-flux-flux-hub-access.yaml',
      'flux/hub/11-clusterrolebinding-hcp-cdk-flux-flux-hub-guests.yaml',
      'flux/hub/11-clusterrolebinding-hcp-cdk-flux-flux-hub.yaml',
      'flux/hub/11-clusterrolebinding-hcp-cdk-flux-hub.yaml',
      'flux/hub/11-rolebinding-flux-system_hcp-cdk-flux-flux-hub.yaml',
      'flux/hub/40-gitrepository-flux-system_estate.yaml',
      'flux/hub/40-kustomization-flux-system_flux-hub-access.yaml',
      'flux/hub/40-kustomization-flux-system_flux-hub-guests.yaml',
      'flux/hub/40-kustomization-flux-system_flux-hub.yaml',
      'flux/hub/40-kustomization-flux-system_hub-inventory.yaml',
      'flux/hub/40-kustomization-flux-system_hub-one-node-pools.yaml',
      'flux/hub/40-kustomization-flux-system_hub-one.yaml',
      'flux/hub/40-kustomization-flux-system_hub.yaml',
      'flux/hub/access/10-role-clusters_hcp-cdk-flux-hub-one-node-pools.yaml',
      'flux/hub/access/10-role-clusters_hcp-cdk-flux-hub-one.yaml',
      'flux/hub/access/10-role-inventory_hcp-cdk-flux-hub-inventory.yaml',
      'flux/hub/access/11-rolebinding-clusters_hcp-cdk-flux-hub-one-node-pools.yaml',
      'flux/hub/access/11-rolebinding-clusters_hcp-cdk-flux-hub-one.yaml',
      'flux/hub/access/11-rolebinding-inventory_hcp-cdk-flux-hub-inventory.yaml',
      'flux/hub/access/kustomization.yaml',
      'flux/hub/admission/40-validatingadmissionpolicy-hcp-cdk-flux-hub.yaml',
      'flux/hub/admission/40-validatingadmissionpolicybinding-hcp-cdk-flux-hub.yaml',
      'flux/hub/admission/kustomization.yaml',
      'flux/hub/guests/40-kustomization-clusters_one-guest-operators.yaml',
      'flux/hub/guests/40-kustomization-clusters_one-guest-resources.yaml',
      'flux/hub/guests/kustomization.yaml',
      'flux/hub/kustomization.yaml',
    ]);
  });

  test('the guest folder, which installs MetalLB and uses it, is split into operators/ and resources/', () => {
    const guest = objectsOf(files)
      .filter((f) => f.path.startsWith('one-guest/'))
      .map((f) => f.path);
    expect(guest).toEqual([
      'one-guest/operators/00-namespace-metallb.yaml',
      'one-guest/operators/02-operatorgroup-metallb_metallb-operator-operatorgroup.yaml',
      'one-guest/operators/03-subscription-metallb_metallb-operator.yaml',
      'one-guest/resources/30-metallb-metallb_metallb.yaml',
      'one-guest/resources/31-ipaddresspool-metallb_ingress-public-ip.yaml',
      'one-guest/resources/32-l2advertisement-metallb_ingress-public-ip.yaml',
      'one-guest/resources/40-service-openshift-ingress_metallb-ingress.yaml',
    ]);
  });

  test('the management folders keep the plain layout', () => {
    expect(
      objectsOf(files)
        .filter((f) => f.path.startsWith('hub/'))
        .map((f) => f.path),
    ).toEqual([
      'hub/00-namespace-clusters.yaml',
      'hub/00-namespace-inventory.yaml',
      'hub/inventory/45-infraenv-inventory_inventory.yaml',
      'hub/one/20-externalsecret-clusters_one-etcd-encryption-key.yaml',
      'hub/one/20-secret-clusters_one-ssh-key.yaml',
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/node-pools/60-nodepool-clusters_one-workers.yaml',
    ]);
  });

  test("each kustomization.yaml lists exactly its folder's own files, no sub-folders; folders with none have none", () => {
    const listed = new Map(files.filter((f) => f.path.endsWith('/kustomization.yaml')).map((f) => [f.path.slice(0, -'/kustomization.yaml'.length), f.object]));
    const folders = new Set(objectsOf(files).map((f) => f.path.slice(0, f.path.lastIndexOf('/'))));
    expect([...listed.keys()].sort()).toEqual([...folders].sort());
    expect(listed.has('one-guest')).toBe(false);
    for (const [folder, kustomization] of listed) {
      const own = objectsOf(files)
        .filter((f) => f.path.slice(0, f.path.lastIndexOf('/')) === folder)
        .map((f) => f.path.slice(folder.length + 1));
      expect([folder, kustomization]).toEqual([folder, { apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources: own }]);
    }
  });

  test('Flux reads no Argo CD sync waves: none are written', () => {
    for (const { path, object } of objectsOf(files)) expect([path, object.metadata.annotations?.['argocd.argoproj.io/sync-wave']]).toEqual([path, undefined]);
  });

  test('synthesizing twice gives the same output (nothing of one synth is kept for the next)', () => {
    expect(written(app)).toEqual(files);
  });
});

describe('FluxDelivery Kustomizations, field by field', () => {
  const app = fluxApp();
  estate(app);
  const files = written(app);

  test('the hub root (namespaces, hub setup) waits for the bootstrap folder alone, whose RBAC lets it prune', () => {
    expect(kustomizationNamed(files, 'hub')).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'hub', namespace: 'flux-system' },
      spec: { ...COMMON_SPEC, path: './dist/hub', serviceAccountName: 'hub', dependsOn: [{ name: 'flux-hub', namespace: 'flux-system' }] },
    });
  });

  test('the inventory folder waits for the hub root and its Roles', () => {
    expect(kustomizationNamed(files, 'hub-inventory').spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/hub/inventory',
      dependsOn: [{ name: 'hub', namespace: 'flux-system' }, ACCESS],
      serviceAccountName: 'hub-inventory',
    });
  });

  test('the cluster folder waits for the hub root and is healthy once its HostedCluster is Available at its release', () => {
    expect(kustomizationNamed(files, 'hub-one').spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/hub/one',
      dependsOn: [{ name: 'hub', namespace: 'flux-system' }, ACCESS],
      healthChecks: [{ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'one', namespace: 'clusters' }],
      healthCheckExprs: [HOSTED_CLUSTER_SETTLED],
      serviceAccountName: 'hub-one',
    });
  });

  test("the cluster's NodePools wait for the cluster folder, so that an upgrade reaches them after the control plane, and for the inventory they take Agents from", () => {
    expect(kustomizationNamed(files, 'hub-one-node-pools').spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/hub/one/node-pools',
      dependsOn: [{ name: 'hub-one', namespace: 'flux-system' }, { name: 'hub-inventory', namespace: 'flux-system' }, ACCESS],
      healthChecks: [{ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', name: 'one-workers', namespace: 'clusters' }],
      healthCheckExprs: [NODE_POOL_SETTLED],
      serviceAccountName: 'hub-one-node-pools',
    });
  });

  describe("the HostedCluster health expression, evaluated as Flux's CEL evaluates it", () => {
    const current = kustomizationNamed(files, 'hub-one').spec.healthCheckExprs[0].current;
    const environment = new Environment({ enableOptionalTypes: true }).registerVariable('status', 'dyn').registerVariable('spec', 'dyn').registerVariable('metadata', 'dyn');
    const OLD = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
    const NEW = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';
    const available = { type: 'Available', status: 'True' };
    const healthy = (spec: unknown, status: unknown) => environment.evaluate(current, { spec, status, metadata: {} });

    test.each([
      ['no status yet', NEW, undefined, false],
      ['not Available', NEW, { conditions: [{ type: 'Available', status: 'False' }] }, false],
      [
        'first install, Available, not completed (the pools must join for it to complete)',
        NEW,
        { conditions: [available], version: { desired: { image: NEW }, history: [{ image: NEW, state: 'Partial' }] } },
        true,
      ],
      ['running its release', NEW, { conditions: [available], version: { desired: { image: NEW }, history: [{ image: NEW, state: 'Completed' }] } }, true],
      ['upgrade just committed: status still names the old release', NEW, { conditions: [available], version: { desired: { image: OLD }, history: [{ image: OLD, state: 'Completed' }] } }, false],
      [
        'upgrading',
        NEW,
        {
          conditions: [available],
          version: {
            desired: { image: NEW },
            history: [
              { image: NEW, state: 'Partial' },
              { image: OLD, state: 'Completed' },
            ],
          },
        },
        false,
      ],
      [
        'upgraded',
        NEW,
        {
          conditions: [available],
          version: {
            desired: { image: NEW },
            history: [
              { image: NEW, state: 'Completed' },
              { image: OLD, state: 'Completed' },
            ],
          },
        },
        true,
      ],
    ])('%s: %s', (_, image, status, expected) => {
      expect(healthy({ release: { image } }, status ?? {})).toBe(expected);
    });
  });

  test("the guest's operators live beside the HostedCluster, apply through its admin kubeconfig and wait for the cluster folder", () => {
    const operators = kustomizationNamed(files, 'one-guest-operators');
    expect(operators.metadata).toEqual({ name: 'one-guest-operators', namespace: 'clusters' });
    expect(operators.spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/one-guest/operators',
      kubeConfig: { secretRef: { name: 'one-admin-kubeconfig', key: 'kubeconfig' } },
      dependsOn: [{ name: 'hub-one', namespace: 'flux-system' }],
      healthChecks: [{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', name: 'metallb-operator', namespace: 'metallb' }],
      healthCheckExprs: [SUBSCRIPTION_INSTALLED],
    });
  });

  test("the guest's resources wait for its operators", () => {
    const resources = kustomizationNamed(files, 'one-guest-resources');
    expect(resources.metadata).toEqual({ name: 'one-guest-resources', namespace: 'clusters' });
    expect(resources.spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/one-guest/resources',
      kubeConfig: { secretRef: { name: 'one-admin-kubeconfig', key: 'kubeconfig' } },
      dependsOn: [{ name: 'one-guest-operators', namespace: 'clusters' }],
    });
  });

  test("the bootstrap folder keeps itself in sync; the units' Roles wait for the namespaces the hub root makes, the guests' folder for the Roles", () => {
    expect(kustomizationNamed(files, 'flux-hub')).toEqual({
      apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
      kind: 'Kustomization',
      metadata: { name: 'flux-hub', namespace: 'flux-system' },
      spec: { ...COMMON_SPEC, path: './dist/flux/hub', serviceAccountName: 'flux-hub' },
    });
    expect(kustomizationNamed(files, 'flux-hub-access').spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/flux/hub/access',
      dependsOn: [{ name: 'hub', namespace: 'flux-system' }],
      serviceAccountName: 'flux-hub-access',
    });
    expect(kustomizationNamed(files, 'flux-hub-guests').spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/flux/hub/guests',
      dependsOn: [ACCESS],
      serviceAccountName: 'flux-hub-guests',
    });
    const namespaces = objectsOf(files)
      .filter((f) => f.path.startsWith('hub/') && f.object.kind === 'Namespace')
      .map((f) => f.object.metadata.name);
    expect(namespaces).toContain('clusters');
  });

  test('the GitRepository the delivery writes follows main every minute and is never pruned by the Kustomization that reads it', () => {
    expect(files.find((f) => f.path === 'flux/hub/40-gitrepository-flux-system_estate.yaml')!.object).toEqual({
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name: 'estate', namespace: 'flux-system', annotations: PRUNE_PROTECTION },
      spec: { interval: '1m0s', ref: { branch: 'main' }, url: REPOSITORY },
    });
  });

  test('every spec.path is a folder the synth wrote, with its kustomization.yaml', () => {
    const paths = new Set(files.map((f) => `./dist/${f.path}`));
    for (const { object } of fluxKustomizations(files)) expect([object.metadata.name, paths.has(`${object.spec.path}/kustomization.yaml`)]).toEqual([object.metadata.name, true]);
  });
});

describe('FluxDelivery props', () => {
  test('path, namespace, interval, retryInterval and timeout reach every Kustomization', () => {
    const app = fluxApp({ path: 'clusters/prod/', namespace: 'gitops', interval: Duration.minutes(5), retryInterval: Duration.seconds(30), timeout: Duration.hours(1) });
    estate(app);
    const files = written(app);
    const cluster = kustomizationNamed(files, 'hub-one');
    expect(cluster.metadata).toEqual({ name: 'hub-one', namespace: 'gitops' });
    expect(cluster.spec).toMatchObject({
      path: './clusters/prod/hub/one',
      interval: '5m0s',
      retryInterval: '30s',
      timeout: '1h0m0s',
      dependsOn: [
        { name: 'hub', namespace: 'gitops' },
        { name: 'flux-hub-access', namespace: 'gitops' },
      ],
    });
    // The source stays where it is; the guests stay beside their HostedCluster.
    expect(cluster.spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'estate', namespace: 'flux-system' });
    expect(kustomizationNamed(files, 'one-guest-operators').metadata.namespace).toBe('clusters');
    expect(kustomizationNamed(files, 'one-guest-operators').spec.dependsOn).toEqual([{ name: 'hub-one', namespace: 'gitops' }]);
    expect(kustomizationNamed(files, 'flux-hub').spec.path).toBe('./clusters/prod/flux/hub');
  });

  test("path '.' is the repository root", () => {
    const app = fluxApp({ path: '.' });
    estate(app);
    expect(kustomizationNamed(written(app), 'hub').spec.path).toBe('./hub');
  });

  test('without a url, the Kustomizations reference an existing GitRepository and none is written', () => {
    const app = fluxApp({ source: FluxSource.gitRepository({ name: 'flux-system' }) });
    estate(app);
    const files = written(app);
    expect(files.filter((f) => f.object.kind === 'GitRepository')).toEqual([]);
    for (const { object } of fluxKustomizations(files)) expect(object.spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'flux-system', namespace: 'flux-system' });
  });

  test('a GitRepository in another namespace, with credentials, a tag and its own interval', () => {
    const source = FluxSource.gitRepository({
      name: 'estate',
      namespace: 'sources',
      url: 'ssh://git@git.example.com/platform/estate.git',
      ref: { tag: 'v1.2.0' },
      interval: Duration.minutes(5),
      secretName: 'estate-deploy-key',
    });
    const app = fluxApp({ source });
    estate(app);
    const files = written(app);
    expect(files.find((f) => f.object.kind === 'GitRepository')).toEqual({
      path: 'flux/hub/40-gitrepository-sources_estate.yaml',
      object: {
        apiVersion: 'source.toolkit.fluxcd.io/v1',
        kind: 'GitRepository',
        metadata: { name: 'estate', namespace: 'sources', annotations: PRUNE_PROTECTION },
        spec: { interval: '5m0s', ref: { tag: 'v1.2.0' }, secretRef: { name: 'estate-deploy-key' }, url: 'ssh://git@git.example.com/platform/estate.git' },
      },
    });
    expect(kustomizationNamed(files, 'hub').spec.sourceRef).toEqual({ kind: 'GitRepository', name: 'estate', namespace: 'sources' });
  });

  test('a GitRepository on another branch', () => {
    const app = fluxApp({ source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY, branch: 'production' }) });
    estate(app);
    expect(written(app).find((f) => f.object.kind === 'GitRepository')!.object.spec.ref).toEqual({ branch: 'production' });
  });
});

describe('FluxDelivery prune protection', () => {
  const annotationsOf = (app: HcpApp) => new Map(objectsOf(written(app)).map((f) => [f.path, f.object.metadata.annotations]));

  test("HostedCluster, NodePool, the cluster's Secrets and the namespaces (a guest's too) keep kustomize.toolkit.fluxcd.io/prune: disabled, as does the GitRepository; other guest objects and Kustomizations carry none", () => {
    const app = fluxApp();
    estate(app);
    const annotations = annotationsOf(app);
    const protectedFiles = [...annotations].filter(([, a]) => a?.['kustomize.toolkit.fluxcd.io/prune'] === 'disabled').map(([path]) => path);
    expect(protectedFiles).toEqual([
      'flux/hub/40-gitrepository-flux-system_estate.yaml',
      'hub/00-namespace-clusters.yaml',
      'hub/00-namespace-inventory.yaml',
      'hub/inventory/45-infraenv-inventory_inventory.yaml',
      'hub/one/20-externalsecret-clusters_one-etcd-encryption-key.yaml',
      'hub/one/20-secret-clusters_one-ssh-key.yaml',
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/node-pools/60-nodepool-clusters_one-workers.yaml',
      'one-guest/operators/00-namespace-metallb.yaml',
    ]);
    expect(annotations.get('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ ...PRUNE_PROTECTION, 'hcp-cdk.io/delivery': 'flux' });
    expect(annotations.get('hub/one/node-pools/60-nodepool-clusters_one-workers.yaml')).toEqual(PRUNE_PROTECTION);
    expect(Object.keys(annotations.get('one-guest/resources/30-metallb-metallb_metallb.yaml'))).not.toContain('kustomize.toolkit.fluxcd.io/prune');
  });

  test('allowPruning(cluster) gives up the protection of that cluster only', () => {
    const app = fluxApp();
    allowPruning(estate(app), { reason: 'a throw-away test cluster, recreated by CI' });
    const annotations = annotationsOf(app);
    expect(annotations.get('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ 'hcp-cdk.io/delivery': 'flux' });
    expect(annotations.get('hub/one/node-pools/60-nodepool-clusters_one-workers.yaml')).toBeUndefined();
    expect(annotations.get('hub/00-namespace-clusters.yaml')).toEqual(PRUNE_PROTECTION);
  });

  test('deleting any Kustomization deletes nothing it applied (deletionPolicy: Orphan)', () => {
    const app = fluxApp();
    estate(app);
    const kustomizations = fluxKustomizations(written(app));
    expect(kustomizations).toHaveLength(9);
    for (const { object } of kustomizations) expect([object.metadata.name, object.spec.deletionPolicy, object.spec.prune]).toEqual([object.metadata.name, 'Orphan', true]);
  });
});

/**
 * The order kustomize-controller applies the objects of one Kustomization in: CustomResourceDefinitions,
 * Namespaces and ClusterRoles first (applied, then waited for), then kinds named `*Class`, then the
 * rest, sorted by kind with Flux's table, then by API group and kind name
 * (fluxcd/kustomize-controller internal/controller/kustomization_controller.go, `apply`;
 * fluxcd/pkg ssa/sort.go, `SortableUnstructureds`).
 */
const FLUX_KINDS_FIRST = [
  'CustomResourceDefinition',
  'Namespace',
  'ResourceQuota',
  'StorageClass',
  'ServiceAccount',
  'PodSecurityPolicy',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'ConfigMap',
  'Secret',
  'Service',
  'LimitRange',
  'PriorityClass',
  'Deployment',
  'StatefulSet',
  'CronJob',
  'PodDisruptionBudget',
];
const FLUX_KINDS_LAST = ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'];
function fluxApplyKey(object: any): [number, number, string, string] {
  const kind: string = object.kind;
  const group = object.apiVersion.includes('/') ? object.apiVersion.split('/')[0] : '';
  const stage = ['CustomResourceDefinition', 'Namespace', 'ClusterRole'].includes(kind) ? 0 : kind.endsWith('Class') ? 1 : 2;
  const first = FLUX_KINDS_FIRST.indexOf(kind);
  const last = FLUX_KINDS_LAST.indexOf(kind);
  return [stage, first >= 0 ? first - FLUX_KINDS_FIRST.length : last >= 0 ? 1 + last : 0, group, kind];
}
function fluxAppliesBefore(a: any, b: any): boolean {
  const [x, y] = [fluxApplyKey(a), fluxApplyKey(b)];
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
}

/** The dependsOn graph of an output, and which Kustomization applies each file. */
function graphOf(files: readonly Written[]) {
  const ks = fluxKustomizations(files).map((f) => ({ ...f, bootstrap: f.path.split('/')[1] }));
  const id = (k: { bootstrap: string; object: any }) => `${k.bootstrap}/${k.object.metadata.namespace}/${k.object.metadata.name}`;
  const byId = new Map(ks.map((k) => [id(k), k]));
  const byPath = new Map(ks.map((k) => [k.object.spec.path as string, k]));
  const applierOf = (file: string) => byPath.get(`./dist/${file.slice(0, file.lastIndexOf('/'))}`)!;
  const dependencies = (k: (typeof ks)[number]) => (k.object.spec.dependsOn ?? []).map((d: any) => byId.get(`${k.bootstrap}/${d.namespace}/${d.name}`)!);
  /** Every Kustomization `k` waits for, directly or not. */
  const closure = (k: (typeof ks)[number]) => {
    const seen = new Set<string>();
    const walk = (x: (typeof ks)[number]) =>
      dependencies(x).forEach((d: (typeof ks)[number]) => {
        if (!seen.has(id(d))) {
          seen.add(id(d));
          walk(d);
        }
      });
    walk(k);
    return [...seen].map((s) => byId.get(s)!);
  };
  return { ks, id, byId, applierOf, dependencies, closure };
}

describe("FluxDelivery apply order, as the dependsOn graph and Flux's own order within a Kustomization", () => {
  const app = fluxApp();
  estate(app);
  const files = written(app);
  const objects = objectsOf(files).filter((f) => !f.path.startsWith('flux/'));
  const graph = graphOf(files);
  const of = (kind: string) => objects.filter((o) => o.object.kind === kind);
  /** The cluster a file is applied to: its top folder (a bootstrap folder applies to its hub). */
  const clusterOf = (file: string) => (file.startsWith('flux/') ? file.split('/')[1] : file.split('/')[0]);
  /** `a` is applied before `b`: in a Kustomization `b`'s waits for, or earlier in the same one. */
  const before = (a: Written, b: Written) => {
    const [ka, kb] = [graph.applierOf(a.path), graph.applierOf(b.path)];
    return ka === kb ? fluxAppliesBefore(a.object, b.object) : graph.closure(kb).includes(ka);
  };

  test('every dependsOn names a Kustomization of the output, and the graph has no cycle', () => {
    for (const k of graph.ks) {
      for (const d of k.object.spec.dependsOn ?? []) expect([k.object.metadata.name, graph.byId.has(`${k.bootstrap}/${d.namespace}/${d.name}`)]).toEqual([k.object.metadata.name, true]);
      expect(graph.closure(k)).not.toContain(k);
    }
  });

  test('the example has what the order tests are about', () => {
    expect(
      of('Namespace')
        .map((o) => o.object.metadata.name)
        .sort(),
    ).toEqual(['clusters', 'inventory', 'metallb']);
    expect(of('ExternalSecret')).toHaveLength(1);
    expect(of('Subscription')).toHaveLength(1);
  });

  test('every namespace before what lives in it, on the same cluster (the Kustomizations in it included)', () => {
    const everything = objectsOf(files);
    for (const namespace of of('Namespace')) {
      const inside = everything.filter((o) => o.object.metadata.namespace === namespace.object.metadata.name && clusterOf(o.path) === clusterOf(namespace.path));
      expect(inside.length).toBeGreaterThan(0);
      for (const object of inside) expect([object.path, before(namespace, object)]).toEqual([object.path, true]);
    }
    // The guests' Kustomizations live in `clusters`: applied by flux-hub-guests, which waits for the hub root.
    expect(everything.filter((o) => o.object.metadata.namespace === 'clusters').map((o) => o.path)).toContain('flux/hub/guests/40-kustomization-clusters_one-guest-operators.yaml');
  });

  test("Secrets and ExternalSecrets before the HostedCluster, the HostedCluster before its NodePools (Flux's kind order in one Kustomization)", () => {
    const [cluster] = of('HostedCluster');
    const secrets = objects.filter((o) => ['Secret', 'ExternalSecret', 'ConfigMap'].includes(o.object.kind) && graph.applierOf(o.path) === graph.applierOf(cluster.path));
    expect(secrets.map((o) => o.object.kind).sort()).toEqual(['ExternalSecret', 'Secret']);
    for (const secret of secrets) expect([secret.path, before(secret, cluster)]).toEqual([secret.path, true]);
    for (const pool of of('NodePool')) expect(before(cluster, pool)).toBe(true);
  });

  test("an operator's Subscription before the custom resources its CRDs define, which wait for it to be installed", () => {
    const [subscription] = of('Subscription');
    const served = objects.filter((o) => o.object.apiVersion.startsWith('metallb.io/'));
    expect(served.map((o) => o.object.kind).sort()).toEqual(['IPAddressPool', 'L2Advertisement', 'MetalLB']);
    for (const resource of served) {
      expect(graph.applierOf(resource.path)).not.toBe(graph.applierOf(subscription.path));
      expect(before(subscription, resource)).toBe(true);
    }
    const operators = graph.applierOf(subscription.path).object;
    expect(operators.spec.healthChecks).toEqual([{ apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription', name: 'metallb-operator', namespace: 'metallb' }]);
    expect(operators.spec.healthCheckExprs).toEqual([SUBSCRIPTION_INSTALLED]);
  });

  test('the guest folder only after its HostedCluster is Available', () => {
    const [cluster] = of('HostedCluster');
    const clusterKustomization = graph.applierOf(cluster.path);
    expect(clusterKustomization.object.spec.healthChecks).toEqual([{ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', name: 'one', namespace: 'clusters' }]);
    expect(clusterKustomization.object.spec.healthCheckExprs).toEqual([HOSTED_CLUSTER_SETTLED]);
    const guest = objects.filter((o) => o.path.startsWith('one-guest/'));
    expect(guest).toHaveLength(7);
    for (const object of guest) expect([object.path, graph.closure(graph.applierOf(object.path)).includes(clusterKustomization)]).toEqual([object.path, true]);
  });

  test('the NodePools only after their HostedCluster (Available, and at its release)', () => {
    const [cluster] = of('HostedCluster');
    const [pool] = of('NodePool');
    expect(graph.closure(graph.applierOf(pool.path)).includes(graph.applierOf(cluster.path))).toBe(true);
    expect(graph.applierOf(pool.path)).not.toBe(graph.applierOf(cluster.path));
  });

  test('the InfraEnv after the namespace the hub root makes; a BareMetalHost after its InfraEnv', () => {
    const app2 = fluxApp();
    const cluster = estate(app2);
    const hub = cluster.node.scope as ManagementCluster;
    const inventory = hub.node.findChild('inventory') as InfraEnv;
    for (const n of [1, 2]) {
      inventory.addHost(`host-${n}`, {
        bmc: { address: `redfish-virtualmedia://192.0.2.1${n}/redfish/v1/Systems/1`, credentials: BmcCredentials.fromExistingSecret(`host-${n}-bmc`) },
        bootMacAddress: `aa:aa:aa:aa:00:0${n}`,
      });
    }
    const files2 = written(app2);
    const g = graphOf(files2);
    const [infraEnv] = objectsOf(files2).filter((o) => o.object.kind === 'InfraEnv');
    const [namespace] = objectsOf(files2).filter((o) => o.object.kind === 'Namespace' && o.object.metadata.name === infraEnv.object.metadata.namespace);
    expect(g.closure(g.applierOf(infraEnv.path))).toContain(g.applierOf(namespace.path));
    const hosts = objectsOf(files2).filter((o) => o.object.kind === 'BareMetalHost');
    expect(hosts).toHaveLength(2);
    for (const host of hosts) {
      expect(g.applierOf(host.path)).toBe(g.applierOf(infraEnv.path));
      expect(fluxAppliesBefore(infraEnv.object, host.object)).toBe(true);
    }
  });
});

describe('FluxDelivery on other layouts', () => {
  test('a hub root that installs an operator and uses it is split too; its sub-folders wait for the resources half', () => {
    const app = fluxApp();
    const cluster = estate(app);
    const hub = cluster.node.scope as ManagementCluster;
    new ApiObject(hub, 'mce-subscription', {
      apiVersion: 'operators.coreos.com/v1alpha1',
      kind: 'Subscription',
      metadata: { name: 'multicluster-engine', namespace: 'multicluster-engine' },
      spec: { channel: 'stable-2.7', name: 'multicluster-engine', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' },
    });
    new MultiClusterEngine(hub, 'mce');
    const files = written(app);
    const paths = objectsOf(files)
      .filter((f) => /^hub\/[^/]+\.yaml$|^hub\/(operators|resources)\//.test(f.path))
      .map((f) => f.path);
    expect(paths).toEqual([
      'hub/operators/00-namespace-clusters.yaml',
      'hub/operators/00-namespace-inventory.yaml',
      'hub/operators/03-subscription-multicluster-engine_multicluster-engine.yaml',
      'hub/resources/05-multiclusterengine-multiclusterengine.yaml',
    ]);
    expect(kustomizationNamed(files, 'hub-operators').spec.dependsOn).toEqual([{ name: 'flux-hub', namespace: 'flux-system' }]);
    expect(kustomizationNamed(files, 'hub-resources').spec.dependsOn).toEqual([{ name: 'hub-operators', namespace: 'flux-system' }]);
    expect(kustomizationNamed(files, 'hub-one').spec.dependsOn).toEqual([{ name: 'hub-resources', namespace: 'flux-system' }, ACCESS]);
    expect(kustomizationNamed(files, 'flux-hub-access').spec.dependsOn).toEqual([{ name: 'hub-resources', namespace: 'flux-system' }]);
    expect(kustomizationNamed(files, 'flux-hub-guests').spec.dependsOn).toEqual([ACCESS]);
  });

  test('two hubs: each its own bootstrap folder, GitRepository and Kustomizations', () => {
    const app = fluxApp();
    estate(app, 'east');
    const west = new ManagementCluster(app, 'west');
    new MultiClusterEngine(west, 'mce');
    const files = written(app);
    expect(files.filter((f) => f.path.startsWith('flux/west/')).map((f) => f.path)).toEqual([
      'flux/west/10-clusterrole-hcp-cdk-flux-flux-west.yaml',
      'flux/west/10-clusterrole-hcp-cdk-flux-west.yaml',
      'flux/west/10-role-flux-system_hcp-cdk-flux-flux-west.yaml',
      'flux/west/10-serviceaccount-flux-system_flux-west.yaml',
      'flux/west/10-serviceaccount-flux-system_west.yaml',
      'flux/west/11-clusterrolebinding-hcp-cdk-flux-flux-west.yaml',
      'flux/west/11-clusterrolebinding-hcp-cdk-flux-west.yaml',
      'flux/west/11-rolebinding-flux-system_hcp-cdk-flux-flux-west.yaml',
      'flux/west/40-gitrepository-flux-system_estate.yaml',
      'flux/west/40-kustomization-flux-system_flux-west.yaml',
      'flux/west/40-kustomization-flux-system_west.yaml',
      'flux/west/admission/40-validatingadmissionpolicy-hcp-cdk-flux-west.yaml',
      'flux/west/admission/40-validatingadmissionpolicybinding-hcp-cdk-flux-west.yaml',
      'flux/west/admission/kustomization.yaml',
      'flux/west/kustomization.yaml',
    ]);
    // Flux's own objects (the RBAC is as for one hub).
    expect(files.filter((f) => f.path.startsWith('flux/east/') && /\/40-/.test(f.path)).map((f) => f.path)).toEqual([
      'flux/east/40-gitrepository-flux-system_estate.yaml',
      'flux/east/40-kustomization-flux-system_east-inventory.yaml',
      'flux/east/40-kustomization-flux-system_east-one-node-pools.yaml',
      'flux/east/40-kustomization-flux-system_east-one.yaml',
      'flux/east/40-kustomization-flux-system_east.yaml',
      'flux/east/40-kustomization-flux-system_flux-east-access.yaml',
      'flux/east/40-kustomization-flux-system_flux-east-guests.yaml',
      'flux/east/40-kustomization-flux-system_flux-east.yaml',
      'flux/east/admission/40-validatingadmissionpolicy-hcp-cdk-flux-east.yaml',
      'flux/east/admission/40-validatingadmissionpolicybinding-hcp-cdk-flux-east.yaml',
      'flux/east/guests/40-kustomization-clusters_one-guest-operators.yaml',
      'flux/east/guests/40-kustomization-clusters_one-guest-resources.yaml',
    ]);
  });

  test('a guest of a HostedCluster made elsewhere waits for nothing and still enters with its admin kubeconfig', () => {
    const app = fluxApp();
    const hub = new ManagementCluster(app, 'hub');
    const imported = HostedCluster.fromAttributes(hub, 'legacy', { clusterName: 'legacy', namespace: 'hosted', platformType: PlatformType.NONE, release: Release.fromVersion('4.17.0') });
    const guest = new GuestCluster(app, 'legacy-guest', { cluster: imported, clusterManagedElsewhere: { reason: 'made with hcp create cluster before this repository' } });
    new ApiObject(guest, 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: 'b' } });
    const files = written(app);
    const k = kustomizationNamed(files, 'legacy-guest');
    expect(
      fluxKustomizations(files)
        .filter((f) => f.object.metadata.name === 'legacy-guest')
        .map((f) => f.path),
    ).toEqual(['flux/hub/guests/40-kustomization-hosted_legacy-guest.yaml']);
    expect(k.metadata).toEqual({ name: 'legacy-guest', namespace: 'hosted' });
    expect(k.spec).toEqual({ ...COMMON_SPEC, path: './dist/legacy-guest', kubeConfig: { secretRef: { name: 'legacy-admin-kubeconfig', key: 'kubeconfig' } } });
    // The hub has no folder of its own: its guests' Kustomization waits for nothing either.
    expect(kustomizationNamed(files, 'flux-hub-guests').spec.dependsOn).toBeUndefined();
  });

  test('a folder two levels down waits for the nearest folder above it that has files', () => {
    const app = fluxApp();
    estate(app);
    const hub = app.node.findChild('hub') as ManagementCluster;
    const deep = Object.assign(new Construct(hub, 'deep'), { outputFolder: 'racks/r1' });
    new ApiObject(deep, 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'rack', namespace: 'inventory' }, data: { a: 'b' } });
    expect(kustomizationNamed(written(app), 'hub-racks-r1').spec.dependsOn).toEqual([{ name: 'hub', namespace: 'flux-system' }, ACCESS]);
  });
});

describe('FluxDelivery fails when', () => {
  const build = (app: HcpApp) => estate(app);

  test('fails when the source is missing (JavaScript callers)', () => {
    expect(problemsOf(new FluxDelivery({} as FluxDeliveryProps), build)).toEqual([
      "delivery.source (undefined) must be a FluxSource, e.g. FluxSource.gitRepository({ name: 'flux-system', url: 'https://…' })",
    ]);
  });

  test.each([
    ['an empty name', { name: '', url: REPOSITORY }, ['delivery.source.name ("") must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters']],
    ['a name with capitals', { name: 'Estate' }, ['delivery.source.name ("Estate") must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters']],
    [
      'a bad namespace',
      { name: 'estate', namespace: 'Flux_System' },
      ['delivery.source.namespace ("Flux_System") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit'],
    ],
    [
      'an scp-like url',
      { name: 'estate', url: 'git@git.example.com:platform/estate.git' },
      [
        'delivery.source.url ("git@git.example.com:platform/estate.git") must be an http://, https:// or ssh:// URL of a Git repository; Flux reads no scp-like "git@host:path", write ssh://git@host/path',
      ],
    ],
    [
      'an ftp url',
      { name: 'estate', url: 'ftp://git.example.com/estate.git' },
      ['delivery.source.url ("ftp://git.example.com/estate.git") must be an http://, https:// or ssh:// URL of a Git repository; Flux reads no scp-like "git@host:path", write ssh://git@host/path'],
    ],
    [
      'a url without a host',
      { name: 'estate', url: 'https://' },
      ['delivery.source.url ("https://") must be an http://, https:// or ssh:// URL of a Git repository; Flux reads no scp-like "git@host:path", write ssh://git@host/path'],
    ],
    [
      'a branch without a url',
      { name: 'flux-system', branch: 'main' },
      ['delivery.source.branch ("main") is only used with url: the delivery writes no GitRepository without one, the existing "flux-system" keeps its own'],
    ],
    [
      'an interval without a url',
      { name: 'flux-system', interval: Duration.minutes(5) },
      ['delivery.source.interval ("5m0s") is only used with url: the delivery writes no GitRepository without one, the existing "flux-system" keeps its own'],
    ],
    ['both a branch and a ref', { name: 'estate', url: REPOSITORY, branch: 'main', ref: { tag: 'v1' } }, ['delivery.source.branch ("main") and ref ({"tag":"v1"}) exclude each other: give one']],
    ['an empty ref', { name: 'estate', url: REPOSITORY, ref: {} }, ['delivery.source.ref ({}) must name one of commit, name, semver, tag, branch']],
    ['an empty branch', { name: 'estate', url: REPOSITORY, branch: ' ' }, ['delivery.source.branch (" ") must name a branch']],
    [
      'a bad secret name',
      { name: 'estate', url: REPOSITORY, secretName: 'Deploy Key' },
      ['delivery.source.secretName ("Deploy Key") must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters'],
    ],
  ])('fails when the source has %s', (_, props, expected) => {
    expect(problemsOf(new FluxDelivery({ source: FluxSource.gitRepository(props as any) }), build)).toEqual(expected);
  });

  test.each([
    ['an absolute path', { path: '/dist' }, ['delivery.path ("/dist") must be the output directory relative to the repository root, e.g. \'./dist\'']],
    ['a path out of the repository', { path: 'dist/../..' }, ['delivery.path ("dist/../..") must be the output directory relative to the repository root, e.g. \'./dist\'']],
    [
      'a bad namespace',
      { namespace: 'flux system' },
      ['delivery.namespace ("flux system") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit'],
    ],
    ['an interval under a minute', { interval: Duration.seconds(30) }, ['delivery.interval ("30s") must be at least 1m0s, the least Flux\'s docs allow']],
    ['a zero retry interval', { retryInterval: Duration.seconds(0) }, ['delivery.retryInterval ("0s") must be at least 1s']],
    ['a zero timeout', { timeout: Duration.seconds(0) }, ['delivery.timeout ("0s") must be at least 1s']],
    ['a duration in words (JavaScript callers)', { interval: 'ten minutes' as any }, ['delivery.interval ("ten minutes") must be a Duration, e.g. Duration.minutes(10)']],
    ['a timeout under a second', { timeout: Duration.millis(250) }, ['delivery.timeout ("250ms") must be a whole number of seconds, e.g. Duration.seconds(1)']],
  ])('fails when given %s', (_, props, expected) => {
    expect(problemsOf(new FluxDelivery({ source: SOURCE, ...props }), build)).toEqual(expected);
  });

  test('fails when a chart is named flux, the bootstrap folder', () => {
    const problems = problemsOf(new FluxDelivery({ source: SOURCE }), (app) => {
      estate(app);
      new MultiClusterEngine(new ManagementCluster(app, 'flux'), 'mce');
    });
    expect(problems).toEqual([
      'delivery.bootstrapFolder ("flux") is also the folder of chart "flux": FluxDelivery writes each management cluster\'s Kustomizations to flux/<management cluster>/; rename the chart',
    ]);
  });

  test('fails when a hosted cluster is named like the operators half of a split folder', () => {
    const problems = problemsOf(new FluxDelivery({ source: SOURCE }), (app) => {
      const cluster = estate(app);
      const hub = cluster.node.scope as ManagementCluster;
      new ApiObject(hub, 'mce-subscription', {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'Subscription',
        metadata: { name: 'multicluster-engine', namespace: 'multicluster-engine' },
        spec: { name: 'multicluster-engine', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' },
      });
      new MultiClusterEngine(hub, 'mce');
      new HostedCluster(hub, 'operators', {
        release: Release.fromVersion('4.17.0'),
        pullSecret: SecretSource.fromExistingSecret('pull-secret'),
        networking: { machineNetwork: ['192.0.3.0/24'] },
        platform: ClusterPlatform.agent({ agentNamespace: 'inventory', apiServerAddress: '192.0.3.10' }),
      });
    });
    expect(problems).toEqual(['delivery.folder ("hub/operators") is where FluxDelivery puts the operators of "hub", which installs an operator and uses it; rename the hosted cluster or folder']);
  });

  test('fails when a Kustomization name would be longer than a label value', () => {
    const hubId = `hub-${'x'.repeat(56)}`;
    const rule =
      'must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit, ' +
      'since Flux writes it into a label of every object it applies; shorten the chart id or folder name';
    const problems = problemsOf(new FluxDelivery({ source: SOURCE }), (app) => estate(app, hubId));
    // The hub's root (60 characters) passes; every name longer than 63 fails.
    expect(problems).toEqual([
      `delivery.name ("${hubId}-inventory") of the Kustomization of "${hubId}/inventory" ${rule}`,
      `delivery.name ("${hubId}-one") of the Kustomization of "${hubId}/one" ${rule}`,
      `delivery.name ("${hubId}-one-node-pools") of the Kustomization of "${hubId}/one/node-pools" ${rule}`,
      `delivery.name ("flux-${hubId}-access") of the Kustomization of "flux/${hubId}/access" ${rule}`,
      `delivery.name ("flux-${hubId}-guests") of the Kustomization of "flux/${hubId}/guests" ${rule}`,
      `delivery.name ("flux-${hubId}") of the Kustomization of "flux/${hubId}" ${rule}`,
    ]);
  });

  test('fails when two folders of one hub would give their Kustomizations one name', () => {
    const problems = problemsOf(new FluxDelivery({ source: SOURCE }), (app) => {
      const hub = new ManagementCluster(app, 'hub');
      for (const [id, folder] of [
        ['a', 'racks-r1'],
        ['b', 'racks/r1'],
      ]) {
        const scope = Object.assign(new Construct(hub, id), { outputFolder: folder });
        new ApiObject(scope, 'config', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: id, namespace: 'default' }, data: { a: 'b' } });
      }
    });
    expect(problems).toEqual([
      'delivery.name ("hub-racks-r1") of the Kustomization of "hub/racks/r1" is also the name of the one of "hub/racks-r1" in namespace "flux-system"; rename a chart or folder so that the folder paths differ with "/" read as "-"',
    ]);
  });

  test('reports every problem at once and writes nothing', () => {
    const problems = problemsOf(new FluxDelivery({ source: FluxSource.gitRepository({ name: '', url: 'git@x:y' }), interval: Duration.seconds(1) }), build);
    expect(problems.map((p) => p.slice(0, p.indexOf(' (')))).toEqual(['delivery.source.name', 'delivery.source.url', 'delivery.interval']);
  });
});

describe('kustomizations without sub-folders (Flux mode)', () => {
  const files = ['hub/b/20-secret-b.yaml', 'hub/00-namespace-hub.yaml', 'hub/a/x/80-host-h.yaml', 'guest/operators/03-sub.yaml'];

  test('a kustomization.yaml only where there are files, listing only them', () => {
    const result = kustomizations(files, { subFolders: false });
    const header = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n';
    expect(new Map(result.map((k) => [k.path, k.text]))).toEqual(
      new Map([
        ['hub/b/kustomization.yaml', `${header}  - 20-secret-b.yaml\n`],
        ['hub/kustomization.yaml', `${header}  - 00-namespace-hub.yaml\n`],
        ['hub/a/x/kustomization.yaml', `${header}  - 80-host-h.yaml\n`],
        ['guest/operators/kustomization.yaml', `${header}  - 03-sub.yaml\n`],
      ]),
    );
  });
});

describe('FluxDelivery on a hub that installs MCE by Subscription', () => {
  /** The hub's estate with MCE installed from OLM, and the add-on's AddOnDeploymentConfig unless told. */
  function mceHub(options: { installOperator: boolean; addonConfig: boolean }): Written[] {
    const app = fluxApp();
    const cluster = estate(app);
    const hub = cluster.node.scope as ManagementCluster;
    new MultiClusterEngine(hub, 'mce', { installOperator: options.installOperator });
    if (options.addonConfig) new HypershiftAddonConfig(hub, 'addon', { autoImport: false });
    return written(app);
  }
  const underHub = (files: readonly Written[]) =>
    objectsOf(files)
      .map((f) => f.path)
      .filter((p) => p.startsWith('hub/') && !p.startsWith('hub/one/'));
  const mceChecks = (files: readonly Written[]) =>
    fluxKustomizations(files)
      .filter((k) => (k.object.spec.healthChecks ?? []).some((c: any) => c.kind === 'MultiClusterEngine'))
      .map((k) => k.object.metadata.name);

  test("with a kind MCE's components serve beside it, the MultiClusterEngine is a stage of its own between the operators and the rest, healthy once MCE is Available", () => {
    const files = mceHub({ installOperator: true, addonConfig: true });
    expect(underHub(files).filter((p) => p.startsWith('hub/engine/'))).toEqual(['hub/engine/05-multiclusterengine-multiclusterengine.yaml']);
    expect(underHub(files)).toContain('hub/resources/06-addondeploymentconfig-multicluster-engine_hypershift-addon-deploy-config.yaml');
    expect(underHub(files).filter((p) => !/^hub\/(operators|engine|resources|inventory)\//.test(p))).toEqual([]);
    const engine = kustomizationNamed(files, 'hub-engine');
    expect(engine.spec).toEqual({
      ...COMMON_SPEC,
      path: './dist/hub/engine',
      dependsOn: [{ name: 'hub-operators', namespace: 'flux-system' }],
      healthChecks: [{ apiVersion: 'multicluster.openshift.io/v1', kind: 'MultiClusterEngine', name: 'multiclusterengine' }],
      healthCheckExprs: [{ kind: 'MultiClusterEngine', ...FLUX_HEALTH_CHECKS.MultiClusterEngine }],
      serviceAccountName: 'hub-engine',
    });
    expect(kustomizationNamed(files, 'hub-resources').spec.dependsOn).toEqual([{ name: 'hub-engine', namespace: 'flux-system' }]);
    // What waits for the hub's folder waits for its last stage.
    expect(kustomizationNamed(files, 'hub-one').spec.dependsOn).toContainEqual({ name: 'hub-resources', namespace: 'flux-system' });
    // The InfraEnv's CRD also comes with MCE's components (the assisted service).
    expect(kustomizationNamed(files, 'hub-inventory').spec.dependsOn).toContainEqual({ name: 'hub-resources', namespace: 'flux-system' });
    expect(mceChecks(files)).toEqual(['hub-engine']);
  });

  test('the engine stage applies as a ServiceAccount of its own, which may write the MultiClusterEngine and nothing else', () => {
    const files = mceHub({ installOperator: true, addonConfig: true });
    const byPath = new Map(objectsOf(files).map((f) => [f.path, f.object]));
    expect(byPath.get('flux/hub/10-serviceaccount-flux-system_hub-engine.yaml').metadata).toEqual({ name: 'hub-engine', namespace: 'flux-system' });
    const role = byPath.get('flux/hub/10-clusterrole-hcp-cdk-flux-hub-engine.yaml');
    expect(role.rules.map((r: any) => [r.apiGroups, r.resources])).toEqual([[['multicluster.openshift.io'], ['multiclusterengines']]]);
    const resources = byPath.get('flux/hub/10-clusterrole-hcp-cdk-flux-hub-resources.yaml');
    expect(resources.rules.flatMap((r: any) => r.resources)).not.toContain('multiclusterengines');
  });

  test("without a kind MCE's components serve, the folder keeps its two stages and no Kustomization waits for MCE", () => {
    const files = mceHub({ installOperator: true, addonConfig: false });
    expect(underHub(files)).toContain('hub/resources/05-multiclusterengine-multiclusterengine.yaml');
    expect(underHub(files).filter((p) => p.startsWith('hub/engine/'))).toEqual([]);
    expect(mceChecks(files)).toEqual([]);
  });

  test('without the install (MCE is already on the hub), the folder is not split and no Kustomization waits for MCE', () => {
    const files = mceHub({ installOperator: false, addonConfig: true });
    expect(underHub(files)).toContain('hub/05-multiclusterengine-multiclusterengine.yaml');
    expect(underHub(files)).toContain('hub/06-addondeploymentconfig-multicluster-engine_hypershift-addon-deploy-config.yaml');
    expect(mceChecks(files)).toEqual([]);
  });
});

describe('FluxDelivery RBAC over two commits: each unit may prune what the previous output held', () => {
  const REPOSITORY_URL = 'https://git.example.com/platform/estate.git';
  const fluxCommit = (inventory: FleetInventory, previous?: Commit) =>
    commit('c', inventory, new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY_URL }) }), previous);
  const base = fleetChange.onlyHubs(exampleInventory(), 'hub-0');
  const first = fluxCommit(base);
  const rulesOf = (c: Commit, folder: string, kind: string, name: string, namespace?: string) =>
    c.folders.get(folder)!.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace)!.rules;

  test("no rule is on a whole kind but the bootstrap's own Kustomizations and ServiceAccounts in its namespace, and none lists or watches", () => {
    for (const [folder, objects] of first.folders) {
      for (const role of objects.filter((o) => o.kind === 'Role' || o.kind === 'ClusterRole')) {
        for (const rule of role.rules) {
          expect([folder, role.metadata.name, rule.verbs.filter((v: string) => v === 'list' || v === 'watch')]).toEqual([folder, role.metadata.name, []]);
          if (rule.resourceNames === undefined)
            expect([role.kind, role.metadata.namespace, rule.resources]).toEqual(['Role', 'flux-system', [expect.stringMatching(/^(serviceaccounts|kustomizations)$/)]]);
        }
      }
    }
  });

  test("dropping a NodePool: the pools' unit keeps get on it (protected: Flux reads it, then leaves it)", () => {
    const next = fluxCommit(fleetChange.dropNodePool(base, 'c00006', 'spare'), first);
    expect(rulesOf(first, 'flux/hub-0/access', 'Role', 'hcp-cdk-flux-hub-0-c00006-node-pools', 'clusters')).toEqual([
      { apiGroups: ['hypershift.openshift.io'], resources: ['nodepools'], resourceNames: ['c00006-spare', 'c00006-workers'], verbs: ['create', 'get', 'patch', 'update'] },
    ]);
    expect(rulesOf(next, 'flux/hub-0/access', 'Role', 'hcp-cdk-flux-hub-0-c00006-node-pools', 'clusters')).toEqual([
      { apiGroups: ['hypershift.openshift.io'], resources: ['nodepools'], resourceNames: ['c00006-workers'], verbs: ['create', 'get', 'patch', 'update'] },
      { apiGroups: ['hypershift.openshift.io'], resources: ['nodepools'], resourceNames: ['c00006-spare'], verbs: ['get'] },
    ]);
    // One commit later it is gone from the inventory: so is the grant.
    const after = fluxCommit(fleetChange.dropNodePool(base, 'c00006', 'spare'), next);
    expect(rulesOf(after, 'flux/hub-0/access', 'Role', 'hcp-cdk-flux-hub-0-c00006-node-pools', 'clusters')).toEqual(
      rulesOf(next, 'flux/hub-0/access', 'Role', 'hcp-cdk-flux-hub-0-c00006-node-pools', 'clusters').slice(0, 1),
    );
  });

  test("removing a cluster: the bootstrap units may read and delete its engine objects, the hub's unit read its namespace, by name", () => {
    const next = fluxCommit(fleetChange.removeCluster(base, 'c00000'), first);
    const access = rulesOf(next, 'flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-flux-hub-0-access');
    expect(access).toContainEqual({
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['roles'],
      resourceNames: ['hcp-cdk-flux-hub-0-c00000', 'hcp-cdk-flux-hub-0-c00000-node-pools'],
      verbs: ['delete', 'get'],
    });
    expect(rulesOf(next, 'flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-hub-0')).toContainEqual({ apiGroups: [''], resources: ['namespaces'], resourceNames: ['hw-c00000'], verbs: ['get'] });
    expect(rulesOf(next, 'flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-flux-hub-0-guests')).toContainEqual({
      apiGroups: ['kustomize.toolkit.fluxcd.io'],
      resources: ['kustomizations'],
      resourceNames: ['c00000-guest-operators', 'c00000-guest-resources'],
      verbs: ['delete', 'get'],
    });
    // -access holds what the Roles it writes grant, escalates nothing; flux-hub-0 escalates the others' ClusterRoles, never its own.
    expect(access.flatMap((r: any) => r.verbs)).not.toContain('escalate');
    const own = rulesOf(next, 'flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-flux-hub-0');
    const escalates = own.filter((r: any) => r.verbs.includes('escalate')).flatMap((r: any) => r.resourceNames);
    expect(escalates).toEqual(['hcp-cdk-flux-flux-hub-0-access', 'hcp-cdk-flux-flux-hub-0-guests', 'hcp-cdk-flux-hub-0']);
    // -access binds the Roles it writes, by name: Flux dry-runs their RoleBindings before the Roles exist.
    expect(access.filter((r: any) => r.verbs.includes('bind')).map((r: any) => r.resources)).toEqual([['roles']]);
  });

  test("the admission policy: applied by no Kustomization, it pins the bootstrap units to bindings of a unit to its own role, roles over the hub's kinds, Kustomizations that apply as their own unit", () => {
    const [policy, binding] = first.folders.get('flux/hub-0/admission')!;
    expect(binding).toEqual({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'hcp-cdk-flux-hub-0' },
      spec: { policyName: 'hcp-cdk-flux-hub-0', validationActions: ['Deny'] },
    });
    expect(policy.spec.matchConditions[0].expression).toBe(
      "request.userInfo.username in ['system:serviceaccount:flux-system:flux-hub-0', 'system:serviceaccount:flux-system:flux-hub-0-access', 'system:serviceaccount:flux-system:flux-hub-0-guests']",
    );
    // The kinds a role may grant are those the hub's roles grant: a new kind is a new policy, which plan names as a hand step.
    expect(policy.spec.variables[1]).toEqual({
      name: 'kinds',
      expression:
        "['/namespaces', '/secrets', '/serviceaccounts', 'agent-install.openshift.io/infraenvs', 'hypershift.openshift.io/hostedclusters', 'hypershift.openshift.io/nodepools', " +
        "'kustomize.toolkit.fluxcd.io/kustomizations', 'metal3.io/baremetalhosts', 'rbac.authorization.k8s.io/clusterrolebindings', 'rbac.authorization.k8s.io/clusterroles', " +
        "'rbac.authorization.k8s.io/rolebindings', 'rbac.authorization.k8s.io/roles', 'source.toolkit.fluxcd.io/gitrepositories']",
    });
    expect(policy.spec.validations.map((v: any) => v.reason)).toEqual(Array(6).fill('Forbidden'));
    // No Kustomization applies it: its folder is the admin's.
    const paths = [...first.folders.values()]
      .flat()
      .filter((o) => o.kind === 'Kustomization')
      .map((k) => k.spec.path);
    expect(paths.filter((p) => p.includes('admission'))).toEqual([]);
    expect(fluxCommit(base).files.get('flux/hub-0/kustomization.yaml')).not.toContain('admission');
  });

  test('admissionPolicy: false writes none; a management cluster whose units would be named as a Flux controller is refused', () => {
    const without = commit('c', base, new FluxDelivery({ admissionPolicy: false, source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY_URL }) }));
    expect(without.folders.has('flux/hub-0/admission')).toBe(false);
    const renamed = fleetChange.renameHub(base, 'hub-0', 'kustomize');
    expect(() => fluxCommit(renamed)).toThrow(
      'management cluster "kustomize" names its Flux units and their ServiceAccounts kustomize-… in namespace "flux-system", as Flux names its own kustomize-controller; rename the management cluster (its chart id)',
    );
  });

  test("dropping a hub's last guest: flux-<hub>-guests stays one commit, over an empty folder, to prune the guests' Kustomizations; then it goes", () => {
    const noGuests = base.managementClusters[0].clusters.filter((c) => c.agent?.ingressAddresses).reduce((inventory, c) => fleetChange.dropGuest(inventory, c.name), base);
    const next = fluxCommit(noGuests, first);
    expect(next.folders.get('flux/hub-0/guests')).toEqual([]);
    expect(next.files.get('flux/hub-0/guests/kustomization.yaml')).toBe('apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n');
    expect(next.folders.get('flux/hub-0')!.find((o) => o.kind === 'Kustomization' && o.metadata.name === 'flux-hub-0-guests')!.spec.path).toBe('./dist/flux/hub-0/guests');
    expect(rulesOf(next, 'flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-flux-hub-0-guests')).toContainEqual(expect.objectContaining({ resources: ['kustomizations'], verbs: ['delete', 'get'] }));
    const after = fluxCommit(noGuests, next);
    expect(after.folders.has('flux/hub-0/guests')).toBe(false);
    expect(after.folders.get('flux/hub-0')!.some((o) => o.metadata.name === 'flux-hub-0-guests')).toBe(false);
  });
});
