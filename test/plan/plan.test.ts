import Ajv2020 from 'ajv/dist/2020';
import { Size } from 'cdk8s';
import {
  AcmDelivery,
  allowPruning,
  ArgoCdDelivery,
  ArgoCdGuestAccess,
  ChangeEffect,
  FluxDelivery,
  FluxSource,
  HcpApp,
  HIDDEN,
  HostedCluster,
  HyperShiftVersion,
  IDelivery,
  KustomizeDelivery,
  MachineConfiguration,
  ManagementCluster,
  NodePoolOptions,
  NodePoolPlatform,
  OutputSnapshot,
  MetalLBIngress,
  PausedUntil,
  Plan,
  PLAN_JSON_SCHEMA,
  PlanAction,
  PlannedObject,
  planChanges,
  planMarkdown,
  planText,
  Release,
  withHubHyperShift,
  SecretSource,
  TrustBundle,
  UpgradeType,
} from '../../lib';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { clusterProps, newCluster, PLATFORMS } from '../props';

const validator = new ObjectValidator();
const validatePlanJson = new Ajv2020({ strict: true, allErrors: true }).compile(PLAN_JSON_SCHEMA);

/** The cluster of each case: agent cluster `c1` at 4.17.0 with pool `workers`, varied by the case. */
interface ClusterShape {
  readonly release?: Release;
  readonly pool?: NodePoolOptions | false;
  readonly platform?: keyof typeof PLATFORMS;
  readonly infraId?: string;
  readonly clusterNetwork?: string;
  readonly labels?: Record<string, string>;
  readonly withCluster?: boolean;
  readonly machineConfig?: string;
  readonly restartDate?: string;
  readonly pausedUntil?: PausedUntil;
  readonly forceUpgradeTo?: Release;
  /** The HyperShift version the management cluster states. */
  readonly hyperShift?: HyperShiftVersion;
}

function output(shape: ClusterShape = {}): OutputSnapshot {
  const app = new HcpApp({ outdir: '/nonexistent' });
  if (shape.withCluster !== false) {
    const cluster = newCluster(
      {
        release: shape.release ?? Release.fromVersion('4.17.0'),
        ...PLATFORMS[shape.platform ?? 'agent'](),
        ...(shape.infraId ? { infraId: shape.infraId } : {}),
        ...(shape.clusterNetwork ? { networking: { clusterNetwork: [shape.clusterNetwork] } } : {}),
        ...(shape.labels ? { labels: shape.labels } : {}),
        ...(shape.restartDate ? { restartDate: shape.restartDate } : {}),
        ...(shape.pausedUntil ? { pausedUntil: shape.pausedUntil } : {}),
        ...(shape.forceUpgradeTo ? { forceUpgradeTo: shape.forceUpgradeTo } : {}),
      },
      app,
      new ManagementCluster(app, 'hub', { hyperShift: shape.hyperShift }),
    );
    const machineConfigs = shape.machineConfig === undefined ? [] : [motd(cluster, shape.machineConfig)];
    if (shape.pool !== false) cluster.addNodePool('workers', { replicas: 2, machineConfigs, ...shape.pool });
  }
  return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
}

/** A MachineConfig writing /etc/motd, in the ConfigMap `worker-mc` that a NodePool's spec.config names (docs 9.1). */
function motd(cluster: HostedCluster, text: string): MachineConfiguration {
  return new MachineConfiguration(cluster, 'motd', { name: 'worker-mc', files: [{ path: '/etc/motd', contents: text, mode: 0o644 }] });
}

function plan(before: ClusterShape, after: ClusterShape): Plan {
  const result = planChanges(output(before), output(after), { validator });
  expect(validatePlanJson(JSON.parse(JSON.stringify(result)))).toBe(true);
  return result;
}

