// Release waves once released: their clusters are fixed by the output's record, released waves are
// neither taken back, removed nor redefined, a rollout in flight is retargeted one way, and what a
// commit does to the clusters of a released wave is said with its cause.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Duration } from 'cdk8s';
import {
  HcpApp,
  HostedCluster,
  ManagementCluster,
  PausedUntil,
  PreviousOutput,
  PreviousOutputSource,
  Release,
  ReleaseRollout,
  ReleaseRolloutProps,
  RolloutFailurePolicy,
  RolloutNewClusters,
  RolloutPausePolicy,
  RolloutRecord,
  RolloutState,
  RolloutWave,
  SecretSource,
} from '../../lib';
import { PLATFORMS } from '../props';
import { ROOT, synthObjects } from '../util';

const v = (version: string) => Release.fromVersion(version);
const TARGET = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';
const OLD = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';

interface ClusterShape {
  readonly hub?: string;
  readonly name: string;
  readonly labels?: Record<string, string>;
  /** @default true */
  readonly inRollout?: boolean;
  readonly release?: Release;
  readonly paused?: PausedUntil;
}

/** Six clusters on one hub, in this order; a canary, then batches of two, then the rest. */
const CLUSTERS: readonly ClusterShape[] = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6'].map((name) => ({ name }));
const WAVES = () => [RolloutWave.canaries(['c1']), RolloutWave.batch(2), RolloutWave.batch(2), RolloutWave.rest()];

interface Shape {
  readonly rollout?: Partial<ReleaseRolloutProps>;
  readonly clusters?: readonly ClusterShape[];
}

/** An app with rollout r over the clusters, pinned by `previousRecord` when given. */
function build(shape: Shape, previousRecord?: RolloutRecord, outdir = '/nonexistent'): { app: HcpApp; rollout: ReleaseRollout } {
  const app = new HcpApp({ outdir });
  const hubs = new Map<string, ManagementCluster>();
  const rollout = new ReleaseRollout(app, 'r', { release: v('4.17.3'), waves: WAVES(), ...(previousRecord ? { previousRecord } : {}), ...shape.rollout });
  for (const c of shape.clusters ?? CLUSTERS) {
    const hubName = c.hub ?? 'hub';
    if (!hubs.has(hubName)) hubs.set(hubName, new ManagementCluster(app, hubName));
    const cluster = new HostedCluster(hubs.get(hubName)!, c.name, {
      release: c.release ?? v('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      ...PLATFORMS.kubevirt(),
      labels: c.labels,
      rollout: c.inRollout === false ? undefined : rollout,
      pausedUntil: c.paused,
    });
    cluster.addNodePool('workers', { replicas: 2 });
  }
  return { app, rollout };
}

/** `shape` synthesized, as the previous output, with its record of r. */
function previous(shape: Shape, pinnedBy?: RolloutRecord): { output: PreviousOutput; record?: RolloutRecord } {
  const { app, rollout } = build(shape, pinnedBy);
  const files = new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)]));
  return { output: PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, 'test', files), record: rollout.record() };
}

/** The problems (and warnings) of synthesizing `after` against `before`, the rollout pinned by before's record. */
function commit(after: Shape, before: { output: PreviousOutput; record?: RolloutRecord }): { problems: string[]; warnings: readonly string[]; rollout: ReleaseRollout; objects?: any[] } {
  const { app, rollout } = build(after, before.record);
  try {
    const files = app.synthesize({ previousOutput: before.output });
    return { problems: [], warnings: app.warnings, rollout, objects: files.map((f) => f.text) };
  } catch (error) {
    return { problems: [...((error as { problems?: string[] }).problems ?? [(error as Error).message])], warnings: app.warnings, rollout };
  }
}

const imageOf = (objects: any[], kind: string, name: string): string => objects.find((o) => o.kind === kind && o.metadata.name === name).spec.release.image;

