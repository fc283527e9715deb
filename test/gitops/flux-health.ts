// Runs a Flux health check expression (`spec.healthCheckExprs[]`) on an object as kustomize-controller
// does: `inProgress`, then `failed`, then `current`; the first that holds decides, and none is in progress.
import { Environment } from '@marcbachmann/cel-js';

const environment = new Environment({ enableOptionalTypes: true }).registerVariable('status', 'dyn').registerVariable('spec', 'dyn').registerVariable('metadata', 'dyn');

/** Flux's status of `object` under `check`. */
export function fluxVerdict(check: { inProgress?: string; failed?: string; current: string }, object: { spec?: unknown; status?: unknown; metadata?: unknown }): 'InProgress' | 'Failed' | 'Current' {
  const holds = (expression?: string) =>
    expression !== undefined && environment.evaluate(expression, { spec: object.spec ?? {}, status: object.status ?? {}, metadata: object.metadata ?? {} }) === true;
  if (holds(check.inProgress)) return 'InProgress';
  if (holds(check.failed)) return 'Failed';
  return holds(check.current) ? 'Current' : 'InProgress';
}
