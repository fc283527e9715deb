// The update graph of a channel, in the update service's format: update paths follow its edges
// (a conditional one named with its risks), a digest's declared version is checked against the
// payload it lists, and plan checks against the graph the new output keeps.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import {
  ChangeEffect,
  ClusterNoteKind,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  OutputSnapshot,
  Plan,
  PreviousOutput,
  PreviousOutputSource,
  Release,
  ReleaseChannel,
  ReleaseRollout,
  RolloutWave,
  SecretSource,
  UpdateGraph,
  UpdatePaths,
} from '../../lib';
import { planChanges } from '../../lib/plan/plan';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { PLATFORMS } from '../props';
import { ROOT } from '../util';

const digest = (hex: string): string => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
const RISK_URL = 'https://issues.redhat.com/browse/OCPBUGS-12345';

/**
 * A stable-4.17 graph as the update service serves it (metadata and matching rules included, which
 * hcp-cdk leaves out): 4.16.20 goes to 4.17.10 and 4.17.11, both to 4.17.12, and that to 4.17.13;
 * 4.16.20 to 4.17.12 directly only as a conditional edge.
 */
const GRAPH = {
  version: 1,
  nodes: [
    { version: '4.16.20', payload: digest('a'), metadata: { 'io.openshift.upgrades.graph.release.channels': 'stable-4.16,stable-4.17' } },
    { version: '4.17.10', payload: digest('b'), metadata: {} },
    { version: '4.17.11', payload: digest('c'), metadata: {} },
    { version: '4.17.12', payload: digest('d'), metadata: {} },
    { version: '4.17.13', payload: digest('e'), metadata: {} },
  ],
  edges: [
    [0, 1],
    [0, 2],
    [1, 3],
    [2, 3],
    [3, 4],
  ],
  conditionalEdges: [
    {
      edges: [{ from: '4.16.20', to: '4.17.12' }],
      risks: [
        {
          url: RISK_URL,
          name: 'OVNPodNetworkRace',
          message: 'Clusters on OVN-Kubernetes may lose pod networking\nfor a few minutes during the update.',
          matchingRules: [{ type: 'PromQL', promql: { promql: 'group(cluster_infrastructure_provider)' } }],
        },
      ],
    },
  ],
};

const release = (version: string, hex: string): Release => Release.fromImage(digest(hex), { version });
const R4_16_20 = release('4.16.20', 'a');
const R4_17_11 = release('4.17.11', 'c');
const R4_17_12 = release('4.17.12', 'd');
const R4_17_13 = release('4.17.13', 'e');

interface Shape {
  /** The release of cluster prod. */
  readonly release: Release;
  /** @default true */
  readonly graph?: boolean;
  /** A rollout to this release over prod, wave 1 released. */
  readonly rollout?: Release;
  /** Synthesize without checking objects, as an output edited by hand would be. @default false */
  readonly unchecked?: boolean;
}

/** One cluster, prod, on channel stable-4.17, with the graph unless told otherwise. */
function build(shape: Shape): HcpApp {
  const app = new HcpApp({ outdir: '/nonexistent', validateObjects: !shape.unchecked });
  if (shape.graph ?? true) new UpdateGraph(app, 'stable-4.17', { channel: ReleaseChannel.stable('4.17'), graph: GRAPH });
  const rollout = shape.rollout && new ReleaseRollout(app, 'r', { release: shape.rollout, waves: [RolloutWave.rest()], releasedWaves: 1 });
  const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'prod', {
    release: shape.release,
    channel: 'stable-4.17',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    ...PLATFORMS.kubevirt(),
    rollout,
  });
  cluster.addNodePool('workers', { replicas: 2 });
  return app;
}

function files(app: HcpApp, previous?: PreviousOutput): Map<string, Buffer> {
  return new Map(app.synthesize(previous ? { previousOutput: previous } : {}).map((f) => [f.path, Buffer.from(f.text)]));
}

/** The problems of synthesizing `after` over the output of `before`, [] when it succeeds. */
function problems(after: Shape, before: Shape): string[] {
  const previous = PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, 'test', files(build(before)));
  try {
    files(build(after), previous);
    return [];
  } catch (error) {
    return [...((error as { problems?: string[] }).problems ?? [(error as Error).message])];
  }
}

function plan(after: Shape, before: Shape): Plan {
  return planChanges(OutputSnapshot.fromFiles('before', files(build(before))), OutputSnapshot.fromFiles('after', files(build(after))), { validator: new ObjectValidator() });
}

