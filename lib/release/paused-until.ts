import { rfc3339Text } from '../core/formats';
import { show } from '../core/problems';

/** The value of `spec.pausedUntil` that pauses until it is removed. */
export const PAUSED_UNTIL_TRUE = 'true';

/** How to unpause, for every message that refuses another spelling of it. */
const HOW_TO_UNPAUSE = 'to unpause, leave pausedUntil out (HyperShift resumes once the field is removed)';

/**
 * How long HyperShift leaves a HostedCluster or NodePool alone (`spec.pausedUntil`, doc 12.5):
 * no reconciliation, so no upgrade or rollout, until the time passes or the field is removed.
 * Backup and restore pause both (doc 7.6.5). There is one way to unpause: leave the prop out, so
 * that the field is removed. HyperShift reads only `"true"` or an RFC 3339 time, so `"false"` (docs
 * 7.6.6 step 5 patch it in) is refused here rather than written as a value that merely fails to parse.
 */
export class PausedUntil {
  /** Until `pausedUntil` is removed again (`"true"`). */
  public static indefinitely(): PausedUntil {
    return new PausedUntil(PAUSED_UNTIL_TRUE);
  }

  /** Until a time: a Date (written in UTC to the second) or an RFC 3339 string such as `2026-01-01T00:00:00Z`. */
  public static until(time: Date | string): PausedUntil {
    return new PausedUntil(time);
  }

  /** The typed form of a prop that also takes the string form (`"true"` or an RFC 3339 time). */
  public static of(value: PausedUntil | string): PausedUntil {
    return value instanceof PausedUntil ? value : new PausedUntil(value);
  }

  /** What `spec.pausedUntil` is set to. */
  public readonly value: string;
  /** Why the time is not one, or undefined when it is fine. */
  public readonly problem?: string;

  private constructor(time: Date | string) {
    const { text, problem } = time === PAUSED_UNTIL_TRUE ? { text: time, problem: undefined } : rfc3339Text('pausedUntil', time);
    this.value = text ?? String(time);
    // A string may also be "true": the message says so; "false" is someone trying to unpause.
    const unpausing = typeof time === 'string' && ['false', ''].includes(time.trim().toLowerCase());
    this.problem =
      problem &&
      (time instanceof Date
        ? problem
        : unpausing && time !== ''
          ? `pausedUntil (${show(time)}) is not how to unpause: HyperShift reads only "true" or an RFC 3339 time; ${HOW_TO_UNPAUSE}`
          : `pausedUntil (${show(time)}) must be "true" or an RFC 3339 time such as 2026-01-01T00:00:00Z${unpausing ? `; ${HOW_TO_UNPAUSE}` : ''}`);
  }
}
