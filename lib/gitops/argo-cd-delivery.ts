import * as path from 'path';
import * as argo from '../../imports/application-argoproj.io';
import { appliedByHand } from '../core/apply-by-hand';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems, show } from '../core/problems';
import { isOlmSubscription, SYNC_WAVE_ANNOTATION } from './apply-order';
import { ArgoCdGuestAccess } from './argo-cd-guest-access';
import type { DeliveredFile, DeliveryAdditions, DeliveryObject, IDelivery, PlacedObject, PreviousDeliveredOutput } from './delivery';
import { DeliveryMode, recordDeliveryMode } from './delivery-mode';
import { kustomizations } from './kustomization';
import { KustomizeDelivery } from './kustomize-delivery';
import { objectFileName, TargetKind } from './output-layout';
import { unitProject } from './argo-cd-project';
import { objectKey, PreviousFolders } from './previous-folders';
import { addArgoCdSyncOptions } from './protection';
import { groupOf, ObjectIdentity, unitAccess, UnitAccess } from './unit-access';

/** Props of ArgoCdDelivery. */
export interface ArgoCdDeliveryProps {
  /** The Git repository the output directory is pushed to: `https://…`, `ssh://…` or `git@host:path`. */
  readonly repoUrl: string;
  /**
   * The branch, tag or commit Argo CD follows.
   * @default 'HEAD'
   */
  readonly targetRevision?: string;
  /**
   * The output directory's path inside the repository; each Application's path is `<path>/<folder>`.
   * @default 'dist'
   */
  readonly path?: string;
  /**
   * The namespace of the Argo CD instance on every management cluster, where the Applications go.
   * @default 'openshift-gitops'
   */
  readonly argoCdNamespace?: string;
  /**
   * How a hosted cluster becomes a destination of its management cluster's Argo CD, so that the
   * Application of its guest folder can sync. Required as soon as the app has a guest folder.
   * @default - none; synth fails if a guest folder needs one
   */
  readonly guestAccess?: ArgoCdGuestAccess;
  /**
   * Leave NodePool `spec.replicas` to whoever scales the pool outside Git (`oc scale nodepool`, a
   * pipeline): the hub Applications ignore the field and keep the live value when they sync
   * (RespectIgnoreDifferences). Otherwise Argo CD reverts it to the value in Git.
   * @default false
   */
  readonly ignoreNodePoolReplicas?: boolean;
  /**
   * Whether this Argo CD has `ARGO_CD_HEALTH_CHECKS` in its `resourceHealthChecks`, which hcp-cdk
   * cannot see: recorded on each HostedCluster (`hcp-cdk.io/delivery`), so that `hcp-cdk plan`
   * says whether an upgrade's NodePools (wave 60) wait for the control plane (wave 50). Without
   * the checks a HostedCluster is Healthy as soon as it exists, and they do not.
   * @default false - plan says nothing waits, until you install the checks and say so
   */
  readonly healthChecksInstalled?: boolean;
  /**
   * Write Argo CD's `default` AppProject into each bootstrap folder with every permission removed,
   * as Argo CD documents it (docs/user-guide/projects.md, "The Default Project"): the bootstrap
   * Application may write Applications into the Argo CD namespace, and one that names `default`
   * would otherwise deploy anything anywhere. Turn it off only if other Applications of that Argo CD
   * use `default`.
   * @default true
   */
  readonly lockDefaultProject?: boolean;
}

/** The folder under the output root that holds each management cluster's bootstrap folder. */
export const ARGO_CD_BOOTSTRAP_FOLDER = 'argocd';
/** Where an Application delivers to its own cluster: Argo CD's in-cluster destination. */
export const ARGO_CD_IN_CLUSTER = 'https://kubernetes.default.svc';
/**
 * The waves of a bootstrap folder. The AppProjects (and the Application of the folder itself) come
 * first; then the hub's Application, whose shared objects every cluster needs; then the shared
 * inventories; then every hosted cluster's and guest's Application in one wave, so that an app of
 * apps never waits for one cluster before it creates another's Application. A guest's Application
 * has no destination until its hosted cluster is Available and registered: it waits on its own.
 */
