import { JsonPatch } from 'cdk8s';
import {
  BmcCredentials,
  ClusterPlatform,
  ControlPlaneService,
  InfraEnv,
  HcpApp,
  HostedCluster,
  HostedClusterProps,
  ManagementCluster,
  MetalLBAdvertisement,
  MetalLBIngress,
  Release,
  routeTogether,
  ServicePublishing,
  SecretSource,
} from '../../lib';
import { synthProblems } from '../util';

const LAB_NETWORK = ['192.168.122.0/24'];
const NAME_RULE = "on the same management cluster; a hosted cluster's name must be unique in its namespace";
const INFRA_ID_RULE = 'infra IDs name cloud resources and DNS records, so every hosted cluster of the app needs its own (set infraId)';
const NODE_PORT_RULE = 'a node port is allocated once per management cluster whatever the address, so pick another port or leave it out for Kubernetes to assign one';
const POOL_RULE = 'MetalLB address pools on one network must be disjoint';
const ROUTED_RULE = 'which it is routed together with; clusters routed together need disjoint pod, service and machine networks';

function agentCluster(scope: ManagementCluster, id: string, props: Partial<HostedClusterProps> = {}): HostedCluster {
  return new HostedCluster(scope, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    ...props,
  });
}

/** A cluster on the lab's node network, publishing its API server at a fixed node port. */
function apiAt(scope: ManagementCluster, id: string, address: string, port?: number): HostedCluster {
  return agentCluster(scope, id, { services: { [ControlPlaneService.API_SERVER]: ServicePublishing.nodePort({ address, port }) } });
}

/** A cluster on the lab network with a MetalLB ingress on `addresses`. */
function ingressCluster(scope: ManagementCluster, id: string, addresses: string[], machineNetwork = LAB_NETWORK, props: Partial<HostedClusterProps> = {}): HostedCluster {
  const cluster = agentCluster(scope, id, { networking: { machineNetwork }, ...props });
  new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses });
  return cluster;
}

/** A second pool in the same guest; its Service and operator are renamed or left out so that the two can be written. */
function secondIngress(cluster: HostedCluster, addresses: string[]): MetalLBIngress {
  const ingress = new MetalLBIngress(cluster.guest, 'second', { cluster, addresses, poolName: 'second', installOperator: false });
  ingress.service.addJsonPatch(JsonPatch.replace('/metadata/name', 'metallb-ingress-second'));
  return ingress;
}

describe('hosted cluster names and infra IDs', () => {
  test('fails when two clusters share a name in one namespace of one management cluster', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        agentCluster(hub, 'a', { name: 'dev' });
        agentCluster(hub, 'b', { name: 'dev', infraId: 'dev-b' });
      }),
    ).toEqual([`hub/b: name ("dev") in namespace "clusters" is also used by hub/a ${NAME_RULE}`]);
  });

  test('passes when the names are in different namespaces or on different management clusters', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        agentCluster(hub, 'a', { name: 'dev' });
        agentCluster(hub, 'b', { name: 'dev', namespace: 'team-b', infraId: 'dev-b' });
        agentCluster(new ManagementCluster(app, 'lab'), 'c', { name: 'dev', infraId: 'dev-c' });
      }),
    ).toEqual([]);
  });

  test('fails when two clusters anywhere in the app share an infra ID, given or defaulted to the name', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        const lab = new ManagementCluster(app, 'lab');
        agentCluster(hub, 'dev');
        agentCluster(lab, 'dev');
        agentCluster(hub, 'prod', { infraId: 'shared' });
        agentCluster(lab, 'stage', { infraId: 'shared' });
      }),
    ).toEqual([`lab/dev: infraId ("dev") is also used by hub/dev; ${INFRA_ID_RULE}`, `lab/stage: infraId ("shared") is also used by hub/prod; ${INFRA_ID_RULE}`]);
  });
});

