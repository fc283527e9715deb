import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';

export interface GuestClusterProps extends ChartProps {
  /** The `metadata.name` of the hosted cluster these objects are applied to. */
  readonly clusterName: string;
}

/**
 * Objects applied inside a hosted cluster (with its admin kubeconfig), not on the management
 * cluster: MetalLB ingress, guest operators. Written to `<outdir>/<cluster>-guest/`, a folder of
 * its own, so that `oc apply -R` of the management folder never reaches into a guest.
 * Get it from `HostedCluster.guest`.
 */
export class GuestCluster extends Chart {
  public readonly clusterName: string;

  constructor(scope: Construct, id: string, props: GuestClusterProps) {
    super(scope, id, props);
    this.clusterName = props.clusterName;
  }
}
