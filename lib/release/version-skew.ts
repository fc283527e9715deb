import { HubHyperShift, NodePoolSkewPolicy, openShiftMinorIndex, openShiftMinorName } from './hypershift-version';
import { formatVersion, Release, type ReleaseVersion } from './release';

/**
 * The version rules of a management cluster's HyperShift operator: which hosted-cluster versions it
 * accepts and how far a NodePool may run behind its control plane. With no HyperShift version stated,
 * the skew policy of HyperShift main at the commit hcp-cdk's CRDs pin (3ee9615567) applies, and no
 * supported range is checked (it depends on the operator installed).
 */
export type VersionRulesOptions = HubHyperShift;

const SOURCES: Readonly<Record<NodePoolSkewPolicy, string>> = {
  [NodePoolSkewPolicy.THREE_MINORS]: 'ValidateVersionSkew, support/supportedversion/version.go',
  [NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD]: 'validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20',
  [NodePoolSkewPolicy.NOT_CHECKED]: 'IsValidReleaseVersion, support/supportedversion/version.go, from the NodePool controller',
};

/** `HyperShift 4.17 (MCE 2.7) on hub "x"`, or HyperShift main as the default when the hub states no version. */
export function hyperShiftOnHub(options: VersionRulesOptions): string {
  const hub = options.hub === undefined ? '' : ` on hub ${JSON.stringify(options.hub)}`;
  if (options.hyperShift) return `${options.hyperShift.name}${hub}`;
  return `HyperShift main (hcp-cdk's default: ${options.hub === undefined ? 'the hub' : `hub ${JSON.stringify(options.hub)}`} states no HyperShift version)`;
}

/** The skew policy the hub's operator applies. */
export function nodePoolSkewPolicyOf(options: VersionRulesOptions): NodePoolSkewPolicy {
  return options.hyperShift?.nodePoolSkew ?? NodePoolSkewPolicy.THREE_MINORS;
}

/**
 * The most minors a NodePool may be behind a control plane of `controlPlane` under the hub's
 * operator: three (HyperShift 4.21 on, and the default); two on an even minor and one on an odd one
 * (4.19 and 4.20); undefined when the operator checks no skew (up to 4.18).
 */
export function maxNodePoolMinorSkew(controlPlane: ReleaseVersion, options: VersionRulesOptions = {}): number | undefined {
  switch (nodePoolSkewPolicyOf(options)) {
    case NodePoolSkewPolicy.THREE_MINORS:
      return 3;
    case NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD:
      return controlPlane.minor % 2 === 0 ? 2 : 1;
    default:
      return undefined;
  }
}

/**
 * Why a NodePool at `pool` is not supported under a control plane at `controlPlane` by the hub's
 * operator, or undefined: never newer (doc 6.6; HyperShift's `ValidateVersionSkew` compares the whole
 * version, and its NodePool controller refuses a newer minor), never further behind than the hub's
 * skew policy allows (`maxNodePoolMinorSkew`). The sentence names the operator, the rule and its source.
 */
export function nodePoolSkewProblem(pool: ReleaseVersion, controlPlane: ReleaseVersion, options: VersionRulesOptions = {}): string | undefined {
  const p = formatVersion(pool);
  const c = formatVersion(controlPlane);
  const policy = nodePoolSkewPolicyOf(options);
  const poolIndex = openShiftMinorIndex(pool);
  const controlIndex = openShiftMinorIndex(controlPlane);
  // HyperShift counts 5.y as 4.(23+y) (normalizeToV4) and compares no other major.
  if (poolIndex === undefined || controlIndex === undefined) {
    return pool.major === controlPlane.major ? undefined : `is ${p}, another major version than the control plane's ${c}; HyperShift compares only 4.y and 5.y versions`;
  }
  const newer = poolIndex > controlIndex || (poolIndex === controlIndex && Release.compareVersions({ ...pool, major: controlPlane.major, minor: controlPlane.minor }, controlPlane) > 0);
  if (newer) {
    const refusal =
      poolIndex > controlIndex
        ? "HyperShift's NodePool controller refuses a newer minor (ValidReleaseImage False: IsValidReleaseVersion)"
        : policy === NodePoolSkewPolicy.THREE_MINORS
          ? `HyperShift reports SupportedVersionSkew False (${SOURCES[policy]})`
          : undefined;
    return `is ${p}, newer than the control plane's ${c}; node pools must not run ahead of the control plane (doc 6.6)${refusal ? `, and ${refusal}` : ''}: update the cluster first`;
  }
  if (policy === NodePoolSkewPolicy.TWO_ON_EVEN_ONE_ON_ODD && pool.major !== controlPlane.major) {
    return `is ${p}, another major version than the control plane's ${c}`;
  }
  const allowed = maxNodePoolMinorSkew(controlPlane, options);
  const behind = controlIndex - poolIndex;
  if (allowed === undefined || behind <= allowed) return undefined;
  const oldest = openShiftMinorName(controlIndex - allowed);
  const rule =
    policy === NodePoolSkewPolicy.THREE_MINORS
      ? 'allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23)'
      : 'allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one';
  const consequence =
    policy === NodePoolSkewPolicy.THREE_MINORS
      ? 'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one'
      : 'its CLI refuses to create such a pool';
  return `is ${p}, ${behind} minors behind the control plane's ${c}; ${hyperShiftOnHub(options)} ${rule}, so ${oldest} or later here: ${consequence} (${SOURCES[policy]})`;
}

