import * as fs from 'fs';
import * as path from 'path';
import { rfc3339Seconds } from '../../core/formats';
import { ROLLOUT_ADVANCE_EXIT_CODES, RolloutAdvanceDecision, RolloutAdvanceOutcome } from '../../release/rollout-advance';
import type { RolloutRecord } from '../../release/rollout-record';
import { RolloutState, rolloutStateText, RolloutStateSpec } from '../../release/rollout-state';
import { PlanInputError } from '../output-snapshot';
import { HubRead, LiveClusterReadOptions, readLiveClusters } from './live-clusters';
import { liveDecisions, releasedClusters } from './live-decisions';
import { checkHubNames } from './hub-connections';
import { managementFolders, readRolloutRecords, selectedRecords } from './rollout-status';

/** The format version of `hcp-cdk rollout advance --json`: fields are only added within a version. */
export const ROLLOUT_ADVANCE_SCHEMA_VERSION = 'hcp-cdk.io/rollout-advance/v1';

/** Options of `advanceRollouts`. */
export interface AdvanceRolloutsOptions extends LiveClusterReadOptions {
  /**
   * The output directory the management clusters run (its `rollouts/` records give each rollout's
   * waves, clusters, policies and state file).
   * @default 'dist'
   */
  readonly output?: string;
  /**
   * The rollouts to advance, by name.
   * @default - every rollout the output records with a state file
   */
  readonly rollouts?: readonly string[];
  /**
   * The state file, for one rollout.
   * @default - the one the rollout's record names (`stateFile`, relative to the output directory)
   */
  readonly stateFile?: string;
  /**
   * The time of the decision: timeouts and pauses are measured against it, and a released wave records it.
   * @default - now
   */
  readonly now?: Date;
  /**
   * Decide and report, but write no state file.
   * @default false
   */
  readonly dryRun?: boolean;
}

/** One rollout's decision, and what became of its state file. */
export interface AdvancedRollout extends RolloutAdvanceDecision {
  /** The state file, as given or as the record names it from the output directory. */
  readonly stateFile: string;
  /** Whether the state file was rewritten (the decision changed it, and not a dry run). */
  readonly written: boolean;
}

/** What `hcp-cdk rollout advance` did. */
export interface RolloutAdvanceRun {
  /** `hcp-cdk.io/rollout-advance/v1`. */
  readonly schemaVersion: typeof ROLLOUT_ADVANCE_SCHEMA_VERSION;
  /** The time of the decisions (RFC 3339, UTC). */
  readonly time: string;
  /** The output directory read. */
  readonly output: string;
  /** The exit code of the run (see ROLLOUT_ADVANCE_EXIT_CODES; with several rollouts, see advanceExitCode). */
  readonly exitCode: number;
  /** The management clusters read. */
  readonly hubs: readonly HubRead[];
  /** Each rollout advanced, in name order. */
  readonly rollouts: readonly AdvancedRollout[];
}

/** The rollouts whose decision is to be acted on, with their state files and states; throws PlanInputError for what is missing or wrong, all at once. */
function statesOf(records: ReadonlyMap<string, RolloutRecord>, options: AdvanceRolloutsOptions, output: string): Map<string, { file: string; state: RolloutState }> {
  const named = options.rollouts !== undefined && options.rollouts.length > 0;
  const chosen = named ? [...options.rollouts] : [...records.values()].filter((r) => r.spec.stateFile !== undefined).map((r) => r.metadata.name);
  if (chosen.length === 0) {
    throw new PlanInputError(
      `no rollout of ${output} has a state file (the rollouts there: ${[...records.keys()].sort().join(', ')}): give a rollout its state (RolloutState.fromFile, or stateFile in a fleet inventory), synthesize, and advance it then; or name one with --rollout and its file with --state-file`,
    );
  }
  if (options.stateFile !== undefined && chosen.length !== 1) {
    throw new PlanInputError(`--state-file names the state file of one rollout, and ${chosen.length} are advanced (${chosen.join(', ')}): name one with --rollout`);
  }
  const problems: string[] = [];
  const states = new Map<string, { file: string; state: RolloutState }>();
  for (const name of chosen.sort()) {
    const recorded = records.get(name)!.spec.stateFile;
    const file = options.stateFile ?? (recorded !== undefined ? path.join(output, recorded) : undefined);
    if (file === undefined) {
      problems.push(
        `rollout ${name} has no state file: it states releasedWaves in code, which rollout advance does not rewrite; give it state: RolloutState.fromFile(...) (stateFile in a fleet inventory), or name the file with --state-file`,
      );
      continue;
    }
    if (!fs.existsSync(file)) {
      problems.push(
        `rollout ${name}: its state file ${file} does not exist${recorded !== undefined && options.stateFile === undefined ? ` (the record names ${recorded}, relative to ${output})` : ''}; synthesize from where the state file is, or give --state-file`,
      );
      continue;
    }
    const state = RolloutState.fromFile(file);
    problems.push(...state.problems.map((p) => `rollout ${name}: ${p}`));
    if (state.problems.length === 0 && state.name !== name) problems.push(`rollout ${name}: ${file} is the state of rollout ${state.name} (metadata.name); give the state file of ${name}`);
    states.set(name, { file, state });
  }
  if (problems.length > 0) throw new PlanInputError(problems.join('\n'));
  return states;
}

