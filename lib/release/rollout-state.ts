import { CORE_SCHEMA, load } from 'js-yaml';
import { isRfc3339, RFC3339_RULE } from '../core/formats';
import { show } from '../core/problems';
import { yamlText } from '../core/yaml-text';
import { readRegularFile } from '../validation/bounded-read';
import { ROLLOUT_RECORD_API_VERSION } from './rollout-record';

/** The kind of a rollout's state file. */
export const ROLLOUT_STATE_KIND = 'ReleaseRolloutState';

/** A cluster of a released wave whose upgrade failed or timed out. */
export interface RolloutFailure {
  /** The cluster: `<name>`, `<management cluster>/<name>`, or `<management folder>/<namespace>/<name>` as plan names it. */
  readonly cluster: string;
  /** Why: HyperShift's reason and message, or how long it has been upgrading. @default - not said */
  readonly reason?: string;
  /** Whether it ran out of time (the wave's timeout) rather than failed. @default false */
  readonly timedOut?: boolean;
}

/** When a wave was released, which its timeout counts from. */
export interface RolloutWaveRelease {
  /** The wave's name. */
  readonly wave: string;
  /** When, as an RFC 3339 time in UTC. */
  readonly releasedAt: string;
}

/** What a rollout's state file holds: how far the rollout is, and what failed on the way. */
export interface RolloutStateSpec {
  /** How many waves, from the first, are released. */
  readonly releasedWaves: number;
  /** When each released wave was released, as far as known. @default - none known */
  readonly waves?: readonly RolloutWaveRelease[];
  /** The clusters whose upgrade failed or timed out. @default - none */
  readonly failedClusters?: readonly RolloutFailure[];
}

/**
 * The state of a release rollout as a small file of its own beside the app
 * (`apiVersion: hcp-cdk.io/v1alpha1`, `kind: ReleaseRolloutState`): the released waves, when each
 * was released, and the clusters that failed or timed out, with why. Give it to the rollout
 * (`ReleaseRolloutProps.state`, or `stateFile` in a fleet inventory) instead of `releasedWaves` and
 * `failedClusters`; the command that advances a rollout from what the live clusters report
 * rewrites this file and nothing else, so that its change is one small reviewable commit.
 */
export class RolloutState {
  /** Reads a state file; what is wrong with it is in `problems`, reported by the rollout that reads it. */
  public static fromFile(file: string): RolloutState {
    let text: string;
    try {
      // A regular file within the size bound, as every hand-written file is read: a FIFO or a link to a device is refused, not waited on.
      text = readRegularFile(file).toString('utf8');
    } catch (error) {
      return new RolloutState(undefined, { releasedWaves: 0 }, file, [(error as Error).message], file);
    }
    const read = RolloutState.fromText(text, file);
    return new RolloutState(read.name, read.spec, file, read.problems, file);
  }

  /** Reads the text of a state file; `source` names it in problems. */
  public static fromText(text: string, source: string): RolloutState {
    let document: any;
    try {
      document = load(text, { schema: CORE_SCHEMA, filename: source });
    } catch (error) {
      return new RolloutState(undefined, { releasedWaves: 0 }, source, [`${source} is not YAML: ${(error as Error).message.split('\n')[0]}`]);
    }
    return RolloutState.fromDocument(document, source);
  }

  /** The state of rollout `name` as given in code. */
  public static of(name: string, spec: RolloutStateSpec): RolloutState {
    return RolloutState.fromDocument({ apiVersion: ROLLOUT_RECORD_API_VERSION, kind: ROLLOUT_STATE_KIND, metadata: { name }, spec }, `the state of ${name}`);
  }

