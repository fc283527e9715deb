import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import {
  allowPruning,
  APPLICATION_HEALTH_LUA,
  ARGO_CD_HEALTH_CHECKS,
  ArgoCdDelivery,
  ArgoCdDeliveryProps,
  ArgoCdGuestAccess,
  ClusterPlatform,
  HcpApp,
  HOSTED_CLUSTER_HEALTH_LUA,
  HostedCluster,
  ManagementCluster,
  MetalLBIngress,
  MultiClusterEngine,
  MultiClusterEngineAvailability,
  Release,
  SecretEncryption,
  SecretSource,
  SshPublicKey,
} from '../../lib';
import { SSH_KEY } from '../props';
import { PRUNE_PROTECTION } from '../util';
import { runHealthCheck } from './lua-health';

const REPO = 'https://git.example.com/platform/hcp-estate.git';
const ACM = ArgoCdGuestAccess.acmGitOpsCluster();

/** An Agent cluster on `hub` with an SSH key Secret, an etcd key from an ExternalSecret, a pool and, unless told, a MetalLB guest. */
function cluster(hub: ManagementCluster, id: string, options: { guest?: boolean; machineNetwork?: string } = {}): HostedCluster {
  const network = options.machineNetwork ?? '192.0.2.0/24';
  const hosted = new HostedCluster(hub, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    sshKey: SshPublicKey.fromString(SSH_KEY),
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: `${id}/etcd` })),
    networking: { machineNetwork: [network] },
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: network.replace(/0\/24$/, '10') }),
  });
  hosted.addNodePool('workers');
  if (options.guest ?? true) new MetalLBIngress(hosted.guest, 'ingress', { cluster: hosted, addresses: [network.replace(/0\/24$/, '100')] });
  return hosted;
}

function appWith(props: Partial<ArgoCdDeliveryProps> = {}): HcpApp {
  return new HcpApp({ outdir: '/nonexistent', delivery: new ArgoCdDelivery({ repoUrl: REPO, guestAccess: ACM, ...props }) });
}

/** Every written file: objects parsed, kustomization.yaml kept as text. */
function written(app: HcpApp): Map<string, any> {
  return new Map(app.synthesize().map((f) => [f.path, f.path.endsWith('/kustomization.yaml') ? f.text : YAML.parse(f.text)]));
}

