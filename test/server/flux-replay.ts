// kustomize-controller replayed against a real kube-apiserver: for each Kustomization of a commit, in
// dependsOn order, the calls it makes as its ServiceAccount (impersonated, as kustomize-controller
// impersonates `spec.serviceAccountName`), following fluxcd/kustomize-controller 186fb3b29138
// internal/controller/kustomization_controller.go `reconcile` (apply, then prune, then health checks)
// over fluxcd/pkg ssa v0.77.0 (b98e2b0975e0):
// - apply: ssa/manager_apply.go `ApplyAllStaged` applies CRDs, Namespaces and ClusterRoles first, then
//   the rest; `ApplyAll` reads and dry-runs every object of a stage (a `get`, a server-side apply
//   dry run, force, field manager kustomize-controller), concurrently, fails the stage on any
//   refusal, and only then applies (here every object; it applies those whose dry run differs), so
//   an object a dry run needs from the same stage (the Role a RoleBinding names) is not there yet;
// - prune: `inventory.Diff` of the inventory in the Kustomization's status (what it applied last) and
//   what it applies now; ssa/manager_delete.go `Delete` per stale object: a `get` (any error but
//   NotFound fails the Kustomization with PruneFailed), skipped when its owner labels name another
//   Kustomization or it carries `kustomize.toolkit.fluxcd.io/prune: disabled`, else `delete`;
// - health checks: kstatus's direct cluster reader (DisableStatusPollerCache, on by default) reads each
//   object of `spec.healthChecks` by name, and judges it by `spec.healthCheckExprs` (flux-health.ts).
//   The server runs no HyperShift: an object without a status stands for a healthy one, and a test
//   writes the status of one that is not.
// A Kustomization runs only once every dependency ran at this commit (`checkDependencies`: Ready at
// the same revision); the rest are held back.
import { Impersonation, KubeClient, ObjectReference } from './kube-client';
import type { Commit } from '../gitops/fleet-commits';
import { fluxVerdict } from '../gitops/flux-health';
import { ocmWebhookRefusal } from './ocm-webhooks';

/** Where kustomize-controller records which Kustomization applied an object (ssa `SetOwnerLabels`). */
const OWNER_NAME = 'kustomize.toolkit.fluxcd.io/name';
const OWNER_NAMESPACE = 'kustomize.toolkit.fluxcd.io/namespace';
const PRUNE = 'kustomize.toolkit.fluxcd.io/prune';
/** Applied first, and waited for (ssa utils `IsClusterDefinition`). */
const DEFINITION_KINDS = new Set(['CustomResourceDefinition', 'Namespace', 'ClusterRole']);

/** What one Kustomization did at a commit. */
export type Outcome = 'Ready' | `Failed: ${string}` | `Progressing: ${string}` | `Held: ${string}`;

/** An object as the inventory names it. */
type InventoryEntry = ObjectReference;

const keyOf = (o: InventoryEntry): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** kustomize-controller over one Flux namespace: the inventory of each Kustomization is kept across commits. */
export class FluxReplay {
  /** Per Kustomization (`<namespace>/<name>`), what it applied last: its status.inventory. */
  private readonly inventories = new Map<string, InventoryEntry[]>();
  /** Every call refused, for a failure message. */
  public readonly refusals: string[] = [];

  /** @param namespace where the Kustomizations that apply on the hub live (the delivery's `namespace`) */
  constructor(
    private readonly client: KubeClient,
    private readonly namespace = 'flux-system',
  ) {}

