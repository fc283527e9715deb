import * as path from 'path';
import { ApiObject, Chart, Duration } from 'cdk8s';
import * as flux from '../../imports/kustomization-kustomize.toolkit.fluxcd.io';
import { appliedByHand } from '../core/apply-by-hand';
import { durationProblem, toGoDuration } from '../core/go-duration';
import { DNS1123_LABEL_RULE, isDns1123Label } from '../core/names';
import { Problems, show } from '../core/problems';
import { MULTICLUSTER_ENGINE_OPERAND_GROUPS, MULTICLUSTER_ENGINE_PACKAGE } from '../management/multicluster-engine';
import { isOlmSubscription, OPERATOR_KINDS } from './apply-order';
import type { DeliveredFile, DeliveryAdditions, DeliveryObject, IDelivery, PlacedObject, PreviousDeliveredOutput } from './delivery';
import { DeliveryMode, recordDeliveryMode } from './delivery-mode';
import { FLUX_HEALTH_CHECKS } from './flux-health-checks';
import { FLUX_NAMESPACE, FluxSource } from './flux-source';
import { emptyKustomization, kustomizations } from './kustomization';
import { KustomizeDelivery } from './kustomize-delivery';
import { DeliveryTarget, objectFileName, OutputLayout, TargetKind } from './output-layout';
import { FLUX_PRUNE_ANNOTATION, FLUX_PRUNE_DISABLED, protect } from './protection';
import { groupOf, ObjectIdentity, unitAccess, UnitAccess } from './unit-access';
import { FLUX_ROLE_PREFIX, fluxUnitRbac, PolicyRule, RoleGrants } from './flux-access';
import { FLUX_CONTROLLER_SERVICE_ACCOUNTS, fluxAdmissionPolicy } from './flux-admission-policy';
import { ocmAdmissionRules } from './ocm-admission';
import { clusterOfPath, objectKey, PreviousFolders, PreviousObject } from './previous-folders';

/** Props of FluxDelivery. */
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
  /**
   * Write, per management cluster, `flux/<hub>/admission/`: a ValidatingAdmissionPolicy that pins
   * what `flux-<hub>` and its `-access` and `-guests` may write (bindings of a unit's role to that
   * unit's ServiceAccount alone, roles that grant the hub's kinds by name, Kustomizations that apply
   * as their own unit's ServiceAccount), so that the rights they hold to grant cannot make anything
   * of theirs cluster-admin. A cluster admin applies it once per hub, before the bootstrap folder,
   * and again when `hcp-cdk plan` says it changed (the hub writes a kind it did not); no Flux object
   * applies it. Needs Kubernetes 1.30 (OpenShift 4.17) or later.
   * @default true
   */
  readonly admissionPolicy?: boolean;
}

/** The Flux Kustomization API a delivered object is applied by. */
const KUSTOMIZATION = flux.Kustomization.GVK;
/** The folder of the Kustomizations of each management cluster, `flux/<management cluster>/`. */
const BOOTSTRAP_FOLDER = 'flux';
/** Below it, the guests' Kustomizations, applied once the namespaces they live in exist. */
const GUESTS_FOLDER = 'guests';
/** Below it, the Roles of the units below the hub's own folder, applied once the namespaces they go into exist. */
const ACCESS_FOLDER = 'access';
/** Below it, the admission policy a cluster admin applies once (see FluxDeliveryProps.admissionPolicy); no Kustomization applies it. */
const ADMISSION_FOLDER = 'admission';
/** The bare-metal inventory a NodePool takes its machines from. */
const INVENTORY_KINDS: ReadonlySet<string> = new Set(['NMStateConfig', 'InfraEnv', 'BareMetalHost']);
/** The two halves of a folder that installs an operator through OLM and uses it. */
const OPERATORS_PART = 'operators';
const RESOURCES_PART = 'resources';
/**
 * Between them, in a folder that installs the multicluster engine and writes kinds its operands
 * serve: the MultiClusterEngine, healthy once MCE is Available, by when those kinds exist.
 */
const ENGINE_PART = 'engine';
/** The MultiClusterEngine's API group. */
const MULTICLUSTER_ENGINE_GROUP = 'multicluster.openshift.io';
/** A hosted cluster's NodePools, applied once its control plane is Available and at its release (see FLUX_HEALTH_CHECKS). */
const NODE_POOLS_PART = 'node-pools';
/** The key of the admin kubeconfig in the `<name>-admin-kubeconfig` Secret HyperShift writes. */
const KUBECONFIG_KEY = 'kubeconfig';

