import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { lint, LINT_RULES } from '../core/lint';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { ControlPlaneService, ServicePublishingType } from '../core/service-publishing';
import { KubevirtClusterPlatform, KubevirtNodePoolPlatform } from '../platform/kubevirt';
import { HubStorageClass } from './hub-storage-class';
import { IngressWildcardPolicy } from './ingress-wildcard-policy';
import { LvmStorage } from './lvm-storage';
import { ManagementMetalLB } from './management-metallb';
import { OpenShiftVirtualization } from './openshift-virtualization';

/** The management cluster's pod network (`Network.spec.networkType`). */
export enum HubNetworkType {
  /** OVN-Kubernetes, the only one KubeVirt hosted clusters support. */
  OVN_KUBERNETES = 'OVNKubernetes',
  /** OpenShift SDN. */
  OPENSHIFT_SDN = 'OpenShiftSDN',
  /** A third-party CNI. */
  OTHER = 'Other',
}

/** Props of KubevirtHub. */
export interface KubevirtHubProps {
  /**
   * The hub's pod network; docs 3.3.1.1 require OVN-Kubernetes.
   * @default HubNetworkType.OVN_KUBERNETES (OpenShift's default)
   */
  readonly networkType?: HubNetworkType;
  /**
   * The MTU of the hub's cluster network. Under 9000, node pools with network interface multiqueue
   * (the default) get a warning: docs 3.3.1.1 advise multiqueue only from 9000.
   * @default - unknown: no MTU warning
   */
  readonly mtu?: number;
  /**
   * Whether the default IngressController admits wildcard routes (`routeAdmission.wildcardPolicy:
   * WildcardsAllowed`, the `oc patch` of docs 3.3.1.1), which KubeVirt clusters without a base
   * domain need for their `*.apps` subdomain: declare it when the hub was patched outside this app.
   * @default - only when an IngressWildcardPolicy on the default IngressController is in the chart
   */
  readonly wildcardRoutesAllowed?: boolean;
  /**
   * StorageClasses created outside this app (the blog's `gp3-csi`), by name. LvmStorage and
   * HubStorageClass constructs of the chart count without being listed.
   * @default - none
   */
  readonly existingStorageClasses?: string[];
  /**
   * The default StorageClass when it is created outside this app.
   * @default - the default class of an LvmStorage or HubStorageClass of the chart
   */
  readonly existingDefaultStorageClass?: string;
  /**
   * Whether LoadBalancer Services get addresses from something outside this app (a cloud load balancer).
   * @default - only when a ManagementMetalLB is in the chart
   */
  readonly externalLoadBalancer?: boolean;
  /**
   * Whether OpenShift Virtualization is installed outside this app.
   * @default - only when an OpenShiftVirtualization is in the chart
   */
  readonly virtualizationInstalledOutsideApp?: boolean;
}

/**
 * The management-cluster prerequisites of KubeVirt hosted clusters (docs 3.3.1.1, "Prerequisites")
 * checked at synth for every KubeVirt HostedCluster of its chart whose VMs run on this hub:
 * OpenShift Virtualization, OVN-Kubernetes, a default storage class, wildcard routes for clusters
 * without a base domain, and a load balancer for a LoadBalancer API server are errors; an MTU
 * under 9000 with multiqueue, and storage classes (etcd, root volumes, storage mappings) that no
 * construct provides and `existingStorageClasses` does not declare, are lint warnings.
 * Facts the app cannot see (the network type, the MTU, classes made elsewhere) are declared here.
 */
