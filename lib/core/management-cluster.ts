import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { capacityProblems, CapacityEstimateOptions, estimateCapacity, formatCapacityReport } from './capacity';
import { isDns1123Subdomain } from './names';
import { Problems } from './problems';
import { AvailabilityPolicy } from './availability-policy';
import { HostedCluster } from './hosted-cluster';

/** Props of ManagementCluster. */
export interface ManagementClusterProps extends ChartProps {
  /**
   * The workers that run hosted control planes (labelled `hypershift.openshift.io/control-plane`)
   * and the expected API load, for the capacity estimate of docs 2.2: synth prints it, with a
   * warning when this management cluster holds more hosted control planes than it can carry.
   * @default - no estimate
   */
  readonly capacity?: CapacityEstimateOptions;
  /**
   * The domain of the management cluster's default ingress (its `apps.` domain, e.g.
   * `apps.hub.example.com`), where the routes of hosted control planes published as a Route without
   * a hostname are served: the router names them `<route>-<control-plane namespace>.<domain>`.
   * Given, synth prints the real OAuth callback URL of such clusters.
   * @default - unknown: the OAuth note says where HyperShift reports the URL instead
   */
  readonly ingressDomain?: string;
}

/**
 * The management (hub) cluster: everything applied to it. Its objects are
 * written to `<outdir>/<id>/`, each hosted cluster's to a folder inside.
 */
export class ManagementCluster extends Chart {
  /** The domain of the management cluster's default ingress, when given. */
  public readonly ingressDomain?: string;
  private capacity?: CapacityEstimateOptions;

  constructor(scope: Construct, id: string, props: ManagementClusterProps = {}) {
    super(scope, id, props);
    this.capacity = props.capacity;
    if (props.ingressDomain !== undefined) {
      const problems = new Problems(this);
      // A route host is lower case: "Apps.Hub" would name no host the router serves.
      if (
        problems.require(
          isDns1123Subdomain(props.ingressDomain) && props.ingressDomain.includes('.'),
          'ingressDomain',
          props.ingressDomain,
          "must be the DNS subdomain of the management cluster's default ingress, lower case, such as apps.hub.example.com",
        )
      )
        this.ingressDomain = props.ingressDomain;
      problems.report();
    }
    // Checked now, so that bad worker figures are reported where they are given.
    if (props.capacity !== undefined) {
      const problems = new Problems(this).within('capacity');
      for (const problem of capacityProblems(props.capacity)) problems.add(problem);
      if (problems.report()) this.capacity = undefined;
    }
  }

  /** The capacity report of docs 2.2 for the hosted clusters declared here, when `capacity` is given. */
  public capacityReport(): string | undefined {
    if (!this.capacity) return undefined;
    const clusters = this.node.findAll().filter((c): c is HostedCluster => c instanceof HostedCluster);
    const highlyAvailable = clusters.filter((c) => c.availabilityPolicy === AvailabilityPolicy.HIGHLY_AVAILABLE).length;
    return formatCapacityReport(this.node.path, estimateCapacity(this.capacity), highlyAvailable, clusters.length - highlyAvailable);
  }
}
