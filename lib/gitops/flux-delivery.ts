import * as path from 'path';
import { ApiObject, Chart, Duration } from 'cdk8s';
import * as flux from '../../imports/kustomization-kustomize.toolkit.fluxcd.io';
import { toGoDuration } from '../core/go-duration';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems, show } from '../core/problems';
import { OPERATOR_KINDS } from './apply-order';
import type { DeliveredFile, DeliveryAdditions, DeliveryObject, IDelivery, PlacedObject } from './delivery';
import { FLUX_NAMESPACE, FluxSource } from './flux-source';
import { kustomizations } from './kustomization';
import { KustomizeDelivery } from './kustomize-delivery';
import { DeliveryTarget, objectFileName, OutputLayout, TargetKind } from './output-layout';

export interface FluxDeliveryProps {
  /** Where Flux fetches the output from: `FluxSource.gitRepository({ name, url? })`. */
  readonly source: FluxSource;
  /**
   * The output directory inside the repository: each Kustomization's `spec.path` is `<path>/<folder>`.
   * @default './dist'
   */
  readonly path?: string;
  /**
   * The namespace of the Kustomizations that apply to the management clusters (a guest's
   * Kustomizations live beside its HostedCluster, with the admin kubeconfig Secret).
   * @default 'flux-system'
   */
  readonly namespace?: string;
  /**
   * How often each Kustomization is reconciled, undoing drift (`spec.interval`); Flux's docs give one minute as the least.
   * @default Duration.minutes(10)
   */
  readonly interval?: Duration;
  /**
   * How soon a failed reconciliation (apply or health check) is tried again (`spec.retryInterval`).
   * @default Duration.minutes(2)
   */
  readonly retryInterval?: Duration;
  /**
   * How long a Kustomization may take to apply and to pass its health checks, e.g. for a HostedCluster
   * to become Available (`spec.timeout`); then it reports failure and retries.
   * @default Duration.minutes(30)
   */
  readonly timeout?: Duration;
}

/** The Flux Kustomization API a delivered object is applied by. */
const KUSTOMIZATION = flux.Kustomization.GVK;
/** The folder of the Kustomizations of each management cluster, `flux/<management cluster>/`. */
const BOOTSTRAP_FOLDER = 'flux';
/** Below it, the guests' Kustomizations, applied once the namespaces they live in exist. */
const GUESTS_FOLDER = 'guests';
/** The two halves of a folder that installs an operator through OLM and uses it. */
const OPERATORS_PART = 'operators';
const RESOURCES_PART = 'resources';
/** The key of the admin kubeconfig in the `<name>-admin-kubeconfig` Secret HyperShift writes. */
const KUBECONFIG_KEY = 'kubeconfig';
const OLM_GROUP = 'operators.coreos.com/';

/**
 * Custom resources a Kustomization waits for, with the CEL that tells when each is ready: kstatus,
 * Flux's default, sees neither (a HostedCluster has no Ready condition, a Subscription no
 * conditions of its own when all is well). `?.`/`orValue` keep a field not yet written from
 * failing the expression.
 */
const HEALTH_CHECKS: Readonly<Record<string, { readonly apiVersion: string; readonly current: string; readonly failed?: string }>> = {
  // The hosted control plane answers; HyperShift has written the admin kubeconfig by then.
  HostedCluster: {
    apiVersion: 'hypershift.openshift.io/v1beta1',
    current: "status.?conditions.orValue([]).exists(c, c.type == 'Available' && c.status == 'True')",
  },
  // OLM sets installedCSV once the InstallPlan has created the operator's CRDs and CSV; `state`
  // alone would hold a folder back whenever the catalog offers a newer version (UpgradeAvailable).
  Subscription: {
    apiVersion: 'operators.coreos.com/v1alpha1',
    current: "status.?installedCSV.orValue('') != ''",
    failed: "status.?conditions.orValue([]).exists(c, c.type == 'InstallPlanFailed' && c.status == 'True')",
  },
};

/** The files one Flux Kustomization applies: a folder, or the operators or resources half of one. */
interface Unit {
  /** '/'-separated under the output root, e.g. `hub/vcluster2` or `vcluster2-guest/operators`. */
  readonly folder: string;
  /** The layout's folder: `folder` without its half. */
  readonly layoutFolder: string;
  readonly part?: typeof OPERATORS_PART | typeof RESOURCES_PART;
  readonly target: DeliveryTarget;
  readonly files: DeliveredFile[];
}

