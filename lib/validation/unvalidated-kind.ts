import { IConstruct } from 'constructs';
import { nearestInScopes } from '../core/construct-walk';
import { reportProblems, show } from '../core/problems';

/** Options of `allowUnvalidatedKind`. */
export interface AllowUnvalidatedKindOptions {
  /** The objects' `apiVersion`, group and version: `widgets.example.com/v1alpha1`. */
  readonly apiVersion: string;
  /** The objects' `kind`: `Widget`. */
  readonly kind: string;
  /**
   * Why these objects may go unchecked (no CRD published, it comes with a product installed later,
   * ...); printed with every synth, so that the choice stays visible in code review and in CI logs.
   */
  readonly reason: string;
}

/** One `allowUnvalidatedKind` call: the construct it was made on, and what it waives. */
export interface UnvalidatedKindWaiver extends AllowUnvalidatedKindOptions {
  /** The construct whose objects (its own and those under it) of this kind are waived. */
  readonly scope: IConstruct;
}

/** The waivers made on each construct. */
const waivers = new WeakMap<IConstruct, UnvalidatedKindWaiver[]>();

// What an API server accepts as an apiVersion (group/version, or a core version) and a kind.
const API_VERSION = /^(?:[a-z0-9]([a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\/)?v[0-9]+(?:(?:alpha|beta)[0-9]+)?$/;
const KIND = /^[A-Z][A-Za-z0-9]*$/;

/**
 * Lets the objects of one kind under `scope` (a chart, a construct, or the app) be synthesized
 * without a schema: for a kind whose CRD hcp-cdk does not bundle and that you cannot supply with
 * HcpApp's `crds`. The objects are written as they are, unchecked, and every synth lists the waiver
 * with its reason. A waiver for a kind that has a schema (bundled, or from `crds`) fails the synth:
 * its objects are checked, and a waiver that changes nothing would only mislead a reader; one that
 * no object under `scope` uses is a warning.
 */
export function allowUnvalidatedKind(scope: IConstruct, options: AllowUnvalidatedKindOptions): void {
  const { apiVersion, kind, reason } = (options ?? {}) as Partial<AllowUnvalidatedKindOptions>;
  const problems: string[] = [];
  const at = `${scope.node.path}: allowUnvalidatedKind`;
  if (typeof apiVersion !== 'string' || !API_VERSION.test(apiVersion)) {
    problems.push(`${at} apiVersion (${show(apiVersion)}) must be an API group and version, e.g. "widgets.example.com/v1alpha1", or a core version such as "v1"`);
  }
  if (typeof kind !== 'string' || !KIND.test(kind)) problems.push(`${at} kind (${show(kind)}) must be a kind as objects spell it, e.g. "Widget"`);
  if (typeof reason !== 'string' || reason.trim() === '') {
    problems.push(`${at} reason (${show(reason)}) must say why objects of this kind may go unchecked, e.g. "the vendor publishes no CRD"`);
  }
  if (problems.length > 0) {
    reportProblems(scope, problems);
    return;
  }
  const list = waivers.get(scope) ?? [];
  if (list.some((w) => w.apiVersion === apiVersion && w.kind === kind)) {
    reportProblems(scope, [`${at} (${apiVersion} ${kind}) is given twice on ${scope.node.path || 'the app'}; give it once`]);
    return;
  }
  waivers.set(scope, [...list, { scope, apiVersion: apiVersion!, kind: kind!, reason: reason! }]);
}

/**
 * A waiver as the commands take it, `<apiVersion>/<Kind>=<reason>`
 * (`widgets.example.com/v1/Widget=no CRD published`), or what is wrong with it.
 */
export function parseUnvalidatedKind(option: string, value: string): AllowUnvalidatedKindOptions | string {
  const equals = value.indexOf('=');
  const kindAt = value.lastIndexOf('/', equals < 0 ? undefined : equals);
  const apiVersion = value.slice(0, Math.max(kindAt, 0));
  const kind = value.slice(kindAt + 1, equals < 0 ? undefined : equals);
  const reason = equals < 0 ? '' : value.slice(equals + 1).trim();
  if (equals < 0 || kindAt < 0 || !API_VERSION.test(apiVersion) || !KIND.test(kind) || reason === '') {
    return `${option} (${JSON.stringify(value)}) must be <apiVersion>/<Kind>=<reason>, e.g. 'widgets.example.com/v1/Widget=the vendor publishes no CRD'`;
  }
  return { apiVersion, kind, reason };
}

/** The waivers made on `constructs`, in their order. */
export function unvalidatedKindWaivers(constructs: readonly IConstruct[]): UnvalidatedKindWaiver[] {
  return constructs.flatMap((c) => waivers.get(c) ?? []);
}

/** The waiver that covers an object of `apiVersion`/`kind` made by `construct`: one on it or on one of its scopes. */
export function waiverOf(construct: IConstruct, apiVersion: string, kind: string): UnvalidatedKindWaiver | undefined {
  return nearestInScopes(construct, (scope) => waivers.get(scope)?.find((w) => w.apiVersion === apiVersion && w.kind === kind));
}
