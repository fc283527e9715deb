import { HyperShiftVersionSource } from './live-hypershift-version';
import { LiveFindingKind } from './live-report';

/** The JSON Schema of a plan's `live` (LiveReport): part of PLAN_JSON_SCHEMA, present only with `--live`. */
export const LIVE_JSON_SCHEMA = {
  type: 'object',
  description: 'What the management cluster holds, read through a kubeconfig context (hcp-cdk plan --live); absent without --live.',
  required: ['context', 'server', 'managementFolder', 'objectsRead', 'objectsFound', 'findings'],
  additionalProperties: false,
  properties: {
    context: { type: 'string', description: 'The kubeconfig context read.' },
    server: { type: 'string', description: 'Its API server.' },
    managementFolder: { type: 'string', description: 'The management folder of the outputs that this cluster runs.' },
    objectsRead: { type: 'integer', minimum: 0, description: 'Objects of the management folder looked up (Secrets are not read).' },
    objectsFound: { type: 'integer', minimum: 0, description: 'How many of them the cluster holds.' },
    hyperShift: {
      type: 'object',
      description:
        "The HyperShift version whose version rules (supported range, NodePool skew) the plan applied for this cluster: its operator's supported-versions ConfigMap, else the output's record.",
      required: ['source', 'summary'],
      additionalProperties: false,
      properties: {
        version: { type: 'string', description: 'As hcp-cdk.io/hypershift-version writes it: 4.17, mce-2.7; absent with the default rules.' },
        source: { enum: Object.values(HyperShiftVersionSource) },
        recorded: { type: 'string', description: 'What the output records, when the cluster reports another version.' },
        serverVersion: { type: 'string', description: "The operator's build (server-version of the ConfigMap)." },
        summary: { type: 'string' },
      },
    },
    findings: {
      type: 'array',
      description: 'Refused findings first, then by cluster and object.',
      items: {
        type: 'object',
        required: ['finding', 'refused', 'apiVersion', 'kind', 'name', 'summary'],
        additionalProperties: false,
        properties: {
          finding: { enum: Object.values(LiveFindingKind) },
          refused: { type: 'boolean', description: 'HyperShift would not carry out the change while the cluster is as it is; the plan exits 1.' },
          cluster: { type: 'string', pattern: '^[^/]+/[^/]+/[^/]+$' },
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          namespace: { type: 'string' },
          name: { type: 'string' },
          summary: { type: 'string' },
          fields: {
            type: 'array',
            description: 'drift: the fields the last committed output sets that the cluster holds otherwise.',
            items: {
              type: 'object',
              required: ['path', 'committed'],
              additionalProperties: false,
              properties: {
                path: { type: 'string' },
                committed: { description: 'The value of the last committed output.' },
                live: { description: 'The value on the cluster; absent when the field is gone.' },
                next: { description: 'The value of the new output; absent when it does not set the field.' },
              },
            },
          },
          details: {
            type: 'object',
            description:
              "upgrade-in-progress, install-in-progress: inProgress, inProgressImage (null when unknown), and to, toImage when the commit upgrades; hypershift-refuses, paused, deleting, degraded, not-reconciled, pool-rolling: state and progress (hcp-cdk's model of the status, lib/status), condition (type, status, reason, message: the HyperShift condition that decided it), running (the version it runs); version-skew: controlPlaneReports, pool; not-available: status, reason, message; missing-crd: servesKind, servesApiVersion, objects; wrong-cluster: absent, committed, context, server, unservedKinds; drift: missing (the object is not on the cluster).",
          },
        },
      },
    },
  },
} as const;
