// Two functions rather than semver's index, which loads all of semver (~30 ms of every process).
import semverCompare from 'semver/functions/compare';
import semverParse from 'semver/functions/parse';
import type { ReleaseChannel } from './release-channel';

/**
 * An OpenShift release payload. HyperShift needs the image; the version, read from the tag or
 * given with a digest, lets update paths and NodePool version skew be checked.
 */

// Docker distribution reference grammar, simplified to what a registry accepts.
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?';
const IMAGE_REFERENCE = new RegExp(`^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`);
/** Whether `image` is a container image reference (`registry/path[:tag][@sha256:…]`). */
export function isImageReference(image: string): boolean {
  return IMAGE_REFERENCE.test(image);
}

// A release tag is the OpenShift version, a semantic version, and the payload architecture.
const ARCHITECTURE_SUFFIX = /-(?:x86_64|aarch64|multi|ppc64le|s390x)$/;
// semver also takes a leading `v` or `=`, blanks and `+build`, none of which a release tag has.
const VERSION_SHAPE = /^\d[0-9A-Za-z.-]*$/;
const VERSION_RULE = 'must be an OpenShift version such as 4.17.0 or 4.18.0-rc.2';

/** What a release image must look like, for error messages. */
export const RELEASE_IMAGE_RULE = 'must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>';

/** Release architectures as the release repository names them. */
export enum ReleaseArchitecture {
  /** 64-bit x86. */
  X86_64 = 'x86_64',
  /** 64-bit ARM. */
  AARCH64 = 'aarch64',
  /** The multi-architecture payload. */
  MULTI = 'multi',
  /** IBM Power, little-endian. */
  PPC64LE = 'ppc64le',
  /** IBM Z. */
  S390X = 's390x',
}

/** An OpenShift version, taken apart. */
export interface ReleaseVersion {
  /** The major version: 4. */
  readonly major: number;
  /** The minor version: 17 in 4.17.3. */
  readonly minor: number;
  /** The patch version: 3 in 4.17.3. */
  readonly patch: number;
  /**
   * The pre-release part: `rc.2` for 4.18.0-rc.2, `ec.1` for an engineering candidate.
   * @default - none: a generally available release, newer than its candidates
   */
  readonly prerelease?: string;
}

/** The version a release tag such as `4.18.0-rc.2-multi` or a stated version names. */
function parseVersion(text: string): ReleaseVersion | undefined {
  const version = text.replace(ARCHITECTURE_SUFFIX, '');
  const parsed = VERSION_SHAPE.test(version) ? semverParse(version) : null;
  if (!parsed) return undefined;
  const { major, minor, patch, prerelease } = parsed;
  return prerelease.length > 0 ? { major, minor, patch, prerelease: prerelease.join('.') } : { major, minor, patch };
}

/** `4.18.0-rc.2` */
export function formatVersion(v: ReleaseVersion): string {
  return `${v.major}.${v.minor}.${v.patch}${v.prerelease ? `-${v.prerelease}` : ''}`;
}

/** What both Release factories take. */
export interface ReleaseOptions {
  /**
   * The update channel the cluster follows (`spec.channel`), e.g. `ReleaseChannel.stable('4.17')`.
   * @default - none: the HostedCluster lists no available updates
   */
  readonly channel?: ReleaseChannel;
}

export interface FromVersionOptions extends ReleaseOptions {
  /**
   * The payload architecture.
   * @default ReleaseArchitecture.MULTI - the stream `hcp` uses (4-stable-multi)
   */
  readonly architecture?: ReleaseArchitecture;
  /**
   * The release repository.
   * @default 'quay.io/openshift-release-dev/ocp-release'
   */
  readonly repository?: string;
}

export interface FromImageOptions extends ReleaseOptions {
  /**
   * The OpenShift version the image carries, for images referenced by digest. It is written into
   * the output (the `hcp-cdk.io/release-version` annotation), so that synth and `hcp-cdk plan` check
   * update paths and version skew as for a tag.
   * @default - read from the tag when it looks like `4.17.0-x86_64`, otherwise unknown: nothing is
   *   checked, and synth warns (lint HCP-W004; an error with strict)
   */
  readonly version?: string;
}

/** An OpenShift release payload, by image (tag or digest) or by version, with the version it is known to be. */
export class Release {
  /** A release image by tag or digest: `quay.io/openshift-release-dev/ocp-release@sha256:…`. */
  public static fromImage(image: string, options: FromImageOptions = {}): Release {
    return new Release(image, options.version, options.channel);
  }

  /** The public OpenShift release of this version, e.g. `4.17.0`, or a candidate such as `4.18.0-rc.2`. */
  public static fromVersion(version: string, options: FromVersionOptions = {}): Release {
    const repository = options.repository ?? 'quay.io/openshift-release-dev/ocp-release';
    const architecture = options.architecture ?? ReleaseArchitecture.MULTI;
    return new Release(`${repository}:${version}-${architecture}`, version, options.channel);
  }

  /** The image reference written to `spec.release.image`. */
  public readonly image: string;
  /** The version when known, e.g. `{ major: 4, minor: 17, patch: 0 }`. */
  public readonly version?: ReleaseVersion;
  /** Whether the reference pins a digest, as disconnected installs require. */
  public readonly isDigest: boolean;
  /** The update channel a HostedCluster of this release follows. */
  public readonly channel?: ReleaseChannel;
  /** Why the image reference (or the channel) is malformed, or undefined when it is fine. */
  public readonly problem?: string;

  private constructor(image: string, version?: string, channel?: ReleaseChannel) {
    this.image = image;
    this.channel = channel;
    const match = IMAGE_REFERENCE.exec(image);
    this.isDigest = !!match?.[2];
    if (!match || image.length > 4096) {
      this.problem = `release image (${JSON.stringify(image)}) ${RELEASE_IMAGE_RULE}`;
    }
    const tagged = match?.[1] ? parseVersion(match[1]) : undefined;
    const stated = version !== undefined ? parseVersion(version) : undefined;
    if (tagged && stated && formatVersion(tagged) !== formatVersion(stated)) {
      this.problem ??= `release version (${JSON.stringify(version)}) contradicts the image tag (${JSON.stringify(match![1])}), which is ${formatVersion(tagged)}; give the tag's version or leave version out`;
    }
    this.version = version !== undefined ? stated : tagged;
    if (version !== undefined && !stated) {
      this.problem ??= `release version (${JSON.stringify(version)}) ${VERSION_RULE}`;
    }
    if (channel) this.problem ??= this.version ? channel.problemFor(this.version) : channel.problem;
  }

  /** Orders two versions as semantic versions: negative when a is older than b; 4.18.0-ec.1 < 4.18.0-rc.2 < 4.18.0. */
  public static compareVersions(a: ReleaseVersion, b: ReleaseVersion): number {
    return semverCompare(formatVersion(a), formatVersion(b));
  }
}
