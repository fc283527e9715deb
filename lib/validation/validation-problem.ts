/** Which object a problem is about, as `kubectl` would name it. */
export interface ProblemObjectIdentity {
  /** The object's apiVersion, when it has one. */
  readonly apiVersion?: string;
  /** The object's kind, when it has one. */
  readonly kind?: string;
  /** The object's namespace; none for a cluster-scoped object. */
  readonly namespace?: string;
  /** The object's name, when it has one. */
  readonly name?: string;
}

/** One reason the API server would reject an object. */
export interface ValidationProblem {
  /** The object the problem is about. */
  readonly object: ProblemObjectIdentity;
  /** Field path in the object, as the API server writes it: `spec.services[0].service`. */
  readonly path: string;
  /** The sentence that says what is wrong and what is accepted. */
  readonly message: string;
  /** The offending value, when there is one (absent for a missing required field). */
  readonly value?: unknown;
  /** The CEL rule that failed, for rule violations. */
  readonly rule?: string;
  /** Where the object came from: a construct path or a file name. */
  readonly source?: string;
}

/** Which object this is, from what names it. */
export function identify(object: any): ProblemObjectIdentity {
  return {
    apiVersion: typeof object?.apiVersion === 'string' ? object.apiVersion : undefined,
    kind: typeof object?.kind === 'string' ? object.kind : undefined,
    namespace: typeof object?.metadata?.namespace === 'string' ? object.metadata.namespace : undefined,
    name: typeof object?.metadata?.name === 'string' ? object.metadata.name : undefined,
  };
}

/** `Kind namespace/name`, for messages. */
export function describeObject(object: ProblemObjectIdentity): string {
  const name = object.namespace ? `${object.namespace}/${object.name ?? '<unnamed>'}` : (object.name ?? '<unnamed>');
  return `${object.kind ?? '<no kind>'} ${name}`;
}

/** `source: Kind ns/name: path: message (value: ...)`, one line per problem. */
export function formatProblem(problem: ValidationProblem): string {
  const object = problem.object.kind || problem.object.name ? describeObject(problem.object) : undefined;
  const where = [problem.source, object, problem.path || undefined].filter(Boolean).join(': ');
  const value = 'value' in problem && problem.value !== undefined ? ` (value: ${showValue(problem.value)})` : '';
  return `${where}: ${problem.message}${value}`;
}

function showValue(value: unknown): string {
  const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
