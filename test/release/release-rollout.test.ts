// Release rollouts: which wave each cluster is in, what it runs, the record in the output, and
// the rules synth checks at construction and against the previous output.
import {
  HcpApp,
  HostedCluster,
  ManagementCluster,
  PreviousOutput,
  PreviousOutputSource,
  Release,
  ReleaseRollout,
  ReleaseRolloutProps,
  RolloutFailurePolicy,
  RolloutWave,
  SecretSource,
} from '../../lib';
import { PLATFORMS } from '../props';
import { synthFiles, synthObjects } from '../util';

const v = (version: string) => Release.fromVersion(version);
const DIGEST = (hex: string) => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
const TARGET = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';
const OLD = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';

interface ClusterShape {
  readonly hub: string;
  readonly name: string;
  readonly labels?: Record<string, string>;
  readonly release?: Release;
  readonly infraId?: string;
  /** @default true */
  readonly inRollout?: boolean;
  readonly forceUpgradeTo?: Release;
}

const CLUSTERS: readonly ClusterShape[] = [
  { hub: 'hub-a', name: 'a1', labels: { ring: '1' } },
  { hub: 'hub-a', name: 'a2' },
  { hub: 'hub-a', name: 'a3', labels: { ring: '1' } },
  { hub: 'hub-b', name: 'b1' },
  { hub: 'hub-b', name: 'b2' },
  { hub: 'hub-b', name: 'b3' },
];

const WAVES = () => [RolloutWave.canaries(['a2']), RolloutWave.labels({ ring: '1' }, { name: 'ring-1' }), RolloutWave.batch(2), RolloutWave.rest()];

interface Shape {
  readonly rollout?: Partial<ReleaseRolloutProps>;
  readonly clusters?: readonly ClusterShape[];
  /** Another rollout, made first, over the clusters given, which `rollout` may wait for. */
  readonly first?: { readonly props: Partial<ReleaseRolloutProps>; readonly clusters: readonly ClusterShape[] };
  readonly strict?: boolean;
}

/** An app with one rollout (r) over six KubeVirt clusters on two hubs, each with one pool. */
function build(shape: Shape = {}): { app: HcpApp; rollout: ReleaseRollout; clusters: Map<string, HostedCluster> } {
  const app = new HcpApp({ outdir: '/nonexistent', strict: shape.strict });
  const hubs = new Map<string, ManagementCluster>();
  const clusters = new Map<string, HostedCluster>();
  const add = (list: readonly ClusterShape[], rollout: ReleaseRollout) => {
    for (const c of list) {
      let hub = hubs.get(c.hub);
      if (!hub) hubs.set(c.hub, (hub = new ManagementCluster(app, c.hub)));
      const cluster = new HostedCluster(hub, c.name, {
        release: c.release ?? v('4.17.0'),
        pullSecret: SecretSource.fromExistingSecret('pull-secret'),
        ...PLATFORMS.kubevirt(),
        labels: c.labels,
        infraId: c.infraId,
        rollout: c.inRollout === false ? undefined : rollout,
        forceUpgradeTo: c.forceUpgradeTo,
      });
      cluster.addNodePool('workers', { replicas: 2 });
      clusters.set(`${c.hub}/${c.name}`, cluster);
    }
  };
  let first: ReleaseRollout | undefined;
  if (shape.first) {
    first = new ReleaseRollout(app, 'first', { release: v('4.17.3'), waves: [RolloutWave.rest()], ...shape.first.props });
    add(shape.first.clusters, first);
  }
  const rollout = new ReleaseRollout(app, 'r', { release: v('4.17.3'), waves: WAVES(), ...(first ? { after: [first] } : {}), ...shape.rollout });
  add(shape.clusters ?? CLUSTERS, rollout);
  return { app, rollout, clusters };
}

/** The output of `shape`, as a previous output. */
function outputOf(shape: Shape): PreviousOutput {
  const files = new Map(
    build(shape)
      .app.synthesize()
      .map((f) => [f.path, Buffer.from(f.text)]),
  );
  return PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, 'test', files);
}

