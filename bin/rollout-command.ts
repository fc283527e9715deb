import * as fs from 'fs';
import { print, usageErrorOf } from './cli-output';
import { isRfc3339 } from '../lib/core/formats';
import { advanceRollouts, AdvanceRolloutsOptions, RolloutAdvanceRun } from '../lib/plan/live-rollout/advance-rollouts';
import { advanceCommitMessage, advanceText } from '../lib/plan/live-rollout/advance-text';
import { ROLLOUT_ADVANCE_JSON_SCHEMA, ROLLOUT_STATUS_JSON_SCHEMA } from '../lib/plan/live-rollout/rollout-json-schemas';
import { readRolloutStatus, RolloutStatusOptions, RolloutStatusReport } from '../lib/plan/live-rollout/rollout-status';
import { rolloutStatusMarkdown } from '../lib/plan/live-rollout/rollout-status-markdown';
import { rolloutStatusText } from '../lib/plan/live-rollout/rollout-status-text';
import { PlanInputError } from '../lib/plan/output-snapshot';

const READ_OPTIONS = `  <output-dir>          the output the management clusters run (default: dist): its rollouts/
                        records say which clusters are in which wave
  --rollout <name>      only this rollout (repeatable; default: every one)
  --context [<folder>=]<context>
                        the kubeconfig context of the management cluster of output folder
                        <folder> (repeatable); default: the context named as the folder, else, for
                        rollouts on one management cluster, the current context (or --context
                        <context> without a folder)
  --kubeconfig [<folder>=]<file>
                        the kubeconfig, for every management cluster or for one (repeatable);
                        default: KUBECONFIG, else ~/.kube/config
  --page-size <n>       objects per page of a list (default 500, as kubectl)
  --now <time>          judge timeouts and pauses at this RFC 3339 time instead of now
  --json-schema         print the JSON Schema of the subcommand's --json output and exit
  -h, --help            this text`;

export const ROLLOUT_USAGE = `usage: hcp-cdk rollout status [<output-dir>] [--format text|json|markdown] [options]
       hcp-cdk rollout advance [<output-dir>] [--dry-run] [--json] [options]

status: where each release rollout of the output stands on the live management clusters, per wave
and cluster (pending, control-plane-upgrading, pools-rolling, done, failed with HyperShift's
reason, paused, timed-out, held, not-found, unread), read through hcp-cdk's model of HyperShift's
status, and what advance would decide. Reads HostedClusters and NodePools by list, a page at a
time, read-only (a role with list on hostedclusters and nodepools is enough).

advance: for each rollout with a state file, decides from the live clusters whether its next wave
may be released (its released waves done, failures within its budget, no paused member unless
onPaused is Continue, no wave past its timeout) and rewrites the state file: the next wave released,
failed and timed-out clusters recorded with why. Synthesize, plan and commit after it.

${READ_OPTIONS}
status:
  --format <format>     text (default); json (schema: hcp-cdk.io/rollout-status/v1, printed by
                        --json-schema); markdown (a pull-request comment or a pipeline summary)
  --json, --markdown    the same as --format json, --format markdown
advance:
  --state-file <file>   the state file, for one rollout (default: the one its record names)
  --dry-run             decide and print, write nothing
  --json                one JSON document (schema: hcp-cdk.io/rollout-advance/v1, --json-schema)
  --message-file <file> when a state file was written, write a commit message for it here

exit status: status: 0 every management cluster read, 1 an error (a usage error, an output that
cannot be read, a management cluster that cannot be read: the report is printed all the same).
advance: 0 advance (a wave released: commit the state file), 2 wait (a released wave still
upgrading, paused until a time, a rollout it waits for not complete, or the state file ahead of
the output: try again later), 3 blocked (a person must act: failures under Stop or over the budget,
a member paused indefinitely, held pools), 4 complete (remove the rollout), 1 an error (nothing is
written). Over several rollouts, the first of 3, 0, 2, 4 that any of them has. A wait or blocked
decision that records failures rewrites the state file too: commit whenever it changed.`;

const usageError = usageErrorOf('hcp-cdk rollout', ROLLOUT_USAGE, 1);

type Subcommand = 'status' | 'advance';
const FORMATS = ['text', 'json', 'markdown'] as const;
type Format = (typeof FORMATS)[number];

interface RolloutArguments {
  readonly subcommand: Subcommand;
  readonly format: Format;
  readonly read: RolloutStatusOptions & AdvanceRolloutsOptions;
  readonly messageFile?: string;
}

/** `hcp-cdk rollout status|advance`: returns the exit status once the management clusters are read. */
export function runRollout(args: readonly string[]): number | Promise<number> {
  const parsed = parseArguments(args);
  if (typeof parsed === 'number') return parsed;
  const failed = (error: unknown): number => {
    if (!(error instanceof PlanInputError)) throw error;
    for (const line of error.message.split('\n')) console.error(`hcp-cdk rollout ${parsed.subcommand}: ${line}`);
    return 1;
  };
  if (parsed.subcommand === 'status') return readRolloutStatus(parsed.read).then((report) => reportStatus(report, parsed.format), failed);
  return advanceRollouts(parsed.read).then((run) => reportAdvance(run, parsed), failed);
}

