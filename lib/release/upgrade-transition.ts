import type { ObjectValidator } from '../validation/object-validator';
import { identify, type ValidationProblem } from '../validation/validation-problem';
import { releaseIdentityProblems } from './release-identity-rules';
import { RELEASE_VERSION_ANNOTATION, releaseVersionAnnotationProblem, releaseVersionOf } from './release-version';
import type { UpdateGraphs } from './update-graphs';
import { assessUpgrade } from './upgrade-path';
import { controlPlaneImageOf, FORCE_UPGRADE_TO_ANNOTATION, SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION } from './upgrade-settings';

const HYPERSHIFT_GROUP = 'hypershift.openshift.io/';

/**
 * The transition rules of updates, beyond what the CRDs state: a HostedCluster or NodePool whose
 * `spec.release.image` changed against the previous output must take an update path OpenShift
 * supports (see `assessUpgrade`); a HostedCluster may be forced past it by the force-upgrade-to
 * annotation naming the new image. A version is read from the image's tag or, for a digest, from the
 * release-version annotation hcp-cdk writes; a release whose version neither tells is not checked
 * (see `uncheckedUpgrade`). A NodePool's upgradeType change, which the CRD refuses tersely, is explained.
 * @param object the object about to be written
 * @param previous the same file's object in the previous output, if any
 * @param source the construct path, named in the problems
 */
export function upgradeTransitionProblems(object: any, previous: any, source?: string, updateGraphs?: UpdateGraphs): ValidationProblem[] {
  const kind = object?.kind;
  if ((kind !== 'HostedCluster' && kind !== 'NodePool') || previous?.kind !== kind || !String(object.apiVersion).startsWith(HYPERSHIFT_GROUP)) return [];
  const problems: ValidationProblem[] = [];
  const upgradeType = object.spec?.management?.upgradeType;
  const upgradeTypeBefore = previous.spec?.management?.upgradeType;
  if (kind === 'NodePool' && upgradeTypeBefore !== undefined && upgradeType !== upgradeTypeBefore) {
    problems.push({
      object: identify(object),
      path: 'spec.management.upgradeType',
      value: upgradeType,
      source,
      message: `refused: upgradeType is immutable (${upgradeTypeBefore} before); create a new pool${upgradeType ? ` with upgradeType ${upgradeType}` : ''}, move the workloads, then delete this one (doc 6.5)`,
    });
  }
  return [...problems, ...releaseProblems(object, previous, source, updateGraphs)];
}

function releaseProblems(object: any, previous: any, source?: string, updateGraphs?: UpdateGraphs): ValidationProblem[] {
  const kind = object.kind;
  const image = object.spec?.release?.image;
  const before = previous.spec?.release?.image;
  if (typeof image !== 'string' || typeof before !== 'string' || image === before) return [];
  const from = releaseVersionOf(previous);
  const to = releaseVersionOf(object);
  if (!from || !to) return [];
  const annotations = object.metadata?.annotations ?? {};
  const assessment = assessUpgrade(
    from,
    to,
    kind === 'NodePool'
      ? { nodePool: true }
      : // HyperShift forces only the image the annotation names, by tag or digest alike, not another image of the same version.
        {
          forceUpgradeTo: annotations[FORCE_UPGRADE_TO_ANNOTATION],
          toImage: controlPlaneImageOf(object),
          releaseImageValidationSkipped: SKIP_RELEASE_IMAGE_VALIDATION_ANNOTATION in annotations,
          updateGraph: updateGraphs?.forChannel(object.spec?.channel),
        },
  );
  if (!assessment.problem) return [];
  return [{ object: identify(object), path: 'spec.release.image', message: `refused: ${assessment.problem}`, value: image, source }];
}

/**
 * Why the update path of a HostedCluster's or NodePool's changed release cannot be checked, or
 * undefined when it can (or nothing changed): the version of the previous or the new
 * `spec.release.image` is told neither by its tag nor by the release-version annotation.
 * @returns a sentence naming the images whose version is unknown
 */
