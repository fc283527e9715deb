import { ClusterPlatform, NodePoolPlatform } from '../../lib';
import { PLATFORMS, newCluster, synthAppOf } from '../props';
import { findObject } from '../util';

describe('ClusterPlatform.none', () => {
  test('writes platform None with the example.com base domain', () => {
    const spec = findObject(synthAppOf(newCluster(PLATFORMS.none())), 'HostedCluster').spec;
    expect(spec.platform).toEqual({ type: 'None' });
    expect(spec.dns).toEqual({ baseDomain: 'example.com' });
  });

  test('has no default services without an apiServerAddress', () => {
    expect(() => newCluster({ platform: ClusterPlatform.none() })).toThrow(/services \(\[\]\) must publish APIServer/);
  });
});

describe('NodePoolPlatform.none', () => {
  test('writes platform None', () => {
    const pool = newCluster(PLATFORMS.none()).addNodePool('workers', { platform: NodePoolPlatform.none() });
    expect(findObject(synthAppOf(pool), 'NodePool').spec.platform).toEqual({ type: 'None' });
  });
});
