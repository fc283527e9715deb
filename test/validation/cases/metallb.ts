// MetalLB cases: the load balancer in front of an Agent HostedCluster's services, announced over L2
// or BGP. One valid base per kind, objects their schemas reject, and the BGP rules both ways.
import { ObjectCase, withChanges } from '../object-cases';

const NAMESPACE = 'metallb-system';

/** The operator's one MetalLB instance, speakers on the workers. */
const METALLB = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'MetalLB',
  metadata: { name: 'metallb', namespace: NAMESPACE },
  spec: {
    logLevel: 'info',
    nodeSelector: { 'node-role.kubernetes.io/worker': '' },
    speakerTolerations: [{ key: 'node-role.kubernetes.io/infra', operator: 'Exists', effect: 'NoSchedule' }],
    controllerConfig: { resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } } },
  },
};

/** One address for the hosted cluster's ingress, never handed out unless asked for. */
const IP_ADDRESS_POOL = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  metadata: { name: 'vcluster2-ingress', namespace: NAMESPACE, labels: { 'hcp.example.com/cluster': 'vcluster2' } },
  spec: { addresses: ['192.168.111.30-192.168.111.30', '2620:52:0:1306::30/128'], autoAssign: false },
};

const L2_ADVERTISEMENT = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'L2Advertisement',
  metadata: { name: 'vcluster2-ingress', namespace: NAMESPACE },
  spec: {
    ipAddressPools: ['vcluster2-ingress'],
    interfaces: ['enp1s0'],
    nodeSelectors: [{ matchLabels: { 'node-role.kubernetes.io/worker': '' } }],
  },
};

/** The top-of-rack router, reached over eBGP with a password and graceful restart. */
const BGP_PEER = {
  apiVersion: 'metallb.io/v1beta2',
  kind: 'BGPPeer',
  metadata: { name: 'tor-a', namespace: NAMESPACE },
  spec: {
    myASN: 64500,
    peerASN: 64501,
    peerAddress: '192.168.111.1',
    peerPort: 179,
    holdTime: '90s',
    keepaliveTime: '30s',
    connectTime: '10s',
    enableGracefulRestart: true,
    passwordSecret: { name: 'tor-a-bgp-password', namespace: NAMESPACE },
  },
};

const BGP_ADVERTISEMENT = {
  apiVersion: 'metallb.io/v1beta1',
  kind: 'BGPAdvertisement',
  metadata: { name: 'vcluster2-ingress', namespace: NAMESPACE },
  spec: {
    ipAddressPools: ['vcluster2-ingress'],
    peers: ['tor-a'],
    localPref: 100,
    communities: ['65535:65282'],
  },
};

const pool = (changes: Record<string, unknown>) => withChanges(IP_ADDRESS_POOL, changes);
const l2 = (changes: Record<string, unknown>) => withChanges(L2_ADVERTISEMENT, changes);
const peer = (changes: Record<string, unknown>) => withChanges(BGP_PEER, changes);
const bgpAdvertisement = (changes: Record<string, unknown>) => withChanges(BGP_ADVERTISEMENT, changes);
const metallb = (changes: Record<string, unknown>) => withChanges(METALLB, changes);
const ingressServices = [{ matchLabels: { 'app.kubernetes.io/name': 'router' } }];

