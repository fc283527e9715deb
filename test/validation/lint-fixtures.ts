// Hand-written objects the API server accepts but HyperShift or MetalLB refuse or cannot use: one
// folder per lint rule of `hcp-cdk validate`, each breaking that rule once, and the findings the
// lint must report for it (field, value and what is accepted, as the constructs say at synth).
import * as fs from 'fs';
import * as path from 'path';
import { dump } from 'js-yaml';
import { HOSTED_CLUSTER, NODE_POOL, withChanges } from './object-cases';

const nodePort = (service: string, port?: number) => ({
  service,
  servicePublishingStrategy: { type: 'NodePort', nodePort: { address: 'api.vcluster2.example.com', port } },
});

const role = (name: string) => `arn:aws:iam::123456789012:role/vcluster2-${name}`;

/** An AWS cluster as `hcp create cluster aws` renders it. */
const AWS_CLUSTER = withChanges(HOSTED_CLUSTER, {
  'spec.platform': {
    type: 'AWS',
    aws: {
      region: 'us-east-1',
      cloudProviderConfig: { vpc: 'vpc-0a1b2c3d4e5f60718', subnet: { id: 'subnet-0123456789abcdef0' }, zone: 'us-east-1a' },
      rolesRef: {
        ingressARN: role('openshift-ingress'),
        imageRegistryARN: role('openshift-image-registry'),
        storageARN: role('aws-ebs-csi-driver-controller'),
        networkARN: role('cloud-network-config-controller'),
        kubeCloudControllerARN: role('cloud-controller'),
        nodePoolManagementARN: role('node-pool'),
        controlPlaneOperatorARN: role('control-plane-operator'),
      },
    },
  },
  'spec.services': [
    { service: 'APIServer', servicePublishingStrategy: { type: 'Route' } },
    ...['OAuthServer', 'Konnectivity', 'Ignition'].map((service) => ({ service, servicePublishingStrategy: { type: 'Route' } })),
  ],
});

const TAGGED = (version: string) => `quay.io/openshift-release-dev/ocp-release:${version}-x86_64`;
const LAB = withChanges(HOSTED_CLUSTER, { 'spec.networking.machineNetwork': [{ cidr: '192.168.122.0/24' }] });
const pool = (addresses: string[]) => ({
  apiVersion: 'metallb.io/v1beta1',
  kind: 'IPAddressPool',
  metadata: { name: 'ingress-public-ip', namespace: 'metallb' },
  spec: { addresses, autoAssign: false },
});
const L2 = { apiVersion: 'metallb.io/v1beta1', kind: 'L2Advertisement', metadata: { name: 'ingress-public-ip', namespace: 'metallb' }, spec: { ipAddressPools: ['ingress-public-ip'] } };

/** A case: the files of its folder (path to objects), and the lines the lint reports, each `<file>: <object>: <message> [<rule>]`. */
export interface LintCase {
  readonly rule: string;
  readonly files: Readonly<Record<string, readonly object[]>>;
  readonly findings: readonly string[];
}

const HC = 'HostedCluster clusters/vcluster2';
const NP = 'NodePool clusters/vcluster2';

