#!/usr/bin/env node
/**
 * The `hcp-cdk` command.
 *
 *   hcp-cdk validate <dir-or-file>... [--crds <dir-or-file>]... [--previous <dir>]
 *
 * Checks every object in the given YAML/JSON files against its CRD schema and CEL rules (and
 * the built-in Kubernetes kinds against theirs). Exit status 0 when all are valid, 1 when any
 * is not, 2 on a usage error or a CRD rule that cannot be checked.
 */
import { UnsupportedCelRuleError } from '../lib/validation/cel/cel-rule';
import { validateManifests } from '../lib/validation/validate-manifests';
import { formatProblem } from '../lib/validation/validation-problem';

const USAGE = `usage: hcp-cdk validate <dir-or-file>... [--crds <dir-or-file>]... [--previous <dir>]

  --crds <path>      CRDs to validate against instead of the bundled ones for the kinds they
                     serve, e.g. from the management cluster: oc get crd -o yaml > crds.yaml
  --previous <path>  the objects as stored now (e.g. the last committed output), laid out like
                     the checked directory; enables transition rules (immutable fields, ...)`;

function main(argv: string[]): number {
  const [command, ...rest] = argv;
  if (command !== 'validate') {
    console.error(command === undefined || command === '--help' || command === '-h' ? USAGE : `hcp-cdk: unknown command ${JSON.stringify(command)}\n${USAGE}`);
    return command === '--help' || command === '-h' ? 0 : 2;
  }
  const paths: string[] = [];
  const crds: string[] = [];
  let previous: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (arg === '--crds' || arg === '--previous') {
      const value = rest[++i];
      if (value === undefined) { console.error(`hcp-cdk validate: ${arg} needs a path\n${USAGE}`); return 2; }
      if (arg === '--crds') crds.push(value); else previous = value;
    } else if (arg.startsWith('-')) {
      console.error(`hcp-cdk validate: unknown option ${arg}\n${USAGE}`);
      return 2;
    } else {
      paths.push(arg);
    }
  }
  if (paths.length === 0) { console.error(USAGE); return 2; }

  const started = process.hrtime.bigint();
  let result;
  try {
    result = validateManifests(paths, { crds, previous });
  } catch (error) {
    if (error instanceof UnsupportedCelRuleError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      console.error(`hcp-cdk validate: ${(error as Error).message}`);
      return 2;
    }
    throw error;
  }
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  for (const problem of result.problems) console.error(formatProblem(problem));
  const summary = `${result.objects} objects in ${result.files} files, ${result.problems.length} problems (${millis.toFixed(0)} ms)`;
  if (result.problems.length > 0) { console.error(`hcp-cdk validate: ${summary}`); return 1; }
  console.log(`hcp-cdk validate: ${summary}`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
