import { IConstruct } from 'constructs';

/**
 * Thrown when hcp-cdk input cannot become valid Kubernetes objects.
 * The message lists every problem found, one per line.
 */
export class HcpValidationError extends Error {
  public declare readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(problems.length === 1
      ? problems[0]
      : `${problems.length} problems:\n  - ${problems.join('\n  - ')}`);
    this.name = 'HcpValidationError';
    // Not enumerable, so that Node does not print the list a second time.
    Object.defineProperty(this, 'problems', { value: problems, enumerable: false });
    // The problems say where they are; a stack trace through hcp-cdk internals would only bury them.
    this.stack = `${this.name}: ${this.message}`;
  }
}

/** Renders a value for an error message the way the user wrote it. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  return JSON.stringify(value) ?? String(value);
}

/**
 * Collects the problems of one construct so that all of them are reported at
 * once, each naming the construct path, the field, the value and what is accepted.
 */
export class Problems {
  private readonly found: string[] = [];

  constructor(private readonly scope: IConstruct) {}

  /** Records `<path>: <field> (<value>) <expectation>` unless `ok` holds. */
  public require(ok: boolean, field: string, value: unknown, expectation: string): boolean {
    if (!ok) this.add(`${field} (${show(value)}) ${expectation}`);
    return ok;
  }

  /** Records a problem phrased by the caller; the construct path is prefixed. */
  public add(message: string): void {
    this.found.push(`${this.scope.node.path}: ${message}`);
  }

  public get all(): readonly string[] {
    return this.found;
  }

  /** Throws one error listing every recorded problem, if there are any. */
  public throwIfAny(): void {
    if (this.found.length > 0) throw new HcpValidationError(this.found);
  }
}