/** The problems of synthesizing `after` against the output of `before` (or against none), or [] when it succeeds. */
function problemsOf(after: Shape, before?: Shape | null): string[] {
  try {
    const { app } = build(after);
    app.synthesize(before === undefined ? {} : { previousOutput: before === null ? PreviousOutput.none(['none here']) : outputOf(before) });
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

const imageOf = (objects: any[], kind: string, name: string): string => objects.find((o) => o.kind === kind && o.metadata.name === name).spec.release.image;

describe('ReleaseRollout: waves', () => {
  test('canaries and named clusters first, then labels, then batches in the order the clusters joined, then the rest', () => {
    const { rollout } = build();
    expect(rollout.waveNames).toEqual(['canaries', 'ring-1', 'wave-3', 'rest']);
    expect(rollout.waveClusters).toEqual([['hub-a/clusters/a2'], ['hub-a/clusters/a1', 'hub-a/clusters/a3'], ['hub-b/clusters/b1', 'hub-b/clusters/b2'], ['hub-b/clusters/b3']]);
  });

  test('the clusters of released waves run its release, control plane and pools; the others keep their own', () => {
    const objects = synthObjects(build({ rollout: { releasedWaves: 2 } }).app);
    for (const name of ['a1', 'a2', 'a3']) {
      expect([name, imageOf(objects, 'HostedCluster', name), imageOf(objects, 'NodePool', `${name}-workers`)]).toEqual([name, TARGET, TARGET]);
    }
    for (const name of ['b1', 'b2', 'b3']) {
      expect([name, imageOf(objects, 'HostedCluster', name), imageOf(objects, 'NodePool', `${name}-workers`)]).toEqual([name, OLD, OLD]);
    }
  });

  test('nothing released by default: every cluster runs its own release', () => {
    const { app, clusters } = build();
    expect(clusters.get('hub-a/a2')!.release.image).toBe(OLD);
    expect(synthObjects(app).filter((o) => ['HostedCluster', 'NodePool'].includes(o.kind) && o.spec.release.image === TARGET)).toEqual([]);
  });

  test("holdNodePools: the wave's control planes move and its pools keep the release before, within the skew rules", () => {
    const hold = [RolloutWave.canaries(['a2'], { holdNodePools: true }), RolloutWave.rest()];
    const held = synthObjects(build({ rollout: { waves: hold, releasedWaves: 1 } }).app);
    expect([imageOf(held, 'HostedCluster', 'a2'), imageOf(held, 'NodePool', 'a2-workers')]).toEqual([TARGET, OLD]);
    const minor = synthObjects(build({ rollout: { release: v('4.18.1'), waves: hold, releasedWaves: 1 } }).app);
    expect(imageOf(minor, 'NodePool', 'a2-workers')).toBe(OLD);
    const dropped = synthObjects(build({ rollout: { waves: [RolloutWave.canaries(['a2']), RolloutWave.rest()], releasedWaves: 1 } }).app);
    expect([imageOf(dropped, 'HostedCluster', 'a2'), imageOf(dropped, 'NodePool', 'a2-workers')]).toEqual([TARGET, TARGET]);
  });

  test('a cluster the rollout does not cover keeps its release', () => {
    const clusters = [...CLUSTERS, { hub: 'hub-a', name: 'x1', inRollout: false }];
    const objects = synthObjects(build({ clusters, rollout: { releasedWaves: 4 } }).app);
    expect(imageOf(objects, 'HostedCluster', 'x1')).toBe(OLD);
    expect(imageOf(objects, 'HostedCluster', 'b3')).toBe(TARGET);
  });
});

describe('ReleaseRollout: the record in the output', () => {
  test("rollouts/<rank>-releaserollout-<name>.yaml, with each wave's clusters as plan names them", () => {
    const digest = Release.fromImage(DIGEST('a'), { version: '4.17.3' });
    const waves = [RolloutWave.canaries(['a2']), RolloutWave.labels({ ring: '1' }, { name: 'ring-1', holdNodePools: true }), RolloutWave.batch(2), RolloutWave.rest()];
    const { app } = build({ rollout: { release: digest, waves, releasedWaves: 1, onFailure: RolloutFailurePolicy.STOP, failedClusters: ['hub-a/a2'] } });
    const files = synthFiles(app);
    const record = files.find((f) => f.path.startsWith('rollouts/'))!;
    expect(record.path).toBe('rollouts/40-releaserollout-r.yaml');
    expect(files.filter((f) => f.path.startsWith('rollouts/'))).toHaveLength(1);
    expect(synthObjects(app).find((o) => o.kind === 'ReleaseRollout')).toEqual({
      apiVersion: 'hcp-cdk.io/v1alpha1',
      kind: 'ReleaseRollout',
      metadata: { name: 'r' },
      spec: {
        release: { image: DIGEST('a'), version: '4.17.3' },
        releasedWaves: 1,
        onFailure: 'Stop',
        failedClusters: ['hub-a/clusters/a2'],
        waves: [
          { name: 'canaries', selection: 'canaries ["a2"]', clusters: ['hub-a/clusters/a2'] },
          { name: 'ring-1', selection: 'labels {"ring":"1"}', holdNodePools: true, clusters: ['hub-a/clusters/a1', 'hub-a/clusters/a3'] },
          { name: 'wave-3', selection: 'batch 2', clusters: ['hub-b/clusters/b1', 'hub-b/clusters/b2'] },
          { name: 'rest', selection: 'rest', clusters: ['hub-b/clusters/b3'] },
        ],
      },
    });
    expect(record.text).toMatchSnapshot();
  });

  test('no kustomization.yaml in rollouts/: no delivery applies the record', () => {
    const all = build().app.synthesize();
    expect(all.filter((f) => f.path.startsWith('rollouts/')).map((f) => f.path)).toEqual(['rollouts/40-releaserollout-r.yaml']);
  });

  test('a chart that writes into rollouts/ is a problem', () => {
    const { app } = build();
    new HostedCluster(new ManagementCluster(app, 'rollouts'), 'z1', { release: v('4.17.0'), pullSecret: SecretSource.fromExistingSecret('pull-secret'), ...PLATFORMS.kubevirt() });
    expect(() => app.synthesize()).toThrow(
      /^r: its record goes to rollouts\/40-releaserollout-r\.yaml, but rollouts\/z1\/50-hostedcluster-clusters_z1\.yaml is in that folder too: rollouts\/ holds the records of release rollouts; rename the chart that writes there$/,
    );
  });
});

describe('ReleaseRollout: rules at construction', () => {
  test('fails when its props are malformed, with every problem at once', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const first = new ReleaseRollout(app, 'first', { release: v('4.17.3'), waves: [RolloutWave.rest()] });
    expect(
      () =>
        new ReleaseRollout(app, 'Bad_Name', {
          release: v('4.17.3'),
          waves: [
            RolloutWave.clusters(['a1'], { name: 'one' }),
            RolloutWave.canaries(['a2']),
            RolloutWave.rest(),
            RolloutWave.batch(0, { name: 'one' }),
            RolloutWave.labels({}),
            RolloutWave.clusters([]),
          ],
          releasedWaves: 7,
          onFailure: 'Sometimes' as RolloutFailurePolicy,
          after: [first],
        }),
    ).toThrow(
      [
        '9 problems:',
        '  - Bad_Name: name ("Bad_Name") must be a DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters',
        '  - Bad_Name: releasedWaves (7) must be a whole number from 0 to 6, the number of waves',
        '  - Bad_Name: onFailure ("Sometimes") must be Continue or Stop',
        '  - Bad_Name: waves[1] (canaries ["a2"]) must be the first wave: canaries move before every other wave',
        '  - Bad_Name: waves[2] (rest) must be the last wave: it takes every cluster the waves before it leave',
        '  - Bad_Name: waves[3].name ("one") is also the name of waves[0]; give each wave a name of its own',
        '  - Bad_Name: waves[3].batch (0) must be a whole number >= 1',
        '  - Bad_Name: waves[4].labels ({}) must give at least one label',
        '  - Bad_Name: waves[5].clusters ([]) must name at least one cluster: <name> or <management cluster>/<name>',
      ].join('\n'),
    );
  });

  test('fails when release or waves are missing (JavaScript callers)', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    expect(() => new ReleaseRollout(app, 'r', { release: '4.17.3', waves: [] } as any)).toThrow(
      [
        '2 problems:',
        '  - r: release ("4.17.3") must be a Release: Release.fromImage(...) or Release.fromVersion(...)',
        '  - r: waves ([]) must be a list of at least one RolloutWave: RolloutWave.canaries([...]), .clusters([...]), .labels({...}), .batch(n) or .rest()',
      ].join('\n'),
    );
  });

  test('a release by digest without its version: its update paths cannot be checked (HCP-W004)', () => {
    const { app } = build({ rollout: { release: Release.fromImage(DIGEST('b')) } });
    app.synthesize();
    expect(app.warnings).toEqual([
      `r: release ("${DIGEST('b')}") tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ` +
        "whether it is an allowed update from the release of each cluster it covers; give it: Release.fromImage(image, { version: '4.17.0' }) [HCP-W004]",
    ]);
  });
});

