import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { manifestDocumentsOrThrow, readManifestFile } from './manifest-files';
import { packageRoot } from '../core/package-root';
import { ROLLOUT_RECORD_CRD } from '../release/rollout-record';
import { overBudgetRules } from './cel/cel-cost';
import { UPDATE_GRAPH_RECORD_CRD } from '../release/update-graph';
import { CelValidationRule, CompiledCelRule } from './cel/cel-rule';

/** The OpenAPI v3 subset a CRD's structural schema uses, with the Kubernetes extensions. */
export interface OpenApiSchema {
  /** The value's type. */
  readonly 'type'?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  /** The schemas of an object's fields. */
  readonly 'properties'?: Readonly<Record<string, OpenApiSchema>>;
  /** The fields an object must have. */
  readonly 'required'?: readonly string[];
  /** The schema of a map's values, or whether fields beyond `properties` are allowed. */
  readonly 'additionalProperties'?: OpenApiSchema | boolean;
  /** The schema of an array's items. */
  readonly 'items'?: OpenApiSchema;
  /** The values allowed. */
  readonly 'enum'?: readonly unknown[];
  /** The value the API server sets when the field is missing. */
  readonly 'default'?: unknown;
  /** A regular expression (RE2) a string must match. */
  readonly 'pattern'?: string;
  /** A string format: `date-time`, `int32`, `byte`, ... */
  readonly 'format'?: string;
  /** The smallest number allowed. */
  readonly 'minimum'?: number;
  /** The largest number allowed. */
  readonly 'maximum'?: number;
  /** Whether `minimum` itself is excluded. */
  readonly 'exclusiveMinimum'?: boolean;
  /** Whether `maximum` itself is excluded. */
  readonly 'exclusiveMaximum'?: boolean;
  /** A number the value must be a multiple of. */
  readonly 'multipleOf'?: number;
  /** The shortest string allowed. */
  readonly 'minLength'?: number;
  /** The longest string allowed. */
  readonly 'maxLength'?: number;
  /** The fewest items allowed. */
  readonly 'minItems'?: number;
  /** The most items allowed. */
  readonly 'maxItems'?: number;
  /** The fewest fields allowed. */
  readonly 'minProperties'?: number;
  /** The most fields allowed. */
  readonly 'maxProperties'?: number;
  /** Whether null is allowed. */
  readonly 'nullable'?: boolean;
  /** Schemas the value must all match. */
  readonly 'allOf'?: readonly OpenApiSchema[];
  /** Schemas the value must match one or more of. */
  readonly 'anyOf'?: readonly OpenApiSchema[];
  /** Schemas the value must match exactly one of. */
  readonly 'oneOf'?: readonly OpenApiSchema[];
  /** A schema the value must not match. */
  readonly 'not'?: OpenApiSchema;
  /** Only in the built-in Kubernetes schemas: a definition name in the same file. */
  readonly '$ref'?: string;
  /** Whether the value is an integer or a string. */
  readonly 'x-kubernetes-int-or-string'?: boolean;
  /** Whether fields the schema does not name are kept. */
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  /** Whether the value is a Kubernetes object of its own (apiVersion, kind, metadata). */
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  /** How an array merges: `atomic`, `set` (unique items) or `map` (unique keys). */
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  /** The keys of a `map` list. */
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  /** The CEL rules the value must pass. */
  readonly 'x-kubernetes-validations'?: readonly CelValidationRule[];
}

/** A CRD version's scale subresource: where its replica counts (and label selector) are. */
export interface ScaleSubresource {
  /** `.spec.replicas` */
  readonly specReplicasPath: string;
  /** `.status.replicas` */
  readonly statusReplicasPath: string;
  /** `.status.selector` @default - none */
  readonly labelSelectorPath?: string;
}

/** The schema serving one apiVersion/kind, and where it came from. */
export interface KindSchema {
  /** `hostedclusters.hypershift.openshift.io@v1beta1`, or `kubernetes:v1/Secret` for built-ins. */
  readonly id: string;
  /** The file the schema came from. */
  readonly source: string;
  /** Whether objects of the kind are namespaced. */
  readonly namespaced: boolean;
  /** Whether it is a Kubernetes built-in kind. */
  readonly builtIn: boolean;
  /** The object's schema. */
  readonly schema: OpenApiSchema;
  /** The definitions `$ref` names, for built-in kinds. */
  readonly definitions: Readonly<Record<string, OpenApiSchema>>;
  /** The scale subresource, whose replica counts the API server checks. @default - none */
  readonly scale?: ScaleSubresource;
  /** Whether status has a subresource of its own, written by updates (the main resource drops it). @default false */
  readonly statusSubresource?: boolean;
}

