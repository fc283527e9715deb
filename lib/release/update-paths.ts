import { show } from '../core/problems';
import { formatVersion, Release, type ReleaseVersion } from './release';
import type { UpdateRisk } from './update-risk';

/** What an update graph says of an update from one version to another. */
export interface UpdateGraphPath {
  /** The channel whose graph was asked. */
  readonly channel: string;
  /** The risks of the edge when it is a conditional one (recommended only to clusters the risks do not apply to). */
  readonly risks?: readonly UpdateRisk[];
  /** Why the graph does not offer the update, when it does not. */
  readonly problem?: string;
}

/** An update graph as the update-path rules ask it (`assessUpgrade`'s `updateGraph`). */
export interface IUpdatePaths {
  /** The channel the graph is of, e.g. `stable-4.17`. */
  readonly channel: string;
  /** Whether the graph offers the update from `from` to `to`, and over which edge. */
  path(from: ReleaseVersion, to: ReleaseVersion): UpdateGraphPath;
}

/** A conditional edge group as the update service serves it: the edges and the risks they share. */
interface ConditionalEdges {
  readonly edges: readonly { readonly from: string; readonly to: string }[];
  readonly risks: readonly UpdateRisk[];
}

/** How many offered versions a refusal lists. */
const OFFERED = 5;

/**
 * The update graph of one channel in the format OpenShift's update service (Cincinnati) serves at
 * `/api/upgrades_info/graph?channel=<channel>&arch=<arch>`: `nodes` (each a release: `version`,
 * `payload`, `metadata`), `edges` (pairs of node indexes, from and to) and `conditionalEdges` (each a
 * list of `{from, to}` versions with the `risks` they carry). The format is openshift/cincinnati's
 * docs/design/cincinnati.md ("Graph API": nodes, and edges as index pairs from 0) and
 * docs/design/policy-engine-openapi.yaml (`Graph`, `ConditionalEdges`), and
 * cincinnati/src/conditional_edges.rs (`ConditionalEdge`, `ConditionalUpdateRisk`), at commit
 * 49c914f8. Node metadata and the risks' matching rules are not kept: hcp-cdk names a risk, it
 * does not evaluate whether it applies to a cluster (the cluster's version operator does).
 */
export class UpdatePaths implements IUpdatePaths {
  /**
   * Reads a graph document (the update service's JSON, parsed); what is wrong with it is in
   * `problems`, each starting with `source` and the field.
   */
  public static parse(document: unknown, channel: string, source: string): UpdatePaths {
    const problems: string[] = [];
    const doc = document as any;
    const nodes: { version: string; payload: string }[] = [];
    if (!Array.isArray(doc?.nodes) || doc.nodes.length === 0) problems.push(`${source}: nodes (${show(doc?.nodes)}) must be a list of releases, each with version and payload`);
    (Array.isArray(doc?.nodes) ? doc.nodes : []).forEach((node: any, i: number) => {
      const version = typeof node?.version === 'string' ? Release.fromVersion(node.version).version : undefined;
      if (!version) problems.push(`${source}: nodes[${i}].version (${show(node?.version)}) must be an OpenShift version such as 4.17.12`);
      else if (typeof node.payload !== 'string' || node.payload === '') problems.push(`${source}: nodes[${i}].payload (${show(node.payload)}) must be the release image`);
      nodes.push({ version: version ? formatVersion(version) : String(node?.version), payload: String(node?.payload) });
    });
    const edges: [number, number][] = [];
    if (doc?.edges !== undefined && !Array.isArray(doc.edges)) problems.push(`${source}: edges (${show(doc.edges)}) must be a list of [from, to] node indexes`);
    (Array.isArray(doc?.edges) ? doc.edges : []).forEach((edge: any, i: number) => {
      const fits = (n: unknown): boolean => Number.isInteger(n) && (n as number) >= 0 && (n as number) < nodes.length;
      if (!Array.isArray(edge) || edge.length !== 2 || !fits(edge[0]) || !fits(edge[1])) {
        problems.push(`${source}: edges[${i}] (${show(edge)}) must be [from, to], two indexes of nodes from 0 to ${nodes.length - 1}`);
      } else edges.push([edge[0], edge[1]]);
    });
    const conditional: ConditionalEdges[] = [];
    (Array.isArray(doc?.conditionalEdges) ? doc.conditionalEdges : []).forEach((group: any, i: number) => {
      const field = `${source}: conditionalEdges[${i}]`;
      const groupEdges = (Array.isArray(group?.edges) ? group.edges : []).filter((e: any, j: number) => {
        const ok = typeof e?.from === 'string' && typeof e?.to === 'string';
        if (!ok) problems.push(`${field}.edges[${j}] (${show(e)}) must be {from, to}, two versions`);
        return ok;
      });
      const risks = (Array.isArray(group?.risks) ? group.risks : []).filter((r: any, j: number) => {
        const ok = typeof r?.name === 'string' && r.name !== '';
        if (!ok) problems.push(`${field}.risks[${j}].name (${show(r?.name)}) must name the risk`);
        return ok;
      });
      if (risks.length === 0 && (!Array.isArray(group?.risks) || group.risks.length === 0))
        problems.push(`${field}.risks (${show(group?.risks)}) must give at least one risk: a conditional edge is one with risks`);
      conditional.push({
        edges: groupEdges.map((e: any) => ({ from: e.from, to: e.to })),
        risks: risks.map((r: any) => ({ name: r.name, ...(typeof r.message === 'string' ? { message: r.message } : {}), ...(typeof r.url === 'string' ? { url: r.url } : {}) })),
      });
    });
    return new UpdatePaths(channel, nodes, edges, conditional, problems);
  }

