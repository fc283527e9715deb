import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, App, AppProps } from 'cdk8s';
import { IConstruct } from 'constructs';
import { CORE_SCHEMA, dump, load } from 'js-yaml';
import { withConstructWalk } from './construct-walk';
import { HostedCluster } from './hosted-cluster';
import { ManagementCluster } from './management-cluster';
import { renderApiObject } from './render-object';
import { HcpValidationError } from './problems';
import { ObjectValidator } from '../validation/object-validator';
import { SchemaCatalog } from '../validation/schema-catalog';
import { formatProblem } from '../validation/validation-problem';
import { kustomizations } from '../gitops/kustomization';

/**
 * Apply order by kind: what others depend on comes first. File names carry the rank, and so does
 * the Argo CD sync wave. Operators (MCE, Subscriptions) come before the custom resources they
 * serve; Secrets and RBAC before the HostedCluster; the HostedCluster before its NodePools;
 * NMStateConfigs before the InfraEnv that selects them; the InfraEnv before its BareMetalHosts.
 */
export const KIND_RANK: Readonly<Record<string, number>> = {
  Namespace: 0, CustomResourceDefinition: 0,
  OperatorGroup: 2, Subscription: 3,
  MultiClusterEngine: 5, Provisioning: 5, AgentServiceConfig: 6,
  ServiceAccount: 10, Role: 10, ClusterRole: 10, RoleBinding: 11, ClusterRoleBinding: 11,
  Secret: 20, ExternalSecret: 20, SealedSecret: 20, ConfigMap: 20,
  MetalLB: 30, IPAddressPool: 31, BGPPeer: 31, L2Advertisement: 32, BGPAdvertisement: 32,
  HostedCluster: 50, NodePool: 60,
  NMStateConfig: 65, InfraEnv: 70, BareMetalHost: 80,
};
const DEFAULT_RANK = 40;
/** The annotation Argo CD orders a sync by, lowest wave first. */
export const SYNC_WAVE_ANNOTATION = 'argocd.argoproj.io/sync-wave';

/** One synthesized file: its path under the output directory and its text. */
export interface SynthesizedFile {
  readonly path: string;
  readonly text: string;
}

export interface HcpAppProps extends AppProps {
  /**
   * Check every object against the schema and CEL rules of its CRD (or built-in kind) before
   * anything is written, as the API server would on apply.
   * @default true
   */
  readonly validateObjects?: boolean;
  /**
   * CRD files or directories that replace the bundled schemas for the kinds they serve, e.g. the
   * CRDs installed on the management cluster (`oc get crd -o yaml`).
   * @default - the bundled CRDs (Default feature set, see cdk8s.yaml's validationSchemas)
   */
  readonly crds?: readonly string[];
  /**
   * On `synth()`, check transition rules (immutable fields and other `oldSelf` rules) against the
   * objects already in the output directory, i.e. the previous synth, which in a GitOps repository
   * is what the cluster runs. `synthesize()` alone reads nothing from disk unless asked.
   * @default true
   */
  readonly compareWithPreviousOutput?: boolean;
  /**
   * Annotate every object with its apply rank as `argocd.argoproj.io/sync-wave`, so that an Argo CD
   * Application applies namespaces, operators, Secrets, HostedCluster, NodePools, InfraEnv and
   * BareMetalHosts in that order. An annotation set on the object itself wins.
   * @default true
   */
  readonly syncWaves?: boolean;
  /**
   * Write a `kustomization.yaml` in every folder below the output root, listing its files and
   * sub-folders, so that `oc apply -k dist/hub` or a GitOps tool can take any folder as it is.
   * @default true
   */
  readonly kustomizations?: boolean;
}

/**
 * A cdk8s App whose synth is all-or-nothing: every construct is validated and
 * every object rendered in memory first; files are written only when nothing failed,
 * into a fresh directory that replaces the old output in one rename.
 *
 * Layout: `<outdir>/<chart>/<rank>-<kind>-<name>.yaml`, with each HostedCluster's
 * objects (and its NodePools') in `<outdir>/<chart>/<cluster name>/`.
 */
