import { formatVersion, Release, type ReleaseVersion } from '../../release/release';
import { releaseVersionOf } from '../../release/release-version';
import { hostedClusterStatus } from '../../status/hosted-cluster-status';
import { assessUpgrade, UpgradeKind } from '../../release/upgrade-path';
import { nodePoolSkewProblem, type VersionRulesOptions } from '../../release/version-skew';
import { FORCE_UPGRADE_TO_ANNOTATION } from '../../release/upgrade-settings';
import { isPlainObject } from '../../core/runtime-props';
import { HyperShiftStatus, ProgressReason, StatusState } from '../../status/status-report';
import { carriesPruneProtection } from '../change-effects';
import { ChangeEffect, Plan, PlanAction, PlannedObject } from '../plan-report';
import { LiveTarget, missingCrdFindings, wrongClusterFinding } from './cluster-fit';
import { LiveFieldDrift, LiveFinding, LiveFindingKind } from './live-report';
import { liveStatus, statusFinding } from './status-findings';

/** One object of the management folder: the last committed output's, the new output's and the cluster's. */
export interface LiveObjectState {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  /** Its file: the new output's, else the previous one's (as the plan names it). */
  readonly file: string;
  /** The hosted cluster it belongs to, as plan names clusters. */
  readonly cluster?: string;
  /** In the last committed output (the plan's previous side). */
  readonly committed?: any;
  /** In the new output. */
  readonly next?: any;
  /** Whether the cluster serves the kind at all (its CRD installed). */
  readonly served: boolean;
  /** On the cluster; undefined when it is not there. */
  readonly live?: any;
}

/**
 * What the management cluster's state means for a plan: what HyperShift reports on the clusters the
 * commit changes (by hcp-cdk's model of its status, lib/status: an install or upgrade in progress
 * that the commit meets or would upgrade on top of, a spec it refuses or an upgrade it blocks, a
 * pause, a deletion, a degraded cluster or pool, a pool still rolling, a spec not reconciled yet),
 * pools checked against the version the control plane reports, changed clusters that are not
 * Available, kinds the cluster does not serve, drift from the last committed output (or, when most
 * of it is absent, one finding that the cluster looks like another), and protected objects the
 * commit removes that stay on the cluster. Refused findings first, then by cluster and file.
 */
export function liveFindings(plan: Plan, states: readonly LiveObjectState[], target?: LiveTarget, rules: VersionRulesOptions = {}): LiveFinding[] {
  const planned = new Map(plan.objects.map((o) => [o.file, o]));
  const changedClusters = new Set(plan.summary.clustersChanged);
  const hostedClusters = new Map(states.filter((s) => s.kind === 'HostedCluster').map((s) => [`${s.namespace}/${s.name}`, s]));
  const wrongCluster = target && wrongClusterFinding(states, target);
  const findings: LiveFinding[] = wrongCluster ? [wrongCluster] : missingCrdFindings(states);
  for (const state of states) {
    const object = planned.get(state.file);
    const found = (finding: LiveFindingKind, refused: boolean, summary: string, extra: Partial<LiveFinding> = {}): void => {
      findings.push({
        finding,
        refused,
        ...(state.cluster ? { cluster: state.cluster } : {}),
        apiVersion: state.apiVersion,
        kind: state.kind,
        ...(state.namespace ? { namespace: state.namespace } : {}),
        name: state.name,
        summary,
        ...extra,
      });
    };
    const status = state.live && state.cluster && changedClusters.has(state.cluster) ? liveStatus(state.kind, state.live) : undefined;
    if (status && (state.next || state.kind === 'HostedCluster')) {
      const reported = statusFinding(status);
      if (reported) found(reported.finding, false, reported.summary, { details: reported.details });
    }
    if (status && state.kind === 'HostedCluster') {
      const upgrade = upgradeFinding(state, object, status);
      if (upgrade) found(upgrade.finding, upgrade.refused, upgrade.summary, { details: upgrade.details });
      const unavailable = availabilityProblem(state.live);
      if (unavailable) found(LiveFindingKind.NOT_AVAILABLE, false, unavailable.summary, { details: unavailable.details });
    }
    if (state.kind === 'NodePool' && state.next) {
      const skew = liveSkew(state, hostedClusters.get(`${state.namespace}/${state.next.spec?.clusterName}`), plan, rules);
      if (skew) found(LiveFindingKind.VERSION_SKEW, true, skew.summary, { details: skew.details });
    }
    // On what looks like another cluster, drift is the one wrong-cluster finding, not a finding per object.
    if (state.committed && state.live && !wrongCluster) {
      const fields = driftOf(state.committed, state.live, state.next);
      if (fields.length > 0) {
        const applied = state.next ? 'applying this commit sets the fields the new output names as it names them' : 'this commit removes the object from the output';
        found(
          LiveFindingKind.DRIFT,
          false,
          `${fields.length === 1 ? '1 field differs' : `${fields.length} fields differ`} from the last committed output: changed on the cluster since the last sync, by hand or by another controller; ${applied}`,
          { fields },
        );
      }
    } else if (state.committed && state.served && !state.live && state.next && !wrongCluster) {
      found(
        LiveFindingKind.DRIFT,
        false,
        'not on the cluster, though the last committed output has it: deleted since the last sync, or that commit is not applied yet; applying this commit creates it again',
        { details: { missing: true } },
      );
    }
    if (object?.action === PlanAction.DELETE && state.live && carriesPruneProtection(state.committed)) {
      const command = `oc delete ${state.kind.toLowerCase()}/${state.name}${state.namespace ? ` -n ${state.namespace}` : ''}`;
      found(LiveFindingKind.LEFT_IN_PLACE, false, `on the cluster and protected from pruning, so it stays after this commit, managed by no commit; delete it by hand if that is meant (${command})`);
    }
  }
  const order = (f: LiveFinding): string => `${f.refused ? 0 : 1}|${f.cluster ?? '~'}|${f.kind}|${f.namespace ?? ''}|${f.name}|${Object.values(LiveFindingKind).indexOf(f.finding)}`;
  return findings.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}