function reportStatus(report: RolloutStatusReport, format: Format): number {
  if (format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (format === 'markdown') process.stdout.write(rolloutStatusMarkdown(report));
  else process.stdout.write(rolloutStatusText(report));
  const unread = report.hubs.filter((hub) => hub.error !== undefined);
  for (const hub of unread) console.error(`hcp-cdk rollout status: management cluster ${hub.managementFolder} not read: ${hub.error}`);
  return unread.length > 0 ? 1 : 0;
}

function reportAdvance(run: RolloutAdvanceRun, parsed: RolloutArguments): number {
  if (parsed.format === 'json') process.stdout.write(`${JSON.stringify(run, null, 2)}\n`);
  else process.stdout.write(advanceText(run));
  const message = advanceCommitMessage(run);
  if (parsed.messageFile !== undefined && message !== undefined) fs.writeFileSync(parsed.messageFile, message);
  return run.exitCode;
}

function parseArguments(args: readonly string[]): RolloutArguments | number {
  const [subcommand, ...rest] = args;
  if (subcommand === '-h' || subcommand === '--help') return print(ROLLOUT_USAGE);
  if (subcommand !== 'status' && subcommand !== 'advance') return usageError(subcommand === undefined ? 'status or advance is needed' : `unknown subcommand ${JSON.stringify(subcommand)}`);
  const paths: string[] = [];
  const rollouts: string[] = [];
  const hubs: Record<string, { kubeconfig?: string; context?: string }> = {};
  let context: string | undefined;
  let kubeconfig: string | undefined;
  let format: Format = 'text';
  let pageSize: number | undefined;
  let now: Date | undefined;
  let stateFile: string | undefined;
  let messageFile: string | undefined;
  let dryRun = false;
  const only = (option: string, of: Subcommand): number | undefined => (subcommand === of ? undefined : usageError(`${option} is for rollout ${of}`));
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '-h' || arg === '--help') return print(ROLLOUT_USAGE);
    if (arg === '--json-schema') return print(JSON.stringify(subcommand === 'status' ? ROLLOUT_STATUS_JSON_SCHEMA : ROLLOUT_ADVANCE_JSON_SCHEMA, null, 2));
    if (arg === '--json') format = 'json';
    else if (arg === '--markdown') {
      const wrong = only(arg, 'status');
      if (wrong !== undefined) return wrong;
      format = 'markdown';
    } else if (arg === '--dry-run') {
      const wrong = only(arg, 'advance');
      if (wrong !== undefined) return wrong;
      dryRun = true;
    } else if (['--rollout', '--context', '--kubeconfig', '--page-size', '--now', '--format', '--state-file', '--message-file'].includes(arg)) {
      const value = rest[++i];
      if (value === undefined || value === '') return usageError(`${arg} needs a value`);
      if (arg === '--rollout') rollouts.push(value);
      else if (arg === '--context' || arg === '--kubeconfig') {
        const field = arg === '--context' ? 'context' : 'kubeconfig';
        const equals = value.indexOf('=');
        if (equals > 0) {
          const folder = value.slice(0, equals);
          hubs[folder] = { ...hubs[folder], [field]: value.slice(equals + 1) };
        } else if (field === 'context') context = value;
        else kubeconfig = value;
      } else if (arg === '--page-size') {
        pageSize = Number(value);
        if (!Number.isInteger(pageSize) || pageSize < 1) return usageError(`--page-size (${JSON.stringify(value)}) must be a whole number >= 1`);
      } else if (arg === '--now') {
        if (!isRfc3339(value)) return usageError(`--now (${JSON.stringify(value)}) must be an RFC 3339 time such as 2026-05-01T12:00:00Z`);
        now = new Date(value);
      } else if (arg === '--format') {
        if (!(FORMATS as readonly string[]).includes(value)) return usageError(`--format (${JSON.stringify(value)}) must be one of ${FORMATS.join(', ')}`);
        if (subcommand === 'advance' && value === 'markdown') return usageError('--format markdown is for rollout status; rollout advance prints text or --json');
        format = value as Format;
      } else if (arg === '--state-file') {
        const wrong = only(arg, 'advance');
        if (wrong !== undefined) return wrong;
        stateFile = value;
      } else {
        const wrong = only(arg, 'advance');
        if (wrong !== undefined) return wrong;
        messageFile = value;
      }
    } else if (arg.startsWith('-')) return usageError(`unknown option ${arg}`);
    else paths.push(arg);
  }
  if (paths.length > 1) return usageError(`one output directory at a time, not ${paths.length} (${paths.join(', ')})`);
  const output = paths[0] ?? 'dist';
  if (!fs.existsSync(output)) return usageError(`${output}: no such directory; give the output directory the management clusters run`);
  const read: RolloutStatusOptions & AdvanceRolloutsOptions = {
    output,
    ...(rollouts.length > 0 ? { rollouts } : {}),
    ...(Object.keys(hubs).length > 0 ? { hubs: hubs } : {}),
    ...(context !== undefined ? { context } : {}),
    ...(kubeconfig !== undefined ? { kubeconfig } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(stateFile !== undefined ? { stateFile } : {}),
    ...(dryRun ? { dryRun } : {}),
  };
  return { subcommand, format, read, ...(messageFile !== undefined ? { messageFile } : {}) };
}
