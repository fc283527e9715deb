import { DELIVERY_MODE_ANNOTATION, DeliveryMode } from '../gitops/delivery-mode';

/** A control plane and some of its pools upgraded by one commit, as plan found them. */
export interface OneCommitUpgrade {
  /** The delivery mode the new output's HostedCluster records; undefined when it records none. */
  readonly mode?: DeliveryMode;
  /** The version (or, when unknown, the image) the control plane goes to. */
  readonly to: string;
  /** The release image the control plane goes to. */
  readonly toImage: string;
  readonly name: string;
  readonly namespace: string;
  /** The HostedCluster's file, '/'-separated under the output directory. */
  readonly file: string;
  /** The names of the pools that roll. */
  readonly pools: readonly string[];
}

/** In what order the engine applies the two halves of an upgrade, and whether the pools wait. */
export interface UpgradeOrder {
  readonly note: string;
  /** Whether the pools roll only once the control plane reports the new version; undefined when it depends on an engine the output does not name. */
  readonly poolsWait?: boolean;
}

const GUIDE = '(see docs/plan-and-upgrades.md#upgrades-in-one-commit)';

/**
 * What the delivery does with a commit that upgrades a control plane and its pools: Flux and Argo CD
 * with `ARGO_CD_HEALTH_CHECKS` hold the pools until the HostedCluster runs the new release; Argo CD
 * without them and `oc apply -k` apply both at once, so the pools roll while the control plane
 * upgrades; under ACM the hub folders go by whatever engine applies them.
 */
export function upgradeOrder(upgrade: OneCommitUpgrade): UpgradeOrder {
  const { to } = upgrade;
  const what = `the control plane and ${upgrade.pools.length === 1 ? 'pool' : 'pools'} ${upgrade.pools.join(', ')} upgrade in one commit`;
  const folder = upgrade.file.slice(0, upgrade.file.lastIndexOf('/'));
  const wait = `oc wait hostedcluster/${upgrade.name} -n ${upgrade.namespace} --timeout=60m --for=jsonpath='{.status.version.history[0].`;
  // The newest history entry is the old release, Completed, until HyperShift starts the upgrade: wait for the new one first.
  // By its version when known: the version operator records the image by digest, so a tag never matches
  // history[0].image (HyperShift compares it with the spec resolved to its digest: isProgressing, hostedcluster_controller.go).
  const newest = upgrade.to !== upgrade.toImage ? `version}'=${to}` : `image}'=${upgrade.toImage}`;
  const byHand = `apply the HostedCluster first (oc apply -f ${upgrade.file}), wait until it runs ${to} (${wait}${newest}, then ${wait}state}'=Completed), then the pools`;
  switch (upgrade.mode) {
    case DeliveryMode.FLUX:
      return {
        poolsWait: true,
        note:
          `${what}: the control plane goes first, to ${to}, and Flux applies the pools only once it reports that version: the node-pools Kustomization depends on the cluster's, ` +
          `whose health check waits until the HostedCluster runs the release its spec names (an upgrade that outlasts the timeout fails that Kustomization, which is retried; the pools wait on) ${GUIDE}`,
      };
    case DeliveryMode.ARGO_CD:
      return {
        poolsWait: true,
        note:
          `${what}: the control plane goes first, to ${to}, and Argo CD syncs the pools only once it reports that version: the NodePool wave (60) waits until the HostedCluster wave (50) is Healthy, ` +
          `which with ARGO_CD_HEALTH_CHECKS is once it runs the release its spec names ${GUIDE}`,
      };
    case DeliveryMode.ARGO_CD_WITHOUT_HEALTH_CHECKS:
      return {
        poolsWait: false,
        note:
          `${what}, and nothing waits: without ARGO_CD_HEALTH_CHECKS Argo CD counts the HostedCluster (wave 50) Healthy as soon as it exists, so the pools (wave 60) roll at once, ` +
          `while the control plane upgrades to ${to}; add the health checks to Argo CD and set healthChecksInstalled, or upgrade the control plane and the pools in two commits ${GUIDE}`,
      };
    case DeliveryMode.KUSTOMIZE:
      return {
        poolsWait: false,
        note:
          `${what}, and nothing waits: oc apply -k ${folder} applies the control plane and the pools at once, so the pools roll while the control plane upgrades to ${to}; ` +
          `${byHand} (oc apply -k ${folder}); or upgrade them in two commits ${GUIDE}`,
      };
    case DeliveryMode.ACM:
      return {
        note:
          `${what}; the hub folders are applied by whatever engine is pointed at them, and the order is that engine's: Argo CD with ARGO_CD_HEALTH_CHECKS syncs the pools (wave 60) ` +
          `only once the control plane (wave 50) reports ${to}; oc apply -k, or Argo CD without the health checks, applies both at once and the pools roll while the control plane upgrades: ` +
          `then ${byHand}, or upgrade them in two commits ${GUIDE}`,
      };
    default:
      return {
        note:
          `${what}; the output does not record how it is delivered (no ${DELIVERY_MODE_ANNOTATION} annotation: an older hcp-cdk wrote it), so the order is the engine's: ` +
          `Flux, or Argo CD with ARGO_CD_HEALTH_CHECKS, applies the pools only once the control plane reports ${to}; oc apply -k, or Argo CD without the health checks, applies both at once ${GUIDE}`,
      };
  }
}
