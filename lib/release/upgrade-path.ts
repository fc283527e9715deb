import { formatVersion, Release, type ReleaseVersion } from './release';
import { ReleaseChannel } from './release-channel';
import type { IUpdatePaths, UpdateRisk } from './update-paths';

/** What a change of release is, as OpenShift's update paths see it. */
export enum UpgradeKind {
  /** The same version. */
  NONE = 'none',
  /** A later release of the same minor, e.g. 4.17.3 → 4.17.9 (or a candidate to its release). */
  Z_STREAM = 'z-stream',
  /** The next minor, e.g. 4.16.z → 4.17.z. */
  MINOR = 'minor',
  /** An even minor to the next even one, e.g. 4.16.z → 4.18.z: node pools only, after the control plane went through 4.17. */
  EUS_TO_EUS = 'eus-to-eus',
  /** An earlier version: OpenShift supports no rollback. */
  DOWNGRADE = 'downgrade',
  /** Minors skipped, or another major. */
  UNSUPPORTED = 'unsupported',
}

/** What a change of release is, and whether HyperShift accepts it. */
export interface UpgradeAssessment {
  /** The kind of update: z-stream, minor, EUS-to-EUS, downgrade, ... */
  readonly kind: UpgradeKind;
  /** The version before. */
  readonly from: ReleaseVersion;
  /** The version after. */
  readonly to: ReleaseVersion;
  /** why the path is refused, when it is */
  readonly problem?: string;
  /** Whether a path refused otherwise is accepted because `forceUpgradeTo` names its target. */
  readonly forced?: boolean;
  /** The risks of the update graph's conditional edge the update takes (with `updateGraph`). @default - none */
  readonly risks?: readonly UpdateRisk[];
}

/** Options of `assessUpgrade`. */
export interface AssessUpgradeOptions {
  /**
   * The cluster's update channel after the change (`spec.channel`), e.g. `stable-4.17`: refused
   * when it cannot offer the target (see `ReleaseChannel.problemFor`). Not applied with `nodePool`.
   * @default - no channel check
   */
  readonly channel?: string;
  /**
   * The `hypershift.openshift.io/force-upgrade-to` annotation after the change: a release image (or
   * a version) that, when it names the target, accepts a skipped minor or a downgrade. Control planes only.
   * @default - not forced
   */
  readonly forceUpgradeTo?: string;
  /**
   * The release of a NodePool rather than of a control plane. Nodes follow the control plane and may
   * skip the odd minor between two even ones (EUS-to-EUS), since their control plane went through it
   * (HyperShift allows a pool two minors behind a control plane on an even minor).
   * @default false - a control plane, which goes through every minor
   */
  readonly nodePool?: boolean;
  /**
   * The update graph of the cluster's channel (see UpdateGraph): a control plane's update must then
   * also be an edge of it, and a conditional edge's risks are named. Not applied with `nodePool`.
   * @default - version arithmetic alone
   */
  readonly updateGraph?: IUpdatePaths;
}

/**
 * Classifies an update from one release to another and says why it is refused when it is: the docs'
 * update chapter (doc 6) and OpenShift's update paths accept a later z-stream and the next minor;
 * control planes never skip a minor; node pools may go from one even minor to the next (EUS-to-EUS);
 * nothing goes back.
 */
export function assessUpgrade(from: ReleaseVersion, to: ReleaseVersion, options: AssessUpgradeOptions = {}): UpgradeAssessment {
  const kind = kindOf(from, to);
  const graph = options.updateGraph && !options.nodePool && kind !== UpgradeKind.NONE ? options.updateGraph.path(from, to) : undefined;
  const problem = problemOf(kind, from, to, options) ?? graph?.problem;
  if (problem && !options.nodePool && names(options.forceUpgradeTo, to)) return { kind, from, to, forced: true };
  return problem ? { kind, from, to, problem } : { kind, from, to, ...(graph?.risks ? { risks: graph.risks } : {}) };
}

/**
 * The most minors a NodePool may be behind a control plane of `controlPlane`: two on an even
 * minor (the EUS-to-EUS skew), one on an odd minor. HyperShift's NodePool `SupportedVersionSkew`
 * condition states this; the NodePool CRD bundled here (spec.release) states the N-2 bound it refines.
 */
