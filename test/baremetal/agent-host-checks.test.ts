import {
  allowHostsWithoutCluster,
  BareMetalHost,
  BareMetalHostOptions,
  BmcCredentials,
  ClusterPlatform,
  HcpApp,
  HostedCluster,
  InfraEnv,
  LabelSelectorOperator,
  LabelSelectorRequirement,
  ManagementCluster,
  NMStateConfig,
  NodePool,
  NodePoolOptions,
  NodePoolPlatform,
  Release,
  SecretSource,
} from '../../lib';
import { synthFiles, synthProblems } from '../util';

const BMH = 'agent-install.openshift.io/bmh';

/** InfraEnv `lab` in namespace `hardware-inventory` of chart `hub`, with `hosts` hosts worker-0, worker-1, … */
function lab(app: HcpApp, hosts = 3, agentLabels?: Record<string, string>): { hub: ManagementCluster; infraEnv: InfraEnv } {
  const hub = new ManagementCluster(app, 'hub');
  // The hardware checks hold whether a cluster takes the Agents or not (that check has tests of its own below).
  allowHostsWithoutCluster(hub, { reason: 'an inventory under test' });
  const infraEnv = new InfraEnv(hub, 'lab', {
    namespace: 'hardware-inventory',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    agentLabels,
  });
  for (let i = 0; i < hosts; i++) addWorker(infraEnv, i);
  return { hub, infraEnv };
}

/** Host worker-<i> with its own MAC address (aa:bb:cc:00:00:0<i>) and BMC (192.0.2.2<i>), varied by `options`. */
function addWorker(infraEnv: InfraEnv, i: number, options: Partial<BareMetalHostOptions> = {}): BareMetalHost {
  return infraEnv.addHost(`worker-${i}`, {
    bmc: { address: `redfish-virtualmedia://192.0.2.2${i}/redfish/v1/Systems/1`, credentials: BmcCredentials.fromExistingSecret(`worker-${i}-bmc`) },
    bootMacAddress: `aa:bb:cc:00:00:0${i}`,
    ...options,
  });
}

function bmc(address: string) {
  return { address, credentials: BmcCredentials.fromExistingSecret('bmc') };
}

/** An agent HostedCluster whose Agents live in `agentNamespace`. */
function agentCluster(scope: ManagementCluster, id: string, agentNamespace = 'hardware-inventory'): HostedCluster {
  return new HostedCluster(scope, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace, apiServerAddress: '192.0.2.10' }),
  });
}

/** The problems of pool `workers` of cluster `one`, drawing on the three-host lab. */
function poolProblems(options: NodePoolOptions, agentLabels?: Record<string, string>): string[] {
  return synthProblems((app) => {
    const { hub } = lab(app, 3, agentLabels);
    agentCluster(hub, 'one').addNodePool('workers', options);
  });
}

function selecting(matchExpressions: LabelSelectorRequirement[], replicas: number): NodePoolOptions {
  return { replicas, platform: NodePoolPlatform.agent({ matchExpressions }) };
}

describe('hosts no cluster takes Agents from', () => {
  /** Hosts in `namespace` of hub `hub`, without the waiver `lab` gives, and an Agent cluster taking Agents from `agents`. */
  const spares = (app: HcpApp, namespace: string, waive?: (hub: ManagementCluster, infraEnv: InfraEnv) => void) => {
    const hub = new ManagementCluster(app, 'hub');
    agentCluster(hub, 'one', 'agents');
    const infraEnv = new InfraEnv(hub, 'spares', { namespace, pullSecret: SecretSource.fromExistingSecret('pull-secret') });
    addWorker(infraEnv, 0);
    addWorker(infraEnv, 1);
    waive?.(hub, infraEnv);
  };

  test('fails when BareMetalHosts sit in a namespace no Agent cluster of their management cluster takes Agents from: they never become nodes, and the namespace the cluster does use is named', () => {
    expect(synthProblems((app) => spares(app, 'spares'))).toEqual([
      'hub/spares: namespace ("spares") holds 2 BareMetalHosts (worker-0, worker-1), but no Agent HostedCluster on hub takes Agents from it (platform.agentNamespace: hub/one takes them from "agents"), ' +
        'so they would never become nodes; give a cluster that agent namespace, or keep them as spares with allowHostsWithoutCluster(scope, { reason })',
    ]);
  });

  test('passes for hosts a cluster takes Agents from, and for hosts waived with a reason, on the InfraEnv or a scope of it', () => {
    expect(synthProblems((app) => spares(app, 'agents'))).toEqual([]);
    expect(synthProblems((app) => spares(app, 'spares', (_, infraEnv) => allowHostsWithoutCluster(infraEnv, { reason: "spares for next quarter's clusters" })))).toEqual([]);
    expect(synthProblems((app) => spares(app, 'spares', (hub) => allowHostsWithoutCluster(hub, { reason: "the hub's spare rack" })))).toEqual([]);
  });

  test('fails when the waiver gives no reason, also from JavaScript', () => {
    expect(synthProblems((app) => spares(app, 'spares', (_, infraEnv) => allowHostsWithoutCluster(infraEnv, { reason: ' ' })))).toEqual([
      'hub/spares: allowHostsWithoutCluster reason (" ") must say why these hosts wait for no cluster, e.g. "spares for the clusters of next quarter"',
      expect.stringMatching(/^hub\/spares: namespace \("spares"\) holds 2 BareMetalHosts/),
    ]);
    expect(synthProblems((app) => spares(app, 'spares', (_, infraEnv) => allowHostsWithoutCluster(infraEnv, undefined as any)))[0]).toBe(
      'hub/spares: allowHostsWithoutCluster reason (undefined) must say why these hosts wait for no cluster, e.g. "spares for the clusters of next quarter"',
    );
  });
});

