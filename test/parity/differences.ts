// Parity with the upstream HyperShift golden fixtures: helpers shared by the parity tests.
// The fixtures are read from ../shared at run time; the project holds no copy of them.
import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { HcpApp } from '../../lib';
import { FIXTURES, findObject, synthObjects } from '../util';

/** A release image the API accepts, used where a fixture carries `""` or `fake` (see `releaseImage`). */
export const RELEASE_IMAGE = 'quay.io/openshift-release-dev/ocp-release:4.19.0-multi';

/**
 * Valid stand-ins for the fake AWS values that the API server or hcp-cdk rejects (see `fakeAwsValues`).
 * Every other fake value of the AWS fixtures (`fakeVPCID`, `fakePublicZoneID`, ...) is passed through unchanged.
 */
export const AWS_STAND_INS = {
  /** For `fakeInfraID`: the CRD allows only lower-case letters, digits and '-'. */
  infraId: 'fakeinfraid',
  /** For `fakeIssuerURL`: the CRD requires an absolute URL (isURL), hcp-cdk an https one. */
  issuerUrl: 'https://fakeissuerurl.example.com',
  /** For `fakeBaseDomain`: hcp-cdk requires a lower-case DNS-1123 subdomain (the CRD alone accepts upper case). */
  baseDomain: 'fakebasedomain',
  /** For `fakeSubnetID`: the NodePool CRD wants an ID starting `subnet-` (or filters instead). */
  subnetId: 'subnet-fake',
  /** For `fakeKMSKeyARN`: the CRD wants an ARN (starting `arn:`). */
  kmsKeyArn: 'arn:aws:kms:us-east-1:123456789012:key/fake',
} as const;

/** For the zone `fakeName`: hcp-cdk requires a zone of the cluster's region. */
export function zoneStandIn(region: string): string {
  return `${region}a`;
}

/** For the fake role ARNs (`fakeIngressARN`, ...): hcp-cdk requires IAM role ARNs, as the operators assume them. */
export function roleArnStandIn(fake: string): string {
  return `arn:aws:iam::123456789012:role/${fake}`;
}

/** For the NodePort address `fakeAddress`: the CRD wants a host name with a dot, or an IP address. */
export const NODE_PORT_ADDRESS_STAND_IN = 'fake-address.example.com';

/** Case-specific values some differences need. */
export interface DifferenceContext {
  /** The agent namespace the test passes where the fixture has `""` (`agentNamespace`). */
  readonly agentNamespace?: string;
}

/** The objects of one comparison; a difference rewrites them in place. */
interface Sides {
  fixture: any[];
  ours: any[];
}

interface Difference {
  /** One line: why hcp-cdk's output differs from the fixture here. */
  readonly reason: string;
  apply(sides: Sides, context: DifferenceContext): void;
}

/**
 * The deliberate differences between a fixture and hcp-cdk's output. Each is a named transformation
 * of the fixture objects (or of ours); a test lists by name the ones its case needs, so every other
 * field must be equal.
 */
