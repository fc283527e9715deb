import { StatusCondition } from './status-report';

/**
 * Reading a HyperShift object's conditions as its controllers write them: every condition carries
 * the generation it was written for (`ObservedGeneration: hcluster.Generation` /
 * `nodePool.Generation` in each setter), so a condition about an older spec can be told from one
 * about the spec the object holds now.
 */

/** The object's status.conditions, the malformed entries left out. */
export function conditionsOf(object: any): StatusCondition[] {
  const conditions = object?.status?.conditions;
  return Array.isArray(conditions) ? conditions.filter((c: any) => typeof c?.type === 'string' && typeof c?.status === 'string') : [];
}

/** The condition of `type`, when the object has one. */
export function findCondition(object: any, type: string): StatusCondition | undefined {
  return conditionsOf(object).find((c) => c.type === type);
}

/** metadata.generation, 0 when absent. */
export function generationOf(object: any): number {
  return typeof object?.metadata?.generation === 'number' ? object.metadata.generation : 0;
}

/** Whether `condition` is about the spec the object holds: written for its generation, or recording none. */
export function isCurrent(object: any, condition: StatusCondition): boolean {
  const observed = condition.observedGeneration ?? 0;
  return observed === 0 || observed === generationOf(object);
}

/** The first condition of `types` (in the order of `types`) that is `status` and current. */
export function firstCurrent(object: any, types: readonly string[], status: string, also: (c: StatusCondition) => boolean = () => true): StatusCondition | undefined {
  const conditions = conditionsOf(object);
  for (const type of types) {
    const found = conditions.find((c) => c.type === type && c.status === status && isCurrent(object, c) && also(c));
    if (found) return found;
  }
  return undefined;
}

/**
 * The generation `marker` was written for, when it is older than the object's: HyperShift has not
 * reconciled the current spec yet. `marker` is a condition HyperShift writes on every pass that gets
 * as far as the spec's rollout (Progressing for a HostedCluster, UpdatingVersion for a NodePool), so
 * a stale one means HyperShift has not yet judged this spec (other conditions, such as a HostedCluster's
 * PlatformCredentialsFound, are only rewritten when they change). Undefined when it has, or when the
 * marker records no generation.
 */
export function unreconciledGeneration(object: any, marker: string): number | undefined {
  const observed = findCondition(object, marker)?.observedGeneration ?? 0;
  const generation = generationOf(object);
  return generation === 0 || observed === 0 || observed === generation ? undefined : observed;
}

/** The summary of an object HyperShift has not reconciled yet (see unreconciledGeneration), else undefined. */
export function notReconciledSummary(object: any, marker: string): string | undefined {
  const observed = unreconciledGeneration(object, marker);
  return observed === undefined ? undefined : `HyperShift has not reconciled generation ${generationOf(object)} yet (its ${marker} condition is of generation ${observed})`;
}

/** Whether the object is being deleted. */
export function isDeleting(object: any): boolean {
  return object?.metadata?.deletionTimestamp !== undefined && object?.metadata?.deletionTimestamp !== null;
}

/** `Type is Status (Reason): message`, reason and message when present. */
export function describeCondition(condition: StatusCondition): string {
  return `${condition.type} is ${condition.status}${condition.reason ? ` (${condition.reason})` : ''}${condition.message ? `: ${condition.message}` : ''}`;
}

/** A non-empty string, else undefined. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
