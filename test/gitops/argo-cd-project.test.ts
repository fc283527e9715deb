// Each unit's AppProject, judged as Argo CD judges a resource of an Application in a project: its
// destination cluster and namespace must be listed, and its group/kind allowed (namespaced kinds by
// the whitelist, or all but the blacklist when there is none; cluster-scoped kinds only by theirs).
import { ArgoCdDelivery, ArgoCdGuestAccess } from '../../lib';
import { fleetOutput } from './fleet-output';

type GroupKind = { group: string; kind: string };
interface Resource extends GroupKind {
  readonly namespace?: string;
}
type Destination = { server: string } | { name: string };

const glob = (pattern: string, value: string) => pattern === '*' || pattern === value;
const listed = (list: readonly GroupKind[] | undefined, r: GroupKind) => (list ?? []).some((e) => glob(e.group, r.group) && glob(e.kind, r.kind));

/** Whether `project` lets an Application with `destination` sync `resource`. */
function permits(project: any, destination: Destination, resource: Resource): boolean {
  const spec = project.spec;
  if (resource.namespace === undefined) return listed(spec.clusterResourceWhitelist, resource);
  const kindAllowed = (spec.namespaceResourceWhitelist?.length ? listed(spec.namespaceResourceWhitelist, resource) : true) && !listed(spec.namespaceResourceBlacklist, resource);
  const destinationAllowed = spec.destinations.some((d: any) => ('server' in destination ? d.server === destination.server : d.name === destination.name) && glob(d.namespace, resource.namespace!));
  return kindAllowed && destinationAllowed;
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0] : '');

