import type { AwsHostedInfraValues } from '../platform/aws-infra';
import type { OpenApiSchema } from '../validation/schema-catalog';

/** One node pool of a fleet cluster; the platform fields that apply to its cluster are read. */
export interface FleetNodePoolSpec {
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
  readonly name: string;
  readonly bmcAddress: string;
  /** An existing Secret with `username` and `password` in the inventory namespace. */
  readonly bmcCredentialsSecret: string;
  readonly bootMacAddress: string;
}

/** Everything a fleet cluster can set; `defaults` take the same fields but `name`. */
export interface FleetClusterSpec {
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
    readonly agentNamespace: string;
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
}

export type FleetClusterDefaults = Partial<Omit<FleetClusterSpec, 'name'>>;

/** The management clusters of a fleet and the hosted clusters each runs. */
export interface FleetInventory {
  /** Shared by every cluster; a management cluster's and a cluster's own fields win. @default - none */
  readonly defaults?: FleetClusterDefaults;
  readonly managementClusters: {
    readonly name: string;
    /** @default - none */
    readonly defaults?: FleetClusterDefaults;
    readonly clusters: FleetClusterSpec[];
  }[];
}

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
};

const DEFAULTS: OpenApiSchema = { type: 'object', properties: CLUSTER_FIELDS };

/**
 * The schema of an inventory file: `apiVersion: hcp-cdk.io/v1alpha1`, `kind: Fleet`, `spec` a
 * FleetInventory. Served as a CRD to the validator, so a bad file gets the same field-by-field
 * messages as a bad object, before any construct is built.
 */
export const FLEET_INVENTORY_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'fleets.hcp-cdk.io' },
  spec: {
    group: 'hcp-cdk.io',
    names: { kind: 'Fleet', plural: 'fleets' },
    scope: 'Cluster',
    versions: [{
      name: 'v1alpha1',
      served: true,
      storage: true,
      schema: {
        openAPIV3Schema: {
          type: 'object',
          required: ['spec'],
          properties: {
            apiVersion: { type: 'string' },
            kind: { type: 'string' },
            metadata: { type: 'object' },
            spec: {
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
                      name: { type: 'string' },
                      defaults: DEFAULTS,
                      clusters: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, ...CLUSTER_FIELDS } } },
                    },
                  },
                },
              },
            },
          },
        } satisfies OpenApiSchema,
      },
    }],
  },
};
