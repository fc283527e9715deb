import * as path from 'path';
import { FileRestore, OutputDirectory } from './output-directory';

/** The output directory the cdk8s CLI named and the guard restores: one exit listener per process, however many apps. */
let guarded: { directory?: OutputDirectory } | undefined;

/**
 * Under `cdk8s synth`, which deletes the output directory (`CDK8S_OUTDIR`) before it runs the app:
 * puts the last good output back when the app exits with an error before a synth wrote a new one,
 * whatever threw and when, including before the app made its `HcpApp` (hcp-app.ts calls this when
 * it is loaded). Does nothing when the CLI did not start the process, so tests and apps run by
 * hand add no listener; under the CLI it adds one listener and touches no file until exit.
 */
export function guardCliOutput(): void {
  const cliOutput = process.env.CDK8S_OUTDIR;
  if (!cliOutput || guarded) return;
  const guard: { directory?: OutputDirectory } = {};
  guarded = guard;
  process.once('exit', (code) => {
    if (code === 0) return;
    // Made here, not at load: an app that succeeds pays for nothing but the listener.
    const report = (guard.directory ?? new OutputDirectory(cliOutput)).restoreAfterFailure();
    if (report) process.stderr.write(`${report.message}\n`);
  });
}

/**
 * Makes the guard restore `directory`, with its app's options (`keepLastGoodCopy`), when it is
 * the one the CLI named; an app that writes elsewhere leaves the guard as it is.
 */
export function guardOutputDeletedByCli(directory: OutputDirectory): void {
  const cliOutput = process.env.CDK8S_OUTDIR;
  if (!cliOutput || path.resolve(cliOutput) !== directory.root) return;
  guardCliOutput();
  guarded!.directory = directory;
}

/**
 * Under `cdk8s synth`, which deletes whatever is at its `--output` before it runs the app, a file
 * too: when `directory` is the CLI's and git holds a file at its path, puts the file back from git
 * (see `OutputDirectory.restoreFileFromGit()`). A file git does not hold is gone before hcp-cdk
 * runs, and nothing tells it from a directory.
 */
export function restoreFileDeletedByCli(directory: OutputDirectory): FileRestore | undefined {
  const cliOutput = process.env.CDK8S_OUTDIR;
  if (!cliOutput || path.resolve(cliOutput) !== directory.root) return undefined;
  return directory.restoreFileFromGit();
}
