// rollout status from what was read (rolloutStatusReport, pure): per rollout, wave and cluster, from
// live objects of the status corpus; the text, the Markdown (within a comment for 5,000 clusters) and
// the JSON against its schema. The reading itself is tested against a real API server
// (test/server/rollout-advance.test.ts).
import Ajv2020 from 'ajv/dist/2020';
import {
  advanceExitCode,
  LiveCluster,
  LiveClusters,
  ROLLOUT_STATUS_JSON_SCHEMA,
  RolloutAdvanceOutcome,
  RolloutRecord,
  RolloutRecordSpec,
  rolloutStatusMarkdown,
  rolloutStatusReport,
  rolloutStatusText,
} from '../../lib';
import { HEALTHY_CLUSTER, HEALTHY_POOL, STATUS_CORPUS } from '../status/status-corpus';

const NOW = new Date('2026-05-01T12:00:00Z');
const shape = (name: string): any => STATUS_CORPUS.find((s) => s.name === name)!.object;

/** Cluster `name` made of a corpus HostedCluster and NodePool (renamed), on its management cluster. */
function cluster(name: string, hostedCluster: any = DONE, pool: any = POOL_DONE): LiveCluster {
  return {
    hostedCluster: { ...hostedCluster, metadata: { ...hostedCluster.metadata, name } },
    nodePools: [{ ...pool, metadata: { ...pool.metadata, name: `${name}-workers` }, spec: { ...pool.spec, clusterName: name } }],
  };
}

/** A shape at rest at 4.17.3 (over 4.17.0), relabelled to the rollout's release: at rest at 4.17.5 (over 4.17.3). */
const atTarget = (object: any): any =>
  JSON.parse(
    JSON.stringify(object)
      .replace(/4\.17\.3/g, '4.17.5')
      .replace(/4\.17\.0/g, '4.17.3'),
  );
const DONE = atTarget(HEALTHY_CLUSTER);
const POOL_DONE = atTarget(HEALTHY_POOL);

function record(spec: Partial<RolloutRecordSpec> = {}): RolloutRecord {
  return {
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'ReleaseRollout',
    metadata: { name: 'r' },
    spec: {
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.5-multi', version: '4.17.5' },
      releasedWaves: 3,
      onFailure: 'Continue',
      failedClusters: ['hub-a/clusters/c2'],
      failureReasons: { 'hub-a/clusters/c2': 'control plane: refused before' },
      waves: [
        { name: 'canaries', clusters: ['hub-a/clusters/c1', 'hub-a/clusters/c2'], releasedAt: '2026-05-01T06:00:00Z' },
        { name: 'wave-2', clusters: ['hub-a/clusters/c3', 'hub-a/clusters/c4', 'hub-a/clusters/c5', 'hub-a/clusters/c6', 'hub-a/clusters/c7'], releasedAt: '2026-05-01T11:00:00Z' },
        { name: 'wave-3', clusters: ['hub-a/clusters/c8', 'hub-b/clusters/c9'], holdNodePools: true, releasedAt: '2026-05-01T11:30:00Z' },
        { name: 'rest', clusters: ['hub-a/clusters/c10'] },
      ],
      ...spec,
    },
  };
}

const LIVE: LiveClusters = {
  hubs: [
    { managementFolder: 'hub-a', context: 'hub-a', server: 'https://api.hub-a.example.com:6443', namespaces: ['clusters'], clusters: 8, hostedClustersRead: 8, nodePoolsRead: 8, pages: 2 },
    { managementFolder: 'hub-b', context: 'hub-b', namespaces: ['clusters'], clusters: 1, hostedClustersRead: 0, nodePoolsRead: 0, pages: 0, error: 'cannot reach the management cluster' },
  ],
  clusters: new Map([
    ['hub-a/clusters/c1', cluster('c1')],
    ['hub-a/clusters/c2', cluster('c2', shape('hc: release payload not accepted by the version operator'))],
    ['hub-a/clusters/c3', cluster('c3', shape('hc: control plane upgrading (version operator has taken it)'), HEALTHY_POOL)],
    ['hub-a/clusters/c4', cluster('c4', DONE, shape('np: rolling a new version'))],
    ['hub-a/clusters/c5', cluster('c5', shape('hc: reconciliation paused'), HEALTHY_POOL)],
    ['hub-a/clusters/c6', { nodePools: [] }],
    ['hub-a/clusters/c7', cluster('c7', DONE, shape('np: cannot get machines, no cloud capacity'))],
    ['hub-a/clusters/c8', cluster('c8', DONE, HEALTHY_POOL)],
    ['hub-a/clusters/c10', cluster('c10', HEALTHY_CLUSTER, HEALTHY_POOL)],
  ]),
};