describe('node ports', () => {
  test('fails when two clusters publish the API server at one explicit node port of one management cluster', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        apiAt(hub, 'a', '192.0.2.10', 30443);
        apiAt(hub, 'b', '192.0.2.10', 30443);
      }),
    ).toEqual([`hub/b: services.APIServer.nodePort (192.0.2.10:30443) collides with services.APIServer.nodePort (192.0.2.10:30443) of hub/a; ${NODE_PORT_RULE}`]);
  });

  test('fails when the port is the same at another address, or taken by another service, or set later with publishService', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        apiAt(hub, 'a', '192.0.2.10', 30443);
        apiAt(hub, 'b', 'fd00::10', 30443);
        apiAt(hub, 'c', '192.0.2.12').publishService(ControlPlaneService.OAUTH_SERVER, ServicePublishing.nodePort({ address: '192.0.2.12', port: 30443 }));
      }),
    ).toEqual([
      `hub/b: services.APIServer.nodePort ([fd00::10]:30443) collides with services.APIServer.nodePort (192.0.2.10:30443) of hub/a; ${NODE_PORT_RULE}`,
      `hub/c: services.OAuthServer.nodePort (192.0.2.12:30443) collides with services.APIServer.nodePort (192.0.2.10:30443) of hub/a; ${NODE_PORT_RULE}`,
    ]);
  });

  test('passes when the ports differ, are left to Kubernetes, or are on different management clusters', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        apiAt(hub, 'a', '192.0.2.10', 30443);
        apiAt(hub, 'b', '192.0.2.10', 30444);
        apiAt(hub, 'c', '192.0.2.10');
        apiAt(hub, 'd', '192.0.2.10');
        apiAt(new ManagementCluster(app, 'lab'), 'e', '192.0.2.10', 30443);
      }),
    ).toEqual([]);
  });
});

describe('MetalLB address pools', () => {
  test('fails when two pools of one hosted cluster overlap', () => {
    expect(
      synthProblems((app) => {
        const cluster = ingressCluster(new ManagementCluster(app, 'hub'), 'a', ['192.168.122.20-192.168.122.30']);
        secondIngress(cluster, ['192.168.122.25', '192.168.122.32/30']);
      }),
    ).toEqual([`a-guest/second: addresses[0] ("192.168.122.25") overlaps addresses[0] ("192.168.122.20-192.168.122.30") of a-guest/ingress in the same hosted cluster; ${POOL_RULE}`]);
  });

  test('fails when pools of two clusters on one machine network of one management cluster overlap', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        ingressCluster(hub, 'a', ['192.168.122.20-192.168.122.40']);
        ingressCluster(hub, 'b', ['192.168.122.30', '192.168.122.32/28'], ['192.168.122.0/25']);
      }),
    ).toEqual([
      `b-guest/ingress: addresses[0] ("192.168.122.30") overlaps addresses[0] ("192.168.122.20-192.168.122.40") of a-guest/ingress ` +
        `(hub/a and hub/b share overlapping machine networks "192.168.122.0/24" and "192.168.122.0/25"); ${POOL_RULE}`,
      `b-guest/ingress: addresses[1] ("192.168.122.32/28") overlaps addresses[0] ("192.168.122.20-192.168.122.40") of a-guest/ingress ` +
        `(hub/a and hub/b share overlapping machine networks "192.168.122.0/24" and "192.168.122.0/25"); ${POOL_RULE}`,
    ]);
  });

  test('finds the cluster of a guest when another management cluster has a cluster of the same name', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        agentCluster(new ManagementCluster(app, 'lab'), 'dev', { networking: { machineNetwork: ['10.0.0.0/24'] } });
        ingressCluster(hub, 'dev', ['192.168.122.20'], LAB_NETWORK, { infraId: 'dev-hub' });
        ingressCluster(hub, 'test', ['192.168.122.20']);
      }),
    ).toEqual([
      `test-guest/ingress: addresses[0] ("192.168.122.20") overlaps addresses[0] ("192.168.122.20") of dev-guest/ingress (hub/dev and hub/test share machine network "192.168.122.0/24"); ${POOL_RULE}`,
    ]);
  });

  test('passes when pools on one network are disjoint', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        secondIngress(ingressCluster(hub, 'a', ['192.168.122.20-192.168.122.29']), ['192.168.122.30']);
        ingressCluster(hub, 'b', ['192.168.122.31', '192.168.122.32/28']);
      }),
    ).toEqual([]);
  });

  test('passes when overlapping pools are on different management clusters or networks', () => {
    const peers = [{ address: '192.168.1.1', asn: 64501, myAsn: 64500 }];
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        ingressCluster(hub, 'a', ['192.168.122.20']);
        ingressCluster(new ManagementCluster(app, 'lab'), 'b', ['192.168.122.20']);
        // BGP pools lie outside the machine network; these two clusters' nodes are on different networks.
        for (const [id, machineNetwork] of [
          ['c', '10.0.1.0/24'],
          ['d', '10.0.2.0/24'],
        ]) {
          const cluster = agentCluster(hub, id, { networking: { machineNetwork: [machineNetwork] } });
          new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['198.51.100.0/28'], advertisement: MetalLBAdvertisement.bgp({ peers }) });
        }
      }),
    ).toEqual([]);
  });
});

