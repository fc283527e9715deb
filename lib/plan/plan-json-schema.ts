import { DeliveryMode } from '../gitops/delivery-mode';
import { LIVE_JSON_SCHEMA } from './live/live-json-schema';
import { ChangeEffect, ClusterNoteKind, PlanAction, PLAN_SCHEMA_VERSION } from './plan-report';

const EFFECTS = Object.values(ChangeEffect);
const CLUSTER = { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$' } as const;
const WAVE_CLUSTERS = {
  type: 'array',
  items: {
    type: 'object',
    required: ['wave', 'name', 'clusters'],
    additionalProperties: false,
    properties: {
      wave: { type: 'integer', minimum: 1, description: "The wave's place, from 1." },
      name: { type: 'string' },
      clusters: { type: 'array', items: CLUSTER },
    },
  },
} as const;
const ROLLOUT_CLUSTERS = {
  type: 'array',
  minItems: 1,
  items: {
    type: 'object',
    required: ['cluster', 'wave'],
    additionalProperties: false,
    properties: {
      cluster: CLUSTER,
      wave: { type: 'integer', minimum: 0, description: "The wave's place, from 1 (0: in no wave of the record)." },
      reason: { type: 'string', description: 'Why, when known.' },
    },
  },
} as const;

/**
 * The JSON Schema (draft 2020-12) of `hcp-cdk plan --json`, version `PLAN_SCHEMA_VERSION`:
 * the contract for CI jobs that read plans. `hcp-cdk plan --json-schema` prints it.
 *
 * @jsonDocument
 */
export const PLAN_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: `https://${PLAN_SCHEMA_VERSION}`,
  title: 'hcp-cdk plan',
  description: 'What applying a new hcp-cdk output over the previous one does to the clusters, object by object.',
  type: 'object',
  required: ['schemaVersion', 'previous', 'next', 'summary', 'clusterNotes', 'objects'],
  additionalProperties: false,
  properties: {
    schemaVersion: { const: PLAN_SCHEMA_VERSION, description: 'Fields are only added within a version.' },
    previous: { type: 'string', description: 'The previous output: a directory, or `<ref> of <repository> (<path>/)`.' },
    next: { type: 'string', description: 'The new output.' },
    summary: {
      type: 'object',
      required: ['create', 'update', 'delete', 'unchanged', 'effects', 'clustersChanged'],
      additionalProperties: false,
      properties: {
        create: { type: 'integer', minimum: 0 },
        update: { type: 'integer', minimum: 0 },
        delete: { type: 'integer', minimum: 0 },
        unchanged: { type: 'integer', minimum: 0 },
        effects: {
          type: 'object',
          description: 'How many objects have each effect.',
          propertyNames: { enum: EFFECTS },
          additionalProperties: { type: 'integer', minimum: 1 },
        },
        clustersChanged: { type: 'array', items: { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$' }, description: 'Hosted clusters with any change, `<management folder>/<namespace>/<name>`.' },
      },
    },
    clusterNotes: {
      type: 'array',
      items: {
        type: 'object',
        required: ['cluster', 'note'],
        additionalProperties: false,
        properties: {
          cluster: { type: 'string' },
          kind: { enum: Object.values(ClusterNoteKind), description: 'What the note is about; absent: upgrade-in-one-commit.' },
          note: { type: 'string' },
          delivery: { enum: Object.values(DeliveryMode), description: 'How the output is delivered, as its HostedCluster records it (hcp-cdk.io/delivery); absent when not recorded.' },
          poolsWait: { type: 'boolean', description: 'Whether the pools roll only once the control plane reports the new version; absent when it depends on an engine the output does not name.' },
        },
      },
    },
    rollouts: {
      type: 'array',
      description: 'The release rollouts the new output records (rollouts/), by name; absent when it records none.',
      items: {
        type: 'object',
        required: ['name', 'release', 'waves', 'releasedWaves', 'moves', 'left', 'summary'],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          release: {
            type: 'object',
            required: ['image'],
            additionalProperties: false,
            properties: { image: { type: 'string' }, version: { type: 'string' } },
          },
          waves: { type: 'integer', minimum: 1, description: 'How many waves the rollout has.' },
          releasedWaves: { type: 'integer', minimum: 0, description: 'How many the new output releases.' },
          moves: { ...WAVE_CLUSTERS, description: 'The waves this commit moves, with the clusters it moves to the release; more than one is refused.' },
          left: { ...WAVE_CLUSTERS, description: 'The clusters of the waves not released yet, by wave.' },
          failedClusters: { type: 'array', items: CLUSTER, description: 'The clusters the rollout lists as failed, timed-out ones included; absent when none.' },
          failed: { ...ROLLOUT_CLUSTERS, description: 'The failed clusters (not timed out), with their wave and why; absent when none.' },
          timedOut: { ...ROLLOUT_CLUSTERS, description: "The clusters that ran out of their wave's timeout; absent when none." },
          held: { ...ROLLOUT_CLUSTERS, description: 'Clusters of released waves whose pools the wave holds on the release before (holdNodePools); absent when none.' },
          paused: { ...ROLLOUT_CLUSTERS, description: 'Clusters of released waves paused in the previous output, with what is paused until when; absent when none.' },
          removed: { const: true, description: 'The new output no longer records the rollout; absent otherwise.' },
          refusals: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            description: 'Why the rollout refuses the commit; the moved objects carry them as refused, and plan exits 1. Absent when there is nothing to say.',
          },
          warnings: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            description: 'What a reviewer must know that is not refused (a removed rollout that recorded failures); absent when there is nothing to say.',
          },
          summary: { type: 'string', description: 'One line: `wave 2 of 3 (ring-1) moves 12 clusters: …; 450 left in wave 3 (rest)`.' },
        },
      },
    },
    updateGraph: {
      type: 'object',
      required: ['graphs', 'summary'],
      additionalProperties: false,
      description: 'Which control-plane updates an update graph checked; absent when nothing updates a control plane and the output keeps no graph.',
      properties: {
        graphs: { type: 'array', items: { type: 'string' }, description: 'The channels whose update graph the new output keeps.' },
        unchecked: {
          type: 'array',
          minItems: 1,
          description: 'The control-plane updates no graph checked (version arithmetic only), by channel.',
          items: {
            type: 'object',
            required: ['clusters'],
            additionalProperties: false,
            properties: { channel: { type: 'string' }, clusters: { type: 'array', items: CLUSTER } },
          },
        },
        summary: { type: 'string' },
      },
    },
    objects: {
      type: 'array',
      description: 'Every created, updated or deleted object (and, with --include-unchanged, the others), ordered by file.',
      items: {
        type: 'object',
        required: ['action', 'apiVersion', 'kind', 'name', 'file', 'changes', 'effects'],
        additionalProperties: false,
        properties: {
          action: { enum: Object.values(PlanAction) },
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          namespace: { type: 'string' },
          name: { type: 'string' },
          file: { type: 'string', description: "The file in the new output; the previous output's for a deleted object." },
          previousFile: { type: 'string', description: 'The previous file, when the object moved to another file for its cluster.' },
          cluster: { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$', description: 'The hosted cluster the object belongs to, `<management folder>/<namespace>/<name>`.' },
          changes: {
            type: 'array',
            items: {
              type: 'object',
              required: ['path'],
              additionalProperties: false,
              properties: {
                path: { type: 'string', description: 'The field: `spec.release.image`, `metadata.labels["a/b"]`, `spec.list[name=x].field`.' },
                before: { description: 'Absent when the field is new.' },
                after: { description: 'Absent when the field is removed.' },
              },
            },
          },
          effects: {
            type: 'array',
            items: {
              type: 'object',
              required: ['effect', 'summary'],
              additionalProperties: false,
              properties: {
                effect: { enum: EFFECTS },
                summary: { type: 'string' },
                fields: { type: 'array', items: { type: 'string' } },
                details: {
                  type: 'object',
                  description:
                    'control-plane-upgrade: from, to, fromImage, toImage, upgrade (an UpgradeKind or unknown); node-pool-rollout and configuration-rollout: pool, strategy, maxSurge, maxUnavailable, nodes, batches (and from, to for a release); scale: from, to (a count or {min, max}); destructive: protected, referencedBy; create: appliedByHand for an object no engine applies (a Velero Backup or Restore); remove: protected, and leftInCluster for guest content the engine leaves in its hosted cluster or an object applied by hand (with appliedByHand); refused: problems.',
                },
              },
            },
          },
          warnings: {
            type: 'array',
            items: { type: 'string' },
            minItems: 1,
            description: 'What plan could not check about the change (a release whose version is unknown: no update path, no version skew checked); absent when there is nothing to say.',
          },
        },
      },
    },
    live: LIVE_JSON_SCHEMA,
  },
} as const;