describe('duplicate hardware', () => {
  test('passes for hosts with their own MAC addresses and BMCs', () => {
    expect(synthProblems((app) => lab(app, 3))).toEqual([]);
  });

  test('passes for hosts on one BMC address under different system paths (one BMC emulator, many hosts)', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, { bmc: bmc('redfish-virtualmedia://192.0.2.1:8000/redfish/v1/Systems/0f4d1b3e') });
        addWorker(infraEnv, 1, { bmc: bmc('redfish-virtualmedia://192.0.2.1:8000/redfish/v1/Systems/7c2a9e61') });
      }),
    ).toEqual([]);
  });

  test('passes for hosts on one BMC address under different ports', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, { bmc: bmc('ipmi://192.0.2.1:6230') });
        addWorker(infraEnv, 1, { bmc: bmc('ipmi://192.0.2.1:6231') });
      }),
    ).toEqual([]);
  });

  test('fails when two hosts have the same boot MAC address, in different case', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 1);
        addWorker(infraEnv, 1, { bootMacAddress: 'AA:BB:CC:00:00:00' });
      }),
    ).toEqual(['hub/lab/worker-1: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails for every further host with a MAC address already used, naming the first', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 1);
        addWorker(infraEnv, 1, { bootMacAddress: 'aa:bb:cc:00:00:00' });
        addWorker(infraEnv, 2, { bootMacAddress: 'Aa:Bb:Cc:00:00:00' });
      }),
    ).toEqual([
      'hub/lab/worker-1: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own',
      'hub/lab/worker-2: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own',
    ]);
  });

  test('fails when hosts of InfraEnvs in different namespaces share a MAC address', () => {
    expect(
      synthProblems((app) => {
        const { hub } = lab(app, 1);
        const other = new InfraEnv(hub, 'edge', { namespace: 'edge-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret') });
        other.addHost('edge-0', { bmc: bmc('ipmi://198.51.100.7'), bootMacAddress: 'aa:bb:cc:00:00:00' });
      }),
    ).toEqual(['hub/edge/edge-0: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails when two hosts have the same BMC endpoint under different schemes', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, { bmc: bmc('redfish-virtualmedia://192.0.2.1:8000/redfish/v1/Systems/1') });
        addWorker(infraEnv, 1, { bmc: bmc('redfish+https://192.0.2.1:8000/redfish/v1/Systems/1') });
      }),
    ).toEqual(['hub/lab/worker-1: bmc.address (endpoint "192.0.2.1:8000/redfish/v1/Systems/1") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails when two hosts have the same BMC endpoint with the host name in different case', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, { bmc: bmc('idrac-virtualmedia://R640-07.lab.example.com/redfish/v1/Systems/System.Embedded.1') });
        addWorker(infraEnv, 1, { bmc: bmc('idrac-redfish://r640-07.lab.example.com/redfish/v1/Systems/System.Embedded.1') });
      }),
    ).toEqual(['hub/lab/worker-1: bmc.address (endpoint "r640-07.lab.example.com/redfish/v1/Systems/System.Embedded.1") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails when two hosts have the same IPMI endpoint', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, { bmc: bmc('ipmi://192.0.2.1:623') });
        addWorker(infraEnv, 1, { bmc: bmc('ipmi://192.0.2.1:623') });
      }),
    ).toEqual(['hub/lab/worker-1: bmc.address (endpoint "192.0.2.1:623") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails with both problems when two hosts share MAC address and BMC', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 1);
        addWorker(infraEnv, 1, { bootMacAddress: 'aa:bb:cc:00:00:00', bmc: bmc('redfish://192.0.2.20/redfish/v1/Systems/1') });
      }),
    ).toEqual([
      'hub/lab/worker-1: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own',
      'hub/lab/worker-1: bmc.address (endpoint "192.0.2.20/redfish/v1/Systems/1") is also used by hub/lab/worker-0; every host needs its own',
    ]);
  });

  test("passes when a host's own NMStateConfig lists its boot NIC", () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        addWorker(infraEnv, 0, {
          networkConfig: {
            interfaces: [
              { name: 'eno1', macAddress: 'AA:BB:CC:00:00:00' },
              { name: 'eno2', macAddress: 'aa:bb:cc:00:00:f0' },
            ],
            config: { interfaces: [{ name: 'eno1' }, { name: 'eno2' }] },
          },
        });
      }),
    ).toEqual([]);
  });

  test("fails when a host's NMStateConfig lists another host's MAC address", () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 1);
        addWorker(infraEnv, 1, {
          networkConfig: {
            interfaces: [
              { name: 'eno1', macAddress: 'aa:bb:cc:00:00:01' },
              { name: 'eno2', macAddress: 'AA:BB:CC:00:00:00' },
            ],
            config: { interfaces: [{ name: 'eno1' }, { name: 'eno2' }] },
          },
        });
      }),
    ).toEqual(['hub/lab/worker-1: interface MAC address ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test("fails when an NMStateConfig of its own lists a host's MAC address", () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 1);
        new NMStateConfig(infraEnv, 'static-0', { infraEnv, interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:00:00' }], config: { interfaces: [{ name: 'eno1' }] } });
      }),
    ).toEqual(['hub/lab/static-0: interface MAC address ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own']);
  });

  test('fails when two NMStateConfigs of their own list one MAC address', () => {
    expect(
      synthProblems((app) => {
        const { infraEnv } = lab(app, 0);
        new NMStateConfig(infraEnv, 'static-0', { infraEnv, interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:00:a0' }], config: {} });
        new NMStateConfig(infraEnv, 'static-1', { infraEnv, interfaces: [{ name: 'eno1', macAddress: 'AA:BB:CC:00:00:A0' }], config: {} });
      }),
    ).toEqual(['hub/lab/static-1: interface MAC address ("aa:bb:cc:00:00:a0") is also used by hub/lab/static-0; every host needs its own']);
  });
});

