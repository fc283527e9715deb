// What plan --live makes of the management cluster's state, without a cluster: liveFindings over
// the two outputs and live objects made here (the server suite plan-live.test.ts reads a real one).
import Ajv2020 from 'ajv/dist/2020';
import { HcpApp, HostedCluster, LiveFindingKind, ManagementCluster, OutputSnapshot, Plan, PLAN_JSON_SCHEMA, planChanges, planMarkdown, planText, Release } from '../../lib';
import { liveFindings, LiveObjectState, reportedVersion } from '../../lib/plan/live/live-findings';
import { managementFolder } from '../../lib/plan/live/live-plan';
import { clusterProps } from '../props';

interface Spec {
  readonly release: string;
  readonly poolRelease?: string;
  readonly replicas?: number;
  readonly forceUpgradeTo?: boolean;
  readonly hub?: string;
}

function snapshot(spec: Spec): OutputSnapshot {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const release = Release.fromVersion(spec.release);
  const cluster = new HostedCluster(new ManagementCluster(app, spec.hub ?? 'hub'), 'c1', clusterProps({ release, ...(spec.forceUpgradeTo ? { forceUpgradeTo: release } : {}) }));
  cluster.addNodePool('workers', { replicas: spec.replicas ?? 2, release: spec.poolRelease ? Release.fromVersion(spec.poolRelease) : undefined });
  return OutputSnapshot.fromFiles(spec.release, new Map(app.synthesize().map((f) => [f.path, Buffer.from(f.text)])));
}

const version = (state: string, v: string, started = '2026-05-01T10:00:00Z'): any => ({ state, version: v, image: Release.fromVersion(v).image, startedTime: started });

/** The live objects: the committed ones as applied, with `status` on the HostedCluster and `edit` applied. */
function states(committed: OutputSnapshot, next: OutputSnapshot, status: any, edit: (objects: Map<string, any>) => void = () => {}): { plan: Plan; states: LiveObjectState[] } {
  const plan = planChanges(committed, next);
  const live = new Map<string, any>();
  for (const file of committed.files.values()) live.set(file.key, JSON.parse(JSON.stringify(committed.object(file))));
  for (const object of live.values()) if (object.kind === 'HostedCluster') object.status = status;
  edit(live);
  const keys = new Set([...committed.files.keys(), ...next.files.keys()]);
  return {
    plan,
    states: [...keys].map((key) => {
      const before = committed.files.get(key);
      const after = next.files.get(key);
      const object = after ? next.object(after) : committed.object(before!);
      return {
        apiVersion: object.apiVersion,
        kind: object.kind,
        namespace: object.metadata.namespace,
        name: object.metadata.name,
        file: (after ?? before)!.path,
        cluster: object.kind === 'Namespace' ? undefined : 'hub/clusters/c1',
        committed: before && committed.object(before),
        next: after && next.object(after),
        served: true,
        live: live.get(key),
      };
    }),
  };
}

const AVAILABLE = [{ type: 'Available', status: 'True', reason: 'AsExpected', message: 'The hosted control plane is available' }];
const upgrading = (to: string, from: string): any => ({
  version: { desired: { version: to, image: Release.fromVersion(to).image }, history: [version('Partial', to), version('Completed', from, '2026-04-01T10:00:00Z')] },
  conditions: AVAILABLE,
});

