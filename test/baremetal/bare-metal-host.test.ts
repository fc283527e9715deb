import {
  allowHostsWithoutCluster,
  AutomatedCleaningMode,
  BareMetalHost,
  BareMetalHostOptions,
  BMC_SCHEMES,
  BmcCredentials,
  BootMode,
  HcpApp,
  HostRole,
  InfraEnv,
  InfraEnvProps,
  ManagementCluster,
  SecretSource,
} from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { MAC_ADDRESS_RULE } from '../../lib/baremetal/mac-address';
import { synthAppOf } from '../props';
import { findObject, synthFiles, synthProblems, PRUNE_PROTECTION } from '../util';

const BMC_ADDRESS = 'redfish-virtualmedia://192.0.2.20/redfish/v1/Systems/1';
const IGNITION = '{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/motd","contents":{"source":"data:,worker"}}]}}';
const SCHEMES_NOTE = BMC_SCHEMES.join(', ');

function newInfraEnv(props: Partial<InfraEnvProps> = {}, app = new HcpApp({ outdir: '/nonexistent' })): InfraEnv {
  const hub = new ManagementCluster(app, 'hub');
  // The InfraEnv and its hosts on their own, without a cluster that takes their Agents.
  allowHostsWithoutCluster(hub, { reason: 'an inventory under test' });
  return new InfraEnv(hub, 'lab', {
    namespace: 'hardware-inventory',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    capiProviderRole: false,
    ...props,
  });
}

/** Valid options for host `worker-0`, varied by `options`. */
function hostOptions(options: Partial<BareMetalHostOptions> = {}): BareMetalHostOptions {
  return {
    bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') },
    bootMacAddress: 'aa:bb:cc:00:11:22',
    ...options,
  };
}

function newHost(options: Partial<BareMetalHostOptions> = {}, infraEnvProps: Partial<InfraEnvProps> = {}): BareMetalHost {
  return newInfraEnv(infraEnvProps).addHost('worker-0', hostOptions(options));
}

function hostObject(options: Partial<BareMetalHostOptions> = {}): any {
  return findObject(synthAppOf(newHost(options)), 'BareMetalHost');
}

function hostProblems(options: Partial<BareMetalHostOptions>): string[] {
  return synthProblems((app) => newInfraEnv({}, app).addHost('worker-0', hostOptions(options)));
}

