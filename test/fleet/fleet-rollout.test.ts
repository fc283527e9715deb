// Release rollouts in a fleet inventory: clusters' labels, the rollouts' waves and order, what the
// inventory gets wrong; and the example fleet's rollout over three commits, planned as hcp-cdk plan
// plans them (the output of each commit against the one before).
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { load } from 'js-yaml';
import { Fleet, FleetInventory, FleetRolloutSpec, HcpApp, OutputSnapshot, Plan, planChanges, PreviousOutput, PreviousOutputSource, SynthesizedFile } from '../../lib';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { ROOT, synthObjects } from '../util';

const RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64';
const TARGET = 'quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64';

function inventory(rollouts: FleetRolloutSpec[]): FleetInventory {
  const virt = (name: string, labels?: Record<string, string>) => ({ name, platform: 'KubeVirt' as const, ...(labels ? { labels } : {}) });
  return {
    defaults: { releaseImage: RELEASE, baseDomain: 'fleet.example.com' },
    managementClusters: [
      { name: 'hub-a', clusters: [virt('a1', { ring: '1', env: 'prod' }), virt('a2', { env: 'prod' }), virt('a3', { env: 'lab' })] },
      { name: 'hub-b', clusters: [virt('b1', { ring: '1', env: 'prod' }), virt('b2', { env: 'prod' })] },
    ],
    rollouts,
  };
}

const ROLLOUT: FleetRolloutSpec = {
  name: 'r-4-17-3',
  releaseImage: TARGET,
  clusterLabels: { env: 'prod' },
  waves: [{ canaries: ['a2'] }, { name: 'ring-1', labels: { ring: '1' } }, { rest: true }],
  releasedWaves: 1,
};

