import { show } from '../core/problems';
import { formatVersion, type ReleaseVersion } from './release';

/** The update streams OpenShift publishes a channel of for every minor version. */
export enum ReleaseChannelStream {
  /** Releases recommended for every cluster. */
  STABLE = 'stable',
  /** Releases as soon as they are supported, before stable. */
  FAST = 'fast',
  /** Release candidates and releases, unsupported. */
  CANDIDATE = 'candidate',
  /** Extended Update Support: even minor versions only. */
  EUS = 'eus',
}

const CHANNEL = /^(stable|fast|candidate|eus)-(\d+)\.(\d+)$/;

/**
 * An update channel (`spec.channel`): the stream HyperShift reads `status.version.availableUpdates`
 * from (doc 6.2). Without one, the HostedCluster lists no updates.
 */
export class ReleaseChannel {
  /** `stable-<minor>`, e.g. `ReleaseChannel.stable('4.17')`. */
  public static stable(minor: string): ReleaseChannel {
    return new ReleaseChannel(`${ReleaseChannelStream.STABLE}-${minor}`);
  }

  /** `fast-<minor>`: releases as soon as they are supported, before stable. */
  public static fast(minor: string): ReleaseChannel {
    return new ReleaseChannel(`${ReleaseChannelStream.FAST}-${minor}`);
  }

  /** `candidate-<minor>`: release candidates too; not for production. */
  public static candidate(minor: string): ReleaseChannel {
    return new ReleaseChannel(`${ReleaseChannelStream.CANDIDATE}-${minor}`);
  }

  /** `eus-<minor>`: Extended Update Support, which OpenShift offers for even minors only. */
  public static eus(minor: string): ReleaseChannel {
    return new ReleaseChannel(`${ReleaseChannelStream.EUS}-${minor}`);
  }

  /** A channel by its full name, e.g. `stable-4.17`. */
  public static of(name: string): ReleaseChannel {
    return new ReleaseChannel(name);
  }

  /** The name written to `spec.channel`. */
  public readonly name: string;
  /** The stream, when the name has the `<stream>-<major>.<minor>` shape. */
  public readonly stream?: ReleaseChannelStream;
  /** The channel's major version, when the name has the `<stream>-<major>.<minor>` shape. */
  public readonly major?: number;
  /** The channel's minor version, when the name has the `<stream>-<major>.<minor>` shape. */
  public readonly minor?: number;
  /** Why the name is not a channel, or undefined when it is one. */
  public readonly problem?: string;

  private constructor(name: string) {
    this.name = name;
    const match = typeof name === 'string' ? CHANNEL.exec(name) : null;
    if (!match) {
      this.problem = `channel (${show(name)}) must look like stable-4.17 (stable, fast, candidate or eus)`;
      return;
    }
    this.stream = match[1] as ReleaseChannelStream;
    this.major = Number(match[2]);
    this.minor = Number(match[3]);
    if (this.stream === ReleaseChannelStream.EUS && this.minor % 2 !== 0) {
      this.problem = `channel (${JSON.stringify(name)}) is an eus channel of an odd minor; Extended Update Support exists for even minors only, e.g. eus-${this.major}.${this.minor - 1} or eus-${this.major}.${this.minor + 1}`;
    }
  }

  /**
   * Why this channel cannot be the channel of a cluster at `version`, or undefined when it can.
   * doc 6.2 sets the channel of the release's own minor (4.16.4 → stable-4.16); OpenShift's update
   * procedure sets the next minor's channel before a minor update (4.16.z is listed in candidate-4.17,
   * as doc 6.2's status shows), and an eus channel two minors up before an EUS-to-EUS update.
   */
  public problemFor(version: ReleaseVersion): string | undefined {
    if (this.problem || this.minor === undefined) return this.problem;
    const eus = this.stream === ReleaseChannelStream.EUS;
    // eus channels exist for even minors only: own and next on an even minor are own and own + 2.
    const minors = [version.minor, version.minor + 1, ...(eus ? [version.minor + 2] : [])].filter((m) => !eus || m % 2 === 0);
    if (this.major === version.major && minors.includes(this.minor)) return undefined;
    const accepted = minors.map((m) => `${this.stream}-${version.major}.${m}`);
    return `channel (${JSON.stringify(this.name)}) does not fit release ${formatVersion(version)}: a channel names the release's minor or the next one to update to (${accepted.join(' or ')})`;
  }
}