/**
 * A CustomResourceDefinition object, as `oc get crd -o yaml` writes it and a YAML parser reads it;
 * the fields the catalog reads are named, the rest is passed over.
 */
export interface CustomResourceDefinitionObject {
  /** `apiextensions.k8s.io/v1` */
  readonly apiVersion: string;
  /** `CustomResourceDefinition` */
  readonly kind: 'CustomResourceDefinition';
  /** The CRD's metadata. */
  readonly metadata: {
    /** The CRD's name, `<plural>.<group>`. */
    readonly name: string;
  };
  /** What the CRD serves. */
  readonly spec: {
    /** The API group of its kind: `widgets.example.com`. */
    readonly group: string;
    /** How its kind is spelled. */
    readonly names: {
      /** In objects: `Widget`. */
      readonly kind: string;
      /** In URLs and RBAC rules: `widgets`. */
      readonly plural: string;
    };
    /** `Namespaced` or `Cluster`. */
    readonly scope: string;
    /** Its versions, each with its name, `served` and `schema.openAPIV3Schema`. */
    readonly versions: readonly unknown[];
  };
}

interface CrdFile {
  readonly name: string;
  readonly source: string;
  readonly group: string;
  readonly kind: string;
  readonly scope: string;
  readonly versions: { readonly name: string; readonly schema: OpenApiSchema; readonly scale?: ScaleSubresource; readonly statusSubresource?: boolean }[];
}

const BUNDLED_DIR = path.join(packageRoot(), 'imports', 'schemas');
// Shared by every catalog in the process: bundled files are read, and rules compiled, once.
const bundledFiles = new Map<string, unknown>();
const compiledRules = new WeakMap<OpenApiSchema, CompiledCelRule[]>();
let bundledIndex: Readonly<Record<string, string>> | undefined;
let bundledFingerprint: string | undefined;
// Kinds that live outside a namespace among the built-ins (everything else is namespaced).
const CLUSTER_SCOPED_BUILT_INS =
  /^(Namespace|Node|PersistentVolume|ClusterRole|ClusterRoleBinding|StorageClass|CustomResourceDefinition|APIService|PriorityClass|.*WebhookConfiguration|CSIDriver|CSINode|VolumeAttachment|RuntimeClass|IngressClass|CertificateSigningRequest|ValidatingAdmissionPolicy.*|FlowSchema|PriorityLevelConfiguration|ComponentStatus)$/;

/**
 * Built-in kinds whose GA version the bundled Kubernetes 1.28 schemas lack, by the version they were
 * promoted from with the same fields: ValidatingAdmissionPolicy and its binding, GA in 1.30.
 */
const PROMOTED_BUILT_INS: Readonly<Record<string, string>> = {
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy': 'admissionregistration.k8s.io/v1beta1/ValidatingAdmissionPolicy',
  'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicyBinding': 'admissionregistration.k8s.io/v1beta1/ValidatingAdmissionPolicyBinding',
};

/**
 * Where the validator finds the schema for an apiVersion/kind: the schemas bundled in imports/schemas
 * (generated by `npm run import`), optionally overridden by CRDs the user supplies, e.g. the ones
 * installed on their management cluster (`oc get crd -o yaml`).
 */
export class SchemaCatalog {
  /**
   * The CRDs in cdk8s.yaml's validationSchemas and the Kubernetes built-in kinds, and hcp-cdk's own
   * record of a release rollout (`rollouts/` of an output), which no cluster applies but which
   * `hcp-cdk validate` reads with the rest.
   */
  static bundled(): SchemaCatalog {
    bundledIndex ??= JSON.parse(fs.readFileSync(path.join(BUNDLED_DIR, 'index.json'), 'utf8')) as Record<string, string>;
    return new SchemaCatalog(bundledIndex).addCustomResourceDefinitions([ROLLOUT_RECORD_CRD, UPDATE_GRAPH_RECORD_CRD], 'hcp-cdk');
  }

  private readonly kinds = new Map<string, KindSchema>();
  /** The CRDs added over the bundled schemas, in order, for the fingerprint. */
  private readonly added: unknown[] = [];

  private constructor(private readonly bundledIndex: Readonly<Record<string, string>>) {}

