// Least privilege and fleet changes under Flux, held by a real kube-apiserver with RBAC on. Hub hub-0 of
// the fleet example goes through one commit per entry of the catalogue in docs/delivery.md (fleet
// changes): each commit is synthesized over the one before (its previous output), its RBAC applied as
// Flux applies it, and every Kustomization replayed as kustomize-controller reconciles it, as its
// ServiceAccount (see flux-replay.ts for the calls and the upstream code they follow). A commit passes
// when every Kustomization that should proceed is Ready. At the first commit, each unit's
// ServiceAccount is also tried on what it must not do: other units' objects, escalations.
import { FluxDelivery, FluxSource } from '../../lib';
import { Commit, commit, exampleInventory, fleetChange } from '../gitops/fleet-commits';
import { FluxReplay, Outcome } from './flux-replay';
import { Impersonation, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';
const delivery = (url = REPOSITORY, path?: string) => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url }), path });

// In namespaces of its own: examples-dry-run applies the fleet example to the same server, and an object
// both write would keep the fields either owns.
const base = fleetChange.inNamespaces(fleetChange.onlyHubs(exampleInventory(), 'hub-0'), 'fleet-changes', 'fleet-changes-');
const replay = new FluxReplay(client);
const commits: Commit[] = [];
const last = () => commits[commits.length - 1];
const started = Date.now();

/** Each Kustomization's outcome that is not Ready. */
const notReady = (outcomes: Map<string, Outcome>) => [...outcomes].filter(([, o]) => o !== 'Ready');
const as = (name: string) => ({ impersonate: Impersonation.serviceAccount('flux-system', name) });
const named = (folder: string, kind: string, name?: string) =>
  last()
    .folders.get(folder)!
    .find((o) => o.kind === kind && (name === undefined || o.metadata.name === name))!;

beforeAll(async () => {
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'flux-system' } }, { fieldManager: 'test' });
  commits.push(commit('first install', base, delivery()));
  // The hub's one hand step: its bootstrap folder, applied by a cluster admin.
  await replay.bootstrap(last(), 'hub-0');
}, 60_000);

