import * as YAML from 'yaml';
import { HcpApp, HostedCluster, KernelType, MachineConfiguration, NodePerformanceProfile, NodeTuning, SecretSource, UpgradeType } from '../../lib';
import { clusterProps, newCluster } from '../props';
import { findObject, synthFiles, synthProblems } from '../util';

function synth(build: (cluster: HostedCluster) => void): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  build(newCluster({ pullSecret: SecretSource.fromExistingSecret('pull-secret') }, app));
  return synthFiles(app).map((f) => YAML.parse(f.text));
}

function problems(build: (cluster: HostedCluster) => void): string[] {
  return synthProblems((app) => build(newCluster({}, app)));
}

/** The documents of a ConfigMap key, parsed. */
function embedded(objects: any[], name: string, key: string): any[] {
  return YAML.parseAllDocuments(findObject(objects, 'ConfigMap', name).data[key]).map((d) => d.toJSON());
}

const TUNED_1_PROFILE = '[main]\nsummary=Custom OpenShift profile\ninclude=openshift-node\n[sysctl]\nvm.dirty_ratio="55"\n';

describe('MachineConfiguration', () => {
  test('reproduces docs 9.1, "Configuring node pools for hosted control planes": a MachineConfig in a ConfigMap that spec.config references', () => {
    const objects = synth((cluster) => {
      const config = new MachineConfiguration(cluster, 'chrony', {
        name: 'chrony-config',
        files: [{ path: '/etc/chrony.conf', contents: 'server ntp.example.com iburst\n', mode: 0o644 }],
      });
      cluster.addNodePool('workers', { name: 'nodepool-1', machineConfigs: [config] });
    });
    const configMap = findObject(objects, 'ConfigMap', 'chrony-config');
    expect(configMap.metadata).toEqual(expect.objectContaining({ name: 'chrony-config', namespace: 'clusters' }));
    expect(Object.keys(configMap.data)).toEqual(['config']);
    expect(embedded(objects, 'chrony-config', 'config')).toEqual([
      {
        apiVersion: 'machineconfiguration.openshift.io/v1',
        kind: 'MachineConfig',
        metadata: { name: 'chrony-config', labels: { 'machineconfiguration.openshift.io/role': 'worker' } },
        spec: {
          config: {
            ignition: { version: '3.2.0' },
            storage: {
              files: [
                {
                  path: '/etc/chrony.conf',
                  mode: 420,
                  overwrite: true,
                  contents: { source: `data:text/plain;charset=utf-8;base64,${Buffer.from('server ntp.example.com iburst\n').toString('base64')}` },
                },
              ],
            },
          },
        },
      },
    ]);
    expect(findObject(objects, 'NodePool', 'nodepool-1').spec.config).toEqual([{ name: 'chrony-config' }]);
  });

  test("keeps the docs' two names apart: ConfigMap chrony-config, which the NodePool references, and MachineConfig 99-worker-chrony", () => {
    const objects = synth((cluster) => {
      const config = new MachineConfiguration(cluster, 'chrony', {
        configMapName: 'chrony-config',
        machineConfigName: '99-worker-chrony',
        kubeletConfigName: 'set-max-pods',
        files: [{ path: '/etc/chrony.conf', contents: 'server ntp.example.com iburst\n' }],
        kubeletConfig: { maxPods: 300 },
      });
      expect([config.configMapName, config.machineConfigName, config.kubeletConfigName]).toEqual(['chrony-config', '99-worker-chrony', 'set-max-pods']);
      cluster.addNodePool('workers', { name: 'nodepool-1', machineConfigs: [config] });
    });
    expect(objects.filter((o) => o.kind === 'ConfigMap').map((o) => o.metadata.name)).toEqual(['chrony-config']);
    const [machineConfig, kubeletConfig] = embedded(objects, 'chrony-config', 'config');
    expect(machineConfig.metadata).toEqual({ name: '99-worker-chrony', labels: { 'machineconfiguration.openshift.io/role': 'worker' } });
    expect(kubeletConfig.metadata).toEqual({ name: 'set-max-pods' });
    expect(findObject(objects, 'NodePool', 'nodepool-1').spec.config).toEqual([{ name: 'chrony-config' }]);
  });

  test('name is the fallback of each of the three names', () => {
    const objects = synth((cluster) => {
      const config = new MachineConfiguration(cluster, 'chrony', { name: 'chrony', machineConfigName: '99-worker-chrony', kernelArguments: ['nosmt'], kubeletConfig: { maxPods: 300 } });
      cluster.addNodePool('workers', { machineConfigs: [config] });
    });
    expect(embedded(objects, 'chrony', 'config').map((o) => o.metadata.name)).toEqual(['99-worker-chrony', 'chrony']);
    expect(findObject(objects, 'NodePool', 'c1-workers').spec.config).toEqual([{ name: 'chrony' }]);
  });

  test('fails when a name is no DNS subdomain, naming the prop it came from', () => {
    expect(
      problems((cluster) => new MachineConfiguration(cluster, 'mc', { configMapName: 'Chrony_Config', machineConfigName: '99_worker', kubeletConfigName: 'Max Pods', kernelArguments: ['nosmt'] })),
    ).toEqual([
      expect.stringMatching(/^hub\/c1\/mc: configMapName \("Chrony_Config"\) must be /),
      expect.stringMatching(/^hub\/c1\/mc: machineConfigName \("99_worker"\) must be /),
      expect.stringMatching(/^hub\/c1\/mc: kubeletConfigName \("Max Pods"\) must be /),
    ]);
  });

  test('writes systemd units, kernel arguments, the kernel type and a KubeletConfig as a second document', () => {
    const objects = synth((cluster) => {
      const config = new MachineConfiguration(cluster, 'tuning', {
        units: [
          { name: 'hello.service', enabled: true, contents: '[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' },
          { name: 'kubelet.service', dropins: [{ name: '10-x.conf', contents: '[Service]\n' }] },
        ],
        kernelArguments: ['nosmt', 'hugepagesz=1G'],
        kernelType: KernelType.REALTIME,
        kubeletConfig: { maxPods: 500 },
      });
      cluster.addNodePool('workers', { machineConfigs: [config], configMaps: ['existing-config'] });
    });
    const [machineConfig, kubeletConfig] = embedded(objects, 'c1-tuning', 'config');
    expect(machineConfig.spec).toEqual({
      config: {
        ignition: { version: '3.2.0' },
        systemd: {
          units: [
            { name: 'hello.service', enabled: true, contents: '[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n' },
            { name: 'kubelet.service', dropins: [{ name: '10-x.conf', contents: '[Service]\n' }] },
          ],
        },
      },
      kernelArguments: ['nosmt', 'hugepagesz=1G'],
      kernelType: 'realtime',
    });
    expect(kubeletConfig).toEqual({ apiVersion: 'machineconfiguration.openshift.io/v1', kind: 'KubeletConfig', metadata: { name: 'c1-tuning' }, spec: { kubeletConfig: { maxPods: 500 } } });
    expect(findObject(objects, 'NodePool', 'c1-workers').spec.config).toEqual([{ name: 'existing-config' }, { name: 'c1-tuning' }]);
  });

  test.each<[string, () => ConstructorParameters<typeof MachineConfiguration>[2], string]>([
    [
      'fails when a MachineConfig sets fips, which HCP takes from the HostedCluster',
      () => ({ machineConfigSpec: { fips: true } }),
      'machineConfigSpec.fips (true) is not applied by HyperShift to node pools: set fips on the HostedCluster',
    ],
    [
      'fails when a MachineConfig sets osImageURL, which HCP takes from the release',
      () => ({ machineConfigSpec: { osImageUrl: 'quay.io/x/os@sha256:0' } }),
      'machineConfigSpec.osImageUrl ("quay.io/x/os@sha256:0") is not applied by HyperShift to node pools',
    ],
    [
      'fails when a MachineConfig adds Ignition users, which HCP ignores',
      () => ({ machineConfigSpec: { config: { ignition: { version: '3.2.0' }, passwd: { users: [{ name: 'admin' }] } } } }),
      'machineConfigSpec.config.passwd ({"users":[{"name":"admin"}]}) is not applied to hosted cluster nodes',
    ],
    [
      'fails when a MachineConfig creates filesystems',
      () => ({ machineConfigSpec: { config: { storage: { filesystems: [{ device: '/dev/sdb' }] } } } }),
      'machineConfigSpec.config.storage.filesystems',
    ],
    ['fails when a file path is relative', () => ({ files: [{ path: 'etc/motd', contents: 'hi' }] }), 'files[0].path ("etc/motd") must be an absolute file path without ".."'],
    [
      'fails when two files share a path',
      () => ({
        files: [
          { path: '/etc/motd', contents: 'a' },
          { path: '/etc/motd', contents: 'b' },
        ],
      }),
      'files[1].path ("/etc/motd") is written by an earlier file',
    ],
    ['fails when a file mode is a string', () => ({ files: [{ path: '/etc/motd', contents: 'a', mode: '0644' as unknown as number }] }), 'files[0].mode ("0644") must be a file mode from 0 to 0o7777'],
    ['fails when a unit name has no unit suffix', () => ({ units: [{ name: 'hello', contents: '[Service]\n' }] }), 'units[0].name ("hello") must be a systemd unit name'],
    ['fails when a kernel argument holds two', () => ({ kernelArguments: ['nosmt mitigations=off'] }), 'kernelArguments[0] ("nosmt mitigations=off") must be one kernel argument without spaces'],
    ['fails when nothing is configured', () => ({}), 'props (nothing to configure) must give files, units'],
  ])('%s', (_, props, message) => {
    const found = problems((cluster) => new MachineConfiguration(cluster, 'mc', props()));
    expect(found).toEqual([`hub/c1/mc: ${found[0]?.slice('hub/c1/mc: '.length)}`]);
    expect(found[0]).toContain(message);
  });

  test('fails when the embedded MachineConfig breaks its own schema, naming the ConfigMap and the field', () => {
    const found = problems((cluster) => new MachineConfiguration(cluster, 'mc', { machineConfigSpec: { extensions: [42 as unknown as string] } }));
    expect(found).toEqual([expect.stringMatching(/^hub\/c1\/mc\/ConfigMap: ConfigMap clusters\/c1-mc data\.config: MachineConfig c1-mc: spec\.extensions\[0\]: .*string.*\(value: 42\)$/)]);
  });
});