  /**
   * Reconciles every live Kustomization of the namespace once, on `commit` pushed to the
   * repository with its output directory at `outputPath`: the bootstrap ones (of a `flux/<hub>`
   * folder) first, which apply the others' specs, then the others as they are once those ran, in
   * dependsOn order. A Kustomization's path must be in the commit (`reconcile`: "kustomization path
   * not found"). Returns each one's outcome.
   */
  public async reconcile(commit: Commit, outputPath = 'dist'): Promise<Map<string, Outcome>> {
    const outcomes = new Map<string, Outcome>();
    const isBootstrap = (k: any) => /\/flux\/[^/]+$/.test(String(k.spec.path));
    for (const k of (await this.live()).filter(isBootstrap)) outcomes.set(`${k.metadata.namespace}/${k.metadata.name}`, await this.reconcileOne(commit, outputPath, k));
    const all = await this.live();
    const byId = new Map(all.map((k) => [`${k.metadata.namespace}/${k.metadata.name}`, k]));
    // Each Kustomization once its dependencies ran, independent ones at the same time, as the controller's workers take them.
    const running = new Map<string, Promise<Outcome>>();
    const visit = (k: any): Promise<Outcome> => {
      const id = `${k.metadata.namespace}/${k.metadata.name}`;
      const known = outcomes.get(id);
      if (known) return Promise.resolve(known);
      if (!running.has(id)) {
        running.set(
          id,
          (async () => {
            for (const d of k.spec.dependsOn ?? []) {
              const dependency = byId.get(`${d.namespace ?? k.metadata.namespace}/${d.name}`);
              const outcome: Outcome = dependency ? await visit(dependency) : `Failed: dependency ${d.name} not found`;
              if (outcome !== 'Ready') return `Held: waits for ${d.name}` as Outcome;
            }
            const outcome = await this.reconcileOne(commit, outputPath, k);
            // RBAC written moments before (by a unit this one depends on) reaches the authorizer's
            // cache a little later: the Kustomization is retried (spec.retryInterval), here once.
            if (!/^Failed: .* 403 /.test(outcome)) return outcome;
            await new Promise((resolve) => setTimeout(resolve, 500));
            return this.reconcileOne(commit, outputPath, k);
          })().then((outcome) => {
            outcomes.set(id, outcome);
            return outcome;
          }),
        );
      }
      return running.get(id)!;
    };
    await Promise.all(all.map(visit));
    // A Kustomization gone was deleted by the prune of the one that applied it (deletionPolicy Orphan).
    for (const id of [...this.inventories.keys()]) if (!byId.has(id)) this.inventories.delete(id);
    return outcomes;
  }

  /** The live Kustomizations of the namespace that apply on this cluster (a guest's, with a kubeConfig, live beside its HostedCluster). */
  private async live(): Promise<any[]> {
    const listed = await this.client.listSettled('kustomize.toolkit.fluxcd.io/v1', 'Kustomization', this.namespace);
    if (listed.status !== 200) throw new Error(`list Kustomizations: ${listed.status} ${listed.message}`);
    return listed.body.items.filter((k: any) => !k.metadata.deletionTimestamp && k.spec.kubeConfig === undefined);
  }