export class KubevirtHub extends Construct {
  private readonly props: KubevirtHubProps;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: KubevirtHubProps = {}) {
    super(scope, id);
    this.props = props;
    const problems = new Problems(this);
    (props.existingStorageClasses ?? []).forEach((name, i) => problems.require(isDns1123Subdomain(name), `existingStorageClasses[${i}]`, name, DNS1123_SUBDOMAIN_RULE));
    if (props.existingDefaultStorageClass !== undefined)
      problems.require(isDns1123Subdomain(props.existingDefaultStorageClass), 'existingDefaultStorageClass', props.existingDefaultStorageClass, DNS1123_SUBDOMAIN_RULE);
    if (props.mtu !== undefined) problems.require(Number.isInteger(props.mtu) && props.mtu >= 576 && props.mtu <= 65536, 'mtu', props.mtu, 'must be a whole number from 576 to 65536');
    if (props.networkType !== undefined) problems.require(Object.values(HubNetworkType).includes(props.networkType), 'networkType', props.networkType, 'must be OVNKubernetes, OpenShiftSDN or Other');
    problems.report();
    this.node.addValidation({ validate: () => this.check() });
  }

  /** The StorageClasses this hub has: made by constructs of its chart, and declared. */
  public get storageClasses(): ReadonlySet<string> {
    const names = new Set([...(this.props.existingStorageClasses ?? [])]);
    if (this.props.existingDefaultStorageClass) names.add(this.props.existingDefaultStorageClass);
    for (const c of Chart.of(this).node.findAll()) {
      if (c instanceof LvmStorage) c.storageClassNames.forEach((n) => names.add(n));
      if (c instanceof HubStorageClass) names.add(c.storageClassName);
    }
    return names;
  }

  private check(): string[] {
    const inChart = Chart.of(this).node.findAll();
    const clusters = inChart.filter((c): c is HostedCluster => c instanceof HostedCluster && c.platform instanceof KubevirtClusterPlatform && c.platform.props.externalInfrastructure === undefined);
    if (clusters.length === 0) return [];
    const problems: string[] = [];
    const names = clusters.map((c) => c.clusterName).join(', ');
    const p = this.props;
    if (!(p.virtualizationInstalledOutsideApp ?? false) && !inChart.some((c) => c instanceof OpenShiftVirtualization)) {
      problems.push(`KubeVirt hosted clusters (${names}) run their VMs on this hub, which has no OpenShiftVirtualization; add one or declare virtualizationInstalledOutsideApp (docs 3.3.1.1)`);
    }
    const network = p.networkType ?? HubNetworkType.OVN_KUBERNETES;
    if (network !== HubNetworkType.OVN_KUBERNETES) {
      problems.push(`networkType (${show(network)}) must be OVNKubernetes: KubeVirt hosted clusters (${names}) need OVN-Kubernetes as the hub's pod network (docs 3.3.1.1)`);
    }
    const defaults = [
      ...(p.existingDefaultStorageClass ? [p.existingDefaultStorageClass] : []),
      ...inChart.flatMap((c) => (c instanceof LvmStorage && c.defaultStorageClassName ? [c.defaultStorageClassName] : c instanceof HubStorageClass && c.isDefault ? [c.storageClassName] : [])),
    ];
    if (defaults.length === 0) {
      problems.push(
        `the hub has no default StorageClass, which KubeVirt hosted clusters (${names}) need (docs 3.3.1.1); mark an LvmStorage device class or a HubStorageClass default, or declare existingDefaultStorageClass`,
      );
    } else if (defaults.length > 1) {
      problems.push(`the hub has ${defaults.length} default StorageClasses (${show(defaults)}); keep one, or volumes land on either`);
    }
    const loadBalancer = (p.externalLoadBalancer ?? false) || inChart.some((c) => c instanceof ManagementMetalLB);
    const wildcards = (p.wildcardRoutesAllowed ?? false) || inChart.some((c) => c instanceof IngressWildcardPolicy && c.ingressControllerName === 'default');
    for (const cluster of clusters) {
      if (!loadBalancer && cluster.publishedServices.get(ControlPlaneService.API_SERVER)?.type === ServicePublishingType.LOAD_BALANCER) {
        problems.push(
          `${cluster.node.path} publishes services.APIServer as LoadBalancer, which needs a load balancer on the hub (docs 3.3.1.1, 3.3.5); add a ManagementMetalLB or declare externalLoadBalancer`,
        );
      }
      const passthrough =
        (ApiObject.of(cluster.resource).toJson() as { spec?: { platform?: { kubevirt?: { baseDomainPassthrough?: boolean } } } }).spec?.platform?.kubevirt?.baseDomainPassthrough === true;
      if (passthrough && !wildcards) {
        problems.push(
          `wildcardRoutesAllowed (false): ${cluster.node.path} has no baseDomain, so its *.apps is a subdomain of the hub's and needs wildcard routes; add an IngressWildcardPolicy ` +
            '(routeAdmission.wildcardPolicy WildcardsAllowed on the default IngressController, docs 3.3.1.1), declare wildcardRoutesAllowed when it is patched outside this app, or give the cluster a baseDomain',
        );
      }
      this.lintCluster(cluster);
    }
    return problems;
  }

  /** Legal but likely wrong: classes the hub does not know (made by hand?), multiqueue under MTU 9000. */
  private lintCluster(cluster: HostedCluster): void {
    const known = this.storageClasses;
    const named: { field: string; name: string; scope: Construct }[] = [];
    if (cluster.etcd.storageClass) named.push({ field: 'etcd.storageClass', name: cluster.etcd.storageClass, scope: cluster });
    const platform = cluster.platform as KubevirtClusterPlatform;
    (platform.props.storageClassMappings ?? []).forEach((m, i) => named.push({ field: `platform.storageClassMappings[${i}].infraStorageClass`, name: m.infraStorageClass, scope: cluster }));
    for (const pool of cluster.pools) {
      if (pool.platform instanceof KubevirtNodePoolPlatform && pool.platform.props.rootVolumeStorageClass) {
        named.push({ field: 'platform.rootVolumeStorageClass', name: pool.platform.props.rootVolumeStorageClass, scope: pool });
      }
    }
    for (const { field, name, scope } of named) {
      if (!known.has(name)) {
        lint(
          scope,
          LINT_RULES.HCP_W010_UNKNOWN_HUB_STORAGE_CLASS,
          `${field} (${show(name)}) is no StorageClass of ${this.node.path}: no LvmStorage or HubStorageClass makes it ` +
            `and existingStorageClasses (${show([...(this.props.existingStorageClasses ?? [])])}) does not declare it; volumes would stay Pending`,
        );
      }
    }
    const mtu = this.props.mtu;
    if (mtu !== undefined && mtu < 9000) {
      for (const pool of cluster.pools) {
        if (pool.platform instanceof KubevirtNodePoolPlatform && pool.platform.props.networkInterfaceMultiqueue !== false) {
          lint(
            pool,
            LINT_RULES.HCP_W011_MULTIQUEUE_LOW_MTU,
            `platform.networkInterfaceMultiqueue (true) on a hub with MTU ${mtu}: docs 3.3.1.1 advise multiqueue only from MTU 9000; set it false or raise the MTU`,
          );
        }
      }
    }
  }
}