describe('NodeTuning', () => {
  const tuned1 = (cluster: HostedCluster, match?: { label: string }[]) =>
    new NodeTuning(cluster, 'tuned-1', {
      name: 'tuned-1',
      profiles: [{ name: 'tuned-1-profile', data: TUNED_1_PROFILE }],
      recommend: [{ priority: 20, profile: 'tuned-1-profile', match }],
    });

  test('reproduces docs 9.2, "Configuring node tuning in a hosted cluster": one Tuned ConfigMap shared by two node pools', () => {
    const objects = synth((cluster) => {
      const tuned = tuned1(cluster);
      cluster.addNodePool('a', { name: 'nodepool-1', tuningConfigs: [tuned] });
      cluster.addNodePool('b', { name: 'nodepool-2', tuningConfigs: [tuned] });
    });
    expect(embedded(objects, 'tuned-1', 'tuning')).toEqual([
      {
        apiVersion: 'tuned.openshift.io/v1',
        kind: 'Tuned',
        metadata: { name: 'tuned-1', namespace: 'openshift-cluster-node-tuning-operator' },
        spec: { profile: [{ name: 'tuned-1-profile', data: TUNED_1_PROFILE }], recommend: [{ profile: 'tuned-1-profile', priority: 20 }] },
      },
    ]);
    expect(objects.filter((o) => o.kind === 'ConfigMap' && o.metadata.name === 'tuned-1')).toHaveLength(1);
    expect(findObject(objects, 'NodePool', 'nodepool-1').spec.tuningConfig).toEqual([{ name: 'tuned-1' }]);
    expect(findObject(objects, 'NodePool', 'nodepool-2').spec.tuningConfig).toEqual([{ name: 'tuned-1' }]);
  });

  test('lets a Replace pool match node labels it sets itself', () => {
    const objects = synth((cluster) =>
      cluster.addNodePool('a', {
        upgradeType: UpgradeType.REPLACE,
        nodeLabels: { 'tuned-1-node-label': 'true' },
        tuningConfigs: [tuned1(cluster, [{ label: 'tuned-1-node-label' }])],
      }),
    );
    expect(embedded(objects, 'tuned-1', 'tuning')[0].spec.recommend).toEqual([{ profile: 'tuned-1-profile', priority: 20, match: [{ label: 'tuned-1-node-label' }] }]);
  });

  test('fails when a Replace pool uses node-label matching on labels it does not set', () => {
    expect(problems((cluster) => cluster.addNodePool('a', { upgradeType: UpgradeType.REPLACE, tuningConfigs: [tuned1(cluster, [{ label: 'tuned-1-node-label' }])] }))).toEqual([
      'hub/c1/a: tuningConfigs[0] (ConfigMap "tuned-1") matches node label "tuned-1-node-label", which the Replace pool does not set in nodeLabels: labels added by hand are lost when nodes are replaced (docs 9.2); set it in nodeLabels or use upgradeType InPlace',
    ]);
  });

  test('fails when a recommendation names a profile the Tuned does not define', () => {
    expect(problems((cluster) => new NodeTuning(cluster, 't', { profiles: [{ name: 'p', data: TUNED_1_PROFILE }], recommend: [{ profile: 'q', priority: 10 }] }))).toEqual([
      'hub/c1/t: recommend[0].profile ("q") must be a profile of this Tuned (p)',
    ]);
  });

  test('fails when two Tuned objects of one cluster define the same TuneD profile', () => {
    const found = problems((cluster) => {
      tuned1(cluster);
      new NodeTuning(cluster, 'tuned-2', { profiles: [{ name: 'tuned-1-profile', data: TUNED_1_PROFILE }], recommend: [{ profile: 'tuned-1-profile', priority: 10 }] });
    });
    expect(found).toContain('hub/c1/tuned-2: profile "tuned-1-profile" is also defined by hub/c1/tuned-1; TuneD profile names must be unique across the Tuned objects of a hosted cluster');
  });

  test('fails when profile data is not TuneD INI text', () => {
    expect(problems((cluster) => new NodeTuning(cluster, 't', { profiles: [{ name: 'p', data: 'vm.dirty_ratio=55' }], recommend: [{ profile: 'p', priority: 10 }] }))).toEqual([
      expect.stringContaining('profiles[0].data ("vm.dirty_ratio=55") must be TuneD INI text with at least one [section]'),
    ]);
  });
});