  private async reconcileOne(commit: Commit, outputPath: string, k: any): Promise<Outcome> {
    const id = `${k.metadata.namespace}/${k.metadata.name}`;
    // Without a ServiceAccount (and no --default-service-account), kustomize-controller applies as itself: cluster admin in Flux's install.
    const as = k.spec.serviceAccountName ? Impersonation.serviceAccount(k.metadata.namespace, k.spec.serviceAccountName) : undefined;
    const path = String(k.spec.path);
    const manifests = path.startsWith(`./${outputPath}/`) ? commit.folders.get(path.slice(outputPath.length + 3)) : undefined;
    if (manifests === undefined) return `Failed: kustomization path not found: ${path}`;
    const objects: any[] = manifests.map((o) => ({
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
      // `ApplyAll`: every object of the stage read and dry-run (concurrently), and only when all pass, applied.
      const checked = await Promise.all(
        stage.map(async (o): Promise<Outcome | undefined> => {
          const read = await this.client.get(o, { impersonate: as });
          if (read.status !== 200 && read.status !== 404) return refused(`get ${keyOf(o)}:`, read);
          const webhook = read.status === 404 ? await ocmWebhookRefusal(this.client, o, as) : undefined;
          if (webhook) return refused(`apply dry run ${keyOf(o)}:`, { status: 403, message: webhook });
          const dryRun = await this.client.apply(o, { dryRun: true, fieldManager: 'kustomize-controller', impersonate: as });
          return dryRun.status >= 300 ? refused(`apply dry run ${keyOf(o)}:`, dryRun) : undefined;
        }),
      );
      const failed = checked.find((r) => r !== undefined);
      if (failed) return failed;
      const applied = await Promise.all(stage.map((o) => this.client.apply(o, { fieldManager: 'kustomize-controller', impersonate: as })));
      const refusal = applied.findIndex((r) => r.status >= 300);
      if (refusal >= 0) return refused(`apply ${keyOf(stage[refusal])}:`, applied[refusal]);
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
      // No controller writes a status here: an object without one stands for a healthy one, one whose status a test wrote is judged by its expression.
      const expression = (k.spec.healthCheckExprs ?? []).find((e: any) => e.apiVersion === check.apiVersion && e.kind === check.kind);
      if (expression === undefined || read.body.status === undefined) continue;
      const verdict = fluxVerdict(expression, read.body);
      if (verdict === 'Failed') return `Failed: health check failed for ${check.kind}/${check.name}`;
      if (verdict === 'InProgress') return `Progressing: ${check.kind}/${check.name}`;
    }
    return 'Ready';
  }

  /**
   * What the admin's `oc apply -k dist/flux/<hub>/admission` and `oc apply -k dist/flux/<hub>` do:
   * the admission policy (when the delivery writes one), then the bootstrap folder's objects, applied
   * as cluster admin.
   */
  public async bootstrap(commit: Commit, hub: string): Promise<void> {
    await this.applyAdmission(commit, hub, { enforced: false });
    for (const o of commit.folders.get(`flux/${hub}`) ?? []) {
      const applied = await this.client.apply(o, { fieldManager: 'kubectl' });
      if (applied.status >= 300) throw new Error(`bootstrap ${keyOf(o)}: ${applied.status} ${applied.message}`);
    }
    await this.enforced(commit, hub);
  }

  /**
   * What the admin's `oc apply -k dist/flux/<hub>/admission` does: the hand step whenever the
   * admission policy changes. Returns once the server enforces it: the API server compiles a
   * policy a moment after it is written, and until then judges by the one before.
   */
  public async applyAdmission(commit: Commit, hub: string, options: { readonly enforced?: boolean } = {}): Promise<void> {
    for (const o of commit.folders.get(`flux/${hub}/admission`) ?? []) {
      const applied = await this.client.apply(o, { fieldManager: 'kubectl' });
      if (applied.status >= 300) throw new Error(`bootstrap ${keyOf(o)}: ${applied.status} ${applied.message}`);
    }
    if (options.enforced ?? true) await this.enforced(commit, hub);
  }

  /**
   * Waits until the admission policy of `commit` is enforced: a role widened by everything is
   * refused by it, and none of the roles the bootstrap units write is.
   */
  private async enforced(commit: Commit, hub: string): Promise<void> {
    if (!commit.folders.has(`flux/${hub}/admission`)) return;
    const as = (unit: string) => ({ dryRun: true, fieldManager: 'kustomize-controller', impersonate: Impersonation.serviceAccount(this.namespace, unit) });
    const hubRole = (commit.folders.get(`flux/${hub}`) ?? []).find((o) => o.kind === 'ClusterRole' && o.metadata.name === `hcp-cdk-flux-${hub}`);
    const widened = hubRole && { ...hubRole, rules: [...hubRole.rules, { apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] };
    const writes = [
      ...(commit.folders.get(`flux/${hub}`) ?? []).map((o) => [o, `flux-${hub}`] as const),
      ...(commit.folders.get(`flux/${hub}/access`) ?? []).map((o) => [o, `flux-${hub}-access`] as const),
    ].filter(([o]) => o.kind === 'Role' || o.kind === 'ClusterRole');
    for (let attempt = 0; attempt < 40; attempt++) {
      const answers = await Promise.all(writes.map(([o, unit]) => this.client.apply(o, as(unit))));
      const probe = widened && (await this.client.apply(widened, as(`flux-${hub}`)));
      if (!answers.some((a) => /ValidatingAdmissionPolicy/.test(a.message)) && (!probe || /ValidatingAdmissionPolicy/.test(probe.message))) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`the admission policy of flux/${hub}/admission is not enforced after 10 s`);
  }
}
