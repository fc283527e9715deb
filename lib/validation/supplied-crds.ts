import * as fs from 'fs';
import { HcpValidationError, show } from '../core/problems';
import { CustomResourceDefinitionObject, SchemaCatalog } from './schema-catalog';

/** A CRD for HcpApp's `crds` (and the commands' `--crds`): a YAML or JSON file, a directory of them, or the object itself. */
export type CrdSource = string | CustomResourceDefinitionObject;

const FILE_FORM = 'a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)';

/**
 * The bundled schemas with `crds` over them, for the kinds they serve. Throws, naming every entry
 * that is not a CRD (a path that does not exist, a file without one, an object that is none), so
 * that a typo in a path never turns into a check that silently checks less.
 * @param field how a problem names the i-th entry @default `HcpApp: crds[i]`
 */
export function catalogWithCrds(crds: readonly CrdSource[], field: (i: number) => string = (i) => `HcpApp: crds[${i}]`): SchemaCatalog {
  const catalog = SchemaCatalog.bundled();
  const problems: string[] = [];
  if (!Array.isArray(crds)) throw new HcpValidationError([`HcpApp: crds (${show(crds)}) must be a list of CRD files, directories or objects`]);
  crds.forEach((crd, index) => {
    const at = field(index);
    if (typeof crd === 'string') {
      if (!fs.existsSync(crd)) {
        problems.push(`${at} (${show(crd)}) does not exist; give ${FILE_FORM}`);
        return;
      }
      const before = catalog.addedDefinitions;
      try {
        catalog.addCustomResourceDefinitionFiles(crd);
      } catch (error) {
        problems.push(`${at} (${show(crd)}) cannot be read: ${(error as Error).message.split('\n')[0]}`);
        return;
      }
      if (catalog.addedDefinitions === before) problems.push(`${at} (${show(crd)}) holds no CustomResourceDefinition; give ${FILE_FORM}`);
      return;
    }
    const problem = crdObjectProblem(crd);
    if (problem) problems.push(`${at} ${problem}`);
    else {
      try {
        catalog.addCustomResourceDefinitions([crd], `${at.replace(/: /g, ' ')} (${crd.metadata.name})`);
      } catch (error) {
        problems.push(`${at} ${(error as Error).message}`);
      }
    }
  });
  if (problems.length > 0) throw new HcpValidationError(problems);
  return catalog;
}

/** What keeps `crd` from being a CRD the catalog can serve kinds from, or undefined. */
function crdObjectProblem(crd: unknown): string | undefined {
  const c = crd as Partial<CustomResourceDefinitionObject> | undefined;
  if (typeof c !== 'object' || c === null || c.kind !== 'CustomResourceDefinition') {
    return `(${show(typeof c === 'object' && c !== null ? { apiVersion: c.apiVersion, kind: c.kind } : c)}) must be a file path or a CustomResourceDefinition object`;
  }
  const spec = c.spec as Partial<CustomResourceDefinitionObject['spec']> | undefined;
  const name = c.metadata?.name;
  if (typeof name !== 'string' || typeof spec?.group !== 'string' || typeof spec.names?.kind !== 'string' || !Array.isArray(spec.versions)) {
    return `(CustomResourceDefinition ${show(name)}) must have metadata.name, spec.group, spec.names.kind and spec.versions`;
  }
  const served = spec.versions.filter((v: any) => v?.served !== false && typeof v?.schema?.openAPIV3Schema === 'object');
  if (served.length === 0) return `(CustomResourceDefinition ${show(name)}) serves no version with a schema (spec.versions[].schema.openAPIV3Schema)`;
  return undefined;
}
