import { HostedClusterProps, NodePoolOptions, PausedUntil } from '../../lib';
import { newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

function clusterPaused(pausedUntil?: PausedUntil | string): unknown {
  return findObject(synthAppOf(newCluster({ pausedUntil })), 'HostedCluster').spec.pausedUntil;
}
function poolPaused(pausedUntil?: PausedUntil | string): unknown {
  return findObject(synthAppOf(newCluster().addNodePool('workers', { pausedUntil })), 'NodePool').spec.pausedUntil;
}
function problemsOf(cluster: Partial<HostedClusterProps>, pool?: NodePoolOptions): string[] {
  return synthProblems((app) => {
    const c = newCluster(cluster, app);
    if (pool) c.addNodePool('workers', pool);
  });
}

describe('PausedUntil', () => {
  test('indefinitely() is "true"', () => {
    expect(PausedUntil.indefinitely().value).toBe('true');
    expect(clusterPaused(PausedUntil.indefinitely())).toBe('true');
    expect(poolPaused(PausedUntil.indefinitely())).toBe('true');
  });

  test('until(Date) writes the time in UTC to the second, milliseconds only when there are some', () => {
    expect(clusterPaused(PausedUntil.until(new Date(Date.UTC(2026, 0, 31, 22, 0, 0))))).toBe('2026-01-31T22:00:00Z');
    expect(poolPaused(PausedUntil.until(new Date('2026-03-01T08:00:00.250+01:00')))).toBe('2026-03-01T07:00:00.250Z');
  });

  test('until(string) and the string form write the RFC 3339 text as given', () => {
    expect(clusterPaused(PausedUntil.until('2026-03-01T08:00:00+01:00'))).toBe('2026-03-01T08:00:00+01:00');
    expect(poolPaused('2026-03-01T08:00:00Z')).toBe('2026-03-01T08:00:00Z');
    expect(poolPaused('true')).toBe('true');
  });

  test('writes the same text on every synth', () => {
    const date = new Date(Date.UTC(2026, 5, 1));
    expect(clusterPaused(PausedUntil.until(date))).toBe(clusterPaused(PausedUntil.until(new Date(date.getTime()))));
  });

  test('fails when pausedUntil is blank', () => {
    expect(problemsOf({ pausedUntil: '' })).toEqual([
      'hub/c1: pausedUntil ("") must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z; to unpause, leave pausedUntil out (HyperShift resumes once the field is removed)',
    ]);
    expect(problemsOf({}, { pausedUntil: '' })).toEqual([
      'hub/c1/workers: pausedUntil ("") must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z; to unpause, leave pausedUntil out (HyperShift resumes once the field is removed)',
    ]);
  });

  test('fails when pausedUntil is a date without a time, or a time that does not exist', () => {
    expect(problemsOf({}, { pausedUntil: '2026-03-01' })).toEqual(['hub/c1/workers: pausedUntil ("2026-03-01") must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z']);
    expect(problemsOf({ pausedUntil: PausedUntil.until('2026-13-01T00:00:00Z') })).toEqual([
      'hub/c1: pausedUntil ("2026-13-01T00:00:00Z") must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z',
    ]);
  });

  test('fails when pausedUntil is "false" (docs 7.6.6 step 5\'s patch), saying how to unpause', () => {
    const message = 'pausedUntil ("false") is not how to unpause: HyperShift reads only "true" or an RFC 3339 time; to unpause, leave pausedUntil out (HyperShift resumes once the field is removed)';
    expect(problemsOf({ pausedUntil: 'false' }, { pausedUntil: 'false' })).toEqual([`hub/c1: ${message}`, `hub/c1/workers: ${message}`]);
    expect(problemsOf({ pausedUntil: PausedUntil.until('false') })).toEqual([`hub/c1: ${message}`]);
    expect(problemsOf({ pausedUntil: 'False' })).toEqual([`hub/c1: ${message.replace('"false"', '"False"')}`]);
  });

  test('nothing defaults pausedUntil: without the prop, neither object has the field (so leaving it out unpauses)', () => {
    expect(clusterPaused(undefined)).toBeUndefined();
    expect(poolPaused(undefined)).toBeUndefined();
  });

  test('fails when pausedUntil is an invalid Date', () => {
    expect(problemsOf({ pausedUntil: PausedUntil.until(new Date('tomorrow')) })).toEqual(['hub/c1: pausedUntil (Invalid Date) must be a valid Date or an RFC 3339 time such as 2026-01-01T00:00:00Z']);
  });
});