  /** The channel. */
  public readonly channel: string;
  /** What is wrong with the document, each naming the field. */
  public readonly problems: readonly string[];
  private readonly nodes: readonly { readonly version: string; readonly payload: string }[];
  private readonly edges: readonly (readonly [number, number])[];
  private readonly conditional: readonly ConditionalEdges[];
  /** The versions each version updates to without risk, and with: by version. */
  private readonly next = new Map<string, Set<string>>();
  private readonly risky = new Map<string, Map<string, UpdateRisk[]>>();
  private readonly byDigest = new Map<string, string>();
  private readonly versions = new Set<string>();

  private constructor(channel: string, nodes: UpdatePaths['nodes'], edges: UpdatePaths['edges'], conditional: readonly ConditionalEdges[], problems: readonly string[]) {
    this.channel = channel;
    this.nodes = nodes;
    this.edges = edges;
    this.conditional = conditional;
    this.problems = problems;
    for (const node of nodes) {
      this.versions.add(node.version);
      const digest = digestOf(node.payload);
      if (digest) this.byDigest.set(digest, node.version);
    }
    for (const [from, to] of edges) {
      const set = this.next.get(nodes[from].version) ?? new Set<string>();
      set.add(nodes[to].version);
      this.next.set(nodes[from].version, set);
    }
    for (const group of conditional) {
      for (const edge of group.edges) {
        const from = versionText(edge.from);
        const to = versionText(edge.to);
        const targets = this.risky.get(from) ?? new Map<string, UpdateRisk[]>();
        targets.set(to, [...(targets.get(to) ?? []), ...group.risks]);
        this.risky.set(from, targets);
      }
    }
  }

  /** The version the graph gives the release image `image`, matched by digest (a mirror has the same one); undefined when it lists no such payload. */
  public payloadVersion(image: string): string | undefined {
    const digest = digestOf(image);
    return digest === undefined ? undefined : this.byDigest.get(digest);
  }

  public path(from: ReleaseVersion, to: ReleaseVersion): UpdateGraphPath {
    const f = formatVersion(from);
    const t = formatVersion(to);
    const channel = this.channel;
    if (!this.versions.has(f)) return { channel, problem: `the update graph of ${channel} does not list ${f}, so it offers no update from it; give the graph of the channel the cluster is on` };
    if (!this.versions.has(t)) return { channel, problem: `the update graph of ${channel} does not list ${t}: it is no release of that channel` };
    if (this.next.get(f)?.has(t)) return { channel };
    const risks = this.risky.get(f)?.get(t);
    if (risks) return { channel, risks };
    return { channel, problem: `the update graph of ${channel} has no edge from ${f} to ${t}; ${this.offered(f)}` };
  }

  /** The graph as hcp-cdk keeps it in the output's record: the update service's format, without node metadata and matching rules. */
  public toDocument(): Record<string, unknown> {
    return {
      nodes: this.nodes.map((n) => ({ version: n.version, payload: n.payload })),
      edges: this.edges.map(([from, to]) => [from, to]),
      conditionalEdges: this.conditional.map((group) => ({ edges: group.edges.map((e) => ({ ...e })), risks: group.risks.map((r) => ({ ...r })) })),
    };
  }

  /** `from 4.16.20 it offers 4.17.11 and 4.17.10 (conditionally 4.17.12: risk X)`, newest first. */
  private offered(from: string): string {
    const byNewest = (a: string, b: string): number => Release.compareVersions(Release.fromVersion(b).version!, Release.fromVersion(a).version!);
    const plain = [...(this.next.get(from) ?? [])].sort(byNewest);
    const risky = [...(this.risky.get(from)?.entries() ?? [])].sort(([a], [b]) => byNewest(a, b));
    if (plain.length === 0 && risky.length === 0) return `it offers no update from ${from}`;
    const list = (items: readonly string[]): string => (items.length > OFFERED ? `${items.slice(0, OFFERED).join(', ')} and ${items.length - OFFERED} more` : items.join(', '));
    const conditionally = risky.length > 0 ? `${plain.length > 0 ? '; ' : ''}conditionally ${list(risky.map(([to, risks]) => `${to} (risk ${risks.map((r) => r.name).join(', ')})`))}` : '';
    return `from ${from} it offers ${plain.length > 0 ? list(plain) : ''}${conditionally}`;
  }
}

/** `sha256:<hex>` of an image reference by digest; undefined for a tag. */
export function digestOf(image: string): string | undefined {
  const at = image.lastIndexOf('@');
  return at < 0 ? undefined : image.slice(at + 1);
}

/** A version as the graph's conditional edges write it, in the form nodes are keyed by. */
function versionText(text: string): string {
  const version = Release.fromVersion(text).version;
  return version ? formatVersion(version) : text;
}
