import { Chart } from 'cdk8s';
import type { IConstruct } from 'constructs';
import { nearestInScopes } from '../core/construct-walk';
import { show } from '../core/problems';
import type { ReleaseVersion } from './release';

/**
 * hcp-cdk's record, on each HostedCluster of an output, of the HyperShift version its management
 * cluster states (`ManagementCluster`'s `hyperShift`): `4.17`, or `mce-2.7` for a multicluster
 * engine. HyperShift ignores it; `hcp-cdk plan`, which reads only the output, applies that
 * operator's version rules, as synth did. Absent when the management cluster states none.
 */
export const HYPERSHIFT_VERSION_ANNOTATION = 'hcp-cdk.io/hypershift-version';

/**
 * How far behind its control plane a HyperShift operator lets a NodePool run, by the operator's
 * version (see `HyperShiftVersion.nodePoolSkew`). Each names the upstream code it follows.
 */
export enum NodePoolSkewPolicy {
  /**
   * Up to three minors behind on every 4.y, 5.y counting as 4.(23+y): `ValidateVersionSkew`
   * (support/supportedversion/version.go), which the NodePool controller's
   * `supportedVersionSkewCondition` (hypershift-operator/controllers/nodepool/conditions.go) turns
   * into `SupportedVersionSkew` False, reason `UnsupportedSkew`, and the CLI's
   * `validMinorVersionCompatibility` (cmd/nodepool/core/create.go) into a refusal. HyperShift 4.21
   * on: added in 9e7dc5aa58 (2025-11-05), 5.y counted as 4.y since 55c6fcad43 (2026-04-14).
   */
  THREE_MINORS = 'n-3',
  /**
   * Up to two minors behind a control plane on an even minor, one on an odd one: the CLI's
   * `validMinorVersionCompatibility` (cmd/nodepool/core/create.go, added in fa1623a896, 2025-03-20)
   * of HyperShift 4.19 and 4.20 (branches release-4.19, release-4.20), which refuses to create such
   * a pool; their operators check no skew.
   */
  TWO_ON_EVEN_ONE_ON_ODD = 'even-2-odd-1',
  /**
   * No limit: HyperShift up to 4.18 checks no skew. Its NodePool controller
   * (`getReleaseImage` → `IsValidReleaseVersion`) refuses only a pool's minor newer than its control
   * plane's or older than the operator's oldest supported version (see `HyperShiftVersion.minSupported`).
   */
  NOT_CHECKED = 'not-checked',
}

/** The HyperShift operator of each OpenShift minor: its oldest supported version and its skew policy, from its release branch. */
interface OperatorRules {
  /** The newest minor (as 4.y) of the operators these rules hold for. */
  readonly upTo: number;
  /** `MinSupportedVersion` of support/supportedversion/version.go on the branch. */
  readonly minSupported: number;
  readonly nodePoolSkew: NodePoolSkewPolicy;
}

// release-4.14 and release-4.15: MinSupportedVersion = LatestSupportedVersion - SupportedPreviousMinorVersions (2);
// release-4.16: 4.13; release-4.17 on (and main at 3ee9615567): 4.14.
const OPERATORS: readonly OperatorRules[] = [
  { upTo: 14, minSupported: 12, nodePoolSkew: NodePoolSkewPolicy.NOT_CHECKED },
  { upTo: 16, minSupported: 13, nodePoolSkew: NodePoolSkewPolicy.NOT_CHECKED },
  { upTo: 18, minSupported: 14, nodePoolSkew: NodePoolSkewPolicy.NOT_CHECKED },
  { upTo: 20, minSupported: 14, nodePoolSkew: NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD },
  { upTo: Infinity, minSupported: 14, nodePoolSkew: NodePoolSkewPolicy.THREE_MINORS },
];
/** The oldest operator whose rules hcp-cdk knows: that of OpenShift 4.14 (MCE 2.4). */
const OLDEST_KNOWN = 14;
/** The newest operator whose rules hcp-cdk read: HyperShift main at 3ee9615567, whose LatestSupportedVersion is 5.1 (4.24 counted as 4.y). */
const NEWEST_READ = 24;
/** OpenShift 5.0 is 4.23 (dual versioning): `v5MinorOffset` of support/supportedversion/version.go. */
const V5_MINOR_OFFSET = 23;
// MCE 2.y ships the HyperShift operator of OpenShift 4.(y+10): the OpenShift docs' support matrix for hosted
// control planes maps MCE 2.4 to 2.7 to hosted clusters up to 4.14 to 4.17; later minors follow the pattern.
const MCE_TO_OPENSHIFT = 10;
const MCE_KNOWN = { oldest: 4, newest: 12 };