/** The version a control plane reports running: its newest Completed history entry, else the desired release. */
export function reportedVersion(live: any): { version: ReleaseVersion; source: string } | undefined {
  const history: any[] = Array.isArray(live?.status?.version?.history) ? live.status.version.history : [];
  const completed = history.find((entry) => entry?.state === 'Completed' && typeof entry.version === 'string');
  const parsed = completed && Release.fromVersion(completed.version).version;
  if (parsed) return { version: parsed, source: 'its newest Completed status.version.history entry' };
  const desired = live?.status?.version?.desired?.version;
  const fromDesired = typeof desired === 'string' ? Release.fromVersion(desired).version : undefined;
  return fromDesired ? { version: fromDesired, source: 'status.version.desired; no history entry is Completed' } : undefined;
}

/**
 * A release the control plane is still taking up, by hcp-cdk's model of its status
 * (hostedClusterStatus): its first install (no history entry Completed), an upgrade rolling out (the
 * newest entry Partial), or a spec HyperShift has not started yet; undefined for none.
 */
export function upgradeUnderway(live: any, status: HyperShiftStatus = hostedClusterStatus(live)): { install: boolean; version?: string; image?: string; how: string } | undefined {
  if (status.state !== StatusState.PROGRESSING) return undefined;
  const history: any[] = Array.isArray(live?.status?.version?.history) ? live.status.version.history : [];
  const newest = history[0];
  const desired = live?.status?.version?.desired;
  const since = newest?.startedTime ? ` since ${newest.startedTime}` : '';
  switch (status.progress) {
    case ProgressReason.INSTALLING:
      return {
        install: true,
        version: desired?.version || newest?.version || undefined,
        image: newest?.image ?? live?.spec?.release?.image,
        how: history.length > 0 ? 'no status.version.history entry is Completed yet' : 'HyperShift reports no version yet',
      };
    case ProgressReason.UPGRADING:
    case ProgressReason.UPGRADE_PENDING: {
      // A spec not taken yet while an upgrade rolls: the release in progress is the Partial one.
      if (newest?.state === 'Partial') return { install: false, version: newest.version || undefined, image: newest.image, how: `status.version.history[0] is Partial${since}` };
      const version = releaseVersionOf(live);
      return {
        install: false,
        version: version && formatVersion(version),
        image: live?.spec?.release?.image,
        how: `spec.release.image names it, but status.version.desired is still ${desired?.version || desired?.image}: HyperShift has not started it yet`,
      };
    }
    default:
      return undefined;
  }
}