  /**
   * The digest of every schema the catalog serves: the bundled files and the CRDs added over them.
   * Two catalogs with the same fingerprint check every object alike.
   */
  fingerprint(): string {
    bundledFingerprint ??= bundledSchemasDigest();
    const hash = createHash('sha1').update(bundledFingerprint);
    for (const crd of this.added) hash.update('\0').update(JSON.stringify(crd));
    return hash.digest('hex');
  }

  /** Adds (or replaces) the kinds served by CustomResourceDefinition objects. */
  addCustomResourceDefinitions(crds: readonly any[], source: string): this {
    for (const crd of crds) {
      if (crd?.kind !== 'CustomResourceDefinition' || !crd.spec?.versions) continue;
      // The API server refuses a CRD whose rules are over its cost budget: its rules never run, and neither do they here.
      crd.spec.versions.forEach((version: any, index: number) => {
        const over = version?.schema?.openAPIV3Schema ? overBudgetRules(version.schema.openAPIV3Schema) : [];
        if (over.length > 0) {
          throw new Error(`CustomResourceDefinition ${crd.metadata?.name}: spec.versions[${index}].schema.${over[0].path}: Forbidden: ${over[0].message}; the API server refuses this CRD`);
        }
      });
      this.added.push(crd);
      for (const version of crd.spec.versions) {
        if (version.served === false || !version.schema?.openAPIV3Schema) continue;
        const apiVersionKind = `${crd.spec.group}/${version.name}/${crd.spec.names.kind}`;
        this.kinds.set(apiVersionKind, {
          id: `${crd.metadata.name}@${version.name}`,
          source,
          namespaced: crd.spec.scope !== 'Cluster',
          builtIn: false,
          schema: version.schema.openAPIV3Schema,
          definitions: {},
          ...(version.subresources?.scale ? { scale: version.subresources.scale } : {}),
          ...(version.subresources?.status ? { statusSubresource: true } : {}),
        });
      }
    }
    return this;
  }

  /** How many CRDs were added over the bundled schemas (hcp-cdk's own record included). */
  get addedDefinitions(): number {
    return this.added.length;
  }

  /** Reads every CRD in the YAML files of `dirOrFile` (recursively) into the catalog. */
  addCustomResourceDefinitionFiles(dirOrFile: string): this {
    for (const file of yamlFiles(dirOrFile)) {
      // The one bounded reader: a file it refuses (a device, an alias bomb, a duplicate key) throws in one line.
      const docs = manifestDocumentsOrThrow(readManifestFile(file), (message) => new Error(message)) as any[];
      this.addCustomResourceDefinitions(
        docs.flatMap((d) => (d?.kind === 'CustomResourceDefinitionList' ? d.items : [d])),
        file,
      );
    }
    return this;
  }

  /** The schema serving an apiVersion and kind, if any. */
  lookup(apiVersion: string, kind: string): KindSchema | undefined {
    const key = `${apiVersion}/${kind}`;
    let found = this.kinds.get(key);
    if (!found && this.bundledIndex[key]) {
      found = this.loadBundled(key, this.bundledIndex[key]);
      this.kinds.set(key, found);
    }
    const promotedFrom = PROMOTED_BUILT_INS[key];
    if (!found && promotedFrom && this.bundledIndex[promotedFrom]) {
      const earlier = this.loadBundled(promotedFrom, this.bundledIndex[promotedFrom]);
      found = { ...earlier, id: `kubernetes:${key}`, source: `${earlier.source}, the fields of ${promotedFrom.split('/').slice(0, -1).join('/')}` };
      this.kinds.set(key, found);
    }
    return found;
  }

  /** The compiled CEL rules of one schema node; throws UnsupportedCelRuleError on an unsupported rule. */
  rulesOf(node: OpenApiSchema, kind: KindSchema, schemaPath: string): CompiledCelRule[] {
    let rules = compiledRules.get(node);
    if (!rules) {
      rules = (node['x-kubernetes-validations'] ?? []).map((r, i) => new CompiledCelRule(r, `${kind.id} ${schemaPath || '<root>'}`, i));
      compiledRules.set(node, rules);
    }
    return rules;
  }

