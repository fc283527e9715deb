import * as path from 'path';
import { App, Chart, Duration } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import { lint, LINT_RULES, notice } from '../core/lint';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { checkListItems, checkRequiredProps, isDuration } from '../core/runtime-props';
import { formatVersion, Release } from './release';
import { unknownReleaseVersion } from './release-version';
import { namedList } from './named-list';
import { RolloutMembership, RolloutNewClusters } from './rollout-membership';
import { isWellFormedRolloutRecord, ROLLOUT_RECORD_API_VERSION, ROLLOUT_RECORD_KIND, RolloutRecord, RolloutRecordPreviousTarget, rolloutRecordSourceOf } from './rollout-record';
import { RolloutFailure, RolloutState } from './rollout-state';
import { RolloutWave, RolloutWaveSelection } from './rollout-wave';
import { UpdateGraph } from './update-graph';
import { riskSentence } from './update-risk';
import { assessUpgrade } from './upgrade-path';

/** What a failed cluster does to the waves after it (TALM's batchTimeoutAction). */
export enum RolloutFailurePolicy {
  /** The rollout goes on: a failed cluster counts as done for the waves after it and for the rollouts waiting on this one. */
  CONTINUE = 'Continue',
  /** The rollout stops: no later wave moves, and no rollout waiting on this one starts, while a cluster is listed as failed. */
  STOP = 'Stop',
}

/** What a paused cluster of a released wave does to the next wave. */
export enum RolloutPausePolicy {
  /**
   * The next wave waits: a paused cluster (`pausedUntil` on its HostedCluster or a NodePool) is not
   * reconciled, so it may not run the release its spec names although the output says it does.
   */
  HOLD = 'Hold',
  /** The next wave goes on; the paused cluster catches up once it is unpaused. */
  CONTINUE = 'Continue',
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
   * that moves two, or one whose earlier waves do not run `release` in the previous output. Once
   * the previous output released a wave, its clusters are fixed by the output's record (see
   * `newClusters`), and a released wave cannot be taken back, removed or redefined.
   * @default 0 - no cluster moves; with `state`, the state's
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
   * @default - none; with `state`, the state's
   */
  readonly failedClusters?: readonly string[];
  /**
   * The rollout's state file (`RolloutState.fromFile('rollouts/r-4-17-12.state.yaml')`), which gives
   * `releasedWaves`, when each wave was released and the failed and timed-out clusters with why:
   * what the command that advances a rollout from the live clusters rewrites. Give it instead of
   * `releasedWaves` and `failedClusters`.
   * @default - none: `releasedWaves` and `failedClusters` as given
   */
  readonly state?: RolloutState;
  /**
   * Under onFailure CONTINUE, the most failed (or timed-out) clusters the rollout goes on with; one
   * more stops it, as under STOP. Give this or `maxFailedPercent`.
   * @default - no limit
   */
  readonly maxFailedClusters?: number;
  /**
   * Under onFailure CONTINUE, the most failed (or timed-out) clusters, in percent (0 to 100) of the
   * clusters of the released waves.
   * @default - no limit
   */
  readonly maxFailedPercent?: number;
  /**
   * What a paused cluster of a released wave (`pausedUntil` on its HostedCluster or a NodePool in
   * the previous output) does to the next wave.
   * @default RolloutPausePolicy.HOLD
   */
  readonly onPaused?: RolloutPausePolicy;
  /**
   * How long a released wave's clusters have to run the release (control planes Completed, pools
   * Ready) before they count as timed out, from when the wave was released (see `state`).
   * @default Duration.minutes(240) - TALM's default timeout
   */
  readonly waveTimeout?: Duration;
  /**
   * Where a cluster goes that joins the rollout once a wave is released (one the previous output's
   * record does not list), unless a wave not yet released names or selects it.
   * @default RolloutNewClusters.LAST_WAVE
   */
  readonly newClusters?: RolloutNewClusters;
  /**
   * The record of this rollout in the previous output, which fixes the clusters of its released
   * waves. In an HcpApp it is read from the previous output (`findPreviousOutput()`) when the
   * rollout is made; give it for an app of another kind, or to pin against another output.
   * @default - the HcpApp's previous output's; none in another app
   */
  readonly previousRecord?: RolloutRecord;
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
  /** The waves (indexes) not released before that name or select it. */
  readonly picks: readonly number[];
  /** Its wave (index), if any. */
  readonly wave?: number;
  /** Whether the previous output's record fixes its wave. */
  readonly pinned: boolean;
}

