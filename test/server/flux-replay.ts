// kustomize-controller replayed against a real kube-apiserver: for each Kustomization of a commit, in
// dependsOn order, the calls it makes as its ServiceAccount (impersonated, as kustomize-controller
// impersonates `spec.serviceAccountName`), following fluxcd/kustomize-controller 186fb3b29138
// internal/controller/kustomization_controller.go `reconcile` (apply, then prune, then health checks)
// over fluxcd/pkg ssa v0.77.0 (b98e2b0975e0):
// - apply: ssa/manager_apply.go `ApplyAllStaged` applies CRDs, Namespaces and ClusterRoles first, then
//   the rest; `ApplyAll` per object: a `get`, a server-side apply dry run (force, field manager
//   kustomize-controller), and the apply when the dry run differs from what is there;
// - prune: `inventory.Diff` of the inventory in the Kustomization's status (what it applied last) and
//   what it applies now; ssa/manager_delete.go `Delete` per stale object: a `get` (any error but
//   NotFound fails the Kustomization with PruneFailed), skipped when its owner labels name another
//   Kustomization or it carries `kustomize.toolkit.fluxcd.io/prune: disabled`, else `delete`;
// - health checks: kstatus's direct cluster reader (DisableStatusPollerCache, on by default) reads each
//   object of `spec.healthChecks` by name. Whether it is healthy is simulated in test/gitops (the
//   server runs no HyperShift): here the reads must be allowed.
// A Kustomization runs only once every dependency ran at this commit (`checkDependencies`: Ready at
// the same revision); the rest are held back.
import { Impersonation, KubeClient, ObjectReference } from './kube-client';
import type { Commit } from '../gitops/fleet-commits';

/** Where kustomize-controller records which Kustomization applied an object (ssa `SetOwnerLabels`). */
const OWNER_NAME = 'kustomize.toolkit.fluxcd.io/name';
const OWNER_NAMESPACE = 'kustomize.toolkit.fluxcd.io/namespace';
const PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
/** Applied first, and waited for (ssa utils `IsClusterDefinition`). */
const DEFINITION_KINDS = new Set(['CustomResourceDefinition', 'Namespace', 'ClusterRole']);

/** What one Kustomization did at a commit. */
export type Outcome = 'Ready' | `Failed: ${string}` | `Held: ${string}`;

/** An object as the inventory names it. */
type InventoryEntry = ObjectReference;

const keyOf = (o: InventoryEntry): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** kustomize-controller on one hub: the inventory of each Kustomization is kept across commits. */
export class FluxReplay {
  /** Per Kustomization (`<namespace>/<name>`), what it applied last: its status.inventory. */
  private readonly inventories = new Map<string, InventoryEntry[]>();
  /** Every call refused, for a failure message. */
  public readonly refusals: string[] = [];

  constructor(
    private readonly client: KubeClient,
    private readonly hub: string,
  ) {}

  /** The Kustomizations of `commit` for this hub that apply on the hub (guests apply inside hosted clusters). */
  public kustomizations(commit: Commit): any[] {
    const found: any[] = [];
    for (const [folder, objects] of commit.folders) {
      if (folder !== `flux/${this.hub}` && !folder.startsWith(`flux/${this.hub}/`)) continue;
      for (const o of objects) if (o.kind === 'Kustomization' && o.spec.kubeConfig === undefined) found.push(o);
    }
    return found;
  }

  /**
   * Reconciles every Kustomization of `commit` once, in dependsOn order. The bootstrap Kustomization
   * (`flux-<hub>`) must exist: the admin applies the bootstrap folder once, and each commit's own
   * Kustomization objects are what `flux-<hub>` applies. Returns each one's outcome.
   */
  public async reconcile(commit: Commit): Promise<Map<string, Outcome>> {
    const all = this.kustomizations(commit);
    const byId = new Map(all.map((k) => [`${k.metadata.namespace}/${k.metadata.name}`, k]));
    const outcomes = new Map<string, Outcome>();
    const visit = async (k: any): Promise<Outcome> => {
      const id = `${k.metadata.namespace}/${k.metadata.name}`;
      const known = outcomes.get(id);
      if (known) return known;
      for (const d of k.spec.dependsOn ?? []) {
        const dependency = byId.get(`${d.namespace}/${d.name}`);
        const outcome: Outcome = dependency ? await visit(dependency) : `Failed: dependency ${d.name} not found`;
        if (outcome !== 'Ready') {
          outcomes.set(id, `Held: waits for ${d.name}`);
          return outcomes.get(id)!;
        }
      }
      const outcome = await this.reconcileOne(commit, k);
      outcomes.set(id, outcome);
      return outcome;
    };
    for (const k of all) await visit(k);
    // A Kustomization gone from the commit was deleted by the prune of the one that applied it (deletionPolicy Orphan).
    for (const id of [...this.inventories.keys()]) if (!byId.has(id)) this.inventories.delete(id);
    return outcomes;
  }