describe("MetalLB pools and the nodes' own addresses", () => {
  /** An inventory on the lab network whose host worker-0 has the static address 192.168.122.31. */
  function inventory(hub: ManagementCluster): void {
    new InfraEnv(hub, 'lab', { namespace: 'agents', pullSecret: SecretSource.fromExistingSecret('pull-secret') }).addHost('worker-0', {
      bmc: { address: 'ipmi://192.0.2.200', credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') },
      bootMacAddress: 'aa:bb:cc:00:11:22',
      networkConfig: {
        interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }],
        config: { interfaces: [{ name: 'eno1', type: 'ethernet', state: 'up', ipv4: { enabled: true, dhcp: false, address: [{ ip: '192.168.122.31', 'prefix-length': 24 }] } }] },
      },
    });
  }

  test("fails when a pool covers the static address of a host on the cluster's machine network", () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        inventory(hub);
        ingressCluster(hub, 'a', ['192.168.122.30-192.168.122.40']);
      }),
    ).toEqual([
      'a-guest/ingress: addresses[0] ("192.168.122.30-192.168.122.40") covers 192.168.122.31, the static address of eno1 in hub/lab/worker-0/NetworkConfig; a MetalLB pool must not hand out a node\'s own address',
    ]);
  });

  test("passes when the pool leaves the hosts' addresses alone, or the hosts are on another network", () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        inventory(hub);
        ingressCluster(hub, 'a', ['192.168.122.32-192.168.122.40']);
        ingressCluster(hub, 'b', ['192.168.50.31'], ['192.168.50.0/24']);
      }),
    ).toEqual([]);
  });
});

