// Review at scale: notes grouped by kind with the clusters listed once per wave, clusters whose
// changes are alike shown once, a Markdown plan that fits a pull-request comment for any fleet, and
// the failed, timed-out, held and paused clusters of a rollout in the text plan.
import {
  ChangeEffect,
  ClusterNoteKind,
  Fleet,
  FleetInventory,
  HcpApp,
  OutputSnapshot,
  Plan,
  PLAN_SCHEMA_VERSION,
  PlanAction,
  planChanges,
  planMarkdown,
  planText,
  PULL_REQUEST_COMMENT_LIMIT,
} from '../../lib';

const TARGET = 'quay.io/openshift-release-dev/ocp-release@sha256:5b9c2ad3e8e4bd2cc0f25d6c1e9e0a4b7c8d9f0e1a2b3c4d5e6f708192a3b4c5';

/** 304 KubeVirt clusters on two hubs (two pools each), a rollout of 2 canaries, a wave of 300, and the rest. */
function inventory(rollout: Record<string, unknown>): FleetInventory {
  const clusters = (hub: number) => Array.from({ length: 152 }, (_, i) => ({ name: `c${String(i * 2 + hub).padStart(5, '0')}` }));
  return {
    defaults: {
      platform: 'KubeVirt',
      releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.16.20-multi',
      nodePools: [
        { name: 'small', replicas: 2 },
        { name: 'large', replicas: 1 },
      ],
    },
    managementClusters: [0, 1].map((hub) => ({ name: `hub-${hub}`, clusters: clusters(hub) })),
    rollouts: [{ name: 'r-4-17-12', releaseImage: TARGET, releaseVersion: '4.17.12', waves: [{ canaries: ['c00000', 'c00001'] }, { batch: 300 }, { rest: true }], ...rollout }],
  };
}

function output(rollout: Record<string, unknown>): OutputSnapshot {
  const app = new HcpApp({ outdir: '/nonexistent', validateObjects: false });
  Fleet.fromInventory(app, inventory(rollout));
  return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
}

describe('the plan of a 300-cluster wave', () => {
  let plan: Plan;
  beforeAll(() => {
    plan = planChanges(output({ releasedWaves: 1 }), output({ releasedWaves: 2 }));
  });

  test('the markdown plan is under the 65,536 characters of a pull-request comment, with nothing left out', () => {
    expect(plan.rollouts![0].moves[0].clusters).toHaveLength(300);
    const markdown = planMarkdown(plan);
    expect(markdown.length).toBeLessThan(PULL_REQUEST_COMMENT_LIMIT);
    expect(markdown).not.toContain('left out');
    // The moved clusters are folded away under the rollout's line, and each cluster's changes are one table for all.
    expect(markdown).toContain('> **rollout r-4-17-12 (4.17.12): wave 2 of 3 (wave-2) moves 300 clusters; 2 left in wave 3 (rest)**');
    expect(markdown).toContain('> <details><summary>the 300 clusters wave 2 (wave-2) moves</summary>');
    expect(markdown).toContain("#### 300 clusters whose changes are alike, as `hub-0/clusters/c00002`'s");
    expect(markdown.match(/\| update \| HostedCluster/g)).toHaveLength(1);
    expect(markdown).toContain('- wave 2 (wave-2) of r-4-17-12: every cluster it moves (300)');
  });

  test('the notes are one line per kind, with the count and the clusters once per wave', () => {
    expect(plan.clusterNotes).toHaveLength(300);
    const lines = planText(plan).split('\n');
    const notes = lines.filter((l) => l.startsWith('note: '));
    expect(notes).toEqual([
      expect.stringMatching(
        /^note: 300 clusters: control plane and pools upgrade in one commit; as for hub-0\/clusters\/c00002: the control plane and pools c00002-large, c00002-small upgrade in one commit, and nothing waits/,
      ),
    ]);
    expect(lines[lines.indexOf(notes[0]) + 1]).toBe('  wave 2 (wave-2) of r-4-17-12: every cluster it moves (300)');
    expect(lines).toContain('update graph: no update graph in the output; not checked against a graph (version arithmetic only): 300 control-plane updates on no channel (see UpdateGraph)');
  });
});

