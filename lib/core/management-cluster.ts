import { Chart, ChartProps } from 'cdk8s';
import { Construct } from 'constructs';
import { capacityProblems, CapacityEstimateOptions, estimateCapacity, formatCapacityReport } from './capacity';
import { isDns1123Subdomain } from './names';
import { Problems, show } from './problems';
import { declareHyperShiftVersion, HyperShiftVersion } from '../release/hypershift-version';
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
  /**
   * The HyperShift operator this management cluster runs, by the OpenShift minor it was released for
   * (`HyperShiftVersion.ofOpenShift('4.17')`) or the multicluster engine that ships it
   * (`HyperShiftVersion.ofMultiClusterEngine('2.7')`). Synth, `hcp-cdk plan` and `plan --live` then
   * apply that operator's version rules: the hosted-cluster versions it accepts and how far a
   * NodePool may run behind its control plane. Recorded on each HostedCluster
   * (`hcp-cdk.io/hypershift-version`), so that plan applies them too.
   * @default - not stated: the skew rule of HyperShift main at the commit hcp-cdk's CRDs pin (pools up
   *   to three minors behind on every 4.y, 5.0 counting as 4.23), and no supported range is checked
   */
  readonly hyperShift?: HyperShiftVersion;
}

/**
 * The management (hub) cluster: everything applied to it. Its objects are
 * written to `<outdir>/<id>/`, each hosted cluster's to a folder inside.
 */
export class ManagementCluster extends Chart {
  /** The domain of the management cluster's default ingress, when given. */
  public readonly ingressDomain?: string;
  /** The HyperShift operator it runs, when stated. */
  public readonly hyperShift?: HyperShiftVersion;
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
    if (props.hyperShift !== undefined) {
      const problems = new Problems(this);
      if (!(props.hyperShift instanceof HyperShiftVersion)) {
        problems.add(`hyperShift (${show(props.hyperShift)}) must be a HyperShiftVersion: HyperShiftVersion.ofOpenShift('4.17') or HyperShiftVersion.ofMultiClusterEngine('2.7')`);
      } else if (props.hyperShift.problem) {
        problems.add(props.hyperShift.problem);
      } else {
        this.hyperShift = props.hyperShift;
        declareHyperShiftVersion(this, props.hyperShift);
      }
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