export const DIFFERENCES = {
  hcpCdkRecords: {
    reason: 'hcp-cdk records on a HostedCluster what `hcp-cdk plan` reads back (hcp-cdk.io/delivery: the delivery mode); HyperShift ignores it and the CLI writes none. Applied in every case',
    apply: ({ ours }) => {
      for (const o of ours.filter((x) => x.kind === 'HostedCluster')) {
        expectFixtureValue('hcpCdkRecords', typeof o.metadata.annotations?.['hcp-cdk.io/delivery'], 'string');
        delete o.metadata.annotations['hcp-cdk.io/delivery'];
        if (Object.keys(o.metadata.annotations).length === 0) delete o.metadata.annotations;
      }
    },
  },
  status: {
    reason: 'the fixture carries Go zero-value status blocks; status is server-owned and hcp-cdk emits none',
    apply: ({ fixture }) => fixture.forEach((o) => delete o.status),
  },
  goZeroValueStructs: {
    reason: 'Go serializes empty structs ({}); hcp-cdk omits them. Only dropped where the fixture has {} and ours holds nothing else',
    apply: ({ fixture, ours }) => {
      for (const f of fixture) {
        const o = ours.find((x) => objectKey(x) === objectKey(f));
        dropEmptyStructs(f, o);
      }
    },
  },
  releaseImage: {
    reason: 'the fixture\'s release.image ("" or "fake...") is rejected by the CRD or is no image reference; the test uses RELEASE_IMAGE',
    apply: ({ fixture }) => {
      for (const o of fixture.filter((x) => x.kind === 'HostedCluster' || x.kind === 'NodePool')) o.spec.release.image = RELEASE_IMAGE;
    },
  },
  pullSecretByReference: {
    reason: 'the fixture\'s pull secret holds the 4 bytes "fake", not dockerconfigjson; the test references an existing Secret of the same name',
    apply: (sides) => {
      const secrets = sides.fixture.filter((o) => o.kind === 'Secret' && o.data?.['.dockerconfigjson'] !== undefined);
      if (secrets.length !== 1) throw new Error(`pullSecretByReference: expected one pull-secret Secret in the fixture, found ${secrets.length}`);
      sides.fixture = sides.fixture.filter((o) => o !== secrets[0]);
    },
  },
  agentNamespace: {
    reason: 'the CLI leaves spec.platform.agent.agentNamespace "" without --agent-namespace; hcp-cdk requires the namespace of the Agents',
    apply: ({ fixture }, context) => {
      const cluster = findObject(fixture, 'HostedCluster');
      expectFixtureValue('agentNamespace', cluster.spec.platform.agent.agentNamespace, '');
      cluster.spec.platform.agent.agentNamespace = context.agentNamespace;
    },
  },
  fakeNodePortAddress: {
    reason: 'the fixture publishes services on NodePort address "fakeAddress", which the CRD rejects (no dot, not an IP); the test uses NODE_PORT_ADDRESS_STAND_IN',
    apply: ({ fixture }) => {
      const cluster = findObject(fixture, 'HostedCluster');
      for (const service of cluster.spec.services) {
        const nodePort = service.servicePublishingStrategy.nodePort;
        if (!nodePort) continue;
        expectFixtureValue('fakeNodePortAddress', nodePort.address, 'fakeAddress');
        nodePort.address = NODE_PORT_ADDRESS_STAND_IN;
      }
    },
  },
  fakeAwsValues: {
    reason:
      'fake values the API server rejects (infraID and NodePool names in upper case, an issuerURL that is no URL, a subnet ID without `subnet-`, a KMS key that is no ARN) or hcp-cdk rejects (an upper-case baseDomain, role ARNs that are no ARNs) become AWS_STAND_INS, roleArnStandIn and zoneStandIn (a zone of the region for `fakeName`, also in the pool names)',
    apply: ({ fixture }) => {
      const cluster = findObject(fixture, 'HostedCluster');
      expectFixtureValue('fakeAwsValues', cluster.spec.infraID, 'fakeInfraID');
      expectFixtureValue('fakeAwsValues', cluster.spec.issuerURL, 'fakeIssuerURL');
      expectFixtureValue('fakeAwsValues', cluster.spec.dns.baseDomain, 'fakeBaseDomain');
      cluster.spec.infraID = AWS_STAND_INS.infraId;
      cluster.spec.issuerURL = AWS_STAND_INS.issuerUrl;
      cluster.spec.dns.baseDomain = AWS_STAND_INS.baseDomain;
      expectFixtureValue('fakeAwsValues', cluster.spec.platform.aws.cloudProviderConfig.subnet.id, 'fakeSubnetID');
      cluster.spec.platform.aws.cloudProviderConfig.subnet.id = AWS_STAND_INS.subnetId;
      const roles = cluster.spec.platform.aws.rolesRef;
      for (const [field, arn] of Object.entries(roles)) {
        expectFixtureValue('fakeAwsValues', /^fake[A-Za-z]+ARN$/.test(arn as string), true);
        roles[field] = roleArnStandIn(arn as string);
      }
      const kmsKey = cluster.spec.secretEncryption?.kms?.aws?.activeKey;
      if (kmsKey) {
        expectFixtureValue('fakeAwsValues', kmsKey.arn, 'fakeKMSKeyARN');
        kmsKey.arn = AWS_STAND_INS.kmsKeyArn;
      }
      const zone = zoneStandIn(cluster.spec.platform.aws.region);
      expectFixtureValue('fakeAwsValues', cluster.spec.platform.aws.cloudProviderConfig.zone, 'fakeName');
      cluster.spec.platform.aws.cloudProviderConfig.zone = zone;
      // The CLI names the pool `<cluster>-<zone name>`, here the zone `fakeName`.
      for (const pool of fixture.filter((o) => o.kind === 'NodePool')) {
        expectFixtureValue('fakeAwsValues', pool.metadata.name.endsWith('-fakeName'), true);
        pool.metadata.name = pool.metadata.name.replace(/-fakeName$/, `-${zone}`);
        expectFixtureValue('fakeAwsValues', pool.spec.platform.aws.subnet.id, 'fakeSubnetID');
        pool.spec.platform.aws.subnet.id = AWS_STAND_INS.subnetId;
      }
    },
  },
} satisfies Record<string, Difference>;