describe('released waves are pinned by the record', () => {
  const released2 = previous({ rollout: { releasedWaves: 2 } });

  test('before: the waves as their definitions place the clusters', () => {
    expect(released2.record!.spec.waves.map((w) => w.clusters)).toEqual([['hub/clusters/c1'], ['hub/clusters/c2', 'hub/clusters/c3'], ['hub/clusters/c4', 'hub/clusters/c5'], ['hub/clusters/c6']]);
  });

  test('inserting a cluster earlier in the inventory changes no released wave: it joins the last wave and keeps its release', () => {
    const clusters = [{ name: 'c0' }, ...CLUSTERS];
    const after = commit({ clusters, rollout: { releasedWaves: 2 } }, released2);
    expect(after.problems).toEqual([]);
    expect(after.rollout.waveClusters).toEqual([['hub/clusters/c1'], ['hub/clusters/c2', 'hub/clusters/c3'], ['hub/clusters/c4', 'hub/clusters/c5'], ['hub/clusters/c0', 'hub/clusters/c6']]);
    const objects = synthObjects(build({ clusters, rollout: { releasedWaves: 2 } }, released2.record).app);
    expect(['c0', 'c1', 'c2', 'c3', 'c4'].map((c) => imageOf(objects, 'HostedCluster', c))).toEqual([OLD, TARGET, TARGET, TARGET, OLD]);
  });

  test('without the record the batches move, and synth names the cause of the downgrade', () => {
    const clusters = [{ name: 'c0' }, ...CLUSTERS];
    const { app } = build({ clusters, rollout: { releasedWaves: 2 } });
    let problems: string[] = [];
    try {
      app.synthesize({ previousOutput: released2.output });
    } catch (error) {
      problems = [...(error as { problems: string[] }).problems];
    }
    expect(problems.filter((p) => p.startsWith('r: '))).toEqual([
      'r: a cluster of waves released in the previous output goes back from 4.17.3 to 4.17.0 (hub/clusters/c3) because the rollout now puts it in wave 3 (wave-3), not released, ' +
        "where the previous output's record released it in wave 2 (wave-2): the waves were placed without that record (a cluster added before a batch's clusters moves the batch); " +
        'in an HcpApp that compares with its previous output the record fixes them, elsewhere give the rollout previousRecord',
    ]);
    expect(problems.some((p) => p.startsWith('hub/c3/Resource: HostedCluster clusters/c3: spec.release.image: refused: goes back from 4.17.3 to 4.17.0'))).toBe(true);
  });

  test('NextWave: a new cluster joins the first wave the previous output had not released', () => {
    const after = commit({ clusters: [{ name: 'c0' }, ...CLUSTERS], rollout: { releasedWaves: 2, newClusters: RolloutNewClusters.NEXT_WAVE } }, released2);
    expect(after.problems).toEqual([]);
    expect(after.rollout.waveClusters[2]).toEqual(['hub/clusters/c0', 'hub/clusters/c4', 'hub/clusters/c5']);
  });

  test('a new cluster that a wave not released names or selects joins that wave', () => {
    const waves = [RolloutWave.canaries(['c1']), RolloutWave.batch(2), RolloutWave.labels({ ring: '2' }, { name: 'ring-2' }), RolloutWave.rest()];
    const before = previous({ rollout: { waves, releasedWaves: 2 }, clusters: CLUSTERS.map((c) => (c.name === 'c6' ? { ...c, labels: { ring: '2' } } : c)) });
    const clusters = [{ name: 'c0', labels: { ring: '2' } }, ...CLUSTERS.map((c) => (c.name === 'c6' ? { ...c, labels: { ring: '2' } } : c))];
    const after = commit({ clusters, rollout: { waves, releasedWaves: 2 } }, before);
    expect(after.problems).toEqual([]);
    expect(after.rollout.waveClusters[2]).toEqual(['hub/clusters/c0', 'hub/clusters/c6']);
  });

  test('a cluster of a released wave that leaves the fleet leaves its wave; its name may stay in a released list', () => {
    const after = commit({ clusters: CLUSTERS.filter((c) => c.name !== 'c1'), rollout: { releasedWaves: 2 } }, released2);
    expect(after.problems).toEqual([]);
    expect(after.rollout.waveClusters[0]).toEqual([]);
  });

  test('a cluster that leaves the rollout and goes back: the cause is named', () => {
    const clusters = CLUSTERS.map((c) => (c.name === 'c2' ? { ...c, inRollout: false } : c));
    const after = commit({ clusters, rollout: { releasedWaves: 2 } }, released2);
    expect(after.problems.filter((p) => p.startsWith('r: '))).toEqual([
      'r: a cluster of waves released in the previous output goes back from 4.17.3 to 4.17.0 (hub/clusters/c2) because it is no longer in the rollout ' +
        '(its clusterLabels, their labels or their rollout prop changed); OpenShift supports no downgrade: keep it in the rollout, or give it 4.17.3 as its own release',
    ]);
  });
});

