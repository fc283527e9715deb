import { Construct, IConstruct } from 'constructs';
import { hcpCdkCrd } from '../core/hcp-cdk-crd';
import { Problems, show } from '../core/problems';
import { ManifestDocuments, readManifestFile } from '../validation/manifest-files';
import { ReleaseChannel } from './release-channel';
import { ROLLOUT_RECORD_API_VERSION } from './rollout-record';
import { UpdateGraphs } from './update-graphs';
import { UpdatePaths } from './update-paths';

/** The kind of the output's record of an update graph (in `rollouts/`, which no engine applies). */
export const UPDATE_GRAPH_RECORD_KIND = 'UpdateGraph';

/** Props of an UpdateGraph: the channel, and the graph as a file or as parsed JSON. */
export interface UpdateGraphProps {
  /** The channel the graph is of: `ReleaseChannel.stable('4.17')` or `'stable-4.17'`. */
  readonly channel: ReleaseChannel | string;
  /**
   * The graph as the update service serves it, saved to a file (JSON or YAML):
   * `curl -H 'Accept: application/json' 'https://api.openshift.com/api/upgrades_info/graph?channel=stable-4.17&arch=multi' > graphs/stable-4.17.json`
   * (or from your OpenShift Update Service in a disconnected estate).
   * @default - `graph` must be given
   */
  readonly file?: string;
  /** The graph document, parsed. @default - `file` must be given */
  readonly graph?: unknown;
}

/** The graphs declared under each app root. */
const declared = new WeakMap<IConstruct, UpdateGraph[]>();

/**
 * The update graph OpenShift publishes for a channel, committed beside the app: with it, synth and
 * `hcp-cdk plan` check a HostedCluster's update on that channel (`spec.channel`) against the graph's
 * edges instead of version arithmetic alone (a path without an edge is refused, a conditional edge
 * is named with its risks), and refuse a release whose declared version contradicts the payload the
 * graph lists for its digest, on any channel. The output keeps the graph in `rollouts/` (applied by
 * no engine), so that plan, which reads outputs only, checks against the graph the commit was made with.
 */
export class UpdateGraph extends Construct {
  /** The update graphs declared in the app `scope` is in, by channel. */
  public static of(scope: IConstruct): UpdateGraphs {
    return new UpdateGraphs((declared.get(scope.node.root) ?? []).map((g) => g.paths));
  }

  /** The channel's name. */
  public readonly channel: string;
  /** The graph. */
  public readonly paths: UpdatePaths;

  constructor(scope: Construct, id: string, props: UpdateGraphProps) {
    super(scope, id);
    const problems = new Problems(this);
    const channel = props?.channel instanceof ReleaseChannel ? props.channel : ReleaseChannel.of(props?.channel);
    if (channel.problem) problems.add(channel.problem);
    this.channel = channel.name;
    const given = [props?.file !== undefined, props?.graph !== undefined].filter(Boolean).length;
    if (given !== 1) problems.add(`file (${show(props?.file)}) and graph: give exactly one, the file the update service's graph is saved in or the parsed graph`);
    problems.throwIfAny();
    const source = props.file ?? 'graph';
    this.paths = UpdatePaths.parse(props.file !== undefined ? readGraphFile(props.file, problems) : props.graph, this.channel, source);
    if (!problems.all.length) for (const problem of this.paths.problems) problems.add(problem);
    const others = declared.get(this.node.root) ?? [];
    const twice = others.find((g) => g.channel === this.channel);
    if (twice) problems.add(`channel (${show(this.channel)}) has a graph already (${twice.node.path}); give one graph per channel`);
    problems.report();
    declared.set(this.node.root, [...others, this]);
  }

  /** The record the output holds in `rollouts/`, which `hcp-cdk plan` reads the graph from. */
  public record(): Record<string, unknown> {
    return { apiVersion: ROLLOUT_RECORD_API_VERSION, kind: UPDATE_GRAPH_RECORD_KIND, metadata: { name: this.channel }, spec: { channel: this.channel, ...this.paths.toDocument() } };
  }
}

/** The update graphs an output's records hold (`rollouts/`), for plan; a record that does not parse is left out. */
export function updateGraphsOfRecords(records: readonly any[]): UpdateGraphs {
  const graphs = records
    .filter((r) => r?.kind === UPDATE_GRAPH_RECORD_KIND && typeof r.spec?.channel === 'string')
    .map((r) => UpdatePaths.parse(r.spec, r.spec.channel, `update graph ${r.spec.channel}`))
    .filter((g) => g.problems.length === 0);
  return new UpdateGraphs(graphs);
}

/**
 * The document of a graph file, read as every hand-written file is (`readManifestFile`): a regular
 * file within the size bound (a FIFO or a link to a device is refused, not waited on), JSON unless
 * its name says YAML, a key an object holds twice or aliases that expand too far a problem.
 */
function readGraphFile(file: string, problems: Problems): unknown {
  let read: ManifestDocuments;
  try {
    read = readManifestFile(file);
  } catch (error) {
    // The reader's message names the file first; the field names it here.
    problems.add(`file (${show(file)}) cannot be read: ${(error as Error).message.replace(`${file}: `, '')}`);
    return undefined;
  }
  if (read.problems.length > 0) {
    for (const problem of read.problems) problems.add(`file (${show(file)}) is not the update service's graph: ${problem.message}`);
    return undefined;
  }
  if (read.documents.length !== 1) {
    problems.add(`file (${show(file)}) holds ${read.documents.length} documents; the update service's graph is one`);
    return undefined;
  }
  return read.documents[0];
}

const versionList = { type: 'array', items: { type: 'object', required: ['from', 'to'], properties: { from: { type: 'string' }, to: { type: 'string' } } } };

/** The record's schema, served to the validator with the bundled ones (`hcp-cdk validate` reads the records too). */
export const UPDATE_GRAPH_RECORD_CRD = hcpCdkCrd(UPDATE_GRAPH_RECORD_KIND, 'updategraphs', {
  type: 'object',
  required: ['channel', 'nodes', 'edges'],
  properties: {
    channel: { type: 'string', minLength: 1 },
    nodes: { type: 'array', minItems: 1, items: { type: 'object', required: ['version', 'payload'], properties: { version: { type: 'string' }, payload: { type: 'string' } } } },
    edges: { type: 'array', items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'integer', minimum: 0 } } },
    conditionalEdges: {
      type: 'array',
      items: {
        type: 'object',
        required: ['edges', 'risks'],
        properties: {
          edges: versionList,
          risks: { type: 'array', minItems: 1, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, message: { type: 'string' }, url: { type: 'string' } } } },
        },
      },
    },
  },
});
