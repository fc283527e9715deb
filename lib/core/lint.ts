import type { IConstruct } from 'constructs';

/**
 * Rules for values that are legal (the API server accepts them) but almost certainly not meant:
 * synth prints each finding as a warning, and `new HcpApp({ strict: true })` (or
 * `HCP_CDK_STRICT=1`) makes them errors. The ids are stable: name them in code review and docs.
 */
export const LINT_RULES = {
  /** The etcd volume is smaller than 1 GiB: etcd fills it within days and the control plane stops. */
  HCP_W001_TINY_ETCD_VOLUME: { id: 'HCP-W001', summary: 'etcd volume under 1 GiB' },
  /** A pool asks for more nodes than an OpenShift cluster supports (2,000). */
  HCP_W002_OVERSIZED_POOL: { id: 'HCP-W002', summary: 'node pool above 2,000 nodes' },
  /**
   * A release (a digest, or a tag that is not a version) whose OpenShift version is not given:
   * neither synth nor `hcp-cdk plan` can check its update paths or version skew.
   */
  HCP_W004_RELEASE_VERSION_UNKNOWN: { id: 'HCP-W004', summary: 'release without a known version' },
  /**
   * A release given by tag on a cluster that pulls through mirrors (`imageContentSources`): mirrors
   * match digests only, so the tag is read from the registry it names, and it can move.
   */
  HCP_W005_MIRRORED_RELEASE_TAG: { id: 'HCP-W005', summary: 'release by tag on a cluster that pulls through mirrors' },
  /**
   * An update that the channel's update graph (UpdateGraph) offers only as a conditional edge: the
   * update service recommends it only to clusters its risks do not apply to.
   */
  HCP_W006_CONDITIONAL_UPDATE: { id: 'HCP-W006', summary: 'update over a conditional edge of the update graph' },
  /** A KubeVirt cluster names a StorageClass its management cluster neither makes nor declares. */
  HCP_W010_UNKNOWN_HUB_STORAGE_CLASS: { id: 'HCP-W010', summary: 'storage class unknown to the KubeVirt hub' },
  /** Network interface multiqueue on a hub whose MTU is under the 9000 the docs advise for it. */
  HCP_W011_MULTIQUEUE_LOW_MTU: { id: 'HCP-W011', summary: 'multiqueue with MTU under 9000' },
} as const;

/**
 * The rules `hcp-cdk validate` applies to HostedClusters, NodePools and MetalLB pools written by hand
 * (or by anything else): what the docs, HyperShift and MetalLB refuse or cannot use although the API
 * server accepts it. The constructs enforce the same rules at synth (errors there, or the lint above),
 * from the same functions. Warnings by default, errors with `hcp-cdk validate --strict`.
 */
