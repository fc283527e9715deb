import type { ManifestValidationResult } from '../lib/validation/validate-manifests';
import { formatLintFinding } from '../lib/validation/manifest-lint';
import { formatProblem } from '../lib/validation/validation-problem';

/** The JSON `hcp-cdk validate --format json` prints: versioned, so that CI scripts can rely on it. */
export interface ValidateJsonReport {
  readonly apiVersion: 'hcp-cdk.io/validate/v1';
  readonly files: number;
  readonly objects: number;
  readonly valid: boolean;
  readonly problems: readonly {
    readonly file?: string;
    readonly kind?: string;
    readonly namespace?: string;
    readonly name?: string;
    /** The field, as the API server names it: `spec.services[0].service`. */
    readonly field: string;
    readonly message: string;
    readonly value?: unknown;
    readonly rule?: string;
    /** The line the text output prints. */
    readonly text: string;
  }[];
  /** Lint findings on objects the API server accepts: errors with --strict (then `valid` is false), else warnings. */
  readonly lint: readonly {
    /** The rule's id, `HCP-W101`. */
    readonly rule: string;
    readonly severity: 'error' | 'warning';
    readonly file?: string;
    readonly kind?: string;
    readonly namespace?: string;
    readonly name?: string;
    readonly field: string;
    readonly message: string;
    readonly text: string;
  }[];
  readonly warnings: readonly string[];
}

export function jsonReport(result: ManifestValidationResult, strict = false): ValidateJsonReport {
  return {
    apiVersion: 'hcp-cdk.io/validate/v1',
    files: result.files,
    objects: result.objects,
    valid: result.problems.length === 0 && (!strict || result.findings.length === 0),
    problems: result.problems.map((p) => ({
      file: p.source,
      kind: p.object.kind,
      namespace: p.object.namespace,
      name: p.object.name,
      field: p.path,
      message: p.message,
      value: p.value,
      rule: p.rule,
      text: formatProblem(p),
    })),
    lint: result.findings.map((f) => ({
      rule: f.rule.id,
      severity: strict ? ('error' as const) : ('warning' as const),
      file: f.problem.source,
      kind: f.problem.object.kind,
      namespace: f.problem.object.namespace,
      name: f.problem.object.name,
      field: f.problem.path,
      message: f.problem.message,
      text: formatLintFinding(f),
    })),
    warnings: result.warnings,
  };
}

/** JUnit XML: one test case per file with problems (failed) and one for the run, which CI systems annotate. With strict, lint findings fail their file too. */
export function junitReport(result: ManifestValidationResult, strict = false): string {
  const byFile = new Map<string, { readonly message: string; readonly text: string }[]>();
  const failures = [
    ...result.problems.map((p) => ({ file: p.source ?? '', message: `${p.path ? `${p.path}: ` : ''}${p.message}`, text: formatProblem(p) })),
    ...(strict ? result.findings.map((f) => ({ file: f.problem.source ?? '', message: `${f.problem.message} [${f.rule.id}]`, text: formatLintFinding(f) })) : []),
  ];
  for (const failure of failures) byFile.set(failure.file, [...(byFile.get(failure.file) ?? []), failure]);
  const cases = [...byFile].map(([file, problems]) =>
    [`    <testcase classname="hcp-cdk.validate" name="${xml(file)}">`, ...problems.map((p) => `      <failure message="${xml(p.message)}">${xml(p.text)}</failure>`), '    </testcase>'].join('\n'),
  );
  const all = [`    <testcase classname="hcp-cdk.validate" name="${result.objects} objects in ${result.files} files"/>`, ...cases];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${all.length}" failures="${byFile.size}">`,
    `  <testsuite name="hcp-cdk validate" tests="${all.length}" failures="${byFile.size}">`,
    ...all,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