/**
 * The sub-folders FluxDelivery splits a layout folder into: an object in one of them belongs to the
 * folder above (`hub/c1/node-pools/` to `hub/c1`), which is where the other deliveries write it.
 */
export const FLUX_FOLDER_PARTS: readonly string[] = [OPERATORS_PART, ENGINE_PART, RESOURCES_PART, NODE_POOLS_PART];

/** A part of a folder applied by a Kustomization of its own: a stage of a folder that installs an operator through OLM and uses it, or a cluster's NodePools. */
type Part = typeof OPERATORS_PART | typeof ENGINE_PART | typeof RESOURCES_PART | typeof NODE_POOLS_PART;

/** A chart's folders that FluxDelivery applies in stages. */
interface SplitFolders {
  /** Folders that install an operator through OLM and use it: `operators/`, then `resources/`. */
  readonly split: ReadonlySet<string>;
  /** Of those, the folders that install MCE and write kinds its operands serve: `engine/` between the two. */
  readonly engine: ReadonlySet<string>;
}

/** Where place() put a file: its layout folder, and the half of it when the folder is split. */
interface FilePlace {
  readonly layoutFolder: string;
  readonly part?: Part;
  /** Flux may prune it: it carries no protection (see allowPruning). */
  readonly prunable: boolean;
  /** A HostedCluster's: the namespace its NodePools take Agents from, whose inventory they wait for. */
  readonly agentNamespace?: string;
  /** What OCM's admission webhooks ask of whoever writes it, beyond writing it (see ocmAdmissionRules). */
  readonly admissionRules: readonly PolicyRule[];
}

/** The files one Flux Kustomization applies: a folder, or the operators or resources half of one. */
interface Unit {
  /** '/'-separated under the output root, e.g. `hub/vcluster2` or `vcluster2-guest/operators`. */
  readonly folder: string;
  /** The layout's folder: `folder` without its half. */
  readonly layoutFolder: string;
  readonly part?: Part;
  readonly target: DeliveryTarget;
  readonly files: DeliveredFile[];
}

/** A Kustomization to write. */
interface Planned {
  readonly name: string;
  readonly namespace: string;
  /** The management cluster whose bootstrap folder holds it. */
  readonly bootstrap: string;
  /** Where it is written. */
  readonly file: string;
  /** The output folder it applies. */
  readonly folder: string;
  readonly spec: flux.KustomizationSpec;
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
 * them and the custom resources' kinds do not exist before the operator does. A folder that
 * installs the multicluster engine this way and writes kinds its operands serve (AddOnDeploymentConfig,
 * AgentServiceConfig, ManagedCluster, ...) gets a third stage between the two, `engine/`: the
 * MultiClusterEngine alone, healthy once MCE is Available, as those kinds' CRDs come with MCE's
 * components, not with its OLM bundle. A hosted cluster's
 * NodePools are in `<cluster>/node-pools/`, whose Kustomization waits for the cluster's folder:
 * healthy once the HostedCluster is Available and, after its first install, runs the release its
 * spec names; so a commit that upgrades a control plane and its pools rolls the pools only after
 * the control plane reports the new version.
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
  private readonly admissionPolicy: boolean;
  /** Files, annotations and prune protection as in the plain folders; Flux reads no sync waves. */
  private readonly files = new KustomizeDelivery({ syncWaves: false, kustomizations: false });
  /** Per synth: each chart's folders that are split into operators and resources (and engine). */
  private readonly splits = new Map<Chart, SplitFolders>();
  /** Per synth: where place() put each file. */
  private readonly places = new Map<string, FilePlace>();

  constructor(props: FluxDeliveryProps) {
    this.source = props?.source;
    this.path = props?.path ?? './dist';
    this.namespace = props?.namespace ?? FLUX_NAMESPACE;
    this.interval = props?.interval ?? Duration.minutes(10);
    this.retryInterval = props?.retryInterval ?? Duration.minutes(2);
    this.timeout = props?.timeout ?? Duration.minutes(30);
    this.admissionPolicy = props?.admissionPolicy ?? true;
  }

  public place(object: PlacedObject, problems: Problems): string {
    const json = object.json;
    const file = this.files.place(object, problems);
    recordDeliveryMode(json, DeliveryMode.FLUX);
    const folders = this.splitFolders(object.target.chart);
    const part = json.kind === 'NodePool' && object.hostedCluster ? NODE_POOLS_PART : folders.split.has(object.folder) ? stageOf(json, folders.engine.has(object.folder)) : undefined;
    const placed = part ? `${object.folder}/${part}/${file.slice(object.folder.length + 1)}` : file;
    this.places.set(placed, {
      layoutFolder: object.folder,
      part,
      prunable: json.metadata.annotations?.[FLUX_PRUNE_ANNOTATION] !== FLUX_PRUNE_DISABLED,
      agentNamespace: json.kind === 'HostedCluster' ? json.spec?.platform?.agent?.agentNamespace : undefined,
      admissionRules: ocmAdmissionRules(json),
    });
    return placed;
  }

