// hcp-cdk plan's notes on the engines' own objects, over commits of the fleet example (docs/delivery.md,
// "Fleet changes, engine by engine"): the hand steps, what is pruned, what is adopted.
import { AcmDelivery, ArgoCdDelivery, ArgoCdGuestAccess, FluxDelivery, FluxSource, IDelivery, OutputSnapshot, planChanges } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';

const snapshot = (c: Commit) => OutputSnapshot.fromFiles(c.name, new Map([...c.files].map(([file, text]) => [file, Buffer.from(text)])));
const flux = () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: 'https://git.example.com/platform/hcp-estate.git' }) });
const argo = () => new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
const base = fleetChange.onlyHubs(exampleInventory(), 'hub-0');

function notesOf(delivery: () => IDelivery, change: (i: typeof base) => typeof base, then = delivery): { cluster: string; note: string }[] {
  const before = commit('before', base, delivery());
  const after = commit('after', change(base), then(), before);
  return planChanges(snapshot(before), snapshot(after)).clusterNotes.filter((n) => n.cluster.includes('/') && n.cluster.split('/').length === 2);
}

describe('plan says per engine what a fleet change does to its own objects', () => {
  test('Flux, a cluster removed: the Kustomizations pruned, no hand step', () => {
    expect(notesOf(flux, (i) => fleetChange.removeCluster(i, 'c00000'))).toEqual([{ cluster: 'flux/hub-0', note: 'prunes hub-0-c00000, hub-0-c00000-node-pools, which orphans what they applied' }]);
  });

  test('Flux, a hub renamed: the new bootstrap folder to apply once, the old Kustomizations to delete', () => {
    const notes = notesOf(flux, (i) => fleetChange.renameHub(i, 'hub-0', 'hub-x'));
    expect(notes.map((n) => n.cluster)).toEqual(['flux/hub-x', 'flux/hub-0']);
    expect(notes[0].note).toBe('hand step: apply dist/flux/hub-x/admission, then dist/flux/hub-x once, as a cluster admin (a new bootstrap folder: a hub added or renamed, or its engine switched)');
    expect(notes[1].note).toMatch(/^hand step: its Kustomizations \(flux-hub-0, flux-hub-0-access, flux-hub-0-guests, hub-0, hub-0-c00000, .*\) apply a folder that is gone/);
  });

  test('Argo CD, a hub renamed: each Application adopts what its old name tracked, and the old ones are a hand step', () => {
    const notes = notesOf(argo, (i) => fleetChange.renameHub(i, 'hub-0', 'hub-x'));
    expect(notes.map((n) => n.cluster)).toEqual(['argocd/hub-x', 'argocd/hub-0']);
    expect(notes[1].note).toMatch(/^hand step: its Applications and AppProjects \(argocd-hub-0, c00000-guest, .*hub-0-c00022\) apply a folder that is gone/);
  });

  test("Argo CD, a hub renamed: the new bootstrap folder's note names what its Applications adopt", () => {
    const [renamed] = notesOf(argo, (i) => fleetChange.renameHub(i, 'hub-0', 'hub-x'));
    expect(renamed.note).toMatch(
      /^hand step: apply dist\/argocd\/hub-x once, as a cluster admin \(a new bootstrap folder: a hub added or renamed, or its engine switched\); argocd-hub-x adopts what argocd-hub-0 tracked; /,
    );
    expect(renamed.note).toContain('hub-x-c00002 adopts what hub-0-c00002 tracked');
  });

  test('a new output path: the bootstrap Kustomization or Application reads the old one, a hand step; a new repository URL: the commit must reach the old one too', () => {
    const moved = (c: () => IDelivery) => (): IDelivery =>
      c === flux
        ? new FluxDelivery({ path: './estate', source: FluxSource.gitRepository({ name: 'hcp-estate', url: 'https://git.example.com/platform/estate-v2.git' }) })
        : new ArgoCdDelivery({ path: 'estate', repoUrl: 'https://git.example.com/platform/estate-v2.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
    const cases: [() => IDelivery, string, string, string][] = [
      [flux, 'flux/hub-0', 'flux-hub-0', './dist/flux/hub-0'],
      [argo, 'argocd/hub-0', 'argocd-hub-0', 'dist/argocd/hub-0'],
    ];
    for (const [engine, folder, own, path] of cases) {
      const before = commit('before', base, engine());
      const after = commit('after', base, moved(engine)(), before);
      const note = planChanges(snapshot(before), snapshot(after)).clusterNotes.find((n) => n.cluster === folder)!.note;
      expect(note).toContain(`hand step: ${own} reads ${path}, which this commit leaves: apply dist/${folder} once by hand, as a cluster admin`);
      expect(note).toContain(
        `push this commit to https://git.example.com/platform/hcp-estate.git too: ${own} reads it from there, and only then follows to https://git.example.com/platform/estate-v2.git`,
      );
    }
  });

  test("a hub switched from Flux to Argo CD, and back: the old engine's objects go first, its bootstrap object before the rest", () => {
    const toArgo = notesOf(flux, () => base, argo);
    expect(toArgo.map((n) => n.cluster)).toEqual(['flux/hub-0', 'argocd/hub-0']);
    expect(toArgo[0].note).toMatch(/^hand step, before dist\/argocd\/hub-0 is applied: delete flux-hub-0, then every other object of dist\/flux\/hub-0 as it was/);
    expect(toArgo[1].note).toMatch(/; only once Kustomizations of flux\/hub-0 are deleted$/);
    const toFlux = notesOf(argo, () => base, flux);
    expect(toFlux[1].note).toMatch(/^hand step, before dist\/flux\/hub-0 is applied: delete argocd-hub-0, then its other Applications and AppProjects .* but the locked default AppProject/);
  });

  test("Flux, a hub that starts writing a kind its roles did not grant (ACM's policies): the admission policy is a hand step", () => {
    const notes = notesOf(
      flux,
      () => base,
      () => new AcmDelivery({ hubDelivery: flux() }),
    );
    expect(notes.find((n) => n.cluster === 'flux/hub-0')!.note).toContain(
      "hand step: its admission policy changes (the hub's roles grant a kind they did not): apply dist/flux/hub-0/admission as a cluster admin before this commit syncs",
    );
  });

  test('no change to the fleet, no note', () => {
    expect(notesOf(flux, (i) => i)).toEqual([]);
    expect(notesOf(argo, (i) => i)).toEqual([]);
  });
});