afterAll(() => {
  client.close();
  process.stdout.write(`flux-rbac.test: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
});

describe('adding a hub: the first install', () => {
  test('every Kustomization of the hub applies, as its ServiceAccount, and is Ready', async () => {
    const outcomes = await replay.reconcile(last());
    expect(outcomes.size).toBe(28);
    expect(notReady(outcomes)).toEqual([]);
  }, 60_000);
});

describe("each unit's ServiceAccount may do nothing beyond its folder", () => {
  test("cluster c00000's unit is refused cluster c00002's objects in the namespace they share, and c00006's hosts in their own", async () => {
    const other = named('hub-0/c00002', 'HostedCluster');
    expect(other.metadata.namespace).toBe('fleet-changes');
    expect((await client.apply(other, { dryRun: true, fieldManager: 'kustomize-controller', ...as('hub-0-c00000') })).status).toBe(403);
    const host = named('hub-0/c00006', 'BareMetalHost');
    expect((await client.apply(host, { dryRun: true, fieldManager: 'kustomize-controller', ...as('hub-0-c00000') })).status).toBe(403);
  });

  test("no unit can get or list another unit's HostedCluster or NodePool", async () => {
    const hosted = named('hub-0/c00002', 'HostedCluster');
    const pool = named('hub-0/c00002/node-pools', 'NodePool');
    for (const unit of ['hub-0', 'hub-0-c00000', 'hub-0-c00000-node-pools', 'hub-0-c00006', 'flux-hub-0', 'flux-hub-0-guests']) {
      const calls = [
        ['get HostedCluster', (await client.get(hosted, as(unit))).status],
        ['get NodePool', (await client.get(pool, as(unit))).status],
        ['list HostedClusters', (await client.list('hypershift.openshift.io/v1beta1', 'HostedCluster', 'fleet-changes', as(unit))).status],
        ['list NodePools', (await client.list('hypershift.openshift.io/v1beta1', 'NodePool', 'fleet-changes', as(unit))).status],
        ['list HostedClusters everywhere', (await client.list('hypershift.openshift.io/v1beta1', 'HostedCluster', undefined, as(unit))).status],
      ];
      expect([unit, calls]).toEqual([unit, calls.map(([call]) => [call, 403])]);
    }
    // Its own it reads, by name.
    expect((await client.get(hosted, as('hub-0-c00002'))).status).toBe(200);
    expect((await client.get(pool, as('hub-0-c00002-node-pools'))).status).toBe(200);
    // flux-hub-0-access, which writes the units' Roles, holds what they grant (by name), and lists nothing.
    expect((await client.list('hypershift.openshift.io/v1beta1', 'HostedCluster', 'fleet-changes', as('flux-hub-0-access'))).status).toBe(403);
    expect((await client.list('v1', 'Secret', 'fleet-changes', as('flux-hub-0-access'))).status).toBe(403);
  });

  test("a cluster's unit is refused a kind its folder does not hold, RBAC, and its pools' unit its HostedCluster", async () => {
    const configMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c00000-extra', namespace: 'fleet-changes' }, data: { a: 'b' } };
    expect((await client.apply(configMap, { dryRun: true, ...as('hub-0-c00000') })).status).toBe(403);
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'hcp-cdk-flux-hub-0-c00000', namespace: 'fleet-changes' }, rules: [] };
    expect((await client.apply(role, { dryRun: true, ...as('hub-0-c00000') })).status).toBe(403);
    const hosted = named('hub-0/c00000', 'HostedCluster');
    expect((await client.apply(hosted, { dryRun: true, ...as('hub-0-c00000-node-pools') })).status).toBe(403);
    expect((await client.apply(hosted, { dryRun: true, ...as('hub-0') })).status).toBe(403);
  });
});

describe('the escalations of issue 35, attempted as the ServiceAccounts, are refused', () => {
  const everything = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];
  const intruder = { kind: 'ServiceAccount', name: 'default', namespace: 'default' };

  test('flux-hub-0-access cannot write a Role of a unit role name in kube-system granting everything, nor bind it or cluster-admin to any account', async () => {
    const role = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'hcp-cdk-flux-hub-0-c00000', namespace: 'kube-system' }, rules: everything };
    const escalate = await client.apply(role, { fieldManager: 'kustomize-controller', ...as('flux-hub-0-access') });
    expect([escalate.status, escalate.message]).toEqual([403, expect.stringContaining('attempting to grant RBAC permissions not currently held')]);
    // The same in the namespace it writes Roles into.
    expect((await client.apply({ ...role, metadata: { ...role.metadata, namespace: 'fleet-changes' } }, { fieldManager: 'kustomize-controller', ...as('flux-hub-0-access') })).status).toBe(403);
    for (const [namespace, roleRef] of [
      ['kube-system', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }],
      ['kube-system', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'hcp-cdk-flux-flux-hub-0' }],
      ['fleet-changes', { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' }],
    ] as const) {
      const binding = { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'hcp-cdk-flux-hub-0-c00000', namespace }, roleRef, subjects: [intruder] };
      expect([namespace, roleRef.name, (await client.apply(binding, { fieldManager: 'kustomize-controller', ...as('flux-hub-0-access') })).status]).toEqual([namespace, roleRef.name, 403]);
    }
  });

  test('flux-hub-0 cannot widen its own ClusterRole, nor bind cluster-admin to itself', async () => {
    const own = named('flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-flux-hub-0');
    const widened = { ...own, rules: [...own.rules, ...everything] };
    const response = await client.apply(widened, { fieldManager: 'kustomize-controller', ...as('flux-hub-0') });
    expect([response.status, response.message]).toEqual([403, expect.stringContaining('attempting to grant RBAC permissions not currently held')]);
    const binding = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'hcp-cdk-flux-flux-hub-0' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'flux-hub-0', namespace: 'flux-system' }],
    };
    expect((await client.apply({ ...binding, metadata: { name: 'hcp-cdk-flux-flux-hub-0-escape' } }, { fieldManager: 'kustomize-controller', ...as('flux-hub-0') })).status).toBe(403);
    // Its own Role, kind-wide on Kustomizations and ServiceAccounts, stays in its namespace.
    const elsewhere = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'hub-0-c00000', namespace: 'kube-system' } };
    expect((await client.apply(elsewhere, { dryRun: true, ...as('flux-hub-0') })).status).toBe(403);
  });

  describe("flux-hub-0 and its -access and -guests, pinned by the admission policy of dist/flux/hub-0/admission (the admin's), beyond what RBAC alone refuses", () => {
    const allowed = async (user: string, attributes: Record<string, string>) =>
      (
        await client.create({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          metadata: {},
          spec: { ...Impersonation.serviceAccount('flux-system', user), resourceAttributes: attributes },
        })
      ).body.status.allowed;
    const write = async (object: any, unit: string) => client.apply(object, { dryRun: true, fieldManager: 'kustomize-controller', ...as(unit) });
    const refusedByPolicy = (response: { status: number; message: string }) => [response.status, response.message.replace(/^.*denied request: /, '')];
    const hubRole = () => named('flux/hub-0', 'ClusterRole', 'hcp-cdk-flux-hub-0');
    const hubBinding = () => named('flux/hub-0', 'ClusterRoleBinding', 'hcp-cdk-flux-hub-0');

    test("the two-step route to cluster-admin: RBAC lets flux-hub-0 bind itself to the hub's role and widen it; the policy refuses both steps", async () => {
      expect(await allowed('flux-hub-0', { group: 'rbac.authorization.k8s.io', resource: 'clusterrolebindings', verb: 'patch', name: 'hcp-cdk-flux-hub-0' })).toBe(true);
      expect(await allowed('flux-hub-0', { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'bind', name: 'hcp-cdk-flux-hub-0' })).toBe(true);
      expect(await allowed('flux-hub-0', { group: 'rbac.authorization.k8s.io', resource: 'clusterroles', verb: 'escalate', name: 'hcp-cdk-flux-hub-0' })).toBe(true);
      const joined = { ...hubBinding(), subjects: [...hubBinding().subjects, { kind: 'ServiceAccount', name: 'flux-hub-0', namespace: 'flux-system' }] };
      expect(refusedByPolicy(await write(joined, 'flux-hub-0'))).toEqual([
        403,
        expect.stringMatching(/^a binding written by the Flux units of hub-0 binds the role of its own name to the one ServiceAccount/),
      ]);
      const widened = { ...hubRole(), rules: [...hubRole().rules, ...everything] };
      expect(refusedByPolicy(await write(widened, 'flux-hub-0'))).toEqual([403, expect.stringMatching(/^a role written by the Flux units of hub-0 grants, by name and without wildcards/)]);
      // Nor anything by kind, nor by name on a kind the hub does not write.
      for (const rule of [
        { apiGroups: [''], resources: ['pods'], verbs: ['create'] },
        { apiGroups: ['apps'], resources: ['daemonsets'], resourceNames: ['ovnkube-node'], verbs: ['patch'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['get'] },
        { apiGroups: [''], resources: ['serviceaccounts/token'], resourceNames: ['kustomize-controller'], verbs: ['create'] },
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], resourceNames: ['cluster-admin'], verbs: ['bind'] },
      ]) {
        expect([rule, (await write({ ...hubRole(), rules: [...hubRole().rules, rule] }, 'flux-hub-0')).status]).toEqual([rule, 403]);
      }
    });

    test("a Kustomization that names another unit's ServiceAccount, none, a Flux controller's, or reads Secrets for substitution is refused", async () => {
      // A new unit's name, so that no other field manager keeps a field this apply leaves out.
      const existing = named('flux/hub-0', 'Kustomization', 'hub-0-c00002');
      const unit = { ...existing, metadata: { name: 'hub-0-c00099', namespace: 'flux-system' }, spec: { ...existing.spec, serviceAccountName: 'hub-0-c00099' } };
      expect((await write(unit, 'flux-hub-0')).status).toBeLessThan(300);
      for (const [what, spec] of [
        ["another unit's ServiceAccount", { ...unit.spec, serviceAccountName: 'hub-0-c00000' }],
        ['no ServiceAccount (the controller itself)', { ...unit.spec, serviceAccountName: undefined }],
        ['a substitution from Secrets', { ...unit.spec, postBuild: { substituteFrom: [{ kind: 'Secret', name: 'flux-system' }] } }],
        ['a kubeconfig', { ...unit.spec, kubeConfig: { secretRef: { name: 'some-admin-kubeconfig' } } }],
      ] as const) {
        expect([what, (await write({ ...unit, spec }, 'flux-hub-0')).status]).toEqual([what, 403]);
      }
      const controller = { ...unit, metadata: { name: 'kustomize-controller', namespace: 'flux-system' }, spec: { ...unit.spec, serviceAccountName: 'kustomize-controller' } };
      expect((await write(controller, 'flux-hub-0')).status).toBe(403);
      // flux-hub-0-guests: only through a hosted cluster's admin kubeconfig, as no ServiceAccount.
      const guest = named('flux/hub-0/guests', 'Kustomization', 'c00000-guest-operators');
      expect((await write(guest, 'flux-hub-0-guests')).status).toBeLessThan(300);
      expect((await write({ ...guest, spec: { ...guest.spec, kubeConfig: undefined, serviceAccountName: 'hub-0-c00000' } }, 'flux-hub-0-guests')).status).toBe(403);
    });

    test("flux-hub-0 may not write or delete another's ServiceAccount or Kustomization in its namespace, nor point its GitRepository at another Secret; -access binds a unit's Role to that unit alone", async () => {
      await client.apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kustomize-controller', namespace: 'flux-system' } });
      expect(
        (await client.delete({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kustomize-controller', namespace: 'flux-system' } }, { dryRun: true, ...as('flux-hub-0') })).status,
      ).toBe(403);
      const theirs = { ...named('flux/hub-0', 'Kustomization', 'hub-0'), metadata: { name: 'flux-system', namespace: 'flux-system' } };
      await client.apply(theirs);
      expect((await client.delete(theirs, { dryRun: true, ...as('flux-hub-0') })).status).toBe(403);
      // Another's, which the replay of the fleet changes would reconcile too.
      await client.delete(theirs);
      expect((await client.delete(named('flux/hub-0', 'Kustomization', 'hub-0-c00002'), { dryRun: true, ...as('flux-hub-0') })).status).toBe(200);
      const source = named('flux/hub-0', 'GitRepository', 'hcp-estate');
      expect((await write({ ...source, spec: { ...source.spec, secretRef: { name: 'flux-system' } } }, 'flux-hub-0')).status).toBe(403);
      const binding = named('flux/hub-0/access', 'RoleBinding', 'hcp-cdk-flux-hub-0-c00002');
      expect((await write(binding, 'flux-hub-0-access')).status).toBeLessThan(300);
      expect((await write({ ...binding, subjects: [...binding.subjects, intruder] }, 'flux-hub-0-access')).status).toBe(403);
    });

    test("what stays possible, and why it is the boundary: flux-hub-0 may widen a unit's role by name on the kinds the hub writes (the hub's folder may ask for those, as Git holds it)", async () => {
      const byName = { apiGroups: [''], resources: ['secrets'], resourceNames: ['any-name'], verbs: ['get'] };
      expect((await write({ ...hubRole(), rules: [...hubRole().rules, byName] }, 'flux-hub-0')).status).toBeLessThan(300);
    });
  });

  test("no unit holds bind, escalate or impersonate on anything; flux-hub-0-access binds the units' Roles, by name, and nothing else", async () => {
    for (const unit of ['hub-0', 'hub-0-c00000', 'hub-0-c00000-node-pools', 'flux-hub-0-guests']) {
      const review = await client.create(
        {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectRulesReview',
          metadata: {},
          spec: { namespace: 'fleet-changes' },
        },
        as(unit),
      );
      const verbs = new Set<string>((review.body.status?.resourceRules ?? []).flatMap((r: any) => r.verbs));
      expect([unit, ['bind', 'escalate', 'impersonate', '*'].filter((v) => verbs.has(v))]).toEqual([unit, []]);
    }
    const review = await client.create({ apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec: { namespace: 'fleet-changes' } }, as('flux-hub-0-access'));
    const granting = (review.body.status?.resourceRules ?? []).filter((r: any) => r.verbs.some((v: string) => ['bind', 'escalate', 'impersonate', '*'].includes(v)));
    expect(granting.map((r: any) => [r.verbs.filter((v: string) => ['bind', 'escalate', 'impersonate', '*'].includes(v)), r.resources])).toEqual([[['bind'], ['roles']]]);
    expect(granting[0].resourceNames.every((n: string) => /^hcp-cdk-flux-hub-0-c\d{5}(-node-pools)?$/.test(n))).toBe(true);
  });
});

describe("fleet changes, commit by commit: every unit that should proceed does, and each unit's objects are kept or pruned as the protection table says", () => {
  /** Synthesizes the next commit over the last and replays it. */
  async function next(name: string, inventory = base, fluxDelivery = delivery()): Promise<Map<string, Outcome>> {
    commits.push(commit(name, inventory, fluxDelivery, last()));
    return replay.reconcile(last());
  }
  const exists = async (o: any) => (await client.get(o)).status === 200;
  let inventory = base;

  test('removing a cluster: every other unit of the hub is Ready; its objects stay, its Kustomizations, ServiceAccounts and Roles are pruned', async () => {
    const hosted = named('hub-0/c00000', 'HostedCluster');
    const kustomization = named('flux/hub-0', 'Kustomization', 'hub-0-c00000');
    const role = named('flux/hub-0/access', 'Role', 'hcp-cdk-flux-hub-0-c00000');
    inventory = fleetChange.removeCluster(inventory, 'c00000');
    const outcomes = await next('remove c00000', inventory);
    expect(notReady(outcomes)).toEqual([]);
    expect(outcomes.size).toBe(26);
    expect(await exists(hosted)).toBe(true);
    expect(await exists(kustomization)).toBe(false);
    expect(await exists(role)).toBe(false);
    expect(await exists({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'hub-0-c00000', namespace: 'flux-system' } })).toBe(false);
  }, 60_000);

  test('dropping a NodePool: every unit is Ready, the NodePool stays (protected)', async () => {
    const pool = named('hub-0/c00006/node-pools', 'NodePool', 'c00006-spare');
    inventory = fleetChange.dropNodePool(inventory, 'c00006', 'spare');
    const outcomes = await next('drop c00006-spare', inventory);
    expect(notReady(outcomes)).toEqual([]);
    expect(await exists(pool)).toBe(true);
  }, 60_000);

  test("dropping a guest: every unit is Ready, the guest's Kustomizations are pruned", async () => {
    const guest = named('flux/hub-0/guests', 'Kustomization', 'c00006-guest-resources');
    inventory = fleetChange.dropGuest(inventory, 'c00006');
    const outcomes = await next('drop the guest of c00006', inventory);
    expect(notReady(outcomes)).toEqual([]);
    expect(await exists(guest)).toBe(false);
  }, 60_000);

  test('moving a cluster to another hub: on the hub it leaves, as a removal; its objects stay there', async () => {
    const hosted = named('hub-0/c00002', 'HostedCluster');
    const moved = fleetChange.clusterSpec(inventory, 'c00002');
    inventory = fleetChange.removeCluster(inventory, 'c00002');
    const outcomes = await next('move c00002 to hub-1', inventory);
    expect(notReady(outcomes)).toEqual([]);
    expect(await exists(hosted)).toBe(true);
    // On the hub it goes to, it is a cluster added (replayed next, on this hub, as that is the one the server stands for).
    inventory = fleetChange.addCluster(inventory, 'hub-0', moved);
  }, 60_000);

  test('adding a cluster (here, one whose objects are still there: each Kustomization takes them over)', async () => {
    const outcomes = await next('add c00002', inventory);
    expect(notReady(outcomes)).toEqual([]);
    expect(outcomes.get('flux-system/hub-0-c00002')).toBe('Ready');
  }, 60_000);

  test('changing the repository URL: every Kustomization follows on the sync of flux-hub-0 (the commit reaches the repository it reads), every unit is Ready', async () => {
    const outcomes = await next('new repository', inventory, delivery('https://git.example.com/platform/estate-v2.git'));
    expect(notReady(outcomes)).toEqual([]);
    expect((await client.get(named('flux/hub-0', 'GitRepository', 'hcp-estate'))).body.spec.url).toBe('https://git.example.com/platform/estate-v2.git');
  }, 60_000);

  test('changing the output path: flux-hub-0 reads its old path and fails, holding back nothing it has not applied, until the new bootstrap folder is applied by hand; then every unit is Ready', async () => {
    commits.push(commit('new output path', inventory, delivery('https://git.example.com/platform/estate-v2.git', './estate'), last()));
    const stuck = await replay.reconcile(last(), 'estate');
    expect(stuck.get('flux-system/flux-hub-0')).toBe('Failed: kustomization path not found: ./dist/flux/hub-0');
    // The hand step plan names.
    await replay.bootstrap(last(), 'hub-0');
    const outcomes = await replay.reconcile(last(), 'estate');
    expect(notReady(outcomes)).toEqual([]);
    expect(named('flux/hub-0', 'Kustomization', 'hub-0-c00004').spec.path).toBe('./estate/hub-0/c00004');
    // And back, the same way.
    commits.push(commit('back to dist', inventory, delivery('https://git.example.com/platform/estate-v2.git'), last()));
    await replay.bootstrap(last(), 'hub-0');
    expect(notReady(await replay.reconcile(last()))).toEqual([]);
  }, 90_000);

  test('renaming the hub: after its one hand step (the new bootstrap folder, applied once), every unit of the new name is Ready; the old Kustomizations fail on their missing folder, or wait for one that does, until deleted', async () => {
    const old = named('flux/hub-0', 'Kustomization', 'hub-0-c00004');
    inventory = fleetChange.renameHub(inventory, 'hub-0', 'hub-x');
    commits.push(commit('rename hub-0 to hub-x', inventory, delivery(), last()));
    await replay.bootstrap(last(), 'hub-x');
    const outcomes = await replay.reconcile(last());
    const renamed = [...outcomes].filter(([id]) => /^flux-system\/(flux-)?hub-x/.test(id));
    expect(renamed).toHaveLength(26);
    expect(renamed.filter(([, o]) => o !== 'Ready')).toEqual([]);
    // What the old names applied is taken over; the old Kustomizations are left for the hand step plan names: flux-hub-0 fails, the rest wait for it.
    const stale = [...outcomes].filter(([id]) => /^flux-system\/(flux-)?hub-0/.test(id));
    expect(stale.filter(([, o]) => !/^(Failed: kustomization path not found|Held: waits for )/.test(o))).toEqual([]);
    expect(outcomes.get('flux-system/flux-hub-0')).toBe('Failed: kustomization path not found: ./dist/flux/hub-0');
    expect(await exists(old)).toBe(true);
  }, 90_000);
});
