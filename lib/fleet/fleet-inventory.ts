import { hcpCdkCrd } from '../core/hcp-cdk-crd';
import { PATH_PART_PATTERN } from '../core/path-part';
import type { AwsHostedInfraValues } from '../platform/aws-infra';
import type { OpenApiSchema } from '../validation/schema-catalog';

/** One node pool of a fleet cluster; the platform fields that apply to its cluster are read. */
export interface FleetNodePoolSpec {
  /** The pool's name; the NodePool is `<cluster>-<name>`. */
  readonly name: string;
  /** @default 2 */
  readonly replicas?: number;
  /** Agent: labels the Agents must carry. @default - any Agent of the cluster's inventory */
  readonly agentLabels?: Record<string, string>;
  /** KubeVirt: @default 2 */
  readonly cores?: number;
  /** KubeVirt: @default 4 */
  readonly memoryGiB?: number;
  /** AWS: @default 'm5.large' */
  readonly instanceType?: string;
  /** AWS: the zone (of the infra's zones) the pool's subnet is in. @default - the infra's first zone */
  readonly zone?: string;
}

/** A bare-metal host of an Agent cluster's inventory, booted through its BMC. */
export interface FleetHostSpec {
  /** The host's name, its BareMetalHost's. */
  readonly name: string;
  /** The BMC's address, e.g. `redfish-virtualmedia://192.0.2.11/redfish/v1/Systems/1`. */
  readonly bmcAddress: string;
  /** An existing Secret with `username` and `password` in the inventory namespace. */
  readonly bmcCredentialsSecret: string;
  /** The MAC address of the NIC the host boots from. */
  readonly bootMacAddress: string;
}

/** Everything a fleet cluster can set; `defaults` take the same fields but `name`. */
export interface FleetClusterSpec {
  /** The cluster's name, the HostedCluster's. */
  readonly name: string;
  /** @default 'clusters' */
  readonly namespace?: string;
  /** @default 'None' */
  readonly platform?: 'Agent' | 'KubeVirt' | 'AWS' | 'None';
  /** A release image, by digest or tag. @default - none: required, for the cluster or in defaults */
  readonly releaseImage?: string;
  /**
   * The release's version, when the image does not show it (digests): written as the
   * `hcp-cdk.io/release-version` annotation, so that update paths and version skew are checked.
   * @default - from the tag; for a digest, unknown (a warning, an error with strict)
   */
  readonly releaseVersion?: string;
  /** @default - the platform's (see HostedClusterProps.baseDomain) */
  readonly baseDomain?: string;
  /** An existing pull secret in the cluster's namespace. @default '<name>-pull-secret' */
  readonly pullSecretName?: string;
  /** @default - no SSH access */
  readonly sshPublicKey?: string;
  /** @default 'HighlyAvailable' */
  readonly availabilityPolicy?: 'HighlyAvailable' | 'SingleReplica';
  /** @default - the `hcp` defaults, see NetworkingProps */
  readonly networking?: {
    /** @default ['10.132.0.0/14'] */
    readonly clusterNetwork?: string[];
    /** @default ['172.31.0.0/16'] */
    readonly serviceNetwork?: string[];
    /** @default - none (AWS: the VPC CIDR) */
    readonly machineNetwork?: string[];
  };
  /** Platform Agent. @default - none: required on platform Agent */
  readonly agent?: {
    /** The namespace the cluster takes Agents from. */
    readonly agentNamespace: string;
    /** The address the API server is published at (NodePort). */
    readonly apiServerAddress: string;
    /** Hosts of a per-cluster InfraEnv `<name>` in the agent namespace. @default - none declared */
    readonly hosts?: FleetHostSpec[];
    /** MetalLB ingress addresses in the hosted cluster. @default - no MetalLB ingress */
    readonly ingressAddresses?: string[];
  };
  /** Platform None. @default - no default publishing */
  readonly none?: {
    /** The address every control-plane service is published on as a NodePort. */
    readonly apiServerAddress: string;
  };
  /** Platform AWS. @default - none: required on platform AWS */
  readonly aws?: {
    /** The AwsHostedInfra values (from `cdk deploy --outputs-file`, or known). */
    readonly infra: AwsHostedInfraValues;
  };
  /** @default - one pool `<name>-workers` of 2 */
  readonly nodePools?: FleetNodePoolSpec[];
  /** Labels of the HostedCluster (`metadata.labels`), which rollouts select clusters by. @default - none */
  readonly labels?: Record<string, string>;
  /** The update channel (`spec.channel`), e.g. `stable-4.17`: the update graph of that channel (updateGraphs) checks its updates. @default - none */
  readonly channel?: string;
}

/** What fleet and management-cluster `defaults` may set: every field of a cluster but its name. */
export type FleetClusterDefaults = Partial<Omit<FleetClusterSpec, 'name'>>;

/**
 * One wave of a rollout: exactly one of `canaries`, `clusters`, `labels`, `batch` or `rest` (see
 * RolloutWave). Clusters are named by name, or `<management cluster>/<name>` when two management
 * clusters have one of that name.
 */