function object(result: Plan, kind: string, name = kind === 'HostedCluster' ? 'c1' : 'c1-workers'): PlannedObject {
  const found = result.objects.filter((o) => o.kind === kind && o.name === name);
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name} in the plan, found ${found.length}: ${result.objects.map((o) => `${o.kind} ${o.name}`).join(', ')}`);
  return found[0];
}

function effects(o: PlannedObject): ChangeEffect[] {
  return o.effects.map((e) => e.effect);
}

describe('plan classifies each change by what it does to running clusters', () => {
  test('the same output twice is no change at all, and parses nothing', () => {
    const result = plan({}, {});
    expect(result.summary).toEqual({ create: 0, update: 0, delete: 0, unchanged: result.summary.unchanged, effects: {}, clustersChanged: [] });
    expect(result.summary.unchanged).toBe(output({}).files.size);
    expect(result.objects).toEqual([]);
  });

  test('a z-stream bump of the control plane is a control-plane upgrade (z-stream)', () => {
    const hc = object(plan({}, { release: Release.fromVersion('4.17.3') }), 'HostedCluster');
    expect(hc.action).toBe(PlanAction.UPDATE);
    expect(hc.cluster).toBe('hub/clusters/c1');
    expect(hc.changes).toEqual([{ path: 'spec.release.image', before: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi', after: 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi' }]);
    expect(hc.effects).toEqual([
      expect.objectContaining({
        effect: ChangeEffect.CONTROL_PLANE_UPGRADE,
        fields: ['spec.release.image'],
        details: expect.objectContaining({ from: '4.17.0', to: '4.17.3', upgrade: 'z-stream' }),
      }),
    ]);
    expect(hc.effects[0].summary).toBe('the control plane upgrades from 4.17.0 to 4.17.3 (z-stream)');
  });

  test('a minor bump of the control plane is a control-plane upgrade (minor)', () => {
    const result = plan({ pool: { release: Release.fromVersion('4.17.0') } }, { release: Release.fromVersion('4.18.2'), pool: { release: Release.fromVersion('4.17.0') } });
    const hc = object(result, 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].details).toEqual(expect.objectContaining({ from: '4.17.0', to: '4.18.2', upgrade: 'minor' }));
    // The pool kept its own release: it is not touched.
    expect(result.objects.filter((o) => o.kind === 'NodePool')).toEqual([]);
  });

  test('skipping a minor of the control plane is refused, naming both versions', () => {
    const hc = object(plan({ pool: false }, { release: Release.fromVersion('4.19.0'), pool: false }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].summary).toMatch(/4\.17\.0.*4\.19\.0/);
  });

  test('a pool bump within the allowed skew is a node-pool rollout that says how the nodes roll', () => {
    const result = plan(
      { release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.0') } },
      { release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.3') } },
    );
    const pool = object(result, 'NodePool');
    expect(pool.cluster).toBe('hub/clusters/c1');
    expect(effects(pool)).toEqual([ChangeEffect.NODE_POOL_ROLLOUT]);
    // Agent pools default to InPlace: nodes reboot one at a time.
    expect(pool.effects[0].details).toEqual({ from: '4.17.0', to: '4.17.3', pool: 'c1-workers', strategy: 'InPlace', maxSurge: 0, maxUnavailable: 1, nodes: 2, batches: 2 });
    expect(pool.effects[0].summary).toBe('nodes upgrade from 4.17.0 to 4.17.3: InPlace, nodes reboot into the new configuration 1 at a time, 2 nodes in 2 rounds');
  });

  test('a Replace pool rollout states its surge and unavailability', () => {
    const pool = object(
      plan(
        { platform: 'kubevirt', release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.0'), replicas: 5, maxSurge: 2, maxUnavailable: 1 } },
        { platform: 'kubevirt', release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.3'), replicas: 5, maxSurge: 2, maxUnavailable: 1 } },
      ),
      'NodePool',
    );
    expect(pool.effects[0].details).toEqual({ from: '4.17.0', to: '4.17.3', pool: 'c1-workers', strategy: 'Replace', maxSurge: 2, maxUnavailable: 1, nodes: 5, batches: 2 });
    expect(pool.effects[0].summary).toContain('Replace, new machines 2 at a time with at most 1 unavailable');
  });

  test('a pool bumped beyond its control plane (edited into the output) is refused', () => {
    const before = output({});
    const after = editedOutput(before, 'NodePool', (pool) => {
      pool.spec.release.image = 'quay.io/openshift-release-dev/ocp-release:4.18.0-multi';
    });
    const pool = object(planChanges(before, after, { validator }), 'NodePool');
    expect(effects(pool)).toEqual([ChangeEffect.REFUSED, ChangeEffect.NODE_POOL_ROLLOUT]);
    expect(pool.effects[0].summary).toBe(
      "HyperShift does not support it: spec.release.image: the pool's release is 4.18.0, newer than the control plane's 4.17.0; node pools must not run ahead of the control plane (doc 6.6), " +
        "and HyperShift's NodePool controller refuses a newer minor (ValidReleaseImage False: IsValidReleaseVersion): update the cluster first",
    );
  });

  test('a control plane moved past what its pool may lag behind (edited into the output) is refused, naming the pool', () => {
    const before = output({ release: Release.fromVersion('4.18.0'), pool: { release: Release.fromVersion('4.15.0') } });
    const after = editedOutput(before, 'HostedCluster', (hc) => {
      hc.spec.release.image = 'quay.io/openshift-release-dev/ocp-release:4.19.0-multi';
    });
    const hc = object(planChanges(before, after, { validator }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].details?.problems).toEqual([
      expect.stringMatching(
        /^HyperShift does not support it: spec\.release\.image: pool c1-workers's release is 4\.15\.0, 4 minors behind the control plane's 4\.19\.0; HyperShift main \(hcp-cdk's default: hub "hub" states/,
      ),
    ]);
  });

  test('a pool downgraded is refused', () => {
    const pool = object(
      plan({ release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.3') } }, { release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.1') } }),
      'NodePool',
    );
    expect(effects(pool)).toEqual([ChangeEffect.REFUSED, ChangeEffect.NODE_POOL_ROLLOUT]);
    expect(pool.effects[0].summary).toMatch(/^spec\.release\.image: refused: .*4\.17\.3.*4\.17\.1/);
  });

  test('a scaled pool is a scale, with no node replaced', () => {
    const pool = object(plan({}, { pool: { replicas: 5 } }), 'NodePool');
    expect(pool.changes).toEqual([{ path: 'spec.replicas', before: 2, after: 5 }]);
    expect(pool.effects).toEqual([{ effect: ChangeEffect.SCALE, summary: 'scales from 2 nodes to 5 nodes; no node is replaced', fields: ['spec.replicas'], details: { from: 2, to: 5 } }]);
  });

  test('a changed instance type (AWS) is a configuration rollout of the pool', () => {
    const pool = object(
      plan(
        { platform: 'aws', pool: { platform: NodePoolPlatform.aws({ instanceType: 'm6i.xlarge' }) } },
        { platform: 'aws', pool: { platform: NodePoolPlatform.aws({ instanceType: 'm6i.2xlarge' }) } },
      ),
      'NodePool',
    );
    expect(pool.changes).toEqual([{ path: 'spec.platform.aws.instanceType', before: 'm6i.xlarge', after: 'm6i.2xlarge' }]);
    expect(effects(pool)).toEqual([ChangeEffect.CONFIGURATION_ROLLOUT]);
    expect(pool.effects[0].summary).toBe('nodes roll for the new spec.platform: Replace, new machines 1 at a time with at most 0 unavailable (maxSurge 1, maxUnavailable 0), 2 nodes in 2 rounds');
  });

  test('a changed VM size (KubeVirt memory and cores) is a configuration rollout of the pool', () => {
    const pool = object(
      plan(
        { platform: 'kubevirt', pool: { platform: NodePoolPlatform.kubevirt({ cores: 2, memory: Size.gibibytes(8) }) } },
        { platform: 'kubevirt', pool: { platform: NodePoolPlatform.kubevirt({ cores: 4, memory: Size.gibibytes(16) }) } },
      ),
      'NodePool',
    );
    expect(pool.changes.map((c) => c.path)).toEqual(['spec.platform.kubevirt.compute.cores', 'spec.platform.kubevirt.compute.memory']);
    expect(effects(pool)).toEqual([ChangeEffect.CONFIGURATION_ROLLOUT]);
  });

  test('a changed MachineConfig ConfigMap rolls the pools that read it', () => {
    const result = plan({ machineConfig: 'welcome\n' }, { machineConfig: 'welcome to the lab\n' });
    const configMap = object(result, 'ConfigMap', 'worker-mc');
    expect(configMap.cluster).toBe('hub/clusters/c1');
    expect(effects(configMap)).toEqual([ChangeEffect.CONFIGURATION_ROLLOUT]);
    expect(configMap.effects[0].details).toEqual({ pools: [{ pool: 'c1-workers', strategy: 'InPlace', maxSurge: 0, maxUnavailable: 1, nodes: 2, batches: 2 }] });
    expect(result.objects.map((o) => o.kind)).toEqual(['ConfigMap']);
  });

  test('a MachineConfig dropped from a pool: the pool rolls, its ConfigMap is removed', () => {
    const result = plan({ machineConfig: 'welcome\n' }, {});
    expect(result.objects.map((o) => [o.kind, o.action, o.effects.map((e) => e.effect)])).toEqual([
      ['ConfigMap', PlanAction.DELETE, [ChangeEffect.REMOVE]],
      ['NodePool', PlanAction.UPDATE, [ChangeEffect.CONFIGURATION_ROLLOUT]],
    ]);
    expect(object(result, 'ConfigMap', 'worker-mc').effects[0].summary).toBe(
      'deleted when the GitOps engine prunes; it is protected from pruning, so the GitOps engine leaves it in place: delete it by hand if that is meant',
    );
  });

  test('a deleted pool is destructive and says how many nodes go', () => {
    const result = plan({}, { pool: false });
    const pool = object(result, 'NodePool');
    expect(pool.action).toBe(PlanAction.DELETE);
    expect(pool.effects).toEqual([
      {
        effect: ChangeEffect.DESTRUCTIVE,
        summary: 'removes the pool and its nodes; their workloads are evicted (2 nodes); it is protected from pruning, so the GitOps engine leaves it in place: delete it by hand if that is meant',
        details: { protected: true },
      },
    ]);
  });

  test('a deleted cluster: its HostedCluster, NodePool and namespace are destructive', () => {
    const result = plan({}, { withCluster: false });
    expect(result.summary.create).toBe(0);
    expect(result.summary.delete).toBe(result.objects.length);
    expect(result.objects.map((o) => [o.kind, o.effects.map((e) => e.effect)])).toEqual([
      ['Namespace', [ChangeEffect.DESTRUCTIVE]],
      ['HostedCluster', [ChangeEffect.DESTRUCTIVE]],
      ['NodePool', [ChangeEffect.DESTRUCTIVE]],
    ]);
    const hc = object(result, 'HostedCluster');
    expect(hc.effects[0]).toEqual(expect.objectContaining({ effect: ChangeEffect.DESTRUCTIVE, details: { protected: true } }));
    expect(hc.effects[0].summary).toMatch(/^destroys the hosted cluster: its control plane, its etcd data and every node of its pools/);
    expect(result.summary.clustersChanged).toEqual(['hub/clusters/c1']);
  });

  test.each([
    ['infraID', { infraId: 'c1-a' }, { infraId: 'c1-b' }, 'spec.infraID', /spec\.infraID: infraID is immutable/],
    ['networking', { clusterNetwork: '10.132.0.0/14' }, { clusterNetwork: '10.136.0.0/14' }, 'spec.networking.clusterNetwork[0].cidr', /immutable/i],
  ])("a changed %s is refused with the rule's message, and marked as a new cluster", (_, before, after, field, message) => {
    const hc = object(plan(before, after), 'HostedCluster');
    expect(hc.changes.map((c) => c.path)).toContain(field);
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.DESTRUCTIVE]);
    expect(hc.effects[0].summary).toMatch(message);
  });

  test('a changed platform type is refused', () => {
    const before = output({});
    const after = editedOutput(before, 'HostedCluster', (hc) => {
      hc.spec.platform = { type: 'None' };
    });
    const hc = object(planChanges(before, after, { validator }), 'HostedCluster');
    expect(effects(hc)[0]).toBe(ChangeEffect.REFUSED);
    expect(hc.effects[0].details?.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^the API server refuses it: spec\.platform\.type: .*immutable/i)]));
  });

  test('a changed upgradeType is refused: a new pool is needed', () => {
    const pool = object(plan({ pool: { upgradeType: UpgradeType.IN_PLACE } }, { pool: { upgradeType: UpgradeType.REPLACE } }), 'NodePool');
    expect(effects(pool)[0]).toBe(ChangeEffect.REFUSED);
    expect(pool.effects[0].summary).toBe(
      'spec.management.upgradeType: refused: upgradeType is immutable (InPlace before); create a new pool with upgradeType Replace, move the workloads, then delete this one (doc 6.5)',
    );
  });

  test('a refused upgradeType change is only refused: the API server rejects the pool, so nothing of it rolls or updates', () => {
    const result = plan(
      { platform: 'kubevirt', pool: { upgradeType: UpgradeType.IN_PLACE, release: Release.fromVersion('4.17.0') } },
      { platform: 'kubevirt', release: Release.fromVersion('4.17.3'), pool: { upgradeType: UpgradeType.REPLACE, maxSurge: 2, maxUnavailable: 0, release: Release.fromVersion('4.17.3') } },
    );
    const pool = object(result, 'NodePool');
    expect(pool.changes.map((c) => c.path)).toEqual(expect.arrayContaining(['spec.management.upgradeType', 'spec.management.replace.rollingUpdate.maxSurge', 'spec.release.image']));
    expect(pool.effects).toEqual([
      {
        effect: ChangeEffect.REFUSED,
        summary: 'spec.management.upgradeType: refused: upgradeType is immutable (InPlace before); create a new pool with upgradeType Replace, move the workloads, then delete this one (doc 6.5)',
        details: {
          problems: ['spec.management.upgradeType: refused: upgradeType is immutable (InPlace before); create a new pool with upgradeType Replace, move the workloads, then delete this one (doc 6.5)'],
        },
      },
    ]);
    // The control plane still upgrades; the pool does not, so there is no note on their order.
    expect(result.summary.effects).toEqual({ [ChangeEffect.REFUSED]: 1, [ChangeEffect.CONTROL_PLANE_UPGRADE]: 1 });
    expect(result.clusterNotes).toEqual([]);
  });

  test('a HostedCluster the API server rejects does not also upgrade: a new infraID with a new release is refused and a new cluster, nothing else', () => {
    const hc = object(plan({ infraId: 'c1-a', pool: false }, { infraId: 'c1-b', release: Release.fromVersion('4.17.3'), pool: false }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.DESTRUCTIVE]);
  });

  test('a label-only change is metadata only', () => {
    const hc = object(plan({}, { labels: { tier: 'gold' } }), 'HostedCluster');
    expect(hc.changes).toEqual([{ path: 'metadata.labels.tier', after: 'gold' }]);
    expect(hc.effects).toEqual([{ effect: ChangeEffect.METADATA_ONLY, summary: 'labels or annotations only: nothing rolls', fields: ['metadata.labels.tier'] }]);
  });

  test('a HyperShift annotation is not "metadata only": HyperShift reads it', () => {
    const before = output({});
    const after = editedOutput(before, 'HostedCluster', (hc) => {
      hc.metadata.annotations = { ...hc.metadata.annotations, 'hypershift.openshift.io/disable-monitoring-services': 'true' };
    });
    expect(object(planChanges(before, after, { validator }), 'HostedCluster').effects).toEqual([
      {
        effect: ChangeEffect.IN_PLACE_UPDATE,
        summary: 'HyperShift reads these annotations: what they switch changes in place',
        fields: ['metadata.annotations["hypershift.openshift.io/disable-monitoring-services"]'],
      },
    ]);
  });

  test('a new restart date restarts the control plane, and says so', () => {
    const hc = object(plan({ restartDate: '2026-11-01T00:00:00Z' }, { restartDate: '2026-11-25T00:00:00Z' }), 'HostedCluster');
    expect(hc.effects).toEqual([
      {
        effect: ChangeEffect.IN_PLACE_UPDATE,
        summary: 'every control-plane component restarts (restart-date annotation changed)',
        fields: ['metadata.annotations["hypershift.openshift.io/restart-date"]'],
      },
    ]);
  });

  test('pausing a cluster says until when nothing reconciles', () => {
    const hc = object(plan({}, { pausedUntil: PausedUntil.until('2026-12-01T06:00:00Z') }), 'HostedCluster');
    expect(hc.effects).toEqual([{ effect: ChangeEffect.IN_PLACE_UPDATE, summary: 'the control plane stops reconciling until 2026-12-01T06:00:00Z', fields: ['spec.pausedUntil'] }]);
  });

  test('a new cluster is created, with its release and pool size', () => {
    const result = plan({ withCluster: false }, {});
    expect(object(result, 'HostedCluster').effects).toEqual([{ effect: ChangeEffect.CREATE, summary: 'creates the hosted cluster at 4.17.0' }]);
    expect(object(result, 'NodePool').effects).toEqual([{ effect: ChangeEffect.CREATE, summary: 'adds a pool of 2 nodes at 4.17.0' }]);
  });

  test('a control plane and its pool upgraded in one commit get a note on their order (plain kustomize: nothing waits)', () => {
    const result = plan({}, { release: Release.fromVersion('4.17.3'), pool: { release: Release.fromVersion('4.17.3') } });
    expect(result.clusterNotes).toEqual([{ cluster: 'hub/clusters/c1', delivery: 'kustomize', poolsWait: false, note: expect.stringContaining('and nothing waits') }]);
    expect(result.summary.effects).toEqual({ [ChangeEffect.CONTROL_PLANE_UPGRADE]: 1, [ChangeEffect.NODE_POOL_ROLLOUT]: 1 });
  });

  test('the cluster props used by these cases are valid on their own', () => {
    expect(() => output({ platform: 'aws' })).not.toThrow();
    expect(clusterProps().release.version).toEqual({ major: 4, minor: 17, patch: 0 });
  });
});

describe('plan says in which order each delivery applies an upgrade of a control plane and its pools', () => {
  /** Cluster c1 at `version` with pool workers, under `delivery`. */
  function delivered(delivery: IDelivery, version: string): OutputSnapshot {
    const app = new HcpApp({ outdir: '/nonexistent', delivery });
    newCluster({ release: Release.fromVersion(version) }, app).addNodePool('workers', { replicas: 2 });
    return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
  }
  function notesUnder(delivery: () => IDelivery): Plan['clusterNotes'] {
    const result = planChanges(delivered(delivery(), '4.17.0'), delivered(delivery(), '4.17.3'), { validator });
    expect(validatePlanJson(JSON.parse(JSON.stringify(result)))).toBe(true);
    return result.clusterNotes;
  }
  const REPO = 'https://git.example.com/estate.git';
  const GUIDE = ' (see docs/plan-and-upgrades.md#upgrades-in-one-commit)';
  const BY_HAND =
    'apply the HostedCluster first (oc apply -f hub/c1/50-hostedcluster-clusters_c1.yaml), wait until it runs 4.17.3 ' +
    "(oc wait hostedcluster/c1 -n clusters --timeout=60m --for=jsonpath='{.status.version.history[0].version}'=4.17.3, " +
    "then oc wait hostedcluster/c1 -n clusters --timeout=60m --for=jsonpath='{.status.version.history[0].state}'=Completed), then the pools";

  test("Flux: the pools wait, as the node-pools Kustomization depends on the cluster's", () => {
    expect(notesUnder(() => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) }))).toEqual([
      {
        cluster: 'hub/clusters/c1',
        delivery: 'flux',
        poolsWait: true,
        note:
          'the control plane and pool c1-workers upgrade in one commit: the control plane goes first, to 4.17.3, and Flux applies the pools only once it reports that version: ' +
          "the node-pools Kustomization depends on the cluster's, whose health check waits until the HostedCluster runs the release its spec names " +
          '(an upgrade that outlasts the timeout fails that Kustomization, which is retried; the pools wait on)' +
          GUIDE,
      },
    ]);
  });

  test('Argo CD with its health checks: the NodePool wave waits for the HostedCluster wave to be Healthy', () => {
    expect(notesUnder(() => new ArgoCdDelivery({ repoUrl: REPO, healthChecksInstalled: true }))).toEqual([
      {
        cluster: 'hub/clusters/c1',
        delivery: 'argocd',
        poolsWait: true,
        note:
          'the control plane and pool c1-workers upgrade in one commit: the control plane goes first, to 4.17.3, and Argo CD syncs the pools only once it reports that version: ' +
          'the NodePool wave (60) waits until the HostedCluster wave (50) is Healthy, which with ARGO_CD_HEALTH_CHECKS is once it runs the release its spec names' +
          GUIDE,
      },
    ]);
  });

  test('Argo CD without them: nothing waits, the pools roll at once', () => {
    expect(notesUnder(() => new ArgoCdDelivery({ repoUrl: REPO }))).toEqual([
      {
        cluster: 'hub/clusters/c1',
        delivery: 'argocd-without-health-checks',
        poolsWait: false,
        note:
          'the control plane and pool c1-workers upgrade in one commit, and nothing waits: without ARGO_CD_HEALTH_CHECKS Argo CD counts the HostedCluster (wave 50) Healthy ' +
          'as soon as it exists, so the pools (wave 60) roll at once, while the control plane upgrades to 4.17.3; add the health checks to Argo CD and set healthChecksInstalled, ' +
          'or upgrade the control plane and the pools in two commits' +
          GUIDE,
      },
    ]);
  });

  test('plain kustomize: nothing waits, and the note gives the oc wait step between the two applies', () => {
    expect(notesUnder(() => new KustomizeDelivery())).toEqual([
      {
        cluster: 'hub/clusters/c1',
        delivery: 'kustomize',
        poolsWait: false,
        note:
          'the control plane and pool c1-workers upgrade in one commit, and nothing waits: oc apply -k hub/c1 applies the control plane and the pools at once, ' +
          `so the pools roll while the control plane upgrades to 4.17.3; ${BY_HAND} (oc apply -k hub/c1); or upgrade them in two commits` +
          GUIDE,
      },
    ]);
  });

  test('ACM: the hub folders go by whatever engine applies them, and the note says so', () => {
    expect(notesUnder(() => new AcmDelivery())).toEqual([
      {
        cluster: 'hub/clusters/c1',
        delivery: 'acm',
        note:
          "the control plane and pool c1-workers upgrade in one commit; the hub folders are applied by whatever engine is pointed at them, and the order is that engine's: " +
          'Argo CD with ARGO_CD_HEALTH_CHECKS syncs the pools (wave 60) only once the control plane (wave 50) reports 4.17.3; oc apply -k, or Argo CD without the health checks, ' +
          `applies both at once and the pools roll while the control plane upgrades: then ${BY_HAND}, or upgrade them in two commits` +
          GUIDE,
      },
    ]);
  });

  test('an output that records no delivery (an older hcp-cdk) says what each engine would do', () => {
    const unrecorded = (snapshot: OutputSnapshot) => editedOutput(snapshot, 'HostedCluster', (hc) => delete hc.metadata.annotations['hcp-cdk.io/delivery']);
    const result = planChanges(unrecorded(delivered(new KustomizeDelivery(), '4.17.0')), unrecorded(delivered(new KustomizeDelivery(), '4.17.3')), { validator });
    expect(result.clusterNotes).toEqual([
      {
        cluster: 'hub/clusters/c1',
        note:
          'the control plane and pool c1-workers upgrade in one commit; the output does not record how it is delivered (no hcp-cdk.io/delivery annotation: an older hcp-cdk wrote it), ' +
          "so the order is the engine's: Flux, or Argo CD with ARGO_CD_HEALTH_CHECKS, applies the pools only once the control plane reports 4.17.3; " +
          'oc apply -k, or Argo CD without the health checks, applies both at once' +
          GUIDE,
      },
    ]);
  });

  test("the JSON Schema takes a note's delivery and poolsWait, and only the recorded modes", () => {
    const result = planChanges(delivered(new KustomizeDelivery(), '4.17.0'), delivered(new KustomizeDelivery(), '4.17.3'), { validator });
    const withDelivery = (delivery: unknown) => ({ ...JSON.parse(JSON.stringify(result)), clusterNotes: [{ ...result.clusterNotes[0], delivery }] });
    expect(validatePlanJson(withDelivery('flux'))).toBe(true);
    expect(validatePlanJson(withDelivery('helm'))).toBe(false);
    expect(validatePlanJson({ ...withDelivery('flux'), clusterNotes: [{ cluster: 'hub/clusters/c1', note: 'n', poolsWait: 'yes' }] })).toBe(false);
  });

  test('a new delivery mode alone is a metadata-only change of the HostedCluster', () => {
    const result = planChanges(delivered(new ArgoCdDelivery({ repoUrl: REPO }), '4.17.0'), delivered(new ArgoCdDelivery({ repoUrl: REPO, healthChecksInstalled: true }), '4.17.0'), { validator });
    expect(result.objects.map((o) => [o.kind, o.effects])).toEqual([
      [
        'HostedCluster',
        [
          {
            effect: ChangeEffect.METADATA_ONLY,
            summary: 'labels or annotations only: nothing rolls',
            fields: ['metadata.annotations["hcp-cdk.io/delivery"]'],
          },
        ],
      ],
    ]);
  });
});

describe("a removed cluster's guest objects are grouped under it, with what its engine does to them", () => {
  const REPO = 'https://git.example.com/estate.git';
  /** Hub `hub` with cluster c2 and its MetalLB guest and, with `c1`, cluster c1 with the same (without `guest: false`). */
  function estate(delivery: IDelivery, c1: { guest?: boolean } | false, prune?: boolean): OutputSnapshot {
    const app = new HcpApp({ outdir: '/nonexistent', delivery });
    const hub = new ManagementCluster(app, 'hub');
    const c2 = new HostedCluster(hub, 'c2', clusterProps({ infraId: 'c2' }));
    new MetalLBIngress(c2.guest, 'ingress', { cluster: c2, addresses: ['192.0.2.101'] });
    if (c1) {
      const cluster = new HostedCluster(hub, 'c1', clusterProps());
      cluster.addNodePool('workers', { replicas: 2 });
      if (prune) allowPruning(cluster, { reason: 'a lab cluster, recreated at will' });
      if (c1.guest !== false) new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.0.2.100'] });
    }
    return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
  }
  function removal(delivery: () => IDelivery, prune?: boolean): Plan {
    const result = planChanges(estate(delivery(), {}, prune), estate(delivery(), false, prune), { validator });
    expect(validatePlanJson(JSON.parse(JSON.stringify(result)))).toBe(true);
    return result;
  }
  const KEEPS_RUNNING = 'stays in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing it';
  const GUEST_KINDS = ['Namespace', 'OperatorGroup', 'Subscription', 'MetalLB', 'IPAddressPool', 'L2Advertisement', 'Service'];
  const guestObjects = (result: Plan) => result.objects.filter((o) => o.file.startsWith('c1-guest/'));

  test('Flux: the guest Kustomizations go with deletionPolicy Orphan, so the guest objects stay; all under cluster hub/clusters/c1', () => {
    const result = removal(() => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) }));
    expect(guestObjects(result).map((o) => o.kind)).toEqual(GUEST_KINDS);
    for (const o of guestObjects(result)) {
      expect([o.cluster, o.action, o.effects]).toEqual([
        'hub/clusters/c1',
        PlanAction.DELETE,
        [
          {
            effect: ChangeEffect.REMOVE,
            summary: `${KEEPS_RUNNING}: the guest Kustomization goes with its folder, and its deletionPolicy is Orphan, so Flux deletes nothing it applied`,
            // A guest's Namespace carries the prune protection (docs/delivery.md#prune-protection-kind-by-kind).
            details: { protected: o.kind === 'Namespace', leftInCluster: true },
          },
        ],
      ]);
    }
    const engine = result.objects.filter((o) => o.kind === 'Kustomization' && o.name.startsWith('c1-guest'));
    expect(engine.map((o) => [o.name, o.cluster, o.effects.map((e) => e.summary)])).toEqual(
      ['c1-guest-operators', 'c1-guest-resources'].map((name) => [
        name,
        'hub/clusters/c1',
        [
          'the guest Kustomization goes; its deletionPolicy is Orphan, so deleting it deletes nothing it applied: the objects of c1-guest stay in the hosted cluster, ' +
            'which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing them',
        ],
      ]),
    );
    const text = planText(result);
    expect(text.slice(text.indexOf('cluster hub/clusters/c1'))).toMatch(/^cluster hub\/clusters\/c1\n {2}- Namespace metallb {2}c1-guest\/operators\/00-namespace-metallb\.yaml\n/);
    expect(text).not.toMatch(/objects of no hosted cluster[\s\S]*c1-guest\//);
  });

  test('Argo CD: the guest Application goes (and would have no destination), deleting nothing it applied', () => {
    const result = removal(() => new ArgoCdDelivery({ repoUrl: REPO, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }));
    expect(guestObjects(result).map((o) => [o.kind, o.cluster, o.effects.map((e) => e.summary)])).toEqual(
      GUEST_KINDS.map((kind) => [
        kind,
        'hub/clusters/c1',
        [
          `${KEEPS_RUNNING}: the guest Application goes with its folder (left in place, it has nothing to sync and no destination), and it has no resources finalizer, so Argo CD deletes nothing it applied`,
        ],
      ]),
    );
    expect(object(result, 'Application', 'c1-guest')).toEqual(
      expect.objectContaining({
        cluster: 'hub/clusters/c1',
        effects: [
          expect.objectContaining({
            summary:
              'the guest Application goes (left in place, it would have no destination once the cluster is unregistered); it has no resources finalizer, so deleting it deletes nothing it applied: ' +
              'the objects of c1-guest stay in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing them',
          }),
        ],
      }),
    );
  });

  test('ACM: the guest Policies, Placement and binding go with pruneObjectBehavior None, under the cluster', () => {
    const result = removal(() => new AcmDelivery());
    expect(result.objects.filter((o) => o.file.startsWith('hub/policies/')).map((o) => [o.kind, o.name, o.cluster, o.effects.map((e) => e.summary)])).toEqual([
      [
        'Placement',
        'c1-guest',
        'hub/clusters/c1',
        [
          'the guest policies are no longer placed on the hosted cluster; with pruneObjectBehavior None, ACM deletes nothing they enforced: ' +
            'the objects of c1-guest stay in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing them',
        ],
      ],
      [
        'PlacementBinding',
        'c1-guest',
        'hub/clusters/c1',
        [
          'the guest policies are no longer placed on the hosted cluster; with pruneObjectBehavior None, ACM deletes nothing they enforced: ' +
            'the objects of c1-guest stay in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing them',
        ],
      ],
      ...['operators', 'resources'].map((part) => [
        'Policy',
        `c1-guest-${part}`,
        'hub/clusters/c1',
        [
          'the guest policy goes; with pruneObjectBehavior None, ACM deletes nothing it enforced: ' +
            'the objects of c1-guest stay in the hosted cluster, which keeps running (its HostedCluster is protected from pruning) with nothing in Git managing them',
        ],
      ]),
    ]);
  });

  test('plain kustomize: oc apply -k deletes nothing', () => {
    const result = removal(() => new KustomizeDelivery());
    expect(guestObjects(result).map((o) => [o.kind, o.cluster, o.effects.map((e) => e.summary)])).toEqual(
      GUEST_KINDS.map((kind) => [kind, 'hub/clusters/c1', [`${KEEPS_RUNNING}: oc apply -k of c1-guest deletes nothing`]]),
    );
  });

  test('a cluster whose pruning is allowed: the guest objects go with the cluster once the engine prunes its HostedCluster', () => {
    const result = removal(() => new KustomizeDelivery(), true);
    expect(guestObjects(result)[0].effects[0].summary).toBe(
      'stays in the hosted cluster until the engine prunes its HostedCluster, which destroys the cluster and it with it: oc apply -k of c1-guest deletes nothing',
    );
  });

  test('a guest object removed from a cluster that stays: pruned by the guest Kustomization when its folder stays; under plain kustomize it stays', () => {
    const withoutService = (snapshot: OutputSnapshot) =>
      OutputSnapshot.fromFiles(
        'edited',
        new Map([...snapshot.files.values()].filter((f) => !(f.path.startsWith('c1-guest/') && f.path.endsWith('-service-openshift-ingress_metallb-ingress.yaml'))).map((f) => [f.path, f.bytes])),
      );
    const flux = () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) });
    const pruned = object(planChanges(estate(flux(), {}), withoutService(estate(flux(), {})), { validator }), 'Service', 'metallb-ingress');
    expect([pruned.cluster, pruned.effects]).toEqual(['hub/clusters/c1', [{ effect: ChangeEffect.REMOVE, summary: 'deleted when the GitOps engine prunes', details: { protected: false } }]]);
    const kept = object(planChanges(estate(new KustomizeDelivery(), {}), withoutService(estate(new KustomizeDelivery(), {})), { validator }), 'Service', 'metallb-ingress');
    expect(kept.effects).toEqual([
      {
        effect: ChangeEffect.REMOVE,
        summary: 'stays in the hosted cluster: oc apply -k of c1-guest deletes nothing; delete it there by hand if that is meant',
        details: { protected: false, leftInCluster: true },
      },
    ]);
  });

  test("a guest folder's changed objects belong to their cluster too", () => {
    const moved = (address: string) => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      const cluster = newCluster({}, app);
      new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: [address] });
      return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
    };
    const result = planChanges(moved('192.0.2.100'), moved('192.0.2.101'), { validator });
    expect(result.objects.map((o) => [o.kind, o.cluster])).toEqual([['IPAddressPool', 'hub/clusters/c1']]);
    expect(result.summary.clustersChanged).toEqual(['hub/clusters/c1']);
  });
});

describe("plan applies the version rules of the hub's HyperShift, as the output records it", () => {
  const MCE_2_10 = HyperShiftVersion.ofMultiClusterEngine('2.10');
  /** The output of a 4.18.0 cluster with a 4.17.0 pool on a hub running `hyperShift`, and the same with the control plane edited to `release`. */
  const edited = (hyperShift: HyperShiftVersion | undefined, release: string) => {
    const before = output({ release: Release.fromVersion('4.18.0'), pool: { release: Release.fromVersion('4.17.0') }, hyperShift });
    return { before, after: editedOutput(before, 'HostedCluster', (hc) => (hc.spec.release.image = Release.fromVersion(release).image)) };
  };

  test('the output records the version on each HostedCluster (hcp-cdk.io/hypershift-version), as it records its delivery', () => {
    const { before } = edited(MCE_2_10, '4.18.0');
    const file = [...before.files.values()].find((f) => f.key.includes('|hostedcluster|'))!;
    expect(before.object(file).metadata.annotations['hcp-cdk.io/hypershift-version']).toBe('mce-2.10');
  });

  test('an older HyperShift (MCE 2.10): a 4.19 control plane leaves a 4.17 pool two minors behind an odd minor, refused with the rule and the hub; the default accepts it', () => {
    const { before, after } = edited(MCE_2_10, '4.19.0');
    const hc = object(planChanges(before, after, { validator }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].details?.problems).toEqual([
      "HyperShift does not support it: spec.release.image: pool c1-workers's release is 4.17.0, 2 minors behind the control plane's 4.19.0; " +
        'HyperShift 4.20 (MCE 2.10) on hub "hub" allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.18 or later here: ' +
        'its CLI refuses to create such a pool (validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20)',
    ]);
    const byDefault = edited(undefined, '4.19.0');
    expect(effects(object(planChanges(byDefault.before, byDefault.after, { validator }), 'HostedCluster'))).toEqual([ChangeEffect.CONTROL_PLANE_UPGRADE]);
  });

  test('a control plane newer than the recorded HyperShift supports is refused', () => {
    const { before, after } = edited(MCE_2_10, '4.19.0');
    const newer = editedOutput(after, 'HostedCluster', (hc) => (hc.spec.release.image = Release.fromVersion('4.21.0').image));
    const hc = object(planChanges(before, newer, { validator }), 'HostedCluster');
    expect(hc.effects[0].details?.problems).toContain(
      'HyperShift refuses it: spec.release.image: the release is 4.21.0, newer than HyperShift 4.20 (MCE 2.10) on hub "hub" supports (4.14 to 4.20): ' +
        "the HostedCluster controller sets ValidReleaseImage False and reconciles the cluster no further (IsValidReleaseVersion, support/supportedversion/version.go); upgrade the hub's HyperShift operator (a new MCE minor) first",
    );
  });

  test('withHubHyperShift: the rules of another version (what plan --live reads) replace the recorded ones, refusals and counts with them', () => {
    const { before, after } = edited(undefined, '4.19.0');
    const planned = planChanges(before, after, { validator });
    expect(planned.summary.effects[ChangeEffect.REFUSED]).toBeUndefined();
    const older = withHubHyperShift(planned, before, after, 'hub', HyperShiftVersion.ofOpenShift('4.19'));
    expect(older.summary.effects[ChangeEffect.REFUSED]).toBe(1);
    expect(object(older, 'HostedCluster').effects[0].summary).toMatch(
      /^HyperShift does not support it: spec\.release\.image: pool c1-workers's release is 4\.17\.0, 2 minors behind .* HyperShift 4\.19 on hub "hub" allows/,
    );
    expect(validatePlanJson(JSON.parse(JSON.stringify(older)))).toBe(true);
    // And back: the recorded refusal goes when the hub runs a newer HyperShift.
    const recorded = edited(MCE_2_10, '4.19.0');
    const refused = planChanges(recorded.before, recorded.after, { validator });
    const newer = withHubHyperShift(refused, recorded.before, recorded.after, 'hub', HyperShiftVersion.ofOpenShift('4.22'));
    expect(effects(object(newer, 'HostedCluster'))).toEqual([ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(newer.summary.effects[ChangeEffect.REFUSED]).toBeUndefined();
    // The same rules: the same plan.
    expect(withHubHyperShift(refused, recorded.before, recorded.after, 'hub', HyperShiftVersion.ofOpenShift('4.20'))).toBe(refused);
  });
});

describe('plan reads the version of a release by digest from the release-version annotation', () => {
  const IMAGE = (hex: string) => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
  const d = (hex: string, version?: string) => Release.fromImage(IMAGE(hex), version === undefined ? {} : { version });
  /** `snapshot` with `kind`'s release set to a digest and its annotation, as a hand edit (or a synth that skipped its checks) would. */
  const withRelease = (snapshot: OutputSnapshot, kind: string, hex: string, version: string) =>
    editedOutput(snapshot, kind, (object) => {
      object.spec.release.image = IMAGE(hex);
      object.metadata.annotations['hcp-cdk.io/release-version'] = version;
    });

  test('a digest 4.14.10 to 4.16.0 (a skipped minor) is refused, naming both versions, as by tag', () => {
    const result = plan({ release: d('a', '4.14.10') }, { release: d('b', '4.16.0') });
    const hc = object(result, 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].summary).toBe(
      'spec.release.image: refused: updates from 4.14.10 to 4.16.0, which skips 4.15; a control plane accepts a later 4.14.z or 4.15.z, ' +
        'one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides (node pools may then go from 4.14 to 4.16 directly)',
    );
    expect(hc.effects[1].summary).toBe('the control plane upgrades from 4.14.10 to 4.16.0 (eus-to-eus)');
    expect(hc.effects[1].details).toEqual({ from: '4.14.10', to: '4.16.0', fromImage: IMAGE('a'), toImage: IMAGE('b'), upgrade: 'eus-to-eus' });
    expect(hc.changes).toEqual([
      { path: 'metadata.annotations["hcp-cdk.io/release-version"]', before: '4.14.10', after: '4.16.0' },
      { path: 'spec.release.image', before: IMAGE('a'), after: IMAGE('b') },
    ]);
    expect(hc.warnings).toBeUndefined();
    const byTag = object(plan({ release: Release.fromVersion('4.14.10') }, { release: Release.fromVersion('4.16.0') }), 'HostedCluster');
    expect(byTag.effects[0].summary).toBe(hc.effects[0].summary);
    // The pool follows the cluster: 4.14 to 4.16 is EUS-to-EUS for nodes, and it says so with the versions.
    expect(object(result, 'NodePool').effects.map((e) => [e.effect, e.summary])).toEqual([
      [ChangeEffect.NODE_POOL_ROLLOUT, 'nodes upgrade from 4.14.10 to 4.16.0: InPlace, nodes reboot into the new configuration 1 at a time, 2 nodes in 2 rounds'],
    ]);
  });

  test('a control plane by digest moved past what its pool by digest may lag behind is refused, naming the pool', () => {
    const before = output({ release: d('a', '4.17.0'), pool: { release: d('c', '4.14.10') } });
    const hc = object(planChanges(before, withRelease(before, 'HostedCluster', 'b', '4.18.0'), { validator }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.REFUSED, ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].details?.problems).toEqual([
      "HyperShift does not support it: spec.release.image: pool c1-workers's release is 4.14.10, 4 minors behind the control plane's 4.18.0; " +
        'HyperShift main (hcp-cdk\'s default: hub "hub" states no HyperShift version) allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.15 or later here: ' +
        'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
    ]);
  });

  test('a pool by digest newer than its control plane by digest is refused', () => {
    const before = output({ release: d('a', '4.17.0') });
    const pool = object(planChanges(before, withRelease(before, 'NodePool', 'c', '4.17.3'), { validator }), 'NodePool');
    expect(effects(pool)).toEqual([ChangeEffect.REFUSED, ChangeEffect.NODE_POOL_ROLLOUT]);
    expect(pool.effects[0].summary).toBe(
      "HyperShift does not support it: spec.release.image: the pool's release is 4.17.3, newer than the control plane's 4.17.0; " +
        'node pools must not run ahead of the control plane (doc 6.6), and HyperShift reports SupportedVersionSkew False (ValidateVersionSkew, support/supportedversion/version.go): update the cluster first',
    );
  });

  test('a refused path forced by digest: the force-upgrade-to annotation names the digest, so nothing is refused and the upgrade says it is forced', () => {
    const target = d('b', '4.16.0');
    const hc = object(plan({ release: d('a', '4.14.10'), pool: false }, { release: target, pool: false, forceUpgradeTo: target }), 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.CONTROL_PLANE_UPGRADE, ChangeEffect.IN_PLACE_UPDATE]);
    expect(hc.effects[0].summary).toBe('the control plane upgrades from 4.14.10 to 4.16.0 (eus-to-eus), forced by the force-upgrade-to annotation');
    expect(hc.effects[1]).toEqual({
      effect: ChangeEffect.IN_PLACE_UPDATE,
      summary: 'HyperShift reads these annotations: what they switch changes in place',
      fields: ['metadata.annotations["hypershift.openshift.io/force-upgrade-to"]'],
    });
  });

  test('a release by digest without a version is still a release change: the control plane rolls to a release of unknown version, and the pool with it', () => {
    const result = plan({ release: d('a') }, { release: d('b') });
    const hc = object(result, 'HostedCluster');
    expect(effects(hc)).toEqual([ChangeEffect.CONTROL_PLANE_UPGRADE]);
    expect(hc.effects[0].summary).toBe(
      `the control plane rolls to a release of unknown version (${IMAGE('b')}), from ${IMAGE('a')}: the update path is not checked; pool c1-workers rolls to it in this commit too`,
    );
    expect(hc.effects[0].details).toEqual({ from: IMAGE('a'), to: IMAGE('b'), fromImage: IMAGE('a'), toImage: IMAGE('b'), upgrade: 'unknown', poolsFollowing: ['c1-workers'], poolsStaying: [] });
    const pool = object(result, 'NodePool');
    expect(pool.effects.map((e) => [e.effect, e.summary])).toEqual([
      [
        ChangeEffect.NODE_POOL_ROLLOUT,
        `nodes roll to a release of unknown version (${IMAGE('b')}), from ${IMAGE('a')}: InPlace, nodes reboot into the new configuration 1 at a time, 2 nodes in 2 rounds`,
      ],
    ]);
    expect(result.summary.effects).toEqual({ [ChangeEffect.CONTROL_PLANE_UPGRADE]: 1, [ChangeEffect.NODE_POOL_ROLLOUT]: 1 });
    const text = planText(result);
    expect(text).toContain(`effects: 1 control-plane-upgrade, 1 node-pool-rollout`);
    expect(text).toContain(`control-plane-upgrade: the control plane rolls to a release of unknown version (${IMAGE('b')}), from ${IMAGE('a')}`);
    expect(text).toContain(`node-pool-rollout: nodes roll to a release of unknown version (${IMAGE('b')})`);
    expect(planMarkdown(result)).toContain(`the control plane rolls to a release of unknown version (${IMAGE('b')})`);
    const json = JSON.parse(JSON.stringify(result));
    expect(json.objects.find((o: any) => o.kind === 'HostedCluster').effects[0]).toMatchObject({ effect: 'control-plane-upgrade', details: { upgrade: 'unknown', toImage: IMAGE('b') } });
  });

  test('a control plane by digest of unknown version with a pool that stays: the pool stays on its release, its skew not checked', () => {
    const hc = object(plan({ release: d('a', '4.17.0'), pool: { release: d('a', '4.17.0') } }, { release: d('b'), pool: { release: d('a', '4.17.0') } }), 'HostedCluster');
    expect(hc.effects.find((e) => e.effect === ChangeEffect.CONTROL_PLANE_UPGRADE)?.summary).toBe(
      `the control plane rolls to a release of unknown version (${IMAGE('b')}), from 4.17.0: the update path is not checked; c1-workers stays on 4.17.0, its version skew against the new release not checked`,
    );
  });

  test('another image of the same version is a release change too: the control plane rolls to that payload', () => {
    const hc = object(plan({ release: d('a', '4.17.0'), pool: false }, { release: d('b', '4.17.0'), pool: false }), 'HostedCluster');
    expect(hc.effects[0].summary).toBe('the control plane upgrades from 4.17.0 to 4.17.0 (the same version, another image: it rolls to that payload)');
    expect(hc.effects[0].details).toMatchObject({ upgrade: 'none', fromImage: IMAGE('a'), toImage: IMAGE('b') });
  });

  test('a release by digest without a version: warnings naming the object and the image, and what is not checked', () => {
    const result = plan({ release: d('a') }, { release: d('b') });
    const hc = object(result, 'HostedCluster');
    expect(hc.warnings).toEqual([
      `spec.release.image: the release ("${IMAGE('b')}") tells no OpenShift version (no version tag, no hcp-cdk.io/release-version annotation), ` +
        "so plan cannot check its update path or its node pools' version skew; give the version with the digest: Release.fromImage(image, { version })",
    ]);
    expect(object(result, 'NodePool').warnings).toEqual([
      `spec.release.image: the release ("${IMAGE('b')}") tells no OpenShift version (no version tag, no hcp-cdk.io/release-version annotation), ` +
        'so plan cannot check its update path or its version skew against the control plane; give the version with the digest: Release.fromImage(image, { version })',
    ]);
    expect(planText(result)).toContain(`\nwarning: hub/clusters/c1: HostedCluster clusters/c1: spec.release.image: the release ("${IMAGE('b')}") tells no OpenShift version`);
    expect(planMarkdown(result)).toContain(`> **warning**: hub/clusters/c1: NodePool clusters/c1-workers: spec.release.image: the release ("${IMAGE('b')}")`);
  });

  test('a previous release without a version: the update path is not checked, and the warning says how to fix it', () => {
    const hc = object(plan({ release: d('a') }, { release: d('b', '4.16.0') }), 'HostedCluster');
    expect(hc.warnings).toEqual([
      `spec.release.image: the update path is not checked: the previous release ("${IMAGE('a')}") tells no OpenShift version ` +
        '(no version tag, no hcp-cdk.io/release-version annotation); synthesize the previous release once with its version (Release.fromImage(image, { version })) before changing it',
    ]);
  });

  test('a new pool by digest without a version under a known control plane: its skew is not checked', () => {
    const pool = object(plan({ release: d('a', '4.17.0'), pool: false }, { release: d('a', '4.17.0'), pool: { release: d('c') } }), 'NodePool');
    expect(pool.warnings).toEqual([
      `spec.release.image: the release ("${IMAGE('c')}") tells no OpenShift version (no version tag, no hcp-cdk.io/release-version annotation), ` +
        'so plan cannot check its version skew against the control plane; give the version with the digest: Release.fromImage(image, { version })',
    ]);
  });

  test("a control plane with a version under which a pool has none: the pool's skew is not checked, and the control plane's change says so", () => {
    const hc = object(plan({ release: d('a', '4.17.0'), pool: { release: d('c') } }, { release: d('b', '4.17.3'), pool: { release: d('c') } }), 'HostedCluster');
    expect(hc.warnings).toEqual([
      `spec.release.image: the version skew of pool c1-workers ("${IMAGE('c')}") is not checked: its release tells no OpenShift version ` +
        '(no version tag, no hcp-cdk.io/release-version annotation); give the version with the digest: Release.fromImage(image, { version })',
    ]);
  });

  test('a new pool with a version under a control plane with none: its skew is not checked', () => {
    const pool = object(plan({ release: d('a'), pool: false }, { release: d('a'), pool: { release: d('c', '4.17.0') } }), 'NodePool');
    expect(pool.warnings).toEqual([
      `spec.release.image: its version skew against the control plane is not checked: the HostedCluster's release ("${IMAGE('a')}") tells no OpenShift version ` +
        '(no version tag, no hcp-cdk.io/release-version annotation); give the version with the digest: Release.fromImage(image, { version })',
    ]);
  });

  test('releases with their versions give no warning', () => {
    const result = plan({ release: d('a', '4.17.0') }, { release: d('b', '4.17.3') });
    expect(result.objects.map((o) => o.warnings)).toEqual([undefined, undefined]);
  });
});