describe('NodePerformanceProfile', () => {
  test('writes a performance.openshift.io/v2 PerformanceProfile under key tuning for the pools that reference it', () => {
    const objects = synth((cluster) => {
      const profile = new NodePerformanceProfile(cluster, 'low-latency', {
        cpu: { reserved: '0-1', isolated: '2-7' },
        hugepages: { defaultHugepagesSize: '1G', pages: [{ size: '1G', count: 4 }] },
        realTimeKernel: true,
        numa: { topologyPolicy: 'single-numa-node' },
      });
      cluster.addNodePool('rt', { upgradeType: UpgradeType.IN_PLACE, tuningConfigs: [profile] });
    });
    expect(embedded(objects, 'c1-low-latency', 'tuning')).toEqual([
      {
        apiVersion: 'performance.openshift.io/v2',
        kind: 'PerformanceProfile',
        metadata: { name: 'c1-low-latency' },
        spec: {
          cpu: { reserved: '0-1', isolated: '2-7' },
          hugepages: { defaultHugepagesSize: '1G', pages: [{ size: '1G', count: 4 }] },
          realTimeKernel: { enabled: true },
          numa: { topologyPolicy: 'single-numa-node' },
          nodeSelector: { 'node-role.kubernetes.io/worker': '' },
        },
      },
    ]);
    expect(findObject(objects, 'NodePool', 'c1-rt').spec.tuningConfig).toEqual([{ name: 'c1-low-latency' }]);
  });

  test('fails when a pool references two PerformanceProfiles', () => {
    expect(
      problems((cluster) => {
        const a = new NodePerformanceProfile(cluster, 'a', { cpu: { reserved: '0', isolated: '1-3' } });
        const b = new NodePerformanceProfile(cluster, 'b', { cpu: { reserved: '0', isolated: '1-3' } });
        cluster.addNodePool('rt', { tuningConfigs: [a, b] });
      }),
    ).toEqual(['hub/c1/rt: tuningConfigs (["c1-a","c1-b"]) hold 2 PerformanceProfile objects; HyperShift takes one PerformanceProfile per node pool']);
  });

  test('fails when reserved and isolated CPUs overlap', () => {
    expect(problems((cluster) => new NodePerformanceProfile(cluster, 'pp', { cpu: { reserved: '0-1', isolated: '1-7' } }))).toEqual([
      'hub/c1/pp: cpu.reserved ("0-1") and cpu.isolated ("1-7") share CPU 1; each CPU has one role',
    ]);
  });

  test('fails when a CPU list is malformed', () => {
    expect(problems((cluster) => new NodePerformanceProfile(cluster, 'pp', { cpu: { reserved: '0-1', isolated: 'all' } }))).toEqual([
      'hub/c1/pp: cpu.isolated ("all") must be a Linux CPU list such as "0-1,4"',
    ]);
  });

  test('fails when the embedded PerformanceProfile breaks its schema, naming the ConfigMap and the field', () => {
    const found = problems(
      (cluster) => new NodePerformanceProfile(cluster, 'pp', { cpu: { reserved: '0', isolated: '1' }, hugepages: { pages: [{ size: '1G', count: 'four' as unknown as number }] } }),
    );
    expect(found).toEqual([
      expect.stringMatching(/^hub\/c1\/pp\/ConfigMap: ConfigMap clusters\/c1-pp data\.tuning: PerformanceProfile c1-pp: spec\.hugepages\.pages\[0\]\.count: .*\(value: "four"\)$/),
    ]);
  });
});

