import type { HubRead } from './live-clusters';
import { RolloutClusterState, RolloutStatus, RolloutStatusCluster, RolloutStatusReport, RolloutStatusWave } from './rollout-status';

/** States a wave's line counts but does not list cluster by cluster. */
const NOT_LISTED: readonly RolloutClusterState[] = [RolloutClusterState.DONE, RolloutClusterState.PENDING];

/**
 * `hcp-cdk rollout status` for people: the management clusters read, then per rollout its waves with
 * counts by state, each cluster that is neither done nor pending on a line of its own with why, and
 * what `rollout advance` would decide.
 */
export function rolloutStatusText(report: RolloutStatusReport): string {
  const clusters = report.rollouts.reduce((n, r) => n + r.waves.reduce((m, w) => m + w.clusters.length, 0), 0);
  const lines = [
    `rollout status of ${report.output} at ${report.time}: ${plural(clusters, 'cluster')} of ${plural(report.rollouts.length, 'rollout')} on ${plural(report.hubs.length, 'management cluster')}`,
    ...report.hubs.map((hub) => `  ${hubLine(hub)}`),
  ];
  for (const rollout of report.rollouts) lines.push('', ...rolloutLines(rollout));
  return `${lines.join('\n')}\n`;
}

/** `hub-0: context hub-0 (https://…): 12 HostedClusters and 24 NodePools listed in namespace clusters (2 pages)`, or why it was not read. */
export function hubLine(hub: HubRead): string {
  const where = hub.context !== undefined ? `context ${hub.context}${hub.server !== undefined ? ` (${hub.server})` : ''}` : 'no context';
  if (hub.error !== undefined) return `${hub.managementFolder}: not read (${where}): ${hub.error}; its ${plural(hub.clusters, 'cluster')} ${hub.clusters === 1 ? 'is' : 'are'} unread`;
  const namespaces = `${hub.namespaces.length === 1 ? 'namespace' : 'namespaces'} ${hub.namespaces.join(', ')}`;
  return `${hub.managementFolder}: ${where}: ${plural(hub.hostedClustersRead, 'HostedCluster')} and ${plural(hub.nodePoolsRead, 'NodePool')} listed in ${namespaces} (${plural(hub.pages, 'page')})`;
}

/** A rollout's line, its decision and its waves. */
function rolloutLines(rollout: RolloutStatus): string[] {
  const lines = [`rollout ${rollout.name} (${rollout.release.version ?? rollout.release.image}): ${rollout.releasedWaves} of ${rollout.waves.length} waves released: ${countsText(rollout.counts)}`];
  if (rollout.next) {
    lines.push(`  next: ${rollout.next.outcome} (exit ${rollout.next.exitCode}): ${rollout.next.summary}`);
    for (const reason of rollout.next.reasons.slice(1)) lines.push(`    also: ${oneLine(reason)}`);
  } else lines.push(`  next: not decided: ${rollout.undecided}`);
  for (const wave of rollout.waves) {
    lines.push(`  ${waveLine(wave)}`);
    for (const cluster of wave.clusters.filter((c) => !NOT_LISTED.includes(c.state))) lines.push(`    ${clusterLine(cluster)}`);
  }
  return lines;
}

/** `wave 2 (wave-2), released …, times out at …: 1 done, 2 control-plane-upgrading`. */
export function waveLine(wave: RolloutStatusWave): string {
  const released = wave.released ? `, released${wave.releasedAt ? ` ${wave.releasedAt}` : ''}` : '';
  const timeout = wave.timesOutAt ? `, times out at ${wave.timesOutAt}` : '';
  const hold = wave.holdNodePools ? ', holds its pools' : '';
  return `wave ${wave.number} (${wave.name})${released}${timeout}${hold}: ${countsText(wave.counts)}`;
}

/** `failed: hub-0/clusters/a2 (recorded): control plane: …`, on one line. */
export function clusterLine(cluster: RolloutStatusCluster): string {
  return `${cluster.state}: ${cluster.cluster}${cluster.recorded ? ' (recorded)' : ''}${cluster.reason ? `: ${oneLine(cluster.reason)}` : ''}`;
}

/** A reason on one line: HyperShift's messages may hold line breaks (a machine per line). */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** `3 done, 1 failed`, in the states' order. */
export function countsText(counts: Readonly<Partial<Record<RolloutClusterState, number>>>): string {
  const parts = Object.entries(counts).map(([state, n]) => `${n.toLocaleString('en-US')} ${state}`);
  return parts.length > 0 ? parts.join(', ') : 'no cluster';
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}
