import {
  ClusterPlatform,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  MultiClusterEngine,
  MultiClusterEngineAvailability,
  MultiClusterEngineComponent,
  MultiClusterEngineProps,
  NodePool,
  PlatformType,
  Release,
  SecretSource,
} from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

function newApp(): HcpApp {
  return new HcpApp({ outdir: '/nonexistent' });
}

/** An Agent HostedCluster on 4.17.0, as test/core/hcp-app.test.ts builds them. */
function agentCluster(scope: ManagementCluster, id: string): HostedCluster {
  return new HostedCluster(scope, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
  });
}

/** The MultiClusterEngine object of `hub/mce`. */
function engine(props: MultiClusterEngineProps = {}, configure?: (mce: MultiClusterEngine) => void): any {
  const app = newApp();
  const mce = new MultiClusterEngine(new ManagementCluster(app, 'hub'), 'mce', props);
  configure?.(mce);
  return findObject(synthObjects(app), 'MultiClusterEngine');
}

/** The problems reported for `hub/mce`, with `extra` declared beside it. */
function problemsOf(props: MultiClusterEngineProps, extra?: (hub: ManagementCluster) => void): string[] {
  return synthProblems((app) => {
    const hub = new ManagementCluster(app, 'hub');
    new MultiClusterEngine(hub, 'mce', props);
    extra?.(hub);
  });
}

describe('MultiClusterEngine defaults', () => {
  test('is the cluster-scoped multiclusterengine, first among the operators', () => {
    const app = newApp();
    new MultiClusterEngine(new ManagementCluster(app, 'hub'), 'mce');
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/05-multiclusterengine-multiclusterengine.yaml']);
    const mce = findObject(synthObjects(app), 'MultiClusterEngine');
    expect(mce.apiVersion).toBe('multicluster.openshift.io/v1');
    expect(mce.metadata).toEqual({ name: 'multiclusterengine', annotations: { 'argocd.argoproj.io/sync-wave': '5', ...PRUNE_PROTECTION } });
  });

  test('enables hypershift and hypershift-local-hosting, as docs 2.6.1 show', () => {
    expect(engine().spec).toEqual({
      overrides: {
        components: [
          { name: 'hypershift', enabled: true },
          { name: 'hypershift-local-hosting', enabled: true },
        ],
      },
    });
  });

  test('leaves availability and target namespace to the operator', () => {
    const spec = engine().spec;
    expect(spec).not.toHaveProperty('availabilityConfig');
    expect(spec).not.toHaveProperty('targetNamespace');
  });

  test('reports the operator default target namespace', () => {
    expect(new MultiClusterEngine(new ManagementCluster(newApp(), 'hub'), 'mce').targetNamespace).toBe('multicluster-engine');
  });

  test('allows HostedClusters on the hub it serves', () => {
    expect(problemsOf({}, (hub) => agentCluster(hub, 'one').addNodePool('workers'))).toEqual([]);
  });
});

describe('MultiClusterEngine props', () => {
  test('writes name, availability and target namespace', () => {
    const mce = engine({ name: 'engine', availability: MultiClusterEngineAvailability.BASIC, targetNamespace: 'mce' });
    expect(mce.metadata.name).toBe('engine');
    expect(mce.spec.availabilityConfig).toBe('Basic');
    expect(mce.spec.targetNamespace).toBe('mce');
  });

  test('turns local hosting off alone', () => {
    expect(engine({ localHosting: false }).spec.overrides.components).toEqual([
      { name: 'hypershift', enabled: true },
      { name: 'hypershift-local-hosting', enabled: false },
    ]);
  });

  test('turning hosted control planes off turns local hosting off too', () => {
    expect(engine({ hostedControlPlanes: false }).spec.overrides.components).toEqual([
      { name: 'hypershift', enabled: false },
      { name: 'hypershift-local-hosting', enabled: false },
    ]);
  });

  test('adds other component overrides after the hosted control plane ones, in order', () => {
    const mce = engine(
      {
        componentOverrides: [
          { component: MultiClusterEngineComponent.CLUSTER_PROXY_ADDON, enabled: false },
          { component: MultiClusterEngineComponent.of('cluster-api-preview'), enabled: true },
        ],
      },
      (m) => m.overrideComponent(MultiClusterEngineComponent.ASSISTED_SERVICE, true),
    );
    expect(mce.spec.overrides.components).toEqual([
      { name: 'hypershift', enabled: true },
      { name: 'hypershift-local-hosting', enabled: true },
      { name: 'cluster-proxy-addon', enabled: false },
      { name: 'cluster-api-preview', enabled: true },
      { name: 'assisted-service', enabled: true },
    ]);
  });

  test('tells which components it switches', () => {
    const mce = new MultiClusterEngine(new ManagementCluster(newApp(), 'hub'), 'mce', {
      localHosting: false,
      componentOverrides: [{ component: MultiClusterEngineComponent.HIVE, enabled: false }],
    });
    expect(mce.isEnabled(MultiClusterEngineComponent.HYPERSHIFT)).toBe(true);
    expect(mce.isEnabled(MultiClusterEngineComponent.HYPERSHIFT_LOCAL_HOSTING)).toBe(false);
    expect(mce.isEnabled(MultiClusterEngineComponent.HIVE)).toBe(false);
    expect(mce.isEnabled(MultiClusterEngineComponent.DISCOVERY)).toBeUndefined();
  });

  test('takes JSON overrides for fields without a prop', () => {
    const mce = engine({}, (m) => m.addOverride('spec.nodeSelector', { 'node-role.kubernetes.io/infra': '' }));
    expect(mce.spec.nodeSelector).toEqual({ 'node-role.kubernetes.io/infra': '' });
  });

  test('HostedClusters of another management cluster do not hold this one back', () => {
    expect(problemsOf({ hostedControlPlanes: false }, (hub) => agentCluster(new ManagementCluster(hub.node.root as HcpApp, 'other'), 'one'))).toEqual([]);
  });
});