describe('NodePool capacity', () => {
  test('passes when the selector matches at least replicas declared hosts', () => {
    expect(poolProblems({ replicas: 3 })).toEqual([]);
  });

  test('passes with the default pool (2 replicas, any Agent)', () => {
    expect(poolProblems({})).toEqual([]);
  });

  test('fails when the selector matches no declared host', () => {
    expect(poolProblems({ replicas: 1, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'gpu' } }) })).toEqual([
      'hub/one/workers: the agent selector (hcp.example.com/pool=gpu) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
    ]);
  });

  test('fails when an InfraEnv agent label has another value than the selector wants', () => {
    expect(poolProblems({ replicas: 1, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'gpu' } }) }, { 'hcp.example.com/pool': 'vcluster2' })).toEqual([
      'hub/one/workers: the agent selector (hcp.example.com/pool=gpu) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
    ]);
  });

  test('fails when replicas are more than the declared hosts', () => {
    expect(poolProblems({ replicas: 4 })).toEqual([
      'hub/one/workers: replicas (4) is more than the 3 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (worker-0, worker-1, worker-2)',
    ]);
  });

  test('fails when replicas are more than the hosts the selector matches', () => {
    expect(poolProblems(selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-0', 'worker-1'] }], 3))).toEqual([
      'hub/one/workers: replicas (3) is more than the 2 BareMetalHosts in namespace hardware-inventory its agent selector (agent-install.openshift.io/bmh In (worker-0, worker-1)) matches (worker-0, worker-1)',
    ]);
  });

  test('matchLabels and matchExpressions must both hold', () => {
    expect(
      poolProblems(
        {
          replicas: 2,
          platform: NodePoolPlatform.agent({
            matchLabels: { 'hcp.example.com/pool': 'vcluster2' },
            matchExpressions: [{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-0'] }],
          }),
        },
        { 'hcp.example.com/pool': 'vcluster2' },
      ),
    ).toEqual([
      'hub/one/workers: replicas (2) is more than the 1 BareMetalHosts in namespace hardware-inventory its agent selector (hcp.example.com/pool=vcluster2, agent-install.openshift.io/bmh In (worker-0)) matches (worker-0)',
    ]);
  });

  describe('selectors', () => {
    test('passes when matchLabels select the InfraEnv agent labels', () => {
      expect(poolProblems({ replicas: 3, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'vcluster2' } }) }, { 'hcp.example.com/pool': 'vcluster2' })).toEqual([]);
    });

    test('passes when matchLabels select the InfraEnv label', () => {
      expect(poolProblems({ replicas: 3, platform: NodePoolPlatform.agent({ matchLabels: { 'infraenvs.agent-install.openshift.io': 'lab' } }) })).toEqual([]);
    });

    test('passes when matchLabels select one host by its bmh label', () => {
      expect(poolProblems({ replicas: 1, platform: NodePoolPlatform.agent({ matchLabels: { [BMH]: 'worker-2' } }) })).toEqual([]);
    });

    test.each([
      ['In', selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-0', 'worker-1'] }], 2)],
      ['NotIn', selecting([{ key: BMH, operator: LabelSelectorOperator.NOT_IN, values: ['worker-2'] }], 2)],
      ['Exists', selecting([{ key: BMH, operator: LabelSelectorOperator.EXISTS }], 3)],
      ['DoesNotExist (on another key)', selecting([{ key: 'hcp.example.com/retired', operator: LabelSelectorOperator.DOES_NOT_EXIST }], 3)],
      ['NotIn (on a key the hosts lack)', selecting([{ key: 'hcp.example.com/pool', operator: LabelSelectorOperator.NOT_IN, values: ['gpu'] }], 3)],
    ])('passes when matchExpressions use %s on agent labels', (_operator, options) => {
      expect(poolProblems(options)).toEqual([]);
    });

    test('fails when NotIn excludes every host', () => {
      expect(poolProblems(selecting([{ key: BMH, operator: LabelSelectorOperator.NOT_IN, values: ['worker-0', 'worker-1', 'worker-2'] }], 1))).toEqual([
        'hub/one/workers: the agent selector (agent-install.openshift.io/bmh NotIn (worker-0, worker-1, worker-2)) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
      ]);
    });

    test('fails when DoesNotExist is on the bmh label every declared host has', () => {
      expect(poolProblems(selecting([{ key: BMH, operator: LabelSelectorOperator.DOES_NOT_EXIST }], 1))).toEqual([
        'hub/one/workers: the agent selector (agent-install.openshift.io/bmh DoesNotExist) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
      ]);
    });

    test('fails when Exists is on a label no declared host has', () => {
      expect(poolProblems(selecting([{ key: 'hcp.example.com/gpu', operator: LabelSelectorOperator.EXISTS }], 1))).toEqual([
        'hub/one/workers: the agent selector (hcp.example.com/gpu Exists) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
      ]);
    });
  });

  describe('pools sharing an inventory', () => {
    test('fail when each fits but together they want more hosts than their selectors match', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          const cluster = agentCluster(hub, 'one');
          cluster.addNodePool('a', selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-0', 'worker-1'] }], 2));
          cluster.addNodePool('b', selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-1', 'worker-2'] }], 2));
        }),
      ).toEqual([
        'hub/one/a: the Agent NodePools drawing on namespace hardware-inventory (hub/one/a: 2, hub/one/b: 2) want 4 hosts together, but their selectors let at most 3 of the BareMetalHosts serve them at once',
      ]);
    });

    test('fail across hosted clusters with the same agent namespace', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          agentCluster(hub, 'one').addNodePool('workers', { replicas: 2 });
          agentCluster(hub, 'two').addNodePool('workers', { replicas: 2 });
        }),
      ).toEqual([
        'hub/one/workers: the Agent NodePools drawing on namespace hardware-inventory (hub/one/workers: 2, hub/two/workers: 2) want 4 hosts together, but their selectors let at most 3 of the BareMetalHosts serve them at once',
      ]);
    });

    test('pass when together they fit', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          const cluster = agentCluster(hub, 'one');
          cluster.addNodePool('a', selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-0', 'worker-1'] }], 1));
          cluster.addNodePool('b', selecting([{ key: BMH, operator: LabelSelectorOperator.IN, values: ['worker-1', 'worker-2'] }], 2));
        }),
      ).toEqual([]);
    });

    test('a pool matching no host is reported once, and not counted with the others', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          const cluster = agentCluster(hub, 'one');
          cluster.addNodePool('a', { replicas: 3 });
          cluster.addNodePool('b', { replicas: 2, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'gpu' } }) });
        }),
      ).toEqual([
        'hub/one/b: the agent selector (hcp.example.com/pool=gpu) matches none of the 3 BareMetalHosts in namespace hardware-inventory (worker-0, worker-1, worker-2); the pool would wait for Agents forever',
      ]);
    });
  });

  describe('autoscaling pools', () => {
    test('pass when the hosts cover autoScaling.min, however large max is', () => {
      expect(poolProblems({ autoScaling: { min: 3, max: 10 } })).toEqual([]);
    });

    test('fail when autoScaling.min is more than the hosts the selector matches', () => {
      expect(poolProblems({ autoScaling: { min: 4, max: 10 } })).toEqual([
        'hub/one/workers: autoScaling.min (4) is more than the 3 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (worker-0, worker-1, worker-2)',
      ]);
    });

    test('count with autoScaling.min among pools sharing an inventory', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          const cluster = agentCluster(hub, 'one');
          cluster.addNodePool('a', { autoScaling: { min: 1, max: 3 } });
          cluster.addNodePool('b', { replicas: 2 });
        }),
      ).toEqual([]);
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          const cluster = agentCluster(hub, 'one');
          cluster.addNodePool('a', { autoScaling: { min: 2, max: 3 } });
          cluster.addNodePool('b', { replicas: 2 });
        }),
      ).toEqual([
        'hub/one/a: the Agent NodePools drawing on namespace hardware-inventory (hub/one/a: 2, hub/one/b: 2) want 4 hosts together, but their selectors let at most 3 of the BareMetalHosts serve them at once',
      ]);
    });
  });

  describe('no check without declared hosts', () => {
    test("when the cluster's agent namespace has no BareMetalHosts (hosts booted from the ISO by hand)", () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 3);
          agentCluster(hub, 'one', 'other-inventory').addNodePool('workers', { replicas: 5 });
        }),
      ).toEqual([]);
    });

    test('when the InfraEnv in the agent namespace has no hosts', () => {
      expect(
        synthProblems((app) => {
          const { hub } = lab(app, 0);
          agentCluster(hub, 'one').addNodePool('workers', { replicas: 5, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'gpu' } }) });
        }),
      ).toEqual([]);
    });

    test('when the app has no InfraEnv at all', () => {
      expect(
        synthProblems((app) => {
          agentCluster(new ManagementCluster(app, 'hub'), 'one').addNodePool('workers', { replicas: 5 });
        }),
      ).toEqual([]);
    });
  });

  test("counts only the hosts in the cluster's agent namespace", () => {
    expect(
      synthProblems((app) => {
        const { hub } = lab(app, 1);
        const other = new InfraEnv(hub, 'edge', { namespace: 'edge-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret') });
        other.addHost('edge-0', { bmc: bmc('ipmi://198.51.100.7'), bootMacAddress: 'aa:bb:cc:00:01:00' });
        other.addHost('edge-1', { bmc: bmc('ipmi://198.51.100.8'), bootMacAddress: 'aa:bb:cc:00:01:01' });
        agentCluster(hub, 'one').addNodePool('workers', { replicas: 2 });
      }),
    ).toEqual(['hub/one/workers: replicas (2) is more than the 1 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (worker-0)']);
  });

  test('reports duplicate hardware and pool capacity together, with the other problems of the app', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const { hub, infraEnv } = lab(app, 1);
    addWorker(infraEnv, 1, { bootMacAddress: 'aa:bb:cc:00:00:00' });
    agentCluster(hub, 'one').addNodePool('workers', { replicas: 3 });
    expect(() => synthFiles(app)).toThrow(
      [
        '2 problems:',
        '  - hub/lab/worker-1: bootMacAddress ("aa:bb:cc:00:00:00") is also used by hub/lab/worker-0; every host needs its own',
        '  - hub/one/workers: replicas (3) is more than the 2 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (worker-0, worker-1)',
      ].join('\n'),
    );
  });
});

