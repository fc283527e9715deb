import * as path from 'path';
import * as argo from '../../imports/application-argoproj.io';
import { appliedByHand } from '../core/apply-by-hand';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems, show } from '../core/problems';
import { SYNC_WAVE_ANNOTATION } from './apply-order';
import { ArgoCdGuestAccess } from './argo-cd-guest-access';
import type { DeliveredFile, DeliveryAdditions, DeliveryObject, IDelivery, PlacedObject } from './delivery';
import { DeliveryMode, recordDeliveryMode } from './delivery-mode';
import { kustomizations } from './kustomization';
import { KustomizeDelivery } from './kustomize-delivery';
import { objectFileName, TargetKind } from './output-layout';
import { addArgoCdSyncOptions } from './protection';

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
   * The AppProject of the Applications; it must allow the repository, the in-cluster destination and
   * the hosted clusters, and cluster-scoped resources.
   * @default 'default'
   */
  readonly project?: string;
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
}

/** The folder under the output root that holds each management cluster's bootstrap folder. */
export const ARGO_CD_BOOTSTRAP_FOLDER = 'argocd';
/** Where an Application delivers to its own cluster: Argo CD's in-cluster destination. */
export const ARGO_CD_IN_CLUSTER = 'https://kubernetes.default.svc';
/** The waves of the Applications in a bootstrap folder: a management cluster before the guests it hosts. */
export const ARGO_CD_MANAGEMENT_WAVE = 0;
export const ARGO_CD_GUEST_WAVE = 1;

/**
 * A HostedCluster is Healthy once its Available condition is True (its control plane answers)
 * and, once it has completed a release at all, it runs the release its spec names: while an
 * upgrade is in progress (the newest history entry Partial, or a desired image the spec no longer
 * names) it is Progressing, so that a sync holds the later waves, the NodePools' above all, until
 * the control plane reports the new version. The first install counts as soon as the control
 * plane is Available: it only completes once the pools' nodes have joined. Degraded when
 * Degraded is True before that. Argo CD releases without a bundled HostedCluster check count it
 * Healthy as soon as it exists.
 */
export const HOSTED_CLUSTER_HEALTH_LUA = `local available = nil
local degraded = nil
if obj.status ~= nil and obj.status.conditions ~= nil then
  for _, condition in ipairs(obj.status.conditions) do
    if condition.type == "Available" then
      available = condition
    elseif condition.type == "Degraded" then
      degraded = condition
    end
  end
end
local wanted = nil
if obj.spec ~= nil and obj.spec.release ~= nil then
  wanted = obj.spec.release.image
end
local upgrading = false
if obj.status ~= nil and obj.status.version ~= nil and obj.status.version.history ~= nil then
  local installed = false
  for _, entry in ipairs(obj.status.version.history) do
    if entry.state == "Completed" then
      installed = true
    end
  end
  if installed then
    local latest = obj.status.version.history[1]
    local desired = obj.status.version.desired
    upgrading = latest.state ~= "Completed" or latest.image ~= wanted or desired == nil or desired.image ~= wanted
  end
end
local hs = {}
if available ~= nil and available.status == "True" and not upgrading then
  hs.status = "Healthy"
  hs.message = available.message
elseif degraded ~= nil and degraded.status == "True" then
  hs.status = "Degraded"
  hs.message = degraded.message
elseif available ~= nil and available.status == "True" then
  hs.status = "Progressing"
  hs.message = "the control plane is upgrading to " .. tostring(wanted)
else
  hs.status = "Progressing"
  hs.message = "waiting for the Available condition"
  if available ~= nil and available.message ~= nil then
    hs.message = available.message
  end
end
return hs
`;

/**
 * An Application is as healthy as its status says. Argo CD 1.8 dropped this check, so without it an
 * app of apps moves on to the next wave as soon as an Application exists.
 */
export const APPLICATION_HEALTH_LUA = `local hs = {}
hs.status = "Progressing"
hs.message = ""
if obj.status ~= nil and obj.status.health ~= nil then
  hs.status = obj.status.health.status
  if obj.status.health.message ~= nil then
    hs.message = obj.status.health.message
  end
end
return hs
`;

