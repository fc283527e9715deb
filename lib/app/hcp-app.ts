import { ApiObject, App, AppProps, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { withConstructWalk } from '../core/construct-walk';
import { formatLintFinding, LINT_RULES, lintFindings, noticesOf } from '../core/lint';
import { ManagementCluster } from '../core/management-cluster';
import { HcpValidationError, Problems, reportedProblems, reportProblemsAtSynth, show } from '../core/problems';
import { renderApiObject } from '../core/render-object';
import { ReleaseRollout } from '../release/release-rollout';
import { releaseVersionOf } from '../release/release-version';
import { IRolloutRecordSource, isWellFormedRolloutRecord, ROLLOUT_RECORD_FOLDER, RolloutRecord } from '../release/rollout-record';
import { UpdateGraph } from '../release/update-graph';
import { applyProblems, uncheckedUpgrade } from '../release/upgrade-transition';
import { yamlText } from '../core/yaml-text';
import { checkFleetInvariants } from '../fleet/fleet-invariants';
import type { DeliveredFile, IDelivery } from '../gitops/delivery';
import { KustomizeDelivery } from '../gitops/kustomize-delivery';
import { ObjectPlace, objectFileName, OutputLayout } from '../gitops/output-layout';
import { PathPartError, relativePathProblem } from '../core/path-part';
import { addLiveState, LivePlanOptions } from '../plan/live/live-plan';
import { OutputSnapshot } from '../plan/output-snapshot';
import { planChanges } from '../plan/plan';
import type { Plan } from '../plan/plan-report';
import { previousSnapshot, PreviousOutputSpec } from '../plan/plan-sources';
import { ObjectValidator } from '../validation/object-validator';
import type { SchemaCatalog } from '../validation/schema-catalog';
import { catalogWithCrds, CrdSource } from '../validation/supplied-crds';
import { UnvalidatedKindWaiver, unvalidatedKindWaivers, waiverOf } from '../validation/unvalidated-kind';
import { formatProblem, identify } from '../validation/validation-problem';
import { appendToMessage } from './append-to-message';
import type { BackgroundWrite } from './background-write';
import { CheckedObjects } from './checked-objects';
import { guardCliOutput, guardOutputDeletedByCli, restoreFileDeletedByCli } from './cli-output-guard';
import { OutputDirectory, SynthesizedFile, WriteSummary } from './output-directory';
import { OutputLock } from './output-lock';
import { PreviousOutput } from './previous-output';
import { previousRolloutRecords, rolloutSynthFindings } from './rollout-synth';
import { SynthRolloutOutputs } from './synth-rollout-outputs';
import { formatSecretsReport, SecretsReportEntry, secretsReportOf, secretsReportFileProblem, writeSecretsReport } from './secrets-report';

// Under `cdk8s synth`, which has emptied the output directory already: an app that fails before it
// makes its HcpApp (bad input read from the environment) must not leave it empty either.
guardCliOutput();

/** Props of an HcpApp: cdk8s's `AppProps` plus delivery, validation and output options. */
export interface HcpAppProps extends AppProps {
  /**
   * Treat lint findings (legal values that are almost certainly not meant, LINT_RULES: an etcd
   * volume under 1 GiB, a pool above 2,000 nodes, a release by digest without its version, ...) and
   * release updates that cannot be checked against the previous output as errors instead of
   * printing them as warnings.
   * @default - true when the environment sets HCP_CDK_STRICT to 1 or true (for `cdk8s synth` in CI), else false
   */
  readonly strict?: boolean;
  /**
   * Check every object against the schema and CEL rules of its CRD (or built-in kind) before
   * anything is written, as the API server would on apply.
   * @default true
   */
  readonly validateObjects?: boolean;
  /**
   * CRDs to check objects against, over the bundled schemas: for kinds hcp-cdk does not bundle
   * (a raw ApiObject of any kind), or to replace a bundled schema with the CRD the management
   * cluster runs (`oc get crd <name> -o yaml`). Each is a YAML or JSON file, a directory of them,
   * or a parsed CustomResourceDefinition object; objects of the kinds they serve are checked like
   * the bundled ones, schema and CEL rules. For a kind whose CRD you cannot give, see
   * `allowUnvalidatedKind`.
   * @default - the bundled CRDs (Default feature set, see cdk8s.yaml's validationSchemas)
   */
  readonly crds?: readonly CrdSource[];
  /**
   * On `synth()`, check transition rules (immutable fields and other `oldSelf` rules) against the
   * previous synth, which in a GitOps repository is what the cluster runs: the objects in the output
   * directory or, when `cdk8s synth` has deleted it, in the last good copy or git HEAD (see
   * `findPreviousOutput()`); synth warns when there is none. `synthesize()` alone reads nothing from
   * disk unless asked.
   * @default true
   */
  readonly compareWithPreviousOutput?: boolean;
  /**
   * Keep a copy of every successful synth's output beside the output directory
   * (`.<outdir name>.last-good/`, out of git by its own `.gitignore`). `cdk8s synth` deletes the
   * output directory before it runs the app; the copy is what transition rules are then checked
   * against and what a failed synth puts back.
   * @default true
   */
  readonly keepLastGoodCopy?: boolean;
  /**
   * How the objects reach their clusters: output layout, apply order, the engine's protection of
   * clusters against pruning, per-folder manifests and the engine's own objects
   * (`ArgoCdDelivery`, `FluxDelivery`, `AcmDelivery`, ...).
   * @default new KustomizeDelivery() - folders with a kustomization.yaml each, Argo CD sync waves
   */
  readonly delivery?: IDelivery;
  /**
   * Where `synth()` also writes the secrets report as JSON (`{ "secrets": [...] }`, see
   * `secretsReport()`), relative to the working directory; must be outside the output directory,
   * which GitOps engines read.
   * @default - the file named by the environment variable HCP_CDK_SECRETS_REPORT, else none;
   *   synth prints the report to stderr either way
   */
  readonly secretsReportFile?: string;
  /**
   * Let the output directory hold files hcp-cdk did not write (a README, a repository's own files),
   * which synth then leaves alone: it deletes and replaces only the files its manifest
   * (`<outdir>/.hcp-cdk-output`) says a synth wrote, and refuses to replace any other. Without it, synth
   * refuses an output directory that holds anything else, naming a few of the files, and writes
   * nothing: an output directory pointed at a repository root would otherwise lose it.
   * @default - true when the environment sets HCP_CDK_ALLOW_OTHER_FILES to 1 or true, else false
   */
  readonly allowOtherFiles?: boolean;
}

/**
 * A cdk8s App whose synth is all-or-nothing: every construct is validated and
 * every object rendered in memory first; files are written only when nothing failed, and only
 * those that changed, under a marker that says the directory is incomplete until the last is
 * written (see `OutputDirectory.replaceWith()` and `outputState()`). For a directory that holds
 * nothing, a second thread writes the files into a staging directory while the synth goes on, and
 * it takes the directory's place only when nothing failed (see `BackgroundWrite`).
 *
 * Where the objects go and what reaches each cluster how is the delivery's: by default
 * `<outdir>/<chart>/<rank>-<kind>-<name>.yaml`, with each HostedCluster's objects (and its
 * NodePools') in `<outdir>/<chart>/<cluster name>/`.
 */
export class HcpApp extends App implements IRolloutRecordSource {
  /** How the objects reach their clusters. */
  public readonly delivery: IDelivery;
  private readonly validator?: ObjectValidator;
  /** The schemas the validator checks against, bundled and from `crds`. */
  private readonly catalog?: SchemaCatalog;
  private readonly compareWithPreviousOutput: boolean;
  private readonly keepLastGoodCopy: boolean;
  private readonly allowOtherFiles: boolean;
  private readonly strict: boolean;
  private lastWarnings: readonly string[] = [];
  private lastNotices: readonly string[] = [];
  private readonly secretsReportFile?: string;
  private lastComparison?: PreviousOutput;
  private lastWriteSummary?: WriteSummary;
  /** The records of release rollouts in the previous output, read once when the first rollout is made (see previousRolloutRecord). */
  private previousRecords?: ReadonlyMap<string, RolloutRecord>;

  constructor(props: HcpAppProps = {}) {
    super(props);
    // Constructs keep their problems for synth, which reports those of the whole app at once.
    reportProblemsAtSynth(this);
    if (props.validateObjects ?? true) {
      this.catalog = catalogWithCrds(props.crds ?? []);
      this.validator = new ObjectValidator({ catalog: this.catalog, missingSchemaAdvice: appMissingSchemaAdvice });
    }
    this.compareWithPreviousOutput = props.compareWithPreviousOutput ?? true;
    this.keepLastGoodCopy = props.keepLastGoodCopy ?? true;
    this.allowOtherFiles = props.allowOtherFiles ?? ['1', 'true'].includes(process.env.HCP_CDK_ALLOW_OTHER_FILES ?? '');
    this.strict = props.strict ?? ['1', 'true'].includes(process.env.HCP_CDK_STRICT ?? '');
    // The guard installed at load restores this app's output directory, with its options.
    guardOutputDeletedByCli(this.outputDirectory());
    this.delivery = props.delivery ?? new KustomizeDelivery();
    // From the environment too, so that `cdk8s synth` of an unchanged app can write it (as CDK8S_OUTDIR sets the output).
    this.secretsReportFile = props.secretsReportFile ?? (process.env.HCP_CDK_SECRETS_REPORT || undefined);
    const reportProblem = this.secretsReportFile === undefined ? undefined : secretsReportFileProblem(this.secretsReportFile, this.outdir);
    // One line, no stack: the message names the prop, the value and what is accepted.
    if (reportProblem) throw new HcpValidationError([reportProblem]);
    // The checks that span hosted clusters find them in the tree when synth validates.
    this.node.addValidation({ validate: () => checkFleetInvariants(this) });
  }

  /**
   * Validates and renders every chart in memory; throws HcpValidationError listing all problems.
   * With `compareWithPreviousOutput`, transition rules are checked against `findPreviousOutput()`.
   * @param options.compareWithPreviousOutput @default false (synth() passes the app's setting)
   * @param options.previousOutput the previous output to check transition rules against
   *   @default - none, or `findPreviousOutput()` with `compareWithPreviousOutput`
   */
  public synthesize(options: { readonly compareWithPreviousOutput?: boolean; readonly previousOutput?: PreviousOutput } = {}): SynthesizedFile[] {
    return this.synthesizeConstructs(this.node.findAll(), options);
  }

  /**
   * `synthesize()` of the app's constructs, `constructs` (all of them, in tree order).
   * @param options.reuse the checks of the last good synth to take over, and the set that collects the digests of this synth's objects
   * @param options.background takes each file as soon as it is made, to write it while the synth goes on
   */
  private synthesizeConstructs(
    constructs: readonly IConstruct[],
    options: { readonly compareWithPreviousOutput?: boolean; readonly previousOutput?: PreviousOutput; readonly reuse?: CheckReuse; readonly background?: BackgroundWrite },
  ): SynthesizedFile[] {
    const previousOutput = options.previousOutput ?? (options.compareWithPreviousOutput ? this.findPreviousOutput() : undefined);
    const problems: string[] = [];
    // The constructs with problems of their own: their objects are not checked (see below).
    const flagged = new Set<string>();
    // What constructs reported as they were made: each message starts with the path it is about.
    const reported = reportedProblems(constructs);
    const reporters = new Set(reported.map((message) => message.slice(0, message.indexOf(': '))));
    problems.push(...reported);
    // A chart's own problems (a management cluster's capacity figures) are not about the objects in it.
    const charts = new Set(reported.length === 0 ? [] : constructs.filter((c) => Chart.isChart(c)).map((c) => c.node.path));
    for (const path of reporters) if (!charts.has(path)) flagged.add(path);
    withConstructWalk(this, constructs, () => {
      for (const construct of constructs) {
        const path = construct.node.path;
        // Its own checks would mostly repeat what it reported.
        if (path && reporters.has(path)) continue;
        let messages: string[];
        try {
          messages = construct.node.validate();
        } catch (error) {
          // A check that stumbles over a construct reported broken already would only repeat it.
          if (reported.length > 0) continue;
          throw error;
        }
        for (const message of messages) {
          // App-wide checks (on the root, whose path is empty) start each message with the path of the construct it is about.
          problems.push(path ? `${path}: ${message}` : message);
          flagged.add(path || message.slice(0, message.indexOf(': ')));
        }
      }
    });
    const findings = lintFindings(constructs).map(formatLintFinding);
    if (this.strict) problems.push(...findings);
    // Lint findings, and the update paths the previous output leaves unchecked (see check below).
    const warnings: string[] = this.strict ? [] : [...findings];
    this.lastWarnings = warnings;
    const notices = noticesOf(constructs);
    this.lastNotices = notices;
    // Kinds waived with allowUnvalidatedKind, and how many objects each waiver lets through unchecked.
    const waiverUses = new Map<UnvalidatedKindWaiver, number>();
    for (const waiver of this.validator ? unvalidatedKindWaivers(constructs) : []) {
      const schema = this.validator!.schemaSource(waiver.apiVersion, waiver.kind);
      // A waiver that changes nothing would tell a reader that these objects go unchecked.
      if (schema !== undefined) problems.push(`${waiverLabel(waiver)} waives a kind that has a schema (${schema}): its objects are checked against it all the same; remove the waiver`);
      else waiverUses.set(waiver, 0);
    }
    // The objects a delivery carries inside its own were checked, or waived, on their own first.
    const carriedUnchecked = new Set([...waiverUses.keys()].map((w) => `${w.apiVersion}/${w.kind}`));
    // No throw yet: the schema problems of the other objects join the constructs' in one report.
    // The objects of a construct with problems of its own are left out: checking them would
    // mostly say the same thing again.

    const files: SynthesizedFile[] = [];
    const add = (file: SynthesizedFile): void => {
      files.push(file);
      options.background?.add(file);
    };
    const deliveryProblems = new Problems(this).within('delivery');
    const placed: DeliveredFile[] = [];
    const reuse = options.reuse;
    // Checks one object as the API server would apply it over the previous output, unless the
    // previous output holds its text unchanged and the record says this validator accepted that
    // text as a new object (which is how an unchanged object is checked: it has no transition).
    const updateGraphs = UpdateGraph.of(this);
    const check = (json: any, source: string, file?: string, text?: string, unvalidatedKinds?: ReadonlySet<string>): void => {
      if (!this.validator) return;
      // Unchanged objects are checked as new: parsing the thousands of them in a fleet would cost more than the rest of a re-synth.
      const unchanged = file !== undefined && previousOutput?.holds(file, text!) === true;
      const digest = reuse && file !== undefined ? CheckedObjects.digestOf(text!) : undefined;
      if (unchanged && digest !== undefined && reuse!.record.has(digest)) {
        reuse!.accepted.add(digest);
        return;
      }
      const previous = file === undefined || unchanged ? undefined : previousOutput?.object(file);
      for (const problem of applyProblems(json, { previous, source, validator: this.validator, unvalidatedKinds, updateGraphs })) problems.push(formatProblem(problem));
      // A new release without a version has its own lint finding; one whose previous release told none is said here.
      const unchecked = previous === undefined ? undefined : uncheckedUpgrade(json, previous);
      if (unchecked && releaseVersionOf(json) !== undefined) {
        const message = `${formatProblem({ object: identify(json), path: 'spec.release.image', message: unchecked, source })} [${LINT_RULES.HCP_W004_RELEASE_VERSION_UNKNOWN.id}]`;
        (this.strict ? problems : warnings).push(message);
      }
      // Accepted over a previous version is not accepted as new: rules with optionalOldSelf run on
      // both and may answer differently. Such an object is recorded once it is checked unchanged.
      if (digest !== undefined && previous === undefined) reuse!.accepted.add(digest);
    };
    // Release rollouts: the release of every HostedCluster and NodePool, now and in the previous output.
    const rollouts = constructs.filter((c): c is ReleaseRollout => c instanceof ReleaseRollout);
    const previousRecords = previousRolloutRecords(previousOutput);
    const releases = (rollouts.length > 0 || previousRecords.size > 0) && previousOutput ? new SynthRolloutOutputs(previousOutput.found) : undefined;
    // One object at a time, so that each one's JSON is garbage before the next is rendered.
    for (const { file, json, source, construct } of this.render(constructs, flagged, problems, deliveryProblems, placed)) {
      const text = file === undefined ? undefined : yamlText(json);
      const waiver = waiverUses.size === 0 ? undefined : waiverOf(construct, json.apiVersion, json.kind);
      if (waiver && waiverUses.has(waiver)) waiverUses.set(waiver, waiverUses.get(waiver)! + 1);
      else check(json, source, file, text);
      if (file !== undefined) add({ path: file, text: text! });
      if (releases && file !== undefined) releases.add(file, json, () => (previousOutput!.holds(file, text!) ? json : previousOutput!.object(file)));
    }
    const additions = finishDelivery(this.delivery, placed, deliveryProblems, problems, previousOutput?.found ? previousOutput : undefined);
    const taken = new Set(files.map((f) => f.path));
    for (const { path: file, json, source } of additions.objects) {
      if (taken.has(file)) problems.push(`${source}: writes ${file}, which another object of the app is written to`);
      taken.add(file);
      const text = yamlText(json);
      check(json, source, file, text, carriedUnchecked);
      add({ path: file, text });
    }
    for (const [waiver, uses] of waiverUses) {
      if (uses === 0) (this.strict ? problems : warnings).push(`${waiverLabel(waiver)} waives no object: no object of that kind is under ${waiver.scope.node.path || 'the app'}; remove the waiver`);
      else notices.push(`${waiverLabel(waiver)}: ${uses} object${uses === 1 ? ' is' : 's are'} written without a schema check, because ${JSON.stringify(waiver.reason)}`);
    }
    const records = new Map<string, RolloutRecord>();
    const graphs = constructs.filter((c): c is UpdateGraph => c instanceof UpdateGraph);
    for (const owner of [...rollouts, ...graphs].filter((r) => !flagged.has(r.node.path))) {
      const json = owner.record();
      const file = `${ROLLOUT_RECORD_FOLDER}/${objectFileName(json)}`;
      const clash = placed.find((p) => p.path.startsWith(`${ROLLOUT_RECORD_FOLDER}/`));
      if (clash)
        problems.push(
          `${owner.node.path}: its record goes to ${file}, but ${clash.path} is in that folder too: ${ROLLOUT_RECORD_FOLDER}/ holds the records of release rollouts; rename the chart that writes there`,
        );
      else if (taken.has(file)) problems.push(`${owner.node.path}: writes ${file}, which another rollout of the app is written to; give each rollout a name of its own`);
      taken.add(file);
      if (isWellFormedRolloutRecord(json)) records.set(json.metadata.name, json);
      const text = yamlText(json);
      check(json, owner.node.path, file, text);
      add({ path: file, text });
    }
    if (releases) {
      const findings = rolloutSynthFindings(
        rollouts.filter((r) => records.has(r.rolloutName)),
        records,
        previousRecords,
        releases,
      );
      problems.push(...findings.problems);
      (this.strict ? problems : warnings).push(...findings.warnings);
    }
    problems.push(...deliveryProblems.all);
    // Whatever made it, no file leaves the output directory.
    for (const file of [...files, ...additions.files]) {
      const outside = relativePathProblem(file.path);
      if (outside) problems.push(`the output file ${outside}; every file stays under the output directory`);
    }
    if (problems.length > 0) throw new HcpValidationError(problems);
    for (const file of additions.files) add(file);
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Writes the output, or nothing at all when any construct or object is invalid, or when `outdir`
   * is a file. A failed synth that finds the output directory empty (`cdk8s synth` deletes it
   * before it runs the app) puts the last good output back, or says where it is.
   */
  public override synth(): void {
    const output = this.outputDirectory();
    this.checkOutputPath(output);
    // Another synth into the same directory writes first; this one then reads what it wrote.
    const lock = OutputLock.acquire(output.root);
    try {
      const refusal = this.ownershipProblem(output);
      if (refusal) this.throwWithAppProblems(refusal);
      this.synthLocked(output);
    } finally {
      lock.release();
    }
  }

  /** `synth()` once the output directory is locked and known to hold only what synths wrote. */
  private synthLocked(output: OutputDirectory): void {
    const previousOutput = this.compareWithPreviousOutput ? output.previousOutput() : undefined;
    this.lastComparison = previousOutput;
    if (previousOutput?.notice) console.error(previousOutput.notice);
    // One walk of the tree for the synth and both reports: at a thousand clusters each walk costs tens of milliseconds.
    const constructs = this.node.findAll();
    const reuse = this.checkReuse(output);
    // For a directory that holds nothing, a second thread writes the files beside it while the synth goes on.
    const background = output.backgroundWrite();
    let files: SynthesizedFile[];
    let capacity: string[];
    let secrets: SecretsReportEntry[];
    try {
      files = this.synthesizeConstructs(constructs, { previousOutput, reuse, background });
      // Made while a writer thread may still be writing; printed after the write.
      capacity = capacityReportsOf(constructs);
      secrets = secretsReportOf(constructs);
    } catch (error) {
      try {
        background?.abandon();
      } catch (cleanup) {
        appendToMessage(error, `\nhcp-cdk: what the synth had written into ${background!.staging} could not all be removed (${(cleanup as Error).message}); ${output.root} is as it was`);
      }
      const restore = output.restoreAfterFailure(previousOutput);
      if (restore?.restored) console.error(restore.message);
      else if (restore) appendToMessage(error, `\n${restore.message}`);
      throw error;
    }
    const warning = output.replaceWith(files, previousOutput, background);
    this.lastWriteSummary = output.lastWriteSummary;
    if (warning) console.error(warning);
    else if (reuse) keepCheckedObjects(reuse);
    for (const warning of this.lastWarnings) console.error(`hcp-cdk: warning: ${warning}`);
    for (const note of this.lastNotices) console.error(`hcp-cdk: note: ${note}`);
    for (const report of capacity) console.error(report);
    const summary = formatSecretsReport(secrets);
    if (summary) console.error(summary);
    if (this.secretsReportFile !== undefined) writeSecretsReport(this.secretsReportFile, secrets);
  }

  /**
   * The Secrets the output references but does not contain, which must exist before it is
   * applied: those you create, and those External Secrets or Sealed Secrets make (with where
   * the values come from). One entry per Secret, listing every construct that reads it.
   */
  public secretsReport(): SecretsReportEntry[] {
    return secretsReportOf(this.node.findAll());
  }

  /**
   * The lint findings of the last synthesize(), and the release updates it could not check against
   * the previous output, as warnings (empty with `strict`, where they are errors).
   */
  public get warnings(): readonly string[] {
    return this.lastWarnings;
  }

  /**
   * The notices of the last synthesize(): what to do or know outside the output (an OAuth callback
   * URL to register, kubeadmin going away); printed by synth(), never errors.
   */
  public get notices(): readonly string[] {
    return this.lastNotices;
  }

  /**
   * What the last `synth()` checked transition rules against (`source` NONE: nothing, and synth
   * warned); undefined before a synth, or with `compareWithPreviousOutput: false`.
   */
  public get comparedWith(): PreviousOutput | undefined {
    return this.lastComparison;
  }

  /**
   * The record the previous output holds of the release rollout `name` (`rollouts/`), which fixes the
   * clusters of its released waves; a ReleaseRollout asks it when it is made. Read from
   * `findPreviousOutput()`, once per app, and only with `compareWithPreviousOutput`.
   */
  public previousRolloutRecord(name: string): RolloutRecord | undefined {
    if (!this.compareWithPreviousOutput) return undefined;
    this.previousRecords ??= previousRolloutRecords(this.findPreviousOutput());
    return this.previousRecords.get(name);
  }

  /**
   * The previous synth's output, which transition rules are checked against: the output
   * directory while it holds files, else the copy kept beside it or the output folder in git HEAD
   * (see `OutputDirectory.previousOutput()`); `source` NONE when there is none.
   */
  public findPreviousOutput(): PreviousOutput {
    return this.outputDirectory().previousOutput();
  }

  /**
   * What this app's output would do to the clusters that run the previous one (`hcp-cdk plan` as an
   * API): synthesizes in memory, writes nothing, and compares object by object. Changes the API
   * server would refuse (transition rules such as immutable fields) are reported in the plan, with
   * effect `refused`, instead of failing the synth; problems of the app itself still throw.
   * With `live`, it also reads the management cluster, read-only, through a kubeconfig context and
   * resolves to the plan with `live` (see `addLiveState`); it rejects with a LiveReadError when the
   * cluster cannot be read.
   * @param options.previous where the previous output is @default - git HEAD's copy of the output directory
   * @param options.includeUnchanged list unchanged objects too @default false
   * @param options.live the management cluster to read @default - none is read
   */
  public plan(options: { readonly previous?: PreviousOutputSpec; readonly includeUnchanged?: boolean; readonly live: LivePlanOptions }): Promise<Plan>;
  public plan(options?: { readonly previous?: PreviousOutputSpec; readonly includeUnchanged?: boolean }): Plan;
  public plan(options: { readonly previous?: PreviousOutputSpec; readonly includeUnchanged?: boolean; readonly live?: LivePlanOptions } = {}): Plan | Promise<Plan> {
    const live = options.live;
    // An asynchronous plan fails as a rejection, whatever fails.
    if (live)
      return Promise.resolve()
        .then(() => this.planOutputs(options))
        .then(({ plan, previous, next }) => addLiveState(plan, previous, next, live));
    return this.planOutputs(options).plan;
  }

  /** The plan, and the two outputs it compares. */
  private planOutputs(options: { readonly previous?: PreviousOutputSpec; readonly includeUnchanged?: boolean }): { plan: Plan; previous: OutputSnapshot; next: OutputSnapshot } {
    const previous = previousSnapshot(this.outdir, options.previous);
    const files = new Map(this.synthesize().map((file) => [file.path, Buffer.from(file.text)]));
    const next = OutputSnapshot.fromFiles(`the synth of this app (${this.outdir})`, files);
    // Synth has held each waived object to its waiver's scope; the plan reads files, which have none.
    const unvalidatedKinds = new Set(
      unvalidatedKindWaivers(this.node.findAll())
        .filter((w) => this.validator?.schemaSource(w.apiVersion, w.kind) === undefined)
        .map((w) => `${w.apiVersion}/${w.kind}`),
    );
    return { plan: planChanges(previous, next, { validator: this.validator, includeUnchanged: options.includeUnchanged, unvalidatedKinds }), previous, next };
  }

  /** What the last `synth()` or `writeFiles()` wrote: files written, removed and left alone; undefined before one. */
  public get lastWrite(): WriteSummary | undefined {
    return this.lastWriteSummary;
  }

  /** The capacity reports of the management clusters that declare their control-plane workers. */
  public capacityReports(): string[] {
    return capacityReportsOf(this.node.findAll());
  }

  /** Writes `files` to the output directory, only what changed (see `OutputDirectory.replaceWith()`), and keeps a copy beside it. */
  public writeFiles(files: readonly SynthesizedFile[]): void {
    const output = this.outputDirectory();
    this.checkOutputPath(output);
    const lock = OutputLock.acquire(output.root);
    let warning: string | undefined;
    try {
      const refusal = this.ownershipProblem(output);
      if (refusal) throw new HcpValidationError([refusal]);
      warning = output.replaceWith(files);
    } finally {
      lock.release();
    }
    this.lastWriteSummary = output.lastWriteSummary;
    if (warning) console.error(warning);
  }

  /**
   * What synth() needs to check only the objects that changed since the last good synth: the
   * record of what that synth's validator accepted, read when this app's validator has the same
   * fingerprint (see `CheckedObjects`). None without a validator or a kept copy.
   */
  private checkReuse(output: OutputDirectory): CheckReuse | undefined {
    if (!this.validator || !output.lastGoodCopy) return undefined;
    let validator: string | undefined;
    try {
      validator = this.validator.fingerprint;
    } catch {
      return undefined; // A file of the library that cannot be read: every object is checked.
    }
    if (validator === undefined) return undefined;
    return { record: CheckedObjects.read(output.lastGoodCopy.checkedObjectsFile, validator), accepted: new Set() };
  }

  /**
   * Throws, before anything is read or written, when the output directory's path cannot be one: a
   * file is there or on the way to it; or, under `cdk8s synth`, the CLI deleted a file git holds
   * there (which is put back).
   */
  private checkOutputPath(output: OutputDirectory): void {
    const accepted = `HcpApp: outdir (${show(this.outdir)}) must be a directory or a path where synth can make one`;
    const obstacle = output.obstacle();
    if (obstacle) {
      const where = obstacle.path === output.root ? obstacle.path : `${obstacle.path}, on that path,`;
      throw new HcpValidationError([`${accepted}, and ${where} is ${obstacle.what}; nothing is written and it is left as it is`]);
    }
    const deleted = restoreFileDeletedByCli(output);
    if (deleted) {
      const outcome = deleted.restored ? "it is back as git's index holds it (changes that were not staged, if any, are lost)" : `it could not be put back (${deleted.failure})`;
      throw new HcpValidationError([`${accepted}, and cdk8s synth deleted the file there (${deleted.location}) before it ran the app; ${outcome}, and nothing is written`]);
    }
  }

  /**
   * Why nothing may be written to the output directory: it holds files no synth wrote (see
   * `OutputDirectory.otherFiles()`), unless `allowOtherFiles`, or its manifest cannot be trusted.
   */
  private ownershipProblem(output: OutputDirectory): string | undefined {
    let others: string[];
    try {
      others = output.otherFiles();
    } catch (error) {
      return `HcpApp: outdir (${show(this.outdir)}): ${(error as Error).message}; nothing is written, and nothing there is deleted`;
    }
    if (others.length === 0 || this.allowOtherFiles) return undefined;
    const named = others.slice(0, 5).join(', ') + (others.length > 5 ? ` and ${others.length - 5} more` : '');
    return (
      `HcpApp: outdir (${show(this.outdir)}) holds files hcp-cdk did not write (${named}); synth deletes and replaces only what it wrote, so nothing is written and nothing there is deleted: ` +
      `give an output directory of its own, or set allowOtherFiles (HCP_CDK_ALLOW_OTHER_FILES=1) to write beside them and leave them alone`
    );
  }

  /** Throws `refusal` with the app's own problems, if any: every problem of a synth at once, though nothing can be written. */
  private throwWithAppProblems(refusal: string): never {
    const problems = [refusal];
    try {
      this.synthesize();
    } catch (error) {
      if (!(error instanceof HcpValidationError)) throw error;
      problems.push(...error.problems);
    }
    throw new HcpValidationError(problems);
  }

  private outputDirectory(): OutputDirectory {
    return new OutputDirectory(this.outdir, { keepLastGoodCopy: this.keepLastGoodCopy, allowOtherFiles: this.allowOtherFiles });
  }

  /**
   * Every object as JSON, with the file its delivery puts it in. Reports objects that cannot render, and two objects written to one
   * file or one cluster.
   */
  private *render(constructs: readonly IConstruct[], flagged: ReadonlySet<string>, problems: string[], deliveryProblems: Problems, placed: DeliveredFile[]): Generator<RenderedObject> {
    const seen = new Map<string, string>();
    const seenObjects = new Map<string, { path: string; file: string }>();
    const layout = new OutputLayout();
    // A chart's or a cluster's name that cannot be a folder is said once, not for each of its objects.
    const pathProblems = new Set<string>();
    // In tree order; each object goes to the folder of its own chart.
    for (const object of constructs) {
      if (!(object instanceof ApiObject)) continue;
      if (flagged.size > 0 && isUnder(object, flagged)) continue;
      let json: any;
      try {
        json = renderApiObject(object);
      } catch (error) {
        problems.push(`${object.node.path}: ${(error as Error).message}`);
        continue;
      }
      let place: ObjectPlace;
      let file: string | undefined;
      try {
        place = layout.placeOf(object);
        file = this.delivery.place({ ...place, json, construct: object }, deliveryProblems);
      } catch (error) {
        // A name that would leave its folder (or is no name): a problem of this object, with the others.
        if (!(error instanceof PathPartError)) throw error;
        const problem = `${error.subject ?? object.node.path}: ${error.message}`;
        if (!pathProblems.has(problem)) problems.push(problem);
        pathProblems.add(problem);
        continue;
      }
      // Carried inside an object of the delivery's own: checked, not written.
      if (file === undefined) {
        yield { file, json, source: object.node.path, construct: object };
        continue;
      }
      placed.push({
        path: file,
        apiVersion: json.apiVersion,
        kind: json.kind,
        name: json.metadata?.name,
        namespace: json.metadata?.namespace,
        target: place.target,
        folder: file.slice(0, file.lastIndexOf('/')),
        resource: this.catalog?.resourceOf(json.apiVersion, json.kind),
      });
      const previous = seen.get(file);
      if (previous) problems.push(`${object.node.path}: writes ${file}, as ${previous} does; two objects share kind, namespace and name`);
      seen.set(file, object.node.path);
      // The same object in two folders of one target cluster would be applied twice, the last one winning.
      const identity = `${place.target.folder}/${json.kind}/${json.metadata?.namespace ?? ''}/${json.metadata?.name}`;
      const twin = seenObjects.get(identity);
      if (twin && !previous)
        problems.push(
          `${object.node.path}: is ${json.kind} ${json.metadata?.namespace ? `${json.metadata.namespace}/` : ''}${json.metadata?.name}, which ${twin.path} also writes (${twin.file}); one cluster holds an object only once`,
        );
      if (!twin) seenObjects.set(identity, { path: object.node.path, file });
      yield { file, json, source: object.node.path, construct: object };
    }
  }
}

/** The record of the objects the last good synth accepted, and the digests of this synth's objects. */
interface CheckReuse {
  readonly record: CheckedObjects;
  readonly accepted: Set<string>;
}

/** The delivery's own objects; a name among them that cannot be part of a path is a problem, not a throw. */
function finishDelivery(delivery: IDelivery, placed: readonly DeliveredFile[], deliveryProblems: Problems, problems: string[], previous: PreviousOutput | undefined): ReturnType<IDelivery['finish']> {
  try {
    return delivery.finish(placed, deliveryProblems, previous);
  } catch (error) {
    if (!(error instanceof PathPartError)) throw error;
    // A name made from a prop the delivery reported already would only repeat it.
    if (deliveryProblems.all.length === 0) problems.push(`delivery: ${error.message}`);
    return { objects: [], files: [] };
  }
}

/** Records this synth's objects as accepted, for the next synth to take over. */
function keepCheckedObjects(reuse: CheckReuse): void {
  try {
    reuse.record.update(reuse.accepted);
  } catch {
    // The record is a shortcut: without it, the next synth checks every object.
  }
}

interface RenderedObject {
  /** Undefined for an object the delivery carries inside one of its own. */
  readonly file?: string;
  readonly json: any;
  /** The construct path, named in problems. */
  readonly source: string;
  /** The object's construct. */
  readonly construct: ApiObject;
}

/** How problems and notices name a waiver: the construct it was made on, and the kind. */
function waiverLabel(waiver: UnvalidatedKindWaiver): string {
  return `${waiver.scope.node.path || 'HcpApp'}: allowUnvalidatedKind (${waiver.apiVersion} ${waiver.kind})`;
}

/** The advice of an object without a schema, in an app: the CRD through `crds`, or a waiver. */
function appMissingSchemaAdvice(apiVersion: string, kind: string): string {
  return (
    `give its CRD in HcpApp's crds (a file, a directory or the parsed CustomResourceDefinition), or waive the check of this kind with ` +
    `allowUnvalidatedKind(scope, { apiVersion: ${JSON.stringify(apiVersion)}, kind: ${JSON.stringify(kind)}, reason: '<why it may go unchecked>' })`
  );
}

/** The capacity reports of the management clusters among `constructs` that declare their control-plane workers. */
function capacityReportsOf(constructs: readonly IConstruct[]): string[] {
  return (
    constructs
      // Not instanceof: cdk8s's Chart answers instanceof for every chart (Symbol.hasInstance).
      .filter((construct): construct is ManagementCluster => Object.prototype.isPrototypeOf.call(ManagementCluster.prototype, construct))
      .map((hub) => hub.capacityReport())
      .filter((report): report is string => report !== undefined)
  );
}

/** Whether the construct or one of its scopes has one of the given paths. */
function isUnder(construct: IConstruct, paths: ReadonlySet<string>): boolean {
  for (let scope: IConstruct | undefined = construct; scope; scope = scope.node.scope) {
    if (paths.has(scope.node.path)) return true;
  }
  return false;
}
