// Argo CD's application controller replayed against a real kube-apiserver: for each Application of a
// commit, the calls its sync makes, as the controller's identity (impersonated), following
// argoproj/argo-cd 37ee0097cf85 (gitops-engine is vendored there, under gitops-engine/):
// - rendering: reposerver/repository/repository.go `GenerateManifests` stamps each manifest but a CRD
//   with the tracking id, util/argo/resource_tracking.go `SetAppInstance`: with annotation tracking
//   (Argo CD 3's default) `argocd.argoproj.io/tracking-id: <app>:<group>/<kind>:<namespace>/<name>`
//   (`BuildAppInstanceValue`), where a cluster-scoped object takes the Application's destination
//   namespace (`UnstructuredToAppInstanceValue`); a folder that is not in the commit is a comparison
//   error, and nothing is synced;
// - the project (util/argo/argo.go `ValidatePermissions`): the source repository and the destination
//   must be allowed (`IsSourcePermitted`, `IsDestinationPermitted`), else the Application has an
//   InvalidSpecError and does not sync; Argo CD enforces its AppProjects itself, the API server
//   knows nothing of them;
// - comparison (controller/state.go `CompareAppState`): the live objects are the Application's
//   targets and whatever the controller's cache finds tracked by its name (controller/cache/cache.go
//   `GetManagedLiveObjs`; the cache lists every kind, here the kinds the commits hold), less those
//   its project does not permit (`IsLiveResourcePermitted`); a live target tracked by another
//   Application is a SharedResourceWarning, whether or not that Application still exists;
// - sync (controller/sync.go `SyncAppState`): with FailOnSharedResource=true that warning fails the
//   sync before any call (`hasSharedResourceCondition`); each target must be permitted
//   (`validateSyncPermissions`: `IsGroupKindNamePermitted`, then `IsDestinationPermitted` for a
//   namespaced one); then, wave by wave (gitops-engine/pkg/sync/sync_context.go), the dry run, which
//   is kubectl's client dry run whatever the sync options (`applyObject`: a get, nothing sent), the
//   apply, `kubectl apply --server-side --force-conflicts` with field manager argocd-controller and
//   strict field validation (utils/kube/resource_ops.go `newApplyOptions`; `WithManifestValidation`),
//   and prune (`pruneObject`): a delete, propagation Foreground, of each object the Application
//   manages and no longer holds, unless it carries `Prune=false` (`isPruningDisabled`); a wave
//   starts once the one before is Healthy, by the Lua health checks the Argo CD has (`Sync`: the
//   sync stays Running meanwhile, and prune waits with the last wave).
// The server runs no garbage collector: an object deleted with Foreground propagation keeps its
// deletionTimestamp and the `foregroundDeletion` finalizer, which the collector would remove once
// no dependent is left (none of these objects has any); the replay removes it as the collector would.
import { ImpersonatedUser, KubeClient, ObjectReference } from './kube-client';
import { ARGO_CD_HEALTH_CHECKS, ArgoCdHealthCheck } from '../../lib';
import { ocmAdmissionRules } from '../../lib/gitops/ocm-admission';
import { runArgoCdCheck } from '../gitops/lua-health';
import type { Commit } from '../gitops/fleet-commits';
import { ocmWebhookRefusal } from './ocm-webhooks';
import { untilGranted } from './rbac-granted';

/** The tracking annotation of annotation tracking. */
export const TRACKING_ID = 'argocd.argoproj.io/tracking-id';
const SYNC_OPTIONS = 'argocd.argoproj.io/sync-options';
const SYNC_WAVE = 'argocd.argoproj.io/sync-wave';
const FIELD_MANAGER = 'argocd-controller';
/** Argo CD's in-cluster destination: this server. */
const IN_CLUSTER = 'https://kubernetes.default.svc';

/** What one sync of one Application did. */
export interface SyncOutcome {
  /**
   * Synced; Running (a wave waits for an object to be Healthy: the sync goes on, the later waves
   * are not applied yet); Failed (the operation, or its comparison, failed); Skipped (its
   * destination is a hosted cluster, not this server).
   */
  readonly phase: 'Synced' | 'Running' | 'Failed' | 'Skipped';
  /** Why it failed or was skipped, as Argo CD says it. */
  readonly message: string;
  /** `<group>/<kind>:<namespace>/<name>` of each object pruned. */
  readonly pruned: readonly string[];
  /** Of each object it manages, no longer holds and does not prune (`Prune=false`): it stays OutOfSync on them. */
  readonly pruneSkipped: readonly string[];
}