describe('an upgrade in progress', () => {
  test('a z-stream on top of it is not refused: it retargets the upgrade', () => {
    const { plan, states: s } = states(snapshot({ release: '4.17.3' }), snapshot({ release: '4.17.5', poolRelease: '4.17.3' }), upgrading('4.17.3', '4.17.0'));
    expect(liveFindings(plan, s).map((f) => [f.finding, f.refused, f.summary])).toEqual([
      [
        LiveFindingKind.UPGRADE_IN_PROGRESS,
        false,
        'spec.release.image: the control plane is still upgrading to 4.17.3 (status.version.history[0] is Partial since 2026-05-01T10:00:00Z): applying this commit now retargets that upgrade to 4.17.5 before it completes; wait until it is Completed to update from a finished release',
      ],
    ]);
  });

  test('an update path refused from the version in progress is refused, though the spec allows it', () => {
    const { plan, states: s } = states(snapshot({ release: '4.18.2' }), snapshot({ release: '4.19.0', poolRelease: '4.18.2' }), upgrading('4.17.3', '4.17.0'));
    expect(plan.summary.effects).toEqual({ 'control-plane-upgrade': 1 });
    const [finding] = liveFindings(plan, s);
    expect(finding.refused).toBe(true);
    expect(finding.summary).toBe(
      'spec.release.image: refused: the control plane is still upgrading to 4.17.3 (status.version.history[0] is Partial since 2026-05-01T10:00:00Z), and from there this commit updates from 4.17.3 to 4.19.0, which skips 4.18; a control plane accepts a later 4.17.z or 4.18.z, one minor at a time; forceUpgradeTo (the force-upgrade-to annotation) overrides',
    );
  });

  test('a spec HyperShift has not taken up yet is an upgrade under way too, named by the spec; a minor past it is refused, quoting ClusterVersionUpgradeable', () => {
    const status = {
      version: { desired: { version: '4.17.0', image: Release.fromVersion('4.17.0').image }, history: [version('Completed', '4.17.0')] },
      conditions: [...AVAILABLE, { type: 'ClusterVersionUpgradeable', status: 'False', reason: 'UpdateInProgress', message: 'An update is already in progress' }],
    };
    const { plan, states: s } = states(snapshot({ release: '4.17.3' }), snapshot({ release: '4.18.0', poolRelease: '4.17.3' }), status);
    expect(liveFindings(plan, s).map((f) => f.summary)).toEqual([
      'spec.release.image: refused: the control plane is still upgrading to 4.17.3 (spec.release.image names it, but status.version.desired is still 4.17.0: HyperShift has not started it yet), and a hosted cluster is not Upgradeable while an update is in progress (condition ClusterVersionUpgradeable is False: An update is already in progress), so HyperShift starts no minor update to 4.18.0 until that one is Completed; apply this commit after that, or name 4.18.0 in forceUpgradeTo',
    ]);
  });

  test('forceUpgradeTo naming the target lets a minor through', () => {
    const { plan, states: s } = states(snapshot({ release: '4.17.3' }), snapshot({ release: '4.18.0', poolRelease: '4.17.3', forceUpgradeTo: true }), upgrading('4.17.3', '4.17.0'));
    expect(liveFindings(plan, s).map((f) => [f.refused, f.summary.includes('retargets that upgrade to 4.18.0')])).toEqual([[false, true]]);
  });

  test('a cluster this commit does not change is not reported, upgrading or not Available', () => {
    const status = { ...upgrading('4.17.3', '4.17.0'), conditions: [{ type: 'Available', status: 'False', reason: 'x', message: 'down' }] };
    const same = snapshot({ release: '4.17.3' });
    const { plan, states: s } = states(same, snapshot({ release: '4.17.3' }), status);
    expect(liveFindings(plan, s)).toEqual([]);
  });
});

describe('the version the control plane reports', () => {
  test('is the newest Completed history entry, else the desired release', () => {
    expect(reportedVersion({ status: upgrading('4.17.3', '4.17.0') })?.version).toEqual(Release.fromVersion('4.17.0').version);
    expect(reportedVersion({ status: { version: { desired: { version: '4.16.2' }, history: [version('Partial', '4.16.2')] } } })?.source).toBe('status.version.desired; no history entry is Completed');
    expect(reportedVersion({ status: {} })).toBeUndefined();
  });

  test('a pool too far behind the reported version is refused, though the spec would allow it', () => {
    // Upgraded by hand to 4.20 (drift), and the control plane got there: a pool at 4.16 is now 4 minors behind.
    const committed = snapshot({ release: '4.17.0', poolRelease: '4.16.0' });
    const status = {
      version: { desired: { version: '4.20.1', image: Release.fromVersion('4.20.1').image }, history: [version('Completed', '4.20.1'), version('Completed', '4.17.0')] },
      conditions: AVAILABLE,
    };
    const { plan, states: s } = states(committed, snapshot({ release: '4.17.0', poolRelease: '4.16.5' }), status, (live) => {
      for (const object of live.values()) if (object.kind === 'HostedCluster') object.spec.release.image = Release.fromVersion('4.20.1').image;
    });
    const findings = liveFindings(plan, s);
    expect(findings.map((f) => [f.finding, f.refused])).toEqual([
      [LiveFindingKind.VERSION_SKEW, true],
      [LiveFindingKind.DRIFT, false],
    ]);
    expect(findings[0].summary).toBe(
      "spec.release.image: HyperShift does not roll it out: the control plane reports 4.20.1 (its newest Completed status.version.history entry), not the 4.17.0 its spec names, and against it the pool's release is 4.16.5, 4 minors behind the control plane's 4.20.1; " +
        "HyperShift main (hcp-cdk's default: the hub states no HyperShift version) allows pools up to 3 minors behind the control plane on every 4.y (5.0 counting as 4.23), so 4.17 or later here: " +
        'it reports SupportedVersionSkew False (UnsupportedSkew) on such a pool, which runs on without support, and its CLI refuses to create one (ValidateVersionSkew, support/supportedversion/version.go)',
    );
    expect(findings[1].fields).toEqual([
      { path: 'spec.release.image', committed: Release.fromVersion('4.17.0').image, live: Release.fromVersion('4.20.1').image, next: Release.fromVersion('4.17.0').image },
    ]);
  });
});

