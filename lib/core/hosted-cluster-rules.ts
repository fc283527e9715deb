import { DNS1123_LABEL_RULE, isDns1123Label } from './names';
import { show } from './problems';

/**
 * Rules of a HostedCluster that its CRD does not check, one source for HostedCluster (at synth) and
 * for the lint of hand-written HostedClusters (`hcp-cdk validate`): each function names fields as
 * its caller gives them and returns the problems, one sentence each.
 */

/** HyperShift derives longer names (the control-plane namespace, its resources) from a cluster's name. */
export const CLUSTER_NAME_MAX = 53;

/** The namespace HyperShift runs a hosted cluster's control plane in: `<namespace>-<name>`. */
export function controlPlaneNamespaceOf(namespace: string, name: string): string {
  return `${namespace}-${name}`;
}

/**
 * A cluster name HyperShift or MCE cannot use: longer than 53 characters, `clusters` or
 * `local-cluster` (MCE's), or one whose control-plane namespace `<namespace>-<name>` is longer than a
 * namespace may be.
 * @param checkLabels also report names that are no DNS-1123 labels (the CRD does for objects)
 */
export function clusterNameProblems(name: string, namespace: string, names: { readonly name: string; readonly namespace: string }, checkLabels = true): string[] {
  const problems: string[] = [];
  const nameIsLabel = isDns1123Label(name);
  if (!nameIsLabel && checkLabels) problems.push(`${names.name} (${show(name)}) ${DNS1123_LABEL_RULE}`);
  if (nameIsLabel && name.length > CLUSTER_NAME_MAX) {
    problems.push(`${names.name} (${show(name)}) must be at most ${CLUSTER_NAME_MAX} characters (HyperShift derives longer names from it)`);
  }
  if (!isDns1123Label(namespace) && checkLabels) problems.push(`${names.namespace} (${show(namespace)}) ${DNS1123_LABEL_RULE}`);
  const controlPlane = controlPlaneNamespaceOf(namespace, name);
  if (controlPlane.length > 63) {
    problems.push(`${names.namespace} (${show(namespace)}) and name together make the control-plane namespace "${controlPlane}", which must be at most 63 characters`);
  }
  if (name === 'clusters' || name === 'local-cluster') problems.push(`${names.name} (${show(name)}) must not be "clusters" or "local-cluster", which MCE reserves`);
  return problems;
}

/** An etcd volume under 1 GiB (lint HCP-W001): etcd fills it within days and the control plane stops. */
export function tinyEtcdVolumeMessage(field: string, shown: string, gib: number): string | undefined {
  return gib > 0 && gib < 1 ? `${field} (${shown}) is under 1 GiB: etcd fills such a volume within days and the control plane stops; hcp sizes it at 8 GiB` : undefined;
}

/**
 * A release named by tag on a cluster that pulls through mirrors (lint HCP-W005). Docs 5.3.13.1 do it
 * with a tag of the mirror registry itself, which works; but mirrors match digests only, so a tag is
 * read from the registry it names (a disconnected cluster cannot reach quay.io), and it can move to
 * another image than the one reviewed.
 * @param mirrored whether the cluster has imageContentSources
 */
export function mirroredTagReleaseMessage(field: string, image: string, mirrored: boolean): string | undefined {
  if (!mirrored || /@sha256:[a-f0-9]{64}$/.test(image)) return undefined;
  return (
    `${field} (${show(image)}) is a tag, but the cluster pulls through mirrors, which match digests only: the tag is read from the registry it names ` +
    'and can move to another image; give the release as <repository>@sha256:<digest> (oc adm release info prints it)'
  );
}
