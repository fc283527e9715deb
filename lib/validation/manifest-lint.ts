import * as path from 'path';
import { parseAddressPool, poolEntryOverlaps, poolNetworkProblems } from '../core/address-pool';
import { clusterNameProblems, mirroredTagReleaseMessage, tinyEtcdVolumeMessage } from '../core/hosted-cluster-rules';
import { LintRule, MANIFEST_LINT_RULES } from '../core/lint';
import { clusterNetworkProblems, DEFAULT_CLUSTER_NETWORK, DEFAULT_SERVICE_NETWORK, NetworkFieldNames } from '../core/networking';
import { oversizedPoolMessage, poolPlatformProblem } from '../core/node-pool-rules';
import { show } from '../core/problems';
import { isRfc3339 } from '../core/formats';
import { ReleaseChannel } from '../release/release-channel';
import { releaseVersionOf } from '../release/release-version';
import { isPlainObject } from '../core/runtime-props';
import { apiServerRouteProblems, missingServices, nodePortPortProblem, PublishedServiceEntry, REQUIRED_SERVICES, sharedEndpointProblems } from '../core/service-publishing';
import { recordedHyperShiftVersion } from '../release/hypershift-version';
import { nodePoolSkewProblem } from '../release/version-skew';
import { platformRules } from '../platform/platform-rules';
import { Quantity } from './cel/quantity';
import { describeObject, identify, ValidationProblem } from './validation-problem';

/** An object `hcp-cdk validate` read, with the file it came from. */
export interface LintedObject {
  readonly object: unknown;
  readonly source: string;
}

/** One lint finding on an object: legal for the API server, refused or broken later by HyperShift, its controllers or MetalLB. */
export interface ManifestLintFinding {
  /** The rule it breaks. */
  readonly rule: LintRule;
  /** `path` is the field the finding starts with; `message` is the whole sentence. */
  readonly problem: ValidationProblem;
}

/** `<file>: <Kind ns/name>: <field> (<value>) ... [HCP-W101]`. */
export function formatLintFinding(finding: ManifestLintFinding): string {
  const p = finding.problem;
  const where = [p.source, describeObject(p.object)].filter(Boolean).join(': ');
  return `${where}: ${p.message} [${finding.rule.id}]`;
}

const HYPERSHIFT = /^hypershift\.openshift\.io\//;
const METALLB = /^metallb\.io\//;

const OBJECT_NETWORK_NAMES: NetworkFieldNames = {
  list: (network) => `spec.networking.${network}`,
  cidr: (network, index) => `spec.networking.${network}[${index}].cidr`,
  refCidr: (network, index) => `spec.networking.${network}[${index}].cidr`,
  refList: (network) => `spec.networking.${network}`,
  hostPrefix: (index) => `spec.networking.clusterNetwork[${index}].hostPrefix`,
};

/**
 * The lint of hand-written (or any) HostedClusters, NodePools and MetalLB pools: what the docs, HyperShift
 * and MetalLB refuse or cannot use although the API server accepts it (MANIFEST_LINT_RULES), judged with
 * the functions the constructs use at synth. Only objects the API server would accept are given: an
 * object it refuses is reported by those problems first. A NodePool is paired with the HostedCluster of
 * its `spec.clusterName` in its namespace, and an IPAddressPool in a folder `<name>-guest` (where
 * hcp-cdk writes a hosted cluster's guest objects) with HostedCluster `<name>`, when they are among the
 * objects: the one nearest in the folder tree (management clusters may each run a cluster of one
 * name), and none when two are as near.
 */
export function lintManifests(objects: readonly LintedObject[]): ManifestLintFinding[] {
  const findings: ManifestLintFinding[] = [];
  const clusters = objects.filter((o) => isKind(o.object, HYPERSHIFT, 'HostedCluster'));
  // By namespace and name: a fleet's output holds thousands of pools and clusters.
  const byName = new Map<string, LintedObject[]>();
  const byClusterName = new Map<unknown, LintedObject[]>();
  for (const cluster of clusters) {
    const key = `${String(meta(cluster.object).namespace)}\u0000${String(meta(cluster.object).name)}`;
    byName.set(key, [...(byName.get(key) ?? []), cluster]);
    byClusterName.set(meta(cluster.object).name, [...(byClusterName.get(meta(cluster.object).name) ?? []), cluster]);
  }
  const clusterOf = (namespace: unknown, name: unknown, near: string) => nearest(byName.get(`${String(namespace)}\u0000${String(name)}`) ?? [], near)?.object;
  // By the guest folder they are in: each hosted cluster runs its own MetalLB.
  const advertisements = new Map<string, LintedObject[]>();
  for (const o of objects) {
    if (!isKind(o.object, METALLB, 'L2Advertisement') && !isKind(o.object, METALLB, 'BGPAdvertisement')) continue;
    const folder = guestFolder(o.source)?.path ?? '';
    advertisements.set(folder, [...(advertisements.get(folder) ?? []), o]);
  }
  for (const linted of objects) {
    const report = (rule: LintRule, messages: readonly (string | undefined)[]) => {
      for (const message of messages) {
        if (message !== undefined) findings.push({ rule, problem: { object: identify(linted.object), path: message.slice(0, message.indexOf(' (')), message, source: linted.source } });
      }
    };
    const object = linted.object as any;
    if (isKind(object, HYPERSHIFT, 'HostedCluster')) lintHostedCluster(object, report);
    else if (isKind(object, HYPERSHIFT, 'NodePool')) lintNodePool(object, clusterOf(meta(object).namespace, object.spec?.clusterName, path.dirname(linted.source)), report);
    else if (isKind(object, METALLB, 'IPAddressPool')) lintAddressPool(linted, advertisements, byClusterName, report);
  }
  return findings;
}