describe('NodePool references to configuration made in the app', () => {
  test('fails when a pool references two KubeletConfigs', () => {
    expect(
      problems((cluster) => {
        const a = new MachineConfiguration(cluster, 'a', { kubeletConfig: { maxPods: 300 } });
        const b = new MachineConfiguration(cluster, 'b', { kubeletConfig: { maxPods: 400 } });
        cluster.addNodePool('p', { machineConfigs: [a, b] });
      }),
    ).toEqual(['hub/c1/p: machineConfigs (["c1-a","c1-b"]) hold 2 KubeletConfig objects; HyperShift takes one KubeletConfig per node pool']);
  });

  test('fails when a pool references configuration made for a cluster in another namespace', () => {
    expect(
      synthProblems((app) => {
        const c1 = newCluster({}, app);
        const other = new HostedCluster(c1.node.scope!, 'c2', { ...clusterProps(), namespace: 'team-b' });
        const config = new MachineConfiguration(c1, 'a', { kernelArguments: ['nosmt'] });
        other.addNodePool('p', { machineConfigs: [config] });
      }),
    ).toEqual(['hub/c2/p: machineConfigs[0] (ConfigMap clusters/c1-a) must be in the pool\'s namespace "team-b"']);
  });

  test('fails when a pool references one ConfigMap twice', () => {
    expect(
      problems((cluster) => {
        const a = new MachineConfiguration(cluster, 'a', { kernelArguments: ['nosmt'] });
        cluster.addNodePool('p', { machineConfigs: [a], configMaps: ['c1-a'] });
      }),
    ).toEqual(['hub/c1/p: machineConfigs (["c1-a","c1-a"]) references ConfigMap "c1-a" twice']);
  });
});