/** Problems of host worker-0 with this BMC address. */
function bmcProblems(address: string): string[] {
  return hostProblems({ bmc: { address, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') } });
}

const SECRET_KINDS = ['Secret', 'ExternalSecret', 'SealedSecret'];

describe('BareMetalHost', () => {
  describe('metadata', () => {
    test('is metal3.io/v1alpha1, named after the construct id, in the InfraEnv namespace, ranked 80', () => {
      const host = hostObject();
      expect(host.apiVersion).toBe('metal3.io/v1alpha1');
      expect(host.kind).toBe('BareMetalHost');
      expect(host.metadata.name).toBe('worker-0');
      expect(host.metadata.namespace).toBe('hardware-inventory');
      expect(host.metadata.annotations['argocd.argoproj.io/sync-wave']).toBe('46');
    });

    test('is labelled with its InfraEnv', () => {
      expect(findObject(synthAppOf(newHost({}, { name: 'lab-x86' })), 'BareMetalHost').metadata.labels).toEqual({
        'infraenvs.agent-install.openshift.io': 'lab-x86',
      });
    });

    test('by default, only disables Metal3 inspection', () => {
      expect(hostObject().metadata.annotations).toEqual({
        'inspect.metal3.io': 'disabled',
        'argocd.argoproj.io/sync-wave': '46',
        ...PRUNE_PROTECTION,
      });
    });

    test('inspect: true leaves inspection on', () => {
      expect(hostObject({ inspect: true }).metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '46', ...PRUNE_PROTECTION });
    });

    test('hostname is the bmac hostname annotation', () => {
      expect(hostObject({ hostname: 'worker-0.lab.example.com' }).metadata.annotations['bmac.agent-install.openshift.io/hostname']).toBe('worker-0.lab.example.com');
    });

    test('role is the bmac role annotation', () => {
      expect(hostObject({ role: HostRole.WORKER }).metadata.annotations['bmac.agent-install.openshift.io/role']).toBe('worker');
      expect(hostObject({ role: HostRole.AUTO_ASSIGN }).metadata.annotations['bmac.agent-install.openshift.io/role']).toBe('auto-assign');
    });

    test('installerArgs are the bmac installer-args annotation, as JSON array text', () => {
      const annotations = hostObject({ installerArgs: ['--append-karg', 'ip=eth0:dhcp', '--save-partlabel', 'data*'] }).metadata.annotations;
      expect(annotations['bmac.agent-install.openshift.io/installer-args']).toBe('["--append-karg","ip=eth0:dhcp","--save-partlabel","data*"]');
      expect(JSON.parse(annotations['bmac.agent-install.openshift.io/installer-args'])).toEqual(['--append-karg', 'ip=eth0:dhcp', '--save-partlabel', 'data*']);
    });

    test('ignitionConfigOverrides is the bmac ignition-config-overrides annotation, as given', () => {
      expect(hostObject({ ignitionConfigOverrides: IGNITION }).metadata.annotations['bmac.agent-install.openshift.io/ignition-config-overrides']).toBe(IGNITION);
    });

    test('name overrides the construct id', () => {
      const host = newInfraEnv().addHost('first', hostOptions({ name: 'worker-0' }));
      expect(host.hostName).toBe('worker-0');
      expect(findObject(synthAppOf(host), 'BareMetalHost').metadata.name).toBe('worker-0');
    });
  });

  describe('spec', () => {
    test('by default: online, no automated cleaning, the BMC and the boot MAC address', () => {
      expect(hostObject().spec).toEqual({
        online: true,
        automatedCleaningMode: 'disabled',
        bmc: { address: BMC_ADDRESS, credentialsName: 'worker-0-bmc' },
        bootMACAddress: 'aa:bb:cc:00:11:22',
      });
    });

    test('online: false', () => {
      expect(hostObject({ online: false }).spec.online).toBe(false);
    });

    test('automatedCleaningMode', () => {
      expect(hostObject({ automatedCleaningMode: AutomatedCleaningMode.METADATA }).spec.automatedCleaningMode).toBe('metadata');
    });

    test('bmc.disableCertificateVerification', () => {
      const bmc = hostObject({ bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc'), disableCertificateVerification: true } }).spec.bmc;
      expect(bmc).toEqual({ address: BMC_ADDRESS, credentialsName: 'worker-0-bmc', disableCertificateVerification: true });
    });

    test('bootMACAddress is written as given', () => {
      expect(hostObject({ bootMacAddress: 'AA:BB:CC:00:11:22' }).spec.bootMACAddress).toBe('AA:BB:CC:00:11:22');
    });

    test('bootMode', () => {
      expect(hostObject({ bootMode: BootMode.UEFI_SECURE_BOOT }).spec.bootMode).toBe('UEFISecureBoot');
      expect(hostObject({ bootMode: BootMode.LEGACY }).spec.bootMode).toBe('legacy');
      expect(hostObject({ bootMode: BootMode.UEFI }).spec.bootMode).toBe('UEFI');
    });

    test('rootDeviceHints', () => {
      const hints = {
        deviceName: '/dev/disk/by-path/pci-0000:00:17.0-ata-1',
        hctl: '0:0:0:0',
        model: 'SAMSUNG MZ7LH480',
        vendor: 'ATA',
        serialNumber: 'S45PNA0M',
        minSizeGigabytes: 200,
        wwn: '0x5002538e00000000',
        rotational: false,
      };
      expect(hostObject({ rootDeviceHints: hints }).spec.rootDeviceHints).toEqual(hints);
    });

    test('hardwareProfile', () => {
      expect(hostObject({ hardwareProfile: 'libvirt' }).spec.hardwareProfile).toBe('libvirt');
    });
  });

  describe('BMC credentials', () => {
    test('fromExistingSecret references the Secret and writes none', () => {
      const objects = synthAppOf(newHost({ bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromExistingSecret('r640-idrac') } }));
      expect(findObject(objects, 'BareMetalHost').spec.bmc.credentialsName).toBe('r640-idrac');
      expect(objects.filter((o) => SECRET_KINDS.includes(o.kind))).toEqual([]);
    });

    test('fromInlineValues writes Secret <host>-bmc-secret with the base64 user name and password', () => {
      const objects = synthAppOf(newHost({ bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromInlineValues('admin', 'calvin', { allowSecretInOutput: true }) } }));
      expect(findObject(objects, 'BareMetalHost').spec.bmc.credentialsName).toBe('worker-0-bmc-secret');
      const secret = findObject(objects, 'Secret');
      expect(secret).toEqual({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'worker-0-bmc-secret', namespace: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } },
        type: 'Opaque',
        data: { username: 'YWRtaW4=', password: 'Y2Fsdmlu' },
      });
      expect(Buffer.from(secret.data.username, 'base64').toString()).toBe('admin');
      expect(Buffer.from(secret.data.password, 'base64').toString()).toBe('calvin');
    });

    test('fromInlineValues names the Secret after the host name, not the construct id', () => {
      const host = newInfraEnv().addHost(
        'first',
        hostOptions({ name: 'worker-7', bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromInlineValues('admin', 'calvin', { allowSecretInOutput: true }) } }),
      );
      const objects = synthAppOf(host);
      expect(findObject(objects, 'Secret').metadata.name).toBe('worker-7-bmc-secret');
      expect(findObject(objects, 'BareMetalHost').spec.bmc.credentialsName).toBe('worker-7-bmc-secret');
    });

    test('fromExternalSecret writes an ExternalSecret with a data entry for the user name and one for the password', () => {
      const objects = synthAppOf(
        newHost({
          bmc: {
            address: BMC_ADDRESS,
            credentials: BmcCredentials.fromExternalSecret({
              storeName: 'vault',
              username: { remoteKey: 'lab/bmc/worker-0', remoteProperty: 'username' },
              password: { remoteKey: 'lab/bmc/worker-0', remoteProperty: 'password' },
            }),
          },
        }),
      );
      expect(findObject(objects, 'BareMetalHost').spec.bmc.credentialsName).toBe('worker-0-bmc-secret');
      expect(findObject(objects, 'ExternalSecret')).toEqual({
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: { name: 'worker-0-bmc-secret', namespace: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } },
        spec: {
          refreshInterval: '1h',
          secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
          target: { name: 'worker-0-bmc-secret', creationPolicy: 'Owner', template: { type: 'Opaque' } },
          data: [
            { secretKey: 'username', remoteRef: { key: 'lab/bmc/worker-0', property: 'username' } },
            { secretKey: 'password', remoteRef: { key: 'lab/bmc/worker-0', property: 'password' } },
          ],
        },
      });
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    });

    test('fromExternalSecret takes the store kind, the refresh interval and whole remote values', () => {
      const spec = findObject(
        synthAppOf(
          newHost({
            bmc: {
              address: BMC_ADDRESS,
              credentials: BmcCredentials.fromExternalSecret({
                storeName: 'lab-store',
                storeKind: 'SecretStore',
                refreshInterval: '15m',
                username: { remoteKey: 'bmc-user' },
                password: { remoteKey: 'bmc-password' },
              }),
            },
          }),
        ),
        'ExternalSecret',
      ).spec;
      expect(spec.secretStoreRef).toEqual({ name: 'lab-store', kind: 'SecretStore' });
      expect(spec.refreshInterval).toBe('15m');
      expect(spec.data).toEqual([
        { secretKey: 'username', remoteRef: { key: 'bmc-user' } },
        { secretKey: 'password', remoteRef: { key: 'bmc-password' } },
      ]);
    });

    test("fails when fromExternalSecret's refresh interval is in words or, from JavaScript, a number: the operator parses a Go duration", () => {
      const external = (refreshInterval: unknown) =>
        BmcCredentials.fromExternalSecret({
          storeName: 'vault',
          refreshInterval: refreshInterval as string,
          username: { remoteKey: 'u' },
          password: { remoteKey: 'p' },
        });
      expect(hostProblems({ bmc: { address: BMC_ADDRESS, credentials: external('every hour') } })).toEqual([
        'hub/lab/worker-0: bmc.credentials.refreshInterval ("every hour") must be a Go duration such as 1h, 15m or 1h30m: numbers with a unit ns, us, ms, s, m or h, no spaces',
      ]);
      expect(hostProblems({ bmc: { address: BMC_ADDRESS, credentials: external(3600) } })).toEqual([
        'hub/lab/worker-0: bmc.credentials.refreshInterval (3600) must be a Go duration such as 1h, 15m or 1h30m: numbers with a unit ns, us, ms, s, m or h, no spaces',
      ]);
    });

    test('fromSealedSecret writes a SealedSecret holding both encrypted values', () => {
      const objects = synthAppOf(
        newHost({ bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromSealedSecret({ username: 'AgBy3i4OJSWK+PiTySYZZA==', password: 'AgCtr8yjqw3mBH8b0AkE2A==' }) } }),
      );
      expect(findObject(objects, 'BareMetalHost').spec.bmc.credentialsName).toBe('worker-0-bmc-secret');
      expect(findObject(objects, 'SealedSecret')).toEqual({
        apiVersion: 'bitnami.com/v1alpha1',
        kind: 'SealedSecret',
        metadata: { name: 'worker-0-bmc-secret', namespace: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } },
        spec: {
          encryptedData: { username: 'AgBy3i4OJSWK+PiTySYZZA==', password: 'AgCtr8yjqw3mBH8b0AkE2A==' },
          template: { type: 'Opaque', metadata: { name: 'worker-0-bmc-secret', namespace: 'hardware-inventory' } },
        },
      });
    });

    test('fromInlineValues without the opt-in is a problem of the host, with its path, among its others', () => {
      expect(hostProblems({ bmc: { address: 'redfish://192.0.2.20/redfish/v1/Systems/1', credentials: BmcCredentials.fromInlineValues('admin', 'calvin', {} as any) } })).toEqual([
        'hub/lab/worker-0: bmc.credentials.allowSecretInOutput (undefined) must be true to write a BMC password into the output (BmcCredentials.fromInlineValues); use fromExistingSecret, fromExternalSecret or fromSealedSecret otherwise',
      ]);
    });

    test.each([
      [{ allowSecretInOutput: 'yes' }, '"yes"'],
      [undefined, 'undefined'],
    ])('fromInlineValues fails when the opt-in is %j', (options, shown) => {
      const found = hostProblems({ bmc: { address: 'redfish://192.0.2.20/redfish/v1/Systems/1', credentials: BmcCredentials.fromInlineValues('admin', 'calvin', options as any) } });
      expect(found).toEqual([expect.stringContaining(`bmc.credentials.allowSecretInOutput (${shown}) must be true`)]);
      expect(found.join().includes('calvin')).toBe(false);
    });
  });

  describe('BMC address', () => {
    test.each(BMC_SCHEMES.map((scheme) => [scheme]))('accepts scheme %s', (scheme) => {
      const address = `${scheme}://192.0.2.20:8000/redfish/v1/Systems/1`;
      const host = newHost({ bmc: { address, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') } });
      expect(findObject(synthAppOf(host), 'BareMetalHost').spec.bmc.address).toBe(address);
    });

    test('accepts an IPv6 host in brackets with a port', () => {
      const address = 'redfish-virtualmedia://[fd00:1101::1]:8000/redfish/v1/Systems/1';
      const host = newHost({ bmc: { address, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') } });
      expect(findObject(synthAppOf(host), 'BareMetalHost').spec.bmc.address).toBe(address);
    });

    test.each([
      ['a DNS name, lower-cased', 'idrac-virtualmedia://BMC-07.Lab.Example.com/redfish/v1/Systems/System.Embedded.1', 'bmc-07.lab.example.com/redfish/v1/Systems/System.Embedded.1'],
      ['an IPv4 address with a port and no path', 'ipmi://192.0.2.20:623', '192.0.2.20:623'],
    ])('accepts %s and keys the endpoint by host, port and path', (_what, address, endpoint) => {
      const host = newHost({ bmc: { address, credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') } });
      expect(host.bmcEndpoint).toBe(endpoint);
      expect(findObject(synthAppOf(host), 'BareMetalHost').spec.bmc.address).toBe(address);
    });
  });

  describe('network config', () => {
    test('becomes an NMStateConfig named like the host, labelled with the InfraEnv', () => {
      const config = {
        interfaces: [{ name: 'eno1', type: 'ethernet', state: 'up', ipv4: { enabled: true, dhcp: false, address: [{ ip: '192.0.2.31', 'prefix-length': 24 }] } }],
        'dns-resolver': { config: { server: ['192.0.2.1'] } },
        routes: { config: [{ destination: '0.0.0.0/0', 'next-hop-address': '192.0.2.1', 'next-hop-interface': 'eno1' }] },
      };
      const objects = synthAppOf(newHost({ networkConfig: { interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }], config } }));
      expect(findObject(objects, 'NMStateConfig')).toEqual({
        apiVersion: 'agent-install.openshift.io/v1beta1',
        kind: 'NMStateConfig',
        metadata: {
          name: 'worker-0',
          namespace: 'hardware-inventory',
          labels: { 'infraenvs.agent-install.openshift.io': 'lab' },
          annotations: { 'argocd.argoproj.io/sync-wave': '44', ...PRUNE_PROTECTION },
        },
        spec: { config, interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }] },
      });
      expect(findObject(objects, 'InfraEnv').spec.nmStateConfigLabelSelector).toEqual({ matchLabels: { 'infraenvs.agent-install.openshift.io': 'lab' } });
    });

    test('without one, no NMStateConfig is written', () => {
      expect(synthAppOf(newHost()).filter((o) => o.kind === 'NMStateConfig')).toEqual([]);
    });

    test('fails with the NMStateConfig path when the network config is invalid', () => {
      expect(hostProblems({ networkConfig: { interfaces: [], config: {} } })).toEqual(['hub/lab/worker-0/NetworkConfig: interfaces ([]) must name at least one NIC, by which the host is recognised']);
    });
  });

  describe('what other constructs read', () => {
    test('agentLabels: the InfraEnv agent labels, the InfraEnv label and the bmh label', () => {
      const host = newHost({}, { agentLabels: { 'hcp.example.com/pool': 'vcluster2', rack: 'r1' } });
      expect(host.agentLabels).toEqual({
        'hcp.example.com/pool': 'vcluster2',
        rack: 'r1',
        'infraenvs.agent-install.openshift.io': 'lab',
        'agent-install.openshift.io/bmh': 'worker-0',
      });
    });

    test('agentLabels without InfraEnv agent labels', () => {
      expect(newHost().agentLabels).toEqual({
        'infraenvs.agent-install.openshift.io': 'lab',
        'agent-install.openshift.io/bmh': 'worker-0',
      });
    });

    test("bootMacAddress is lower case, namespace and infraEnv are the InfraEnv's", () => {
      const infraEnv = newInfraEnv();
      const host = infraEnv.addHost('worker-0', hostOptions({ bootMacAddress: 'AA:BB:CC:00:11:2F' }));
      expect(host.bootMacAddress).toBe('aa:bb:cc:00:11:2f');
      expect(host.namespace).toBe('hardware-inventory');
      expect(host.infraEnv).toBe(infraEnv);
    });

    test('the InfraEnv lists its hosts in the order added', () => {
      const infraEnv = newInfraEnv();
      const first = infraEnv.addHost('worker-0', hostOptions());
      const second = infraEnv.addHost(
        'worker-1',
        hostOptions({ bootMacAddress: 'aa:bb:cc:00:11:23', bmc: { address: 'ipmi://192.0.2.21', credentials: BmcCredentials.fromExistingSecret('worker-1-bmc') } }),
      );
      expect(infraEnv.hosts).toEqual([first, second]);
    });

    test('is written to <chart>/<infraenv name>/', () => {
      const host = newHost({ bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromInlineValues('admin', 'calvin', { allowSecretInOutput: true }) } });
      expect(synthFiles(host.node.root as HcpApp).map((f) => f.path)).toEqual([
        'hub/00-namespace-hardware-inventory.yaml',
        'hub/lab/20-secret-hardware-inventory_worker-0-bmc-secret.yaml',
        'hub/lab/45-infraenv-hardware-inventory_lab.yaml',
        'hub/lab/46-baremetalhost-hardware-inventory_worker-0.yaml',
      ]);
    });
  });

  test('snapshot of a fully specified host', () => {
    const host = newHost({
      bmc: { address: BMC_ADDRESS, credentials: BmcCredentials.fromInlineValues('admin', 'calvin', { allowSecretInOutput: true }), disableCertificateVerification: true },
      bootMacAddress: 'aa:bb:cc:00:11:22',
      online: true,
      automatedCleaningMode: AutomatedCleaningMode.METADATA,
      rootDeviceHints: { deviceName: '/dev/sda', minSizeGigabytes: 120 },
      bootMode: BootMode.UEFI,
      hostname: 'worker-0.lab.example.com',
      role: HostRole.WORKER,
      installerArgs: ['--append-karg', 'nameserver=192.0.2.1'],
      ignitionConfigOverrides: IGNITION,
      networkConfig: {
        interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }],
        config: { interfaces: [{ name: 'eno1', type: 'ethernet', state: 'up', ipv4: { enabled: true, dhcp: true } }] },
      },
    });
    expect(synthAppOf(host).filter((o) => ['BareMetalHost', 'Secret', 'NMStateConfig'].includes(o.kind))).toMatchSnapshot();
  });

  describe('validation', () => {
    test('fails when the boot MAC address has five octets', () => {
      expect(hostProblems({ bootMacAddress: 'aa:bb:cc:dd:ee' })).toEqual([`hub/lab/worker-0: bootMacAddress ("aa:bb:cc:dd:ee") ${MAC_ADDRESS_RULE}`]);
    });

    test('fails when the boot MAC address uses dashes', () => {
      expect(hostProblems({ bootMacAddress: 'aa-bb-cc-dd-ee-ff' })).toEqual([`hub/lab/worker-0: bootMacAddress ("aa-bb-cc-dd-ee-ff") ${MAC_ADDRESS_RULE}`]);
    });

    test('fails when the BMC address uses a scheme baremetal-operator does not know', () => {
      expect(bmcProblems('http://192.0.2.20/redfish/v1/Systems/1')).toEqual([
        `hub/lab/worker-0: bmc.address ("http://192.0.2.20/redfish/v1/Systems/1") uses scheme "http", which baremetal-operator does not know; use one of ${SCHEMES_NOTE}`,
      ]);
    });

    test('fails when the BMC address has no scheme', () => {
      expect(bmcProblems('192.0.2.20')).toEqual([
        'hub/lab/worker-0: bmc.address ("192.0.2.20") must start with a driver scheme (ipmi, libvirt, redfish, redfish+http, redfish+https, redfish-virtualmedia, ...), e.g. redfish-virtualmedia://192.0.2.10/redfish/v1/Systems/1',
      ]);
    });

    test('fails when the BMC address has an IPv6 host without brackets', () => {
      expect(bmcProblems('redfish://fd00:1101::1/redfish/v1/Systems/1')).toEqual([
        'hub/lab/worker-0: bmc.address ("redfish://fd00:1101::1/redfish/v1/Systems/1") has an IPv6 host without brackets; write it as [address]',
      ]);
    });

    test('fails when the BMC address has something other than IPv6 in brackets', () => {
      expect(bmcProblems('redfish://[192.0.2.20]/redfish/v1/Systems/1')).toEqual([
        'hub/lab/worker-0: bmc.address ("redfish://[192.0.2.20]/redfish/v1/Systems/1") has "[192.0.2.20]" as host, which is no IPv6 address (brackets are for IPv6 only)',
      ]);
    });

    test('fails when the BMC host is neither an IP address nor a DNS name', () => {
      expect(bmcProblems('redfish://bmc_07.lab/redfish/v1/Systems/1')).toEqual([
        'hub/lab/worker-0: bmc.address ("redfish://bmc_07.lab/redfish/v1/Systems/1") has "bmc_07.lab" as host, which is neither an IP address nor a DNS name',
      ]);
    });

    test('fails when the BMC address has no host', () => {
      expect(bmcProblems('redfish:///redfish/v1/Systems/1')).toEqual(['hub/lab/worker-0: bmc.address ("redfish:///redfish/v1/Systems/1") has no host']);
    });

    test('fails when the BMC port is 0', () => {
      expect(bmcProblems('ipmi://192.0.2.20:0')).toEqual(['hub/lab/worker-0: bmc.address ("ipmi://192.0.2.20:0") has port 0, outside 1-65535']);
    });

    test('fails when the BMC port is above 65535', () => {
      expect(bmcProblems('redfish://[fd00::1]:65536/redfish/v1/Systems/1')).toEqual([
        'hub/lab/worker-0: bmc.address ("redfish://[fd00::1]:65536/redfish/v1/Systems/1") has port 65536, outside 1-65535',
      ]);
    });

    test('fails when the BMC password is given as a plain string', () => {
      expect(hostProblems({ bmc: { address: BMC_ADDRESS, credentials: 'calvin' as any } })).toEqual([
        'hub/lab/worker-0: bmc.credentials (a string) must be BmcCredentials.fromExistingSecret(...), fromExternalSecret(...), fromSealedSecret(...) or fromInlineValues(..., { allowSecretInOutput: true }); a plain password would end up in git',
      ]);
    });

    test('fails when the hostname is not a DNS-1123 subdomain', () => {
      expect(hostProblems({ hostname: 'Worker_0' })).toEqual([`hub/lab/worker-0: hostname ("Worker_0") ${DNS1123_SUBDOMAIN_RULE}`]);
    });

    test('fails when ignitionConfigOverrides is not JSON', () => {
      expect(hostProblems({ ignitionConfigOverrides: 'variant: fcos' })).toEqual([
        'hub/lab/worker-0: ignitionConfigOverrides ("variant: fcos") must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})',
      ]);
    });

    test('fails when rootDeviceHints.minSizeGigabytes is 0', () => {
      expect(hostProblems({ rootDeviceHints: { minSizeGigabytes: 0 } })).toEqual(['hub/lab/worker-0: rootDeviceHints.minSizeGigabytes (0) must be a whole number > 0']);
    });

    test('fails when rootDeviceHints.minSizeGigabytes is fractional', () => {
      expect(hostProblems({ rootDeviceHints: { minSizeGigabytes: 1.5 } })).toEqual(['hub/lab/worker-0: rootDeviceHints.minSizeGigabytes (1.5) must be a whole number > 0']);
    });

    test('fails when the name is not a DNS-1123 subdomain', () => {
      expect(hostProblems({ name: 'Worker_0' })).toEqual([`hub/lab/worker-0: name ("Worker_0") ${DNS1123_SUBDOMAIN_RULE}`]);
    });

    test('fails when the name is longer than a label value', () => {
      const name = `worker-${'0'.repeat(60)}`;
      expect(hostProblems({ name })).toEqual([`hub/lab/worker-0: name ("${name}") must also be a label value (at most 63 characters): its Agent is labelled agent-install.openshift.io/bmh=<name>`]);
    });

    test('fails with every problem at once', () => {
      expect(
        hostProblems({
          bootMacAddress: 'aa:bb:cc:dd:ee',
          bmc: { address: 'http://192.0.2.20', credentials: 'calvin' as any },
          hostname: 'Worker_0',
          rootDeviceHints: { minSizeGigabytes: 0 },
        }),
      ).toEqual([
        `hub/lab/worker-0: bootMacAddress ("aa:bb:cc:dd:ee") ${MAC_ADDRESS_RULE}`,
        `hub/lab/worker-0: bmc.address ("http://192.0.2.20") uses scheme "http", which baremetal-operator does not know; use one of ${SCHEMES_NOTE}`,
        'hub/lab/worker-0: bmc.credentials (a string) must be BmcCredentials.fromExistingSecret(...), fromExternalSecret(...), fromSealedSecret(...) or fromInlineValues(..., { allowSecretInOutput: true }); a plain password would end up in git',
        `hub/lab/worker-0: hostname ("Worker_0") ${DNS1123_SUBDOMAIN_RULE}`,
        'hub/lab/worker-0: rootDeviceHints.minSizeGigabytes (0) must be a whole number > 0',
      ]);
    });
  });
});