describe('UpdatePaths: the update service graph of a channel', () => {
  const graph = UpdatePaths.parse(GRAPH, 'stable-4.17', 'graph');
  const at = (version: string) => Release.fromVersion(version).version!;

  test('reads the format the update service serves: nodes, edges as index pairs, conditional edges with their risks', () => {
    expect(graph.problems).toEqual([]);
    expect(graph.path(at('4.16.20'), at('4.17.11'))).toEqual({ channel: 'stable-4.17' });
    expect(graph.path(at('4.16.20'), at('4.17.12'))).toEqual({
      channel: 'stable-4.17',
      risks: [{ name: 'OVNPodNetworkRace', url: RISK_URL, message: GRAPH.conditionalEdges[0].risks[0].message }],
    });
    expect(graph.payloadVersion(digest('d'))).toBe('4.17.12');
    // A mirror holds the same digest under another registry.
    expect(graph.payloadVersion(`mirror.example.com:5000/ocp/release@sha256:${'d'.repeat(64)}`)).toBe('4.17.12');
    expect(graph.payloadVersion('quay.io/openshift-release-dev/ocp-release:4.17.12-multi')).toBeUndefined();
  });

  test('says why a path has no edge, and what the graph offers instead, newest first', () => {
    expect(graph.path(at('4.16.20'), at('4.17.13')).problem).toBe(
      'the update graph of stable-4.17 has no edge from 4.16.20 to 4.17.13; from 4.16.20 it offers 4.17.11, 4.17.10; conditionally 4.17.12 (risk OVNPodNetworkRace)',
    );
    expect(graph.path(at('4.17.13'), at('4.17.12')).problem).toBe('the update graph of stable-4.17 has no edge from 4.17.13 to 4.17.12; it offers no update from 4.17.13');
    expect(graph.path(at('4.16.9'), at('4.17.12')).problem).toBe(
      'the update graph of stable-4.17 does not list 4.16.9, so it offers no update from it; give the graph of the channel the cluster is on',
    );
    expect(graph.path(at('4.17.12'), at('4.17.99')).problem).toBe('the update graph of stable-4.17 does not list 4.17.99: it is no release of that channel');
  });

  test('a document that is not a graph: every problem, by field', () => {
    const bad = UpdatePaths.parse(
      { nodes: [{ version: '4.17.x', payload: digest('a') }, { version: '4.17.1' }], edges: [[0, 2], 'x'], conditionalEdges: [{ edges: [{ from: '4.17.1' }], risks: [] }] },
      'stable-4.17',
      'graphs/stable-4.17.json',
    );
    expect(bad.problems).toEqual([
      'graphs/stable-4.17.json: nodes[0].version ("4.17.x") must be an OpenShift version such as 4.17.12',
      'graphs/stable-4.17.json: nodes[1].payload (undefined) must be the release image',
      'graphs/stable-4.17.json: edges[0] ([0,2]) must be [from, to], two indexes of nodes from 0 to 1',
      'graphs/stable-4.17.json: edges[1] ("x") must be [from, to], two indexes of nodes from 0 to 1',
      'graphs/stable-4.17.json: conditionalEdges[0].edges[0] ({"from":"4.17.1"}) must be {from, to}, two versions',
      'graphs/stable-4.17.json: conditionalEdges[0].risks ([]) must give at least one risk: a conditional edge is one with risks',
    ]);
  });
});