describe('rolloutStatusReport', () => {
  const report = rolloutStatusReport({ output: 'dist', records: new Map([['r', record()]]), live: LIVE, now: NOW });
  const rollout = report.rollouts[0];

  test('each cluster: pending, control-plane-upgrading, pools-rolling, done, failed (recorded or with HyperShift’s reason), paused, held, not-found, unread', () => {
    expect(rollout.waves.flatMap((w) => w.clusters.map((c) => [c.cluster.split('/')[2], c.state, c.reason ?? '', c.recorded ?? false]))).toEqual([
      ['c1', 'done', '', false],
      ['c2', 'failed', 'control plane: refused before', true],
      ['c3', 'control-plane-upgrading', 'control plane updating to 4.17.5', false],
      ['c4', 'pools-rolling', 'pool c4-workers rolling', false],
      ['c5', 'paused', 'paused until 2026-12-01T00:00:00Z', false],
      ['c6', 'not-found', 'its management cluster holds no HostedCluster of that name', false],
      ['c7', 'failed', expect.stringMatching(/^pool c7-workers: cannot get machines: AllMachinesReady is False \(InstanceProvisionFailed\)/), false],
      ['c8', 'held', 'pools c8-workers held on the release before', false],
      ['c9', 'unread', 'management cluster hub-b could not be read', false],
      ['c10', 'pending', '', false],
    ]);
  });

  test('what each part runs, by the model; counts by wave and rollout; when a wave times out', () => {
    expect(rollout.waves[1].clusters[0]).toMatchObject({
      controlPlane: { version: '4.17.3', model: 'progressing/upgrading', summary: 'the control plane is upgrading from 4.17.3 to 4.17.5' },
      nodePools: [{ name: 'c3-workers', version: '4.17.3', model: 'healthy', summary: 'running 4.17.3' }],
    });
    expect(rollout.waves[3].clusters[0]).toMatchObject({ controlPlane: { version: '4.17.3' } });
    expect(rollout.waves.map((w) => [w.name, w.released, w.releasedAt, w.timesOutAt, w.counts])).toEqual([
      ['canaries', true, '2026-05-01T06:00:00Z', undefined, { done: 1, failed: 1 }],
      ['wave-2', true, '2026-05-01T11:00:00Z', '2026-05-01T15:00:00Z', { 'control-plane-upgrading': 1, 'pools-rolling': 1, 'failed': 1, 'paused': 1, 'not-found': 1 }],
      ['wave-3', true, '2026-05-01T11:30:00Z', '2026-05-01T15:30:00Z', { held: 1, unread: 1 }],
      ['rest', false, undefined, undefined, { pending: 1 }],
    ]);
    expect(rollout.counts).toEqual({ 'pending': 1, 'control-plane-upgrading': 1, 'pools-rolling': 1, 'done': 1, 'failed': 2, 'paused': 1, 'held': 1, 'not-found': 1, 'unread': 1 });
  });

  test('a management cluster of a released wave not read: no decision, and why', () => {
    expect(rollout.next).toBeUndefined();
    expect(rollout.undecided).toBe('management cluster hub-b, which runs clusters of its released waves, could not be read: cannot reach the management cluster');
    const read = rolloutStatusReport({
      output: 'dist',
      records: new Map([['r', record({ waves: record().spec.waves.map((w) => ({ ...w, clusters: w.clusters.filter((c) => !c.startsWith('hub-b/')) })) })]]),
      live: LIVE,
      now: NOW,
    });
    expect(read.rollouts[0].next).toEqual({
      outcome: RolloutAdvanceOutcome.BLOCKED,
      exitCode: 3,
      summary: expect.stringMatching(/^r: blocked: wave 3 \(wave-3\) holds its pools on the release before/),
      reasons: expect.arrayContaining(['hub-a/clusters/c5 of wave 2 is paused until 2026-12-01T00:00:00Z; unpause it, or set onPaused to Continue']),
    });
  });

  test('the JSON matches its schema', () => {
    expect(new Ajv2020({ strict: true }).compile(ROLLOUT_STATUS_JSON_SCHEMA)(JSON.parse(JSON.stringify(report)))).toBe(true);
  });

  test('text: the management clusters, then per rollout its waves and each cluster neither done nor pending', () => {
    expect(rolloutStatusText(report).split('\n')).toEqual([
      'rollout status of dist at 2026-05-01T12:00:00Z: 10 clusters of 1 rollout on 2 management clusters',
      '  hub-a: context hub-a (https://api.hub-a.example.com:6443): 8 HostedClusters and 8 NodePools listed in namespace clusters (2 pages)',
      '  hub-b: not read (context hub-b): cannot reach the management cluster; its 1 cluster is unread',
      '',
      'rollout r (4.17.5): 3 of 4 waves released: 1 pending, 1 control-plane-upgrading, 1 pools-rolling, 1 done, 2 failed, 1 paused, 1 held, 1 not-found, 1 unread',
      '  next: not decided: management cluster hub-b, which runs clusters of its released waves, could not be read: cannot reach the management cluster',
      '  wave 1 (canaries), released 2026-05-01T06:00:00Z: 1 done, 1 failed',
      '    failed: hub-a/clusters/c2 (recorded): control plane: refused before',
      '  wave 2 (wave-2), released 2026-05-01T11:00:00Z, times out at 2026-05-01T15:00:00Z: 1 control-plane-upgrading, 1 pools-rolling, 1 failed, 1 paused, 1 not-found',
      '    control-plane-upgrading: hub-a/clusters/c3: control plane updating to 4.17.5',
      '    pools-rolling: hub-a/clusters/c4: pool c4-workers rolling',
      '    paused: hub-a/clusters/c5: paused until 2026-12-01T00:00:00Z',
      '    not-found: hub-a/clusters/c6: its management cluster holds no HostedCluster of that name',
      '    failed: hub-a/clusters/c7: pool c7-workers: cannot get machines: AllMachinesReady is False (InstanceProvisionFailed): 1 of 3 machines are not ready ' +
        'Machine c1-workers-5d8e2-zzzzz: InstanceProvisionFailed: failed to create AWSMachine instance: InsufficientInstanceCapacity: We currently do not have sufficient m6i.xlarge capacity in the Availability Zone you requested (us-east-1a).',
      '  wave 3 (wave-3), released 2026-05-01T11:30:00Z, times out at 2026-05-01T15:30:00Z, holds its pools: 1 held, 1 unread',
      '    held: hub-a/clusters/c8: pools c8-workers held on the release before',
      '    unread: hub-b/clusters/c9: management cluster hub-b could not be read',
      '  wave 4 (rest): 1 pending',
      '',
    ]);
  });

  test('Markdown of a rollout of 5,000 clusters, half of a wave failing: within a comment, each state of a wave listed 20 at most', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `hub-a/clusters/c${i}`);
    const big = record({
      failedClusters: [],
      failureReasons: {},
      releasedWaves: 2,
      waves: [
        { name: 'canaries', clusters: ids.slice(0, 2), releasedAt: '2026-05-01T10:00:00Z' },
        { name: 'wave-2', clusters: ids.slice(2, 3002), releasedAt: '2026-05-01T11:00:00Z' },
        { name: 'rest', clusters: ids.slice(3002) },
      ],
    });
    const failing = shape('hc: release payload not accepted by the version operator');
    const clusters = new Map(ids.map((id, i) => [id, cluster(id.split('/')[2], i % 2 === 0 ? DONE : failing)]));
    const markdown = rolloutStatusMarkdown(rolloutStatusReport({ output: 'dist', records: new Map([['r', big]]), live: { hubs: [LIVE.hubs[0]], clusters }, now: NOW }));
    expect(markdown.length).toBeLessThan(65_536);
    expect(markdown).toContain(
      '**Next:** advance (exit 0): r: release wave 3 (rest), 1,998 clusters: 1,501 of the 3,002 clusters of the released waves run 4.17.5; 1,501 failures recorded (hub-a/clusters/c1, hub-a/clusters/c3, hub-a/clusters/c5 and 1,498 more)\n',
    );
    expect(markdown).toContain('| 2 wave-2 | 2026-05-01T11:00:00Z | 3,000 | 1,500 done, 1,500 failed |');
    expect(markdown).toContain('- wave 2: 1,480 more failed');
    expect(markdown.split('\n').filter((l) => l.startsWith('- wave 2: failed: '))).toHaveLength(20);
  });
});

describe('advanceExitCode', () => {
  test('one rollout: its own; several: blocked first, then advance, wait, complete', () => {
    const { ADVANCE, WAIT, BLOCKED, COMPLETE } = RolloutAdvanceOutcome;
    expect([[ADVANCE], [WAIT], [BLOCKED], [COMPLETE]].map(advanceExitCode)).toEqual([0, 2, 3, 4]);
    expect(
      [
        [ADVANCE, BLOCKED],
        [WAIT, ADVANCE],
        [COMPLETE, WAIT],
        [COMPLETE, COMPLETE],
      ].map(advanceExitCode),
    ).toEqual([3, 0, 2, 4]);
  });
});
