import { carriesManualApply } from '../core/apply-by-hand';
import { formatVersion } from '../release/release';
import { releaseVersionOf } from '../release/release-version';
import { describeRollout } from '../release/rollout';
import { assessUpgrade, UpgradeKind } from '../release/upgrade-path';
import { controlPlaneImageOf, FORCE_UPGRADE_TO_ANNOTATION, RESTART_DATE_ANNOTATION } from '../release/upgrade-settings';
import { ARGO_CD_PROTECTION, ARGO_CD_SYNC_OPTIONS_ANNOTATION, FLUX_PRUNE_ANNOTATION, FLUX_PRUNE_DISABLED } from '../gitops/protection';
import type { FieldChange } from './field-diff';
import { ChangeEffect, PlanAction, PlanEffect } from './plan-report';

/**
 * HostedCluster fields fixed at creation (the CRD's immutability rules): a different value is a
 * different cluster. Secret encryption is not among them: rotating its key is a documented change.
 */
const CREATION_FIELDS = ['spec.infraID', 'spec.clusterID', 'spec.platform.type', 'spec.networking', 'spec.etcd', 'spec.dns.baseDomain', 'spec.issuerURL'];
/**
 * HostedCluster fields that reach every node through its ignition, so that every pool rolls
 * (doc 6.5: "cluster configuration changes that propagate to nodes").
 */
const NODE_WIDE_CLUSTER_FIELDS = ['spec.pullSecret', 'spec.additionalTrustBundle', 'spec.imageContentSources', 'spec.configuration.proxy', 'spec.configuration.image'];
/** NodePool fields whose change rolls the pool's nodes as an upgrade does (doc 6.5). */
const POOL_ROLLOUT_FIELDS = ['spec.config', 'spec.tuningConfig', 'spec.platform'];
const POOL_SCALE_FIELDS = ['spec.replicas', 'spec.autoScaling'];

/** What kinds do when deleted, for the kinds whose deletion destroys something. */
const DESTROYED_WITH: Readonly<Record<string, string>> = {
  HostedCluster: 'destroys the hosted cluster: its control plane, its etcd data and every node of its pools',
  NodePool: 'removes the pool and its nodes; their workloads are evicted',
  Namespace: 'deletes the namespace and every object in it',
  BareMetalHost: 'deprovisions the host (Metal3 powers it off and cleans its disks) and forgets it',
  InfraEnv: 'deletes the discovery environment: its hosts cannot boot into it or register again',
  ManagedCluster: 'detaches the cluster from the hub: its add-ons and policies are removed',
  MultiClusterEngine: 'uninstalls the multicluster engine, HyperShift operator included',
  AgentServiceConfig: 'uninstalls the assisted service, which every agent cluster is installed through',
};

/** Everything about one object that its effects are worked out from. */
export interface ObjectChange {
  readonly action: PlanAction;
  readonly kind: string;
  /** The previous object (update, delete). */
  readonly before?: any;
  /** The new object (create, update). */
  readonly after?: any;
  readonly changes: readonly FieldChange[];
  /**
   * Why the new object cannot be applied over the previous one, each a sentence that names who
   * refuses: the API server (schema, CEL, transition rules) or HyperShift (version skew).
   */
  readonly refusals: readonly string[];
  /**
   * Whether the API server rejects the apply as a whole (schema, CEL or transition rules): then
   * nothing of the change happens, and it has no rollout or update to describe.
   * @default false
   */
  readonly rejected?: boolean;
  /** The NodePools of the new output whose nodes read this object (a ConfigMap in spec.config or spec.tuningConfig, the cluster's pull secret or trust bundle). */
  readonly readingPools: readonly any[];
  /** Why they read it, for the summary. @default - their config or tuning changes */
  readonly readReason?: string;
  /** The NodePools of the object's cluster in the new output. */
  readonly clusterPools: readonly any[];
  /** The new output's HostedClusters and NodePools in the object's namespace that still name it (a deleted Secret or ConfigMap). */
  readonly referencedBy: readonly string[];
  /**
   * What deleting the object does instead of the engine pruning it: a hosted cluster's guest
   * content whose engine object goes too, and so deletes nothing from the hosted cluster.
   * @default - what deleting such an object does: it is pruned
   */
  readonly deletionSummary?: string;
}

