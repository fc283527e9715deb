// A realistic fleet for the benchmarks: `size` hosted clusters over two management clusters, in
// turn Agent (4 bare-metal hosts, 2 node pools, MetalLB ingress), KubeVirt (2 node pools) and AWS
// (3 zones, 3 node pools). Every name, MAC address, BMC path and network is unique.
import { FleetClusterSpec, FleetInventory } from '../lib';

const RELEASE = 'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa';

function mac(n: number): string {
  return ['02', '00', ...[24, 16, 8, 0].map((shift) => ((n >> shift) & 255).toString(16).padStart(2, '0'))].join(':');
}

function agentCluster(name: string, index: number): FleetClusterSpec {
  const net = `100.${64 + (index >> 8)}.${index & 255}`;
  return {
    name,
    platform: 'Agent',
    networking: { machineNetwork: [`${net}.0/24`] },
    agent: {
      agentNamespace: `hw-${name}`,
      apiServerAddress: `api.${name}.fleet.example.com`,
      hosts: [0, 1, 2, 3].map((h) => ({
        name: `${name}-host-${h}`,
        bmcAddress: `redfish-virtualmedia://192.0.2.1:9000/redfish/v1/Systems/${name}-${h}`,
        bmcCredentialsSecret: `${name}-host-${h}-bmc`,
        bootMacAddress: mac(index * 4 + h),
      })),
      ingressAddresses: [`${net}.200`],
    },
    nodePools: [
      { name: 'workers', replicas: 2 },
      { name: 'spare', replicas: 1 },
    ],
  };
}

function kubevirtCluster(name: string): FleetClusterSpec {
  return {
    name,
    platform: 'KubeVirt',
    nodePools: [
      { name: 'small', replicas: 2 },
      { name: 'large', replicas: 1, cores: 8, memoryGiB: 32 },
    ],
  };
}

function awsCluster(name: string, index: number): FleetClusterSpec {
  const infraId = `${name}-${index.toString(36).padStart(5, '0')}`;
  const role = (component: string) => `arn:aws:iam::123456789012:role/${infraId}-${component}`;
  const zones = ['us-east-1a', 'us-east-1b', 'us-east-1c'];
  return {
    name,
    platform: 'AWS',
    aws: {
      infra: {
        infraId,
        region: 'us-east-1',
        issuerUrl: `https://fleet-oidc.s3.us-east-1.amazonaws.com/${infraId}`,
        vpcId: `vpc-${index.toString(16).padStart(17, '0')}`,
        machineCidr: '10.0.0.0/16',
        zones: zones.map((zone, z) => ({ name: zone, subnetId: `subnet-${(index * 3 + z).toString(16).padStart(17, '0')}` })),
        publicZoneId: 'Z0FLEETPUBLIC',
        privateZoneId: `Z${index.toString(16).toUpperCase().padStart(12, '0')}`,
        roles: {
          ingressArn: role('openshift-ingress'),
          imageRegistryArn: role('openshift-image-registry'),
          storageArn: role('aws-ebs-csi-driver-controller'),
          networkArn: role('cloud-network-config-controller'),
          kubeCloudControllerArn: role('cloud-controller'),
          nodePoolManagementArn: role('node-pool'),
          controlPlaneOperatorArn: role('control-plane-operator'),
        },
        instanceProfileName: `${infraId}-worker`,
      },
    },
    nodePools: zones.map((zone) => ({ name: zone, zone, replicas: 1 })),
  };
}

export function fleetInventory(size: number): FleetInventory {
  const hubs: FleetClusterSpec[][] = [[], []];
  for (let i = 0; i < size; i++) {
    const name = `c${String(i).padStart(5, '0')}`;
    const kind = i % 3;
    hubs[i % 2].push(kind === 0 ? agentCluster(name, i) : kind === 1 ? kubevirtCluster(name) : awsCluster(name, i));
  }
  return {
    defaults: {
      releaseImage: RELEASE,
      releaseVersion: '4.17.0',
      baseDomain: 'fleet.example.com',
      sshPublicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 fleet@example',
    },
    managementClusters: hubs.map((clusters, h) => ({ name: `hub-${h}`, clusters })),
  };
}