const PEM_A = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';
const PEM_B = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyz\n-----END CERTIFICATE-----\n';

/** `snapshot` with every object of `kind` edited, as a hand edit of the GitOps repository would. */
function editedOutput(snapshot: OutputSnapshot, kind: string, edit: (object: any) => void): OutputSnapshot {
  const files = new Map<string, Buffer>();
  for (const file of snapshot.files.values()) {
    const object = snapshot.object(file);
    if (object.kind === kind) {
      const copy = JSON.parse(JSON.stringify(object));
      edit(copy);
      files.set(file.path, Buffer.from(JSON.stringify(copy)));
    } else {
      files.set(file.path, file.bytes);
    }
  }
  return OutputSnapshot.fromFiles('edited', files);
}

describe('plan follows an object that moves within its cluster', () => {
  test('a NodePool moved into node-pools/ (as FluxDelivery now writes it) is the same object, not a deletion and a creation', () => {
    const before = output({});
    const moved = new Map<string, Buffer>();
    for (const file of before.files.values()) {
      moved.set(file.path.endsWith('60-nodepool-clusters_c1-workers.yaml') ? file.path.replace('/60-', '/node-pools/60-') : file.path, file.bytes);
    }
    const result = planChanges(before, OutputSnapshot.fromFiles('moved', moved), { validator, includeUnchanged: true });
    expect(result.summary).toEqual(expect.objectContaining({ create: 0, update: 0, delete: 0 }));
    expect(object(result, 'NodePool')).toEqual(
      expect.objectContaining({
        action: PlanAction.UNCHANGED,
        file: 'hub/c1/node-pools/60-nodepool-clusters_c1-workers.yaml',
        previousFile: 'hub/c1/60-nodepool-clusters_c1-workers.yaml',
        cluster: 'hub/clusters/c1',
      }),
    );
  });
});

