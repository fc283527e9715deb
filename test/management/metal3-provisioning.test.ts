import { allowHostsWithoutCluster, BmcCredentials, HcpApp, InfraEnv, ManagementCluster, Metal3Provisioning, Metal3ProvisioningProps, ProvisioningNetwork, SecretSource } from '../../lib';
import { findObject, PRUNE_PROTECTION, synthFiles, synthObjects, synthProblems } from '../util';

function newApp(): HcpApp {
  return new HcpApp({ outdir: '/nonexistent' });
}

/** The Provisioning object of `hub/provisioning`. */
function provisioning(props: Metal3ProvisioningProps = {}, configure?: (p: Metal3Provisioning) => void): any {
  const app = newApp();
  const construct = new Metal3Provisioning(new ManagementCluster(app, 'hub'), 'provisioning', props);
  configure?.(construct);
  return findObject(synthObjects(app), 'Provisioning');
}

/** An InfraEnv in `namespace` with one BareMetalHost, worker-0, with its own MAC and BMC. */
function hostIn(hub: ManagementCluster, namespace: string): void {
  const n = hub.node.findAll().filter((c) => c instanceof InfraEnv).length;
  allowHostsWithoutCluster(hub, { reason: 'hosts Metal3 watches, for no cluster' });
  new InfraEnv(hub, `lab-${namespace}`, { namespace, pullSecret: SecretSource.fromExistingSecret('pull-secret'), capiProviderRole: false }).addHost('worker-0', {
    bmc: { address: `redfish-virtualmedia://192.0.2.2${n}/redfish/v1/Systems/1`, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') },
    bootMacAddress: `aa:bb:cc:00:00:0${n}`,
  });
}

/** The problems reported for `hub/provisioning`, with `extra` declared beside it. */
function problemsOf(props: Metal3ProvisioningProps, extra?: (hub: ManagementCluster) => void): string[] {
  return synthProblems((app) => {
    const hub = new ManagementCluster(app, 'hub');
    new Metal3Provisioning(hub, 'provisioning', props);
    extra?.(hub);
  });
}

describe('Metal3Provisioning defaults', () => {
  test('is the cluster-scoped provisioning-configuration, among the operators', () => {
    const app = newApp();
    new Metal3Provisioning(new ManagementCluster(app, 'hub'), 'provisioning');
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/05-provisioning-provisioning-configuration.yaml']);
    const object = findObject(synthObjects(app), 'Provisioning');
    expect(object.apiVersion).toBe('metal3.io/v1alpha1');
    expect(object.metadata).toEqual({ name: 'provisioning-configuration', annotations: { 'argocd.argoproj.io/sync-wave': '5', ...PRUNE_PROTECTION } });
  });

  test('watches all namespaces with the provisioning network disabled, and owns no other field (AG-09)', () => {
    expect(provisioning().spec).toEqual({ provisioningNetwork: 'Disabled', watchAllNamespaces: true });
  });

  test('lets BareMetalHosts live outside openshift-machine-api', () => {
    expect(problemsOf({}, (hub) => hostIn(hub, 'hardware-inventory'))).toEqual([]);
  });
});

describe('Metal3Provisioning props', () => {
  test('writes the provisioning network given', () => {
    expect(provisioning({ provisioningNetwork: ProvisioningNetwork.MANAGED }).spec.provisioningNetwork).toBe('Managed');
  });

  test('may leave other namespaces alone when every host is in openshift-machine-api', () => {
    expect(provisioning({ watchAllNamespaces: false }).spec.watchAllNamespaces).toBe(false);
    expect(problemsOf({ watchAllNamespaces: false }, (hub) => hostIn(hub, 'openshift-machine-api'))).toEqual([]);
  });

  test('takes JSON overrides for fields without a prop', () => {
    expect(provisioning({}, (p) => p.addOverride('spec.disableVirtualMediaTLS', true)).spec.disableVirtualMediaTLS).toBe(true);
  });
});

describe('Metal3Provisioning rules', () => {
  test('fails when the provisioning network is not one the CRD allows', () => {
    expect(problemsOf({ provisioningNetwork: 'Off' as ProvisioningNetwork })).toEqual(['hub/provisioning: provisioningNetwork ("Off") must be one of Managed, Unmanaged, Disabled']);
  });

  test('fails when Metal3 would not watch the namespaces of the BareMetalHosts (AG-09)', () => {
    expect(
      problemsOf({ watchAllNamespaces: false }, (hub) => {
        hostIn(hub, 'hardware-inventory');
        hostIn(hub, 'openshift-machine-api');
      }),
    ).toEqual([
      'hub/provisioning: watchAllNamespaces (false) leaves BareMetalHosts outside openshift-machine-api unreconciled, and this management cluster declares ' +
        'hub/lab-hardware-inventory/worker-0 (namespace hardware-inventory); set watchAllNamespaces to true',
    ]);
  });
});

test('Metal3Provisioning snapshot', () => {
  expect(provisioning()).toMatchSnapshot();
});