describe('review findings', () => {
  test('fails on credentials that are a plain object without echoing them', () => {
    const problems = synthProblems((app) => {
      const env = newInfraEnv({}, app);
      env.addHost('worker-0', { bmc: { address: 'ipmi://192.0.2.1', credentials: { username: 'admin', password: 'calvin' } as any }, bootMacAddress: 'aa:bb:cc:00:00:01' });
    });
    expect(problems.join('\n')).not.toContain('calvin');
    expect(problems).toEqual([expect.stringContaining('hub/lab/worker-0: bmc.credentials (an object) must be BmcCredentials.fromExistingSecret(...)')]);
  });

  test.each(['null', '[1,2]', '"text"'])('fails when ignitionConfigOverrides is JSON but no object: %s', (text) => {
    const problems = synthProblems((app) => {
      const env = newInfraEnv({}, app);
      env.addHost('worker-0', { bmc: { address: 'ipmi://192.0.2.1', credentials: BmcCredentials.fromExistingSecret('bmc') }, bootMacAddress: 'aa:bb:cc:00:00:01', ignitionConfigOverrides: text });
    });
    expect(problems).toEqual([`hub/lab/worker-0: ignitionConfigOverrides (${JSON.stringify(text)}) must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})`]);
  });
});

test('fails when the BMC credentials Secret is not a Secret name', () => {
  expect(hostProblems({ bmc: { address: 'ipmi://192.0.2.11', credentials: BmcCredentials.fromExistingSecret('Worker 0 BMC') } })).toEqual([
    `hub/lab/worker-0: bmc.credentials Secret name ("Worker 0 BMC") must name a Secret: ${DNS1123_SUBDOMAIN_RULE}`,
  ]);
});