describe('plan on outputs of several hubs and of every delivery', () => {
  /** Two hubs with a cluster clusters/c1 each (4.17.0, or `version`), under `delivery`. */
  function twoHubs(delivery: () => IDelivery, version = '4.17.0', edit?: (cluster: HostedCluster) => void): OutputSnapshot {
    const app = new HcpApp({ outdir: '/nonexistent', delivery: delivery() });
    for (const hub of ['east', 'west']) {
      const cluster = new HostedCluster(new ManagementCluster(app, hub), 'c1', clusterProps({ release: Release.fromVersion(version), infraId: `${hub}-c1` }));
      cluster.addNodePool('workers', { replicas: 2 });
      edit?.(cluster);
    }
    return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
  }
  const DELIVERIES: [string, () => IDelivery][] = [
    ['kustomize', () => new KustomizeDelivery()],
    ['argocd', () => new ArgoCdDelivery({ repoUrl: 'https://git.example.com/estate.git' })],
    ['flux', () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: 'https://git.example.com/estate.git' }) })],
    ['acm', () => new AcmDelivery()],
  ];

  test.each(DELIVERIES)('%s: the clusters of two hubs are told apart by their hub, and each delivery object is one object', (_, delivery) => {
    const result = planChanges(twoHubs(delivery), twoHubs(delivery, '4.17.3'), { validator });
    expect(result.summary.clustersChanged).toEqual(['east/clusters/c1', 'west/clusters/c1']);
    expect(result.objects.filter((o) => o.kind === 'HostedCluster').map((o) => o.cluster)).toEqual(['east/clusters/c1', 'west/clusters/c1']);
    expect(result.clusterNotes.map((n) => n.note.match(/pool (\S+) upgrade/)?.[1])).toEqual(['c1-workers', 'c1-workers']);
  });

  test('flux: a NodePool in node-pools/ is still checked against its control plane', () => {
    const flux = DELIVERIES[2][1];
    const before = twoHubs(flux);
    const after = editedOutput(before, 'NodePool', (pool) => {
      pool.spec.release.image = 'quay.io/openshift-release-dev/ocp-release:4.18.0-multi';
    });
    const pools = planChanges(before, after, { validator }).objects.filter((o) => o.kind === 'NodePool');
    expect(pools.map((p) => [p.file, p.effects.map((e) => e.effect)])).toEqual([
      ['east/c1/node-pools/60-nodepool-clusters_c1-workers.yaml', [ChangeEffect.REFUSED, ChangeEffect.NODE_POOL_ROLLOUT]],
      ['west/c1/node-pools/60-nodepool-clusters_c1-workers.yaml', [ChangeEffect.REFUSED, ChangeEffect.NODE_POOL_ROLLOUT]],
    ]);
  });

  test("a new trust bundle rolls every pool of its cluster; a Secret's values are never shown", () => {
    const withBundle = (pem: string, auth: string) => () => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      newCluster(
        {
          additionalTrustBundle: TrustBundle.fromPem(pem),
          pullSecret: SecretSource.fromInlineValue(`{"auths":{"quay.io":{"auth":"${auth}"}}}`, { allowSecretInOutput: true }),
        },
        app,
      ).addNodePool('workers', { replicas: 2 });
      return OutputSnapshot.fromFiles('synth', new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
    };
    const result = planChanges(withBundle(PEM_A, 'YTpi')(), withBundle(PEM_B, 'YzpkZQ==')(), { validator });
    const bundle = object(result, 'ConfigMap', 'user-ca-bundle');
    expect(bundle.effects.map((e) => [e.effect, e.summary])).toEqual([
      [ChangeEffect.CONFIGURATION_ROLLOUT, expect.stringMatching(/^the nodes of c1-workers \(.*\) roll: the cluster's trust bundle changes, and every node reads it$/)],
    ]);
    const secret = result.objects.find((o) => o.kind === 'Secret')!;
    expect(secret.effects.map((e) => e.effect)).toEqual([ChangeEffect.CONFIGURATION_ROLLOUT]);
    expect(secret.changes).toEqual([{ path: 'data[".dockerconfigjson"]', before: HIDDEN, after: HIDDEN }]);
    expect(JSON.stringify(result)).not.toContain('YTpi');
  });
});
