import { Chart } from 'cdk8s';
import * as kac from '../../imports/klusterletaddonconfig-agent.open-cluster-management.io';
import * as mc from '../../imports/managedcluster-cluster.open-cluster-management.io';
import * as mcsb from '../../imports/managedclustersetbinding-cluster.open-cluster-management.io';
import * as placement from '../../imports/placement-cluster.open-cluster-management.io';
import * as binding from '../../imports/placementbinding-policy.open-cluster-management.io';
import * as policy from '../../imports/policy-policy.open-cluster-management.io';
import { appliedByHand } from '../core/apply-by-hand';
import { DNS1123_LABEL_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { show } from '../core/problems';
import type { Problems } from '../core/problems';
import { OPERATOR_KINDS, rankOf } from './apply-order';
import { ArgoCdDelivery } from './argo-cd-delivery';
import type { DeliveredFile, DeliveryAdditions, DeliveryObject, IDelivery, PlacedObject, PreviousDeliveredOutput } from './delivery';
import { DeliveryMode, recordDeliveryMode } from './delivery-mode';
import { FluxDelivery } from './flux-delivery';
import { kustomizations } from './kustomization';
import { CLUSTER_SET_LABEL } from './ocm-admission';
import { KustomizeDelivery, KustomizeDeliveryProps } from './kustomize-delivery';
import type { DeliveryTarget } from './output-layout';
import { TargetKind } from './output-layout';
import { PreviousFolders } from './previous-folders';
import { isProtected, protect } from './protection';

/** The name ACM gives the hub's own ManagedCluster, which hosts the hosted clusters' klusterlets. */
export const ACM_HUB_CLUSTER_NAME = 'local-cluster';
/** The folder of a management cluster's guest policies: `<hub>/policies/`. */
export const POLICIES_FOLDER = 'policies';
/**
 * At most this many characters in a root policy's namespace and name together: the copy in each
 * cluster's namespace is named `<namespace>.<name>`, and that name is also a label value (63).
 */
export const POLICY_NAME_MAX = 62;

/** Props of AcmDelivery. */
export interface AcmDeliveryProps extends KustomizeDeliveryProps {
  /**
   * The hub imports each hosted cluster on its own, as MCE does by default: once the control plane
   * is available, the hypershift add-on creates its ManagedCluster (and, on RHACM hubs, its
   * KlusterletAddonConfig), so hcp-cdk writes neither (two owners would fight over them). Set
   * false where the add-on's `autoImportDisabled` is "true": hcp-cdk then writes both in the
   * cluster's folder (docs 14.2).
   * @default true
   */
  readonly autoImport?: boolean;
  /**
   * The hub runs RHACM: with `autoImport: false`, a KlusterletAddonConfig per hosted cluster
   * enables its add-ons, the policy controllers among them. False on hubs that run MCE alone,
   * which have no KlusterletAddonConfig and no governance policies (docs 14.2, step 3).
   * @default true
   */
  readonly klusterletAddons?: boolean;
  /**
   * The ManagedClusterSet the hosted clusters join, and that the guest policies are placed from.
   * Auto-import puts every hosted cluster in `default`; another set needs `autoImport: false`.
   * @default 'default'
   */
  readonly clusterSet?: string;
  /**
   * Deliver each guest folder (what goes inside a hosted cluster) by ACM governance policies on
   * its hub instead of writing it as a `<cluster>-guest/` folder: the policy add-on on the imported
   * cluster applies it, operators first. False writes the guest folders, for another engine.
   * @default true
   */
  readonly guestPolicies?: boolean;
  /**
   * The hub namespace that holds the guest policies, their Placements and PlacementBindings
   * (hcp-cdk writes the Namespace). Not a managed cluster's namespace: ACM treats policies there
   * as copies.
   * @default 'hcp-policies'
   */
  readonly policyNamespace?: string;
  /**
   * The engine that applies the hub folders: an `ArgoCdDelivery` or a `FluxDelivery`, which writes
   * its bootstrap folder with an Application or a Kustomization per unit (the hub's own folder,
   * each hosted cluster's, each inventory's and `<hub>/policies`), each with least privilege, so
   * that one hosted cluster that never becomes healthy holds back nothing but itself. Its folders
   * and their `kustomization.yaml` are then that engine's (leave `syncWaves` and `kustomizations`
   * out).
   * @default - plain Kustomize folders whose `kustomization.yaml` lists the sub-folders too: one
   * engine pointed at `<hub>` applies the whole hub as one unit, and one HostedCluster that never
   * becomes healthy holds back every cluster's NodePools
   */
  readonly hubDelivery?: ArgoCdDelivery | FluxDelivery;
}

/** A HostedCluster as place() saw it: where it went, and the place and construct its ManagedCluster inherits. */
interface PlacedHostedCluster {
  readonly name: string;
  readonly folder: string;
  readonly path: string;
  readonly object: PlacedObject;
}

/** An object ACM's delivery makes, and the file it is, for the engine of the hub folders. */
interface AcmObject extends DeliveryObject {
  readonly file: DeliveredFile;
}

/** The objects of one guest folder, carried by policies instead of written. */
interface GuestContent {
  readonly target: DeliveryTarget;
  readonly objects: any[];
}

/**
 * RHACM / MCE delivery: the folders of KustomizeDelivery (same files, sync waves, protection and
 * kustomizations) for whatever engine applies the hubs, plus ACM's own objects. Hosted clusters
 * are imported as managed clusters, automatically by the hub or, with `autoImport: false`, by a
 * ManagedCluster and KlusterletAddonConfig written beside the HostedCluster (applied after it:
 * ranks 55 and 56). Each guest folder becomes two governance Policies in `<hub>/policies/`:
 * one for its operators (an OperatorPolicy per OLM Subscription, compliant once the operator is
 * installed and its deployments are available, after a ConfigurationPolicy with the Namespaces
 * and the other operator objects) and one for the rest, which depends on the first; a Placement
 * selects the hosted cluster's ManagedCluster, which exists and is available only once its
 * control plane is. So the guest content reaches a hosted cluster in order, and only once it can.
 */
export class AcmDelivery implements IDelivery {
  /** Who places and delivers the hub folders: the engine of `hubDelivery`, or plain Kustomize folders. */
  private readonly folders: IDelivery;
  private readonly hubDelivery?: ArgoCdDelivery | FluxDelivery;
  private readonly props: AcmDeliveryProps;
  private readonly kustomizations: boolean;
  private readonly autoImport: boolean;
  private readonly klusterletAddons: boolean;
  private readonly clusterSet: string;
  private readonly guestPolicies: boolean;
  private readonly policyNamespace: string;
  // What place() saw, consumed by finish(): one synth places every object, then finishes.
  private hostedClusters: PlacedHostedCluster[] = [];
  private guests = new Map<string, GuestContent>();
  // The hypershift add-on's import switch as HypershiftAddonConfig writes it: its construct's path (the object's scope) and whether import is on.
  private addOnImports: { path: string; autoImport: boolean }[] = [];

  constructor(props: AcmDeliveryProps = {}) {
    this.props = props;
    this.hubDelivery = props.hubDelivery;
    this.folders = props.hubDelivery ?? new KustomizeDelivery(props);
    this.kustomizations = props.kustomizations ?? true;
    this.autoImport = props.autoImport ?? true;
    this.klusterletAddons = props.klusterletAddons ?? true;
    this.clusterSet = props.clusterSet ?? 'default';
    this.guestPolicies = props.guestPolicies ?? true;
    this.policyNamespace = props.policyNamespace ?? 'hcp-policies';
  }

  public place(object: PlacedObject, problems: Problems): string | undefined {
    // A guest chart applied by hand (see applyByHand) keeps its folder instead of becoming Policies.
    if (this.guestPolicies && object.target.kind === TargetKind.GUEST && appliedByHand(object.target.chart) === undefined) {
      let guest = this.guests.get(object.target.folder);
      if (!guest) this.guests.set(object.target.folder, (guest = { target: object.target, objects: [] }));
      // As the guest folder would hold it, protection included, for whichever engine reads it there.
      if (isProtected(object.json.kind, object, object.construct)) protect(object.json);
      guest.objects.push(object.json);
      return undefined;
    }
    const file = this.folders.place(object, problems)!;
    // With an engine, the HostedCluster records the engine's mode: it is what orders an upgrade's pools.
    if (this.hubDelivery === undefined) recordDeliveryMode(object.json, DeliveryMode.ACM);
    const addOnImport = autoImportOf(object.json);
    if (addOnImport !== undefined && object.target.kind === TargetKind.MANAGEMENT)
      this.addOnImports.push({ path: (object.construct.node.scope ?? object.construct).node.path, autoImport: addOnImport });
    if (object.json.kind === 'HostedCluster' && object.target.kind === TargetKind.MANAGEMENT) {
      this.hostedClusters.push({
        name: object.json.metadata.name,
        folder: file.slice(0, file.lastIndexOf('/')),
        path: (object.hostedCluster ?? object.construct).node.path,
        object,
      });
    }
    return file;
  }

  public finish(files: readonly DeliveredFile[], problems: Problems, previous?: PreviousDeliveredOutput): DeliveryAdditions {
    const hostedClusters = this.hostedClusters;
    const guests = [...this.guests.values()];
    const addOnImports = this.addOnImports;
    this.hostedClusters = [];
    this.guests = new Map();
    this.addOnImports = [];

    const found = problems.all.length;
    this.checkProps(problems);
    for (const addOn of addOnImports) this.checkAddOnImport(addOn, problems);
    const objects: AcmObject[] = [];
    for (const cluster of hostedClusters) {
      // (A HostedCluster named local-cluster is refused by HostedCluster itself.)
      if (this.guestPolicies && cluster.name === this.policyNamespace) {
        problems.add(
          `policyNamespace (${show(this.policyNamespace)}) is the namespace ACM makes for hosted cluster ${cluster.path}; ` +
            'policies there count as copies, so the guest policies need a namespace of their own',
        );
      }
      if (!this.autoImport) objects.push(...this.importObjects(cluster, problems));
    }
    if (this.guestPolicies) objects.push(...this.policyObjects(guests, files, problems, PreviousFolders.of(previous)));

    // Objects made from wrong input would only repeat the problems above, less clearly, as schema errors.
    if (problems.all.length > found) return { objects: [], files: [] };
    const written: DeliveryObject[] = objects.map((o) => ({ path: o.path, json: o.json, source: o.source }));
    if (this.hubDelivery === undefined) {
      const paths = [...files.map((f) => f.path), ...objects.map((o) => o.path)];
      return { objects: written, files: this.kustomizations ? kustomizations(paths) : [] };
    }
    // The engine delivers ACM's objects with the rest of their folders: a ManagedCluster with its
    // HostedCluster, the policies as a unit of their own.
    const engine = this.hubDelivery.finish([...files, ...objects.map((o) => o.file)], problems, previous);
    return { objects: [...written, ...engine.objects], files: engine.files };
  }

  private checkProps(problems: Problems): void {
    const engine: unknown = this.hubDelivery;
    if (engine !== undefined) {
      problems.require(
        engine instanceof ArgoCdDelivery || engine instanceof FluxDelivery,
        'hubDelivery',
        typeof engine === 'object' && engine !== null ? `a ${engine.constructor.name}` : engine,
        'must be an ArgoCdDelivery or a FluxDelivery, the engine that applies the hub folders (leave it out for plain Kustomize folders)',
      );
      if (engine instanceof FluxDelivery && !this.autoImport && this.klusterletAddons) {
        problems.add(
          'hubDelivery (a FluxDelivery) cannot apply the KlusterletAddonConfig that autoImport: false writes beside each HostedCluster: it goes into the namespace ACM makes ' +
            "once the cluster's ManagedCluster is applied, and Flux dry-runs a folder whole before it applies any of it, so the cluster's Kustomization would never apply; " +
            'use an ArgoCdDelivery (its waves apply the ManagedCluster first, and its retries wait for the namespace), autoImport: true, or klusterletAddons: false',
        );
      }
      for (const field of ['syncWaves', 'kustomizations'] as const) {
        const value: unknown = this.props[field];
        problems.require(value === undefined, field, value, `must be left out with hubDelivery: the folders and their ${field === 'syncWaves' ? 'sync waves' : 'kustomization.yaml'} are the engine's`);
      }
    }
    problems.require(isDns1123Label(this.policyNamespace), 'policyNamespace', this.policyNamespace, DNS1123_LABEL_RULE);
    problems.require(
      isDns1123Subdomain(this.clusterSet) && this.clusterSet.length <= 63,
      'clusterSet',
      this.clusterSet,
      `must be a ManagedClusterSet name: a DNS-1123 subdomain of at most 63 characters (it is the value of the ${CLUSTER_SET_LABEL} label)`,
    );
    if (this.autoImport && this.clusterSet !== 'default') {
      problems.add(
        `clusterSet (${show(this.clusterSet)}) must be "default" with autoImport: the hypershift add-on imports hosted clusters ` +
          'into the default set; set autoImport: false to import them into another',
      );
    }
    if (this.guestPolicies && !this.klusterletAddons) {
      problems.add(
        "guestPolicies (true) needs klusterletAddons: governance policies are RHACM's, and klusterletAddons: false declares " +
          'a hub without RHACM (MCE alone); set guestPolicies: false to write the guest folders instead',
      );
    }
  }

  /**
   * Who imports the hosted clusters must agree with the add-on's switch: with import off and
   * autoImport on, nobody does (the guest policies never reach a cluster); with import on and
   * autoImport off, the add-on and hcp-cdk both write each ManagedCluster.
   */
  private checkAddOnImport(addOn: { path: string; autoImport: boolean }, problems: Problems): void {
    if (this.autoImport && !addOn.autoImport) {
      problems.add(
        `autoImport (true) leaves importing the hosted clusters to the hypershift add-on, but ${addOn.path} turns its automatic import off (autoImportDisabled "true"); ` +
          "set autoImport: false, so that each cluster's ManagedCluster is written (docs 14.2), or turn the add-on's import on",
      );
    } else if (!this.autoImport && addOn.autoImport) {
      problems.add(
        `autoImport (false) writes each hosted cluster's ManagedCluster, but ${addOn.path} turns the hypershift add-on's automatic import on (autoImportDisabled "false"), ` +
          "and two owners would fight over them; set autoImport: true, or turn the add-on's import off",
      );
    }
  }

  /** ManagedCluster and KlusterletAddonConfig of a hosted cluster, beside its HostedCluster (docs 14.2). */
  private importObjects(cluster: PlacedHostedCluster, problems: Problems): AcmObject[] {
    const name = cluster.name;
    const managedCluster = {
      ...mc.ManagedCluster.GVK,
      metadata: {
        name,
        labels: { 'cloud': 'auto-detect', [CLUSTER_SET_LABEL]: this.clusterSet, name, 'vendor': 'OpenShift' },
        annotations: {
          'import.open-cluster-management.io/hosting-cluster-name': ACM_HUB_CLUSTER_NAME,
          'import.open-cluster-management.io/klusterlet-deploy-mode': 'Hosted',
          'open-cluster-management/created-via': 'hypershift',
        },
      },
      spec: mc.toJson_ManagedClusterSpec({ hubAcceptsClient: true, leaseDurationSeconds: 60 }),
    };
    // Placed as its HostedCluster is: same folder, and protected unless allowPruning was called on the cluster.
    const objects = [this.placeBeside(cluster, managedCluster, problems)];
    if (this.klusterletAddons) {
      const addons = {
        ...kac.KlusterletAddonConfig.GVK,
        // In the namespace ACM makes for the managed cluster once it accepts it.
        metadata: { name, namespace: name },
        spec: kac.toJson_KlusterletAddonConfigSpec({
          clusterName: name,
          clusterNamespace: name,
          clusterLabels: { cloud: 'auto-detect', vendor: 'auto-detect' },
          applicationManager: { enabled: true },
          certPolicyController: { enabled: true },
          iamPolicyController: { enabled: true },
          policyController: { enabled: true },
          searchCollector: { enabled: false },
        }),
      };
      objects.push(this.placeBeside(cluster, addons, problems));
    }
    return objects;
  }

  private placeBeside(cluster: PlacedHostedCluster, json: any, problems: Problems): AcmObject {
    return this.placed({ ...cluster.object, json }, `delivery/${cluster.folder}/${json.kind}`, problems);
  }

  /** An object ACM's delivery makes, placed as the hub folders' delivery places the app's objects. */
  private placed(object: PlacedObject, source: string, problems: Problems): AcmObject {
    const path = this.folders.place(object, problems)!;
    const json = object.json;
    const file: DeliveredFile = {
      path,
      apiVersion: json.apiVersion,
      kind: json.kind,
      name: json.metadata.name,
      namespace: json.metadata.namespace,
      target: object.target,
      folder: object.folder,
    };
    return { path, json, source, file };
  }

  /**
   * Per hub with guests: the policy Namespace and ManagedClusterSetBinding; per guest, its
   * Placement, Policies and PlacementBinding. A hub whose last guest is gone keeps the first two
   * for one commit, so that what applies its policies folder prunes the Policies it applied
   * (deleting an Application or a Kustomization orphans them, and ACM would go on enforcing them).
   */
  private policyObjects(guests: readonly GuestContent[], files: readonly DeliveredFile[], problems: Problems, previous: PreviousFolders): AcmObject[] {
    const namespace = this.policyNamespace;
    const objects: AcmObject[] = [];
    const hubs = new Map<string, GuestContent[]>();
    for (const guest of guests) {
      const hub = guest.target.managementFolder!;
      hubs.set(hub, [...(hubs.get(hub) ?? []), guest]);
    }
    for (const hub of new Set(files.filter((f) => f.target.kind === TargetKind.MANAGEMENT).map((f) => f.target.folder))) {
      if (!hubs.has(hub) && previous.droppedFrom(`${hub}/${POLICIES_FOLDER}`, new Set()).some((o) => o.kind === policy.Policy.GVK.kind)) hubs.set(hub, []);
    }
    for (const [hub, hubGuests] of hubs) {
      const folder = `${hub}/${POLICIES_FOLDER}`;
      const taken = files.find((f) => f.folder === folder || f.folder.startsWith(`${folder}/`));
      if (taken) problems.add(`guestPolicies: folder ${show(folder)} holds ${taken.path}, and the guest policies of ${hub} go there; rename what uses that folder`);
      // The hub's management target, as its other objects have it; or, for a hub that writes none, its chart's.
      // (A hub kept for its emptied policies folder has objects of its own: it is found among the files.)
      const target: DeliveryTarget = files.find((f) => f.target.kind === TargetKind.MANAGEMENT && f.target.folder === hub)?.target ?? {
        kind: TargetKind.MANAGEMENT,
        chart: Chart.of(hubGuests[0].target.hostedCluster!),
        folder: hub,
      };
      // Placed as the app's objects are (sync waves, protection: the Namespace is protected like the
      // hub's others, deleting it would delete every policy in it), in a folder of their own.
      const add = (json: any): void => {
        objects.push(this.placed({ target, folder, json, construct: target.chart }, `delivery/${folder}/${json.kind}`, problems));
      };
      const ns: any = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } };
      add(ns);
      // Placements in the namespace choose from the sets bound to it; the binding's name is the set's.
      add({ ...mcsb.ManagedClusterSetBinding.GVK, metadata: { name: this.clusterSet, namespace }, spec: mcsb.toJson_ManagedClusterSetBindingSpec({ clusterSet: this.clusterSet }) });
      for (const guest of hubGuests) this.guestPolicyObjects(guest, problems).forEach(add);
    }
    return objects;
  }

  /** The operators Policy (when the guest installs any), the resources Policy that depends on it, and where they go. */
  private guestPolicyObjects(guest: GuestContent, problems: Problems): any[] {
    const namespace = this.policyNamespace;
    const name = guest.target.folder;
    const clusterName = guest.target.hostedCluster!.clusterName;
    if (clusterName === ACM_HUB_CLUSTER_NAME) {
      problems.add(`guestPolicies: guest folder ${show(name)} is for hosted cluster ${show(clusterName)}, the name of the hub's own ManagedCluster; ` + 'its policies would configure the hub');
    }
    if (!isDns1123Label(name)) problems.add(`guestPolicies: guest folder ${show(name)} names its Placement and Policies and ${DNS1123_LABEL_RULE}`);
    // Apply order within each policy: the object templates are applied in turn, by rank as in the folders.
    const ordered = guest.objects
      .map((json, i) => ({ json, i }))
      .sort((a, b) => rankOf(a.json.kind) - rankOf(b.json.kind) || a.i - b.i)
      .map((o) => o.json);
    const operators = ordered.filter((json) => OPERATOR_KINDS.has(json.kind));
    const resources = ordered.filter((json) => !OPERATOR_KINDS.has(json.kind));

    const policies: any[] = [];
    const makePolicy = (policyName: string, templates: readonly any[], dependsOn?: string): void => {
      const length = namespace.length + policyName.length;
      if (length > POLICY_NAME_MAX) {
        problems.add(
          `guestPolicies: policy ${show(policyName)} of guest folder ${show(name)} in policyNamespace ${show(namespace)} makes ${length} characters ` +
            `of namespace and name; ACM accepts at most ${POLICY_NAME_MAX} (its copy in the cluster's namespace is named <namespace>.<name>, a label value); ` +
            "shorten policyNamespace or the hosted cluster's name",
        );
      }
      policies.push(guestPolicy(policyName, namespace, templates, dependsOn));
    };
    const operatorsName = `${name}-operators`;
    if (operators.length > 0) makePolicy(operatorsName, operatorTemplates(operatorsName, name, operators, problems));
    const resourcesName = `${name}-resources`;
    if (resources.length > 0) makePolicy(resourcesName, [{ objectDefinition: configurationPolicy(resourcesName, resources) }], operators.length > 0 ? operatorsName : undefined);

    const where = {
      ...placement.Placement.GVK,
      metadata: { name, namespace },
      spec: placement.toJson_PlacementSpec({
        clusterSets: [this.clusterSet],
        // The name label is set on import, by the hypershift add-on or by the ManagedCluster hcp-cdk writes.
        predicates: [{ requiredClusterSelector: { labelSelector: { matchLabels: { name: clusterName } } } }],
      }),
    };
    const bind = {
      ...binding.PlacementBinding.GVK,
      metadata: { name, namespace },
      placementRef: binding.toJson_PlacementBindingPlacementRef({
        apiGroup: binding.PlacementBindingPlacementRefApiGroup.CLUSTER_PERIOD_OPEN_HYPHEN_CLUSTER_HYPHEN_MANAGEMENT_PERIOD_IO,
        kind: binding.PlacementBindingPlacementRefKind.PLACEMENT,
        name,
      }),
      subjects: policies.map((p) =>
        binding.toJson_PlacementBindingSubjects({
          apiGroup: binding.PlacementBindingSubjectsApiGroup.POLICY_PERIOD_OPEN_HYPHEN_CLUSTER_HYPHEN_MANAGEMENT_PERIOD_IO,
          kind: binding.PlacementBindingSubjectsKind.POLICY,
          name: p.metadata.name,
        }),
      ),
    };
    return [where, ...policies, bind];
  }
}