export class HcpApp extends App {
  private readonly validator?: ObjectValidator;
  private readonly compareWithPreviousOutput: boolean;
  private readonly syncWaves: boolean;
  private readonly kustomizations: boolean;

  constructor(props: HcpAppProps = {}) {
    super(props);
    if (props.validateObjects ?? true) {
      const catalog = SchemaCatalog.bundled();
      for (const crds of props.crds ?? []) catalog.addCustomResourceDefinitionFiles(crds);
      this.validator = new ObjectValidator({ catalog });
    }
    this.compareWithPreviousOutput = props.compareWithPreviousOutput ?? true;
    this.syncWaves = props.syncWaves ?? true;
    this.kustomizations = props.kustomizations ?? true;
  }

  /**
   * Validates and renders every chart in memory; throws HcpValidationError listing all problems.
   * With `compareWithPreviousOutput`, transition rules are checked against the files in outdir.
   * @param options.compareWithPreviousOutput @default false (synth() passes the app's setting)
   */
  public synthesize(options: { readonly compareWithPreviousOutput?: boolean } = {}): SynthesizedFile[] {
    const comparing = options.compareWithPreviousOutput ?? false;
    const constructs = this.node.findAll();
    const problems: string[] = [];
    withConstructWalk(this, constructs, () => {
      for (const construct of constructs) {
        // App-wide checks (on the root, whose path is empty) name the constructs they are about themselves.
        for (const message of construct.node.validate()) problems.push(construct.node.path ? `${construct.node.path}: ${message}` : message);
      }
    });
    if (problems.length > 0) throw new HcpValidationError(problems);

    const files: SynthesizedFile[] = [];
    // One object at a time, so that each one's JSON is garbage before the next is rendered.
    for (const { file, json, source, previous } of this.render(constructs, problems, comparing)) {
      for (const problem of this.validator?.validate(json, { source, previous }) ?? []) problems.push(formatProblem(problem));
      files.push({ path: file, text: toYaml(json) });
    }
    if (problems.length > 0) throw new HcpValidationError(problems);
    if (this.kustomizations) files.push(...kustomizations(files.map((f) => f.path)));
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Writes the output, or nothing at all when any construct or object is invalid. */
  public override synth(): void {
    this.writeFiles(this.synthesize({ compareWithPreviousOutput: this.compareWithPreviousOutput }));
    for (const report of this.capacityReports()) console.error(report);
  }

  /** The capacity reports of the management clusters that declare their control-plane workers. */
  public capacityReports(): string[] {
    return this.charts
      .filter((chart): chart is ManagementCluster => ManagementCluster.prototype.isPrototypeOf(chart))
      .map((hub) => hub.capacityReport())
      .filter((report): report is string => report !== undefined);
  }

  /** Replaces the output directory with `files`, in one rename. */
  public writeFiles(files: readonly SynthesizedFile[]): void {
    const outdir = path.resolve(this.outdir);
    const staging = `${outdir}.staging-${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    // One mkdir per folder, not per file: a fleet writes thousands of files into hundreds of folders.
    const folders = new Set<string>();
    for (const file of files) {
      const target = path.join(staging, file.path);
      const folder = path.dirname(target);
      if (!folders.has(folder)) {
        fs.mkdirSync(folder, { recursive: true });
        folders.add(folder);
      }
      fs.writeFileSync(target, file.text);
    }
    fs.mkdirSync(staging, { recursive: true });
    fs.rmSync(outdir, { recursive: true, force: true });
    fs.renameSync(staging, outdir);
  }

  /**
   * Every object as JSON, with its file and, when comparing, the object that file held before.
   * Reports objects that cannot render, and two objects written to one file or one cluster.
   */
  private *render(constructs: readonly IConstruct[], problems: string[], comparing: boolean): Generator<RenderedObject> {
    const seen = new Map<string, string>();
    const seenObjects = new Map<string, { path: string; file: string }>();
    // The folder depends only on the construct an object is in: worked out once per parent.
    const folders = new Map<IConstruct, string>();
    // In tree order; each object goes to the folder of its own chart.
    for (const object of constructs) {
      if (!(object instanceof ApiObject)) continue;
      const chart = object.chart;
      const parent = object.node.scope!;
      let folder = folders.get(parent);
      if (folder === undefined) {
        folder = [chart.node.id, ...clusterFolder(object)].join('/');
        folders.set(parent, folder);
      }
      let json: any;
      try {
        json = renderApiObject(object);
      } catch (error) {
        problems.push(`${object.node.path}: ${(error as Error).message}`);
        continue;
      }
      if (this.syncWaves) addSyncWave(json);
      // Output paths use '/' on every platform: kustomization.yaml lists them that way.
      const file = `${folder}/${fileName(json)}`;
      const previous = seen.get(file);
      if (previous) problems.push(`${object.node.path}: writes ${file}, as ${previous} does; two objects share kind, namespace and name`);
      seen.set(file, object.node.path);
      // The same object in two folders of one target cluster would be applied twice, the last one winning.
      const identity = `${chart.node.id}/${json.kind}/${json.metadata?.namespace ?? ''}/${json.metadata?.name}`;
      const twin = seenObjects.get(identity);
      if (twin && !previous) problems.push(`${object.node.path}: is ${json.kind} ${json.metadata?.namespace ? `${json.metadata.namespace}/` : ''}${json.metadata?.name}, which ${twin.path} also writes (${twin.file}); one cluster holds an object only once`);
      if (!twin) seenObjects.set(identity, { path: object.node.path, file });
      const previousOutput = this.validator && comparing ? this.readPreviousOutput(file) : undefined;
      yield { file, json, source: object.node.path, previous: previousOutput };
    }
  }

  /** The object this file held after the previous synth, if the output directory has it. */
  private readPreviousOutput(file: string): unknown {
    const previous = path.join(path.resolve(this.outdir), file);
    if (!fs.existsSync(previous)) return undefined;
    try {
      return load(fs.readFileSync(previous, 'utf8'), { schema: CORE_SCHEMA });
    } catch {
      return undefined; // A file that no longer parses is replaced, not compared with.
    }
  }

}

interface RenderedObject {
  readonly file: string;
  readonly json: any;
  /** The construct path, named in problems. */
  readonly source: string;
  readonly previous?: unknown;
}

/** The folder of the HostedCluster an object belongs to, if any. */
function clusterFolder(object: IConstruct): string[] {
  for (let scope = object.node.scope; scope; scope = scope.node.scope) {
    if (scope instanceof HostedCluster) return [scope.clusterName];
    // An InfraEnv (lib/baremetal) keeps its hosts together; duck-typed to keep core free of baremetal.
    const folder = (scope as { outputFolder?: unknown }).outputFolder;
    if (typeof folder === 'string') return [folder];
  }
  return [];
}

function rankOf(json: any): number {
  return KIND_RANK[json.kind] ?? DEFAULT_RANK;
}

/** Adds the wave last among the annotations; the rendered object is the synth's own to change. */
function addSyncWave(json: any): void {
  const annotations = json.metadata.annotations;
  if (annotations === undefined) json.metadata.annotations = { [SYNC_WAVE_ANNOTATION]: String(rankOf(json)) };
  else if (annotations[SYNC_WAVE_ANNOTATION] === undefined) annotations[SYNC_WAVE_ANNOTATION] = String(rankOf(json));
}

function fileName(json: any): string {
  const rank = rankOf(json);
  const namespace = json.metadata?.namespace ? `${json.metadata.namespace}_` : '';
  return `${String(rank).padStart(2, '0')}-${String(json.kind).toLowerCase()}-${namespace}${json.metadata?.name}.yaml`;
}

/**
 * YAML as the API server reads it, written by js-yaml (several times faster than the yaml package
 * on thousands of objects): no line folding, no anchors, keys in the order the object has them,
 * and strings that YAML 1.1 would read as something else (`yes`, `on`, `0x1`) quoted.
 */
function toYaml(json: unknown): string {
  return dump(json, { lineWidth: -1, noRefs: true, quotingType: '"' });
}