describe('drift', () => {
  test('only the fields the committed output sets, by path: list items; what the new output does with each', () => {
    const committed = snapshot({ release: '4.17.0' });
    const { plan, states: s } = states(committed, snapshot({ release: '4.17.0', replicas: 3 }), { conditions: AVAILABLE }, (live) => {
      for (const object of live.values()) {
        if (object.kind !== 'HostedCluster') continue;
        object.spec.services.find((s: any) => s.service === 'OIDC').servicePublishingStrategy.nodePort.address = '192.0.2.99';
        object.metadata.annotations['argocd.argoproj.io/tracking-id'] = "added by the engine: not the output's";
        object.metadata.annotations['hcp-cdk.io/delivery'] = 'flux';
        object.spec.fips = true;
        object.spec.controllerAvailabilityPolicy = undefined;
        object.spec.autoscaling = { scaling: 'ScaleUpOnly' }; // a default the operator fills in: not compared
      }
    });
    const drift = liveFindings(plan, s).filter((f) => f.finding === LiveFindingKind.DRIFT);
    expect(drift.map((f) => [f.kind, f.fields])).toEqual([
      [
        'HostedCluster',
        [
          { path: 'spec.controllerAvailabilityPolicy', committed: 'HighlyAvailable', next: 'HighlyAvailable' },
          { path: 'spec.fips', committed: false, live: true, next: false },
          { path: 'spec.services[4].servicePublishingStrategy.nodePort.address', committed: '192.0.2.10', live: '192.0.2.99', next: '192.0.2.10' },
          { path: 'metadata.annotations["hcp-cdk.io/delivery"]', committed: 'kustomize', live: 'flux', next: 'kustomize' },
        ],
      ],
    ]);
    expect(planText({ ...plan, live: { context: 'hub', server: 'https://api.hub:6443', managementFolder: 'hub', objectsRead: 3, objectsFound: 3, findings: drift } })).toContain(
      [
        'live: context hub (https://api.hub:6443), management folder hub: 3 of 3 objects on the cluster; 1 drift',
        '  drift: hub/clusters/c1: HostedCluster clusters/c1: 4 fields differ from the last committed output: changed on the cluster since the last sync, by hand or by another controller; applying this commit sets the fields the new output names as it names them',
        '      spec.controllerAvailabilityPolicy: "HighlyAvailable" committed, (none) live; this commit sets it back',
        '      spec.fips: false committed, true live; this commit sets it back',
      ].join('\n'),
    );
  });

  test('an object gone from the cluster is drift when the kind is served; when it is not, its CRD is missing', () => {
    const committed = snapshot({ release: '4.17.0' });
    const steady = { version: { desired: { version: '4.17.0', image: Release.fromVersion('4.17.0').image }, history: [version('Completed', '4.17.0')] }, conditions: AVAILABLE };
    const { plan, states: s } = states(committed, snapshot({ release: '4.17.0', replicas: 3 }), steady, (live) => {
      for (const [key, object] of live) if (object.kind === 'NodePool') live.delete(key);
    });
    expect(liveFindings(plan, s).map((f) => [f.finding, f.name, f.details])).toEqual([[LiveFindingKind.DRIFT, 'c1-workers', { missing: true }]]);
    // Not served: not drift, but the CRD missing, once for the kind.
    expect(
      liveFindings(
        plan,
        s.map((state) => (state.kind === 'NodePool' ? { ...state, served: false } : state)),
      ).map((f) => [f.finding, f.kind, f.name, f.summary]),
    ).toEqual([
      [
        LiveFindingKind.MISSING_CRD,
        'CustomResourceDefinition',
        'nodepools.hypershift.openshift.io',
        'not on the cluster: it serves no NodePool (hypershift.openshift.io/v1beta1), so applying the output fails for the NodePool that needs it (clusters/c1-workers); install the operator that brings the CRD first, or check that --context names the management cluster',
      ],
    ]);
  });
});

