import * as fs from 'fs';
import { print, usageErrorOf } from './cli-output';
import { OutputSnapshot, PlanInputError } from '../lib/plan/output-snapshot';
import { planChanges } from '../lib/plan/plan';
import { PLAN_JSON_SCHEMA } from '../lib/plan/plan-json-schema';
import { planMarkdown } from '../lib/plan/plan-markdown';
import { ChangeEffect, hasChanges, Plan, planWarnings } from '../lib/plan/plan-report';
import { previousSnapshot } from '../lib/plan/plan-sources';
import { planText } from '../lib/plan/plan-text';
import { addLiveState } from '../lib/plan/live/live-plan';
import { liveRefusals } from '../lib/plan/live/live-text';
import { ObjectValidator } from '../lib/validation/object-validator';
import { catalogWithCrds } from '../lib/validation/supplied-crds';
import { parseUnvalidatedKind } from '../lib/validation/unvalidated-kind';
import type { HcpValidationError } from '../lib/core/problems';
import type { SchemaCatalog } from '../lib/validation/schema-catalog';

export const PLAN_USAGE = `usage: hcp-cdk plan [<output-dir>] [--against <dir> | --ref <git-ref>] [--format text|json|markdown] [options]

Says what applying a new hcp-cdk output will do to the clusters that run the previous one: per
object created, updated (field by field), deleted or unchanged, and what each change does:
control-plane-upgrade, node-pool-rollout (Replace: new machines, maxSurge at a time; InPlace:
reboots, maxUnavailable at a time), configuration-rollout, scale, destructive, refused (the API
server would reject it: immutable fields and other transition rules, the schema; or a release
rollout: more than one wave, a wave before the waves ahead of it run the release), in-place-update,
metadata-only; and for each release rollout the output records (rollouts/), the wave the commit
moves, the clusters it moves and those left.

  <output-dir>          the new output, as synth wrote it (default: dist)
  --ref <git-ref>       the previous output is <output-dir> as this commit of the git repository
                        around it holds it, read with git (no fetch): main, origin/main, a tag or a
                        commit (default: HEAD, the last commit: what the clusters run)
  --against <dir>       the previous output is this directory instead
  --format <format>     text (default): a summary, then per hosted cluster (colour on a terminal);
                        json: one JSON document on stdout (schema: hcp-cdk.io/plan/v1, printed by
                        --json-schema); markdown: a pull-request comment
  --json, --markdown    the same as --format json, --format markdown
  --full-plan <file>    with --format markdown: also write the whole plan, nothing left out, to
                        <file> (Markdown), which the comment names when it leaves something out to
                        stay within the 65,536 characters of a pull-request comment
  --include-unchanged   list unchanged objects too; the summary counts them anyway
  --allow-empty         plan a new output with no objects against one with some (every object
                        deleted); without it that is an error, as it is what a failed synth leaves
  --crds <path>         CRDs to check refusals against, over the bundled ones (repeatable)
  --allow-unvalidated-kind <apiVersion>/<Kind>=<reason>
                        objects of a kind that no CRD serves are not refused for it (repeatable;
                        as allowUnvalidatedKind in the app)
  --strict              what the plan cannot check (a release by digest without its version: no
                        update path, no version skew) is an error, exit 1, as synth's strict mode
                        makes it (also: HCP_CDK_STRICT set to 1 or true)
  --no-color            no ANSI colours in text (also: NO_COLOR set, or stdout not a terminal)
  --live                read the management cluster too, read-only (get only; never Secrets), and
                        say what the change meets there: an upgrade in progress (a further one is
                        refused), pools checked against the version the control plane reports,
                        clusters not Available, fields changed since the last sync (drift), and
                        protected objects this commit removes that stay on the cluster
  --kubeconfig <file>   with --live: the kubeconfig (default: KUBECONFIG, else ~/.kube/config)
  --context <name>      with --live: its context (default: the current context)
  --hub <folder>        with --live: the management folder of the output that cluster runs
                        (default: the output's only one)
  --json-schema         print the JSON Schema of --json output and exit
  -h, --help            this text

exit status (as terraform plan -detailed-exitcode): 0 no changes; 2 changes; 1 an error: an
unreadable or foreign output (not an hcp-cdk synth, two versions of one object in one folder, an
unknown git ref, an output a synth left incomplete, an empty new output without --allow-empty),
CRDs that cannot be read, a usage error, or a plan with a refused change (the API server,
HyperShift or a release rollout would refuse it: the plan is printed, and the exit status says it
cannot be applied), or with --strict a plan with warnings; with --live also a management cluster
that cannot be read (no kubeconfig, an unknown context, a server out of reach, a read refused:
nothing is printed but the error) and a change refused as the cluster is now (an upgrade on top of
one in progress)`;