export function uncheckedUpgrade(object: any, previous: any): string | undefined {
  const kind = object?.kind;
  if ((kind !== 'HostedCluster' && kind !== 'NodePool') || previous?.kind !== kind) return undefined;
  const image = object.spec?.release?.image;
  const before = previous.spec?.release?.image;
  if (typeof image !== 'string' || typeof before !== 'string' || image === before) return undefined;
  const previousUnknown = !releaseVersionOf(previous);
  const nextUnknown = !releaseVersionOf(object);
  if (!previousUnknown && !nextUnknown) return undefined;
  const which =
    previousUnknown && nextUnknown
      ? `neither the previous release (${JSON.stringify(before)}) nor the new one (${JSON.stringify(image)}) tells an OpenShift version`
      : previousUnknown
        ? `the previous release (${JSON.stringify(before)}) tells no OpenShift version`
        : `the new release (${JSON.stringify(image)}) tells no OpenShift version`;
  const remedy = nextUnknown
    ? 'give the version with the digest: Release.fromImage(image, { version })'
    : 'synthesize the previous release once with its version (Release.fromImage(image, { version })) before changing it';
  return `the update path is not checked: ${which} (no version tag, no ${RELEASE_VERSION_ANNOTATION} annotation); ${remedy}`;
}

/**
 * Every reason applying `object` over `previous` would fail: the validator's (schema, CEL and
 * transition rules, as the API server) and the update rules above, whose message replaces the
 * CRD's on the same field, as it explains it better. Synth and plan both ask this.
 */
export function applyProblems(object: any, options: ApplyCheckOptions): ValidationProblem[] {
  return applyCheck(object, options).problems;
}

/** Options of `applyProblems`. */
export interface ApplyCheckOptions {
  /** The same object in the previous output. @default - none: the object is new */
  readonly previous?: unknown;
  /** Named in the problems. @default - none */
  readonly source?: string;
  /** The API server's checks. @default - none: only the update rules */
  readonly validator?: ObjectValidator;
  /** Kinds (`<apiVersion>/<kind>`) the validator passes without a schema (see `allowUnvalidatedKind`). @default - none */
  readonly unvalidatedKinds?: ReadonlySet<string>;
  /** The update graphs (see UpdateGraph) HostedCluster updates and declared versions are checked against. @default - none: version arithmetic */
  readonly updateGraphs?: UpdateGraphs;
}

/** What `applyProblems` finds, and whether the API server rejects the object as a whole. */
export interface ApplyCheck {
  /** The problems, with the API server's and HyperShift's reasons. */
  readonly problems: ValidationProblem[];
  /**
   * Whether the API server rejects the apply (schema, CEL or transition rules, such as an
   * immutable upgradeType): then nothing of the object changes. The update paths and the
   * release-version record are hcp-cdk's and HyperShift's rules: the API server accepts those.
   */
  readonly rejected: boolean;
}

/** `applyProblems`, telling the API server's rejections apart. */
export function applyCheck(object: any, options: ApplyCheckOptions): ApplyCheck {
  const { previous, source, validator, unvalidatedKinds, updateGraphs } = options;
  // What the release is comes before where it may go.
  const updates = [...releaseIdentityProblems(object, previous, updateGraphs, source), ...(previous === undefined ? [] : upgradeTransitionProblems(object, previous, source, updateGraphs))];
  const checks = validator?.validate(object, { source, previous, unvalidatedKinds }) ?? [];
  return {
    problems: [...checks.filter((problem) => !updates.some((update) => update.path === problem.path)), ...releaseVersionProblems(object, source), ...updates],
    rejected: checks.length > 0,
  };
}

/** A release-version annotation that is not a version, or that contradicts the image's tag. */
function releaseVersionProblems(object: any, source?: string): ValidationProblem[] {
  const kind = object?.kind;
  if ((kind !== 'HostedCluster' && kind !== 'NodePool') || !String(object.apiVersion).startsWith(HYPERSHIFT_GROUP)) return [];
  const problem = releaseVersionAnnotationProblem(object);
  if (!problem) return [];
  const value = object.metadata.annotations[RELEASE_VERSION_ANNOTATION];
  return [{ object: identify(object), path: `metadata.annotations[${JSON.stringify(RELEASE_VERSION_ANNOTATION)}]`, message: problem, value, source }];
}