/** The problems a failing synth reports, or [] when it succeeds. */
function problemsOf(props: Partial<ArgoCdDeliveryProps>, build: (app: HcpApp) => void = (app) => cluster(new ManagementCluster(app, 'hub'), 'one')): string[] {
  const app = appWith(props);
  build(app);
  try {
    app.synthesize();
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

const SYNC_POLICY = {
  automated: { prune: true, selfHeal: true },
  retry: { backoff: { duration: '30s', factor: 2, maxDuration: '10m' }, limit: 5 },
  syncOptions: ['ServerSideApply=true', 'FailOnSharedResource=true'],
};

describe('ArgoCdDelivery bootstrap folder', () => {
  const app = appWith();
  cluster(new ManagementCluster(app, 'hub'), 'one');
  const files = written(app);
  const BOOTSTRAP = [
    '40-application-openshift-gitops_argocd-hub.yaml',
    '40-application-openshift-gitops_hub-one.yaml',
    '40-application-openshift-gitops_hub.yaml',
    '40-application-openshift-gitops_one-guest.yaml',
    '40-appproject-openshift-gitops_argocd-hub.yaml',
    '40-appproject-openshift-gitops_default.yaml',
    '40-appproject-openshift-gitops_hub-one.yaml',
    '40-appproject-openshift-gitops_hub.yaml',
    '40-appproject-openshift-gitops_one-guest.yaml',
    '40-gitopscluster-openshift-gitops_hub-hosted-clusters.yaml',
    '40-managedclustersetbinding-openshift-gitops_default.yaml',
    '40-placement-openshift-gitops_hub-hosted-clusters.yaml',
  ];

  test('one folder per management cluster under argocd/, with its kustomization.yaml and none above it', () => {
    expect([...files.keys()].filter((f) => f.startsWith('argocd/')).sort()).toEqual([...BOOTSTRAP.map((f) => `argocd/hub/${f}`), 'argocd/hub/kustomization.yaml']);
    expect(YAML.parse(files.get('argocd/hub/kustomization.yaml')).resources).toEqual(BOOTSTRAP);
  });

  test("each folder's kustomization.yaml lists its own files only: the hub's Application never reaches into its clusters' folders", () => {
    expect(YAML.parse(files.get('hub/kustomization.yaml')).resources).toEqual(['00-namespace-clusters.yaml']);
    expect(YAML.parse(files.get('hub/one/kustomization.yaml')).resources).toEqual([
      '20-externalsecret-clusters_one-etcd-encryption-key.yaml',
      '20-secret-clusters_one-ssh-key.yaml',
      '50-hostedcluster-clusters_one.yaml',
      '60-nodepool-clusters_one-workers.yaml',
    ]);
    expect(YAML.parse(files.get('one-guest/kustomization.yaml')).resources).toHaveLength(7);
  });

  test("the hub's Application delivers its own folder in-cluster, in its own project, in wave 1", () => {
    expect(files.get('argocd/hub/40-application-openshift-gitops_hub.yaml')).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'hub', namespace: 'openshift-gitops', annotations: { 'argocd.argoproj.io/sync-wave': '1' } },
      spec: {
        // The hub writes only a Namespace here: Argo CD checks the destination namespace against the project all the same.
        destination: { server: 'https://kubernetes.default.svc', namespace: 'default' },
        project: 'hub',
        source: { path: 'dist/hub', repoURL: REPO, targetRevision: 'HEAD' },
        syncPolicy: SYNC_POLICY,
      },
    });
  });

  test("the hosted cluster's Application delivers its folder in-cluster, in its own project, in wave 3", () => {
    expect(files.get('argocd/hub/40-application-openshift-gitops_hub-one.yaml')).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'hub-one', namespace: 'openshift-gitops', annotations: { 'argocd.argoproj.io/sync-wave': '3' } },
      spec: {
        destination: { server: 'https://kubernetes.default.svc', namespace: 'clusters' },
        project: 'hub-one',
        source: { path: 'dist/hub/one', repoURL: REPO, targetRevision: 'HEAD' },
        syncPolicy: SYNC_POLICY,
      },
    });
  });

  test("the guest Application delivers the guest folder to the hosted cluster by name, in the clusters' wave 3", () => {
    expect(files.get('argocd/hub/40-application-openshift-gitops_one-guest.yaml')).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Application',
      metadata: { name: 'one-guest', namespace: 'openshift-gitops', annotations: { 'argocd.argoproj.io/sync-wave': '3' } },
      spec: {
        destination: { name: 'one', namespace: 'metallb' },
        project: 'one-guest',
        source: { path: 'dist/one-guest', repoURL: REPO, targetRevision: 'HEAD' },
        syncPolicy: SYNC_POLICY,
      },
    });
  });

  test("the bootstrap folder keeps itself in sync, in a project that allows only Argo CD's and ACM's objects in the Argo CD namespace", () => {
    expect(files.get('argocd/hub/40-application-openshift-gitops_argocd-hub.yaml').spec).toEqual({
      destination: { server: 'https://kubernetes.default.svc', namespace: 'openshift-gitops' },
      project: 'argocd-hub',
      source: { path: 'dist/argocd/hub', repoURL: REPO, targetRevision: 'HEAD' },
      syncPolicy: SYNC_POLICY,
    });
    expect(files.get('argocd/hub/40-appproject-openshift-gitops_argocd-hub.yaml')).toEqual({
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'AppProject',
      metadata: { name: 'argocd-hub', namespace: 'openshift-gitops', annotations: { 'argocd.argoproj.io/sync-wave': '0' } },
      spec: {
        clusterResourceWhitelist: [],
        description: 'the AppProjects and Applications of management cluster hub (hcp-cdk)',
        destinations: [{ namespace: 'openshift-gitops', server: 'https://kubernetes.default.svc' }],
        namespaceResourceWhitelist: [
          { group: 'apps.open-cluster-management.io', kind: 'GitOpsCluster' },
          { group: 'argoproj.io', kind: 'AppProject' },
          { group: 'argoproj.io', kind: 'Application' },
          { group: 'cluster.open-cluster-management.io', kind: 'ManagedClusterSetBinding' },
          { group: 'cluster.open-cluster-management.io', kind: 'Placement' },
        ],
        sourceRepos: [REPO],
      },
    });
  });

  test('no Application has a finalizer: deleting one orphans what it applied', () => {
    const applications = [...files.values()].filter((o) => o?.kind === 'Application');
    expect(applications).toHaveLength(4);
    for (const application of applications) {
      expect(application.metadata.finalizers).toBeUndefined();
      expect(JSON.stringify(application)).not.toContain('resources-finalizer');
    }
  });

  test("ACM registers the hub's hosted clusters: a set binding, a Placement by name and a GitOpsCluster", () => {
    expect(files.get('argocd/hub/40-managedclustersetbinding-openshift-gitops_default.yaml')).toEqual({
      apiVersion: 'cluster.open-cluster-management.io/v1beta2',
      kind: 'ManagedClusterSetBinding',
      metadata: { name: 'default', namespace: 'openshift-gitops' },
      spec: { clusterSet: 'default' },
    });
    expect(files.get('argocd/hub/40-placement-openshift-gitops_hub-hosted-clusters.yaml')).toEqual({
      apiVersion: 'cluster.open-cluster-management.io/v1beta1',
      kind: 'Placement',
      metadata: { name: 'hub-hosted-clusters', namespace: 'openshift-gitops' },
      spec: {
        clusterSets: ['default'],
        predicates: [{ requiredClusterSelector: { labelSelector: { matchExpressions: [{ key: 'name', operator: 'In', values: ['one'] }] } } }],
        tolerations: [
          { key: 'cluster.open-cluster-management.io/unreachable', operator: 'Exists' },
          { key: 'cluster.open-cluster-management.io/unavailable', operator: 'Exists' },
        ],
      },
    });
    expect(files.get('argocd/hub/40-gitopscluster-openshift-gitops_hub-hosted-clusters.yaml')).toEqual({
      apiVersion: 'apps.open-cluster-management.io/v1beta1',
      kind: 'GitOpsCluster',
      metadata: { name: 'hub-hosted-clusters', namespace: 'openshift-gitops' },
      spec: {
        argoServer: { argoNamespace: 'openshift-gitops' },
        placementRef: { apiVersion: 'cluster.open-cluster-management.io/v1beta1', kind: 'Placement', name: 'hub-hosted-clusters' },
      },
    });
  });
});