/** One case per rule, by folder name. Each file path is relative to the case's folder. */
export const LINT_CASES: Readonly<Record<string, LintCase>> = {
  'networks-overlap': {
    rule: 'HCP-W101',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.networking.machineNetwork': [{ cidr: '10.132.0.0/16' }] })] },
    findings: [
      `cluster.yaml: ${HC}: spec.networking.clusterNetwork[0].cidr ("10.132.0.0/14") overlaps spec.networking.machineNetwork[0].cidr ("10.132.0.0/16"); pod, service and machine networks must be disjoint [HCP-W101]`,
    ],
  },
  'network-shape': {
    rule: 'HCP-W102',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.networking.serviceNetwork': [{ cidr: '172.0.0.0/11' }] })] },
    findings: [`cluster.yaml: ${HC}: spec.networking.serviceNetwork[0].cidr ("172.0.0.0/11") is larger than the API server accepts: an IPv4 service network must be /12 or smaller [HCP-W102]`],
  },
  'services-shared': {
    rule: 'HCP-W103',
    files: {
      'cluster.yaml': [
        withChanges(HOSTED_CLUSTER, { 'spec.services': [nodePort('APIServer'), nodePort('OAuthServer', 30100), nodePort('Konnectivity', 30100), nodePort('Ignition'), nodePort('Ignition')] }),
      ],
    },
    findings: [
      `cluster.yaml: ${HC}: spec.services[2] ("Konnectivity") is published at the NodePort api.vcluster2.example.com:30100 spec.services[1] ("OAuthServer") uses already; give each service its own [HCP-W103]`,
      `cluster.yaml: ${HC}: spec.services[4] ("Ignition") lists a service spec.services[3] lists already; HyperShift reads one strategy per service [HCP-W103]`,
    ],
  },
  'services-missing': {
    rule: 'HCP-W104',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.services': ['APIServer', 'OAuthServer', 'Konnectivity', 'OIDC'].map((s) => nodePort(s)) })] },
    findings: [
      `cluster.yaml: ${HC}: spec.services (["APIServer","OAuthServer","Konnectivity","OIDC"]) must publish Ignition: HyperShift needs APIServer, OAuthServer, Konnectivity, Ignition published on platform Agent [HCP-W104]`,
    ],
  },
  'platform-block': {
    rule: 'HCP-W105',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.platform': { type: 'Agent' } })] },
    findings: [`cluster.yaml: ${HC}: spec.platform.agent (undefined) must be given on platform Agent: HyperShift's Agent controllers read their settings from it [HCP-W105]`],
  },
  'api-server-route': {
    rule: 'HCP-W106',
    files: { 'cluster.yaml': [AWS_CLUSTER] },
    findings: [`cluster.yaml: ${HC}: spec.services[0].servicePublishingStrategy (Route without hostname) needs a hostname served by external DNS [HCP-W106]`],
  },
  'node-port': {
    rule: 'HCP-W107',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.services[0]': nodePort('APIServer', 6443) })] },
    findings: [`cluster.yaml: ${HC}: spec.services[0].servicePublishingStrategy.nodePort.port (6443) must be a NodePort from 30000 to 32767 [HCP-W107]`],
  },
  'cluster-name': {
    rule: 'HCP-W108',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'metadata.name': 'local-cluster' })] },
    findings: [`cluster.yaml: HostedCluster clusters/local-cluster: metadata.name ("local-cluster") must not be "clusters" or "local-cluster", which MCE reserves [HCP-W108]`],
  },
  'tiny-etcd-volume': {
    rule: 'HCP-W001',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.etcd.managed.storage.persistentVolume.size': '512Mi' })] },
    findings: [
      `cluster.yaml: ${HC}: spec.etcd.managed.storage.persistentVolume.size ("512Mi") is under 1 GiB: etcd fills such a volume within days and the control plane stops; hcp sizes it at 8 GiB [HCP-W001]`,
    ],
  },
  'mirrored-release-tag': {
    rule: 'HCP-W005',
    files: {
      'cluster.yaml': [
        withChanges(HOSTED_CLUSTER, {
          'spec.release.image': 'registry.example.com:5000/openshift/release-images:4.17.0-x86_64',
          'spec.imageContentSources': [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['registry.example.com:5000/openshift/release-images'] }],
        }),
      ],
    },
    findings: [
      `cluster.yaml: ${HC}: spec.release.image ("registry.example.com:5000/openshift/release-images:4.17.0-x86_64") is a tag, but the cluster pulls through mirrors, ` +
        'which match digests only: the tag is read from the registry it names and can move to another image; give the release as <repository>@sha256:<digest> (oc adm release info prints it) [HCP-W005]',
    ],
  },
  'oversized-pool': {
    rule: 'HCP-W002',
    files: { 'pool.yaml': [withChanges(NODE_POOL, { 'spec.replicas': 2500 })] },
    findings: [`pool.yaml: ${NP}: spec.replicas (2500) is more nodes than an OpenShift cluster supports (2000) [HCP-W002]`],
  },
  'pool-of-cluster': {
    rule: 'HCP-W111',
    files: {
      'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.release.image': TAGGED('4.17.3') })],
      'pool.yaml': [withChanges(NODE_POOL, { 'spec.release.image': TAGGED('4.18.1') })],
    },
    findings: [
      `pool.yaml: ${NP}: spec.release.image ("${TAGGED('4.18.1')}") is 4.18.1, newer than the control plane's 4.17.3; node pools must not run ahead of the control plane (doc 6.6), and HyperShift's NodePool controller refuses a newer minor (ValidReleaseImage False: IsValidReleaseVersion): update the cluster first [HCP-W111]`,
    ],
  },
  'documented-syntax': {
    rule: 'HCP-W130',
    files: { 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.channel': 'stable4.17', 'spec.pausedUntil': '2026-01-01T00:00:00 tomorrow' })] },
    findings: [
      `cluster.yaml: ${HC}: spec.channel ("stable4.17") must look like stable-4.17 (stable, fast, candidate or eus) [HCP-W130]`,
      `cluster.yaml: ${HC}: spec.pausedUntil ("2026-01-01T00:00:00 tomorrow") is neither "true" nor an RFC 3339 time such as 2026-01-01T00:00:00Z: HyperShift reads it as not paused (doc 12.5) [HCP-W130]`,
    ],
  },
  'exclusive-fields': {
    rule: 'HCP-W131',
    files: {
      'cluster.yaml': [
        withChanges(AWS_CLUSTER, {
          'spec.platform.aws.endpointAccess': 'Private',
          'spec.services[0]': { service: 'APIServer', servicePublishingStrategy: { type: 'Route', route: { hostname: 'api.vcluster2.example.com' } } },
        }),
      ],
    },
    findings: [
      `cluster.yaml: ${HC}: spec.services[0].servicePublishingStrategy.route.hostname ("api.vcluster2.example.com") cannot be given with spec.platform.aws.endpointAccess Private: the docs allow a Route hostname with Public or PublicAndPrivate access only (doc 3.1.5.3, Table 3.3) [HCP-W131]`,
    ],
  },
  'hidden-dependency': {
    rule: 'HCP-W132',
    files: { 'pool.yaml': [withChanges(NODE_POOL, { 'spec.management.autoRepair': true })] },
    findings: [
      `pool.yaml: ${NP}: spec.nodeDrainTimeout (undefined) must be more than 0s when spec.management.autoRepair is true on platform Agent: the default, 0, lets a drain retry forever, and the repair waits for it (doc 4.2.4) [HCP-W132]`,
    ],
  },
  'metallb-pool': {
    rule: 'HCP-W120',
    files: { 'metallb/pool.yaml': [pool(['192.168.122.10-192.168.122.20', '192.168.122.15'])] },
    findings: [
      `metallb/pool.yaml: IPAddressPool metallb/ingress-public-ip: spec.addresses[1] ("192.168.122.15") overlaps spec.addresses[0] ("192.168.122.10-192.168.122.20"); the entries of a pool must be disjoint [HCP-W120]`,
    ],
  },
  'metallb-network': {
    rule: 'HCP-W121',
    files: {
      'hub/vcluster2/cluster.yaml': [LAB],
      'vcluster2-guest/pool.yaml': [pool(['192.168.123.5', '192.168.122.0/24']), L2],
    },
    findings: [
      'vcluster2-guest/pool.yaml: IPAddressPool metallb/ingress-public-ip: spec.addresses[0] ("192.168.123.5") is outside any valid range: layer 2 mode answers ARP and NDP only on the node subnet, ' +
        `so it must lie inside spec.networking.machineNetwork (["192.168.122.0/24"]) of ${HC}; use MetalLBAdvertisement.bgp() for other addresses [HCP-W121]`,
      'vcluster2-guest/pool.yaml: IPAddressPool metallb/ingress-public-ip: spec.addresses[1] ("192.168.122.0/24") covers the whole of spec.networking.machineNetwork[0].cidr ("192.168.122.0/24") ' +
        `of ${HC}, the nodes' own addresses among them, which MetalLB would hand to Services; give the free addresses of the network, e.g. a range "first-last" [HCP-W121]`,
    ],
  },
};

/** Writes every case into `root/<case>/`; returns `root`. */
export function writeLintFixtures(root: string): string {
  for (const [name, lintCase] of Object.entries(LINT_CASES)) {
    for (const [file, objects] of Object.entries(lintCase.files)) {
      const at = path.join(root, name, file);
      fs.mkdirSync(path.dirname(at), { recursive: true });
      fs.writeFileSync(at, objects.map((o) => dump(o, { noRefs: true })).join('---\n'));
    }
  }
  return root;
}
