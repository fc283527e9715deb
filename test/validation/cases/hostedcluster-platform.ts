// HostedCluster CEL rules under spec.platform: Azure, KubeVirt, AWS and the platform type. Each
// platform has a base built from HOSTED_CLUSTER that the API server accepts (checked by the first
// `passes when …` case of its section); every other case changes that base by hand.
import { HOSTED_CLUSTER, ObjectCase, withChanges } from '../object-cases';

/** withChanges with every path taken relative to `prefix` (e.g. `spec.platform.azure`). */
function under(prefix: string, base: any, changes: Record<string, unknown>): any {
  return withChanges(base, Object.fromEntries(Object.entries(changes).map(([path, value]) => [`${prefix}.${path}`, value])));
}
const azure = (base: any, changes: Record<string, unknown>) => under('spec.platform.azure', base, changes);
const kubevirt = (base: any, changes: Record<string, unknown>) => under('spec.platform.kubevirt', base, changes);
const aws = (base: any, changes: Record<string, unknown>) => under('spec.platform.aws', base, changes);

const published = (service: string, type: string) => ({ service, servicePublishingStrategy: { type } });

// ---------------------------------------------------------------------------------------------
// Azure

const SUBSCRIPTION = '5f6b3c2a-1d4e-4f8a-9b0c-7e2d1a3b4c5d';
const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
const RESOURCE_GROUP = `/subscriptions/${SUBSCRIPTION}/resourceGroups/vcluster2-rg`;
const VNET_ID = `${RESOURCE_GROUP}/providers/Microsoft.Network/virtualNetworks/vcluster2-vnet`;
const SUBNET_ID = `${VNET_ID}/subnets/vcluster2-subnet`;
/** A subnet resource ID with the given resource group, virtual network and subnet names. */
const subnetID = (resourceGroup: string, vnet: string, subnet: string) =>
  `/subscriptions/${SUBSCRIPTION}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/virtualNetworks/${vnet}/subnets/${subnet}`;
const NAT_SUBNET_ID = `${VNET_ID}/subnets/vcluster2-nat`;
const PULL_IDENTITY = `${RESOURCE_GROUP}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/vcluster2-acr-pull-identity`;

const controlPlaneIdentity = (clientID: string, secret: string) => ({ clientID, credentialsSecretName: secret, objectEncoding: 'utf-8' });

/** ARO HCP: managed identities, OAuthServer/Konnectivity/Ignition on Routes. */
const AZURE = withChanges(HOSTED_CLUSTER, {
  'spec.platform': {
    type: 'Azure',
    azure: {
      cloud: 'AzurePublicCloud',
      location: 'eastus',
      resourceGroup: 'vcluster2-rg',
      vnetID: VNET_ID,
      subnetID: SUBNET_ID,
      subscriptionID: SUBSCRIPTION,
      tenantID: TENANT,
      securityGroupID: `${RESOURCE_GROUP}/providers/Microsoft.Network/networkSecurityGroups/vcluster2-nsg`,
      azureAuthenticationConfig: {
        azureAuthenticationConfigType: 'ManagedIdentities',
        managedIdentities: {
          controlPlane: {
            managedIdentitiesKeyVault: { name: 'vcluster2-kv', tenantID: TENANT },
            cloudProvider: controlPlaneIdentity('0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9', 'cloud-provider-mi'),
            controlPlaneOperator: controlPlaneIdentity('1c2d3e4f-5061-4728-93a4-b5c6d7e8f90a', 'cpo-mi'),
            disk: controlPlaneIdentity('2d3e4f50-6172-4839-a4b5-c6d7e8f90a1b', 'disk-csi-mi'),
            file: controlPlaneIdentity('3e4f5061-7283-494a-b5c6-d7e8f90a1b2c', 'file-csi-mi'),
            imageRegistry: controlPlaneIdentity('4f506172-8394-4a5b-c6d7-e8f90a1b2c3d', 'image-registry-mi'),
            ingress: controlPlaneIdentity('50617283-94a5-4b6c-d7e8-f90a1b2c3d4e', 'ingress-mi'),
            network: controlPlaneIdentity('61728394-a5b6-4c7d-e8f9-0a1b2c3d4e5f', 'cncc-mi'),
            nodePoolManagement: controlPlaneIdentity('728394a5-b6c7-4d8e-f90a-1b2c3d4e5f60', 'capz-mi'),
          },
          dataPlane: {
            diskMSIClientID: '8394a5b6-c7d8-4e9f-0a1b-2c3d4e5f6071',
            fileMSIClientID: '94a5b6c7-d8e9-4f0a-1b2c-3d4e5f607182',
            imageRegistryMSIClientID: 'a5b6c7d8-e9f0-4a1b-2c3d-4e5f60718293',
          },
        },
      },
    },
  },
  'spec.services': [published('APIServer', 'LoadBalancer'), published('OAuthServer', 'Route'), published('Konnectivity', 'Route'), published('Ignition', 'Route')],
});

