import { Chart } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { lint, LINT_RULES } from '../core/lint';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { formatVersion, Release } from './release';
import { unknownReleaseVersion } from './release-version';
import { ROLLOUT_RECORD_API_VERSION, ROLLOUT_RECORD_KIND, RolloutRecord } from './rollout-record';
import { RolloutWave, RolloutWaveSelection } from './rollout-wave';
import { checkListItems, checkRequiredProps } from '../core/runtime-props';
import { assessUpgrade } from './upgrade-path';

/** What a failed cluster does to the waves after it (TALM's batchTimeoutAction). */
export enum RolloutFailurePolicy {
  /** The rollout goes on: a failed cluster counts as done for the waves after it and for the rollouts waiting on this one. */
  CONTINUE = 'Continue',
  /** The rollout stops: no later wave moves, and no rollout waiting on this one starts, while a cluster is listed as failed. */
  STOP = 'Stop',
}

/** A rollout as hosted clusters and other rollouts see it. */
export interface IReleaseRollout extends IConstruct {
  /** The rollout's name in messages, plans and the output's record. */
  readonly rolloutName: string;
  /** The release it moves its clusters to. */
  readonly release: Release;
  /** The rollouts that must be complete before this one moves a wave. */
  readonly after: readonly IReleaseRollout[];
  /** Adds a hosted cluster to the rollout and returns the releases it runs (HostedCluster calls it for its `rollout` prop). */
  addCluster(member: RolloutMember): RolloutAssignment;
}

/** A hosted cluster joining a rollout, as HostedCluster describes itself. */
export interface RolloutMember {
  /** The HostedCluster construct. */
  readonly cluster: IConstruct;
  /** `metadata.name` of the HostedCluster. */
  readonly clusterName: string;
  /** The HostedCluster's namespace. */
  readonly namespace: string;
  /** The HostedCluster's labels, which label waves select by. @default - none */
  readonly labels?: Readonly<Record<string, string>>;
  /** What the cluster runs until its wave is released. */
  readonly release: Release;
  /** The cluster's update channel (`spec.channel`). @default - none */
  readonly channel?: string;
  /** The release the cluster forces an upgrade to (the force-upgrade-to annotation). @default - none */
  readonly forceUpgradeTo?: Release;
}

/** The releases a cluster of a rollout runs. */
export interface RolloutAssignment {
  /** The control plane's: the rollout's once the cluster's wave is released, else its own. */
  readonly release: Release;
  /** What its node pools run when they name no release: the control plane's, unless the wave holds them. */
  readonly nodePoolRelease: Release;
}

/** Props of ReleaseRollout. */
export interface ReleaseRolloutProps {
  /** The release the clusters move to: `Release.fromImage(digest, { version })` or `Release.fromVersion(...)`. */
  readonly release: Release;
  /**
   * The waves, in the order they move: `RolloutWave.canaries([...])`, `.clusters([...])`,
   * `.labels({...})`, `.batch(n)`, `.rest()`. Canaries come first and `rest` last.
   */
  readonly waves: readonly RolloutWave[];
  /**
   * How many waves are released: the clusters of the first `releasedWaves` waves run `release`, the
   * others keep their own. Each commit that raises it by one moves one wave; synth refuses a commit
   * that moves two, or one whose earlier waves do not run `release` in the previous output.
   * @default 0 - no cluster moves
   */
  readonly releasedWaves?: number;
  /**
   * What a cluster listed in `failedClusters` does to the waves after it.
   * @default RolloutFailurePolicy.CONTINUE - as TALM's batchTimeoutAction
   */
  readonly onFailure?: RolloutFailurePolicy;
  /**
   * The clusters of released waves whose upgrade failed, as you judge from the clusters (hcp-cdk sees
   * only the output): by name, as in waves. Under CONTINUE they count as done; under STOP no later wave moves.
   * @default - none
   */
  readonly failedClusters?: readonly string[];
  /**
   * Rollouts that must be complete (every cluster they cover on their release in the previous
   * output) before this one moves a wave, as TALM's blockingCRs.
   * @default - none
   */
  readonly after?: readonly IReleaseRollout[];
  /**
   * The rollout's name: a DNS-1123 subdomain, in messages, plans and the record file.
   * @default - the construct id
   */
  readonly name?: string;
}

/** A cluster of the rollout and the waves that picked it. */
interface Member extends RolloutMember {
  /** `<management folder>/<namespace>/<name>`, as plan names clusters. */
  readonly id: string;
  readonly hub: string;
  /** The waves (indexes) that name or select it; the first is its own. */
  readonly picks: number[];
  /** Its wave (index), if any. */
  readonly wave?: number;
}

