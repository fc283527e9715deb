import { IConstruct } from 'constructs';
import { nearestInScopes } from '../core/construct-walk';
import { HcpValidationError, show } from '../core/problems';
import type { ObjectPlace } from './output-layout';
import { TargetKind } from './output-layout';

/** Argo CD's per-resource sync options. */
export const ARGO_CD_SYNC_OPTIONS_ANNOTATION = 'argocd.argoproj.io/sync-options';
/** What keeps Argo CD from pruning an object, or deleting it with its Application. */
export const ARGO_CD_PROTECTION = ['Prune=false', 'Delete=false'] as const;
/** Flux's per-object prune switch. */
export const FLUX_PRUNE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/prune';
/** The value of Flux's prune annotation that protects an object. */
export const FLUX_PRUNE_DISABLED = 'disabled';

/**
 * Kinds on a management cluster whose prune destroys a hosted cluster, what it runs on, or what
 * brings it back: the protection table of docs/delivery.md#prune-protection-kind-by-kind gives the reason for each, and a test holds the
 * output to that table. The kinds not listed are pruned like any object: deleting them loses
 * nothing that re-applying does not restore (a Subscription leaves its operator installed, a
 * StorageClass its volumes, an Application or Kustomization what it applied).
 */
const PROTECTED_KINDS: ReadonlySet<string> = new Set([
  // A hosted cluster, its machines and its import into ACM.
  'HostedCluster',
  'NodePool',
  'ManagedCluster',
  // Deleting a Namespace deletes everything in it.
  'Namespace',
  // The hub's engines: deleting one uninstalls HyperShift, the assisted service, Metal3, KubeVirt
  // (and every KubeVirt node), the LVM storage under etcd, or Velero.
  'MultiClusterEngine',
  'AgentServiceConfig',
  'Provisioning',
  'HyperConverged',
  'LVMCluster',
  'DataProtectionApplication',
  // An operator without its OperatorGroup is failed by OLM.
  'OperatorGroup',
  // Cluster singletons and objects of the hub itself, written as partial objects: deleting one
  // deletes what OpenShift or MCE made (the default router, the image configuration, the add-on's
  // configuration), not only the fields written here; deleting a MachineSet deletes its machines.
  'IngressController',
  'Image',
  'AddOnDeploymentConfig',
  'MachineSet',
  // The bare-metal inventory: deleting a host deprovisions its node; an InfraEnv or NMStateConfig
  // the discovery image its hosts boot.
  'InfraEnv',
  'BareMetalHost',
  'NMStateConfig',
  // The hub's mirrors: without them a disconnected hub pulls nothing, and its nodes roll.
  'ImageDigestMirrorSet',
  'ImageTagMirrorSet',
  'ImageContentSourcePolicy',
  // The hub's load balancer, which publishes the hosted API servers.
  'MetalLB',
  'IPAddressPool',
  'L2Advertisement',
  'BGPAdvertisement',
  'BGPPeer',
  // Credentials, and the objects that make them (an ExternalSecret or SealedSecret deletes the
  // Secret it owns): pull secrets, etcd keys, BMC passwords, kubeconfigs, trust bundles.
  'Secret',
  'ExternalSecret',
  'SealedSecret',
  'ConfigMap',
]);
/** Inside a hosted cluster only a Namespace is protected: deleting it deletes what others put in it. */
const PROTECTED_GUEST_KINDS: ReadonlySet<string> = new Set(['Namespace']);

/** Why a construct's objects may be pruned, per construct. */
const optOuts = new WeakMap<IConstruct, string>();

/** Options of `allowPruning`. */
export interface AllowPruningOptions {
  /** Why pruning this cluster's objects is safe; written nowhere, required so that the choice is explicit in code review. */
  readonly reason: string;
}

/**
 * Lets a GitOps engine prune and delete the objects of `scope` (a HostedCluster, its NodePools and
 * Secrets, or any construct) like any other object. By default every delivery marks them with the
 * engine's own protection (Argo CD `Prune=false,Delete=false`, Flux `prune: disabled`), so that a
 * commit that drops a cluster from the app, or a deleted Application or Kustomization, never
 * destroys it: delete a hosted cluster on purpose with `hcp destroy cluster` or `oc delete`.
 */
export function allowPruning(scope: IConstruct, options: AllowPruningOptions): void {
  const reason: unknown = options?.reason;
  if (typeof reason !== 'string' || reason.trim() === '') {
    throw new HcpValidationError([
      `${scope.node.path}: allowPruning reason (${show(reason)}) must say why pruning these objects is safe; ` + 'protection against accidental deletion is only given up on purpose',
    ]);
  }
  optOuts.set(scope, reason);
}

/**
 * Whether a delivery protects this object from pruning: a protected kind on a management
 * cluster, or a Namespace inside a hosted cluster, unless `allowPruning` was called on the
 * object's construct or one of its scopes.
 */
export function isProtected(kind: string, place: ObjectPlace, construct: IConstruct): boolean {
  const kinds = place.target.kind === TargetKind.MANAGEMENT ? PROTECTED_KINDS : PROTECTED_GUEST_KINDS;
  if (!kinds.has(kind)) return false;
  return nearestInScopes(construct, (scope) => optOuts.get(scope)) === undefined;
}

/** Marks an object with both engines' protection, for whichever engine is pointed at its folder. */
export function protect(json: { metadata: { annotations?: Record<string, string> } }): void {
  addArgoCdSyncOptions(json, ARGO_CD_PROTECTION);
  json.metadata.annotations![FLUX_PRUNE_ANNOTATION] ??= FLUX_PRUNE_DISABLED;
}

/** Adds `options` to a comma-separated Argo CD sync-options annotation, keeping what is there. */
export function addArgoCdSyncOptions(json: { metadata: { annotations?: Record<string, string> } }, options: readonly string[]): void {
  const annotations = (json.metadata.annotations ??= {});
  const current = annotations[ARGO_CD_SYNC_OPTIONS_ANNOTATION];
  const present = current ? current.split(',').map((o) => o.trim()) : [];
  const added = options.filter((o) => !present.includes(o));
  if (added.length > 0) annotations[ARGO_CD_SYNC_OPTIONS_ANNOTATION] = [...present, ...added].join(',');
}