describe('released waves are neither taken back, removed nor redefined', () => {
  const released2 = previous({ rollout: { releasedWaves: 2 } });

  test('removing a released wave is refused, with why', () => {
    const waves = [RolloutWave.batch(2), RolloutWave.batch(2), RolloutWave.rest()];
    expect(commit({ rollout: { waves, releasedWaves: 2 } }, released2).problems.filter((p) => p.startsWith('r: waves'))).toEqual([
      'r: waves: wave 1 (canaries) is released in the previous output and its cluster runs 4.17.3; a released wave cannot be removed or renamed: put it back as it was',
    ]);
    const named = [RolloutWave.batch(2, { name: 'wave-2' }), RolloutWave.batch(2, { name: 'wave-3' }), RolloutWave.rest()];
    expect(commit({ rollout: { waves: named, releasedWaves: 2 } }, released2).problems.filter((p) => p.startsWith('r: waves'))).toEqual([
      'r: waves: wave 1 (canaries) is released in the previous output and its cluster runs 4.17.3; a released wave cannot be removed or renamed: put it back as it was',
      'r: waves: wave 2 (wave-2) is released in the previous output and is now wave 1; a released wave keeps its place: put the waves back in their order',
    ]);
  });

  test('renaming or moving a released wave is refused', () => {
    const renamed = [RolloutWave.canaries(['c1'], { name: 'first' }), RolloutWave.batch(2), RolloutWave.batch(2), RolloutWave.rest()];
    expect(commit({ rollout: { waves: renamed, releasedWaves: 2 } }, released2).problems.filter((p) => p.startsWith('r: waves'))).toEqual([
      'r: waves: wave 1 (canaries) is released in the previous output and its cluster runs 4.17.3; a released wave cannot be removed or renamed: put it back as it was',
    ]);
  });

  test('redefining a released wave is refused: another batch size, another kind, a name added', () => {
    const bigger = [RolloutWave.canaries(['c1']), RolloutWave.batch(3), RolloutWave.batch(2), RolloutWave.rest()];
    expect(commit({ rollout: { waves: bigger, releasedWaves: 2 } }, released2).problems).toEqual([
      "r: waves[1] (batch 3): wave 2 (wave-2) is released in the previous output as batch 2, and its 2 clusters run 4.17.3; a released wave's clusters are fixed by the output's record: give it back its definition",
    ]);
    const named = [RolloutWave.canaries(['c1', 'c6']), RolloutWave.batch(2), RolloutWave.batch(2), RolloutWave.rest()];
    expect(commit({ rollout: { waves: named, releasedWaves: 2 } }, released2).problems).toEqual([
      'r: waves[0].clusters ("c6"): wave 1 (canaries) is released, and the previous output\'s record fixes its clusters (hub/clusters/c6 is not one of them); a released wave takes no cluster: name it in a wave not released yet',
    ]);
  });

  test('a cluster of a released wave named by another wave stays where it was released, and the name is refused', () => {
    const waves = [RolloutWave.canaries(['c1']), RolloutWave.batch(2), RolloutWave.clusters(['c2'], { name: 'late' }), RolloutWave.rest()];
    const after = commit({ rollout: { waves, releasedWaves: 2 } }, released2);
    expect(after.rollout.waveClusters[1]).toEqual(['hub/clusters/c2', 'hub/clusters/c3']);
    expect(after.problems).toEqual([
      'r: waves[2] (clusters ["c2"]): wave 3 (late) selects no cluster of the rollout; a wave must select at least one, or be left out',
      "r: waves[2].clusters: wave 3 (late) names hub/clusters/c2, which wave 2 (wave-2) released in the previous output; a released wave's clusters are fixed by the output's record: take it out of wave 3 (late)",
    ]);
  });

  test('taking a wave back (a lower releasedWaves) is refused, with why', () => {
    const problems = commit({ rollout: { releasedWaves: 1 } }, released2).problems;
    expect(problems.filter((p) => p.startsWith('r: '))).toEqual([
      'r: releasedWaves (1) is below the 2 waves released in the previous output: a released wave cannot be taken back, its clusters run 4.17.3 and OpenShift supports no downgrade; ' +
        'to stop the rollout, leave releasedWaves as it is (onFailure Stop holds the next waves while a cluster is listed as failed)',
    ]);
    // The downgrades themselves are refused too, as any.
    expect(problems.filter((p) => p.includes('refused: goes back from 4.17.3 to 4.17.0')).length).toBe(4);
  });
});

