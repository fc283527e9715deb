// Least privilege for Flux, held by a real kube-apiserver with RBAC on: the fleet example's RBAC
// is applied as the bootstrap would apply it, then each unit's ServiceAccount (impersonated, as
// kustomize-controller impersonates `spec.serviceAccountName`) server-side applies, as a dry run,
// its own objects and other units' objects. The server, not an emulation, says what is allowed.
import { FluxDelivery, FluxSource } from '../../lib';
import { fleetOutput } from '../gitops/fleet-output';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();

const output = fleetOutput(new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: 'https://git.example.com/platform/hcp-estate.git' }) }));
const RBAC_KINDS = new Set(['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

/** Server-side apply as a dry run, as `unit`'s ServiceAccount in flux-system: the HTTP status. */
async function applyAs(unit: string, object: any): Promise<number> {
  const response = await client.apply(object, { dryRun: true, fieldManager: 'kustomize-controller', impersonate: Impersonation.serviceAccount('flux-system', unit) });
  return response.status;
}

beforeAll(async () => {
  // What exists before the units apply: the namespaces (the hub's unit makes them) and the RBAC the
  // bootstrap folder and the access folder hold, applied by an admin as the first `oc apply -k` does.
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } }, { fieldManager: 'test' });
  for (const json of output.get('hub-0')!.filter((o) => o.kind === 'Namespace')) expect((await client.apply(json, { fieldManager: 'test' })).status).toBeLessThan(300);
  for (const folder of ['flux/hub-0', 'flux/hub-0/access']) {
    for (const json of output.get(folder)!.filter((o) => RBAC_KINDS.has(o.kind))) {
      const response = await client.apply(json, { fieldManager: 'test' });
      expect([json.kind, json.metadata.name, response.status < 300]).toEqual([json.kind, json.metadata.name, true]);
    }
  }
}, 60_000);

afterAll(() => client.close());

/** Asserts that `unit` may write `json`: 200 or 201, named so that a failure says which object. */
async function expectAllowed(unit: string, json: any): Promise<void> {
  const status = await applyAs(unit, json);
  expect([unit, json.kind, json.metadata.name, status < 300 ? 'allowed' : status]).toEqual([unit, json.kind, json.metadata.name, 'allowed']);
}

describe("each unit's ServiceAccount may write exactly its folder's objects, on a real API server with RBAC", () => {
  test.each(['hub-0', 'hub-0-c00000', 'hub-0-c00000-node-pools', 'hub-0-c00002', 'hub-0-c00002-node-pools'])('%s writes every object of its folder', async (unit) => {
    const folder = unit.replace(/^hub-0-/, 'hub-0/').replace(/-node-pools$/, '/node-pools');
    for (const json of output.get(folder)!) await expectAllowed(unit, json);
  });

  test("cluster c00000's unit is refused cluster c00002's objects in the namespace they share, and c00006's hosts in their own", async () => {
    const other = output.get('hub-0/c00002')!.find((o) => o.kind === 'HostedCluster')!;
    expect(other.metadata.namespace).toBe('clusters');
    expect(await applyAs('hub-0-c00000', other)).toBe(403);
    const host = output.get('hub-0/c00006')!.find((o) => o.kind === 'BareMetalHost')!;
    expect(await applyAs('hub-0-c00000', host)).toBe(403);
    await expectAllowed('hub-0-c00006', host);
  });

  test("a cluster's unit is refused a kind its folder does not hold, and its pools' unit its HostedCluster", async () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c00000-extra', namespace: 'clusters' }, data: { a: 'b' } };
    expect(await applyAs('hub-0-c00000', configMap)).toBe(403);
    const clusterRole = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'c00000-admin' }, rules: [] };
    expect(await applyAs('hub-0-c00000', clusterRole)).toBe(403);
    const hosted = output.get('hub-0/c00000')!.find((o) => o.kind === 'HostedCluster')!;
    expect(await applyAs('hub-0-c00000-node-pools', hosted)).toBe(403);
    expect(await applyAs('hub-0', hosted)).toBe(403);
  });

  test('the bootstrap, access and guests units write the Kustomizations, RBAC and guest Kustomizations they hold, and no cluster', async () => {
    for (const json of output.get('flux/hub-0')!) await expectAllowed('flux-hub-0', json);
    for (const json of output.get('flux/hub-0/access')!) await expectAllowed('flux-hub-0-access', json);
    for (const json of output.get('flux/hub-0/guests')!) await expectAllowed('flux-hub-0-guests', json);
    const hosted = output.get('hub-0/c00000')!.find((o) => o.kind === 'HostedCluster')!;
    for (const unit of ['flux-hub-0', 'flux-hub-0-access', 'flux-hub-0-guests']) expect([unit, await applyAs(unit, hosted)]).toEqual([unit, 403]);
  });
});
