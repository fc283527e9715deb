// A model of bringing a hub up from nothing under Flux and under Argo CD: which CRDs exist when, and
// how each engine dry-runs and applies. Kinds of the kube-apiserver and of OpenShift's own operators
// exist from the start; an operator's once its Subscription has been applied (OLM installs them, a
// round later); the MCE operands' once a MultiClusterEngine has been applied and MCE has reconciled
// it (a round later again). The model knows these from the facts below, not from hcp-cdk's code.
import * as path from 'path';
import * as YAML from 'yaml';
import { fluxVerdict } from '../gitops/flux-health';

/** One object of the output, by the file it is in. */
export interface ModelObject {
  readonly file: string;
  readonly json: any;
}

/** API groups a fresh OpenShift hub with Flux or Argo CD installed serves. */
const SERVED_FROM_THE_START: ReadonlySet<string> = new Set([
  '',
  'apps',
  'rbac.authorization.k8s.io',
  'storage.k8s.io',
  'apiextensions.k8s.io',
  'admissionregistration.k8s.io',
  'operators.coreos.com',
  'config.openshift.io',
  'operator.openshift.io',
  'machine.openshift.io',
  'kustomize.toolkit.fluxcd.io',
  'source.toolkit.fluxcd.io',
  'argoproj.io',
]);

/** The API groups each OLM package's bundle installs the CRDs of. MCE's brings the MultiClusterEngine alone. */
const BUNDLE_GROUPS: Readonly<Record<string, readonly string[]>> = {
  'multicluster-engine': ['multicluster.openshift.io'],
  'lvms-operator': ['lvm.topolvm.io'],
  'kubevirt-hyperconverged': ['hco.kubevirt.io'],
};

/** The API groups MCE's components install once a MultiClusterEngine is reconciled: the cluster manager's, the hypershift add-on's. */
const MCE_COMPONENT_GROUPS: readonly string[] = ['cluster.open-cluster-management.io', 'addon.open-cluster-management.io', 'hypershift.openshift.io', 'agent-install.openshift.io'];

/** Every group some step of the model can serve. */
const KNOWN_GROUPS = new Set([...SERVED_FROM_THE_START, ...Object.values(BUNDLE_GROUPS).flat(), ...MCE_COMPONENT_GROUPS]);

const groupOf = (json: any): string => (String(json.apiVersion).includes('/') ? String(json.apiVersion).split('/')[0] : '');

/** The objects of an output tree (kustomization.yaml files and rollout records left out), each file read once. */
export function modelObjects(tree: ReadonlyMap<string, string>): ModelObject[] {
  return [...tree]
    .filter(([file]) => !file.endsWith('kustomization.yaml') && !file.startsWith('rollouts/'))
    .flatMap(([file, text]) => YAML.parseAllDocuments(text).map((d) => ({ file, json: d.toJSON() })));
}

/** The hub's API server as the model sees it: what it serves, what has been applied to it, what turns up at the end of a round. */
export class HubModel {
  private readonly served = new Set(SERVED_FROM_THE_START);
  private readonly applied = new Map<string, any>();
  /** Groups and statuses that turn up at the end of the round: operators install in the background. */
  private pending: (() => void)[] = [];

  public serves(json: any): boolean {
    const group = groupOf(json);
    // A kind the model knows nothing of would make any verdict meaningless.
    if (!KNOWN_GROUPS.has(group)) throw new Error(`the model does not know when ${json.kind} (${json.apiVersion}) is served: add it`);
    return this.served.has(group);
  }

  public apply(object: ModelObject): void {
    const json = object.json;
    if (!this.serves(json)) throw new Error(`${object.file}: ${json.kind} is not served`);
    this.applied.set(object.file, { ...json, status: {} });
    if (json.kind === 'Subscription') {
      const groups = BUNDLE_GROUPS[json.spec.name];
      if (groups === undefined) throw new Error(`the model does not know the CRDs of package ${json.spec.name}: add them`);
      this.pending.push(() => {
        for (const group of groups) this.served.add(group);
        this.applied.get(object.file).status = { installedCSV: `${json.spec.name}.v1` };
      });
    }
    if (json.kind === 'MultiClusterEngine') {
      this.pending.push(() => {
        // MCE reconciles its engine only with its operator installed; else it waits another round.
        if (!this.served.has('multicluster.openshift.io')) return;
        for (const group of MCE_COMPONENT_GROUPS) this.served.add(group);
        this.applied.get(object.file).status = { phase: 'Available' };
      });
    }
    if (json.kind === 'HostedCluster') {
      this.pending.push(() => {
        this.applied.get(object.file).status = { conditions: [{ type: 'Available', status: 'True' }] };
      });
    }
  }

  /** The live object applied from `file`, with the status its controller has written. */
  public live(file: string): any {
    return this.applied.get(file);
  }

  public appliedFiles(): Set<string> {
    return new Set(this.applied.keys());
  }