describe('retargeting a rollout in flight', () => {
  const released2 = previous({ rollout: { releasedWaves: 2 } });
  const retarget = (releasedWaves: number) => ({ rollout: { release: v('4.17.5'), releasedWaves } });

  test('a new release with waves still released is refused, saying the one way', () => {
    expect(commit(retarget(2), released2).problems.filter((p) => p.startsWith('r: '))).toEqual([
      'r: release (4.17.5) replaces 4.17.3 while 2 waves are released in the previous output: to retarget a rollout in flight, set releasedWaves to 0 in the same commit; ' +
        'the released waves keep 4.17.3 until each is released again, one commit at a time',
    ]);
  });

  test('a new release with releasedWaves 0: the released waves keep the old target, then move one wave per commit', () => {
    const step = commit(retarget(0), released2);
    expect(step.problems).toEqual([]);
    const record = step.rollout.record();
    expect(record.spec.previousTarget).toEqual({ image: TARGET, version: '4.17.3', releasedWaves: 2 });
    const objects = synthObjects(build(retarget(0), released2.record).app);
    expect(['c1', 'c2', 'c4'].map((c) => imageOf(objects, 'HostedCluster', c))).toEqual([TARGET, TARGET, OLD]);
    // The next commit moves the canaries from 4.17.3 to 4.17.5; wave 2 keeps 4.17.3.
    const retargeted = previous(retarget(0), released2.record);
    const next = commit(retarget(1), retargeted);
    expect(next.problems).toEqual([]);
    const moved = synthObjects(build(retarget(1), retargeted.record).app);
    expect(['c1', 'c2', 'c4'].map((c) => imageOf(moved, 'HostedCluster', c))).toEqual(['quay.io/openshift-release-dev/ocp-release:4.17.5-multi', TARGET, OLD]);
    expect(next.rollout.record().spec.previousTarget).toEqual({ image: TARGET, version: '4.17.3', releasedWaves: 2 });
    // Once the waves that ran 4.17.3 are released again, the record forgets it.
    const again = previous(retarget(1), retargeted.record);
    expect(commit(retarget(2), again).rollout.record().spec.previousTarget).toBeUndefined();
  });

  test('a second retarget before the first is done is refused', () => {
    const retargeted = previous(retarget(0), released2.record);
    const once = previous(retarget(1), retargeted.record);
    expect(commit({ rollout: { release: v('4.17.7'), releasedWaves: 0 } }, once).problems.filter((p) => p.startsWith('r: release'))).toEqual([
      'r: release (4.17.7): the rollout was retargeted from 4.17.3 to 4.17.5 and has released 1 of its waves again since; finish with 4.17.5, or retarget once the 2 waves that ran 4.17.3 are released again',
    ]);
  });
});