/** What a release under way means for this commit: refused when the commit upgrades past it by a minor or more. */
function upgradeFinding(
  state: LiveObjectState,
  object: PlannedObject | undefined,
  status: HyperShiftStatus,
): { finding: LiveFindingKind; refused: boolean; summary: string; details: Record<string, unknown> } | undefined {
  const underway = upgradeUnderway(state.live, status);
  if (!underway) return undefined;
  const finding = underway.install ? LiveFindingKind.INSTALL_IN_PROGRESS : LiveFindingKind.UPGRADE_IN_PROGRESS;
  const result = (refused: boolean, summary: string, details: Record<string, unknown>) => ({ finding, refused, summary, details });
  const toward = underway.version ?? underway.image ?? 'a new release';
  const where = underway.install ? `the first install of ${toward} is still in progress (${underway.how})` : `the control plane is still upgrading to ${toward} (${underway.how})`;
  const details: Record<string, unknown> = { inProgress: underway.version ?? null, inProgressImage: underway.image ?? null };
  const upgrades = object?.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE) ?? false;
  if (!upgrades) {
    return result(false, `${where}: this commit's changes to the cluster meet that ${underway.install ? 'install' : 'upgrade'} in progress`, details);
  }
  const targetImage = state.next?.spec?.release?.image;
  const target = releaseVersionOf(state.next);
  const from = underway.version ? Release.fromVersion(underway.version).version : undefined;
  if (!target || !from) {
    return result(
      false,
      `${where}: this commit upgrades it again before that ${underway.install ? 'install' : 'upgrade'} completes; plan cannot tell how far (a version is unknown); wait until it is Completed`,
      details,
    );
  }
  const to = formatVersion(target);
  // HyperShift forces the image the annotation names, compared as a string (isUpgrading).
  const assessment = assessUpgrade(from, target, { forceUpgradeTo: state.next?.metadata?.annotations?.[FORCE_UPGRADE_TO_ANNOTATION], toImage: state.next?.spec?.release?.image });
  const withTarget = { ...details, to, toImage: targetImage };
  if (assessment.problem) {
    return result(true, `spec.release.image: refused: ${where}, and from there this commit ${assessment.problem}`, withTarget);
  }
  // HyperShift forces only the image the annotation names.
  const forced = assessment.forced || (targetImage !== undefined && state.next?.metadata?.annotations?.[FORCE_UPGRADE_TO_ANNOTATION] === targetImage);
  if (!forced && assessment.kind !== UpgradeKind.Z_STREAM && assessment.kind !== UpgradeKind.NONE) {
    const upgradeable = condition(state.live, 'ClusterVersionUpgradeable');
    const stated =
      upgradeable && upgradeable.status !== 'True'
        ? `condition ClusterVersionUpgradeable is ${upgradeable.status}${upgradeable.message ? `: ${upgradeable.message}` : ''}`
        : 'condition ClusterVersionUpgradeable';
    return result(
      true,
      `spec.release.image: refused: ${where}, and a hosted cluster is not Upgradeable while an update is in progress (${stated}), so HyperShift starts no minor update to ${to} until that one is Completed; apply this commit after that, or name ${to} in forceUpgradeTo`,
      withTarget,
    );
  }
  return result(
    false,
    `spec.release.image: ${where}: applying this commit now retargets that ${underway.install ? 'install' : 'upgrade'} to ${to} before it completes; wait until it is Completed to update from a finished release`,
    withTarget,
  );
}

/** A pool's release against the version its control plane reports, when that says more than the spec does. */
function liveSkew(pool: LiveObjectState, hostedCluster: LiveObjectState | undefined, plan: Plan, rules: VersionRulesOptions): { summary: string; details: Record<string, unknown> } | undefined {
  const image = pool.next?.spec?.release?.image;
  if (!hostedCluster?.live || (pool.committed && pool.committed.spec?.release?.image === image)) return undefined;
  // A control plane upgraded in the same commit: the cluster note says in which order they roll, the upgrade finding what is under way.
  const planned = plan.objects.find((o) => o.file === hostedCluster.file);
  if (planned?.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE)) return undefined;
  const poolVersion = releaseVersionOf(pool.next);
  const reported = reportedVersion(hostedCluster.live);
  if (!poolVersion || !reported) return undefined;
  const problem = nodePoolSkewProblem(poolVersion, reported.version, rules);
  const specVersion = releaseVersionOf(hostedCluster.next);
  // The spec's check already refuses it: the plan says so once.
  if (!problem || (specVersion && nodePoolSkewProblem(poolVersion, specVersion, rules))) return undefined;
  const underway = upgradeUnderway(hostedCluster.live);
  const wait = underway ? `; its ${underway.install ? 'install of' : 'upgrade to'} ${underway.version ?? underway.image} is in progress (${underway.how}): apply this commit once it is Completed` : '';
  return {
    summary: `spec.release.image: HyperShift does not roll it out: the control plane reports ${formatVersion(reported.version)} (${reported.source}), not the ${specVersion ? formatVersion(specVersion) : 'release'} its spec names, and against it the pool's release ${problem}${wait}`,
    details: { controlPlaneReports: formatVersion(reported.version), pool: formatVersion(poolVersion) },
  };
}

