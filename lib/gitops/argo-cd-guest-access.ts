import * as gitops from '../../imports/gitopscluster-apps.open-cluster-management.io';
import * as binding from '../../imports/managedclustersetbinding-cluster.open-cluster-management.io';
import * as placement from '../../imports/placement-cluster.open-cluster-management.io';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';

/** Options of `ArgoCdGuestAccess.acmGitOpsCluster`. */
export interface AcmGitOpsClusterOptions {
  /**
   * The ManagedClusterSet the imported hosted clusters are in. It is bound to the Argo CD
   * namespace, so that the Placement there may select its clusters.
   * @default 'default' - the set ACM puts a ManagedCluster in when it is given none
   */
  readonly clusterSet?: string;
}

/** Options of `ArgoCdGuestAccess.registeredClusters`. */
export interface RegisteredClustersOptions {
  /**
   * How each hosted cluster gets registered in Argo CD under its name (a cluster Secret from your
   * secret store, `argocd cluster add`, ...); written nowhere, required so that the choice is
   * explicit in code review.
   */
  readonly reason: string;
}

/** What `ArgoCdDelivery` tells a guest access about one management cluster. */
export interface ArgoCdGuestAccessContext {
  /** The management cluster's top folder, which also names its bootstrap folder `argocd/<folder>/`. */
  readonly managementFolder: string;
  /** `metadata.name` of the hosted clusters on it that have a guest folder: the destination names of their Applications. */
  readonly clusterNames: readonly string[];
  /** The namespace of the management cluster's Argo CD instance. */
  readonly argoCdNamespace: string;
}

/** The taints ACM puts on a ManagedCluster that stops reporting; tolerated so that a short outage does not drop the cluster from Argo CD. */
const MANAGED_CLUSTER_OUTAGE_TAINTS = ['cluster.open-cluster-management.io/unreachable', 'cluster.open-cluster-management.io/unavailable'];
/** The label ACM gives every ManagedCluster: its name. */
const MANAGED_CLUSTER_NAME_LABEL = 'name';

/**
 * How a hosted cluster becomes a destination of the Argo CD on its management cluster, so that
 * the Application of its guest folder (destination: the cluster's name) can sync. A hosted
 * cluster only exists once its HostedCluster is Available, so it is registered after that, not
 * by the synth: either ACM does it (`acmGitOpsCluster`) or you do (`registeredClusters`).
 */
export abstract class ArgoCdGuestAccess {
  /**
   * ACM registers the hosted clusters: the bootstrap folder of each management cluster gets a
   * ManagedClusterSetBinding of `clusterSet` in the Argo CD namespace, a Placement selecting that
   * hub's hosted clusters by name (ACM names a hosted cluster's ManagedCluster after its
   * HostedCluster) and a GitOpsCluster that writes an Argo CD cluster Secret for each placed
   * cluster. The hosted clusters must be imported into ACM: MCE's auto-import of hosted
   * clusters, or a ManagedCluster of your own.
   */
  public static acmGitOpsCluster(options: AcmGitOpsClusterOptions = {}): ArgoCdGuestAccess {
    return new AcmGitOpsClusterAccess(options.clusterSet ?? 'default');
  }

  /**
   * You register each hosted cluster in Argo CD under its `metadata.name`, once it is Available;
   * nothing is written for it.
   */
  public static registeredClusters(options: RegisteredClustersOptions): ArgoCdGuestAccess {
    return new RegisteredClustersAccess(options?.reason);
  }

  /** Records what is wrong with the options given. */
  public abstract check(problems: Problems): void;

  /** The objects of the management cluster's bootstrap folder that register its hosted clusters, as plain JSON. */
  public abstract bootstrapObjects(context: ArgoCdGuestAccessContext): any[];
}

class AcmGitOpsClusterAccess extends ArgoCdGuestAccess {
  constructor(private readonly clusterSet: string) {
    super();
  }

  public check(problems: Problems): void {
    problems.require(typeof this.clusterSet === 'string' && isDns1123Subdomain(this.clusterSet), 'clusterSet', this.clusterSet, DNS1123_SUBDOMAIN_RULE);
  }

  public bootstrapObjects(context: ArgoCdGuestAccessContext): any[] {
    const namespace = context.argoCdNamespace;
    const name = `${context.managementFolder}-hosted-clusters`;
    return [
      {
        ...binding.ManagedClusterSetBinding.GVK,
        // The binding's name must be the set's.
        metadata: { name: this.clusterSet, namespace },
        spec: binding.toJson_ManagedClusterSetBindingSpec({ clusterSet: this.clusterSet }),
      },
      {
        ...placement.Placement.GVK,
        metadata: { name, namespace },
        spec: placement.toJson_PlacementSpec({
          clusterSets: [this.clusterSet],
          predicates: [
            {
              requiredClusterSelector: {
                labelSelector: { matchExpressions: [{ key: MANAGED_CLUSTER_NAME_LABEL, operator: 'In', values: [...context.clusterNames] }] },
              },
            },
          ],
          tolerations: MANAGED_CLUSTER_OUTAGE_TAINTS.map((key) => ({ key, operator: 'Exists' })),
        }),
      },
      {
        ...gitops.GitOpsCluster.GVK,
        metadata: { name, namespace },
        spec: gitops.toJson_GitOpsClusterSpec({
          argoServer: { argoNamespace: namespace },
          placementRef: { apiVersion: placement.Placement.GVK.apiVersion, kind: placement.Placement.GVK.kind, name },
        }),
      },
    ];
  }
}

class RegisteredClustersAccess extends ArgoCdGuestAccess {
  constructor(private readonly reason: unknown) {
    super();
  }

  public check(problems: Problems): void {
    if (typeof this.reason !== 'string' || this.reason.trim() === '') {
      problems.add(
        `reason (${show(this.reason)}) must say how the hosted clusters get registered in Argo CD under their names, ` + 'e.g. "cluster Secrets from Vault, written by the platform pipeline"',
      );
    }
  }

  public bootstrapObjects(_context: ArgoCdGuestAccessContext): any[] {
    return [];
  }
}
