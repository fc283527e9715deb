import { RolloutAdvanceOutcome } from '../../release/rollout-advance';
import { ROLLOUT_ADVANCE_SCHEMA_VERSION } from './advance-rollouts';
import { RolloutClusterState, ROLLOUT_STATUS_SCHEMA_VERSION } from './rollout-status';

const CLUSTER = { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$' } as const;
const TIME = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$', description: 'An RFC 3339 time.' } as const;
const STATES = Object.values(RolloutClusterState);
const OUTCOMES = Object.values(RolloutAdvanceOutcome);
const EXIT_CODE = { type: 'integer', enum: [0, 2, 3, 4] } as const;
const COUNTS = {
  type: 'object',
  description: 'How many clusters are in each state (states with none left out).',
  propertyNames: { enum: STATES },
  additionalProperties: { type: 'integer', minimum: 1 },
} as const;

const HUBS = {
  type: 'array',
  description: 'Each management cluster (management folder of the output) the rollouts span, in folder order.',
  items: {
    type: 'object',
    required: ['managementFolder', 'namespaces', 'clusters', 'hostedClustersRead', 'nodePoolsRead', 'pages'],
    additionalProperties: false,
    properties: {
      managementFolder: { type: 'string' },
      context: { type: 'string', description: 'The kubeconfig context read; absent when none fits.' },
      server: { type: 'string' },
      namespaces: { type: 'array', items: { type: 'string' }, description: 'The namespaces listed.' },
      clusters: { type: 'integer', minimum: 0, description: "How many of the rollouts' clusters it runs, by the records." },
      hostedClustersRead: { type: 'integer', minimum: 0 },
      nodePoolsRead: { type: 'integer', minimum: 0 },
      pages: { type: 'integer', minimum: 0, description: 'Pages of lists read (limit and continue).' },
      error: { type: 'string', description: 'Why it could not be read; its clusters are unread.' },
    },
  },
} as const;

const PART = {
  type: 'object',
  required: ['model', 'summary'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', description: "The NodePool's name; absent for the control plane." },
    version: { type: 'string', description: 'The version it runs.' },
    model: { type: 'string', description: "hcp-cdk's model of its status: state or state/progress (docs/hypershift-status.md)." },
    summary: { type: 'string', description: "The model's one line, with HyperShift's condition when one decided it." },
  },
} as const;

/**
 * The JSON Schema (draft 2020-12) of `hcp-cdk rollout status --json`, version
 * `ROLLOUT_STATUS_SCHEMA_VERSION`: the contract for pipelines that read it.
 * `hcp-cdk rollout status --json-schema` prints it.
 *
 * @jsonDocument
 */
export const ROLLOUT_STATUS_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://${ROLLOUT_STATUS_SCHEMA_VERSION}`,
  title: 'hcp-cdk rollout status',
  description: 'Where each release rollout of an output stands on the live management clusters, per wave and cluster.',
  type: 'object',
  required: ['schemaVersion', 'time', 'output', 'hubs', 'rollouts'],
  additionalProperties: false,
  properties: {
    schemaVersion: { const: ROLLOUT_STATUS_SCHEMA_VERSION, description: 'Fields are only added within a version.' },
    time: TIME,
    output: { type: 'string', description: 'The output directory whose records were read.' },
    hubs: HUBS,
    rollouts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'release', 'releasedWaves', 'onFailure', 'onPaused', 'waveTimeoutMinutes', 'counts', 'waves'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          release: { type: 'object', required: ['image'], additionalProperties: false, properties: { image: { type: 'string' }, version: { type: 'string' } } },
          releasedWaves: { type: 'integer', minimum: 0 },
          onFailure: { enum: ['Continue', 'Stop'] },
          onPaused: { enum: ['Hold', 'Continue'] },
          waveTimeoutMinutes: { type: 'integer', minimum: 1 },
          stateFile: { type: 'string', description: 'Its state file, relative to the output directory.' },
          counts: COUNTS,
          next: {
            type: 'object',
            description: 'What hcp-cdk rollout advance would decide now.',
            required: ['outcome', 'exitCode', 'summary', 'reasons'],
            additionalProperties: false,
            properties: { outcome: { enum: OUTCOMES }, exitCode: EXIT_CODE, summary: { type: 'string' }, reasons: { type: 'array', items: { type: 'string' } } },
          },
          undecided: { type: 'string', description: 'Why there is no decision (a management cluster of its released waves not read).' },
          waves: {
            type: 'array',
            items: {
              type: 'object',
              required: ['name', 'number', 'released', 'counts', 'clusters'],
              additionalProperties: false,
              properties: {
                name: { type: 'string' },
                number: { type: 'integer', minimum: 1 },
                released: { type: 'boolean' },
                releasedAt: TIME,
                timesOutAt: TIME,
                holdNodePools: { const: true },
                counts: COUNTS,
                clusters: {
                  type: 'array',
                  items: {
                    type: 'object',
                    required: ['cluster', 'state'],
                    additionalProperties: false,
                    properties: {
                      cluster: CLUSTER,
                      state: { enum: STATES },
                      reason: { type: 'string', description: 'Why, for every state but done and pending.' },
                      recorded: { const: true, description: "The failure or timeout is the one the rollout's record lists." },
                      controlPlane: PART,
                      nodePools: { type: 'array', items: PART },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/**
 * The JSON Schema (draft 2020-12) of `hcp-cdk rollout advance --json`, version
 * `ROLLOUT_ADVANCE_SCHEMA_VERSION`. `hcp-cdk rollout advance --json-schema` prints it.
 *
 * @jsonDocument
 */
export const ROLLOUT_ADVANCE_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://${ROLLOUT_ADVANCE_SCHEMA_VERSION}`,
  title: 'hcp-cdk rollout advance',
  description: 'What advancing release rollouts from the live clusters decided, and which state files it rewrote.',
  type: 'object',
  required: ['schemaVersion', 'time', 'output', 'exitCode', 'hubs', 'rollouts'],
  additionalProperties: false,
  properties: {
    schemaVersion: { const: ROLLOUT_ADVANCE_SCHEMA_VERSION, description: 'Fields are only added within a version.' },
    time: TIME,
    output: { type: 'string' },
    exitCode: { ...EXIT_CODE, description: 'The exit code: 0 advance, 2 wait, 3 blocked, 4 complete; over several rollouts the first of 3, 0, 2, 4 any has.' },
    hubs: HUBS,
    rollouts: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rollout', 'outcome', 'exitCode', 'reasons', 'members', 'newFailures', 'summary', 'stateFile', 'written'],
        additionalProperties: false,
        properties: {
          rollout: { type: 'string' },
          outcome: { enum: OUTCOMES },
          exitCode: EXIT_CODE,
          reasons: { type: 'array', items: { type: 'string' }, description: 'Why the next wave is not released (wait, blocked).' },
          members: {
            type: 'array',
            description: 'Every member of the released waves, with its verdict.',
            items: {
              type: 'object',
              required: ['cluster', 'wave', 'verdict'],
              additionalProperties: false,
              properties: {
                cluster: CLUSTER,
                wave: { type: 'integer', minimum: 1 },
                verdict: { enum: ['done', 'upgrading', 'failed', 'timed-out', 'paused', 'held', 'failed-before'] },
                reason: { type: 'string' },
              },
            },
          },
          newFailures: {
            type: 'array',
            items: { type: 'object', required: ['cluster'], additionalProperties: false, properties: { cluster: CLUSTER, reason: { type: 'string' }, timedOut: { const: true } } },
          },
          state: { type: 'object', description: "The state file's next spec, when the decision changes it." },
          summary: { type: 'string', description: 'One line, for the commit message or the log.' },
          stateFile: { type: 'string' },
          written: { type: 'boolean' },
        },
      },
    },
  },
} as const;