/** A live object and the Application its tracking id names. */
interface LiveObject {
  readonly object: any;
  readonly trackedBy?: string;
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');
/** `<group>/<kind>:<namespace>/<name>`, as in a tracking id (the namespace of a cluster-scoped object left empty here). */
export const keyOf = (o: ObjectReference): string => `${groupOf(o.apiVersion)}/${o.kind}:${o.metadata.namespace ?? ''}/${o.metadata.name}`;
const annotationsOf = (o: any): Record<string, string> => o?.metadata?.annotations ?? {};
const waveOf = (o: any): number => Number(annotationsOf(o)[SYNC_WAVE] ?? 0);
/** The Application a tracking id names (`ParseAppInstanceValue`), or undefined. */
const trackedBy = (o: any): string | undefined => {
  const value = annotationsOf(o)[TRACKING_ID];
  return value && value.split(':').length === 3 ? value.split(':')[0] : undefined;
};
/** Argo CD's glob match with the one wildcard hcp-cdk's projects could use. */
const globMatch = (pattern: string | undefined, value: string): boolean => pattern !== undefined && (pattern === '*' || new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`).test(value));
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Argo CD's application controller on one management cluster. */
export class ArgoCdReplay {
  /** Every (apiVersion, kind) a commit held: what the controller's cache lists. */
  private readonly kinds = new Map<string, { apiVersion: string; kind: string }>();

  /**
   * @param namespace the Argo CD namespace, where the Applications and AppProjects are
   * @param controller who the application controller is (see `grantController`)
   * @param healthChecks the Lua health checks this Argo CD has (docs/delivery.md: `ARGO_CD_HEALTH_CHECKS`)
   */
  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
    private readonly controller: ImpersonatedUser,
    private readonly healthChecks: readonly ArgoCdHealthCheck[] = ARGO_CD_HEALTH_CHECKS,
  ) {}

  /** What the admin's `oc apply -k dist/argocd/<hub>` does: the bootstrap folder, applied as cluster admin. */
  public async bootstrap(commit: Commit, hub: string, outputPath = 'dist'): Promise<void> {
    await this.grantController(commit, outputPath);
    for (const o of commit.folders.get(`argocd/${hub}`) ?? []) {
      const applied = await this.client.apply(o, { fieldManager: 'kubectl' });
      if (applied.status >= 300) throw new Error(`bootstrap ${keyOf(o)}: ${applied.status} ${applied.message}`);
    }
  }

  /**
   * The RBAC the application controller needs for what `commit` delivers, applied by the admin: on
   * every kind the commit holds (and held before), `get`, `list` and `watch` for its cache and
   * `create`, `patch`, `update`, `delete` for the sync, cluster-wide, as Argo CD's own install
   * grants them on every kind (`argocd-application-controller`), here narrowed to what the units
   * hold; and the rights OCM's webhooks ask of whoever writes them (binding a cluster set, ...).
   */
  public async grantController(commit: Commit, outputPath = 'dist'): Promise<void> {
    // Its own kinds, which it reads whatever it delivers.
    for (const kind of ['Application', 'AppProject']) this.kinds.set(`argoproj.io/v1alpha1/${kind}`, { apiVersion: 'argoproj.io/v1alpha1', kind });
    const delivered = await this.delivered(commit, outputPath);
    for (const o of delivered) this.kinds.set(`${o.apiVersion}/${o.kind}`, { apiVersion: o.apiVersion, kind: o.kind });
    const byGroup = new Map<string, Set<string>>();
    for (const { apiVersion, kind } of this.kinds.values()) {
      const group = groupOf(apiVersion);
      byGroup.set(group, (byGroup.get(group) ?? new Set()).add((await this.client.resource(apiVersion, kind)).name));
    }
    const name = `argocd-application-controller-${this.namespace}`;
    const rules = [
      ...[...byGroup].map(([group, resources]) => ({ apiGroups: [group], resources: [...resources].sort(), verbs: ['get', 'list', 'watch', 'create', 'patch', 'update', 'delete'] })),
      // And what OCM's webhooks ask of whoever writes a ManagedClusterSetBinding or a ManagedCluster.
      ...delivered.flatMap((o) => ocmAdmissionRules(o)),
    ];
    const user = this.controller.user.split(':');
    for (const o of [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: this.namespace } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: user[3], namespace: user[2] } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name }, rules },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
        subjects: [{ kind: 'ServiceAccount', name: user[3], namespace: user[2] }],
      },
    ]) {
      const applied = await this.client.apply(o, { fieldManager: 'admin' });
      if (applied.status >= 300) throw new Error(`controller RBAC ${keyOf(o)}: ${applied.status} ${applied.message}`);
    }
    // The controller's first reads come right after: they wait until the authorizer has the grant.
    await untilGranted(this.client, this.controller, rules);
  }

  /**
   * The objects of `commit` that Applications deliver to this cluster: the bootstrap folders', and
   * those of the folders of the in-cluster Applications they hold or that are live.
   */
  private async delivered(commit: Commit, outputPath: string): Promise<any[]> {
    const bootstrap = [...commit.folders].filter(([folder]) => folder.startsWith('argocd/')).flatMap(([, objects]) => objects);
    // Read by the admin, who grants the controller what it needs.
    const applications = [...bootstrap.filter((o) => o.kind === 'Application'), ...(await this.applications({ asAdmin: true }))];
    const folders = new Set(
      applications
        .filter((a) => a.spec.destination.server === IN_CLUSTER && String(a.spec.source.path).startsWith(`${outputPath}/`))
        .map((a) => String(a.spec.source.path).slice(outputPath.length + 1))
        .filter((folder) => !folder.startsWith('argocd/')),
    );
    return [...bootstrap, ...[...folders].flatMap((folder) => commit.folders.get(folder) ?? [])];
  }

  /**
   * One reconciliation of every live Application of the Argo CD namespace on `commit`, pushed to
   * the repository with its output directory at `outputPath`, as automated sync makes it: the
   * bootstrap Applications (of an `argocd/<hub>` folder) first, then the others as they are once
   * those synced, by wave. Returns each one's outcome.
   */
  public async sync(commit: Commit, outputPath = 'dist'): Promise<Map<string, SyncOutcome>> {
    await this.grantController(commit, outputPath);
    const cache = await this.liveCache();
    const outcomes = new Map<string, SyncOutcome>();
    const isBootstrap = (a: any) => /(^|\/)argocd\/[^/]+$/.test(String(a.spec.source?.path ?? ''));
    for (const application of (await this.applications()).filter(isBootstrap)) outcomes.set(application.metadata.name, await this.syncOne(commit, outputPath, application, cache));
    const others = (await this.applications()).filter((a) => !isBootstrap(a)).sort((a, b) => waveOf(a) - waveOf(b) || (a.metadata.name < b.metadata.name ? -1 : 1));
    for (const application of others) outcomes.set(application.metadata.name, await this.syncOne(commit, outputPath, application, cache));
    return outcomes;
  }

  /** The live Applications, read as the controller (or as the admin). */
  private async applications(options: { readonly asAdmin?: boolean } = {}): Promise<any[]> {
    const listed = await this.list('argoproj.io/v1alpha1', 'Application', this.namespace, options.asAdmin ? undefined : this.controller);
    return listed.filter((a: any) => !a.metadata.deletionTimestamp);
  }

  /** The items of a list, as `reader` (the admin when undefined). */
  private async list(apiVersion: string, kind: string, namespace: string | undefined, reader: ImpersonatedUser | undefined): Promise<any[]> {
    const listed = await this.client.listSettled(apiVersion, kind, namespace, { impersonate: reader });
    if (listed.status !== 200) throw new Error(`list ${kind}: ${listed.status} ${listed.message}`);
    return listed.body.items;
  }

  /** The controller's cache: every live object of the kinds it watches, by key. */
  private async liveCache(): Promise<Map<string, LiveObject>> {
    const cache = new Map<string, LiveObject>();
    await Promise.all(
      [...this.kinds.values()].map(async ({ apiVersion, kind }) => {
        for (const item of await this.list(apiVersion, kind, undefined, this.controller)) {
          const object = { ...item, apiVersion, kind };
          if (!object.metadata.deletionTimestamp) cache.set(keyOf(object), { object, trackedBy: trackedBy(object) });
        }
      }),
    );
    return cache;
  }

  private async syncOne(commit: Commit, outputPath: string, application: any, cache: Map<string, LiveObject>): Promise<SyncOutcome> {
    const name = application.metadata.name;
    const outcome = (phase: SyncOutcome['phase'], message = '', pruned: string[] = [], pruneSkipped: string[] = []): SyncOutcome => ({ phase, message, pruned, pruneSkipped });
    const destination = application.spec.destination;
    if (destination.server !== IN_CLUSTER) return outcome('Skipped', `destination ${destination.name ?? destination.server} is not this cluster`);
    const projectRead = await this.client.get(
      { apiVersion: 'argoproj.io/v1alpha1', kind: 'AppProject', metadata: { name: application.spec.project, namespace: this.namespace } },
      { impersonate: this.controller },
    );
    if (projectRead.status !== 200) return outcome('Failed', `error getting app project "${application.spec.project}": ${projectRead.status}`);
    const project = projectRead.body;
    const source = application.spec.source;
    if (!(project.spec.sourceRepos ?? []).some((repo: string) => globMatch(repo, source.repoURL))) {
      return outcome('Failed', `application repo ${source.repoURL} is not permitted in project '${project.metadata.name}'`);
    }
    if (!destinationPermitted(project, destination.namespace)) {
      return outcome(
        'Failed',
        `application destination server '${destination.server}' and namespace '${destination.namespace}' do not match any of the allowed destinations in project '${project.metadata.name}'`,
      );
    }
    const folder = String(source.path).startsWith(`${outputPath}/`) ? String(source.path).slice(outputPath.length + 1) : undefined;
    const manifests = folder === undefined ? undefined : commit.folders.get(folder);
    if (manifests === undefined) return outcome('Failed', `${source.path}: app path does not exist`);

    // Render, as the repo server does: each target stamped with the tracking id.
    const targets: any[] = [];
    for (const manifest of manifests) {
      const { namespaced } = await this.client.resource(manifest.apiVersion, manifest.kind);
      const namespace = namespaced ? (manifest.metadata.namespace ?? destination.namespace) : undefined;
      const tracking = `${name}:${groupOf(manifest.apiVersion)}/${manifest.kind}:${namespace ?? destination.namespace}/${manifest.metadata.name}`;
      const annotations = manifest.kind === 'CustomResourceDefinition' ? annotationsOf(manifest) : { ...annotationsOf(manifest), [TRACKING_ID]: tracking };
      targets.push({ ...manifest, metadata: { ...manifest.metadata, namespace, annotations } });
    }

    // Compare: the live targets (read as the dry run reads them) and what the cache says it manages.
    const liveTargets = new Map<string, any>();
    for (const [target, read] of await Promise.all(targets.map(async (t) => [t, await this.client.get(t, { impersonate: this.controller })] as const))) {
      if (read.status === 200) liveTargets.set(keyOf(target), read.body);
      else if (read.status !== 404) return outcome('Failed', `get ${keyOf(target)}: ${read.status} ${read.message}`);
    }
    const shared = [...liveTargets.values()].filter((live) => objectPermitted(project, live) && trackedBy(live) !== undefined && trackedBy(live) !== name);
    if (shared.length > 0 && (application.spec.syncPolicy?.syncOptions ?? []).includes('FailOnSharedResource=true')) {
      const live = shared[0];
      return outcome('Failed', `Shared resource found: ${live.kind}/${live.metadata.name} is part of applications ${this.namespace}/${name} and ${trackedBy(live)}`);
    }
    for (const target of targets) {
      if (!objectPermitted(project, target)) {
        const namespaced = target.metadata.namespace !== undefined;
        const why =
          namespaced && kindPermitted(project, target, true)
            ? `namespace ${target.metadata.namespace} is not permitted in project '${project.metadata.name}'`
            : `resource ${groupOf(target.apiVersion)}:${target.kind} is not permitted in project ${project.metadata.name}`;
        return outcome('Failed', why);
      }
    }

    // Sync: apply wave by wave, then prune what it manages and no longer holds.
    const held = new Set(targets.map(keyOf));
    for (const wave of [...new Set(targets.map(waveOf))].sort((a, b) => a - b)) {
      const inWave = targets.filter((t) => waveOf(t) === wave);
      for (const target of inWave.filter((t) => !liveTargets.has(keyOf(t)))) {
        const webhook = await ocmWebhookRefusal(this.client, target, this.controller);
        if (webhook) return outcome('Failed', `apply ${keyOf(target)}: 403 ${webhook}`);
      }
      const results = await Promise.all(inWave.map((t) => this.client.apply(t, { fieldManager: FIELD_MANAGER, impersonate: this.controller })));
      const refused = results.findIndex((r) => r.status >= 300);
      if (refused >= 0) return outcome('Failed', `apply ${keyOf(inWave[refused])}: ${results[refused].status} ${results[refused].message}`);
      inWave.forEach((t, i) => cache.set(keyOf(t), { object: results[i].body, trackedBy: name }));
      // The next wave waits until this one is Healthy. No controller writes a status here: an object
      // without one stands for a healthy one, one whose status a test wrote is judged by its check.
      for (const applied of results.map((r) => r.body)) {
        const check = this.healthChecks.find((c) => c.group === groupOf(applied.apiVersion) && c.kind === applied.kind);
        if (check === undefined || applied.status === undefined) continue;
        const health = runArgoCdCheck(check, applied);
        if (health.status !== 'Healthy') return outcome('Running', `waiting for ${applied.kind}/${applied.metadata.name} (wave ${wave}) to be Healthy: ${health.status}`);
      }
    }
    const pruned: string[] = [];
    const pruneSkipped: string[] = [];
    for (const [key, live] of [...cache]) {
      if (live.trackedBy !== name || held.has(key) || !objectPermitted(project, live.object)) continue;
      if (/(^|,)\s*Prune=false\s*(,|$)/.test(annotationsOf(live.object)[SYNC_OPTIONS] ?? '')) {
        pruneSkipped.push(key);
        continue;
      }
      const deleted = await this.client.delete(live.object, { propagationPolicy: 'Foreground', impersonate: this.controller });
      if (deleted.status >= 300 && deleted.status !== 404) return outcome('Failed', `prune ${key}: ${deleted.status} ${deleted.message}`, pruned, pruneSkipped);
      await this.collectGarbage(live.object);
      cache.delete(key);
      pruned.push(key);
    }
    return outcome('Synced', '', pruned.sort(), pruneSkipped.sort());
  }

  /** The garbage collector's part of a Foreground deletion of an object without dependents: its finalizer removed. */
  private async collectGarbage(object: any): Promise<void> {
    const read = await this.client.get(object);
    if (read.status !== 200) return;
    const finalizers: string[] = read.body.metadata.finalizers ?? [];
    if (!finalizers.includes('foregroundDeletion')) return;
    const patched = await this.client.request('PATCH', await this.client.objectPath(object, { named: true }), {
      body: JSON.stringify({ metadata: { finalizers: finalizers.filter((f) => f !== 'foregroundDeletion'), resourceVersion: read.body.metadata.resourceVersion } }),
      contentType: 'application/merge-patch+json',
    });
    if (patched.status >= 300) throw new Error(`garbage collection of ${keyOf(object)}: ${patched.status} ${patched.message}`);
  }
}

/** `IsDestinationPermitted` for the in-cluster destination. */
function destinationPermitted(project: any, namespace: string): boolean {
  return (project.spec.destinations ?? []).some((d: any) => (globMatch(d.server, IN_CLUSTER) || globMatch(d.name, 'in-cluster')) && globMatch(d.namespace, namespace));
}

/** `IsGroupKindNamePermitted`. */
function kindPermitted(project: any, object: any, namespaced: boolean): boolean {
  const matches = (list: any[] | undefined) =>
    (list ?? []).some((r) => globMatch(r.group, groupOf(object.apiVersion)) && globMatch(r.kind, object.kind) && (r.name === undefined || globMatch(r.name, object.metadata.name)));
  if (namespaced) {
    const whitelist = project.spec.namespaceResourceWhitelist;
    const listed = whitelist === undefined || (whitelist.length > 0 && matches(whitelist));
    return listed && !matches(project.spec.namespaceResourceBlacklist);
  }
  return matches(project.spec.clusterResourceWhitelist) && !matches(project.spec.clusterResourceBlacklist);
}

/** `IsResourcePermitted` (and `IsLiveResourcePermitted`) for an object on the in-cluster destination. */
function objectPermitted(project: any, object: any): boolean {
  const namespace = object.metadata.namespace;
  if (!kindPermitted(project, object, namespace !== undefined)) return false;
  return namespace === undefined || destinationPermitted(project, namespace);
}
