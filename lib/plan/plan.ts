import { HyperShiftVersion, recordedHyperShiftVersion } from '../release/hypershift-version';
import { HIDDEN_SECRET_VALUE } from '../core/redaction';
import { RELEASE_VERSION_ANNOTATION, releaseVersionOf } from '../release/release-version';
import type { UpdateGraphs } from '../release/update-graphs';
import { applyCheck, uncheckedUpgrade } from '../release/upgrade-transition';
import { SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION } from '../release/upgrade-settings';
import { nodePoolSkewProblem, unsupportedReleaseProblem, VersionRulesOptions } from '../release/version-skew';
import { DeliveryMode, deliveryModeOf } from '../gitops/delivery-mode';
import type { ObjectValidator } from '../validation/object-validator';
import type { ValidationProblem } from '../validation/validation-problem';
import { carriesPruneProtection, effectsOf } from './change-effects';
import { deliveryChangeNotes } from './delivery-changes';
import { diffFields, FieldChange } from './field-diff';
import { GuestContent, guestContentOf, guestDeletionSummary } from './guest-content';
import { OutputFile, OutputSnapshot } from './output-snapshot';
import { ChangeEffect, ClusterNote, EFFECT_ORDER, Plan, PlanAction, PlannedObject, PLAN_SCHEMA_VERSION, PlanSummary } from './plan-report';
import { isRolloutRecord, planRollouts, updateGraphFindings, updateGraphsIn } from './rollout-plan';
import { upgradeOrder } from './upgrade-order';

/** What a Secret's changed value is shown as. */
export const HIDDEN = HIDDEN_SECRET_VALUE;

/** Options of `app.plan()`. */
export interface PlanOptions {
  /**
   * Checks each created or changed object as the API server would on apply over the previous one
   * (schema, CEL and transition rules such as immutable fields): what it reports is a refusal.
   * @default - no refusals are looked for
   */
  readonly validator?: ObjectValidator;
  /**
   * Kinds (`<apiVersion>/<kind>`) whose objects the validator passes without a schema (see
   * `allowUnvalidatedKind`): no refusal for a missing schema.
   * @default - none: an object without a schema is refused
   */
  readonly unvalidatedKinds?: ReadonlySet<string>;
  /**
   * List unchanged objects too (a fleet has thousands); the summary counts them either way.
   * @default false
   */
  readonly includeUnchanged?: boolean;
}

/**
 * What applying `next` over `previous` does, object by object: two outputs of hcp-cdk synths,
 * typically the last committed one (what the clusters run) and the one a change makes. Files that
 * are byte for byte the same are not parsed, so a plan costs what changed.
 */
export function planChanges(previous: OutputSnapshot, next: OutputSnapshot, options: PlanOptions = {}): Plan {
  const updateGraphs = updateGraphsIn(next);
  const context = new PlanContext(previous, next, updateGraphs);
  const objects: PlannedObject[] = [];
  let unchanged = 0;
  for (const key of [...new Set([...previous.files.keys(), ...next.files.keys()])]) {
    const before = previous.files.get(key);
    const after = next.files.get(key);
    // A rollout's record is applied to no cluster: what it says is planned below.
    if (isRolloutRecord((after ?? before)!)) continue;
    if (before && after && before.bytes.equals(after.bytes)) {
      unchanged++;
      if (options.includeUnchanged) objects.push(context.unchanged(before, after));
      continue;
    }
    const planned = context.plan(before, after, options.validator, options.unvalidatedKinds);
    if (planned.action === PlanAction.UNCHANGED) {
      unchanged++;
      if (!options.includeUnchanged) continue;
    }
    objects.push(planned);
  }
  objects.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const { rollouts, refusals } = planRollouts(
    previous,
    next,
    objects.filter((o) => o.action !== PlanAction.UNCHANGED),
  );
  const planned = refusals.size === 0 ? objects : objects.map((o) => (refusals.has(o.file) ? withRefusals(o, refusals.get(o.file)!) : o));
  const changed = planned.filter((o) => o.action !== PlanAction.UNCHANGED);
  const graphed = updateGraphFindings(next, changed, updateGraphs);
  return {
    schemaVersion: PLAN_SCHEMA_VERSION,
    previous: previous.description,
    next: next.description,
    summary: summarize(changed, unchanged),
    clusterNotes: [...clusterNotes(changed, context.deliveryModes), ...graphed.notes, ...deliveryChangeNotes(previous, next)],
    ...(rollouts.length > 0 ? { rollouts } : {}),
    ...(graphed.summary ? { updateGraph: graphed.summary } : {}),
    objects: planned,
  };
}

