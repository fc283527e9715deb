import * as fs from 'fs';
import * as path from 'path';
import { CORE_SCHEMA, loadAll } from 'js-yaml';
import { ObjectValidator, RuleObserver } from './object-validator';
import { SchemaCatalog, yamlFiles } from './schema-catalog';
import { ValidationProblem } from './validation-problem';

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
}

export interface ManifestValidationResult {
  readonly files: number;
  readonly objects: number;
  readonly problems: readonly ValidationProblem[];
}

/**
 * Validates every object in the YAML or JSON files under the given paths, as the API server
 * would on apply. A document that is not YAML is a problem of its file, not an exception.
 */
export function validateManifests(paths: readonly string[], options: ValidateManifestsOptions = {}): ManifestValidationResult {
  const catalog = SchemaCatalog.bundled();
  for (const crds of options.crds ?? []) catalog.addCustomResourceDefinitionFiles(crds);
  const validator = new ObjectValidator({ catalog, ruleObserver: options.ruleObserver });
  const problems: ValidationProblem[] = [];
  let files = 0;
  let objects = 0;
  for (const root of paths) {
    for (const file of yamlFiles(root)) {
      files++;
      const relative = path.relative(fs.statSync(root).isDirectory() ? root : path.dirname(root), file);
      const previous = options.previous ? readObjects(path.join(options.previous, relative)) : [];
      for (const object of parseDocuments(file, problems)) {
        // kustomization.yaml files configure kustomize; they are not objects of a cluster.
        if (object === null || object === undefined || isKustomization(object)) continue;
        objects++;
        problems.push(...validator.validate(object, { source: file, previous: findSame(previous, object) }));
      }
    }
  }
  return { files, objects, problems };
}

function parseDocuments(file: string, problems: ValidationProblem[]): unknown[] {
  const text = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.json')) {
    try {
      const parsed = JSON.parse(text);
      return parsed?.kind?.endsWith?.('List') && Array.isArray(parsed.items) ? parsed.items : [parsed];
    } catch (error) {
      problems.push({ object: {}, path: '', message: `not valid JSON: ${(error as Error).message}`, source: file });
      return [];
    }
  }
  try {
    // js-yaml parses several times faster than the yaml package, which matters for a repository of
    // thousands of objects. The core schema keeps timestamps as strings, as the API server reads them.
    return loadAll(text, undefined, { schema: CORE_SCHEMA, filename: file });
  } catch (error) {
    problems.push({ object: {}, path: '', message: `not valid YAML: ${(error as Error).message.split('\n')[0]}`, source: file });
    return [];
  }
}

function readObjects(file: string): any[] {
  if (!fs.existsSync(file)) return [];
  return parseDocuments(file, []);
}

/** The stored object with the same apiVersion group, kind, namespace and name. */
function findSame(candidates: readonly any[], object: any): unknown {
  return candidates.find(c => c?.kind === object?.kind
    && c?.metadata?.name === object?.metadata?.name
    && c?.metadata?.namespace === object?.metadata?.namespace);
}

function isKustomization(object: any): boolean {
  return typeof object?.apiVersion === 'string' && object.apiVersion.startsWith('kustomize.config.k8s.io/');
}
