import { FORCE_UPGRADE_TO_ANNOTATION, HostedClusterProps, Release, RESTART_DATE_ANNOTATION } from '../../lib';
import { newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

const NEXT = Release.fromVersion('4.18.2');

function annotationsOf(props: Partial<HostedClusterProps>): Record<string, string> {
  return findObject(synthAppOf(newCluster(props)), 'HostedCluster').metadata.annotations;
}
function problemsOf(props: Partial<HostedClusterProps>): string[] {
  return synthProblems((app) => newCluster(props, app));
}

describe('HostedCluster forceUpgradeTo', () => {
  test('writes the hypershift.openshift.io/force-upgrade-to annotation with the release image', () => {
    const annotations = annotationsOf({ release: NEXT, forceUpgradeTo: NEXT, annotations: { team: 'lab' } });
    expect(FORCE_UPGRADE_TO_ANNOTATION).toBe('hypershift.openshift.io/force-upgrade-to');
    expect(annotations[FORCE_UPGRADE_TO_ANNOTATION]).toBe('quay.io/openshift-release-dev/ocp-release:4.18.2-multi');
    expect(annotations.team).toBe('lab');
  });

  test('leaves the annotations alone by default', () => {
    const annotations = annotationsOf({});
    expect(annotations).not.toHaveProperty(FORCE_UPGRADE_TO_ANNOTATION);
    expect(annotations).not.toHaveProperty(RESTART_DATE_ANNOTATION);
  });

  test('fails when forceUpgradeTo is not the cluster release', () => {
    expect(problemsOf({ forceUpgradeTo: NEXT })).toEqual([
      'hub/c1: forceUpgradeTo ("quay.io/openshift-release-dev/ocp-release:4.18.2-multi") must be the cluster\'s release ' +
        '("quay.io/openshift-release-dev/ocp-release:4.17.0-multi"): HyperShift forces only the upgrade to the image the annotation names',
    ]);
  });

  test('fails when forceUpgradeTo is an image string (from JavaScript)', () => {
    expect(problemsOf({ forceUpgradeTo: NEXT.image as unknown as Release })).toEqual([
      'hub/c1: forceUpgradeTo ("quay.io/openshift-release-dev/ocp-release:4.18.2-multi") must be a Release: Release.fromImage(...) or Release.fromVersion(...), the cluster\'s release',
    ]);
  });

  test('fails when annotations set the force-upgrade-to annotation too', () => {
    expect(problemsOf({ release: NEXT, forceUpgradeTo: NEXT, annotations: { [FORCE_UPGRADE_TO_ANNOTATION]: NEXT.image } })).toEqual([
      'hub/c1: annotations ("hypershift.openshift.io/force-upgrade-to") is what forceUpgradeTo sets; give one of them',
    ]);
  });
});

describe('HostedCluster restartDate', () => {
  test('writes a Date as the restart-date annotation in UTC to the second', () => {
    expect(RESTART_DATE_ANNOTATION).toBe('hypershift.openshift.io/restart-date');
    expect(annotationsOf({ restartDate: new Date(Date.UTC(2026, 10, 25, 21, 0, 0)) })[RESTART_DATE_ANNOTATION]).toBe('2026-11-25T21:00:00Z');
  });

  test('writes an RFC 3339 string as given', () => {
    expect(annotationsOf({ restartDate: '2026-11-25T22:00:00+01:00' })[RESTART_DATE_ANNOTATION]).toBe('2026-11-25T22:00:00+01:00');
  });

  test('fails when the restart date is not an RFC 3339 time', () => {
    expect(problemsOf({ restartDate: 'now' })).toEqual(['hub/c1: restartDate ("now") must be an RFC 3339 time such as 2026-01-01T00:00:00Z']);
    expect(problemsOf({ restartDate: '2026-11-25' })).toEqual(['hub/c1: restartDate ("2026-11-25") must be an RFC 3339 time such as 2026-01-01T00:00:00Z']);
  });

  test('fails when the restart date is an invalid Date', () => {
    expect(problemsOf({ restartDate: new Date(Number.NaN) })).toEqual(['hub/c1: restartDate (Invalid Date) must be a valid Date or an RFC 3339 time such as 2026-01-01T00:00:00Z']);
  });

  test('fails when annotations set the restart-date annotation too', () => {
    expect(problemsOf({ restartDate: '2026-11-25T21:00:00Z', annotations: { [RESTART_DATE_ANNOTATION]: 'x' } })).toEqual([
      'hub/c1: annotations ("hypershift.openshift.io/restart-date") is what restartDate sets; give one of them',
    ]);
  });
});
