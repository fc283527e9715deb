import { IConstruct } from 'constructs';
import { redactSecrets, redactText } from './redaction';

/**
 * Thrown when hcp-cdk input cannot become valid Kubernetes objects.
 * The message lists every problem found, one per line.
 */
export class HcpValidationError extends Error {
  /** The problems, one sentence each. */
  declare public readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.length === 1 ? problems[0] : `${problems.length} problems:\n  - ${problems.join('\n  - ')}`);
    this.name = 'HcpValidationError';
    // Not enumerable, so that Node does not print the list a second time.
    Object.defineProperty(this, 'problems', { value: problems, enumerable: false });
    // The problems say where they are; a stack trace through hcp-cdk internals would only bury them.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Renders a value for an error message the way the user wrote it. */
export function show(value: unknown): string {
  // Secret material (a pull secret's JSON, a private key, a password in a URL) given in the wrong place is not echoed.
  if (typeof value === 'string') return JSON.stringify(redactText(value));
  if (value === undefined) return 'undefined';
  // JSON has no NaN or Infinity and would print them as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- JSON.stringify gives undefined only for a function or a symbol here, never a plain object
  return JSON.stringify(redactSecrets(value)) ?? String(value);
}

/**
 * Collects the problems of one construct so that all of them are reported at
 * once, each naming the construct path, the field, the value and what is accepted.
 * This is hcp-cdk's one way to report a problem: constructs, platforms, deliveries and the fleet
 * all record into one, and synth throws one HcpValidationError listing everything.
 */
export class Problems {
  private readonly found: string[];
  private readonly prefix: string;

  /**
   * @param scope the construct the problems are about, or the path of one not built yet (a fleet
   *   names a cluster's path before the cluster exists); an empty path (the app) prefixes nothing
   */
  constructor(
    private readonly scope: IConstruct | string,
    within?: { readonly found: string[]; readonly prefix: string },
  ) {
    this.found = within?.found ?? [];
    this.prefix = within?.prefix ?? '';
  }

  /**
   * The same collector for the fields under `field`: `within('platform').add('region (…) …')`
   * records `<path>: platform.region (…) …`, so that parts such as a platform name their fields
   * as the user wrote them without spelling out where they sit.
   */
  public within(field: string): Problems {
    return new Problems(this.scope, { found: this.found, prefix: `${this.prefix}${field}.` });
  }

  /** Records `<path>: <field> (<value>) <expectation>` unless `ok` holds. */
  public require(ok: boolean, field: string, value: unknown, expectation: string): boolean {
    if (!ok) this.add(`${field} (${show(value)}) ${expectation}`);
    return ok;
  }

  /** Records a problem phrased by the caller, starting with its field; the construct path is prefixed. */
  public add(message: string): void {
    const path = typeof this.scope === 'string' ? this.scope : this.scope.node.path;
    this.found.push(`${path ? `${path}: ` : ''}${this.prefix}${message}`);
  }

  /** Every problem recorded, by this collector and the ones `within` made from it. */
  public get all(): readonly string[] {
    return this.found;
  }

  /**
   * Throws one error listing every recorded problem, if there are any: for problems after which the
   * construct cannot be built at all (a missing or mistyped required prop). For the rest, `report()`.
   */
  public throwIfAny(): void {
    if (this.found.length > 0) throw new HcpValidationError(this.found);
  }

  /**
   * Reports every recorded problem. In an app that reports at synth (HcpApp), they are kept on the
   * construct and synth lists them with every other problem of the app, so that one run names all
   * of them; the construct goes on being built (its objects are not written). Elsewhere, or for a
   * path of a construct not built, they are thrown now. Use it once the values checked are of the
   * types the rest of the constructor needs.
   * @returns whether there were problems (kept for synth); a construct that changes others (adds
   *   to a cluster's configuration) leaves them as they are then
   */
  public report(): boolean {
    if (this.found.length === 0) return false;
    const messages = this.found.splice(0);
    if (typeof this.scope === 'string') throw new HcpValidationError(messages);
    reportProblems(this.scope, messages);
    return true;
  }
}

/** The app roots whose problems are reported at synth, all at once (HcpApp registers its own). */
const reportingRoots = new WeakSet<IConstruct>();
const PROBLEM = 'hcp-cdk:problem';

/** Makes `Problems.report()` and `reportProblems` under `root` keep problems for synth instead of throwing them. */
export function reportProblemsAtSynth(root: IConstruct): void {
  reportingRoots.add(root.node.root);
}

/**
 * Reports problems about `scope` or what it is building, each a message starting with the path of
 * what it is about: kept on `scope` for synth when its app reports at synth, else thrown now.
 */
export function reportProblems(scope: IConstruct, messages: readonly string[]): void {
  if (messages.length === 0) return;
  if (!reportingRoots.has(scope.node.root)) throw new HcpValidationError(messages);
  for (const message of messages) scope.node.addMetadata(PROBLEM, message);
}

/** The problems reported on the given constructs (see `reportProblems`), in their order. */
export function reportedProblems(constructs: readonly IConstruct[]): string[] {
  const found: string[] = [];
  for (const construct of constructs) {
    for (const entry of construct.node.metadata) {
      if (entry.type === PROBLEM) found.push(entry.data as string);
    }
  }
  return found;
}