describe('ArgoCdDelivery props', () => {
  test('targetRevision, path and argoCdNamespace reach every Application, AppProject and ACM object', () => {
    const app = appWith({ targetRevision: 'release-1', path: 'estate/out', argoCdNamespace: 'gitops', repoUrl: 'git@git.example.com:platform/estate.git' });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    const files = written(app);
    const hub = files.get('argocd/hub/40-application-gitops_hub.yaml');
    expect(hub.metadata.namespace).toBe('gitops');
    expect(hub.spec.project).toBe('hub');
    expect(files.get('argocd/hub/40-appproject-gitops_hub.yaml').spec.sourceRepos).toEqual(['git@git.example.com:platform/estate.git']);
    expect(hub.spec.source).toEqual({ path: 'estate/out/hub', repoURL: 'git@git.example.com:platform/estate.git', targetRevision: 'release-1' });
    expect(files.get('argocd/hub/40-application-gitops_one-guest.yaml').spec.source.path).toBe('estate/out/one-guest');
    expect(files.get('argocd/hub/40-gitopscluster-gitops_hub-hosted-clusters.yaml').spec.argoServer).toEqual({ argoNamespace: 'gitops' });
    expect(files.get('argocd/hub/40-managedclustersetbinding-gitops_default.yaml').metadata.namespace).toBe('gitops');
  });

  test('path "." is the repository root', () => {
    const app = appWith({ path: '.' });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    expect(written(app).get('argocd/hub/40-application-openshift-gitops_hub.yaml').spec.source.path).toBe('hub');
  });

  test('accepts https, ssh and scp-like Git URLs', () => {
    for (const repoUrl of ['https://git.example.com/a/b.git', 'ssh://git@git.example.com:2222/a/b.git', 'git@github.com:a/b.git']) {
      expect([repoUrl, problemsOf({ repoUrl })]).toEqual([repoUrl, []]);
    }
  });

  test('acmGitOpsCluster({ clusterSet }) binds and places from that set', () => {
    const app = appWith({ guestAccess: ArgoCdGuestAccess.acmGitOpsCluster({ clusterSet: 'hosted' }) });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    const files = written(app);
    expect(files.get('argocd/hub/40-managedclustersetbinding-openshift-gitops_hosted.yaml').spec).toEqual({ clusterSet: 'hosted' });
    expect(files.get('argocd/hub/40-placement-openshift-gitops_hub-hosted-clusters.yaml').spec.clusterSets).toEqual(['hosted']);
  });

  test('registeredClusters writes no ACM objects, only the Applications', () => {
    const app = appWith({ guestAccess: ArgoCdGuestAccess.registeredClusters({ reason: 'cluster Secrets from Vault' }) });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    expect([...written(app).keys()].filter((f) => f.startsWith('argocd/') && !f.includes('appproject')).sort()).toEqual([
      'argocd/hub/40-application-openshift-gitops_argocd-hub.yaml',
      'argocd/hub/40-application-openshift-gitops_hub-one.yaml',
      'argocd/hub/40-application-openshift-gitops_hub.yaml',
      'argocd/hub/40-application-openshift-gitops_one-guest.yaml',
      'argocd/hub/kustomization.yaml',
    ]);
  });

  test('a hub without guest folders needs no guest access and gets no ACM objects', () => {
    const app = appWith({ guestAccess: undefined });
    cluster(new ManagementCluster(app, 'hub'), 'one', { guest: false });
    expect([...written(app).keys()].filter((f) => f.startsWith('argocd/') && !f.includes('appproject'))).toEqual([
      'argocd/hub/40-application-openshift-gitops_argocd-hub.yaml',
      'argocd/hub/40-application-openshift-gitops_hub-one.yaml',
      'argocd/hub/40-application-openshift-gitops_hub.yaml',
      'argocd/hub/kustomization.yaml',
    ]);
  });

  test('each management cluster bootstraps its own hosted clusters only', () => {
    const app = appWith();
    const hubA = new ManagementCluster(app, 'hub-a');
    const hubB = new ManagementCluster(app, 'hub-b');
    cluster(hubA, 'two', { machineNetwork: '192.0.2.0/24' });
    cluster(hubA, 'one', { machineNetwork: '198.51.100.0/24' });
    cluster(hubB, 'three', { machineNetwork: '203.0.113.0/24' });
    const files = written(app);
    const applications = (hub: string) =>
      [...files.entries()].filter(([f, o]) => f.startsWith(`argocd/${hub}/`) && o.kind === 'Application').map(([, o]) => [o.metadata.name, o.spec.destination.server ?? o.spec.destination.name]);
    const IN_CLUSTER = 'https://kubernetes.default.svc';
    expect(applications('hub-a')).toEqual([
      ['argocd-hub-a', IN_CLUSTER],
      ['hub-a-one', IN_CLUSTER],
      ['hub-a-two', IN_CLUSTER],
      ['hub-a', IN_CLUSTER],
      ['one-guest', 'one'],
      ['two-guest', 'two'],
    ]);
    expect(applications('hub-b')).toEqual([
      ['argocd-hub-b', IN_CLUSTER],
      ['hub-b-three', IN_CLUSTER],
      ['hub-b', IN_CLUSTER],
      ['three-guest', 'three'],
    ]);
    const placed = (hub: string) =>
      files.get(`argocd/${hub}/40-placement-openshift-gitops_${hub}-hosted-clusters.yaml`).spec.predicates[0].requiredClusterSelector.labelSelector.matchExpressions[0].values;
    expect(placed('hub-a')).toEqual(['one', 'two']);
    expect(placed('hub-b')).toEqual(['three']);
  });
});