export interface FleetRolloutWaveSpec {
  /** @default - 'canaries', 'rest', else `wave-<n>` */
  readonly name?: string;
  /** The canary clusters: the first wave. */
  readonly canaries?: string[];
  /** Clusters by name. */
  readonly clusters?: string[];
  /** The clusters carrying every one of these labels. */
  readonly labels?: Record<string, string>;
  /** The next so many clusters no wave names or selects by label, in inventory order. */
  readonly batch?: number;
  /** Every cluster left: the last wave. */
  readonly rest?: boolean;
  /** Upgrade the wave's control planes now and its pools in the next commit, which drops the hold. @default false */
  readonly holdNodePools?: boolean;
}

/** A release rolled across the fleet in waves, one wave per commit (see ReleaseRollout). */
export interface FleetRolloutSpec {
  /** The rollout's name (a DNS-1123 subdomain). */
  readonly name: string;
  /** The release the clusters move to, by digest or tag. */
  readonly releaseImage: string;
  /** Its version, when the image does not tell it (a digest). @default - from the tag */
  readonly releaseVersion?: string;
  /** The clusters it covers: those whose labels include all of these. @default - every cluster of the fleet */
  readonly clusterLabels?: Record<string, string>;
  /** The waves, in order. */
  readonly waves: FleetRolloutWaveSpec[];
  /** How many waves are released: raise it by one per commit. @default 0 */
  readonly releasedWaves?: number;
  /** What a failed cluster does to the waves after it, as TALM's batchTimeoutAction. @default 'Continue' */
  readonly onFailure?: 'Continue' | 'Stop';
  /** Clusters of released waves whose upgrade failed. @default - none */
  readonly failedClusters?: string[];
  /** Rollouts (by name) that must be complete before this one moves a wave. @default - none */
  readonly after?: string[];
  /** Under onFailure Continue, the most failed clusters the rollout goes on with. @default - no limit */
  readonly maxFailedClusters?: number;
  /** Under onFailure Continue, the most failed clusters in percent of the clusters of the released waves. @default - no limit */
  readonly maxFailedPercent?: number;
  /** What a paused cluster of a released wave does to the next wave. @default 'Hold' */
  readonly onPaused?: 'Hold' | 'Continue';
  /** How long a released wave's clusters have before they count as timed out, in minutes. @default 240 */
  readonly waveTimeoutMinutes?: number;
  /** Where clusters that join once a wave is released go. @default 'LastWave' */
  readonly newClusters?: 'LastWave' | 'NextWave';
  /**
   * The rollout's state file (see RolloutState), relative to the inventory file and inside its
   * folder: it gives releasedWaves and failedClusters, which are then left out here. @default - none
   */
  readonly stateFile?: string;
}

/** The update graph of a channel, as the update service serves it, saved beside the inventory (see UpdateGraph). */
export interface FleetUpdateGraphSpec {
  /** The channel, e.g. `stable-4.17`. */
  readonly channel: string;
  /** The file, relative to the inventory file and inside its folder. */
  readonly file: string;
}

/** The HyperShift operator a management cluster runs: exactly one of the two. */
export interface FleetHyperShiftSpec {
  /** The OpenShift minor the operator was released for, e.g. `4.17` (HyperShiftVersion.ofOpenShift). @default - none */
  readonly openShift?: string;
  /** The multicluster engine that ships it, e.g. `2.7` (HyperShiftVersion.ofMultiClusterEngine). @default - none */
  readonly multiClusterEngine?: string;
}

/** The management clusters of a fleet and the hosted clusters each runs. */
export interface FleetInventory {
  /** Shared by every cluster; a management cluster's and a cluster's own fields win. @default - none */
  readonly defaults?: FleetClusterDefaults;
  /** The management clusters, each with its hosted clusters. */
  readonly managementClusters: {
    /** The management cluster's name, its output folder. */
    readonly name: string;
    /**
     * The HyperShift operator it runs, whose version rules synth and plan apply (see
     * ManagementClusterProps.hyperShift): `{ openShift: '4.17' }` or `{ multiClusterEngine: '2.7' }`, one of them.
     * @default - not stated: HyperShift main's skew rule, no supported range
     */
    readonly hyperShift?: FleetHyperShiftSpec;
    /** Fields its clusters share; a cluster's own win. @default - none */
    readonly defaults?: FleetClusterDefaults;
    /** The hosted clusters it runs. */
    readonly clusters: FleetClusterSpec[];
  }[];
  /** Release rollouts over the fleet's clusters; a cluster is in one at most. @default - none */
  readonly rollouts?: FleetRolloutSpec[];
  /** Update graphs, one per channel, which the clusters' updates on that channel are checked against. @default - none */
  readonly updateGraphs?: FleetUpdateGraphSpec[];
}