/** What applying one object's change does, most severe first. */
export function effectsOf(change: ObjectChange): PlanEffect[] {
  const effects: PlanEffect[] = [];
  if (change.refusals.length > 0) {
    effects.push({
      effect: ChangeEffect.REFUSED,
      summary: `${change.refusals[0]}${change.refusals.length > 1 ? ` (and ${change.refusals.length - 1} more)` : ''}`,
      details: { problems: change.refusals },
    });
  }
  switch (change.action) {
    case PlanAction.CREATE:
      if (!change.rejected) effects.push(creation(change));
      break;
    case PlanAction.DELETE:
      effects.push(deletion(change));
      break;
    case PlanAction.UPDATE:
      // A rejected apply changes nothing: what is left to say is that a field set at creation means a new cluster.
      effects.push(...update(change).filter((e) => !change.rejected || e.effect === ChangeEffect.DESTRUCTIVE));
      break;
    default:
      break;
  }
  return effects;
}

/** What creating or deleting an object no engine applies does (a Velero Backup or Restore, see applyByHand). */
const BY_HAND_CREATED = 'applied by hand only (oc apply -k of its folder): no GitOps engine applies it';
/** What applying a hand-applied object starts, by kind. */
const BY_HAND_STARTS: Readonly<Record<string, string>> = { Backup: 'the backup', Restore: 'the restore over what runs' };
const BY_HAND_DELETED = 'no GitOps engine applied it, so none prunes it: leaving it out of the output deletes nothing from the cluster';

function creation(change: ObjectChange): PlanEffect {
  const object = change.after;
  if (carriesManualApply(object)) {
    const starts = BY_HAND_STARTS[change.kind];
    return { effect: ChangeEffect.CREATE, summary: `${BY_HAND_CREATED}${starts ? `; applying it starts ${starts}` : ''}`, details: { appliedByHand: true } };
  }
  if (change.kind === 'HostedCluster') return { effect: ChangeEffect.CREATE, summary: `creates the hosted cluster at ${versionOf(object)}` };
  if (change.kind === 'NodePool') return { effect: ChangeEffect.CREATE, summary: `adds a pool of ${nodesOf(object)} at ${versionOf(object)}` };
  return { effect: ChangeEffect.CREATE, summary: 'created' };
}

function deletion(change: ObjectChange): PlanEffect {
  const object = change.before;
  if (change.deletionSummary !== undefined) {
    return { effect: ChangeEffect.REMOVE, summary: change.deletionSummary, details: { protected: carriesPruneProtection(object), leftInCluster: true } };
  }
  if (carriesManualApply(object)) return { effect: ChangeEffect.REMOVE, summary: BY_HAND_DELETED, details: { appliedByHand: true, leftInCluster: true } };
  const protection = carriesPruneProtection(object) ? '; it is protected from pruning, so the GitOps engine leaves it in place: delete it by hand if that is meant' : '';
  const destroyed = DESTROYED_WITH[change.kind];
  if (destroyed) {
    const nodes = change.kind === 'NodePool' ? ` (${nodesOf(object)})` : '';
    return { effect: ChangeEffect.DESTRUCTIVE, summary: `${destroyed}${nodes}${protection}`, details: { protected: carriesPruneProtection(object) } };
  }
  if (change.referencedBy.length > 0) {
    return {
      effect: ChangeEffect.DESTRUCTIVE,
      summary: `deleted while ${change.referencedBy.join(', ')} still read it${protection}`,
      details: { protected: carriesPruneProtection(object), referencedBy: change.referencedBy },
    };
  }
  return { effect: ChangeEffect.REMOVE, summary: `deleted when the GitOps engine prunes${protection}`, details: { protected: carriesPruneProtection(object) } };
}

