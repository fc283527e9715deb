// HostedCluster cases for the CEL rules outside .spec.platform, .spec.configuration and
// .spec.operatorConfiguration: the rules on .spec itself, services, etcd, networking, dns, the
// identity fields, capabilities, autoNode, autoscaling, secret encryption, and .status.
import { HOSTED_CLUSTER, ObjectCase, withChanges } from '../object-cases';

/** The base HostedCluster with `changes` applied. */
const hc = (changes: Record<string, unknown>) => withChanges(HOSTED_CLUSTER, changes);

const CLUSTER_ID = '2b7c4f0e-8d1a-4c3b-9e5f-6a7b8c9d0e1f';
const OTHER_CLUSTER_ID = '9f8e7d6c-5b4a-4321-8fed-cba987654321';
const CLIENT_ID = '11111111-2222-4333-8444-555555555555';

const route = (service: string) => ({ service, servicePublishingStrategy: { type: 'Route' } });
const loadBalancer = (service: string) => ({ service, servicePublishingStrategy: { type: 'LoadBalancer' } });
const nodePort = (service: string) => ({ service, servicePublishingStrategy: { type: 'NodePort', nodePort: { address: 'api.vcluster2.example.com' } } });

const managedIdentity = (secret: string) => ({ credentialsSecretName: secret, objectEncoding: 'utf-8' });

/** An Azure platform block (ARO HCP style, managed identities). */
const AZURE_MANAGED = {
  type: 'Azure',
  azure: {
    location: 'eastus',
    resourceGroup: 'vcluster2-rg',
    securityGroupID: '/subscriptions/sub/resourceGroups/vcluster2-rg/providers/Microsoft.Network/networkSecurityGroups/vcluster2-nsg',
    subnetID: '/subscriptions/sub/resourceGroups/vcluster2-rg/providers/Microsoft.Network/virtualNetworks/vcluster2-vnet/subnets/default',
    subscriptionID: 'sub',
    tenantID: 'tenant',
    vnetID: '/subscriptions/sub/resourceGroups/vcluster2-rg/providers/Microsoft.Network/virtualNetworks/vcluster2-vnet',
    azureAuthenticationConfig: {
      azureAuthenticationConfigType: 'ManagedIdentities',
      managedIdentities: {
        controlPlane: {
          cloudProvider: managedIdentity('cloud-provider'),
          controlPlaneOperator: managedIdentity('control-plane-operator'),
          disk: managedIdentity('disk'),
          file: managedIdentity('file'),
          imageRegistry: managedIdentity('image-registry'),
          ingress: managedIdentity('ingress'),
          network: managedIdentity('network'),
          nodePoolManagement: managedIdentity('node-pool-management'),
          managedIdentitiesKeyVault: { name: 'vcluster2-kv', tenantID: 'tenant' },
        },
        dataPlane: { diskMSIClientID: CLIENT_ID, fileMSIClientID: CLIENT_ID, imageRegistryMSIClientID: CLIENT_ID },
      },
    },
  },
};

/** The same Azure platform, self-managed (workload identities). */
const AZURE_SELF_MANAGED = withChanges(AZURE_MANAGED, {
  'azure.azureAuthenticationConfig': {
    azureAuthenticationConfigType: 'WorkloadIdentities',
    workloadIdentities: Object.fromEntries(
      ['cloudProvider', 'controlPlaneOperator', 'disk', 'file', 'imageRegistry', 'ingress', 'network', 'nodePoolManagement'].map((identity) => [identity, { clientID: CLIENT_ID }]),
    ),
  },
});

/** An Azure HostedCluster with the given platform and services. */
const azure = (platform: any, services: any[]) => hc({ 'spec.platform': platform, 'spec.services': services });
const AZURE_SERVICES = [loadBalancer('APIServer'), route('OAuthServer'), route('Konnectivity'), route('Ignition')];

/** An Agent HostedCluster whose APIServer is published through a load balancer with this hostname. */
const apiServerLoadBalancer = (hostname: string, certificateNames: string[]) =>
  hc({
    'spec.services[0].servicePublishingStrategy': { type: 'LoadBalancer', loadBalancer: { hostname } },
    'spec.configuration.apiServer.servingCerts.namedCertificates': [{ names: certificateNames, servingCertificate: { name: 'api-serving-cert' } }],
  });

const AESCBC = { type: 'aescbc', aescbc: { activeKey: { name: 'etcd-encryption-key' } } };
const AWS_KMS = {
  type: 'kms',
  kms: {
    provider: 'AWS',
    aws: {
      region: 'us-east-1',
      activeKey: { arn: 'arn:aws:kms:us-east-1:123456789012:key/active' },
      backupKey: { arn: 'arn:aws:kms:us-east-1:123456789012:key/backup' },
      auth: { awsKms: 'arn:aws:iam::123456789012:role/kms' },
    },
  },
};
const azureKey = (keyVaultName: string, keyName: string) => ({ keyVaultName, keyName, keyVersion: '1' });
const AZURE_KMS = {
  type: 'kms',
  kms: {
    provider: 'Azure',
    azure: {
      activeKey: azureKey('vcluster2-kv', 'active'),
      kms: { credentialsSecretName: 'kms-credentials', objectEncoding: 'utf-8' },
    },
  },
};
const IBM_KMS = {
  type: 'kms',
  kms: {
    provider: 'IBMCloud',
    ibmcloud: {
      region: 'us-south',
      auth: { type: 'Managed', managed: {} },
      keyList: [{ correlationID: 'c1', crkID: 'k1', instanceID: 'i1', keyVersion: 1, url: 'https://us-south.kms.cloud.ibm.com' }],
    },
  },
};
const azureKms = (changes: Record<string, unknown>) => hc({ 'spec.secretEncryption': withChanges(AZURE_KMS, changes) });

const KARPENTER = { name: 'Karpenter', karpenter: { platform: 'AWS', aws: { roleARN: 'arn:aws:iam::123456789012:role/karpenter' } } };

const ETCD_STORAGE = 'spec.etcd.managed.storage';
const SNAPSHOT = 'https://backups.example.com/etcd/snapshot.db';
const UNMANAGED_ETCD = { managementType: 'Unmanaged', unmanaged: { endpoint: 'https://etcd.example.com:2379', tls: { clientSecret: { name: 'etcd-client-tls' } } } };

/** Twenty-one distinct node labels, one more than nodeSelector allows. */
const TOO_MANY_NODE_LABELS = Object.fromEntries([...'abcdefghijklmnopqrstu'].map((letter) => [`example.com/${letter}`, 'true']));

