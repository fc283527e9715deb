import { ApiObject, JsonPatch } from 'cdk8s';
import { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, MetalLBAdvertisement, MetalLBIngress, MetalLBIngressProps, NetworkingProps, Release, SecretSource } from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems } from '../util';

const PATH = 'vcluster2-guest/ingress';
const LAB_NETWORK: NetworkingProps = { machineNetwork: ['192.168.122.0/24'] };
const SKIP_DRY_RUN = { 'argocd.argoproj.io/sync-options': 'SkipDryRunOnMissingResource=true' };
const BGP_PEER = { address: '192.168.122.1', asn: 64501, myAsn: 64500 };

function agentCluster(app: HcpApp, networking: NetworkingProps = LAB_NETWORK): HostedCluster {
  return new HostedCluster(new ManagementCluster(app, 'hub'), 'vcluster2', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    networking,
  });
}

/** The ingress of the agent lab: one address on the node subnet, announced over layer 2. */
function newIngress(props: Partial<MetalLBIngressProps> = {}, networking?: NetworkingProps, app = new HcpApp({ outdir: '/nonexistent' })): MetalLBIngress {
  const cluster = agentCluster(app, networking);
  return new MetalLBIngress(cluster.guest, 'ingress', { cluster, addresses: ['192.168.122.23'], ...props });
}

/** The objects of the guest folder, parsed from the files synth writes. */
function guestObjects(props: Partial<MetalLBIngressProps> = {}, networking?: NetworkingProps): any[] {
  const ingress = newIngress(props, networking);
  return synthObjects(ingress.node.root as HcpApp).filter((o) => o.kind !== 'HostedCluster' && o.metadata.name !== 'clusters');
}

function problems(props: Partial<MetalLBIngressProps>, networking?: NetworkingProps): string[] {
  return synthProblems((app) => newIngress(props, networking, app));
}

function bgp(peers = [BGP_PEER]): MetalLBAdvertisement {
  return MetalLBAdvertisement.bgp({ peers });
}

