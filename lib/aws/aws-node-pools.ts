import type { HostedCluster } from '../core/hosted-cluster';
import type { NodePool, NodePoolOptions } from '../core/node-pool';
import { AwsNodePoolPlatformProps } from '../platform/aws';
import { NodePoolPlatform } from '../platform/node-pool-platform';
import type { IAwsHostedInfra } from '../platform/aws-infra';

/** Options for `AwsNodePools.perZone`: a NodePool's options but its name and platform, which are made per zone. */
export interface AwsNodePoolsPerZoneOptions extends Omit<NodePoolOptions, 'name' | 'platform'> {
  /** The AWS half of every pool; subnet and instance profile come from the infra. @default - m5.large, gp3 120 GiB */
  readonly aws?: Omit<AwsNodePoolPlatformProps, 'subnetId' | 'instanceProfile'>;
}

/** NodePools laid out over an AWS hosted cluster's Availability Zones. */
export class AwsNodePools {
  /**
   * One NodePool per zone of `infra`, named `<cluster>-<zone>` as `hcp create cluster aws` names
   * them, each in that zone's private subnet with the infra's worker instance profile.
   */
  public static perZone(cluster: HostedCluster, infra: IAwsHostedInfra, options: AwsNodePoolsPerZoneOptions = {}): NodePool[] {
    const { aws, ...pool } = options;
    const values = infra.values;
    return values.zones.map((zone) =>
      cluster.addNodePool(zone.name, {
        ...pool,
        // Zone names are lower case on AWS; lowering keeps the pool name a valid Kubernetes name regardless.
        name: `${cluster.clusterName}-${zone.name.toLowerCase()}`,
        platform: NodePoolPlatform.aws({ ...aws, subnetId: zone.subnetId, instanceProfile: values.instanceProfileName }),
      }),
    );
  }
}
