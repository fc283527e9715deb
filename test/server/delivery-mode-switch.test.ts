// Switching a hub's delivery mode, held by a real kube-apiserver with RBAC on: each direction the
// catalogue in docs/delivery.md lists (fleet changes, "switch delivery mode"), a hub of three
// clusters of the fleet example (an Agent one with its guest, an AWS one, a KubeVirt one) applied in
// one mode, then the next commit in the other, with the hand steps the catalogue names, each engine
// replayed as in its own suite (argo-cd-replay.ts, flux-replay.ts). A switch passes when every unit
// of the new mode proceeds, nothing protected is deleted, and what the old engine would still do
// without the hand step is what the catalogue says.
import { AcmDelivery, ArgoCdDelivery, ArgoCdGuestAccess, FluxDelivery, FluxSource, IDelivery, KustomizeDelivery } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';
import { ArgoCdReplay, SyncOutcome, TRACKING_ID } from './argo-cd-replay';
import { FluxReplay, Outcome } from './flux-replay';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';
const started = Date.now();

afterAll(() => {
  client.close();
  process.stdout.write(`delivery-mode-switch.test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

/** A hub of its own on this server, named `hub`, in namespaces of its own, with an engine of each kind in namespaces of their own. */
function hubOf(hub: string) {
  const inventory = fleetChange.renameHub(fleetChange.firstClusters(fleetChange.inNamespaces(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), `${hub}-clusters`, `${hub}-`), 3), 'hub-0', hub);
  const argoNamespace = `argocd-${hub}`;
  const fluxNamespace = `flux-${hub}`;
  const argo = new ArgoCdReplay(client, argoNamespace, Impersonation.serviceAccount(argoNamespace, 'argocd-application-controller'));
  const flux = new FluxReplay(client, fluxNamespace);
  const argoCd = () => new ArgoCdDelivery({ repoUrl: REPOSITORY, argoCdNamespace: argoNamespace, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
  const fluxCd = () => new FluxDelivery({ namespace: fluxNamespace, source: FluxSource.gitRepository({ name: 'estate', url: REPOSITORY, namespace: fluxNamespace }) });
  return {
    inventory,
    argo,
    flux,
    argoCd,
    fluxCd,
    argoNamespace,
    fluxNamespace,
    commit: (name: string, delivery: IDelivery, previous?: Commit) => commit(name, inventory, delivery, previous),
    /** `oc apply --server-side -k dist/<hub>`: the hub folder and every folder below it, by an admin. */
    applyByHand: async (c: Commit) => {
      for (const [folder, objects] of c.folders) {
        if (folder !== hub && !folder.startsWith(`${hub}/`)) continue;
        for (const o of objects) expect([o.kind, o.metadata.name, (await client.apply(o, { fieldManager: 'kubectl' })).status < 300]).toEqual([o.kind, o.metadata.name, true]);
      }
    },
    bootstrapFlux: async (c: Commit) => {
      await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: fluxNamespace } });
      await flux.bootstrap(c, hub);
    },
    /** The hand step that ends Argo CD's part: the bootstrap Application first (it would make the others again), then the others and their AppProjects; the locked `default` stays. */
    removeArgoCd: async (c: Commit) => {
      const objects = c.folders.get(`argocd/${hub}`)!.filter((o) => o.kind === 'Application' || (o.kind === 'AppProject' && o.metadata.name !== 'default'));
      for (const o of objects.sort((a, b) => Number(b.metadata.name === `argocd-${hub}`) - Number(a.metadata.name === `argocd-${hub}`))) expect([200, 404]).toContain((await client.delete(o)).status);
    },
    /** The hand step that ends Flux's part: flux-<hub> first (it would make the others again), then every object of its bootstrap folders. */
    removeFlux: async (c: Commit) => {
      const folders = [...c.folders].filter(([folder]) => folder === `flux/${hub}` || folder.startsWith(`flux/${hub}/`));
      const objects = folders.flatMap(([, o]) => o).sort((a, b) => Number(b.metadata.name === `flux-${hub}`) - Number(a.metadata.name === `flux-${hub}`));
      for (const o of objects) expect([200, 404]).toContain((await client.delete(o)).status);
    },
  };
}

const protectedObjects = (c: Commit, hub: string) =>
  [...c.folders]
    .filter(([folder]) => folder === hub || folder.startsWith(`${hub}/`))
    .flatMap(([, objects]) => objects)
    .filter((o) => o.metadata.annotations?.['kustomize.toolkit.fluxcd.io/prune'] === 'disabled');
const allExist = async (objects: any[]) => (await Promise.all(objects.map(async (o) => [o.kind, o.metadata.name, (await client.get(o)).status]))).filter(([, , status]) => status !== 200);
const notReady = (outcomes: Map<string, Outcome>) => [...outcomes].filter(([, o]) => o !== 'Ready');
const notSynced = (outcomes: Map<string, SyncOutcome>) => [...outcomes].filter(([, o]) => o.phase !== 'Synced' && o.phase !== 'Skipped').map(([name, o]) => [name, o.message]);

describe('switching delivery mode, direction by direction', () => {
  test('Kustomize folders applied by hand, then Flux: the Kustomizations take every object over, no hand step beyond the bootstrap folder', async () => {
    const h = hubOf('sw-kf');
    const before = h.commit('by hand', new KustomizeDelivery());
    await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'sw-kf-clusters' } });
    await h.applyByHand(before);
    const after = h.commit('flux', h.fluxCd(), before);
    await h.bootstrapFlux(after);
    expect(notReady(await h.flux.reconcile(after))).toEqual([]);
    const hosted = after.folders.get('sw-kf/c00000')!.find((o) => o.kind === 'HostedCluster');
    expect((await client.get(hosted)).body.metadata.labels['kustomize.toolkit.fluxcd.io/name']).toBe('sw-kf-c00000');
    expect(await allExist(protectedObjects(before, 'sw-kf'))).toEqual([]);
  }, 90_000);

  test('Kustomize folders applied by hand, then Argo CD: each Application takes its objects over (they carry no tracking id), no hand step beyond the bootstrap folder', async () => {
    const h = hubOf('sw-ka');
    const before = h.commit('by hand', new KustomizeDelivery());
    await h.applyByHand(before);
    const after = h.commit('argo cd', h.argoCd(), before);
    await h.argo.bootstrap(after, 'sw-ka');
    expect(notSynced(await h.argo.sync(after))).toEqual([]);
    const hosted = after.folders.get('sw-ka/c00000')!.find((o) => o.kind === 'HostedCluster');
    expect((await client.get(hosted)).body.metadata.annotations[TRACKING_ID]).toMatch(/^sw-ka-c00000:/);
  }, 90_000);

  test('Argo CD, then Flux: until its Applications are deleted Argo CD goes on applying the same folders; once they are (the bootstrap one first), every Kustomization is Ready', async () => {
    const h = hubOf('sw-af');
    const before = h.commit('argo cd', h.argoCd());
    await h.argo.bootstrap(before, 'sw-af');
    expect(notSynced(await h.argo.sync(before))).toEqual([]);
    const after = h.commit('flux', h.fluxCd(), before);
    // Without the hand step: the bootstrap Application fails (its folder is gone) and prunes nothing; the units' folders are still there, and their Applications still sync them.
    const meanwhile = await h.argo.sync(after);
    expect(meanwhile.get('argocd-sw-af')).toMatchObject({ phase: 'Failed', message: 'dist/argocd/sw-af: app path does not exist' });
    expect(meanwhile.get('sw-af-c00002')).toMatchObject({ phase: 'Synced' });
    await h.removeArgoCd(before);
    await h.bootstrapFlux(after);
    expect(notReady(await h.flux.reconcile(after))).toEqual([]);
    expect((await h.argo.sync(after)).size).toBe(0);
    expect(await allExist(protectedObjects(before, 'sw-af'))).toEqual([]);
  }, 90_000);

  test("Flux, then Argo CD: FailOnSharedResource does not see Flux's objects (it reads Argo CD's tracking id only), so Argo CD takes every object at once; Flux's units stop, as each waits on flux-<hub>, which fails on its missing folder; once the Kustomizations are deleted every Application still syncs", async () => {
    const h = hubOf('sw-fa');
    const before = h.commit('flux', h.fluxCd());
    await h.bootstrapFlux(before);
    expect(notReady(await h.flux.reconcile(before))).toEqual([]);
    const after = h.commit('argo cd', h.argoCd(), before);
    await h.argo.bootstrap(after, 'sw-fa');
    // Without the hand step: Argo CD takes every object; Flux's units apply nothing more, waiting on a failed flux-sw-fa.
    expect(notSynced(await h.argo.sync(after))).toEqual([]);
    const meanwhile = await h.flux.reconcile(after);
    expect(meanwhile.get('flux-sw-fa/flux-sw-fa')).toBe('Failed: kustomization path not found: ./dist/flux/sw-fa');
    expect([...meanwhile].filter(([id, o]) => id !== 'flux-sw-fa/flux-sw-fa' && !o.startsWith('Held: '))).toEqual([]);
    await h.removeFlux(before);
    expect((await h.flux.reconcile(after)).size).toBe(0);
    expect(notSynced(await h.argo.sync(after))).toEqual([]);
    expect(await allExist(protectedObjects(before, 'sw-fa'))).toEqual([]);
  }, 90_000);

  test("Argo CD, then ACM with Argo CD applying the hub folders: the guests' Applications are pruned, the policies' Application syncs; no hand step", async () => {
    const h = hubOf('sw-aa');
    const before = h.commit('argo cd', h.argoCd());
    await h.argo.bootstrap(before, 'sw-aa');
    expect(notSynced(await h.argo.sync(before))).toEqual([]);
    const after = h.commit('acm', new AcmDelivery({ policyNamespace: 'sw-aa-policies', hubDelivery: h.argoCd() }), before);
    const outcomes = await h.argo.sync(after);
    expect(notSynced(outcomes)).toEqual([]);
    // With them go the objects that registered the hosted clusters in Argo CD for the guests.
    expect(outcomes.get('argocd-sw-aa')!.pruned).toEqual([
      'apps.open-cluster-management.io/GitOpsCluster:argocd-sw-aa/sw-aa-hosted-clusters',
      'argoproj.io/AppProject:argocd-sw-aa/c00000-guest',
      'argoproj.io/Application:argocd-sw-aa/c00000-guest',
      'cluster.open-cluster-management.io/ManagedClusterSetBinding:argocd-sw-aa/default',
      'cluster.open-cluster-management.io/Placement:argocd-sw-aa/sw-aa-hosted-clusters',
    ]);
    expect(outcomes.get('sw-aa-policies')!.phase).toBe('Synced');
  }, 90_000);

  test("Flux, then ACM with Flux applying the hub folders: after one hand step (the admission policy, which grows by the policies' kinds), the guests' Kustomizations are pruned (flux-<hub>-guests applies its emptied folder once more) and the policies' Kustomization is Ready", async () => {
    const h = hubOf('sw-ff');
    const before = h.commit('flux', h.fluxCd());
    await h.bootstrapFlux(before);
    expect(notReady(await h.flux.reconcile(before))).toEqual([]);
    const guests = before.folders.get('flux/sw-ff/guests')!;
    expect(guests.length).toBe(2);
    const after = h.commit('acm', new AcmDelivery({ policyNamespace: 'sw-ff-policies', hubDelivery: h.fluxCd() }), before);
    // Without it, flux-sw-ff may not write the role that grants the policies' kinds.
    expect((await h.flux.reconcile(after)).get('flux-sw-ff/flux-sw-ff')).toMatch(
      /^Failed: apply dry run ClusterRole\/\/hcp-cdk-flux-flux-sw-ff-access: 403 .*ValidatingAdmissionPolicy 'hcp-cdk-flux-sw-ff'/,
    );
    await h.flux.applyAdmission(after, 'sw-ff');
    const outcomes = await h.flux.reconcile(after);
    expect(notReady(outcomes)).toEqual([]);
    expect(outcomes.get('flux-sw-ff/sw-ff-policies')).toBe('Ready');
    for (const guest of guests) expect([guest.metadata.name, (await client.get(guest)).status]).toEqual([guest.metadata.name, 404]);
    // And the commit after: flux-<hub>-guests goes too, with nothing left to prune.
    const later = h.commit('acm, again', new AcmDelivery({ policyNamespace: 'sw-ff-policies', hubDelivery: h.fluxCd() }), after);
    expect(later.folders.has('flux/sw-ff/guests')).toBe(false);
    expect(notReady(await h.flux.reconcile(later))).toEqual([]);
  }, 90_000);
});