/**
 * A release rolled across many hosted clusters in waves, one wave per commit: canaries first, then
 * named clusters, labels or batches, then the rest (as OpenShift TALM's ClusterGroupUpgrade, for
 * HostedClusters and NodePools). A cluster joins with `HostedCluster`'s `rollout` prop; its `release`
 * is what it runs until its wave is released. Synth checks against the previous output that each
 * commit moves one wave, after the waves before it run the release, and after the rollouts it waits
 * for are complete; `hcp-cdk plan` names the wave, the clusters it moves and those left. The
 * output records the rollout in `rollouts/` (applied to no cluster); once a wave is released there,
 * the record fixes its clusters for every later commit (see RolloutMembership).
 */
export class ReleaseRollout extends Construct implements IReleaseRollout {
  public readonly rolloutName: string;
  public readonly release: Release;
  public readonly after: readonly IReleaseRollout[];
  /** How many waves, from the first, run the rollout's release. */
  public readonly releasedWaves: number;
  /** What a failed cluster of a released wave does to the waves after it. */
  public readonly onFailure: RolloutFailurePolicy;
  /** What a paused cluster of a released wave does to the next wave. */
  public readonly onPaused: RolloutPausePolicy;
  /** Where clusters that join once a wave is released go. */
  public readonly newClusters: RolloutNewClusters;
  /** The waves' names, in order. */
  public readonly waveNames: readonly string[];
  /** The record of the rollout in the previous output, when one was found: it fixes the released waves' clusters. */
  public readonly previousRecord?: RolloutRecord;
  private readonly waves: readonly RolloutWave[];
  private readonly failures: readonly RolloutFailure[];
  private readonly props: ReleaseRolloutProps;
  private readonly members: Member[] = [];
  private readonly membership: RolloutMembership;
  /** The release the first waves still run after a retarget, and how many. */
  private readonly previousTarget?: { readonly release: Release; readonly releasedWaves: number };

  constructor(scope: Construct, id: string, props: ReleaseRolloutProps) {
    super(scope, id);
    const problems = new Problems(this);
    checkRequiredProps(problems, props, {
      release: { accepts: (v) => v instanceof Release, expected: 'a Release: Release.fromImage(...) or Release.fromVersion(...)' },
      waves: { accepts: (v) => Array.isArray(v) && v.length > 0, expected: 'a list of at least one RolloutWave: RolloutWave.canaries([...]), .clusters([...]), .labels({...}), .batch(n) or .rest()' },
    });
    if (props?.state !== undefined && !(props.state instanceof RolloutState)) problems.add(`state (${show(props.state)}) must be a RolloutState: RolloutState.fromFile(...)`);
    const complete = checkListItems(problems, 'waves', props?.waves) && checkListItems(problems, 'after', props?.after) && checkListItems(problems, 'failedClusters', props?.failedClusters);
    problems.throwIfAny();
    this.props = props;
    this.rolloutName = props.name ?? id;
    this.release = props.release;
    this.after = props.after ?? [];
    this.releasedWaves = props.state?.releasedWaves ?? props.releasedWaves ?? 0;
    this.onFailure = props.onFailure ?? RolloutFailurePolicy.CONTINUE;
    this.onPaused = props.onPaused ?? RolloutPausePolicy.HOLD;
    this.newClusters = props.newClusters ?? RolloutNewClusters.LAST_WAVE;
    this.failures = props.state?.failedClusters ?? (props.failedClusters ?? []).map((cluster) => ({ cluster }));
    this.waves = props.waves;
    this.waveNames = props.waves.map((wave, i) => wave.name ?? defaultName(wave, i));
    if (complete) this.checkProps(problems);
    problems.throwIfAny();
    this.previousRecord = this.findPreviousRecord();
    this.previousTarget = this.carriedTarget();
    this.membership = new RolloutMembership(this.waves, this.waveNames, this.previousRecord, this.newClusters);
    const unknown = unknownReleaseVersion(this.release, 'whether it is an allowed update from the release of each cluster it covers');
    if (unknown) lint(this, LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN, unknown);
    this.node.addValidation({ validate: () => this.checkMembers() });
  }