/** A Kustomization to write, and what it is named by. */
interface Planned {
  readonly name: string;
  readonly namespace: string;
  /** The management cluster folder whose bootstrap folder holds it. */
  readonly bootstrap: string;
  /** Where it is written. */
  readonly file: string;
  /** The output folder it applies. */
  readonly folder: string;
}

/**
 * Flux delivery: one Flux `Kustomization` (kustomize.toolkit.fluxcd.io/v1) per output folder, all
 * from one source (a GitRepository), ordered with `dependsOn`: a management cluster's root folder
 * (namespaces, hub setup) before its hosted-cluster and inventory folders; a hosted cluster's
 * folder, healthy only once its HostedCluster is Available, before its guest folder, which is
 * applied inside the hosted cluster through `spec.kubeConfig` with the admin kubeconfig Secret
 * HyperShift writes (`<name>-admin-kubeconfig`). A folder that installs an operator through OLM
 * and uses its custom resources is split into `operators/` and `resources/`, the second waiting
 * for the Subscription to be installed, because Flux dry-runs a folder's objects before applying
 * them and the custom resources' kinds do not exist before the operator does.
 *
 * Each folder's `kustomization.yaml` lists only its own files (a parent listing its sub-folders
 * would apply them twice), so `oc apply -k` of a folder applies that folder alone. The
 * Kustomizations of each management cluster are written to `flux/<management cluster>/` (with
 * the GitRepository when the source has a URL, and a Kustomization that keeps the folder itself
 * in sync): apply it once with `oc apply -k`. Objects whose deletion destroys a cluster keep
 * `kustomize.toolkit.fluxcd.io/prune: disabled` (see allowPruning), and every Kustomization has
 * `deletionPolicy: Orphan`, so deleting a Kustomization deletes nothing it applied.
 */
export class FluxDelivery implements IDelivery {
  private readonly source: FluxSource;
  private readonly path: string;
  private readonly namespace: string;
  private readonly interval: Duration;
  private readonly retryInterval: Duration;
  private readonly timeout: Duration;
  /** Files, annotations and prune protection as in the plain folders; Flux reads no sync waves. */
  private readonly files = new KustomizeDelivery({ syncWaves: false, kustomizations: false });
  /** Per synth: each chart's folders that are split into operators and resources. */
  private readonly splits = new Map<Chart, ReadonlySet<string>>();
  /** Per synth: the apiVersion of each file whose kind has a health check. */
  private readonly apiVersions = new Map<string, string>();

  constructor(props: FluxDeliveryProps) {
    this.source = props?.source;
    this.path = props?.path ?? './dist';
    this.namespace = props?.namespace ?? FLUX_NAMESPACE;
    this.interval = props?.interval ?? Duration.minutes(10);
    this.retryInterval = props?.retryInterval ?? Duration.minutes(2);
    this.timeout = props?.timeout ?? Duration.minutes(30);
  }

  public place(object: PlacedObject, problems: Problems): string {
    const json = object.json;
    let file = this.files.place(object, problems);
    if (this.splitFolders(object.target.chart).has(object.folder)) {
      const part = OPERATOR_KINDS.has(json.kind) ? OPERATORS_PART : RESOURCES_PART;
      file = `${object.folder}/${part}/${file.slice(object.folder.length + 1)}`;
    }
    if (HEALTH_CHECKS[json.kind]) this.apiVersions.set(file, json.apiVersion);
    return file;
  }

  public finish(files: readonly DeliveredFile[], problems: Problems): DeliveryAdditions {
    try {
      const before = problems.all.length;
      this.check(problems);
      // Without a usable source every Kustomization would be wrong the same way: report the cause once.
      if (problems.all.length > before) return { objects: [], files: [] };
      const objects = this.kustomizationObjects(files, problems);
      const paths = [...files.map((f) => f.path), ...objects.map((o) => o.path)];
      return { objects, files: kustomizations(paths, { subFolders: false }) };
    } finally {
      this.splits.clear();
      this.apiVersions.clear();
    }
  }