export function maxNodePoolMinorSkew(controlPlane: ReleaseVersion): number {
  return controlPlane.minor % 2 === 0 ? 2 : 1;
}

/**
 * Why a NodePool at `pool` cannot run under a control plane at `controlPlane`, or undefined: never
 * newer (doc 6.6), never further behind than `maxNodePoolMinorSkew`, never another major.
 */
export function nodePoolSkewProblem(pool: ReleaseVersion, controlPlane: ReleaseVersion): string | undefined {
  const p = formatVersion(pool);
  const c = formatVersion(controlPlane);
  if (Release.compareVersions(pool, controlPlane) > 0) {
    return `is ${p}, newer than the control plane's ${c}; node pools must not run ahead of the control plane (doc 6.6): update the cluster first`;
  }
  if (pool.major !== controlPlane.major) return `is ${p}, another major version than the control plane's ${c}`;
  const behind = controlPlane.minor - pool.minor;
  const allowed = maxNodePoolMinorSkew(controlPlane);
  if (behind <= allowed) return undefined;
  const oldest = `${controlPlane.major}.${controlPlane.minor - allowed}`;
  return `is ${p}, ${behind} minors behind the control plane's ${c}; HyperShift supports pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so ${oldest} or later here`;
}

function kindOf(from: ReleaseVersion, to: ReleaseVersion): UpgradeKind {
  const order = Release.compareVersions(from, to);
  if (order === 0) return UpgradeKind.NONE;
  if (order > 0) return UpgradeKind.DOWNGRADE;
  if (from.major !== to.major) return UpgradeKind.UNSUPPORTED;
  const minors = to.minor - from.minor;
  if (minors === 0) return UpgradeKind.Z_STREAM;
  if (minors === 1) return UpgradeKind.MINOR;
  if (minors === 2 && from.minor % 2 === 0) return UpgradeKind.EUS_TO_EUS;
  return UpgradeKind.UNSUPPORTED;
}

function problemOf(kind: UpgradeKind, from: ReleaseVersion, to: ReleaseVersion, options: AssessUpgradeOptions): string | undefined {
  const f = formatVersion(from);
  const t = formatVersion(to);
  const z = `${from.major}.${from.minor}`;
  const next = `${from.major}.${from.minor + 1}`;
  const accepted = options.nodePool
    ? `a node pool accepts a later ${z}.z${from.minor % 2 === 0 ? `, ${next}.z or ${from.major}.${from.minor + 2}.z (EUS-to-EUS)` : ` or ${next}.z`}`
    : `a control plane accepts a later ${z}.z or ${next}.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides`;
  switch (kind) {
    case UpgradeKind.NONE:
      return undefined;
    case UpgradeKind.DOWNGRADE:
      return `goes back from ${f} to ${t}: OpenShift supports no downgrade; ${accepted}`;
    case UpgradeKind.UNSUPPORTED:
      return `updates from ${f} to ${t}, which ${from.major === to.major ? `skips ${skipped(from, to)}` : 'changes the major version'}; ${accepted}`;
    case UpgradeKind.EUS_TO_EUS:
      if (!options.nodePool) return `updates from ${f} to ${t}, which skips ${skipped(from, to)}; ${accepted} (node pools may then go from ${z} to ${to.major}.${to.minor} directly)`;
      return undefined;
    default:
      return options.channel !== undefined && !options.nodePool ? channelProblem(options.channel, to) : undefined;
  }
}

/** The minors between two versions of one major: `4.15 and 4.16`. */
function skipped(from: ReleaseVersion, to: ReleaseVersion): string {
  const minors = Array.from({ length: to.minor - from.minor - 1 }, (_, i) => `${from.major}.${from.minor + 1 + i}`);
  return minors.length > 1 ? `${minors.slice(0, -1).join(', ')} and ${minors[minors.length - 1]}` : minors[0];
}

function channelProblem(channel: string, to: ReleaseVersion): string | undefined {
  const problem = ReleaseChannel.of(channel).problemFor(to);
  return problem && `updates to ${formatVersion(to)}, but ${problem}`;
}

/** Whether a force-upgrade-to value (an image with a version tag, or a version) names `version`. */
function names(target: string | undefined, version: ReleaseVersion): boolean {
  if (target === undefined) return false;
  const named = Release.fromImage(target).version ?? Release.fromVersion(target).version;
  return named !== undefined && Release.compareVersions(named, version) === 0;
}