  public finish(files: readonly DeliveredFile[], problems: Problems, previous?: PreviousDeliveredOutput): DeliveryAdditions {
    try {
      const before = problems.all.length;
      this.check(problems);
      // Without a usable source every Kustomization would be wrong the same way: report the cause once.
      if (problems.all.length > before) return { objects: [], files: [] };
      const objects = this.kustomizationObjects(files, problems, PreviousFolders.of(previous));
      const paths = [...files.map((f) => f.path), ...objects.map((o) => o.path)];
      const written = kustomizations(paths, { subFolders: false });
      // A folder a Kustomization applies that holds nothing now (a hub's guests folder once its last
      // guest is gone) gets an empty kustomization.yaml: its Kustomization prunes what it applied.
      const root = `./${path.posix.normalize(this.path)}/`;
      const listed = new Set(written.map((k) => path.posix.dirname(k.path)));
      const emptied = objects.filter((o) => o.json.kind === KUSTOMIZATION.kind).map((o) => String(o.json.spec.path).slice(root.length));
      return { objects, files: [...written, ...[...new Set(emptied)].filter((folder) => !listed.has(folder)).map(emptyKustomization)] };
    } finally {
      this.splits.clear();
      this.places.clear();
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
    problems.require(
      !path.posix.isAbsolute(normalized) && normalized !== '..' && !normalized.startsWith('../'),
      'path',
      this.path,
      "must be the output directory relative to the repository root, e.g. './dist'",
    );
    problems.require(isDns1123Label(this.namespace), 'namespace', this.namespace, DNS1123_LABEL_RULE);
    for (const [field, value, least] of [
      ['interval', this.interval, 60],
      ['retryInterval', this.retryInterval, 1],
      ['timeout', this.timeout, 1],
    ] as const) {
      // A JavaScript caller may give "10m" or "ten minutes": a Duration is what Flux's Go duration is written from.
      const problem = durationProblem(field, value, { example: 'Duration.minutes(10)', least, leastReason: least === 60 ? "the least Flux's docs allow" : undefined });
      if (problem) problems.add(problem);
    }
  }

  /**
   * The folders of `chart` that hold an OLM Subscription and custom resources besides, and of
   * those the ones that install MCE and hold its MultiClusterEngine and kinds its operands serve:
   * worked out once per chart.
   */
  private splitFolders(chart: Chart): SplitFolders {
    let folders = this.splits.get(chart);
    if (folders === undefined) {
      const layout = new OutputLayout();
      const installs = new Set<string>();
      const others = new Set<string>();
      const engineInstalls = new Set<string>();
      const engines = new Set<string>();
      const operands = new Set<string>();
      for (const construct of chart.node.findAll()) {
        if (!(construct instanceof ApiObject) || construct.chart !== chart) continue;
        const folder = layout.placeOf(construct).folder;
        if (isOlmSubscription(construct.kind, construct.apiVersion)) {
          installs.add(folder);
          if (construct.toJson().spec?.name === MULTICLUSTER_ENGINE_PACKAGE) engineInstalls.add(folder);
        }
        if (!OPERATOR_KINDS.has(construct.kind)) others.add(folder);
        if (isMultiClusterEngine(construct.kind, construct.apiVersion)) engines.add(folder);
        if (MULTICLUSTER_ENGINE_OPERAND_GROUPS.has(groupOf(construct.apiVersion))) operands.add(folder);
      }
      const split = new Set([...installs].filter((folder) => others.has(folder)));
      folders = { split, engine: new Set([...engineInstalls].filter((folder) => engines.has(folder) && operands.has(folder))) };
      this.splits.set(chart, folders);
    }
    return folders;
  }

  /**
   * A Kustomization per unit, and per management cluster its bootstrap objects and the RBAC of each
   * unit, which also lets each prune what it applied from `previous` and no longer writes.
   */
  private kustomizationObjects(files: readonly DeliveredFile[], problems: Problems, previous: PreviousFolders): DeliveryObject[] {
    // Charts applied by hand (a Restore starts a restore) get no Kustomization: see applyByHand.
    const units = this.unitsOf(files, problems).filter((unit) => appliedByHand(unit.target.chart) === undefined);
    const halves = new Map<string, { whole?: Unit; operators?: Unit; engine?: Unit; resources?: Unit; 'node-pools'?: Unit }>();
    for (const unit of units) halves.set(unit.layoutFolder, { ...halves.get(unit.layoutFolder), [unit.part ?? 'whole']: unit });
    /** The unit others wait for when they wait for a layout folder: its resources half, or itself. */
    const lastOf = (layoutFolder: string): Unit | undefined => halves.get(layoutFolder)?.resources ?? halves.get(layoutFolder)?.whole;
    const clusterFolders = new Map<string, string>();
    /** Per layout folder of a hosted cluster, the namespace its pools take Agents from. */
    const agentNamespaces = new Map<string, string>();
    for (const file of files) {
      if (file.kind === 'HostedCluster' && file.target.kind === TargetKind.MANAGEMENT) {
        const place = this.places.get(file.path)!;
        clusterFolders.set(`${file.target.folder}/${file.namespace}/${file.name}`, place.layoutFolder);
        if (place.agentNamespace) agentNamespaces.set(place.layoutFolder, place.agentNamespace);
      }
    }
    const inventoryOf = (unit: Unit): ReadonlySet<string> => new Set(unit.files.filter((f) => INVENTORY_KINDS.has(f.kind) && f.namespace).map((f) => f.namespace!));

    const names = new Map<Unit, { name: string; namespace: string }>();
    for (const unit of units) {
      names.set(unit, { name: nameOf(unit.folder), namespace: unit.target.kind === TargetKind.GUEST ? unit.target.hostedCluster!.namespace : this.namespace });
    }
    const plans: Planned[] = [];
    const bootstraps = new Map<string, { guests: Planned[]; units: Unit[] }>();
    for (const unit of units) {
      const guest = unit.target.kind === TargetKind.GUEST;
      const bootstrap = guest ? unit.target.managementFolder! : unit.target.folder;
      const held = bootstraps.get(bootstrap) ?? { guests: [], units: [] };
      bootstraps.set(bootstrap, held);
      const dependsOn: Unit[] = [];
      if (unit.part === ENGINE_PART) {
        dependsOn.push(halves.get(unit.layoutFolder)!.operators!);
      } else if (unit.part === RESOURCES_PART) {
        // The kinds MCE's operands serve exist once the engine stage is healthy (MCE Available).
        const stages = halves.get(unit.layoutFolder)!;
        dependsOn.push(stages.engine ?? stages.operators!);
      } else if (unit.part === NODE_POOLS_PART) {
        // Pools roll to a new release only once their control plane runs it (docs 6.6, 6.7), and
        // start only once the inventory they take Agents from is applied: the hosts come first.
        dependsOn.push(lastOf(unit.layoutFolder)!);
        const agentNamespace = agentNamespaces.get(unit.layoutFolder);
        const inventories = units.filter((other) => other.target === unit.target && other.layoutFolder !== unit.layoutFolder && agentNamespace !== undefined && inventoryOf(other).has(agentNamespace));
        dependsOn.push(...inventories);
      } else {
        const parent = ancestors(unit.layoutFolder)
          .map(lastOf)
          .find((u) => u !== undefined);
        const hostedCluster = unit.target.hostedCluster;
        // A guest waits for its hosted cluster's folder, healthy once the HostedCluster is Available.
        const clusterFolder = hostedCluster && clusterFolders.get(`${unit.target.managementFolder}/${hostedCluster.namespace}/${hostedCluster.clusterName}`);
        const waitedFor = parent ?? (clusterFolder !== undefined ? lastOf(clusterFolder) : undefined);
        if (waitedFor) dependsOn.push(waitedFor);
      }
      const references = [...new Set(dependsOn)].map((u) => names.get(u)!);
      // A unit below the hub's own folder has its Roles in namespaces the hub's folder makes: it waits for them.
      if (!guest && unit.layoutFolder !== unit.target.folder) references.push({ name: nameOf(`${BOOTSTRAP_FOLDER}/${bootstrap}/${ACCESS_FOLDER}`), namespace: this.namespace });
      // What waits for nothing else waits for the bootstrap folder, whose RBAC lets each unit prune
      // what this commit drops (a dependency counts once it applied the same revision).
      if (!guest && references.length === 0) references.push({ name: nameOf(`${BOOTSTRAP_FOLDER}/${bootstrap}`), namespace: this.namespace });
      const spec: flux.KustomizationSpec = {
        ...this.commonSpec(unit.folder, references),
        ...healthChecksOf(unit),
        kubeConfig: guest ? { secretRef: { name: `${unit.target.hostedCluster!.clusterName}-admin-kubeconfig`, key: KUBECONFIG_KEY } } : undefined,
        // Applies as a ServiceAccount that may write only this folder's objects; a guest applies
        // with its own hosted cluster's admin kubeconfig, which reaches nothing else.
        serviceAccountName: guest ? undefined : names.get(unit)!.name,
      };
      const home = guest ? `${BOOTSTRAP_FOLDER}/${bootstrap}/${GUESTS_FOLDER}` : `${BOOTSTRAP_FOLDER}/${bootstrap}`;
      const plan = this.plan(names.get(unit)!, bootstrap, home, unit.folder, spec);
      plans.push(plan);
      if (guest) held.guests.push(plan);
      else held.units.push(unit);
    }

    const objects: DeliveryObject[] = [];
    // What each management cluster holds now: an object of the previous output that is still here
    // has moved to another unit, which takes it over; the unit that held it may read it, not delete it.
    const current = new Set(files.map((f) => `${clusterOfPath(f.path, BOOTSTRAP_FOLDER)}|${objectKey(f.kind, f.namespace, f.name)}`));
    const pruning = (cluster: string, folder: string, kept: readonly ObjectIdentity[]): Pruning =>
      pruningOf(previous.droppedFrom(folder, new Set(kept.map((o) => objectKey(o.kind, o.namespace, o.name)))), (o) => current.has(`${cluster}|${objectKey(o.kind, o.namespace, o.name)}`));
    for (const [bootstrap, held] of [...bootstraps].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      const root = lastOf(bootstrap);
      objects.push(
        ...this.bootstrapObjects(
          bootstrap,
          held,
          root && names.get(root)!,
          (unit) => names.get(unit)!,
          plans,
          (folder, kept) => pruning(bootstrap, folder, kept),
        ),
      );
    }
    for (const bootstrap of bootstraps.keys()) {
      // Every unit of a hub is named <hub>[-…] or flux-<hub>[-…]: none may be one of Flux's own accounts, which the admission policy could not tell apart.
      const taken = FLUX_CONTROLLER_SERVICE_ACCOUNTS.filter((n) => [bootstrap, `flux-${bootstrap}`].some((prefix) => n === prefix || n.startsWith(`${prefix}-`)));
      if (taken.length > 0) {
        problems.add(
          `management cluster ${show(bootstrap)} names its Flux units and their ServiceAccounts ${bootstrap}-… in namespace ${show(this.namespace)}, as Flux names its own ${taken.join(', ')}; ` +
            'rename the management cluster (its chart id)',
        );
      }
    }
    const found = problems.all.length;
    const kept = this.checkNames(plans, problems);
    // Two units of one name would also share a ServiceAccount and Roles: report the names alone.
    if (problems.all.length > found) return [];
    for (const plan of kept) {
      objects.push({ path: plan.file, json: this.kustomization(plan), source: `delivery/${plan.bootstrap}/${KUSTOMIZATION.kind}/${plan.name}` });
    }
    return objects;
  }

  /**
   * The objects of a management cluster's bootstrap folder `flux/<hub>/`: the GitRepository, each
   * unit's ServiceAccount and RBAC (the hub's own unit's beside it, the others' in `access/`), and
   * the Kustomizations that apply the folder itself, its `access/` and its `guests/`, each as a
   * ServiceAccount of its own whose RBAC it holds too. Adds those Kustomizations to `plans`.
   * `pruning` says what a folder applied before and no longer holds, for its unit's RBAC.
   *
   * Who may grant what: `flux-<hub>` writes the ClusterRoles of the hub's unit, of `-access` and of
   * `-guests`, with `escalate` and `bind` on those names only, never on its own; the Kustomizations
   * and ServiceAccounts of its namespace it may write whatever their names, by a Role there, so that
   * adding a cluster leaves its own ClusterRole as it is (it may not widen that). `-access` writes
   * the units' Roles in namespaces it does not own, so it holds what they hold instead of `escalate`.
   */
  private bootstrapObjects(
    bootstrap: string,
    held: { guests: Planned[]; units: Unit[] },
    root: { name: string; namespace: string } | undefined,
    nameOfUnit: (unit: Unit) => { name: string; namespace: string },
    plans: Planned[],
    pruning: (folder: string, kept: readonly ObjectIdentity[]) => Pruning,
  ): DeliveryObject[] {
    const objects: DeliveryObject[] = [];
    const addObject = (folder: string, json: any): void => {
      objects.push({ path: `${folder}/${objectFileName(json)}`, json, source: `delivery/${bootstrap}/${json.kind}/${json.metadata.name}` });
    };
    const folder = `${BOOTSTRAP_FOLDER}/${bootstrap}`;
    const accessFolder = `${folder}/${ACCESS_FOLDER}`;
    const source = this.source.render();
    if (source) {
      // The Kustomization that applies the bootstrap folder reads from it: never prune it from under itself.
      protect(source);
      addObject(folder, source);
    }
    // The units' RBAC: the hub's own folder's in the bootstrap folder (it makes the namespaces
    // the others' Roles go into), the others' in access/, applied once the hub's folder is.
    for (const unit of held.units) {
      const rbac = fluxUnitRbac({
        ...nameOfUnit(unit),
        access: unitAccess(unit.files),
        clusterWide: unit.layoutFolder === bootstrap,
        prunable: new Set(unit.files.filter((f) => this.places.get(f.path)!.prunable).map((f) => `${groupOf(f.apiVersion)}/${f.kind}`)),
        admissionRules: unit.files.flatMap((f) => this.places.get(f.path)!.admissionRules),
        ...pruning(unit.folder, unit.files),
      });
      const [serviceAccount, ...clusterRbac] = rbac.clusterScoped;
      addObject(folder, serviceAccount);
      for (const json of [...clusterRbac, ...rbac.namespaced]) addObject(unit.layoutFolder === bootstrap ? folder : accessFolder, json);
    }
    const accessObjects = objects.filter((o) => o.path.startsWith(`${accessFolder}/`));
    const guestsFolder = `${folder}/${GUESTS_FOLDER}`;
    const bootstrapUnits: { id: { name: string; namespace: string }; folder: string; dependsOn: { name: string; namespace: string }[]; applies: () => any[] }[] = [];
    const access = accessObjects.length > 0 ? [{ name: nameOf(accessFolder), namespace: this.namespace }] : [];
    if (access.length > 0) {
      bootstrapUnits.push({
        id: { name: nameOf(accessFolder), namespace: this.namespace },
        folder: accessFolder,
        dependsOn: root ? [root] : [],
        applies: () => accessObjects.map((o) => o.json),
      });
    }
    // Kept for one commit once the last guest is gone, with an empty folder: deleting it (deletionPolicy
    // Orphan) would leave the guests' Kustomizations behind, failing on folders that are gone.
    const guestsDropped = pruning(guestsFolder, []).pruned;
    if (held.guests.length > 0 || guestsDropped.clusterScoped.length > 0 || guestsDropped.namespaces.size > 0) {
      // The guests' Kustomizations live in the hosted clusters' namespaces, which the root folder makes.
      bootstrapUnits.push({
        id: { name: nameOf(guestsFolder), namespace: this.namespace },
        folder: guestsFolder,
        dependsOn: access.length > 0 ? access : root ? [root] : [],
        applies: () => held.guests.map((plan) => this.kustomization(plan)),
      });
    }
    for (const unit of bootstrapUnits) {
      plans.push(this.plan(unit.id, bootstrap, folder, unit.folder, { ...this.commonSpec(unit.folder, unit.dependsOn), serviceAccountName: unit.id.name }));
    }
    // Keeps the bootstrap folder itself in sync: clusters added later get their Kustomizations.
    const own = { name: nameOf(folder), namespace: this.namespace };
    plans.push(this.plan(own, bootstrap, folder, folder, { ...this.commonSpec(folder, []), serviceAccountName: own.name }));
    // The RBAC of the Kustomizations that apply the bootstrap folders themselves: ClusterRoles, as
    // their objects span namespaces; they create Roles and ClusterRoles, so they may bind and
    // escalate exactly those.
    for (const unit of bootstrapUnits) {
      const applied = unit.applies();
      const identities = applied.map(identityOf);
      // -access holds what the roles it writes hold: with escalate it could write them in any namespace.
      const heldRules: PolicyRule[] = unit.folder === accessFolder ? applied.flatMap((json) => (json.kind === 'Role' || json.kind === 'ClusterRole' ? json.rules : [])) : [];
      const rbac = fluxUnitRbac({
        ...unit.id,
        access: unitAccess(identities),
        clusterWide: true,
        prunable: prunableKinds(applied),
        roleGrants: unit.folder === accessFolder ? RoleGrants.HOLD : RoleGrants.ESCALATE_BY_NAME,
        heldRules,
        ...pruning(unit.folder, identities),
      });
      for (const json of rbac.clusterScoped) addObject(folder, json);
    }
    // Its own ServiceAccount and roles are in the folder it applies: listed before they are made.
    const inFolder = [
      ...objects.filter((o) => path.posix.dirname(o.path) === folder).map((o) => o.json),
      ...plans.filter((p) => path.posix.dirname(p.file) === folder).map((p) => this.kustomization(p)),
      ...ownRbacStandIns(own),
    ];
    const identities = inFolder.map(identityOf);
    const ownRbac = fluxUnitRbac({
      ...own,
      access: unitAccess(identities),
      clusterWide: true,
      prunable: prunableKinds(inFolder),
      ownNamespaceKinds: OWN_NAMESPACE_KINDS,
      ...pruning(folder, identities),
    });
    for (const json of [...ownRbac.clusterScoped, ...ownRbac.namespaced]) addObject(folder, json);
    if (this.admissionPolicy) {
      const rules = objects.filter((o) => o.json.kind === 'Role' || o.json.kind === 'ClusterRole').flatMap((o) => o.json.rules as PolicyRule[]);
      const policy = fluxAdmissionPolicy({ hub: bootstrap, namespace: this.namespace, rules, gitRepositorySecret: source?.spec?.secretRef?.name });
      for (const json of policy) addObject(`${folder}/${ADMISSION_FOLDER}`, json);
    }
    return objects;
  }

  /** The Kustomization a plan describes. */
  private kustomization(plan: Planned): any {
    return { ...KUSTOMIZATION, metadata: { name: plan.name, namespace: plan.namespace }, spec: flux.toJson_KustomizationSpec(plan.spec) };
  }

  /** A Kustomization named `id`, written to the folder `home`, applying `folder`. */
  private plan(id: { name: string; namespace: string }, bootstrap: string, home: string, folder: string, spec: flux.KustomizationSpec): Planned {
    const file = `${home}/${objectFileName({ kind: KUSTOMIZATION.kind, metadata: id })}`;
    return { ...id, bootstrap, file, folder, spec };
  }

  /** What every Kustomization of this delivery has. */
  private commonSpec(folder: string, dependsOn: readonly { name: string; namespace: string }[]): flux.KustomizationSpec {
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

  /**
   * The delivered files grouped into units, in folder order. Reports a folder that is both the
   * half of a split folder and a folder of its own, and a chart in the bootstrap folder's place.
   */
  private unitsOf(files: readonly DeliveredFile[], problems: Problems): Unit[] {
    const units = new Map<string, Unit>();
    const clashes = new Set<string>();
    for (const file of files) {
      const place = this.places.get(file.path)!;
      let unit = units.get(file.folder);
      if (unit === undefined) {
        unit = { folder: file.folder, layoutFolder: place.layoutFolder, part: place.part, target: file.target, files: [] };
        units.set(file.folder, unit);
      } else if (unit.layoutFolder !== place.layoutFolder && !clashes.has(file.folder)) {
        clashes.add(file.folder);
        const [half, whole] = place.part ? [place, unit] : [unit, place];
        problems.add(
          `folder (${show(whole.layoutFolder)}) is where FluxDelivery puts the ${half.part} of ${show(half.layoutFolder)}, ` +
            'which installs an operator and uses it; rename the hosted cluster or folder',
        );
      }
      unit.files.push(file);
    }
    const chart = files.find((f) => f.target.folder === BOOTSTRAP_FOLDER)?.target.chart;
    if (chart) {
      problems.add(
        `bootstrapFolder (${show(BOOTSTRAP_FOLDER)}) is also the folder of chart ${show(chart.node.path)}: FluxDelivery writes each management cluster's Kustomizations to ${BOOTSTRAP_FOLDER}/<management cluster>/; rename the chart`,
      );
    }
    return [...units.values()].sort((a, b) => (a.folder < b.folder ? -1 : a.folder > b.folder ? 1 : 0));
  }

  /**
   * Reports names Flux cannot use (it writes each into a label of every object it applies) and two
   * alike in one namespace of one management cluster; returns the plans to write, one per name.
   */
  private checkNames(plans: readonly Planned[], problems: Problems): Planned[] {
    const seen = new Map<string, Planned>();
    for (const plan of plans) {
      if (!isDns1123Label(plan.name)) {
        problems.add(
          `name (${show(plan.name)}) of the Kustomization of ${show(plan.folder)} ${DNS1123_LABEL_RULE}, since Flux writes it into a label of every object it applies; shorten the chart id or folder name`,
        );
      }
      const key = `${plan.bootstrap}/${plan.namespace}/${plan.name}`;
      const twin = seen.get(key);
      if (twin === undefined) {
        seen.set(key, plan);
      } else {
        problems.add(
          `name (${show(plan.name)}) of the Kustomization of ${show(plan.folder)} is also the name of the one of ${show(twin.folder)} in namespace ${show(plan.namespace)}; ` +
            'rename a chart or folder so that the folder paths differ with "/" read as "-"',
        );
      }
    }
    return [...seen.values()];
  }
}

/** A Kustomization's name: its folder path with "/" read as "-", deterministic and readable in `flux get kustomizations`. */
function nameOf(folder: string): string {
  return folder.split('/').join('-');
}

/** The stage of a split folder an object is applied in. */
function stageOf(json: any, engineStage: boolean): Part {
  if (OPERATOR_KINDS.has(json.kind)) return OPERATORS_PART;
  return engineStage && isMultiClusterEngine(json.kind, String(json.apiVersion)) ? ENGINE_PART : RESOURCES_PART;
}

/** Whether an object is a MultiClusterEngine, not a namesake of another group. */
function isMultiClusterEngine(kind: string, apiVersion: string): boolean {
  return kind === 'MultiClusterEngine' && groupOf(apiVersion) === MULTICLUSTER_ENGINE_GROUP;
}

/** `a/b/c` -> [`a/b`, `a`]: nearest first. */
function ancestors(folder: string): string[] {
  const parts = folder.split('/');
  return parts.slice(0, -1).map((_, i) => parts.slice(0, parts.length - 1 - i).join('/'));
}

/** `healthChecks` and `healthCheckExprs` for the kinds in the unit's files that Flux must be told how to wait for. */
function healthChecksOf(unit: Unit): Pick<flux.KustomizationSpec, 'healthChecks' | 'healthCheckExprs'> {
  // The API version tells a checked kind from a namesake of another group. A MultiClusterEngine is
  // waited for only in the engine stage, the one thing that waits for it.
  const checked = unit.files.filter((f) => FLUX_HEALTH_CHECKS[f.kind]?.apiVersion === f.apiVersion && (f.kind !== 'MultiClusterEngine' || unit.part === ENGINE_PART));
  if (checked.length === 0) return {};
  const kinds = [...new Set(checked.map((f) => f.kind))];
  return {
    healthChecks: checked.map((f) => ({ apiVersion: FLUX_HEALTH_CHECKS[f.kind].apiVersion, kind: f.kind, name: f.name, namespace: f.namespace })),
    healthCheckExprs: kinds.map((kind) => ({ kind, ...FLUX_HEALTH_CHECKS[kind] })),
  };
}

/** What an object the delivery makes is, for the access of the unit that applies it. */
function identityOf(json: any): ObjectIdentity {
  return { apiVersion: json.apiVersion, kind: json.kind, name: json.metadata.name, namespace: json.metadata.namespace };
}

/** The ServiceAccount and roles a bootstrap Kustomization applies for itself. */
function ownRbacStandIns(own: { name: string; namespace: string }): any[] {
  const role = `${FLUX_ROLE_PREFIX}${own.name}`;
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: own },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: role } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: role } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: role, namespace: own.namespace } },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: role, namespace: own.namespace } },
  ];
}