/**
 * A release rolled across many hosted clusters in waves, one wave per commit: canaries first, then
 * named clusters, labels or batches, then the rest (as OpenShift TALM's ClusterGroupUpgrade, for
 * HostedClusters and NodePools). A cluster joins with `HostedCluster`'s `rollout` prop; its `release`
 * is what it runs until its wave is released. Synth checks against the previous output that each
 * commit moves one wave, after the waves before it run the release, and after the rollouts it waits
 * for are complete; `hcp-cdk plan` names the wave, the clusters it moves and those left. The
 * output records the rollout in `rollouts/` (applied to no cluster).
 */
export class ReleaseRollout extends Construct implements IReleaseRollout {
  public readonly rolloutName: string;
  public readonly release: Release;
  public readonly after: readonly IReleaseRollout[];
  /** How many waves, from the first, run the rollout's release. */
  public readonly releasedWaves: number;
  /** What a failed cluster of a released wave does to the waves after it. */
  public readonly onFailure: RolloutFailurePolicy;
  /** The waves' names, in order. */
  public readonly waveNames: readonly string[];
  private readonly waves: readonly RolloutWave[];
  private readonly failedClusters: readonly string[];
  private readonly members: Member[] = [];
  /** How many clusters no wave picked by name or label have joined: the batches' count. */
  private unpicked = 0;

  constructor(scope: Construct, id: string, props: ReleaseRolloutProps) {
    super(scope, id);
    const problems = new Problems(this);
    checkRequiredProps(problems, props, {
      release: { accepts: (v) => v instanceof Release, expected: 'a Release: Release.fromImage(...) or Release.fromVersion(...)' },
      waves: { accepts: (v) => Array.isArray(v) && v.length > 0, expected: 'a list of at least one RolloutWave: RolloutWave.canaries([...]), .clusters([...]), .labels({...}), .batch(n) or .rest()' },
    });
    const complete = checkListItems(problems, 'waves', props?.waves) && checkListItems(problems, 'after', props?.after) && checkListItems(problems, 'failedClusters', props?.failedClusters);
    problems.throwIfAny();
    this.rolloutName = props.name ?? id;
    this.release = props.release;
    this.after = props.after ?? [];
    this.releasedWaves = props.releasedWaves ?? 0;
    this.onFailure = props.onFailure ?? RolloutFailurePolicy.CONTINUE;
    this.failedClusters = props.failedClusters ?? [];
    this.waves = props.waves;
    this.waveNames = props.waves.map((wave, i) => wave.name ?? defaultName(wave, i));
    if (complete) this.checkProps(problems);
    problems.throwIfAny();
    const unknown = unknownReleaseVersion(this.release, 'whether it is an allowed update from the release of each cluster it covers');
    if (unknown) lint(this, LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN, unknown);
    this.node.addValidation({ validate: () => this.checkMembers() });
  }

  /** Adds a hosted cluster to the rollout, in its wave, and returns the releases it runs. */
  public addCluster(member: RolloutMember): RolloutAssignment {
    const hub = Chart.of(member.cluster).node.id;
    const id = `${hub}/${member.namespace}/${member.clusterName}`;
    const picks = this.waves.map((wave, i) => (this.picks(wave, member, hub) ? i : -1)).filter((i) => i >= 0);
    const wave = picks.length > 0 ? picks[0] : this.batchOf(this.unpicked++);
    this.members.push({ ...member, id, hub, picks, wave });
    const released = wave !== undefined && wave < this.releasedWaves;
    if (!released) return { release: member.release, nodePoolRelease: member.release };
    return { release: this.release, nodePoolRelease: this.waves[wave].holdNodePools ? member.release : this.release };
  }

  /** The clusters of each wave, `<management folder>/<namespace>/<name>` in name order. */
  public get waveClusters(): readonly (readonly string[])[] {
    return this.waves.map((_, i) =>
      this.members
        .filter((m) => m.wave === i)
        .map((m) => m.id)
        .sort(),
    );
  }

  /** The record of the rollout the output holds (`rollouts/`), which `hcp-cdk plan` reads. */
  public record(): RolloutRecord {
    const failed = [...new Set(this.failedClusters.flatMap((name) => this.named(name).map((m) => m.id)))].sort();
    const version = this.release.version ? formatVersion(this.release.version) : undefined;
    return {
      apiVersion: ROLLOUT_RECORD_API_VERSION,
      kind: ROLLOUT_RECORD_KIND,
      metadata: { name: this.rolloutName },
      spec: {
        release: { image: this.release.image, ...(version ? { version } : {}) },
        releasedWaves: this.releasedWaves,
        onFailure: this.onFailure,
        ...(failed.length > 0 ? { failedClusters: failed } : {}),
        ...(this.after.length > 0 ? { after: this.after.map((r) => r.rolloutName) } : {}),
        waves: this.waveClusters.map((clusters, i) => ({ name: this.waveNames[i], ...(this.waves[i].holdNodePools ? { holdNodePools: true } : {}), clusters: [...clusters] })),
      },
    };
  }

