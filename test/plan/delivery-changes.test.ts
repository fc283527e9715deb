// hcp-cdk plan's notes on the engines' own objects, over commits of the fleet example (docs/delivery.md,
// "Fleet changes, engine by engine"): the hand steps, what is pruned, what is adopted.
import { ArgoCdDelivery, ArgoCdGuestAccess, FluxDelivery, FluxSource, IDelivery, OutputSnapshot, planChanges } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';

const snapshot = (c: Commit) => OutputSnapshot.fromFiles(c.name, new Map([...c.files].map(([file, text]) => [file, Buffer.from(text)])));
const flux = () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: 'https://git.example.com/platform/hcp-estate.git' }) });
const argo = () => new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() });
const base = fleetChange.onlyHubs(exampleInventory(), 'hub-0');

function notesOf(delivery: () => IDelivery, change: (i: typeof base) => typeof base): { cluster: string; note: string }[] {
  const before = commit('before', base, delivery());
  const after = commit('after', change(base), delivery(), before);
  return planChanges(snapshot(before), snapshot(after)).clusterNotes.filter((n) => n.cluster.includes('/') && n.cluster.split('/').length === 2);
}

describe('plan says per engine what a fleet change does to its own objects', () => {
  test('Flux, a cluster removed: the Kustomizations pruned, no hand step', () => {
    expect(notesOf(flux, (i) => fleetChange.removeCluster(i, 'c00000'))).toEqual([{ cluster: 'flux/hub-0', note: 'prunes hub-0-c00000, hub-0-c00000-node-pools, which orphans what they applied' }]);
  });

  test('Flux, a hub renamed: the new bootstrap folder to apply once, the old Kustomizations to delete', () => {
    const notes = notesOf(flux, (i) => fleetChange.renameHub(i, 'hub-0', 'hub-x'));
    expect(notes.map((n) => n.cluster)).toEqual(['flux/hub-x', 'flux/hub-0']);
    expect(notes[0].note).toBe('hand step: apply dist/flux/hub-x once, as a cluster admin (a new bootstrap folder: a hub added or renamed)');
    expect(notes[1].note).toMatch(/^hand step: its Kustomizations \(flux-hub-0, flux-hub-0-access, flux-hub-0-guests, hub-0, hub-0-c00000, .*\) apply a folder that is gone/);
  });

  test('Argo CD, a hub renamed: each Application adopts what its old name tracked, and the old ones are a hand step', () => {
    const notes = notesOf(argo, (i) => fleetChange.renameHub(i, 'hub-0', 'hub-x'));
    expect(notes.map((n) => n.cluster)).toEqual(['argocd/hub-x', 'argocd/hub-0']);
    expect(notes[1].note).toMatch(/^hand step: its Applications and AppProjects \(argocd-hub-0, c00000-guest, .*hub-0-c00022\) apply a folder that is gone/);
  });

  test('no change to the fleet, no note', () => {
    expect(notesOf(flux, (i) => i)).toEqual([]);
    expect(notesOf(argo, (i) => i)).toEqual([]);
  });
});
