import * as np from '../../imports/nodepool-hypershift.openshift.io';
import type { Problems } from '../core/problems';
import { AgentNodePoolPlatform, AgentNodePoolPlatformProps } from './agent';
import { AwsNodePoolPlatform, AwsNodePoolPlatformProps } from './aws';
import { KubevirtNodePoolPlatform, KubevirtNodePoolPlatformProps } from './kubevirt';
import { NoneNodePoolPlatform } from './none';
import { PlatformType } from './platform-type';

/** What a node-pool platform knows about its pool and cluster. */
export interface NodePoolPlatformContext {
  /** The architecture of the pool's nodes (`amd64`, `arm64`, ...). */
  readonly arch: string;
  /** The cluster's infrastructure ID. */
  readonly clusterInfraId?: string;
  /** The subnet the cluster's pools use when they name none (AWS). */
  readonly clusterDefaultSubnetId?: string;
  /** The HostedCluster's annotations, for the ones the CLI carries over to its pools. */
  readonly clusterAnnotations?: Readonly<Record<string, string>>;
  /** Where the platform records problems with its own props, by field under `platform.`. */
  readonly problems: Problems;
}

/** What a platform contributes to the NodePool. */
export interface NodePoolPlatformConfig {
  /** `spec.platform`. */
  readonly platform: np.NodePoolSpecPlatform;
  /**
   * Annotations the NodePool gets (the pool's own `annotations` win).
   * @default - none
   */
  readonly annotations?: Record<string, string>;
}

/** The platform half of a NodePool. Implemented by the classes `NodePoolPlatform` returns. */
export interface INodePoolPlatform {
  /** The platform's type, which must be its cluster's. */
  readonly type: PlatformType;
  /** How the pool's nodes take a new release or config when the pool does not say (as `hcp create nodepool`). */
  readonly defaultUpgradeType: np.NodePoolSpecManagementUpgradeType;
  /** The NodePool's `spec.platform`, recording problems with the platform's props. */
  render(context: NodePoolPlatformContext): NodePoolPlatformConfig;
}

/** Where a node pool's machines come from. Its platform must match the cluster's. */
export class NodePoolPlatform {
  /** Machines are Agents whose labels match a selector. */
  public static agent(props: AgentNodePoolPlatformProps = {}): INodePoolPlatform {
    return new AgentNodePoolPlatform(props);
  }

  /** Machines are KubeVirt virtual machines. */
  public static kubevirt(props: KubevirtNodePoolPlatformProps = {}): INodePoolPlatform {
    return new KubevirtNodePoolPlatform(props);
  }

  /** Machines are EC2 instances. */
  public static aws(props: AwsNodePoolPlatformProps = {}): INodePoolPlatform {
    return new AwsNodePoolPlatform(props);
  }

  /** Machines join by themselves; HyperShift only serves their ignition. */
  public static none(): INodePoolPlatform {
    return new NoneNodePoolPlatform();
  }

  /** The pool platform `hcp create nodepool` uses on a cluster of `type`, with its defaults. */
  public static defaultFor(type: PlatformType): INodePoolPlatform {
    switch (type) {
      case PlatformType.AGENT:
        return NodePoolPlatform.agent();
      case PlatformType.KUBEVIRT:
        return NodePoolPlatform.kubevirt();
      case PlatformType.AWS:
        return NodePoolPlatform.aws();
      case PlatformType.NONE:
        return NodePoolPlatform.none();
    }
  }
}
