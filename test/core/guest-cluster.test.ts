import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as YAML from 'yaml';
import { ClusterPlatform, FluxDelivery, FluxSource, GuestCluster, HcpApp, HostedCluster, IHostedCluster, ManagementCluster, PlatformType, Release, SecretSource } from '../../lib';
import { readTree, synthProblems } from '../util';

const FLUX = () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: 'https://git.example.com/platform/estate.git' }) });

function hostedCluster(hub: ManagementCluster, id: string): HostedCluster {
  return new HostedCluster(hub, id, {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
  });
}

function importedCluster(scope: ManagementCluster | HcpApp, id = 'legacy'): IHostedCluster {
  return HostedCluster.fromAttributes(scope, id, { clusterName: id, namespace: 'hosted', platformType: PlatformType.NONE, release: Release.fromVersion('4.17.0') });
}

/** One object inside the guest, so that its folder has something to deliver. */
function addConfigMap(guest: GuestCluster): void {
  new ApiObject(guest, 'settings', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: 'b' } });
}

const NOT_WRITTEN =
  'is not a HostedCluster this app writes, so nothing makes that cluster or the legacy-admin-kubeconfig Secret its guest folder is applied with; ' +
  'use a HostedCluster of this app (its guest chart is cluster.guest), or clusterManagedElsewhere: { reason } for a hosted cluster made outside the app';

describe('GuestCluster', () => {
  test("the guest chart of a HostedCluster of the app is delivered with that cluster's admin kubeconfig", () => {
    const app = new HcpApp({ outdir: '/nonexistent', delivery: FLUX() });
    addConfigMap(hostedCluster(new ManagementCluster(app, 'hub'), 'one').guest);
    const kustomization = app
      .synthesize()
      .map((f) => YAML.parse(f.text))
      .find((o) => o?.kind === 'Kustomization' && o.metadata?.name === 'one-guest');
    expect(kustomization.spec.kubeConfig).toEqual({ secretRef: { name: 'one-admin-kubeconfig', key: 'kubeconfig' } });
  });

  test("a hosted cluster managed elsewhere, declared in its management cluster's chart: written with the reason given", () => {
    const app = new HcpApp({ outdir: '/nonexistent', delivery: FLUX() });
    const hub = new ManagementCluster(app, 'hub');
    hostedCluster(hub, 'one');
    const guest = new GuestCluster(app, 'legacy-guest', {
      cluster: importedCluster(hub),
      clusterManagedElsewhere: { reason: 'made with hcp create cluster; HyperShift on hub writes its kubeconfig' },
    });
    addConfigMap(guest);
    const files = app.synthesize();
    const kustomization = files.map((f) => YAML.parse(f.text)).find((o) => o?.kind === 'Kustomization' && o.metadata?.name === 'legacy-guest');
    expect(kustomization.metadata).toEqual({ name: 'legacy-guest', namespace: 'hosted' });
    expect(kustomization.spec.kubeConfig).toEqual({ secretRef: { name: 'legacy-admin-kubeconfig', key: 'kubeconfig' } });
    expect(files.filter((f) => f.path.includes('legacy'))).toMatchSnapshot();
  });

  describe('fails when', () => {
    test('fails when the cluster is imported (HostedCluster.fromAttributes) and clusterManagedElsewhere is not given', () => {
      expect(
        synthProblems(
          (app) => {
            const hub = new ManagementCluster(app, 'hub');
            addConfigMap(new GuestCluster(app, 'legacy-guest', { cluster: importedCluster(hub) }));
          },
          { delivery: FLUX() },
        ),
      ).toEqual([`legacy-guest: cluster (hosted cluster "legacy" at hub/legacy) ${NOT_WRITTEN}`]);
    });

    test('fails when the cluster is a HostedCluster of another app', () => {
      const other = new HcpApp({ outdir: '/nonexistent' });
      const cluster = hostedCluster(new ManagementCluster(other, 'hub'), 'legacy');
      expect(
        synthProblems(
          (app) => {
            new ManagementCluster(app, 'hub');
            addConfigMap(new GuestCluster(app, 'legacy-guest', { cluster }));
          },
          { delivery: FLUX() },
        ),
      ).toEqual([`legacy-guest: cluster (hosted cluster "legacy" at hub/legacy of another app) ${NOT_WRITTEN}`]);
    });

    test('fails when a cluster managed elsewhere is declared in no chart of the app, so that no management cluster hosts it', () => {
      const other = new HcpApp({ outdir: '/nonexistent' });
      const elsewhere = { reason: 'made with hcp create cluster' };
      const accepted =
        'is in no chart of this app; with clusterManagedElsewhere, wrap the hosted cluster with HostedCluster.fromAttributes ' +
        'in the chart of the management cluster that hosts it, whose folder the deliveries reach it from';
      expect(
        synthProblems(
          (app) => {
            addConfigMap(new GuestCluster(app, 'legacy-guest', { cluster: importedCluster(app), clusterManagedElsewhere: elsewhere }));
            addConfigMap(new GuestCluster(app, 'old-guest', { cluster: importedCluster(new ManagementCluster(other, 'hub'), 'old'), clusterManagedElsewhere: elsewhere }));
          },
          { delivery: FLUX() },
        ),
      ).toEqual([`legacy-guest: cluster (hosted cluster "legacy" at legacy) ${accepted}`, `old-guest: cluster (hosted cluster "old" at hub/old of another app) ${accepted}`]);
    });

    test.each([[''], ['  '], [undefined]])('fails when clusterManagedElsewhere.reason is %j', (reason) => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      const cluster = importedCluster(new ManagementCluster(app, 'hub'));
      expect(() => new GuestCluster(app, 'legacy-guest', { cluster, clusterManagedElsewhere: { reason } as { reason: string } })).toThrow(
        `legacy-guest: clusterManagedElsewhere.reason (${reason === undefined ? 'undefined' : JSON.stringify(reason)}) must say who makes and manages hosted cluster "legacy"; ` +
          'a guest folder for a cluster this app does not make is only written on purpose',
      );
    });

    test("fails when the cluster is not the app's, writing nothing: the previous output stays byte-identical", () => {
      const outdir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-guest-')), 'out');
      const build = (withForeignGuest: boolean): HcpApp => {
        const app = new HcpApp({ outdir, delivery: FLUX() });
        const hub = new ManagementCluster(app, 'hub');
        addConfigMap(hostedCluster(hub, 'one').guest);
        if (withForeignGuest) addConfigMap(new GuestCluster(app, 'legacy-guest', { cluster: importedCluster(hub) }));
        return app;
      };
      const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        build(false).synth();
        const before = readTree(path.dirname(outdir), 'latin1');
        expect(() => build(true).synth()).toThrow(`legacy-guest: cluster (hosted cluster "legacy" at hub/legacy) ${NOT_WRITTEN}`);
        expect(readTree(path.dirname(outdir), 'latin1')).toEqual(before);
      } finally {
        spy.mockRestore();
      }
    });
  });
});
