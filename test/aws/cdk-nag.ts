// cdk-nag for the aws-cdk-lib tests: the AwsSolutions findings of a stack, and the acknowledgments that hide others.
import { Stack, Stage, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { IConstruct } from 'constructs';

/**
 * The unacknowledged AwsSolutions findings (errors and warnings) of `stack`, one
 * `<construct path>: <rule id>: <message>` string each, sorted.
 *
 * cdk-nag 3 is a policy-validation plugin rather than an aspect, and suppressions are CDK's own
 * `Validations.of(construct).acknowledge({ id, reason })`. A registered plugin only fails
 * `cdk synth` with a printed report; `validateScope` is the pack's entry point for tests and returns
 * the findings. The stack is synthesized first, so that aspects and lazy values have run as under
 * `cdk synth`.
 */
export function nagFindings(stack: Stack): string[] {
  Stage.of(stack)?.synth({ force: true });
  const report = new AwsSolutionsChecks().validateScope(stack);
  return report.violations.flatMap((violation) => violation.violatingResources.map((resource) => `${resource.constructPath}: ${violation.ruleName}: ${violation.description}`)).sort();
}

/** One `Validations.of(...).acknowledge()` under a scope. */
export interface NagAcknowledgment {
  /** The path of the construct the rule is acknowledged on (it covers that construct's children too). */
  readonly path: string;
  /** The rule id, e.g. `AwsSolutions-S1` or `AwsSolutions-IAM5[Resource::*]`. */
  readonly id: string;
  readonly reason: string;
}

/** Every rule acknowledged on `scope` or below it, in tree order, with its reason. */
export function nagAcknowledgments(scope: IConstruct): NagAcknowledgment[] {
  return scope.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY && entry.data)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          // aws-cdk-lib qualifies the id with the namespace of annotation rules.
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );
}
