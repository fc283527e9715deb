import { ApiObject, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { AcmDelivery, applyByHand, ArgoCdDelivery, ArgoCdGuestAccess, FluxDelivery, FluxSource, HcpApp, IDelivery, ManagementCluster, Release } from '../../lib';
import { newCluster } from '../props';

/** A hub with a cluster, and a chart `recovery` with one object, applied by hand; its guest chart too when `guest`. */
function estate(delivery: IDelivery, options: { guest?: boolean } = {}): { path: string; object: any }[] {
  const app = new HcpApp({ outdir: '/nonexistent', delivery });
  const cluster = newCluster({ release: Release.fromVersion('4.17.0') }, app);
  cluster.addNodePool('workers');
  const recovery = new ManagementCluster(app, 'recovery');
  new ApiObject(recovery, 'restore', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'restore-plan', namespace: 'default' }, data: { a: 'b' } });
  applyByHand(recovery, { reason: 'applying it starts a restore' });
  if (options.guest) {
    new ApiObject(cluster.guest, 'runbook', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'runbook', namespace: 'default' }, data: { a: 'b' } });
    applyByHand(cluster.guest, { reason: 'a one-off fix inside the cluster' });
  }
  return app.synthesize().map((f) => ({ path: f.path, object: YAML.parse(f.text) }));
}

const REPO = 'https://git.example.com/platform/estate.git';

describe('applyByHand: a chart no engine applies on its own', () => {
  test('every delivery still writes its folder, with a kustomization.yaml for oc apply -k', () => {
    for (const delivery of [new ArgoCdDelivery({ repoUrl: REPO }), new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) }), new AcmDelivery()]) {
      const files = estate(delivery)
        .map((f) => f.path)
        .filter((p) => p.startsWith('recovery/'));
      expect(files).toEqual(['recovery/20-configmap-default_restore-plan.yaml', 'recovery/kustomization.yaml']);
    }
  });

  test('Argo CD: no Application for it, while the hub has its own', () => {
    const applications = estate(new ArgoCdDelivery({ repoUrl: REPO })).filter((f) => f.object.kind === 'Application');
    expect(applications.map((a) => a.object.spec.source.path)).toEqual(['dist/argocd/hub', 'dist/hub/c1', 'dist/hub']);
    expect(estate(new ArgoCdDelivery({ repoUrl: REPO })).some((f) => f.path.startsWith('argocd/recovery/'))).toBe(false);
  });

  test('Flux: no Kustomization and no bootstrap folder for it', () => {
    const files = estate(new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) }));
    const paths = files.filter((f) => f.object.apiVersion === 'kustomize.toolkit.fluxcd.io/v1').map((f) => f.object.spec.path);
    expect(paths).not.toContain('./dist/recovery');
    expect(paths).toContain('./dist/hub/c1');
    expect(files.some((f) => f.path.startsWith('flux/recovery/'))).toBe(false);
  });

  test('ACM: a guest chart applied by hand keeps its folder instead of becoming Policies; Argo CD gives it no Application', () => {
    const acm = estate(new AcmDelivery(), { guest: true });
    expect(acm.map((f) => f.path).filter((p) => p.startsWith('c1-guest/'))).toEqual(['c1-guest/20-configmap-default_runbook.yaml', 'c1-guest/kustomization.yaml']);
    expect(acm.filter((f) => f.object.kind === 'Policy')).toEqual([]);
    const argo = estate(new ArgoCdDelivery({ repoUrl: REPO, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }), { guest: true });
    expect(argo.filter((f) => f.object.kind === 'Application').map((a) => a.object.metadata.name)).toEqual(['argocd-hub', 'hub-c1', 'hub']);
  });

  test('fails when the reason is blank', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    expect(() => applyByHand(new Chart(app, 'x'), { reason: ' ' })).toThrow('x: applyByHand reason (" ") must say why no engine may apply these objects');
  });
});
