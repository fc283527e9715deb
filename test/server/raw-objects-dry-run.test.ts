// Raw objects of kinds hcp-cdk does not bundle (test/gitops/raw-objects-app.ts), and what each
// delivery writes for them (Argo CD AppProjects and Flux RBAC naming their kinds, ACM Policies
// carrying them), checked by a real kube-apiserver that serves their CRDs: every object as a strict
// server-side apply dry run, under every delivery.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CHASSIS_CRD, DELIVERIES, GIZMO_CRD, rawObjectsApp } from '../gitops/raw-objects-app';
import { objectName, outputObjects } from './example-outputs';
import { waitForCrds } from './install-crds';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-server-raw-objects-'));

beforeAll(async () => {
  // The cluster has both CRDs; the app was given the Chassis one and waives Gizmo.
  const crds = [CHASSIS_CRD, GIZMO_CRD].map((crd) => ({ file: 'test/gitops/raw-objects-app.ts', crd }));
  for (const { crd } of crds) {
    const created = await client.create(crd as any);
    if (created.status !== 201 && created.status !== 409) throw new Error(`CRD ${crd.metadata.name}: ${created.status} ${created.message}`);
  }
  await waitForCrds(client, crds);
}, 60000);

afterAll(() => {
  client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test.each(Object.keys(DELIVERIES))(
  'under %s delivery, every object passes a strict server-side apply dry run',
  async (mode) => {
    const outdir = path.join(work, mode);
    const app = rawObjectsApp(DELIVERIES[mode](), outdir);
    app.writeFiles(app.synthesize());
    const objects = outputObjects(outdir);
    expect(objects.filter((o) => o.object.kind === 'Chassis' || o.object.kind === 'Gizmo')).toHaveLength(4);
    for (const namespace of new Set(objects.map((o) => o.object.metadata?.namespace).filter((n): n is string => typeof n === 'string'))) {
      const created = await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
      expect([namespace, created.status === 201 || created.status === 409]).toEqual([namespace, true]);
    }
    const refused: string[] = [];
    for (const o of objects) {
      const response = await client.apply(o.text ?? o.object, { dryRun: true });
      if (response.status !== 200 && response.status !== 201) refused.push(`${o.source}: ${objectName(o.object)}: ${response.status} ${response.message}`);
    }
    expect(refused).toEqual([]);
  },
  60000,
);

test("Flux's hub unit, impersonated with the RBAC the delivery writes, may apply the hub's Chassis and Gizmo: its rules name their plurals", async () => {
  const outdir = path.join(work, 'flux-rbac');
  const app = rawObjectsApp(DELIVERIES.flux(), outdir);
  app.writeFiles(app.synthesize());
  const objects = outputObjects(outdir);
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } }, { fieldManager: 'test' });
  // The RBAC of the bootstrap folder, applied by an admin as the first `oc apply -k` does.
  for (const { object } of objects.filter((o) => o.source.startsWith('flux/') && /^(ServiceAccount|Role|RoleBinding|ClusterRole|ClusterRoleBinding)$/.test(o.object.kind))) {
    expect([objectName(object), (await client.apply(object, { fieldManager: 'test' })).status < 300]).toEqual([objectName(object), true]);
  }
  for (const { object } of objects.filter((o) => o.source.startsWith('hub/') && (o.object.kind === 'Chassis' || o.object.kind === 'Gizmo'))) {
    const response = await client.apply(object, { dryRun: true, fieldManager: 'kustomize-controller', impersonate: Impersonation.serviceAccount('flux-system', 'hub') });
    expect([objectName(object), response.status < 300 ? 'allowed' : `${response.status} ${response.message}`]).toEqual([objectName(object), 'allowed']);
  }
}, 60000);