/** Whether `json` is an OLM object of `kind` (operators.coreos.com). */
function isOlm(json: any, kind: string): boolean {
  return json.kind === kind && typeof json.apiVersion === 'string' && json.apiVersion.startsWith('operators.coreos.com/');
}

/**
 * The templates of a guest's operators policy: a ConfigurationPolicy (named as the policy) with the
 * Namespaces and whatever else installs operators that OperatorPolicy does not cover (CatalogSources,
 * CRDs, OperatorGroups of namespaces without a Subscription), then an OperatorPolicy per Subscription,
 * with its namespace's OperatorGroup, that waits for the ConfigurationPolicy: the controller refuses a
 * Subscription whose namespace does not exist yet.
 */
function operatorTemplates(policyName: string, folder: string, objects: readonly any[], problems: Problems): any[] {
  const subscriptions = objects.filter((json) => isOlm(json, 'Subscription'));
  const namespaces = new Set(subscriptions.map((json) => json.metadata.namespace));
  const operatorGroups = objects.filter((json) => isOlm(json, 'OperatorGroup') && namespaces.has(json.metadata.namespace));
  const rest = objects.filter((json) => !subscriptions.includes(json) && !operatorGroups.includes(json));

  const templates: any[] = [];
  if (rest.length > 0) templates.push({ objectDefinition: configurationPolicy(policyName, rest) });
  // A ConfigurationPolicy dependency names no namespace: it is the template's own, the cluster's.
  const extraDependencies = (): policy.PolicySpecPolicyTemplatesExtraDependencies[] | undefined =>
    rest.length === 0
      ? undefined
      : [
          {
            apiVersion: 'policy.open-cluster-management.io/v1',
            kind: 'ConfigurationPolicy',
            name: policyName,
            compliance: policy.PolicySpecPolicyTemplatesExtraDependenciesCompliance.COMPLIANT,
          },
        ];
  const names = new Map<string, any>();
  for (const subscription of subscriptions) {
    const { name, namespace } = subscription.metadata;
    const where = `guestPolicies: Subscription ${namespace}/${name} of guest folder ${show(folder)}`;
    // OperatorPolicy names the Subscription after its package.
    if (name !== subscription.spec?.name) {
      problems.add(
        `${where} has metadata.name ${show(name)} and package (spec.name) ${show(subscription.spec?.name)}; its OperatorPolicy names the Subscription ` +
          'after the package, so the two must be the same (or set guestPolicies: false to write the guest folder instead)',
      );
    }
    const twin = names.get(name);
    if (twin) {
      problems.add(
        `${where} has the name of Subscription ${twin.metadata.namespace}/${name}; both would make OperatorPolicy ${show(`${folder}-${name}`)}, ` +
          'and template names must differ, so one guest folder installs a package in one namespace only',
      );
    }
    names.set(name, subscription);
    const groups = operatorGroups.filter((json) => json.metadata.namespace === namespace);
    if (groups.length > 1) {
      problems.add(
        `${where} has ${groups.length} OperatorGroups in its namespace (${groups.map((g) => show(g.metadata.name)).join(', ')}); ` + 'OLM installs an operator only in a namespace with exactly one',
      );
    }
    for (const json of [subscription, ...groups]) {
      const extra = Object.keys(json.metadata).filter((key) => key !== 'name' && key !== 'namespace');
      if (extra.length > 0) {
        problems.add(
          `guestPolicies: ${json.kind} ${namespace}/${json.metadata.name} of guest folder ${show(folder)} has metadata.${extra.join(', metadata.')}, ` +
            'which an OperatorPolicy cannot set (it takes the name, namespace and spec); remove them, or set guestPolicies: false to write the guest folder instead',
        );
      }
    }
    templates.push({ objectDefinition: operatorPolicy(`${folder}-${name}`, subscription, groups[0]), extraDependencies: extraDependencies() });
  }
  return templates;
}

