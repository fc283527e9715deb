import * as fs from 'fs';
import type { AwsClusterRoles, AwsHostedInfraValues, IAwsHostedInfra } from '../platform/aws-infra';

/**
 * The CloudFormation output keys AwsHostedInfra writes, one per value, so that a later pipeline
 * step can read `cdk deploy --outputs-file` and fill the HostedCluster without the stack in process.
 */
export const AWS_HOSTED_INFRA_OUTPUTS = {
  /** The output key of the infrastructure ID. */
  infraId: 'InfraId',
  /** The output key of the region. */
  region: 'Region',
  /** The output key of the OIDC issuer URL. */
  issuerUrl: 'IssuerUrl',
  /** The output key of the VPC ID. */
  vpcId: 'VpcId',
  /** The output key of the machine network CIDR. */
  machineCidr: 'MachineCidr',
  /** The output key of the zone names, comma-separated. */
  zoneNames: 'ZoneNames',
  /** The output key of the private subnet IDs, one per zone, comma-separated. */
  subnetIds: 'PrivateSubnetIds',
  /** The output key of the public hosted zone's ID. */
  publicZoneId: 'PublicZoneId',
  /** The output key of the private hosted zone's ID. */
  privateZoneId: 'PrivateZoneId',
  /** The output key of the `<name>.hypershift.local` zone's ID. */
  localZoneId: 'LocalZoneId',
  /** The output key of the worker instance profile's name. */
  instanceProfileName: 'InstanceProfileName',
  /** The output key of the etcd KMS key's ARN. */
  kmsKeyArn: 'KmsKeyArn',
  /** The output key of the KMS provider role's ARN. */
  kmsProviderRoleArn: 'KmsProviderRoleArn',
  /** The output key of the resource tags, as JSON. */
  resourceTags: 'ResourceTags',
  /** The output keys of the component roles' ARNs. */
  roles: {
    ingressArn: 'IngressRoleArn',
    imageRegistryArn: 'ImageRegistryRoleArn',
    storageArn: 'StorageRoleArn',
    networkArn: 'NetworkRoleArn',
    kubeCloudControllerArn: 'KubeCloudControllerRoleArn',
    nodePoolManagementArn: 'NodePoolManagementRoleArn',
    controlPlaneOperatorArn: 'ControlPlaneOperatorRoleArn',
  } satisfies Record<keyof AwsClusterRoles, string>,
} as const;

/** Ways to get AwsHostedInfraValues without the aws-cdk-lib stack in the same process. */
export class AwsHostedInfraOutputs {
  /** Values you already have (bring-your-own infrastructure, or tests). */
  public static fromValues(values: AwsHostedInfraValues): IAwsHostedInfra {
    return { values };
  }

  /**
   * The outputs of a deployed AwsHostedInfra stack, from `cdk deploy --outputs-file <file>`
   * (`{ "<stack name>": { "<output key>": "<value>" } }`).
   */
  public static fromOutputsFile(file: string, stackName: string): IAwsHostedInfra {
    let all: Record<string, Record<string, string>>;
    try {
      all = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    } catch (error) {
      throw new Error(`AwsHostedInfraOutputs.fromOutputsFile: cannot read ${file} (${(error as Error).message.split('\n')[0]}); it is written by cdk deploy --outputs-file ${file}`, { cause: error });
    }
    const outputs = all[stackName];
    if (!outputs)
      throw new Error(
        `AwsHostedInfraOutputs.fromOutputsFile: ${file} has no stack ${JSON.stringify(stackName)} (it has ${
          Object.keys(all)
            .map((s) => JSON.stringify(s))
            .join(', ') || 'none'
        })`,
      );
    return AwsHostedInfraOutputs.fromOutputs(outputs, `${file} (stack ${stackName})`);
  }

  /** The outputs of one stack as a key/value map. */
  public static fromOutputs(outputs: Readonly<Record<string, string>>, source = 'outputs'): IAwsHostedInfra {
    const K = AWS_HOSTED_INFRA_OUTPUTS;
    const missing: string[] = [];
    const get = (key: string): string => {
      const value = outputs[key];
      if (value === undefined) missing.push(key);
      return value ?? '';
    };
    const optional = (key: string): string | undefined => (outputs[key] === undefined || outputs[key] === '' ? undefined : outputs[key]);
    const zoneNames = get(K.zoneNames).split(',').filter(Boolean);
    const subnetIds = get(K.subnetIds).split(',').filter(Boolean);
    const roles = Object.fromEntries(Object.entries(K.roles).map(([field, key]) => [field, get(key)])) as unknown as AwsClusterRoles;
    const values: AwsHostedInfraValues = {
      infraId: get(K.infraId),
      region: get(K.region),
      issuerUrl: get(K.issuerUrl),
      vpcId: get(K.vpcId),
      machineCidr: get(K.machineCidr),
      zones: zoneNames.map((name, i) => ({ name, subnetId: subnetIds[i] ?? '' })),
      publicZoneId: optional(K.publicZoneId),
      privateZoneId: get(K.privateZoneId),
      localZoneId: optional(K.localZoneId),
      roles,
      instanceProfileName: get(K.instanceProfileName),
      kms: optional(K.kmsKeyArn) ? { activeKeyArn: outputs[K.kmsKeyArn], providerRoleArn: get(K.kmsProviderRoleArn) } : undefined,
      resourceTags: optional(K.resourceTags) ? (JSON.parse(outputs[K.resourceTags]) as Record<string, string>) : undefined,
    };
    if (missing.length > 0) throw new Error(`AwsHostedInfraOutputs: ${source} lacks ${missing.sort().join(', ')}; was it written by an AwsHostedInfra stack?`);
    if (zoneNames.length !== subnetIds.length) throw new Error(`AwsHostedInfraOutputs: ${source} has ${zoneNames.length} zone names but ${subnetIds.length} subnet IDs`);
    return { values };
  }
}
