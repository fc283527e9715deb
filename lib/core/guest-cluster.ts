import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import type { IHostedCluster } from './hosted-cluster';

export interface GuestClusterProps extends ChartProps {
  /** The hosted cluster these objects are applied to. */
  readonly cluster: IHostedCluster;
}

/**
 * Objects applied inside a hosted cluster (with its admin kubeconfig), not on the management
 * cluster: MetalLB ingress, guest operators. Written to `<outdir>/<cluster>-guest/`, a folder of
 * its own, so that `oc apply -R` of the management folder never reaches into a guest.
 * Get it from `HostedCluster.guest`.
 */
export class GuestCluster extends Chart {
  /** The hosted cluster these objects are applied to. */
  public readonly cluster: IHostedCluster;
  /** The `metadata.name` of that hosted cluster. */
  public readonly clusterName: string;

  constructor(scope: Construct, id: string, props: GuestClusterProps) {
    super(scope, id, props);
    this.cluster = props.cluster;
    this.clusterName = props.cluster.clusterName;
  }
}
