// Fleet changes under Argo CD, held by a real kube-apiserver with RBAC on. Hub hub-0 of the fleet
// example goes through one commit per entry of the catalogue in docs/delivery.md (fleet changes):
// each commit is synthesized over the one before (its previous output), and every Application is
// synced as Argo CD's application controller syncs it, as the controller's identity, with the RBAC
// it needs for what the units hold (see argo-cd-replay.ts for the calls and the argo-cd code they
// follow): the AppProject's rules, which Argo CD enforces itself, the tracking id, the
// shared-resource check, the dry run, the server-side apply and prune. A commit passes when every
// Application that should sync does, and every refusal is one the catalogue names.
import { ArgoCdDelivery, ArgoCdGuestAccess, ARGO_CD_ADOPTS_ANNOTATION } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';
import { ArgoCdReplay, SyncOutcome, TRACKING_ID } from './argo-cd-replay';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const ARGO_CD_NAMESPACE = 'argocd-fleet';
const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';
const delivery = (repoUrl = REPOSITORY, path?: string) => new ArgoCdDelivery({ repoUrl, path, argoCdNamespace: ARGO_CD_NAMESPACE, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
// In namespaces of its own: other suites apply the fleet example to the same server.
const base = fleetChange.inNamespaces(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), 'argo-fleet', 'argo-fleet-');
const replay = new ArgoCdReplay(client, ARGO_CD_NAMESPACE, Impersonation.serviceAccount(ARGO_CD_NAMESPACE, 'argocd-application-controller'));
const commits: Commit[] = [];
const last = () => commits[commits.length - 1];
const started = Date.now();

/** Each Application's outcome that is not Synced, guests' (whose destination is a hosted cluster) left out. */
const notSynced = (outcomes: Map<string, SyncOutcome>) => [...outcomes].filter(([, o]) => o.phase !== 'Synced' && o.phase !== 'Skipped').map(([name, o]) => [name, o.message]);
const named = (c: Commit, folder: string, kind: string, name: string) => c.folders.get(folder)!.find((o) => o.kind === kind && o.metadata.name === name)!;
const live = async (o: any) => {
  const read = await client.get(o);
  return read.status === 200 ? read.body : undefined;
};

beforeAll(async () => {
  commits.push(commit('first install', base, delivery()));
  // The hub's one hand step: its bootstrap folder, applied by a cluster admin.
  await replay.bootstrap(last(), 'hub-0');
}, 60_000);

afterAll(() => {
  client.close();
  process.stdout.write(`argo-cd-fleet-changes.test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

describe('adding a hub: the first install', () => {
  test('every Application syncs; the guests wait for their hosted clusters to be registered', async () => {
    const outcomes = await replay.sync(last());
    expect(notSynced(outcomes)).toEqual([]);
    expect([...outcomes.values()].filter((o) => o.phase === 'Synced')).toHaveLength(14);
    expect([...outcomes].filter(([, o]) => o.phase === 'Skipped').map(([name]) => name)).toEqual(['c00000-guest', 'c00006-guest', 'c00012-guest', 'c00018-guest']);
    const hosted = await live(named(last(), 'hub-0/c00000', 'HostedCluster', 'c00000'));
    expect(hosted.metadata.annotations[TRACKING_ID]).toBe('hub-0-c00000:hypershift.openshift.io/HostedCluster:argo-fleet/c00000');
    // A cluster-scoped object carries its Application's destination namespace (the hub's unit writes into none: `default`).
    const namespace = await live({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'argo-fleet' } });
    expect(namespace.metadata.annotations[TRACKING_ID]).toBe('hub-0:/Namespace:default/argo-fleet');
  }, 60_000);
});

describe('what Argo CD refuses a unit (its own checks, then the API server)', () => {
  const intruder = (name: string, project: string, path: string) => ({
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: { name, namespace: ARGO_CD_NAMESPACE },
    spec: {
      project,
      source: { repoURL: REPOSITORY, path, targetRevision: 'HEAD' },
      destination: { server: 'https://kubernetes.default.svc', namespace: 'argo-fleet' },
      syncPolicy: { syncOptions: ['ServerSideApply=true', 'FailOnSharedResource=true'] },
    },
  });

  afterAll(async () => {
    for (const name of ['intruder-default', 'intruder-c00002']) await client.delete(intruder(name, '', ''));
  });

  test("an Application in the Argo CD namespace naming the locked default project syncs nothing; one of c00000's project pointed at c00002's folder is refused c00002's objects", async () => {
    await client.apply(intruder('intruder-default', 'default', 'dist/hub-0/c00002'));
    await client.apply(intruder('intruder-c00002', 'hub-0-c00000', 'dist/hub-0/c00002'));
    const outcomes = await replay.sync(last());
    expect(outcomes.get('intruder-default')).toMatchObject({ phase: 'Failed', message: `application repo ${REPOSITORY} is not permitted in project 'default'` });
    expect(outcomes.get('intruder-c00002')).toMatchObject({
      phase: 'Failed',
      message: `Shared resource found: Secret/c00002-ssh-key is part of applications ${ARGO_CD_NAMESPACE}/intruder-c00002 and hub-0-c00002`,
    });
    expect(notSynced(outcomes).filter(([name]) => !String(name).startsWith('intruder'))).toEqual([]);
  }, 60_000);
});

describe("fleet changes, commit by commit: every Application that should sync does, and each unit's objects are kept or pruned as the protection table says", () => {
  let inventory = base;
  /** Synthesizes the next commit over the last and syncs it. */
  async function next(name: string, changed = inventory, argoCdDelivery = delivery(), outputPath = 'dist'): Promise<Map<string, SyncOutcome>> {
    inventory = changed;
    commits.push(commit(name, changed, argoCdDelivery, last()));
    return replay.sync(last(), outputPath);
  }

  test('removing a cluster: the others sync; its Application and AppProject are pruned, its objects stay, tracked by its name', async () => {
    const before = last();
    const outcomes = await next('remove c00000', fleetChange.removeCluster(inventory, 'c00000'));
    expect(notSynced(outcomes)).toEqual([]);
    // Its guest's go with it.
    expect(outcomes.get('argocd-hub-0')!.pruned).toEqual([
      'argoproj.io/AppProject:argocd-fleet/c00000-guest',
      'argoproj.io/AppProject:argocd-fleet/hub-0-c00000',
      'argoproj.io/Application:argocd-fleet/c00000-guest',
      'argoproj.io/Application:argocd-fleet/hub-0-c00000',
    ]);
    expect(outcomes.has('hub-0-c00000')).toBe(false);
    const hosted = await live(named(before, 'hub-0/c00000', 'HostedCluster', 'c00000'));
    expect(hosted.metadata.annotations[TRACKING_ID]).toMatch(/^hub-0-c00000:/);
    expect(await live(named(before, 'hub-0/c00000', 'BareMetalHost', 'c00000-host-0'))).toBeDefined();
  }, 60_000);

  test('dropping a NodePool: every Application syncs; the NodePool stays (Prune=false), OutOfSync until deleted by hand', async () => {
    const pool = named(last(), 'hub-0/c00006', 'NodePool', 'c00006-spare');
    const outcomes = await next('drop c00006-spare', fleetChange.dropNodePool(inventory, 'c00006', 'spare'));
    expect(notSynced(outcomes)).toEqual([]);
    expect(outcomes.get('hub-0-c00006')!.pruneSkipped).toEqual(['hypershift.openshift.io/NodePool:argo-fleet/c00006-spare']);
    expect(await live(pool)).toBeDefined();
  }, 60_000);

  test("dropping a guest: every Application syncs; the guest's Application and AppProject are pruned (nothing cascades)", async () => {
    const outcomes = await next('drop the guest of c00006', fleetChange.dropGuest(inventory, 'c00006'));
    expect(notSynced(outcomes)).toEqual([]);
    expect(outcomes.get('argocd-hub-0')!.pruned).toEqual(['argoproj.io/AppProject:argocd-fleet/c00006-guest', 'argoproj.io/Application:argocd-fleet/c00006-guest']);
  }, 60_000);

  test('moving a cluster to another hub, then adding it back: a removal, then an addition whose Application, of the same name, takes its objects back', async () => {
    const moved = fleetChange.clusterSpec(inventory, 'c00002');
    expect(notSynced(await next('move c00002 to hub-1', fleetChange.removeCluster(inventory, 'c00002')))).toEqual([]);
    const outcomes = await next('add c00002', fleetChange.addCluster(inventory, 'hub-0', moved));
    expect(notSynced(outcomes)).toEqual([]);
    expect(outcomes.get('hub-0-c00002')!.phase).toBe('Synced');
  }, 60_000);

  test("changing the repository URL: every Application follows on the bootstrap Application's sync (the commit reaches the repository it reads)", async () => {
    const outcomes = await next('new repository', inventory, delivery('https://git.example.com/platform/estate-v2.git'));
    expect(notSynced(outcomes)).toEqual([]);
    const application = await live(named(last(), 'argocd/hub-0', 'Application', 'hub-0-c00004'));
    expect(application.spec.source.repoURL).toBe('https://git.example.com/platform/estate-v2.git');
  }, 60_000);

  test('changing the output path: the bootstrap Application reads the old path and fails until the new bootstrap folder is applied by hand; then every Application follows', async () => {
    const moved = delivery('https://git.example.com/platform/estate-v2.git', 'estate');
    const outcomes = await next('new output path', inventory, moved, 'estate');
    expect(outcomes.get('argocd-hub-0')).toMatchObject({ phase: 'Failed', message: 'dist/argocd/hub-0: app path does not exist' });
    // The hand step plan names.
    await replay.bootstrap(last(), 'hub-0', 'estate');
    expect(notSynced(await replay.sync(last(), 'estate'))).toEqual([]);
    commits.push(commit('back to dist', inventory, delivery('https://git.example.com/platform/estate-v2.git'), last()));
    await replay.bootstrap(last(), 'hub-0');
    expect(notSynced(await replay.sync(last()))).toEqual([]);
  }, 90_000);

  test('renaming the hub: after its hand step (the new bootstrap folder), every renamed Application adopts what the old names track and syncs; the old ones fail on their missing folders until deleted', async () => {
    const outcomes = await next('rename hub-0 to hub-x', fleetChange.renameHub(inventory, 'hub-0', 'hub-x')).then(async () => {
      await replay.bootstrap(last(), 'hub-x');
      return replay.sync(last());
    });
    const failed = notSynced(outcomes);
    expect(failed.every(([name, message]) => /^(argocd-)?hub-0/.test(String(name)) && / app path does not exist$/.test(String(message)))).toBe(true);
    const renamed = last()
      .folders.get('argocd/hub-x')!
      .filter((o) => o.kind === 'Application' && o.spec.destination.server)
      .map((o) => o.metadata.name);
    expect(failed).toHaveLength(renamed.length);
    expect(renamed.filter((name) => outcomes.get(name)?.phase !== 'Synced')).toEqual([]);
    const application = named(last(), 'argocd/hub-x', 'Application', 'hub-x-c00004');
    expect(application.metadata.annotations[ARGO_CD_ADOPTS_ANNOTATION]).toBe('hub-0-c00004');
    expect(application.spec.syncPolicy.syncOptions).not.toContain('FailOnSharedResource=true');
    expect((await live(named(last(), 'hub-x/c00004', 'HostedCluster', 'c00004'))).metadata.annotations[TRACKING_ID]).toMatch(/^hub-x-c00004:/);
    // The guests' Applications keep their names: the new bootstrap Application adopts them.
    expect(named(last(), 'argocd/hub-x', 'Application', 'argocd-hub-x').metadata.annotations[ARGO_CD_ADOPTS_ANNOTATION]).toBe('argocd-hub-0');
    expect((await live(named(last(), 'argocd/hub-x', 'Application', 'c00012-guest'))).metadata.annotations[TRACKING_ID]).toMatch(/^argocd-hub-x:/);
  }, 90_000);

  test('the commit after, once the old Applications and AppProjects are deleted by hand: FailOnSharedResource is back, and every Application syncs', async () => {
    for (const o of commits[commits.length - 2].folders.get('argocd/hub-0')!.filter((o) => o.kind === 'Application' || (o.kind === 'AppProject' && o.metadata.name !== 'default'))) {
      if (o.metadata.name.startsWith('argocd-hub-0') || o.metadata.name.startsWith('hub-0')) expect([404, 200]).toContain((await client.delete(o)).status);
    }
    const outcomes = await next('after the rename', inventory);
    expect(notSynced(outcomes)).toEqual([]);
    for (const a of last()
      .folders.get('argocd/hub-x')!
      .filter((o) => o.kind === 'Application')) {
      expect([a.metadata.name, a.spec.syncPolicy.syncOptions.includes('FailOnSharedResource=true')]).toEqual([a.metadata.name, true]);
    }
  }, 60_000);

  test('without the adoption (synthesized with no previous output), a renamed Application is refused what the old name tracks: the check the adoption answers', async () => {
    const renamed = commit('rename hub-x to hub-y, no previous output', fleetChange.renameHub(inventory, 'hub-x', 'hub-y'), delivery());
    await replay.bootstrap(renamed, 'hub-y');
    const outcomes = await replay.sync(renamed);
    expect(outcomes.get('hub-y-c00004')).toMatchObject({
      phase: 'Failed',
      message: `Shared resource found: Secret/c00004-ssh-key is part of applications ${ARGO_CD_NAMESPACE}/hub-y-c00004 and hub-x-c00004`,
    });
  }, 60_000);
});