export type DifferenceName = keyof typeof DIFFERENCES;

/** Every object of a multi-document fixture (the trailing `---` leaves an empty document, skipped). */
export function readFixtureObjects(fixture: string): any[] {
  const text = fs.readFileSync(path.join(FIXTURES, fixture), 'utf8');
  return YAML.parseAllDocuments(text)
    .map((doc) => doc.toJS())
    .filter((o) => o !== null && o !== undefined);
}

/** A single-document fixture, e.g. a nodepool platform block. */
export function readFixture(fixture: string): any {
  return YAML.parse(fs.readFileSync(path.join(FIXTURES, fixture), 'utf8'));
}

/** The synthesized objects and the fixture's, keyed `<kind> <namespace>/<name>`, after the named differences. */
export function compareCluster(app: HcpApp, fixture: string, differences: DifferenceName[], context: DifferenceContext = {}) {
  const sides: Sides = { fixture: readFixtureObjects(fixture), ours: synthObjects(app) };
  for (const name of ['hcpCdkRecords', ...differences] as DifferenceName[]) (DIFFERENCES[name] as Difference).apply(sides, context);
  return { ours: byKey(sides.ours), fixture: byKey(sides.fixture) };
}

function byKey(objects: any[]): Record<string, any> {
  const keyed: Record<string, any> = {};
  for (const o of objects) {
    const key = objectKey(o);
    if (keyed[key]) throw new Error(`two objects ${key}`);
    keyed[key] = o;
  }
  return keyed;
}

function objectKey(o: any): string {
  return `${o.kind} ${o.metadata?.namespace ?? ''}/${o.metadata?.name}`;
}

function expectFixtureValue(difference: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${difference}: the fixture has ${JSON.stringify(actual)} where ${JSON.stringify(expected)} was expected; review the difference`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for `{}` and for objects holding only such objects. */
function isEmptyStruct(value: unknown): boolean {
  return isPlainObject(value) && Object.values(value).every(isEmptyStruct);
}

/** Removes, from both sides, each field that is `{}` in the fixture and absent or empty in ours. */
function dropEmptyStructs(fixture: any, ours: any): void {
  for (const key of Object.keys(fixture)) {
    const f = fixture[key];
    const o = isPlainObject(ours) ? ours[key] : undefined;
    if (isPlainObject(f) && Object.keys(f).length === 0) {
      if (o === undefined || isEmptyStruct(o)) {
        delete fixture[key];
        if (isPlainObject(ours)) delete ours[key];
      }
    } else if (isPlainObject(f)) {
      dropEmptyStructs(f, o);
    } else if (Array.isArray(f) && Array.isArray(o)) {
      f.forEach((item, i) => {
        if (isPlainObject(item)) dropEmptyStructs(item, o[i]);
      });
    }
  }
}