function update(change: ObjectChange): PlanEffect[] {
  const effects: PlanEffect[] = [];
  const specChanges = change.changes.filter((c) => !c.path.startsWith('metadata.'));
  const metadataChanges = change.changes.filter((c) => c.path.startsWith('metadata.'));
  const restart = metadataChanges.find((c) => c.path === annotationPath(RESTART_DATE_ANNOTATION));
  if (restart) effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'every control-plane component restarts (restart-date annotation changed)', fields: [restart.path] });

  if (change.kind === 'HostedCluster') effects.push(...hostedClusterUpdate(change, specChanges));
  else if (change.kind === 'NodePool') effects.push(...nodePoolUpdate(change, specChanges));
  else if (specChanges.length > 0 && change.readingPools.length > 0) {
    effects.push({
      effect: ChangeEffect.CONFIGURATION_ROLLOUT,
      summary: `the nodes of ${change.readingPools.map((pool) => `${pool.metadata.name} (${rolloutSentence(pool)})`).join(', ')} roll: ${change.readReason ?? 'their config or tuning changes'}`,
      fields: specChanges.map((c) => c.path),
      details: { pools: change.readingPools.map(poolDetails) },
    });
  } else if (specChanges.length > 0) {
    effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'updated in place', fields: specChanges.map((c) => c.path) });
  }
  // HyperShift reads many of its own annotations on its objects (catalog images, overrides ...): not "nothing rolls".
  const hypershiftAnnotations =
    change.kind === 'HostedCluster' || change.kind === 'NodePool' ? metadataChanges.filter((c) => c !== restart && c.path.startsWith('metadata.annotations["hypershift.openshift.io/')) : [];
  if (hypershiftAnnotations.length > 0) {
    effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'HyperShift reads these annotations: what they switch changes in place', fields: hypershiftAnnotations.map((c) => c.path) });
  }
  if (effects.length === 0 && metadataChanges.length > 0) {
    effects.push({ effect: ChangeEffect.METADATA_ONLY, summary: 'labels or annotations only: nothing rolls', fields: metadataChanges.map((c) => c.path) });
  }
  return effects;
}

function hostedClusterUpdate(change: ObjectChange, specChanges: readonly FieldChange[]): PlanEffect[] {
  const effects: PlanEffect[] = [];
  const handled = new Set<FieldChange>();
  const release = specChanges.find((c) => c.path === 'spec.release.image');
  if (release) {
    handled.add(release);
    const from = releaseVersionOf(change.before);
    const to = releaseVersionOf(change.after);
    // HyperShift forces the image the annotation names, a tag or a digest alike (isUpgrading compares the strings).
    const forced = change.after?.metadata?.annotations?.[FORCE_UPGRADE_TO_ANNOTATION] === controlPlaneImageOf(change.after) ? ', forced by the force-upgrade-to annotation' : '';
    // Whether the path is supported is among the refusals (upgradeTransitionProblems); this names its kind.
    const kind = from && to ? assessUpgrade(from, to).kind : 'unknown';
    const details = { from: versionOf(change.before), to: versionOf(change.after), fromImage: release.before, toImage: release.after, upgrade: kind };
    if (to === undefined) {
      // A release of unknown version is still a release: HyperShift rolls the control plane to it, and what the pools do follows.
      const pools = poolsAfter(change.clusterPools, String(release.after));
      effects.push({
        effect: ChangeEffect.CONTROL_PLANE_UPGRADE,
        summary: `the control plane rolls to a release of unknown version (${String(release.after)}), from ${versionOf(change.before)}${forced}: the update path is not checked${pools.sentence}`,
        fields: [release.path],
        details: { ...details, poolsFollowing: pools.following, poolsStaying: pools.staying },
      });
    } else {
      const how =
        kind === 'unknown' ? 'from a release of unknown version: the update path is not checked' : kind === UpgradeKind.NONE ? 'the same version, another image: it rolls to that payload' : kind;
      effects.push({
        effect: ChangeEffect.CONTROL_PLANE_UPGRADE,
        summary: `the control plane upgrades from ${versionOf(change.before)} to ${versionOf(change.after)} (${how})${forced}`,
        fields: [release.path],
        details,
      });
    }
  }
  const creationFields = specChanges.filter((c) => CREATION_FIELDS.some((field) => isUnder(c.path, field)));
  if (creationFields.length > 0) {
    creationFields.forEach((c) => handled.add(c));
    effects.push({
      effect: ChangeEffect.DESTRUCTIVE,
      summary: `${unique(creationFields.map((c) => topField(c.path, CREATION_FIELDS))).join(', ')} ${creationFields.length === 1 ? 'is' : 'are'} set when a cluster is created: a different value means a new cluster (destroy this one, its etcd data with it, and create another)`,
      fields: creationFields.map((c) => c.path),
    });
  }
  const nodeWide = specChanges.filter((c) => NODE_WIDE_CLUSTER_FIELDS.some((field) => isUnder(c.path, field)));
  if (nodeWide.length > 0) {
    nodeWide.forEach((c) => handled.add(c));
    const pools = change.clusterPools;
    effects.push({
      effect: ChangeEffect.CONFIGURATION_ROLLOUT,
      summary: `every pool rolls, as the change reaches each node's configuration${pools.length > 0 ? `: ${pools.map((pool) => `${pool.metadata.name} (${rolloutSentence(pool)})`).join(', ')}` : ''}`,
      fields: nodeWide.map((c) => c.path),
      details: { pools: pools.map(poolDetails) },
    });
  }
  const paused = specChanges.find((c) => c.path === 'spec.pausedUntil');
  if (paused) {
    handled.add(paused);
    effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: pausedSentence('the control plane', paused.after), fields: [paused.path] });
  }
  const rest = specChanges.filter((c) => !handled.has(c));
  if (rest.length > 0) effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'the control plane reconciles the change in place', fields: rest.map((c) => c.path) });
  return effects;
}