describe('the live report', () => {
  const committed = snapshot({ release: '4.17.3' });
  const { plan, states: s } = states(committed, snapshot({ release: '4.18.0', poolRelease: '4.17.3' }), {
    ...upgrading('4.17.3', '4.17.0'),
    conditions: [{ type: 'Available', status: 'False', reason: 'KASLoadBalancerNotReachable', message: 'kube-apiserver load balancer is not reachable' }],
  });
  const withLive: Plan = { ...plan, live: { context: 'hub', server: 'https://api.hub:6443', managementFolder: 'hub', objectsRead: 3, objectsFound: 3, findings: liveFindings(plan, s) } };

  test('--json: the plan with live matches the JSON Schema', () => {
    const validate = new Ajv2020({ strict: true }).compile(PLAN_JSON_SCHEMA);
    expect(validate(JSON.parse(JSON.stringify(withLive)))).toBe(true);
    expect(validate({ ...JSON.parse(JSON.stringify(withLive)), live: { ...withLive.live, findings: [{ finding: 'rumour', refused: false }] } })).toBe(false);
  });

  test('markdown: a table of findings, refused first', () => {
    expect(planMarkdown(withLive)).toContain(
      [
        '#### Live: context `hub`, management folder `hub`',
        '',
        '3 of 3 objects on the cluster; 1 refused, 1 upgrade-in-progress, 1 not-available.',
        '',
        '| finding | object | |',
        '|---|---|---|',
        '| **refused** (upgrade-in-progress) | hub/clusters/c1: HostedCluster clusters/c1 | spec.release.image: refused: the control plane is still upgrading to 4.17.3',
      ].join('\n'),
    );
    expect(planMarkdown(withLive)).toContain(
      '| not-available | hub/clusters/c1: HostedCluster clusters/c1 | not Available (condition Available is False, reason KASLoadBalancerNotReachable): kube-apiserver load balancer is not reachable; what this commit changes lands on a control plane that is not serving |',
    );
  });

  test('a plan without live renders as before', () => {
    expect(planText(plan)).not.toContain('live:');
    expect(planMarkdown(plan)).not.toContain('Live');
  });
});

describe('the management folder', () => {
  const two = OutputSnapshot.fromFiles(
    'two hubs',
    new Map([
      ...[...snapshot({ release: '4.17.0', hub: 'hub-a' }).files.values()].map((f) => [f.path, f.bytes] as const),
      ...[...snapshot({ release: '4.17.0', hub: 'hub-b' }).files.values()].map((f) => [f.path, f.bytes] as const),
    ]),
  );

  test('is the only one, or the one given; several without --hub, or an unknown one, is an error', () => {
    expect(managementFolder(snapshot({ release: '4.17.0' }), snapshot({ release: '4.17.0' }))).toBe('hub');
    expect(managementFolder(two, two, 'hub-b')).toBe('hub-b');
    expect(() => managementFolder(two, two)).toThrow(
      "plan --live reads one management cluster, and the outputs have 2 management folders (hub-a, hub-b): name the one the context's cluster runs with --hub <folder>",
    );
    expect(() => managementFolder(two, two, 'hub-c')).toThrow('--hub hub-c: the outputs have no management folder hub-c (they have hub-a, hub-b)');
  });

  test('the record of release rollouts (rollouts/) is no management cluster: no engine applies it', () => {
    const withRecord = OutputSnapshot.fromFiles(
      'a hub and a rollout record',
      new Map([
        ...[...snapshot({ release: '4.17.0' }).files.values()].map((f) => [f.path, f.bytes] as const),
        ['rollouts/90-releaserollout-fleet.yaml', Buffer.from('apiVersion: hcp-cdk.io/v1alpha1\nkind: ReleaseRollout\nmetadata:\n  name: fleet\nspec: {}\n')] as const,
      ]),
    );
    expect(managementFolder(withRecord, withRecord)).toBe('hub');
    expect(() => managementFolder(withRecord, withRecord, 'rollouts')).toThrow('--hub rollouts: the outputs have no management folder rollouts (they have hub)');
  });
});