export const ARGO_CD_PROJECT_WAVE = 0;
/** The sync wave of the hub's own Application. */
export const ARGO_CD_MANAGEMENT_WAVE = 1;
/** The sync wave of the shared inventories' Applications. */
export const ARGO_CD_INVENTORY_WAVE = 2;
/** The sync wave of the hosted clusters' Applications. */
export const ARGO_CD_CLUSTER_WAVE = 3;
/** The sync wave of the guests' Applications: the clusters', so that no cluster waits for another. */
export const ARGO_CD_GUEST_WAVE = ARGO_CD_CLUSTER_WAVE;

/**
 * Objects whose CRD arrives in the same sync (a guest's operator Subscription installs it): the
 * dry run Argo CD makes of the whole folder first would fail on them.
 */
const SKIP_DRY_RUN = ['SkipDryRunOnMissingResource=true'];
/**
 * Server-side apply: HostedClusters, AgentServiceConfigs and ConfigMaps (trust bundles, registries)
 * outgrow the 256 KiB last-applied-configuration annotation of client-side apply, and controllers
 * can own the fields they write.
 */
const SERVER_SIDE_APPLY = 'ServerSideApply=true';
const RESPECT_IGNORE_DIFFERENCES = 'RespectIgnoreDifferences=true';
/** An object another Application already tracks is refused, not taken over: a unit writes only what it owns. */
const FAIL_ON_SHARED_RESOURCE = 'FailOnSharedResource=true';
/**
 * On an Application that takes over objects the previous output gave another Application (its
 * folder renamed or moved, a hub renamed), naming those: for that commit it syncs without
 * FailOnSharedResource, which would refuse them for good (the live objects keep the old
 * Application's tracking id, whether or not it still exists: argo-cd controller/state.go,
 * `CompareAppState`, and controller/sync.go, `hasSharedResourceCondition`), and its sync writes its
 * own tracking id on them.
 */
export const ARGO_CD_ADOPTS_ANNOTATION = 'hcp-cdk.io/adopts-from';
/** The destination namespace of a unit that writes into none (only cluster-scoped objects). */
const ARGO_CD_NAMESPACE_FALLBACK = 'default';
/**
 * An automated sync is not retried on the same commit once it failed; a HostedCluster whose CRD the
 * hub's MCE is still installing, or a guest CR applied before its operator is up, would wait for the
 * next commit. About 15 minutes of retries, then the next commit's sync takes over.
 */
const SYNC_RETRY: argo.ApplicationSpecSyncPolicyRetry = { limit: 5, backoff: { duration: '30s', factor: 2, maxDuration: '10m' } };
/**
 * An Application that installs an operator waits, through failed syncs, for CRDs that arrive after
 * their wave: OLM installing the operator, then (for MCE) its components installing theirs, which
 * takes longer than 15 minutes on a busy hub. About an hour of retries.
 */
const OPERATOR_INSTALL_SYNC_RETRY: argo.ApplicationSpecSyncPolicyRetry = { ...SYNC_RETRY, limit: 10 };

