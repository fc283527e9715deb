import { identify, type ValidationProblem } from '../validation/validation-problem';
import { formatVersion, Release } from './release';
import { RELEASE_VERSION_ANNOTATION, releaseVersionOf } from './release-version';
import type { UpdateGraphs } from './update-graphs';
import { digestOf } from './update-paths';

/**
 * What is wrong with the version a HostedCluster or NodePool declares for its release image (its tag,
 * or hcp-cdk's release-version annotation for a digest), which the update paths and version skew are
 * checked by: a version that contradicts the payload an update graph lists for the same digest, and
 * a new version declared for an image that does not change (a relabel) that no graph settles. An
 * image is one release; a relabel would change what every later check believes it is.
 * @param previous the object in the previous output, if any
 * @param graphs the update graphs the app or the output gives
 */
export function releaseIdentityProblems(object: any, previous: any, graphs: UpdateGraphs | undefined, source?: string): ValidationProblem[] {
  const kind = object?.kind;
  if (kind !== 'HostedCluster' && kind !== 'NodePool') return [];
  const image = object.spec?.release?.image;
  const declared = releaseVersionOf(object);
  if (typeof image !== 'string' || !declared) return [];
  const version = formatVersion(declared);
  const listed = graphs?.payload(image);
  const field = `metadata.annotations[${JSON.stringify(RELEASE_VERSION_ANNOTATION)}]`;
  const problem = (message: string): ValidationProblem[] => [{ object: identify(object), path: Release.fromImage(image).version ? 'spec.release.image' : field, message, value: version, source }];
  if (listed && listed.version !== version) {
    return problem(
      `refused: the release is declared ${version}, but the update graph of ${listed.channel} lists its payload (${digestOf(image)}) as ${listed.version}; give the version the graph gives, or the right image`,
    );
  }
  const before = previous?.kind === kind && previous.spec?.release?.image === image ? releaseVersionOf(previous) : undefined;
  if (!before || formatVersion(before) === version || listed) return [];
  return problem(
    `refused: the same image (${image}) was declared ${formatVersion(before)} and is now ${version}: an image is one release, and its update paths and version skew are checked by its version; ` +
      "to correct a version declared wrong, give the update graph of the cluster's channel (UpdateGraph), which settles the version of the payloads it lists",
  );
}