/**
 * Why the hub's operator does not accept a hosted cluster or NodePool release of `version`, or
 * undefined (also when the hub states no HyperShift version): HyperShift's `IsValidReleaseVersion`
 * (support/supportedversion/version.go) refuses a minor newer than `LatestSupportedVersion` or older
 * than `MinSupportedVersion`, which the HostedCluster controller (`validateReleaseImage`) and the
 * NodePool controller (`getReleaseImage`) report as ValidReleaseImage False and then reconcile no further.
 * @param what what the version is of, for the consequence: the cluster or a pool
 */
export function unsupportedReleaseProblem(version: ReleaseVersion, options: VersionRulesOptions, what: 'cluster' | 'pool'): string | undefined {
  const hyperShift = options.hyperShift;
  const index = openShiftMinorIndex(version);
  if (!hyperShift || index === undefined) return undefined;
  const latest = openShiftMinorIndex(hyperShift.latestSupported)!;
  const oldest = openShiftMinorIndex(hyperShift.minSupported)!;
  if (index >= oldest && index <= latest) return undefined;
  const range = `${openShiftMinorName(oldest)} to ${openShiftMinorName(latest)}`;
  const blocked =
    what === 'cluster'
      ? 'the HostedCluster controller sets ValidReleaseImage False and reconciles the cluster no further'
      : 'the NodePool controller sets ValidReleaseImage False and does not reconcile the pool';
  const remedy = index > latest ? `; upgrade the hub's HyperShift operator${hyperShift.multiClusterEngine ? ' (a new MCE minor)' : ''} first` : '';
  return `is ${formatVersion(version)}, ${index > latest ? 'newer' : 'older'} than ${hyperShiftOnHub(options)} supports (${range}): ${blocked} (IsValidReleaseVersion, support/supportedversion/version.go)${remedy}`;
}

/** The last OpenShift minor (as 4.y) whose clusters HyperShift runs on OpenShiftSDN, and before which it refuses OVNKubernetes. */
const LAST_SDN_MINOR = 10;

/**
 * Why HyperShift refuses a hosted cluster of `version` with network plugin `networkType`, or
 * undefined: `IsValidReleaseVersion` (support/supportedversion/version.go, the same on every release
 * branch from 4.14 and on main) refuses OpenShiftSDN after 4.10 (but on PowerVS, which hcp-cdk does
 * not make) and OVNKubernetes up to 4.10, whichever operator the hub runs; the HostedCluster
 * controller (`validateReleaseImage`) then sets ValidReleaseImage False. Other plugins are not checked.
 */
export function networkTypeReleaseProblem(version: ReleaseVersion, networkType: string): string | undefined {
  const index = openShiftMinorIndex(version);
  if (index === undefined) return undefined;
  const v = JSON.stringify(formatVersion(version));
  const refusal =
    networkType === 'OpenShiftSDN' && index > LAST_SDN_MINOR
      ? { words: `OpenShiftSDN after 4.${LAST_SDN_MINOR}`, go: `cannot use OpenShiftSDN with OCP version ${v} > 4.${LAST_SDN_MINOR}`, instead: 'OVNKubernetes' }
      : networkType === 'OVNKubernetes' && index <= LAST_SDN_MINOR
        ? { words: `OVNKubernetes up to 4.${LAST_SDN_MINOR}`, go: `cannot use OVNKubernetes with OCP version ${v} < 4.${LAST_SDN_MINOR + 1}`, instead: 'OpenShiftSDN' }
        : undefined;
  if (!refusal) return undefined;
  return (
    `cannot run release ${formatVersion(version)}: HyperShift refuses ${refusal.words} (ValidReleaseImage False: ${refusal.go}; IsValidReleaseVersion, support/supportedversion/version.go) ` +
    `and reconciles the cluster no further; use ${refusal.instead}`
  );
}