  /** The props' problems. */
  private check(problems: Problems): void {
    if (!(this.source instanceof FluxSource)) {
      problems.add(`source (${show(this.source)}) must be a FluxSource, e.g. FluxSource.gitRepository({ name: 'flux-system', url: 'https://…' })`);
    } else {
      this.source.check(problems.within('source'));
    }
    const normalized = path.posix.normalize(this.path);
    problems.require(!path.posix.isAbsolute(normalized) && normalized !== '..' && !normalized.startsWith('../'), 'path', this.path,
      "must be the output directory relative to the repository root, e.g. './dist'");
    problems.require(isDns1123Label(this.namespace), 'namespace', this.namespace, DNS1123_LABEL_RULE);
    problems.require(this.interval.toSeconds() >= 60, 'interval', toGoDuration(this.interval), 'must be at least 1m0s, the least Flux\'s docs allow');
    problems.require(this.retryInterval.toSeconds() >= 1, 'retryInterval', toGoDuration(this.retryInterval), 'must be at least 1s');
    problems.require(this.timeout.toSeconds() >= 1, 'timeout', toGoDuration(this.timeout), 'must be at least 1s');
  }

  /** The folders of `chart` that hold an OLM Subscription and custom resources besides: worked out once per chart. */
  private splitFolders(chart: Chart): ReadonlySet<string> {
    let folders = this.splits.get(chart);
    if (folders === undefined) {
      const layout = new OutputLayout();
      const installs = new Set<string>();
      const others = new Set<string>();
      for (const construct of chart.node.findAll()) {
        if (!(construct instanceof ApiObject) || construct.chart !== chart) continue;
        const folder = layout.placeOf(construct).folder;
        if (construct.kind === 'Subscription' && construct.apiVersion.startsWith(OLM_GROUP)) installs.add(folder);
        if (!OPERATOR_KINDS.has(construct.kind)) others.add(folder);
      }
      folders = new Set([...installs].filter((folder) => others.has(folder)));
      this.splits.set(chart, folders);
    }
    return folders;
  }