describe('UpdateGraph at synth', () => {
  test('a control plane update without an edge in the graph is refused', () => {
    expect(problems({ release: R4_17_13 }, { release: R4_16_20 })).toEqual([
      'hub/prod/Resource: HostedCluster clusters/prod: spec.release.image: refused: the update graph of stable-4.17 has no edge from 4.16.20 to 4.17.13; ' +
        `from 4.16.20 it offers 4.17.11, 4.17.10; conditionally 4.17.12 (risk OVNPodNetworkRace) (value: "${digest('e')}")`,
    ]);
    expect(problems({ release: R4_17_11 }, { release: R4_16_20 })).toEqual([]);
    // Without the graph, version arithmetic accepts the same update.
    expect(problems({ release: R4_17_13, graph: false }, { release: R4_16_20, graph: false })).toEqual([]);
  });

  test('a rollout over a conditional edge is accepted and named with its risk (HCP-W006); without an edge it is refused', () => {
    const app = build({ release: R4_16_20, rollout: R4_17_12 });
    app.synthesize();
    expect(app.warnings).toEqual([
      'r: release (4.17.12) is a conditional update of stable-4.17 for hub/clusters/prod of wave 1 (rest), which ran 4.16.20 before its wave was released: ' +
        `risk OVNPodNetworkRace (${RISK_URL}): Clusters on OVN-Kubernetes may lose pod networking for a few minutes during the update; make sure the risks do not apply to them [HCP-W006]`,
    ]);
    expect(() => build({ release: R4_16_20, rollout: R4_17_13 }).synthesize()).toThrow(
      /r: release \(4\.17\.13\) is not an allowed update for hub\/clusters\/prod of wave 1 \(rest\), which ran 4\.16\.20 before its wave was released: the update graph of stable-4\.17 has no edge from 4\.16\.20 to 4\.17\.13/,
    );
  });

  test('a digest whose declared version the graph contradicts is refused, on the cluster and on the rollout', () => {
    const wrong = Release.fromImage(digest('d'), { version: '4.17.99' });
    expect(() => build({ release: wrong }).synthesize()).toThrow(
      'hub/prod/Resource: HostedCluster clusters/prod: metadata.annotations["hcp-cdk.io/release-version"]: refused: the release is declared 4.17.99, ' +
        `but the update graph of stable-4.17 lists its payload (sha256:${'d'.repeat(64)}) as 4.17.12; give the version the graph gives, or the right image (value: "4.17.99")`,
    );
    const app = new HcpApp({ outdir: '/nonexistent' });
    new UpdateGraph(app, 'graph', { channel: 'stable-4.17', graph: GRAPH });
    const rollout = new ReleaseRollout(app, 'r', { release: wrong, waves: [RolloutWave.rest()] });
    new HostedCluster(new ManagementCluster(app, 'hub'), 'prod', { release: R4_16_20, pullSecret: SecretSource.fromExistingSecret('pull-secret'), ...PLATFORMS.kubevirt(), rollout });
    expect(() => app.synthesize()).toThrow(
      `r: release (${digest('d')}) is declared 4.17.99, but the update graph of stable-4.17 lists that payload as 4.17.12; give the version the graph gives, or the right image`,
    );
  });

  test('relabelling a digest is refused, unless the graph settles its version', () => {
    const relabelled = Release.fromImage(digest('d'), { version: '4.17.14' });
    expect(problems({ release: relabelled, graph: false }, { release: R4_17_12, graph: false })).toEqual([
      'hub/prod/Resource: HostedCluster clusters/prod: metadata.annotations["hcp-cdk.io/release-version"]: refused: the same image ' +
        `(${digest('d')}) was declared 4.17.12 and is now 4.17.14: an image is one release, and its update paths and version skew are checked by its version; ` +
        'to correct a version declared wrong, give the update graph of the cluster\'s channel (UpdateGraph), which settles the version of the payloads it lists (value: "4.17.14")',
      // The pool carries the same annotation.
      expect.stringMatching(/^hub\/prod\/workers\/Resource: NodePool clusters\/prod-workers: metadata\.annotations\["hcp-cdk\.io\/release-version"\]: refused: the same image/),
    ]);
    // The graph lists the payload as 4.17.12: a version declared wrong before is corrected.
    expect(problems({ release: R4_17_12 }, { release: relabelled, graph: false })).toEqual([]);
  });

  test('a graph that cannot be read, or one per channel twice: construct problems', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const missing = path.join(os.tmpdir(), 'hcp-cdk-no-such-graph.json');
    new UpdateGraph(app, 'a', { channel: 'stable-4.17', file: missing });
    new UpdateGraph(app, 'b', { channel: 'stable-4.17', graph: GRAPH });
    expect(() => new UpdateGraph(new HcpApp({ outdir: '/nonexistent' }), 'c', { channel: 'stable-4.17' })).toThrow(
      "c: file (undefined) and graph: give exactly one, the file the update service's graph is saved in or the parsed graph",
    );
    expect(() => app.synthesize()).toThrow(
      [
        '2 problems:',
        `  - a: file ("${missing}") cannot be read: no such file or directory (or a symbolic link to nothing)`,
        '  - b: channel ("stable-4.17") has a graph already (a); give one graph per channel',
      ].join('\n'),
    );
  });

  test('the graph file is read as every hand-written file: a key twice is a problem, a FIFO is refused rather than waited on', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-graph-'));
    try {
      const file = path.join(dir, 'stable-4.17.json');
      // JSON.parse would keep the second list silently.
      fs.writeFileSync(file, `{"nodes": [], "nodes": ${JSON.stringify(GRAPH.nodes)}, "edges": []}`);
      const app = new HcpApp({ outdir: '/nonexistent' });
      new UpdateGraph(app, 'g', { channel: 'stable-4.17', file });
      expect(() => app.synthesize()).toThrow(`g: file ("${file}") is not the update service's graph: not read: the key "nodes" appears twice in one object (the API server refuses duplicate keys)`);
      // In a process of its own, so that a reader that waits on the FIFO fails by the timeout instead of holding the suite.
      const fifo = path.join(dir, 'fifo.json');
      spawnSync('mkfifo', [fifo]);
      const script = `const { HcpApp, UpdateGraph } = require(${JSON.stringify(path.join(ROOT, 'build', 'lib'))});
        const app = new HcpApp({ outdir: '/nonexistent' });
        new UpdateGraph(app, 'g', { channel: 'stable-4.17', file: ${JSON.stringify(fifo)} });
        try { app.synthesize(); } catch (error) { console.log(error.message); }`;
      const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 20_000 });
      expect([child.status, child.stdout.trim()]).toEqual([0, `g: file ("${fifo}") cannot be read: a FIFO (named pipe), not a regular file; only regular files are read (a link must lead to one)`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('the graph is read from a file and kept in the output, in rollouts/, checked by its schema', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-graph-'));
    try {
      const file = path.join(dir, 'stable-4.17.json');
      fs.writeFileSync(file, JSON.stringify(GRAPH));
      const app = new HcpApp({ outdir: '/nonexistent' });
      new UpdateGraph(app, 'stable-4.17', { channel: 'stable-4.17', file });
      const record = app.synthesize().find((f) => f.path.startsWith('rollouts/'))!;
      expect(record.path).toBe('rollouts/40-updategraph-stable-4.17.yaml');
      const object = new ObjectValidator().validate(YAML.parse(record.text));
      expect(object).toEqual([]);
      expect(record.text).toContain('name: OVNPodNetworkRace');
      expect(record.text).not.toContain('matchingRules');
      expect(record.text).not.toContain('io.openshift.upgrades.graph.release.channels');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('without a graph of its channel, the rollout says the graph was not checked', () => {
    const app = build({ release: R4_16_20, rollout: R4_17_11, graph: false });
    app.synthesize();
    expect(app.notices).toEqual([
      'r: the update graph was not checked: update paths to 4.17.11 follow version arithmetic for clusters on channel stable-4.17 (give an UpdateGraph of the channel to check its edges)',
    ]);
  });
});

describe('UpdateGraph in plan', () => {
  test('a path without an edge is refused, from the graph the new output keeps', () => {
    const result = plan({ release: R4_17_13 }, { release: R4_16_20 });
    const hostedCluster = result.objects.find((o) => o.kind === 'HostedCluster')!;
    expect(hostedCluster.effects[0]).toMatchObject({ effect: ChangeEffect.REFUSED, summary: expect.stringContaining('the update graph of stable-4.17 has no edge from 4.16.20 to 4.17.13') });
    expect(result.updateGraph).toEqual({ graphs: ['stable-4.17'], summary: 'update graphs of stable-4.17 in the output; every control-plane update it could check follows them' });
  });

  test('a conditional edge is named with its risk', () => {
    const result = plan({ release: R4_17_12 }, { release: R4_16_20 });
    expect(result.clusterNotes.filter((n) => n.kind === ClusterNoteKind.CONDITIONAL_UPDATE)).toEqual([
      {
        cluster: 'hub/clusters/prod',
        kind: ClusterNoteKind.CONDITIONAL_UPDATE,
        note:
          `the update from 4.16.20 to 4.17.12 is a conditional edge of stable-4.17: risk OVNPodNetworkRace (${RISK_URL}): Clusters on OVN-Kubernetes may lose pod networking for a few minutes during the update; ` +
          'make sure the risks do not apply to the cluster',
      },
    ]);
    expect(result.summary.effects[ChangeEffect.REFUSED]).toBeUndefined();
  });

  test('a digest whose version the graph contradicts is refused; a relabel is not a mere metadata change', () => {
    const wrong = Release.fromImage(digest('d'), { version: '4.17.99' });
    const created = plan({ release: wrong, unchecked: true }, { release: R4_16_20, graph: false });
    expect(created.objects.find((o) => o.kind === 'HostedCluster')!.effects[0].summary).toContain('the release is declared 4.17.99, but the update graph of stable-4.17 lists its payload');
    const relabel = plan({ release: Release.fromImage(digest('d'), { version: '4.17.14' }), graph: false }, { release: R4_17_12, graph: false });
    const effects = relabel.objects.find((o) => o.kind === 'HostedCluster')!.effects.map((e) => e.effect);
    expect(effects).toEqual([ChangeEffect.REFUSED, ChangeEffect.METADATA_ONLY]);
  });

  test('without a graph, plan says which control-plane updates follow version arithmetic', () => {
    const result = plan({ release: R4_17_11, graph: false }, { release: R4_16_20, graph: false });
    expect(result.updateGraph).toEqual({
      graphs: [],
      unchecked: [{ channel: 'stable-4.17', clusters: ['hub/clusters/prod'] }],
      summary: 'no update graph in the output; not checked against a graph (version arithmetic only): 1 control-plane update on channel stable-4.17 (see UpdateGraph)',
    });
  });
});