/** A status whose secret-encryption keys are these. */
const encryptionStatus = (key: 'activeKey' | 'targetKey', value: unknown) => hc({ [`status.secretEncryption.${key}`]: value });
const KEY_STATUSES = {
  aws: { provider: 'AWS', aws: { arn: 'arn:aws:kms:us-east-1:123456789012:key/active' } },
  azure: { provider: 'Azure', azure: azureKey('vcluster2-kv', 'active') },
  ibmCloud: { provider: 'IBMCloud', ibmCloud: { correlationID: 'c1', crkID: 'k1', instanceID: 'i1', keyVersion: 1, url: 'https://us-south.kms.cloud.ibm.com' } },
  aescbc: { provider: 'AESCBC', aescbc: { dataHash: 'f00d', secret: { name: 'etcd-encryption-key' } } },
};

const controlPlaneHistory = (version: string) =>
  hc({
    'status.controlPlaneVersion': {
      desired: { image: HOSTED_CLUSTER.spec.release.image, version: '4.17.0' },
      history: [{ image: HOSTED_CLUSTER.spec.release.image, version, state: 'Completed', startedTime: '2025-01-01T00:00:00Z', completionTime: '2025-01-01T00:30:00Z' }],
    },
  });

export const CASES: ObjectCase[] = [
  // The example cases this file started from.
  {
    name: 'fails when the infraID has upper-case letters',
    object: hc({ 'spec.infraID': 'Vcluster2' }),
    rejects: 'infraID must consist of lowercase alphanumeric characters',
    at: 'spec.infraID',
  },
  {
    name: 'fails when the platform type changes after creation',
    object: hc({ 'spec.platform.type': 'None', 'spec.platform.agent': undefined }),
    previous: HOSTED_CLUSTER,
    rejects: 'Type is immutable',
  },
  {
    name: 'passes when the platform type stays the same on update',
    object: HOSTED_CLUSTER,
    previous: HOSTED_CLUSTER,
  },

  // infraID and clusterID
  {
    name: 'fails when the infraID is removed after it was set',
    object: hc({ 'spec.infraID': undefined }),
    previous: HOSTED_CLUSTER,
    rejects: 'infraID cannot be removed once set',
  },
  {
    name: 'fails when the infraID changes after creation',
    object: hc({ 'spec.infraID': 'vcluster3' }),
    previous: HOSTED_CLUSTER,
    rejects: 'infraID is immutable',
    at: 'spec.infraID',
  },
  {
    name: 'passes when the infraID is set on an update where it was unset',
    object: HOSTED_CLUSTER,
    previous: hc({ 'spec.infraID': undefined }),
  },
  {
    name: 'fails when the clusterID is not a UUID',
    object: hc({ 'spec.clusterID': 'vcluster2-vcluster2-vcluster2-abcdef' }),
    rejects: 'clusterID must be an RFC4122 UUID value',
    at: 'spec.clusterID',
  },
  {
    name: 'passes when the clusterID is a UUID and stays the same on update',
    object: hc({ 'spec.clusterID': CLUSTER_ID }),
    previous: hc({ 'spec.clusterID': CLUSTER_ID }),
  },
  {
    name: 'fails when the clusterID changes after creation',
    object: hc({ 'spec.clusterID': OTHER_CLUSTER_ID }),
    previous: hc({ 'spec.clusterID': CLUSTER_ID }),
    rejects: 'clusterID is immutable',
    at: 'spec.clusterID',
  },
  {
    name: 'fails when the clusterID is removed after it was set',
    object: HOSTED_CLUSTER,
    previous: hc({ 'spec.clusterID': CLUSTER_ID }),
    rejects: 'clusterID cannot be removed once set',
  },

  // services
  {
    name: 'fails when only three services are published on a non-IBM Cloud platform',
    object: hc({ 'spec.services': HOSTED_CLUSTER.spec.services.slice(0, 3) }),
    rejects: 'spec.services in body should have at least 4 items',
    at: 'spec',
  },
  {
    name: 'passes when four services are published',
    object: hc({ 'spec.services': HOSTED_CLUSTER.spec.services.slice(0, 4) }),
  },
  {
    name: 'fails when a service publishing strategy changes after creation',
    object: hc({ 'spec.services[1]': route('Ignition') }),
    previous: HOSTED_CLUSTER,
    rejects: 'Services is immutable',
  },
  {
    name: 'fails when a NodePort service has no nodePort settings',
    object: hc({ 'spec.services[0].servicePublishingStrategy': { type: 'NodePort' } }),
    rejects: 'nodePort is required when type is NodePort, and forbidden otherwise',
    at: 'spec.services[0].servicePublishingStrategy',
  },
  {
    name: 'fails when a Route service has nodePort settings',
    object: hc({ 'spec.services[1].servicePublishingStrategy.type': 'Route' }),
    rejects: 'only route is allowed when type is Route',
    at: 'spec.services[1].servicePublishingStrategy',
  },
  {
    name: 'fails when a NodePort service also has route settings',
    object: hc({ 'spec.services[1].servicePublishingStrategy.route': { hostname: 'ignition.example.com' } }),
    rejects: 'only route is allowed when type is Route, and forbidden otherwise',
  },
  {
    name: 'passes when services are published as routes with and without a hostname',
    object: hc({
      'spec.services[1]': route('Ignition'),
      'spec.services[3]': { service: 'OAuthServer', servicePublishingStrategy: { type: 'Route', route: { hostname: 'oauth.vcluster2.example.com' } } },
    }),
  },
  {
    name: 'fails when a LoadBalancer service has route settings',
    object: hc({ 'spec.services[0].servicePublishingStrategy': { type: 'LoadBalancer', route: { hostname: 'api.example.com' } } }),
    rejects: 'only loadBalancer is required when type is LoadBalancer',
  },
  {
    name: 'fails when a NodePort service also has loadBalancer settings',
    object: hc({ 'spec.services[0].servicePublishingStrategy.loadBalancer': { hostname: 'api.example.com' } }),
    rejects: 'only loadBalancer is required when type is LoadBalancer, and forbidden otherwise',
    at: 'spec.services[0].servicePublishingStrategy',
  },
  {
    name: 'passes when the APIServer is published through a load balancer with a hostname',
    object: hc({ 'spec.services[0].servicePublishingStrategy': { type: 'LoadBalancer', loadBalancer: { hostname: 'api.vcluster2.example.com' } } }),
  },
  {
    name: 'fails when a service published as None has nodePort settings',
    object: hc({ 'spec.services[4].servicePublishingStrategy.type': 'None' }),
    rejects: 'None does not allowed any configuration',
    at: 'spec.services[4].servicePublishingStrategy',
  },
  {
    name: 'passes when the OIDC service is published as None',
    object: hc({ 'spec.services[4].servicePublishingStrategy': { type: 'None' } }),
  },
  {
    name: 'fails when a service published as S3 has route settings',
    object: hc({ 'spec.services[4].servicePublishingStrategy': { type: 'S3', route: { hostname: 'oidc.example.com' } } }),
    rejects: 'S3 does not allowed any configuration',
    at: 'spec.services[4].servicePublishingStrategy',
  },
  {
    name: 'passes when the OIDC service is published as S3',
    object: hc({ 'spec.services[4].servicePublishingStrategy': { type: 'S3' } }),
  },
  {
    name: 'fails when a load balancer hostname is not a domain name',
    object: hc({ 'spec.services[0].servicePublishingStrategy': { type: 'LoadBalancer', loadBalancer: { hostname: 'api_server' } } }),
    rejects: 'hostname must be a valid domain name',
    at: 'spec.services[0].servicePublishingStrategy.loadBalancer.hostname',
  },
  {
    name: 'fails when a route hostname is not a domain name',
    object: hc({ 'spec.services[3].servicePublishingStrategy': { type: 'Route', route: { hostname: 'oauth.example.c0m' } } }),
    rejects: 'hostname must be a valid domain name',
    at: 'spec.services[3].servicePublishingStrategy.route.hostname',
  },
  {
    name: 'fails when a nodePort address is neither a hostname nor an IP address',
    object: hc({ 'spec.services[0].servicePublishingStrategy.nodePort.address': 'https://api.example.com' }),
    rejects: 'address must be a valid hostname, IPv4, or IPv6 address',
    at: 'spec.services[0].servicePublishingStrategy.nodePort.address',
  },
  {
    name: 'passes when nodePort addresses are an IPv4 address, an IPv6 address and localhost',
    object: hc({
      'spec.services[0].servicePublishingStrategy.nodePort': { address: '192.168.122.10', port: 30443 },
      'spec.services[1].servicePublishingStrategy.nodePort.address': 'fd00:1:2::10',
      'spec.services[2].servicePublishingStrategy.nodePort.address': 'localhost',
    }),
  },

  // services on Azure
  {
    name: 'passes when an Azure managed cluster publishes OAuthServer, Konnectivity and Ignition as routes',
    object: azure(AZURE_MANAGED, AZURE_SERVICES),
  },
  {
    name: 'fails when an Azure managed cluster publishes OAuthServer through a load balancer',
    object: azure(AZURE_MANAGED, [loadBalancer('APIServer'), loadBalancer('OAuthServer'), route('Konnectivity'), route('Ignition')]),
    rejects: 'Azure managed platform (ARO HCP) requires OAuthServer to use Route',
    at: 'spec',
  },
  {
    name: 'passes when a self-managed Azure cluster publishes OAuthServer through a load balancer',
    object: azure(AZURE_SELF_MANAGED, [loadBalancer('APIServer'), loadBalancer('OAuthServer'), route('Konnectivity'), route('Ignition')]),
  },
  {
    name: 'fails when a self-managed Azure cluster publishes OAuthServer as a NodePort',
    object: azure(AZURE_SELF_MANAGED, [loadBalancer('APIServer'), nodePort('OAuthServer'), route('Konnectivity'), route('Ignition')]),
    rejects: 'Self-managed Azure requires OAuthServer to use Route or LoadBalancer',
    at: 'spec',
  },
  {
    name: 'fails when an Azure cluster publishes Konnectivity through a load balancer',
    object: azure(AZURE_MANAGED, [loadBalancer('APIServer'), route('OAuthServer'), loadBalancer('Konnectivity'), route('Ignition')]),
    rejects: 'Azure platform requires Konnectivity to use Route',
    at: 'spec',
  },
  {
    name: 'fails when an Azure cluster publishes Ignition as a NodePort',
    object: azure(AZURE_SELF_MANAGED, [loadBalancer('APIServer'), route('OAuthServer'), route('Konnectivity'), nodePort('Ignition')]),
    rejects: 'Azure platform requires Ignition to use Route',
    at: 'spec',
  },

  // the APIServer load balancer hostname and named certificates
  {
    name: 'fails when the APIServer load balancer hostname is also a named serving certificate name',
    object: apiServerLoadBalancer('api.vcluster2.example.com', ['console.vcluster2.example.com', 'api.vcluster2.example.com']),
    rejects: 'APIServer loadBalancer hostname cannot be in ClusterConfiguration.apiserver.servingCerts.namedCertificates[]',
    at: 'spec',
  },
  {
    name: 'passes when named serving certificates cover other names than the APIServer load balancer hostname',
    object: apiServerLoadBalancer('api.vcluster2.example.com', ['api-int.vcluster2.example.com']),
  },

  // service account signing key and issuer URL
  {
    name: 'passes when a service account signing key is given with an issuer URL',
    object: hc({ 'spec.serviceAccountSigningKey': { name: 'sa-signing-key' }, 'spec.issuerURL': 'https://oidc.example.com/vcluster2' }),
  },
  {
    name: 'passes when the issuerURL is kept on update',
    object: hc({ 'spec.issuerURL': 'https://oidc.example.com/vcluster2' }),
    previous: hc({ 'spec.issuerURL': 'https://oidc.example.com/vcluster2' }),
  },
  {
    name: 'fails when the issuerURL is not an absolute URL',
    object: hc({ 'spec.issuerURL': 'oidc.example.com/vcluster2' }),
    rejects: 'issuerURL must be a valid absolute URL',
    at: 'spec.issuerURL',
  },
  {
    name: 'fails when the issuerURL changes after creation',
    object: hc({ 'spec.issuerURL': 'https://oidc.example.com/vcluster2' }),
    previous: hc({ 'spec.issuerURL': 'https://kubernetes.default.svc' }),
    rejects: 'issuerURL is immutable',
    at: 'spec.issuerURL',
  },

  // network operator settings that depend on the network type
  {
    name: 'fails when multus is disabled with the OVNKubernetes network type',
    object: hc({ 'spec.operatorConfiguration.clusterNetworkOperator.disableMultiNetwork': true }),
    rejects: "disableMultiNetwork can only be set to true when networkType is 'Other'",
    at: 'spec',
  },
  {
    name: 'passes when multus is disabled with the Other network type',
    object: hc({ 'spec.networking.networkType': 'Other', 'spec.operatorConfiguration.clusterNetworkOperator.disableMultiNetwork': true }),
  },
  {
    name: 'fails when ovnKubernetesConfig is set with the Other network type',
    object: hc({ 'spec.networking.networkType': 'Other', 'spec.operatorConfiguration.clusterNetworkOperator.ovnKubernetesConfig': { mtu: 1400 } }),
    rejects: 'ovnKubernetesConfig is forbidden when networkType is not OVNKubernetes',
    at: 'spec',
  },
  {
    name: 'passes when ovnKubernetesConfig is set with the OVNKubernetes network type',
    object: hc({ 'spec.operatorConfiguration.clusterNetworkOperator.ovnKubernetesConfig': { mtu: 1400 } }),
  },

  // secret encryption
  {
    name: 'fails when secret encryption is removed after it was configured',
    object: HOSTED_CLUSTER,
    previous: hc({ 'spec.secretEncryption': AESCBC }),
    rejects: 'secretEncryption cannot be removed once configured',
    at: 'spec',
  },
  {
    name: 'passes when aescbc secret encryption is kept on update',
    object: hc({ 'spec.secretEncryption': AESCBC }),
    previous: hc({ 'spec.secretEncryption': AESCBC }),
  },
  {
    name: 'passes when AWS KMS keys are ARNs',
    object: hc({ 'spec.secretEncryption': AWS_KMS }),
  },
  {
    name: 'fails when the AWS KMS active key is not an ARN',
    object: hc({ 'spec.secretEncryption': withChanges(AWS_KMS, { 'kms.aws.activeKey.arn': 'alias/etcd-active' }) }),
    rejects: "arn must start with 'arn:'",
    at: 'spec.secretEncryption.kms.aws.activeKey.arn',
  },
  {
    name: 'fails when the AWS KMS backup key is not an ARN',
    object: hc({ 'spec.secretEncryption': withChanges(AWS_KMS, { 'kms.aws.backupKey.arn': 'alias/etcd-backup' }) }),
    rejects: "arn must start with 'arn:'",
    at: 'spec.secretEncryption.kms.aws.backupKey.arn',
  },
  {
    name: 'passes when the Azure KMS backup key is in the same key vault as the active key',
    object: azureKms({ 'kms.azure.backupKey': azureKey('vcluster2-kv', 'backup'), 'kms.azure.kms.clientID': CLIENT_ID }),
  },
  {
    name: 'fails when the Azure KMS backup key is in another key vault',
    object: azureKms({ 'kms.azure.backupKey': azureKey('other-kv', 'backup') }),
    rejects: 'backupKey.keyVaultName must match activeKey.keyVaultName',
    at: 'spec.secretEncryption.kms.azure',
  },
  {
    name: 'passes when the Azure key vault type is kept on update',
    object: azureKms({ 'kms.azure.keyVaultType': 'KeyVault' }),
    previous: azureKms({}),
  },
  {
    name: 'fails when the Azure key vault type changes after creation',
    object: azureKms({ 'kms.azure.keyVaultType': 'ManagedHSM' }),
    previous: azureKms({}),
    rejects: 'keyVaultType is immutable',
  },
  {
    name: 'fails when Azure KMS has both a managed identity and a workload identity',
    object: azureKms({ 'kms.azure.workloadIdentity': { clientID: CLIENT_ID } }),
    rejects: 'kms and workloadIdentity are mutually exclusive',
  },
  {
    name: 'fails when Azure KMS has neither a managed identity nor a workload identity',
    object: azureKms({ 'kms.azure.kms': undefined }),
    rejects: 'one of kms or workloadIdentity must be set',
  },
  {
    name: 'passes when Azure KMS authenticates with a workload identity',
    object: azureKms({ 'kms.azure.kms': undefined, 'kms.azure.workloadIdentity': { clientID: CLIENT_ID } }),
    previous: azureKms({ 'kms.azure.kms': undefined, 'kms.azure.workloadIdentity': { clientID: CLIENT_ID } }),
  },
  {
    name: 'fails when Azure KMS switches from a managed identity to a workload identity',
    object: azureKms({ 'kms.azure.kms': undefined, 'kms.azure.workloadIdentity': { clientID: CLIENT_ID } }),
    previous: azureKms({}),
    rejects: 'the KMS authentication mode is immutable once set',
  },
  {
    name: 'fails when the Azure KMS managed identity client ID is not a UUID',
    object: azureKms({ 'kms.azure.kms.clientID': 'kmsclien-2222-4333-8444-555555555555' }),
    rejects: 'the client ID of a managed identity must be a valid UUID',
    at: 'spec.secretEncryption.kms.azure.kms.clientID',
  },
  {
    name: 'fails when the Azure KMS workload identity client ID is not a UUID',
    object: azureKms({ 'kms.azure.kms': undefined, 'kms.azure.workloadIdentity': { clientID: 'wiclient-2222-4333-8444-555555555555' } }),
    rejects: 'the client ID of a managed identity must be a valid UUID',
    at: 'spec.secretEncryption.kms.azure.workloadIdentity.clientID',
  },
  {
    name: 'passes when IBM Cloud KMS key URLs use https',
    object: hc({ 'spec.secretEncryption': IBM_KMS }),
  },
  {
    name: 'fails when an IBM Cloud KMS key URL uses http',
    object: hc({ 'spec.secretEncryption': withChanges(IBM_KMS, { 'kms.ibmcloud.keyList[0].url': 'http://us-south.kms.cloud.ibm.com' }) }),
    rejects: "url must start with 'https://'",
    at: 'spec.secretEncryption.kms.ibmcloud.keyList[0].url',
  },

  // autoNode
  {
    name: 'passes when Karpenter is configured for AWS with a role ARN',
    object: hc({ 'spec.autoNode.provisionerConfig': KARPENTER }),
  },
  {
    name: 'fails when the Karpenter provisioner has no karpenter settings',
    object: hc({ 'spec.autoNode.provisionerConfig': { name: 'Karpenter' } }),
    rejects: 'karpenter is required when name is Karpenter',
    at: 'spec.autoNode.provisionerConfig',
  },
  {
    name: 'fails when Karpenter on AWS has no aws settings',
    object: hc({ 'spec.autoNode.provisionerConfig': withChanges(KARPENTER, { 'karpenter.aws': undefined }) }),
    rejects: 'aws is required when platform is AWS',
    at: 'spec.autoNode.provisionerConfig.karpenter',
  },
  {
    name: 'fails when the Karpenter role ARN is not an IAM role ARN',
    object: hc({ 'spec.autoNode.provisionerConfig': withChanges(KARPENTER, { 'karpenter.aws.roleARN': 'arn:aws:iam::123456789012:user/karpenter' }) }),
    rejects: 'roleARN must be a valid AWS IAM role ARN',
    at: 'spec.autoNode.provisionerConfig.karpenter.aws.roleARN',
  },

  // autoscaling
  {
    name: 'passes when scale-down settings are given with scale up and down',
    object: hc({ 'spec.autoscaling': { scaling: 'ScaleUpAndScaleDown', scaleDown: { delayAfterAddSeconds: 600 }, balancingIgnoredLabels: ['topology.ebs.csi.aws.com/zone', 'custom-label'] } }),
  },
  {
    name: 'fails when scale-down settings are given with scale up only',
    object: hc({ 'spec.autoscaling': { scaling: 'ScaleUpOnly', scaleDown: { delayAfterAddSeconds: 600 } } }),
    rejects: 'scaleDown can only be set when scaling is ScaleUpAndScaleDown',
    at: 'spec.autoscaling',
  },
  {
    name: 'fails when a balancing-ignored label is not a label key',
    object: hc({ 'spec.autoscaling.balancingIgnoredLabels': ['topology.kubernetes.io/zone', 'Example.com/zone'] }),
    rejects: 'Each balancingIgnoredLabels item must be a valid label key',
    at: 'spec.autoscaling.balancingIgnoredLabels',
  },

  // capabilities
  {
    name: 'passes when capabilities are kept on update',
    object: hc({ 'spec.capabilities': { enabled: ['baremetal'], disabled: ['ImageRegistry', 'Console', 'Ingress'] } }),
    previous: hc({ 'spec.capabilities': { enabled: ['baremetal'], disabled: ['ImageRegistry', 'Console', 'Ingress'] } }),
  },
  {
    name: 'fails when capabilities are added after creation',
    object: hc({ 'spec.capabilities': { disabled: ['ImageRegistry'] } }),
    previous: hc({ 'spec.capabilities': {} }),
    rejects: 'Capabilities is immutable',
    at: 'spec.capabilities',
  },
  {
    name: 'fails when the disabled capabilities change after creation',
    object: hc({ 'spec.capabilities': { disabled: ['ImageRegistry', 'Insights'] } }),
    previous: hc({ 'spec.capabilities': { disabled: ['ImageRegistry'] } }),
    rejects: 'Disabled is immutable',
    at: 'spec.capabilities.disabled',
  },
  {
    name: 'fails when the enabled capabilities change after creation',
    object: hc({ 'spec.capabilities': { enabled: ['baremetal', 'NodeTuning'] } }),
    previous: hc({ 'spec.capabilities': { enabled: ['baremetal'] } }),
    rejects: 'Enabled is immutable',
    at: 'spec.capabilities.enabled',
  },
  {
    name: 'fails when a capability is both enabled and disabled',
    object: hc({ 'spec.capabilities': { enabled: ['Insights'], disabled: ['ImageRegistry', 'Insights'] } }),
    rejects: 'Capabilities can not be both enabled and disabled at once',
    at: 'spec.capabilities',
  },
  {
    name: 'fails when Ingress is disabled but Console is not',
    object: hc({ 'spec.capabilities': { disabled: ['Ingress'] } }),
    rejects: 'Ingress capability can only be disabled if Console capability is also disabled',
    at: 'spec.capabilities.disabled',
  },

  // release images
  {
    name: 'fails when the release image contains a space',
    object: hc({ 'spec.release.image': 'quay.io/openshift-release-dev/ocp-release:4.17.0 x86_64' }),
    rejects: 'Image must start with a word character',
    at: 'spec.release.image',
  },
  {
    name: 'passes when a separate control plane release image is given',
    object: hc({ 'spec.controlPlaneRelease.image': 'quay.io/openshift-release-dev/ocp-release:4.17.1-x86_64' }),
  },
  {
    name: 'fails when the control plane release image starts with a slash',
    object: hc({ 'spec.controlPlaneRelease.image': '/openshift-release-dev/ocp-release:4.17.1-x86_64' }),
    rejects: 'Image must start with a word character',
    at: 'spec.controlPlaneRelease.image',
  },

  // controllerAvailabilityPolicy, fips, olmCatalogPlacement
  {
    name: 'fails when the controller availability policy changes after creation',
    object: hc({ 'spec.controllerAvailabilityPolicy': 'SingleReplica' }),
    previous: HOSTED_CLUSTER,
    rejects: 'ControllerAvailabilityPolicy is immutable',
    at: 'spec.controllerAvailabilityPolicy',
  },
  {
    name: 'passes when FIPS and the OLM catalog placement are kept on update',
    object: hc({ 'spec.fips': true, 'spec.olmCatalogPlacement': 'guest' }),
    previous: hc({ 'spec.fips': true, 'spec.olmCatalogPlacement': 'guest' }),
  },
  {
    name: 'fails when FIPS is turned on after creation',
    object: hc({ 'spec.fips': true }),
    previous: hc({ 'spec.fips': false }),
    rejects: 'fips is immutable',
    at: 'spec.fips',
  },
  {
    name: 'fails when the OLM catalog placement changes after creation',
    object: hc({ 'spec.olmCatalogPlacement': 'guest' }),
    previous: hc({ 'spec.olmCatalogPlacement': 'management' }),
    rejects: 'OLMCatalogPlacement is immutable',
    at: 'spec.olmCatalogPlacement',
  },

  // dns
  {
    name: 'fails when the base domain has an underscore',
    object: hc({ 'spec.dns.baseDomain': 'example_com' }),
    rejects: 'baseDomain must be a valid domain name',
    at: 'spec.dns.baseDomain',
  },
  {
    name: 'passes when the base domain is a single label',
    object: hc({ 'spec.dns.baseDomain': 'lab' }),
  },
  {
    name: 'fails when the base domain changes after creation',
    object: hc({ 'spec.dns.baseDomain': 'example.org' }),
    previous: HOSTED_CLUSTER,
    rejects: 'baseDomain is immutable',
    at: 'spec.dns.baseDomain',
  },
  {
    name: 'passes when the DNS prefix and zones are kept on update',
    object: hc({ 'spec.dns': { baseDomain: 'example.com', baseDomainPrefix: 'hcp', publicZoneID: 'Z01PUBLIC', privateZoneID: 'Z02PRIVATE' } }),
    previous: hc({ 'spec.dns': { baseDomain: 'example.com', baseDomainPrefix: 'hcp', publicZoneID: 'Z01PUBLIC', privateZoneID: 'Z02PRIVATE' } }),
  },
  {
    name: 'fails when the base domain prefix is not a domain name',
    object: hc({ 'spec.dns.baseDomainPrefix': 'hcp clusters' }),
    rejects: 'baseDomainPrefix must be a valid domain name',
    at: 'spec.dns.baseDomainPrefix',
  },
  {
    name: 'fails when the base domain prefix changes after creation',
    object: hc({ 'spec.dns.baseDomainPrefix': 'hcp2' }),
    previous: hc({ 'spec.dns.baseDomainPrefix': 'hcp' }),
    rejects: 'baseDomainPrefix is immutable',
    at: 'spec.dns.baseDomainPrefix',
  },
  {
    name: 'fails when the private zone ID changes after creation',
    object: hc({ 'spec.dns.privateZoneID': 'Z03PRIVATE' }),
    previous: hc({ 'spec.dns.privateZoneID': 'Z02PRIVATE' }),
    rejects: 'privateZoneID is immutable',
    at: 'spec.dns.privateZoneID',
  },
  {
    name: 'fails when the public zone ID changes after creation',
    object: hc({ 'spec.dns.publicZoneID': 'Z04PUBLIC' }),
    previous: hc({ 'spec.dns.publicZoneID': 'Z01PUBLIC' }),
    rejects: 'publicZoneID is immutable',
    at: 'spec.dns.publicZoneID',
  },
  {
    name: 'fails when the kube-apiserver DNS name is a URL',
    object: hc({ 'spec.kubeAPIServerDNSName': 'https://api.vcluster2.example.com' }),
    rejects: 'kubeAPIServerDNSName must be a valid URL name',
    at: 'spec.kubeAPIServerDNSName',
  },
  {
    name: 'passes when the kube-apiserver DNS name is a host name',
    object: hc({ 'spec.kubeAPIServerDNSName': 'api.vcluster2.example.com' }),
  },

  // etcd
  {
    name: 'fails when managed etcd has no managed settings',
    object: hc({ 'spec.etcd': { managementType: 'Managed' } }),
    rejects: 'Only managed configuration must be set when managementType is Managed',
    at: 'spec.etcd',
  },
  {
    name: 'fails when managed etcd also has unmanaged settings',
    object: hc({ 'spec.etcd.unmanaged': UNMANAGED_ETCD.unmanaged }),
    rejects: 'Only unmanaged configuration must be set when managementType is Unmanaged',
    at: 'spec.etcd',
  },
  {
    name: 'passes when etcd is unmanaged with an endpoint and client certificate',
    object: hc({ 'spec.etcd': UNMANAGED_ETCD }),
  },
  {
    name: 'fails when unmanaged etcd has managed settings',
    object: hc({ 'spec.etcd': { ...UNMANAGED_ETCD, managed: HOSTED_CLUSTER.spec.etcd.managed } }),
    rejects: 'Only managed configuration must be set when managementType is Managed',
    at: 'spec.etcd',
  },
  {
    name: 'fails when the etcd management type changes after creation',
    object: hc({ 'spec.etcd': UNMANAGED_ETCD }),
    previous: HOSTED_CLUSTER,
    rejects: 'managementType is immutable',
    at: 'spec.etcd.managementType',
  },
  {
    name: 'fails when the etcd volume size changes after creation',
    object: hc({ [`${ETCD_STORAGE}.persistentVolume.size`]: '16Gi' }),
    previous: HOSTED_CLUSTER,
    rejects: 'Etcd PV storage size is immutable',
    at: 'spec.etcd.managed.storage.persistentVolume.size',
  },
  {
    name: 'passes when the etcd storage class and snapshot are kept on update',
    object: hc({ [`${ETCD_STORAGE}.persistentVolume.storageClassName`]: 'lvms-vg1', [`${ETCD_STORAGE}.restoreSnapshotURL`]: [SNAPSHOT] }),
    previous: hc({ [`${ETCD_STORAGE}.persistentVolume.storageClassName`]: 'lvms-vg1', [`${ETCD_STORAGE}.restoreSnapshotURL`]: [SNAPSHOT] }),
  },
  {
    name: 'fails when the etcd storage class changes after creation',
    object: hc({ [`${ETCD_STORAGE}.persistentVolume.storageClassName`]: 'lvms-vg2' }),
    previous: hc({ [`${ETCD_STORAGE}.persistentVolume.storageClassName`]: 'lvms-vg1' }),
    rejects: 'storageClassName is immutable',
    at: 'spec.etcd.managed.storage.persistentVolume.storageClassName',
  },
  {
    name: 'fails when an etcd restore snapshot is added after creation',
    object: hc({ [`${ETCD_STORAGE}.restoreSnapshotURL`]: [SNAPSHOT] }),
    previous: HOSTED_CLUSTER,
    rejects: 'restoreSnapshotURL cannot be added or removed after creation',
    at: 'spec.etcd.managed.storage',
  },
  {
    name: 'fails when the etcd restore snapshot changes after creation',
    object: hc({ [`${ETCD_STORAGE}.restoreSnapshotURL`]: ['s3://etcd-backups/vcluster2/snapshot.db'] }),
    previous: hc({ [`${ETCD_STORAGE}.restoreSnapshotURL`]: [SNAPSHOT] }),
    rejects: 'restoreSnapshotURL is immutable',
    at: 'spec.etcd.managed.storage.restoreSnapshotURL',
  },
  {
    // maxItems refuses it first, and a "Too many" keeps the API server from running the rule that says the same.
    name: 'fails when two etcd restore snapshots are given',
    object: hc({ [`${ETCD_STORAGE}.restoreSnapshotURL`]: [SNAPSHOT, 's3://etcd-backups/vcluster2/snapshot.db'] }),
    rejects: 'Too many: 2: must have at most 1 items',
    at: 'spec.etcd.managed.storage.restoreSnapshotURL',
  },
  {
    name: 'fails when the etcd restore snapshot URL is not https or s3',
    object: hc({ [`${ETCD_STORAGE}.restoreSnapshotURL`]: ['http://backups.example.com/etcd/snapshot.db'] }),
    rejects: 'restoreSnapshotURL must be a valid URL with scheme https or s3',
    at: 'spec.etcd.managed.storage.restoreSnapshotURL',
  },

  // networking
  {
    name: 'fails when the cluster and service networks are the same CIDR',
    object: hc({ 'spec.networking.serviceNetwork': [{ cidr: '10.132.0.0/14' }] }),
    rejects: 'CIDR ranges in machineNetwork, clusterNetwork, and serviceNetwork must be unique',
    at: 'spec.networking',
  },
  {
    name: 'fails when the machine network is the same CIDR as the service network',
    object: hc({ 'spec.networking.machineNetwork': [{ cidr: '172.31.0.0/16' }] }),
    rejects: 'CIDR ranges in machineNetwork, clusterNetwork, and serviceNetwork must be unique',
    at: 'spec.networking',
  },
  {
    name: 'passes when machine, cluster and service networks are distinct and kept on update',
    object: hc({ 'spec.networking.machineNetwork': [{ cidr: '192.168.122.0/24' }] }),
    previous: hc({ 'spec.networking.machineNetwork': [{ cidr: '192.168.122.0/24' }] }),
  },
  {
    name: 'fails when node CIDR allocation is enabled with the OVNKubernetes network type',
    object: hc({ 'spec.networking.allocateNodeCIDRs': 'Enabled' }),
    rejects: "allocateNodeCIDRs can only be set to Enabled when networkType is 'Other'",
    at: 'spec.networking',
  },
  {
    name: 'passes when node CIDR allocation is enabled with the Other network type and kept on update',
    object: hc({ 'spec.networking.networkType': 'Other', 'spec.networking.allocateNodeCIDRs': 'Enabled' }),
    previous: hc({ 'spec.networking.networkType': 'Other', 'spec.networking.allocateNodeCIDRs': 'Enabled' }),
  },
  {
    name: 'fails when node CIDR allocation changes after creation',
    object: hc({ 'spec.networking.networkType': 'Other', 'spec.networking.allocateNodeCIDRs': 'Enabled' }),
    previous: hc({ 'spec.networking.networkType': 'Other', 'spec.networking.allocateNodeCIDRs': 'Disabled' }),
    rejects: 'allocateNodeCIDRs is immutable',
    at: 'spec.networking.allocateNodeCIDRs',
  },
  {
    name: 'passes when the API server network settings are kept on update',
    object: hc({ 'spec.networking.apiServer': { advertiseAddress: '172.20.0.1', port: 6443, allowedCIDRBlocks: ['192.168.0.0/16', '2001:db8::/64'] } }),
    previous: hc({ 'spec.networking.apiServer': { advertiseAddress: '172.20.0.1', port: 6443, allowedCIDRBlocks: ['10.0.0.0/8'] } }),
  },
  {
    name: 'fails when the API server advertise address changes after creation',
    object: hc({ 'spec.networking.apiServer.advertiseAddress': '172.20.0.2' }),
    previous: hc({ 'spec.networking.apiServer.advertiseAddress': '172.20.0.1' }),
    rejects: 'advertiseAddress is immutable',
    at: 'spec.networking.apiServer.advertiseAddress',
  },
  {
    name: 'fails when the API server port changes after creation',
    object: hc({ 'spec.networking.apiServer.port': 8443 }),
    previous: hc({ 'spec.networking.apiServer.port': 6443 }),
    rejects: 'port is immutable',
    at: 'spec.networking.apiServer.port',
  },
  {
    name: 'fails when an allowed API server CIDR block has no prefix length',
    object: hc({ 'spec.networking.apiServer.allowedCIDRBlocks': ['192.168.1.10'] }),
    rejects: 'cidr must be a valid IPv4 or IPv6 CIDR notation',
    at: 'spec.networking.apiServer.allowedCIDRBlocks[0]',
  },
  {
    name: 'fails when the cluster network changes after creation',
    object: hc({ 'spec.networking.clusterNetwork': [{ cidr: '10.128.0.0/14' }] }),
    previous: HOSTED_CLUSTER,
    rejects: 'clusterNetwork is immutable',
    at: 'spec.networking.clusterNetwork',
  },
  {
    name: 'fails when a cluster network CIDR is a bare address',
    object: hc({ 'spec.networking.clusterNetwork': [{ cidr: '10.132.0.0' }] }),
    rejects: 'cidr must be a valid IPv4 or IPv6 CIDR notation',
    at: 'spec.networking.clusterNetwork[0].cidr',
  },
  {
    name: 'fails when the machine network changes after creation',
    object: hc({ 'spec.networking.machineNetwork': [{ cidr: '192.168.123.0/24' }] }),
    previous: hc({ 'spec.networking.machineNetwork': [{ cidr: '192.168.122.0/24' }] }),
    rejects: 'machineNetwork is immutable',
    at: 'spec.networking.machineNetwork',
  },
  {
    name: 'fails when a machine network CIDR is a host name',
    object: hc({ 'spec.networking.machineNetwork': [{ cidr: 'lab.example.com/24' }] }),
    rejects: 'cidr must be a valid IPv4 or IPv6 CIDR notation',
    at: 'spec.networking.machineNetwork[0].cidr',
  },
  {
    name: 'fails when the service network changes after creation',
    object: hc({ 'spec.networking.serviceNetwork': [{ cidr: '172.30.0.0/16' }] }),
    previous: HOSTED_CLUSTER,
    rejects: 'serviceNetwork is immutable',
    at: 'spec.networking.serviceNetwork',
  },
  {
    name: 'fails when a service network CIDR is not in CIDR notation',
    object: hc({ 'spec.networking.serviceNetwork': [{ cidr: '172.31.0.0 255.255.0.0' }] }),
    rejects: 'cidr must be a valid IPv4 or IPv6 CIDR notation',
    at: 'spec.networking.serviceNetwork[0].cidr',
  },
  {
    name: 'passes when the cluster is dual-stack',
    object: hc({
      'spec.networking.clusterNetwork': [{ cidr: '10.132.0.0/14' }, { cidr: 'fd01::/48', hostPrefix: 64 }],
      'spec.networking.serviceNetwork': [{ cidr: '172.31.0.0/16' }, { cidr: 'fd02::/112' }],
    }),
  },

  // nodeSelector, pausedUntil, updateService
  {
    name: 'fails when the node selector has more than 20 entries',
    object: hc({ 'spec.nodeSelector': TOO_MANY_NODE_LABELS }),
    rejects: 'nodeSelector map can have at most 20 entries',
    at: 'spec.nodeSelector',
  },
  {
    name: 'passes when the node selector has one entry',
    object: hc({ 'spec.nodeSelector': { 'node-role.kubernetes.io/infra': '' } }),
  },
  {
    name: 'fails when pausedUntil is a date without a time',
    object: hc({ 'spec.pausedUntil': '2025-06-01' }),
    rejects: "PausedUntil must be a date in RFC3339 format or 'True', 'true', 'False' or 'false'",
    at: 'spec.pausedUntil',
  },
  {
    name: 'passes when pausedUntil is an RFC3339 time',
    object: hc({ 'spec.pausedUntil': '2025-06-01T12:00:00Z' }),
  },
  {
    name: 'passes when pausedUntil is true',
    object: hc({ 'spec.pausedUntil': 'true' }),
  },
  {
    name: 'fails when the update service is not a URL',
    object: hc({ 'spec.updateService': 'updates example com' }),
    rejects: 'updateService must be a valid absolute URL',
    at: 'spec.updateService',
  },
  {
    name: 'passes when the update service is an https URL',
    object: hc({ 'spec.updateService': 'https://updates.example.com/api/upgrades_info/v1/graph' }),
  },

  // status
  {
    name: 'passes when the control plane version history has semantic versions',
    object: controlPlaneHistory('4.17.0'),
  },
  {
    name: 'fails when a control plane version history entry has a v prefix',
    object: controlPlaneHistory('v4.17.0'),
    rejects: 'version must start with semantic version prefix x.y.z',
    at: 'status.controlPlaneVersion.history[0].version',
  },
  {
    name: 'passes when the status shows an AWS active key and an Azure target key',
    object: hc({ 'status.secretEncryption': { activeKey: KEY_STATUSES.aws, targetKey: KEY_STATUSES.azure } }),
  },
  {
    name: 'passes when the status shows an IBM Cloud active key and an AESCBC target key',
    object: hc({ 'status.secretEncryption': { activeKey: KEY_STATUSES.ibmCloud, targetKey: KEY_STATUSES.aescbc } }),
  },
  {
    name: 'passes when the status shows an AESCBC active key and an IBM Cloud target key',
    object: hc({ 'status.secretEncryption': { activeKey: KEY_STATUSES.aescbc, targetKey: KEY_STATUSES.ibmCloud } }),
  },
  {
    name: 'passes when the status shows an Azure active key and an AWS target key',
    object: hc({ 'status.secretEncryption': { activeKey: KEY_STATUSES.azure, targetKey: KEY_STATUSES.aws } }),
  },
  {
    name: 'fails when the active key status names Azure without Azure details',
    object: encryptionStatus('activeKey', { provider: 'Azure' }),
    rejects: 'azure is required when provider is Azure',
    at: 'status.secretEncryption.activeKey',
  },
  {
    name: 'fails when the active key status names AWS but has Azure details',
    object: encryptionStatus('activeKey', { ...KEY_STATUSES.aws, azure: KEY_STATUSES.azure.azure }),
    rejects: 'azure is required when provider is Azure, and forbidden otherwise',
    at: 'status.secretEncryption.activeKey',
  },
  {
    name: 'fails when the active key status names AWS without AWS details',
    object: encryptionStatus('activeKey', { provider: 'AWS' }),
    rejects: 'aws is required when provider is AWS',
    at: 'status.secretEncryption.activeKey',
  },
  {
    name: 'fails when the active key status names IBM Cloud without IBM Cloud details',
    object: encryptionStatus('activeKey', { provider: 'IBMCloud' }),
    rejects: 'ibmCloud is required when provider is IBMCloud',
    at: 'status.secretEncryption.activeKey',
  },
  {
    name: 'fails when the active key status names AESCBC without AESCBC details',
    object: encryptionStatus('activeKey', { provider: 'AESCBC' }),
    rejects: 'aescbc is required when provider is AESCBC',
    at: 'status.secretEncryption.activeKey',
  },
  {
    name: 'fails when the active AESCBC key status names a secret with upper-case letters',
    object: encryptionStatus('activeKey', withChanges(KEY_STATUSES.aescbc, { 'aescbc.secret.name': 'Etcd-Key' })),
    rejects: 'name must consist only of lowercase alphanumeric characters, hyphens, and periods',
    at: 'status.secretEncryption.activeKey.aescbc.secret.name',
  },
  {
    name: 'fails when the active AWS key status is not an ARN',
    object: encryptionStatus('activeKey', withChanges(KEY_STATUSES.aws, { 'aws.arn': 'alias/etcd' })),
    rejects: "arn must start with 'arn:'",
    at: 'status.secretEncryption.activeKey.aws.arn',
  },
  {
    name: 'fails when the active IBM Cloud key status URL uses http',
    object: encryptionStatus('activeKey', withChanges(KEY_STATUSES.ibmCloud, { 'ibmCloud.url': 'http://us-south.kms.cloud.ibm.com' })),
    rejects: "url must start with 'https://'",
    at: 'status.secretEncryption.activeKey.ibmCloud.url',
  },
  {
    name: 'fails when the target key status names Azure without Azure details',
    object: encryptionStatus('targetKey', { provider: 'Azure' }),
    rejects: 'azure is required when provider is Azure',
    at: 'status.secretEncryption.targetKey',
  },
  {
    name: 'fails when the target key status names AWS without AWS details',
    object: encryptionStatus('targetKey', { provider: 'AWS' }),
    rejects: 'aws is required when provider is AWS',
    at: 'status.secretEncryption.targetKey',
  },
  {
    name: 'fails when the target key status names AESCBC but has IBM Cloud details',
    object: encryptionStatus('targetKey', { ...KEY_STATUSES.aescbc, ibmCloud: KEY_STATUSES.ibmCloud.ibmCloud }),
    rejects: 'ibmCloud is required when provider is IBMCloud, and forbidden otherwise',
    at: 'status.secretEncryption.targetKey',
  },
  {
    name: 'fails when the target key status names IBM Cloud without IBM Cloud details',
    object: encryptionStatus('targetKey', { provider: 'IBMCloud' }),
    rejects: 'ibmCloud is required when provider is IBMCloud',
    at: 'status.secretEncryption.targetKey',
  },
  {
    name: 'fails when the target key status names AESCBC without AESCBC details',
    object: encryptionStatus('targetKey', { provider: 'AESCBC' }),
    rejects: 'aescbc is required when provider is AESCBC',
    at: 'status.secretEncryption.targetKey',
  },
  {
    name: 'fails when the target AESCBC key status names a secret ending in a period',
    object: encryptionStatus('targetKey', withChanges(KEY_STATUSES.aescbc, { 'aescbc.secret.name': 'etcd-key.' })),
    rejects: 'name must consist only of lowercase alphanumeric characters, hyphens, and periods',
    at: 'status.secretEncryption.targetKey.aescbc.secret.name',
  },
  {
    name: 'fails when the target AWS key status is not an ARN',
    object: encryptionStatus('targetKey', withChanges(KEY_STATUSES.aws, { 'aws.arn': 'key/1234' })),
    rejects: "arn must start with 'arn:'",
    at: 'status.secretEncryption.targetKey.aws.arn',
  },
  {
    name: 'fails when the target IBM Cloud key status URL has no scheme',
    object: encryptionStatus('targetKey', withChanges(KEY_STATUSES.ibmCloud, { 'ibmCloud.url': 'us-south.kms.cloud.ibm.com' })),
    rejects: "url must start with 'https://'",
    at: 'status.secretEncryption.targetKey.ibmCloud.url',
  },
];