/** Self-managed Azure: workload identities (with the control-plane operator's). */
const AZURE_WORKLOAD = azure(AZURE, {
  azureAuthenticationConfig: {
    azureAuthenticationConfigType: 'WorkloadIdentities',
    workloadIdentities: {
      cloudProvider: { clientID: 'b6c7d8e9-f0a1-4b2c-3d4e-5f60718293a4' },
      controlPlaneOperator: { clientID: 'c7d8e9f0-a1b2-4c3d-4e5f-60718293a4b5' },
      disk: { clientID: 'd8e9f0a1-b2c3-4d4e-5f60-718293a4b5c6' },
      file: { clientID: 'e9f0a1b2-c3d4-4e5f-6071-8293a4b5c6d7' },
      imageRegistry: { clientID: 'f0a1b2c3-d4e5-4f60-7182-93a4b5c6d7e8' },
      ingress: { clientID: 'a1b2c3d4-e5f6-4071-8293-a4b5c6d7e8f9' },
      network: { clientID: 'B2C3D4E5-F607-4182-93A4-B5C6D7E8F90A' },
      nodePoolManagement: { clientID: 'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1b' },
    },
  },
});

/** ARO HCP reached only over Private Link. */
const AZURE_PRIVATE_LINK = azure(AZURE, {
  topology: 'Private',
  private: {
    type: 'PrivateLink',
    privateLink: { natSubnetID: NAT_SUBNET_ID, additionalAllowedSubscriptions: ['d4e5f607-1829-43a4-b5c6-d7e8f90a1b2c'] },
  },
});

/** ARO HCP with a public endpoint and a private one through Swift networking. */
const AZURE_SWIFT = azure(AZURE, {
  topology: 'PublicAndPrivate',
  private: { type: 'Swift', swift: { podNetworkInstance: 'vcluster2-pni' } },
});

/** A managed identity's client ID in the ARO HCP base. */
const managedClientID = (identity: string, clientID: string) => azure(AZURE, { [`azureAuthenticationConfig.managedIdentities.controlPlane.${identity}.clientID`]: clientID });
/** A workload identity's client ID in the self-managed base. */
const workloadClientID = (identity: string, clientID: string) => azure(AZURE_WORKLOAD, { [`azureAuthenticationConfig.workloadIdentities.${identity}.clientID`]: clientID });

const MANAGED_IDENTITIES = 'spec.platform.azure.azureAuthenticationConfig.managedIdentities.controlPlane';
const WORKLOAD_IDENTITIES = 'spec.platform.azure.azureAuthenticationConfig.workloadIdentities';
const NOT_A_UUID = 'the client ID of a managed identity must be a valid UUID';

