import { ApiObject, Chart, ChartProps } from 'cdk8s';
import { Construct, IConstruct } from 'constructs';
import type { IHostedCluster } from './hosted-cluster';
import { HcpValidationError, show } from './problems';

/** Options of `GuestClusterProps.clusterManagedElsewhere`. */
export interface ClusterManagedElsewhereOptions {
  /**
   * Who makes and manages the hosted cluster instead of this app (`hcp create cluster`, another
   * repository, ...); written nowhere, required so that the choice is explicit in code review.
   */
  readonly reason: string;
}

/** Props of GuestCluster. */
export interface GuestClusterProps extends ChartProps {
  /** The hosted cluster these objects are applied to. */
  readonly cluster: IHostedCluster;
  /**
   * Accepts a `cluster` that this app does not make: a hosted cluster made and managed outside it,
   * wrapped with `HostedCluster.fromAttributes` in the chart of the management cluster that hosts it.
   * HyperShift writes its admin kubeconfig (`<name>-admin-kubeconfig`) there as for any hosted
   * cluster, and the deliveries reach the guest folder's cluster with it.
   * @default - `cluster` must be a HostedCluster of this app (whose guest chart is `cluster.guest`)
   */
  readonly clusterManagedElsewhere?: ClusterManagedElsewhereOptions;
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
  private readonly managedElsewhere: boolean;

  constructor(scope: Construct, id: string, props: GuestClusterProps) {
    super(scope, id, props);
    this.cluster = props.cluster;
    this.clusterName = props.cluster.clusterName;
    this.managedElsewhere = props.clusterManagedElsewhere !== undefined;
    if (this.managedElsewhere) {
      const reason: unknown = props.clusterManagedElsewhere?.reason;
      if (typeof reason !== 'string' || reason.trim() === '') {
        throw new HcpValidationError([
          `${this.node.path}: clusterManagedElsewhere.reason (${show(reason)}) must say who makes and manages hosted cluster ` +
            `${show(this.clusterName)}; a guest folder for a cluster this app does not make is only written on purpose`,
        ]);
      }
    }
    // A rule across two constructs: reported at synth, with the app's other problems.
    this.node.addValidation({ validate: () => this.checkCluster() });
  }

  /** The cluster must be one the app writes, or, when it is managed elsewhere, one declared in a chart of the app (its management cluster's). */
  private checkCluster(): string[] {
    const cluster = this.cluster;
    const sameApp = cluster.node.root === this.node.root;
    const value = `hosted cluster ${show(this.clusterName)} at ${cluster.node.path}${sameApp ? '' : ' of another app'}`;
    if (!this.managedElsewhere) {
      if (sameApp && writesHostedCluster(cluster)) return [];
      return [
        `cluster (${value}) is not a HostedCluster this app writes, so nothing makes that cluster or the ${this.clusterName}-admin-kubeconfig Secret ` +
          'its guest folder is applied with; use a HostedCluster of this app (its guest chart is cluster.guest), ' +
          'or clusterManagedElsewhere: { reason } for a hosted cluster made outside the app',
      ];
    }
    if (sameApp && inChart(cluster)) return [];
    return [
      `cluster (${value}) is in no chart of this app; with clusterManagedElsewhere, wrap the hosted cluster with HostedCluster.fromAttributes ` +
        'in the chart of the management cluster that hosts it, whose folder the deliveries reach it from',
    ];
  }
}

/** Whether the construct writes a HostedCluster object: its primary object, child id `Resource`. */
function writesHostedCluster(cluster: IConstruct): boolean {
  const resource = cluster.node.tryFindChild('Resource');
  return ApiObject.isApiObject(resource) && resource.kind === 'HostedCluster';
}

/** Whether the construct is inside a chart. */
function inChart(construct: IConstruct): boolean {
  for (let scope = construct.node.scope; scope; scope = scope.node.scope) {
    if (Chart.isChart(scope)) return true;
  }
  return false;
}