function fleetProblems(rollouts: FleetRolloutSpec[]): string[] {
  try {
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromInventory(app, inventory(rollouts));
    app.synthesize();
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

describe('Fleet: release rollouts', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const fleet = Fleet.fromInventory(app, inventory([ROLLOUT]));
  const objects = synthObjects(app);
  const image = (name: string) => objects.find((o) => o.kind === 'HostedCluster' && o.metadata.name === name).spec.release.image;

  test("a cluster's labels are its HostedCluster's", () => {
    expect(objects.find((o) => o.kind === 'HostedCluster' && o.metadata.name === 'a1').metadata.labels).toEqual({ ring: '1', env: 'prod' });
  });

  test('the rollout covers the clusters its clusterLabels select, in waves', () => {
    expect([...fleet.rollouts.keys()]).toEqual(['r-4-17-3']);
    expect(fleet.rollouts.get('r-4-17-3')!.waveClusters).toEqual([['hub-a/clusters/a2'], ['hub-a/clusters/a1', 'hub-b/clusters/b1'], ['hub-b/clusters/b2']]);
    expect(['a1', 'a2', 'a3', 'b1', 'b2'].map(image)).toEqual([RELEASE, TARGET, RELEASE, RELEASE, RELEASE]);
  });

  test('every kind of wave, and holdNodePools, from the inventory', () => {
    const rollout = {
      ...ROLLOUT,
      clusterLabels: undefined,
      releasedWaves: 2,
      waves: [{ canaries: ['a2'] }, { clusters: ['hub-b/b2'], holdNodePools: true }, { batch: 2 }, { name: 'last', rest: true }],
    };
    const built = new HcpApp({ outdir: '/nonexistent' });
    const made = Fleet.fromInventory(built, inventory([rollout])).rollouts.get('r-4-17-3')!;
    expect(made.waveNames).toEqual(['canaries', 'wave-2', 'wave-3', 'last']);
    expect(made.waveClusters).toEqual([['hub-a/clusters/a2'], ['hub-b/clusters/b2'], ['hub-a/clusters/a1', 'hub-a/clusters/a3'], ['hub-b/clusters/b1']]);
    const pool = synthObjects(built).find((o) => o.kind === 'NodePool' && o.metadata.name === 'b2-workers');
    expect(pool.spec.release.image).toBe(RELEASE);
  });

  test('rollouts are made after the ones they wait for, whatever their order in the inventory', () => {
    const lab: FleetRolloutSpec = { name: 'lab', releaseImage: TARGET, clusterLabels: { env: 'lab' }, waves: [{ rest: true }] };
    const built = Fleet.fromInventory(new HcpApp({ outdir: '/nonexistent' }), inventory([{ ...ROLLOUT, after: ['lab'] }, lab]));
    expect(built.rollouts.get('r-4-17-3')!.after).toEqual([built.rollouts.get('lab')]);
  });

  test('fails when a wave gives no selection or two, or after names no rollout, with every problem at once', () => {
    expect(fleetProblems([{ ...ROLLOUT, waves: [{ canaries: ['a2'], labels: { ring: '1' } }, { name: 'empty' }, { rest: true }], after: ['nope'] }])).toEqual([
      'r-4-17-3: after ("nope") names no rollout of the inventory; give the name of one of its rollouts',
      'r-4-17-3: waves[0] (canaries and labels) must give exactly one of canaries, clusters, labels, batch or rest',
      'r-4-17-3: waves[1] (none of them) must give exactly one of canaries, clusters, labels, batch or rest',
    ]);
  });

  test('fails when two rollouts have one name', () => {
    expect(fleetProblems([ROLLOUT, { ...ROLLOUT, clusterLabels: { env: 'lab' } }])).toEqual([
      'r-4-17-3: name ("r-4-17-3") of rollouts[1] is also the name of rollouts[0]; give each rollout a name of its own',
    ]);
  });

  test('fails when two rollouts cover a cluster', () => {
    expect(fleetProblems([ROLLOUT, { ...ROLLOUT, name: 'second', clusterLabels: { ring: '1' }, waves: [{ rest: true }] }])).toEqual([
      'second: clusterLabels ({"ring":"1"}) covers 2 clusters rollout r-4-17-3 covers too (hub-a/a1, hub-b/b1); a cluster is in one rollout: give the rollouts clusterLabels that do not overlap',
      // Reported with the rest since every problem of the app is reported at once: the ring-1 wave's clusters went to the other rollout.
      'r-4-17-3: waves[1] (labels {"ring":"1"}): wave 2 (ring-1) selects no cluster of the rollout; a wave must select at least one, or be left out',
    ]);
  });

  test("fails when the rollout's own rules fail, named by the rollout", () => {
    // Released clusters ran the release before their wave moved; the others run it still.
    const path = 'updates from 4.17.0 to 4.19.1, which skips 4.18; a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides';
    expect(fleetProblems([{ ...ROLLOUT, releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.19.1-x86_64' }])).toEqual([
      `r-4-17-3: release (4.19.1) is not an allowed update for 3 clusters, which run 4.17.0 until their wave is released (hub-a/clusters/a1, hub-b/clusters/b1 and hub-b/clusters/b2): ${path}`,
      `r-4-17-3: release (4.19.1) is not an allowed update for hub-a/clusters/a2 of wave 1 (canaries), which ran 4.17.0 before its wave was released: ${path}`,
    ]);
  });

  test("the inventory schema checks a rollout's fields by path", () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-fleet-rollout-')), 'fleet.yaml');
    const spec = inventory([{ ...ROLLOUT, onFailure: 'Abort' as 'Stop', waves: [{ batch: 0 }], releasedWaves: -1 }]);
    fs.writeFileSync(file, JSON.stringify({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'Fleet', metadata: { name: 'lab' }, spec }));
    expect(() => Fleet.fromFile(new HcpApp({ outdir: '/nonexistent' }), file)).toThrow(
      [
        '3 problems:',
        `  - ${file}: Fleet lab: spec.rollouts[0].waves[0].batch: Invalid value: must be greater than or equal to 1 (value: 0)`,
        `  - ${file}: Fleet lab: spec.rollouts[0].releasedWaves: Invalid value: must be greater than or equal to 0 (value: -1)`,
        `  - ${file}: Fleet lab: spec.rollouts[0].onFailure: Unsupported value: supported values: "Continue", "Stop" (value: "Abort")`,
      ].join('\n'),
    );
  });
});

describe('Fleet: a rollout with a state file, its policies and an update graph', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-fleet-state-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const graph = {
    nodes: [
      { version: '4.17.0', payload: 'quay.io/openshift-release-dev/ocp-release@sha256:' + 'a'.repeat(64), metadata: {} },
      { version: '4.17.3', payload: 'quay.io/openshift-release-dev/ocp-release@sha256:' + 'b'.repeat(64), metadata: {} },
    ],
    edges: [[0, 1]],
    conditionalEdges: [],
  };

  test('paths are relative to the inventory file; the record carries the state and the policies, and the graph is kept beside it', () => {
    fs.mkdirSync(path.join(dir, 'graphs'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'graphs', 'stable-4.17.json'), JSON.stringify(graph));
    fs.writeFileSync(
      path.join(dir, 'r-4-17-3.state.yaml'),
      "apiVersion: hcp-cdk.io/v1alpha1\nkind: ReleaseRolloutState\nmetadata:\n  name: r-4-17-3\nspec:\n  releasedWaves: 1\n  waves:\n    - wave: canaries\n      releasedAt: '2026-05-01T10:00:00Z'\n",
    );
    const spec = {
      ...inventory([{ ...ROLLOUT, releasedWaves: undefined, stateFile: 'r-4-17-3.state.yaml', maxFailedPercent: 10, onPaused: 'Continue', waveTimeoutMinutes: 120, newClusters: 'NextWave' }]),
      updateGraphs: [{ channel: 'stable-4.17', file: 'graphs/stable-4.17.json' }],
    };
    spec.defaults = { ...spec.defaults, channel: 'stable-4.17' };
    const file = path.join(dir, 'fleet.yaml');
    fs.writeFileSync(file, JSON.stringify({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'Fleet', metadata: { name: 'lab' }, spec }));
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromFile(app, file);
    const objects = synthObjects(app);
    const record = objects.find((o) => o.kind === 'ReleaseRollout');
    expect(record.spec).toMatchObject({ releasedWaves: 1, maxFailedPercent: 10, onPaused: 'Continue', waveTimeoutMinutes: 120, newClusters: 'NextWave' });
    expect(record.spec.waves[0].releasedAt).toBe('2026-05-01T10:00:00Z');
    expect(objects.find((o) => o.kind === 'UpdateGraph').spec.channel).toBe('stable-4.17');
    expect(objects.find((o) => o.kind === 'HostedCluster' && o.metadata.name === 'a2').spec.channel).toBe('stable-4.17');
  });

  test('a missing state file is a problem named by the rollout', () => {
    const problems = fleetProblems([{ ...ROLLOUT, releasedWaves: undefined, stateFile: 'no-such.state.yaml' }]);
    expect(problems).toEqual([`r-4-17-3: state: ${path.resolve('no-such.state.yaml')}: no such file or directory (or a symbolic link to nothing)`]);
  });
});

describe("the example fleet's rollout, commit by commit", () => {
  const EXAMPLE = path.join(ROOT, 'examples', 'fleet', 'fleet.yaml');
  const document = load(fs.readFileSync(EXAMPLE, 'utf8')) as { spec: FleetInventory };
  const validator = new ObjectValidator();

  /** The example's inventory with the rollout at `releasedWaves` and `change` made to it. */
  function commit(releasedWaves: number, change: (spec: any) => void = () => undefined): FleetInventory {
    const spec = JSON.parse(JSON.stringify(document.spec));
    spec.rollouts[0].releasedWaves = releasedWaves;
    change(spec);
    return spec;
  }

  /** Synthesizes `spec` against the `previous` files (when given), as synth() would against the output directory. */
  function synth(spec: FleetInventory, previous?: readonly SynthesizedFile[]): SynthesizedFile[] {
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromInventory(app, spec);
    const files = previous && new Map(previous.map((f) => [f.path, Buffer.from(f.text)]));
    return app.synthesize(files ? { previousOutput: PreviousOutput.inFiles(PreviousOutputSource.OUTPUT_DIRECTORY, 'previous', files) } : {});
  }

  function problems(spec: FleetInventory, previous: readonly SynthesizedFile[]): string[] {
    try {
      synth(spec, previous);
      return [];
    } catch (error) {
      return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
    }
  }

  const snapshot = (files: readonly SynthesizedFile[], name: string) => OutputSnapshot.fromFiles(name, new Map(files.map((f) => [f.path, Buffer.from(f.text)])));
  const plan = (before: readonly SynthesizedFile[], after: readonly SynthesizedFile[]): Plan => planChanges(snapshot(before, 'before'), snapshot(after, 'after'), { validator });
  const moved = (result: Plan) => [...new Set(result.objects.filter((o) => o.changes.some((c) => c.path === 'spec.release.image')).map((o) => o.cluster))];

  const none = synth(commit(0));
  const first = synth(commit(1), none);
  const second = synth(commit(2), first);
  const third = synth(commit(3), second);
  const CANARIES = ['hub-0/clusters/c00000', 'hub-1/clusters/c00001'];
  const RING = ['hub-0/clusters/c00002', 'hub-0/clusters/c00004', 'hub-0/clusters/c00006', 'hub-1/clusters/c00003', 'hub-1/clusters/c00005', 'hub-1/clusters/c00007'];

  test('as shipped, the rollout releases nothing: three waves of 2, 6 and 16 clusters', () => {
    expect(document.spec.rollouts![0].releasedWaves).toBe(0);
    const result = plan(none, none);
    expect(result.rollouts).toEqual([
      expect.objectContaining({
        name: 'r-4-17-3',
        waves: 3,
        releasedWaves: 0,
        moves: [],
        left: [
          { wave: 1, name: 'canaries', clusters: CANARIES },
          { wave: 2, name: 'ring-1', clusters: RING },
          { wave: 3, name: 'rest', clusters: expect.any(Array) },
        ],
      }),
    ]);
    expect(result.rollouts![0].left[2].clusters).toHaveLength(16);
  });

  test('the first commit moves wave 1: the plan lists exactly the canaries, control planes and pools', () => {
    const result = plan(none, first);
    expect(moved(result)).toEqual(CANARIES);
    expect(result.summary.clustersChanged).toEqual(CANARIES);
    expect(result.objects.map((o) => `${o.kind} ${o.name}`)).toEqual([
      'HostedCluster c00000',
      'NodePool c00000-spare',
      'NodePool c00000-workers',
      'HostedCluster c00001',
      'NodePool c00001-large',
      'NodePool c00001-small',
    ]);
    expect(result.rollouts![0]).toEqual({
      name: 'r-4-17-3',
      release: { image: document.spec.rollouts![0].releaseImage, version: '4.17.3' },
      waves: 3,
      releasedWaves: 1,
      moves: [{ wave: 1, name: 'canaries', clusters: CANARIES }],
      left: [
        { wave: 2, name: 'ring-1', clusters: RING },
        { wave: 3, name: 'rest', clusters: expect.any(Array) },
      ],
      summary: 'wave 1 of 3 (canaries) moves 2 clusters: hub-0/clusters/c00000, hub-1/clusters/c00001; 22 left: 6 in wave 2 (ring-1), 16 in wave 3 (rest)',
    });
  });

  test('the second commit moves wave 2, the third wave 3, and then nothing is left', () => {
    expect(moved(plan(first, second))).toEqual(RING);
    const last = plan(second, third);
    expect(moved(last)).toHaveLength(16);
    expect(last.rollouts![0].summary).toMatch(/^wave 3 of 3 \(rest\) moves 16 clusters: hub-0\/clusters\/c00008, .*; none left$/);
    expect(last.summary.effects).toEqual({ 'control-plane-upgrade': 16, 'node-pool-rollout': 38 });
  });

  test('once complete, the release in the defaults and no rollout: only the record goes', () => {
    const done = synth(
      commit(3, (spec) => {
        spec.defaults.releaseImage = spec.rollouts[0].releaseImage;
        spec.defaults.releaseVersion = spec.rollouts[0].releaseVersion;
        delete spec.rollouts;
      }),
      third,
    );
    const paths = (files: readonly SynthesizedFile[]) => files.map((f) => f.path);
    expect(paths(third).filter((p) => !paths(done).includes(p))).toEqual(['rollouts/40-releaserollout-r-4-17-3.yaml']);
    expect(done).toEqual(third.filter((f) => !f.path.startsWith('rollouts/')));
  });

  test('re-synth of each commit is byte-identical', () => {
    expect(synth(commit(1), first)).toEqual(first);
  });

  test('a commit that moves wave 3 before wave 2 is refused, naming the waves', () => {
    expect(problems(commit(3), first)).toEqual([
      'r-4-17-3: releasedWaves (3): 2 waves move in one commit, wave 2 (ring-1) and wave 3 (rest); a commit moves one wave: release them one commit at a time',
      'r-4-17-3: releasedWaves (3): wave 3 (rest) moves while wave 2 (ring-1) is not on the target release in the previous output (hub-0/clusters/c00002 (control plane and 3 pools), ' +
        'hub-0/clusters/c00004 (control plane and 2 pools), hub-0/clusters/c00006 (control plane and 2 pools) and 3 more); move wave 3 (rest) in a later commit, once wave 2 (ring-1) runs 4.17.3',
    ]);
    // A cluster of wave 3 given the release by hand moves wave 3 alone: refused all the same.
    const byHand = commit(1, (spec) => {
      spec.managementClusters[0].clusters.find((c: any) => c.name === 'c00008').releaseImage = spec.rollouts[0].releaseImage;
      spec.managementClusters[0].clusters.find((c: any) => c.name === 'c00008').releaseVersion = '4.17.3';
    });
    expect(problems(byHand, first)).toEqual([
      'r-4-17-3: releasedWaves (1): wave 3 (rest) moves while wave 2 (ring-1) is not on the target release in the previous output (hub-0/clusters/c00002 (control plane and 3 pools), ' +
        'hub-0/clusters/c00004 (control plane and 2 pools), hub-0/clusters/c00006 (control plane and 2 pools) and 3 more); move wave 3 (rest) in a later commit, once wave 2 (ring-1) runs 4.17.3',
    ]);
    const refused = plan(first, synth(commit(3)));
    expect(refused.rollouts![0].refusals).toHaveLength(2);
    expect(refused.summary.effects.refused).toBe(refused.objects.length);
  });

  test('a commit that moves two waves at once is refused', () => {
    expect(problems(commit(2), none)).toEqual([
      'r-4-17-3: releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time',
      'r-4-17-3: releasedWaves (2): wave 2 (ring-1) moves while wave 1 (canaries) is not on the target release in the previous output ' +
        '(hub-0/clusters/c00000 (control plane and 2 pools) and hub-1/clusters/c00001 (control plane and 2 pools)); move wave 2 (ring-1) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
  });

  test('a target that is not an allowed update from every cluster is refused', () => {
    const skip = (released: number) =>
      commit(released, (spec) => {
        spec.rollouts[0].releaseVersion = '4.19.0';
      });
    const path = 'updates from 4.17.0 to 4.19.0, which skips 4.18; a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides';
    // Before any wave moves: the rollout alone is refused.
    expect(problems(skip(0), none)).toEqual([
      `r-4-17-3: release (4.19.0) is not an allowed update for 24 clusters, which run 4.17.0 until their wave is released (hub-0/clusters/c00000, hub-0/clusters/c00002, hub-0/clusters/c00004 and 21 more): ${path}`,
    ]);
    // With the canaries released, their control planes are refused too, as any such update; their pools
    // may skip a minor (HyperShift's NodePool controller takes any later release); the rollout does not
    // say the released canaries run 4.17.0.
    const moving = problems(skip(1), none);
    expect(moving.slice(0, 2)).toEqual([
      `r-4-17-3: release (4.19.0) is not an allowed update for 2 clusters, which ran 4.17.0 before their wave was released (hub-0/clusters/c00000 and hub-1/clusters/c00001): ${path}`,
      `r-4-17-3: release (4.19.0) is not an allowed update for 22 clusters, which run 4.17.0 until their wave is released (hub-0/clusters/c00002, hub-0/clusters/c00004, hub-0/clusters/c00006 and 19 more): ${path}`,
    ]);
    expect(moving.slice(2).map((p) => p.slice(0, p.indexOf(':')))).toEqual(['hub-0/c00000/Resource', 'hub-1/c00001/Resource']);
  });

  test("after: a second rollout starts only once the example's is complete in the previous output", () => {
    const withNext = (released: number, nextReleased: number) =>
      commit(released, (spec) => {
        spec.defaults.labels = { stage: 'now' };
        spec.managementClusters[1].clusters.push({ name: 'c00099', platform: 'KubeVirt', labels: { stage: 'next' } });
        spec.rollouts[0].clusterLabels = { stage: 'now' };
        spec.rollouts.push({
          name: 'next',
          releaseImage: spec.rollouts[0].releaseImage,
          releaseVersion: '4.17.3',
          clusterLabels: { stage: 'next' },
          waves: [{ rest: true }],
          releasedWaves: nextReleased,
          after: ['r-4-17-3'],
        });
      });
    expect(problems(withNext(2, 1), synth(withNext(2, 0)))).toEqual([
      'next: releasedWaves (1): wave 1 (rest) moves while rollout r-4-17-3, which this one waits for (after), is not complete in the previous output (hub-0/clusters/c00008 (control plane and 3 pools), ' +
        'hub-0/clusters/c00010 (control plane and 2 pools), hub-0/clusters/c00012 (control plane and 2 pools) and 13 more not on its release); move it once every cluster of r-4-17-3 runs 4.17.3',
    ]);
    expect(problems(withNext(3, 1), synth(withNext(3, 0)))).toEqual([]);
  });
});

describe('Fleet.fromFile of the example with its rollout', () => {
  test('builds and validates', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const fleet = Fleet.fromFile(app, path.join(ROOT, 'examples', 'fleet', 'fleet.yaml'));
    expect(fleet.rollouts.get('r-4-17-3')!.waveClusters.map((c) => c.length)).toEqual([2, 6, 16]);
    expect(() => app.synthesize()).not.toThrow();
  });
});
