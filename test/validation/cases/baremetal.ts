// Bare-metal inventory cases: InfraEnv, NMStateConfig and BareMetalHost objects as an Agent
// HostedCluster's hardware namespace holds them, one valid base each and objects their schemas reject.
import { ObjectCase, withChanges } from '../object-cases';

const NAMESPACE = 'hardware-inventory';
const INFRAENV_LABEL = 'infraenvs.agent-install.openshift.io';

/** The discovery environment the hosts of vcluster2 boot from. */
const INFRA_ENV = {
  apiVersion: 'agent-install.openshift.io/v1beta1',
  kind: 'InfraEnv',
  metadata: { name: 'vcluster2', namespace: NAMESPACE },
  spec: {
    pullSecretRef: { name: 'pull-secret' },
    sshAuthorizedKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx0a2V5Zm9ydGVzdGluZ29ubHlub3RyZWFsMTIzNDU2 admin@example.com',
    nmStateConfigLabelSelector: { matchLabels: { [INFRAENV_LABEL]: 'vcluster2' } },
    cpuArchitecture: 'x86_64',
    agentLabels: { pool: 'vcluster2' },
    additionalNTPSources: ['clock.example.com'],
    kernelArguments: [{ operation: 'append', value: 'rd.net.timeout.carrier=60' }],
    networkDiscoveryDelaySeconds: 30,
  },
};

/** The static network of worker-0's discovery boot. */
const NMSTATE_CONFIG = {
  apiVersion: 'agent-install.openshift.io/v1beta1',
  kind: 'NMStateConfig',
  metadata: { name: 'worker-0', namespace: NAMESPACE, labels: { [INFRAENV_LABEL]: 'vcluster2' } },
  spec: {
    config: {
      'interfaces': [
        {
          'name': 'eno1',
          'type': 'ethernet',
          'state': 'up',
          'mac-address': 'AC:1F:6B:2D:3E:4F',
          'ipv4': { enabled: true, dhcp: false, address: [{ 'ip': '192.168.111.20', 'prefix-length': 24 }] },
          'ipv6': { enabled: false },
        },
      ],
      'dns-resolver': { config: { server: ['192.168.111.1'] } },
      'routes': { config: [{ 'destination': '0.0.0.0/0', 'next-hop-address': '192.168.111.1', 'next-hop-interface': 'eno1', 'table-id': 254 }] },
    },
    interfaces: [{ name: 'eno1', macAddress: 'AC:1F:6B:2D:3E:4F' }],
  },
};

/** worker-0, booted through its BMC's Redfish virtual media into the InfraEnv's discovery image. */
const BARE_METAL_HOST = {
  apiVersion: 'metal3.io/v1alpha1',
  kind: 'BareMetalHost',
  metadata: {
    name: 'worker-0',
    namespace: NAMESPACE,
    labels: { [INFRAENV_LABEL]: 'vcluster2' },
    annotations: { 'inspect.metal3.io': 'disabled', 'bmac.agent-install.openshift.io/hostname': 'worker-0' },
  },
  spec: {
    online: true,
    bootMACAddress: 'ac:1f:6b:2d:3e:4f',
    bootMode: 'UEFI',
    automatedCleaningMode: 'disabled',
    bmc: {
      address: 'redfish-virtualmedia://10.0.0.10/redfish/v1/Systems/1',
      credentialsName: 'worker-0-bmc-secret',
      disableCertificateVerification: true,
    },
    rootDeviceHints: { deviceName: '/dev/sda', minSizeGigabytes: 120 },
  },
};

const infraEnv = (changes: Record<string, unknown>) => withChanges(INFRA_ENV, changes);
const nmState = (changes: Record<string, unknown>) => withChanges(NMSTATE_CONFIG, changes);
const host = (changes: Record<string, unknown>) => withChanges(BARE_METAL_HOST, changes);

