#!/usr/bin/env node
/**
 * The `hcp-cdk` command.
 *
 *   hcp-cdk validate <dir-or-file>... [--crds <dir-or-file>]... [--allow-unvalidated-kind <apiVersion>/<Kind>=<reason>]... [--previous <dir>] [--format text|json|junit]
 *   hcp-cdk plan [<output-dir>] [--against <dir> | --ref <git-ref>] [--format text|json|markdown]
 *   hcp-cdk rollout status|advance [<output-dir>] [--context <folder>=<context>]... (see rollout-command.ts)
 *
 * Checks every object in the given YAML/JSON files against its CRD schema and CEL rules (and
 * the built-in Kubernetes kinds against theirs). Exit status 0 when all are valid, 1 when any
 * is not, 2 on a usage error, a path that cannot be read, an output directory a synth left
 * incomplete or a CRD rule that cannot be checked. `plan` exits as terraform plan
 * -detailed-exitcode does: 0 no changes, 2 changes, 1 an error (see plan-command.ts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { print } from './cli-output';
import { outputState } from '../lib/output/output-state';
import { HcpValidationError } from '../lib/core/problems';
import { packageRoot } from '../lib/core/package-root';
import { UnsupportedCelRuleError } from '../lib/validation/cel/cel-rule';
import { ManifestPathError } from '../lib/validation/manifest-files';
import { formatLintFinding } from '../lib/validation/manifest-lint';
import { ManifestValidationResult, validateManifests } from '../lib/validation/validate-manifests';
import { AllowUnvalidatedKindOptions, parseUnvalidatedKind } from '../lib/validation/unvalidated-kind';
import { formatProblem } from '../lib/validation/validation-problem';
import { runPlan } from './plan-command';
import { runRollout } from './rollout-command';
import { junitReport, jsonReport } from './validate-report';

const USAGE = `usage: hcp-cdk <command> [options]

commands:
  validate   check YAML or JSON objects against their CRDs (schema and CEL rules)
  plan       what a new output does to the clusters running the previous one (upgrades, rollouts, deletions, refusals)
  rollout    status: where each release rollout stands on the live management clusters;
             advance: release the next wave when the live clusters allow it (for a scheduled pipeline)

options:
  -h, --help       this text (hcp-cdk <command> --help: the command's)
  -V, --version    the version of hcp-cdk`;

const VALIDATE_USAGE = `usage: hcp-cdk validate <dir-or-file>... [--crds <dir-or-file>]... [--allow-unvalidated-kind <apiVersion>/<Kind>=<reason>]...
                        [--previous <dir>] [--strict] [--format text|json|junit]

Checks every object in the YAML or JSON files under the paths (a \`kind: List\` item by item) as a
Kubernetes API server carrying the CRDs would on apply: OpenAPI schema, unknown fields, CEL rules.
Then lints the HostedClusters, NodePools and MetalLB pools it accepts for what HyperShift and
MetalLB refuse or cannot use although the API server takes it (rules HCP-W001 to HCP-W121, see
docs/validation.md#validation-against-the-crds): warnings, unless --strict.

  --crds <path>       CRDs to validate against, over the bundled ones, for the kinds they serve:
                      kinds hcp-cdk does not bundle, or the CRDs the management cluster runs
                      (oc get crd -o yaml > crds.yaml)
  --allow-unvalidated-kind <apiVersion>/<Kind>=<reason>
                      pass objects of a kind that no CRD serves unchecked, e.g.
                      --allow-unvalidated-kind 'widgets.example.com/v1/Widget=no CRD published';
                      listed with its reason; refused (status 2) for a kind that has a schema
  --previous <path>   the objects as stored now (e.g. the last committed output), laid out like
                      the checked directory; enables transition rules (immutable fields, ...)
  --strict            lint findings are problems (exit status 1), not warnings
  --format <format>   text (default): problems on stderr, a summary line;
                      json: one JSON document on stdout (schema: hcp-cdk.io/validate/v1);
                      junit: JUnit XML on stdout, one test case per file, for CI annotations
  --json              the same as --format json
  -h, --help          this text

A directory that a synth stopped while writing (it holds ${'`'}.hcp-cdk-incomplete${'`'}) is refused: it
mixes two outputs; synthesize again to repair it.

exit status: 0 all objects valid, 1 problems found, 2 usage error, unreadable path, an incomplete
output directory or an unsupported CRD rule`;

const FORMATS = ['text', 'json', 'junit'] as const;
type Format = (typeof FORMATS)[number];

function main(argv: string[]): number | Promise<number> {
  const [command, ...rest] = argv;
  if (command === '-h' || command === '--help' || command === 'help') return print(USAGE);
  if (command === '-V' || command === '--version') return print(version());
  if (command === 'plan') return runPlan(rest);
  if (command === 'rollout') return runRollout(rest);
  if (command !== 'validate') return usageError(command === undefined ? 'a command is needed' : `unknown command ${JSON.stringify(command)}`, USAGE);

  const paths: string[] = [];
  const crds: string[] = [];
  const unvalidatedKinds: AllowUnvalidatedKindOptions[] = [];
  let previous: string | undefined;
  let format: Format = 'text';
  let strict = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '-h' || arg === '--help') return print(VALIDATE_USAGE);
    if (arg === '--json') format = 'json';
    else if (arg === '--strict') strict = true;
    else if (arg === '--crds' || arg === '--previous' || arg === '--format' || arg === '--allow-unvalidated-kind') {
      const value = rest[++i];
      if (value === undefined) return usageError(`${arg} needs a value`, VALIDATE_USAGE);
      if (arg === '--crds') crds.push(value);
      else if (arg === '--allow-unvalidated-kind') {
        const waiver = parseUnvalidatedKind(arg, value);
        if (typeof waiver === 'string') return usageError(waiver, VALIDATE_USAGE);
        unvalidatedKinds.push(waiver);
      } else if (arg === '--previous') previous = value;
      else if ((FORMATS as readonly string[]).includes(value)) format = value as Format;
      else return usageError(`--format (${JSON.stringify(value)}) must be one of ${FORMATS.join(', ')}`, VALIDATE_USAGE);
    } else if (arg.startsWith('-')) {
      return usageError(`unknown option ${arg}`, VALIDATE_USAGE);
    } else {
      paths.push(arg);
    }
  }
  if (paths.length === 0) return usageError('at least one file or directory is needed', VALIDATE_USAGE);
  // A misspelt --previous would skip the transition checks (immutable fields) and pass.
  if (previous !== undefined && !fs.existsSync(previous)) {
    console.error(`hcp-cdk validate: --previous (${JSON.stringify(previous)}) does not exist; give the directory of the objects as stored now, or leave --previous out`);
    return 2;
  }

  // Half of one synth and half of another may each be valid and still not be an output.
  for (const dir of [...paths, ...(previous === undefined ? [] : [previous])]) {
    const state = isDirectory(dir) ? outputState(dir) : { complete: true };
    if (!state.complete) {
      console.error(`hcp-cdk validate: ${state.reason}`);
      return 2;
    }
  }

  const started = process.hrtime.bigint();
  let result: ManifestValidationResult;
  try {
    result = validateManifests(paths, { crds, previous, lint: true, unvalidatedKinds });
  } catch (error) {
    if (error instanceof UnsupportedCelRuleError || error instanceof ManifestPathError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error(`hcp-cdk validate: ${(error as Error).message}`);
      return 2;
    }
    // --crds that are not CRDs, each named.
    if (error instanceof HcpValidationError) {
      for (const problem of error.problems) console.error(`hcp-cdk validate: ${problem}`);
      return 2;
    }
    throw error;
  }
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  // A waiver that changes nothing would tell a reader that these objects go unchecked.
  const misplaced = result.waivers.filter((w) => w.schema !== undefined);
  if (misplaced.length > 0) {
    for (const w of misplaced)
      console.error(`hcp-cdk validate: --allow-unvalidated-kind ${w.apiVersion}/${w.kind} waives a kind that has a schema (${w.schema}): its objects are checked against it all the same; remove it`);
    return 2;
  }
  for (const w of result.waivers) {
    if (w.objects === 0) console.error(`hcp-cdk validate: warning: --allow-unvalidated-kind ${w.apiVersion}/${w.kind} waives no object: no object of that kind is in the files; remove it`);
    else console.error(`hcp-cdk validate: note: ${w.objects} ${w.apiVersion} ${w.kind} object${w.objects === 1 ? ' is' : 's are'} not checked against a schema, because ${JSON.stringify(w.reason)}`);
  }
  if (format === 'json') process.stdout.write(`${JSON.stringify(jsonReport(result, strict), null, 2)}\n`);
  if (format === 'junit') process.stdout.write(junitReport(result, strict));
  for (const warning of result.warnings) console.error(`hcp-cdk validate: warning: ${warning}`);
  const findings = result.findings.map(formatLintFinding);
  // Without --strict, lint findings are warnings in every format; with it, they are problems.
  if (!strict) for (const finding of findings) console.error(`hcp-cdk validate: warning: ${finding}`);
  const failed = result.problems.length > 0 || (strict && findings.length > 0);
  if (format === 'text') {
    for (const problem of result.problems) console.error(formatProblem(problem));
    if (strict) for (const finding of findings) console.error(finding);
    const lint = findings.length === 0 ? '' : `, ${findings.length} lint findings${strict ? '' : ' (warnings)'}`;
    const summary = `${result.objects} objects in ${result.files} files, ${result.problems.length} problems${lint} (${millis.toFixed(0)} ms)`;
    if (failed) console.error(`hcp-cdk validate: ${summary}`);
    else console.log(`hcp-cdk validate: ${summary}`);
  }
  return failed ? 1 : 0;
}

function isDirectory(file: string): boolean {
  try {
    return fs.statSync(file).isDirectory();
  } catch {
    return false; // Reported as unreadable by the validation itself.
  }
}

function usageError(message: string, usage: string): number {
  console.error(`hcp-cdk: ${message}\n${usage}`);
  return 2;
}

/** The version in the package's own package.json. */
function version(): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return `hcp-cdk ${manifest.version}`;
}

const status = main(process.argv.slice(2));
if (typeof status === 'number') process.exitCode = status;
else
  void status.then((code) => {
    process.exitCode = code;
  });
