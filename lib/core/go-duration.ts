import { Duration } from 'cdk8s';

/** Formats a duration the way Go's time.Duration prints it (`0s`, `30s`, `5m0s`, `1h30m0s`). */
export function toGoDuration(duration: Duration): string {
  const totalSeconds = Math.round(duration.toSeconds());
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${minutes}m${seconds}s`;
  return `${seconds}s`;
}