/** An object with more reasons it is refused: added to its refused effect, or one made for them. */
function withRefusals(object: PlannedObject, more: readonly string[]): PlannedObject {
  const refused = object.effects.find((e) => e.effect === ChangeEffect.REFUSED);
  const problems = [...((refused?.details?.problems as string[] | undefined) ?? []), ...more];
  const effect = { effect: ChangeEffect.REFUSED, summary: `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, details: { problems } };
  return { ...object, effects: [effect, ...object.effects.filter((e) => e !== refused)] };
}

/** Reads what an object's effects depend on from the two outputs, parsing only what it needs. */
class PlanContext {
  /** The delivery mode each planned HostedCluster of the new output records, by cluster. */
  public readonly deliveryModes = new Map<string, DeliveryMode | undefined>();

  constructor(
    private readonly previous: OutputSnapshot,
    private readonly next: OutputSnapshot,
    /** The update graphs the new output keeps (see UpdateGraph). */
    private readonly updateGraphs: UpdateGraphs,
  ) {}

  public unchanged(beforeFile: OutputFile, file: OutputFile): PlannedObject {
    const object = this.next.object(file);
    const moved = beforeFile.path !== file.path ? { previousFile: beforeFile.path } : {};
    return { ...identity(object), action: PlanAction.UNCHANGED, file: file.path, ...moved, cluster: this.clusterOf(this.next, file, object), changes: [], effects: [] };
  }

  public plan(beforeFile: OutputFile | undefined, afterFile: OutputFile | undefined, validator?: ObjectValidator, unvalidatedKinds?: ReadonlySet<string>): PlannedObject {
    const before = beforeFile && this.previous.object(beforeFile);
    const after = afterFile && this.next.object(afterFile);
    const action = !before ? PlanAction.CREATE : !after ? PlanAction.DELETE : PlanAction.UPDATE;
    const changes: FieldChange[] = action === PlanAction.UPDATE ? diffFields(before, after) : [];
    const file = (afterFile ?? beforeFile)!;
    const snapshot = afterFile ? this.next : this.previous;
    const object = after ?? before;
    const base = {
      ...identity(object),
      file: file.path,
      ...(beforeFile && afterFile && beforeFile.path !== afterFile.path ? { previousFile: beforeFile.path } : {}),
      cluster: this.clusterOf(snapshot, file, object),
    };
    if (action === PlanAction.UPDATE && changes.length === 0) return { ...base, action: PlanAction.UNCHANGED, changes, effects: [] };
    if (after?.kind === 'HostedCluster') this.deliveryModes.set(base.cluster!, deliveryModeOf(after));
    const hostedCluster = this.hostedClusterOf(this.next, afterFile ?? beforeFile!, object);
    const applied = after ? applyCheck(after, { previous: before, validator, unvalidatedKinds, updateGraphs: this.updateGraphs }) : undefined;
    const refusals = applied ? applied.problems.map(refusalSentence) : [];
    if (after) refusals.push(...this.hubRefusals(afterFile, after, action, hostedCluster));
    const folderPools = afterFile ? this.poolsNear(afterFile) : [];
    const warnings = after ? uncheckedReleaseWarnings(after, before, hostedCluster, after.kind === 'HostedCluster' ? folderPools.filter((p) => belongsTo(p, after)) : []) : [];
    const reading = this.readersOf(object, hostedCluster, folderPools);
    const effects = effectsOf({
      action,
      kind: object.kind,
      before,
      after,
      changes,
      refusals,
      rejected: applied?.rejected ?? false,
      readingPools: reading.pools,
      readReason: reading.reason,
      clusterPools: object.kind === 'HostedCluster' ? folderPools.filter((pool) => belongsTo(pool, object)) : [],
      referencedBy: action === PlanAction.DELETE ? this.referencesTo(beforeFile!, before) : [],
      deletionSummary: action === PlanAction.DELETE ? this.guestDeletion(beforeFile!, before) : undefined,
    });
    effects.sort((a, b) => EFFECT_ORDER.indexOf(a.effect) - EFFECT_ORDER.indexOf(b.effect));
    return { ...base, action, changes, effects, ...(warnings.length > 0 ? { warnings } : {}) };
  }

  /**
   * Why the hub's HyperShift does not support a HostedCluster's or NodePool's new release: a version
   * outside the range its operator accepts, a pool too far behind or ahead of its control plane, and,
   * for a control plane that changes, each of its pools it leaves so. The hub's rules are those its
   * HostedCluster records (`hcp-cdk.io/hypershift-version`), or `hyperShift` when given (plan --live).
   */
  public hubRefusals(file: OutputFile, after: any, action: PlanAction, hostedCluster: any, hyperShift?: HyperShiftVersion): string[] {
    if ((after.kind !== 'HostedCluster' && after.kind !== 'NodePool') || !hostedCluster) return [];
    const recorded = recordedHyperShiftVersion(hostedCluster);
    // The output's name for the same operator (an MCE version) says more.
    const rules: VersionRulesOptions = { hub: file.path.split('/')[0], hyperShift: hyperShift && !(recorded && hyperShift.sameOperatorAs(recorded)) ? hyperShift : recorded };
    const skipped = SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION in (hostedCluster.metadata?.annotations ?? {});
    const refusals: string[] = [];
    const unsupported = skipped ? undefined : unsupportedRefusal(after, rules);
    if (unsupported) refusals.push(unsupported);
    if (after.kind === 'NodePool' && !unsupported) refusals.push(...skewRefusals(after, hostedCluster, rules));
    // A control plane that moves past what its pools may lag behind leaves them unsupported.
    if (after.kind === 'HostedCluster' && action === PlanAction.UPDATE) {
      for (const pool of this.poolsNear(file).filter((p) => belongsTo(p, after))) {
        refusals.push(...skewRefusals(pool, after, rules, `pool ${pool.metadata?.name}'s`));
      }
    }
    return refusals;
  }

  /** `<management folder>/<namespace>/<name>` of the hosted cluster an object belongs to: two hubs may each have a `clusters/c1`. */
  private clusterOf(snapshot: OutputSnapshot, file: OutputFile, object: any): string | undefined {
    const hub = file.path.split('/')[0];
    if (object.kind === 'HostedCluster') return `${hub}/${object.metadata?.namespace}/${object.metadata?.name}`;
    if (object.kind === 'NodePool' && object.spec?.clusterName) return `${hub}/${object.metadata?.namespace}/${object.spec.clusterName}`;
    const hostedCluster = this.hostedClusterOf(snapshot, file, object);
    if (hostedCluster) return `${hub}/${hostedCluster.metadata?.namespace}/${hostedCluster.metadata?.name}`;
    // A guest folder's objects, and what delivers them, belong to the cluster they are applied in.
    const guest = guestContentOf(file, object);
    return guest && this.guestCluster(guest)?.cluster;
  }

  /**
   * The HostedCluster of a guest's cluster: its file in the new output, else in the previous one
   * (a cluster that leaves the output), and its name as plan gives it; undefined when no HostedCluster,
   * or more than one on different hubs, has that name.
   */
  private guestCluster(guest: GuestContent): { cluster: string; snapshot: OutputSnapshot; file: OutputFile } | undefined {
    for (const snapshot of [this.next, this.previous]) {
      const files = snapshot.hostedClusterFiles(guest.cluster).filter((f) => guest.hub === undefined || f.path.split('/')[0] === guest.hub);
      if (files.length > 1) return undefined;
      if (files.length === 1) {
        const [, , namespace, name] = files[0].key.split('|');
        return { cluster: `${files[0].path.split('/')[0]}/${namespace}/${name}`, snapshot, file: files[0] };
      }
    }
    return undefined;
  }

  /** What the engine does to a deleted object of a guest folder (or what delivers one), when it is not simply pruned. */
  private guestDeletion(file: OutputFile, object: any): string | undefined {
    const guest = guestContentOf(file, object);
    const found = guest && this.guestCluster(guest);
    if (!guest || !found) return undefined;
    const hostedCluster = found.snapshot.object(found.file);
    return guestDeletionSummary({
      content: guest,
      mode: deliveryModeOf(hostedCluster),
      clusterRemoved: found.snapshot === this.previous,
      clusterProtected: carriesPruneProtection(hostedCluster),
      folderRemoved: guest.folder !== undefined && this.next.filesIn(guest.folder, { below: true }).length === 0,
    });
  }

  /** The HostedCluster whose folder holds the object (hcp-cdk writes a cluster's objects to one layout folder). */
  public hostedClusterOf(snapshot: OutputSnapshot, file: OutputFile, object: any): any {
    if (object.kind === 'HostedCluster') return snapshot === this.next ? object : (this.sameObjectIn(this.next, file) ?? object);
    for (const candidate of snapshot.filesIn(file.layoutFolder, { kind: 'hostedcluster' })) {
      const hostedCluster = snapshot.object(candidate);
      if (object.kind !== 'NodePool' || belongsTo(object, hostedCluster)) return hostedCluster;
    }
    return undefined;
  }

  /**
   * The pools whose nodes read a Secret or ConfigMap, and why: a ConfigMap in a pool's config or
   * tuningConfig, or the pull secret or trust bundle the cluster names, which reach every node.
   */
  private readersOf(object: any, hostedCluster: any, pools: readonly any[]): { pools: any[]; reason?: string } {
    if (object.kind !== 'ConfigMap' && object.kind !== 'Secret') return { pools: [] };
    const name = object.metadata?.name;
    const sameNamespace = hostedCluster?.metadata?.namespace === object.metadata?.namespace;
    const field = !sameNamespace
      ? undefined
      : object.kind === 'Secret' && hostedCluster.spec?.pullSecret?.name === name
        ? 'pull secret'
        : object.kind === 'ConfigMap' && hostedCluster.spec?.additionalTrustBundle?.name === name
          ? 'trust bundle'
          : undefined;
    if (field) return { pools: pools.filter((pool) => belongsTo(pool, hostedCluster)), reason: `the cluster's ${field} changes, and every node reads it` };
    return { pools: object.kind === 'ConfigMap' ? pools.filter((pool) => readsConfigMap(pool, object)) : [] };
  }

  private sameObjectIn(snapshot: OutputSnapshot, file: OutputFile): any {
    const same = snapshot.files.get(file.key);
    return same ? snapshot.object(same) : undefined;
  }

  /** The new output's NodePools in the file's layout folder and the folders below it. */
  private poolsNear(file: OutputFile): any[] {
    return this.next.filesIn(file.layoutFolder, { below: true, kind: 'nodepool' }).map((pool) => this.next.object(pool));
  }

  /** The HostedClusters and NodePools of the new output, near a deleted object, that still name it. */
  private referencesTo(file: OutputFile, object: any): string[] {
    if (object.kind !== 'Secret' && object.kind !== 'ConfigMap') return [];
    const readers: string[] = [];
    const near = [...this.next.filesIn(file.layoutFolder, { below: true, kind: 'hostedcluster' }), ...this.next.filesIn(file.layoutFolder, { below: true, kind: 'nodepool' })];
    for (const candidate of near) {
      const reader = this.next.object(candidate);
      if (reader.metadata?.namespace === object.metadata?.namespace && namesObject(reader.spec, object.metadata?.name)) readers.push(`${reader.kind} ${reader.metadata.name}`);
    }
    return readers;
  }
}

