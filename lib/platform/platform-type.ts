/** The platforms hcp-cdk models (`spec.platform.type`). */
export enum PlatformType {
  /** Bare-metal hosts through the assisted installer's Agents. */
  AGENT = 'Agent',
  /** Virtual machines of OpenShift Virtualization. */
  KUBEVIRT = 'KubeVirt',
  /** Amazon Web Services. */
  AWS = 'AWS',
  /** No platform integration: nodes are added by hand. */
  NONE = 'None',
}
