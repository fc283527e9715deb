import * as project from '../../imports/appproject-argoproj.io';
import type { UnitAccess } from './unit-access';

/** Where an Application delivers: the management cluster itself (`server`), or a hosted cluster registered under its name. */
export type ArgoCdDestination = { readonly server: string } | { readonly name: string };

/** What an AppProject of one delivery unit allows. */
export interface UnitProjectProps {
  readonly name: string;
  readonly namespace: string;
  readonly description: string;
  /** The repository the output is pushed to: the only source. */
  readonly repoUrl: string;
  readonly destination: ArgoCdDestination;
  /** What the unit writes. */
  readonly access: UnitAccess;
  /** The namespace the Application names as its destination's: allowed too, though nothing is written there unless the unit writes it. */
  readonly destinationNamespace: string;
}

/**
 * The AppProject of one delivery unit: its one source, its one cluster, exactly the namespaces it
 * writes into, and exactly the kinds it writes, cluster-scoped and namespaced (an AppProject that
 * lists no cluster-scoped kind allows none; one that lists namespaced kinds allows only those, and
 * one that lists none allows all, so a unit that writes none gets a blacklist of everything).
 * Argo CD refuses to sync anything else, so a cluster's Application cannot write into another
 * cluster's namespace, guest or a kind it does not own, whatever its folder holds.
 */
export function unitProject(props: UnitProjectProps): any {
  const namespaces = [...new Set([props.destinationNamespace, ...props.access.namespaces.keys()])].sort();
  const namespacedKinds = new Map<string, { group: string; kind: string }>();
  for (const kinds of props.access.namespaces.values()) {
    for (const k of kinds) namespacedKinds.set(`${k.group}/${k.kind}`, { group: k.group, kind: k.kind });
  }
  return {
    ...project.AppProject.GVK,
    metadata: { name: props.name, namespace: props.namespace },
    spec: project.toJson_AppProjectSpec({
      description: props.description,
      sourceRepos: [props.repoUrl],
      destinations: namespaces.map((namespace) => ({ ...props.destination, namespace })),
      clusterResourceWhitelist: props.access.clusterScoped.map((k) => ({ group: k.group, kind: k.kind })),
      // An empty whitelist would allow every namespaced kind: a unit that writes none denies them all.
      ...(namespacedKinds.size > 0
        ? { namespaceResourceWhitelist: [...namespacedKinds.keys()].sort().map((key) => namespacedKinds.get(key)!) }
        : { namespaceResourceBlacklist: [{ group: '*', kind: '*' }] }),
    }),
  };
}
