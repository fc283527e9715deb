import type { IConstruct } from 'constructs';

// The list of the synth under way, per app root.
const walks = new WeakMap<IConstruct, readonly IConstruct[]>();

/**
 * Every construct under `root`, in tree order. While HcpApp synthesizes, the list it walked itself:
 * app-wide checks (fleet invariants, host checks) read it rather than each walking a fleet's tens
 * of thousands of constructs again.
 */
export function allConstructs(root: IConstruct): readonly IConstruct[] {
  return walks.get(root) ?? root.node.findAll();
}

/** Runs `work` with `constructs` (root.node.findAll(), unchanged meanwhile) as the walk of `root`. */
export function withConstructWalk<T>(root: IConstruct, constructs: readonly IConstruct[], work: () => T): T {
  walks.set(root, constructs);
  try {
    return work();
  } finally {
    walks.delete(root);
  }
}

/**
 * What `find` gives for `construct` or, failing that, its nearest scope: how a choice made on a
 * construct (allowPruning, allowHostsWithoutCluster, allowUnvalidatedKind) holds for everything under it.
 */
export function nearestInScopes<T>(construct: IConstruct, find: (scope: IConstruct) => T | undefined): T | undefined {
  for (let scope: IConstruct | undefined = construct; scope; scope = scope.node.scope) {
    const found = find(scope);
    if (found !== undefined) return found;
  }
  return undefined;
}
