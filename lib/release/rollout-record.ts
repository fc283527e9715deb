import type { IConstruct } from 'constructs';
import { hcpCdkCrd } from '../core/hcp-cdk-crd';

/**
 * hcp-cdk's record of a ReleaseRollout in the output: `<output>/rollouts/<rank>-releaserollout-<name>.yaml`.
 * No delivery applies it (the folder has no kustomization.yaml and no engine object points at it);
 * it is there so that `hcp-cdk plan`, which sees only outputs, knows the rollout's waves, and so
 * that a review of the commit shows which wave it releases.
 */
export const ROLLOUT_RECORD_API_VERSION = 'hcp-cdk.io/v1alpha1';
/** The record's kind. */
export const ROLLOUT_RECORD_KIND = 'ReleaseRollout';
/** TALM's default timeout (ClusterGroupUpgrade `spec.remediationStrategy.timeout`, in minutes): a record's `waveTimeoutMinutes` when it gives none. */
export const DEFAULT_WAVE_TIMEOUT_MINUTES = 240;
/** The top folder of the output that holds the records. */
export const ROLLOUT_RECORD_FOLDER = 'rollouts';

/** One wave as recorded: its clusters as plan names them, `<management folder>/<namespace>/<name>`. */
export interface RolloutRecordWave {
  /** The wave's name. */
  readonly name: string;
  /**
   * How the wave picks its clusters, as `RolloutWave.description` says it (`batch 50`, `labels {"ring":"1"}`):
   * once the wave is released, the commits after it may not pick otherwise.
   * @default - not recorded (a record of an older hcp-cdk)
   */
  readonly selection?: string;
  /** @default false */
  readonly holdNodePools?: boolean;
  /**
   * When the wave was released, as the rollout's state file records it (RFC 3339): where its timeout counts from.
   * @default - not known (released by hand)
   */
  readonly releasedAt?: string;
  /** The wave's clusters. */
  readonly clusters: readonly string[];
}

/**
 * The release the first waves of a retargeted rollout still run: a rollout in flight whose release
 * changed keeps its released waves on the release before until each is released again.
 */
export interface RolloutRecordPreviousTarget {
  /** The release image. */
  readonly image: string;
  /** Its OpenShift version, when known. */
  readonly version?: string;
  /** How many waves, from the first, run it. */
  readonly releasedWaves: number;
}

/** The record's spec. */
export interface RolloutRecordSpec {
  /** The rollout's release. */
  readonly release: {
    /** The release image. */
    readonly image: string;
    /** Its OpenShift version, when known. */
    readonly version?: string;
  };
  /** How many waves, from the first, are released. */
  readonly releasedWaves: number;
  /** What a failed cluster does to later waves: `Continue` or `Stop`. */
  readonly onFailure: string;
  /** The clusters whose upgrade failed or timed out, each counted once. @default - none */
  readonly failedClusters?: readonly string[];
  /** Those of `failedClusters` that timed out (see `waveTimeoutMinutes`). @default - none */
  readonly timedOutClusters?: readonly string[];
  /** Why each failed cluster failed, when known (from the rollout's state file), by cluster. @default - none */
  readonly failureReasons?: Readonly<Record<string, string>>;
  /** Under onFailure Continue, the most failed clusters the rollout goes on with. @default - no limit */
  readonly maxFailedClusters?: number;
  /** Under onFailure Continue, the most failed clusters, in percent of the clusters of the released waves. @default - no limit */
  readonly maxFailedPercent?: number;
  /** What a paused cluster of a released wave does to the next wave: `Hold` or `Continue`. @default 'Hold' */
  readonly onPaused?: string;
  /** How long a released wave's clusters have before they count as timed out, in minutes. @default 240 */
  readonly waveTimeoutMinutes?: number;
  /** Where clusters that join the rollout once a wave is released go: `LastWave` or `NextWave`. @default 'LastWave' */
  readonly newClusters?: string;
  /** The release the first waves still run after the rollout was retargeted. @default - none */
  readonly previousTarget?: RolloutRecordPreviousTarget;
  /** Rollouts that must be complete first, by name. @default - none */
  readonly after?: readonly string[];
  /**
   * The rollout's state file (see RolloutState), relative to the output directory (`../rollouts/r.state.yaml`):
   * what `hcp-cdk rollout advance` rewrites.
   * @default - none: the rollout states releasedWaves and failedClusters in code
   */
  readonly stateFile?: string;
  /** The waves, in order. */
  readonly waves: readonly RolloutRecordWave[];
}