  /** Adds a hosted cluster to the rollout, in its wave, and returns the releases it runs. */
  public addCluster(member: RolloutMember): RolloutAssignment {
    const hub = Chart.of(member.cluster).node.id;
    const id = `${hub}/${member.namespace}/${member.clusterName}`;
    const assigned = this.membership.assign({ id, hub, clusterName: member.clusterName, labels: member.labels });
    const wave = assigned.wave;
    this.members.push({ ...member, id, hub, picks: assigned.picks, wave, pinned: assigned.by === 'pinned' });
    if (wave === undefined) return { release: member.release, nodePoolRelease: member.release };
    const holds = this.waves[wave].holdNodePools;
    if (wave < this.releasedWaves) return { release: this.release, nodePoolRelease: holds ? member.release : this.release };
    const before = this.previousTarget;
    if (before && wave < before.releasedWaves) return { release: before.release, nodePoolRelease: holds ? member.release : before.release };
    return { release: member.release, nodePoolRelease: member.release };
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
    const failed = new Map<string, RolloutFailure>();
    for (const failure of this.failures) for (const m of this.named(failure.cluster)) failed.set(m.id, failure);
    const ids = [...failed.keys()].sort();
    const timedOut = ids.filter((c) => failed.get(c)!.timedOut);
    const reasons = Object.fromEntries(ids.filter((c) => failed.get(c)!.reason).map((c) => [c, failed.get(c)!.reason!]));
    const version = this.release.version ? formatVersion(this.release.version) : undefined;
    const before = this.previousTarget;
    const previousTarget: RolloutRecordPreviousTarget | undefined = before && {
      image: before.release.image,
      ...(before.release.version ? { version: formatVersion(before.release.version) } : {}),
      releasedWaves: before.releasedWaves,
    };
    const timeout = this.props.waveTimeout?.toMinutes();
    return {
      apiVersion: ROLLOUT_RECORD_API_VERSION,
      kind: ROLLOUT_RECORD_KIND,
      metadata: { name: this.rolloutName },
      spec: {
        release: { image: this.release.image, ...(version ? { version } : {}) },
        releasedWaves: this.releasedWaves,
        onFailure: this.onFailure,
        ...(ids.length > 0 ? { failedClusters: ids } : {}),
        ...(timedOut.length > 0 ? { timedOutClusters: timedOut } : {}),
        ...(Object.keys(reasons).length > 0 ? { failureReasons: reasons } : {}),
        ...(this.props.maxFailedClusters !== undefined ? { maxFailedClusters: this.props.maxFailedClusters } : {}),
        ...(this.props.maxFailedPercent !== undefined ? { maxFailedPercent: this.props.maxFailedPercent } : {}),
        ...(this.props.onPaused !== undefined ? { onPaused: this.onPaused } : {}),
        ...(timeout !== undefined ? { waveTimeoutMinutes: timeout } : {}),
        ...(this.props.newClusters !== undefined ? { newClusters: this.newClusters } : {}),
        ...(previousTarget ? { previousTarget } : {}),
        ...(this.after.length > 0 ? { after: this.after.map((r) => r.rolloutName) } : {}),
        ...(this.stateFile() !== undefined ? { stateFile: this.stateFile() } : {}),
        waves: this.waveClusters.map((clusters, i) => {
          const releasedAt = this.props.state?.releasedAt(this.waveNames[i]);
          return {
            name: this.waveNames[i],
            selection: this.waves[i].description,
            ...(this.waves[i].holdNodePools ? { holdNodePools: true } : {}),
            ...(releasedAt && i < this.releasedWaves ? { releasedAt } : {}),
            clusters: [...clusters],
          };
        }),
      },
    };
  }

