import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import * as np from '../../imports/nodepool-hypershift.openshift.io';
import { nodePortAddressProblem, nodePortPublishing } from '../core/service-publishing';
import type { ClusterPlatformConfig, ClusterPlatformContext, IClusterPlatform } from './cluster-platform';
import type { INodePoolPlatform, NodePoolPlatformConfig } from './node-pool-platform';
import { PlatformType } from './platform-type';

/** Props of `ClusterPlatform.none()`. */
export interface NoneClusterPlatformProps {
  /**
   * The address (IP or DNS name) of management-cluster nodes; every service is
   * published there as a NodePort, as `hypershift create cluster none
   * --external-api-server-address` does.
   * @default - no default publishing: give the HostedCluster's `services`
   */
  readonly apiServerAddress?: string;
}

export class NoneClusterPlatform implements IClusterPlatform {
  /** The None platform. */
  public readonly type = PlatformType.NONE;

  constructor(private readonly props: NoneClusterPlatformProps) {}

  public bind(context: ClusterPlatformContext): ClusterPlatformConfig {
    const address = this.props.apiServerAddress;
    const problem = address === undefined ? undefined : nodePortAddressProblem('apiServerAddress', address);
    if (problem) context.problems.add(problem);
    return {
      platform: { type: hc.HostedClusterSpecPlatformType.NONE },
      defaultServices: this.props.apiServerAddress !== undefined ? nodePortPublishing(this.props.apiServerAddress) : undefined,
      defaultBaseDomain: 'example.com',
    };
  }
}

export class NoneNodePoolPlatform implements INodePoolPlatform {
  /** The None platform. */
  public readonly type = PlatformType.NONE;
  public readonly defaultUpgradeType = np.NodePoolSpecManagementUpgradeType.IN_PLACE;

  /** The NodePool's `spec.platform`: type None. */
  public render(): NodePoolPlatformConfig {
    return { platform: { type: np.NodePoolSpecPlatformType.NONE } };
  }
}