describe('paused clusters, failures and the failure budget against the previous output', () => {
  test('a paused cluster of a released wave holds the next wave, unless onPaused is Continue', () => {
    const paused = CLUSTERS.map((c) => (c.name === 'c1' ? { ...c, paused: PausedUntil.indefinitely() } : c));
    const before = previous({ clusters: paused, rollout: { releasedWaves: 1 } });
    expect(commit({ clusters: paused, rollout: { releasedWaves: 2 } }, before).problems).toEqual([
      'r: releasedWaves (2): wave 2 (wave-2) moves while wave 1 (canaries) has paused clusters in the previous output (hub/clusters/c1 (control plane paused indefinitely)), ' +
        'which HyperShift does not reconcile, so they may not run 4.17.3 yet; unpause them and move wave 2 (wave-2) once they do, or set onPaused to Continue',
    ]);
    expect(commit({ clusters: paused, rollout: { releasedWaves: 2, onPaused: RolloutPausePolicy.CONTINUE } }, before).problems).toEqual([]);
  });

  test('a pause whose time has passed holds nothing', () => {
    const until = CLUSTERS.map((c) => (c.name === 'c1' ? { ...c, paused: PausedUntil.until('2020-01-01T00:00:00Z') } : c));
    const before = previous({ clusters: until, rollout: { releasedWaves: 1 } });
    expect(commit({ clusters: until, rollout: { releasedWaves: 2 } }, before).problems).toEqual([]);
  });

  test('over the failure budget under Continue, the next wave is refused', () => {
    const before = previous({ rollout: { releasedWaves: 2 } });
    const failing = { releasedWaves: 3, failedClusters: ['c1', 'c2'] };
    expect(commit({ rollout: { ...failing, maxFailedClusters: 1 } }, before).problems).toEqual([
      'r: releasedWaves (3): wave 3 (wave-3) moves while 2 clusters failed (failedClusters), over the 1 maxFailedClusters allows; take clusters out of failedClusters once they run well again, or raise the budget',
    ]);
    expect(commit({ rollout: { ...failing, maxFailedPercent: 50 } }, before).problems).toEqual([
      'r: releasedWaves (3): wave 3 (wave-3) moves while 2 of the 3 clusters of the waves released before it failed (failedClusters), over the 50% maxFailedPercent allows; take clusters out of failedClusters once they run well again, or raise the budget',
    ]);
    expect(commit({ rollout: { ...failing, maxFailedPercent: 67 } }, before).problems).toEqual([]);
  });

  test('a failure budget is for Continue, and one budget at a time', () => {
    expect(() => build({ rollout: { onFailure: RolloutFailurePolicy.STOP, maxFailedClusters: 1, maxFailedPercent: 5, waveTimeout: Duration.seconds(30) } })).toThrow(
      [
        '3 problems:',
        '  - r: maxFailedClusters (1) and maxFailedPercent (5): give one failure budget, a count or a percentage',
        '  - r: onFailure (Stop) stops at the first failure; a failure budget (maxFailedClusters, maxFailedPercent) is for onFailure Continue',
        '  - r: waveTimeout ("0.5 minutes") must be a Duration of whole minutes, at least Duration.minutes(1)',
      ].join('\n'),
    );
  });
});

describe('removing a rollout', () => {
  test('one that recorded failed clusters: synth says so', () => {
    const before = previous({ rollout: { releasedWaves: 4, failedClusters: ['c2'] } });
    const done = CLUSTERS.map((c) => ({ ...c, inRollout: false, release: v('4.17.3') }));
    const { app } = build({ clusters: done });
    app.node.tryRemoveChild('r');
    app.synthesize({ previousOutput: before.output });
    expect(app.warnings).toEqual([
      'rollout r leaves the output while it records a failed cluster (hub/clusters/c2); the record of their failure goes with it: make sure they run well, or keep the rollout until they do',
    ]);
  });

  test('one whose clusters would go back: refused, with the cause', () => {
    const before = previous({ rollout: { releasedWaves: 2 } });
    const { app } = build({ clusters: CLUSTERS.map((c) => ({ ...c, inRollout: false })) });
    app.node.tryRemoveChild('r');
    expect(() => app.synthesize({ previousOutput: before.output })).toThrow(
      /rollout r is removed from the output, and 3 clusters of its released waves go back from 4\.17\.3 to 4\.17\.0 \(hub\/clusters\/c1, hub\/clusters\/c2 and hub\/clusters\/c3\): OpenShift supports no downgrade; before removing a rollout, give its clusters its release \(4\.17\.3\) as their own/,
    );
  });
});

describe('the rollout reads its record from the HcpApp', () => {
  test("synth() twice in one output directory: the second app's rollout is pinned by the first's record", () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-pinning-'));
    // synth() prints its notes (no previous output, the Secrets to create) on stderr.
    const stderr = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      build({ rollout: { releasedWaves: 2 } }, undefined, outdir).app.synth();
      const { app, rollout } = build({ clusters: [{ name: 'c0' }, ...CLUSTERS], rollout: { releasedWaves: 2 } }, undefined, outdir);
      expect(rollout.previousRecord?.spec.releasedWaves).toBe(2);
      app.synth();
      expect(rollout.waveClusters[1]).toEqual(['hub/clusters/c2', 'hub/clusters/c3']);
    } finally {
      stderr.mockRestore();
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });
});