  /**
   * Where the state file is, relative to the app's output directory, '/'-separated: the record names it
   * so that the command that advances the rollout finds it from the output it reads, wherever it runs.
   */
  private stateFile(): string | undefined {
    const file = this.props.state?.file;
    const root = this.node.root;
    if (file === undefined || !(root instanceof App)) return undefined;
    return path.relative(path.resolve(root.outdir), path.resolve(file)).split(path.sep).join('/');
  }

  /** The previous output's record of this rollout: given, or from the HcpApp; one that does not parse as a record is none. */
  private findPreviousRecord(): RolloutRecord | undefined {
    const record = this.props.previousRecord ?? rolloutRecordSourceOf(this)?.previousRolloutRecord(this.rolloutName);
    return isWellFormedRolloutRecord(record) ? record : undefined;
  }

  /**
   * The release the first waves still run after the rollout was retargeted: the previous record's
   * release when it changes now (its released waves keep it until each is released again), or the
   * previous record's own previous target, until as many waves are released again.
   */
  private carriedTarget(): { release: Release; releasedWaves: number } | undefined {
    const spec = this.previousRecord?.spec;
    if (!spec) return undefined;
    const retargeted = spec.release.image !== this.release.image && spec.releasedWaves > 0;
    const carried = spec.previousTarget;
    const target = retargeted && !carried ? { image: spec.release.image, version: spec.release.version, releasedWaves: spec.releasedWaves } : carried;
    if (!target || this.releasedWaves >= target.releasedWaves) return undefined;
    return { release: Release.fromImage(target.image, target.version ? { version: target.version } : {}), releasedWaves: target.releasedWaves };
  }

  /** The members a name (as waves and failedClusters give them, or as plan names clusters) stands for. */
  private named(name: string): Member[] {
    return this.members.filter((m) => name === m.clusterName || name === `${m.hub}/${m.clusterName}` || name === m.id);
  }