type Report = (rule: LintRule, messages: readonly (string | undefined)[]) => void;
const R = MANIFEST_LINT_RULES;

function lintHostedCluster(object: any, report: Report): void {
  const { name, namespace } = meta(object);
  const spec = object.spec ?? {};
  if (typeof name === 'string' && typeof namespace === 'string') {
    report(R.HCP_W108_CLUSTER_NAME, clusterNameProblems(name, namespace, { name: 'metadata.name', namespace: 'metadata.namespace' }));
  }

  const networking = spec.networking ?? {};
  const networks = clusterNetworkProblems(
    {
      clusterNetwork: list(networking.clusterNetwork) ?? [{ cidr: DEFAULT_CLUSTER_NETWORK.ipv4 }],
      serviceNetwork: list(networking.serviceNetwork) ?? [{ cidr: DEFAULT_SERVICE_NETWORK.ipv4 }],
      machineNetwork: list(networking.machineNetwork),
    },
    OBJECT_NETWORK_NAMES,
  );
  report(R.HCP_W101_NETWORKS_OVERLAP, networks.overlaps);
  report(R.HCP_W102_NETWORK_SHAPE, networks.shape);

  const type = spec.platform?.type;
  const rules = platformRules(type);
  const entries: PublishedServiceEntry[] = (list(spec.services) ?? []).map((entry: any, i: number) => ({
    service: entry?.service,
    strategy: entry?.servicePublishingStrategy,
    field: `spec.services[${i}]`,
  }));
  report(R.HCP_W103_SERVICES_SHARED, sharedEndpointProblems(entries));
  const missing = missingServices(entries);
  if (missing.length > 0) {
    report(R.HCP_W104_SERVICES_MISSING, [
      `spec.services (${show(entries.map((e) => e.service))}) must publish ${missing.join(', ')}: HyperShift needs ${REQUIRED_SERVICES.join(', ')} published on platform ${type}`,
    ]);
  }
  if (rules?.clusterBlock !== undefined && spec.platform?.[rules.clusterBlock] === undefined) {
    report(R.HCP_W105_PLATFORM_BLOCK, [`spec.platform.${rules.clusterBlock} (undefined) must be given on platform ${type}: HyperShift's ${type} controllers read their settings from it`]);
  }
  if (rules !== undefined)
    report(
      R.HCP_W106_API_SERVER_ROUTE,
      apiServerRouteProblems(
        entries.map((e) => ({ ...e, field: `${e.field}.servicePublishingStrategy` })),
        { type, apiServerRoute: rules.apiServerRoute },
      ),
    );
  report(
    R.HCP_W107_NODE_PORT,
    entries.map((e, i) => nodePortPortProblem(`spec.services[${i}].servicePublishingStrategy.nodePort.port`, e.strategy?.nodePort?.port)),
  );

  const size = spec.etcd?.managed?.storage?.persistentVolume?.size;
  const quantity = typeof size === 'string' ? Quantity.parse(size) : typeof size === 'number' ? Quantity.parse(String(size)) : undefined;
  if (quantity) report(LINT_W001, [tinyEtcdVolumeMessage('spec.etcd.managed.storage.persistentVolume.size', show(size), quantity.asApproximateFloat() / 2 ** 30)]);
  const image = spec.release?.image;
  if (typeof image === 'string') report(R.HCP_W005_MIRRORED_RELEASE_TAG, [mirroredTagReleaseMessage('spec.release.image', image, (list(spec.imageContentSources) ?? []).length > 0)]);
  report(R.HCP_W130_DOCUMENTED_SYNTAX, [channelProblem(object), pausedUntilProblem(spec.pausedUntil)]);
  // Doc 3.1.5.3, Table 3.3: a Route hostname is for Public or PublicAndPrivate endpoint access, never Private.
  if (spec.platform?.aws?.endpointAccess === 'Private') {
    report(
      R.HCP_W131_EXCLUSIVE_FIELDS,
      (list(spec.services) ?? []).map((entry: any, i: number) =>
        typeof entry?.servicePublishingStrategy?.route?.hostname === 'string'
          ? `spec.services[${i}].servicePublishingStrategy.route.hostname (${show(entry.servicePublishingStrategy.route.hostname)}) cannot be given with spec.platform.aws.endpointAccess Private: the docs allow a Route hostname with Public or PublicAndPrivate access only (doc 3.1.5.3, Table 3.3)`
          : undefined,
      ),
    );
  }
}