describe('routeTogether', () => {
  test('fails when networks of clusters routed together overlap', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        const a = agentCluster(hub, 'a', { networking: { machineNetwork: ['10.0.0.0/16'] } });
        const b = agentCluster(hub, 'b', { networking: { clusterNetwork: ['10.134.0.0/15'], serviceNetwork: ['10.0.5.0/24'], machineNetwork: ['10.0.0.0/24'] } });
        routeTogether(a, b);
      }),
    ).toEqual([
      `hub/b: networking.clusterNetwork[0] ("10.134.0.0/15") overlaps networking.clusterNetwork[0] ("10.132.0.0/14") of hub/a, ${ROUTED_RULE}`,
      `hub/b: networking.serviceNetwork[0] ("10.0.5.0/24") overlaps networking.machineNetwork[0] ("10.0.0.0/16") of hub/a, ${ROUTED_RULE}`,
      `hub/b: networking.machineNetwork[0] ("10.0.0.0/24") overlaps networking.machineNetwork[0] ("10.0.0.0/16") of hub/a, ${ROUTED_RULE}`,
    ]);
  });

  test('reports a pair once, across management clusters and groups', () => {
    expect(
      synthProblems((app) => {
        const a = agentCluster(new ManagementCluster(app, 'hub'), 'a');
        const b = agentCluster(new ManagementCluster(app, 'lab'), 'b', { networking: { clusterNetwork: ['10.200.0.0/14'] } });
        const c = agentCluster(new ManagementCluster(app, 'edge'), 'c', { networking: { clusterNetwork: ['10.204.0.0/14'], serviceNetwork: ['172.30.0.0/16'] } });
        routeTogether(a, b);
        routeTogether(b, a, c);
      }),
    ).toEqual([`lab/b: networking.serviceNetwork[0] ("172.31.0.0/16") overlaps networking.serviceNetwork[0] ("172.31.0.0/16") of hub/a, ${ROUTED_RULE}`]);
  });

  test('passes when routed clusters are disjoint and share one machine network exactly', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        routeTogether(
          agentCluster(hub, 'a', { networking: { machineNetwork: LAB_NETWORK } }),
          agentCluster(hub, 'b', { networking: { machineNetwork: LAB_NETWORK, clusterNetwork: ['10.136.0.0/14'], serviceNetwork: ['172.30.0.0/16'] } }),
        );
      }),
    ).toEqual([]);
  });

  test('passes when overlapping networks are not declared routed together', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        agentCluster(hub, 'a');
        agentCluster(hub, 'b');
      }),
    ).toEqual([]);
  });

  test('throws for clusters of different apps', () => {
    const a = agentCluster(new ManagementCluster(new HcpApp({ outdir: '/nonexistent' }), 'hub'), 'a');
    const b = agentCluster(new ManagementCluster(new HcpApp({ outdir: '/nonexistent' }), 'lab'), 'b');
    expect(() => routeTogether(a, b)).toThrow('lab/b: routeTogether needs hosted clusters of one app, and it is not in the app of hub/a');
  });
});

test('reports the problems of every invariant at once', () => {
  expect(
    synthProblems((app) => {
      const hub = new ManagementCluster(app, 'hub');
      agentCluster(hub, 'one', { name: 'dev', infraId: 'dev-one' });
      agentCluster(hub, 'two', { name: 'dev', infraId: 'dev-two' });
      agentCluster(new ManagementCluster(app, 'lab'), 'prod', { infraId: 'dev-one' });
      apiAt(hub, 'api-a', '192.0.2.10', 30443);
      apiAt(hub, 'api-b', '192.0.2.10', 30443);
      const a = ingressCluster(hub, 'pool-a', ['192.168.122.20']);
      const b = ingressCluster(hub, 'pool-b', ['192.168.122.20']);
      routeTogether(a, b);
    }),
  ).toEqual([
    `hub/two: name ("dev") in namespace "clusters" is also used by hub/one ${NAME_RULE}`,
    `lab/prod: infraId ("dev-one") is also used by hub/one; ${INFRA_ID_RULE}`,
    `hub/api-b: services.APIServer.nodePort (192.0.2.10:30443) collides with services.APIServer.nodePort (192.0.2.10:30443) of hub/api-a; ${NODE_PORT_RULE}`,
    `pool-b-guest/ingress: addresses[0] ("192.168.122.20") overlaps addresses[0] ("192.168.122.20") of pool-a-guest/ingress (hub/pool-a and hub/pool-b share machine network "192.168.122.0/24"); ${POOL_RULE}`,
    `hub/pool-b: networking.clusterNetwork[0] ("10.132.0.0/14") overlaps networking.clusterNetwork[0] ("10.132.0.0/14") of hub/pool-a, ${ROUTED_RULE}`,
    `hub/pool-b: networking.serviceNetwork[0] ("172.31.0.0/16") overlaps networking.serviceNetwork[0] ("172.31.0.0/16") of hub/pool-a, ${ROUTED_RULE}`,
  ]);
});
