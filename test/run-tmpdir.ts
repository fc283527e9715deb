// jest globalSetup and globalTeardown of the whole run: every suite, and every process it starts
// (cdk8s, hcp-cdk, npm), makes its temporary directories in one directory of the run, removed at the
// end. Outputs and the copies HcpApp keeps beside them (`.<outdir>.last-good`) are not left in the
// machine's temporary directory run after run. HCP_CDK_KEEP_TEST_TMPDIR=1 keeps it, to look inside.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Names the run's directory for globalTeardown, which runs in the same process. */
const RUN_TMPDIR = 'HCP_CDK_TEST_RUN_TMPDIR';

export function setup(): void {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-test-run-'));
  process.env[RUN_TMPDIR] = directory;
  // os.tmpdir() reads TMPDIR at each call; jest's workers and the processes they start inherit it.
  process.env.TMPDIR = directory;
}

export function teardown(): void {
  const directory = process.env[RUN_TMPDIR];
  if (!directory || process.env.HCP_CDK_KEEP_TEST_TMPDIR === '1') return;
  fs.rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
}