describe('the cluster as a whole', () => {
  const TARGET = { managementFolder: 'hub', context: 'prod-hub', server: 'https://api.prod-hub.example.com:6443' };
  const steady = { version: { desired: { version: '4.17.0', image: Release.fromVersion('4.17.0').image }, history: [version('Completed', '4.17.0')] }, conditions: AVAILABLE };

  test('most of the last committed output absent: one finding that it looks like another cluster, naming the folder, context and server, and no drift per object', () => {
    const committed = snapshot({ release: '4.17.0' });
    const { plan, states: s } = states(committed, snapshot({ release: '4.17.0', replicas: 3 }), steady, (live) => {
      for (const [key, object] of live) if (object.kind !== 'Namespace') live.delete(key);
    });
    expect(liveFindings(plan, s, TARGET)).toEqual([
      {
        finding: LiveFindingKind.WRONG_CLUSTER,
        refused: false,
        apiVersion: 'hcp-cdk.io/v1alpha1',
        kind: 'ManagementCluster',
        name: 'hub',
        summary:
          '2 of the 3 objects of the last committed output for management folder hub are not on the cluster of context prod-hub (https://api.prod-hub.example.com:6443): it looks like another cluster than the one hub/ is applied to, or one that output was never applied to; check --context and --hub (drift is not listed object by object)',
        details: { absent: 2, committed: 3, context: 'prod-hub', server: 'https://api.prod-hub.example.com:6443', unservedKinds: [] },
      },
    ]);
    // Without HyperShift's CRDs at all it says so in the same finding, and lists no missing CRD apart.
    const unserved = s.map((state) => (state.kind === 'Namespace' ? state : { ...state, served: false }));
    const [finding, ...rest] = liveFindings(plan, unserved, TARGET);
    expect([finding.finding, finding.summary.includes('and it serves no HostedCluster (hypershift.openshift.io/v1beta1), NodePool (hypershift.openshift.io/v1beta1)'), rest]).toEqual([
      LiveFindingKind.WRONG_CLUSTER,
      true,
      [],
    ]);
  });

  test('half or less absent is drift, object by object', () => {
    const committed = snapshot({ release: '4.17.0' });
    const { plan, states: s } = states(committed, snapshot({ release: '4.17.0', replicas: 3 }), steady, (live) => {
      for (const [key, object] of live) if (object.kind === 'NodePool') live.delete(key);
    });
    expect(liveFindings(plan, s, TARGET).map((f) => [f.finding, f.name])).toEqual([[LiveFindingKind.DRIFT, 'c1-workers']]);
  });

  test("a missing CRD the output ships itself is named by the output's CRD; one no schema knows, by Kubernetes' convention", () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgetries.example.com' },
      spec: { group: 'example.com', names: { kind: 'Widget', plural: 'widgetries' } },
    };
    const widget = (name: string): LiveObjectState => ({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      namespace: 'clusters',
      name,
      file: `hub/clusters/widget-${name}.yaml`,
      next: { kind: 'Widget' },
      served: false,
    });
    const gadget: LiveObjectState = { apiVersion: 'example.com/v1', kind: 'Gadget', name: 'g', file: 'hub/gadget.yaml', next: { kind: 'Gadget' }, served: false };
    // A kind no bundled schema knows: its CRD's name is guessed with the English plural.
    const policy: LiveObjectState = { apiVersion: 'rules.example.com/v1', kind: 'Policy', name: 'p', file: 'hub/policy.yaml', next: { kind: 'Policy' }, served: false };
    const shipped: LiveObjectState = { apiVersion: crd.apiVersion, kind: crd.kind, name: crd.metadata.name, file: 'hub/crd.yaml', next: crd, served: true };
    const plan = { objects: [], summary: { clustersChanged: [] } } as unknown as Plan;
    const names = ['a', 'b', 'c', 'd', 'e', 'f'].map(widget);
    expect(liveFindings(plan, [shipped, ...names, gadget, policy]).map((f) => [f.finding, f.name, f.summary])).toEqual([
      [
        LiveFindingKind.MISSING_CRD,
        'gadgets.example.com',
        'not on the cluster: it serves no Gadget (example.com/v1), so applying the output fails for the Gadget that needs it (g); install the operator that brings the CRD first, or check that --context names the management cluster',
      ],
      [
        LiveFindingKind.MISSING_CRD,
        'policies.rules.example.com',
        'not on the cluster: it serves no Policy (rules.example.com/v1), so applying the output fails for the Policy that needs it (p); install the operator that brings the CRD first, or check that --context names the management cluster',
      ],
      [
        LiveFindingKind.MISSING_CRD,
        'widgetries.example.com',
        'not on the cluster: it serves no Widget (example.com/v1), so applying the output fails for the 6 Widgets that need it (clusters/a, clusters/b, clusters/c, clusters/d, clusters/e and 1 more); install the operator that brings the CRD first, or check that --context names the management cluster',
      ],
    ]);
  });
});
