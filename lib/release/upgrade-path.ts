import { openShiftMinorIndex, openShiftMinorName } from './hypershift-version';
import { formatVersion, Release, type ReleaseVersion } from './release';
import { ReleaseChannel } from './release-channel';
import type { IUpdatePaths } from './update-paths';
import type { UpdateRisk } from './update-risk';

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

/** Options of `assessUpgrade`: an object, so that more can be added. */
export interface AssessUpgradeOptions {
  /**
   * The cluster's update channel after the change (`spec.channel`), e.g. `stable-4.17`: refused
   * when it cannot offer the target (see `ReleaseChannel.problemFor`). Not applied with `nodePool`.
   * @default - no channel check
   */
  readonly channel?: string;
  /**
   * The `hypershift.openshift.io/force-upgrade-to` annotation after the change: a release image (or
   * a version) that, when it names the target, accepts a skipped minor or a z-stream downgrade.
   * Control planes only. With `toImage`, it names the target only when it is that very string, as
   * HyperShift compares it (see `toImage`); without, when its tag or version is the target's version.
   * @default - not forced
   */
  readonly forceUpgradeTo?: string;
  /**
   * The target's image reference as `spec.release.image` (or `spec.controlPlaneRelease.image`) gives
   * it: HyperShift's `isUpgrading` (hypershift-operator/controllers/hostedcluster/hostedcluster_controller.go)
   * forces an upgrade only when the force-upgrade-to annotation is that string, a tag or a digest alike.
   * @default - unknown: `forceUpgradeTo` is compared by version
   */
  readonly toImage?: string;
  /**
   * The release of a NodePool rather than of a control plane. HyperShift's NodePool controller
   * (`getReleaseImage` → `IsValidReleaseVersion`) takes any later release, minors skipped or not;
   * how far it may go is bounded by its control plane (see `nodePoolSkewProblem`).
   * @default false - a control plane, which goes through every minor
   */
  readonly nodePool?: boolean;
  /**
   * Whether the HostedCluster carries `hypershift.openshift.io/skip-release-image-validation`, with
   * which HyperShift checks no version rule of its own (`validateReleaseImage`): a minor downgrade
   * is then OpenShift's refusal only, which forceUpgradeTo overrides.
   * @default false
   */
  readonly releaseImageValidationSkipped?: boolean;
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
 * control planes never skip a minor (forceUpgradeTo overrides); node pools take any later release
 * (HyperShift's NodePool controller); nothing goes back, and a control plane's minor never, forced or
 * not (HyperShift's `IsValidReleaseVersion`). 5.y counts as 4.(23+y), as HyperShift counts it: 4.22 → 5.0
 * is the next minor.
 */
export function assessUpgrade(from: ReleaseVersion, to: ReleaseVersion, options: AssessUpgradeOptions = {}): UpgradeAssessment {
  const kind = kindOf(from, to);
  const graph = options.updateGraph && !options.nodePool && kind !== UpgradeKind.NONE ? options.updateGraph.path(from, to) : undefined;
  const problem = problemOf(kind, from, to, options) ?? graph?.problem;
  if (problem && !options.nodePool && !minorDowngradeRefused(from, to, options) && names(options, to)) return { kind, from, to, forced: true };
  return problem ? { kind, from, to, problem } : { kind, from, to, ...(graph?.risks ? { risks: graph.risks } : {}) };
}

function kindOf(from: ReleaseVersion, to: ReleaseVersion): UpgradeKind {
  const order = Release.compareVersions(from, to);
  if (order === 0) return UpgradeKind.NONE;
  const fromIndex = openShiftMinorIndex(from);
  const toIndex = openShiftMinorIndex(to);
  if (fromIndex === undefined || toIndex === undefined) return from.major !== to.major ? UpgradeKind.UNSUPPORTED : order > 0 ? UpgradeKind.DOWNGRADE : minorsKind(from.minor, to.minor);
  if (toIndex < fromIndex || (toIndex === fromIndex && order > 0)) return UpgradeKind.DOWNGRADE;
  return minorsKind(fromIndex, toIndex);
}

function minorsKind(from: number, to: number): UpgradeKind {
  const minors = to - from;
  if (minors === 0) return UpgradeKind.Z_STREAM;
  if (minors === 1) return UpgradeKind.MINOR;
  if (minors === 2 && from % 2 === 0) return UpgradeKind.EUS_TO_EUS;
  return UpgradeKind.UNSUPPORTED;
}

/** A control plane going back a minor: HyperShift refuses it whatever the force-upgrade-to annotation says. */
function minorDowngradeRefused(from: ReleaseVersion, to: ReleaseVersion, options: AssessUpgradeOptions): boolean {
  const fromIndex = openShiftMinorIndex(from);
  const toIndex = openShiftMinorIndex(to);
  return !options.releaseImageValidationSkipped && fromIndex !== undefined && toIndex !== undefined && toIndex < fromIndex;
}

function problemOf(kind: UpgradeKind, from: ReleaseVersion, to: ReleaseVersion, options: AssessUpgradeOptions): string | undefined {
  const f = formatVersion(from);
  const t = formatVersion(to);
  const fromIndex = openShiftMinorIndex(from);
  const z = `${from.major}.${from.minor}`;
  const next = fromIndex === undefined ? `${from.major}.${from.minor + 1}` : openShiftMinorName(fromIndex + 1);
  const force = 'forceUpgradeTo (the force-upgrade-to annotation) overrides';
  const accepted = options.nodePool ? `a node pool accepts any later release, up to its control plane's` : `a control plane accepts a later ${z}.z or ${next}.z, one minor at a time; ${force}`;
  switch (kind) {
    case UpgradeKind.NONE:
      return undefined;
    case UpgradeKind.DOWNGRADE:
      if (!options.nodePool && minorDowngradeRefused(from, to, options)) {
        return `goes back from ${f} to ${t}: OpenShift supports no downgrade, and HyperShift refuses a minor one even when forced (ValidReleaseImage False: IsValidReleaseVersion, support/supportedversion/version.go); a control plane accepts a later ${z}.z or ${next}.z, one minor at a time`;
      }
      return `goes back from ${f} to ${t}: OpenShift supports no downgrade; ${accepted}`;
    case UpgradeKind.UNSUPPORTED:
      if (fromIndex === undefined || openShiftMinorIndex(to) === undefined) return `updates from ${f} to ${t}, which changes the major version; ${accepted}`;
      if (options.nodePool) return undefined;
      return `updates from ${f} to ${t}, which skips ${skipped(from, to)}; ${accepted}`;
    case UpgradeKind.EUS_TO_EUS:
      if (!options.nodePool) return `updates from ${f} to ${t}, which skips ${skipped(from, to)}; ${accepted} (node pools may then go from ${z} to ${to.major}.${to.minor} directly)`;
      return undefined;
    default:
      return options.channel !== undefined && !options.nodePool ? channelProblem(options.channel, to) : undefined;
  }
}

/** The minors between two versions: `4.15 and 4.16`; `4.22 and 5.0` across the 4.23 = 5.0 bridge. */
function skipped(from: ReleaseVersion, to: ReleaseVersion): string {
  const first = openShiftMinorIndex(from)!;
  const last = openShiftMinorIndex(to)!;
  const minors = Array.from({ length: last - first - 1 }, (_, i) => openShiftMinorName(first + 1 + i));
  return minors.length > 1 ? `${minors.slice(0, -1).join(', ')} and ${minors[minors.length - 1]}` : minors[0];
}

function channelProblem(channel: string, to: ReleaseVersion): string | undefined {
  const problem = ReleaseChannel.of(channel).problemFor(to);
  return problem && `updates to ${formatVersion(to)}, but ${problem}`;
}

/**
 * Whether a force-upgrade-to value names the target: the target image itself when it is known (as
 * HyperShift compares the annotation with spec.release.image, so a digest names its release); else an
 * image whose tag, or a version, is the target's version.
 */
function names(options: AssessUpgradeOptions, version: ReleaseVersion): boolean {
  const target = options.forceUpgradeTo;
  if (target === undefined) return false;
  if (options.toImage !== undefined) return target === options.toImage;
  const named = Release.fromImage(target).version ?? Release.fromVersion(target).version;
  return named !== undefined && Release.compareVersions(named, version) === 0;
}