/** `spec.channel` of a syntax HyperShift's docs give (doc 6.2), for the release's minor: the CRD checks its length only. */
function channelProblem(object: any): string | undefined {
  const channel = object.spec?.channel;
  if (channel === undefined) return undefined;
  const parsed = ReleaseChannel.of(channel);
  const version = releaseVersionOf(object);
  const problem = version ? parsed.problemFor(version) : parsed.problem;
  return problem?.replace(/^channel /, 'spec.channel ');
}

/**
 * `spec.pausedUntil` HyperShift cannot read: it takes what Go's strconv.ParseBool takes, or an
 * RFC 3339 time (support/util/pausereconcile.go, ProcessPausedUntilField), and treats anything else
 * as not paused; the CRD's pattern is not anchored at the end, so a time with a tail passes it.
 */
function pausedUntilProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || GO_BOOLEANS.has(value) || isRfc3339(value)) return undefined;
  return `spec.pausedUntil (${show(value)}) is neither "true" nor an RFC 3339 time such as 2026-01-01T00:00:00Z: HyperShift reads it as not paused (doc 12.5)`;
}

/** What Go's strconv.ParseBool takes. */
const GO_BOOLEANS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

function lintNodePool(object: any, cluster: any, report: Report): void {
  const spec = object.spec ?? {};
  const type = spec.platform?.type;
  // Pool sizes HyperShift refuses (nodePoolSizeProblems) are not linted: the NodePool CRD's rules and
  // its scale subresource refuse every one of them, so validate reports them as problems already.
  const max = spec.autoScaling !== undefined ? spec.autoScaling?.max : spec.replicas;
  if (typeof max === 'number') report(LINT_W002, [oversizedPoolMessage(spec.autoScaling !== undefined ? 'spec.autoScaling.max' : 'spec.replicas', max)]);
  const rules = platformRules(type);
  if (rules?.poolBlock !== undefined && spec.platform?.[rules.poolBlock] === undefined) {
    report(R.HCP_W105_PLATFORM_BLOCK, [`spec.platform.${rules.poolBlock} (undefined) must be given on platform ${type}: HyperShift's ${type} controllers read the machines' settings from it`]);
  }
  // Doc 4.2.4: auto-repair of Agent machines needs a drain timeout; without one (the default, 0) a drain that never ends blocks the repair.
  if (type === 'Agent' && spec.management?.autoRepair === true && !(typeof spec.nodeDrainTimeout === 'string' && /[1-9]/.test(spec.nodeDrainTimeout))) {
    report(R.HCP_W132_HIDDEN_DEPENDENCY, [
      `spec.nodeDrainTimeout (${show(spec.nodeDrainTimeout)}) must be more than 0s when spec.management.autoRepair is true on platform Agent: the default, 0, lets a drain retry forever, and the repair waits for it (doc 4.2.4)`,
    ]);
  }
  if (cluster === undefined) return;
  const clusterName = `HostedCluster ${String(meta(cluster).namespace)}/${String(meta(cluster).name)}`;
  report(R.HCP_W111_POOL_OF_CLUSTER, [poolPlatformProblem('spec.platform.type', type, clusterName, cluster.spec?.platform?.type)]);
  const pool = releaseVersionOf(object);
  const control = releaseVersionOf(cluster);
  const skew = pool && control ? nodePoolSkewProblem(pool, control, { hyperShift: recordedHyperShiftVersion(cluster) }) : undefined;
  if (skew) report(R.HCP_W111_POOL_OF_CLUSTER, [`spec.release.image (${show(spec.release?.image)}) ${skew}`]);
}

