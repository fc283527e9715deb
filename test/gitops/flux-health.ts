// Runs a Flux health check expression (`spec.healthCheckExprs[]`) on an object as kustomize-controller
// does (fluxcd/pkg runtime/cel, StatusEvaluator.Evaluate): InProgress when status.observedGeneration
// differs from metadata.generation; else `inProgress`, then `failed`, then `current`, the first that
// holds deciding, and none is in progress. The object's top-level fields are the variables, and its
// integers are CEL ints, as Go's unstructured objects hold them.
import { Environment } from '@marcbachmann/cel-js';

const environment = new Environment({ enableOptionalTypes: true })
  .registerVariable('apiVersion', 'dyn')
  .registerVariable('kind', 'dyn')
  .registerVariable('metadata', 'dyn')
  .registerVariable('spec', 'dyn')
  .registerVariable('status', 'dyn');

/** Flux's status of `object` under `check`. */
export function fluxVerdict(
  check: { inProgress?: string; failed?: string; current: string },
  object: { apiVersion?: string; kind?: string; spec?: unknown; status?: any; metadata?: any },
): 'InProgress' | 'Failed' | 'Current' {
  const observed = object.status?.observedGeneration;
  if (typeof observed === 'number' && typeof object.metadata?.generation === 'number' && observed !== object.metadata.generation) return 'InProgress';
  const variables = asGoValues({ apiVersion: object.apiVersion ?? '', kind: object.kind ?? '', metadata: object.metadata ?? {}, spec: object.spec ?? {}, status: object.status ?? {} });
  const holds = (expression?: string) => expression !== undefined && environment.evaluate(expression, variables) === true;
  if (holds(check.inProgress)) return 'InProgress';
  if (holds(check.failed)) return 'Failed';
  return holds(check.current) ? 'Current' : 'InProgress';
}

/** `value` with its integers as BigInt (CEL int), as JSON decodes into Go's unstructured objects. */
function asGoValues(value: any): any {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(asGoValues);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, asGoValues(item)]));
  return value;
}
