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

/**
 * Keeps a GitOps engine pointed at a hand-applied folder by hand from applying a Velero Backup or
 * Restore, which would start it: Argo CD skips a manifest with hook type Skip; Flux does not apply
 * changes to an object whose reconcile is disabled. hcp-cdk's deliveries do not deliver the folder
 * at all (its chart is applied by hand, see applyByHand). `oc apply -k` ignores these annotations.
 */
export const MANUAL_APPLY_ANNOTATIONS: Readonly<Record<string, string>> = {
  'argocd.argoproj.io/hook': 'Skip',
  'kustomize.toolkit.fluxcd.io/reconcile': 'disabled',
};

/** Whether a rendered object carries MANUAL_APPLY_ANNOTATIONS: it is applied by hand only, as `hcp-cdk plan` reads the output. */
export function carriesManualApply(object: unknown): boolean {
  const annotations = (object as { metadata?: { annotations?: Record<string, unknown> } })?.metadata?.annotations ?? {};
  return Object.entries(MANUAL_APPLY_ANNOTATIONS).every(([key, value]) => annotations[key] === value);
}
