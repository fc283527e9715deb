/** What HyperShift's status says of a HostedCluster or NodePool, in one word. */
export enum StatusState {
  /** At its spec: the release it names completed, the pool's machines Ready. A rollout is done. */
  HEALTHY = 'healthy',
  /** On its way to its spec; `progress` says how (a first install, an upgrade, a pool rolling). */
  PROGRESSING = 'progressing',
  /** HyperShift refuses the spec, or what it references; the condition says why, and only a change there helps. */
  REFUSED = 'refused',
  /** The HostedCluster's release is not started: its Progressing condition is False with reason Blocked (an upgrade the cluster is not Upgradeable for). */
  BLOCKED = 'blocked',
  /** HyperShift reports it degraded at rest: a control-plane component unavailable, a pool that cannot get machines, auto-repair stopped, an in-place update failed. */
  DEGRADED = 'degraded',
  /** Reconciliation paused by spec.pausedUntil: HyperShift applies nothing until then. */
  PAUSED = 'paused',
  /** Being deleted. */
  DELETING = 'deleting',
}

/** Why an object is progressing. */
export enum ProgressReason {
  /** HyperShift has not reconciled the object's current generation yet: what it reports is about an older spec. */
  NOT_RECONCILED = 'not-reconciled',
  /** The first install: no release has completed yet (a HostedCluster's version history, a NodePool's status.version). */
  INSTALLING = 'installing',
  /** The HostedCluster's spec names a release the cluster version operator does not target yet. */
  UPGRADE_PENDING = 'upgrade-pending',
  /** The control plane rolls out a release it has taken: the newest version history entry is Partial. */
  UPGRADING = 'upgrading',
  /** The pool's nodes move to a new version (UpdatingVersion). */
  ROLLING_VERSION = 'rolling-version',
  /** The pool's nodes move to a new configuration or machine template (UpdatingConfig, UpdatingPlatformMachineTemplate). */
  ROLLING_CONFIG = 'rolling-config',
  /** After its first rollout, the pool is not Ready: machines joining, being replaced or repaired. */
  WAITING_FOR_MACHINES = 'waiting-for-machines',
  /** After its first install, the control plane is not Available. */
  UNAVAILABLE = 'unavailable',
}

/**
 * The health a GitOps engine gives the object, in Argo CD's words (Flux: see fluxStatusOf): the
 * state, except that a first install counts as Healthy once nothing waits for it (a HostedCluster
 * once its control plane is Available, a NodePool at once), so that a sync never holds the next wave
 * for machines that only join once that wave is applied; and a pause is Suspended.
 */
export enum EngineHealth {
  /** Argo CD: Healthy; Flux: Current. */
  HEALTHY = 'Healthy',
  /** Argo CD: Progressing; Flux: InProgress. */
  PROGRESSING = 'Progressing',
  /** Argo CD: Degraded; Flux: Failed. */
  DEGRADED = 'Degraded',
  /** Argo CD: Suspended; Flux: InProgress. */
  SUSPENDED = 'Suspended',
}

/** The engines' health of a state, a first install aside (see EngineHealth). */
export function healthOf(state: StatusState): EngineHealth {
  switch (state) {
    case StatusState.HEALTHY:
      return EngineHealth.HEALTHY;
    case StatusState.REFUSED:
    case StatusState.BLOCKED:
    case StatusState.DEGRADED:
      return EngineHealth.DEGRADED;
    case StatusState.PAUSED:
      return EngineHealth.SUSPENDED;
    default:
      return EngineHealth.PROGRESSING;
  }
}

/** Flux's status of an object (kstatus, as kustomize-controller evaluates healthCheckExprs). */
export type FluxStatus = 'Current' | 'InProgress' | 'Failed';

/** Flux's status for an engine health: Healthy is Current, Degraded is Failed, the rest InProgress. */
export function fluxStatusOf(health: EngineHealth): FluxStatus {
  if (health === EngineHealth.HEALTHY) return 'Current';
  if (health === EngineHealth.DEGRADED) return 'Failed';
  return 'InProgress';
}

/** A condition as HyperShift writes it. */
export interface StatusCondition {
  /** Its type. */
  readonly type: string;
  /** `True`, `False` or `Unknown`. */
  readonly status: string;
  /** Its reason. @default - none */
  readonly reason?: string;
  /** Its message. @default - none */
  readonly message?: string;
  /** The generation of the object it was written for. @default - not recorded */
  readonly observedGeneration?: number;
}

/** The releases an object's status names. */
export interface ReleaseVersions {
  /** What runs: a HostedCluster's newest Completed version history entry, a NodePool's status.version. @default - none completed yet */
  readonly running?: string;
  /** Where it goes: a HostedCluster's status.version.desired.version, a NodePool's UpdatingVersion target. @default - unknown */
  readonly target?: string;
  /** The image spec.release.image names. @default - none */
  readonly specImage?: string;
}

/**
 * hcp-cdk's reading of a HostedCluster's or NodePool's status (hostedClusterStatus, nodePoolStatus):
 * the same verdict the Argo CD and Flux health checks give, with the reason, the condition that
 * decided it and the versions.
 */
export interface HyperShiftStatus {
  /** `HostedCluster` or `NodePool`. */
  readonly kind: string;
  /** The verdict. */
  readonly state: StatusState;
  /** Why it is progressing (state PROGRESSING only). @default - not progressing */
  readonly progress?: ProgressReason;
  /** One line for people; the Argo CD health check's message is the same. */
  readonly summary: string;
  /** The HyperShift condition that decided the verdict, when one did. @default - none */
  readonly condition?: StatusCondition;
  /** The releases it runs and goes to. */
  readonly versions: ReleaseVersions;
  /** The health the Argo CD and Flux checks give it. */
  readonly health: EngineHealth;
}

/** `state` or `state/progress`: the verdict in one token, e.g. `progressing/upgrading`. */
export function statusToken(status: HyperShiftStatus): string {
  return status.progress ? `${status.state}/${status.progress}` : status.state;
}