  private static fromDocument(document: any, source: string): RolloutState {
    const problems: string[] = [];
    const at = (field: string, value: unknown, expected: string): void => {
      problems.push(`${source}: ${field} (${show(value)}) ${expected}`);
    };
    if (document?.apiVersion !== ROLLOUT_RECORD_API_VERSION || document?.kind !== ROLLOUT_STATE_KIND) {
      at('apiVersion and kind', `${document?.apiVersion}/${document?.kind}`, `must be ${ROLLOUT_RECORD_API_VERSION}/${ROLLOUT_STATE_KIND}`);
    }
    const name = document?.metadata?.name;
    if (typeof name !== 'string' || name === '') at('metadata.name', name, "must be the rollout's name");
    const spec = document?.spec ?? {};
    const releasedWaves = spec.releasedWaves ?? 0;
    if (!Number.isInteger(releasedWaves) || releasedWaves < 0) at('spec.releasedWaves', releasedWaves, 'must be a whole number >= 0');
    const waves: RolloutWaveRelease[] = [];
    (Array.isArray(spec.waves) ? spec.waves : spec.waves === undefined ? [] : [spec.waves]).forEach((wave: any, i: number) => {
      if (typeof wave?.wave !== 'string' || wave.wave === '') at(`spec.waves[${i}].wave`, wave?.wave, "must be the wave's name");
      else if (!isRfc3339(wave.releasedAt)) at(`spec.waves[${i}].releasedAt`, wave.releasedAt, RFC3339_RULE);
      else waves.push({ wave: wave.wave, releasedAt: wave.releasedAt });
    });
    const failed: RolloutFailure[] = [];
    (Array.isArray(spec.failedClusters) ? spec.failedClusters : spec.failedClusters === undefined ? [] : [spec.failedClusters]).forEach((entry: any, i: number) => {
      const field = `spec.failedClusters[${i}]`;
      if (typeof entry?.cluster !== 'string' || entry.cluster === '')
        at(`${field}.cluster`, entry?.cluster, 'must name a cluster: <name>, <management cluster>/<name> or <management folder>/<namespace>/<name>');
      else if (entry.reason !== undefined && typeof entry.reason !== 'string') at(`${field}.reason`, entry.reason, 'must be a sentence');
      else if (entry.timedOut !== undefined && typeof entry.timedOut !== 'boolean') at(`${field}.timedOut`, entry.timedOut, 'must be true or false');
      else failed.push({ cluster: entry.cluster, ...(entry.reason ? { reason: entry.reason } : {}), ...(entry.timedOut ? { timedOut: true } : {}) });
    });
    const clean: RolloutStateSpec = {
      releasedWaves: Number.isInteger(releasedWaves) && releasedWaves >= 0 ? releasedWaves : 0,
      ...(waves.length > 0 ? { waves } : {}),
      ...(failed.length > 0 ? { failedClusters: failed } : {}),
    };
    return new RolloutState(typeof name === 'string' ? name : undefined, clean, source, problems);
  }

  /** The rollout's name, as the file gives it. */
  public readonly name?: string;
  /** What the file holds (the parts that parse). */
  public readonly spec: RolloutStateSpec;
  /** Where it was read from, for messages. */
  public readonly source: string;
  /** What is wrong with the file, each naming the file and the field. */
  public readonly problems: readonly string[];
  /**
   * The file it was read from (`fromFile`), which the rollout's record names so that
   * `hcp-cdk rollout advance` knows what to rewrite.
   * @default - not read from a file
   */
  public readonly file?: string;

  private constructor(name: string | undefined, spec: RolloutStateSpec, source: string, problems: readonly string[], file?: string) {
    this.name = name;
    this.spec = spec;
    this.source = source;
    this.problems = problems;
    if (file !== undefined) this.file = file;
  }

  /** How many waves are released. */
  public get releasedWaves(): number {
    return this.spec.releasedWaves;
  }

  /** The clusters that failed or timed out. */
  public get failedClusters(): readonly RolloutFailure[] {
    return this.spec.failedClusters ?? [];
  }

  /** When wave `name` was released, if the file says. */
  public releasedAt(wave: string): string | undefined {
    return this.spec.waves?.find((w) => w.wave === wave)?.releasedAt;
  }
}

/** The text of the state file of rollout `name` holding `spec`, as the advance command writes it. */
export function rolloutStateText(name: string, spec: RolloutStateSpec): string {
  return yamlText({ apiVersion: ROLLOUT_RECORD_API_VERSION, kind: ROLLOUT_STATE_KIND, metadata: { name }, spec: JSON.parse(JSON.stringify(spec)) });
}