describe('checks found missing in review', () => {
  test('fails when two InfraEnvs in one namespace would both write the pull-secret Secret; the Role is written once', () => {
    const inline = (auth: string) => SecretSource.fromInlineValue(`{"auths":{"${auth}":{}}}`, { allowSecretInOutput: true });
    const problems = synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      new InfraEnv(hub, 'x86', { namespace: 'hardware-inventory', pullSecret: inline('a') });
      new InfraEnv(hub, 'arm', { namespace: 'hardware-inventory', pullSecret: inline('b') });
    });
    expect(problems).toEqual([
      'hub/arm/PullSecret: is Secret hardware-inventory/pull-secret, which hub/x86/PullSecret also writes (hub/x86/20-secret-hardware-inventory_pull-secret.yaml); one cluster holds an object only once',
    ]);
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    new InfraEnv(hub, 'x86', { namespace: 'hardware-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret'), capiProviderRole: true });
    new InfraEnv(hub, 'arm', { namespace: 'hardware-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret'), capiProviderRole: true });
    expect(
      synthFiles(app)
        .filter((f) => /^kind: Role$/m.test(f.text))
        .map((f) => f.path),
    ).toEqual(['hub/10-role-hardware-inventory_capi-provider-role.yaml']);
  });

  test('hosts of another management cluster do not count for a pool', () => {
    const problems = synthProblems((app) => {
      lab(app, 3);
      const other = new ManagementCluster(app, 'other-hub');
      const infraEnv = new InfraEnv(other, 'lab', { namespace: 'hardware-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret') });
      infraEnv.addHost('spare', { bmc: bmc('ipmi://192.0.2.99'), bootMacAddress: 'aa:bb:cc:00:00:99' });
      agentCluster(other, 'one').addNodePool('workers', { replicas: 2 });
    });
    expect(problems).toEqual(['other-hub/one/workers: replicas (2) is more than the 1 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (spare)']);
  });

  test('a NodePool made with new NodePool(...) rather than addNodePool is checked too', () => {
    const problems = synthProblems((app) => {
      const { hub } = lab(app, 1);
      const cluster = agentCluster(hub, 'one');
      new NodePool(hub, 'gpu', { cluster, replicas: 5, platform: NodePoolPlatform.agent() });
    });
    expect(problems).toEqual(['hub/gpu: replicas (5) is more than the 1 BareMetalHosts in namespace hardware-inventory its agent selector (any Agent) matches (worker-0)']);
  });

  test('fails when pools that fit in total still compete for the same host', () => {
    const problems = synthProblems((app) => {
      const { hub } = lab(app, 3);
      const cluster = agentCluster(hub, 'one');
      cluster.addNodePool('any', { replicas: 1 });
      cluster.addNodePool('b', { replicas: 1, platform: NodePoolPlatform.agent({ matchLabels: { [BMH]: 'worker-1' } }) });
      cluster.addNodePool('c', { replicas: 1, platform: NodePoolPlatform.agent({ matchLabels: { [BMH]: 'worker-1' } }) });
    });
    expect(problems).toEqual([
      'hub/one/any: the Agent NodePools drawing on namespace hardware-inventory (hub/one/any: 1, hub/one/b: 1, hub/one/c: 1) want 3 hosts together, but their selectors let at most 2 of the BareMetalHosts serve them at once',
    ]);
  });

  test('a pool of zero whose selector matches no host is fine: it waits for nothing', () => {
    expect(poolProblems({ replicas: 0, platform: NodePoolPlatform.agent({ matchLabels: { 'hcp.example.com/pool': 'gpu' } }) })).toEqual([]);
  });

  test('IPv6 BMC hosts are compared as addresses: [FD00::1] and [fd00:0::1] are one BMC, [fd00::1]:623 and [fd00::1:623] two', () => {
    const problems = synthProblems((app) => {
      const { infraEnv } = lab(app, 0);
      infraEnv.addHost('a', { bmc: bmc('ipmi://[FD00::1]'), bootMacAddress: 'aa:bb:cc:00:01:01' });
      infraEnv.addHost('b', { bmc: bmc('ipmi://[fd00:0::1]'), bootMacAddress: 'aa:bb:cc:00:01:02' });
      infraEnv.addHost('c', { bmc: bmc('ipmi://[fd00::1]:623'), bootMacAddress: 'aa:bb:cc:00:01:03' });
      infraEnv.addHost('d', { bmc: bmc('ipmi://[fd00::1:623]'), bootMacAddress: 'aa:bb:cc:00:01:04' });
    });
    expect(problems).toEqual(['hub/lab/b: bmc.address (endpoint "[fd00::1]") is also used by hub/lab/a; every host needs its own']);
  });
});
