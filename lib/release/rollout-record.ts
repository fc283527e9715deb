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
/** The top folder of the output that holds the records. */
export const ROLLOUT_RECORD_FOLDER = 'rollouts';

/** One wave as recorded: its clusters as plan names them, `<management folder>/<namespace>/<name>`. */
export interface RolloutRecordWave {
  /** The wave's name. */
  readonly name: string;
  /** @default false */
  readonly holdNodePools?: boolean;
  /** The wave's clusters. */
  readonly clusters: readonly string[];
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
  /** @default - none */
  readonly failedClusters?: readonly string[];
  /** Rollouts that must be complete first, by name. @default - none */
  readonly after?: readonly string[];
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
    after: names,
    waves: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'clusters'],
        properties: { name: { type: 'string', minLength: 1 }, holdNodePools: { type: 'boolean' }, clusters: names },
      },
    },
  },
});
