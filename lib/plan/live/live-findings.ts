import { formatVersion, Release, type ReleaseVersion } from '../../release/release';
import { releaseVersionOf } from '../../release/release-version';
import { assessUpgrade, UpgradeKind } from '../../release/upgrade-path';
import { nodePoolSkewProblem, type VersionRulesOptions } from '../../release/version-skew';
import { FORCE_UPGRADE_TO_ANNOTATION } from '../../release/upgrade-settings';
import { isPlainObject } from '../../core/runtime-props';
import { carriesPruneProtection } from '../change-effects';
import { ChangeEffect, Plan, PlanAction, PlannedObject } from '../plan-report';
import { LiveFieldDrift, LiveFinding, LiveFindingKind } from './live-report';

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
 * What the management cluster's state means for a plan: upgrades in progress that the commit
 * meets or would upgrade on top of, pools checked against the version the control plane reports,
 * changed clusters that are not Available, drift from the last committed output, and protected
 * objects the commit removes that stay on the cluster. Refused findings first, then by cluster and file.
 */
export function liveFindings(plan: Plan, states: readonly LiveObjectState[], rules: VersionRulesOptions = {}): LiveFinding[] {
  const planned = new Map(plan.objects.map((o) => [o.file, o]));
  const changedClusters = new Set(plan.summary.clustersChanged);
  const hostedClusters = new Map(states.filter((s) => s.kind === 'HostedCluster').map((s) => [`${s.namespace}/${s.name}`, s]));
  const findings: LiveFinding[] = [];
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
    if (state.kind === 'HostedCluster' && state.live && state.cluster && changedClusters.has(state.cluster)) {
      const upgrade = upgradeFinding(state, object);
      if (upgrade) found(LiveFindingKind.UPGRADE_IN_PROGRESS, upgrade.refused, upgrade.summary, { details: upgrade.details });
      const unavailable = availabilityProblem(state.live);
      if (unavailable) found(LiveFindingKind.NOT_AVAILABLE, false, unavailable.summary, { details: unavailable.details });
    }
    if (state.kind === 'NodePool' && state.next) {
      const skew = liveSkew(state, hostedClusters.get(`${state.namespace}/${state.next.spec?.clusterName}`), plan, rules);
      if (skew) found(LiveFindingKind.VERSION_SKEW, true, skew.summary, { details: skew.details });
    }
    if (state.committed && state.live) {
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
    } else if (state.committed && state.served && !state.live && state.next) {
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

/** An upgrade of the control plane under way: the newest history entry Partial, or a spec the operator has not taken up yet. */
export function upgradeUnderway(live: any): { version?: string; image?: string; how: string } | undefined {
  const history: any[] = Array.isArray(live?.status?.version?.history) ? live.status.version.history : [];
  const newest = history[0];
  if (newest?.state === 'Partial') {
    return { version: newest.version, image: newest.image, how: `status.version.history[0] is Partial${newest.startedTime ? ` since ${newest.startedTime}` : ''}` };
  }
  const desired = live?.status?.version?.desired;
  const image = live?.spec?.release?.image;
  if (typeof desired?.image === 'string' && typeof image === 'string' && desired.image !== image) {
    const version = releaseVersionOf(live);
    return {
      version: version && formatVersion(version),
      image,
      how: `spec.release.image names it, but status.version.desired is still ${desired.version ?? desired.image}: HyperShift has not started it yet`,
    };
  }
  return undefined;
}

/** What an upgrade under way means for this commit: refused when the commit upgrades past it by a minor or more. */
function upgradeFinding(state: LiveObjectState, object: PlannedObject | undefined): { refused: boolean; summary: string; details: Record<string, unknown> } | undefined {
  const underway = upgradeUnderway(state.live);
  if (!underway) return undefined;
  const toward = underway.version ?? underway.image ?? 'a new release';
  const where = `the control plane is still upgrading to ${toward} (${underway.how})`;
  const details: Record<string, unknown> = { inProgress: underway.version ?? null, inProgressImage: underway.image ?? null };
  const upgrades = object?.effects.some((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE) ?? false;
  if (!upgrades) {
    return { refused: false, summary: `${where}: this commit's changes to the cluster meet that upgrade in progress`, details };
  }
  const targetImage = state.next?.spec?.release?.image;
  const target = releaseVersionOf(state.next);
  const from = underway.version ? Release.fromVersion(underway.version).version : undefined;
  if (!target || !from) {
    return { refused: false, summary: `${where}: this commit upgrades it again before that upgrade completes; plan cannot tell how far (a version is unknown); wait until it is Completed`, details };
  }
  const to = formatVersion(target);
  const assessment = assessUpgrade(from, target, { forceUpgradeTo: state.next?.metadata?.annotations?.[FORCE_UPGRADE_TO_ANNOTATION] });
  const withTarget = { ...details, to, toImage: targetImage };
  if (assessment.problem) {
    return { refused: true, summary: `spec.release.image: refused: ${where}, and from there this commit ${assessment.problem}`, details: withTarget };
  }
  // HyperShift forces only the image the annotation names.
  const forced = assessment.forced || (targetImage !== undefined && state.next?.metadata?.annotations?.[FORCE_UPGRADE_TO_ANNOTATION] === targetImage);
  if (!forced && assessment.kind !== UpgradeKind.Z_STREAM && assessment.kind !== UpgradeKind.NONE) {
    const upgradeable = condition(state.live, 'ClusterVersionUpgradeable');
    const stated =
      upgradeable && upgradeable.status !== 'True'
        ? `condition ClusterVersionUpgradeable is ${upgradeable.status}${upgradeable.message ? `: ${upgradeable.message}` : ''}`
        : 'condition ClusterVersionUpgradeable';
    return {
      refused: true,
      summary: `spec.release.image: refused: ${where}, and a hosted cluster is not Upgradeable while an update is in progress (${stated}), so HyperShift starts no minor update to ${to} until that one is Completed; apply this commit after that, or name ${to} in forceUpgradeTo`,
      details: withTarget,
    };
  }
  return {
    refused: false,
    summary: `spec.release.image: ${where}: applying this commit now retargets that upgrade to ${to} before it completes; wait until it is Completed to update from a finished release`,
    details: withTarget,
  };
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
  const wait = underway ? `; its upgrade to ${underway.version ?? underway.image} is in progress (${underway.how}): apply this commit once it is Completed` : '';
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