const AZURE_CASES: ObjectCase[] = [
  // The bases.
  { name: 'passes when an azure cluster uses managed identities', object: AZURE },
  { name: 'passes when an azure cluster uses workload identities', object: AZURE_WORKLOAD },
  { name: 'passes when an azure cluster is private through private link', object: AZURE_PRIVATE_LINK },
  { name: 'passes when an azure cluster is public and private through swift', object: AZURE_SWIFT },
  { name: 'passes when an azure cluster is updated without changes', object: AZURE, previous: AZURE },
  { name: 'passes when a private link azure cluster is updated without changes', object: AZURE_PRIVATE_LINK, previous: AZURE_PRIVATE_LINK },
  { name: 'passes when a swift azure cluster is updated without changes', object: AZURE_SWIFT, previous: AZURE_SWIFT },

  // Topology and private connectivity.
  {
    name: 'fails when private connectivity is added to an existing azure cluster',
    object: AZURE_PRIVATE_LINK,
    previous: AZURE,
    rejects: 'private cannot be added or removed after cluster creation',
    at: 'spec.platform.azure',
  },
  {
    name: 'fails when private connectivity is removed from an azure cluster',
    object: azure(AZURE_SWIFT, { topology: 'Public', private: undefined }),
    previous: AZURE_SWIFT,
    rejects: 'private cannot be added or removed after cluster creation',
  },
  {
    name: 'fails when the topology is removed once set',
    object: AZURE,
    previous: azure(AZURE, { topology: 'Public' }),
    rejects: 'topology cannot be removed once set',
    at: 'spec.platform.azure',
  },
  {
    name: 'passes when the public topology is kept on update',
    object: azure(AZURE, { topology: 'Public' }),
    previous: azure(AZURE, { topology: 'Public' }),
  },
  {
    name: 'fails when the topology changes from private to public',
    object: azure(AZURE, { topology: 'Public' }),
    previous: AZURE_PRIVATE_LINK,
    rejects: 'transitions between Public and non-Public topology are not supported',
    at: 'spec.platform.azure',
  },
  {
    name: 'passes when the topology changes from private to public and private',
    object: azure(AZURE_PRIVATE_LINK, { topology: 'PublicAndPrivate' }),
    previous: AZURE_PRIVATE_LINK,
  },
  {
    name: 'fails when the topology is private without private connectivity',
    object: azure(AZURE, { topology: 'Private' }),
    rejects: 'private is required when topology is Private or PublicAndPrivate, and forbidden otherwise',
    at: 'spec.platform.azure',
  },
  {
    name: 'fails when private connectivity is set on a public topology',
    object: azure(AZURE_SWIFT, { topology: 'Public' }),
    rejects: 'private is required when topology is Private or PublicAndPrivate, and forbidden otherwise',
  },
  {
    name: 'fails when private connectivity is set without a topology',
    object: azure(AZURE_SWIFT, { topology: undefined }),
    rejects: 'private is required when topology is Private or PublicAndPrivate, and forbidden otherwise',
  },
  {
    name: 'fails when private link with workload identities has no control-plane operator identity',
    object: azure(AZURE_WORKLOAD, {
      'topology': 'Private',
      'private': { type: 'PrivateLink', privateLink: { natSubnetID: NAT_SUBNET_ID } },
      'azureAuthenticationConfig.workloadIdentities.controlPlaneOperator': undefined,
    }),
    rejects: 'workloadIdentities.controlPlaneOperator is required when Private Link is configured with WorkloadIdentities authentication',
    at: 'spec.platform.azure',
  },
  {
    name: 'passes when private link with workload identities has a control-plane operator identity',
    object: azure(AZURE_WORKLOAD, { topology: 'Private', private: { type: 'PrivateLink', privateLink: { natSubnetID: NAT_SUBNET_ID } } }),
  },
  {
    name: 'passes when workload identities without private link have no control-plane operator identity',
    object: azure(AZURE_WORKLOAD, { 'azureAuthenticationConfig.workloadIdentities.controlPlaneOperator': undefined }),
  },

  // The authentication configuration.
  {
    name: 'fails when the managed identities authentication has no managed identities',
    object: azure(AZURE, { 'azureAuthenticationConfig.managedIdentities': undefined }),
    rejects: 'managedIdentities is required when azureAuthenticationConfigType is ManagedIdentities, and forbidden otherwise',
    at: 'spec.platform.azure.azureAuthenticationConfig',
  },
  {
    name: 'fails when the workload identities authentication also has managed identities',
    object: azure(AZURE_WORKLOAD, {
      'azureAuthenticationConfig.managedIdentities': AZURE.spec.platform.azure.azureAuthenticationConfig.managedIdentities,
    }),
    rejects: 'managedIdentities is required when azureAuthenticationConfigType is ManagedIdentities, and forbidden otherwise',
  },
  {
    name: 'fails when the workload identities authentication has no workload identities',
    object: azure(AZURE_WORKLOAD, { 'azureAuthenticationConfig.workloadIdentities': undefined }),
    rejects: 'workloadIdentities is required when azureAuthenticationConfigType is WorkloadIdentities, and forbidden otherwise',
    at: 'spec.platform.azure.azureAuthenticationConfig',
  },
  {
    name: 'fails when the managed identities authentication also has workload identities',
    object: azure(AZURE, {
      'azureAuthenticationConfig.workloadIdentities': AZURE_WORKLOAD.spec.platform.azure.azureAuthenticationConfig.workloadIdentities,
    }),
    rejects: 'workloadIdentities is required when azureAuthenticationConfigType is WorkloadIdentities, and forbidden otherwise',
  },

  // Managed identity client IDs (ARO HCP).
  {
    name: 'fails when the cloud provider managed identity client ID is not hexadecimal',
    object: managedClientID('cloudProvider', 'zb1c2d3e-4f50-4617-8293-a4b5c6d7e8f9'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.cloudProvider.clientID`,
  },
  {
    name: 'fails when the control-plane operator managed identity client ID has its hyphens misplaced',
    object: managedClientID('controlPlaneOperator', '1c2d3e4f5-061-4728-93a4-b5c6d7e8f90a'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.controlPlaneOperator.clientID`,
  },
  {
    name: 'fails when the disk managed identity client ID is wrapped in braces',
    object: managedClientID('disk', '{2d3e4f50-6172-4839-a4b5-c6d7e8f90a}'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.disk.clientID`,
  },
  {
    name: 'fails when the file managed identity client ID uses underscores instead of hyphens',
    object: managedClientID('file', '3e4f5061_7283_494a_b5c6_d7e8f90a1b2c'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.file.clientID`,
  },
  {
    name: 'fails when the image registry managed identity client ID is a name',
    object: managedClientID('imageRegistry', 'vcluster2-image-registry-identity-01'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.imageRegistry.clientID`,
  },
  {
    name: 'fails when the ingress managed identity client ID has no hyphens',
    object: managedClientID('ingress', '5061728394a54b6cd7e8f90a1b2c3d4e5f60'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.ingress.clientID`,
  },
  {
    name: 'fails when the network managed identity client ID has a space',
    object: managedClientID('network', '61728394-a5b6-4c7d-e8f9-0a1b2c3d4e5 '),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.network.clientID`,
  },
  {
    name: 'fails when the node pool management managed identity client ID has a non-hex letter',
    object: managedClientID('nodePoolManagement', '728394a5-b6c7-4d8e-f90a-1b2c3d4e5g60'),
    rejects: NOT_A_UUID,
    at: `${MANAGED_IDENTITIES}.nodePoolManagement.clientID`,
  },

  // Workload identity client IDs (self-managed).
  {
    name: 'fails when the cloud provider workload identity client ID is not hexadecimal',
    object: workloadClientID('cloudProvider', 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.cloudProvider.clientID`,
  },
  {
    name: 'fails when the control-plane operator workload identity client ID has its hyphens misplaced',
    object: workloadClientID('controlPlaneOperator', 'c7d8e9f0a-1b2-4c3d-4e5f-60718293a4b5'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.controlPlaneOperator.clientID`,
  },
  {
    name: 'fails when the disk workload identity client ID is wrapped in braces',
    object: workloadClientID('disk', '{d8e9f0a1-b2c3-4d4e-5f60-718293a4b5}'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.disk.clientID`,
  },
  {
    name: 'fails when the file workload identity client ID uses colons instead of hyphens',
    object: workloadClientID('file', 'e9f0a1b2:c3d4:4e5f:6071:8293a4b5c6d7'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.file.clientID`,
  },
  {
    name: 'fails when the image registry workload identity client ID is a name',
    object: workloadClientID('imageRegistry', 'vcluster2-image-registry-workload-id'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.imageRegistry.clientID`,
  },
  {
    name: 'fails when the ingress workload identity client ID has no hyphens',
    object: workloadClientID('ingress', 'a1b2c3d4e5f64071829300a4b5c6d7e8f9aa'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.ingress.clientID`,
  },
  {
    name: 'fails when the network workload identity client ID has a leading space',
    object: workloadClientID('network', ' 2C3D4E5-F607-4182-93A4-B5C6D7E8F90A'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.network.clientID`,
  },
  {
    name: 'fails when the node pool management workload identity client ID has a non-hex letter',
    object: workloadClientID('nodePoolManagement', 'c3d4e5f6-0718-4293-a4b5-c6d7e8f90a1z'),
    rejects: NOT_A_UUID,
    at: `${WORKLOAD_IDENTITIES}.nodePoolManagement.clientID`,
  },

  // The container registry credentials.
  {
    name: 'passes when the container registry is pulled with a user-assigned managed identity',
    object: azure(AZURE, { containerRegistry: { credentials: { type: 'ManagedIdentity', managedIdentity: { resourceID: PULL_IDENTITY } } } }),
  },
  {
    name: 'passes when the container registry identity resource ID is in lower case',
    object: azure(AZURE, { containerRegistry: { credentials: { type: 'ManagedIdentity', managedIdentity: { resourceID: PULL_IDENTITY.toLowerCase() } } } }),
  },
  {
    name: 'fails when the container registry managed identity credentials have no identity',
    object: azure(AZURE, { containerRegistry: { credentials: { type: 'ManagedIdentity' } } }),
    rejects: 'managedIdentity is required when type is ManagedIdentity, and forbidden otherwise',
    at: 'spec.platform.azure.containerRegistry.credentials',
  },
  {
    name: 'fails when the container registry identity resource ID names a system-assigned identity',
    object: azure(AZURE, {
      containerRegistry: {
        credentials: {
          type: 'ManagedIdentity',
          managedIdentity: { resourceID: `${RESOURCE_GROUP}/providers/Microsoft.Compute/virtualMachines/vcluster2-vm/providers/Microsoft.ManagedIdentity/identities/default` },
        },
      },
    }),
    rejects: 'must be a user-assigned managed identity ARM resource ID',
    at: 'spec.platform.azure.containerRegistry.credentials.managedIdentity.resourceID',
  },

  // Immutable Azure fields.
  {
    name: 'fails when the azure location changes',
    object: azure(AZURE, { location: 'westeurope' }),
    previous: AZURE,
    rejects: 'Location is immutable',
    at: 'spec.platform.azure.location',
  },
  {
    name: 'fails when the azure resource group changes',
    object: azure(AZURE, { resourceGroup: 'vcluster2-rg-2' }),
    previous: AZURE,
    rejects: 'ResourceGroupName is immutable',
    at: 'spec.platform.azure.resourceGroup',
  },
  {
    name: 'fails when the azure resource group is dropped and defaults to another one',
    object: azure(AZURE, { resourceGroup: undefined }),
    previous: AZURE,
    rejects: 'ResourceGroupName is immutable',
    at: 'spec.platform.azure.resourceGroup',
  },
  {
    name: 'fails when the azure security group changes',
    object: azure(AZURE, { securityGroupID: `${RESOURCE_GROUP}/providers/Microsoft.Network/networkSecurityGroups/other-nsg` }),
    previous: AZURE,
    rejects: 'SecurityGroupID is immutable',
    at: 'spec.platform.azure.securityGroupID',
  },
  {
    name: 'fails when the azure subscription changes',
    object: azure(AZURE, { subscriptionID: 'e5f60718-293a-44b5-c6d7-e8f90a1b2c3d' }),
    previous: AZURE,
    rejects: 'SubscriptionID is immutable',
    at: 'spec.platform.azure.subscriptionID',
  },
  {
    name: 'fails when the azure virtual network changes',
    object: azure(AZURE, { vnetID: `${RESOURCE_GROUP}/providers/Microsoft.Network/virtualNetworks/other-vnet` }),
    previous: AZURE,
    rejects: 'VnetID is immutable',
    at: 'spec.platform.azure.vnetID',
  },
  {
    name: 'fails when the azure subnet changes',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'vcluster2-vnet', 'other-subnet') }),
    previous: AZURE,
    rejects: 'SubnetID is immutable',
    at: 'spec.platform.azure.subnetID',
  },

  // The subnet ID's shape.
  {
    name: 'passes when the subnet ID names use periods, underscores and parentheses inside',
    object: azure(AZURE, { subnetID: subnetID('vcluster2_(rg).prod', 'vcluster2.vnet_1', 'subnet_1.a') }),
  },
  {
    name: 'fails when the subnet ID names a network security group instead of a subnet',
    object: azure(AZURE, { subnetID: `${RESOURCE_GROUP}/providers/Microsoft.Network/networkSecurityGroups/vcluster2-nsg/rules/vcluster2-subnet` }),
    rejects: 'encryptionSetID must be in the format `/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{vnetName}/subnets/{subnetName}`',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID has a trailing segment',
    object: azure(AZURE, { subnetID: `${SUBNET_ID}/ipConfigurations` }),
    rejects: 'encryptionSetID must be in the format',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID resource group name has only invalid characters',
    object: azure(AZURE, { subnetID: subnetID('$$$', 'vcluster2-vnet', 'vcluster2-subnet') }),
    rejects: 'The resourceGroupName should be between 1 and 90 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID resource group name ends with a period',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg.', 'vcluster2-vnet', 'vcluster2-subnet') }),
    rejects: 'the resourceGroupName in the subnetID must not end with a period (.) character',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID virtual network name has one character',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'v', 'vcluster2-subnet') }),
    rejects: 'The vnetName should be between 2 and 64 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID virtual network name ends with a hyphen',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'vcluster2-vnet-', 'vcluster2-subnet') }),
    rejects: 'the vnetName in the subnetID must not end with either a period (.) or hyphen (-) character',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID virtual network name ends with a period',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'vcluster2-vnet.', 'vcluster2-subnet') }),
    rejects: 'the vnetName in the subnetID must not end with either a period (.) or hyphen (-) character',
  },
  {
    name: 'fails when the subnet ID subnet name has no letter or digit',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'vcluster2-vnet', '__') }),
    rejects: 'The subnetName should be between 1 and 80 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet ID subnet name ends with a period',
    object: azure(AZURE, { subnetID: subnetID('vcluster2-rg', 'vcluster2-vnet', 'vcluster2-subnet.') }),
    rejects: 'the subnetName in the subnetID must not end with a period (.) or hyphen (-) character',
    at: 'spec.platform.azure.subnetID',
  },

  // Private connectivity details.
  {
    name: 'fails when the private connectivity type changes from private link to swift',
    object: azure(AZURE_PRIVATE_LINK, { private: { type: 'Swift', swift: { podNetworkInstance: 'vcluster2-pni' } } }),
    previous: AZURE_PRIVATE_LINK,
    rejects: 'type is immutable',
    at: 'spec.platform.azure.private',
  },
  {
    name: 'fails when private link has no private link settings',
    object: azure(AZURE_PRIVATE_LINK, { 'private.privateLink': undefined }),
    rejects: 'privateLink is required when type is PrivateLink, and forbidden otherwise',
    at: 'spec.platform.azure.private',
  },
  {
    name: 'fails when swift also has private link settings',
    object: azure(AZURE_SWIFT, { 'private.privateLink': { natSubnetID: NAT_SUBNET_ID } }),
    rejects: 'privateLink is required when type is PrivateLink, and forbidden otherwise',
  },
  {
    name: 'fails when swift has no swift settings',
    object: azure(AZURE_SWIFT, { 'private.swift': undefined }),
    rejects: 'swift is required when type is Swift, and forbidden otherwise',
    at: 'spec.platform.azure.private',
  },
  {
    name: 'fails when private link also has swift settings',
    object: azure(AZURE_PRIVATE_LINK, { 'private.swift': { podNetworkInstance: 'vcluster2-pni' } }),
    rejects: 'swift is required when type is Swift, and forbidden otherwise',
  },
  {
    name: 'fails when a private link allowed subscription is not a uuid',
    object: azure(AZURE_PRIVATE_LINK, { 'private.privateLink.additionalAllowedSubscriptions': ['d4e5f607-1829-43a4-b5c6-d7e8f90a1b2c', 'subscription-of-the-other-team-00001'] }),
    rejects: 'must be a valid UUID (e.g., 550e8400-e29b-41d4-a716-446655440000)',
    at: 'spec.platform.azure.private.privateLink.additionalAllowedSubscriptions[1]',
  },
  {
    name: 'fails when the private link nat subnet changes',
    object: azure(AZURE_PRIVATE_LINK, { 'private.privateLink.natSubnetID': `${VNET_ID}/subnets/other-nat` }),
    previous: AZURE_PRIVATE_LINK,
    rejects: 'natSubnetID is immutable once set',
    at: 'spec.platform.azure.private.privateLink.natSubnetID',
  },
  {
    name: 'fails when the private link nat subnet ID has a lower-case provider namespace',
    object: azure(AZURE_PRIVATE_LINK, { 'private.privateLink.natSubnetID': NAT_SUBNET_ID.replace('Microsoft.Network', 'microsoft.network') }),
    rejects: 'must be a valid Azure subnet resource ID',
    at: 'spec.platform.azure.private.privateLink.natSubnetID',
  },
  {
    name: 'fails when the swift pod network instance changes',
    object: azure(AZURE_SWIFT, { 'private.swift.podNetworkInstance': 'vcluster2-pni-2' }),
    previous: AZURE_SWIFT,
    rejects: 'podNetworkInstance is immutable',
    at: 'spec.platform.azure.private.swift',
  },
  {
    name: 'fails when the swift pod network instance has upper-case letters',
    object: azure(AZURE_SWIFT, { 'private.swift.podNetworkInstance': 'vcluster2-PNI' }),
    rejects: 'podNetworkInstance must be a valid DNS label',
    at: 'spec.platform.azure.private.swift.podNetworkInstance',
  },
  {
    name: 'fails when the swift pod network instance ends with a hyphen',
    object: azure(AZURE_SWIFT, { 'private.swift.podNetworkInstance': 'vcluster2-pni-' }),
    rejects: 'podNetworkInstance must be a valid DNS label',
    at: 'spec.platform.azure.private.swift.podNetworkInstance',
  },
];

