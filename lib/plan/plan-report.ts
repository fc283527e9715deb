import type { RolloutProgress } from '../release/rollout-progress';
import type { DeliveryMode } from '../gitops/delivery-mode';
import type { FieldChange } from './field-diff';
import type { LiveReport } from './live/live-report';

/**
 * The version of the plan's JSON form (`hcp-cdk plan --json`). A field is only ever added within a
 * version; a field removed or changed in meaning makes the next version. The JSON Schema of this
 * version is `PLAN_JSON_SCHEMA` (plan-json-schema.ts), printed by `hcp-cdk plan --json-schema`.
 */
export const PLAN_SCHEMA_VERSION = 'hcp-cdk.io/plan/v1';

/** What happens to one object when the new output is applied. */
export enum PlanAction {
  /** The object is new. */
  CREATE = 'create',
  /** The object changes. */
  UPDATE = 'update',
  /** The object goes. */
  DELETE = 'delete',
  /** The object stays as it is. */
  UNCHANGED = 'unchanged',
}

/** What a change does to a running cluster, from the HCP docs' updates, node pool and destroy chapters. */
export enum ChangeEffect {
  /** The HostedCluster's release changes: the control plane upgrades (pods roll in the hosting namespace). */
  CONTROL_PLANE_UPGRADE = 'control-plane-upgrade',
  /** A NodePool's release changes: its nodes are replaced or rebooted in place, some at a time. */
  NODE_POOL_ROLLOUT = 'node-pool-rollout',
  /** A NodePool's config, tuning or platform (instance type, VM size, ...) changes: its nodes roll as for an upgrade. */
  CONFIGURATION_ROLLOUT = 'configuration-rollout',
  /** A NodePool's replicas or autoscaling range changes: nodes are added or removed, none replaced. */
  SCALE = 'scale',
  /** Something is destroyed or must be made anew: a cluster, a pool, a namespace, a host. */
  DESTRUCTIVE = 'destructive',
  /** The API server will refuse the change (an immutable field, another transition rule, the schema). */
  REFUSED = 'refused',
  /** Only labels or annotations change: nothing rolls. */
  METADATA_ONLY = 'metadata-only',
  /** Any other change, applied in place by the object's controller. */
  IN_PLACE_UPDATE = 'in-place-update',
  /** Any other object deleted: gone once the GitOps engine prunes it. */
  REMOVE = 'remove',
  /** A new object. */
  CREATE = 'create',
}