  /** Whether `wave` picks the cluster by name or label (batches and rest pick what no wave does). */
  private picks(wave: RolloutWave, member: RolloutMember, hub: string): boolean {
    if (wave.clusters) return wave.clusters.some((name) => name === member.clusterName || name === `${hub}/${member.clusterName}`);
    if (wave.labels) return Object.entries(wave.labels).every(([key, value]) => member.labels?.[key] === value);
    return false;
  }

  /** The wave of the `index`-th cluster no wave picked: the batches in turn, then the rest. */
  private batchOf(index: number): number | undefined {
    let left = index;
    for (let i = 0; i < this.waves.length; i++) {
      const wave = this.waves[i];
      if (wave.selection === RolloutWaveSelection.REST) return i;
      if (wave.selection !== RolloutWaveSelection.BATCH) continue;
      if (left < wave.size!) return i;
      left -= wave.size!;
    }
    return undefined;
  }

  /** The members a name (as waves and failedClusters give them) stands for. */
  private named(name: string): Member[] {
    return this.members.filter((m) => name === m.clusterName || name === `${m.hub}/${m.clusterName}`);
  }

  private checkProps(problems: Problems): void {
    problems.require(isDns1123Subdomain(this.rolloutName), 'name', this.rolloutName, DNS1123_SUBDOMAIN_RULE);
    if (this.release.problem) problems.add(this.release.problem);
    const count = this.waves.length;
    problems.require(
      Number.isInteger(this.releasedWaves) && this.releasedWaves >= 0 && this.releasedWaves <= count,
      'releasedWaves',
      this.releasedWaves,
      `must be a whole number from 0 to ${count}, the number of waves`,
    );
    problems.require(Object.values(RolloutFailurePolicy).includes(this.onFailure), 'onFailure', this.onFailure, 'must be Continue or Stop');
    this.waves.forEach((wave, i) => {
      const field = `waves[${i}]`;
      if (!(wave instanceof RolloutWave)) {
        problems.add(`${field} (${show(wave)}) must be a RolloutWave: RolloutWave.canaries([...]), .clusters([...]), .labels({...}), .batch(n) or .rest()`);
        return;
      }
      const name = this.waveNames[i];
      problems.require(isDns1123Label(name), `${field}.name`, name, DNS1123_LABEL_RULE);
      if (this.waveNames.indexOf(name) !== i) problems.add(`${field}.name (${show(name)}) is also the name of waves[${this.waveNames.indexOf(name)}]; give each wave a name of its own`);
      if (wave.clusters !== undefined)
        problems.require(
          Array.isArray(wave.clusters) && wave.clusters.length > 0 && wave.clusters.every((c) => typeof c === 'string' && c.length > 0),
          `${field}.clusters`,
          wave.clusters,
          'must name at least one cluster: <name> or <management cluster>/<name>',
        );
      if (wave.labels !== undefined) problems.require(typeof wave.labels === 'object' && Object.keys(wave.labels ?? {}).length > 0, `${field}.labels`, wave.labels, 'must give at least one label');
      if (wave.selection === RolloutWaveSelection.BATCH) problems.require(Number.isInteger(wave.size) && wave.size! >= 1, `${field}.batch`, wave.size, 'must be a whole number >= 1');
      if (wave.selection === RolloutWaveSelection.CANARIES && i > 0) problems.add(`${field} (${wave.description}) must be the first wave: canaries move before every other wave`);
      if (wave.selection === RolloutWaveSelection.REST && i < count - 1) problems.add(`${field} (rest) must be the last wave: it takes every cluster the waves before it leave`);
    });
    this.after.forEach((other, i) => {
      if (typeof other?.rolloutName !== 'string') problems.add(`after[${i}] (${show(other)}) must be a ReleaseRollout`);
      else if (other === this) problems.add(`after[${i}] (${show(other.rolloutName)}) is this rollout; a rollout cannot wait for itself`);
    });
  }

