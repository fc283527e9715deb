import { ApiObject, Chart } from 'cdk8s';
import { show } from '../core/problems';

/**
 * The objects of a chart applied by hand for its Velero `kind` (Backup, Restore) that are of
 * another kind, as one problem: no delivery applies the chart, so they would silently never be applied.
 */
export function othersInHandAppliedChart(chart: Chart, kind: string): string[] {
  const others = chart.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject && !(c.apiVersion.startsWith('velero.io/') && c.kind === kind));
  if (others.length === 0) return [];
  const named = others
    .slice(0, 3)
    .map((o) => `${o.kind} ${o.name}`)
    .join(', ');
  return [
    `scope (${show(chart.node.path)}) holds ${named}${others.length > 3 ? ` and ${others.length - 3} more` : ''} besides ${kind}s; a ${kind}'s chart is applied by hand only (no delivery applies it), so keep everything else in other charts`,
  ];
}
