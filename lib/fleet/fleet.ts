import * as fs from 'fs';
import { Size } from 'cdk8s';
import { CORE_SCHEMA, load } from 'js-yaml';
import { AwsHostedInfraOutputs } from '../aws/aws-hosted-infra-values';
import { BmcCredentials } from '../baremetal/bmc-credentials';
import { InfraEnv } from '../baremetal/infra-env';
import { AvailabilityPolicy } from '../core/availability-policy';
import { HcpApp } from '../core/hcp-app';
import { HostedCluster } from '../core/hosted-cluster';
import { ManagementCluster } from '../core/management-cluster';
import { HcpValidationError } from '../core/problems';
import { Release } from '../core/release';
import { SshPublicKey } from '../core/ssh-public-key';
import { MetalLBIngress } from '../ingress/metallb-ingress';
import { ClusterPlatform } from '../platform/cluster-platform';
import { NodePoolPlatform } from '../platform/node-pool-platform';
import { SecretSource } from '../secrets/secret-source';
import { ObjectValidator } from '../validation/object-validator';
import { SchemaCatalog } from '../validation/schema-catalog';
import { formatProblem } from '../validation/validation-problem';
import { FLEET_INVENTORY_CRD, FleetClusterDefaults, FleetClusterSpec, FleetInventory } from './fleet-inventory';

/**
 * Many hosted clusters, on several management clusters, from typed data: an inventory in code
 * (`Fleet.fromInventory`) or a YAML/JSON file (`Fleet.fromFile`) checked against its schema first.
 * Each cluster is its defaults (fleet-wide, then its management cluster's) with its own fields on
 * top, and becomes the same constructs a hand-written app would use.
 */
export class Fleet {
  /** Builds the fleet's constructs in `app`. */
  public static fromInventory(app: HcpApp, inventory: FleetInventory): Fleet {
    return new Fleet(app, inventory);
  }

  /**
   * Reads an inventory file: `apiVersion: hcp-cdk.io/v1alpha1`, `kind: Fleet`, `metadata.name`,
   * `spec` a FleetInventory. Every schema problem of the file is reported at once, by field path.
   */
  public static fromFile(app: HcpApp, file: string): Fleet {
    const document = load(fs.readFileSync(file, 'utf8'), { schema: CORE_SCHEMA, filename: file }) as any;
    const catalog = SchemaCatalog.bundled().addCustomResourceDefinitions([FLEET_INVENTORY_CRD], 'hcp-cdk');
    const problems = new ObjectValidator({ catalog }).validate(document, { source: file });
    if (problems.length > 0) throw new HcpValidationError(problems.map(formatProblem));
    return new Fleet(app, document.spec as FleetInventory);
  }

  /** The management clusters, by name. */
  public readonly managementClusters = new Map<string, ManagementCluster>();
  /** The hosted clusters, by `<management cluster>/<name>`. */
  public readonly clusters = new Map<string, HostedCluster>();

  private constructor(app: HcpApp, inventory: FleetInventory) {
    const problems: string[] = [];
    for (const management of inventory.managementClusters) {
      const hub = new ManagementCluster(app, management.name);
      this.managementClusters.set(management.name, hub);
      const defaults = merge(inventory.defaults ?? {}, management.defaults ?? {});
      for (const own of management.clusters) {
        const spec = merge(defaults, own) as FleetClusterSpec;
        try {
          this.clusters.set(`${management.name}/${spec.name}`, buildCluster(hub, spec));
        } catch (error) {
          // Every cluster is built, so that one synth reports the problems of all of them.
          problems.push(...((error as HcpValidationError).problems ?? [(error as Error).message]));
        }
      }
    }
    if (problems.length > 0) throw new HcpValidationError(problems);
  }
}

function buildCluster(hub: ManagementCluster, spec: FleetClusterSpec): HostedCluster {
  const where = `${hub.node.id}/${spec.name}`;
  if (!spec.releaseImage) throw new Error(`${where}: releaseImage (undefined) must be given, for the cluster or in defaults`);
  const release = Release.fromImage(spec.releaseImage, spec.releaseVersion ? { version: spec.releaseVersion } : {});
  const platform = platformOf(spec, where);
  const cluster = new HostedCluster(hub, spec.name, {
    namespace: spec.namespace,
    release,
    baseDomain: spec.baseDomain,
    pullSecret: SecretSource.fromExistingSecret(spec.pullSecretName ?? `${spec.name}-pull-secret`),
    sshKey: spec.sshPublicKey ? SshPublicKey.fromString(spec.sshPublicKey) : undefined,
    controllerAvailabilityPolicy: (spec.availabilityPolicy ?? 'HighlyAvailable') as AvailabilityPolicy,
    networking: spec.networking,
    platform,
  });
  const pools = spec.nodePools ?? [{ name: 'workers' }];
  if (spec.platform === 'AWS') {
    const infra = AwsHostedInfraOutputs.fromValues(spec.aws!.infra);
    for (const pool of pools) {
      const zone = infra.values.zones.find((z) => z.name === (pool.zone ?? infra.values.zones[0]?.name));
      if (!zone) throw new Error(`${where}: nodePools.${pool.name}.zone (${JSON.stringify(pool.zone)}) must be one of the infra's zones (${infra.values.zones.map((z) => z.name).join(', ')})`);
      cluster.addNodePool(pool.name, {
        replicas: pool.replicas,
        platform: NodePoolPlatform.aws({ instanceType: pool.instanceType, subnetId: zone.subnetId, instanceProfile: infra.values.instanceProfileName }),
      });
    }
  } else {
    for (const pool of pools) {
      cluster.addNodePool(pool.name, {
        replicas: pool.replicas,
        platform: spec.platform === 'KubeVirt'
          ? NodePoolPlatform.kubevirt({ cores: pool.cores, memory: pool.memoryGiB ? Size.gibibytes(pool.memoryGiB) : undefined })
          : spec.platform === 'Agent' ? NodePoolPlatform.agent({ matchLabels: pool.agentLabels }) : undefined,
      });
    }
  }
  if (spec.platform === 'Agent') addAgentInventory(cluster, spec);
  return cluster;
}

function platformOf(spec: FleetClusterSpec, where: string) {
  switch (spec.platform ?? 'None') {
    case 'Agent':
      if (!spec.agent) throw new Error(`${where}: agent (undefined) must give agentNamespace and apiServerAddress on platform Agent`);
      return ClusterPlatform.agent({ agentNamespace: spec.agent.agentNamespace, apiServerAddress: spec.agent.apiServerAddress });
    case 'KubeVirt':
      return ClusterPlatform.kubevirt();
    case 'AWS':
      if (!spec.aws) throw new Error(`${where}: aws (undefined) must give the infra values on platform AWS`);
      return ClusterPlatform.aws({ infra: AwsHostedInfraOutputs.fromValues(spec.aws.infra) });
    case 'None':
      return ClusterPlatform.none({ apiServerAddress: spec.none?.apiServerAddress });
  }
}

/** The cluster's own InfraEnv (named after it, in its agent namespace), its hosts and its MetalLB ingress. */
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

/** `base` with `over` on top: objects merge key by key, lists and scalars are replaced. */
function merge(base: FleetClusterDefaults, over: FleetClusterDefaults): FleetClusterDefaults {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? merge(current as FleetClusterDefaults, value as FleetClusterDefaults) : value;
  }
  return out as FleetClusterDefaults;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
