// Runs example apps one after another in this one node process, each as `node <app>` would run it
// (CDK8S_OUTDIR, HCP_CDK_DELIVERY), loading the library once: starting node and loading hcp-cdk is
// four fifths of an example's synth. Usage: node example-runner.js '<jobs as JSON>'.
import * as path from 'path';

/** One app to run: its compiled main file, the delivery mode and the output directory. */
export interface ExampleJob {
  readonly app: string;
  readonly mode: string;
  readonly outdir: string;
}

/** Runs `job`: the example's own modules (everything under its build/examples/) are loaded afresh, the library is not. */
export function runExample(job: ExampleJob): void {
  const examples = path.resolve(path.dirname(job.app), '..');
  for (const file of Object.keys(require.cache)) if (file.startsWith(`${examples}${path.sep}`)) delete require.cache[file];
  process.env.CDK8S_OUTDIR = job.outdir;
  process.env.HCP_CDK_DELIVERY = job.mode;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- an example runs when loaded: by its path, at this moment
  require(job.app);
}

if (require.main === module) {
  // Each app under CDK8S_OUTDIR adds an exit listener (see cli-output-guard.ts); dozens here are expected.
  process.setMaxListeners(0);
  for (const job of JSON.parse(process.argv[2]) as ExampleJob[]) {
    try {
      runExample(job);
    } catch (error) {
      process.stderr.write(`\nHCP_CDK_DELIVERY=${job.mode} node ${job.app} failed: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    }
  }
}
