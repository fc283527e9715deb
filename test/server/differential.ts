// The validator held to the API server (validator-differential.test.ts): an object goes to the real
// kube-apiserver as a strict server-side apply dry run and to ObjectValidator, and the two verdicts
// are compared, field path by field path.
import { CompiledCelRule } from '../../lib/validation/cel/cel-rule';
import { ObjectValidator } from '../../lib/validation/object-validator';
import { SchemaCatalog } from '../../lib/validation/schema-catalog';
import { ValidationProblem } from '../../lib/validation/validation-problem';
import { loadCaseFiles } from '../validation/case-files';
import { readCrds, validationSchemaFiles } from './install-crds';
import { ApiResponse, KubeClient } from './kube-client';
import { GeneratedCase, generateSchemaCases, metadataCases, REFUSAL_MESSAGES, schemaConstraints } from './schema-cases';

/** One object to send, with the stored object a transition case is an update of. */
export interface DifferentialCase {
  readonly name: string;
  readonly object: any;
  readonly previous?: any;
}

/** How far the server got with an object, which decides what of the validator's report it is compared with. */
export type ServerStage =
  /** Accepted. */
  | 'accepted'
  /** Refused while decoding (strict field validation: unknown or duplicate fields); nothing else was checked. */
  | 'decoding'
  /** Refused by the schema with an error that stops the CEL rules ("some validation rules were not checked"). */
  | 'schema'
  /** Refused after every check, CEL rules included. */
  | 'validated'
  /** Anything else (an unexpected status): never agrees. */
  | 'unexpected';

/** What the server said about one write. */
export interface ServerVerdict {
  readonly stage: ServerStage;
  /** The field paths refused, in the validator's form (no leading dot; the object's root is ''). */
  readonly paths: readonly string[];
  /** Each refusal: its path and the server's message. */
  readonly causes: readonly { readonly path: string; readonly message: string }[];
  readonly status: number;
  readonly message: string;
}

/** A write's verdict on the whole object (''), or on its spec or status alone. */
export interface PartVerdict {
  readonly part: '' | 'spec' | 'status';
  readonly verdict: ServerVerdict;
}

/** One write's verdict beside the validator's problems it answers for. */
export interface Comparison {
  readonly server: ServerVerdict;
  /** The validator's paths that are compared with the server's: see `comparedProblems`. */
  readonly validatorPaths: readonly string[];
  readonly agree: boolean;
}

/** The status subresource's marker error: the schema found errors that keep CEL rules from running. */
const CEL_NOT_RUN = 'some validation rules were not checked';
/** Server-side apply's own reading of the object against the schema, before validation (the first problem only). */
const TYPED_PATCH = 'failed to create typed patch object';

/** Reads a server answer into a verdict. */
export function serverVerdict(response: ApiResponse): ServerVerdict {
  const { status, message } = response;
  if (status === 200 || status === 201) return { stage: 'accepted', paths: [], causes: [], status, message };
  if (status === 400 && message.includes('strict decoding error')) {
    const causes = [...message.matchAll(/(unknown|duplicate) field "([^"]+)"/g)].map((m) => ({ path: m[2], message: `${m[1]} field` }));
    return { stage: 'decoding', paths: distinct(causes.map((c) => c.path)), causes, status, message };
  }
  if (status === 422 && Array.isArray(response.body?.details?.causes)) {
    let celRan = true;
    const causes: { path: string; message: string }[] = [];
    for (const cause of response.body.details.causes as { field?: string; message?: string }[]) {
      if (cause.message?.includes(CEL_NOT_RUN)) {
        celRan = false;
        continue;
      }
      causes.push({ path: causePath(cause.field, cause.message ?? ''), message: cause.message ?? '' });
    }
    return { stage: celRan ? 'validated' : 'schema', paths: distinct(causes.map((c) => c.path)), causes, status, message };
  }
  return { stage: 'unexpected', paths: [], causes: [], status, message };
}

/**
 * A cause's field in the validator's form. The scale subresource's checks name the replicas path
 * as the CRD gives it (`.spec.replicas`). A format error names the field in its message, relative
 * to the cause's field: `<nil>` and `in spec.replicas` on the main resource, `status` and `in
 * replicas` on the status subresource. An anyOf error has no field and names it in its message; a
 * rule on the root has none either.
 */