/**
 * The OperatorPolicy that installs the operator of `subscription` (and, when given, creates its
 * namespace's `operatorGroup`; without one it uses the namespace's OperatorGroup, or creates an
 * AllNamespaces one). Compliant once the CSV has succeeded and its deployments are available.
 */
function operatorPolicy(name: string, subscription: any, operatorGroup?: any): any {
  // The controller sets installPlanApproval on the Subscription itself and refuses it in the policy.
  const { installPlanApproval, ...spec } = subscription.spec ?? {};
  return {
    apiVersion: 'policy.open-cluster-management.io/v1beta1',
    kind: 'OperatorPolicy',
    metadata: { name },
    spec: {
      remediationAction: 'enforce',
      complianceType: 'musthave',
      subscription: { name: spec.name, namespace: subscription.metadata.namespace, ...spec },
      ...(operatorGroup ? { operatorGroup: { name: operatorGroup.metadata.name, namespace: operatorGroup.metadata.namespace, ...operatorGroup.spec } } : {}),
      // The controller approves the first InstallPlan; later ones as OLM would with the Subscription
      // as written: Manual leaves upgrades to a person, anything else (Automatic, the default) approves them.
      upgradeApproval: installPlanApproval === 'Manual' ? 'None' : 'Automatic',
      // Deleting the policy deletes nothing (the controller owns nothing it creates); removalBehavior
      // rules what a mustnothave policy would delete, and Keep makes even that delete nothing, as
      // pruneObjectBehavior: None does for the ConfigurationPolicies.
      removalBehavior: { operatorGroups: 'Keep', subscriptions: 'Keep', clusterServiceVersions: 'Keep', customResourceDefinitions: 'Keep' },
      // complianceConfig keeps its defaults: unavailable operator deployments make the policy
      // NonCompliant (so the resources wait for them); upgrades, deprecations and an unhealthy
      // catalog source do not hold the resources back.
    },
  };
}

