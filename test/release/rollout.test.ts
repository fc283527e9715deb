import { describeRollout, UpgradeType } from '../../lib';
import { newCluster, synthAppOf } from '../props';
import { findObject } from '../util';

/** The rollout of pool `workers` as synthesized, so the helper reads what hcp-cdk writes. */
function rolloutOf(options: Parameters<ReturnType<typeof newCluster>['addNodePool']>[1]) {
  return describeRollout(findObject(synthAppOf(newCluster().addNodePool('workers', options)), 'NodePool').spec);
}

describe('describeRollout', () => {
  test('Replace defaults to one new machine at a time and none unavailable (the CRD defaults)', () => {
    expect(rolloutOf({ upgradeType: UpgradeType.REPLACE, replicas: 3 })).toEqual({ strategy: 'Replace', maxSurge: 1, maxUnavailable: 0, nodes: 3, batches: 3 });
  });

  test('InPlace defaults to one node unavailable at a time', () => {
    expect(rolloutOf({ replicas: 4 })).toEqual({ strategy: 'InPlace', maxSurge: 0, maxUnavailable: 1, nodes: 4, batches: 4 });
  });

  test('takes numbers as given', () => {
    expect(rolloutOf({ upgradeType: UpgradeType.REPLACE, replicas: 10, maxSurge: 2, maxUnavailable: 1 })).toEqual({ strategy: 'Replace', maxSurge: 2, maxUnavailable: 1, nodes: 10, batches: 4 });
    expect(rolloutOf({ replicas: 10, maxUnavailable: 3 })).toEqual({ strategy: 'InPlace', maxSurge: 0, maxUnavailable: 3, nodes: 10, batches: 4 });
  });

  test('resolves percentages of the pool: surge rounds up, unavailability down', () => {
    expect(rolloutOf({ upgradeType: UpgradeType.REPLACE, replicas: 10, maxSurge: '25%', maxUnavailable: '25%' })).toEqual({
      strategy: 'Replace',
      maxSurge: 3,
      maxUnavailable: 2,
      nodes: 10,
      batches: 2,
    });
    expect(rolloutOf({ replicas: 7, maxUnavailable: '30%' })).toEqual({ strategy: 'InPlace', maxSurge: 0, maxUnavailable: 2, nodes: 7, batches: 4 });
  });

  test('makes one node unavailable when both resolve to 0 on Replace, as Cluster API does', () => {
    expect(describeRollout({ replicas: 3, management: { upgradeType: 'Replace', replace: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 } } } })).toEqual({
      strategy: 'Replace',
      maxSurge: 1,
      maxUnavailable: 0,
      nodes: 3,
      batches: 3,
    });
    expect(describeRollout({ replicas: 3, management: { upgradeType: 'Replace', replace: { strategy: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '10%' } } } })).toEqual({
      strategy: 'Replace',
      maxSurge: 0,
      maxUnavailable: 1,
      nodes: 3,
      batches: 3,
    });
  });

  test('leaves batches out when the InPlace rollout cannot progress (nothing may be unavailable)', () => {
    expect(rolloutOf({ replicas: 5, maxUnavailable: '10%' })).toEqual({ strategy: 'InPlace', maxSurge: 0, maxUnavailable: 0, nodes: 5 });
  });

  test('resolves percentages against the autoscaling minimum and leaves nodes and batches out', () => {
    expect(rolloutOf({ upgradeType: UpgradeType.REPLACE, autoScaling: { min: 4, max: 8 }, maxSurge: '50%' })).toEqual({ strategy: 'Replace', maxSurge: 2, maxUnavailable: 0 });
  });

  test('has no batches on OnDelete, where nodes are replaced as they are deleted by hand', () => {
    expect(describeRollout({ replicas: 3, management: { upgradeType: 'Replace', replace: { strategy: 'OnDelete' } } })).toEqual({ strategy: 'Replace', maxSurge: 0, maxUnavailable: 0, nodes: 3 });
  });

  test('rolls nothing in an empty pool', () => {
    expect(rolloutOf({ upgradeType: UpgradeType.REPLACE, replicas: 0 })).toEqual({ strategy: 'Replace', maxSurge: 1, maxUnavailable: 0, nodes: 0, batches: 0 });
  });
});
