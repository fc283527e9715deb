import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';

/**
 * The Namespace object for `name` in the chart of `scope`, created once per chart
 * so that several clusters can share a namespace such as `clusters`.
 */
export function ensureNamespace(scope: Construct, name: string): ApiObject {
  const chart = Chart.of(scope);
  const id = `Namespace-${name}`;
  const existing = chart.node.tryFindChild(id);
  if (existing) return existing as ApiObject;
  return new ApiObject(chart, id, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** A ConfigMap with string data. */
export function configMap(scope: Construct, id: string, name: string, namespace: string, data: Record<string, string>): ApiObject {
  return new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
}
