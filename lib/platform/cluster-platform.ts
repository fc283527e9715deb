import { Construct } from 'constructs';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import type { Problems } from '../core/problems';
import { ServicePublishingMap } from '../core/service-publishing';
import { AgentClusterPlatform, AgentClusterPlatformProps } from './agent';
import { AwsClusterPlatform, AwsClusterPlatformProps } from './aws';
import { KubevirtClusterPlatform, KubevirtClusterPlatformProps } from './kubevirt';
import { NoneClusterPlatform, NoneClusterPlatformProps } from './none';
import { PlatformType } from './platform-type';

/** What a platform knows about the cluster it is bound to. */
export interface ClusterPlatformContext {
  /** The HostedCluster construct, under which the platform writes its Secrets. */
  readonly scope: Construct;
  /** `metadata.name` of the HostedCluster. */
  readonly clusterName: string;
  /** The HostedCluster's namespace. */
  readonly namespace: string;
  /** Labels for Secrets the platform creates next to the cluster. */
  readonly secretLabels: Record<string, string>;
  /** The base domain the user gave, if any (KubeVirt derives one from the management cluster otherwise). */
  readonly baseDomain?: string;
  /** Where the platform records problems with its own props, by field under `platform.`. */
  readonly problems: Problems;
}

/** What a platform contributes to the HostedCluster. */
export interface ClusterPlatformConfig {
  /** `spec.platform`. */
  readonly platform: hc.HostedClusterSpecPlatform;
  /** Publishing used for services the user did not set. */
  readonly defaultServices?: ServicePublishingMap;
  /** Used when the user gives no base domain; `undefined` means the user must give one, unless `baseDomainPassthrough`. */
  readonly defaultBaseDomain?: string;
  /**
   * Without a base domain the cluster's DNS names come from the management cluster's ingress
   * domain (KubeVirt's base-domain passthrough), so none is required.
   * @default false
   */
  readonly baseDomainPassthrough?: boolean;
  /**
   * The control-plane operator of this platform can serve the API server through a Route with
   * a hostname (external DNS); elsewhere only NodePort and LoadBalancer work.
   * @default false
   */
  readonly apiServerRoute?: boolean;
  /** DNS fields beyond the base domain (zone IDs on AWS). */
  readonly dns?: Omit<hc.HostedClusterSpecDns, 'baseDomain'>;
  /** The etcd storage class when the cluster names none. @default - the management cluster's default */
  readonly defaultEtcdStorageClass?: string;
  /** `spec.issuerURL`. @default - HyperShift's own */
  readonly issuerUrl?: string;
  /** The machine network, when the platform knows it (the VPC's CIDR). @default - none */
  readonly machineNetwork?: readonly string[];
  /** `spec.secretEncryption`, when the platform encrypts etcd (KMS). @default - the cluster's own */
  readonly secretEncryption?: hc.HostedClusterSpecSecretEncryption;
}

/** The platform half of a HostedCluster. Implemented by the classes `ClusterPlatform` returns. */
export interface IClusterPlatform {
  /** The platform's type. */
  readonly type: PlatformType;
  /** The node-pool subnet used when a pool names none (AWS). */
  readonly defaultSubnetId?: string;
  /** The infra ID the platform's cloud resources were made for (AWS), the cluster's default. */
  readonly infraId?: string;
  /** Called once by the HostedCluster; may add objects (e.g. credentials Secrets) under `context.scope`. */
  bind(context: ClusterPlatformContext): ClusterPlatformConfig;
}

/** Where the hosted cluster's nodes run. */
export class ClusterPlatform {
  /** Bare metal or any host booted from an InfraEnv and approved as an Agent. */
  public static agent(props: AgentClusterPlatformProps): IClusterPlatform {
    return new AgentClusterPlatform(props);
  }

  /** Nodes are KubeVirt virtual machines on the management (or an external) cluster. */
  public static kubevirt(props: KubevirtClusterPlatformProps = {}): IClusterPlatform {
    return new KubevirtClusterPlatform(props);
  }

  /** Nodes are EC2 instances in a VPC of your AWS account. */
  public static aws(props: AwsClusterPlatformProps): IClusterPlatform {
    return new AwsClusterPlatform(props);
  }

  /** No platform integration: you provision and join the nodes yourself. */
  public static none(props: NoneClusterPlatformProps = {}): IClusterPlatform {
    return new NoneClusterPlatform(props);
  }
}