function nodePoolUpdate(change: ObjectChange, specChanges: readonly FieldChange[]): PlanEffect[] {
  const effects: PlanEffect[] = [];
  const handled = new Set<FieldChange>();
  const pool = change.after;
  const release = specChanges.find((c) => c.path === 'spec.release.image');
  if (release) {
    handled.add(release);
    const unknown = releaseVersionOf(change.after) === undefined;
    effects.push({
      effect: ChangeEffect.NODE_POOL_ROLLOUT,
      summary: unknown
        ? `nodes roll to a release of unknown version (${String(release.after)}), from ${versionOf(change.before)}: ${rolloutSentence(pool)}`
        : `nodes upgrade from ${versionOf(change.before)} to ${versionOf(change.after)}: ${rolloutSentence(pool)}`,
      fields: [release.path],
      details: { from: versionOf(change.before), to: versionOf(change.after), ...poolDetails(pool) },
    });
  }
  const rolling = specChanges.filter((c) => POOL_ROLLOUT_FIELDS.some((field) => isUnder(c.path, field)));
  if (rolling.length > 0) {
    rolling.forEach((c) => handled.add(c));
    effects.push({
      effect: ChangeEffect.CONFIGURATION_ROLLOUT,
      summary: `nodes roll for the new ${unique(rolling.map((c) => topField(c.path, POOL_ROLLOUT_FIELDS))).join(', ')}: ${rolloutSentence(pool)}`,
      fields: rolling.map((c) => c.path),
      details: poolDetails(pool),
    });
  }
  const scale = specChanges.filter((c) => POOL_SCALE_FIELDS.some((field) => isUnder(c.path, field)));
  if (scale.length > 0) {
    scale.forEach((c) => handled.add(c));
    effects.push({
      effect: ChangeEffect.SCALE,
      summary: `scales from ${nodesOf(change.before)} to ${nodesOf(pool)}; no node is replaced`,
      fields: scale.map((c) => c.path),
      details: { from: nodeRange(change.before), to: nodeRange(pool) },
    });
  }
  const paused = specChanges.find((c) => c.path === 'spec.pausedUntil');
  if (paused) {
    handled.add(paused);
    effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: pausedSentence('the pool', paused.after), fields: [paused.path] });
  }
  const rest = specChanges.filter((c) => !handled.has(c));
  if (rest.length > 0) effects.push({ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'updated in place; no node is replaced', fields: rest.map((c) => c.path) });
  return effects;
}

/**
 * What a control plane's move to `image` means for its pools in the new output: those on that image
 * follow it in the same commit; the rest stay on their release, their skew against it unchecked.
 */
