import * as YAML from 'yaml';
import { allowPruning, ClusterPlatform, HcpApp, HostedCluster, KustomizeDelivery, ManagementCluster, MetalLBIngress, Release, SecretEncryption, SecretSource, SshPublicKey } from '../../lib';
import { SSH_KEY } from '../props';
import { PRUNE_PROTECTION, synthFiles, synthProblems } from '../util';

/** An Agent cluster with an SSH key Secret, an etcd key from an ExternalSecret, a pool and a MetalLB guest. */
function estate(app: HcpApp): HostedCluster {
  const hub = new ManagementCluster(app, 'hub');
  const cluster = new HostedCluster(hub, 'one', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    sshKey: SshPublicKey.fromString(SSH_KEY),
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'one/etcd' })),
    networking: { machineNetwork: ['192.0.2.0/24'] },
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
  });
  cluster.addNodePool('workers');
  new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.0.2.100'] });
  return cluster;
}

/** Every written object with its file, in the name order kustomize and `oc apply -k` follow. */
function written(app: HcpApp): { path: string; object: any; wave: number }[] {
  return synthFiles(app).map((f) => {
    const object = YAML.parse(f.text);
    return { path: f.path, object, wave: Number(object.metadata.annotations['argocd.argoproj.io/sync-wave']) };
  });
}

describe('KustomizeDelivery apply order (file names and Argo CD sync waves agree)', () => {
  const app = new HcpApp({ delivery: new KustomizeDelivery() });
  estate(app);
  const objects = written(app);
  const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/'));
  /** Whether `a` is applied before `b`: an earlier wave, and an earlier file in a folder `oc apply -k` walks first. */
  const before = (a: { path: string; wave: number }, b: { path: string; wave: number }) => a.wave < b.wave && a.path.split('/').pop()! < b.path.split('/').pop()!;
  const of = (kind: string) => objects.filter((o) => o.object.kind === kind);

  test('the example has what the order tests are about', () => {
    expect(
      of('Namespace')
        .map((o) => o.object.metadata.name)
        .sort(),
    ).toEqual(['clusters', 'metallb']);
    expect(of('ExternalSecret')).toHaveLength(1);
    expect(of('Subscription')).toHaveLength(1);
  });

  test('every namespace before what lives in it, on the same target cluster', () => {
    for (const namespace of of('Namespace')) {
      const target = namespace.path.split('/')[0];
      const inside = objects.filter((o) => o.object.metadata.namespace === namespace.object.metadata.name && o.path.split('/')[0] === target);
      expect(inside.length).toBeGreaterThan(0);
      for (const object of inside) expect([object.path, before(namespace, object)]).toEqual([object.path, true]);
    }
  });

  test('Secrets, ExternalSecrets and ConfigMaps before the HostedCluster, the HostedCluster before its NodePools', () => {
    const [cluster] = of('HostedCluster');
    const secrets = objects.filter((o) => ['Secret', 'ExternalSecret', 'ConfigMap'].includes(o.object.kind) && folderOf(o.path) === folderOf(cluster.path));
    expect(secrets.map((o) => o.object.kind).sort()).toEqual(['ExternalSecret', 'Secret']);
    for (const secret of secrets) expect(before(secret, cluster)).toBe(true);
    for (const pool of of('NodePool')) expect(before(cluster, pool)).toBe(true);
  });

  test("an operator's Subscription before the custom resources its CRDs define", () => {
    const [subscription] = of('Subscription');
    const served = objects.filter((o) => o.object.apiVersion.startsWith('metallb.io/'));
    expect(served.map((o) => o.object.kind).sort()).toEqual(['IPAddressPool', 'L2Advertisement', 'MetalLB']);
    for (const resource of served) expect(before(subscription, resource)).toBe(true);
  });

  test('the guest folder is a target of its own, applied inside the hosted cluster after it is Available', () => {
    // Plain folders have no engine to wait with: `oc apply -k dist/one-guest` with the hosted cluster's kubeconfig.
    const guest = objects.filter((o) => o.path.startsWith('one-guest/'));
    expect(guest.length).toBeGreaterThan(0);
    expect(objects.filter((o) => o.path.startsWith('hub/') && o.object.metadata.namespace === 'metallb')).toEqual([]);
  });
});

describe('KustomizeDelivery prune protection', () => {
  const annotationsOf = (app: HcpApp) => new Map(written(app).map((o) => [o.path, o.object.metadata.annotations]));

  test("HostedCluster, NodePool, the cluster's Secrets and the namespaces (a guest's too) carry both engines' protection; other guest objects do not", () => {
    const annotations = annotationsOf(
      (() => {
        const app = new HcpApp();
        estate(app);
        return app;
      })(),
    );
    const protectedFiles = [...annotations].filter(([, a]) => a['argocd.argoproj.io/sync-options']?.includes('Prune=false')).map(([path]) => path);
    expect(protectedFiles).toEqual([
      'hub/00-namespace-clusters.yaml',
      'hub/one/20-externalsecret-clusters_one-etcd-encryption-key.yaml',
      'hub/one/20-secret-clusters_one-ssh-key.yaml',
      'hub/one/50-hostedcluster-clusters_one.yaml',
      'hub/one/60-nodepool-clusters_one-workers.yaml',
      'one-guest/00-namespace-metallb.yaml',
    ]);
    expect(annotations.get('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '50', ...PRUNE_PROTECTION, 'hcp-cdk.io/delivery': 'kustomize' });
    expect(Object.keys(annotations.get('one-guest/40-service-openshift-ingress_metallb-ingress.yaml'))).not.toContain('argocd.argoproj.io/sync-options');
    expect(Object.keys(annotations.get('one-guest/40-service-openshift-ingress_metallb-ingress.yaml'))).not.toContain('kustomize.toolkit.fluxcd.io/prune');
  });

  test('keeps sync options the object has and adds its own after them', () => {
    const app = new HcpApp();
    const cluster = estate(app);
    cluster.resource.metadata.addAnnotation('argocd.argoproj.io/sync-options', 'ServerSideApply=true');
    const annotations = annotationsOf(app).get('hub/one/50-hostedcluster-clusters_one.yaml');
    expect(annotations['argocd.argoproj.io/sync-options']).toBe('ServerSideApply=true,Prune=false,Delete=false');
  });

  test('allowPruning(cluster) gives up the protection of that cluster only, and says why in code', () => {
    const app = new HcpApp();
    const cluster = estate(app);
    allowPruning(cluster, { reason: 'a throw-away test cluster, recreated by CI' });
    const annotations = annotationsOf(app);
    expect(annotations.get('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '50', 'hcp-cdk.io/delivery': 'kustomize' });
    expect(annotations.get('hub/one/60-nodepool-clusters_one-workers.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '60' });
    expect(annotations.get('hub/00-namespace-clusters.yaml')).toEqual({ 'argocd.argoproj.io/sync-wave': '0', ...PRUNE_PROTECTION });
  });

  test.each([
    ['an empty reason', { reason: '' }, '""'],
    ['a blank reason', { reason: '  ' }, '"  "'],
    ['no reason (JavaScript callers)', {} as { reason: string }, 'undefined'],
  ])('fails when allowPruning is given %s', (_, options, shown) => {
    const problems = synthProblems((app) => allowPruning(estate(app), options));
    expect(problems).toEqual([`hub/one: allowPruning reason (${shown}) must say why pruning these objects is safe; protection against accidental deletion is only given up on purpose`]);
  });
});
