import { HcpValidationError, show } from './problems';

// Sizing numbers for one highly available hosted control plane, from the
// OpenShift 4.17 "Hosted control planes" docs, section 2.2. The docs write
// "18 GB" and "2.5 GB" in the prose but divide GiB by them in the 2.2.4 table;
// the constants follow the table.

/** vCPUs requested by the pods of one highly available hosted control plane (doc 2.2.2). */
export const HCP_VCPU_REQUESTS = 5;

/** Memory in GiB requested by the pods of one highly available hosted control plane (doc 2.2.2, 2.2.4). */
export const HCP_MEMORY_REQUESTS_GIB = 18;

/** vCPUs one highly available hosted control plane uses with no API load (doc 2.2.3, table 2.2). */
export const HCP_IDLE_VCPU_USAGE = 2.9;

/** Memory in GiB one highly available hosted control plane uses with no API load (doc 2.2.3, table 2.2). */
export const HCP_IDLE_MEMORY_USAGE_GIB = 11.1;

/** Extra vCPUs one hosted control plane uses for each 1000 QPS of API load (doc 2.2.3, table 2.2). */
export const HCP_VCPU_USAGE_PER_1000_QPS = 9.0;

/** Extra memory in GiB one hosted control plane uses for each 1000 QPS of API load (doc 2.2.3, table 2.2). */
export const HCP_MEMORY_USAGE_GIB_PER_1000_QPS = 2.5;

/**
 * Pods to plan for per highly available hosted control plane (doc 2.2.1).
 * The docs count 78 pods (doc 2.2) but plan with 75, and so does the 2.2.4 example.
 */
export const HCP_PODS_FOR_PLANNING = 75;

/** The kubelet's default maxPods, "likely to be a limiting factor" on bare metal (doc 2.2.1). */
export const DEFAULT_MAX_PODS_PER_NODE = 250;

/** The maxPods value doc 2.2.1 suggests setting with a KubeletConfig for higher density. */
export const SUGGESTED_MAX_PODS_PER_NODE = 500;

/**
 * Low API load, "less than 50 QPS" (doc 2.2.3, table 2.3; the addon's low_qps gauge uses ~50).
 * Table 2.3 lists the idle figures (2.9 vCPU, 11.1 GiB) for it; the formula at 50 QPS gives
 * 3.35 vCPU and 11.225 GiB, slightly more conservative.
 */
export const LOW_API_LOAD_QPS = 50;

/** Medium API load, the rate the docs recommend "for general sizing purposes" (doc 2.2.3, table 2.3). */
export const MEDIUM_API_LOAD_QPS = 1000;

/** Heavy API load (doc 2.2.3, table 2.3). */
export const HIGH_API_LOAD_QPS = 2000;

/** A worker node labelled `hypershift.openshift.io/control-plane` that hosts control plane pods. */
export interface ControlPlaneWorker {
  /** vCPUs of the node, as doc 2.2.4 counts them (pass allocatable vCPUs for a margin). */
  readonly vCpus: number;
  /** Memory of the node in GiB, as doc 2.2.4 counts it (pass allocatable memory for a margin). */
  readonly memoryGiB: number;
  /**
   * The kubelet's maxPods on the node.
   * @default 250 - the kubelet default (DEFAULT_MAX_PODS_PER_NODE)
   */
  readonly maxPods?: number;
}

/** A number of identical control-plane workers. */
export interface ControlPlaneWorkerGroup extends ControlPlaneWorker {
  /** How many workers of this size host control planes; a whole number of at least 1. */
  readonly count: number;
}

/** Input of `estimateCapacity`. */
export interface CapacityEstimateOptions {
  /** The control-plane workers, one entry each, or one group of identical workers. */
  readonly workers: readonly ControlPlaneWorker[] | ControlPlaneWorkerGroup;
  /**
   * Expected API rate of each hosted control plane, in queries per second.
   * @default 1000 - MEDIUM_API_LOAD_QPS, the rate doc 2.2.3 suggests for general sizing and doc 2.2.4 uses
   */
  readonly qps?: number;
}

/** The resource a capacity limit is based on, in the order doc 2.2.4 lists them. */
export enum CapacityLimitingFactor {
  /** Requested vCPUs: 5 per control plane. */
  VCPU_REQUESTS = 'vCPU requests',
  /** vCPUs used, which grow with the API request rate. */
  VCPU_USAGE = 'vCPU usage',
  /** Requested memory: 18 GiB per control plane. */
  MEMORY_REQUESTS = 'memory requests',
  /** Memory used, which grows with the API request rate. */
  MEMORY_USAGE = 'memory usage',
  /** Pods: 75 per control plane. */
  MAX_PODS = 'maxPods',
}