function poolsAfter(pools: readonly any[], image: string): { sentence: string; following: string[]; staying: string[] } {
  const following = pools.filter((pool) => pool.spec?.release?.image === image);
  const staying = pools.filter((pool) => pool.spec?.release?.image !== image);
  const parts: string[] = [];
  if (following.length > 0)
    parts.push(`${following.length === 1 ? 'pool' : 'pools'} ${following.map((pool) => pool.metadata?.name).join(', ')} ${following.length === 1 ? 'rolls' : 'roll'} to it in this commit too`);
  if (staying.length > 0) {
    parts.push(`${staying.map((pool) => `${pool.metadata?.name} stays on ${versionOf(pool)}`).join(', ')}, ${staying.length === 1 ? 'its' : 'their'} version skew against the new release not checked`);
  }
  return { sentence: parts.length > 0 ? `; ${parts.join('; ')}` : '', following: following.map((pool) => pool.metadata?.name), staying: staying.map((pool) => pool.metadata?.name) };
}

/** How a pool's nodes roll, for people: `Replace, new machines 1 at a time ..., 3 nodes in 3 rounds`. */
export function rolloutSentence(pool: any): string {
  const rollout = describeRollout(pool?.spec ?? {});
  const nodes = rollout.nodes === undefined ? 'autoscaled nodes' : `${rollout.nodes} node${rollout.nodes === 1 ? '' : 's'}`;
  const rounds = rollout.batches === undefined ? '' : ` in ${rollout.batches} round${rollout.batches === 1 ? '' : 's'}`;
  if (rollout.strategy === 'InPlace') {
    if (rollout.maxUnavailable === 0) return `InPlace with maxUnavailable 0: no node may go, so the rollout cannot progress, ${nodes}`;
    return `InPlace, nodes reboot into the new configuration ${rollout.maxUnavailable} at a time, ${nodes}${rounds}`;
  }
  if (pool?.spec?.management?.replace?.strategy === 'OnDelete') return `Replace with OnDelete: a node is replaced only when its machine is deleted by hand, ${nodes}`;
  return `Replace, new machines ${rollout.maxSurge} at a time with at most ${rollout.maxUnavailable} unavailable (maxSurge ${rollout.maxSurge}, maxUnavailable ${rollout.maxUnavailable}), ${nodes}${rounds}`;
}

function poolDetails(pool: any): Record<string, unknown> {
  const rollout = describeRollout(pool?.spec ?? {});
  return { pool: pool?.metadata?.name, ...rollout };
}

function nodesOf(pool: any): string {
  const range = nodeRange(pool);
  if (typeof range === 'number') return `${range} node${range === 1 ? '' : 's'}`;
  return range ? `${range.min}-${range.max} nodes (autoscaled)` : 'no stated node count';
}

function nodeRange(pool: any): number | { min: number; max: number } | undefined {
  const spec = pool?.spec ?? {};
  if (spec.autoScaling) return { min: spec.autoScaling.min, max: spec.autoScaling.max };
  return typeof spec.replicas === 'number' ? spec.replicas : undefined;
}

function pausedSentence(what: string, until: unknown): string {
  if (until === undefined || until === '' || until === 'false') return `${what} resumes reconciliation (pausedUntil removed)`;
  if (until === 'true') return `${what} stops reconciling until pausedUntil is removed`;
  // The CRD schema makes pausedUntil a string: an RFC 3339 time here.
  return `${what} stops reconciling until ${until as string}`;
}

/** The version of a HostedCluster's or NodePool's release (its tag, or the release-version annotation); else the image. */
function versionOf(object: any): string {
  const image = object?.spec?.release?.image;
  if (image === undefined) return '(no release)';
  const version = releaseVersionOf(object);
  return version ? formatVersion(version) : String(image);
}

/** Whether an object carries the engines' do-not-prune marks (see allowPruning and protect()). */
export function carriesPruneProtection(object: any): boolean {
  const annotations = object?.metadata?.annotations ?? {};
  const syncOptions = String(annotations[ARGO_CD_SYNC_OPTIONS_ANNOTATION] ?? '').split(',');
  return ARGO_CD_PROTECTION.every((option) => syncOptions.includes(option)) || annotations[FLUX_PRUNE_ANNOTATION] === FLUX_PRUNE_DISABLED;
}

function annotationPath(name: string): string {
  return `metadata.annotations[${JSON.stringify(name)}]`;
}

function isUnder(path: string, field: string): boolean {
  return path === field || path.startsWith(`${field}.`) || path.startsWith(`${field}[`);
}

function topField(path: string, fields: readonly string[]): string {
  return fields.find((field) => isUnder(path, field)) ?? path;
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
