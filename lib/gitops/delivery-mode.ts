/**
 * How an output reaches its clusters, as far as the order of an upgrade goes: every delivery
 * records its mode on each HostedCluster it places (`hcp-cdk.io/delivery`), so that `hcp-cdk plan`,
 * which reads only the output, can say whether the NodePools of an upgrade wait for the control plane.
 */
export enum DeliveryMode {
  /** `KustomizeDelivery`: folders applied with `oc apply -k`, or by an engine hcp-cdk does not know. */
  KUSTOMIZE = 'kustomize',
  /** `ArgoCdDelivery` whose Argo CD has `ARGO_CD_HEALTH_CHECKS`: wave 60 (NodePools) waits until the HostedCluster runs its release. */
  ARGO_CD = 'argocd',
  /** `ArgoCdDelivery` whose Argo CD lacks them: a HostedCluster counts as Healthy as soon as it exists, so nothing waits. */
  ARGO_CD_WITHOUT_HEALTH_CHECKS = 'argocd-without-health-checks',
  /** `FluxDelivery`: the node-pools Kustomization depends on the cluster's, whose health check waits for the release. */
  FLUX = 'flux',
  /** `AcmDelivery`: the hub folders are applied by whatever engine is pointed at them. */
  ACM = 'acm',
}

/** Where a HostedCluster records the delivery mode of the output it is in (hcp-cdk's own; HyperShift ignores it). */
export const DELIVERY_MODE_ANNOTATION = 'hcp-cdk.io/delivery';

/** Records `mode` on a HostedCluster about to be written; other objects are left alone. */
export function recordDeliveryMode(json: any, mode: DeliveryMode): void {
  if (json?.kind !== 'HostedCluster') return;
  // The rendered object is the synth's own to change (see PlacedObject.json).
  (json.metadata.annotations ??= {})[DELIVERY_MODE_ANNOTATION] = mode;
}

/** The delivery mode a HostedCluster of an output records, or undefined (an output of an older hcp-cdk, or an unknown value). */
export function deliveryModeOf(hostedCluster: any): DeliveryMode | undefined {
  const mode = hostedCluster?.metadata?.annotations?.[DELIVERY_MODE_ANNOTATION];
  return (Object.values(DeliveryMode) as string[]).includes(mode) ? (mode as DeliveryMode) : undefined;
}