/** vCPUs and memory of one hosted control plane. */
export interface ControlPlaneResources {
  /** vCPUs. */
  readonly vCpus: number;
  /** Memory, in GiB. */
  readonly memoryGiB: number;
}

/** How many hosted control planes fit, by each limit of doc 2.2.4; fractional, as the docs print them. */
export interface CapacityByLimit {
  /** vCPUs ÷ 5. */
  readonly byVCpuRequests: number;
  /** vCPUs ÷ (2.9 + QPS/1000 × 9.0). */
  readonly byVCpuUsage: number;
  /** GiB ÷ 18. */
  readonly byMemoryRequests: number;
  /** GiB ÷ (11.1 + QPS/1000 × 2.5). */
  readonly byMemoryUsage: number;
  /** maxPods ÷ 75. */
  readonly byMaxPods: number;
}

/** Capacity of one control-plane worker. */
export interface WorkerCapacity extends CapacityByLimit {
  /** The worker's vCPUs. */
  readonly vCpus: number;
  /** The worker's memory, in GiB. */
  readonly memoryGiB: number;
  /** maxPods with the default applied. */
  readonly maxPods: number;
  /** The smallest of the limits: how many hosted control planes this worker holds (fractional). */
  readonly minimum: number;
  /** The limit that gives the minimum; the first in doc order on a tie. */
  readonly limitingFactor: CapacityLimitingFactor;
}

/** Result of `estimateCapacity`. */
export interface CapacityEstimate {
  /** The API rate the load-based limits assume. */
  readonly qps: number;
  /** Resource usage of one hosted control plane at that rate (doc 2.2.3, table 2.3). */
  readonly usagePerControlPlane: ControlPlaneResources;
  /** One entry per worker; a group is expanded into `count` entries. */
  readonly perWorker: readonly WorkerCapacity[];
  /** Each limit summed over the workers. */
  readonly total: CapacityByLimit;
  /** Sum of the per-worker minimums, before rounding down. */
  readonly totalMinimum: number;
  /**
   * The limit that binds on the most workers; the first in doc order on a tie.
   * With identical workers it is simply theirs.
   */
  readonly limitingFactor: CapacityLimitingFactor;
  /** Every limit that binds on at least one worker, in doc order. */
  readonly limitingFactors: readonly CapacityLimitingFactor[];
  /**
   * The number of highly available hosted control planes the workers hold: the per-worker
   * minimums summed and rounded down ("minimum × 3 control-plane workers", doc 2.2.4).
   */
  readonly maxHostedControlPlanes: number;
}

const FACTOR_ORDER = [
  CapacityLimitingFactor.VCPU_REQUESTS,
  CapacityLimitingFactor.VCPU_USAGE,
  CapacityLimitingFactor.MEMORY_REQUESTS,
  CapacityLimitingFactor.MEMORY_USAGE,
  CapacityLimitingFactor.MAX_PODS,
];

const FIELD_OF: Record<CapacityLimitingFactor, keyof CapacityByLimit> = {
  [CapacityLimitingFactor.VCPU_REQUESTS]: 'byVCpuRequests',
  [CapacityLimitingFactor.VCPU_USAGE]: 'byVCpuUsage',
  [CapacityLimitingFactor.MEMORY_REQUESTS]: 'byMemoryRequests',
  [CapacityLimitingFactor.MEMORY_USAGE]: 'byMemoryUsage',
  [CapacityLimitingFactor.MAX_PODS]: 'byMaxPods',
};

// Sums of fractions such as 3 × 500/75 may land a hair below a whole number;
// rounding down must not lose a control plane to floating point.
const EPSILON = 1e-9;

// show() goes through JSON, which prints NaN and Infinity as null.
function showValue(value: unknown): string {
  return typeof value === 'number' ? String(value) : show(value);
}

function isPositiveNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

