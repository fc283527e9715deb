// NodePool cases: every CEL rule of the NodePool CRD made to fail by a hand-written object, and made
// to pass by a valid one. The bases are a NodePool per platform the API server accepts.
import { NODE_POOL, ObjectCase, withChanges } from '../object-cases';

/** An AWS NodePool replacing its machines, in a subnet given by ID. */
const AWS_NODE_POOL = withChanges(NODE_POOL, {
  'spec.management': { upgradeType: 'Replace', autoRepair: true },
  'spec.platform': {
    type: 'AWS',
    aws: {
      instanceType: 'm6i.xlarge',
      subnet: { id: 'subnet-0a1b2c3d4e5f67890' },
      rootVolume: { size: 120, type: 'gp3' },
      resourceTags: [{ key: 'cost-center', value: 'platform-eng' }],
    },
  },
});

/** A KubeVirt NodePool whose VMs boot from a persistent root volume. */
const KUBEVIRT_NODE_POOL = withChanges(NODE_POOL, {
  'spec.management': { upgradeType: 'Replace', autoRepair: false },
  'spec.platform': {
    type: 'KubeVirt',
    kubevirt: {
      compute: { cores: 4, memory: '16Gi' },
      rootVolume: { type: 'Persistent', persistent: { size: '64Gi', storageClass: 'lvms-vg1', accessModes: ['ReadWriteOnce'] } },
    },
  },
});

const SUBSCRIPTION = '5d6e7f80-1a2b-4c3d-9e8f-0123456789ab';
const AZURE_SUBNET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/workers`;
const AZURE_ENCRYPTION_SET_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Compute/diskEncryptionSets/hcp-des`;

/** An Azure NodePool booting a marketplace image, with an encrypted OS disk. */
const AZURE_NODE_POOL = withChanges(NODE_POOL, {
  'spec.management': { upgradeType: 'Replace', autoRepair: true },
  'spec.platform': {
    type: 'Azure',
    azure: {
      vmSize: 'Standard_D4s_v3',
      image: { type: 'AzureMarketplace', azureMarketplace: { publisher: 'azureopenshift', offer: 'aro4', sku: 'aro_418', version: '418.94.20250122' } },
      osDisk: { sizeGiB: 128, diskStorageAccountType: 'Premium_LRS', encryptionSetID: AZURE_ENCRYPTION_SET_ID },
      subnetID: AZURE_SUBNET_ID,
      availabilityZone: '1',
    },
  },
});

/** A NodePool for hosts the user provisions themselves. */
const NONE_NODE_POOL = withChanges(NODE_POOL, { 'spec.platform': { type: 'None' } });

/** A KubeVirt NodePool as the controller reports it in status. */
const KUBEVIRT_WITH_STATUS = withChanges(KUBEVIRT_NODE_POOL, {
  status: {
    replicas: 2,
    version: '4.18.3',
    nodesInfo: { nodeVersions: [{ kubeletVersion: 'v1.31.6', ocpVersion: '4.18.3', readyNodeCount: 2, unreadyNodeCount: 0 }] },
    platform: { kubeVirt: { credentials: { infraNamespace: 'vm-guests', infraKubeConfigSecret: { name: 'infra-kubeconfig', key: 'kubeconfig' } } } },
  },
});

const aws = (changes: Record<string, unknown>) => withChanges(AWS_NODE_POOL, changes);
const azure = (changes: Record<string, unknown>) => withChanges(AZURE_NODE_POOL, changes);
const placement = (value: unknown) => aws({ 'spec.platform.aws.placement': value });
const CR_ID = 'cr-0123456789abcdef0';

