import type { UpgradeType } from './node-pool';

/** What a ConfigMap a NodePool references learns about the pool, to check that it fits. */
export interface NodePoolConfigUse {
  /** The pool's name. */
  readonly poolName: string;
  /** How the pool upgrades: some configurations only work with one. */
  readonly upgradeType: UpgradeType;
  /** The labels the pool puts on its nodes (`nodeLabels`), which survive node replacement. */
  readonly nodeLabels: Readonly<Record<string, string>>;
}

/**
 * A ConfigMap, made by another construct, that a NodePool references in `spec.config` (MachineConfig,
 * KubeletConfig ... under key `config`) or `spec.tuningConfig` (Tuned or PerformanceProfile under
 * key `tuning`). One may serve several pools of its cluster.
 */
export interface INodePoolConfigMap {
  /** `metadata.name` of the ConfigMap. */
  readonly configMapName: string;
  /** The namespace of the ConfigMap, which must be the pool's. */
  readonly namespace: string;
  /** The kinds of the objects it holds, e.g. `['MachineConfig', 'KubeletConfig']`; HyperShift allows one PerformanceProfile and one KubeletConfig per pool. */
  readonly kinds: readonly string[];
  /** Why the pool cannot use it, or undefined. */
  checkUse(use: NodePoolConfigUse): string | undefined;
}