const usageError = usageErrorOf('hcp-cdk plan', PLAN_USAGE, 1);

const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

interface PlanArguments {
  readonly output: string;
  readonly against?: string;
  readonly ref?: string;
  readonly format: Format;
  readonly includeUnchanged: boolean;
  readonly allowEmpty: boolean;
  readonly crds: readonly string[];
  readonly unvalidatedKinds: ReadonlySet<string>;
  readonly color: boolean;
  readonly strict: boolean;
  readonly fullPlan?: string;
  readonly live?: { readonly kubeconfig?: string; readonly context?: string; readonly managementFolder?: string };
}

/** `hcp-cdk plan`: returns the exit status (once the management cluster is read, with --live). */
export function runPlan(args: readonly string[]): number | Promise<number> {
  const parsed = parseArguments(args);
  if (typeof parsed === 'number') return parsed;
  let catalog: SchemaCatalog;
  try {
    catalog = catalogWithCrds(parsed.crds, () => '--crds');
  } catch (error) {
    for (const problem of (error as HcpValidationError).problems ?? [(error as Error).message]) console.error(`hcp-cdk plan: ${problem}`);
    return 1;
  }
  let plan: Plan;
  let previous: OutputSnapshot;
  let next: OutputSnapshot;
  try {
    previous = previousSnapshot(parsed.output, { directory: parsed.against, gitRef: parsed.against === undefined ? parsed.ref : undefined });
    next = OutputSnapshot.fromDirectory(parsed.output);
    if (next.files.size === 0 && previous.files.size > 0 && !parsed.allowEmpty) {
      throw new PlanInputError(
        `${parsed.output} holds no objects, and ${previous.description} holds ${previous.files.size}: a synth that failed leaves an empty output, and this plan would delete everything; synthesize again, or give --allow-empty if deleting every object is meant`,
      );
    }
    plan = planChanges(previous, next, { validator: new ObjectValidator({ catalog }), includeUnchanged: parsed.includeUnchanged, unvalidatedKinds: parsed.unvalidatedKinds });
  } catch (error) {
    if (error instanceof PlanInputError || (error as NodeJS.ErrnoException).code !== undefined) {
      console.error(`hcp-cdk plan: ${(error as Error).message}`);
      return 1;
    }
    throw error;
  }
  if (parsed.live) {
    // Nothing is printed before the cluster is read: a read that fails leaves only its error.
    return addLiveState(plan, previous, next, parsed.live).then(
      (withLive) => report(withLive, parsed),
      (error) => {
        if (!(error instanceof PlanInputError)) throw error;
        console.error(`hcp-cdk plan: --live: ${error.message}`);
        return 1;
      },
    );
  }
  return report(plan, parsed);
}

/** Prints the plan as asked and returns the exit status. */
function report(plan: Plan, parsed: PlanArguments): number {
  if (parsed.format === 'json') process.stdout.write(`${JSON.stringify(plan, null, 2)}\n`);
  else if (parsed.format === 'markdown') {
    if (parsed.fullPlan !== undefined) fs.writeFileSync(parsed.fullPlan, planMarkdown(plan, { maxLength: Infinity }));
    process.stdout.write(planMarkdown(plan, { fullPlan: parsed.fullPlan }));
  } else process.stdout.write(planText(plan, { color: parsed.color }));
  // A rollout that refuses a commit refuses it whether or not an object moved (a released wave removed moves none).
  const refusingRollouts = (plan.rollouts ?? []).filter((r) => (r.refusals ?? []).length > 0).map((r) => r.name);
  const refused = plan.summary.effects[ChangeEffect.REFUSED] ?? 0;
  const warnings = parsed.strict ? planWarnings(plan).length : 0;
  if (refused > 0) {
    console.error(`hcp-cdk plan: ${refused} of the changes would be refused (effect refused: by the API server, HyperShift or a release rollout); the output cannot be applied as it is`);
  } else if (refusingRollouts.length > 0) {
    console.error(
      `hcp-cdk plan: release ${refusingRollouts.length === 1 ? 'rollout' : 'rollouts'} ${refusingRollouts.join(', ')} refuse${refusingRollouts.length === 1 ? 's' : ''} the commit (refused: lines of the plan); the output cannot be applied as it is`,
    );
  }
  const liveRefused = liveRefusals(plan);
  if (liveRefused > 0) {
    console.error(
      `hcp-cdk plan: ${liveRefused} of the changes would be refused as the management cluster is now (live findings refused: an upgrade on top of one in progress, a pool ahead of the version its control plane reports); apply once the cluster allows them`,
    );
  }
  if (warnings > 0) {
    console.error(`hcp-cdk plan: ${warnings} ${warnings === 1 ? 'warning' : 'warnings'} under strict: what the plan cannot check is an error; give the versions it names, or plan without strict`);
  }
  if (refused > 0 || refusingRollouts.length > 0 || liveRefused > 0 || warnings > 0) return 1;
  return hasChanges(plan) ? 2 : 0;
}