describe('MultiClusterEngine rules', () => {
  test('fails when the name is not a DNS subdomain', () => {
    expect(problemsOf({ name: 'Engine_1' })).toEqual([`hub/mce: name ("Engine_1") ${DNS1123_SUBDOMAIN_RULE}`]);
  });

  test('fails when the target namespace is not a DNS label', () => {
    expect(problemsOf({ targetNamespace: 'multicluster.engine' })).toEqual([`hub/mce: targetNamespace ("multicluster.engine") ${DNS1123_LABEL_RULE}`]);
  });

  test('fails when the availability is not High or Basic', () => {
    expect(problemsOf({ availability: 'Medium' as MultiClusterEngineAvailability })).toEqual(['hub/mce: availability ("Medium") must be High or Basic']);
  });

  test('fails when local hosting is on without hosted control planes', () => {
    expect(problemsOf({ hostedControlPlanes: false, localHosting: true })).toEqual([
      'hub/mce: localHosting (true) needs hostedControlPlanes; the hypershift-addon installs the operator the hypershift component provides',
    ]);
  });

  test('fails when a component name is not one MCE could have', () => {
    expect(problemsOf({ componentOverrides: [{ component: MultiClusterEngineComponent.of('Cluster Proxy'), enabled: false }] })).toEqual([
      'hub/mce: componentOverrides[0].component ("Cluster Proxy") must be an MCE component name such as "cluster-proxy-addon"',
    ]);
  });

  test('fails when component overrides set the hosted control plane components', () => {
    expect(
      problemsOf({
        componentOverrides: [
          { component: MultiClusterEngineComponent.HYPERSHIFT, enabled: false },
          { component: MultiClusterEngineComponent.HYPERSHIFT_LOCAL_HOSTING, enabled: false },
        ],
      }),
    ).toEqual([
      'hub/mce: componentOverrides[0].component ("hypershift") is set by hostedControlPlanes',
      'hub/mce: componentOverrides[1].component ("hypershift-local-hosting") is set by localHosting',
    ]);
  });

  test('fails when a component is overridden twice', () => {
    expect(
      problemsOf({
        componentOverrides: [
          { component: MultiClusterEngineComponent.HIVE, enabled: false },
          { component: MultiClusterEngineComponent.of('hive'), enabled: true },
        ],
      }),
    ).toEqual(['hub/mce: componentOverrides[1].component ("hive") is overridden twice; give each component once']);
    expect(() => engine({ componentOverrides: [{ component: MultiClusterEngineComponent.HIVE, enabled: false }] }, (m) => m.overrideComponent(MultiClusterEngineComponent.HIVE, true))).toThrow(
      'hub/mce: component ("hive") is overridden twice; give each component once',
    );
  });

  test('fails with every problem at once', () => {
    expect(problemsOf({ name: 'Engine_1', targetNamespace: 'Mce', hostedControlPlanes: false, localHosting: true })).toHaveLength(3);
  });

  test('fails when hosted control planes are turned off under HostedClusters (MG-05)', () => {
    expect(
      problemsOf({ hostedControlPlanes: false }, (hub) => {
        agentCluster(hub, 'one');
        agentCluster(hub, 'two');
      }),
    ).toEqual([
      'hub/mce: hostedControlPlanes (false) turns component hypershift off, but this management cluster declares HostedClusters (hub/one, hub/two); ' +
        'destroy them before disabling hosted control planes (docs 2.6.2)',
    ]);
  });

  test('fails when local hosting is turned off under HostedClusters (MG-05)', () => {
    expect(problemsOf({ localHosting: false }, (hub) => agentCluster(hub, 'one'))).toEqual([
      'hub/mce: localHosting (false) uninstalls the HyperShift Operator from this hub, but this management cluster declares HostedClusters (hub/one); ' +
        'destroy them before disabling the hypershift-addon (docs 2.6.2.1)',
    ]);
  });

  test('fails when hosted control planes are turned off under an imported HostedCluster that gets node pools here', () => {
    expect(
      problemsOf({ hostedControlPlanes: false }, (hub) => {
        const existing = HostedCluster.fromAttributes(hub, 'existing', { clusterName: 'existing', platformType: PlatformType.AGENT, release: Release.fromVersion('4.17.0') });
        new NodePool(hub, 'extra', { cluster: existing });
      }),
    ).toEqual([
      'hub/mce: hostedControlPlanes (false) turns component hypershift off, but this management cluster declares HostedClusters (hub/existing); ' +
        'destroy them before disabling hosted control planes (docs 2.6.2)',
    ]);
  });

  test('fails when a management cluster declares two MultiClusterEngines', () => {
    expect(problemsOf({}, (hub) => new MultiClusterEngine(hub, 'second', { name: 'second' }))).toEqual([
      'hub/second: a management cluster runs one MultiClusterEngine, and hub/mce already declares it',
    ]);
  });
});

test('MultiClusterEngine snapshot', () => {
  expect(
    engine({
      availability: MultiClusterEngineAvailability.HIGH,
      targetNamespace: 'multicluster-engine',
      componentOverrides: [{ component: MultiClusterEngineComponent.CONSOLE, enabled: true }],
    }),
  ).toMatchSnapshot();
});