  /** The end of a round: what the operators installed meanwhile turns up. */
  public endRound(): void {
    const due = this.pending;
    this.pending = [];
    for (const effect of due) effect();
  }
}

/** Rounds after which an engine that has made no progress is deadlocked. */
const ROUNDS = 20;

/**
 * Flux: every Kustomization of the output (the bootstrap folder applied by hand first) is reconciled
 * each round once every one it depends on is Ready; it applies its folder only if every object's kind
 * is served at its dry run, and is Ready once its health checks (the output's own CEL) are Current.
 * Returns the files applied.
 */
export function bringUpWithFlux(objects: readonly ModelObject[], hub: HubModel = new HubModel()): Set<string> {
  const kustomizations = objects.filter((o) => o.json.kind === 'Kustomization').map((o) => o.json);
  const folderOf = (k: any): string => path.posix.normalize(String(k.spec.path)).replace(/^dist\//, '');
  const inFolder = (folder: string): ModelObject[] => objects.filter((o) => path.posix.dirname(o.file) === folder);
  const nameOf = (k: any): string => `${k.metadata.namespace}/${k.metadata.name}`;
  const ready = new Set<string>();
  const reconciled = new Set<string>();
  const isReady = (k: any): boolean =>
    (k.spec.healthChecks ?? []).every((check: any) => {
      const target = objects.find((o) => o.json.kind === check.kind && o.json.metadata.name === check.name && o.json.metadata.namespace === check.namespace);
      const live = target && hub.live(target.file);
      const expression = (k.spec.healthCheckExprs ?? []).find((e: any) => e.kind === check.kind);
      return live !== undefined && expression !== undefined && fluxVerdict(expression, live) === 'Current';
    });
  const root = kustomizations.find((k) => !k.spec.dependsOn && folderOf(k).startsWith('flux/'));
  // The admin's hand steps: the admission policy, then the bootstrap folder.
  if (root) for (const object of [...inFolder(`${folderOf(root)}/admission`), ...inFolder(folderOf(root))]) hub.apply(object);
  for (let round = 0; round < ROUNDS; round++) {
    for (const k of kustomizations) {
      if (reconciled.has(nameOf(k)) || !(k.spec.dependsOn ?? []).every((d: any) => ready.has(`${d.namespace ?? k.metadata.namespace}/${d.name}`))) continue;
      const folder = inFolder(folderOf(k));
      // Flux's server-side dry run of the whole folder: one unknown kind and nothing is applied.
      if (!folder.every((o) => hub.serves(o.json))) continue;
      for (const object of folder) hub.apply(object);
      reconciled.add(nameOf(k));
    }
    hub.endRound();
    for (const k of kustomizations) if (reconciled.has(nameOf(k)) && isReady(k)) ready.add(nameOf(k));
  }
  return hub.appliedFiles();
}

/**
 * Argo CD: the Applications of the management cluster (the bootstrap folder applied by hand), in
 * their waves, each tried once a round up to its retry limit. A sync dry-runs every object first,
 * but skips one whose kind is not served when the Application or the object says
 * SkipDryRunOnMissingResource=true; it then applies wave by wave and fails at the first object
 * whose kind is not served. Returns the files applied.
 */
export function bringUpWithArgoCd(objects: readonly ModelObject[], hub: HubModel = new HubModel()): Set<string> {
  const SKIP = 'SkipDryRunOnMissingResource=true';
  const wave = (json: any): number => Number(json.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
  const applications = objects
    .filter((o) => o.json.kind === 'Application' && o.json.spec.destination.server)
    .map((o) => o.json)
    .sort((a, b) => wave(a) - wave(b));
  for (const object of objects.filter((o) => o.file.startsWith('argocd/'))) hub.apply(object);
  const attempts = new Map<string, number>();
  const synced = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const application of applications) {
      const name = application.metadata.name;
      const tries = attempts.get(name) ?? 0;
      if (synced.has(name) || tries > (application.spec.syncPolicy.retry?.limit ?? 0)) continue;
      attempts.set(name, tries + 1);
      const folder = path.posix.normalize(application.spec.source.path).replace(/^dist\//, '');
      const inside = objects.filter((o) => path.posix.dirname(o.file) === folder);
      const skipsAll = (application.spec.syncPolicy.syncOptions ?? []).includes(SKIP);
      const skips = (o: ModelObject): boolean =>
        skipsAll ||
        String(o.json.metadata.annotations?.['argocd.argoproj.io/sync-options'] ?? '')
          .split(',')
          .includes(SKIP);
      if (!inside.every((o) => hub.serves(o.json) || skips(o))) continue;
      const waves = [...new Set(inside.map((o) => wave(o.json)))].sort((a, b) => a - b);
      let failed = false;
      for (const w of waves) {
        const these = inside.filter((o) => wave(o.json) === w);
        if (!these.every((o) => hub.serves(o.json))) {
          failed = true;
          break;
        }
        for (const object of these) hub.apply(object);
      }
      if (!failed) synced.add(name);
    }
    hub.endRound();
  }
  return hub.appliedFiles();
}
