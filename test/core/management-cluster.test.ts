// A management cluster's capacity estimate (docs 2.2) against the hosted clusters declared on it.
import { App } from 'cdk8s';
import { AvailabilityPolicy, ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } from '../../lib';
import { synthProblems } from '../util';

function hubWith(clusters: number, singleReplica = 0): { app: HcpApp; hub: ManagementCluster } {
  const app = new HcpApp();
  const hub = new ManagementCluster(app, 'hub', { capacity: { workers: { count: 3, vCpus: 64, memoryGiB: 128, maxPods: 500 }, qps: 1000 } });
  for (let i = 0; i < clusters + singleReplica; i++) {
    new HostedCluster(hub, `c${i}`, {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: `api.c${i}.example.com` }),
      controllerAvailabilityPolicy: i < clusters ? AvailabilityPolicy.HIGHLY_AVAILABLE : AvailabilityPolicy.SINGLE_REPLICA,
    });
  }
  return { app, hub };
}

test('reports the doc 2.2.4 estimate against the clusters declared, without a warning while under it', () => {
  const report = hubWith(15).app.capacityReports();
  expect(report).toHaveLength(1);
  expect(report[0].split('\n')).toEqual(expect.arrayContaining(['  capacity             16 (limited by vCPU usage)', '  planned              15 highly available', '  headroom             1']));
  expect(report[0]).not.toMatch(/warning/);
});

test('warns when the management cluster holds more hosted control planes than its estimate (single replicas counted as one each)', () => {
  const [report] = hubWith(16, 1).app.capacityReports();
  expect(report).toMatch(/^warning: hub: 17 planned hosted control planes exceed the estimated capacity of 16 \(limited by vCPU usage\)/m);
});

test('no report for a management cluster that does not declare its workers', () => {
  const app = new HcpApp();
  new ManagementCluster(app, 'hub');
  expect(app.capacityReports()).toEqual([]);
});

test("fails when worker figures are bad, naming the management cluster and its capacity field, with the objects' problems", () => {
  const problems = synthProblems((app) => {
    const hub = new ManagementCluster(app, 'hub', { capacity: { workers: { count: '3' as any, vCpus: 0, memoryGiB: 128 }, qps: -1 } });
    // The chart's own problem does not hide the problems of the objects in it.
    new HostedCluster(hub, 'c1', { release: Release.fromVersion('4.17.0'), pullSecret: SecretSource.fromExistingSecret('pull-secret'), platform: ClusterPlatform.kubevirt() }).addOverride(
      'spec.infraID',
      'Not_Valid',
    );
  });
  expect(problems).toEqual([
    'hub: capacity.qps (-1) must be a number of at least 0',
    'hub: capacity.workers.count ("3") must be a whole number of at least 1',
    'hub: capacity.workers.vCpus (0) must be a number greater than 0',
    expect.stringMatching(/^hub\/c1\/Resource: HostedCluster clusters\/c1: spec\.infraID: /),
  ]);
});

test('fails from JavaScript, outside an HcpApp too, where the figures are given', () => {
  expect(() => new ManagementCluster(new App(), 'hub', { capacity: { workers: { count: 3, vCpus: 'many' as any, memoryGiB: 128 } } })).toThrow(
    'hub: capacity.workers.vCpus ("many") must be a number greater than 0',
  );
});