/** The record of a release rollout that the output keeps in `rollouts/` for `hcp-cdk plan`; no engine applies it. */
export interface RolloutRecord {
  /** `hcp-cdk.io/v1alpha1`. */
  readonly apiVersion: string;
  /** `ReleaseRollout`. */
  readonly kind: string;
  /** The record's metadata: the rollout's name. */
  readonly metadata: {
    /** The rollout's name. */
    readonly name: string;
  };
  /** The rollout as it stands. */
  readonly spec: RolloutRecordSpec;
}

/**
 * Where a rollout finds the record of it the previous output holds, which fixes the clusters of
 * its released waves: the app it is in (HcpApp reads it from the previous output).
 */
export interface IRolloutRecordSource {
  /** The record of the rollout named `name` in the previous output; undefined when there is none. */
  previousRolloutRecord(name: string): RolloutRecord | undefined;
}

/** The record source of the app `scope` is in, if its root is one. */
export function rolloutRecordSourceOf(scope: IConstruct): IRolloutRecordSource | undefined {
  const root = scope.node.root as Partial<IRolloutRecordSource>;
  return typeof root.previousRolloutRecord === 'function' ? (root as IRolloutRecordSource) : undefined;
}

/**
 * Whether `value` has the fields of a record that the rollout rules read (a previous output of an
 * older hcp-cdk, or one edited by hand, may not): a release image, releasedWaves and named waves
 * with their clusters.
 */
export function isWellFormedRolloutRecord(value: any): value is RolloutRecord {
  const spec = value?.spec;
  return (
    value?.kind === ROLLOUT_RECORD_KIND &&
    typeof value?.metadata?.name === 'string' &&
    typeof spec?.release?.image === 'string' &&
    Number.isInteger(spec.releasedWaves) &&
    Array.isArray(spec.waves) &&
    spec.waves.every((wave: any) => typeof wave?.name === 'string' && Array.isArray(wave.clusters) && wave.clusters.every((c: unknown) => typeof c === 'string'))
  );
}

const names = { type: 'array', items: { type: 'string' } };

/** The record's schema, served to the validator with the bundled ones (`hcp-cdk validate` reads the records too). */
export const ROLLOUT_RECORD_CRD = hcpCdkCrd(ROLLOUT_RECORD_KIND, 'releaserollouts', {
  type: 'object',
  required: ['release', 'releasedWaves', 'onFailure', 'waves'],
  properties: {
    release: { type: 'object', required: ['image'], properties: { image: { type: 'string', minLength: 1 }, version: { type: 'string' } } },
    releasedWaves: { type: 'integer', minimum: 0 },
    onFailure: { type: 'string', enum: ['Continue', 'Stop'] },
    failedClusters: names,
    timedOutClusters: names,
    failureReasons: { type: 'object', additionalProperties: { type: 'string' } },
    maxFailedClusters: { type: 'integer', minimum: 0 },
    maxFailedPercent: { type: 'integer', minimum: 0, maximum: 100 },
    onPaused: { type: 'string', enum: ['Hold', 'Continue'] },
    waveTimeoutMinutes: { type: 'integer', minimum: 1 },
    newClusters: { type: 'string', enum: ['LastWave', 'NextWave'] },
    previousTarget: {
      type: 'object',
      required: ['image', 'releasedWaves'],
      properties: { image: { type: 'string', minLength: 1 }, version: { type: 'string' }, releasedWaves: { type: 'integer', minimum: 1 } },
    },
    after: names,
    stateFile: { type: 'string', minLength: 1 },
    waves: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'clusters'],
        properties: {
          name: { type: 'string', minLength: 1 },
          selection: { type: 'string' },
          holdNodePools: { type: 'boolean' },
          releasedAt: { type: 'string', format: 'date-time' },
          clusters: names,
        },
      },
    },
  },
});