/**
 * Advances release rollouts from what their clusters report (`hcp-cdk rollout advance`), as TALM's
 * ClusterGroupUpgrade controller moves from batch to batch, but one reviewed commit at a time: reads
 * the output's records, each rollout's state file, and the clusters of the released waves on their
 * management clusters (by list, read-only); decides for each rollout (decideRolloutAdvance, through
 * hcp-cdk's status model); and rewrites the state file of each whose decision changes it (a wave
 * released, failures recorded), nothing else. Synthesize, plan and commit after it: that commit is
 * the change to review. Nothing is written when anything is wrong: a PlanInputError for the output
 * or a state file, a LiveReadError when a management cluster that runs clusters of a released wave
 * cannot be read.
 */
export async function advanceRollouts(options: AdvanceRolloutsOptions = {}): Promise<RolloutAdvanceRun> {
  const output = options.output ?? 'dist';
  const now = options.now ?? new Date();
  const all = readRolloutRecords(output);
  selectedRecords(all, options.rollouts, output); // names the output does not record, first
  const states = statesOf(all, options, output);
  const records = selectedRecords(all, [...states.keys()], output);
  const clusters = [...new Set([...records.values()].flatMap(releasedClusters))];
  const spans = managementFolders([...records.values()].flatMap((r) => r.spec.waves.flatMap((w) => w.clusters)));
  checkHubNames(options, spans);
  const live = await readLiveClusters(clusters, { ...options, spans });
  const specs = new Map<string, RolloutStateSpec>([...states].map(([name, { state }]) => [name, state.spec]));
  const { decisions, undecided } = liveDecisions(records, live, now, specs);
  const cannot = [...states.keys()].filter((name) => undecided.has(name));
  if (cannot.length > 0) throw new PlanInputError(cannot.map((name) => `rollout ${name} cannot be decided: ${undecided.get(name)}`).join('\n'));
  const rollouts: AdvancedRollout[] = [];
  for (const [name, { file }] of states) {
    const decision = decisions.get(name)!;
    const text = decision.state ? rolloutStateText(name, decision.state) : undefined;
    const written = text !== undefined && !options.dryRun;
    if (written) writeAtomically(file, text);
    rollouts.push({ ...decision, stateFile: file, written });
  }
  return {
    schemaVersion: ROLLOUT_ADVANCE_SCHEMA_VERSION,
    time: rfc3339Seconds(now),
    output,
    exitCode: advanceExitCode(rollouts.map((r) => r.outcome)),
    hubs: live.hubs,
    rollouts,
  };
}

/** The order in which outcomes decide the exit code of a run over several rollouts: a person needed first, then a change to commit. */
const EXIT_PRECEDENCE: readonly RolloutAdvanceOutcome[] = [RolloutAdvanceOutcome.BLOCKED, RolloutAdvanceOutcome.ADVANCE, RolloutAdvanceOutcome.WAIT, RolloutAdvanceOutcome.COMPLETE];

/**
 * The exit code of a run: a rollout's own (0 advance, 2 wait, 3 blocked, 4 complete); over several,
 * the first of blocked, advance, wait and complete that any of them has, so that a pipeline hears
 * of a rollout that needs a person even when another advanced.
 */
export function advanceExitCode(outcomes: readonly RolloutAdvanceOutcome[]): number {
  return ROLLOUT_ADVANCE_EXIT_CODES[EXIT_PRECEDENCE.find((o) => outcomes.includes(o)) ?? RolloutAdvanceOutcome.COMPLETE];
}

/** Writes through a file beside it and a rename, so that a reader (or a crash) never sees half a state file. */
function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.partial`;
  fs.writeFileSync(partial, text);
  fs.renameSync(partial, file);
}