export const MANIFEST_LINT_RULES = {
  /** An etcd volume under 1 GiB (HCP-W001). */
  HCP_W001_TINY_ETCD_VOLUME: LINT_RULES.HCP_W001_TINY_ETCD_VOLUME,
  /** A node pool above 2,000 nodes (HCP-W002). */
  HCP_W002_OVERSIZED_POOL: LINT_RULES.HCP_W002_OVERSIZED_POOL,
  /** A release by tag on a cluster that pulls through mirrors, which match digests only (HCP-W005). */
  HCP_W005_MIRRORED_RELEASE_TAG: LINT_RULES.HCP_W005_MIRRORED_RELEASE_TAG,
  /** CIDRs of the machine, cluster and service networks that contain or overlap each other (the CRD's rule compares equal ranges only). */
  HCP_W101_NETWORKS_OVERLAP: { id: 'HCP-W101', summary: 'networks that contain or overlap each other' },
  /** A network that is no CIDR, has host bits set, lists a family twice, mixes families unlike the others, or is too small or too large. */
  HCP_W102_NETWORK_SHAPE: { id: 'HCP-W102', summary: 'network of a shape the cluster cannot use' },
  /** A service listed twice, or two services published on one Route or load-balancer hostname or one NodePort. */
  HCP_W103_SERVICES_SHARED: { id: 'HCP-W103', summary: 'service listed twice or endpoint shared' },
  /** APIServer, OAuthServer, Konnectivity or Ignition not published (the CRD counts the entries only). */
  HCP_W104_SERVICES_MISSING: { id: 'HCP-W104', summary: 'service the platform needs not published' },
  /** A platform type without the block of `spec.platform` its controllers read (aws, agent). */
  HCP_W105_PLATFORM_BLOCK: { id: 'HCP-W105', summary: 'platform block missing for its type' },
  /** APIServer published as a Route on a platform that cannot serve it, or without the hostname where the platform needs one. */
  HCP_W106_API_SERVER_ROUTE: { id: 'HCP-W106', summary: 'API server Route the platform cannot serve' },
  /** A fixed NodePort outside 30000-32767. */
  HCP_W107_NODE_PORT: { id: 'HCP-W107', summary: 'NodePort outside the NodePort range' },
  /** A cluster name over 53 characters, reserved by MCE, or making a control-plane namespace over 63. */
  HCP_W108_CLUSTER_NAME: { id: 'HCP-W108', summary: 'cluster name HyperShift or MCE cannot use' },
  /** A NodePool on another platform than its HostedCluster, or a release ahead of it or too far behind. */
  HCP_W111_POOL_OF_CLUSTER: { id: 'HCP-W111', summary: 'pool its cluster cannot run' },
  /**
   * A value whose syntax the docs give but the CRD does not check, or checks with an unanchored
   * pattern: `spec.channel` (catalogue §18.1 HC-07, doc 6.2: `<stable|fast|candidate|eus>-4.<minor>` of the
   * release's minor), `spec.pausedUntil` (HC-24, doc 12.5: `"true"` or an RFC 3339 time; the CRD's
   * `^\\d{4}-…T\\d{2}:\\d{2}:\\d{2}.*$` takes any tail, which HyperShift then reads as not paused).
   */
  HCP_W130_DOCUMENTED_SYNTAX: { id: 'HCP-W130', summary: 'value of a syntax the docs give and the CRD does not check' },
  /** Fields the docs call mutually exclusive: a Route hostname on a Private AWS cluster (catalogue §18.1 HC-14, doc 3.1.5.3 Table 3.3). */
  HCP_W131_EXCLUSIVE_FIELDS: { id: 'HCP-W131', summary: 'fields the docs call mutually exclusive' },
  /** A documented dependency that a schema default hides: autoRepair on an Agent pool without a nodeDrainTimeout (catalogue §18.3 NP-06, doc 4.2.4), which defaults to 0 (no limit). */
  HCP_W132_HIDDEN_DEPENDENCY: { id: 'HCP-W132', summary: 'documented dependency hidden by a default' },
  /** A MetalLB pool entry that is no address, range or CIDR, has host bits set, or overlaps another. */
  HCP_W120_METALLB_POOL: { id: 'HCP-W120', summary: 'MetalLB pool entries MetalLB refuses' },
  /** Pool addresses outside their cluster's machine network (layer 2), covering it whole, or in its pod, service or (BGP) machine network. */
  HCP_W121_METALLB_NETWORK: { id: 'HCP-W121', summary: 'MetalLB addresses outside their network' },
} as const;

/** A lint rule: its stable id (`HCP-W001`) and a short summary. */
export type LintRule = (typeof LINT_RULES)[keyof typeof LINT_RULES] | (typeof MANIFEST_LINT_RULES)[keyof typeof MANIFEST_LINT_RULES];

/** One lint finding: the construct, the rule and the message (field, value, why it is suspicious). */
export interface LintFinding {
  /** The construct path. */
  readonly path: string;
  /** The rule it breaks. */
  readonly rule: LintRule;
  /** The message: field, value and why it is suspicious. */
  readonly message: string;
}

const FINDING = 'hcp-cdk:lint';

/** Records a lint finding on `scope`; HcpApp collects them at synth. */
export function lint(scope: IConstruct, rule: LintRule, message: string): void {
  // App-wide checks run on every synth of an app; a finding is recorded once.
  const known = scope.node.metadata.some((e) => e.type === FINDING && (e.data as LintFinding).rule === rule && (e.data as LintFinding).message === message);
  if (!known) scope.node.addMetadata(FINDING, { rule, message });
}

/** Whether `scope` itself has a finding of `rule` recorded. */
export function hasLintFinding(scope: IConstruct, rule: LintRule): boolean {
  return scope.node.metadata.some((e) => e.type === FINDING && (e.data as LintFinding).rule === rule);
}

/** The findings recorded on the given constructs, in their order. */
export function lintFindings(constructs: readonly IConstruct[]): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const construct of constructs) {
    for (const entry of construct.node.metadata) {
      if (entry.type === FINDING) findings.push({ path: construct.node.path, ...(entry.data as { rule: LintRule; message: string }) });
    }
  }
  return findings;
}

/** `<path>: <message> [HCP-W001]`. */
export function formatLintFinding(finding: LintFinding): string {
  return `${finding.path}: ${finding.message} [${finding.rule.id}]`;
}

const NOTICE = 'hcp-cdk:notice';

/**
 * Records a notice on `scope`: something the user must do or know outside the output (a callback
 * URL to register, a user that stops working), printed at synth. Never an error, not even with strict.
 */
export function notice(scope: IConstruct, message: string): void {
  if (!scope.node.metadata.some((e) => e.type === NOTICE && e.data === message)) scope.node.addMetadata(NOTICE, message);
}

/** `<path>: <message>` for the notices recorded on the given constructs, in their order. */
export function noticesOf(constructs: readonly IConstruct[]): string[] {
  return constructs.flatMap((c) => c.node.metadata.filter((e) => e.type === NOTICE).map((e) => `${c.node.path}: ${e.data as string}`));
}