function isWholeNumber(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

function isNonNegativeNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** Resource usage of one highly available hosted control plane at an API rate (doc 2.2.3). */
export function controlPlaneUsageAt(qps: number): ControlPlaneResources {
  if (!isNonNegativeNumber(qps)) {
    throw new HcpValidationError([`controlPlaneUsageAt: qps (${showValue(qps)}) must be a number of at least 0`]);
  }
  return usageAt(qps);
}

function usageAt(qps: number): ControlPlaneResources {
  return {
    vCpus: HCP_IDLE_VCPU_USAGE + (qps / 1000) * HCP_VCPU_USAGE_PER_1000_QPS,
    memoryGiB: HCP_IDLE_MEMORY_USAGE_GIB + (qps / 1000) * HCP_MEMORY_USAGE_GIB_PER_1000_QPS,
  };
}

function checkWorker(worker: ControlPlaneWorker, field: string, problems: string[]): void {
  const where = field;
  if (!isPositiveNumber(worker.vCpus)) {
    problems.push(`${where}.vCpus (${showValue(worker.vCpus)}) must be a number greater than 0`);
  }
  if (!isPositiveNumber(worker.memoryGiB)) {
    problems.push(`${where}.memoryGiB (${showValue(worker.memoryGiB)}) must be a number greater than 0`);
  }
  if (worker.maxPods !== undefined && !isWholeNumber(worker.maxPods, 1)) {
    problems.push(`${where}.maxPods (${showValue(worker.maxPods)}) must be a whole number of at least 1`);
  }
}

/**
 * What is wrong with the options of an estimate, each `<field> (<value>) <what is accepted>`, the
 * fields named as in CapacityEstimateOptions: `estimateCapacity` and ManagementCluster's `capacity`
 * say where they come from.
 */
export function capacityProblems(options: CapacityEstimateOptions): string[] {
  const problems: string[] = [];
  if (options === null || typeof options !== 'object') return [`options (${showValue(options)}) must be an object with workers (and qps)`];
  const qps = options.qps ?? MEDIUM_API_LOAD_QPS;
  if (!isNonNegativeNumber(qps)) {
    problems.push(`qps (${showValue(qps)}) must be a number of at least 0`);
  }
  const given = options.workers;
  if (given === null || typeof given !== 'object') {
    problems.push(`workers (${showValue(given)}) must be a list of control-plane workers or a group with a count`);
  } else if (Array.isArray(given)) {
    if (given.length === 0) {
      problems.push('workers ([]) must list at least one control-plane worker');
    }
    given.forEach((worker, i) => checkWorker(worker, `workers[${i}]`, problems));
  } else {
    const group = given as ControlPlaneWorkerGroup;
    if (!isWholeNumber(group.count, 1)) {
      problems.push(`workers.count (${showValue(group.count)}) must be a whole number of at least 1`);
    }
    checkWorker(group, 'workers', problems);
  }
  return problems;
}

/**
 * Estimates how many highly available hosted control planes a set of control-plane
 * workers can hold, with the limits and formulas of doc 2.2.4 (rule MG-04).
 * Throws an HcpValidationError listing every bad input.
 */
export function estimateCapacity(options: CapacityEstimateOptions): CapacityEstimate {
  const problems = capacityProblems(options);
  if (problems.length > 0) throw new HcpValidationError(problems.map((problem) => `estimateCapacity: ${problem}`));
  const qps = options.qps ?? MEDIUM_API_LOAD_QPS;
  const given = options.workers;
  const workers: ControlPlaneWorker[] = [];
  if (Array.isArray(given)) {
    workers.push(...given);
  } else {
    const group = given as ControlPlaneWorkerGroup;
    const worker: ControlPlaneWorker = { vCpus: group.vCpus, memoryGiB: group.memoryGiB, maxPods: group.maxPods };
    for (let i = 0; i < group.count; i++) workers.push(worker);
  }

  const usage = usageAt(qps);
  const perWorker = workers.map((worker) => workerCapacity(worker, usage));

  const total: CapacityByLimit = {
    byVCpuRequests: sum(perWorker, (w) => w.byVCpuRequests),
    byVCpuUsage: sum(perWorker, (w) => w.byVCpuUsage),
    byMemoryRequests: sum(perWorker, (w) => w.byMemoryRequests),
    byMemoryUsage: sum(perWorker, (w) => w.byMemoryUsage),
    byMaxPods: sum(perWorker, (w) => w.byMaxPods),
  };
  const totalMinimum = sum(perWorker, (w) => w.minimum);

  const binding = new Map<CapacityLimitingFactor, number>();
  for (const w of perWorker) binding.set(w.limitingFactor, (binding.get(w.limitingFactor) ?? 0) + 1);
  const limitingFactors = FACTOR_ORDER.filter((f) => binding.has(f));
  const limitingFactor = limitingFactors.reduce((best, f) => (binding.get(f)! > binding.get(best)! ? f : best));

  return {
    qps,
    usagePerControlPlane: usage,
    perWorker,
    total,
    totalMinimum,
    limitingFactor,
    limitingFactors,
    maxHostedControlPlanes: Math.floor(totalMinimum + EPSILON),
  };
}

function workerCapacity(worker: ControlPlaneWorker, usage: ControlPlaneResources): WorkerCapacity {
  const maxPods = worker.maxPods ?? DEFAULT_MAX_PODS_PER_NODE;
  const limits: CapacityByLimit = {
    byVCpuRequests: worker.vCpus / HCP_VCPU_REQUESTS,
    byVCpuUsage: worker.vCpus / usage.vCpus,
    byMemoryRequests: worker.memoryGiB / HCP_MEMORY_REQUESTS_GIB,
    byMemoryUsage: worker.memoryGiB / usage.memoryGiB,
    byMaxPods: maxPods / HCP_PODS_FOR_PLANNING,
  };
  // Strictly smaller wins, so a tie keeps the factor listed first by the docs.
  const limitingFactor = FACTOR_ORDER.reduce((best, f) => (limits[FIELD_OF[f]] < limits[FIELD_OF[best]] ? f : best));
  return {
    vCpus: worker.vCpus,
    memoryGiB: worker.memoryGiB,
    maxPods,
    ...limits,
    minimum: limits[FIELD_OF[limitingFactor]],
    limitingFactor,
  };
}

function sum<T>(items: readonly T[], value: (item: T) => number): number {
  return items.reduce((acc, item) => acc + value(item), 0);
}

const LABEL_WIDTH = 20;

function line(label: string, value: string): string {
  return `  ${label.padEnd(LABEL_WIDTH)} ${value}`;
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Renders an estimate next to the hosted control planes planned for it: the five limits,
 * the capacity, what is planned and the headroom, then warning and note lines (rule MG-04).
 *
 * Doc 2.2 sizes highly available control planes only and gives no figure for single-replica
 * ones, so each single-replica control plane is counted as a highly available one — conservative,
 * it runs fewer pods.
 *
 * @param name the management cluster (or its construct path), used in the heading and in messages
 * @param plannedHighlyAvailable highly available hosted control planes planned on these workers
 * @param plannedSingleReplica single-replica hosted control planes planned on these workers (default 0)
 */
export function formatCapacityReport(name: string, estimate: CapacityEstimate, plannedHighlyAvailable: number, plannedSingleReplica: number = 0): string {
  const problems: string[] = [];
  if (typeof name !== 'string' || name.trim() === '') {
    problems.push(`formatCapacityReport: name (${showValue(name)}) must be a non-empty string`);
  }
  const where = typeof name === 'string' && name.trim() !== '' ? name : 'formatCapacityReport';
  if (!isWholeNumber(plannedHighlyAvailable, 0)) {
    problems.push(`${where}: plannedHighlyAvailable (${showValue(plannedHighlyAvailable)}) must be a whole number of at least 0`);
  }
  if (!isWholeNumber(plannedSingleReplica, 0)) {
    problems.push(`${where}: plannedSingleReplica (${showValue(plannedSingleReplica)}) must be a whole number of at least 0`);
  }
  if (problems.length > 0) throw new HcpValidationError(problems);

  const capacity = estimate.maxHostedControlPlanes;
  const planned = plannedHighlyAvailable + plannedSingleReplica;
  const limitedBy = estimate.limitingFactors.join(', ');
  const plannedText =
    plannedSingleReplica > 0 ? `${planned} (${plannedHighlyAvailable} highly available + ${plannedSingleReplica} single replica, counted as highly available)` : `${planned} highly available`;

  const lines = [
    `${name}: hosted control plane capacity of ${plural(estimate.perWorker.length, 'control-plane worker', 'control-plane workers')} at ${estimate.qps} QPS`,
    line('by vCPU requests', estimate.total.byVCpuRequests.toFixed(1)),
    line('by vCPU usage', estimate.total.byVCpuUsage.toFixed(1)),
    line('by memory requests', estimate.total.byMemoryRequests.toFixed(1)),
    line('by memory usage', estimate.total.byMemoryUsage.toFixed(1)),
    line('by maxPods', estimate.total.byMaxPods.toFixed(1)),
    line('capacity', `${capacity} (limited by ${limitedBy})`),
    line('planned', plannedText),
    line('headroom', `${capacity - planned}`),
  ];

  if (planned > capacity) {
    lines.push(
      `warning: ${name}: ${planned} planned hosted control planes exceed the estimated capacity of ${capacity} ` +
        `(limited by ${limitedBy}); add control-plane workers or plan fewer hosted clusters (doc 2.2.4)`,
    );
  }
  const defaultMaxPodsBinding = estimate.perWorker.filter((w) => w.limitingFactor === CapacityLimitingFactor.MAX_PODS && w.maxPods === DEFAULT_MAX_PODS_PER_NODE).length;
  if (defaultMaxPodsBinding > 0) {
    lines.push(
      `note: ${name}: the default maxPods of ${DEFAULT_MAX_PODS_PER_NODE} limits ${plural(defaultMaxPodsBinding, 'worker', 'workers')}; ` +
        `doc 2.2.1 suggests ${SUGGESTED_MAX_PODS_PER_NODE} through a KubeletConfig for higher density`,
    );
  }
  return lines.join('\n');
}