/** A health check to add to Argo CD: `resource.customizations.health.<group>_<kind>` in argocd-cm, or an entry of the ArgoCD resource's `spec.resourceHealthChecks`. */
export interface ArgoCdHealthCheck {
  readonly group: string;
  readonly kind: string;
  /** The Lua script. */
  readonly check: string;
}

/** The health checks that make an app of apps of the bootstrap folders wait for each HostedCluster to be Available. */
export const ARGO_CD_HEALTH_CHECKS: readonly ArgoCdHealthCheck[] = [
  { group: 'hypershift.openshift.io', kind: 'HostedCluster', check: HOSTED_CLUSTER_HEALTH_LUA },
  { group: 'argoproj.io', kind: 'Application', check: APPLICATION_HEALTH_LUA },
];

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
/**
 * An automated sync is not retried on the same commit once it failed; a HostedCluster whose CRD the
 * hub's MCE is still installing, or a guest CR applied before its operator is up, would wait for the
 * next commit. About 15 minutes of retries, then the next commit's sync takes over.
 */
const SYNC_RETRY: argo.ApplicationSpecSyncPolicyRetry = { limit: 5, backoff: { duration: '30s', factor: 2, maxDuration: '10m' } };

/** API groups of the kinds Kubernetes serves itself; any other kind is a custom resource. */
const KUBERNETES_GROUPS: ReadonlySet<string> = new Set([
  '', 'apps', 'batch', 'autoscaling', 'policy', 'admissionregistration.k8s.io', 'apiextensions.k8s.io', 'apiregistration.k8s.io',
  'authentication.k8s.io', 'authorization.k8s.io', 'certificates.k8s.io', 'coordination.k8s.io', 'discovery.k8s.io', 'events.k8s.io',
  'flowcontrol.apiserver.k8s.io', 'internal.apiserver.k8s.io', 'networking.k8s.io', 'node.k8s.io', 'rbac.authorization.k8s.io',
  'resource.k8s.io', 'scheduling.k8s.io', 'storage.k8s.io', 'storagemigration.k8s.io',
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

/**
 * Delivery through Argo CD: the folders of `KustomizeDelivery` (sync waves, prune protection, a
 * kustomization.yaml each), plus a bootstrap folder per management cluster, `argocd/<hub>/`, to
 * `oc apply -k` once into that hub's Argo CD. It holds an Application for the hub's folder (in
 * cluster, wave 0) and one per guest folder of a hosted cluster on that hub (destination: the
 * hosted cluster's name, wave 1), and what `guestAccess` needs to register the hosted clusters.
 * Applications sync automatically with prune and self-heal, server-side, and have no
 * resources-finalizer: deleting one orphans what it applied, and HostedClusters, NodePools and
 * their Secrets carry `Prune=false,Delete=false` (see allowPruning).
 */
export class ArgoCdDelivery implements IDelivery {
  private readonly folders = new KustomizeDelivery();
  private readonly props: ArgoCdDeliveryProps;
  private readonly engines = new Map<string, Map<string, PlacedEngine>>();

  constructor(props: ArgoCdDeliveryProps) {
    this.props = props ?? ({} as ArgoCdDeliveryProps);
  }

  public place(object: PlacedObject, problems: Problems): string {
    const file = this.folders.place(object, problems);
    const json = object.json;
    recordDeliveryMode(json, this.props.healthChecksInstalled ? DeliveryMode.ARGO_CD : DeliveryMode.ARGO_CD_WITHOUT_HEALTH_CHECKS);
    if (object.target.kind === TargetKind.GUEST && !KUBERNETES_GROUPS.has(groupOf(json.apiVersion))) addArgoCdSyncOptions(json, SKIP_DRY_RUN);
    if (json.kind === 'MultiClusterEngine' && object.target.kind === TargetKind.MANAGEMENT) {
      const spec = json.spec ?? {};
      const engines = this.engines.get(object.target.folder) ?? new Map<string, PlacedEngine>();
      this.engines.set(object.target.folder, engines);
      engines.set(json.metadata.name, {
        name: json.metadata.name,
        unset: MULTICLUSTER_ENGINE_DEFAULTED.filter((field) => spec[field] === undefined),
        components: (spec.overrides?.components ?? []).map((c: { name: string }) => c.name),
      });
    }
    return file;
  }

  public finish(files: readonly DeliveredFile[], problems: Problems): DeliveryAdditions {
    // What place() saw belongs to this synth only.
    const engines = new Map(this.engines);
    this.engines.clear();
    const folders = this.folders.finish(files, problems);
    const found = problems.all.length;
    const settings = this.settings(problems);

    const managementFolders = new Set<string>();
    const nodePoolFolders = new Set<string>();
    const guests = new Map<string, Map<string, string>>();
    for (const file of files) {
      const target = file.target;
      // Written, never applied by an Application (a Restore starts a restore): see applyByHand.
      if (appliedByHand(target.chart) !== undefined) continue;
      if (target.kind === TargetKind.MANAGEMENT) {
        managementFolders.add(target.folder);
        if (file.kind === 'NodePool') nodePoolFolders.add(target.folder);
      } else {
        const hosted = guests.get(target.managementFolder!) ?? new Map<string, string>();
        guests.set(target.managementFolder!, hosted);
        hosted.set(target.folder, target.hostedCluster!.clusterName);
      }
    }

    if (managementFolders.has(ARGO_CD_BOOTSTRAP_FOLDER) || [...guests.values()].some((g) => g.has(ARGO_CD_BOOTSTRAP_FOLDER))) {
      problems.add(`bootstrap folder (${show(ARGO_CD_BOOTSTRAP_FOLDER)}) is also the folder of a chart with id ${show(ARGO_CD_BOOTSTRAP_FOLDER)}; `
        + `give that chart another id, ArgoCdDelivery writes each management cluster's Applications to ${ARGO_CD_BOOTSTRAP_FOLDER}/<cluster>/`);
    }
    const guestFolders = [...guests.values()].flatMap((g) => [...g.keys()]).sort();
    if (guestFolders.length > 0 && this.props.guestAccess === undefined) {
      problems.add(`guestAccess (undefined) must say how Argo CD reaches the hosted clusters of the guest folders ${guestFolders.join(', ')}: `
        + 'ArgoCdGuestAccess.acmGitOpsCluster() to have ACM register them, or ArgoCdGuestAccess.registeredClusters({ reason }) if you register them yourself');
    }
    this.props.guestAccess?.check(problems.within('guestAccess'));
    if (problems.all.length > found || settings === undefined) return folders;

    const objects: DeliveryObject[] = [];
    const add = (hub: string, json: any): void => {
      objects.push({ path: `${ARGO_CD_BOOTSTRAP_FOLDER}/${hub}/${objectFileName(json)}`, json, source: `delivery/${hub}/${json.kind}/${json.metadata.name}` });
    };
    const hubs = [...new Set([...managementFolders, ...guests.keys()])].sort();
    for (const hub of hubs) {
      if (managementFolders.has(hub)) {
        const ignore = this.managementIgnoreDifferences(engines.get(hub), settings.ignoreNodePoolReplicas && nodePoolFolders.has(hub));
        // RespectIgnoreDifferences only where Git writes a field someone else changes: it would also
        // keep the MCE's whole components list from the live object (argo-cd#27480).
        const respect = ignore.some((i) => i.kind === 'NodePool');
        add(hub, this.application(settings, hub, { server: ARGO_CD_IN_CLUSTER }, ARGO_CD_MANAGEMENT_WAVE, ignore, respect));
      }
      const hosted = [...(guests.get(hub) ?? new Map<string, string>())].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [folder, clusterName] of hosted) {
        add(hub, this.application(settings, folder, { name: clusterName }, ARGO_CD_GUEST_WAVE, [], false));
      }
      if (hosted.length > 0) {
        const context = { managementFolder: hub, clusterNames: hosted.map(([, name]) => name).sort(), argoCdNamespace: settings.argoCdNamespace };
        for (const json of this.props.guestAccess!.bootstrapObjects(context)) add(hub, json);
      }
    }

    // A kustomization.yaml per hub's bootstrap folder, none above them: each is applied to its own hub.
    const bootstrap = kustomizations(objects.map((o) => o.path.slice(ARGO_CD_BOOTSTRAP_FOLDER.length + 1)))
      .map((k) => ({ path: `${ARGO_CD_BOOTSTRAP_FOLDER}/${k.path}`, text: k.text }));
    return { objects, files: [...folders.files, ...bootstrap] };
  }

  /** The props with their defaults, or undefined when one is wrong (each recorded). */
  private settings(problems: Problems): Settings | undefined {
    const props = this.props;
    const found = problems.all.length;
    const repoUrl: unknown = props.repoUrl;
    problems.require(typeof repoUrl === 'string' && isGitUrl(repoUrl), 'repoUrl', repoUrl, GIT_URL_RULE);
    const targetRevision: unknown = props.targetRevision ?? 'HEAD';
    problems.require(typeof targetRevision === 'string' && /^\S+$/.test(targetRevision), 'targetRevision', targetRevision,
      'must be a branch, tag or commit: not empty, no spaces');
    const project: unknown = props.project ?? 'default';
    problems.require(typeof project === 'string' && project.trim() !== '', 'project', project, 'must name an Argo CD AppProject');
    const argoCdNamespace: unknown = props.argoCdNamespace ?? 'openshift-gitops';
    problems.require(typeof argoCdNamespace === 'string' && isDns1123Label(argoCdNamespace), 'argoCdNamespace', argoCdNamespace, DNS1123_LABEL_RULE);
    const outputPath: unknown = props.path ?? 'dist';
    problems.require(typeof outputPath === 'string' && isRepositoryPath(outputPath), 'path', outputPath,
      'must be a relative path inside the repository ("." for its root), without ".." or backslashes');
    if (problems.all.length > found) return undefined;
    return {
      repoUrl: repoUrl as string, targetRevision: targetRevision as string, project: project as string,
      argoCdNamespace: argoCdNamespace as string, path: path.posix.normalize(outputPath as string),
      ignoreNodePoolReplicas: props.ignoreNodePoolReplicas ?? false,
    };
  }

  /** What the hub's Application leaves to controllers: MCE defaults, and NodePool replicas if asked. */
  private managementIgnoreDifferences(engines: Map<string, PlacedEngine> | undefined, ignoreReplicas: boolean): argo.ApplicationSpecIgnoreDifferences[] {
    const ignore: argo.ApplicationSpecIgnoreDifferences[] = [];
    for (const engine of [...(engines?.values() ?? [])].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      // The operator adds every other component to the list; the ones Git names stay compared.
      const others = engine.components.map((name) => `.name != ${JSON.stringify(name)}`).join(' and ');
      ignore.push({
        group: 'multicluster.openshift.io', kind: 'MultiClusterEngine', name: engine.name,
        jsonPointers: engine.unset.length > 0 ? engine.unset.map((field) => `/spec/${field}`) : undefined,
        jqPathExpressions: [`.spec.overrides.components[]${others ? ` | select(${others})` : ''}`],
      });
    }
    if (ignoreReplicas) ignore.push({ group: 'hypershift.openshift.io', kind: 'NodePool', jsonPointers: ['/spec/replicas'] });
    return ignore;
  }

  /** The Application named after the folder it delivers. */
  private application(settings: Settings, folder: string, destination: argo.ApplicationSpecDestination, wave: number,
    ignoreDifferences: argo.ApplicationSpecIgnoreDifferences[], respectIgnoreDifferences: boolean): any {
    return {
      ...argo.Application.GVK,
      // No resources-finalizer.argocd.argoproj.io: deleting the Application must orphan what it applied, never cascade.
      metadata: { name: folder, namespace: settings.argoCdNamespace, annotations: { [SYNC_WAVE_ANNOTATION]: String(wave) } },
      spec: argo.toJson_ApplicationSpec({
        project: settings.project,
        source: { repoUrl: settings.repoUrl, targetRevision: settings.targetRevision, path: path.posix.join(settings.path, folder) },
        destination,
        syncPolicy: {
          automated: { prune: true, selfHeal: true },
          syncOptions: respectIgnoreDifferences ? [SERVER_SIDE_APPLY, RESPECT_IGNORE_DIFFERENCES] : [SERVER_SIDE_APPLY],
          retry: SYNC_RETRY,
        },
        ignoreDifferences: ignoreDifferences.length > 0 ? ignoreDifferences : undefined,
      }),
    };
  }
}

interface Settings {
  readonly repoUrl: string;
  readonly targetRevision: string;
  readonly project: string;
  readonly argoCdNamespace: string;
  readonly path: string;
  readonly ignoreNodePoolReplicas: boolean;
}

function groupOf(apiVersion: unknown): string {
  const text = String(apiVersion);
  const slash = text.indexOf('/');
  return slash < 0 ? '' : text.slice(0, slash);
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
