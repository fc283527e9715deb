import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import * as np from '../../imports/nodepool-hypershift.openshift.io';
import { ensureNamespace } from '../core/kube-objects';
import { DNS1123_LABEL_RULE, isDns1123Label, isLabelValue, isQualifiedName } from '../core/names';
import { nodePortAddressProblem, nodePortPublishing } from '../core/service-publishing';
import type { ClusterPlatformConfig, ClusterPlatformContext, IClusterPlatform } from './cluster-platform';
import type { INodePoolPlatform, NodePoolPlatformConfig, NodePoolPlatformContext } from './node-pool-platform';
import { PlatformType } from './platform-type';

/** Props of `ClusterPlatform.agent()`. */
export interface AgentClusterPlatformProps {
  /** The namespace where the Agents (and their InfraEnv) live. */
  readonly agentNamespace: string;
  /**
   * The address (IP or DNS name) of management-cluster nodes. Every control-plane
   * service is then published as a NodePort there, as `hcp create cluster agent
   * --api-server-address` does.
   * @default - no default publishing: give the HostedCluster's `services`
   */
  readonly apiServerAddress?: string;
  /**
   * Write the agent namespace's Namespace object with the cluster. An InfraEnv creates it already;
   * turn this on when the Agents come from hosts booted by hand with a discovery ISO made elsewhere.
   * @default false
   */
  readonly createAgentNamespace?: boolean;
}

export class AgentClusterPlatform implements IClusterPlatform {
  /** The Agent platform. */
  public readonly type = PlatformType.AGENT;

  constructor(private readonly props: AgentClusterPlatformProps) {}

  public bind(context: ClusterPlatformContext): ClusterPlatformConfig {
    const problems = context.problems;
    if (!isDns1123Label(this.props.agentNamespace)) {
      problems.add(`agentNamespace (${JSON.stringify(this.props.agentNamespace)}) ${DNS1123_LABEL_RULE}`);
    } else if (this.props.createAgentNamespace) {
      ensureNamespace(context.scope, this.props.agentNamespace);
    }
    const address = this.props.apiServerAddress;
    const problem = address === undefined ? undefined : nodePortAddressProblem('apiServerAddress', address);
    if (problem) problems.add(problem);
    return {
      platform: { type: hc.HostedClusterSpecPlatformType.AGENT, agent: { agentNamespace: this.props.agentNamespace } },
      defaultServices: this.props.apiServerAddress !== undefined ? nodePortPublishing(this.props.apiServerAddress) : undefined,
      defaultBaseDomain: 'example.com',
    };
  }
}

/** How a label selector requirement compares a label with its values. */
export enum LabelSelectorOperator {
  /** The label has one of the values. */
  IN = 'In',
  /** The label has none of the values, or is missing. */
  NOT_IN = 'NotIn',
  /** The label is there, whatever its value. */
  EXISTS = 'Exists',
  /** The label is missing. */
  DOES_NOT_EXIST = 'DoesNotExist',
}

/** One requirement of a label selector, as Kubernetes writes it (`matchExpressions[]`). */
export interface LabelSelectorRequirement {
  /** The label's key. */
  readonly key: string;
  /** How the label is compared. */
  readonly operator: LabelSelectorOperator;
  /** Required for In and NotIn, forbidden for Exists and DoesNotExist. @default - none */
  readonly values?: string[];
}

/** Props of `NodePoolPlatform.agent()`. */
export interface AgentNodePoolPlatformProps {
  /**
   * Agents whose labels equal these become nodes of the pool; `{}` writes an empty selector.
   * @default - any Agent in the agent namespace, and no `agentLabelSelector` written
   */
  readonly matchLabels?: Record<string, string>;
  /**
   * Further set-based requirements on Agent labels.
   * @default - none
   */
  readonly matchExpressions?: LabelSelectorRequirement[];
}

export class AgentNodePoolPlatform implements INodePoolPlatform {
  /** The Agent platform. */
  public readonly type = PlatformType.AGENT;
  public readonly defaultUpgradeType = np.NodePoolSpecManagementUpgradeType.IN_PLACE;

  constructor(
    /** The props it was made with. */
    public readonly props: AgentNodePoolPlatformProps,
  ) {}

  /** The NodePool's `spec.platform`, checking the selector's labels. */
  public render(context: NodePoolPlatformContext): NodePoolPlatformConfig {
    const problems = context.problems;
    for (const [key, value] of Object.entries(this.props.matchLabels ?? {})) {
      if (!isQualifiedName(key)) problems.add(`matchLabels key (${JSON.stringify(key)}) must be a label key: [prefix/]name, name at most 63 characters`);
      if (!isLabelValue(value)) problems.add(`matchLabels.${key} (${JSON.stringify(value)}) must be a label value: at most 63 letters, digits, "-", "_" or "."`);
    }
    for (const requirement of this.props.matchExpressions ?? []) {
      const needsValues = requirement.operator === LabelSelectorOperator.IN || requirement.operator === LabelSelectorOperator.NOT_IN;
      const count = requirement.values?.length ?? 0;
      if (needsValues ? count === 0 : count > 0) {
        problems.add(`matchExpressions[${requirement.key}].values (${JSON.stringify(requirement.values)}) must be ${needsValues ? 'non-empty' : 'empty'} with operator ${requirement.operator}`);
      }
    }
    const matchLabels = Object.keys(this.props.matchLabels ?? {}).length > 0 ? this.props.matchLabels : undefined;
    const matchExpressions = (this.props.matchExpressions ?? []).length > 0 ? this.props.matchExpressions!.map((r) => ({ key: r.key, operator: r.operator, values: r.values })) : undefined;
    // As `hcp create cluster agent`: no selector unless one is given; an explicitly empty one is
    // written `{}` as `hcp create nodepool agent --agentLabelSelector ""` does. Both take any Agent.
    const given = this.props.matchLabels !== undefined || this.props.matchExpressions !== undefined;
    const selector: np.NodePoolSpecPlatformAgentAgentLabelSelector | undefined = given ? { matchLabels, matchExpressions } : undefined;
    return { platform: { type: np.NodePoolSpecPlatformType.AGENT, agent: { agentLabelSelector: selector } } };
  }
}
