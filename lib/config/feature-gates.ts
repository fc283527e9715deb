import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { notice } from '../core/lint';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';

/** The feature sets `hcp create cluster --feature-set` accepts. */
export enum FeatureSet {
  /** The supported features; written as the API's empty feature set (`""`), which is what `Default` means there. */
  DEFAULT = 'Default',
  /** Technology Preview features: irreversible, blocks minor upgrades, not for production (docs 10.1). */
  TECH_PREVIEW_NO_UPGRADE = 'TechPreviewNoUpgrade',
  /** Developer Preview features: irreversible, blocks upgrades, unsupported. */
  DEV_PREVIEW_NO_UPGRADE = 'DevPreviewNoUpgrade',
}

/** Props of FeatureGates. */
export interface FeatureGatesProps {
  /** The feature set the cluster runs. */
  readonly featureSet: FeatureSet;
  /**
   * Must be `true` with a `...NoUpgrade` feature set, which cannot be undone and stops minor upgrades
   * of the cluster for good.
   * @default false
   */
  readonly acknowledgeIrreversibleNoUpgrade?: boolean;
}

/** The hosted cluster's feature set (`spec.configuration.featureGate`, docs 10.1). */
export class FeatureGates extends Construct {
  /**
   * The HostedCluster object this construct configures (it writes `spec.configuration.featureGate` there and
   * no object of its own), for `addJsonPatch` and the like.
   */
  public readonly resource: ApiObject;
  constructor(cluster: HostedCluster, id: string, props: FeatureGatesProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    const set = props?.featureSet;
    problems.require(Object.values(FeatureSet).includes(set), 'featureSet', set, `must be one of ${Object.values(FeatureSet).join(', ')} (CustomNoUpgrade is rejected, as by hcp)`);
    const noUpgrade = set === FeatureSet.TECH_PREVIEW_NO_UPGRADE || set === FeatureSet.DEV_PREVIEW_NO_UPGRADE;
    if (noUpgrade && props.acknowledgeIrreversibleNoUpgrade !== true) {
      problems.add(`featureSet (${JSON.stringify(set)}) cannot be undone and blocks minor upgrades of the cluster; set acknowledgeIrreversibleNoUpgrade: true to enable it`);
    }
    // A cluster is left as it is when this part of its configuration is wrong.
    if (problems.report()) return;
    if (noUpgrade) notice(this, `featureSet ${set} is irreversible: once applied, cluster ${cluster.clusterName} can never return to Default nor take a minor upgrade`);
    // The API spells the default feature set as "", not "Default".
    const wire = set === FeatureSet.DEFAULT ? '' : set;
    cluster.addConfiguration({ featureGate: { featureSet: wire as string as hc.HostedClusterSpecConfigurationFeatureGateFeatureSet } }, this);
  }
}