function causePath(field: string | undefined, message: string): string {
  const given = field && field !== '<nil>' ? field.replace(/^\./, '') : '';
  const format = /^Invalid value: "[^"]*": Checked value must be .* in ([^\s]+)$/.exec(message);
  if (format) return given ? `${given}.${format[1]}` : format[1];
  if (given) return given;
  const anyOf = /^Invalid value: "[^"]*": "([^"]+)" must validate/.exec(message);
  return anyOf ? anyOf[1] : '';
}

/**
 * The validator's problems that the server's verdict answers for. Where the server stopped
 * decoding, the validator, which reports everything at once, is compared on the unknown fields
 * alone. Where schema errors kept the rules from running, the validator held its rules' problems
 * back too, so they are compared as they are (a rule problem left in is a disagreement); the note
 * that rules were not checked has no field path and is compared by `compare`.
 */
export function comparedProblems(problems: readonly ValidationProblem[], stage: ServerStage): readonly ValidationProblem[] {
  if (stage === 'decoding') return problems.filter((p) => p.message.startsWith('unknown field'));
  return problems.filter((p) => !p.message.includes(CEL_NOT_RUN));
}

export function compare(problems: readonly ValidationProblem[], server: ServerVerdict): Comparison {
  const validatorPaths = distinct(comparedProblems(problems, server.stage).map((p) => p.path));
  // The validator, like the server, runs no rule after a blocking problem and says so (see ObjectValidator's holdBackRules).
  const rulesHeldBack = problems.some((p) => p.message.includes(CEL_NOT_RUN));
  const agree =
    server.stage === 'accepted'
      ? problems.length === 0
      : server.stage !== 'unexpected' && problems.length > 0 && sameSet(validatorPaths, server.paths) && (server.stage !== 'validated' || !rulesHeldBack);
  return { server, validatorPaths, agree };
}

/**
 * Sends objects the way each case needs, on kinds whose status has a subresource as `statusKinds`
 * says (`group/version/Kind`):
 * - an object without status, as a server-side apply dry run (a create);
 * - status, through the status subresource, as a controller writes it, as a dry run over the
 *   object applied for real without it (the main resource drops the status it is given), applied
 *   once for all the cases with that spec and deleted by `cleanUp()`;
 * - a transition case: its previous object applied for real (status through the subresource),
 *   then the object as a dry run over it, its spec by apply and its status by the subresource.
 * When server-side apply stops at its own reading of the object (which names the first problem
 * only, in its own path syntax), the same object is sent as a strict create (or update) dry run,
 * whose answer names every problem.
 */
export class DifferentialSender {
  private written = 0;
  private readonly sent = new Map<string, Promise<PartVerdict[]>>();
  /** The objects applied for real for status cases, by their spec. */
  private readonly stored = new Map<string, Promise<{ readonly response: ApiResponse; readonly name: string }>>();
  private readonly toDelete: any[] = [];

  constructor(
    private readonly client: KubeClient,
    private readonly statusKinds: ReadonlySet<string>,
  ) {}

  /** How many distinct cases (object and previous) went to the server. */
  get distinctCases(): number {
    return this.sent.size;
  }

  /** The server's verdicts, each with the part of the object it is about; a case sent before is not sent again. */
  send(c: DifferentialCase): Promise<PartVerdict[]> {
    const key = JSON.stringify([c.object, c.previous]);
    let verdicts = this.sent.get(key);
    if (!verdicts) this.sent.set(key, (verdicts = this.write(c)));
    return verdicts;
  }

  private async write(c: DifferentialCase): Promise<PartVerdict[]> {
    const statusSubresource = this.statusKinds.has(`${c.object.apiVersion}/${c.object.kind}`);
    if (c.previous !== undefined) return this.writeUpdate(c, statusSubresource);
    if (!statusSubresource || c.object.status === undefined) return [{ part: '', verdict: await this.dryRunApply(c.object, false) }];

    // Status: over the object applied for real without it, once for every case with that spec.
    const spec = omitStatus(c.object);
    const key = JSON.stringify(spec);
    let stored = this.stored.get(key);
    if (!stored) this.stored.set(key, (stored = this.store(spec)));
    const { response, name } = await stored;
    if (response.status >= 300) return [{ part: 'spec', verdict: await this.resolveTyped(serverVerdict(response), spec, false) }];
    const status = { ...c.object, metadata: { ...c.object.metadata, name, resourceVersion: response.body.metadata.resourceVersion } };
    return [
      { part: 'spec', verdict: serverVerdict(response) },
      { part: 'status', verdict: serverVerdict(await this.client.updateStatus(status, { dryRun: true })) },
    ];
  }

  /** Applies `object` for real under a name of its own. */
  private async store(object: any): Promise<{ readonly response: ApiResponse; readonly name: string }> {
    const name = `${object.metadata.name}-dx${++this.written}`;
    const response = await this.client.apply({ ...object, metadata: { ...object.metadata, name } });
    if (response.status < 300) this.toDelete.push({ ...object, metadata: { ...object.metadata, name } });
    return { response, name };
  }

  /** A transition case: the previous object for real (under a name of its own), the object as a dry run over it. */
  private async writeUpdate(c: DifferentialCase, statusSubresource: boolean): Promise<PartVerdict[]> {
    const name = `${c.object.metadata.name}-dx${++this.written}`;
    const renamed = (o: any) => ({ ...o, metadata: { ...o.metadata, name } });
    const withoutStatus = (o: any) => (statusSubresource ? omitStatus(renamed(o)) : renamed(o));
    try {
      const base = await this.client.apply(withoutStatus(c.previous));
      if (base.status >= 300) throw new Error(`${c.name}: the previous object is refused: ${base.status} ${base.message}`);
      if (statusSubresource && c.previous.status !== undefined) {
        const status = await this.client.updateStatus(renamed(c.previous));
        if (status.status >= 300) throw new Error(`${c.name}: the previous status is refused: ${status.status} ${status.message}`);
      }
      const verdicts: PartVerdict[] = [{ part: statusSubresource ? 'spec' : '', verdict: await this.dryRunApply(withoutStatus(c.object), true) }];
      if (statusSubresource && c.object.status !== undefined && JSON.stringify(c.object.status) !== JSON.stringify(c.previous.status)) {
        verdicts.push({ part: 'status', verdict: serverVerdict(await this.client.updateStatus(renamed(c.object), { dryRun: true })) });
      }
      return verdicts;
    } finally {
      await this.client.delete(renamed(c.previous));
    }
  }

  /** Deletes the objects applied for real. */
  async cleanUp(): Promise<void> {
    await inParallel(this.toDelete.splice(0), 8, async (object) => {
      await this.client.delete(object);
    });
  }

  /** The object as a strict create dry run (a POST), which reports every unknown field. */
  async strictCreate(object: any): Promise<ServerVerdict> {
    return serverVerdict(await this.client.create(object, { dryRun: true }));
  }

  private async dryRunApply(object: any, update: boolean): Promise<ServerVerdict> {
    return this.resolveTyped(serverVerdict(await this.client.apply(object, { dryRun: true })), object, update);
  }

  /** Server-side apply's reading failed: the same object as a strict create (or update) dry run. */
  private async resolveTyped(verdict: ServerVerdict, object: any, update: boolean): Promise<ServerVerdict> {
    if (verdict.stage !== 'unexpected' || !verdict.message.startsWith(TYPED_PATCH)) return verdict;
    if (!update) return serverVerdict(await this.client.create(object, { dryRun: true }));
    const current = await this.client.get(object);
    const path = await this.client.objectPath(object, { named: true });
    const body = { ...object, metadata: { ...object.metadata, resourceVersion: current.body?.metadata?.resourceVersion } };
    return serverVerdict(await this.client.request('PUT', path, { query: { fieldValidation: 'Strict', dryRun: 'All' }, body: JSON.stringify(body) }));
  }
}

function omitStatus(object: any): any {
  const { status: _status, ...rest } = object;
  return rest;
}

function distinct(paths: readonly string[]): string[] {
  return [...new Set(paths)].sort();
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/** Runs `work` on every item, at most `limit` at a time. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i], i);
      }
    }),
  );
}

/** One case's outcome. */
export interface CaseOutcome {
  readonly case: DifferentialCase;
  readonly problems: readonly ValidationProblem[];
  readonly comparisons: readonly Comparison[];
  readonly agree: boolean;
  /** The CEL rules (by id) that the validator ran on the object, and whether each passed; for a transition case, on the update. */
  readonly rules: ReadonlyMap<string, boolean>;
  /** Why the verdicts differ, for a difference this suite knows and docs/validation.md explains. @default - none */
  readonly explained?: string;
}

/**
 * Server-side apply checks unknown fields against its own form of the schema, in which everything
 * below a node with `x-kubernetes-preserve-unknown-fields` is untyped: a field the schema does not
 * declare there is dropped without a word, where a strict create refuses it. The validator
 * refuses it, as the create does.
 */
export const PRUNED_BY_APPLY =
  'server-side apply drops, without an error, a field the schema does not declare below a node that preserves unknown fields; a strict create refuses it, as the validator does';

/** Sends every case and compares; equal cases (same object and previous) are sent once. */
export async function runCases(
  cases: readonly DifferentialCase[],
  sender: DifferentialSender,
  validate: (c: DifferentialCase) => { problems: ValidationProblem[]; rules: Map<string, boolean> },
  concurrency = 8,
): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = new Array(cases.length);
  await inParallel(cases, concurrency, async (c, i) => {
    const { problems, rules } = validate(c);
    const verdicts = await sender.send(c);
    const comparisons = verdicts.map(({ part, verdict }) =>
      compare(
        problems.filter((p) => inPart(p.path, part)),
        verdict,
      ),
    );
    // A part no write checked (an unchanged status) must have no problem either.
    const unchecked = problems.filter((p) => !verdicts.some(({ part }) => inPart(p.path, part)));
    const agree = unchecked.length === 0 && comparisons.every((x) => x.agree);
    let explained: string | undefined;
    if (!agree && verdicts.length === 1 && verdicts[0].part === '' && verdicts[0].verdict.stage === 'accepted' && problems.every((p) => p.message.startsWith('unknown field'))) {
      if (compare(problems, await sender.strictCreate(c.object)).agree) explained = PRUNED_BY_APPLY;
    }
    outcomes[i] = { case: c, problems, comparisons, agree, rules, ...(explained ? { explained } : {}) };
  });
  return outcomes;
}

function inPart(path: string, part: '' | 'spec' | 'status'): boolean {
  if (part === '') return true;
  const status = path === 'status' || path.startsWith('status.');
  return part === 'status' ? status : !status;
}

/** Everything one run found. */
export interface DifferentialReport {
  /** The hand-written cases of test/validation/cases. */
  readonly written: readonly CaseOutcome[];
  /** The generated cases, each with its constraint. */
  readonly generated: readonly (CaseOutcome & { readonly generated: GeneratedCase })[];
  /**
   * CEL rules made to fail and to pass in cases on which the validator and the server agree (the
   * server running the rules), of all the rules of the kinds sent; and the ids of those that are not.
   */
  readonly rules: { readonly heldBothWays: number; readonly total: number; readonly kinds: readonly string[]; readonly notHeld: readonly string[] };
  /** Schema constraints held both ways (see runDifferential), by kind of constraint, of those with cases; and, for HostedCluster and NodePool, of all. */
  readonly constraints: {
    readonly heldBothWays: number;
    readonly total: number;
    readonly byKind: Readonly<Record<string, number>>;
    readonly schemas: readonly { readonly kind: string; readonly constraints: number; readonly withCases: number; readonly held: number }[];
  };
  /** Distinct objects (with their previous object) sent to the server, and those on which the validator agrees with it. */
  readonly distinctCases: number;
  readonly distinctAgreeing: number;
}

/** Put before the namespace of every case. */
const NAMESPACE_PREFIX = 'differential-';

/** The kinds whose whole schema the constraint coverage is reported against. */
const INVENTORIED = [
  ['hypershift.openshift.io/v1beta1', 'HostedCluster'],
  ['hypershift.openshift.io/v1beta1', 'NodePool'],
] as const;

/**
 * The whole differential: the written cases, then generated cases over the schemas of every kind
 * that has a written object both accept (the bases), at most `concurrency` requests at a time.
 */
export async function runDifferential(client: KubeClient, root: string, concurrency = 8): Promise<DifferentialReport> {
  const catalog = SchemaCatalog.bundled();
  let current = new Map<string, boolean>();
  const validator = new ObjectValidator({
    catalog,
    ruleObserver: (rule: CompiledCelRule, passed: boolean) => {
      current.set(rule.id, (current.get(rule.id) ?? true) && passed);
    },
  });
  const validate = (c: DifferentialCase) => {
    current = new Map();
    const problems = validator.validate(c.object, { previous: c.previous });
    return { problems, rules: current };
  };
  const crds = readCrds(validationSchemaFiles(root)).map(({ crd }) => crd);
  const statusKinds = new Set(crds.flatMap((crd) => crd.spec.versions.filter((v: any) => v.subresources?.status).map((v: any) => `${crd.spec.group}/${v.name}/${crd.spec.names.kind}`)));
  const sender = new DifferentialSender(client, statusKinds);

  // In namespaces of their own, so that no other suite's object of the same name turns a create into an update.
  const isolated = (object: any) =>
    typeof object?.metadata?.namespace === 'string' ? { ...object, metadata: { ...object.metadata, namespace: `${NAMESPACE_PREFIX}${object.metadata.namespace}` } } : object;
  const written: DifferentialCase[] = loadCaseFiles().flatMap(({ file, cases }) =>
    cases.map((c) => ({
      name: `${file}: ${c.name}`,
      object: isolated(c.object),
      ...(c.previous !== undefined ? { previous: isolated(c.previous) } : {}),
    })),
  );
  const namespaces = new Set(written.map((c) => c.object?.metadata?.namespace).filter((n): n is string => typeof n === 'string'));
  await Promise.all(
    [...namespaces].map(async (name) => {
      const created = await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
      if (created.status !== 201 && created.status !== 409) throw new Error(`namespace ${name}: ${created.status} ${created.message}`);
    }),
  );
  const writtenOutcomes = await runCases(written, sender, validate, concurrency);

  // Bases: written objects (not updates) that both accept.
  const bases = new Map<string, any[]>();
  for (const o of writtenOutcomes) {
    if (o.case.previous !== undefined || !o.agree || o.problems.length > 0) continue;
    const key = `${o.case.object.apiVersion}/${o.case.object.kind}`;
    bases.set(key, [...(bases.get(key) ?? []), o.case.object]);
  }
  const generatedCases = [...bases].flatMap(([key, objects]) => {
    const [apiVersion, kind] = [key.slice(0, key.lastIndexOf('/')), key.slice(key.lastIndexOf('/') + 1)];
    return [
      ...generateSchemaCases(kind, catalog.lookup(apiVersion, kind)!.schema, objects, { statusSubresource: statusKinds.has(key) }),
      ...metadataCases(kind, objects.find((o) => o.status === undefined) ?? objects[0]),
    ];
  });
  const generatedOutcomes = (await runCases(generatedCases, sender, validate, concurrency)).map((o, i) => ({ ...o, generated: generatedCases[i] }));
  await sender.cleanUp();

  // CEL rules: held when some agreeing case in which the server ran the rules made each fail, and some made it pass.
  const failed = new Set<string>();
  const passed = new Set<string>();
  for (const o of [...writtenOutcomes, ...generatedOutcomes]) {
    if (!o.agree || o.comparisons.some((x) => x.server.stage === 'decoding' || x.server.stage === 'schema')) continue;
    for (const [id, ok] of o.rules) (ok ? passed : failed).add(id);
  }
  const kinds = [...new Set([...written, ...generatedCases].map((c) => `${c.object.apiVersion}/${c.object.kind}`))].sort();
  const allRules = new Set(
    kinds.flatMap((key) => {
      const schema = catalog.lookup(key.slice(0, key.lastIndexOf('/')), key.slice(key.lastIndexOf('/') + 1));
      return schema ? catalog.allRules(schema).map((r) => r.id) : [];
    }),
  );
  const notHeld = [...allRules].filter((id) => !failed.has(id) || !passed.has(id));

  // Constraints: held when a case that violates it agrees, the server refusing it at its path in
  // its words (unless no value can violate it: a null where null is taken, a required field with
  // a default), and a case that meets it agrees, without such a refusal there.
  const constraints = new Map<string, { kind: string; violating: boolean; violated: boolean; satisfied: boolean }>();
  for (const o of generatedOutcomes) {
    const { constraint, violates, path } = o.generated;
    const entry = constraints.get(constraint.id) ?? { kind: constraint.kind, violating: false, violated: false, satisfied: false };
    const refused = REFUSAL_MESSAGES[constraint.kind];
    const atPath = o.comparisons.some((x) => x.server.causes.some((cause) => cause.path === path && refused.test(cause.message)));
    if (violates) entry.violating = true;
    if (o.agree && violates && atPath) entry.violated = true;
    if (o.agree && !violates && !atPath) entry.satisfied = true;
    constraints.set(constraint.id, entry);
  }
  const heldIds = new Set([...constraints].filter(([, c]) => (c.violated || !c.violating) && c.satisfied).map(([id]) => id));
  const byKind: Record<string, number> = {};
  for (const id of heldIds) byKind[constraints.get(id)!.kind] = (byKind[constraints.get(id)!.kind] ?? 0) + 1;
  const schemas = INVENTORIED.map(([apiVersion, kind]) => {
    const all = schemaConstraints(kind, catalog.lookup(apiVersion, kind)!.schema);
    return { kind, constraints: all.length, withCases: all.filter((id) => constraints.has(id)).length, held: all.filter((id) => heldIds.has(id)).length };
  });
  return {
    written: writtenOutcomes,
    generated: generatedOutcomes,
    rules: { heldBothWays: allRules.size - notHeld.length, total: allRules.size, kinds, notHeld },
    constraints: { heldBothWays: heldIds.size, total: constraints.size, byKind, schemas },
    distinctCases: sender.distinctCases,
    distinctAgreeing: new Set([...writtenOutcomes, ...generatedOutcomes].filter((o) => o.agree).map((o) => JSON.stringify([o.case.object, o.case.previous]))).size,
  };
}
