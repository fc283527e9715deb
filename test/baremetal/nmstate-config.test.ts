import { HcpApp, InfraEnv, ManagementCluster, NMStateConfig, NMStateConfigOptions, SecretSource } from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { MAC_ADDRESS_RULE } from '../../lib/baremetal/mac-address';
import { synthAppOf } from '../props';
import { findObject, synthFiles, synthProblems, PRUNE_PROTECTION } from '../util';

const INTERFACE_NAME_RULE = 'must be a Linux interface name: 1-15 letters, digits, ".", "_" or "-"';

/** A static IPv4 config for eno1, as `nmstatectl` takes it. */
const CONFIG = {
  interfaces: [{ name: 'eno1', type: 'ethernet', state: 'up', ipv4: { enabled: true, dhcp: false, address: [{ ip: '192.0.2.31', 'prefix-length': 24 }] } }],
  'dns-resolver': { config: { server: ['192.0.2.1'] } },
  routes: { config: [{ destination: '0.0.0.0/0', 'next-hop-address': '192.0.2.1', 'next-hop-interface': 'eno1' }] },
};

function newInfraEnv(app = new HcpApp({ outdir: '/nonexistent' }), name = 'lab'): InfraEnv {
  return new InfraEnv(new ManagementCluster(app, 'hub'), 'lab', {
    name,
    namespace: 'hardware-inventory',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    capiProviderRole: false,
  });
}

function configOptions(options: Partial<NMStateConfigOptions> = {}): NMStateConfigOptions {
  return { interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }], config: CONFIG, ...options };
}

/** NMStateConfig `worker-9` of InfraEnv `lab`, made on its own (for a host booted from the ISO by hand). */
function newConfig(options: Partial<NMStateConfigOptions> = {}, infraEnv = newInfraEnv()): NMStateConfig {
  return new NMStateConfig(infraEnv, 'worker-9', { ...configOptions(options), infraEnv });
}

function configObject(options: Partial<NMStateConfigOptions> = {}): any {
  return findObject(synthAppOf(newConfig(options)), 'NMStateConfig');
}

function configProblems(options: Partial<NMStateConfigOptions>): string[] {
  return synthProblems((app) => newConfig(options, newInfraEnv(app)));
}

