import { rfc3339Text } from '../core/formats';
import { PausedUntil } from './paused-until';
import { Problems, show } from '../core/problems';
import { Release } from './release';
import { ReleaseChannel } from './release-channel';
import { HubHyperShift, HYPERSHIFT_VERSION_ANNOTATION } from './hypershift-version';
import { RELEASE_VERSION_ANNOTATION, releaseVersionAnnotation } from './release-version';
import { unsupportedReleaseProblem } from './version-skew';

/**
 * Forces a HostedCluster upgrade although the hosted ClusterVersion reports it not Upgradeable; the
 * value must be the release image being forced (HyperShift API; doc 6.7 sets it before the release).
 */
export const FORCE_UPGRADE_TO_ANNOTATION = 'hypershift.openshift.io/force-upgrade-to';
/**
 * Makes HyperShift skip its own version checks of a HostedCluster's release and the minimum version
 * of its NodePools (`SkipReleaseImageValidation`, api/hypershift/v1beta1/hostedcluster_types.go):
 * `validateReleaseImage` and the NodePool controller's `getReleaseImage` return before `IsValidReleaseVersion`.
 */
export const SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION = 'hypershift.openshift.io/skip-release-image-validation';

/**
 * The image HyperShift runs a HostedCluster's control plane from, which the force-upgrade-to
 * annotation must be to force an upgrade: `spec.controlPlaneRelease.image` when set, else
 * `spec.release.image` (`HCControlPlaneReleaseImage`, support/util/util.go).
 */
export function controlPlaneImageOf(hostedCluster: any): string | undefined {
  const image = hostedCluster?.spec?.controlPlaneRelease?.image ?? hostedCluster?.spec?.release?.image;
  return typeof image === 'string' ? image : undefined;
}

/** Restarts every control-plane component when its value changes (doc 12.4). */
export const RESTART_DATE_ANNOTATION = 'hypershift.openshift.io/restart-date';

/** The HostedCluster props about updates, as HostedClusterProps declares them. */
export interface UpgradeSettingsInput {
  readonly release: Release;
  readonly channel?: ReleaseChannel | string;
  readonly forceUpgradeTo?: Release;
  readonly restartDate?: Date | string;
  readonly pausedUntil?: PausedUntil | string;
  readonly annotations?: Record<string, string>;
  /** The management cluster and the HyperShift version it states, recorded on the cluster and checked against its release. */
  readonly hub?: HubHyperShift;
}

/** What the update props write into a HostedCluster. */
export interface UpgradeSettings {
  readonly channel?: string;
  readonly pausedUntil?: string;
  /** `annotations` with the force-upgrade-to, restart-date and release-version annotations added; undefined when there are none. */
  readonly annotations?: Record<string, string>;
}

/** Checks the update props of a HostedCluster and renders them. */
export function renderUpgradeSettings(input: UpgradeSettingsInput, problems: Problems): UpgradeSettings {
  const channel = resolveChannel(input, problems);
  const paused = input.pausedUntil === undefined ? undefined : PausedUntil.of(input.pausedUntil);
  if (paused?.problem) problems.add(paused.problem);

  const added: Record<string, string> = {};
  if (input.forceUpgradeTo !== undefined && !(input.forceUpgradeTo instanceof Release)) {
    problems.add(`forceUpgradeTo (${show(input.forceUpgradeTo)}) must be a Release: Release.fromImage(...) or Release.fromVersion(...), the cluster's release`);
  } else if (input.forceUpgradeTo !== undefined) {
    const target = input.forceUpgradeTo.image;
    problems.require(
      target === input.release.image,
      'forceUpgradeTo',
      target,
      `must be the cluster's release (${JSON.stringify(input.release.image)}): HyperShift forces only the upgrade to the image the annotation names`,
    );
    added[FORCE_UPGRADE_TO_ANNOTATION] = target;
  }
  if (input.restartDate !== undefined) {
    const { text, problem } = rfc3339Text('restartDate', input.restartDate);
    if (problem) problems.add(problem);
    else added[RESTART_DATE_ANNOTATION] = text!;
  }
  Object.assign(added, releaseVersionAnnotation(input.release));
  const hyperShift = input.hub?.hyperShift;
  if (hyperShift && !hyperShift.problem) {
    added[HYPERSHIFT_VERSION_ANNOTATION] = hyperShift.record;
    const unsupported =
      input.release.version && !(SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION in (input.annotations ?? {})) ? unsupportedReleaseProblem(input.release.version, input.hub, 'cluster') : undefined;
    if (unsupported) problems.add(`release (${JSON.stringify(input.release.image)}) ${unsupported}`);
  }
  const field: Record<string, string> = {
    [FORCE_UPGRADE_TO_ANNOTATION]: 'forceUpgradeTo',
    [RESTART_DATE_ANNOTATION]: 'restartDate',
    [RELEASE_VERSION_ANNOTATION]: 'release',
    [HYPERSHIFT_VERSION_ANNOTATION]: "the management cluster's hyperShift",
  };
  for (const key of Object.keys(added)) {
    if (input.annotations?.[key] !== undefined) problems.add(`annotations (${JSON.stringify(key)}) is what ${field[key]} sets; give one of them`);
  }
  const annotations = Object.keys(added).length > 0 ? { ...input.annotations, ...added } : input.annotations;
  return { channel: channel?.name, pausedUntil: paused?.value, annotations };
}

/** The channel prop, or the release's; checked against the release's version. */
function resolveChannel(input: UpgradeSettingsInput, problems: Problems): ReleaseChannel | undefined {
  const fromRelease = input.release.channel;
  if (input.channel === undefined) return fromRelease;
  const channel = input.channel instanceof ReleaseChannel ? input.channel : ReleaseChannel.of(input.channel);
  if (fromRelease && fromRelease.name !== channel.name) {
    problems.add(`channel (${JSON.stringify(channel.name)}) differs from the release's channel (${JSON.stringify(fromRelease.name)}); give the channel in one place`);
  }
  // The release's own channel is checked with the release.
  const problem = input.release.version ? channel.problemFor(input.release.version) : channel.problem;
  if (problem) problems.add(problem);
  return channel;
}