describe('MetalLBIngress', () => {
  describe('operator', () => {
    test('gets namespace metallb, labelled for cluster monitoring and allowed management workloads', () => {
      const namespace = findObject(guestObjects(), 'Namespace', 'metallb');
      expect(namespace.apiVersion).toBe('v1');
      expect(namespace.metadata.labels).toEqual({ 'openshift.io/cluster-monitoring': 'true' });
      expect(namespace.metadata.annotations['workload.openshift.io/allowed']).toBe('management');
    });

    test('is installed by an OperatorGroup and a Subscription in that namespace', () => {
      const objects = guestObjects();
      const group = findObject(objects, 'OperatorGroup');
      expect(group.apiVersion).toBe('operators.coreos.com/v1');
      expect(group.metadata).toMatchObject({ name: 'metallb-operator-operatorgroup', namespace: 'metallb' });
      expect(group).not.toHaveProperty('spec');
      const subscription = findObject(objects, 'Subscription');
      expect(subscription.apiVersion).toBe('operators.coreos.com/v1alpha1');
      expect(subscription.metadata).toMatchObject({ name: 'metallb-operator', namespace: 'metallb' });
      expect(subscription.spec).toEqual({ channel: 'stable', name: 'metallb-operator', source: 'redhat-operators', sourceNamespace: 'openshift-marketplace' });
    });

    test('takes the channel and catalog source from props', () => {
      const subscription = findObject(guestObjects({ channel: 'stable-4.17', catalogSource: 'mirror-operators', catalogSourceNamespace: 'mirror' }), 'Subscription');
      expect(subscription.spec).toEqual({ channel: 'stable-4.17', name: 'metallb-operator', source: 'mirror-operators', sourceNamespace: 'mirror' });
    });

    test('runs one MetalLB instance named metallb beside it', () => {
      const metallb = findObject(guestObjects(), 'MetalLB');
      expect(metallb.apiVersion).toBe('metallb.io/v1beta1');
      expect(metallb.metadata).toMatchObject({ name: 'metallb', namespace: 'metallb' });
      expect(metallb).not.toHaveProperty('spec');
    });

    test('is left out, with its namespace, when installOperator is false', () => {
      const kinds = guestObjects({ installOperator: false, namespace: 'metallb-system' }).map((o) => `${o.kind} ${o.metadata.namespace}`);
      expect(kinds).toEqual(['IPAddressPool metallb-system', 'L2Advertisement metallb-system', 'Service openshift-ingress']);
    });
  });

  describe('address pool', () => {
    test('is ingress-public-ip, not auto-assigned, with a single address written as a range and no protocol field', () => {
      const pool = findObject(guestObjects(), 'IPAddressPool');
      expect(pool.apiVersion).toBe('metallb.io/v1beta1');
      expect(pool.metadata).toMatchObject({ name: 'ingress-public-ip', namespace: 'metallb' });
      expect(pool.spec).toEqual({ addresses: ['192.168.122.23-192.168.122.23'], autoAssign: false });
    });

    test('keeps ranges, CIDR blocks and IPv6 as given', () => {
      const pool = findObject(
        guestObjects({ addresses: ['192.168.122.100-192.168.122.110', '192.168.122.128/28', 'fd00:122::23'] }, { dualStack: true, machineNetwork: ['192.168.122.0/24', 'fd00:122::/64'] }),
        'IPAddressPool',
      );
      expect(pool.spec.addresses).toEqual(['192.168.122.100-192.168.122.110', '192.168.122.128/28', 'fd00:122::23-fd00:122::23']);
    });

    test('takes its name, namespace and autoAssign from props', () => {
      const objects = guestObjects({ poolName: 'vcluster2-apps', namespace: 'metallb-system', autoAssign: true });
      const pool = findObject(objects, 'IPAddressPool');
      expect(pool.metadata).toMatchObject({ name: 'vcluster2-apps', namespace: 'metallb-system' });
      expect(pool.spec.autoAssign).toBe(true);
      expect(objects.filter((o) => o.metadata.namespace !== 'openshift-ingress').map((o) => o.metadata.namespace ?? o.metadata.name)).toEqual([
        'metallb-system',
        'metallb-system',
        'metallb-system',
        'metallb-system',
        'metallb-system',
        'metallb-system',
      ]);
      expect(findObject(objects, 'Service').metadata.annotations['metallb.universe.tf/address-pool']).toBe('vcluster2-apps');
    });

    test('exposes the pool name, the addresses as written to the pool, and the Service name', () => {
      const ingress = newIngress({ addresses: ['192.168.122.23', '192.168.122.30-192.168.122.31'] });
      expect(ingress.poolName).toBe('ingress-public-ip');
      expect(ingress.addresses).toEqual(['192.168.122.23-192.168.122.23', '192.168.122.30-192.168.122.31']);
      expect(ingress.serviceName).toBe('metallb-ingress');
      expect(ingress.namespace).toBe('metallb');
    });

    test('accepts any address when the cluster declares no machine network', () => {
      const pool = findObject(guestObjects({ addresses: ['203.0.113.7'] }, {}), 'IPAddressPool');
      expect(pool.spec.addresses).toEqual(['203.0.113.7-203.0.113.7']);
    });
  });

  describe('advertisement', () => {
    test('is an L2Advertisement of the pool by default', () => {
      const objects = guestObjects();
      const advertisement = findObject(objects, 'L2Advertisement');
      expect(advertisement.apiVersion).toBe('metallb.io/v1beta1');
      expect(advertisement.metadata).toMatchObject({ name: 'ingress-public-ip', namespace: 'metallb' });
      expect(advertisement.spec).toEqual({ ipAddressPools: ['ingress-public-ip'] });
      expect(objects.filter((o) => o.kind === 'BGPAdvertisement' || o.kind === 'BGPPeer')).toEqual([]);
    });

    test('answers on the given interfaces only', () => {
      const advertisement = findObject(guestObjects({ advertisement: MetalLBAdvertisement.layer2({ interfaces: ['enp1s0'] }) }), 'L2Advertisement');
      expect(advertisement.spec).toEqual({ ipAddressPools: ['ingress-public-ip'], interfaces: ['enp1s0'] });
    });

    test('with bgp() is a BGPPeer per router and a BGPAdvertisement limited to them', () => {
      const objects = guestObjects({
        addresses: ['192.0.2.100-192.0.2.110'],
        advertisement: MetalLBAdvertisement.bgp({
          peers: [
            { ...BGP_PEER, name: 'tor-a' },
            { address: 'fd00:122::1', asn: 4200000000, myAsn: 64500 },
          ],
          localPref: 100,
        }),
      });
      const torA = findObject(objects, 'BGPPeer', 'tor-a');
      expect(torA.apiVersion).toBe('metallb.io/v1beta2');
      expect(torA.metadata.namespace).toBe('metallb');
      expect(torA.spec).toEqual({ peerAddress: '192.168.122.1', peerASN: 64501, myASN: 64500 });
      expect(findObject(objects, 'BGPPeer', 'ingress-public-ip-peer-1').spec).toEqual({ peerAddress: 'fd00:122::1', peerASN: 4200000000, myASN: 64500 });
      const advertisement = findObject(objects, 'BGPAdvertisement');
      expect(advertisement.apiVersion).toBe('metallb.io/v1beta1');
      expect(advertisement.metadata).toMatchObject({ name: 'ingress-public-ip', namespace: 'metallb' });
      expect(advertisement.spec).toEqual({ ipAddressPools: ['ingress-public-ip'], peers: ['tor-a', 'ingress-public-ip-peer-1'], localPref: 100 });
      expect(objects.filter((o) => o.kind === 'L2Advertisement')).toEqual([]);
    });
  });

  describe('Service', () => {
    test('is metallb-ingress in openshift-ingress: a LoadBalancer in front of the default router on 80 and 443, from the pool', () => {
      const service = findObject(guestObjects(), 'Service');
      expect(service.apiVersion).toBe('v1');
      expect(service.metadata.name).toBe('metallb-ingress');
      expect(service.metadata.namespace).toBe('openshift-ingress');
      expect(service.metadata.annotations['metallb.universe.tf/address-pool']).toBe('ingress-public-ip');
      expect(service.spec).toEqual({
        type: 'LoadBalancer',
        selector: { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' },
        ports: [
          { name: 'http', protocol: 'TCP', port: 80, targetPort: 80 },
          { name: 'https', protocol: 'TCP', port: 443, targetPort: 443 },
        ],
      });
    });
  });

  describe('output', () => {
    test('goes to <cluster>-guest/ in apply order: namespace, operator, instance, pool and peers, advertisement, Service', () => {
      const ingress = newIngress({ addresses: ['192.0.2.100-192.0.2.110'], advertisement: bgp() });
      const paths = synthFiles(ingress.node.root as HcpApp)
        .map((f) => f.path)
        .filter((p) => p.startsWith('vcluster2-guest/'));
      expect(paths).toEqual([
        'vcluster2-guest/00-namespace-metallb.yaml',
        'vcluster2-guest/02-operatorgroup-metallb_metallb-operator-operatorgroup.yaml',
        'vcluster2-guest/03-subscription-metallb_metallb-operator.yaml',
        'vcluster2-guest/30-metallb-metallb_metallb.yaml',
        'vcluster2-guest/31-bgppeer-metallb_ingress-public-ip-peer-0.yaml',
        'vcluster2-guest/31-ipaddresspool-metallb_ingress-public-ip.yaml',
        'vcluster2-guest/32-bgpadvertisement-metallb_ingress-public-ip.yaml',
        'vcluster2-guest/40-service-openshift-ingress_metallb-ingress.yaml',
      ]);
    });

    test('lets Argo CD skip the dry run of the MetalLB kinds, whose CRDs the operator installs in the same sync', () => {
      const objects = guestObjects({ addresses: ['192.0.2.100'], advertisement: bgp() });
      // (The Namespace's sync options are the prune protection of a guest's namespace.)
      const skipping = objects.filter((o) => o.kind !== 'Namespace' && o.metadata.annotations['argocd.argoproj.io/sync-options'] !== undefined);
      expect(skipping.map((o) => o.kind).sort()).toEqual(['BGPAdvertisement', 'BGPPeer', 'IPAddressPool', 'MetalLB']);
      expect(findObject(guestObjects(), 'L2Advertisement').metadata.annotations).toMatchObject(SKIP_DRY_RUN);
      for (const object of skipping) expect(object.metadata.annotations).toMatchObject(SKIP_DRY_RUN);
    });

    test.each<[string, Partial<MetalLBIngressProps>]>([
      ['layer 2', { advertisement: MetalLBAdvertisement.layer2({ interfaces: ['enp1s0'] }), autoAssign: true }],
      ['BGP', { addresses: ['192.0.2.100-192.0.2.110', '2001:db8::/120'], advertisement: MetalLBAdvertisement.bgp({ peers: [BGP_PEER], localPref: 100 }) }],
    ])('passes the CRD schemas and CEL rules in %s mode', (_mode, props) => {
      const ingress = newIngress(props);
      expect(() => (ingress.node.root as HcpApp).synthesize()).not.toThrow();
    });

    test("is checked against the CRDs: an escape hatch that restores the docs' protocol field fails synth", () => {
      const ingress = newIngress();
      ApiObject.of(ingress.resource).addJsonPatch(JsonPatch.add('/spec/protocol', 'layer2'));
      expect(() => (ingress.node.root as HcpApp).synthesize()).toThrow(`${PATH}/Resource: IPAddressPool metallb/ingress-public-ip: spec.protocol: unknown field "spec.protocol"`);
    });

    test('snapshot', () => {
      expect(guestObjects({ addresses: ['192.168.122.23', '192.168.122.40-192.168.122.49'] })).toMatchSnapshot();
    });
  });

  describe('fails when', () => {
    test.each(['192.0.2.300', 'ingress.example.com', '192.0.2.1-', '192.0.2.1-192.0.2.2-192.0.2.3', '10.0.0.0/33', 'fd00::1::2', ' 192.168.122.23'])('an address is malformed: %p', (address) => {
      expect(problems({ addresses: [address] })).toEqual([`${PATH}: addresses[0] (${JSON.stringify(address)}) must be an IPv4 or IPv6 address, a range "first-last" or a CIDR block`]);
    });

    test('a CIDR block has host bits set', () => {
      expect(problems({ addresses: ['192.168.122.23/24'] })).toEqual([
        `${PATH}: addresses[0] ("192.168.122.23/24") has host bits set; write it as 192.168.122.0/24, or as the single address without a prefix`,
      ]);
    });

    test('a range is reversed', () => {
      expect(problems({ addresses: ['192.168.122.110-192.168.122.100'] })).toEqual([
        `${PATH}: addresses[0] ("192.168.122.110-192.168.122.100") must start at or below its end: write "192.168.122.100-192.168.122.110"`,
      ]);
    });

    test('a range mixes IPv4 and IPv6', () => {
      expect(problems({ addresses: ['192.168.122.100-fd00::1'] })).toEqual([`${PATH}: addresses[0] ("192.168.122.100-fd00::1") must not mix IPv4 and IPv6: both ends of a range are of one family`]);
    });

    test('the address list is empty', () => {
      expect(problems({ addresses: [] })).toEqual([`${PATH}: addresses ([]) must list at least one address, range "first-last" or CIDR block`]);
    });

    test('an address overlaps the service network', () => {
      expect(problems({ addresses: ['172.31.0.10'] }, {})).toEqual([
        `${PATH}: addresses[0] ("172.31.0.10") overlaps networking.serviceNetwork[0] ("172.31.0.0/16") of cluster "vcluster2"; load-balancer addresses must lie outside the pod and service networks`,
      ]);
    });

    test('an address overlaps the cluster (pod) network', () => {
      expect(problems({ addresses: ['10.131.255.250-10.132.0.5', '10.134.0.0/16'] }, {})).toEqual([
        `${PATH}: addresses[0] ("10.131.255.250-10.132.0.5") overlaps networking.clusterNetwork[0] ("10.132.0.0/14") of cluster "vcluster2"; load-balancer addresses must lie outside the pod and service networks`,
        `${PATH}: addresses[1] ("10.134.0.0/16") overlaps networking.clusterNetwork[0] ("10.132.0.0/14") of cluster "vcluster2"; load-balancer addresses must lie outside the pod and service networks`,
      ]);
    });

    test.each(['192.168.123.5', '192.168.122.250-192.168.123.5', 'fd00:122::23'])('layer 2 is asked for %p, outside the machine network', (address) => {
      expect(problems({ addresses: [address] })).toEqual([
        `${PATH}: addresses[0] (${JSON.stringify(address)}) is outside any valid range: layer 2 mode answers ARP and NDP only on the node subnet, ` +
          'so it must lie inside networking.machineNetwork (["192.168.122.0/24"]) of cluster "vcluster2"; use MetalLBAdvertisement.bgp() for other addresses',
      ]);
    });

    test.each(['192.168.122.0/24', '192.168.122.0-192.168.122.255', '192.168.0.0/16'])("layer 2 is asked for %p, the whole machine network: the nodes' own addresses among them", (address) => {
      expect(problems({ addresses: [address] })).toEqual([
        `${PATH}: addresses[0] (${JSON.stringify(address)}) covers the whole of networking.machineNetwork[0] ("192.168.122.0/24") of cluster "vcluster2", the nodes' own addresses among them, ` +
          'which MetalLB would hand to Services; give the free addresses of the network, e.g. a range "first-last"',
      ]);
    });

    test('BGP announces an address of the machine network', () => {
      expect(problems({ addresses: ['192.0.2.100', '192.168.122.0/28'], advertisement: bgp() })).toEqual([
        `${PATH}: addresses[1] ("192.168.122.0/28") overlaps networking.machineNetwork[0] ("192.168.122.0/24") of cluster "vcluster2"; ` +
          'in BGP mode the announced routes would shadow node addresses, so use addresses outside the machine network',
      ]);
    });

    test('two addresses of the pool overlap', () => {
      expect(problems({ addresses: ['192.168.122.20-192.168.122.29', '192.168.122.30', '192.168.122.24/30'] })).toEqual([
        `${PATH}: addresses[2] ("192.168.122.24/30") overlaps addresses[0] ("192.168.122.20-192.168.122.29"); the entries of a pool must be disjoint`,
      ]);
    });

    test('bgp() is given no peers', () => {
      expect(problems({ addresses: ['192.0.2.100'], advertisement: bgp([]) })).toEqual([
        `${PATH}: advertisement.peers ([]) must list at least one BGP peer: a BGP advertisement without peers announces nothing`,
      ]);
    });

    test.each(['192.168.122', 'router.example.com', ''])('a BGP peer address is %p', (address) => {
      expect(problems({ addresses: ['192.0.2.100'], advertisement: bgp([{ ...BGP_PEER, address }]) })).toEqual([
        `${PATH}: advertisement.peers[0].address (${JSON.stringify(address)}) must be an IPv4 or IPv6 address`,
      ]);
    });

    test.each([
      ['asn', 0],
      ['asn', 4294967296],
      ['myAsn', -1],
      ['myAsn', 64500.5],
    ] as const)('a BGP peer %s is %p', (field, asn) => {
      expect(problems({ addresses: ['192.0.2.100'], advertisement: bgp([{ ...BGP_PEER, [field]: asn }]) })).toEqual([
        `${PATH}: advertisement.peers[0].${field} (${asn}) must be an AS number from 1 to 4294967295`,
      ]);
    });

    test('two BGP peers share a name, or a name is not a DNS subdomain', () => {
      const peers = [
        { ...BGP_PEER, name: 'tor' },
        { ...BGP_PEER, address: '192.168.122.2', name: 'tor' },
        { ...BGP_PEER, address: '192.168.122.3', name: 'Tor_C' },
      ];
      expect(problems({ addresses: ['192.0.2.100'], advertisement: bgp(peers) })).toEqual([
        `${PATH}: advertisement.peers[1].name ("tor") must be unique among the peers`,
        `${PATH}: advertisement.peers[2].name ("Tor_C") ${DNS1123_SUBDOMAIN_RULE}`,
      ]);
    });

    test('the BGP local preference is negative', () => {
      expect(problems({ addresses: ['192.0.2.100'], advertisement: MetalLBAdvertisement.bgp({ peers: [BGP_PEER], localPref: -1 }) })).toEqual([
        `${PATH}: advertisement.localPref (-1) must be a whole number from 0 to 4294967295`,
      ]);
    });

    test('a layer 2 interface name is blank', () => {
      expect(problems({ advertisement: MetalLBAdvertisement.layer2({ interfaces: ['enp1s0', ' '] }) })).toEqual([
        `${PATH}: advertisement.interfaces[1] (" ") must be a network interface name such as enp1s0`,
      ]);
    });

    test('names are not valid Kubernetes names', () => {
      expect(problems({ poolName: 'Ingress_IP', namespace: 'MetalLB', catalogSource: 'Red Hat', catalogSourceNamespace: 'openshift.marketplace', channel: 'stable 4.17' })).toEqual([
        `${PATH}: poolName ("Ingress_IP") ${DNS1123_SUBDOMAIN_RULE}`,
        `${PATH}: namespace ("MetalLB") ${DNS1123_LABEL_RULE}`,
        `${PATH}: catalogSource ("Red Hat") ${DNS1123_SUBDOMAIN_RULE}`,
        `${PATH}: catalogSourceNamespace ("openshift.marketplace") ${DNS1123_LABEL_RULE}`,
        `${PATH}: channel ("stable 4.17") must be a channel name such as stable`,
      ]);
    });

    test("it is created outside the cluster's guest chart", () => {
      expect(
        synthProblems((app) => {
          const cluster = agentCluster(app);
          new MetalLBIngress(cluster.node.scope!, 'ingress', { cluster, addresses: ['192.168.122.23'] });
        }),
      ).toEqual(['hub/ingress: scope ("hub") must be cluster.guest of "vcluster2": MetalLB and the ingress Service are applied inside the hosted cluster']);
    });

    test('several rules break, reporting all of them at once', () => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      newIngress({ addresses: ['192.168.122.300', '192.168.122.9-192.168.122.1', '10.132.0.1'], advertisement: bgp([{ ...BGP_PEER, asn: 0 }]) }, undefined, app);
      expect(() => app.synthesize()).toThrow(
        [
          '4 problems:',
          `  - ${PATH}: addresses[0] ("192.168.122.300") must be an IPv4 or IPv6 address, a range "first-last" or a CIDR block`,
          `  - ${PATH}: addresses[1] ("192.168.122.9-192.168.122.1") must start at or below its end: write "192.168.122.1-192.168.122.9"`,
          `  - ${PATH}: addresses[2] ("10.132.0.1") overlaps networking.clusterNetwork[0] ("10.132.0.0/14") of cluster "vcluster2"; load-balancer addresses must lie outside the pod and service networks`,
          `  - ${PATH}: advertisement.peers[0].asn (0) must be an AS number from 1 to 4294967295`,
        ].join('\n'),
      );
    });
  });
});
