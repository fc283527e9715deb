import { IConstruct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { HcpValidationError, show } from '../core/problems';
import type { ObjectPlace } from './output-layout';
import { TargetKind } from './output-layout';

/** Argo CD's per-resource sync options. */
export const ARGO_CD_SYNC_OPTIONS_ANNOTATION = 'argocd.argoproj.io/sync-options';
/** What keeps Argo CD from pruning an object, or deleting it with its Application. */
export const ARGO_CD_PROTECTION = ['Prune=false', 'Delete=false'] as const;
/** Flux's per-object prune switch. */
export const FLUX_PRUNE_ANNOTATION = 'kustomize.toolkit.fluxcd.io/prune';
export const FLUX_PRUNE_DISABLED = 'disabled';

/**
 * Kinds whose deletion destroys a cluster or what it runs on: the HostedCluster and NodePool
 * themselves; a Namespace (deleting it deletes every cluster in it); the hub's engines
 * (MultiClusterEngine, AgentServiceConfig: deleting one uninstalls HyperShift or the assisted
 * service); InfraEnvs and BareMetalHosts (deleting a host deprovisions the node). Secrets are
 * protected where a cluster needs them: see isProtected.
 */
const PROTECTED_KINDS: ReadonlySet<string> = new Set([
  'HostedCluster', 'NodePool', 'Namespace', 'MultiClusterEngine', 'AgentServiceConfig', 'InfraEnv', 'BareMetalHost', 'ManagedCluster',
]);
/** The pull secret, etcd key, SSH key and the objects that make them (an ExternalSecret deletes the Secret it owns). */
const SECRET_KINDS: ReadonlySet<string> = new Set(['Secret', 'ExternalSecret', 'SealedSecret', 'ConfigMap']);

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
    throw new HcpValidationError([`${scope.node.path}: allowPruning reason (${show(reason)}) must say why pruning these objects is safe; `
      + 'protection against accidental deletion is only given up on purpose']);
  }
  optOuts.set(scope, reason);
}

/**
 * Whether a delivery protects this object from pruning: a protected kind on a management
 * cluster, or a Secret or ConfigMap of a hosted cluster (its folder), unless `allowPruning` was
 * called on the object's construct or one of its scopes.
 */
export function isProtected(kind: string, place: ObjectPlace, construct: IConstruct): boolean {
  if (place.target.kind !== TargetKind.MANAGEMENT) return false;
  const protectedKind = PROTECTED_KINDS.has(kind) || (SECRET_KINDS.has(kind) && place.hostedCluster instanceof HostedCluster);
  if (!protectedKind) return false;
  for (let scope: IConstruct | undefined = construct; scope; scope = scope.node.scope) {
    if (optOuts.has(scope)) return false;
  }
  return true;
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