/** Why a hosted cluster is not Available, with its condition's message; undefined when it is. */
function availabilityProblem(live: any): { summary: string; details: Record<string, unknown> } | undefined {
  const available = condition(live, 'Available');
  if (available?.status === 'True') return undefined;
  const landing = 'what this commit changes lands on a control plane that is not serving';
  if (!available) return { summary: `not Available: it reports no Available condition yet; ${landing}`, details: { status: null } };
  const reason = available.reason ? `, reason ${available.reason}` : '';
  const since = available.lastTransitionTime ? ` since ${available.lastTransitionTime}` : '';
  return {
    summary: `not Available (condition Available is ${available.status}${reason}${since}): ${available.message || 'no message'}; ${landing}`,
    details: { status: available.status, reason: available.reason ?? null, message: available.message ?? null },
  };
}

function condition(live: any, type: string): any {
  return Array.isArray(live?.status?.conditions) ? live.status.conditions.find((c: any) => c?.type === type) : undefined;
}

/**
 * The fields the committed object sets that the live one holds otherwise: every field but
 * apiVersion, kind, metadata and status, and the committed labels and annotations. Fields the
 * output does not set are not compared: the API server and the operators fill in defaults there.
 */
export function driftOf(committed: any, live: any, next: any): LiveFieldDrift[] {
  const drift: LiveFieldDrift[] = [];
  const compare = (before: unknown, after: unknown, at: readonly Segment[]): void => {
    if (isPlainObject(before)) {
      const liveMap = isPlainObject(after) ? after : {};
      for (const key of Object.keys(before)) compare(before[key], liveMap[key], [...at, key]);
      return;
    }
    if (Array.isArray(before) && Array.isArray(after)) {
      const names = namesOf(before);
      const liveNames = namesOf(after);
      if (names && liveNames) {
        for (const [i, item] of before.entries()) compare(item, after[liveNames.indexOf(names[i])], [...at, { name: names[i] }]);
        return;
      }
      if (before.length === after.length) {
        before.forEach((item, i) => compare(item, after[i], [...at, i]));
        return;
      }
    }
    if (before === null || before === undefined || JSON.stringify(before) === JSON.stringify(after)) return;
    const nextValue = valueAt(next, at);
    drift.push({ path: pathOf(at), committed: before, ...(after !== undefined && after !== null ? { live: after } : {}), ...(nextValue !== undefined ? { next: nextValue } : {}) });
  };
  for (const key of Object.keys(committed ?? {})) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata' || key === 'status') continue;
    compare(committed[key], live?.[key], [key]);
  }
  for (const field of ['labels', 'annotations']) {
    if (isPlainObject(committed?.metadata?.[field])) compare(committed.metadata[field], live?.metadata?.[field], ['metadata', field]);
  }
  return drift;
}

/** A step of a field path: a key, a list index, or a list item by its name. */
type Segment = string | number | { readonly name: string };

function valueAt(object: unknown, at: readonly Segment[]): unknown {
  let value: any = object;
  for (const segment of at) {
    if (value === undefined || value === null) return undefined;
    if (typeof segment === 'object') value = Array.isArray(value) ? value.find((item) => item?.name === segment.name) : undefined;
    else value = value[segment];
  }
  return value;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** As plan writes field paths: `spec.release.image`, `metadata.labels["a/b"]`, `spec.list[name=x].field`, `spec.list[0]`. */
function pathOf(at: readonly Segment[]): string {
  return at.reduce<string>((path, segment) => {
    if (typeof segment === 'number') return `${path}[${segment}]`;
    if (typeof segment === 'object') return `${path}[name=${segment.name}]`;
    if (PLAIN_KEY.test(segment)) return path ? `${path}.${segment}` : segment;
    return `${path}[${JSON.stringify(segment)}]`;
  }, '');
}

/** The `name` of every item, when each item is a mapping with a distinct string name. */
function namesOf(list: unknown[]): string[] | undefined {
  if (list.length === 0) return undefined;
  const names = list.map((item) => (isPlainObject(item) && typeof item.name === 'string' ? item.name : undefined));
  if (names.some((name) => name === undefined) || new Set(names).size !== names.length) return undefined;
  return names as string[];
}