describe('NMStateConfig', () => {
  test('is agent-install.openshift.io/v1beta1, named after the construct id, in the InfraEnv namespace, ranked 65', () => {
    const config = configObject();
    expect(config.apiVersion).toBe('agent-install.openshift.io/v1beta1');
    expect(config.kind).toBe('NMStateConfig');
    expect(config.metadata.name).toBe('worker-9');
    expect(config.metadata.namespace).toBe('hardware-inventory');
    expect(config.metadata.annotations).toEqual({ 'argocd.argoproj.io/sync-wave': '44', ...PRUNE_PROTECTION });
  });

  test('is labelled with the InfraEnv, which selects it by that label', () => {
    const config = newConfig({}, newInfraEnv(undefined, 'lab-x86'));
    const objects = synthAppOf(config);
    expect(findObject(objects, 'NMStateConfig').metadata.labels).toEqual({ 'infraenvs.agent-install.openshift.io': 'lab-x86' });
    expect(findObject(objects, 'InfraEnv').spec.nmStateConfigLabelSelector).toEqual({ matchLabels: { 'infraenvs.agent-install.openshift.io': 'lab-x86' } });
  });

  test('spec.config is the nmstate document as given', () => {
    expect(configObject().spec.config).toEqual(CONFIG);
  });

  test('spec.interfaces maps each NIC name to its MAC address, in order', () => {
    const config = {
      interfaces: [
        { name: 'eno1', type: 'ethernet', state: 'up' },
        { name: 'eno2', type: 'ethernet', state: 'up' },
        { name: 'bond0', type: 'bond', state: 'up', 'link-aggregation': { mode: 'active-backup', port: ['eno1', 'eno2'] } },
      ],
    };
    const interfaces = [
      { name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' },
      { name: 'eno2', macAddress: 'AA:BB:CC:00:11:23' },
    ];
    expect(configObject({ interfaces, config }).spec).toEqual({ config, interfaces });
  });

  test('name overrides the construct id', () => {
    expect(configObject({ name: 'worker-9.lab' }).metadata.name).toBe('worker-9.lab');
    expect(newConfig({ name: 'worker-9.lab' }).configName).toBe('worker-9.lab');
  });

  test("macAddresses lists the NICs' MAC addresses as given", () => {
    const config = newConfig({
      interfaces: [
        { name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' },
        { name: 'eno2', macAddress: 'AA:BB:CC:00:11:23' },
      ],
      config: { interfaces: [{ name: 'eno1' }, { name: 'eno2' }] },
    });
    expect(config.macAddresses).toEqual(['aa:bb:cc:00:11:22', 'AA:BB:CC:00:11:23']);
  });

  test('a config without an interfaces list is not checked against the NICs', () => {
    const config = { 'dns-resolver': { config: { server: ['192.0.2.1'] } } };
    expect(configObject({ config }).spec).toEqual({ config, interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' }] });
  });

  test('is written to <chart>/<infraenv name>/', () => {
    expect(synthFiles(newConfig().node.root as HcpApp).map((f) => f.path)).toEqual([
      'hub/00-namespace-hardware-inventory.yaml',
      'hub/lab/44-nmstateconfig-hardware-inventory_worker-9.yaml',
      'hub/lab/45-infraenv-hardware-inventory_lab.yaml',
    ]);
  });

  test('snapshot of a static IPv4 config', () => {
    expect(configObject()).toMatchSnapshot();
  });

  describe('validation', () => {
    test('fails when no interfaces are given', () => {
      expect(configProblems({ interfaces: [] })).toEqual(['hub/lab/worker-9: interfaces ([]) must name at least one NIC, by which the host is recognised']);
    });

    test('fails when a MAC address is malformed', () => {
      expect(configProblems({ interfaces: [{ name: 'eno1', macAddress: 'aa:bb:cc:dd:ee' }] })).toEqual([`hub/lab/worker-9: interfaces[0].macAddress ("aa:bb:cc:dd:ee") ${MAC_ADDRESS_RULE}`]);
    });

    test('fails when a MAC address is malformed, naming its index', () => {
      expect(
        configProblems({
          interfaces: [
            { name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' },
            { name: 'eno2', macAddress: 'aabb.cc00.1123' },
          ],
          config: { interfaces: [{ name: 'eno1' }, { name: 'eno2' }] },
        }),
      ).toEqual([`hub/lab/worker-9: interfaces[1].macAddress ("aabb.cc00.1123") ${MAC_ADDRESS_RULE}`]);
    });

    test('fails when an interface name is longer than 15 characters', () => {
      const name = 'enp0s31f6-uplink';
      expect(configProblems({ interfaces: [{ name, macAddress: 'aa:bb:cc:00:11:22' }], config: { interfaces: [{ name }] } })).toEqual([
        `hub/lab/worker-9: interfaces[0].name ("${name}") ${INTERFACE_NAME_RULE}`,
      ]);
    });

    test('fails when an interface name has a character Linux does not allow', () => {
      expect(configProblems({ interfaces: [{ name: 'eth/0', macAddress: 'aa:bb:cc:00:11:22' }], config: { interfaces: [{ name: 'eth/0' }] } })).toEqual([
        `hub/lab/worker-9: interfaces[0].name ("eth/0") ${INTERFACE_NAME_RULE}`,
      ]);
    });

    test('fails when an interface name is empty', () => {
      expect(configProblems({ interfaces: [{ name: '', macAddress: 'aa:bb:cc:00:11:22' }], config: {} })).toEqual([`hub/lab/worker-9: interfaces[0].name ("") ${INTERFACE_NAME_RULE}`]);
    });

    test('fails when a static address, prefix length, route or DNS server is malformed', () => {
      const config = {
        interfaces: [
          {
            name: 'eno1',
            type: 'ethernet',
            state: 'up',
            ipv4: {
              enabled: true,
              dhcp: false,
              address: [
                { ip: '192.0.2.310', 'prefix-length': 24 },
                { ip: '192.0.2.32', 'prefix-length': 33 },
              ],
            },
            ipv6: { enabled: true, address: [{ ip: '192.0.2.33', 'prefix-length': 64 }] },
          },
        ],
        'dns-resolver': { config: { server: ['dns.example.com'] } },
        routes: { config: [{ destination: '0.0.0.0', 'next-hop-address': '192.0.2.256', 'next-hop-interface': 'eno1' }] },
      };
      expect(configProblems({ config })).toEqual([
        'hub/lab/worker-9: config.interfaces[0].ipv4.address[0].ip ("192.0.2.310") must be an IPv4 address',
        'hub/lab/worker-9: config.interfaces[0].ipv4.address[1].prefix-length (33) must be a whole number from 0 to 32',
        'hub/lab/worker-9: config.interfaces[0].ipv6.address[0].ip ("192.0.2.33") must be an IPv6 address',
        'hub/lab/worker-9: config.routes.config[0].destination ("0.0.0.0") must be a CIDR block such as 0.0.0.0/0',
        'hub/lab/worker-9: config.routes.config[0].next-hop-address ("192.0.2.256") must be an IP address',
        'hub/lab/worker-9: config.dns-resolver.config.server[0] ("dns.example.com") must be an IP address',
      ]);
    });

    test('knows the static addresses it gives the host', () => {
      expect(newConfig().staticAddresses.map((a) => [a.interface, a.ip, a.family])).toEqual([['eno1', '192.0.2.31', 4]]);
    });

    test('fails when a NIC does not appear in config.interfaces', () => {
      expect(
        configProblems({
          interfaces: [
            { name: 'eno1', macAddress: 'aa:bb:cc:00:11:22' },
            { name: 'eth1', macAddress: 'aa:bb:cc:00:11:23' },
          ],
          config: { interfaces: [{ name: 'eno1' }, { name: 'bond0' }] },
        }),
      ).toEqual(['hub/lab/worker-9: interfaces: "eth1" does not appear in config.interfaces ("eno1", "bond0"); each listed NIC must be configured']);
    });

    test('fails when the name is not a DNS-1123 subdomain', () => {
      expect(configProblems({ name: 'Worker_9' })).toEqual([`hub/lab/worker-9: name ("Worker_9") ${DNS1123_SUBDOMAIN_RULE}`]);
    });

    test('fails with every problem at once', () => {
      expect(
        configProblems({
          name: 'Worker_9',
          interfaces: [{ name: 'eth1', macAddress: 'aa:bb' }],
        }),
      ).toEqual([
        `hub/lab/worker-9: name ("Worker_9") ${DNS1123_SUBDOMAIN_RULE}`,
        `hub/lab/worker-9: interfaces[0].macAddress ("aa:bb") ${MAC_ADDRESS_RULE}`,
        'hub/lab/worker-9: interfaces: "eth1" does not appear in config.interfaces ("eno1"); each listed NIC must be configured',
      ]);
    });
  });
});