  private checkProps(problems: Problems): void {
    const props = this.props;
    problems.require(isDns1123Subdomain(this.rolloutName), 'name', this.rolloutName, DNS1123_SUBDOMAIN_RULE);
    if (this.release.problem) problems.add(this.release.problem);
    const count = this.waves.length;
    if (props.state) {
      for (const problem of props.state.problems) problems.add(`state: ${problem}`);
      if (props.state.name !== undefined && props.state.name !== this.rolloutName)
        problems.add(`state (${props.state.source}) is the state of rollout ${show(props.state.name)}, not of ${show(this.rolloutName)}`);
      for (const field of ['releasedWaves', 'failedClusters'] as const) {
        if (props[field] !== undefined) problems.add(`${field} (${show(props[field])}) is given by state (${props.state.source}) too; give it in one place: the state file`);
      }
    }
    const field = props.state ? `state: releasedWaves` : 'releasedWaves';
    problems.require(
      Number.isInteger(this.releasedWaves) && this.releasedWaves >= 0 && this.releasedWaves <= count,
      field,
      this.releasedWaves,
      `must be a whole number from 0 to ${count}, the number of waves`,
    );
    problems.require(Object.values(RolloutFailurePolicy).includes(this.onFailure), 'onFailure', this.onFailure, 'must be Continue or Stop');
    problems.require(Object.values(RolloutPausePolicy).includes(this.onPaused), 'onPaused', this.onPaused, 'must be Hold or Continue');
    problems.require(Object.values(RolloutNewClusters).includes(this.newClusters), 'newClusters', this.newClusters, 'must be LastWave or NextWave');
    if (props.maxFailedClusters !== undefined)
      problems.require(Number.isInteger(props.maxFailedClusters) && props.maxFailedClusters >= 0, 'maxFailedClusters', props.maxFailedClusters, 'must be a whole number >= 0');
    if (props.maxFailedPercent !== undefined) {
      problems.require(
        Number.isInteger(props.maxFailedPercent) && props.maxFailedPercent >= 0 && props.maxFailedPercent <= 100,
        'maxFailedPercent',
        props.maxFailedPercent,
        'must be a whole number from 0 to 100',
      );
    }
    if (props.maxFailedClusters !== undefined && props.maxFailedPercent !== undefined)
      problems.add(`maxFailedClusters (${props.maxFailedClusters}) and maxFailedPercent (${props.maxFailedPercent}): give one failure budget, a count or a percentage`);
    if ((props.maxFailedClusters !== undefined || props.maxFailedPercent !== undefined) && this.onFailure === RolloutFailurePolicy.STOP) {
      problems.add(`onFailure (Stop) stops at the first failure; a failure budget (maxFailedClusters, maxFailedPercent) is for onFailure Continue`);
    }
    if (props.waveTimeout !== undefined) {
      const minutes = isDuration(props.waveTimeout) ? props.waveTimeout.toMinutes({ integral: false }) : NaN;
      problems.require(
        Number.isInteger(minutes) && minutes >= 1,
        'waveTimeout',
        isDuration(props.waveTimeout) ? `${minutes} minutes` : props.waveTimeout,
        'must be a Duration of whole minutes, at least Duration.minutes(1)',
      );
    }
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
    const pinnedWaves = this.membership.pinnedWaves;
    this.waves.forEach((wave, i) => {
      let named = 0;
      for (const name of wave.clusters ?? []) {
        const found = this.named(name);
        const releasedWith = pinnedWaves.has(i) && this.membership.releasedWith(i, name);
        if (found.length === 0) {
          // A cluster a released wave moved may have left the fleet since: its name may stay.
          if (!releasedWith)
            problems.push(`waves[${i}].clusters (${show(name)}): ${waveName(i)} names a cluster the rollout does not cover; name one of its clusters: <name> or <management cluster>/<name>`);
        } else if (found.length > 1)
          problems.push(`waves[${i}].clusters (${show(name)}): ${waveName(i)} names ${found.length} clusters (${found.map((m) => m.id).join(', ')}); give <management cluster>/<name>`);
        else if (pinnedWaves.has(i) && !releasedWith)
          problems.push(
            `waves[${i}].clusters (${show(name)}): ${waveName(i)} is released, and the previous output's record fixes its clusters (${found[0].id} is not one of them); ` +
              'a released wave takes no cluster: name it in a wave not released yet',
          );
        else named++;
      }
      if (!pinnedWaves.has(i) && this.members.every((m) => m.wave !== i) && (wave.clusters === undefined || named > 0)) {
        problems.push(`waves[${i}] (${wave.description}): ${waveName(i)} selects no cluster of the rollout; a wave must select at least one, or be left out`);
      }
    });
    for (const member of this.members.filter((m) => m.pinned)) {
      const elsewhere = this.waves.findIndex((wave, i) => i !== member.wave && this.membership.names(wave, member));
      if (elsewhere >= 0) {
        problems.push(
          `waves[${elsewhere}].clusters: ${waveName(elsewhere)} names ${member.id}, which ${waveName(member.wave!)} released in the previous output; a released wave's clusters are fixed by the output's record: take it out of ${waveName(elsewhere)}`,
        );
      }
    }
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
    problems.push(...this.pathProblems(waveName));
    for (const failure of this.failures) {
      const name = failure.cluster;
      const found = this.named(name);
      const field = this.props.state ? `state: failedClusters` : 'failedClusters';
      if (found.length === 0) problems.push(`${field} (${show(name)}) names a cluster the rollout does not cover`);
      for (const member of found.filter((m) => m.wave === undefined || m.wave >= this.releasedWaves)) {
        problems.push(
          `${field} (${show(name)}) names ${member.id}${member.wave === undefined ? '' : ` of ${waveName(member.wave)}`}, which is not released; only a cluster of a released wave can have failed`,
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

  /**
   * Whether the release is an allowed update from what each cluster runs before its wave moves: its
   * own release, or the target before a retarget. Clusters the previous output released already run
   * the release and are not asked. With an update graph of a cluster's channel (UpdateGraph), the
   * update follows its edges; a conditional edge is a lint finding naming its risks.
   */
  private pathProblems(waveName: (i: number) => string): string[] {
    const version = this.release.version;
    if (!version) return [];
    const target = formatVersion(version);
    const graphs = UpdateGraph.of(this);
    const problems: string[] = [];
    const declared = graphs.payload(this.release.image);
    if (declared && declared.version !== target) {
      problems.push(
        `release (${this.release.image}) is declared ${target}, but the update graph of ${declared.channel} lists that payload as ${declared.version}; give the version the graph gives, or the right image`,
      );
    }
    const before = this.previousTarget;
    const releasedBefore = (m: Member): boolean => m.pinned && this.previousRecord?.spec.release.image === this.release.image;
    const moving = this.members.filter((m) => m.wave !== undefined && !releasedBefore(m));
    const fromOf = (m: Member): { release: Release; why: string } => {
      if (before && m.wave! < before.releasedWaves) return { release: before.release, why: 'as the target before the rollout was retargeted' };
      return { release: m.release, why: m.wave! < this.releasedWaves ? RELEASED_WHY : 'until their wave is released' };
    };
    const ungraphed = new Set<string>();
    const found = new Map<string, { from: string; why: string; problem?: string; conditional?: { channel: string; risks: string }; members: Member[] }>();
    for (const member of moving) {
      const from = fromOf(member);
      if (!from.release.version) continue;
      const graph = graphs.forChannel(member.channel);
      if (!graph) ungraphed.add(member.channel ?? 'no channel');
      const assessment = assessUpgrade(from.release.version, version, { channel: member.channel, forceUpgradeTo: member.forceUpgradeTo?.image, toImage: this.release.image, updateGraph: graph });
      const conditional = graph && assessment.risks && { channel: graph.channel, risks: `risk ${assessment.risks.map(riskSentence).join('; risk ')}` };
      if (!assessment.problem && !conditional) continue;
      const finding = { from: formatVersion(from.release.version), why: from.why, problem: assessment.problem, conditional };
      // Grouped, so that a rule a thousand clusters break is one problem, not a thousand.
      const key = JSON.stringify(finding);
      found.set(key, { ...finding, members: [...(found.get(key)?.members ?? []), member] });
    }
    for (const { from, why, problem, conditional, members } of found.values()) {
      const ran = why === RELEASED_WHY;
      const which =
        members.length === 1
          ? `${members[0].id} of ${waveName(members[0].wave!)}, which ${ran ? 'ran' : 'runs'} ${from} ${why.replace('their', 'its')}`
          : `${members.length} clusters, which ${ran ? 'ran' : 'run'} ${from} ${why} (${clusters(members)})`;
      if (problem) problems.push(`release (${target}) is not an allowed update for ${which}: ${problem}`);
      else
        lint(
          this,
          LINT_RULES.HCP_W006_CONDITIONAL_UPDATE,
          `release (${target}) is a conditional update of ${conditional!.channel} for ${which}: ${conditional!.risks}; make sure the risks do not apply to them`,
        );
    }
    if (moving.length > 0 && ungraphed.size > 0) {
      const channels = [...ungraphed].map((c) => (c === '' ? 'no channel' : c)).sort();
      const on = channels.map((c) => (c === 'no channel' ? 'no channel' : `channel ${c}`)).join(', ');
      notice(this, `the update graph was not checked: update paths to ${target} follow version arithmetic for clusters on ${on} (give an UpdateGraph of the channel to check its edges)`);
    }
    return problems;
  }
}

/** Why a released cluster's update path was checked from its own release: it moved before the previous output. */
const RELEASED_WHY = 'before their wave was released';

/** `a, b, c and 4 more`: the clusters' names, the first three of them. */
function clusters(members: readonly Member[]): string {
  return namedList(members.map((m) => m.id));
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
