import * as fs from 'fs';
import * as path from 'path';

/**
 * The file a synth creates in the output directory before it changes anything there, and removes
 * once every file is written and the last good copy is kept. While it exists the directory is a
 * mix of two outputs: `hcp-cdk validate` refuses it, `outputState()` says so, and the next synth
 * repairs it. A dotfile with no YAML extension, so GitOps engines and kustomize never read it; git
 * shows it, so an incomplete output is not committed unnoticed.
 */
export const INCOMPLETE_MARKER = '.hcp-cdk-incomplete';

/** Whether an output directory holds one whole synth. */
export interface OutputState {
  /** True when the directory exists and no synth stopped while writing it. */
  readonly complete: boolean;
  /** Why it is not complete, for the user. */
  readonly reason?: string;
}

/** What the marker records: which synth started writing, and when. */
export interface IncompleteWrite {
  readonly pid: number;
  readonly started: string;
}

/** Creates `INCOMPLETE_MARKER` in `root` (which must exist), naming this process: before a synth's first change there. */
export function markIncomplete(root: string): void {
  const marker: IncompleteWrite = { pid: process.pid, started: new Date().toISOString() };
  fs.writeFileSync(path.join(root, INCOMPLETE_MARKER), `${JSON.stringify(marker)}\n`);
}

/**
 * Whether `dir` holds the whole output of one synth: it exists and carries no
 * `INCOMPLETE_MARKER`, which a synth that was killed or failed while writing leaves behind.
 */
export function outputState(dir: string): OutputState {
  const root = path.resolve(dir);
  if (!fs.existsSync(root)) return { complete: false, reason: `${root} does not exist` };
  const marker = readMarker(root);
  if (marker === undefined) return { complete: true };
  const by = marker ? ` (process ${marker.pid}, started ${marker.started})` : '';
  return { complete: false, reason: `${root} is incomplete: a synth stopped while writing it${by}; the next synth repairs it` };
}

/** The marker's record: undefined when there is none, null when it cannot be read (still incomplete). */
export function readMarker(root: string): IncompleteWrite | null | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, INCOMPLETE_MARKER), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
  try {
    const record = JSON.parse(text) as IncompleteWrite;
    return typeof record.pid === 'number' && typeof record.started === 'string' ? record : null;
  } catch {
    return null; // Cut short while the marker itself was written: its name alone says enough.
  }
}
