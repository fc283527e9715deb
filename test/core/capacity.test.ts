import {
  CapacityLimitingFactor,
  controlPlaneUsageAt,
  DEFAULT_MAX_PODS_PER_NODE,
  estimateCapacity,
  formatCapacityReport,
  HcpValidationError,
  HCP_IDLE_MEMORY_USAGE_GIB,
  HCP_IDLE_VCPU_USAGE,
  HCP_MEMORY_REQUESTS_GIB,
  HCP_MEMORY_USAGE_GIB_PER_1000_QPS,
  HCP_PODS_FOR_PLANNING,
  HCP_VCPU_REQUESTS,
  HCP_VCPU_USAGE_PER_1000_QPS,
  HIGH_API_LOAD_QPS,
  LOW_API_LOAD_QPS,
  MEDIUM_API_LOAD_QPS,
} from '../../lib';

// Doc 2.2.4, table 2.4: three bare-metal control-plane workers, maxPods 500, about 1000 QPS.
const SERVER_1 = { count: 3, vCpus: 64, memoryGiB: 128, maxPods: 500 };
const SERVER_2 = { count: 3, vCpus: 128, memoryGiB: 256, maxPods: 500 };

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(HcpValidationError);
    return (e as HcpValidationError).problems;
  }
  throw new Error('test setup: expected an HcpValidationError');
}

describe('sizing constants (doc 2.2)', () => {
  test('hold the figures of doc 2.2.1 to 2.2.3', () => {
    expect(HCP_VCPU_REQUESTS).toBe(5);
    expect(HCP_MEMORY_REQUESTS_GIB).toBe(18);
    expect(HCP_IDLE_VCPU_USAGE).toBe(2.9);
    expect(HCP_IDLE_MEMORY_USAGE_GIB).toBe(11.1);
    expect(HCP_VCPU_USAGE_PER_1000_QPS).toBe(9.0);
    expect(HCP_MEMORY_USAGE_GIB_PER_1000_QPS).toBe(2.5);
    expect(HCP_PODS_FOR_PLANNING).toBe(75);
    expect(DEFAULT_MAX_PODS_PER_NODE).toBe(250);
    expect([LOW_API_LOAD_QPS, MEDIUM_API_LOAD_QPS, HIGH_API_LOAD_QPS]).toEqual([50, 1000, 2000]);
  });
});

describe('controlPlaneUsageAt', () => {
  test('reproduces the medium and high rows of table 2.3', () => {
    const medium = controlPlaneUsageAt(MEDIUM_API_LOAD_QPS);
    expect(medium.vCpus).toBeCloseTo(11.9, 10);
    expect(medium.memoryGiB).toBeCloseTo(13.6, 10);
    const high = controlPlaneUsageAt(HIGH_API_LOAD_QPS);
    expect(high.vCpus).toBeCloseTo(20.9, 10);
    expect(high.memoryGiB).toBeCloseTo(16.1, 10);
  });

  test('is the idle usage at 0 QPS, the low row of table 2.3', () => {
    expect(controlPlaneUsageAt(0)).toEqual({ vCpus: 2.9, memoryGiB: 11.1 });
  });

  test('applies the formula at the low class of 50 QPS, a little above the idle row', () => {
    const low = controlPlaneUsageAt(LOW_API_LOAD_QPS);
    expect(low.vCpus).toBeCloseTo(3.35, 10);
    expect(low.memoryGiB).toBeCloseTo(11.225, 10);
  });

  test('fails when qps is negative', () => {
    expect(problemsOf(() => controlPlaneUsageAt(-5))).toEqual(['controlPlaneUsageAt: qps (-5) must be a number of at least 0']);
  });
});

