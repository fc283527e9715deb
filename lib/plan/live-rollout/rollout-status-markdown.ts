import { PULL_REQUEST_COMMENT_LIMIT } from '../plan-markdown';
import { RolloutClusterState, RolloutStatus, RolloutStatusReport } from './rollout-status';
import { clusterLine, countsText, hubLine } from './rollout-status-text';

/** How many clusters of one state a wave lists before it counts the rest. */
const LISTED_PER_STATE = 20;

/**
 * `hcp-cdk rollout status --format markdown`: for a pull-request comment or a pipeline's summary.
 * Per rollout, a table of its waves with counts by state and the decision; the clusters that are
 * neither done nor pending in a collapsed list, at most LISTED_PER_STATE per state and wave with the
 * rest counted, so that a fleet of any size fits the 65,536 characters of a comment (what would not
 * is left out, the last line saying so; `--format json` has every cluster).
 */
export function rolloutStatusMarkdown(report: RolloutStatusReport): string {
  const head = [`### Rollout status`, '', `Read at ${report.time} from \`${report.output}\`:`, '', ...report.hubs.map((hub) => `- ${escape(hubLine(hub))}`)];
  const sections = report.rollouts.map(rolloutSection);
  const out: string[] = [...head];
  let length = out.join('\n').length;
  let left = 0;
  for (const section of sections) {
    for (const line of section) {
      if (left > 0 || length + line.length + 1 > PULL_REQUEST_COMMENT_LIMIT - 300) {
        left++;
        continue;
      }
      out.push(line);
      length += line.length + 1;
    }
  }
  if (left > 0)
    out.push(
      '',
      `_${left.toLocaleString('en-US')} more lines left out to stay within a comment's ${PULL_REQUEST_COMMENT_LIMIT.toLocaleString('en-US')} characters: \`hcp-cdk rollout status --json\` has every cluster._`,
    );
  return `${out.join('\n')}\n`;
}

function rolloutSection(rollout: RolloutStatus): string[] {
  const lines = [
    '',
    `#### ${rollout.name} (${rollout.release.version ?? rollout.release.image}): ${rollout.releasedWaves} of ${rollout.waves.length} waves released`,
    '',
    rollout.next ? `**Next:** ${rollout.next.outcome} (exit ${rollout.next.exitCode}): ${escape(rollout.next.summary)}` : `**Next:** not decided: ${escape(rollout.undecided ?? '')}`,
    '',
    '| wave | released | clusters | states |',
    '|---|---|---:|---|',
    ...rollout.waves.map(
      (w) =>
        `| ${w.number} ${escape(w.name)} | ${w.released ? `${w.releasedAt ?? 'yes'}${w.timesOutAt ? `, times out ${w.timesOutAt}` : ''}` : 'no'} | ${w.clusters.length.toLocaleString('en-US')} | ${countsText(w.counts)} |`,
    ),
  ];
  const listed: string[] = [];
  let shown = 0;
  for (const wave of rollout.waves) {
    for (const state of Object.values(RolloutClusterState).filter((s) => s !== RolloutClusterState.DONE && s !== RolloutClusterState.PENDING)) {
      const clusters = wave.clusters.filter((c) => c.state === state);
      for (const cluster of clusters.slice(0, LISTED_PER_STATE)) listed.push(`- wave ${wave.number}: ${escape(clusterLine(cluster))}`);
      if (clusters.length > LISTED_PER_STATE) listed.push(`- wave ${wave.number}: ${(clusters.length - LISTED_PER_STATE).toLocaleString('en-US')} more ${state}`);
      shown += clusters.length;
    }
  }
  if (shown > 0) lines.push('', `<details><summary>${shown.toLocaleString('en-US')} ${shown === 1 ? 'cluster' : 'clusters'} neither done nor pending</summary>`, '', ...listed, '', '</details>');
  return lines;
}

/** Text that neither breaks a table row nor reads as HTML (`--context hub-0=<context>`). */
function escape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
