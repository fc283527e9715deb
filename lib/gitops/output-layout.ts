import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { GuestCluster } from '../core/guest-cluster';
import { HostedCluster, IHostedCluster } from '../core/hosted-cluster';
import { pathPart } from '../core/path-part';
import { rankOf } from './apply-order';

/** The cluster a group of objects is applied to. */
export enum TargetKind {
  /** The management (hub) cluster: a ManagementCluster chart, or any other chart of the app. */
  MANAGEMENT = 'management',
  /** Inside a hosted cluster, with its admin kubeconfig: a GuestCluster chart. */
  GUEST = 'guest',
}

/** A cluster objects are applied to, and the top output folder that holds them. */
export interface DeliveryTarget {
  /** Whether the cluster is a management cluster or inside a hosted cluster (guest). */
  readonly kind: TargetKind;
  /** The chart whose objects these are. */
  readonly chart: Chart;
  /** The top folder under the output root: the chart's id. */
  readonly folder: string;
  /** Guest targets: the hosted cluster they are inside. */
  readonly hostedCluster?: IHostedCluster;
  /** Guest targets: the top folder of the management cluster that hosts that hosted cluster. */
  readonly managementFolder?: string;
}

/** Where the objects of one construct go: the target cluster and the folder under the output root. */
export interface ObjectPlace {
  /** The cluster the construct's objects are applied to. */
  readonly target: DeliveryTarget;
  /** `<target folder>[/<group>]`, '/'-separated on every platform. */
  readonly folder: string;
  /** The hosted cluster whose folder this is, when the objects belong to one. */
  readonly hostedCluster?: HostedCluster;
}

/**
 * The layout every delivery starts from: a folder per target chart, and inside a management
 * cluster's folder one folder per hosted cluster (its Secrets, HostedCluster and NodePools) and
 * per construct that keeps its objects together (`outputFolder`, e.g. an InfraEnv and its hosts).
 * Worked out once per parent construct: a fleet has thousands of objects in hundreds of folders.
 */
export class OutputLayout {
  private readonly places = new Map<IConstruct, ObjectPlace>();
  private readonly targets = new Map<Chart, DeliveryTarget>();

  /** The place of `object`, which is where its parent construct's objects all go. */
  public placeOf(object: ApiObject): ObjectPlace {
    const parent = object.node.scope!;
    let place = this.places.get(parent);
    if (place === undefined) {
      const target = this.targetOf(object.chart);
      const group = groupOf(object);
      place = { target, folder: group ? `${target.folder}/${group.folder}` : target.folder, hostedCluster: group?.hostedCluster };
      this.places.set(parent, place);
    }
    return place;
  }

  /** The target cluster of a chart's objects. */
  public targetOf(chart: Chart): DeliveryTarget {
    let target = this.targets.get(chart);
    if (target === undefined) {
      // Not instanceof: cdk8s makes `x instanceof <any Chart class>` true for every chart.
      const guest = Object.prototype.isPrototypeOf.call(GuestCluster.prototype, chart) ? (chart as GuestCluster) : undefined;
      if (guest) {
        const hostedCluster = guest.cluster;
        target = { kind: TargetKind.GUEST, chart, folder: pathPart('chart id', chart.node.id, chart.node.path), hostedCluster, managementFolder: Chart.of(hostedCluster).node.id };
      } else {
        target = { kind: TargetKind.MANAGEMENT, chart, folder: pathPart('chart id', chart.node.id, chart.node.path) };
      }
      this.targets.set(chart, target);
    }
    return target;
  }
}

/**
 * `<rank>-<kind>-<namespace>_<name>.yaml`: stable, so a GitOps diff shows only what changed, and in
 * apply order. Throws a PathPartError when the kind, namespace or name cannot be part of a path
 * (see `pathPart`): an object of any kind, waived or unchecked, stays in its folder.
 */
export function objectFileName(json: { readonly kind?: unknown; readonly metadata?: { readonly name?: unknown; readonly namespace?: unknown } }): string {
  const rank = rankOf(String(json.kind));
  const kind = pathPart('kind', typeof json.kind === 'string' ? json.kind.toLowerCase() : json.kind);
  const namespace = json.metadata?.namespace ? `${pathPart('metadata.namespace', json.metadata.namespace)}_` : '';
  return `${String(rank).padStart(2, '0')}-${kind}-${namespace}${pathPart('metadata.name', json.metadata?.name)}.yaml`;
}

/**
 * What an object file's name says (see objectFileName): the kind in lower case, the namespace and
 * the name; undefined for a name objectFileName does not make. Kubernetes names hold no `_`, so
 * the namespace and the name are told apart without reading the file.
 */
export function parseObjectFileName(file: string):
  | {
      /** The object's kind, lower case. */
      readonly kind: string;
      /** Its namespace. @default - none: cluster-scoped */
      readonly namespace?: string;
      /** Its name. */
      readonly name: string;
    }
  | undefined {
  const match = /^\d{2}-([a-z0-9]+)-(?:([a-z0-9.-]+)_)?([a-z0-9.:-]+)\.yaml$/.exec(file);
  if (!match) return undefined;
  return match[2] === undefined ? { kind: match[1], name: match[3] } : { kind: match[1], namespace: match[2], name: match[3] };
}

/** The folder of the HostedCluster (or of another construct with an `outputFolder`) an object belongs to, if any. */
function groupOf(object: IConstruct): { folder: string; hostedCluster?: HostedCluster } | undefined {
  for (let scope = object.node.scope; scope; scope = scope.node.scope) {
    if (scope instanceof HostedCluster) return { folder: pathPart('cluster name', scope.clusterName, scope.node.path), hostedCluster: scope };
    // An InfraEnv (lib/baremetal) keeps its hosts together: any construct can, by naming its folder.
    const folder = (scope as { outputFolder?: unknown }).outputFolder;
    if (typeof folder === 'string')
      return {
        folder: folder
          .split('/')
          .map((part) => pathPart(`outputFolder (${JSON.stringify(folder)}): part`, part, scope.node.path))
          .join('/'),
      };
  }
  return undefined;
}
