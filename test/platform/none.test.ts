import { ClusterPlatform, NodePoolPlatform } from '../../lib';
import { PLATFORMS, newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

describe('ClusterPlatform.none', () => {
  test('writes platform None with the example.com base domain', () => {
    const spec = findObject(synthAppOf(newCluster(PLATFORMS.none())), 'HostedCluster').spec;
    expect(spec.platform).toEqual({ type: 'None' });
    expect(spec.dns).toEqual({ baseDomain: 'example.com' });
  });

  test('fails without an apiServerAddress and services: nothing publishes the control plane', () => {
    expect(synthProblems((app) => newCluster({ platform: ClusterPlatform.none() }, app))).toEqual([
      'hub/c1: services (undefined) must publish APIServer, OAuthServer, Konnectivity, Ignition; give the platform an apiServerAddress or set services for platform None',
    ]);
  });
});

describe('NodePoolPlatform.none', () => {
  test('writes platform None', () => {
    const pool = newCluster(PLATFORMS.none()).addNodePool('workers', { platform: NodePoolPlatform.none() });
    expect(findObject(synthAppOf(pool), 'NodePool').spec.platform).toEqual({ type: 'None' });
  });
});
