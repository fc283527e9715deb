import { ocmAdmissionRules } from '../../lib/gitops/ocm-admission';

describe("ocmAdmissionRules: what OCM's webhooks ask of whoever writes an object", () => {
  test('a ManagedClusterSetBinding: create on managedclustersets/bind of its set', () => {
    expect(
      ocmAdmissionRules({ apiVersion: 'cluster.open-cluster-management.io/v1beta2', kind: 'ManagedClusterSetBinding', metadata: { name: 'lab', namespace: 'p' }, spec: { clusterSet: 'lab' } }),
    ).toEqual([{ apiGroups: ['cluster.open-cluster-management.io'], resources: ['managedclustersets/bind'], resourceNames: ['lab'], verbs: ['create'] }]);
  });

  test('a ManagedCluster the hub accepts, in a set: update on managedclusters/accept of its name, create on managedclustersets/join of the set', () => {
    const cluster = {
      apiVersion: 'cluster.open-cluster-management.io/v1',
      kind: 'ManagedCluster',
      metadata: { name: 'c1', labels: { 'cluster.open-cluster-management.io/clusterset': 'lab' } },
      spec: { hubAcceptsClient: true },
    };
    expect(ocmAdmissionRules(cluster)).toEqual([
      { apiGroups: ['register.open-cluster-management.io'], resources: ['managedclusters/accept'], resourceNames: ['c1'], verbs: ['update'] },
      { apiGroups: ['cluster.open-cluster-management.io'], resources: ['managedclustersets/join'], resourceNames: ['lab'], verbs: ['create'] },
    ]);
    expect(ocmAdmissionRules({ ...cluster, metadata: { name: 'c1' }, spec: { hubAcceptsClient: false } })).toEqual([]);
  });

  test('anything else, a namesake of another group included: nothing', () => {
    expect(ocmAdmissionRules({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } })).toEqual([]);
    expect(ocmAdmissionRules({ apiVersion: 'example.com/v1', kind: 'ManagedClusterSetBinding', metadata: { name: 'x' } })).toEqual([]);
  });
});