const OPENSHIFT_MINOR = /^(4|5)\.(0|[1-9]\d?)$/;
const MCE_VERSION = /^2\.(0|[1-9]\d?)(?:\.(?:0|[1-9]\d*))?$/;
const RECORD = /^mce-(.+)$/;

/**
 * The position of a version among OpenShift minors, counting 5.y as 4.(23+y) as HyperShift does
 * (`normalizeToV4`, support/supportedversion/version.go): 4.22 → 22, 5.0 → 23, 5.1 → 24.
 * @returns undefined for a major HyperShift does not compare (neither 4 nor 5)
 */
export function openShiftMinorIndex(version: Pick<ReleaseVersion, 'major' | 'minor'>): number | undefined {
  if (version.major === 4) return version.minor;
  if (version.major === 5) return version.minor + V5_MINOR_OFFSET;
  return undefined;
}

/** `4.17` for index 17, `5.0` for 23: the minor as OpenShift names it (4.23 is named 5.0, its second name). */
export function openShiftMinorName(index: number): string {
  return index >= V5_MINOR_OFFSET ? `5.${index - V5_MINOR_OFFSET}` : `4.${index}`;
}

/**
 * The HyperShift operator that runs on a management cluster, named by the OpenShift minor it was
 * released for (its `LatestSupportedVersion`, the newest hosted-cluster version it accepts) or by the
 * multicluster engine (MCE) that ships it. It decides the version rules that operator applies: which
 * hosted-cluster versions it accepts (`minSupported` to `latestSupported`) and how far a NodePool may
 * run behind its control plane (`nodePoolSkew`).
 */
export class HyperShiftVersion {
  /**
   * The operator of OpenShift `4.y` (or `5.y`), e.g. `'4.17'`: the one on HyperShift's `release-4.17`
   * branch, whose `supported-versions` ConfigMap lists 4.17 first. 4.23 and 5.0 are one release.
   * Operators from 4.14 on; one newer than 5.1 (HyperShift main at the commit hcp-cdk's CRDs pin) is
   * taken to have main's rules.
   */
  public static ofOpenShift(minor: string): HyperShiftVersion {
    const match = typeof minor === 'string' ? OPENSHIFT_MINOR.exec(minor) : null;
    const index = match ? openShiftMinorIndex({ major: Number(match[1]), minor: Number(match[2]) }) : undefined;
    if (index === undefined || index < OLDEST_KNOWN) {
      return new HyperShiftVersion(
        OLDEST_KNOWN,
        `hyperShift (${show(minor)}) must be the OpenShift minor a HyperShift operator was released for, 4.14 or later, such as 4.17 or 5.0`,
        typeof minor === 'string' ? minor : String(minor),
      );
    }
    return new HyperShiftVersion(index);
  }

  /**
   * The operator a multicluster engine version ships, e.g. `'2.7'` (or `'2.7.3'`: a z-stream of MCE
   * brings no new operator): MCE 2.y ships that of OpenShift 4.(y+10), so MCE 2.7 runs HyperShift 4.17
   * (the support matrix of the OpenShift docs' hosted control planes chapter). MCE 2.4 to 2.12.
   */
  public static ofMultiClusterEngine(version: string): HyperShiftVersion {
    const match = typeof version === 'string' ? MCE_VERSION.exec(version) : null;
    const mceMinor = match ? Number(match[1]) : undefined;
    if (mceMinor === undefined || mceMinor < MCE_KNOWN.oldest || mceMinor > MCE_KNOWN.newest) {
      return new HyperShiftVersion(
        OLDEST_KNOWN,
        `hyperShift (multicluster engine ${show(version)}) must be an MCE version from 2.${MCE_KNOWN.oldest} to 2.${MCE_KNOWN.newest}, such as 2.7; for another, give the HyperShift operator's OpenShift minor: HyperShiftVersion.ofOpenShift('4.17')`,
        typeof version === 'string' ? version : String(version),
      );
    }
    return new HyperShiftVersion(mceMinor + MCE_TO_OPENSHIFT, undefined, undefined, `2.${mceMinor}`);
  }

