// Props the unit tests share: a valid cluster per platform, which each test varies by one field.
import { IConstruct } from 'constructs';
import { ClusterPlatform, HcpApp, HostedCluster, HostedClusterProps, IClusterPlatform, ManagementCluster, Release, SecretSource } from '../lib';
import { synthObjects } from './util';

export const RELEASE = Release.fromVersion('4.17.0');
export const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHcp0ynd7Wt5Nq8SYBTUWlnnwA4hNx6m6N8NbEhDZLN3 lab@example';
export const PULL_SECRET_JSON = '{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}';
export const API_SERVER_ADDRESS = '192.0.2.10';

export const AWS_PLATFORM = {
  region: 'us-east-1',
  vpcId: 'vpc-0123456789abcdef0',
  defaultSubnet: { id: 'subnet-0123456789abcdef0', zone: 'us-east-1a' },
  roles: {
    ingressArn: 'arn:aws:iam::123456789012:role/c1-openshift-ingress',
    imageRegistryArn: 'arn:aws:iam::123456789012:role/c1-openshift-image-registry',
    storageArn: 'arn:aws:iam::123456789012:role/c1-aws-ebs-csi-driver-controller',
    networkArn: 'arn:aws:iam::123456789012:role/c1-cloud-network-config-controller',
    kubeCloudControllerArn: 'arn:aws:iam::123456789012:role/c1-cloud-controller',
    nodePoolManagementArn: 'arn:aws:iam::123456789012:role/c1-node-pool',
    controlPlaneOperatorArn: 'arn:aws:iam::123456789012:role/c1-control-plane-operator',
  },
};

/** A valid cluster on each platform; AWS also needs its base domain. */
export const PLATFORMS: Record<string, () => { platform: IClusterPlatform; baseDomain?: string }> = {
  agent: () => ({ platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: API_SERVER_ADDRESS }) }),
  kubevirt: () => ({ platform: ClusterPlatform.kubevirt() }),
  aws: () => ({ platform: ClusterPlatform.aws(AWS_PLATFORM), baseDomain: 'example.org' }),
  none: () => ({ platform: ClusterPlatform.none({ apiServerAddress: API_SERVER_ADDRESS }) }),
};

/** The smallest valid agent cluster, overridden by `props`. */
export function clusterProps(props: Partial<HostedClusterProps> = {}): HostedClusterProps {
  return {
    release: RELEASE,
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    ...PLATFORMS.agent(),
    ...props,
  };
}

/** A cluster `c1` in chart `hub` of a fresh app. */
export function newCluster(props: Partial<HostedClusterProps> = {}, app = new HcpApp({ outdir: '/nonexistent' }), hub = new ManagementCluster(app, 'hub')): HostedCluster {
  return new HostedCluster(hub, 'c1', clusterProps(props));
}

/** Synthesizes the app `construct` belongs to. */
export function synthAppOf(construct: IConstruct): any[] {
  return synthObjects(construct.node.root as HcpApp);
}
