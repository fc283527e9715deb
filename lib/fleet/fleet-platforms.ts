import { Size } from 'cdk8s';
import { AwsHostedInfraOutputs } from '../aws/aws-hosted-infra-values';
import { BmcCredentials } from '../baremetal/bmc-credentials';
import { InfraEnv } from '../baremetal/infra-env';
import type { HostedCluster } from '../core/hosted-cluster';
import type { NodePoolOptions } from '../core/node-pool';
import type { Problems } from '../core/problems';
import { SshPublicKey } from '../core/ssh-public-key';
import { MetalLBIngress } from '../ingress/metallb-ingress';
import { awsHostedInfraValuesProblems } from '../platform/aws-infra';
import { ClusterPlatform, IClusterPlatform } from '../platform/cluster-platform';
import { NodePoolPlatform } from '../platform/node-pool-platform';
import { SecretSource } from '../secrets/secret-source';
import type { FleetClusterSpec, FleetNodePoolSpec } from './fleet-inventory';

/** How a fleet turns one platform's inventory fields into constructs. */
export interface FleetPlatform {
  /** The cluster's platform, or undefined after recording why it cannot be built. */
  cluster(spec: FleetClusterSpec, problems: Problems): IClusterPlatform | undefined;
  /** A pool's platform-specific options, or undefined after recording why. */
  pool(spec: FleetClusterSpec, pool: FleetNodePoolSpec, problems: Problems): NodePoolOptions | undefined;
  /** What the platform adds beside the cluster (an Agent cluster's hosts and ingress). */
  addExtras?(cluster: HostedCluster, spec: FleetClusterSpec): void;
}

/** The platforms a fleet inventory can name (`platform:`), each building its own constructs. */
export const FLEET_PLATFORMS: Readonly<Record<NonNullable<FleetClusterSpec['platform']>, FleetPlatform>> = {
  Agent: {
    cluster: (spec, problems) => {
      if (!spec.agent) {
        problems.add('agent (undefined) must give agentNamespace and apiServerAddress on platform Agent');
        return undefined;
      }
      return ClusterPlatform.agent({ agentNamespace: spec.agent.agentNamespace, apiServerAddress: spec.agent.apiServerAddress });
    },
    pool: (_spec, pool) => ({ replicas: pool.replicas, platform: NodePoolPlatform.agent({ matchLabels: pool.agentLabels }) }),
    addExtras: addAgentInventory,
  },
  KubeVirt: {
    cluster: () => ClusterPlatform.kubevirt(),
    pool: (_spec, pool) => ({
      replicas: pool.replicas,
      platform: NodePoolPlatform.kubevirt({ cores: pool.cores, memory: pool.memoryGiB ? Size.gibibytes(pool.memoryGiB) : undefined }),
    }),
  },
  AWS: {
    cluster: (spec, problems) => {
      if (!spec.aws) {
        problems.add('aws (undefined) must give the infra values on platform AWS');
        return undefined;
      }
      // Values from a file may be partial: each missing one is named, and the cluster is not built.
      const infraProblems = awsHostedInfraValuesProblems(spec.aws.infra, 'aws.infra');
      infraProblems.forEach((problem) => problems.add(problem));
      if (infraProblems.length > 0) return undefined;
      return ClusterPlatform.aws({ infra: AwsHostedInfraOutputs.fromValues(spec.aws.infra) });
    },
    pool: (spec, pool, problems) => {
      const infra = spec.aws!.infra;
      const zone = infra.zones.find((z) => z.name === (pool.zone ?? infra.zones[0]?.name));
      if (!zone) {
        problems.add(`nodePools.${pool.name}.zone (${JSON.stringify(pool.zone)}) must be one of the infra's zones (${infra.zones.map((z) => z.name).join(', ')})`);
        return undefined;
      }
      return {
        replicas: pool.replicas,
        platform: NodePoolPlatform.aws({ instanceType: pool.instanceType, subnetId: zone.subnetId, instanceProfile: infra.instanceProfileName }),
      };
    },
  },
  None: {
    cluster: (spec) => ClusterPlatform.none({ apiServerAddress: spec.none?.apiServerAddress }),
    pool: (_spec, pool) => ({ replicas: pool.replicas }),
  },
};

/** An Agent cluster's own InfraEnv (named after it, in its agent namespace), its hosts and its MetalLB ingress. */
function addAgentInventory(cluster: HostedCluster, spec: FleetClusterSpec): void {
  const agent = spec.agent!;
  if (agent.hosts?.length) {
    const infraEnv = new InfraEnv(cluster, 'InfraEnv', {
      name: spec.name,
      namespace: agent.agentNamespace,
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      sshAuthorizedKey: spec.sshPublicKey ? SshPublicKey.fromString(spec.sshPublicKey) : undefined,
    });
    for (const host of agent.hosts) {
      infraEnv.addHost(host.name, {
        bmc: { address: host.bmcAddress, credentials: BmcCredentials.fromExistingSecret(host.bmcCredentialsSecret) },
        bootMacAddress: host.bootMacAddress,
      });
    }
  }
  if (agent.ingressAddresses?.length) new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: agent.ingressAddresses });
}