// ---------------------------------------------------------------------------------------------
// KubeVirt

/** KubeVirt as `hcp create cluster kubevirt` renders it: APIServer on a LoadBalancer, the rest on Routes. */
const KUBEVIRT = withChanges(HOSTED_CLUSTER, {
  'spec.platform': { type: 'KubeVirt', kubevirt: { baseDomainPassthrough: true, generateID: 'x7k2p9q4m1z' } },
  'spec.services': [published('APIServer', 'LoadBalancer'), published('OAuthServer', 'Route'), published('Konnectivity', 'Route'), published('Ignition', 'Route')],
});

/** KubeVirt on an external infrastructure cluster, with a manual storage mapping. */
const KUBEVIRT_EXTERNAL = kubevirt(KUBEVIRT, {
  credentials: { infraKubeConfigSecret: { name: 'vcluster2-infra-credentials', key: 'kubeconfig' }, infraNamespace: 'vcluster2-infra' },
  storageDriver: {
    type: 'Manual',
    manual: {
      storageClassMapping: [{ infraStorageClassName: 'ocs-storagecluster-ceph-rbd', guestStorageClassName: 'ceph-rbd', group: 'ceph' }],
      volumeSnapshotClassMapping: [{ infraVolumeSnapshotClassName: 'ocs-rbd-snapclass', guestVolumeSnapshotClassName: 'rbd-snapclass', group: 'ceph' }],
    },
  },
});

