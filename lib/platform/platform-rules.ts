import { PlatformType } from './platform-type';

/**
 * What HyperShift's controllers need of a HostedCluster and its NodePools on one platform, beyond
 * what the CRD checks: HostedCluster and NodePool (at synth) and the lint of hand-written objects
 * (`hcp-cdk validate`) read them here, so that no file outside platform/ switches on a platform name.
 */
export interface PlatformRules {
  /** The block of `spec.platform` a HostedCluster of this type needs (its CRD leaves it optional). @default - none */
  readonly clusterBlock?: string;
  /** The block of `spec.platform` a NodePool of this type needs. @default - none */
  readonly poolBlock?: string;
  /** The control-plane operator can serve the API server through a Route with a hostname. */
  readonly apiServerRoute: boolean;
  /** Node pools may autoscale from zero (`autoScaling.min` 0). */
  readonly scaleFromZero: boolean;
}

const RULES: Readonly<Record<PlatformType, PlatformRules>> = {
  [PlatformType.AWS]: { clusterBlock: 'aws', poolBlock: 'aws', apiServerRoute: true, scaleFromZero: true },
  [PlatformType.AGENT]: { clusterBlock: 'agent', apiServerRoute: false, scaleFromZero: false },
  [PlatformType.KUBEVIRT]: { apiServerRoute: false, scaleFromZero: false },
  [PlatformType.NONE]: { apiServerRoute: false, scaleFromZero: false },
};

/** The rules of a platform hcp-cdk models, or undefined for another (Azure, IBM Cloud, ...): nothing is assumed of it. */
export function platformRules(type: unknown): PlatformRules | undefined {
  return typeof type === 'string' && Object.prototype.hasOwnProperty.call(RULES, type) ? RULES[type as PlatformType] : undefined;
}
