import * as tuned from '../../imports/tuned-tuned.openshift.io';
import { HostedCluster } from '../core/hosted-cluster';
import { isQualifiedName } from '../core/names';
import type { NodePoolConfigUse } from '../core/node-pool-config-map';
import { UpgradeType } from '../core/node-pool';
import { NodeConfigMap } from './node-config-map';

/** Where the Node Tuning Operator reads Tuned objects in the hosted cluster. */
const NTO_NAMESPACE = 'openshift-cluster-node-tuning-operator';

/** A TuneD profile: INI text with `[main]`, `[sysctl]` ... sections. */
export interface TunedProfile {
  /** The profile's name, unique among the cluster's TuneD profiles. */
  readonly name: string;
  /** The profile's INI text. */
  readonly data: string;
}

/** A node label a recommendation matches (node-label-based matching). */
export interface TunedNodeLabelMatch {
  /** The node label's key. */
  readonly label: string;
  /** @default - any value */
  readonly value?: string;
}

/** Which profile nodes get, by priority (lower wins). */
export interface TunedRecommendation {
  /** A profile of this Tuned. */
  readonly profile: string;
  /** The recommendation's priority; the lowest matching wins. */
  readonly priority: number;
  /**
   * Node labels to match. Without them the pool's nodes get the profile (node-pool-based matching,
   * the documented default); with them, nodes must carry the labels, which survive upgrades only in
   * InPlace pools or when the pool's nodeLabels set them.
   * @default - node-pool-based matching
   */
  readonly match?: TunedNodeLabelMatch[];
}

/** Props of NodeTuning. */
export interface NodeTuningProps {
  /** The ConfigMap's and the Tuned's name. @default - `<cluster name>-<id>` */
  readonly name?: string;
  /** The TuneD profiles. */
  readonly profiles: TunedProfile[];
  /** Which nodes get which profile. */
  readonly recommend: TunedRecommendation[];
}

/**
 * A Tuned for node pools (docs 9.2), in the ConfigMap `spec.tuningConfig` references (key `tuning`);
 * several pools may share it (`tuningConfigs: [it]`). TuneD profile names must be unique across the
 * Tuned objects of a hosted cluster.
 */
export class NodeTuning extends NodeConfigMap {
  public readonly kinds = ['Tuned'] as const;
  /** The TuneD profiles' names. */
  public readonly profileNames: readonly string[];
  private readonly props: NodeTuningProps;

  constructor(cluster: HostedCluster, id: string, props: NodeTuningProps) {
    super(cluster, id, props.name);
    this.props = props;
    const problems = this.problems;
    const name = this.configMapName;
    const profiles = props.profiles ?? [];
    this.profileNames = profiles.map((p) => p.name);
    problems.require(profiles.length > 0, 'profiles', props.profiles, 'must define at least one TuneD profile');
    profiles.forEach((profile, i) => {
      problems.require(this.profileNames.indexOf(profile.name) === i, `profiles[${i}].name`, profile.name, 'is used by an earlier profile');
      problems.require(/^\s*\[[^\]\s]+\]/m.test(profile.data ?? ''), `profiles[${i}].data`, profile.data, 'must be TuneD INI text with at least one [section], e.g. "[main]\\ninclude=openshift-node"');
    });
    const recommend = props.recommend ?? [];
    problems.require(recommend.length > 0, 'recommend', props.recommend, 'must recommend at least one profile');
    recommend.forEach((r, i) => {
      problems.require(this.profileNames.includes(r.profile), `recommend[${i}].profile`, r.profile, `must be a profile of this Tuned (${this.profileNames.join(', ')})`);
      problems.require(Number.isInteger(r.priority) && r.priority >= 0, `recommend[${i}].priority`, r.priority, 'must be a whole number >= 0 (lower wins)');
      (r.match ?? []).forEach((m, j) => problems.require(isQualifiedName(m.label), `recommend[${i}].match[${j}].label`, m.label, 'must be a node label key'));
    });
    problems.report();

    // TuneD profile names must be unique across the Tuned objects of a hosted cluster (docs 9.2).
    this.node.addValidation({
      validate: () =>
        cluster.node.children
          .filter((c): c is NodeTuning => c instanceof NodeTuning && c !== this)
          .flatMap((other) =>
            other.profileNames
              .filter((p) => this.profileNames.includes(p))
              .map((p) => `profile ${JSON.stringify(p)} is also defined by ${other.node.path}; TuneD profile names must be unique across the Tuned objects of a hosted cluster`),
          ),
    });
    const object = () => ({
      ...tuned.Tuned.GVK,
      ...tuned.toJson_TunedProps({
        metadata: { name, namespace: NTO_NAMESPACE },
        spec: {
          profile: profiles.map((p) => ({ name: p.name, data: p.data })),
          recommend: recommend.map((r) => ({ profile: r.profile, priority: r.priority, match: r.match?.map((m) => ({ label: m.label, value: m.value })) })),
        },
      }),
    });
    this.writeConfigMap('tuning', () => [object()]);
  }

  /** Node-label matching needs labels that survive node replacement: InPlace pools, or labels the pool sets. */
  public override checkUse(use: NodePoolConfigUse): string | undefined {
    if (use.upgradeType === UpgradeType.IN_PLACE) return undefined;
    const missing = this.props.recommend.flatMap((r) => r.match ?? []).filter((m) => !(m.label in use.nodeLabels) || (m.value !== undefined && use.nodeLabels[m.label] !== m.value));
    if (missing.length === 0) return undefined;
    return `matches node label ${JSON.stringify(missing[0].label)}, which the Replace pool does not set in nodeLabels: labels added by hand are lost when nodes are replaced (docs 9.2); set it in nodeLabels or use upgradeType InPlace`;
  }
}
