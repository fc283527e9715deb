import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';

export interface ManagementClusterProps extends ChartProps {}

/**
 * The management (hub) cluster: everything applied to it. Its objects are
 * written to `<outdir>/<id>/`, each hosted cluster's to a folder inside.
 */
export class ManagementCluster extends Chart {
  constructor(scope: Construct, id: string, props: ManagementClusterProps = {}) {
    super(scope, id, props);
  }
}