describe("each unit's AppProject on the fleet example: a cluster's Application may write its own objects and nothing of another's", () => {
  const folders = fleetOutput(new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }));
  const bootstrap = folders.get('argocd/hub-0')!;
  const project = (name: string) => bootstrap.find((o) => o.kind === 'AppProject' && o.metadata.name === name)!;
  const application = (name: string) => bootstrap.find((o) => o.kind === 'Application' && o.metadata.name === name)!;
  const resourcesOf = (folder: string): Resource[] => folders.get(folder)!.map((o) => ({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.metadata.namespace }));
  const IN_CLUSTER = { server: 'https://kubernetes.default.svc' };

  test('every Application has a project of its own, and none uses default', () => {
    const applications = bootstrap.filter((o) => o.kind === 'Application');
    expect(applications).toHaveLength(18); // 12 clusters, 4 guests, the hub's own, the bootstrap
    for (const a of applications) {
      expect([a.metadata.name, a.spec.project]).toEqual([a.metadata.name, a.metadata.name]);
      expect(project(a.spec.project)).toBeDefined();
    }
  });

  test('each Application may write every object of its folder, and its own destination', () => {
    for (const a of bootstrap.filter((o) => o.kind === 'Application')) {
      const folder = a.spec.source.path.replace(/^dist\//, '');
      const destination = a.spec.destination.server ? { server: a.spec.destination.server } : { name: a.spec.destination.name };
      for (const resource of resourcesOf(folder)) expect([a.metadata.name, resource, permits(project(a.spec.project), destination, resource)]).toEqual([a.metadata.name, resource, true]);
      expect(
        permits(project(a.spec.project), destination, { group: 'x', kind: 'y', namespace: a.spec.destination.namespace }) ||
          project(a.spec.project).spec.destinations.some((d: any) => d.namespace === a.spec.destination.namespace),
      ).toBe(true);
    }
  });

  test("cluster c00000's project refuses cluster c00002's namespace, its guest, the hub's shared kinds and a kind it does not list", () => {
    const own = project('hub-0-c00000');
    expect(permits(own, IN_CLUSTER, { group: 'metal3.io', kind: 'BareMetalHost', namespace: 'hw-c00000' })).toBe(true);
    // Another cluster's agent namespace, and its control-plane namespace.
    expect(permits(own, IN_CLUSTER, { group: 'metal3.io', kind: 'BareMetalHost', namespace: 'hw-c00006' })).toBe(false);
    expect(permits(own, IN_CLUSTER, { group: '', kind: 'Secret', namespace: 'clusters-c00002' })).toBe(false);
    // Another cluster's guest, and its own guest: a hub unit never writes inside a hosted cluster.
    expect(permits(own, { name: 'c00006' }, { group: '', kind: 'ConfigMap', namespace: 'metallb' })).toBe(false);
    expect(permits(own, { name: 'c00000' }, { group: '', kind: 'Secret', namespace: 'clusters' })).toBe(false);
    // Kinds it does not write: a ConfigMap, a Namespace, RBAC, an Application.
    expect(permits(own, IN_CLUSTER, { group: '', kind: 'ConfigMap', namespace: 'clusters' })).toBe(false);
    expect(permits(own, IN_CLUSTER, { group: '', kind: 'Namespace' })).toBe(false);
    expect(permits(own, IN_CLUSTER, { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding' })).toBe(false);
    expect(permits(own, IN_CLUSTER, { group: 'argoproj.io', kind: 'Application', namespace: 'openshift-gitops' })).toBe(false);
  });

  test("a guest's project reaches its own hosted cluster only", () => {
    const guest = project('c00000-guest');
    expect(application('c00000-guest').spec.destination.name).toBe('c00000');
    expect(permits(guest, { name: 'c00000' }, { group: 'metallb.io', kind: 'IPAddressPool', namespace: 'metallb' })).toBe(true);
    expect(permits(guest, { name: 'c00006' }, { group: 'metallb.io', kind: 'IPAddressPool', namespace: 'metallb' })).toBe(false);
    expect(permits(guest, IN_CLUSTER, { group: 'metallb.io', kind: 'IPAddressPool', namespace: 'metallb' })).toBe(false);
  });

  test("the hub's project writes the shared objects, not a cluster's", () => {
    const hub = project('hub-0');
    expect(permits(hub, IN_CLUSTER, { group: '', kind: 'Namespace' })).toBe(true);
    expect(permits(hub, IN_CLUSTER, { group: 'hypershift.openshift.io', kind: 'HostedCluster', namespace: 'clusters' })).toBe(false);
    expect(permits(hub, IN_CLUSTER, { group: '', kind: 'Secret', namespace: 'clusters' })).toBe(false);
  });
});

describe('the locked default project: an Application that names it is refused (the escalation of issue 35)', () => {
  const folders = fleetOutput(new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }));
  const locked = folders.get('argocd/hub-0')!.find((o) => o.kind === 'AppProject' && o.metadata.name === 'default')!;
  const bootstrapProject = folders.get('argocd/hub-0')!.find((o) => o.kind === 'AppProject' && o.metadata.name === 'argocd-hub-0')!;

  test('the bootstrap project admits an Application in the Argo CD namespace, which may name any project', () => {
    expect(permits(bootstrapProject, { server: 'https://kubernetes.default.svc' }, { group: 'argoproj.io', kind: 'Application', namespace: 'openshift-gitops' })).toBe(true);
  });

  test('default allows no source, no destination and no kind, as Argo CD documents it (docs/user-guide/projects.md)', () => {
    expect(locked.spec).toEqual({ sourceRepos: [], sourceNamespaces: [], destinations: [], namespaceResourceBlacklist: [{ group: '*', kind: '*' }] });
    // argo-cd pkg/apis/application/v1alpha1/app_project_types.go: IsSourcePermitted matches sourceRepos, IsDestinationPermitted destinations.
    expect(locked.spec.sourceRepos.some((r: string) => glob(r, 'https://git.example.com/platform/hcp-estate.git'))).toBe(false);
    for (const resource of [
      { group: '', kind: 'Secret', namespace: 'kube-system' },
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding' },
      { group: 'hypershift.openshift.io', kind: 'HostedCluster', namespace: 'clusters' },
    ]) {
      expect([resource, permits(locked, { server: 'https://kubernetes.default.svc' }, resource)]).toEqual([resource, false]);
    }
  });

  test('lockDefaultProject: false writes none', () => {
    const open = fleetOutput(new ArgoCdDelivery({ repoUrl: 'https://git.example.com/platform/hcp-estate.git', guestAccess: ArgoCdGuestAccess.acmGitOpsCluster(), lockDefaultProject: false }));
    expect(open.get('argocd/hub-0')!.filter((o) => o.kind === 'AppProject' && o.metadata.name === 'default')).toEqual([]);
  });
});