/** A problem as the reason a change is refused: the update rules say `refused: ...` themselves; the rest is the API server's. */
function refusalSentence(problem: ValidationProblem): string {
  const field = problem.path ? `${problem.path}: ` : '';
  return problem.message.startsWith('refused: ') ? `${field}${problem.message}` : `the API server refuses it: ${field}${problem.message}`;
}

/**
 * A NodePool newer than its control plane, or further behind it than the hub's HyperShift allows
 * (see `nodePoolSkewProblem`; the sentence says what HyperShift then does).
 * @param whose how the sentence names the pool: itself, or one of a cluster's pools
 */
function skewRefusals(pool: any, hostedCluster: any, rules: VersionRulesOptions, whose = "the pool's"): string[] {
  const poolVersion = releaseVersionOf(pool);
  const clusterVersion = releaseVersionOf(hostedCluster);
  const problem = poolVersion && clusterVersion ? nodePoolSkewProblem(poolVersion, clusterVersion, rules) : undefined;
  return problem ? [`HyperShift does not support it: spec.release.image: ${whose} release ${problem}`] : [];
}

/** A release the hub's HyperShift does not accept at all (see `unsupportedReleaseProblem`). */
function unsupportedRefusal(object: any, rules: VersionRulesOptions): string | undefined {
  const version = releaseVersionOf(object);
  const problem = version && unsupportedReleaseProblem(version, rules, object.kind === 'HostedCluster' ? 'cluster' : 'pool');
  return problem ? `HyperShift refuses it: spec.release.image: the release ${problem}` : undefined;
}