const KUBEVIRT_CASES: ObjectCase[] = [
  { name: 'passes when a kubevirt cluster runs on the management cluster', object: KUBEVIRT },
  { name: 'passes when a kubevirt cluster runs on an external infrastructure cluster', object: KUBEVIRT_EXTERNAL },
  { name: 'passes when a kubevirt cluster is updated without changes', object: KUBEVIRT, previous: KUBEVIRT },
  { name: 'passes when an external kubevirt cluster is updated without changes', object: KUBEVIRT_EXTERNAL, previous: KUBEVIRT_EXTERNAL },
  {
    name: 'passes when the kubevirt generated ID is set on a cluster that had none',
    object: KUBEVIRT,
    previous: kubevirt(KUBEVIRT, { generateID: undefined }),
  },
  {
    name: 'fails when the kubevirt generated ID is removed',
    object: kubevirt(KUBEVIRT, { generateID: undefined }),
    previous: KUBEVIRT,
    rejects: 'Kubevirt GenerateID is required once set',
    at: 'spec.platform.kubevirt',
  },
  {
    name: 'fails when the kubevirt generated ID changes',
    object: kubevirt(KUBEVIRT, { generateID: 'a1b2c3d4e5f' }),
    previous: KUBEVIRT,
    rejects: 'Kubevirt GenerateID is immutable once set',
    at: 'spec.platform.kubevirt.generateID',
  },
  {
    name: 'fails when base domain passthrough is turned off',
    object: kubevirt(KUBEVIRT, { baseDomainPassthrough: false }),
    previous: KUBEVIRT,
    rejects: 'baseDomainPassthrough is immutable',
    at: 'spec.platform.kubevirt.baseDomainPassthrough',
  },
  {
    name: 'fails when the infrastructure kubeconfig secret changes',
    object: kubevirt(KUBEVIRT_EXTERNAL, { 'credentials.infraKubeConfigSecret.name': 'vcluster2-infra-credentials-2' }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'infraKubeConfigSecret is immutable',
    at: 'spec.platform.kubevirt.credentials.infraKubeConfigSecret',
  },
  {
    name: 'fails when the infrastructure namespace changes',
    object: kubevirt(KUBEVIRT_EXTERNAL, { 'credentials.infraNamespace': 'other-infra' }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'infraNamespace is immutable',
    at: 'spec.platform.kubevirt.credentials.infraNamespace',
  },
  {
    name: 'fails when the storage driver changes from manual to none',
    object: kubevirt(KUBEVIRT_EXTERNAL, { storageDriver: { type: 'None' } }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'storageDriver is immutable',
    at: 'spec.platform.kubevirt.storageDriver',
  },
  {
    name: 'fails when the storage driver type changes from default to none',
    object: kubevirt(KUBEVIRT, { storageDriver: { type: 'None' } }),
    previous: kubevirt(KUBEVIRT, { storageDriver: { type: 'Default' } }),
    rejects: 'storageDriver.Type is immutable',
    at: 'spec.platform.kubevirt.storageDriver.type',
  },
  {
    name: 'fails when the manual storage driver settings change',
    object: kubevirt(KUBEVIRT_EXTERNAL, { 'storageDriver.manual.volumeSnapshotClassMapping': undefined }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'storageDriver.Manual is immutable',
    at: 'spec.platform.kubevirt.storageDriver.manual',
  },
  {
    name: 'fails when a storage class mapping changes',
    object: kubevirt(KUBEVIRT_EXTERNAL, { 'storageDriver.manual.storageClassMapping[0].guestStorageClassName': 'ceph-rbd-virt' }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'storageClassMapping is immutable',
    at: 'spec.platform.kubevirt.storageDriver.manual.storageClassMapping',
  },
  {
    name: 'fails when a volume snapshot class mapping is added',
    object: kubevirt(KUBEVIRT_EXTERNAL, {
      'storageDriver.manual.volumeSnapshotClassMapping[1]': { infraVolumeSnapshotClassName: 'ocs-cephfs-snapclass', guestVolumeSnapshotClassName: 'cephfs-snapclass' },
    }),
    previous: KUBEVIRT_EXTERNAL,
    rejects: 'volumeSnapshotClassMapping is immutable',
    at: 'spec.platform.kubevirt.storageDriver.manual.volumeSnapshotClassMapping',
  },
];

// ---------------------------------------------------------------------------------------------
// AWS

const ACCOUNT = '123456789012';
const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/vcluster2-${name}`;

/** AWS as `hcp create cluster aws` renders it, with resource tags. */
const AWS = withChanges(HOSTED_CLUSTER, {
  'spec.platform': {
    type: 'AWS',
    aws: {
      region: 'us-east-1',
      endpointAccess: 'Public',
      cloudProviderConfig: { vpc: 'vpc-0a1b2c3d4e5f60718', subnet: { id: 'subnet-0123456789abcdef0' }, zone: 'us-east-1a' },
      rolesRef: {
        ingressARN: role('openshift-ingress'),
        imageRegistryARN: role('openshift-image-registry'),
        storageARN: role('aws-ebs-csi-driver-controller'),
        networkARN: role('cloud-network-config-controller'),
        kubeCloudControllerARN: role('cloud-controller'),
        nodePoolManagementARN: role('node-pool'),
        controlPlaneOperatorARN: role('control-plane-operator'),
      },
      resourceTags: [
        { key: 'owner', value: 'team-platform@example.com' },
        { key: 'cost-center:id', value: 'cc/1234+ops=prod_a.b' },
      ],
    },
  },
  'spec.services': [published('APIServer', 'LoadBalancer'), published('OAuthServer', 'Route'), published('Konnectivity', 'Route'), published('Ignition', 'Route')],
});

const AWS_CASES: ObjectCase[] = [
  { name: 'passes when an aws cluster has resource tags', object: AWS },
  {
    name: 'fails when an aws resource tag key has a space',
    object: aws(AWS, { 'resourceTags[1].key': 'cost center' }),
    rejects: 'key must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[1].key',
  },
  {
    name: 'fails when an aws resource tag key has a hash sign',
    object: aws(AWS, { 'resourceTags[0].key': 'owner#1' }),
    rejects: 'key must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[0].key',
  },
  {
    name: 'fails when an aws resource tag value has a comma',
    object: aws(AWS, { 'resourceTags[0].value': 'team-a,team-b' }),
    rejects: 'value must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[0].value',
  },
  {
    name: 'fails when an aws resource tag value has an accented letter',
    object: aws(AWS, { 'resourceTags[1].value': 'équipe' }),
    rejects: 'value must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[1].value',
  },
];

// ---------------------------------------------------------------------------------------------
// The platform type

const TYPE_CASES: ObjectCase[] = [
  {
    name: 'fails when a kubevirt cluster is changed to agent',
    object: withChanges(KUBEVIRT, { 'spec.platform': { type: 'Agent', agent: { agentNamespace: 'hardware-inventory' } } }),
    previous: KUBEVIRT,
    rejects: 'Type is immutable',
    at: 'spec.platform.type',
  },
  {
    name: 'passes when an aws cluster is updated without changes',
    object: AWS,
    previous: AWS,
  },
];

export const CASES: ObjectCase[] = [...AZURE_CASES, ...KUBEVIRT_CASES, ...AWS_CASES, ...TYPE_CASES];
