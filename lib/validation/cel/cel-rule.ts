import { Environment, Optional, ParseResult } from '@marcbachmann/cel-js';
import { re2 } from '../re2';
import { registerKubernetesLibrary } from './kubernetes-cel-library';

/** One entry of a schema's `x-kubernetes-validations`. */
export interface CelValidationRule {
  /** The CEL expression, true when the value is valid. */
  readonly rule: string;
  /** The message when it is false. @default - the rule, quoted */
  readonly message?: string;
  /** A CEL expression that makes the message. @default - `message` */
  readonly messageExpression?: string;
  /** The reason the API server gives, e.g. `FieldValueInvalid`. @default - FieldValueInvalid */
  readonly reason?: string;
  /** The field the problem is reported at, relative to the schema's. @default - the schema's */
  readonly fieldPath?: string;
  /** Whether a transition rule runs also when there is no old value. @default false */
  readonly optionalOldSelf?: boolean;
}

/** A CRD rule calls a function (or names a variable) that hcp-cdk's CEL environment does not have. */
export class UnsupportedCelRuleError extends Error {
  constructor(
    /** The rule. */
    readonly rule: string,
    /** Where the rule is: the CRD, version and schema path. */
    readonly location: string,
    /** What the environment lacks. */
    readonly detail: string,
  ) {
    super(
      `${location}: CEL rule ${JSON.stringify(rule)} cannot be checked: ${detail}; hcp-cdk supports the CEL standard library and the Kubernetes libraries (regex, URLs, IP/CIDR, format, quantity, lists)`,
    );
    this.name = 'UnsupportedCelRuleError';
  }
}

/** What a rule made of the value: passed, or failed with its message (and the evaluation error, if any). */
export type RuleOutcome =
  | {
      /** The value passed the rule. */
      readonly passed: true;
    }
  | {
      /** The value failed the rule. */
      readonly passed: false;
      /** The rule's message. */
      readonly message: string;
      /** Why the rule could not be evaluated, when it could not. */
      readonly evaluationError?: string;
    };

let sharedEnvironment: Environment | undefined;

/** The CEL environment every rule runs in: `self` and `oldSelf` as dyn, optionals, Kubernetes libraries. */
function environment(): Environment {
  if (!sharedEnvironment) {
    sharedEnvironment = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: false }).registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
    registerKubernetesLibrary(sharedEnvironment);
    // The built-in matches() uses JavaScript regex semantics; Kubernetes uses RE2 (see re2.ts).
    sharedEnvironment.registerFunction('string.matchesRe2(string): bool', (s: string, pattern: string) => re2(pattern).test(s));
  }
  return sharedEnvironment;
}

/** A compiled `x-kubernetes-validations` entry, evaluated against the CEL form of a value. */
export class CompiledCelRule {
  /** Transition rules compare with the stored object; they only run when an earlier version is given. */
  readonly isTransitionRule: boolean;
  private readonly program: (context: object) => unknown;
  private readonly messageProgram?: (context: object) => unknown;

  /** Stable identity for coverage reports: `<crd>@<version> <schema path>#<index>`. */
  readonly id: string;

  constructor(
    /** The rule as the schema gives it. */
    readonly spec: CelValidationRule,
    /** Where the rule is: the CRD, version and schema path. */
    readonly location: string,
    index = 0,
  ) {
    this.id = `${location}#${index}`;
    this.program = compile(spec.rule, location);
    this.isTransitionRule = /\boldSelf\b/.test(spec.rule) || /\boldSelf\b/.test(spec.messageExpression ?? '');
    if (spec.messageExpression) this.messageProgram = compile(spec.messageExpression, location);
  }

  /**
   * Evaluates the rule with `self` bound to `value` (already converted to CEL values) and, for
   * transition rules, `oldSelf` to `oldValue`. Returns undefined when the rule does not apply.
   */
  evaluate(value: unknown, oldValue: unknown): RuleOutcome | undefined {
    let oldSelf = oldValue;
    if (this.isTransitionRule) {
      if (this.spec.optionalOldSelf) oldSelf = oldValue === undefined ? Optional.none() : Optional.of(oldValue);
      else if (oldValue === undefined) return undefined;
    }
    const context = { self: value, oldSelf };
    let result: unknown;
    try {
      result = this.program(context);
    } catch (error) {
      const detail = (error as Error).message.split('\n')[0];
      return { passed: false, message: `${this.message(context)} (rule evaluation error: ${detail})`, evaluationError: detail };
    }
    if (result === true) return { passed: true };
    if (result === false) return { passed: false, message: this.message(context) };
    return { passed: false, message: `rule ${JSON.stringify(this.spec.rule)} returned ${String(result)}, not a bool`, evaluationError: 'not a bool' };
  }

  private message(context: object): string {
    if (this.messageProgram) {
      try {
        const text = this.messageProgram(context);
        if (typeof text === 'string' && text.trim() !== '') return text;
      } catch {
        // The API server falls back to `message` when messageExpression fails.
      }
    }
    return this.spec.message ?? `failed rule: ${this.spec.rule}`;
  }
}

/**
 * Parses and type-checks one expression. The check runs on the very AST that is evaluated: cel-js
 * keeps the checked types on it, so evaluations skip the check (a second parse would redo it).
 */
function compile(expression: string, location: string): ParseResult {
  let program: ParseResult | undefined;
  let failure: string | undefined;
  try {
    program = environment().parse(renameMatches(expression));
    const check = program.check();
    if (!check.valid) failure = check.error?.message ?? 'type check failed';
  } catch (error) {
    failure = (error as Error).message; // a syntax error
  }
  if (!program || failure !== undefined) throw new UnsupportedCelRuleError(expression, location, failure!.split('\n')[0].replace('matchesRe2', 'matches'));
  return program;
}

/** Renames `.matches(` outside string literals so that the RE2 version runs. */
function renameMatches(expression: string): string {
  let out = '';
  for (let i = 0; i < expression.length; i++) {
    const c = expression[i];
    if (c === '"' || c === "'") {
      const triple = expression.startsWith(c.repeat(3), i);
      const quote = triple ? c.repeat(3) : c;
      let j = i + quote.length;
      while (j < expression.length && !expression.startsWith(quote, j)) j += expression[j] === '\\' ? 2 : 1;
      out += expression.slice(i, j + quote.length);
      i = j + quote.length - 1;
      continue;
    }
    if (expression.startsWith('.matches(', i)) {
      out += '.matchesRe2(';
      i += '.matches('.length - 1;
      continue;
    }
    out += c;
  }
  return out;
}