describe('estimateCapacity: doc 2.2.4 worked example', () => {
  test('server 1 (64 vCPU, 128 GiB) matches table 2.5 field by field', () => {
    const estimate = estimateCapacity({ workers: SERVER_1, qps: 1000 });
    expect(estimate.perWorker).toHaveLength(3);
    for (const worker of estimate.perWorker) {
      expect(worker.vCpus).toBe(64);
      expect(worker.memoryGiB).toBe(128);
      expect(worker.maxPods).toBe(500);
      expect(worker.byVCpuRequests).toBeCloseTo(12.8, 1);
      expect(worker.byVCpuUsage).toBeCloseTo(5.4, 1);
      expect(worker.byMemoryRequests).toBeCloseTo(7.1, 1);
      expect(worker.byMemoryUsage).toBeCloseTo(9.4, 1);
      expect(worker.byMaxPods).toBeCloseTo(6.7, 1);
      expect(worker.minimum).toBeCloseTo(5.4, 1);
      expect(worker.limitingFactor).toBe(CapacityLimitingFactor.VCPU_USAGE);
    }
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.VCPU_USAGE);
    expect(estimate.limitingFactors).toEqual([CapacityLimitingFactor.VCPU_USAGE]);
    expect(estimate.maxHostedControlPlanes).toBe(16);
  });

  test('server 2 (128 vCPU, 256 GiB) matches table 2.5 field by field', () => {
    const estimate = estimateCapacity({ workers: SERVER_2, qps: 1000 });
    const worker = estimate.perWorker[0];
    expect(worker.byVCpuRequests).toBeCloseTo(25.6, 1);
    // The table prints 10.7 for 128 / 11.9 = 10.756, truncated where its other figures are rounded.
    expect(worker.byVCpuUsage).toBeCloseTo(10.756, 3);
    expect(Math.trunc(worker.byVCpuUsage * 10) / 10).toBe(10.7);
    expect(worker.byMemoryRequests).toBeCloseTo(14.2, 1);
    expect(worker.byMemoryUsage).toBeCloseTo(18.8, 1);
    expect(worker.byMaxPods).toBeCloseTo(6.7, 1);
    expect(worker.minimum).toBeCloseTo(6.7, 1);
    expect(worker.limitingFactor).toBe(CapacityLimitingFactor.MAX_PODS);
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.MAX_PODS);
    expect(estimate.maxHostedControlPlanes).toBe(20);
  });

  test('sums each limit over the workers', () => {
    const estimate = estimateCapacity({ workers: SERVER_1 });
    expect(estimate.total.byVCpuRequests).toBeCloseTo(38.4, 10);
    expect(estimate.total.byVCpuUsage).toBeCloseTo((3 * 64) / 11.9, 10);
    expect(estimate.total.byMemoryRequests).toBeCloseTo((3 * 128) / 18, 10);
    expect(estimate.total.byMemoryUsage).toBeCloseTo((3 * 128) / 13.6, 10);
    expect(estimate.total.byMaxPods).toBeCloseTo(20, 10);
    expect(estimate.totalMinimum).toBeCloseTo(16.134, 3);
  });

  test('defaults qps to the medium load of 1000 and reports the usage per control plane', () => {
    const estimate = estimateCapacity({ workers: SERVER_1 });
    expect(estimate.qps).toBe(1000);
    expect(estimate.usagePerControlPlane.vCpus).toBeCloseTo(11.9, 10);
    expect(estimate.usagePerControlPlane.memoryGiB).toBeCloseTo(13.6, 10);
    expect(estimate).toEqual(estimateCapacity({ workers: SERVER_1, qps: 1000 }));
  });

  test('a list of identical workers gives the same estimate as a group', () => {
    const one = { vCpus: 64, memoryGiB: 128, maxPods: 500 };
    expect(estimateCapacity({ workers: [one, one, one] })).toEqual(estimateCapacity({ workers: SERVER_1 }));
  });
});

