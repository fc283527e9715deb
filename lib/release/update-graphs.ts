import type { IUpdatePaths, UpdatePaths } from './update-paths';

/** The update graphs an app or an output gives, by channel. */
export class UpdateGraphs {
  private readonly byChannel: ReadonlyMap<string, IUpdatePaths & { payloadVersion(image: string): string | undefined }>;

  constructor(graphs: readonly UpdatePaths[]) {
    this.byChannel = new Map(graphs.map((g) => [g.channel, g]));
  }

  /** The channels that have a graph. */
  public get channels(): readonly string[] {
    return [...this.byChannel.keys()].sort();
  }

  /** The graph of `channel`, if one is given. */
  public forChannel(channel: string | undefined): IUpdatePaths | undefined {
    return channel === undefined ? undefined : this.byChannel.get(channel);
  }

  /** The version a graph gives the payload `image` (matched by digest), and which graph; undefined when none lists it. */
  public payload(image: string):
    | {
        /** The version the graph gives the payload. */
        readonly version: string;
        /** The channel of the graph that lists it. */
        readonly channel: string;
      }
    | undefined {
    for (const [channel, graph] of this.byChannel) {
      const version = graph.payloadVersion(image);
      if (version !== undefined) return { version, channel };
    }
    return undefined;
  }
}