/** A ConfigurationPolicy that enforces `content` as it is, pruning nothing. */
function configurationPolicy(name: string, content: readonly any[]): any {
  return {
    apiVersion: 'policy.open-cluster-management.io/v1',
    kind: 'ConfigurationPolicy',
    metadata: { name },
    spec: {
      remediationAction: 'enforce',
      // Deleting the policy leaves the objects in the cluster: no cascading deletion from git.
      pruneObjectBehavior: 'None',
      'object-templates': content.map((objectDefinition) => ({ complianceType: 'musthave', objectDefinition })),
    },
  };
}

/** A Policy of `templates` (policy-templates entries), after the Policy `dependsOn` when given. */
function guestPolicy(name: string, namespace: string, templates: readonly any[], dependsOn?: string): any {
  return {
    ...policy.Policy.GVK,
    metadata: { name, namespace },
    spec: policy.toJson_PolicySpec({
      // The root policy's own metadata (sync waves, engine labels) stays on the hub.
      copyPolicyMetadata: false,
      disabled: false,
      dependencies:
        dependsOn === undefined
          ? undefined
          : [
              {
                apiVersion: policy.Policy.GVK.apiVersion,
                kind: 'Policy',
                name: dependsOn,
                namespace,
                compliance: policy.PolicySpecDependenciesCompliance.COMPLIANT,
              },
            ],
      policyTemplates: [...templates],
    }),
  };
}

/**
 * Whether a hypershift add-on configuration (`AddOnDeploymentConfig` hypershift-addon-deploy-config)
 * turns automatic import on or off; undefined for any other object, or one that leaves it alone.
 */
function autoImportOf(json: any): boolean | undefined {
  if (json.kind !== 'AddOnDeploymentConfig' || json.metadata?.name !== 'hypershift-addon-deploy-config') return undefined;
  const variable = (json.spec?.customizedVariables ?? []).find((v: { name?: string }) => v.name === 'autoImportDisabled');
  return variable === undefined ? undefined : variable.value !== 'true';
}