function parseArguments(args: readonly string[]): PlanArguments | number {
  const paths: string[] = [];
  const crds: string[] = [];
  const unvalidatedKinds = new Set<string>();
  let against: string | undefined;
  let ref: string | undefined;
  let format: Format = 'text';
  let includeUnchanged = false;
  let allowEmpty = false;
  let strict = ['1', 'true'].includes(process.env.HCP_CDK_STRICT ?? '');
  let color = process.stdout.isTTY === true && !process.env.NO_COLOR;
  let live = false;
  let fullPlan: string | undefined;
  const liveOptions: { kubeconfig?: string; context?: string; managementFolder?: string } = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '-h' || arg === '--help') return print(PLAN_USAGE);
    if (arg === '--json-schema') return print(JSON.stringify(PLAN_JSON_SCHEMA, null, 2));
    if (arg === '--json') format = 'json';
    else if (arg === '--markdown') format = 'markdown';
    else if (arg === '--include-unchanged') includeUnchanged = true;
    else if (arg === '--allow-empty') allowEmpty = true;
    else if (arg === '--strict') strict = true;
    else if (arg === '--no-color') color = false;
    else if (arg === '--live') live = true;
    else if (arg === '--kubeconfig' || arg === '--context' || arg === '--hub') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(`${arg} needs a value`);
      if (arg === '--kubeconfig') liveOptions.kubeconfig = value;
      else if (arg === '--context') liveOptions.context = value;
      else liveOptions.managementFolder = value;
    } else if (arg === '--full-plan') {
      const value = args[++i];
      if (value === undefined || value === '') return usageError(`${arg} needs a value`);
      fullPlan = value;
    } else if (arg === '--against' || arg === '--ref' || arg === '--format' || arg === '--crds' || arg === '--allow-unvalidated-kind') {
      const value = args[++i];
      if (value === undefined) return usageError(`${arg} needs a value`);
      if (arg === '--allow-unvalidated-kind') {
        const waiver = parseUnvalidatedKind(arg, value);
        if (typeof waiver === 'string') return usageError(waiver);
        unvalidatedKinds.add(`${waiver.apiVersion}/${waiver.kind}`);
      } else if (arg === '--against') against = value;
      else if (arg === '--ref') ref = value;
      else if (arg === '--crds') crds.push(value);
      else if ((FORMATS as readonly string[]).includes(value)) format = value as Format;
      else return usageError(`--format (${JSON.stringify(value)}) must be one of ${FORMATS.join(', ')}`);
    } else if (arg.startsWith('-')) {
      return usageError(`unknown option ${arg}`);
    } else {
      paths.push(arg);
    }
  }
  if (paths.length > 1) return usageError(`one output directory is planned at a time, not ${paths.length} (${paths.join(', ')})`);
  if (against !== undefined && ref !== undefined) return usageError('--against and --ref both name the previous output; give one');
  const liveOnly = Object.keys(liveOptions).map((key) => ({ kubeconfig: '--kubeconfig', context: '--context', managementFolder: '--hub' })[key]);
  if (!live && liveOnly.length > 0) return usageError(`${liveOnly.join(', ')} ${liveOnly.length === 1 ? 'is' : 'are'} for --live, which reads the management cluster; give --live too`);
  if (fullPlan !== undefined && format !== 'markdown') return usageError('--full-plan is for --format markdown, whose comment it completes');
  const output = paths[0] ?? 'dist';
  if (!fs.existsSync(output)) return usageError(`${output}: no such directory; synthesize first (npm run synth) or name the output directory`);
  return { output, against, ref, format, includeUnchanged, allowEmpty, crds, unvalidatedKinds, color, strict, fullPlan, ...(live ? { live: liveOptions } : {}) };
}
