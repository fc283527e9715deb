// Fleet changes under ACM, held by a real kube-apiserver with RBAC on. ACM's objects (the guest
// Policies, their Placements and PlacementBindings, the policy namespace's ManagedClusterSetBinding)
// live in the hub folders, and docs/delivery.md names the one way to apply those that keeps each
// cluster on its own: `AcmDelivery({ hubDelivery })`, an Argo CD Application or a Flux Kustomization
// per unit, `<hub>/policies` one of them. Each engine is replayed as in argo-cd-fleet-changes and
// flux-rbac (argo-cd-replay.ts, flux-replay.ts), OCM's webhooks included (ocm-webhooks.ts): a hosted
// cluster that fails holds back its own NodePools and nothing else, where one Application over the
// whole hub folder holds back every cluster's; a guest or cluster removed prunes its Policies,
// Placement and PlacementBinding (pruneObjectBehavior None: ACM then deletes nothing it enforced in
// the hosted cluster, config-policy-controller's `cleanUpChildObjects`), and what is protected stays.
import { AcmDelivery, ArgoCdDelivery, FluxDelivery, FluxSource, IDelivery } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';
import { ArgoCdReplay } from './argo-cd-replay';
import { FluxReplay } from './flux-replay';
import { Impersonation, KubeClient } from './kube-client';
import { ocmWebhookRefusal } from './ocm-webhooks';

const client = KubeClient.fromEnvironment();
const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';
const started = Date.now();

/** One engine applying the hub folders: how a commit is written, bootstrapped and reconciled. */
interface Engine {
  readonly name: string;
  readonly hub: string;
  delivery(repoUrl?: string): IDelivery;
  bootstrap(c: Commit, hub: string): Promise<void>;
  /** Each unit's outcome: 'ok' when it proceeded (Synced or Ready), else what held it. */
  reconcile(c: Commit): Promise<Map<string, string>>;
  /** The name its units have: the Application or the Kustomization of `folder`. */
  unitOf(folder: string): string;
}

function argoCd(): Engine {
  const namespace = 'argocd-acm';
  const replay = new ArgoCdReplay(client, namespace, Impersonation.serviceAccount(namespace, 'argocd-application-controller'));
  return {
    name: 'Argo CD',
    hub: 'acm-argo',
    delivery: (repoUrl = REPOSITORY) => new AcmDelivery({ policyNamespace: 'acm-argo-policies', hubDelivery: new ArgoCdDelivery({ repoUrl, argoCdNamespace: namespace }) }),
    bootstrap: (c, hub) => replay.bootstrap(c, hub),
    reconcile: async (c) => new Map([...(await replay.sync(c))].map(([name, o]) => [name, o.phase === 'Synced' ? 'ok' : `${o.phase}: ${o.message}`])),
    unitOf: (folder) => folder.split('/').join('-'),
  };
}

function flux(): Engine {
  const namespace = 'flux-acm';
  const replay = new FluxReplay(client, namespace);
  return {
    name: 'Flux',
    hub: 'acm-flux',
    delivery: (url = REPOSITORY) =>
      new AcmDelivery({ policyNamespace: 'acm-flux-policies', hubDelivery: new FluxDelivery({ namespace, source: FluxSource.gitRepository({ name: 'hcp-estate', url, namespace }) }) }),
    bootstrap: async (c, hub) => {
      await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      await replay.bootstrap(c, hub);
    },
    reconcile: async (c) => new Map([...(await replay.reconcile(c))].map(([id, o]) => [id.split('/')[1], o === 'Ready' ? 'ok' : o])),
    unitOf: (folder) => folder.split('/').join('-'),
  };
}

/** A HostedCluster's status as HyperShift writes it when it refuses the release: Degraded (Argo CD), failed (Flux). */
const refusedRelease = {
  conditions: [{ type: 'ValidReleaseImage', status: 'False', reason: 'InvalidImage', message: 'the release image cannot be read', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 }],
};
const available = {
  conditions: [{ type: 'Available', status: 'True', reason: 'AsExpected', message: 'The hosted control plane is available', lastTransitionTime: '2026-01-01T00:00:00Z', observedGeneration: 1 }],
};

