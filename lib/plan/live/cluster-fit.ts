import { resourceNameOf } from '../../validation/resource-name';
import type { LiveObjectState } from './live-findings';
import { LiveFinding, LiveFindingKind } from './live-report';

/** The cluster plan --live read, as the findings about it name it. */
export interface LiveTarget {
  /** The management folder of the outputs. */
  readonly managementFolder: string;
  /** The kubeconfig context. */
  readonly context: string;
  /** The API server's URL. */
  readonly server: string;
}

/** How many objects a finding lists before `and N more`. */
const LISTED = 5;

/**
 * The management cluster looks like another cluster than the one `managementFolder` is applied to:
 * more than half of the last committed output's objects (at least two) are not on it, the kinds it
 * does not serve counted too. One finding then stands for what would otherwise be a drift finding
 * per object and a missing-crd finding per kind.
 */
export function wrongClusterFinding(states: readonly LiveObjectState[], target: LiveTarget): LiveFinding | undefined {
  const committed = states.filter((s) => s.committed !== undefined);
  const absent = committed.filter((s) => s.live === undefined);
  if (committed.length < 2 || absent.length * 2 <= committed.length) return undefined;
  const unserved = [...new Set(states.filter((s) => !s.served).map((s) => `${s.kind} (${s.apiVersion})`))].sort();
  const kinds = unserved.length > 0 ? `, and it serves no ${unserved.join(', ')}` : '';
  return {
    finding: LiveFindingKind.WRONG_CLUSTER,
    refused: false,
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'ManagementCluster',
    name: target.managementFolder,
    summary:
      `${absent.length} of the ${committed.length} objects of the last committed output for management folder ${target.managementFolder} are not on the cluster of context ${target.context} (${target.server})${kinds}: ` +
      `it looks like another cluster than the one ${target.managementFolder}/ is applied to, or one that output was never applied to; check --context and --hub (drift is not listed object by object)`,
    details: { absent: absent.length, committed: committed.length, context: target.context, server: target.server, unservedKinds: unserved },
  };
}

/**
 * A finding per kind of the output that the cluster does not serve (its CRD not installed), naming
 * the CRD and the objects that need it: applying them fails until an operator brings the CRD.
 * The CRD's name comes from the output itself when it holds the CRD, else from the bundled schemas,
 * else from Kubernetes' convention (`<kind in lower case>s.<group>`).
 */
export function missingCrdFindings(states: readonly LiveObjectState[]): LiveFinding[] {
  const byKind = new Map<string, LiveObjectState[]>();
  for (const state of states.filter((s) => !s.served)) {
    const key = `${state.apiVersion}|${state.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), state]);
  }
  return [...byKind.values()].map((objects) => {
    const { apiVersion, kind } = objects[0];
    const crd = crdNameOf(apiVersion, kind, states);
    const names = objects.map((o) => `${o.namespace ? `${o.namespace}/` : ''}${o.name}`).sort();
    const listed = names.length > LISTED ? `${names.slice(0, LISTED).join(', ')} and ${names.length - LISTED} more` : names.join(', ');
    return {
      finding: LiveFindingKind.MISSING_CRD,
      refused: false,
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      name: crd,
      summary: `not on the cluster: it serves no ${kind} (${apiVersion}), so applying the output fails for the ${objects.length === 1 ? `${kind} that needs it` : `${objects.length} ${kind}s that need it`} (${listed}); install the operator that brings the CRD first, or check that --context names the management cluster`,
      details: { servesKind: kind, servesApiVersion: apiVersion, objects: names },
    };
  });
}

/** The name of the CRD that serves `kind` of `apiVersion`. */
function crdNameOf(apiVersion: string, kind: string, states: readonly LiveObjectState[]): string {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const shipped = states.map((s) => s.next ?? s.committed).find((o) => o?.kind === 'CustomResourceDefinition' && o.spec?.group === group && o.spec?.names?.kind === kind);
  if (typeof shipped?.metadata?.name === 'string') return shipped.metadata.name;
  return `${resourceNameOf(apiVersion, kind)}.${group}`;
}