describe('estimateCapacity: edge cases', () => {
  test('uses the kubelet default of 250 maxPods, roughly three control planes per node (doc 2.2.1)', () => {
    const estimate = estimateCapacity({ workers: { count: 3, vCpus: 64, memoryGiB: 128 } });
    expect(estimate.perWorker[0].maxPods).toBe(250);
    expect(estimate.perWorker[0].byMaxPods).toBeCloseTo(3.33, 2);
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.MAX_PODS);
    expect(estimate.maxHostedControlPlanes).toBe(10);
  });

  test('at 0 QPS the load-based limits use the idle usage', () => {
    const estimate = estimateCapacity({ workers: { count: 1, vCpus: 64, memoryGiB: 128, maxPods: 1000 }, qps: 0 });
    const worker = estimate.perWorker[0];
    expect(worker.byVCpuUsage).toBeCloseTo(64 / 2.9, 10);
    expect(worker.byMemoryUsage).toBeCloseTo(128 / 11.1, 10);
    // Idle, the requests bind before the usage does.
    expect(worker.limitingFactor).toBe(CapacityLimitingFactor.MEMORY_REQUESTS);
    expect(estimate.maxHostedControlPlanes).toBe(7);
  });

  test('at the high load of 2000 QPS the vCPU usage limits the doc 2.2.4 server 1', () => {
    const estimate = estimateCapacity({ workers: SERVER_1, qps: HIGH_API_LOAD_QPS });
    expect(estimate.perWorker[0].byVCpuUsage).toBeCloseTo(64 / 20.9, 10);
    expect(estimate.perWorker[0].byMemoryUsage).toBeCloseTo(128 / 16.1, 10);
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.VCPU_USAGE);
    expect(estimate.maxHostedControlPlanes).toBe(9);
  });

  test('at the low load of 50 QPS the maxPods limit binds on the doc 2.2.4 server 1', () => {
    const estimate = estimateCapacity({ workers: SERVER_1, qps: LOW_API_LOAD_QPS });
    expect(estimate.perWorker[0].byVCpuUsage).toBeCloseTo(64 / 3.35, 10);
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.MAX_PODS);
    expect(estimate.maxHostedControlPlanes).toBe(20);
  });

  test('mixed workers: sums the per-worker minimums and lists every limiting factor', () => {
    const small = { vCpus: 64, memoryGiB: 128, maxPods: 500 };
    const large = { vCpus: 128, memoryGiB: 256, maxPods: 500 };
    const estimate = estimateCapacity({ workers: [small, large, large] });
    expect(estimate.perWorker.map((w) => w.limitingFactor)).toEqual([CapacityLimitingFactor.VCPU_USAGE, CapacityLimitingFactor.MAX_PODS, CapacityLimitingFactor.MAX_PODS]);
    expect(estimate.totalMinimum).toBeCloseTo(64 / 11.9 + (2 * 500) / 75, 10);
    expect(estimate.maxHostedControlPlanes).toBe(18);
    expect(estimate.limitingFactors).toEqual([CapacityLimitingFactor.VCPU_USAGE, CapacityLimitingFactor.MAX_PODS]);
    // maxPods binds on two of the three workers.
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.MAX_PODS);
  });

  test('a tie between workers goes to the factor listed first in doc 2.2.4', () => {
    const small = { vCpus: 64, memoryGiB: 128, maxPods: 500 };
    const large = { vCpus: 128, memoryGiB: 256, maxPods: 500 };
    const estimate = estimateCapacity({ workers: [large, small] });
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.VCPU_USAGE);
    expect(estimate.maxHostedControlPlanes).toBe(12);
  });

  test('a tie within a worker goes to the factor listed first in doc 2.2.4', () => {
    // 5 vCPU / 5 and 18 GiB / 18 both give exactly one control plane.
    const estimate = estimateCapacity({ workers: [{ vCpus: 5, memoryGiB: 18, maxPods: 500 }], qps: 0 });
    expect(estimate.perWorker[0].byVCpuRequests).toBe(1);
    expect(estimate.perWorker[0].byMemoryRequests).toBe(1);
    expect(estimate.perWorker[0].limitingFactor).toBe(CapacityLimitingFactor.VCPU_REQUESTS);
    expect(estimate.maxHostedControlPlanes).toBe(1);
  });

  test('rounds down the sum, not each worker, and loses no control plane to floating point', () => {
    // Ten workers of 0.1 control plane each: 0.1 added ten times is 0.9999999999999999.
    const estimate = estimateCapacity({ workers: { count: 10, vCpus: 0.5, memoryGiB: 1000, maxPods: 500 }, qps: 0 });
    expect(estimate.perWorker[0].minimum).toBeCloseTo(0.1, 10);
    expect(estimate.totalMinimum).toBeLessThan(1);
    expect(estimate.maxHostedControlPlanes).toBe(1);
  });

  test('a worker too small for one control plane gives a capacity of 0', () => {
    const estimate = estimateCapacity({ workers: [{ vCpus: 4, memoryGiB: 16 }] });
    expect(estimate.maxHostedControlPlanes).toBe(0);
    expect(estimate.limitingFactor).toBe(CapacityLimitingFactor.VCPU_USAGE);
  });
});

