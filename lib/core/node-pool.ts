import { ApiObject, Duration, JsonPatch, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import * as np from '../../imports/nodepool-hypershift.openshift.io';
import type { INodePoolPlatform } from '../platform/node-pool-platform';
import { NodePoolPlatform } from '../platform/node-pool-platform';
import { durationProblem, toGoDuration } from './go-duration';
import type { IHostedCluster } from './hosted-cluster';
import { DNS1123_LABEL_RULE, isDns1123Label, isDns1123Subdomain, isLabelValue, isQualifiedName } from './names';
import { hasLintFinding, lint, LINT_RULES } from './lint';
import type { INodePoolConfigMap } from './node-pool-config-map';
import { nodePoolSizeProblems, oversizedPoolMessage, poolPlatformProblem } from './node-pool-rules';
import { Problems } from './problems';
import { checkListItems, checkRequiredProps } from './runtime-props';
import { PausedUntil } from '../release/paused-until';
import { Release } from '../release/release';
import { RELEASE_VERSION_ANNOTATION, releaseVersionAnnotation, unknownReleaseVersion } from '../release/release-version';
import { hubHyperShiftOf } from '../release/hypershift-version';
import { SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION } from '../release/upgrade-settings';
import { nodePoolSkewProblem, unsupportedReleaseProblem } from '../release/version-skew';

/** A node pool's CPU architecture: `amd64`, `arm64`, `ppc64le`, `s390x`. */
export const Arch = np.NodePoolSpecArch;
export type Arch = np.NodePoolSpecArch;
/** How a node pool upgrades: `Replace` (new machines) or `InPlace` (the same machines, rebooted). */
export const UpgradeType = np.NodePoolSpecManagementUpgradeType;
export type UpgradeType = np.NodePoolSpecManagementUpgradeType;
/** A taint's effect: `NoSchedule`, `PreferNoSchedule` or `NoExecute`. */
export const TaintEffect = np.NodePoolSpecTaintsEffect;
export type TaintEffect = np.NodePoolSpecTaintsEffect;

/** A taint on every node of the pool. */
export interface Taint {
  /** The taint's key. */
  readonly key: string;
  /** @default - no value */
  readonly value?: string;
  /** What the taint does to pods that do not tolerate it. */
  readonly effect: TaintEffect;
}

/** The bounds the autoscaler keeps a pool in. */
export interface NodePoolAutoScaling {
  /** The fewest nodes. */
  readonly min: number;
  /** The most nodes. */
  readonly max: number;
}

/** A number of nodes or a percentage of the pool, e.g. `1` or `'10%'`. */
export type NodeCount = number | string;

/** Everything about a NodePool but the cluster it belongs to. */
export interface NodePoolOptions {
  /**
   * `metadata.name`. Changing it replaces the pool.
   * @default - `<cluster name>-<construct id>`
   */
  readonly name?: string;
  /**
   * A fixed number of nodes; not together with `autoScaling`.
   * @default 2 (as `hcp create nodepool`), unless `autoScaling` is given
   */
  readonly replicas?: number;
  /** Let the cluster autoscaler pick the size between min and max. @default - fixed `replicas` */
  readonly autoScaling?: NodePoolAutoScaling;
  /** Replace machines that fail health checks. @default false */
  readonly autoRepair?: boolean;
  /**
   * How nodes get a new release or config; immutable, so changing it needs a new pool.
   * @default - InPlace on Agent and None, Replace on KubeVirt and AWS (as `hcp`)
   */
  readonly upgradeType?: UpgradeType;
  /** Replace upgrades: extra machines created at once. @default - the API's 1 */
  readonly maxSurge?: NodeCount;
  /** Replace and InPlace upgrades: machines unavailable at once. @default - the API's 0 (Replace) or 1 (InPlace) */
  readonly maxUnavailable?: NodeCount;
  /** How long to drain a node before removing it anyway. @default - drain forever (0s) */
  readonly nodeDrainTimeout?: Duration;
  /** How long to wait for volumes to detach. @default - wait forever (0s) */
  readonly nodeVolumeDetachTimeout?: Duration;
  /** @default - the cluster's release (while a release rollout holds the pools of the cluster's wave, the release before it) */
  readonly release?: Release;
  /** @default Arch.AMD64 */
  readonly arch?: Arch;
  /** Labels on every node of the pool. @default - none */
  readonly nodeLabels?: Record<string, string>;
  /** @default - none */
  readonly taints?: Taint[];
  /** ConfigMaps (key `tuning`) holding Tuned or PerformanceProfile objects. @default - none */
  readonly tuningConfigMaps?: string[];
  /** ConfigMaps (key `config`) holding MachineConfig and similar objects. @default - none */
  readonly configMaps?: string[];
  /** Node configuration made in this app (`MachineConfiguration`), referenced in `spec.config` after `configMaps`. @default - none */
  readonly machineConfigs?: INodePoolConfigMap[];
  /** Tuning made in this app (`NodeTuning`, `NodePerformanceProfile`), referenced in `spec.tuningConfig` after `tuningConfigMaps`. @default - none */
  readonly tuningConfigs?: INodePoolConfigMap[];
  /** @default - the platform defaults of `hcp create nodepool` for the cluster's platform */
  readonly platform?: INodePoolPlatform;
  /**
   * Pause reconciliation (and so rollouts): `PausedUntil.indefinitely()`, `PausedUntil.until(date)`,
   * or the string form, `'true'` or an RFC 3339 time. To unpause, remove the prop (the field goes);
   * `'false'` is refused.
   * @default - reconciled
   */
  readonly pausedUntil?: PausedUntil | string;
  /** @default - none */
  readonly labels?: Record<string, string>;
  /** @default - none */
  readonly annotations?: Record<string, string>;
}

export interface NodePoolProps extends NodePoolOptions {
  /** The hosted cluster the pool belongs to. */
  readonly cluster: IHostedCluster;
}

/** A group of worker nodes of one hosted cluster, alike in platform, release and config. */
export class NodePool extends Construct {
  /** The pool's name, `metadata.name` of the NodePool. */
  public readonly poolName: string;
  /** The hosted cluster the pool belongs to. */
  public readonly cluster: IHostedCluster;
  /** The release the pool runs. */
  public readonly release: Release;
  /** The NodePool object; use it for `addJsonPatch` escape hatches. */
  public readonly resource: ApiObject;
  /** The most nodes the pool can have: replicas, or the autoscaling maximum. */
  public readonly maxNodes: number;
  /** The fewest nodes the pool asks for: replicas, or the autoscaling minimum. */
  public readonly minNodes: number;
  /** The platform half of the pool (for an Agent pool, its label selector). */
  public readonly platform: INodePoolPlatform;

  constructor(scope: Construct, id: string, props: NodePoolProps) {
    super(scope, id);
    const required = new Problems(this);
    checkRequiredProps(required, props, {
      cluster: { accepts: (v) => typeof (v as IHostedCluster | undefined)?.clusterName === 'string', expected: 'a hosted cluster: a HostedCluster or HostedCluster.fromAttributes(...)' },
    });
    for (const field of ['taints', 'tuningConfigMaps', 'configMaps', 'machineConfigs', 'tuningConfigs'] as const) checkListItems(required, field, props?.[field]);
    required.throwIfAny();
    const cluster = props.cluster;
    this.cluster = cluster;
    this.poolName = props.name ?? `${cluster.clusterName}-${id}`;
    this.release = props.release ?? cluster.nodePoolRelease ?? cluster.release;
    const problems = new Problems(this);

    // A name made from a cluster name that is no label is reported with the cluster, not again here.
    if (props.name !== undefined || isDns1123Label(cluster.clusterName)) problems.require(isDns1123Label(this.poolName), 'name', this.poolName, DNS1123_LABEL_RULE);
    if (props.release?.problem) problems.add(props.release.problem);
    const replicas = props.autoScaling ? undefined : (props.replicas ?? 2);
    // The rules hcp-cdk validate applies to hand-written NodePools too (lib/validation/manifest-lint.ts).
    const size = nodePoolSizeProblems(
      { replicas: props.autoScaling ? props.replicas : replicas, autoScaling: props.autoScaling },
      { replicas: 'replicas', autoScaling: 'autoScaling' },
      cluster.platformType,
    );
    for (const problem of size) problems.add(problem);
    this.maxNodes = props.autoScaling?.max ?? replicas ?? 0;
    const oversized = oversizedPoolMessage(props.autoScaling ? 'autoScaling.max' : 'replicas', this.maxNodes);
    if (oversized) lint(this, LINT_RULES.HCP_W002_OVERSIZED_POOL, oversized);
    this.minNodes = props.autoScaling?.min ?? replicas ?? 0;

    const platform = props.platform ?? NodePoolPlatform.defaultFor(cluster.platformType);
    this.platform = platform;
    const mismatch = poolPlatformProblem('platform', platform.type, cluster.clusterName, cluster.platformType);
    if (mismatch) problems.add(mismatch);
    const arch = props.arch ?? Arch.AMD64;
    const rendered = platform.render({
      arch,
      clusterInfraId: cluster.infraId,
      clusterDefaultSubnetId: cluster.defaultSubnetId,
      clusterAnnotations: cluster.annotations,
      problems: problems.within('platform'),
    });

    const upgradeType = props.upgradeType ?? NodePoolPlatform.defaultFor(cluster.platformType).defaultUpgradeType;
    if (props.maxSurge !== undefined && upgradeType !== UpgradeType.REPLACE) {
      problems.add(`maxSurge (${JSON.stringify(props.maxSurge)}) only applies to upgradeType Replace, not ${upgradeType}`);
    }
    for (const [field, count] of [
      ['maxSurge', props.maxSurge],
      ['maxUnavailable', props.maxUnavailable],
    ] as const) {
      if (count !== undefined) {
        problems.require(
          typeof count === 'number' ? Number.isInteger(count) && count >= 0 : /^(100|[1-9]?[0-9])%$/.test(count),
          field,
          count,
          'must be a whole number >= 0 or a percentage such as "25%"',
        );
      }
    }
    this.checkSkew(problems);
    // A pool that follows its cluster's release is covered by the cluster's own finding.
    const unknownVersion = unknownReleaseVersion(this.release, 'its update paths or its version skew against the control plane');
    if (unknownVersion && (this.release !== cluster.release || !hasLintFinding(cluster, LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN))) {
      lint(this, LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN, unknownVersion);
    }
    const versionAnnotation = releaseVersionAnnotation(this.release);
    if (versionAnnotation && props.annotations?.[RELEASE_VERSION_ANNOTATION] !== undefined) {
      problems.add(`annotations (${JSON.stringify(RELEASE_VERSION_ANNOTATION)}) is what release sets; give one of them`);
    }
    const paused = props.pausedUntil === undefined ? undefined : PausedUntil.of(props.pausedUntil);
    if (paused?.problem) problems.add(paused.problem);
    for (const [key, value] of Object.entries(props.nodeLabels ?? {})) {
      if (typeof value !== 'string' || !isQualifiedName(key) || !isLabelValue(value)) problems.add(`nodeLabels (${JSON.stringify(`${key}=${value}`)}) must be a valid label key and value`);
    }
    (props.taints ?? []).forEach((taint, i) => {
      problems.require(isQualifiedName(taint.key), `taints[${i}].key`, taint.key, 'must be a label key');
    });
    for (const field of ['tuningConfigMaps', 'configMaps'] as const) {
      (props[field] ?? []).forEach((name, i) => {
        problems.require(isDns1123Subdomain(name), `${field}[${i}]`, name, 'must name a ConfigMap (DNS-1123 subdomain)');
      });
    }
    for (const field of ['nodeDrainTimeout', 'nodeVolumeDetachTimeout'] as const) {
      const problem = props[field] === undefined ? undefined : durationProblem(field, props[field], { example: 'Duration.minutes(5)' });
      if (problem) problems.add(problem);
    }
    this.checkConfigMaps(problems, props, upgradeType);
    problems.report();

    const management: np.NodePoolSpecManagement = {
      upgradeType,
      autoRepair: props.autoRepair ?? false,
      replace:
        upgradeType === UpgradeType.REPLACE && (props.maxSurge !== undefined || props.maxUnavailable !== undefined)
          ? {
              strategy: np.NodePoolSpecManagementReplaceStrategy.ROLLING_UPDATE,
              rollingUpdate: {
                maxSurge: count(props.maxSurge, np.NodePoolSpecManagementReplaceRollingUpdateMaxSurge),
                maxUnavailable: count(props.maxUnavailable, np.NodePoolSpecManagementReplaceRollingUpdateMaxUnavailable),
              },
            }
          : undefined,
      inPlace: upgradeType === UpgradeType.IN_PLACE && props.maxUnavailable !== undefined ? { maxUnavailable: count(props.maxUnavailable, np.NodePoolSpecManagementInPlaceMaxUnavailable) } : undefined,
    };
    const spec = (): np.NodePoolSpec => ({
      clusterName: cluster.clusterName,
      release: { image: this.release.image },
      replicas,
      autoScaling: props.autoScaling ? { min: props.autoScaling.min, max: props.autoScaling.max } : undefined,
      arch,
      management,
      nodeDrainTimeout: toGoDuration(props.nodeDrainTimeout ?? Duration.seconds(0)),
      nodeVolumeDetachTimeout: toGoDuration(props.nodeVolumeDetachTimeout ?? Duration.seconds(0)),
      platform: rendered.platform,
      nodeLabels: props.nodeLabels,
      taints: props.taints?.map((t) => ({ key: t.key, value: t.value, effect: t.effect })),
      tuningConfig: references(props.tuningConfigMaps, props.tuningConfigs),
      config: references(props.configMaps, props.machineConfigs),
      pausedUntil: paused?.value,
    });
    // Plain ApiObject with the L1's GVK, for the same reason as HostedCluster.
    this.resource = new ApiObject(this, 'Resource', {
      ...np.NodePool.GVK,
      metadata: {
        name: this.poolName,
        namespace: cluster.namespace,
        labels: props.labels,
        annotations: rendered.annotations || versionAnnotation ? { ...rendered.annotations, ...props.annotations, ...versionAnnotation } : props.annotations,
      },
      spec: Lazy.any({ produce: () => np.toJson_NodePoolSpec(spec()) }),
    });
  }

  /** Sets a field of the NodePool by JSON path, e.g. `addOverride('spec.platform.aws.ami', 'ami-…')`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }

  /** The rules of configuration made in this app: its namespace, HyperShift's one-per-pool kinds, and each one's own. */
  private checkConfigMaps(problems: Problems, props: NodePoolOptions, upgradeType: UpgradeType): void {
    const use = { poolName: this.poolName, upgradeType, nodeLabels: props.nodeLabels ?? {} };
    for (const [field, names, made] of [
      ['machineConfigs', props.configMaps, props.machineConfigs],
      ['tuningConfigs', props.tuningConfigMaps, props.tuningConfigs],
    ] as const) {
      const all = [...(names ?? []), ...(made ?? []).map((m) => m.configMapName)];
      const twice = all.filter((name, i) => all.indexOf(name) !== i);
      if (twice.length > 0) problems.add(`${field} (${JSON.stringify(all)}) references ConfigMap ${JSON.stringify(twice[0])} twice`);
      (made ?? []).forEach((m, i) => {
        if (m.namespace !== this.cluster.namespace)
          problems.add(`${field}[${i}] (ConfigMap ${m.namespace}/${m.configMapName}) must be in the pool's namespace ${JSON.stringify(this.cluster.namespace)}`);
        const why = m.checkUse(use);
        if (why) problems.add(`${field}[${i}] (ConfigMap ${JSON.stringify(m.configMapName)}) ${why}`);
      });
      for (const kind of ['PerformanceProfile', 'KubeletConfig']) {
        const holders = (made ?? []).filter((m) => m.kinds.includes(kind)).map((m) => m.configMapName);
        if (holders.length > 1) problems.add(`${field} (${JSON.stringify(holders)}) hold ${holders.length} ${kind} objects; HyperShift takes one ${kind} per node pool`);
      }
    }
  }

  /**
   * Nodes may not run a newer release than the control plane, nor fall further behind than the
   * management cluster's HyperShift allows, nor run a version it does not accept (see
   * `nodePoolSkewProblem`, `unsupportedReleaseProblem`); the cluster's skip-release-image-validation
   * annotation lifts the latter, as in HyperShift's NodePool controller.
   */
  private checkSkew(problems: Problems): void {
    const pool = this.release.version;
    const control = this.cluster.release.version;
    const hub = hubHyperShiftOf(this);
    const skipped = SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION in (this.cluster.annotations ?? {});
    const problem = (pool && control ? nodePoolSkewProblem(pool, control, hub) : undefined) ?? (pool && !skipped ? unsupportedReleaseProblem(pool, hub, 'pool') : undefined);
    if (problem) problems.add(`release (${JSON.stringify(this.release.image)}) ${problem}`);
  }
}

function references(names: readonly string[] | undefined, made: readonly INodePoolConfigMap[] | undefined): { name: string }[] | undefined {
  if (names === undefined && made === undefined) return undefined;
  return [...(names ?? []), ...(made ?? []).map((m) => m.configMapName)].map((name) => ({ name }));
}

function count<T>(value: NodeCount | undefined, type: { fromNumber(v: number): T; fromString(v: string): T }): T | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' ? type.fromNumber(value) : type.fromString(value);
}