export const CASES: ObjectCase[] = [
  // The bases.
  { name: 'passes when the pool is an Agent pool selecting agents by label', object: NODE_POOL },
  { name: 'passes when the pool is an AWS pool in a subnet given by ID', object: AWS_NODE_POOL },
  { name: 'passes when the pool is a KubeVirt pool with a persistent root volume', object: KUBEVIRT_NODE_POOL },
  { name: 'passes when the pool is an Azure pool booting a marketplace image', object: AZURE_NODE_POOL },
  { name: 'passes when the pool is a None-platform pool', object: NONE_NODE_POOL },
  { name: 'passes when a KubeVirt pool reports its nodes and credentials in status', object: KUBEVIRT_WITH_STATUS },

  // spec: arch, replicas and autoScaling, per platform.
  {
    name: 'passes when an update keeps the arch',
    object: withChanges(NODE_POOL, { 'spec.replicas': 3 }),
    previous: NODE_POOL,
  },
  {
    name: 'fails when the arch changes after creation',
    object: withChanges(AWS_NODE_POOL, { 'spec.arch': 'arm64' }),
    previous: AWS_NODE_POOL,
    rejects: 'Arch is immutable',
    at: 'spec.arch',
  },
  {
    name: 'fails when replicas does not fit the int32 field the controller reads',
    object: withChanges(NODE_POOL, { 'spec.replicas': 2 ** 31 }),
    rejects: 'Invalid value: must fit in a 32-bit integer (-2147483648 to 2147483647), the type of the field the controller reads',
    at: 'spec.replicas',
  },
  { name: 'passes when replicas is the largest int32', object: withChanges(NODE_POOL, { 'spec.replicas': 2 ** 31 - 1 }) },
  {
    // The schema has no minimum: the API server checks the scale subresource's replica count on every write.
    name: 'fails when replicas is negative, which the scale subresource refuses',
    object: withChanges(NODE_POOL, { 'spec.replicas': -1 }),
    rejects: 'Invalid value: should be a non-negative integer: the scale subresource reads it as a replica count',
    at: 'spec.replicas',
  },
  { name: 'passes when replicas is zero', object: withChanges(NODE_POOL, { 'spec.replicas': 0 }) },
  { name: 'passes when an AWS pool runs arm64', object: aws({ 'spec.arch': 'arm64', 'spec.platform.aws.instanceType': 'm7g.xlarge' }) },
  { name: 'passes when an Azure pool runs arm64', object: azure({ 'spec.arch': 'arm64', 'spec.platform.azure.vmSize': 'Standard_D4ps_v5' }) },
  { name: 'passes when an Agent pool runs arm64', object: withChanges(NODE_POOL, { 'spec.arch': 'arm64' }) },
  { name: 'passes when a None-platform pool runs arm64', object: withChanges(NONE_NODE_POOL, { 'spec.arch': 'arm64' }) },
  {
    name: 'fails when a KubeVirt pool runs arm64',
    object: withChanges(KUBEVIRT_NODE_POOL, { 'spec.arch': 'arm64' }),
    rejects: 'Setting Arch to arm64 is only supported for AWS, Azure, Agent, GCP and None',
    at: 'spec',
  },
  { name: 'passes when a KubeVirt pool runs s390x', object: withChanges(KUBEVIRT_NODE_POOL, { 'spec.arch': 's390x' }) },
  {
    name: 'fails when an Agent pool runs s390x',
    object: withChanges(NODE_POOL, { 'spec.arch': 's390x' }),
    rejects: 's390x is only supported on KubeVirt platform',
    at: 'spec',
  },
  {
    name: 'fails when the arch is not one of the supported architectures',
    object: withChanges(NODE_POOL, { 'spec.arch': 'x86_64' }),
    rejects: 'Unsupported value: supported values: "arm64", "amd64", "ppc64le", "s390x"',
    at: 'spec.arch',
  },
  {
    name: 'passes when the pool autoscales instead of having replicas',
    object: withChanges(NODE_POOL, { 'spec.replicas': undefined, 'spec.autoScaling': { min: 1, max: 5 } }),
  },
  {
    name: 'fails when both replicas and autoScaling are set',
    object: withChanges(NODE_POOL, { 'spec.autoScaling': { min: 1, max: 5 } }),
    rejects: 'Both replicas or autoScaling should not be set',
    at: 'spec',
  },
  {
    name: 'fails when autoScaling max is below min',
    object: withChanges(NODE_POOL, { 'spec.replicas': undefined, 'spec.autoScaling': { min: 4, max: 2 } }),
    rejects: 'max must be equal or greater than min',
    at: 'spec.autoScaling',
  },
  {
    name: 'passes when an AWS pool scales from zero',
    object: aws({ 'spec.replicas': undefined, 'spec.autoScaling': { min: 0, max: 3 } }),
  },
  {
    name: 'passes when an Azure pool scales from zero',
    object: azure({ 'spec.replicas': undefined, 'spec.autoScaling': { min: 0, max: 3 } }),
  },
  {
    name: 'fails when an Agent pool scales from zero',
    object: withChanges(NODE_POOL, { 'spec.replicas': undefined, 'spec.autoScaling': { min: 0, max: 3 } }),
    rejects: 'Scale-from-zero (autoScaling.min=0) is currently only supported for AWS and Azure platforms',
    at: 'spec',
  },
  {
    name: 'fails when autoScaling max is zero',
    object: aws({ 'spec.replicas': undefined, 'spec.autoScaling': { min: 0, max: 0 } }),
    rejects: 'Invalid value: must be greater than or equal to 1',
    at: 'spec.autoScaling.max',
  },
  { name: 'passes when an AWS pool runs Windows on amd64', object: aws({ 'spec.platform.aws.imageType': 'Windows' }) },
  {
    name: 'fails when an AWS pool runs Windows on arm64',
    object: aws({ 'spec.arch': 'arm64', 'spec.platform.aws.imageType': 'Windows' }),
    rejects: "ImageType 'Windows' requires arch 'amd64' (AWS only)",
    at: 'spec',
  },

  // clusterName, release, platform type.
  {
    name: 'fails when the cluster name changes after creation',
    object: withChanges(NODE_POOL, { 'spec.clusterName': 'vcluster3' }),
    previous: NODE_POOL,
    rejects: 'ClusterName is immutable',
    at: 'spec.clusterName',
  },
  {
    name: 'fails when the cluster name has upper-case letters',
    object: withChanges(NODE_POOL, { 'spec.clusterName': 'VCluster2' }),
    rejects: 'clusterName must consist of lowercase alphanumeric characters',
    at: 'spec.clusterName',
  },
  {
    name: 'fails when the cluster name ends with a hyphen',
    object: withChanges(NODE_POOL, { 'spec.clusterName': 'vcluster2-' }),
    rejects: 'clusterName must consist of lowercase alphanumeric characters',
    at: 'spec.clusterName',
  },
  {
    name: 'fails when the cluster name is missing',
    object: withChanges(NODE_POOL, { 'spec.clusterName': undefined }),
    rejects: 'Required value',
    at: 'spec.clusterName',
  },
  {
    name: 'fails when the release image starts with a space',
    object: withChanges(NODE_POOL, { 'spec.release.image': ' quay.io/openshift-release-dev/ocp-release:4.18.3-x86_64' }),
    rejects: 'Image must start with a word character',
    at: 'spec.release.image',
  },
  {
    name: 'fails when the release image has a space before its tag',
    object: withChanges(NODE_POOL, { 'spec.release.image': 'quay.io/openshift-release-dev/ocp-release: 4.18.3-x86_64' }),
    rejects: 'contain no white spaces',
    at: 'spec.release.image',
  },
  {
    name: 'passes when the release image is given by tag',
    object: withChanges(NODE_POOL, { 'spec.release.image': 'quay.io/openshift-release-dev/ocp-release:4.18.3-x86_64' }),
  },
  {
    name: 'fails when the platform type changes after creation',
    object: NONE_NODE_POOL,
    previous: NODE_POOL,
    rejects: 'Type is immutable',
    at: 'spec.platform.type',
  },
  {
    name: 'fails when the platform type is GCP, which only the CustomNoUpgrade feature set allows',
    object: withChanges(NODE_POOL, { 'spec.platform': { type: 'GCP' } }),
    rejects: 'Unsupported value: supported values: "AWS", "Azure", "IBMCloud", "KubeVirt", "Agent", "PowerVS", "None"',
    at: 'spec.platform.type',
  },

  // management.
  {
    name: 'passes when an in-place pool sets its maxUnavailable',
    object: withChanges(NODE_POOL, { 'spec.management.inPlace': { maxUnavailable: '25%' } }),
  },
  {
    name: 'fails when a replace pool sets inPlace options',
    object: withChanges(AWS_NODE_POOL, { 'spec.management.inPlace': { maxUnavailable: 1 } }),
    rejects: "The 'inPlace' field can only be set when 'upgradeType' is 'InPlace'",
    at: 'spec.management',
  },
  {
    name: 'passes when a replace pool rolls with a surge of one machine',
    object: aws({ 'spec.management.replace': { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '10%' } } }),
  },
  {
    name: 'passes when a replace pool replaces machines on delete',
    object: aws({ 'spec.management.replace': { strategy: 'OnDelete' } }),
  },
  {
    name: 'fails when an on-delete pool sets rollingUpdate',
    object: aws({ 'spec.management.replace': { strategy: 'OnDelete', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }),
    rejects: "The 'rollingUpdate' field can only be set when 'strategy' is 'RollingUpdate'",
    at: 'spec.management.replace',
  },
  {
    name: 'fails when the replace strategy is not known',
    object: aws({ 'spec.management.replace': { strategy: 'Recreate' } }),
    rejects: 'Unsupported value: supported values: "RollingUpdate", "OnDelete"',
    at: 'spec.management.replace.strategy',
  },
  {
    name: 'fails when the upgrade type changes after creation',
    object: withChanges(NODE_POOL, { 'spec.management.upgradeType': 'Replace' }),
    previous: NODE_POOL,
    rejects: 'UpgradeType is immutable',
    at: 'spec.management.upgradeType',
  },
  {
    name: 'fails when management has no upgrade type',
    object: withChanges(NODE_POOL, { 'spec.management': { autoRepair: true } }),
    rejects: 'Required value',
    at: 'spec.management.upgradeType',
  },

  // pausedUntil.
  { name: 'passes when the pool is paused until an RFC3339 time', object: withChanges(NODE_POOL, { 'spec.pausedUntil': '2026-03-01T08:00:00Z' }) },
  { name: 'passes when the pool is paused indefinitely', object: withChanges(NODE_POOL, { 'spec.pausedUntil': 'true' }) },
  {
    name: 'fails when pausedUntil is a date without a time',
    object: withChanges(NODE_POOL, { 'spec.pausedUntil': '2026-03-01' }),
    rejects: "PausedUntil must be a date in RFC3339 format or 'True', 'true', 'False' or 'false'",
    at: 'spec.pausedUntil',
  },
  {
    name: 'fails when pausedUntil is yes',
    object: withChanges(NODE_POOL, { 'spec.pausedUntil': 'yes' }),
    rejects: 'PausedUntil must be a date in RFC3339 format',
    at: 'spec.pausedUntil',
  },

  // taints.
  {
    name: 'passes when the pool taints its nodes with a prefixed key',
    object: withChanges(NODE_POOL, { 'spec.taints': [{ key: 'node-role.kubernetes.io/infra', value: 'reserved', effect: 'NoSchedule' }] }),
  },
  {
    name: 'fails when a taint key has a space',
    object: withChanges(NODE_POOL, { 'spec.taints': [{ key: 'dedicated to', value: 'infra', effect: 'NoSchedule' }] }),
    rejects: 'key must be a qualified name with an optional subdomain prefix',
    at: 'spec.taints[0].key',
  },
  {
    name: 'fails when a taint value ends with a hyphen',
    object: withChanges(NODE_POOL, { 'spec.taints': [{ key: 'dedicated', value: 'infra-', effect: 'NoExecute' }] }),
    rejects: "Value must start and end with alphanumeric characters and can only contain '-', '_', '.' in the middle",
    at: 'spec.taints[0].value',
  },
  {
    name: 'fails when a taint effect is not known',
    object: withChanges(NODE_POOL, { 'spec.taints': [{ key: 'dedicated', value: 'infra', effect: 'NoEvict' }] }),
    rejects: 'Unsupported value: supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
    at: 'spec.taints[0].effect',
  },

  // AWS: placement and capacity reservations.
  { name: 'passes when an AWS pool runs on dedicated instances', object: placement({ tenancy: 'dedicated' }) },
  { name: 'passes when an AWS pool runs on spot instances with a maximum price', object: placement({ marketType: 'Spot', tenancy: 'default', spot: { maxPrice: '0.25' } }) },
  {
    name: 'passes when an AWS pool uses a capacity block',
    object: placement({ marketType: 'CapacityBlocks', capacityReservation: { id: CR_ID, marketType: 'CapacityBlocks' } }),
  },
  {
    name: 'passes when an AWS pool runs only in capacity reservations',
    object: placement({ capacityReservation: { preference: 'CapacityReservationsOnly' } }),
  },
  {
    name: 'fails when a dedicated-host AWS pool uses a capacity reservation',
    object: placement({ tenancy: 'host', capacityReservation: { id: CR_ID } }),
    rejects: "AWS Capacity Reservations cannot be used with Dedicated Hosts (tenancy 'host')",
    at: 'spec.platform.aws.placement',
  },
  {
    name: 'fails when a spot AWS pool uses a capacity reservation',
    object: placement({ marketType: 'Spot', capacityReservation: { id: CR_ID } }),
    rejects: 'Spot instances cannot be combined with Capacity Reservations',
    at: 'spec.platform.aws.placement',
  },
  {
    name: 'fails when a spot AWS pool runs on dedicated instances',
    object: placement({ marketType: 'Spot', tenancy: 'dedicated' }),
    rejects: 'Spot instances require default tenancy or unset',
    at: 'spec.platform.aws.placement',
  },
  {
    name: 'fails when a capacity-block AWS pool names no capacity reservation',
    object: placement({ marketType: 'CapacityBlocks' }),
    rejects: 'CapacityBlocks market type requires capacityReservation to be specified',
    at: 'spec.platform.aws.placement',
  },
  {
    name: 'fails when an on-demand AWS pool sets spot options',
    object: placement({ marketType: 'OnDemand', spot: { maxPrice: '0.25' } }),
    rejects: "spot options can only be specified when marketType is 'Spot'",
    at: 'spec.platform.aws.placement',
  },
  {
    name: 'fails when the spot maximum price has a dollar sign',
    object: placement({ marketType: 'Spot', spot: { maxPrice: '$0.25' } }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.platform.aws.placement.spot.maxPrice',
  },
  {
    name: 'fails when a capacity reservation ID comes with the preference Open',
    object: placement({ capacityReservation: { id: CR_ID, preference: 'Open' } }),
    rejects: "AWS Capacity Reservation preference 'None' or 'Open' is incompatible with specifying a Capacity Reservation ID",
    at: 'spec.platform.aws.placement.capacityReservation',
  },
  {
    name: 'fails when a capacity-block reservation has no ID',
    object: placement({ capacityReservation: { marketType: 'CapacityBlocks', preference: 'CapacityReservationsOnly' } }),
    rejects: "AWS Capacity Reservation market type 'CapacityBlocks' requires a Capacity Reservation ID",
    at: 'spec.platform.aws.placement.capacityReservation',
  },
  {
    name: 'fails when a capacity reservation ID is too short',
    object: placement({ capacityReservation: { id: 'cr-0123456789' } }),
    rejects: "AWS Capacity Reservation ID must start with 'cr-' followed by 17 lowercase hexadecimal characters",
    at: 'spec.platform.aws.placement.capacityReservation.id',
  },
  {
    name: 'fails when a capacity reservation ID has upper-case hex digits',
    object: placement({ capacityReservation: { id: 'cr-0123456789ABCDEF0' } }),
    rejects: "AWS Capacity Reservation ID must start with 'cr-' followed by 17 lowercase hexadecimal characters",
    at: 'spec.platform.aws.placement.capacityReservation.id',
  },
  {
    name: 'fails when the AWS tenancy is not known',
    object: placement({ tenancy: 'shared' }),
    rejects: 'Unsupported value: supported values: "default", "dedicated", "host"',
    at: 'spec.platform.aws.placement.tenancy',
  },

  // AWS: tags, subnet, instance.
  {
    name: 'fails when an AWS resource tag key has a space',
    object: aws({ 'spec.platform.aws.resourceTags': [{ key: 'cost center', value: 'platform-eng' }] }),
    rejects: 'key must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[0].key',
  },
  {
    name: 'fails when an AWS resource tag value has a comma',
    object: aws({ 'spec.platform.aws.resourceTags': [{ key: 'owner', value: 'team-a,team-b' }] }),
    rejects: 'value must only contain letters, digits, and the characters _ . : / = + - @',
    at: 'spec.platform.aws.resourceTags[0].value',
  },
  {
    name: 'fails when an AWS resource tag has no value',
    object: aws({ 'spec.platform.aws.resourceTags': [{ key: 'owner' }] }),
    rejects: 'Required value',
    at: 'spec.platform.aws.resourceTags[0].value',
  },
  {
    name: 'passes when an AWS pool finds its subnet by tag filter',
    object: aws({ 'spec.platform.aws.subnet': { filters: [{ name: 'tag:Name', values: ['vcluster2-private-us-east-1a'] }] } }),
  },
  {
    name: 'fails when an AWS subnet has both an ID and filters',
    object: aws({ 'spec.platform.aws.subnet': { id: 'subnet-0a1b2c3d4e5f67890', filters: [{ name: 'tag:Name', values: ['vcluster2-private'] }] } }),
    rejects: 'subnet is invalid, a valid subnet id or filters must be set, but not both',
    at: 'spec.platform.aws.subnet',
  },
  {
    name: 'fails when an AWS subnet has an empty filter list',
    object: aws({ 'spec.platform.aws.subnet': { filters: [] } }),
    rejects: 'subnet is invalid, a valid subnet id or filters must be set, but not both',
    at: 'spec.platform.aws.subnet',
  },
  {
    name: 'fails when an AWS subnet ID does not start with subnet- and there are no filters',
    object: aws({ 'spec.platform.aws.subnet': { id: 'vpc-0a1b2c3d4e5f67890' } }),
    rejects: 'subnet is invalid, a valid subnet id or filters must be set, but not both',
    at: 'spec.platform.aws.subnet',
  },
  {
    name: 'fails when an AWS pool has no instance type',
    object: aws({ 'spec.platform.aws.instanceType': undefined }),
    rejects: 'Required value',
    at: 'spec.platform.aws.instanceType',
  },
  {
    name: 'fails when an AWS root volume is smaller than 8 GiB',
    object: aws({ 'spec.platform.aws.rootVolume': { size: 4, type: 'gp3' } }),
    rejects: 'Invalid value: must be greater than or equal to 8',
    at: 'spec.platform.aws.rootVolume.size',
  },

  // Azure: image.
  {
    name: 'passes when an Azure pool boots a marketplace image by generation only',
    object: azure({ 'spec.platform.azure.image': { type: 'AzureMarketplace', azureMarketplace: { imageGeneration: 'Gen1' } } }),
  },
  {
    name: 'passes when an Azure pool boots an image by ID',
    object: azure({ 'spec.platform.azure.image': { type: 'ImageID', imageID: `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Compute/images/rhcos-418` } }),
  },
  {
    name: 'fails when an Azure image of type ImageID has no imageID',
    object: azure({ 'spec.platform.azure.image': { type: 'ImageID' } }),
    rejects: 'imageID is required when type is ImageID, and forbidden otherwise',
    at: 'spec.platform.azure.image',
  },
  {
    name: 'fails when an Azure marketplace image also sets imageID',
    object: azure({ 'spec.platform.azure.image.imageID': 'rhcos-418' }),
    rejects: 'imageID is required when type is ImageID, and forbidden otherwise',
    at: 'spec.platform.azure.image',
  },
  {
    name: 'fails when an Azure image of type ImageID also sets azureMarketplace',
    object: azure({ 'spec.platform.azure.image.type': 'ImageID', 'spec.platform.azure.image.imageID': 'rhcos-418' }),
    rejects: 'azureMarketplace is forbidden when type is not AzureMarketplace',
    at: 'spec.platform.azure.image',
  },
  {
    name: 'fails when an Azure marketplace image sets publisher and offer but no sku or version',
    object: azure({ 'spec.platform.azure.image.azureMarketplace': { publisher: 'azureopenshift', offer: 'aro4' } }),
    rejects: 'publisher, offer, sku and version must either be all set, or all omitted',
    at: 'spec.platform.azure.image.azureMarketplace',
  },
  {
    name: 'fails when an Azure marketplace version is not x.y.z or latest',
    object: azure({ 'spec.platform.azure.image.azureMarketplace.version': '418' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.platform.azure.image.azureMarketplace.version',
  },

  // Azure: placement, diagnostics, VM size.
  {
    name: 'fails when the Azure availability zone is 4',
    object: azure({ 'spec.platform.azure.availabilityZone': '4' }),
    rejects: "failed rule: self in ['1', '2', '3']",
    at: 'spec.platform.azure.availabilityZone',
  },
  {
    name: 'passes when Azure boot diagnostics go to a user-managed storage account',
    object: azure({ 'spec.platform.azure.diagnostics': { storageAccountType: 'UserManaged', userManaged: { storageAccountURI: 'https://hcpdiag.blob.core.windows.net/' } } }),
  },
  {
    name: 'passes when Azure boot diagnostics are managed',
    object: azure({ 'spec.platform.azure.diagnostics': { storageAccountType: 'Managed' } }),
  },
  {
    name: 'fails when user-managed Azure diagnostics name no storage account',
    object: azure({ 'spec.platform.azure.diagnostics': { storageAccountType: 'UserManaged' } }),
    rejects: 'userManaged is required when storageAccountType is UserManaged, and forbidden otherwise',
    at: 'spec.platform.azure.diagnostics',
  },
  {
    name: 'fails when managed Azure diagnostics also name a storage account',
    object: azure({ 'spec.platform.azure.diagnostics': { storageAccountType: 'Managed', userManaged: { storageAccountURI: 'https://hcpdiag.blob.core.windows.net/' } } }),
    rejects: 'userManaged is required when storageAccountType is UserManaged, and forbidden otherwise',
    at: 'spec.platform.azure.diagnostics',
  },
  {
    name: 'fails when the Azure diagnostics storage account URI is plain http',
    object: azure({ 'spec.platform.azure.diagnostics': { storageAccountType: 'UserManaged', userManaged: { storageAccountURI: 'http://hcpdiag.blob.core.windows.net/' } } }),
    rejects: 'storageAccountURI must be a valid HTTPS URL',
    at: 'spec.platform.azure.diagnostics.userManaged.storageAccountURI',
  },
  {
    name: 'fails when the Azure VM size is written in lower case',
    object: azure({ 'spec.platform.azure.vmSize': 'standard_d4s_v3' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.platform.azure.vmSize',
  },

  // Azure: the OS disk encryption set ID.
  {
    name: 'fails when the Azure encryption set ID is a key vault ID',
    object: azure({ 'spec.platform.azure.osDisk.encryptionSetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.KeyVault/vaults/hcp-kv` }),
    rejects: 'encryptionSetID must be in the format `/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Compute/diskEncryptionSets/{resourceName}`',
    at: 'spec.platform.azure.osDisk.encryptionSetID',
  },
  {
    name: 'fails when the subscription in the Azure encryption set ID is not a UUID',
    object: azure({ 'spec.platform.azure.osDisk.encryptionSetID': '/subscriptions/my-subscription/resourceGroups/hcp-rg/providers/Microsoft.Compute/diskEncryptionSets/hcp-des' }),
    rejects: 'the subscriptionId in the encryptionSetID must be a valid UUID',
    at: 'spec.platform.azure.osDisk.encryptionSetID',
  },
  {
    name: 'fails when the resource group in the Azure encryption set ID is empty',
    object: azure({ 'spec.platform.azure.osDisk.encryptionSetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups//providers/Microsoft.Compute/diskEncryptionSets/hcp-des` }),
    rejects: 'The resourceGroupName should be between 1 and 90 characters',
    at: 'spec.platform.azure.osDisk.encryptionSetID',
  },
  {
    name: 'fails when the resource group in the Azure encryption set ID ends with a period',
    object: azure({ 'spec.platform.azure.osDisk.encryptionSetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg./providers/Microsoft.Compute/diskEncryptionSets/hcp-des` }),
    rejects: 'the resourceGroupName in the encryptionSetID must not end with a period (.) character',
    at: 'spec.platform.azure.osDisk.encryptionSetID',
  },
  {
    name: 'fails when the Azure encryption set ID has no set name',
    object: azure({ 'spec.platform.azure.osDisk.encryptionSetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Compute/diskEncryptionSets/` }),
    rejects: 'The resourceName should be between 1 and 80 characters',
    at: 'spec.platform.azure.osDisk.encryptionSetID',
  },
  {
    name: 'fails when the Azure OS disk is smaller than 16 GiB',
    object: azure({ 'spec.platform.azure.osDisk.sizeGiB': 8 }),
    rejects: 'Invalid value: must be greater than or equal to 16',
    at: 'spec.platform.azure.osDisk.sizeGiB',
  },

  // Azure: the subnet ID.
  {
    name: 'fails when the Azure subnet ID is a virtual network ID',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet` }),
    rejects: 'must be in the format `/subscriptions/{subscriptionId}/resourceGroups/{resourceGroupName}/providers/Microsoft.Network/virtualNetworks/{vnetName}/subnets/{subnetName}`',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subscription in the Azure subnet ID is not a UUID',
    object: azure({ 'spec.platform.azure.subnetID': '/subscriptions/5d6e7f80-1a2b-4c3d-9e8f/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/workers' }),
    rejects: 'the subscriptionId in the encryptionSetID must be a valid UUID',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the resource group in the Azure subnet ID is empty',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups//providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/workers` }),
    rejects: 'The resourceGroupName should be between 1 and 90 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the resource group in the Azure subnet ID ends with a period',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg./providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/workers` }),
    rejects: 'the resourceGroupName in the subnetID must not end with a period (.) character',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the virtual network name in the Azure subnet ID is one character',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/v/subnets/workers` }),
    rejects: 'The vnetName should be between 2 and 64 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the virtual network name in the Azure subnet ID ends with a hyphen',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet-/subnets/workers` }),
    rejects: 'the vnetName in the subnetID must not end with either a period (.) or hyphen (-) character',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet name in the Azure subnet ID is empty',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/` }),
    rejects: 'The subnetName should be between 1 and 80 characters',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the subnet name in the Azure subnet ID ends with a period',
    object: azure({ 'spec.platform.azure.subnetID': `/subscriptions/${SUBSCRIPTION}/resourceGroups/hcp-rg/providers/Microsoft.Network/virtualNetworks/hcp-vnet/subnets/workers.` }),
    rejects: 'the subnetName in the subnetID must not end with a period (.) or hyphen (-) character',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'fails when the Azure subnet ID changes after creation',
    object: azure({ 'spec.platform.azure.subnetID': AZURE_SUBNET_ID.replace(/workers$/, 'workers-b') }),
    previous: AZURE_NODE_POOL,
    rejects: 'SubnetID is immutable',
    at: 'spec.platform.azure.subnetID',
  },
  {
    name: 'passes when an Azure pool is updated with the same subnet ID',
    object: azure({ 'spec.replicas': 3 }),
    previous: AZURE_NODE_POOL,
  },

  // KubeVirt.
  {
    name: 'fails when the KubeVirt memory is not a quantity',
    object: withChanges(KUBEVIRT_NODE_POOL, { 'spec.platform.kubevirt.compute.memory': '16 GB' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.platform.kubevirt.compute.memory',
  },
  {
    name: 'fails when a KubeVirt root volume access mode is not known',
    object: withChanges(KUBEVIRT_NODE_POOL, { 'spec.platform.kubevirt.rootVolume.persistent.accessModes': ['ReadWriteAll'] }),
    rejects: 'Unsupported value: supported values: "ReadWriteOnce", "ReadWriteMany", "ReadOnly", "ReadWriteOncePod"',
    at: 'spec.platform.kubevirt.rootVolume.persistent.accessModes[0]',
  },

  // status, as the NodePool controller writes it through the status subresource.
  {
    name: 'fails when the status reports a kubelet version without a patch number',
    object: withChanges(KUBEVIRT_WITH_STATUS, { 'status.nodesInfo.nodeVersions[0].kubeletVersion': 'v1.31' }),
    rejects: "kubeletVersion must start with semantic version prefix x.y.z (optional leading 'v')",
    at: 'status.nodesInfo.nodeVersions[0].kubeletVersion',
  },
  {
    name: 'fails when the status reports an OpenShift version with a leading v',
    object: withChanges(KUBEVIRT_WITH_STATUS, { 'status.nodesInfo.nodeVersions[0].ocpVersion': 'v4.18.3' }),
    rejects: 'ocpVersion must start with semantic version prefix x.y.z',
    at: 'status.nodesInfo.nodeVersions[0].ocpVersion',
  },
  {
    name: 'passes when the status keeps its KubeVirt credentials on update',
    object: withChanges(KUBEVIRT_WITH_STATUS, { 'status.replicas': 3 }),
    previous: KUBEVIRT_WITH_STATUS,
  },
  {
    name: 'fails when the status changes the KubeVirt infra kubeconfig secret',
    object: withChanges(KUBEVIRT_WITH_STATUS, { 'status.platform.kubeVirt.credentials.infraKubeConfigSecret.name': 'infra-kubeconfig-2' }),
    previous: KUBEVIRT_WITH_STATUS,
    rejects: 'infraKubeConfigSecret is immutable',
    at: 'status.platform.kubeVirt.credentials.infraKubeConfigSecret',
  },
  {
    name: 'fails when the status changes the KubeVirt infra namespace',
    object: withChanges(KUBEVIRT_WITH_STATUS, { 'status.platform.kubeVirt.credentials.infraNamespace': 'vm-guests-2' }),
    previous: KUBEVIRT_WITH_STATUS,
    rejects: 'infraNamespace is immutable',
    at: 'status.platform.kubeVirt.credentials.infraNamespace',
  },
];