/**
 * The plan with the version rules of `hyperShift` for the objects of management folder `folder`,
 * in place of those the output records (`plan --live` with the version the hub's operator reports):
 * the refusals that depend on the hub's HyperShift are worked out again; the rest stays as planned.
 */
export function withHubHyperShift(plan: Plan, previous: OutputSnapshot, next: OutputSnapshot, folder: string, hyperShift: HyperShiftVersion): Plan {
  const context = new PlanContext(previous, next, updateGraphsIn(next));
  const files = new Map([...next.files.values()].map((file) => [file.path, file]));
  let changed = false;
  const objects = plan.objects.map((object) => {
    const file = files.get(object.file);
    if (!file || !object.file.startsWith(`${folder}/`) || object.action === PlanAction.DELETE || object.action === PlanAction.UNCHANGED) return object;
    const after = next.object(file);
    const hostedCluster = context.hostedClusterOf(next, file, after);
    const recorded = context.hubRefusals(file, after, object.action, hostedCluster);
    const live = context.hubRefusals(file, after, object.action, hostedCluster, hyperShift);
    if (recorded.join('\n') === live.join('\n')) return object;
    changed = true;
    const refused = object.effects.find((e) => e.effect === ChangeEffect.REFUSED);
    const problems = [...((refused?.details?.problems as string[] | undefined) ?? []).filter((p) => !recorded.includes(p)), ...live];
    const rest = object.effects.filter((e) => e !== refused);
    if (problems.length === 0) return { ...object, effects: rest };
    const effect = { effect: ChangeEffect.REFUSED, summary: `${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`, details: { problems } };
    return { ...object, effects: [effect, ...rest] };
  });
  if (!changed) return plan;
  const changedObjects = objects.filter((o) => o.action !== PlanAction.UNCHANGED);
  return { ...plan, summary: summarize(changedObjects, plan.summary.unchanged), objects };
}

