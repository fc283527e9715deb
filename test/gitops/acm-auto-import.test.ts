// AcmDelivery's autoImport against the hypershift add-on's switch (HypershiftAddonConfig): exactly
// one of them imports the hosted clusters (docs 14.2, 14.3).
import { AcmDelivery, HcpApp, HostedCluster, HypershiftAddonConfig, ManagementCluster, SshPublicKey } from '../../lib';
import { clusterProps, SSH_KEY } from '../props';
import { synthProblems } from '../util';

function hub(app: HcpApp, addOnImport?: boolean): void {
  const management = new ManagementCluster(app, 'hub');
  new HostedCluster(management, 'c1', clusterProps({ networking: { machineNetwork: ['192.0.2.0/24'] }, sshKey: SshPublicKey.fromString(SSH_KEY) }));
  if (addOnImport !== undefined) new HypershiftAddonConfig(management, 'hypershift-addon', { autoImport: addOnImport });
}

function problems(autoImport: boolean, addOnImport?: boolean): string[] {
  return synthProblems((app) => hub(app, addOnImport), { delivery: new AcmDelivery({ autoImport }) });
}

function kinds(autoImport: boolean, addOnImport: boolean): string[] {
  const app = new HcpApp({ outdir: '/nonexistent', delivery: new AcmDelivery({ autoImport }) });
  hub(app, addOnImport);
  return app
    .synthesize()
    .filter((f) => f.path.startsWith('hub/c1/') && !f.path.endsWith('kustomization.yaml'))
    .map((f) => f.path.split('/')[2])
    .sort();
}

describe("AcmDelivery autoImport and the hypershift add-on's automatic import", () => {
  test('agree: the add-on imports (import on, autoImport true) or hcp-cdk does (import off, autoImport false, docs 14.2)', () => {
    expect(kinds(true, true).filter((f) => /managedcluster|klusterletaddonconfig/.test(f))).toEqual([]);
    expect(kinds(false, false).filter((f) => /managedcluster|klusterletaddonconfig/.test(f))).toEqual(['55-managedcluster-c1.yaml', '56-klusterletaddonconfig-c1_c1.yaml']);
  });

  test("fails when nobody would import: the add-on's import off, autoImport left on", () => {
    expect(problems(true, false)).toEqual([
      'delivery.autoImport (true) leaves importing the hosted clusters to the hypershift add-on, but hub/hypershift-addon turns its automatic import off (autoImportDisabled "true"); ' +
        "set autoImport: false, so that each cluster's ManagedCluster is written (docs 14.2), or turn the add-on's import on",
    ]);
  });

  test("fails when both would: the add-on's import on, autoImport false", () => {
    expect(problems(false, true)).toEqual([
      'delivery.autoImport (false) writes each hosted cluster\'s ManagedCluster, but hub/hypershift-addon turns the hypershift add-on\'s automatic import on (autoImportDisabled "false"), ' +
        "and two owners would fight over them; set autoImport: true, or turn the add-on's import off",
    ]);
  });

  test('an app that does not configure the add-on is not checked', () => {
    expect(problems(true)).toEqual([]);
    expect(problems(false)).toEqual([]);
  });
});