/** A management cluster's name, which becomes its output folder (see `pathPart`); a cluster's is checked by HostedCluster. */
const PATH_PART_SCHEMA: OpenApiSchema = { type: 'string', maxLength: 253, pattern: PATH_PART_PATTERN };
const stringList: OpenApiSchema = { type: 'array', items: { type: 'string' } };
const labels: OpenApiSchema = { type: 'object', additionalProperties: { type: 'string' } };

const NODE_POOL: OpenApiSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1 },
    replicas: { type: 'integer', minimum: 0 },
    agentLabels: labels,
    cores: { type: 'integer', minimum: 1 },
    memoryGiB: { type: 'integer', minimum: 1 },
    instanceType: { type: 'string' },
    zone: { type: 'string' },
  },
};

const CLUSTER_FIELDS: Record<string, OpenApiSchema> = {
  namespace: { type: 'string' },
  platform: { type: 'string', enum: ['Agent', 'KubeVirt', 'AWS', 'None'] },
  releaseImage: { type: 'string', minLength: 1 },
  releaseVersion: { type: 'string' },
  baseDomain: { type: 'string' },
  pullSecretName: { type: 'string' },
  sshPublicKey: { type: 'string' },
  availabilityPolicy: { type: 'string', enum: ['HighlyAvailable', 'SingleReplica'] },
  networking: { type: 'object', properties: { clusterNetwork: stringList, serviceNetwork: stringList, machineNetwork: stringList } },
  agent: {
    type: 'object',
    required: ['agentNamespace', 'apiServerAddress'],
    properties: {
      agentNamespace: { type: 'string' },
      apiServerAddress: { type: 'string' },
      hosts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['name', 'bmcAddress', 'bmcCredentialsSecret', 'bootMacAddress'],
          properties: { name: { type: 'string' }, bmcAddress: { type: 'string' }, bmcCredentialsSecret: { type: 'string' }, bootMacAddress: { type: 'string' } },
        },
      },
      ingressAddresses: stringList,
    },
  },
  none: { type: 'object', required: ['apiServerAddress'], properties: { apiServerAddress: { type: 'string' } } },
  aws: { type: 'object', required: ['infra'], properties: { infra: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
  nodePools: { type: 'array', items: NODE_POOL },
  labels,
  channel: { type: 'string', minLength: 1 },
};

const ROLLOUT: OpenApiSchema = {
  type: 'object',
  required: ['name', 'releaseImage', 'waves'],
  properties: {
    name: { type: 'string', minLength: 1 },
    releaseImage: { type: 'string', minLength: 1 },
    releaseVersion: { type: 'string' },
    clusterLabels: labels,
    waves: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          canaries: stringList,
          clusters: stringList,
          labels,
          batch: { type: 'integer', minimum: 1 },
          rest: { type: 'boolean' },
          holdNodePools: { type: 'boolean' },
        },
      },
    },
    releasedWaves: { type: 'integer', minimum: 0 },
    onFailure: { type: 'string', enum: ['Continue', 'Stop'] },
    failedClusters: stringList,
    after: stringList,
    maxFailedClusters: { type: 'integer', minimum: 0 },
    maxFailedPercent: { type: 'integer', minimum: 0, maximum: 100 },
    onPaused: { type: 'string', enum: ['Hold', 'Continue'] },
    waveTimeoutMinutes: { type: 'integer', minimum: 1 },
    newClusters: { type: 'string', enum: ['LastWave', 'NextWave'] },
    stateFile: { type: 'string', minLength: 1 },
  },
};

const DEFAULTS: OpenApiSchema = { type: 'object', properties: CLUSTER_FIELDS };

/**
 * The schema of an inventory file: `apiVersion: hcp-cdk.io/v1alpha1`, `kind: Fleet`, `spec` a
 * FleetInventory. Served as a CRD to the validator, so a bad file gets the same field-by-field
 * messages as a bad object, before any construct is built.
 */
export const FLEET_INVENTORY_CRD: unknown = hcpCdkCrd('Fleet', 'fleets', {
  type: 'object',
  required: ['managementClusters'],
  properties: {
    defaults: DEFAULTS,
    managementClusters: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'clusters'],
        properties: {
          name: PATH_PART_SCHEMA,
          hyperShift: {
            'type': 'object',
            'properties': { openShift: { type: 'string', pattern: '^[45]\\.[0-9]+$' }, multiClusterEngine: { type: 'string', pattern: '^2\\.[0-9]+(\\.[0-9]+)?$' } },
            'x-kubernetes-validations': [{ rule: 'has(self.openShift) != has(self.multiClusterEngine)', message: 'give exactly one of openShift (e.g. 4.17) and multiClusterEngine (e.g. 2.7)' }],
          },
          defaults: DEFAULTS,
          clusters: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, ...CLUSTER_FIELDS } } },
        },
      },
    },
    rollouts: { type: 'array', items: ROLLOUT },
    updateGraphs: {
      type: 'array',
      items: { type: 'object', required: ['channel', 'file'], properties: { channel: { type: 'string', minLength: 1 }, file: { type: 'string', minLength: 1 } } },
    },
  },
});