/** `tells no OpenShift version (...)`, or `tell` for several releases. */
const unknownVersion = (verb = 'tells'): string => `${verb} no OpenShift version (no version tag, no ${RELEASE_VERSION_ANNOTATION} annotation)`;
const GIVE_VERSION = 'give the version with the digest: Release.fromImage(image, { version })';

/**
 * What plan cannot check about a HostedCluster's or NodePool's new or changed release because a
 * version is unknown: its update path, and the version skew between a pool and its control plane.
 * @param hostedCluster a pool's HostedCluster in the new output, if any
 * @param pools a HostedCluster's pools in the new output
 */
function uncheckedReleaseWarnings(after: any, before: any, hostedCluster: any, pools: readonly any[]): string[] {
  const kind = after.kind;
  const image = after.spec?.release?.image;
  if ((kind !== 'HostedCluster' && kind !== 'NodePool') || typeof image !== 'string' || before?.spec?.release?.image === image) return [];
  const skew = kind === 'HostedCluster' ? "its node pools' version skew" : 'its version skew against the control plane';
  if (!releaseVersionOf(after)) {
    return [`spec.release.image: the release (${JSON.stringify(image)}) ${unknownVersion()}, so plan cannot check ${before ? `its update path or ${skew}` : skew}; ${GIVE_VERSION}`];
  }
  const warnings: string[] = [];
  const path = before ? uncheckedUpgrade(after, before) : undefined;
  if (path) warnings.push(`spec.release.image: ${path}`);
  if (kind === 'NodePool' && hostedCluster && !releaseVersionOf(hostedCluster)) {
    warnings.push(
      `spec.release.image: its version skew against the control plane is not checked: the HostedCluster's release (${JSON.stringify(hostedCluster.spec?.release?.image)}) ${unknownVersion()}; ${GIVE_VERSION}`,
    );
  }
  const unknownPools = pools.filter((pool) => !releaseVersionOf(pool));
  if (unknownPools.length > 0) {
    const names = unknownPools.map((pool) => `${pool.metadata?.name} (${JSON.stringify(pool.spec?.release?.image)})`).join(', ');
    warnings.push(
      `spec.release.image: the version skew of ${unknownPools.length === 1 ? 'pool' : 'pools'} ${names} is not checked: ${unknownPools.length === 1 ? 'its release' : 'their releases'} ${unknownVersion(unknownPools.length === 1 ? 'tells' : 'tell')}; ${GIVE_VERSION}`,
    );
  }
  return warnings;
}