  /**
   * Compiles every rule in a kind's schema, so an unsupported one fails now, naming its function,
   * rather than when an object first reaches it. Returns them in schema order.
   */
  allRules(kind: KindSchema): CompiledCelRule[] {
    const found: CompiledCelRule[] = [];
    const expanded = new Set<string>();
    const visit = (node: OpenApiSchema | undefined, schemaPath: string, depth: number): void => {
      if (!node || depth > 64) return;
      // Built-in definitions refer to each other (and to themselves): expand each once.
      if (node.$ref && expanded.has(node.$ref)) return;
      if (node.$ref) expanded.add(node.$ref);
      const resolved = node.$ref ? kind.definitions[node.$ref] : node;
      if (!resolved) return;
      found.push(...this.rulesOf(resolved, kind, schemaPath));
      for (const [field, child] of Object.entries(resolved.properties ?? {})) visit(child, `${schemaPath}.${field}`, depth + 1);
      visit(resolved.items, `${schemaPath}[]`, depth + 1);
      if (typeof resolved.additionalProperties === 'object') visit(resolved.additionalProperties, `${schemaPath}{}`, depth + 1);
    };
    visit(kind.schema, '', 0);
    return found;
  }

  /** The built-in Kubernetes definitions, for `metadata` (ObjectMeta) of every object. */
  builtInDefinitions(): Readonly<Record<string, OpenApiSchema>> {
    return this.lookup('v1', 'ConfigMap')!.definitions;
  }

  /**
   * The resource name (plural) that serves `apiVersion`/`kind`, as RBAC rules name it, for the
   * kinds that come from a CRD: the CRD's name is `<plural>.<group>`, and so is each bundled CRD
   * file's. Undefined for built-in kinds and kinds the catalog does not know.
   */
  resourceOf(apiVersion: string, kind: string): string | undefined {
    const key = `${apiVersion}/${kind}`;
    const loaded = this.kinds.get(key);
    // A built-in kind, once looked up, is loaded too: its id names no CRD.
    if (loaded?.builtIn) return undefined;
    const crdName = loaded?.id.split('@')[0] ?? /^crd\/(.+)\.json$/.exec(this.bundledIndex[key] ?? '')?.[1];
    return crdName?.slice(0, crdName.indexOf('.'));
  }

  /** Every apiVersion/kind the catalog can serve. */
  knownKinds(): string[] {
    return [...new Set([...Object.keys(this.bundledIndex), ...Object.keys(PROMOTED_BUILT_INS), ...this.kinds.keys()])].sort();
  }

  private loadBundled(key: string, file: string): KindSchema {
    let data = bundledFiles.get(file) as any;
    if (!data) {
      data = JSON.parse(fs.readFileSync(path.join(BUNDLED_DIR, file), 'utf8'));
      bundledFiles.set(file, data);
    }
    if (file === 'kubernetes.json') {
      const kind = key.slice(key.lastIndexOf('/') + 1);
      return {
        id: `kubernetes:${key}`,
        source: 'cdk8s-plus-28 (Kubernetes 1.28)',
        namespaced: !CLUSTER_SCOPED_BUILT_INS.test(kind),
        builtIn: true,
        schema: data.definitions[data.kinds[key]],
        definitions: data.definitions,
      };
    }
    const crd = data as CrdFile;
    const versionName = key.split('/').slice(-2)[0];
    const version = crd.versions.find((v) => v.name === versionName)!;
    return {
      id: `${crd.name}@${version.name}`,
      source: crd.source,
      namespaced: crd.scope !== 'Cluster',
      builtIn: false,
      schema: version.schema,
      definitions: {},
      ...(version.scale ? { scale: version.scale } : {}),
      ...(version.statusSubresource ? { statusSubresource: true } : {}),
    };
  }
}

/** The .yaml/.yml/.json files under `dirOrFile`, sorted, so output order never depends on the disk. */
export function yamlFiles(dirOrFile: string): string[] {
  const stat = fs.statSync(dirOrFile);
  if (!stat.isDirectory()) return [dirOrFile];
  return fs
    .readdirSync(dirOrFile)
    .sort()
    .flatMap((name) => {
      const full = path.join(dirOrFile, name);
      if (fs.statSync(full).isDirectory()) return yamlFiles(full);
      return /\.(ya?ml|json)$/.test(name) ? [full] : [];
    });
}

/** The digest of the bundled schema files, names and bytes, in a fixed order. */
function bundledSchemasDigest(): string {
  const hash = createHash('sha1');
  const files = [
    'index.json',
    'kubernetes.json',
    ...fs
      .readdirSync(path.join(BUNDLED_DIR, 'crd'))
      .sort()
      .map((name) => `crd/${name}`),
  ];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(fs.readFileSync(path.join(BUNDLED_DIR, file)))
      .update('\0');
  return hash.digest('hex');
}
