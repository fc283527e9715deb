import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { isDns1123Label } from './names';

/**
 * The Namespace object for `name` in the chart of `scope`, created once per chart
 * so that several clusters can share a namespace such as `clusters`.
 */
export function ensureNamespace(scope: Construct, name: string): ApiObject {
  // A name that cannot be a Namespace's stays with the construct that asked for it, which reports
  // the name: its objects are left unchecked, so the name is reported once.
  const owner = isDns1123Label(name) ? Chart.of(scope) : scope;
  const id = `Namespace-${name}`;
  const existing = owner.node.tryFindChild(id);
  if (existing) return existing as ApiObject;
  return new ApiObject(owner, id, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** A ConfigMap with string data. */
export function configMap(scope: Construct, id: string, name: string, namespace: string, data: Record<string, string>): ApiObject {
  return new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });
}
