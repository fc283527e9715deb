// The blog's KubeVirt hub on AWS (examples/kubevirt-hub-aws) brought up from nothing: MCE, LVM Storage
// and OpenShift Virtualization installed by Subscription, the MultiClusterEngine, the hypershift
// add-on's AddOnDeploymentConfig and a HostedCluster, under Flux and under Argo CD, in the model of
// bring-up-model.ts. Each engine must end with every object applied; the model must catch the layouts
// that deadlock (one Flux stage for the MultiClusterEngine and the kinds its components serve; an
// Argo CD hub Application that dry-runs the operators' kinds before installing them).
import * as path from 'path';
import { bringUpWithArgoCd, bringUpWithFlux, ModelObject, modelObjects } from './bring-up-model';
import { fluxVerdict } from '../gitops/flux-health';
import { cdk8sSynth, readTree } from './example-synth';

const APP = 'build/examples/kubevirt-hub-aws/main.js';

/** The example's objects under a delivery mode. */
function objectsUnder(mode: string): ModelObject[] {
  const synth = cdk8sSynth(APP, mode);
  if (synth.status !== 0) throw new Error(`${APP} under ${mode}: ${synth.output}`);
  return modelObjects(readTree(synth.outdir));
}

const files = (objects: readonly ModelObject[]): string[] => [...new Set(objects.map((o) => o.file))].sort();
const kindsOf = (objects: readonly ModelObject[], applied: ReadonlySet<string>): string[] => [...new Set(objects.filter((o) => !applied.has(o.file)).map((o) => o.json.kind))].sort();

describe('the KubeVirt hub brought up from nothing by Flux', () => {
  const objects = objectsUnder('flux');
  const kustomization = (name: string): any => objects.find((o) => o.json.kind === 'Kustomization' && o.json.metadata.name === name)?.json;

  test('the hub folder is applied in three stages: operators, then the MultiClusterEngine alone, then the rest', () => {
    expect(files(objects.filter((o) => o.file.startsWith('hub/engine/')))).toEqual(['hub/engine/05-multiclusterengine-multiclusterengine.yaml']);
    expect(kustomization('hub-engine').spec.dependsOn).toEqual([{ name: 'hub-operators', namespace: 'flux-system' }]);
    expect(kustomization('hub-resources').spec.dependsOn).toEqual([{ name: 'hub-engine', namespace: 'flux-system' }]);
    expect(objects.filter((o) => o.file.startsWith('hub/resources/')).map((o) => o.json.kind)).toContain('AddOnDeploymentConfig');
  });

  test("every object is applied: each stage's kinds are served by the time its dependencies are healthy", () => {
    const applied = bringUpWithFlux(objects);
    expect(kindsOf(objects, applied)).toEqual([]);
    expect([...applied].sort()).toEqual(files(objects));
  });

  test('the model catches the deadlock of the MultiClusterEngine and the AddOnDeploymentConfig in one stage: the operators are installed, but neither, nor anything after them, is ever applied', () => {
    // The old layout: hub/engine/ merged into hub/resources/, which waits for the operators.
    const merged = objects
      .filter((o) => !(o.json.kind === 'Kustomization' && o.json.metadata.name === 'hub-engine'))
      .map((o) => (o.file.startsWith('hub/engine/') ? { file: `hub/resources/${path.posix.basename(o.file)}`, json: o.json } : o))
      .map((o) =>
        o.json.kind === 'Kustomization' && o.json.metadata.name === 'hub-resources'
          ? { file: o.file, json: { ...o.json, spec: { ...o.json.spec, dependsOn: [{ name: 'hub-operators', namespace: 'flux-system' }] } } }
          : o,
      );
    const applied = bringUpWithFlux(merged);
    // All of hub/resources/, and what waits for it: the cluster's folder and pools, and the Roles of
    // their units (flux/hub/access/, applied once the hub's folder is).
    expect(kindsOf(merged, applied)).toEqual([
      'AddOnDeploymentConfig',
      'HostedCluster',
      'HyperConverged',
      'IngressController',
      'LVMCluster',
      'MachineSet',
      'MultiClusterEngine',
      'NodePool',
      'Role',
      'RoleBinding',
    ]);
    expect(files(merged.filter((o) => o.file.startsWith('hub/operators/') && !applied.has(o.file)))).toEqual([]);
  });

  test('the engine stage is healthy once MCE reports the phase Available, not before', () => {
    const [check] = kustomization('hub-engine').spec.healthCheckExprs;
    expect(check.kind).toBe('MultiClusterEngine');
    expect(fluxVerdict(check, { status: {} })).toBe('InProgress');
    expect(fluxVerdict(check, { status: { phase: 'Progressing' } })).toBe('InProgress');
    expect(fluxVerdict(check, { status: { phase: 'Available' } })).toBe('Current');
  });
});

describe('the KubeVirt hub brought up from nothing by Argo CD', () => {
  const objects = objectsUnder('argocd');
  const hubApplication = objects.find((o) => o.json.kind === 'Application' && o.json.metadata.name === 'hub')!;

  test("every object is applied: the hub Application skips the dry run of the kinds its operators install, and its retries outlast their CRDs' arrival", () => {
    expect(hubApplication.json.spec.syncPolicy.syncOptions).toContain('SkipDryRunOnMissingResource=true');
    const applied = bringUpWithArgoCd(objects);
    expect(kindsOf(objects, applied)).toEqual([]);
    expect([...applied].sort()).toEqual(files(objects));
  });

  test("the model catches the deadlock of a hub Application that dry-runs every kind: nothing of the hub's folder is applied, nor the HostedCluster", () => {
    const options = hubApplication.json.spec.syncPolicy.syncOptions.filter((o: string) => o !== 'SkipDryRunOnMissingResource=true');
    const dryRunning = objects.map((o) =>
      o === hubApplication ? { file: o.file, json: { ...o.json, spec: { ...o.json.spec, syncPolicy: { ...o.json.spec.syncPolicy, syncOptions: options } } } } : o,
    );
    const applied = bringUpWithArgoCd(dryRunning);
    expect(files(objects.filter((o) => path.posix.dirname(o.file) === 'hub' && applied.has(o.file)))).toEqual([]);
    expect(kindsOf(dryRunning, applied)).toEqual(expect.arrayContaining(['AddOnDeploymentConfig', 'HostedCluster', 'MultiClusterEngine', 'Subscription']));
  });
});
