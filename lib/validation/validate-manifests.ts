import * as fs from 'fs';
import * as path from 'path';
import { manifestFiles, readManifestFile } from './manifest-files';
import { LintedObject, lintManifests, ManifestLintFinding } from './manifest-lint';
import { ObjectValidator, RuleObserver } from './object-validator';
import { catalogWithCrds } from './supplied-crds';
import type { AllowUnvalidatedKindOptions } from './unvalidated-kind';
import { ValidationProblem } from './validation-problem';

export { MAX_EXPANDED_VALUES } from './manifest-files';

/** Options of `validateManifests`. */
export interface ValidateManifestsOptions {
  /**
   * Directories or files of CustomResourceDefinitions (e.g. `oc get crd -o yaml` from the
   * management cluster) that replace the bundled schemas for the kinds they serve.
   * @default - only the bundled schemas (the Default feature set CRDs in ../shared/crds)
   */
  readonly crds?: readonly string[];
  /**
   * A directory holding the objects as they are stored now (for example the last committed
   * output), laid out like the one being checked. Transition rules compare against it.
   * @default - transition rules are not checked
   */
  readonly previous?: string;
  /** @default - none */
  readonly ruleObserver?: RuleObserver;
  /**
   * Also lint the objects the API server would accept: what HyperShift, its controllers and MetalLB
   * refuse or cannot use although the CRDs allow it (MANIFEST_LINT_RULES), into `findings`.
   * @default false
   */
  readonly lint?: boolean;
  /**
   * Kinds whose objects pass unchecked when no CRD serves them (`hcp-cdk validate
   * --allow-unvalidated-kind`), each with the reason; reported in `waivers`.
   * @default - none: an object without a schema is a problem
   */
  readonly unvalidatedKinds?: readonly AllowUnvalidatedKindOptions[];
}

/** One kind of `unvalidatedKinds`, and what it did. */
export interface UnvalidatedKindUse extends AllowUnvalidatedKindOptions {
  /** How many objects (carried ones included) passed unchecked under it. */
  readonly objects: number;
  /** Where the schema of the kind comes from, when it has one: then its objects were checked and the waiver did nothing. @default - it has none */
  readonly schema?: string;
}

/** What `validateManifests` found. */
export interface ManifestValidationResult {
  /** Files read. */
  readonly files: number;
  /** Objects checked. */
  readonly objects: number;
  /** Every reason the API server would reject an object. */
  readonly problems: readonly ValidationProblem[];
  /** Files and directories that hold no object: worth a look, not an error. */
  readonly warnings: readonly string[];
  /** With `lint`, the lint findings on objects without problems (`hcp-cdk validate` prints them as warnings, or as problems with --strict). */
  readonly findings: readonly ManifestLintFinding[];
  /** What each of `unvalidatedKinds` did. */
  readonly waivers: readonly UnvalidatedKindUse[];
}

/**
 * Validates every object in the YAML or JSON files under the given paths, as the API server
 * would on apply. A document that is not YAML is a problem of its file, not an exception.
 */
export function validateManifests(paths: readonly string[], options: ValidateManifestsOptions = {}): ManifestValidationResult {
  const catalog = catalogWithCrds(options.crds ?? [], () => '--crds');
  const validator = new ObjectValidator({ catalog, ruleObserver: options.ruleObserver, missingSchemaAdvice: commandMissingSchemaAdvice });
  const waived = (options.unvalidatedKinds ?? []).map((w) => ({ ...w, key: `${w.apiVersion}/${w.kind}`, schema: catalog.lookup(w.apiVersion, w.kind)?.source }));
  const unvalidatedKinds = new Set(waived.filter((w) => w.schema === undefined).map((w) => w.key));
  const uses = new Map<string, number>();
  const onUnvalidated = (key: string): void => {
    uses.set(key, (uses.get(key) ?? 0) + 1);
  };
  const problems: ValidationProblem[] = [];
  const warnings: string[] = [];
  let files = 0;
  let objects = 0;
  // What the lint reads: the objects the API server would accept, with their files.
  const accepted: LintedObject[] = [];
  for (const root of paths) {
    const found = manifestFiles(root);
    if (found.length === 0) warnings.push(`${root}: no YAML or JSON files`);
    for (const file of found) {
      files++;
      const relative = path.relative(fs.statSync(root).isDirectory() ? root : path.dirname(root), file);
      const previous = options.previous ? readObjects(path.join(options.previous, relative)) : [];
      let inFile = 0;
      for (const object of parseDocuments(file, problems)) {
        // kustomization.yaml files configure kustomize; they are not objects of a cluster.
        if (object === null || object === undefined || isKustomization(object)) continue;
        objects++;
        inFile++;
        const found = validator.validate(object, { source: file, previous: findSame(previous, object), unvalidatedKinds, onUnvalidated });
        problems.push(...found);
        if (options.lint && found.length === 0) accepted.push({ object, source: file });
      }
      if (inFile === 0 && !isKustomizationFile(file)) warnings.push(`${file}: no objects`);
    }
  }
  const waivers = waived.map(({ key, schema, ...w }) => ({ ...w, objects: uses.get(key) ?? 0, ...(schema === undefined ? {} : { schema }) }));
  return { files, objects, problems, warnings, findings: options.lint ? lintManifests(accepted) : [], waivers };
}

/** The advice of an object without a schema, for `hcp-cdk validate`. */
function commandMissingSchemaAdvice(apiVersion: string, kind: string): string {
  return `give its CRD with --crds <file-or-directory>, or waive the check of this kind with --allow-unvalidated-kind ${apiVersion}/${kind}=<why it may go unchecked>`;
}

function parseDocuments(file: string, problems: ValidationProblem[]): unknown[] {
  const read = readManifestFile(file);
  problems.push(...read.problems);
  const objects: unknown[] = [];
  read.documents.forEach((document) => {
    // A `kind: List` (as `oc get -o yaml` writes) holds its objects in items: each is checked on its own.
    const list = document as { kind?: unknown; items?: unknown };
    if (typeof list?.kind === 'string' && list.kind.endsWith('List') && Array.isArray(list.items)) objects.push(...list.items);
    else objects.push(document);
  });
  return objects;
}

function readObjects(file: string): any[] {
  if (!fs.existsSync(file)) return [];
  return parseDocuments(file, []);
}

/** The stored object with the same apiVersion group, kind, namespace and name. */
function findSame(candidates: readonly any[], object: any): unknown {
  return candidates.find((c) => c?.kind === object?.kind && c?.metadata?.name === object?.metadata?.name && c?.metadata?.namespace === object?.metadata?.namespace);
}

function isKustomizationFile(file: string): boolean {
  return path.basename(file) === 'kustomization.yaml';
}

function isKustomization(object: any): boolean {
  return typeof object?.apiVersion === 'string' && object.apiVersion.startsWith('kustomize.config.k8s.io/');
}