function lintAddressPool(linted: LintedObject, advertisements: ReadonlyMap<string, readonly LintedObject[]>, clusters: ReadonlyMap<unknown, readonly LintedObject[]>, report: Report): void {
  const object = linted.object as any;
  const addresses = list(object.spec?.addresses);
  if (addresses === undefined) return;
  const parsed = parseAddressPool(addresses, (i) => `spec.addresses[${i}]`, 'spec.addresses');
  report(R.HCP_W120_METALLB_POOL, [...parsed.problems, ...poolEntryOverlaps(parsed.spans)]);

  const guest = guestFolder(linted.source);
  // The output the guest folder is in: its parent.
  const cluster = guest === undefined ? undefined : (nearest(clusters.get(guest.cluster) ?? [], path.dirname(guest.path))?.object as any);
  const mode = cluster === undefined ? undefined : advertisedAs(object, advertisements.get(guest!.path) ?? []);
  if (cluster === undefined || mode === undefined) return;
  report(
    R.HCP_W121_METALLB_NETWORK,
    poolNetworkProblems(
      parsed.spans,
      {
        cluster: `of HostedCluster ${String(meta(cluster).namespace)}/${String(meta(cluster).name)}`,
        clusterNetwork: named('clusterNetwork', list(cluster.spec?.networking?.clusterNetwork) ?? [{ cidr: DEFAULT_CLUSTER_NETWORK.ipv4 }]),
        serviceNetwork: named('serviceNetwork', list(cluster.spec?.networking?.serviceNetwork) ?? [{ cidr: DEFAULT_SERVICE_NETWORK.ipv4 }]),
        machineNetwork: named('machineNetwork', list(cluster.spec?.networking?.machineNetwork) ?? []),
        machineNetworkField: 'spec.networking.machineNetwork',
      },
      mode,
    ),
  );
}

/** How MetalLB announces a pool: the advertisements in its namespace that name it (or every pool); undefined for none or both kinds. */
function advertisedAs(pool: any, advertisements: readonly LintedObject[]): 'layer2' | 'bgp' | undefined {
  const { name, namespace } = meta(pool);
  const modes = new Set<'layer2' | 'bgp'>();
  for (const { object } of advertisements) {
    const kind = isKind(object, METALLB, 'L2Advertisement') ? 'layer2' : isKind(object, METALLB, 'BGPAdvertisement') ? 'bgp' : undefined;
    if (kind === undefined || meta(object).namespace !== namespace) continue;
    const spec = (object as any).spec ?? {};
    const pools = list(spec.ipAddressPools);
    if (pools === undefined ? spec.ipAddressPoolSelectors === undefined : pools.includes(name)) modes.add(kind);
  }
  return modes.size === 1 ? [...modes][0] : undefined;
}

const LINT_W001 = MANIFEST_LINT_RULES.HCP_W001_TINY_ETCD_VOLUME;
const LINT_W002 = MANIFEST_LINT_RULES.HCP_W002_OVERSIZED_POOL;

/** The innermost folder `<cluster>-guest` a file is in, where hcp-cdk writes a hosted cluster's guest objects. */
function guestFolder(file: string): { readonly path: string; readonly cluster: string } | undefined {
  const folders = path.dirname(file).split(path.sep);
  for (let i = folders.length - 1; i >= 0; i--) {
    if (folders[i].endsWith('-guest') && folders[i].length > '-guest'.length) return { path: folders.slice(0, i + 1).join(path.sep), cluster: folders[i].slice(0, -'-guest'.length) };
  }
  return undefined;
}

/** The candidate whose file's folder shares the most folders with `dir`; undefined when none, or two share as many. */
function nearest(candidates: readonly LintedObject[], dir: string): LintedObject | undefined {
  const parts = dir.split(path.sep);
  const shared = (c: LintedObject) => {
    const theirs = path.dirname(c.source).split(path.sep);
    let n = 0;
    while (n < parts.length && n < theirs.length && parts[n] === theirs[n]) n++;
    return n;
  };
  const scored = candidates.map((c) => ({ c, n: shared(c) }));
  const best = Math.max(...scored.map((s) => s.n));
  const at = scored.filter((s) => s.n === best);
  return at.length === 1 ? at[0].c : undefined;
}

function named(network: string, entries: readonly any[]): { field: string; text: string }[] {
  return entries.map((entry, i) => ({ field: `spec.networking.${network}[${i}].cidr`, text: entry?.cidr })).filter((entry): entry is { field: string; text: string } => typeof entry.text === 'string');
}

function isKind(object: unknown, group: RegExp, kind: string): boolean {
  return isPlainObject(object) && object.kind === kind && typeof object.apiVersion === 'string' && group.test(object.apiVersion);
}

function meta(object: unknown): { name?: unknown; namespace?: unknown } {
  const metadata = (object as { metadata?: unknown })?.metadata;
  return isPlainObject(metadata) ? metadata : {};
}

function list(value: unknown): any[] | undefined {
  return Array.isArray(value) ? value : undefined;
}
