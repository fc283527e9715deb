// Fleet changes under Argo CD, commit by commit on hub hub-0 of the fleet example, replayed as Argo CD's
// application controller syncs (argoproj/argo-cd 37ee0097cf85):
// - each object it applies carries `argocd.argoproj.io/tracking-id: <app>:<group>/<kind>:<namespace>/<name>`
//   (util/argo/resource_tracking.go, `BuildAppInstanceValue`; annotation tracking, Argo CD 3's default);
// - before a sync, a live object whose tracking id names another Application is a SharedResourceWarning
//   (controller/state.go, `CompareAppState`), whether or not that Application still exists, and with
//   FailOnSharedResource=true the sync fails (controller/sync.go, `hasSharedResourceCondition`);
// - prune deletes what the Application tracks and no longer holds, unless `Prune=false`.
// The bootstrap Application applies the Applications and AppProjects; an Application gone from it is
// deleted, with no resources finalizer, so what it applied stays, tracked by its name.
import { ArgoCdDelivery, ArgoCdGuestAccess, ARGO_CD_ADOPTS_ANNOTATION } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from './fleet-commits';

const TRACKING = 'argocd.argoproj.io/tracking-id';
const delivery = () => new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
const keyOf = (o: any) => `${groupOf(o.apiVersion)}/${o.kind}:${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** The management cluster's live objects, each with the tracking id Argo CD wrote on it. */
class ArgoReplay {
  readonly live = new Map<string, { object: any; trackedBy: string }>();

  /** Syncs every Application of `hub`'s bootstrap folder in `c`: the bootstrap first, then each unit. Returns each outcome. */
  sync(c: Commit, hub: string): Map<string, string> {
    const outcomes = new Map<string, string>();
    const bootstrap = c.folders.get(`argocd/${hub}`)!;
    const applications = bootstrap.filter((o) => o.kind === 'Application');
    const self = applications.find((a) => a.spec.source.path === `dist/argocd/${hub}`)!;
    const order = [self, ...applications.filter((a) => a !== self && a.spec.destination.server)];
    for (const application of order) outcomes.set(application.metadata.name, this.syncOne(c, application));
    return outcomes;
  }

  private syncOne(c: Commit, application: any): string {
    const name = application.metadata.name;
    const target = c.folders.get(application.spec.source.path.replace(/^dist\//, '')) ?? [];
    const failOnShared = application.spec.syncPolicy.syncOptions.includes('FailOnSharedResource=true');
    const shared = target.map((o) => ({ o, live: this.live.get(keyOf(o)) })).filter(({ live }) => live && live.trackedBy !== name);
    if (failOnShared && shared.length > 0) return `Failed: Shared resource found: ${keyOf(shared[0].o)} is part of ${shared[0].live!.trackedBy}`;
    const held = new Set(target.map(keyOf));
    for (const [key, entry] of [...this.live]) {
      if (entry.trackedBy !== name || held.has(key)) continue;
      if (!/Prune=false/.test(entry.object.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '')) this.live.delete(key);
    }
    for (const o of target) this.live.set(keyOf(o), { object: { ...o, metadata: { ...o.metadata, annotations: { ...o.metadata.annotations, [TRACKING]: `${name}:${keyOf(o)}` } } }, trackedBy: name });
    return 'Synced';
  }
}

const notSynced = (outcomes: Map<string, string>) => [...outcomes].filter(([, o]) => o !== 'Synced');

describe('fleet changes under Argo CD, commit by commit on hub-0: every Application that should sync does', () => {
  const base = fleetChange.onlyHubs(exampleInventory(), 'hub-0');
  const replay = new ArgoReplay();
  const commits: Commit[] = [commit('first install', base, delivery())];
  const last = () => commits[commits.length - 1];
  let inventory = base;
  const next = (name: string, changed = inventory, hub = 'hub-0') => {
    inventory = changed;
    commits.push(commit(name, changed, delivery(), last()));
    return replay.sync(last(), hub);
  };

  test('the first install syncs every Application', () => {
    expect(notSynced(replay.sync(last(), 'hub-0'))).toEqual([]);
  });

  test('removing a cluster: the others sync; its objects stay, tracked by its deleted Application', () => {
    const outcomes = next('remove c00000', fleetChange.removeCluster(inventory, 'c00000'));
    expect(notSynced(outcomes)).toEqual([]);
    expect(outcomes.has('hub-0-c00000')).toBe(false);
    expect(replay.live.get('hypershift.openshift.io/HostedCluster:clusters/c00000')?.trackedBy).toBe('hub-0-c00000');
  });

  test('dropping a NodePool and a guest: every Application syncs, the NodePool stays (Prune=false)', () => {
    expect(notSynced(next('drop c00006-spare', fleetChange.dropNodePool(inventory, 'c00006', 'spare')))).toEqual([]);
    expect(replay.live.has('hypershift.openshift.io/NodePool:clusters/c00006-spare')).toBe(true);
    expect(notSynced(next('drop the guest of c00006', fleetChange.dropGuest(inventory, 'c00006')))).toEqual([]);
  });

  test('adding a cluster back whose objects its old Application tracked: same folder, same name, it syncs', () => {
    expect(notSynced(next('add c00000', fleetChange.addCluster(inventory, 'hub-0', fleetChange.clusterSpec(base, 'c00000'))))).toEqual([]);
  });

  test('renaming the hub: every renamed Application adopts what the old names track, for that commit, and syncs', () => {
    const outcomes = next('rename hub-0 to hub-x', fleetChange.renameHub(inventory, 'hub-0', 'hub-x'), 'hub-x');
    expect(notSynced(outcomes)).toEqual([]);
    const application = last()
      .folders.get('argocd/hub-x')!
      .find((o) => o.kind === 'Application' && o.metadata.name === 'hub-x-c00002')!;
    expect(application.metadata.annotations[ARGO_CD_ADOPTS_ANNOTATION]).toBe('hub-0-c00002');
    expect(application.spec.syncPolicy.syncOptions).not.toContain('FailOnSharedResource=true');
    expect(replay.live.get('hypershift.openshift.io/HostedCluster:clusters/c00002')?.trackedBy).toBe('hub-x-c00002');
    // The guests' Applications and the locked default project keep their names: the new bootstrap Application adopts them.
    const self = last()
      .folders.get('argocd/hub-x')!
      .find((o) => o.kind === 'Application' && o.metadata.name === 'argocd-hub-x')!;
    expect(self.metadata.annotations[ARGO_CD_ADOPTS_ANNOTATION]).toBe('argocd-hub-0');
  });

  test('the commit after: FailOnSharedResource is back on every Application, and all sync', () => {
    const outcomes = next('after the rename', inventory, 'hub-x');
    expect(notSynced(outcomes)).toEqual([]);
    for (const a of last()
      .folders.get('argocd/hub-x')!
      .filter((o) => o.kind === 'Application')) {
      expect([a.metadata.name, a.spec.syncPolicy.syncOptions.includes('FailOnSharedResource=true')]).toEqual([a.metadata.name, true]);
    }
  });

  test('without the adoption, the renamed Applications would fail: the check the adoption answers', () => {
    const renamedBack = commit('rename hub-x to hub-y, no previous output', fleetChange.renameHub(inventory, 'hub-x', 'hub-y'), delivery());
    const outcomes = replay.sync(renamedBack, 'hub-y');
    expect(outcomes.get('hub-y-c00002')).toMatch(/^Failed: Shared resource found: .* is part of hub-x-c00002$/);
  });
});
