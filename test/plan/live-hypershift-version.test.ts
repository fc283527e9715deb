import { hyperShiftOfSupportedVersions } from '../../lib/plan/live/live-hypershift-version';

/** A supported-versions ConfigMap with `data`. */
const configMap = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'supported-versions', namespace: 'hypershift' }, data });

describe('the HyperShift version a supported-versions ConfigMap tells', () => {
  test('is the first of its versions (GetLatestSupportedOCPVersion), with the build it reports', () => {
    const found = hyperShiftOfSupportedVersions(configMap({ 'supported-versions': '{"versions":["4.17","4.16","4.15","4.14"]}', 'server-version': '2f6cfe21a0861dea3130f3bed0d3ae5553b8c28b' }));
    expect([found.version?.name, found.version?.record, found.serverVersion, found.problem]).toEqual(['HyperShift 4.17', '4.17', '2f6cfe21a0861dea3130f3bed0d3ae5553b8c28b', undefined]);
    expect(hyperShiftOfSupportedVersions(configMap({ 'supported-versions': '{"versions":["5.1","5.0","4.23"]}' })).version?.latestSupported).toEqual({ major: 5, minor: 1, patch: 0 });
  });

  test.each([
    ['not JSON', '{"versions":'],
    ['no versions', '{"versions":[]}'],
    ['a version hcp-cdk does not know', '{"versions":["4.13","4.12"]}'],
  ])('tells none when its data is %s, and says why', (_what, data) => {
    expect(hyperShiftOfSupportedVersions(configMap({ 'supported-versions': data }))).toEqual({
      serverVersion: undefined,
      problem: `its supported-versions data (${JSON.stringify(data)}) names no HyperShift version hcp-cdk knows (a JSON {"versions": ["4.17", ...]}, newest first, from 4.14)`,
    });
  });

  test('tells none without the data key', () => {
    expect(hyperShiftOfSupportedVersions(configMap({})).problem).toBe(
      'its supported-versions data (null) names no HyperShift version hcp-cdk knows (a JSON {"versions": ["4.17", ...]}, newest first, from 4.14)',
    );
  });
});