describe('estimateCapacity: validation', () => {
  test('fails when a worker has no vCPUs', () => {
    expect(
      problemsOf(() =>
        estimateCapacity({
          workers: [
            { vCpus: 64, memoryGiB: 128 },
            { vCpus: 0, memoryGiB: 128 },
          ],
        }),
      ),
    ).toEqual(['estimateCapacity: workers[1].vCpus (0) must be a number greater than 0']);
  });

  test('fails when memory is negative or not a finite number', () => {
    expect(
      problemsOf(() =>
        estimateCapacity({
          workers: [
            { vCpus: 64, memoryGiB: -1 },
            { vCpus: 64, memoryGiB: NaN },
          ],
        }),
      ),
    ).toEqual(['estimateCapacity: workers[0].memoryGiB (-1) must be a number greater than 0', 'estimateCapacity: workers[1].memoryGiB (NaN) must be a number greater than 0']);
  });

  test('fails when maxPods is not a whole number of at least 1', () => {
    expect(problemsOf(() => estimateCapacity({ workers: [{ vCpus: 64, memoryGiB: 128, maxPods: 2.5 }] }))).toEqual(['estimateCapacity: workers[0].maxPods (2.5) must be a whole number of at least 1']);
    expect(problemsOf(() => estimateCapacity({ workers: [{ vCpus: 64, memoryGiB: 128, maxPods: 0 }] }))).toEqual(['estimateCapacity: workers[0].maxPods (0) must be a whole number of at least 1']);
  });

  test('fails when the worker list is empty', () => {
    expect(problemsOf(() => estimateCapacity({ workers: [] }))).toEqual(['estimateCapacity: workers ([]) must list at least one control-plane worker']);
  });

  test('fails when a group count is not a whole number of at least 1', () => {
    expect(problemsOf(() => estimateCapacity({ workers: { ...SERVER_1, count: 0 } }))).toEqual(['estimateCapacity: workers.count (0) must be a whole number of at least 1']);
    expect(problemsOf(() => estimateCapacity({ workers: { ...SERVER_1, count: 1.5 } }))).toEqual(['estimateCapacity: workers.count (1.5) must be a whole number of at least 1']);
  });

  test('fails when qps is negative or infinite', () => {
    expect(problemsOf(() => estimateCapacity({ workers: SERVER_1, qps: -1 }))).toEqual(['estimateCapacity: qps (-1) must be a number of at least 0']);
    expect(problemsOf(() => estimateCapacity({ workers: SERVER_1, qps: Infinity }))).toEqual(['estimateCapacity: qps (Infinity) must be a number of at least 0']);
  });

  test('fails when workers is missing (JavaScript callers)', () => {
    expect(problemsOf(() => estimateCapacity({} as any))).toEqual(['estimateCapacity: workers (undefined) must be a list of control-plane workers or a group with a count']);
  });

  test('reports every problem at once', () => {
    expect(problemsOf(() => estimateCapacity({ workers: { count: -2, vCpus: 0, memoryGiB: 0, maxPods: -1 }, qps: -3 }))).toEqual([
      'estimateCapacity: qps (-3) must be a number of at least 0',
      'estimateCapacity: workers.count (-2) must be a whole number of at least 1',
      'estimateCapacity: workers.vCpus (0) must be a number greater than 0',
      'estimateCapacity: workers.memoryGiB (0) must be a number greater than 0',
      'estimateCapacity: workers.maxPods (-1) must be a whole number of at least 1',
    ]);
  });
});

