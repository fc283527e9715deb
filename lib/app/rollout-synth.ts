import type { ReleaseRollout } from '../release/release-rollout';
import { removedRollouts, rolloutProgress, type RolloutOutputs } from '../release/rollout-progress';
import { isWellFormedRolloutRecord, ROLLOUT_RECORD_FOLDER, ROLLOUT_RECORD_KIND, type RolloutRecord } from '../release/rollout-record';
import type { PreviousOutput } from './previous-output';

/** The records of release rollouts the previous output holds (`rollouts/`), by name; a file that is no record is left out. */
export function previousRolloutRecords(previous: PreviousOutput | undefined): Map<string, RolloutRecord> {
  const records = new Map<string, RolloutRecord>();
  if (!previous?.found) return records;
  const kind = `-${ROLLOUT_RECORD_KIND.toLowerCase()}-`;
  for (const file of previous.filesIn(ROLLOUT_RECORD_FOLDER).filter((f) => f.includes(kind))) {
    const record = previous.object(file);
    if (isWellFormedRolloutRecord(record)) records.set(record.metadata.name, record);
  }
  return records;
}

/**
 * What synth says of the app's rollouts against the previous output: each rollout's progress
 * (`rolloutProgress`, with its record there), the rollouts it no longer has (`removedRollouts`), and,
 * with no previous output, that a released wave is not checked.
 * @param rollouts the rollouts whose record is in `records`
 * @returns problems (each starting with the rollout's path) and warnings, which strict makes problems
 */
export function rolloutSynthFindings(
  rollouts: readonly ReleaseRollout[],
  records: ReadonlyMap<string, RolloutRecord>,
  previousRecords: ReadonlyMap<string, RolloutRecord>,
  outputs: RolloutOutputs,
): { readonly problems: string[]; readonly warnings: string[] } {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const rollout of rollouts) {
    const record = records.get(rollout.rolloutName)!;
    if (!outputs.previousFound) {
      if (record.spec.releasedWaves > 0) {
        warnings.push(
          `${rollout.node.path}: releasedWaves (${record.spec.releasedWaves}) is not checked: with no previous output, synth cannot tell which wave this commit moves, nor whether the waves before it${record.spec.after ? ' and the rollouts it waits for (after)' : ''} run their release`,
        );
      }
      continue;
    }
    for (const problem of rolloutProgress(record, records, outputs, { previous: previousRecords.get(rollout.rolloutName) }).problems) problems.push(`${rollout.node.path}: ${problem}`);
  }
  const removed = removedRollouts(previousRecords, records, outputs);
  return { problems: [...problems, ...removed.problems], warnings: [...warnings, ...removed.warnings] };
}
