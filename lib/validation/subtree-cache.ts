/**
 * The valid parts of objects already checked against one schema node, by content, with their CEL
 * form. A fleet repeats most parts of its specs (the etcd, release and platform blocks of clusters
 * made from one set of defaults), so each distinct one is walked, and its rules run, once.
 *
 * Some parts never repeat (a cluster's pull secret name, a host's BMC address): for those the key
 * costs more than the walk it might save, and the entries only hold memory. A node whose parts
 * came back too rarely in its first lookups is not cached any more.
 */
export class SubtreeCache {
  /** Lookups before the hit rate is judged. */
  static readonly TRIAL = 64;
  /** The fewest hits per lookup worth keeping the cache for. */
  static readonly MIN_HIT_RATE = 0.1;

  private entries: Map<string, unknown> | undefined = new Map();
  private lookups = 0;
  private hits = 0;

  /** Whether parts of this node are still looked up at all. */
  get enabled(): boolean {
    return this.entries !== undefined;
  }

  /** The CEL form of an earlier valid part with this key, or undefined. */
  get(key: string): unknown {
    if (!this.entries) return undefined;
    const found = this.entries.get(key);
    this.lookups++;
    if (found !== undefined) this.hits++;
    else if (this.lookups >= SubtreeCache.TRIAL && this.hits < this.lookups * SubtreeCache.MIN_HIT_RATE) this.entries = undefined;
    return found;
  }

  set(key: string, cel: unknown): void {
    this.entries?.set(key, cel);
  }
}