describe('formatCapacityReport', () => {
  const server1 = estimateCapacity({ workers: SERVER_1 });

  test('prints the limits, capacity, plan and headroom as aligned lines', () => {
    expect(formatCapacityReport('hub', server1, 12).split('\n')).toEqual([
      'hub: hosted control plane capacity of 3 control-plane workers at 1000 QPS',
      '  by vCPU requests     38.4',
      '  by vCPU usage        16.1',
      '  by memory requests   21.3',
      '  by memory usage      28.2',
      '  by maxPods           20.0',
      '  capacity             16 (limited by vCPU usage)',
      '  planned              12 highly available',
      '  headroom             4',
    ]);
  });

  test('counts single-replica control planes as highly available ones and says so', () => {
    const lines = formatCapacityReport('hub', server1, 12, 2).split('\n');
    expect(lines.slice(-2)).toEqual(['  planned              14 (12 highly available + 2 single replica, counted as highly available)', '  headroom             2']);
  });

  test('prints no warning when the plan fills the capacity exactly', () => {
    const report = formatCapacityReport('hub', server1, 16);
    expect(report).not.toMatch(/warning/);
    expect(report.split('\n').pop()).toBe('  headroom             0');
  });

  test('warns when more control planes are planned than fit (MG-04)', () => {
    const lines = formatCapacityReport('hub', server1, 15, 3).split('\n');
    expect(lines.slice(-3)).toEqual([
      '  planned              18 (15 highly available + 3 single replica, counted as highly available)',
      '  headroom             -2',
      'warning: hub: 18 planned hosted control planes exceed the estimated capacity of 16 (limited by vCPU usage); ' + 'add control-plane workers or plan fewer hosted clusters (doc 2.2.4)',
    ]);
  });

  test('notes the kubelet default maxPods when it is the limit (doc 2.2.1)', () => {
    const estimate = estimateCapacity({ workers: { count: 3, vCpus: 64, memoryGiB: 128 } });
    const lines = formatCapacityReport('hub', estimate, 3).split('\n');
    expect(lines[6]).toBe('  capacity             10 (limited by maxPods)');
    expect(lines.pop()).toBe('note: hub: the default maxPods of 250 limits 3 workers; ' + 'doc 2.2.1 suggests 500 through a KubeletConfig for higher density');
    expect(formatCapacityReport('hub', estimateCapacity({ workers: SERVER_2 }), 3)).not.toMatch(/note/);
  });

  test('names every limiting factor of mixed workers and a single worker in the singular', () => {
    const estimate = estimateCapacity({
      workers: [
        { vCpus: 64, memoryGiB: 128, maxPods: 500 },
        { vCpus: 128, memoryGiB: 256, maxPods: 500 },
      ],
      qps: 2000,
    });
    // At 2000 QPS both sizes run out of vCPU before pods: one factor, named once.
    expect(formatCapacityReport('hub', estimate, 0).split('\n')[6]).toBe('  capacity             9 (limited by vCPU usage)');
    const mixed = estimateCapacity({
      workers: [
        { vCpus: 64, memoryGiB: 128, maxPods: 500 },
        { vCpus: 128, memoryGiB: 256, maxPods: 500 },
      ],
    });
    expect(formatCapacityReport('hub', mixed, 0).split('\n')[6]).toBe('  capacity             12 (limited by vCPU usage, maxPods)');
    const single = estimateCapacity({ workers: [{ vCpus: 64, memoryGiB: 128, maxPods: 500 }], qps: 0 });
    expect(formatCapacityReport('hub', single, 0).split('\n')[0]).toBe('hub: hosted control plane capacity of 1 control-plane worker at 0 QPS');
  });

  test('fails when the planned numbers are not whole numbers of at least 0', () => {
    expect(problemsOf(() => formatCapacityReport('hub', server1, -1, 1.5))).toEqual([
      'hub: plannedHighlyAvailable (-1) must be a whole number of at least 0',
      'hub: plannedSingleReplica (1.5) must be a whole number of at least 0',
    ]);
  });

  test('fails when the name is empty', () => {
    expect(problemsOf(() => formatCapacityReport(' ', server1, 1))).toEqual(['formatCapacityReport: name (" ") must be a non-empty string']);
  });
});
