// The harness itself: the server jest's globalSetup started serves the CRDs, enforces RBAC on
// impersonated users, and the client reports what the server answered.
import { ROOT } from '../util';
import { readCrds, validationSchemaFiles } from './install-crds';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
afterAll(() => client.close());

const NAMESPACE = 'harness-rbac';
const OTHER_NAMESPACE = 'harness-rbac-other';
const SERVICE_ACCOUNT = Impersonation.serviceAccount(NAMESPACE, 'engine');

function configMap(name: string, namespace = NAMESPACE) {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data: { key: 'value' } };
}

function placement(name: string) {
  return { apiVersion: 'cluster.open-cluster-management.io/v1beta1', kind: 'Placement', metadata: { name, namespace: NAMESPACE }, spec: {} };
}

beforeAll(async () => {
  for (const name of [NAMESPACE, OTHER_NAMESPACE]) {
    const created = await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
    expect([name, created.status, created.message]).toEqual([name, 201, '']);
  }
  // The engine may manage ConfigMaps and write the status of Placements in its namespace, nothing else.
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'engine', namespace: NAMESPACE },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create', 'patch'] },
      { apiGroups: ['cluster.open-cluster-management.io'], resources: ['placements'], verbs: ['get'] },
      { apiGroups: ['cluster.open-cluster-management.io'], resources: ['placements/status'], verbs: ['update'] },
    ],
  };
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'engine', namespace: NAMESPACE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'engine' },
    subjects: [{ kind: 'ServiceAccount', name: 'engine', namespace: NAMESPACE }],
  };
  for (const object of [role, binding, placement('one')]) expect((await client.apply(object)).status).toBe(201);
});

test("the server is ready and serves every CRD of cdk8s.yaml's validationSchemas, Established", async () => {
  expect(await client.request('GET', '/readyz')).toEqual({ status: 200, body: 'ok', message: '' });
  const crds = await client.list('apiextensions.k8s.io/v1', 'CustomResourceDefinition');
  const established = crds.body.items.filter((crd: any) => crd.status.conditions.some((c: any) => c.type === 'Established' && c.status === 'True')).map((crd: any) => crd.metadata.name);
  const expected = readCrds(validationSchemaFiles(ROOT)).map((c) => c.crd.metadata.name);
  // One CRD per file of the list (as many as it names), the HyperShift and guest kinds among them.
  expect(expected.length).toBe(new Set(validationSchemaFiles(ROOT)).size);
  expect(expected).toEqual(
    expect.arrayContaining(['hostedclusters.hypershift.openshift.io', 'nodepools.hypershift.openshift.io', 'metallbs.metallb.io', 'operatorpolicies.policy.open-cluster-management.io']),
  );
  expect(established).toEqual(expect.arrayContaining(expected));
});

test('an impersonated ServiceAccount may do what its Role grants, in its namespace only', async () => {
  expect((await client.apply(configMap('applied'), { impersonate: SERVICE_ACCOUNT })).status).toBe(201);
  expect((await client.create(configMap('created'), { impersonate: SERVICE_ACCOUNT })).status).toBe(201);
  expect((await client.get(configMap('created'), { impersonate: SERVICE_ACCOUNT })).body.data).toEqual({ key: 'value' });

  const elsewhere = await client.apply(configMap('elsewhere', OTHER_NAMESPACE), { impersonate: SERVICE_ACCOUNT });
  expect(elsewhere.status).toBe(403);
  expect(elsewhere.message).toBe(
    'configmaps "elsewhere" is forbidden: User "system:serviceaccount:harness-rbac:engine" ' + 'cannot patch resource "configmaps" in API group "" in the namespace "harness-rbac-other"',
  );
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'token', namespace: NAMESPACE }, stringData: { token: 'x' } };
  expect((await client.apply(secret, { impersonate: SERVICE_ACCOUNT })).status).toBe(403);
  expect((await client.delete(configMap('created'), { impersonate: SERVICE_ACCOUNT })).status).toBe(403);
  // The same requests as the admin (system:masters).
  expect((await client.apply(secret)).status).toBe(201);
  expect((await client.delete(configMap('created'))).status).toBe(200);
});

test("a user's groups grant what is bound to them", async () => {
  // A Role of its own: the aggregated ClusterRoles (view, edit, admin) have no rules here, as no controller aggregates them.
  const role = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: 'reader', namespace: OTHER_NAMESPACE },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
  };
  const binding = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: 'auditors', namespace: OTHER_NAMESPACE },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'auditors' }],
  };
  for (const object of [role, binding]) expect((await client.apply(object)).status).toBe(201);
  expect((await client.apply(configMap('seen', OTHER_NAMESPACE))).status).toBe(201);
  expect((await client.get(configMap('seen', OTHER_NAMESPACE), { impersonate: Impersonation.user('alice', ['auditors']) })).status).toBe(200);
  expect((await client.get(configMap('seen', OTHER_NAMESPACE), { impersonate: Impersonation.user('alice') })).status).toBe(403);
});

test('the status subresource takes status writes, which RBAC grants apart from the object', async () => {
  const written = await client.updateStatus({ ...placement('one'), status: { numberOfSelectedClusters: 2 } }, { impersonate: SERVICE_ACCOUNT });
  expect([written.status, written.message]).toEqual([200, '']);
  expect((await client.get(placement('one'))).body.status.numberOfSelectedClusters).toBe(2);
  // The spec is not the engine's to change.
  const spec = await client.apply({ ...placement('one'), spec: { numberOfClusters: 1 } }, { impersonate: SERVICE_ACCOUNT });
  expect(spec.status).toBe(403);
});

test('a dry run checks without storing, strictly: unknown fields are refused', async () => {
  expect((await client.apply(configMap('dry'), { dryRun: true })).status).toBe(201);
  expect((await client.get(configMap('dry'))).status).toBe(404);
  const unknown = { ...placement('strict'), spec: { numberOfClusters: 1, replicas: 3 } };
  // Server-side apply reports it as a server error (500), create as a bad request.
  const applied = await client.apply(unknown, { dryRun: true });
  expect([applied.status, applied.message]).toEqual([500, expect.stringContaining('.spec.replicas: field not declared in schema')]);
  const created = await client.create(unknown, { dryRun: true });
  expect([created.status, created.message]).toEqual([400, expect.stringContaining('unknown field "spec.replicas"')]);
});

test('a kind the server does not serve fails with a message that names it and what is served', async () => {
  await expect(client.get({ apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedClusterr', metadata: { name: 'x', namespace: NAMESPACE } })).rejects.toThrow(
    /^HostedClusterr: the server serves no such kind in hypershift\.openshift\.io\/v1beta1 \(it serves .*HostedCluster/,
  );
  await expect(client.get({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 'x' } })).rejects.toThrow(
    'example.com/v1: the server does not serve this API version (discovery answered 404)',
  );
});