  /** A Kustomization per unit, and per management cluster its bootstrap objects. */
  private kustomizationObjects(files: readonly DeliveredFile[], problems: Problems): DeliveryObject[] {
    const units = this.unitsOf(files, problems);
    const byFolder = new Map(units.map((unit) => [unit.folder, unit]));
    /** The unit others wait for when they wait for a layout folder: its resources half, or itself. */
    const lastOf = (layoutFolder: string): Unit | undefined => {
      const half = byFolder.get(`${layoutFolder}/${RESOURCES_PART}`);
      return half?.part ? half : byFolder.get(layoutFolder);
    };
    const clusterFolders = new Map<string, string>();
    for (const file of files) {
      if (file.kind === 'HostedCluster' && file.target.kind === TargetKind.MANAGEMENT) {
        clusterFolders.set(`${file.target.folder}/${file.namespace}/${file.name}`, file.folder);
      }
    }

    const planned = new Map<Unit, Planned>();
    const bootstraps = new Map<string, { guests: boolean }>();
    for (const unit of units) {
      const guest = unit.target.kind === TargetKind.GUEST;
      const bootstrap = guest ? unit.target.managementFolder! : unit.target.folder;
      const namespace = guest ? unit.target.hostedCluster!.namespace : this.namespace;
      const entry = bootstraps.get(bootstrap) ?? { guests: false };
      entry.guests ||= guest;
      bootstraps.set(bootstrap, entry);
      const name = nameOf(unit.folder);
      const folder = guest ? `${BOOTSTRAP_FOLDER}/${bootstrap}/${GUESTS_FOLDER}` : `${BOOTSTRAP_FOLDER}/${bootstrap}`;
      planned.set(unit, { name, namespace, bootstrap, folder: unit.folder, file: `${folder}/${objectFileName({ kind: KUSTOMIZATION.kind, metadata: { name, namespace } })}` });
    }

    const objects: DeliveryObject[] = [];
    for (const unit of units) {
      const self = planned.get(unit)!;
      const dependsOn: Unit[] = [];
      if (unit.part === RESOURCES_PART) {
        dependsOn.push(byFolder.get(`${unit.layoutFolder}/${OPERATORS_PART}`)!);
      } else {
        const parent = ancestors(unit.layoutFolder).map(lastOf).find((u) => u !== undefined);
        const hostedCluster = unit.target.hostedCluster;
        // A guest waits for its hosted cluster's folder, whose health check is the HostedCluster's Available.
        const cluster = parent ?? (hostedCluster && clusterFolders.has(`${unit.target.managementFolder}/${hostedCluster.namespace}/${hostedCluster.clusterName}`)
          ? lastOf(clusterFolders.get(`${unit.target.managementFolder}/${hostedCluster.namespace}/${hostedCluster.clusterName}`)!)
          : undefined);
        if (cluster) dependsOn.push(cluster);
      }
      const spec: flux.KustomizationSpec = {
        ...this.commonSpec(unit.folder, dependsOn.map((u) => planned.get(u)!)),
        ...healthChecksOf(unit.files, this.apiVersions),
        kubeConfig: unit.target.kind === TargetKind.GUEST
          ? { secretRef: { name: `${unit.target.hostedCluster!.clusterName}-admin-kubeconfig`, key: KUBECONFIG_KEY } }
          : undefined,
      };
      objects.push(this.kustomization(self, spec));
    }

    for (const [bootstrap, { guests }] of [...bootstraps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const folder = `${BOOTSTRAP_FOLDER}/${bootstrap}`;
      const source = this.source.render();
      if (source) objects.push({ path: `${folder}/${objectFileName(source)}`, json: source, source: `delivery/${bootstrap}/${source.kind}` });
      // Keeps the bootstrap folder itself in sync: clusters added later get their Kustomizations.
      objects.push(this.kustomization(this.bootstrapPlan(folder, bootstrap), this.commonSpec(folder, [])));
      if (guests) {
        // The guests' Kustomizations live in the hosted clusters' namespaces, which the root folder makes.
        const root = lastOf(bootstrap);
        const guestsFolder = `${folder}/${GUESTS_FOLDER}`;
        objects.push(this.kustomization(this.bootstrapPlan(guestsFolder, bootstrap), this.commonSpec(guestsFolder, root ? [planned.get(root)!] : [])));
      }
    }
    this.checkNames(objects, [...planned.values()], problems);
    return objects;
  }

  /** The bootstrap folder's own Kustomizations, in `namespace`, written to the management cluster's bootstrap folder. */
  private bootstrapPlan(folder: string, bootstrap: string): Planned {
    const name = nameOf(folder);
    const home = folder.endsWith(`/${GUESTS_FOLDER}`) ? folder.slice(0, -GUESTS_FOLDER.length - 1) : folder;
    return { name, namespace: this.namespace, bootstrap, folder, file: `${home}/${objectFileName({ kind: KUSTOMIZATION.kind, metadata: { name, namespace: this.namespace } })}` };
  }

  /** What every Kustomization of this delivery has. */
  private commonSpec(folder: string, dependsOn: readonly Planned[]): flux.KustomizationSpec {
    const reference = this.source.reference;
    return {
      interval: toGoDuration(this.interval),
      retryInterval: toGoDuration(this.retryInterval),
      timeout: toGoDuration(this.timeout),
      sourceRef: { kind: reference.kind as flux.KustomizationSpecSourceRefKind, name: reference.name, namespace: reference.namespace },
      path: `./${path.posix.join(path.posix.normalize(this.path), folder)}`,
      prune: true,
      // Deleting a Kustomization (a cluster dropped from the app, a bootstrap folder renamed) deletes nothing it applied.
      deletionPolicy: flux.KustomizationSpecDeletionPolicy.ORPHAN,
      dependsOn: dependsOn.length > 0 ? dependsOn.map((d) => ({ name: d.name, namespace: d.namespace })) : undefined,
    };
  }

  private kustomization(planned: Planned, spec: flux.KustomizationSpec): DeliveryObject {
    return {
      path: planned.file,
      json: { ...KUSTOMIZATION, metadata: { name: planned.name, namespace: planned.namespace }, spec: flux.toJson_KustomizationSpec(spec) },
      source: `delivery/${planned.bootstrap}/${KUSTOMIZATION.kind}/${planned.name}`,
    };
  }

  /** The delivered files grouped into units, in folder order; reports folders the split or the bootstrap folder would collide with. */
  private unitsOf(files: readonly DeliveredFile[], problems: Problems): Unit[] {
    const units = new Map<string, Unit>();
    for (const file of files) {
      let unit = units.get(file.folder);
      if (unit === undefined) {
        const slash = file.folder.lastIndexOf('/');
        const parent = file.folder.slice(0, Math.max(slash, 0));
        const half = file.folder.slice(slash + 1);
        const split = slash >= 0 && (half === OPERATORS_PART || half === RESOURCES_PART) && this.splitFolders(file.target.chart).has(parent);
        unit = split
          ? { folder: file.folder, layoutFolder: parent, part: half as Unit['part'], target: file.target, files: [] }
          : { folder: file.folder, layoutFolder: file.folder, target: file.target, files: [] };
        units.set(file.folder, unit);
      }
      unit.files.push(file);
    }
    const all = [...units.values()].sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
    const splitFolders = new Set(all.filter((u) => u.part).map((u) => u.layoutFolder));
    for (const unit of all) {
      if (unit.part) continue;
      const slash = unit.layoutFolder.lastIndexOf('/');
      if (slash >= 0 && splitFolders.has(unit.layoutFolder.slice(0, slash)) && [OPERATORS_PART, RESOURCES_PART].includes(unit.layoutFolder.slice(slash + 1))) {
        problems.add(`folder (${show(unit.layoutFolder)}) is where FluxDelivery puts the ${unit.layoutFolder.slice(slash + 1)} of ${show(unit.layoutFolder.slice(0, slash))}, `
          + 'which installs an operator and uses it; rename the hosted cluster or folder');
      }
    }
    const flux = all.find((u) => u.target.folder === BOOTSTRAP_FOLDER);
    if (flux) {
      problems.add(`bootstrapFolder (${show(BOOTSTRAP_FOLDER)}) is also the folder of chart ${show(flux.target.chart.node.path)}: FluxDelivery writes each management cluster's Kustomizations to ${BOOTSTRAP_FOLDER}/<management cluster>/; rename the chart`);
    }
    return all;
  }

  /** Names Flux can use (it writes each into a label of every object it applies) and no two alike in one namespace. */
  private checkNames(objects: readonly DeliveryObject[], units: readonly Planned[], problems: Problems): void {
    const folders = new Map(units.map((u) => [`${u.bootstrap}/${u.namespace}/${u.name}`, u.folder]));
    const seen = new Map<string, string>();
    for (const { json, path: file } of objects) {
      if (json.kind !== KUSTOMIZATION.kind) continue;
      const { name, namespace } = json.metadata;
      const bootstrap = file.split('/')[1];
      const key = `${bootstrap}/${namespace}/${name}`;
      const folder = folders.get(key) ?? json.spec.path;
      if (!isDns1123Label(name)) {
        problems.add(`name (${show(name)}) of the Kustomization of ${show(folder)} ${DNS1123_LABEL_RULE}, since Flux writes it into a label of every object it applies; shorten the chart id or folder name`);
      }
      const twin = seen.get(key);
      if (twin !== undefined) {
        problems.add(`name (${show(name)}) of the Kustomization of ${show(folder)} is also the name of the one of ${show(twin)} in namespace ${show(namespace)}; `
          + 'rename a chart or folder so that the folder paths differ with "/" read as "-"');
      }
      seen.set(key, folder);
    }
  }
}

/** A Kustomization's name: its folder path with "/" read as "-", deterministic and readable in `flux get kustomizations`. */
function nameOf(folder: string): string {
  return folder.split('/').join('-');
}

/** `a/b/c` -> [`a/b`, `a`]: nearest first. */
function ancestors(folder: string): string[] {
  const parts = folder.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, parts.length - 1 - i).join('/'));
}

/** `healthChecks` and `healthCheckExprs` for the kinds in `files` that Flux must be told how to wait for. */
function healthChecksOf(files: readonly DeliveredFile[], apiVersions: ReadonlyMap<string, string>): Pick<flux.KustomizationSpec, 'healthChecks' | 'healthCheckExprs'> {
  const checked = files.filter((f) => HEALTH_CHECKS[f.kind] !== undefined && HEALTH_CHECKS[f.kind].apiVersion === apiVersions.get(f.path));
  if (checked.length === 0) return {};
  const kinds = [...new Set(checked.map((f) => f.kind))];
  return {
    healthChecks: checked.map((f) => ({ apiVersion: HEALTH_CHECKS[f.kind].apiVersion, kind: f.kind, name: f.name, namespace: f.namespace })),
    healthCheckExprs: kinds.map((kind) => ({ kind, ...HEALTH_CHECKS[kind] })),
  };
}