/** API groups of the kinds Kubernetes serves itself; any other kind is a custom resource. */
const KUBERNETES_GROUPS: ReadonlySet<string> = new Set([
  '',
  'apps',
  'batch',
  'autoscaling',
  'policy',
  'admissionregistration.k8s.io',
  'apiextensions.k8s.io',
  'apiregistration.k8s.io',
  'authentication.k8s.io',
  'authorization.k8s.io',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** The fields the MCE operator fills in when Git leaves them out (see MultiClusterEngine). */
const MULTICLUSTER_ENGINE_DEFAULTED = ['targetNamespace', 'availabilityConfig'];

const GIT_URL_RULE = 'must be a Git URL: https://host/path, ssh://[user@]host/path or user@host:path';

/** A MultiClusterEngine as placed: what the operator will fill in that Git leaves alone. */
interface PlacedEngine {
  readonly name: string;
  /** The defaulted fields Git does not set. */
  readonly unset: readonly string[];
  /** `spec.overrides.components[].name` as written. */
  readonly components: readonly string[];
}

/** A delivery unit of a management cluster: its own folder (the hub's shared objects), a hosted cluster's, or an inventory folder's. */
enum UnitRole {
  HUB = 'the hub',
  INVENTORY = 'inventory',
  CLUSTER = 'hosted cluster',
  GUEST = 'guest',
}

/** The bootstrap wave of each unit's Application. */
const WAVES: Readonly<Record<UnitRole, number>> = {
  [UnitRole.HUB]: ARGO_CD_MANAGEMENT_WAVE,
  [UnitRole.INVENTORY]: ARGO_CD_INVENTORY_WAVE,
  [UnitRole.CLUSTER]: ARGO_CD_CLUSTER_WAVE,
  [UnitRole.GUEST]: ARGO_CD_GUEST_WAVE,
};

/** The objects one Application delivers. */
interface Unit {
  readonly role: UnitRole;
  /** The output folder it applies. */
  readonly folder: string;
  /** The management cluster's folder, whose bootstrap folder holds the Application. */
  readonly hub: string;
  readonly destination: { readonly server: string } | { readonly name: string };
  readonly files: DeliveredFile[];
}

/**
 * Delivery through Argo CD: the folders of `KustomizeDelivery` (sync waves, prune protection),
 * delivered by one Application per unit, so that one hosted cluster never holds back another:
 * the hub's own folder (operators, MCE, namespaces), each hosted cluster's folder (its Secrets,
 * HostedCluster and NodePools, and the hosts it has to itself), each shared inventory folder, and
 * each guest folder (destination: the hosted cluster's name). Every Application has an AppProject
 * of its own that allows exactly the namespaces and kinds its folder writes, and Argo CD refuses
 * an object that another Application already tracks (FailOnSharedResource). A bootstrap folder per
 * management cluster, `argocd/<hub>/`, holds the AppProjects and Applications, the objects
 * `guestAccess` needs, and an Application that keeps the folder itself in sync: `oc apply -k` it
 * once. Its waves: the AppProjects, then the hub's Application, then the inventories', then the
 * hosted clusters' and guests' all in one wave, so that an app of apps waits for the hub's shared
 * objects and inventory only, never for one cluster before another. Each folder's
 * `kustomization.yaml` lists its own files only: a hub's never reaches into its clusters' folders.
 * Applications sync automatically with prune and self-heal, server-side, and have no
 * resources-finalizer: deleting one orphans what it applied, and HostedClusters, NodePools and
 * their Secrets carry `Prune=false,Delete=false` (see allowPruning).
 */
export class ArgoCdDelivery implements IDelivery {
  private readonly folders = new KustomizeDelivery({ kustomizations: false });
  private readonly props: ArgoCdDeliveryProps;
  /** Per synth: the MultiClusterEngines placed, by folder. */
  private readonly engines = new Map<string, Map<string, PlacedEngine>>();

  constructor(props: ArgoCdDeliveryProps) {
    this.props = props ?? ({} as ArgoCdDeliveryProps);
  }

  public place(object: PlacedObject, problems: Problems): string {
    const file = this.folders.place(object, problems);
    const json = object.json;
    recordDeliveryMode(json, this.props.healthChecksInstalled ? DeliveryMode.ARGO_CD : DeliveryMode.ARGO_CD_WITHOUT_HEALTH_CHECKS);
    if (object.target.kind === TargetKind.GUEST && !KUBERNETES_GROUPS.has(groupOf(String(json.apiVersion)))) addArgoCdSyncOptions(json, SKIP_DRY_RUN);
    if (json.kind === 'MultiClusterEngine' && object.target.kind === TargetKind.MANAGEMENT) {
      const spec = json.spec ?? {};
      const engines = this.engines.get(object.folder) ?? new Map<string, PlacedEngine>();
      this.engines.set(object.folder, engines);
      engines.set(json.metadata.name, {
        name: json.metadata.name,
        unset: MULTICLUSTER_ENGINE_DEFAULTED.filter((field) => spec[field] === undefined),
        components: (spec.overrides?.components ?? []).map((c: { name: string }) => c.name),
      });
    }
    return file;
  }

  public finish(files: readonly DeliveredFile[], problems: Problems, previous?: PreviousDeliveredOutput): DeliveryAdditions {
    const before = PreviousFolders.of(previous);
    // What place() saw belongs to this synth only.
    const engines = new Map(this.engines);
    this.engines.clear();
    // Each folder lists its own files only: the hub's Application must not apply its clusters' folders.
    const folderKustomizations = kustomizations(
      files.map((f) => f.path),
      { subFolders: false },
    );
    const found = problems.all.length;
    const settings = this.settings(problems);

    const units = unitsOf(files);
    const folders = new Set([...units.map((u) => u.folder), ...units.map((u) => `${ARGO_CD_BOOTSTRAP_FOLDER}/${u.hub}`)]);
    if (units.some((u) => u.hub === ARGO_CD_BOOTSTRAP_FOLDER || u.folder === ARGO_CD_BOOTSTRAP_FOLDER)) {
      problems.add(
        `bootstrap folder (${show(ARGO_CD_BOOTSTRAP_FOLDER)}) is also the folder of a chart with id ${show(ARGO_CD_BOOTSTRAP_FOLDER)}; ` +
          `give that chart another id, ArgoCdDelivery writes each management cluster's Applications to ${ARGO_CD_BOOTSTRAP_FOLDER}/<cluster>/`,
      );
    }
    const guestFolders = units.filter((u) => u.role === UnitRole.GUEST).map((u) => u.folder);
    if (guestFolders.length > 0 && this.props.guestAccess === undefined) {
      problems.add(
        `guestAccess (undefined) must say how Argo CD reaches the hosted clusters of the guest folders ${guestFolders.join(', ')}: ` +
          'ArgoCdGuestAccess.acmGitOpsCluster() to have ACM register them, or ArgoCdGuestAccess.registeredClusters({ reason }) if you register them yourself',
      );
    }
    this.props.guestAccess?.check(problems.within('guestAccess'));
    checkNames(units, problems);
    if (problems.all.length > found || settings === undefined) return { objects: [], files: folderKustomizations };

    const objects: DeliveryObject[] = [];
    const add = (hub: string, json: any): void => {
      objects.push({ path: `${ARGO_CD_BOOTSTRAP_FOLDER}/${hub}/${objectFileName(json)}`, json, source: `delivery/${hub}/${json.kind}/${json.metadata.name}` });
    };
    for (const hub of [...new Set(units.map((u) => u.hub))].sort()) {
      const hubUnits = units.filter((u) => u.hub === hub);
      const bootstrap: any[] = [];
      for (const unit of hubUnits) {
        const name = applicationName(unit.folder);
        // For one commit, also what the folder held before: Argo CD leaves out of an Application
        // whatever its project does not permit (controller/state.go `CompareAppState`,
        // `IsLiveResourcePermitted`), so a kind the folder no longer writes would never be pruned.
        const access = unitAccess([...unit.files, ...droppedFrom(before, unit.folder, unit.files)]);
        const destinationNamespace = homeNamespace(unit, access);
        bootstrap.push(
          withWave(
            unitProject({
              name,
              namespace: settings.argoCdNamespace,
              repoUrl: settings.repoUrl,
              destination: unit.destination,
              access,
              destinationNamespace,
              description: `what ${unit.role === UnitRole.HUB ? `management cluster ${hub}` : `${unit.role} ${unit.folder}`} writes, and nothing else (hcp-cdk)`,
            }),
            ARGO_CD_PROJECT_WAVE,
          ),
        );
        const ignore = this.ignoreDifferences(unit, engines.get(unit.folder), settings.ignoreNodePoolReplicas);
        // RespectIgnoreDifferences only where Git writes a field someone else changes: it would also
        // keep the MCE's whole components list from the live object (argo-cd#27480).
        const respect = ignore.some((i) => i.kind === 'NodePool');
        const installs = installsOperator(unit);
        const options = [...(respect ? [RESPECT_IGNORE_DIFFERENCES] : []), ...(installs ? SKIP_DRY_RUN : [])];
        const retry = installs ? OPERATOR_INSTALL_SYNC_RETRY : SYNC_RETRY;
        const adopts = adoptedFrom(
          before,
          folders,
          name,
          unit.files.map((f) => f.path),
        );
        bootstrap.push(this.application(settings, name, unit.folder, { ...unit.destination, namespace: destinationNamespace }, WAVES[unit.role], ignore, options, retry, adopts));
      }
      const clusterNames = hubUnits
        .filter((u) => u.role === UnitRole.GUEST)
        .map((u) => (u.destination as { name: string }).name)
        .sort();
      if (clusterNames.length > 0) {
        bootstrap.push(...this.props.guestAccess!.bootstrapObjects({ managementFolder: hub, clusterNames, argoCdNamespace: settings.argoCdNamespace }));
      }
      if (this.props.lockDefaultProject ?? true) bootstrap.push(withWave(lockedDefaultProject(settings.argoCdNamespace), ARGO_CD_PROJECT_WAVE));
      // The Application that keeps the bootstrap folder in sync, so that clusters added later get
      // their Applications by themselves; its project allows what the folder holds.
      const bootstrapFolder = `${ARGO_CD_BOOTSTRAP_FOLDER}/${hub}`;
      const name = applicationName(bootstrapFolder);
      // In the last wave: an app of apps never waits for its own health before it creates the others.
      const selfAdopts = adoptedFrom(
        before,
        folders,
        name,
        bootstrap.map((json) => `${bootstrapFolder}/${objectFileName(json)}`),
      );
      const self = this.application(settings, name, bootstrapFolder, { server: ARGO_CD_IN_CLUSTER, namespace: settings.argoCdNamespace }, ARGO_CD_CLUSTER_WAVE, [], [], SYNC_RETRY, selfAdopts);
      const held = [...bootstrap, self].map((json) => ({ apiVersion: json.apiVersion, kind: json.kind, name: json.metadata.name, namespace: json.metadata.namespace }));
      const selfProject = withWave(
        unitProject({
          name,
          namespace: settings.argoCdNamespace,
          repoUrl: settings.repoUrl,
          destination: { server: ARGO_CD_IN_CLUSTER },
          access: unitAccess([...held, ...droppedFrom(before, bootstrapFolder, held)]),
          destinationNamespace: settings.argoCdNamespace,
          description: `the AppProjects and Applications of management cluster ${hub} (hcp-cdk)`,
        }),
        ARGO_CD_PROJECT_WAVE,
      );
      for (const json of [selfProject, self, ...bootstrap]) add(hub, json);
    }

    // A kustomization.yaml per hub's bootstrap folder, none above them: each is applied to its own hub.
    const bootstrapKustomizations = kustomizations(objects.map((o) => o.path.slice(ARGO_CD_BOOTSTRAP_FOLDER.length + 1))).map((k) => ({ path: `${ARGO_CD_BOOTSTRAP_FOLDER}/${k.path}`, text: k.text }));
    return { objects, files: [...folderKustomizations, ...bootstrapKustomizations] };
  }

  /** The props with their defaults, or undefined when one is wrong (each recorded). */
  private settings(problems: Problems): Settings | undefined {
    const props = this.props;
    const found = problems.all.length;
    const repoUrl: unknown = props.repoUrl;
    problems.require(typeof repoUrl === 'string' && isGitUrl(repoUrl), 'repoUrl', repoUrl, GIT_URL_RULE);
    const targetRevision: unknown = props.targetRevision ?? 'HEAD';
    problems.require(typeof targetRevision === 'string' && /^\S+$/.test(targetRevision), 'targetRevision', targetRevision, 'must be a branch, tag or commit: not empty, no spaces');
    // A JavaScript caller of an older release may still pass one AppProject for everything.
    const project: unknown = (props as { project?: unknown }).project;
    problems.require(project === undefined, 'project', project, 'must be left out: ArgoCdDelivery writes an AppProject per Application that allows exactly what its folder writes');
    const argoCdNamespace: unknown = props.argoCdNamespace ?? 'openshift-gitops';
    problems.require(typeof argoCdNamespace === 'string' && isDns1123Label(argoCdNamespace), 'argoCdNamespace', argoCdNamespace, DNS1123_LABEL_RULE);
    const outputPath: unknown = props.path ?? 'dist';
    problems.require(
      typeof outputPath === 'string' && isRepositoryPath(outputPath),
      'path',
      outputPath,
      'must be a relative path inside the repository ("." for its root), without ".." or backslashes',
    );
    if (problems.all.length > found) return undefined;
    return {
      repoUrl: repoUrl as string,
      targetRevision: targetRevision as string,
      argoCdNamespace: argoCdNamespace as string,
      path: path.posix.normalize(outputPath as string),
      ignoreNodePoolReplicas: props.ignoreNodePoolReplicas ?? false,
    };
  }

  /** What a unit's Application leaves to controllers: MCE defaults, and NodePool replicas if asked. */
  private ignoreDifferences(unit: Unit, engines: Map<string, PlacedEngine> | undefined, ignoreReplicas: boolean): argo.ApplicationSpecIgnoreDifferences[] {
    const ignore: argo.ApplicationSpecIgnoreDifferences[] = [];
    for (const engine of [...(engines?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      // The operator adds every other component to the list; the ones Git names stay compared.
      const others = engine.components.map((name) => `.name != ${JSON.stringify(name)}`).join(' and ');
      ignore.push({
        group: 'multicluster.openshift.io',
        kind: 'MultiClusterEngine',
        name: engine.name,
        jsonPointers: engine.unset.length > 0 ? engine.unset.map((field) => `/spec/${field}`) : undefined,
        jqPathExpressions: [`.spec.overrides.components[]${others ? ` | select(${others})` : ''}`],
      });
    }
    if (ignoreReplicas && unit.destination !== undefined && 'server' in unit.destination && unit.files.some((f) => f.kind === 'NodePool')) {
      ignore.push({ group: 'hypershift.openshift.io', kind: 'NodePool', jsonPointers: ['/spec/replicas'] });
    }
    return ignore;
  }

  /**
   * The Application `name`, in the project of the same name, delivering `folder`, with `options`
   * besides those every one has, retried as `retry` says; without FailOnSharedResource when it
   * takes over what the Applications `adopts` tracked.
   */
  private application(
    settings: Settings,
    name: string,
    folder: string,
    destination: argo.ApplicationSpecDestination,
    wave: number,
    ignoreDifferences: argo.ApplicationSpecIgnoreDifferences[],
    options: readonly string[],
    retry: argo.ApplicationSpecSyncPolicyRetry = SYNC_RETRY,
    adopts: readonly string[] = [],
  ): any {
    const syncOptions = [SERVER_SIDE_APPLY, ...(adopts.length > 0 ? [] : [FAIL_ON_SHARED_RESOURCE]), ...options];
    const annotations: Record<string, string> = { [SYNC_WAVE_ANNOTATION]: String(wave) };
    if (adopts.length > 0) annotations[ARGO_CD_ADOPTS_ANNOTATION] = adopts.join(',');
    return {
      ...argo.Application.GVK,
      // No resources-finalizer.argocd.argoproj.io: deleting the Application must orphan what it applied, never cascade.
      metadata: { name, namespace: settings.argoCdNamespace, annotations },
      spec: argo.toJson_ApplicationSpec({
        project: name,
        source: { repoUrl: settings.repoUrl, targetRevision: settings.targetRevision, path: path.posix.join(settings.path, folder) },
        destination,
        syncPolicy: { automated: { prune: true, selfHeal: true }, syncOptions, retry },
        ignoreDifferences: ignoreDifferences.length > 0 ? ignoreDifferences : undefined,
      }),
    };
  }
}

/**
 * The delivered files by unit, in folder order: per management cluster its own folder, each of its
 * sub-folders (a hosted cluster's, or an inventory's) and each guest folder of a hosted cluster it
 * hosts. Charts applied by hand (a Restore starts a restore) get no Application: see applyByHand.
 */
function unitsOf(files: readonly DeliveredFile[]): Unit[] {
  const units = new Map<string, Unit>();
  for (const file of files) {
    const target = file.target;
    if (appliedByHand(target.chart) !== undefined) continue;
    let unit = units.get(file.folder);
    if (unit === undefined) {
      const guest = target.kind === TargetKind.GUEST;
      const role = guest ? UnitRole.GUEST : file.folder === target.folder ? UnitRole.HUB : UnitRole.INVENTORY;
      const destination = guest ? { name: target.hostedCluster!.clusterName } : { server: ARGO_CD_IN_CLUSTER };
      unit = { role, folder: file.folder, hub: guest ? target.managementFolder! : target.folder, destination, files: [] };
      units.set(file.folder, unit);
    }
    unit.files.push(file);
  }
  // A folder with a HostedCluster is that cluster's unit, with whatever hosts it has to itself.
  const sorted = [...units.values()].sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  return sorted.map((u) => (u.role === UnitRole.INVENTORY && u.files.some((f) => f.kind === 'HostedCluster') ? { ...u, role: UnitRole.CLUSTER } : u));
}

/**
 * Whether a management unit installs an operator through OLM: its Application skips the dry run
 * of the kinds whose CRD is missing (SkipDryRunOnMissingResource), as the operator, or MCE's
 * components once its MultiClusterEngine is reconciled, installs them during the sync; kinds the
 * cluster serves are still dry-run. The waves order the apply, and the sync's retry covers a CRD
 * that arrives after its wave. A guest's objects carry the option each (see place()).
 */
function installsOperator(unit: Unit): boolean {
  return unit.role !== UnitRole.GUEST && unit.files.some((f) => isOlmSubscription(f.kind, f.apiVersion));
}

/** An Application's (and its AppProject's) name: its folder path with "/" read as "-". */
function applicationName(folder: string): string {
  return folder.split('/').join('-');
}

/**
 * The namespace an Application names as its destination's (Argo CD checks it against the project
 * even when every object names its own): a hosted cluster's own namespace, else the first the
 * unit writes into, else the Argo CD namespace.
 */
function homeNamespace(unit: Unit, access: UnitAccess): string {
  const hosted = unit.files.find((f) => f.kind === 'HostedCluster');
  return hosted?.namespace ?? [...access.namespaces.keys()][0] ?? ARGO_CD_NAMESPACE_FALLBACK;
}

/** Reports Application names Argo CD cannot use and two units whose names are alike. */
function checkNames(units: readonly Unit[], problems: Problems): void {
  const seen = new Map<string, string>();
  for (const unit of units) {
    const name = applicationName(unit.folder);
    if (!isDns1123Label(name)) {
      problems.add(
        `name (${show(name)}) of the Application of ${show(unit.folder)} ${DNS1123_LABEL_RULE}, since Argo CD may write it into a label of every object it applies; shorten the chart id or folder name`,
      );
    }
    const twin = seen.get(name);
    if (twin === undefined) seen.set(name, unit.folder);
    else
      problems.add(
        `name (${show(name)}) of the Application of ${show(unit.folder)} is also the name of the one of ${show(twin)}; rename a chart or folder so that the folder paths differ with "/" read as "-"`,
      );
  }
}

/**
 * The Applications that tracked, in the previous output, objects Application `name` writes now
 * (`paths`): those of folders gone from the output (renamed or moved) that held the same files. An
 * object's file name names its kind, namespace and name, and an Application's name is its folder's.
 * A folder still in the output is still its Application's: the same file there is on another cluster.
 */
function adoptedFrom(previous: PreviousFolders, current: ReadonlySet<string>, name: string, paths: readonly string[]): string[] {
  const others = new Set<string>();
  for (const file of paths) {
    for (const folder of previous.foldersOf(path.posix.basename(file))) {
      const owner = applicationName(folder);
      if (owner !== name && !current.has(folder)) others.add(owner);
    }
  }
  return [...others].sort();
}

/** What `folder` held in the previous output and `kept` lacks. */
function droppedFrom(previous: PreviousFolders, folder: string, kept: readonly ObjectIdentity[]): ObjectIdentity[] {
  return previous.droppedFrom(folder, new Set(kept.map((o) => objectKey(o.kind, o.namespace, o.name))));
}

/**
 * Argo CD's `default` AppProject with every permission removed (docs/user-guide/projects.md). Not
 * protected: pruned (lockDefaultProject turned off), Argo CD makes its open default again.
 */
function lockedDefaultProject(namespace: string): any {
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'AppProject',
    metadata: { name: 'default', namespace },
    spec: { sourceRepos: [], sourceNamespaces: [], destinations: [], namespaceResourceBlacklist: [{ group: '*', kind: '*' }] },
  };
}

function withWave(json: any, wave: number): any {
  json.metadata.annotations = { ...json.metadata.annotations, [SYNC_WAVE_ANNOTATION]: String(wave) };
  return json;
}

interface Settings {
  readonly repoUrl: string;
  readonly targetRevision: string;
  readonly argoCdNamespace: string;
  readonly path: string;
  readonly ignoreNodePoolReplicas: boolean;
}

/** `https://host/path`, `ssh://[user@]host[:port]/path` or scp-like `user@host:path`. */
function isGitUrl(url: string): boolean {
  if (/\s/.test(url)) return false;
  if (/^(https|ssh):\/\//.test(url)) {
    try {
      const parsed = new URL(url);
      return parsed.hostname !== '' && parsed.pathname.length > 1;
    } catch {
      return false;
    }
  }
  return /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/\s][^\s]*$/.test(url);
}

function isRepositoryPath(value: string): boolean {
  if (value === '' || value.startsWith('/') || value.includes('\\')) return false;
  return !path.posix.normalize(value).split('/').includes('..');
}