  /** What `record` wrote (`4.17`, `mce-2.7`), as an output's HostedCluster or an inventory gives it. */
  public static fromRecord(text: string): HyperShiftVersion {
    const mce = typeof text === 'string' ? RECORD.exec(text) : null;
    return mce ? HyperShiftVersion.ofMultiClusterEngine(mce[1]) : HyperShiftVersion.ofOpenShift(text);
  }

  /** The newest hosted-cluster minor the operator accepts (`LatestSupportedVersion`), e.g. 4.17. */
  public readonly latestSupported: ReleaseVersion;
  /** The oldest hosted-cluster minor it accepts (`MinSupportedVersion`), e.g. 4.14. */
  public readonly minSupported: ReleaseVersion;
  /** How far behind its control plane it lets a NodePool run. */
  public readonly nodePoolSkew: NodePoolSkewPolicy;
  /** The multicluster engine version it was named by, e.g. `2.7`. */
  public readonly multiClusterEngine?: string;
  /** Why the version given is not one hcp-cdk knows, or undefined. */
  public readonly problem?: string;
  /** `4.17`, or `mce-2.7`: what the output records (`hcp-cdk.io/hypershift-version`). */
  public readonly record: string;
  /** For messages: `HyperShift 4.17 (MCE 2.7)`. */
  public readonly name: string;
  /** Whether the operator is newer than the rules hcp-cdk read, which it is taken to share. */
  public readonly newerThanRead: boolean;

  private constructor(index: number, problem?: string, given?: string, multiClusterEngine?: string) {
    const rules = OPERATORS.find((o) => index <= o.upTo)!;
    this.latestSupported = versionAt(index);
    this.minSupported = versionAt(rules.minSupported);
    this.nodePoolSkew = rules.nodePoolSkew;
    this.multiClusterEngine = multiClusterEngine;
    this.problem = problem;
    this.newerThanRead = index > NEWEST_READ;
    this.record = problem ? (given ?? '') : multiClusterEngine ? `mce-${multiClusterEngine}` : openShiftMinorName(index);
    this.name = `HyperShift ${openShiftMinorName(index)}${multiClusterEngine ? ` (MCE ${multiClusterEngine})` : ''}`;
  }

  /** Whether `other` names the same operator, by OpenShift minor or by MCE: HyperShift 4.17 is MCE 2.7's. */
  public sameOperatorAs(other: HyperShiftVersion): boolean {
    return openShiftMinorIndex(this.latestSupported) === openShiftMinorIndex(other.latestSupported);
  }
}

function versionAt(index: number): ReleaseVersion {
  return index >= V5_MINOR_OFFSET ? { major: 5, minor: index - V5_MINOR_OFFSET, patch: 0 } : { major: 4, minor: index, patch: 0 };
}

/** The management cluster a construct is on, as messages name it, and the HyperShift version it states. */
export interface HubHyperShift {
  /** The management cluster's name: its construct id, the output folder `hcp-cdk plan` names. @default - unknown */
  readonly hub?: string;
  /** The HyperShift operator it runs. @default - not stated: HyperShift main's skew rule, no supported range */
  readonly hyperShift?: HyperShiftVersion;
}

const declared = new WeakMap<IConstruct, HyperShiftVersion>();

/** Records that management cluster `hub` runs `version` (what ManagementCluster's `hyperShift` does). */
export function declareHyperShiftVersion(hub: IConstruct, version: HyperShiftVersion): void {
  declared.set(hub, version);
}

/** The management cluster of `construct` (the nearest scope stating a HyperShift version, else its chart) and that version. */
export function hubHyperShiftOf(construct: IConstruct): HubHyperShift {
  const stating = nearestInScopes(construct, (scope) => (declared.has(scope) ? scope : undefined));
  if (stating) return { hub: stating.node.id, hyperShift: declared.get(stating) };
  const chart = nearestInScopes(construct, (scope) => (Chart.isChart(scope) ? scope : undefined));
  return chart ? { hub: chart.node.id } : {};
}

/** The HyperShift version an output's HostedCluster records (`hcp-cdk.io/hypershift-version`), or undefined. */
export function recordedHyperShiftVersion(hostedCluster: any): HyperShiftVersion | undefined {
  const record = hostedCluster?.metadata?.annotations?.[HYPERSHIFT_VERSION_ANNOTATION];
  if (typeof record !== 'string') return undefined;
  const version = HyperShiftVersion.fromRecord(record);
  return version.problem ? undefined : version;
}