describe('the state file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-state-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (text: string): string => {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
    fs.writeFileSync(file, text);
    return file;
  };

  test('gives releasedWaves, when each wave was released and the failures with why, which the record keeps', () => {
    const file = write(
      [
        'apiVersion: hcp-cdk.io/v1alpha1',
        'kind: ReleaseRolloutState',
        'metadata:',
        '  name: r',
        'spec:',
        '  releasedWaves: 2',
        '  waves:',
        '    - wave: canaries',
        "      releasedAt: '2026-05-01T10:00:00Z'",
        '    - wave: wave-2',
        "      releasedAt: '2026-05-01T14:00:00Z'",
        '  failedClusters:',
        '    - cluster: hub/clusters/c2',
        '      reason: "control plane: ClusterVersionFailing: the cluster operator network is degraded"',
        '    - cluster: c3',
        '      reason: still Progressing after 240 minutes',
        '      timedOut: true',
      ].join('\n'),
    );
    const { rollout } = build({ rollout: { state: RolloutState.fromFile(file), waveTimeout: Duration.minutes(120) } });
    const spec = rollout.record().spec;
    expect(spec.releasedWaves).toBe(2);
    expect(spec.failedClusters).toEqual(['hub/clusters/c2', 'hub/clusters/c3']);
    expect(spec.timedOutClusters).toEqual(['hub/clusters/c3']);
    expect(spec.failureReasons).toEqual({
      'hub/clusters/c2': 'control plane: ClusterVersionFailing: the cluster operator network is degraded',
      'hub/clusters/c3': 'still Progressing after 240 minutes',
    });
    expect(spec.waveTimeoutMinutes).toBe(120);
    expect(spec.waves.map((w) => w.releasedAt)).toEqual(['2026-05-01T10:00:00Z', '2026-05-01T14:00:00Z', undefined, undefined]);
  });

  test('fails when it is malformed, of another rollout, or given beside releasedWaves', () => {
    const file = write(
      [
        'apiVersion: hcp-cdk.io/v1alpha1',
        'kind: ReleaseRolloutState',
        'metadata:',
        '  name: other',
        'spec:',
        '  releasedWaves: -1',
        '  waves:',
        '    - wave: canaries',
        '      releasedAt: yesterday',
        '  failedClusters:',
        '    - reason: x',
      ].join('\n'),
    );
    expect(() => build({ rollout: { state: RolloutState.fromFile(file), releasedWaves: 1 } })).toThrow(
      [
        '5 problems:',
        `  - r: state: ${file}: spec.releasedWaves (-1) must be a whole number >= 0`,
        `  - r: state: ${file}: spec.waves[0].releasedAt ("yesterday") must be an RFC 3339 time such as 2026-01-01T00:00:00Z`,
        `  - r: state: ${file}: spec.failedClusters[0].cluster (undefined) must name a cluster: <name>, <management cluster>/<name> or <management folder>/<namespace>/<name>`,
        `  - r: state (${file}) is the state of rollout "other", not of "r"`,
        `  - r: releasedWaves (1) is given by state (${file}) too; give it in one place: the state file`,
      ].join('\n'),
    );
    expect(() => build({ rollout: { state: RolloutState.fromFile(path.join(dir, 'missing.yaml')) } })).toThrow(
      `r: state: ${path.join(dir, 'missing.yaml')}: no such file or directory (or a symbolic link to nothing)`,
    );
  });

  test('is read as every hand-written file: a FIFO is refused rather than waited on', () => {
    const fifo = path.join(dir, 'fifo.state.yaml');
    spawnSync('mkfifo', [fifo]);
    // In a process of its own, so that a reader that waits on the FIFO fails by the timeout instead of holding the suite.
    const script = `const { RolloutState } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))}); console.log(RolloutState.fromFile(${JSON.stringify(fifo)}).problems.join('\\n'));`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
    expect([child.status, child.stdout.trim()]).toEqual([0, `${fifo}: a FIFO (named pipe), not a regular file; only regular files are read (a link must lead to one)`]);
  });
});
