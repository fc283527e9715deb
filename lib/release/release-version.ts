import { formatVersion, Release, type ReleaseVersion } from './release';

/**
 * hcp-cdk's record, on a HostedCluster or NodePool, of the OpenShift version of its
 * `spec.release.image` when the image reference does not tell it (a digest, or a tag that is not
 * a version): the `version` given to `Release.fromImage`. HyperShift ignores it; synth's
 * transition checks and `hcp-cdk plan` read it back, so that a release by digest has its update
 * paths and version skew checked as one by tag. An escape hatch that changes `spec.release.image`
 * must change it too.
 */
export const RELEASE_VERSION_ANNOTATION = 'hcp-cdk.io/release-version';

/** The annotation that records `release`'s version, when it is known and its image does not tell it; else none. */
export function releaseVersionAnnotation(release: Release): Record<string, string> | undefined {
  if (release.version === undefined || release.problem !== undefined) return undefined;
  // A version the tag tells is read from the tag: writing it twice could only let the two disagree.
  if (Release.fromImage(release.image).version !== undefined) return undefined;
  return { [RELEASE_VERSION_ANNOTATION]: formatVersion(release.version) };
}

/**
 * The OpenShift version of a HostedCluster's or NodePool's `spec.release.image` as written in an
 * output: from the image's tag, else from the release-version annotation; undefined when neither tells it.
 */
export function releaseVersionOf(object: any): ReleaseVersion | undefined {
  const image = object?.spec?.release?.image;
  const tagged = typeof image === 'string' ? Release.fromImage(image).version : undefined;
  if (tagged) return tagged;
  const recorded = object?.metadata?.annotations?.[RELEASE_VERSION_ANNOTATION];
  return typeof recorded === 'string' ? Release.fromVersion(recorded).version : undefined;
}

/**
 * Why an object's release-version annotation cannot be right, or undefined: it must be an OpenShift
 * version, and must not contradict the version the image's tag tells (an escape hatch that changed
 * the image and left the annotation).
 */
export function releaseVersionAnnotationProblem(object: any): string | undefined {
  const recorded = object?.metadata?.annotations?.[RELEASE_VERSION_ANNOTATION];
  if (recorded === undefined) return undefined;
  const stated = typeof recorded === 'string' ? Release.fromVersion(recorded) : undefined;
  if (!stated?.version) return 'must be an OpenShift version such as 4.17.0 or 4.18.0-rc.2';
  const image = object?.spec?.release?.image;
  const tagged = typeof image === 'string' ? Release.fromImage(image).version : undefined;
  if (tagged && formatVersion(tagged) !== formatVersion(stated.version)) {
    return `contradicts spec.release.image (${JSON.stringify(image)}), whose tag is ${formatVersion(tagged)}; change both together, or leave the annotation to hcp-cdk`;
  }
  return undefined;
}

/**
 * The warning for a release whose OpenShift version is unknown (a lint finding, an error with
 * `strict`), or undefined when it is known or the release is malformed (an error of its own).
 * @param checks what cannot be checked, e.g. `its update paths or its node pools' version skew`
 */
export function unknownReleaseVersion(release: Release, checks: string): string | undefined {
  if (release.version !== undefined || release.problem !== undefined) return undefined;
  return `release (${JSON.stringify(release.image)}) tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ${checks}; give it: Release.fromImage(image, { version: '4.17.0' })`;
}
