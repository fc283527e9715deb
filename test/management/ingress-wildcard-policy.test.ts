import { ApiObject, JsonPatch } from 'cdk8s';
import { HcpApp, IngressWildcardPolicy, ManagementCluster } from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

describe('IngressWildcardPolicy (docs 3.3.1.1)', () => {
  test('a partial default IngressController admitting wildcard routes, protected from pruning', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new IngressWildcardPolicy(new ManagementCluster(app, 'hub'), 'wildcard-routes');
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/01-ingresscontroller-openshift-ingress-operator_default.yaml']);
    expect(findObject(synthObjects(app), 'IngressController')).toEqual({
      apiVersion: 'operator.openshift.io/v1',
      kind: 'IngressController',
      metadata: { name: 'default', namespace: 'openshift-ingress-operator', annotations: { 'argocd.argoproj.io/sync-wave': '1', ...PRUNE_PROTECTION } },
      spec: { routeAdmission: { wildcardPolicy: 'WildcardsAllowed' } },
    });
  });

  test('another IngressController by name', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new IngressWildcardPolicy(new ManagementCluster(app, 'hub'), 'wildcard-routes', { ingressControllerName: 'sharded' });
    expect(findObject(synthObjects(app), 'IngressController').metadata.name).toBe('sharded');
  });

  test("fails for a name that cannot be an IngressController's", () => {
    expect(synthProblems((app) => new IngressWildcardPolicy(new ManagementCluster(app, 'hub'), 'w', { ingressControllerName: 'Default' }))).toEqual([
      `hub/w: ingressControllerName ("Default") ${DNS1123_SUBDOMAIN_RULE}`,
    ]);
  });

  test('resource is the IngressController, checked against its CRD at synth', () => {
    const problems = synthProblems((app) => {
      const policy = new IngressWildcardPolicy(new ManagementCluster(app, 'hub'), 'w');
      ApiObject.of(policy.resource).addJsonPatch(JsonPatch.replace('/spec/routeAdmission/wildcardPolicy', 'Wildcards'));
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/spec\.routeAdmission\.wildcardPolicy.*WildcardsAllowed/);
  });
});

test('snapshot: the default IngressController', () => {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new IngressWildcardPolicy(new ManagementCluster(app, 'hub'), 'wildcard-routes');
  expect(synthObjects(app)).toMatchSnapshot();
});