  private async reconcileOne(commit: Commit, k: any): Promise<Outcome> {
    const id = `${k.metadata.namespace}/${k.metadata.name}`;
    const as = Impersonation.serviceAccount(k.metadata.namespace, k.spec.serviceAccountName);
    const folder = String(k.spec.path).replace(/^\.\/[^/]+\//, '');
    const objects: any[] = (commit.folders.get(folder) ?? []).map((o) => ({
      ...o,
      metadata: { ...o.metadata, labels: { ...o.metadata.labels, [OWNER_NAME]: k.metadata.name, [OWNER_NAMESPACE]: k.metadata.namespace } },
    }));
    const refused = (what: string, response: { status: number; message: string }): Outcome => {
      const reason = `${what} ${response.status} ${response.message}`;
      this.refusals.push(`${id}: ${reason}`);
      return `Failed: ${reason}`;
    };
    // Apply: definitions first, then the rest.
    const stages = [objects.filter((o) => DEFINITION_KINDS.has(o.kind)), objects.filter((o) => !DEFINITION_KINDS.has(o.kind))];
    for (const stage of stages) {
      for (const o of stage) {
        const read = await this.client.get(o, { impersonate: as });
        if (read.status !== 200 && read.status !== 404) return refused(`get ${keyOf(o)}:`, read);
        const dryRun = await this.client.apply(o, { dryRun: true, fieldManager: 'kustomize-controller', impersonate: as });
        if (dryRun.status >= 300) return refused(`apply dry run ${keyOf(o)}:`, dryRun);
        const applied = await this.client.apply(o, { fieldManager: 'kustomize-controller', impersonate: as });
        if (applied.status >= 300) return refused(`apply ${keyOf(o)}:`, applied);
      }
    }
    // Prune what the last inventory holds and this apply lacks, in reverse apply order.
    const previous = this.inventories.get(id) ?? [];
    this.inventories.set(id, objects);
    if (k.spec.prune) {
      const now = new Set(objects.map(keyOf));
      for (const stale of previous.filter((o) => !now.has(keyOf(o))).reverse()) {
        const read = await this.client.get(stale, { impersonate: as });
        if (read.status === 404) continue;
        if (read.status !== 200) {
          // ssa Delete fails; kustomize-controller keeps the survivor in its inventory and retries (#1664).
          this.inventories.set(id, [...objects, stale]);
          return refused(`prune get ${keyOf(stale)}:`, read);
        }
        const labels = read.body.metadata.labels ?? {};
        if (labels[OWNER_NAME] !== k.metadata.name || labels[OWNER_NAMESPACE] !== k.metadata.namespace) continue;
        if (read.body.metadata.annotations?.[PRUNE] === 'disabled') continue;
        const deleted = await this.client.delete(stale, { impersonate: as });
        if (deleted.status >= 300 && deleted.status !== 404) {
          this.inventories.set(id, [...objects, stale]);
          return refused(`prune delete ${keyOf(stale)}:`, deleted);
        }
      }
    }
    for (const check of k.spec.healthChecks ?? []) {
      const read = await this.client.get({ apiVersion: check.apiVersion, kind: check.kind, metadata: { name: check.name, namespace: check.namespace } }, { impersonate: as });
      if (read.status !== 200) return refused(`health check get ${check.kind}/${check.namespace ?? ''}/${check.name}:`, read);
    }
    return 'Ready';
  }

  /** What the admin's `oc apply -k dist/flux/<hub>` does: the bootstrap folder's objects, applied as cluster admin. */
  public async bootstrap(commit: Commit, hub = this.hub): Promise<void> {
    for (const o of commit.folders.get(`flux/${hub}`) ?? []) {
      const applied = await this.client.apply(o, { fieldManager: 'kubectl' });
      if (applied.status >= 300) throw new Error(`bootstrap ${keyOf(o)}: ${applied.status} ${applied.message}`);
    }
  }
}