describe('ReleaseRollout: rules over its clusters', () => {
  test('fails when a wave selects no cluster or names one it does not cover, or two of that name', () => {
    const clusters = [...CLUSTERS, { hub: 'hub-b', name: 'a2', infraId: 'a2-b' }];
    expect(
      problemsOf({
        clusters,
        rollout: { waves: [RolloutWave.canaries(['a2', 'zz']), RolloutWave.labels({ ring: '9' }), RolloutWave.clusters(['nope']), RolloutWave.rest()] },
      }),
    ).toEqual([
      'r: waves[0].clusters ("a2"): wave 1 (canaries) names 2 clusters (hub-a/clusters/a2, hub-b/clusters/a2); give <management cluster>/<name>',
      'r: waves[0].clusters ("zz"): wave 1 (canaries) names a cluster the rollout does not cover; name one of its clusters: <name> or <management cluster>/<name>',
      'r: waves[1] (labels {"ring":"9"}): wave 2 (wave-2) selects no cluster of the rollout; a wave must select at least one, or be left out',
      'r: waves[2].clusters ("nope"): wave 3 (wave-3) names a cluster the rollout does not cover; name one of its clusters: <name> or <management cluster>/<name>',
    ]);
  });

  test('fails when a cluster is in two waves, or in none', () => {
    expect(problemsOf({ rollout: { waves: [RolloutWave.canaries(['a1']), RolloutWave.labels({ ring: '1' }), RolloutWave.batch(1)] } })).toEqual([
      'r: hub-a/clusters/a1 is in wave 1 (canaries) and wave 2 (wave-2); a cluster is in one wave: take it out of all but one',
      'r: hub-b/clusters/b1, hub-b/clusters/b2 and hub-b/clusters/b3 are in no wave: pick them in a wave, or end the waves with RolloutWave.rest()',
    ]);
  });

  test('fails when its release is not an allowed update from a cluster it covers, digests by their version', () => {
    const clusters = CLUSTERS.map((c) => (c.name === 'b3' ? { ...c, release: Release.fromImage(DIGEST('c'), { version: '4.15.2' }) } : c));
    expect(problemsOf({ clusters, rollout: { release: Release.fromImage(DIGEST('d'), { version: '4.17.3' }) } })).toEqual([
      'r: release (4.17.3) is not an allowed update for hub-b/clusters/b3 of wave 4 (rest), which runs 4.15.2 until its wave is released: updates from 4.15.2 to 4.17.3, which skips 4.16; ' +
        'a control plane accepts a later 4.15.z or 4.16.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    ]);
    expect(problemsOf({ rollout: { release: v('4.16.9') } })).toEqual([
      'r: release (4.16.9) is not an allowed update for 6 clusters, which run 4.17.0 until their wave is released (hub-a/clusters/a1, hub-a/clusters/a2, hub-a/clusters/a3 and 3 more): ' +
        'goes back from 4.17.0 to 4.16.9: OpenShift supports no downgrade, and HyperShift refuses a minor one even when forced (ValidReleaseImage False: IsValidReleaseVersion, support/supportedversion/version.go); ' +
        'a control plane accepts a later 4.17.z or 4.18.z, one minor at a time',
    ]);
  });

  test('a refused path is accepted for a cluster whose forceUpgradeTo names the release, by digest as HyperShift compares it', () => {
    const target = Release.fromImage(DIGEST('d'), { version: '4.17.3' });
    const forced = (force: Release) => CLUSTERS.map((c) => (c.name === 'b3' ? { ...c, release: Release.fromImage(DIGEST('c'), { version: '4.15.2' }), forceUpgradeTo: force } : c));
    expect(problemsOf({ clusters: forced(target), rollout: { release: target, releasedWaves: 4 } })).toEqual([]);
    // The same version by tag is another image: not forced.
    expect(problemsOf({ clusters: forced(v('4.17.3')), rollout: { release: target, releasedWaves: 4 } })).toContainEqual(
      expect.stringMatching(
        /^r: release \(4\.17\.3\) is not an allowed update for hub-b\/clusters\/b3 of wave 4 \(rest\), which ran 4\.15\.2 before its wave was released: updates from 4\.15\.2 to 4\.17\.3/,
      ),
    );
  });

  test('fails when failedClusters names no cluster of a released wave', () => {
    expect(problemsOf({ rollout: { releasedWaves: 1, failedClusters: ['a2', 'b3', 'zz'] } })).toEqual([
      'r: failedClusters ("b3") names hub-b/clusters/b3 of wave 4 (rest), which is not released; only a cluster of a released wave can have failed',
      'r: failedClusters ("zz") names a cluster the rollout does not cover',
    ]);
  });

  test('fails when rollouts wait for each other', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const after: ReleaseRollout[] = [];
    const a = new ReleaseRollout(app, 'a', { release: v('4.17.3'), waves: [RolloutWave.rest()], after });
    const b = new ReleaseRollout(app, 'b', { release: v('4.17.3'), waves: [RolloutWave.rest()], after: [a] });
    after.push(b);
    const hub = new ManagementCluster(app, 'hub');
    for (const [name, rollout] of [
      ['c1', a],
      ['c2', b],
    ] as const) {
      new HostedCluster(hub, name, { release: v('4.17.0'), pullSecret: SecretSource.fromExistingSecret('pull-secret'), ...PLATFORMS.kubevirt(), rollout });
    }
    expect(() => app.synthesize()).toThrow(
      [
        '2 problems:',
        '  - a: after (["b"]) waits for this rollout in turn (a -> b -> a); rollouts cannot wait for each other',
        '  - b: after (["a"]) waits for this rollout in turn (b -> a -> b); rollouts cannot wait for each other',
      ].join('\n'),
    );
  });
});

describe('ReleaseRollout against the previous output', () => {
  test('a commit that moves the next wave passes; so does one that moves nothing', () => {
    expect(problemsOf({ rollout: { releasedWaves: 1 } }, { rollout: { releasedWaves: 0 } })).toEqual([]);
    expect(problemsOf({ rollout: { releasedWaves: 2 } }, { rollout: { releasedWaves: 1 } })).toEqual([]);
    expect(problemsOf({ rollout: { releasedWaves: 2 } }, { rollout: { releasedWaves: 2 } })).toEqual([]);
  });

  test('fails when a commit moves more than one wave', () => {
    expect(problemsOf({ rollout: { releasedWaves: 2 } }, { rollout: { releasedWaves: 0 } })).toEqual([
      'r: releasedWaves (2): 2 waves move in one commit, wave 1 (canaries) and wave 2 (ring-1); a commit moves one wave: release them one commit at a time',
      'r: releasedWaves (2): wave 2 (ring-1) moves while wave 1 (canaries) is not on the target release in the previous output (hub-a/clusters/a2 (control plane and pool a2-workers)); ' +
        'move wave 2 (ring-1) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
  });

  test('fails when a later wave moves before an earlier one runs the release', () => {
    // b3 (of the rest) gets the rollout's release on its own, while ring-1 and wave-3 have not moved.
    const clusters = CLUSTERS.map((c) => (c.name === 'b3' ? { ...c, release: v('4.17.3') } : c));
    expect(problemsOf({ clusters, rollout: { releasedWaves: 1 } }, { rollout: { releasedWaves: 1 } })).toEqual([
      'r: releasedWaves (1): wave 4 (rest) moves while wave 2 (ring-1) is not on the target release in the previous output ' +
        '(hub-a/clusters/a1 (control plane and pool a1-workers) and hub-a/clusters/a3 (control plane and pool a3-workers)); move wave 4 (rest) in a later commit, once wave 2 (ring-1) runs 4.17.3',
    ]);
  });

  test('holdNodePools: control planes in one commit, pools in the next, and the next wave only after both', () => {
    const held = { waves: [RolloutWave.canaries(['a2'], { holdNodePools: true }), RolloutWave.rest()] };
    const free = { waves: [RolloutWave.canaries(['a2']), RolloutWave.rest()] };
    expect(problemsOf({ rollout: { ...held, releasedWaves: 1 } }, { rollout: { ...held, releasedWaves: 0 } })).toEqual([]);
    expect(problemsOf({ rollout: { ...free, releasedWaves: 1 } }, { rollout: { ...held, releasedWaves: 1 } })).toEqual([]);
    expect(problemsOf({ rollout: { ...held, releasedWaves: 2 } }, { rollout: { ...held, releasedWaves: 1 } })).toEqual([
      'r: releasedWaves (2): wave 2 (rest) moves while wave 1 (canaries) is not on the target release in the previous output (hub-a/clusters/a2 (pool a2-workers)); ' +
        'move wave 2 (rest) in a later commit, once wave 1 (canaries) runs 4.17.3',
    ]);
    expect(problemsOf({ rollout: { ...free, releasedWaves: 2 } }, { rollout: { ...free, releasedWaves: 1 } })).toEqual([]);
  });

  test('onFailure: under Stop a failed cluster stops the waves after it; under Continue it counts as done', () => {
    const held = { waves: [RolloutWave.canaries(['a2'], { holdNodePools: true }), RolloutWave.rest()] };
    const before = { rollout: { ...held, releasedWaves: 1 } };
    expect(problemsOf({ rollout: { ...held, releasedWaves: 2, failedClusters: ['a2'], onFailure: RolloutFailurePolicy.CONTINUE } }, before)).toEqual([]);
    expect(problemsOf({ rollout: { ...held, releasedWaves: 2, failedClusters: ['a2'], onFailure: RolloutFailurePolicy.STOP } }, before)).toEqual([
      'r: releasedWaves (2): wave 2 (rest) moves while hub-a/clusters/a2 of wave 1 (canaries) failed (failedClusters) and onFailure is Stop; ' +
        'take it out of failedClusters once it runs well again, or set onFailure to Continue',
    ]);
  });

  test('after: a rollout moves nothing until the one it waits for is complete in the previous output', () => {
    const first = (releasedWaves: number) => ({
      props: { releasedWaves },
      clusters: [
        { hub: 'hub-c', name: 'c1' },
        { hub: 'hub-c', name: 'c2' },
      ],
    });
    expect(problemsOf({ first: first(1), rollout: { releasedWaves: 1 } }, { first: first(0), rollout: { releasedWaves: 0 } })).toEqual([
      'r: releasedWaves (1): wave 1 (canaries) moves while rollout first, which this one waits for (after), is not complete in the previous output ' +
        '(hub-c/clusters/c1 (control plane and pool c1-workers) and hub-c/clusters/c2 (control plane and pool c2-workers) not on its release); move it once every cluster of first runs 4.17.3',
    ]);
    expect(problemsOf({ first: first(1), rollout: { releasedWaves: 1 } }, { first: first(1), rollout: { releasedWaves: 0 } })).toEqual([]);
    expect(problemsOf({ first: first(1), rollout: { releasedWaves: 0 } }, { first: first(0), rollout: { releasedWaves: 0 } })).toEqual([]);
  });

  test('with no previous output, what is not checked is a warning (an error with strict); nothing released, nothing to say', () => {
    const { app } = build({ rollout: { releasedWaves: 2 } });
    app.synthesize({ previousOutput: PreviousOutput.none(['none here']) });
    expect(app.warnings).toEqual(['r: releasedWaves (2) is not checked: with no previous output, synth cannot tell which wave this commit moves, nor whether the waves before it run their release']);
    expect(problemsOf({ rollout: { releasedWaves: 0 } }, null)).toEqual([]);
    const strict = build({ rollout: { releasedWaves: 2 }, strict: true }).app;
    expect(() => strict.synthesize({ previousOutput: PreviousOutput.none(['none here']) })).toThrow(/^r: releasedWaves \(2\) is not checked: with no previous output/);
  });

  test('synthesize() without a previous output checks no transition, as for every other transition rule', () => {
    expect(problemsOf({ rollout: { releasedWaves: 3 } })).toEqual([]);
  });
});
