import { Duration } from 'cdk8s';
import { show } from './problems';
import { isDuration } from './runtime-props';

/** Formats a duration the way Go's time.Duration prints it (`0s`, `30s`, `5m0s`, `1h30m0s`), to the second. */
export function toGoDuration(duration: Duration): string {
  // Not toSeconds(): it throws for a duration that is no whole number of seconds.
  const totalSeconds = Math.round(duration.toSeconds({ integral: false }));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}

/** A duration as Go prints it, to the millisecond (`500ms`, `1.5s`, `1m30.25s`): how a message shows one that is not whole seconds. */
export function goDurationText(duration: Duration): string {
  const millis = Math.round(duration.toSeconds({ integral: false }) * 1000);
  if (millis % 1000 === 0) return toGoDuration(duration);
  if (millis < 1000) return `${millis}ms`;
  const hours = Math.floor(millis / 3_600_000);
  const minutes = Math.floor((millis % 3_600_000) / 60_000);
  return `${hours > 0 ? `${hours}h` : ''}${hours > 0 || minutes > 0 ? `${minutes}m` : ''}${(millis % 60_000) / 1000}s`;
}

/**
 * Why `value` cannot be written as the Duration of `field`, or undefined: it must be a cdk8s
 * Duration (a JavaScript caller may give "5m"), of whole seconds (the fields hcp-cdk writes take
 * Go durations to the second, `5m0s`, or a count of seconds; `Duration.millis(500)` would reach the
 * output as a cdk8s error naming no field), and at least `least` seconds when given.
 */
export function durationProblem(field: string, value: unknown, options: { readonly example: string; readonly least?: number; readonly leastReason?: string }): string | undefined {
  if (!isDuration(value)) return `${field} (${show(value)}) must be a Duration, e.g. ${options.example}`;
  const seconds = value.toSeconds({ integral: false });
  if (!Number.isInteger(seconds)) {
    return `${field} (${show(goDurationText(value))}) must be a whole number of seconds, e.g. Duration.seconds(${Math.max(1, Math.round(seconds))})`;
  }
  if (options.least !== undefined && seconds < options.least) {
    return `${field} (${show(toGoDuration(value))}) must be at least ${toGoDuration(Duration.seconds(options.least))}${options.leastReason ? `, ${options.leastReason}` : ''}`;
  }
  return undefined;
}

/** Go's time.ParseDuration: a possibly signed sequence of decimal numbers, each with a unit, or 0. */
const GO_DURATION = /^[-+]?(0|((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+)$/;

/**
 * Why a duration given as text (an ExternalSecret's refreshInterval) is not one its controller
 * parses, or undefined: Go's time.ParseDuration takes `1h`, `15m`, `1h30m`, `90s`, not `1 hour`,
 * `hourly` or `1d`; a negative one is refused too.
 */
export function goDurationTextProblem(field: string, value: unknown): string | undefined {
  if (typeof value === 'string' && GO_DURATION.test(value) && !value.startsWith('-')) return undefined;
  return `${field} (${show(value)}) must be a Go duration such as 1h, 15m or 1h30m: numbers with a unit ns, us, ms, s, m or h, no spaces`;
}
