/**
 * Generates the schema data the validator reads at run time (imports/schemas/), from the same
 * sources as the typed L1 classes: the CRD files listed under `validationSchemas` in cdk8s.yaml,
 * and the Kubernetes built-in types that cdk8s-plus-28 ships in lib/imports/k8s.d.ts.
 *
 * Run through `npm run import`; never edit imports/schemas/ by hand. Descriptions are dropped:
 * the validator needs the structure and the rules, not the prose.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';
import * as YAML from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const OUT = path.join(ROOT, 'imports', 'schemas');
const DROPPED_KEYS = new Set(['description', 'example', 'title', 'externalDocs']);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function main(): void {
  const config = YAML.parse(fs.readFileSync(path.join(ROOT, 'cdk8s.yaml'), 'utf8'));
  const sources: string[] = config.validationSchemas ?? [];
  fs.rmSync(OUT, { recursive: true, force: true });
  fs.mkdirSync(path.join(OUT, 'crd'), { recursive: true });

  const index: Record<string, string> = {};
  for (const source of sources) {
    const text = fs.readFileSync(path.resolve(ROOT, source), 'utf8');
    for (const doc of YAML.parseAllDocuments(text)) {
      const crd = doc.toJSON();
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      const file = `crd/${crd.metadata.name}.json`;
      const versions = crd.spec.versions
        .filter((v: any) => v.served !== false && v.schema?.openAPIV3Schema)
        // The subresources change what the API server checks: the scale subresource's replica
        // counts on every write, and status only through the status subresource.
        .map((v: any) => ({
          name: v.name,
          schema: strip(v.schema.openAPIV3Schema),
          ...(v.subresources?.scale ? { scale: v.subresources.scale } : {}),
          ...(v.subresources?.status ? { statusSubresource: true } : {}),
        }));
      for (const v of versions) index[`${crd.spec.group}/${v.name}/${crd.spec.names.kind}`] = file;
      write(file, {
        name: crd.metadata.name,
        source: path.relative(path.join(ROOT, '..', 'shared'), path.resolve(ROOT, source)),
        group: crd.spec.group,
        kind: crd.spec.names.kind,
        scope: crd.spec.scope,
        versions,
      });
    }
  }

  const kubernetes = kubernetesBuiltIns();
  for (const apiVersionKind of Object.keys(kubernetes.kinds)) index[apiVersionKind] = 'kubernetes.json';
  write('kubernetes.json', kubernetes);
  write('index.json', sortKeys(index));
  console.log(`imports/schemas: ${Object.keys(index).length} kinds from ${sources.length} CRD files and cdk8s-plus-28`);
}

/** Drops prose, keeps every structural and validation keyword. */
function strip(node: Json): Json {
  if (Array.isArray(node)) return node.map(strip);
  if (node === null || typeof node !== 'object') return node;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED_KEYS.has(key) && typeof value === 'string') continue;
    // `properties` maps field names to schemas: a field may itself be called `description`.
    out[key] = key === 'properties' || key === 'patternProperties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, strip(v)])) : strip(value);
  }
  return out;
}

/**
 * Built-in kinds from cdk8s-plus-28's generated k8s.d.ts: each interface carries `@schema <definition>`
 * and each property `@schema <definition>#<json name>`, which is enough for field names, types,
 * required fields and enums (Kubernetes validates built-ins in Go, not by OpenAPI, so that is all
 * its published schema holds too).
 */
function kubernetesBuiltIns(): { definitions: Record<string, Json>; kinds: Record<string, string> } {
  const dir = path.join(ROOT, 'node_modules', 'cdk8s-plus-28', 'lib', 'imports');
  const source = ts.createSourceFile('k8s.d.ts', fs.readFileSync(path.join(dir, 'k8s.d.ts'), 'utf8'), ts.ScriptTarget.ES2022, true);
  const gvkText = fs.readFileSync(path.join(dir, 'k8s.js'), 'utf8');

  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const enums = new Map<string, string[]>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
    if (ts.isEnumDeclaration(statement)) {
      enums.set(
        statement.name.text,
        statement.members.map((m) => (m.initializer as ts.StringLiteral).text),
      );
    }
  }
  const schemaTag = (node: ts.Node): string | undefined =>
    ts
      .getJSDocTags(node)
      .find((t) => t.tagName.text === 'schema')
      ?.comment?.toString();

  const definitions: Record<string, Json> = {};
  const definitionOf = (name: string): string => {
    const declaration = interfaces.get(name);
    if (!declaration) throw new Error(`k8s.d.ts: no interface ${name}`);
    const id = schemaTag(declaration) ?? name;
    if (!(id in definitions)) {
      definitions[id] = {};
      definitions[id] = objectSchema(declaration);
    }
    return id;
  };
  const typeSchema = (type: ts.TypeNode): Json => {
    if (ts.isArrayTypeNode(type)) return { type: 'array', items: typeSchema(type.elementType) };
    if (ts.isTypeLiteralNode(type)) {
      const index = type.members.find(ts.isIndexSignatureDeclaration);
      return { type: 'object', additionalProperties: index ? typeSchema(index.type) : true };
    }
    switch (type.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { type: 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case ts.SyntaxKind.AnyKeyword:
        return { 'x-kubernetes-preserve-unknown-fields': true };
    }
    const name = type.getText();
    if (name === 'Date') return { type: 'string', format: 'date-time' };
    if (name === 'IntOrString' || name === 'Quantity') return { 'x-kubernetes-int-or-string': true };
    if (enums.has(name)) return { type: 'string', enum: enums.get(name)! };
    return { $ref: definitionOf(name) };
  };
  const objectSchema = (declaration: ts.InterfaceDeclaration, extra: Record<string, Json> = {}): Json => {
    const properties: Record<string, Json> = { ...extra };
    const required: string[] = [];
    for (const member of declaration.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const jsonName = schemaTag(member)?.split('#')[1] ?? member.name.getText();
      properties[jsonName] = typeSchema(member.type);
      if (!member.questionToken) required.push(jsonName);
    }
    return required.length ? { type: 'object', properties, required } : { type: 'object', properties };
  };

  const kinds: Record<string, string> = {};
  const gvk = /(Kube\w+)\.GVK = \{\s*apiVersion: '([^']+)',\s*kind: '([^']+)',/g;
  for (const [, className, apiVersion, kind] of gvkText.matchAll(gvk)) {
    if (kind.endsWith('List')) continue;
    const props = interfaces.get(`${className}Props`);
    if (!props) continue;
    const id = schemaTag(props)!;
    definitions[id] = objectSchema(props, {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      // The server ignores status on create; cdk8s-plus leaves it out of the props.
      status: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
    });
    kinds[`${apiVersion}/${kind}`] = id;
  }
  return { definitions: sortKeys(definitions), kinds: sortKeys(kinds) };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function write(file: string, data: unknown): void {
  fs.writeFileSync(path.join(OUT, file), JSON.stringify(data, null, 1) + '\n');
}

main();