/** One effect of a change, with the sentence that explains it. */
export interface PlanEffect {
  /** The kind of effect. */
  readonly effect: ChangeEffect;
  /** One line for people: what will happen, with the numbers (versions, nodes, batch sizes). */
  readonly summary: string;
  /** The fields that cause it, when it comes from fields. */
  readonly fields?: readonly string[];
  /** Effect-specific facts for machines; see the JSON Schema for each effect's shape. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** One object of either output. */
export interface PlannedObject {
  /** What happens to the object. */
  readonly action: PlanAction;
  /** The object's apiVersion. */
  readonly apiVersion: string;
  /** The object's kind. */
  readonly kind: string;
  /** The object's namespace. @default - none: cluster-scoped */
  readonly namespace?: string;
  /** The object's name. */
  readonly name: string;
  /** The file in the new output (the previous one's for a deleted object). */
  readonly file: string;
  /** The previous file, when the object moved to another file for its cluster (another rank or folder). */
  readonly previousFile?: string;
  /** The hosted cluster it belongs to, `<management folder>/<namespace>/<name>`, when it belongs to one. */
  readonly cluster?: string;
  /** The fields that differ (updates only). */
  readonly changes: readonly FieldChange[];
  /** What the change does; empty for unchanged objects. */
  readonly effects: readonly PlanEffect[];
  /**
   * What plan could not check about the change, each a sentence naming the field and the value:
   * a release whose OpenShift version neither its tag nor the release-version annotation tells
   * has no update path or version skew checked. Absent when there is nothing to say.
   */
  readonly warnings?: readonly string[];
}

/** Counts over all objects and effects, for the first lines of every form of the plan. */
export interface PlanSummary {
  /** Objects created. */
  readonly create: number;
  /** Objects updated. */
  readonly update: number;
  /** Objects deleted. */
  readonly delete: number;
  /** Objects unchanged. */
  readonly unchanged: number;
  /** How many objects have each effect. */
  readonly effects: Readonly<Partial<Record<ChangeEffect, number>>>;
  /** Hosted clusters with any change, `<management folder>/<namespace>/<name>`. */
  readonly clustersChanged: readonly string[];
}

/** What a cluster note is about; the human forms group notes by it. */
export enum ClusterNoteKind {
  /** A control plane and its pools upgraded in one commit: in which order the delivery applies them. */
  UPGRADE_IN_ONE_COMMIT = 'upgrade-in-one-commit',
  /** A control plane's update is a conditional edge of its channel's update graph: the edge's risks. */
  CONDITIONAL_UPDATE = 'conditional-update',
}

/** The update graphs the new output keeps, and the control-plane updates none of them checked. */
export interface PlanUpdateGraph {
  /** The channels whose update graph the new output keeps (see UpdateGraph). */
  readonly graphs: readonly string[];
  /** The control-plane updates no graph checked (version arithmetic only), by channel. @default - none */
  readonly unchecked?: readonly {
    /** The channel. @default - the clusters name none */
    readonly channel?: string;
    /** The clusters, `<management folder>/<namespace>/<name>`. */
    readonly clusters: readonly string[];
  }[];
  /** One line. */
  readonly summary: string;
}

/** Facts about one hosted cluster's changes as a whole (a control plane and its pools upgraded together). */
export interface ClusterNote {
  /** The hosted cluster, `<management folder>/<namespace>/<name>`; or, for a note on the engines' own objects, their bootstrap folder (`flux/<hub>`, `argocd/<hub>`). */
  readonly cluster: string;
  /** What the note is about. @default ClusterNoteKind.UPGRADE_IN_ONE_COMMIT */
  readonly kind?: ClusterNoteKind;
  /** One line for people. */
  readonly note: string;
  /**
   * How the output is delivered, as its HostedCluster records it (`hcp-cdk.io/delivery`).
   * @default - not recorded (an output of an older hcp-cdk)
   */
  readonly delivery?: DeliveryMode;
  /**
   * Whether the pools roll only once the control plane reports the new version (Flux, Argo CD with
   * its health checks) or at once (plain kustomize, Argo CD without them).
   * @default - unknown: it depends on an engine the output does not name (ACM's hub folders, no delivery recorded)
   */
  readonly poolsWait?: boolean;
}

/**
 * What the commit does to one release rollout the new output records (`rollouts/`).
 *
 * The waves, what moves and what is left are the rollout rules' own (`RolloutProgress`). The rest
 * stays apart because the plan's JSON (`PLAN_SCHEMA_VERSION`) says it otherwise: `name` and
 * `refusals` where the rules say `rollout` and `problems`, a list absent when it is empty, the
 * failures split into `failed` and `timedOut`, and what only plan knows (`removed`, `warnings`).
 */
export interface PlannedRollout extends Pick<RolloutProgress, 'release' | 'waves' | 'releasedWaves' | 'moves' | 'left' | 'summary'> {
  /** The rollout's name. */
  readonly name: string;
  /** The clusters the rollout lists as failed (timed-out ones included). @default - none */
  readonly failedClusters?: readonly string[];
  /** The failed clusters (not timed out), with their wave and, when the record has it, why. @default - none */
  readonly failed?: readonly PlannedRolloutCluster[];
  /** The clusters that ran out of the wave's timeout, with their wave and why. @default - none */
  readonly timedOut?: readonly PlannedRolloutCluster[];
  /** Clusters of released waves whose pools the wave holds on the release before (holdNodePools). @default - none */
  readonly held?: readonly PlannedRolloutCluster[];
  /** Clusters of released waves paused in the previous output (what, until when): they hold the next wave unless onPaused is Continue. @default - none */
  readonly paused?: readonly PlannedRolloutCluster[];
  /** Whether the new output no longer records the rollout (it was removed). @default false */
  readonly removed?: boolean;
  /**
   * Why the rollout refuses the commit (more than one wave, a wave before the waves ahead of it
   * run the release, a rollout it waits for not complete, a released wave taken back, removed or
   * redefined); the moved objects carry them as `refused`, and plan exits 1 either way.
   * Absent when there is nothing to say.
   */
  readonly refusals?: readonly string[];
  /** What the commit does that a reviewer must know but that is not refused (a removed rollout that recorded failures). @default - none */
  readonly warnings?: readonly string[];
}

/** A cluster of a rollout that something is said of. */
export interface PlannedRolloutCluster {
  /** The cluster, `<management folder>/<namespace>/<name>`. */
  readonly cluster: string;
  /** Its wave's place, from 1; 0 for a failed or timed-out cluster of the record that is in none of its waves. */
  readonly wave: number;
  /** Why: the failure's reason, what is paused until when, the pools held. @default - not known */
  readonly reason?: string;
}

/** What applying the new output will do to the clusters that run the previous one. */
export interface Plan {
  /** The plan's format version, `hcp-cdk.io/plan/v1`: fields are only added within a version. */
  readonly schemaVersion: typeof PLAN_SCHEMA_VERSION;
  /** The previous output: a directory, or `<ref> of <repository> (<path>/)`. */
  readonly previous: string;
  /** The new output. */
  readonly next: string;
  /** The counts. */
  readonly summary: PlanSummary;
  /** Notes on hosted clusters whose changes go together. */
  readonly clusterNotes: readonly ClusterNote[];
  /** The release rollouts the new output records, by name. Absent when it records none. */
  readonly rollouts?: readonly PlannedRollout[];
  /**
   * Which control-plane updates an update graph checked: absent when nothing updates a control plane
   * and the output keeps no graph.
   */
  readonly updateGraph?: PlanUpdateGraph;
  /** Every object with a change, then (with `includeUnchanged`) the unchanged ones; ordered by file. */
  readonly objects: readonly PlannedObject[];
  /**
   * What the management cluster holds, read through a kubeconfig context (`hcp-cdk plan --live`).
   * @default - not read
   */
  readonly live?: LiveReport;
}

/** Each warning of the plan's objects, as `<cluster>: <Kind> <namespace>/<name>: <warning>`, in object order. */
export function planWarnings(plan: Plan): string[] {
  return plan.objects.flatMap((o) => (o.warnings ?? []).map((w) => `${o.cluster ? `${o.cluster}: ` : ''}${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}: ${w}`));
}

/** Whether a plan changes anything (what `hcp-cdk plan` exit status 2 means). */
export function hasChanges(plan: Plan): boolean {
  return plan.summary.create + plan.summary.update + plan.summary.delete > 0;
}

/** One heading of the human forms: a hosted cluster, or the objects of no cluster. */
export interface PlanGroup {
  /** `<namespace>/<name>` of the hosted cluster, or undefined for the rest. */
  readonly cluster?: string;
  /** The objects, with their changes and effects. */
  readonly objects: readonly PlannedObject[];
}

/** The objects of the plan (unchanged ones only when it lists them) by hosted cluster, in name order, then the others. */
export function groupByCluster(plan: Plan): PlanGroup[] {
  const changed = plan.objects;
  const clusters = [...new Set(changed.map((o) => o.cluster).filter((c): c is string => c !== undefined))].sort();
  const groups: PlanGroup[] = clusters.map((cluster) => ({ cluster, objects: changed.filter((o) => o.cluster === cluster) }));
  const rest = changed.filter((o) => o.cluster === undefined);
  if (rest.length > 0) groups.push({ objects: rest });
  return groups;
}

/** `3 to create, 1 to update, 0 to delete, 9,008 unchanged`. */
export function countsLine(summary: PlanSummary): string {
  const n = (count: number): string => count.toLocaleString('en-US');
  return `${n(summary.create)} to create, ${n(summary.update)} to update, ${n(summary.delete)} to delete, ${n(summary.unchanged)} unchanged`;
}

/** `1 control-plane-upgrade, 2 node-pool-rollout`, most severe first; empty when nothing changes. */
export function effectsLine(summary: PlanSummary): string {
  return EFFECT_ORDER.filter((effect) => summary.effects[effect])
    .map((effect) => `${summary.effects[effect]} ${effect}`)
    .join(', ');
}

/** The effects from the most to the least a reviewer needs to see. */
export const EFFECT_ORDER: readonly ChangeEffect[] = [
  ChangeEffect.REFUSED,
  ChangeEffect.DESTRUCTIVE,
  ChangeEffect.CONTROL_PLANE_UPGRADE,
  ChangeEffect.NODE_POOL_ROLLOUT,
  ChangeEffect.CONFIGURATION_ROLLOUT,
  ChangeEffect.SCALE,
  ChangeEffect.IN_PLACE_UPDATE,
  ChangeEffect.REMOVE,
  ChangeEffect.CREATE,
  ChangeEffect.METADATA_ONLY,
];
