/**
 * An OpenShift release payload. HyperShift needs the image; the version, when
 * hcp-cdk can read it from the tag, lets NodePool version skew be checked at synth.
 */

// Docker distribution reference grammar, simplified to what a registry accepts.
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const DOMAIN = '(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?';
const IMAGE_REFERENCE = new RegExp(
  `^(?:${DOMAIN}/)?${COMPONENT}(?:/${COMPONENT})*(?::([\\w][\\w.-]{0,127}))?(?:@(sha256:[a-f0-9]{64}))?$`,
);
const VERSION_IN_TAG = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:-(x86_64|aarch64|multi|ppc64le|s390x))?$/;

export const RELEASE_IMAGE_RULE = 'must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>';

/** Release architectures as the release repository names them. */
export enum ReleaseArchitecture {
  X86_64 = 'x86_64',
  AARCH64 = 'aarch64',
  MULTI = 'multi',
  PPC64LE = 'ppc64le',
  S390X = 's390x',
}

export interface ReleaseVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

export interface FromVersionOptions {
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

export interface FromImageOptions {
  /**
   * The OpenShift version the image carries, for images referenced by digest.
   * @default - read from the tag when it looks like `4.17.0-x86_64`, otherwise unknown
   */
  readonly version?: string;
}

export class Release {
  /** A release image by tag or digest: `quay.io/openshift-release-dev/ocp-release@sha256:…`. */
  public static fromImage(image: string, options: FromImageOptions = {}): Release {
    return new Release(image, options.version);
  }

  /** The public OpenShift release of this version, e.g. `4.17.0`. */
  public static fromVersion(version: string, options: FromVersionOptions = {}): Release {
    const repository = options.repository ?? 'quay.io/openshift-release-dev/ocp-release';
    const architecture = options.architecture ?? ReleaseArchitecture.MULTI;
    return new Release(`${repository}:${version}-${architecture}`, version);
  }

  /** The image reference written to `spec.release.image`. */
  public readonly image: string;
  /** The version when known, e.g. `{ major: 4, minor: 17, patch: 0 }`. */
  public readonly version?: ReleaseVersion;
  /** Whether the reference pins a digest, as disconnected installs require. */
  public readonly isDigest: boolean;
  /** Why the image reference is malformed, or undefined when it is fine. */
  public readonly problem?: string;

  private constructor(image: string, version?: string) {
    this.image = image;
    const match = IMAGE_REFERENCE.exec(image);
    this.isDigest = !!match?.[2];
    if (!match || image.length > 4096) {
      this.problem = `release image (${JSON.stringify(image)}) ${RELEASE_IMAGE_RULE}`;
    }
    const tagged = match?.[1] ? VERSION_IN_TAG.exec(match[1]) : undefined;
    const stated = version !== undefined ? VERSION_IN_TAG.exec(version) : undefined;
    if (tagged && stated && tagged.slice(1, 4).join('.') !== stated.slice(1, 4).join('.')) {
      this.problem ??= `release version (${JSON.stringify(version)}) contradicts the image tag (${JSON.stringify(match![1])}), which is ${tagged.slice(1, 4).join('.')}; give the tag's version or leave version out`;
    }
    const versionText = version ?? match?.[1];
    const parsed = versionText ? VERSION_IN_TAG.exec(versionText) : undefined;
    if (parsed) {
      this.version = { major: Number(parsed[1]), minor: Number(parsed[2]), patch: Number(parsed[3]) };
    } else if (version !== undefined) {
      this.problem ??= `release version (${JSON.stringify(version)}) must look like 4.17.0`;
    }
  }

  /** Orders two versions: negative when a is older than b. */
  public static compareVersions(a: ReleaseVersion, b: ReleaseVersion): number {
    return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
  }
}