describe('ArgoCdDelivery objects in the folders', () => {
  const annotations = (files: Map<string, any>, file: string) => files.get(file).metadata.annotations;

  test("HostedCluster, NodePool and their Secrets carry the engines' prune protection", () => {
    const app = appWith();
    cluster(new ManagementCluster(app, 'hub'), 'one');
    const files = written(app);
    for (const file of [
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/60-nodepool-clusters_one-workers.yaml',
      'hub/one/20-secret-clusters_one-ssh-key.yaml',
      'hub/one/20-externalsecret-clusters_one-etcd-encryption-key.yaml',
      'hub/00-namespace-clusters.yaml',
    ]) {
      expect([file, annotations(files, file)]).toEqual([file, expect.objectContaining(PRUNE_PROTECTION)]);
    }
  });

  test("allowPruning takes the protection off that cluster's objects", () => {
    const app = appWith();
    const hosted = cluster(new ManagementCluster(app, 'hub'), 'one');
    allowPruning(hosted, { reason: 'a test cluster, recreated at will' });
    const files = written(app);
    expect(annotations(files, 'hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '50', 'hcp-cdk.io/delivery': 'argocd-without-health-checks' });
    expect(annotations(files, 'hub/one/60-nodepool-clusters_one-workers.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '60' });
  });

  test('custom resources in a guest folder skip the dry run of a missing CRD; built-in kinds and hub objects do not', () => {
    const app = appWith();
    cluster(new ManagementCluster(app, 'hub'), 'one');
    const files = written(app);
    const guest = [...files.entries()].filter(([f]) => f.startsWith('one-guest/') && !f.endsWith('kustomization.yaml'));
    const skipping = guest
      .filter(([, o]) => o.metadata.annotations['argocd.argoproj.io/sync-options'] === 'SkipDryRunOnMissingResource=true')
      .map(([, o]) => o.kind)
      .sort();
    expect(skipping).toEqual(['IPAddressPool', 'L2Advertisement', 'MetalLB', 'OperatorGroup', 'Subscription']);
    // A guest's Namespace carries the prune protection, not the dry-run option.
    expect(guest.filter(([, o]) => ['Namespace', 'Service'].includes(o.kind)).map(([, o]) => o.metadata.annotations['argocd.argoproj.io/sync-options'])).toEqual([
      'Prune=false,Delete=false',
      undefined,
    ]);
    expect(annotations(files, 'hub/one/50-hostedcluster-clusters_one.yaml')['argocd.argoproj.io/sync-options']).toBe('Prune=false,Delete=false');
  });
});

describe('ArgoCdDelivery on a hub that installs an operator through OLM', () => {
  const app = appWith();
  const hub = new ManagementCluster(app, 'hub');
  new MultiClusterEngine(hub, 'mce', { installOperator: true });
  cluster(hub, 'one');
  const files = written(app);

  test("the hub's Application skips the dry run of kinds whose CRD is missing: the Subscription installs the MultiClusterEngine's during the sync", () => {
    expect(files.get('argocd/hub/40-application-openshift-gitops_hub.yaml').spec.syncPolicy.syncOptions).toEqual([
      'ServerSideApply=true',
      'FailOnSharedResource=true',
      'SkipDryRunOnMissingResource=true',
    ]);
    expect(files.get('hub/03-subscription-multicluster-engine_multicluster-engine.yaml').spec.name).toBe('multicluster-engine');
  });

  test("the hub's Application retries for about an hour (10 times, backing off to 10 minutes), the others 5 times: CRDs arrive only once OLM and MCE have installed them", () => {
    const retryOf = (unit: string) => files.get(`argocd/hub/40-application-openshift-gitops_${unit}.yaml`).spec.syncPolicy.retry;
    expect(retryOf('hub')).toEqual({ limit: 10, backoff: { duration: '30s', factor: 2, maxDuration: '10m' } });
    for (const other of ['hub-one', 'one-guest', 'argocd-hub']) expect(retryOf(other).limit).toBe(5);
  });

  test("the option is the Application's alone: no hub object skips the dry run by itself, and the Applications without a Subscription keep the dry run", () => {
    const hubObjects = [...files].filter(([file, json]) => file.startsWith('hub/') && typeof json === 'object');
    expect(hubObjects.map(([file]) => file)).toContain('hub/05-multiclusterengine-multiclusterengine.yaml');
    for (const [file, json] of hubObjects) {
      expect([file, json.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '']).toEqual([file, expect.not.stringContaining('SkipDryRunOnMissingResource')]);
    }
    for (const other of ['hub-one', 'one-guest', 'argocd-hub']) {
      expect(files.get(`argocd/hub/40-application-openshift-gitops_${other}.yaml`).spec.syncPolicy.syncOptions).not.toContain('SkipDryRunOnMissingResource=true');
    }
  });
});

describe('ArgoCdDelivery ignoreDifferences', () => {
  const hubApplication = (app: HcpApp) => written(app).get('argocd/hub/40-application-openshift-gitops_hub.yaml');

  test('a MultiClusterEngine: the fields and components its operator fills in, not RespectIgnoreDifferences', () => {
    const app = appWith();
    const hub = new ManagementCluster(app, 'hub');
    new MultiClusterEngine(hub, 'mce');
    cluster(hub, 'one');
    const application = hubApplication(app);
    expect(application.spec.ignoreDifferences).toEqual([
      {
        group: 'multicluster.openshift.io',
        jqPathExpressions: ['.spec.overrides.components[] | select(.name != "hypershift" and .name != "hypershift-local-hosting")'],
        jsonPointers: ['/spec/targetNamespace', '/spec/availabilityConfig'],
        kind: 'MultiClusterEngine',
        name: 'multiclusterengine',
      },
    ]);
    expect(application.spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true', 'FailOnSharedResource=true']);
  });

  test('a field the app sets stays compared', () => {
    const app = appWith();
    const hub = new ManagementCluster(app, 'hub');
    new MultiClusterEngine(hub, 'mce', { availability: MultiClusterEngineAvailability.BASIC, targetNamespace: 'mce' });
    cluster(hub, 'one');
    const [entry] = hubApplication(app).spec.ignoreDifferences;
    expect(entry.jsonPointers).toBeUndefined();
    expect(entry.jqPathExpressions).toHaveLength(1);
  });

  test('ignoreNodePoolReplicas leaves spec.replicas to whoever scales the pools, also when syncing', () => {
    const app = appWith({ ignoreNodePoolReplicas: true });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    const files = written(app);
    const application = files.get('argocd/hub/40-application-openshift-gitops_hub-one.yaml');
    expect(application.spec.ignoreDifferences).toEqual([{ group: 'hypershift.openshift.io', jsonPointers: ['/spec/replicas'], kind: 'NodePool' }]);
    expect(application.spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true', 'FailOnSharedResource=true', 'RespectIgnoreDifferences=true']);
    for (const other of ['hub', 'one-guest']) {
      const unit = files.get(`argocd/hub/40-application-openshift-gitops_${other}.yaml`);
      expect(unit.spec.ignoreDifferences).toBeUndefined();
      expect(unit.spec.syncPolicy.syncOptions).toEqual(['ServerSideApply=true', 'FailOnSharedResource=true']);
    }
  });

  test('by default NodePool replicas are compared (Argo CD reverts a scale made outside Git)', () => {
    const app = appWith();
    cluster(new ManagementCluster(app, 'hub'), 'one');
    expect(hubApplication(app).spec.ignoreDifferences).toBeUndefined();
  });
});

describe('ArgoCdDelivery order, in sync waves', () => {
  const app = appWith();
  cluster(new ManagementCluster(app, 'hub'), 'one');
  const files = written(app);
  const objects = [...files.entries()].filter(([f]) => !f.endsWith('kustomization.yaml')).map(([file, object]) => ({ file, object }));
  const wave = (o: { object: any }) => Number(o.object.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
  /** The objects one Application syncs: its folder's own (each folder's kustomization.yaml lists no sub-folder). */
  const inApplication = (application: any) => {
    const folder = application.spec.source.path.replace(/^dist\//, '');
    return objects.filter((o) => o.file.slice(0, o.file.lastIndexOf('/')) === folder);
  };
  const application = (name: string) => objects.find((o) => o.object.kind === 'Application' && o.object.metadata.name === name)!.object;
  const of = (list: { object: any }[], kind: string) => list.filter((o) => o.object.kind === kind);

  test("the hub's Application makes the namespaces; inside the cluster's: Secrets, then the HostedCluster, then its NodePools", () => {
    expect(of(inApplication(application('hub')), 'Namespace').map((o) => o.object.metadata.name)).toEqual(['clusters']);
    const unit = inApplication(application('hub-one'));
    const [hosted] = of(unit, 'HostedCluster');
    const secrets = [...of(unit, 'Secret'), ...of(unit, 'ExternalSecret')];
    expect(secrets).toHaveLength(2);
    for (const secret of secrets) expect(wave(secret)).toBeLessThan(wave(hosted));
    for (const pool of of(unit, 'NodePool')) expect(wave(hosted)).toBeLessThan(wave(pool));
  });

  test('inside the guest Application: the Subscription before the MetalLB resources its operator serves', () => {
    const guest = inApplication(application('one-guest'));
    const [subscription] = of(guest, 'Subscription');
    const served = guest.filter((o) => o.object.apiVersion.startsWith('metallb.io/'));
    expect(served).toHaveLength(3);
    for (const resource of served) expect(wave(subscription)).toBeLessThan(wave(resource));
  });

  test("in the bootstrap folder the projects come first, then the hub's Application, then the cluster's and its guest's together", () => {
    const projects = objects.filter((o) => o.object.kind === 'AppProject');
    expect(projects.map(wave)).toEqual([0, 0, 0, 0, 0]);
    expect(wave({ object: application('hub') })).toBe(1);
    expect(wave({ object: application('hub-one') })).toBe(3);
    expect(wave({ object: application('one-guest') })).toBe(3);
    expect(application('one-guest').spec.destination).toEqual({ name: 'one', namespace: 'metallb' });
  });
});

describe('Argo CD health checks for the app of apps, run in a Lua VM', () => {
  const OLD = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
  const NEW = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';
  const available = { type: 'Available', status: 'True', message: 'The hosted control plane is available' };
  const hostedCluster = (status: unknown) => ({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', spec: { release: { image: NEW } }, ...(status ? { status } : {}) });

  // hcp-cdk's model of HyperShift's status (lib/status) decides; test/status holds the corpus of shapes HyperShift writes.
  test.each([
    ['no status yet', undefined, { status: 'Progressing', message: `first install of ${NEW}: no Available condition yet` }],
    [
      'not Available, with a reason',
      { conditions: [{ type: 'Available', status: 'False', message: 'waiting for etcd' }] },
      { status: 'Progressing', message: `first install of ${NEW}: Available is False: waiting for etcd` },
    ],
    [
      'Degraded before it is Available: a first install, whose Deployments come up',
      {
        conditions: [
          { type: 'Available', status: 'False' },
          { type: 'Degraded', status: 'True', message: 'etcd crashes' },
        ],
      },
      { status: 'Progressing', message: `first install of ${NEW}: Available is False` },
    ],
    [
      'first install, Available, not completed (the pools must join for it to complete)',
      { conditions: [available], version: { desired: { image: NEW }, history: [{ image: NEW, state: 'Partial' }] } },
      { status: 'Healthy', message: `first install of ${NEW}: the control plane is available, waiting for its nodes` },
    ],
    [
      'running its release',
      { conditions: [available], version: { desired: { image: NEW, version: '4.17.3' }, history: [{ image: NEW, version: '4.17.3', state: 'Completed' }] } },
      { status: 'Healthy', message: 'running 4.17.3' },
    ],
    [
      'upgrade just committed: status still names the old release',
      { conditions: [available], version: { desired: { image: OLD, version: '4.17.0' }, history: [{ image: OLD, version: '4.17.0', state: 'Completed' }] } },
      { status: 'Progressing', message: `HyperShift has not started ${NEW} yet: status.version.desired is 4.17.0` },
    ],
    [
      'upgrading',
      {
        conditions: [available],
        version: {
          desired: { image: NEW, version: '4.17.3' },
          history: [
            { image: NEW, version: '4.17.3', state: 'Partial' },
            { image: OLD, version: '4.17.0', state: 'Completed' },
          ],
        },
      },
      { status: 'Progressing', message: 'the control plane is upgrading from 4.17.0 to 4.17.3' },
    ],
    [
      'upgraded',
      {
        conditions: [available],
        version: {
          desired: { image: NEW, version: '4.17.3' },
          history: [
            { image: NEW, version: '4.17.3', state: 'Completed' },
            { image: OLD, version: '4.17.0', state: 'Completed' },
          ],
        },
      },
      { status: 'Healthy', message: 'running 4.17.3' },
    ],
  ])('HostedCluster, %s', (_, status, expected) => {
    expect(runHealthCheck(HOSTED_CLUSTER_HEALTH_LUA, hostedCluster(status))).toEqual(expected);
  });

  test.each([
    ['no status yet', {}, { status: 'Progressing', message: '' }],
    ['its health', { status: { health: { status: 'Degraded', message: 'a hook failed' } } }, { status: 'Degraded', message: 'a hook failed' }],
    ['Healthy', { status: { health: { status: 'Healthy' } } }, { status: 'Healthy', message: '' }],
  ])('Application, %s', (_, application, expected) => {
    expect(runHealthCheck(APPLICATION_HEALTH_LUA, application)).toEqual(expected);
  });

  test('named by the group and kind they check', () => {
    expect(ARGO_CD_HEALTH_CHECKS.map((c) => `${c.group}_${c.kind}`)).toEqual(['hypershift.openshift.io_HostedCluster', 'hypershift.openshift.io_NodePool', 'argoproj.io_Application']);
  });
});

describe('ArgoCdDelivery fails', () => {
  test('fails when repoUrl is missing, empty or not a Git URL', () => {
    expect(problemsOf({ repoUrl: undefined })).toEqual(['delivery.repoUrl (undefined) must be a Git URL: https://host/path, ssh://[user@]host/path or user@host:path']);
    for (const repoUrl of ['', 'git.example.com/a/b.git', 'ftp://git.example.com/a/b.git', 'https://git.example.com', 'https://git.example.com/a b', '/srv/git/a.git']) {
      expect(problemsOf({ repoUrl })).toEqual([`delivery.repoUrl (${JSON.stringify(repoUrl)}) must be a Git URL: https://host/path, ssh://[user@]host/path or user@host:path`]);
    }
  });

  test('fails when targetRevision is empty, or a JavaScript caller still names one project for every Application', () => {
    expect(problemsOf({ project: 'default', targetRevision: '' } as any)).toEqual([
      'delivery.targetRevision ("") must be a branch, tag or commit: not empty, no spaces',
      'delivery.project ("default") must be left out: ArgoCdDelivery writes an AppProject per Application that allows exactly what its folder writes',
    ]);
  });

  test('fails when argoCdNamespace is not a namespace name or path leaves the repository', () => {
    expect(problemsOf({ argoCdNamespace: 'Open_GitOps', path: '../dist' })).toEqual([
      'delivery.argoCdNamespace ("Open_GitOps") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
      'delivery.path ("../dist") must be a relative path inside the repository ("." for its root), without ".." or backslashes',
    ]);
    for (const outputPath of ['', '/srv/dist', 'a/../../b', 'dist\\hub']) expect([outputPath, problemsOf({ path: outputPath })]).toEqual([outputPath, [expect.stringMatching(/^delivery\.path /)]]);
  });

  test('fails when registeredClusters has no reason', () => {
    const guestAccess = ArgoCdGuestAccess.registeredClusters({ reason: ' ' });
    expect(problemsOf({ guestAccess })).toEqual([
      'delivery.guestAccess.reason (" ") must say how the hosted clusters get registered in Argo CD under their names, e.g. "cluster Secrets from Vault, written by the platform pipeline"',
    ]);
    expect(problemsOf({ guestAccess: ArgoCdGuestAccess.registeredClusters(undefined as any) })).toHaveLength(1);
  });

  test('fails when acmGitOpsCluster names a set that cannot be one', () => {
    expect(problemsOf({ guestAccess: ArgoCdGuestAccess.acmGitOpsCluster({ clusterSet: 'Hosted Clusters' }) })).toEqual([
      'delivery.guestAccess.clusterSet ("Hosted Clusters") must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters',
    ]);
  });

  test('fails when a guest folder has no way in', () => {
    expect(
      problemsOf({ guestAccess: undefined }, (app) => {
        const hub = new ManagementCluster(app, 'hub');
        cluster(hub, 'two', { machineNetwork: '192.0.2.0/24' });
        cluster(hub, 'one', { machineNetwork: '198.51.100.0/24' });
      }),
    ).toEqual([
      'delivery.guestAccess (undefined) must say how Argo CD reaches the hosted clusters of the guest folders one-guest, two-guest: ' +
        'ArgoCdGuestAccess.acmGitOpsCluster() to have ACM register them, or ArgoCdGuestAccess.registeredClusters({ reason }) if you register them yourself',
    ]);
  });

  test('fails when a chart is named like the bootstrap folder', () => {
    expect(problemsOf({}, (app) => cluster(new ManagementCluster(app, 'argocd'), 'one'))).toEqual([
      'delivery.bootstrap folder ("argocd") is also the folder of a chart with id "argocd"; give that chart another id, ' +
        "ArgoCdDelivery writes each management cluster's Applications to argocd/<cluster>/",
    ]);
  });

  test('fails with every problem at once and writes nothing', () => {
    const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-argocd-')), 'dist');
    const app = new HcpApp({ outdir, delivery: new ArgoCdDelivery({ repoUrl: '', targetRevision: '' }) });
    cluster(new ManagementCluster(app, 'hub'), 'one');
    expect(() => app.synth()).toThrow(/3 problems:\n {2}- delivery\.repoUrl \(""\)[^]*delivery\.targetRevision \(""\)[^]*delivery\.guestAccess \(undefined\)/);
    expect(fs.existsSync(outdir)).toBe(false);
  });
});
