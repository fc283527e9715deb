import { platformRules } from '../platform/platform-rules';
import { show } from './problems';

/** The most nodes an OpenShift cluster is documented to support. */
export const MAX_CLUSTER_NODES = 2000;

/** A pool's size as written: replicas, or autoscaling bounds. */
export interface NodePoolSize {
  readonly replicas?: unknown;
  readonly autoScaling?: { readonly min?: unknown; readonly max?: unknown };
}

/** How the rules name the fields: construct props (`replicas`) or the object (`spec.replicas`). */
export interface NodePoolSizeNames {
  readonly replicas: string;
  readonly autoScaling: string;
}

const isWhole = (value: unknown, least: number): value is number => typeof value === 'number' && Number.isInteger(value) && value >= least;

/**
 * The sizes HyperShift refuses, one source for NodePool (at synth) and for the lint of hand-written
 * NodePools (`hcp-cdk validate`), whatever the CRD installed checks: replicas together with
 * autoscaling, a negative count (the scale subresource reads replicas as a non-negative count),
 * bounds that are no whole numbers or the wrong way round, and scaling from zero on a platform whose
 * autoscaler cannot (HyperShift supports it on AWS and Azure).
 * @param platformType the cluster's platform; scaling from zero is not judged for one hcp-cdk does not model
 */
export function nodePoolSizeProblems(size: NodePoolSize, names: NodePoolSizeNames, platformType: unknown): string[] {
  const problems: string[] = [];
  const { replicas, autoScaling } = size;
  if (autoScaling !== undefined && replicas !== undefined) {
    problems.push(`${names.replicas} (${show(replicas)}) and ${names.autoScaling} (${show(autoScaling)}) are mutually exclusive; give one`);
  } else if (replicas !== undefined && !isWhole(replicas, 0)) problems.push(`${names.replicas} (${show(replicas)}) must be a whole number >= 0`);
  if (autoScaling !== undefined) {
    const { min, max } = autoScaling;
    if (!isWhole(min, 0)) problems.push(`${names.autoScaling}.min (${show(min)}) must be a whole number >= 0`);
    if (!isWhole(max, 1)) problems.push(`${names.autoScaling}.max (${show(max)}) must be a whole number >= 1`);
    // Compared only as the numbers they must be: two strings compare by their characters.
    if (typeof max === 'number' && typeof min === 'number' && max < min) problems.push(`${names.autoScaling}.max (${show(max)}) must be >= ${names.autoScaling}.min (${show(min)})`);
    const rules = platformRules(platformType);
    if (min === 0 && rules !== undefined && !rules.scaleFromZero) {
      problems.push(`${names.autoScaling}.min (0) scales from zero, which HyperShift supports on AWS and Azure only; give at least 1 on platform ${String(platformType)}`);
    }
  }
  return problems;
}

/** A pool that may grow beyond what an OpenShift cluster supports (lint HCP-W002), as `<field> (<count>) ...`. */
export function oversizedPoolMessage(field: string, maxNodes: number): string | undefined {
  return maxNodes > MAX_CLUSTER_NODES ? `${field} (${maxNodes}) is more nodes than an OpenShift cluster supports (${MAX_CLUSTER_NODES})` : undefined;
}

/** A pool whose platform is not its cluster's: HyperShift makes no machines for it. */
export function poolPlatformProblem(field: string, poolType: unknown, cluster: string, clusterType: unknown): string | undefined {
  return poolType === clusterType ? undefined : `${field} (${String(poolType)}) must match the platform of cluster ${cluster} (${String(clusterType)})`;
}
