import * as path from 'path';
import { OutputDirectory } from './output-directory';

/** The output directories already guarded in this process: one exit listener each, however many apps. */
const guarded = new Set<string>();

/**
 * Under `cdk8s synth`, which deletes the output directory before it runs the app: puts the last
 * good output back when the app exits with an error before a synth wrote a new one, including an
 * error thrown while the constructs are made, before `synth()` runs. Does nothing for an output
 * directory the CLI did not name (`CDK8S_OUTDIR`), so apps made in tests or by hand add no listener.
 */
export function guardOutputDeletedByCli(directory: OutputDirectory): void {
  const cliOutput = process.env.CDK8S_OUTDIR;
  if (!cliOutput || path.resolve(cliOutput) !== directory.root || guarded.has(directory.root)) return;
  guarded.add(directory.root);
  process.once('exit', (code) => {
    if (code === 0) return;
    const report = directory.restoreAfterFailure();
    if (report) process.stderr.write(`${report.message}\n`);
  });
}
