import type { LiveHyperShiftVersion } from './live-hypershift-version';

/** What `plan --live` found on the management cluster that the two outputs alone cannot tell. */
export enum LiveFindingKind {
  /** A control-plane upgrade in progress (or not yet started) that this commit's changes meet; refused when the commit upgrades further. */
  UPGRADE_IN_PROGRESS = 'upgrade-in-progress',
  /** A hosted cluster's first install, not completed yet, that this commit's changes meet; refused when the commit upgrades further. */
  INSTALL_IN_PROGRESS = 'install-in-progress',
  /** HyperShift has not reconciled the object's current spec yet: what its status says is about the spec before. */
  NOT_RECONCILED = 'not-reconciled',
  /** HyperShift refuses the spec the object holds (a Valid* condition, the version skew), or blocks its upgrade (Progressing False, reason Blocked). */
  HYPERSHIFT_REFUSES = 'hypershift-refuses',
  /** Reconciliation of the object is paused (spec.pausedUntil). */
  PAUSED = 'paused',
  /** The object is being deleted. */
  DELETING = 'deleting',
  /** HyperShift reports the object degraded: a control-plane component unavailable, a pool that cannot get machines, auto-repair stopped, an in-place update failed. */
  DEGRADED = 'degraded',
  /** A NodePool still rolling out a version or configuration, or waiting for machines after its first rollout. */
  POOL_ROLLING = 'pool-rolling',
  /** A pool's release checked against the version the control plane reports, not the one its spec names. */
  VERSION_SKEW = 'version-skew',
  /** A hosted cluster this commit changes that is not Available. */
  NOT_AVAILABLE = 'not-available',
  /** The cluster serves no kind of some of the output's objects: their CRD is not installed (once per kind). */
  MISSING_CRD = 'missing-crd',
  /** Most objects of the last committed output are not on the cluster: another cluster than the management folder's, or one never synced (instead of a drift finding per object). */
  WRONG_CLUSTER = 'wrong-cluster',
  /** Fields of the last committed output that the live object no longer has (edited by hand, or by another controller), or an object gone. */
  DRIFT = 'drift',
  /** An object protected from pruning that this commit removes from the output, and that stays on the cluster. */
  LEFT_IN_PLACE = 'left-in-place',
}

/** One field of a live object that differs from the last committed output. */
export interface LiveFieldDrift {
  /** The field, as plan writes paths: `spec.replicas`, `metadata.labels["a/b"]`. */
  readonly path: string;
  /** The value of the last committed output. */
  readonly committed?: unknown;
  /** The value on the cluster; absent when the field is gone. */
  readonly live?: unknown;
  /** The value of the new output, which applying it sets; absent when the new output does not set the field (or drops the object). */
  readonly next?: unknown;
}

/** One finding, about one object. */
export interface LiveFinding {
  /** What was found. */
  readonly finding: LiveFindingKind;
  /**
   * Whether HyperShift would not carry out this commit's change while the cluster is as it is
   * (an upgrade on top of one in progress, a pool ahead of the version its control plane runs):
   * a plan with one exits 1, as with a refused change.
   */
  readonly refused: boolean;
  /** The hosted cluster, `<management folder>/<namespace>/<name>`, when the object belongs to one. */
  readonly cluster?: string;
  /**
   * The object's apiVersion: for missing-crd `apiextensions.k8s.io/v1`; for wrong-cluster
   * `hcp-cdk.io/v1alpha1`, kind `ManagementCluster`, named after the management folder (no such
   * object is on a cluster: the finding is about the cluster as a whole).
   */
  readonly apiVersion: string;
  /** The object's kind (missing-crd: CustomResourceDefinition; wrong-cluster: ManagementCluster). */
  readonly kind: string;
  /** The object's namespace. @default - none: cluster-scoped */
  readonly namespace?: string;
  /** The object's name (missing-crd: the CRD's; wrong-cluster: the management folder). */
  readonly name: string;
  /** One line for people. */
  readonly summary: string;
  /** The fields that drifted (drift only). */
  readonly fields?: readonly LiveFieldDrift[];
  /** Finding-specific facts for machines; see the JSON Schema. */
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What plan read from the management cluster and found there. */
export interface LiveReport {
  /** The kubeconfig context read. */
  readonly context: string;
  /** Its API server. */
  readonly server: string;
  /** The management folder of the outputs that this cluster runs. */
  readonly managementFolder: string;
  /** How many objects of the outputs were looked up (Secrets are not read). */
  readonly objectsRead: number;
  /** How many of them the cluster holds. */
  readonly objectsFound: number;
  /** The HyperShift version whose rules the plan applied for this cluster, and where it comes from. @default - not reported (a plan of an older hcp-cdk) */
  readonly hyperShift?: LiveHyperShiftVersion;
  /** Refused first, then by cluster and object. */
  readonly findings: readonly LiveFinding[];
}

/** `1 refused, 2 drift, ...` counts by finding, refused first; empty without findings. */
export function liveCountsLine(report: LiveReport): string {
  const refused = report.findings.filter((f) => f.refused).length;
  const counts = Object.values(LiveFindingKind)
    .map((kind) => [kind, report.findings.filter((f) => f.finding === kind).length] as const)
    .filter(([, n]) => n > 0);
  return [...(refused > 0 ? [`${refused} refused`] : []), ...counts.map(([kind, n]) => `${n} ${kind}`)].join(', ');
}