export const CASES: ObjectCase[] = [
  // MetalLB.
  { name: 'passes when the MetalLB instance runs its speakers on workers', object: METALLB },
  {
    name: 'fails when the MetalLB log level is verbose',
    object: metallb({ 'spec.logLevel': 'verbose' }),
    rejects: 'Unsupported value: supported values: "all", "debug", "info", "warn", "error", "none"',
    at: 'spec.logLevel',
  },
  {
    name: 'fails when the load balancer class ends with a slash',
    object: metallb({ 'spec.loadBalancerClass': 'metallb.io/' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.loadBalancerClass',
  },
  {
    name: 'fails when the controller CPU limit is not a quantity',
    object: metallb({ 'spec.controllerConfig.resources.limits.cpu': '2 cores' }),
    rejects: 'Invalid value: must match the pattern',
    at: 'spec.controllerConfig.resources.limits.cpu',
  },
  {
    name: 'fails when a speaker toleration time is a string',
    object: metallb({ 'spec.speakerTolerations': [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: '300' }] }),
    rejects: 'Invalid value: must be of type integer, got string',
    at: 'spec.speakerTolerations[0].tolerationSeconds',
  },

  // IPAddressPool.
  { name: 'passes when an address pool holds one IPv4 and one IPv6 address', object: IP_ADDRESS_POOL },
  {
    name: 'fails when an address pool has no addresses',
    object: pool({ 'spec.addresses': undefined }),
    rejects: 'Required value',
    at: 'spec.addresses',
  },
  {
    name: 'fails when an address pool gives its addresses as one string',
    object: pool({ 'spec.addresses': '192.168.111.30-192.168.111.39' }),
    rejects: 'Invalid value: must be of type array, got string',
    at: 'spec.addresses',
  },
  {
    name: 'fails when an address pool keeps the protocol field of the old AddressPool',
    object: pool({ 'spec.protocol': 'layer2' }),
    rejects: 'unknown field "spec.protocol"',
    at: 'spec.protocol',
  },
  {
    name: 'fails when an address pool auto-assign flag is the string false',
    object: pool({ 'spec.autoAssign': 'false' }),
    rejects: 'Invalid value: must be of type boolean, got string',
    at: 'spec.autoAssign',
  },
  {
    name: 'fails when an address pool namespace selector expression has no key',
    object: pool({ 'spec.serviceAllocation': { priority: 10, namespaceSelectors: [{ matchExpressions: [{ operator: 'In', values: ['clusters-vcluster2'] }] }] } }),
    rejects: 'Required value',
    at: 'spec.serviceAllocation.namespaceSelectors[0].matchExpressions[0].key',
  },

  // L2Advertisement.
  { name: 'passes when an L2 advertisement announces the pool from workers', object: L2_ADVERTISEMENT },
  {
    name: 'passes when an L2 advertisement prefers some nodes',
    object: l2({ 'spec.preferredNodeSelectors': [{ weight: 50, preference: { matchLabels: { 'topology.kubernetes.io/zone': 'rack-1' } } }] }),
  },
  {
    name: 'fails when an L2 advertisement node preference has weight 0',
    object: l2({ 'spec.preferredNodeSelectors': [{ weight: 0, preference: { matchLabels: { 'topology.kubernetes.io/zone': 'rack-1' } } }] }),
    rejects: 'Invalid value: must be greater than or equal to 1',
    at: 'spec.preferredNodeSelectors[0].weight',
  },
  {
    name: 'fails when an L2 advertisement node preference has weight 150',
    object: l2({ 'spec.preferredNodeSelectors': [{ weight: 150, preference: { matchLabels: { 'topology.kubernetes.io/zone': 'rack-1' } } }] }),
    rejects: 'Invalid value: must be less than or equal to 100',
    at: 'spec.preferredNodeSelectors[0].weight',
  },
  {
    name: 'fails when an L2 advertisement node preference has no preference',
    object: l2({ 'spec.preferredNodeSelectors': [{ weight: 50 }] }),
    rejects: 'Required value',
    at: 'spec.preferredNodeSelectors[0].preference',
  },
  {
    name: 'fails when an L2 advertisement names its pool as a string',
    object: l2({ 'spec.ipAddressPools': 'vcluster2-ingress' }),
    rejects: 'Invalid value: must be of type array, got string',
    at: 'spec.ipAddressPools',
  },
  {
    name: 'fails when an L2 advertisement uses a singular nodeSelector',
    object: l2({ 'spec.nodeSelectors': undefined, 'spec.nodeSelector': { 'node-role.kubernetes.io/worker': '' } }),
    rejects: 'unknown field "spec.nodeSelector"',
    at: 'spec.nodeSelector',
  },

  // BGPPeer (v1beta2): connect time and graceful restart rules, and the schema.
  { name: 'passes when a BGP peer is a top-of-rack router with a password secret', object: BGP_PEER },
  { name: 'passes when a BGP peer connect time is one second', object: peer({ 'spec.connectTime': '1s' }) },
  { name: 'passes when a BGP peer connect time is given in minutes', object: peer({ 'spec.connectTime': '2m' }) },
  {
    name: 'fails when a BGP peer connect time is zero',
    object: peer({ 'spec.connectTime': '0s' }),
    rejects: 'connect time should be between 1 seconds to 65535',
    at: 'spec.connectTime',
  },
  {
    name: 'fails when a BGP peer connect time is a day',
    object: peer({ 'spec.connectTime': '24h' }),
    rejects: 'connect time should be between 1 seconds to 65535',
    at: 'spec.connectTime',
  },
  {
    name: 'fails when a BGP peer connect time has milliseconds',
    object: peer({ 'spec.connectTime': '1500ms' }),
    rejects: 'connect time should contain a whole number of seconds',
    at: 'spec.connectTime',
  },
  {
    name: 'passes when a BGP peer keeps graceful restart on update',
    object: peer({ 'spec.holdTime': '180s' }),
    previous: BGP_PEER,
  },
  {
    name: 'fails when a BGP peer turns graceful restart off after creation',
    object: peer({ 'spec.enableGracefulRestart': false }),
    previous: BGP_PEER,
    rejects: 'EnableGracefulRestart cannot be changed after creation',
    at: 'spec.enableGracefulRestart',
  },
  {
    name: 'fails when a BGP peer has no local ASN',
    object: peer({ 'spec.myASN': undefined }),
    rejects: 'Required value',
    at: 'spec.myASN',
  },
  {
    name: 'fails when a BGP peer ASN is beyond 32 bits',
    object: peer({ 'spec.peerASN': 4294967296 }),
    rejects: 'Invalid value: must be less than or equal to 4294967295',
    at: 'spec.peerASN',
  },
  {
    name: 'fails when a BGP peer port is 0',
    object: peer({ 'spec.peerPort': 0 }),
    rejects: 'Invalid value: must be greater than or equal to 1',
    at: 'spec.peerPort',
  },
  {
    name: 'fails when a BGP peer dynamic ASN is ibgp',
    object: peer({ 'spec.peerASN': undefined, 'spec.dynamicASN': 'ibgp' }),
    rejects: 'Unsupported value: supported values: "internal", "external"',
    at: 'spec.dynamicASN',
  },
  {
    name: 'fails when a deprecated v1beta1 BGP peer has no peer ASN',
    object: peer({ 'apiVersion': 'metallb.io/v1beta1', 'spec.peerASN': undefined, 'spec.connectTime': undefined, 'spec.enableGracefulRestart': undefined, 'spec.passwordSecret': undefined }),
    rejects: 'Required value',
    at: 'spec.peerASN',
  },

  // BGPAdvertisement: aggregation and service selectors.
  { name: 'passes when a BGP advertisement announces the pool to one peer', object: BGP_ADVERTISEMENT },
  {
    name: 'passes when a BGP advertisement aggregates routes to a /24',
    object: bgpAdvertisement({ 'spec.aggregationLength': 24, 'spec.aggregationLengthV6': 64 }),
  },
  {
    name: 'passes when a BGP advertisement selects services with the default aggregation',
    object: bgpAdvertisement({ 'spec.serviceSelectors': ingressServices }),
  },
  {
    name: 'fails when a BGP advertisement selects services and aggregates IPv4 routes',
    object: bgpAdvertisement({ 'spec.serviceSelectors': ingressServices, 'spec.aggregationLength': 24 }),
    rejects: 'serviceSelectors and aggregationLength are mutually exclusive',
    at: 'spec',
  },
  {
    name: 'fails when a BGP advertisement selects services and aggregates IPv6 routes',
    object: bgpAdvertisement({ 'spec.serviceSelectors': ingressServices, 'spec.aggregationLengthV6': 64 }),
    rejects: 'serviceSelectors and aggregationLength are mutually exclusive',
    at: 'spec',
  },
  {
    name: 'fails when a BGP advertisement aggregation length is 0',
    object: bgpAdvertisement({ 'spec.aggregationLength': 0 }),
    rejects: 'Invalid value: must be greater than or equal to 1',
    at: 'spec.aggregationLength',
  },
  {
    name: 'fails when a BGP advertisement local preference is a string',
    object: bgpAdvertisement({ 'spec.localPref': '100' }),
    rejects: 'Invalid value: must be of type integer, got string',
    at: 'spec.localPref',
  },
];