const notOk = (outcomes: Map<string, string>) => [...outcomes].filter(([, o]) => o !== 'ok' && !o.startsWith('Skipped'));
const objectsOf = (c: Commit, folder: string, kind: string) => (c.folders.get(folder) ?? []).filter((o) => o.kind === kind);
const replicasOf = async (pool: any) => (await client.get(pool)).body.spec.replicas;
const poolsOf = (c: Commit) => [...c.folders.values()].flat().filter((o) => o.kind === 'NodePool');
const exists = async (o: any) => (await client.get(o)).status === 200;

afterAll(() => {
  client.close();
  process.stdout.write(`acm-fleet-changes.test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

describe.each([
  ['Argo CD', argoCd()],
  ['Flux', flux()],
])('ACM, its hub folders applied by %s', (_name, engine) => {
  // A fleet of its own on this server: its own namespaces, and a hub name of its own (Flux's cluster-scoped RBAC is named after it).
  // Seven clusters: Agent (with guests) three times, AWS and KubeVirt twice each.
  const base = fleetChange.renameHub(
    fleetChange.firstClusters(fleetChange.inNamespaces(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), `${engine.hub}-clusters`, `${engine.hub}-`), 7),
    'hub-0',
    engine.hub,
  );
  const hub = engine.hub;
  const commits: Commit[] = [];
  const last = () => commits[commits.length - 1];
  let inventory = base;
  const next = (name: string, changed = inventory, delivery = engine.delivery()) => {
    inventory = changed;
    commits.push(commit(name, changed, delivery, last()));
    return engine.reconcile(last());
  };

  test('the first install: every unit proceeds, the guest policies among them, and ACM lets the policies unit bind the cluster set', async () => {
    commits.push(commit('first install', base, engine.delivery()));
    await engine.bootstrap(last(), hub);
    const outcomes = await engine.reconcile(last());
    expect(notOk(outcomes)).toEqual([]);
    expect(outcomes.get(engine.unitOf(`${hub}/policies`))).toBe('ok');
    for (const policy of objectsOf(last(), `${hub}/policies`, 'Policy')) expect([policy.metadata.name, await exists(policy)]).toEqual([policy.metadata.name, true]);
    // The right OCM's webhook asks is the policies unit's alone (Flux) or the controller's (Argo CD): a cluster's unit is refused it.
    const binding = objectsOf(last(), `${hub}/policies`, 'ManagedClusterSetBinding')[0];
    const clusterUnit = engine.name === 'Flux' ? Impersonation.serviceAccount('flux-acm', `${hub}-c00002`) : Impersonation.serviceAccount('default', 'default');
    expect(await ocmWebhookRefusal(client, { ...binding, metadata: { ...binding.metadata, namespace: `${hub}-clusters` } }, clusterUnit)).toMatch(/managedclustersets\/bind "default" is forbidden/);
  }, 90_000);

  test("a HostedCluster that fails holds back its own NodePools and no other cluster's", async () => {
    const failing = objectsOf(last(), `${hub}/c00002`, 'HostedCluster')[0];
    expect((await client.updateStatus({ ...failing, status: refusedRelease })).status).toBe(200);
    const outcomes = await next('every pool scaled by one', fleetChange.scalePools(inventory, 1));
    expect(notOk(outcomes).map(([name]) => name)).toEqual(engine.name === 'Flux' ? [`${hub}-c00002`, `${hub}-c00002-node-pools`] : [`${hub}-c00002`]);
    const scaled = poolsOf(last()).filter((p) => p.spec.replicas !== poolsOf(commits[commits.length - 2]).find((q) => q.metadata.name === p.metadata.name)!.spec.replicas);
    expect(scaled.length).toBeGreaterThan(5);
    for (const pool of scaled) {
      const held = pool.metadata.name.startsWith('c00002-');
      expect([pool.metadata.name, await replicasOf(pool)]).toEqual([pool.metadata.name, held ? pool.spec.replicas - 1 : pool.spec.replicas]);
    }
    // HyperShift accepts the release again: its pools follow.
    expect((await client.updateStatus({ ...failing, status: available })).status).toBe(200);
    expect(notOk(await engine.reconcile(last()))).toEqual([]);
  }, 90_000);

  test('removing a guest: its Policies, Placement and PlacementBinding are pruned with pruneObjectBehavior None, so nothing in the hosted cluster is deleted; every unit proceeds', async () => {
    const guest = 'c00006-guest';
    const before = last();
    const gone = objectsOf(before, `${hub}/policies`, 'Policy').filter((p) => p.metadata.name.startsWith(guest));
    expect(gone.length).toBe(2);
    const outcomes = await next('drop the guest of c00006', fleetChange.dropGuest(inventory, 'c00006'));
    expect(notOk(outcomes)).toEqual([]);
    for (const o of [...gone, ...objectsOf(before, `${hub}/policies`, 'Placement'), ...objectsOf(before, `${hub}/policies`, 'PlacementBinding')].filter((o) => o.metadata.name.startsWith(guest))) {
      expect([o.kind, o.metadata.name, await exists(o)]).toEqual([o.kind, o.metadata.name, false]);
    }
    for (const template of gone.flatMap((p) => p.spec['policy-templates'])) {
      const definition = template.objectDefinition;
      if (definition.kind === 'ConfigurationPolicy') expect(definition.spec.pruneObjectBehavior).toBe('None');
      else expect(definition.spec.removalBehavior).toEqual({ operatorGroups: 'Keep', subscriptions: 'Keep', clusterServiceVersions: 'Keep', customResourceDefinitions: 'Keep' });
    }
    expect(await exists(objectsOf(last(), `${hub}/policies`, 'Policy')[0])).toBe(true);
  }, 90_000);

  test("removing a cluster: its unit and its guest's policies are pruned, its protected objects stay, every other unit proceeds", async () => {
    const before = last();
    const hosted = objectsOf(before, `${hub}/c00000`, 'HostedCluster')[0];
    const outcomes = await next('remove c00000', fleetChange.removeCluster(inventory, 'c00000'));
    expect(notOk(outcomes)).toEqual([]);
    expect(outcomes.has(engine.unitOf(`${hub}/c00000`))).toBe(false);
    expect(await exists(hosted)).toBe(true);
    for (const policy of objectsOf(before, `${hub}/policies`, 'Policy').filter((p) => p.metadata.name.startsWith('c00000-guest'))) expect(await exists(policy)).toBe(false);
  }, 90_000);

  test('dropping a NodePool: it stays (protected), every unit proceeds', async () => {
    const pool = objectsOf(last(), engine.name === 'Flux' ? `${hub}/c00006/node-pools` : `${hub}/c00006`, 'NodePool').find((p) => p.metadata.name === 'c00006-spare');
    const outcomes = await next('drop c00006-spare', fleetChange.dropNodePool(inventory, 'c00006', 'spare'));
    expect(notOk(outcomes)).toEqual([]);
    expect(await exists(pool)).toBe(true);
  }, 90_000);

  test('moving a cluster away and adding it back: a removal, then an addition whose unit takes its objects back', async () => {
    const moved = fleetChange.clusterSpec(inventory, 'c00004');
    expect(notOk(await next('move c00004 away', fleetChange.removeCluster(inventory, 'c00004')))).toEqual([]);
    const outcomes = await next('add c00004', fleetChange.addCluster(inventory, hub, moved));
    expect(notOk(outcomes)).toEqual([]);
    expect(outcomes.get(engine.unitOf(`${hub}/c00004`))).toBe('ok');
  }, 90_000);

  test('changing the repository URL: every unit follows, the policies among them', async () => {
    expect(notOk(await next('new repository', inventory, engine.delivery('https://git.example.com/platform/estate-v2.git')))).toEqual([]);
  }, 90_000);

  test('renaming the hub: after its hand step (the new bootstrap folder), every unit of the new name proceeds, the policies unit too; the Policies keep their names', async () => {
    const renamed = `${hub}-x`;
    inventory = fleetChange.renameHub(inventory, hub, renamed);
    commits.push(commit(`rename ${hub}`, inventory, engine.delivery('https://git.example.com/platform/estate-v2.git'), last()));
    await engine.bootstrap(last(), renamed);
    const outcomes = await engine.reconcile(last());
    const fresh = [...outcomes].filter(([name]) => name.includes(renamed));
    expect(fresh.filter(([, o]) => o !== 'ok')).toEqual([]);
    expect(outcomes.get(engine.unitOf(`${renamed}/policies`))).toBe('ok');
    expect(objectsOf(last(), `${renamed}/policies`, 'Policy').map((p) => p.metadata.name)).toEqual(objectsOf(commits[commits.length - 2], `${hub}/policies`, 'Policy').map((p) => p.metadata.name));
  }, 90_000);

  test("dropping the hub's last guest: the policies unit stays one commit (its Namespace and binding) and prunes the Policies, which ACM would go on enforcing if its unit were deleted instead", async () => {
    const renamed = `${hub}-x`;
    const policies = objectsOf(last(), `${renamed}/policies`, 'Policy');
    expect(policies.length).toBe(2);
    const outcomes = await next('drop the last guest', fleetChange.dropGuest(inventory, 'c00012'));
    // (The old name's units are left for the rename's hand step.)
    expect(notOk(outcomes).filter(([name]) => name.includes(renamed))).toEqual([]);
    expect(objectsOf(last(), `${renamed}/policies`, 'Namespace')).toHaveLength(1);
    expect(outcomes.get(engine.unitOf(`${renamed}/policies`))).toBe('ok');
    for (const policy of policies) expect([policy.metadata.name, await exists(policy)]).toEqual([policy.metadata.name, false]);
    // The commit after, the folder goes.
    await next('after the last guest', inventory);
    expect(last().folders.has(`${renamed}/policies`)).toBe(false);
  }, 90_000);
});

describe('what the issue found: one Application over the whole hub folder (AcmDelivery without hubDelivery)', () => {
  const namespace = 'argocd-acm-whole';
  const hub = 'acm-whole';
  const replay = new ArgoCdReplay(client, namespace, Impersonation.serviceAccount(namespace, 'argocd-application-controller'));
  const base = fleetChange.renameHub(fleetChange.inNamespaces(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), `${hub}-clusters`, `${hub}-`), 'hub-0', hub);
  const delivery = () => new AcmDelivery({ policyNamespace: `${hub}-policies` });
  /** One Application over `<hub>`, as a user points Argo CD at the folder, with a project that allows it. */
  const project = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: hub, namespace },
    spec: { sourceRepos: [REPOSITORY], destinations: [{ server: 'https://kubernetes.default.svc', namespace: '*' }], clusterResourceWhitelist: [{ group: '*', kind: '*' }] },
  };
  const application = {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name: hub, namespace },
    spec: {
      project: hub,
      source: { repoURL: REPOSITORY, path: `dist/${hub}`, targetRevision: 'HEAD' },
      destination: { server: 'https://kubernetes.default.svc', namespace: `${hub}-clusters` },
      syncPolicy: { automated: { prune: true }, syncOptions: ['ServerSideApply=true'] },
    },
  };
  /** The hub folder as Argo CD renders it: its kustomization.yaml lists its sub-folders, so the whole hub is one Application's. */
  const wholeHub = (c: Commit): Commit => ({
    name: c.name,
    files: c.files,
    folders: new Map([[hub, [...c.folders].filter(([folder]) => folder === hub || folder.startsWith(`${hub}/`)).flatMap(([, objects]) => objects)]]),
  });

  test("a HostedCluster that fails holds back every cluster's NodePools", async () => {
    const first = wholeHub(commit('first install', base, delivery()));
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    await client.apply(project);
    await client.apply(application);
    expect((await replay.sync(first)).get(hub)).toMatchObject({ phase: 'Synced' });
    const failing = first.folders.get(hub)!.find((o) => o.kind === 'HostedCluster' && o.metadata.name === 'c00002')!;
    expect((await client.updateStatus({ ...failing, status: refusedRelease })).status).toBe(200);
    const scaled = wholeHub(commit('every pool scaled by one', fleetChange.scalePools(base, 1), delivery()));
    expect((await replay.sync(scaled)).get(hub)).toMatchObject({ phase: 'Running', message: 'waiting for HostedCluster/c00002 (wave 50) to be Healthy: Degraded' });
    const pools = poolsOf(scaled).filter((p) => p.spec.replicas !== poolsOf(first).find((q) => q.metadata.name === p.metadata.name)!.spec.replicas);
    expect(pools.length).toBeGreaterThan(10);
    for (const pool of pools) expect([pool.metadata.name, await replicasOf(pool)]).toEqual([pool.metadata.name, pool.spec.replicas - 1]);
  }, 90_000);
});