  /** The rules that need every cluster to have joined: waves and names that pick nothing or twice, the update path from each cluster, failed clusters, after cycles. */
  private checkMembers(): string[] {
    const problems: string[] = [];
    const waveName = (i: number): string => `wave ${i + 1} (${this.waveNames[i]})`;
    const version = this.release.version;
    const target = this.release.version ? formatVersion(this.release.version) : JSON.stringify(this.release.image);
    this.waves.forEach((wave, i) => {
      let named = 0;
      for (const name of wave.clusters ?? []) {
        const found = this.named(name);
        if (found.length === 0)
          problems.push(`waves[${i}].clusters (${show(name)}): ${waveName(i)} names a cluster the rollout does not cover; name one of its clusters: <name> or <management cluster>/<name>`);
        else if (found.length > 1)
          problems.push(`waves[${i}].clusters (${show(name)}): ${waveName(i)} names ${found.length} clusters (${found.map((m) => m.id).join(', ')}); give <management cluster>/<name>`);
        else named++;
      }
      if (this.members.every((m) => m.wave !== i) && (wave.clusters === undefined || named > 0)) {
        problems.push(`waves[${i}] (${wave.description}): ${waveName(i)} selects no cluster of the rollout; a wave must select at least one, or be left out`);
      }
    });
    // Grouped, so that a rule a thousand clusters break is one problem, not a thousand.
    const twice = groupBy(
      this.members.filter((m) => m.picks.length > 1),
      (m) => m.picks.map(waveName).join(' and '),
    );
    for (const [waves, members] of twice)
      problems.push(`${clusters(members)} ${members.length === 1 ? 'is' : 'are'} in ${waves}; a cluster is in one wave: take ${members.length === 1 ? 'it' : 'each'} out of all but one`);
    const none = this.members.filter((m) => m.wave === undefined);
    if (none.length > 0)
      problems.push(`${clusters(none)} ${none.length === 1 ? 'is' : 'are'} in no wave: pick ${none.length === 1 ? 'it' : 'them'} in a wave, or end the waves with RolloutWave.rest()`);
    const refused = groupBy(
      this.members.filter((m) => m.wave !== undefined && version && m.release.version),
      (m) => {
        const from = m.release.version!;
        const problem = assessUpgrade(from, version!, { channel: m.channel, forceUpgradeTo: m.forceUpgradeTo?.image, toImage: this.release.image }).problem;
        return problem && `${formatVersion(from)}\n${problem}`;
      },
    );
    for (const [key, members] of refused) {
      const [runs, problem] = key.split('\n');
      const which = members.length === 1 ? `${members[0].id} of ${waveName(members[0].wave!)}, which runs ${runs}` : `${members.length} clusters, which run ${runs} (${clusters(members)})`;
      problems.push(`release (${target}) is not an allowed update for ${which}: ${problem}`);
    }
    for (const name of this.failedClusters) {
      const found = this.named(name);
      if (found.length === 0) problems.push(`failedClusters (${show(name)}) names a cluster the rollout does not cover`);
      for (const member of found.filter((m) => m.wave === undefined || m.wave >= this.releasedWaves)) {
        problems.push(
          `failedClusters (${show(name)}) names ${member.id}${member.wave === undefined ? '' : ` of ${waveName(member.wave)}`}, which is not released; only a cluster of a released wave can have failed`,
        );
      }
    }
    const cycle = waitsFor(this, this, []);
    if (cycle)
      problems.push(
        `after (${show(this.after.map((r) => r.rolloutName))}) waits for this rollout in turn (${[this, ...cycle].map((r) => r.rolloutName).join(' -> ')}); rollouts cannot wait for each other`,
      );
    return problems;
  }
}

/** `a, b, c and 4 more`: the clusters' names, the first three of them. */
function clusters(members: readonly Member[]): string {
  const ids = members.map((m) => m.id);
  if (ids.length > 3) return `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
  return ids.length > 1 ? `${ids.slice(0, -1).join(', ')} and ${ids[ids.length - 1]}` : ids[0];
}

/** The members by key, in the order the keys first appear; members whose key is undefined are left out. */
function groupBy(members: readonly Member[], key: (member: Member) => string | undefined): Map<string, Member[]> {
  const groups = new Map<string, Member[]>();
  for (const member of members) {
    const k = key(member);
    if (k !== undefined) groups.set(k, [...(groups.get(k) ?? []), member]);
  }
  return groups;
}

/** The chain of `after` from `from` back to `target`, if there is one. */
function waitsFor(from: IReleaseRollout, target: IReleaseRollout, seen: IReleaseRollout[]): IReleaseRollout[] | undefined {
  for (const next of from.after) {
    if (next === target) return [...seen, next];
    if (seen.includes(next)) continue;
    const chain = waitsFor(next, target, [...seen, next]);
    if (chain) return chain;
  }
  return undefined;
}

function defaultName(wave: RolloutWave, index: number): string {
  if (wave?.selection === RolloutWaveSelection.CANARIES) return 'canaries';
  if (wave?.selection === RolloutWaveSelection.REST) return 'rest';
  return `wave-${index + 1}`;
}