describe('the markdown plan of any fleet stays under its limit', () => {
  /** A plan of `count` clusters, each with a change of its own (no two alike). */
  function distinct(count: number): Plan {
    const objects = Array.from({ length: count }, (_, i) => ({
      action: PlanAction.UPDATE,
      apiVersion: 'hypershift.openshift.io/v1beta1',
      kind: 'NodePool',
      namespace: 'clusters',
      name: `c${i}-workers`,
      file: `hub/c${i}/60-nodepool-clusters_c${i}-workers.yaml`,
      cluster: `hub/clusters/c${i}`,
      changes: [{ path: 'spec.replicas', before: 2, after: 3 + i }],
      effects: [{ effect: ChangeEffect.SCALE, summary: `scales from 2 nodes to ${3 + i} nodes; no node is replaced` }],
    }));
    return {
      schemaVersion: PLAN_SCHEMA_VERSION,
      previous: 'a',
      next: 'b',
      summary: { create: 0, update: count, delete: 0, unchanged: 0, effects: { [ChangeEffect.SCALE]: count }, clustersChanged: objects.map((o) => o.cluster) },
      clusterNotes: objects.map((o) => ({ cluster: o.cluster, kind: ClusterNoteKind.CONDITIONAL_UPDATE, note: `a note on ${o.cluster}` })),
      objects,
    };
  }

  test('5,000 clusters with changes of their own: the first clusters, then a line that says what is left out and where the full plan is', () => {
    const markdown = planMarkdown(distinct(5000), { fullPlan: 'plan-full.md' });
    expect(markdown.length).toBeLessThanOrEqual(PULL_REQUEST_COMMENT_LIMIT);
    expect(markdown).toMatch(/\n\*\*the changes of 4,\d{3} clusters left out\*\* to keep this comment under 65,536 characters; the full plan: `plan-full\.md`\.\n$/);
    // The notes name the first clusters and count the rest.
    expect(markdown).toContain('> **5,000 clusters: a conditional update of the update graph**; as for `hub/clusters/c0`: a note on hub/clusters/c0');
    expect(markdown).toMatch(/hub\/clusters\/c\d+ and 4,900 more\n/);
    expect(markdown).toContain('#### Cluster `hub/clusters/c0`');
  });

  test('what a reviewer must see first comes first: a refused change is never left out behind a long one', () => {
    const plan = distinct(400);
    // The last cluster's change is refused; the others only scale.
    const refused = { ...plan.objects[399], effects: [{ effect: ChangeEffect.REFUSED, summary: 'spec.release.image: refused: updates from 4.17.0 to 4.19.0, which skips 4.18' }] };
    const objects = [...plan.objects.slice(0, 399), refused];
    const markdown = planMarkdown({ ...plan, objects, summary: { ...plan.summary, effects: { [ChangeEffect.REFUSED]: 1, [ChangeEffect.SCALE]: 399 } } }, { maxLength: 4000 });
    expect(markdown).toContain('left out');
    expect(markdown).toContain('#### Cluster `hub/clusters/c399`');
    expect(markdown).toContain('refused: updates from 4.17.0 to 4.19.0, which skips 4.18');
  });

  test('a smaller limit leaves out more, and never cuts a section in two', () => {
    const markdown = planMarkdown(distinct(50), { maxLength: 4000 });
    expect(markdown.length).toBeLessThanOrEqual(4000);
    expect(markdown.split('<details>').length).toBe(markdown.split('</details>').length);
    expect(markdown).toContain('the full plan: `hcp-cdk plan --format text` prints it.');
  });

  test('maxLength is a hard limit at every size, and one too small to say what is left out is refused', () => {
    const plan = distinct(300);
    for (let max = 1000; max <= 30_000; max += 997) {
      const markdown = planMarkdown(plan, { maxLength: max, fullPlan: 'a/rather/long/path/to/the/full/plan/of/this/pull-request.md' });
      expect([max, markdown.length <= max]).toEqual([max, true]);
      expect(markdown).toContain('left out');
    }
    expect(() => planMarkdown(plan, { maxLength: 999 })).toThrow(
      new RangeError('planMarkdown: maxLength 999 is too small; it must be at least 1,000 characters, room for the counts and the line that says what is left out'),
    );
    expect(() => planMarkdown(plan, { maxLength: NaN })).toThrow(RangeError);
  });

  test('objects of no hosted cluster left out are said as such, not counted as a cluster', () => {
    const plan = distinct(60);
    const hubObject = { ...plan.objects[0], kind: 'ClusterRole', namespace: undefined, name: 'hcp-cdk-hub-reader', file: 'hub/10-clusterrole-hcp-cdk-hub-reader.yaml', cluster: undefined };
    // Both sorted last: a scale of a hosted cluster's pool and a hub object's change rank alike.
    const markdown = planMarkdown({ ...plan, objects: [...plan.objects, hubObject] }, { maxLength: 4000 });
    const counted = /the changes of ([\d,]+) clusters/.exec(markdown)!;
    const tables = markdown.match(/#### Cluster `/g)!.length;
    expect(Number(counted[1].replace(',', '')) + tables).toBe(60);
    expect(markdown).toContain(' and the changes of objects of no hosted cluster left out** to keep this comment under 4,000 characters');
  });

  test('a plan that fits is the whole plan', () => {
    expect(planMarkdown(distinct(3))).not.toContain('left out');
  });
});
