/** The platforms hcp-cdk models (`spec.platform.type`). */
export enum PlatformType {
  AGENT = 'Agent',
  KUBEVIRT = 'KubeVirt',
  AWS = 'AWS',
  NONE = 'None',
}
