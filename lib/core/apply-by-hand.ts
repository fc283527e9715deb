import { Chart } from 'cdk8s';
import { HcpValidationError } from './problems';

/** Why a chart's objects are applied by hand only, per chart. */
const byHand = new WeakMap<Chart, string>();

/** Options of `applyByHand`. */
export interface ApplyByHandOptions {
  /** Why no engine may apply the chart on its own; written nowhere, required so that the choice is explicit in review. */
  readonly reason: string;
}

/**
 * Marks a chart whose objects no GitOps engine may apply on its own, because applying them is an
 * act rather than a state: a Velero Restore starts a restore over what runs. Every delivery still
 * writes its folder (with its kustomization.yaml, for `oc apply -k`), but no Argo CD Application,
 * Flux Kustomization or ACM Policy applies it.
 */
export function applyByHand(chart: Chart, options: ApplyByHandOptions): void {
  const reason: unknown = options?.reason;
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new HcpValidationError([`${chart.node.path}: applyByHand reason (${JSON.stringify(reason)}) must say why no engine may apply these objects`]);
  }
  byHand.set(chart, reason);
}

/** Why `chart` is applied by hand only, or undefined when engines may apply it. */
export function appliedByHand(chart: Chart): string | undefined {
  return byHand.get(chart);
}
