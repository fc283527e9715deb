/** A number of nodes or a percentage of the pool as the NodePool API takes it: `1` or `'25%'`. */
type IntOrPercent = number | string;

/** The fields of a NodePool spec (wire form) that decide how a rollout goes. */
export interface RolloutSpec {
  /** @default - 0 nodes, unless autoScaling */
  readonly replicas?: number;
  /** @default - fixed replicas */
  readonly autoScaling?: {
    /** The fewest nodes. */
    readonly min: number;
    /** The most nodes. */
    readonly max: number;
  };
  /** @default - Replace with the API's defaults */
  readonly management?: {
    /** `Replace` or `InPlace`. */
    readonly upgradeType?: string;
    /** The Replace strategy's settings. */
    readonly replace?: {
      /** `RollingUpdate` or `OnDelete`. */
      readonly strategy?: string;
      /** How many machines are added, and may be unavailable, at a time. */
      readonly rollingUpdate?: {
        /** New machines at a time. */
        readonly maxSurge?: IntOrPercent;
        /** Machines unavailable at a time. */
        readonly maxUnavailable?: IntOrPercent;
      };
    };
    /** The InPlace strategy's settings. */
    readonly inPlace?: {
      /** Nodes updated (and unavailable) at a time. */
      readonly maxUnavailable?: IntOrPercent;
    };
  };
}

/** How a NodePool rolls out a new release or config. */
export interface Rollout {
  /** Replace: new machines, old ones deleted; InPlace: the same machines updated and rebooted. */
  readonly strategy: 'Replace' | 'InPlace';
  /** Machines created above the pool's size at once (always 0 for InPlace). */
  readonly maxSurge: number;
  /** Nodes out of service at once. */
  readonly maxUnavailable: number;
  /** The nodes that roll: replicas; undefined when the pool autoscales (percentages then resolve against its minimum). */
  readonly nodes?: number;
  /**
   * How many rounds the rollout takes at most: nodes / (maxSurge + maxUnavailable), rounded up;
   * undefined when unknown (autoscaling), manual (Replace with strategy OnDelete), or when
   * nothing may be unavailable on InPlace, where the rollout cannot progress.
   */
  readonly batches?: number;
}

/**
 * Describes the rollout of a NodePool from its spec, as HyperShift and Cluster API run it: Replace
 * defaults to maxSurge 1 and maxUnavailable 0, InPlace to maxUnavailable 1 (NodePool CRD);
 * percentages resolve against the pool's size, surge rounding up and unavailability rounding down
 * (NodePool CRD, as Kubernetes Deployments); and when both resolve to 0 on Replace, Cluster API
 * makes 1 node unavailable so the rollout can proceed (as Deployments do).
 */
export function describeRollout(spec: RolloutSpec): Rollout {
  const nodes = spec.autoScaling ? undefined : (spec.replicas ?? 0);
  const size = nodes ?? spec.autoScaling?.min ?? 0;
  const management = spec.management ?? {};
  if (management.upgradeType === 'InPlace') {
    const maxUnavailable = resolve(management.inPlace?.maxUnavailable ?? 1, size, false);
    return withBatches({ strategy: 'InPlace', maxSurge: 0, maxUnavailable, nodes }, maxUnavailable);
  }
  const replace = management.replace;
  if (replace?.strategy === 'OnDelete') return { strategy: 'Replace', maxSurge: 0, maxUnavailable: 0, nodes };
  const maxSurge = resolve(replace?.rollingUpdate?.maxSurge ?? 1, size, true);
  let maxUnavailable = resolve(replace?.rollingUpdate?.maxUnavailable ?? 0, size, false);
  if (maxSurge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  return withBatches({ strategy: 'Replace', maxSurge, maxUnavailable, nodes }, maxSurge + maxUnavailable);
}

function withBatches(rollout: Rollout, perBatch: number): Rollout {
  if (rollout.nodes === undefined || perBatch === 0) return rollout;
  return { ...rollout, batches: Math.ceil(rollout.nodes / perBatch) };
}

/** Kubernetes' GetScaledValueFromIntOrPercent: a number as given, `n%` of `total` rounded up or down. */
function resolve(value: IntOrPercent, total: number, roundUp: boolean): number {
  if (typeof value === 'number') return value;
  if (!value.endsWith('%')) return Number(value);
  const scaled = (Number(value.slice(0, -1)) * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}