/** What `flux-<hub>` writes in its namespace whatever the names: a Kustomization and a ServiceAccount per unit. */
const OWN_NAMESPACE_KINDS = [
  { group: '', resource: 'serviceaccounts' },
  { group: KUSTOMIZATION.apiVersion.split('/')[0], resource: 'kustomizations' },
];

/** What a unit's RBAC must allow of what its Kustomization prunes now. */
interface Pruning {
  /** What it applied before and no longer writes: Flux reads each before it prunes it. */
  readonly pruned: UnitAccess;
  /** Of those, what Flux deletes: not protected, and written by no other unit now. */
  readonly deletable: UnitAccess;
}

/** The pruning of `dropped`, of which `stillWritten` are written by another unit now. */
function pruningOf(dropped: readonly PreviousObject[], stillWritten: (o: PreviousObject) => boolean): Pruning {
  const deletable = dropped.filter((o) => o.annotations[FLUX_PRUNE_ANNOTATION] !== FLUX_PRUNE_DISABLED && !stillWritten(o));
  return { pruned: unitAccess(dropped), deletable: unitAccess(deletable) };
}

/**
 * The kinds (`<group>/<kind>`) of the objects Flux may prune: all but the protected. A bootstrap
 * folder prunes the Kustomizations, ServiceAccounts and RBAC of a cluster dropped from the app
 * (deleting a Kustomization orphans what it applied).
 */
function prunableKinds(objects: readonly any[]): Set<string> {
  return new Set(objects.filter((json) => json.metadata.annotations?.[FLUX_PRUNE_ANNOTATION] !== FLUX_PRUNE_DISABLED).map((json) => `${groupOf(json.apiVersion)}/${json.kind}`));
}