export const CASES: ObjectCase[] = [
  // InfraEnv.
  { name: 'passes when an infra env names its pull secret, SSH key and NMState label', object: INFRA_ENV },
  {
    name: 'fails when an infra env has no pull secret reference',
    object: infraEnv({ 'spec.pullSecretRef': undefined }),
    rejects: 'Required value',
    at: 'spec.pullSecretRef',
  },
  {
    name: 'fails when an infra env calls the SSH key sshKey',
    object: infraEnv({ 'spec.sshAuthorizedKey': undefined, 'spec.sshKey': INFRA_ENV.spec.sshAuthorizedKey }),
    rejects: 'unknown field "spec.sshKey"',
    at: 'spec.sshKey',
  },
  {
    name: 'fails when the iPXE script type is not known',
    object: infraEnv({ 'spec.ipxeScriptType': 'Always' }),
    rejects: 'Unsupported value: supported values: "", "DiscoveryImageAlways", "BootOrderControl"',
    at: 'spec.ipxeScriptType',
  },
  {
    name: 'fails when a kernel argument operation is add',
    object: infraEnv({ 'spec.kernelArguments': [{ operation: 'add', value: 'rd.net.timeout.carrier=60' }] }),
    rejects: 'Unsupported value: supported values: "append", "replace", "delete"',
    at: 'spec.kernelArguments[0].operation',
  },
  {
    name: 'fails when a kernel argument holds two arguments separated by a space',
    object: infraEnv({ 'spec.kernelArguments': [{ operation: 'append', value: 'console=ttyS0 rd.net.timeout.carrier=60' }] }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.kernelArguments[0].value',
  },
  {
    name: 'fails when the network discovery delay is negative',
    object: infraEnv({ 'spec.networkDiscoveryDelaySeconds': -30 }),
    rejects: 'Invalid value: must be greater than or equal to 0',
    at: 'spec.networkDiscoveryDelaySeconds',
  },
  {
    name: 'fails when the network discovery delay is a string',
    object: infraEnv({ 'spec.networkDiscoveryDelaySeconds': '30s' }),
    rejects: 'Invalid value: must be of type integer, got string',
    at: 'spec.networkDiscoveryDelaySeconds',
  },
  {
    name: 'fails when the mirror registry reference has no namespace',
    object: infraEnv({ 'spec.mirrorRegistryRef': { name: 'mirror-registry-config' } }),
    rejects: 'Required value',
    at: 'spec.mirrorRegistryRef.namespace',
  },
  {
    name: 'fails when the NMState label selector expression has no operator',
    object: infraEnv({ 'spec.nmStateConfigLabelSelector': { matchExpressions: [{ key: INFRAENV_LABEL, values: ['vcluster2'] }] } }),
    rejects: 'Required value',
    at: 'spec.nmStateConfigLabelSelector.matchExpressions[0].operator',
  },
  {
    name: 'fails when agent auto-approval is the string yes',
    object: infraEnv({ 'spec.agentApproval': { autoApprove: 'yes' } }),
    rejects: 'Invalid value: must be of type boolean, got string',
    at: 'spec.agentApproval.autoApprove',
  },
  {
    name: 'fails when the NTP sources are one comma-separated string',
    object: infraEnv({ 'spec.additionalNTPSources': 'clock1.example.com,clock2.example.com' }),
    rejects: 'Invalid value: must be of type array, got string',
    at: 'spec.additionalNTPSources',
  },

  // NMStateConfig.
  { name: 'passes when an NMState config gives a static address for one interface', object: NMSTATE_CONFIG },
  {
    name: 'fails when an NMState interface MAC address uses hyphens',
    object: nmState({ 'spec.interfaces': [{ name: 'eno1', macAddress: 'AC-1F-6B-2D-3E-4F' }] }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.interfaces[0].macAddress',
  },
  {
    name: 'fails when an NMState interface has no name',
    object: nmState({ 'spec.interfaces': [{ macAddress: 'AC:1F:6B:2D:3E:4F' }] }),
    rejects: 'Required value',
    at: 'spec.interfaces[0].name',
  },
  {
    name: 'fails when an NMState config maps no interfaces',
    object: nmState({ 'spec.interfaces': [] }),
    rejects: 'Invalid value: must have at least 1 items',
    at: 'spec.interfaces',
  },
  {
    name: 'fails when an NMState interface calls the MAC address mac-address',
    object: nmState({ 'spec.interfaces': [{ 'name': 'eno1', 'mac-address': 'AC:1F:6B:2D:3E:4F' }] }),
    rejects: 'unknown field "spec.interfaces[0].mac-address"',
    at: 'spec.interfaces[0].mac-address',
  },

  // BareMetalHost.
  { name: 'passes when a bare-metal host boots through Redfish virtual media', object: BARE_METAL_HOST },
  {
    name: 'passes when a bare-metal host mirrors its root disk with software RAID',
    object: host({
      'spec.raid': { softwareRAIDVolumes: [{ level: '1', physicalDisks: [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }] }] },
      'spec.rootDeviceHints': undefined,
    }),
  },
  {
    name: 'fails when a bare-metal host does not say whether it is online',
    object: host({ 'spec.online': undefined }),
    rejects: 'Required value',
    at: 'spec.online',
  },
  {
    name: 'fails when online is the string true',
    object: host({ 'spec.online': 'true' }),
    rejects: 'Invalid value: must be of type boolean, got string',
    at: 'spec.online',
  },
  {
    name: 'fails when the BMC has no credentials secret',
    object: host({ 'spec.bmc.credentialsName': undefined }),
    rejects: 'Required value',
    at: 'spec.bmc.credentialsName',
  },
  {
    name: 'fails when the BMC user name is written into the host',
    object: host({ 'spec.bmc.username': 'root' }),
    rejects: 'unknown field "spec.bmc.username"',
    at: 'spec.bmc.username',
  },
  {
    name: 'fails when the boot MAC address uses hyphens',
    object: host({ 'spec.bootMACAddress': 'ac-1f-6b-2d-3e-4f' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.bootMACAddress',
  },
  {
    name: 'fails when the boot mode is lower-case uefi',
    object: host({ 'spec.bootMode': 'uefi' }),
    rejects: 'Unsupported value: supported values: "UEFI", "UEFISecureBoot", "legacy"',
    at: 'spec.bootMode',
  },
  {
    name: 'fails when automated cleaning is enabled rather than metadata',
    object: host({ 'spec.automatedCleaningMode': 'enabled' }),
    rejects: 'Unsupported value: supported values: "metadata", "disabled"',
    at: 'spec.automatedCleaningMode',
  },
  {
    name: 'fails when the root device hint size is negative',
    object: host({ 'spec.rootDeviceHints.minSizeGigabytes': -1 }),
    rejects: 'Invalid value: must be greater than or equal to 0',
    at: 'spec.rootDeviceHints.minSizeGigabytes',
  },
  {
    name: 'fails when the root device hint size has a unit',
    object: host({ 'spec.rootDeviceHints.minSizeGigabytes': '120Gi' }),
    rejects: 'Invalid value: must be of type integer, got string',
    at: 'spec.rootDeviceHints.minSizeGigabytes',
  },
  {
    name: 'fails when the image format is iso',
    object: host({ 'spec.image': { url: 'http://10.0.0.5/images/rhcos-live.x86_64.iso', format: 'iso' } }),
    rejects: 'Unsupported value: supported values: "raw", "qcow2", "vdi", "vmdk", "live-iso"',
    at: 'spec.image.format',
  },
  {
    name: 'fails when the image has a checksum but no URL',
    object: host({ 'spec.image': { checksum: 'http://10.0.0.5/images/rhcos.qcow2.sha256sum', checksumType: 'sha256' } }),
    rejects: 'Required value',
    at: 'spec.image.url',
  },
  {
    name: 'fails when a software RAID volume has level 5',
    object: host({ 'spec.raid': { softwareRAIDVolumes: [{ level: '5', physicalDisks: [{ deviceName: '/dev/sda' }, { deviceName: '/dev/sdb' }, { deviceName: '/dev/sdc' }] }] } }),
    rejects: 'Unsupported value: supported values: "0", "1", "1+0"',
    at: 'spec.raid.softwareRAIDVolumes[0].level',
  },
  {
    name: 'fails when a software RAID mirror has one disk',
    object: host({ 'spec.raid': { softwareRAIDVolumes: [{ level: '1', physicalDisks: [{ deviceName: '/dev/sda' }] }] } }),
    rejects: 'Invalid value: must have at least 2 items',
    at: 'spec.raid.softwareRAIDVolumes[0].physicalDisks',
  },
  {
    name: 'fails when a host has three software RAID volumes',
    object: host({
      'spec.raid': {
        softwareRAIDVolumes: ['sda', 'sdb', 'sdc'].map((disk) => ({ level: '1', physicalDisks: [{ deviceName: `/dev/${disk}1` }, { deviceName: `/dev/${disk}2` }] })),
      },
    }),
    rejects: 'Too many: 3: must have at most 2 items',
    at: 'spec.raid.softwareRAIDVolumes',
  },
  {
    name: 'fails when a host taint was added at a time that is not RFC3339',
    object: host({ 'spec.taints': [{ key: 'maintenance', effect: 'NoSchedule', timeAdded: '2026-03-01 08:00' }] }),
    rejects: 'Invalid value: must be a valid date-time',
    at: 'spec.taints[0].timeAdded',
  },
  {
    name: 'fails when a network interface name has a space',
    object: host({ 'spec.networkInterfaces': [{ name: 'eno 1', macAddress: 'ac:1f:6b:2d:3e:4f' }] }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.networkInterfaces[0].name',
  },
  {
    name: 'fails when the host name has upper-case letters',
    object: host({ 'metadata.name': 'Worker-0' }),
    rejects: 'Invalid value: must be a DNS-1123 subdomain',
    at: 'metadata.name',
  },
];
