import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import type { INodePoolConfigMap, NodePoolConfigUse } from '../core/node-pool-config-map';
import { Problems } from '../core/problems';
import { EmbeddedObjectsConfigMap } from './embedded-objects';

/**
 * What MachineConfiguration, NodeTuning and NodePerformanceProfile share: a ConfigMap in the
 * cluster's namespace, named `<cluster name>-<id>` unless given, that node pools reference.
 */
export abstract class NodeConfigMap extends Construct implements INodePoolConfigMap {
  /** `metadata.name` of the ConfigMap node pools reference. */
  public readonly configMapName: string;
  public readonly namespace: string;
  public abstract readonly kinds: readonly string[];
  /** The problems of the construct, thrown by the subclass once it has checked its own props. */
  protected readonly problems: Problems;
  private configMap?: EmbeddedObjectsConfigMap;

  /** `field` names the prop `name` came from, for the message when it is no DNS subdomain. */
  protected constructor(cluster: HostedCluster, id: string, name: string | undefined, field = 'name') {
    super(cluster, id);
    this.problems = new Problems(this);
    this.configMapName = name ?? `${cluster.clusterName}-${id}`;
    this.namespace = cluster.namespace;
    this.problems.require(isDns1123Subdomain(this.configMapName), field, this.configMapName, DNS1123_SUBDOMAIN_RULE);
  }

  /**
   * The ConfigMap this construct writes (its main object), for `addJsonPatch` and the like. The
   * objects it carries are YAML text in one of its keys, so a patch can replace that text but not
   * reach into the objects.
   */
  public get resource(): ApiObject {
    if (!this.configMap) throw new Error(`${this.node.path}: resource is read before the construct wrote its ConfigMap`);
    return this.configMap.resource;
  }

  /** Why a pool cannot use it; none by default. */
  public checkUse(_use: NodePoolConfigUse): string | undefined {
    return undefined;
  }

  /** Writes the ConfigMap with `objects` (produced at synth) as YAML under `key`. */
  protected writeConfigMap(key: 'config' | 'tuning', objects: () => unknown[]): void {
    this.configMap = new EmbeddedObjectsConfigMap(this, 'ConfigMap', { name: this.configMapName, namespace: this.namespace, key, objects });
  }
}