function identity(object: any): Pick<PlannedObject, 'apiVersion' | 'kind' | 'namespace' | 'name'> {
  return { apiVersion: object.apiVersion, kind: object.kind, ...(object.metadata?.namespace ? { namespace: object.metadata.namespace } : {}), name: object.metadata?.name };
}

function readsConfigMap(pool: any, configMap: any): boolean {
  if (pool.metadata?.namespace !== configMap.metadata?.namespace) return false;
  const names = [...(pool.spec?.config ?? []), ...(pool.spec?.tuningConfig ?? [])].map((ref: any) => ref?.name);
  return names.includes(configMap.metadata?.name);
}

function belongsTo(pool: any, hostedCluster: any): boolean {
  return pool.metadata?.namespace === hostedCluster.metadata?.namespace && pool.spec?.clusterName === hostedCluster.metadata?.name;
}

/** Whether a `name: <name>` field appears anywhere in `value` (a reference by name). */
function namesObject(value: unknown, name: string): boolean {
  if (Array.isArray(value)) return value.some((item) => namesObject(item, name));
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, field]) => (key === 'name' && field === name) || namesObject(field, name));
}

function summarize(changed: readonly PlannedObject[], unchanged: number): PlanSummary {
  const effects: Partial<Record<ChangeEffect, number>> = {};
  for (const object of changed) {
    for (const effect of new Set(object.effects.map((e) => e.effect))) effects[effect] = (effects[effect] ?? 0) + 1;
  }
  const count = (action: PlanAction): number => changed.filter((o) => o.action === action).length;
  return {
    create: count(PlanAction.CREATE),
    update: count(PlanAction.UPDATE),
    delete: count(PlanAction.DELETE),
    unchanged,
    effects,
    clustersChanged: [...new Set(changed.map((o) => o.cluster).filter((c): c is string => c !== undefined))].sort(),
  };
}

/** A control plane and its pools upgraded in one commit: say in which order the delivery applies them. */
function clusterNotes(changed: readonly PlannedObject[], modes: ReadonlyMap<string, DeliveryMode | undefined>): ClusterNote[] {
  const notes: ClusterNote[] = [];
  for (const cluster of new Set(changed.map((o) => o.cluster))) {
    if (cluster === undefined) continue;
    const ofCluster = changed.filter((o) => o.cluster === cluster);
    const hostedCluster = ofCluster.find((o) => o.kind === 'HostedCluster' && o.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE));
    const controlPlane = hostedCluster?.effects.find((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE);
    const pools = ofCluster.filter((o) => o.kind === 'NodePool' && o.effects.some((e) => e.effect === ChangeEffect.NODE_POOL_ROLLOUT));
    if (!hostedCluster || !controlPlane || pools.length === 0) continue;
    const mode = modes.get(cluster);
    const order = upgradeOrder({
      mode,
      to: String(controlPlane.details?.to),
      toImage: String(controlPlane.details?.toImage),
      name: hostedCluster.name,
      namespace: hostedCluster.namespace ?? '',
      file: hostedCluster.file,
      pools: pools.map((p) => p.name),
    });
    notes.push({ cluster, note: order.note, ...(mode ? { delivery: mode } : {}), ...(order.poolsWait === undefined ? {} : { poolsWait: order.poolsWait }) });
  }
  return notes;
}
