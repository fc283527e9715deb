// The fleet entry point: typed data or an inventory file becomes the same constructs an app would
// declare by hand, with defaults merged and every problem of every cluster reported at once.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { dump } from 'js-yaml';
import { Fleet, FleetInventory, HcpApp, Release } from '../../lib';
import { ROOT, synthObjects, synthProblems } from '../util';

const RELEASE = 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64';

function inventory(): FleetInventory {
  return {
    defaults: { releaseImage: RELEASE, baseDomain: 'fleet.example.com', availabilityPolicy: 'SingleReplica' },
    managementClusters: [
      {
        name: 'hub-a',
        defaults: { availabilityPolicy: 'HighlyAvailable' },
        clusters: [
          { name: 'virt-1', platform: 'KubeVirt', nodePools: [{ name: 'small', replicas: 3, cores: 4, memoryGiB: 16 }] },
          { name: 'none-1', platform: 'None', availabilityPolicy: 'SingleReplica', none: { apiServerAddress: 'api.none-1.fleet.example.com' } },
        ],
      },
      {
        name: 'hub-b',
        clusters: [
          {
            name: 'metal-1',
            platform: 'Agent',
            networking: { machineNetwork: ['192.168.10.0/24'] },
            agent: {
              agentNamespace: 'hw-metal-1',
              apiServerAddress: 'api.metal-1.fleet.example.com',
              hosts: [{ name: 'metal-1-h0', bmcAddress: 'ipmi://192.0.2.10', bmcCredentialsSecret: 'metal-1-h0-bmc', bootMacAddress: 'aa:bb:cc:00:00:01' }],
              ingressAddresses: ['192.168.10.200'],
            },
            nodePools: [{ name: 'workers', replicas: 1 }],
          },
        ],
      },
    ],
  };
}

describe('Fleet.fromInventory', () => {
  const app = new HcpApp();
  const fleet = Fleet.fromInventory(app, inventory());
  const objects = synthObjects(app);
  const cluster = (name: string) => objects.find((o) => o.kind === 'HostedCluster' && o.metadata.name === name);

  test('makes one ManagementCluster per entry and one HostedCluster per cluster', () => {
    expect([...fleet.managementClusters.keys()]).toEqual(['hub-a', 'hub-b']);
    expect([...fleet.clusters.keys()]).toEqual(['hub-a/virt-1', 'hub-a/none-1', 'hub-b/metal-1']);
  });

  test("merges fleet defaults, then the management cluster's, then the cluster's own fields", () => {
    expect(cluster('virt-1').spec.controllerAvailabilityPolicy).toBe('HighlyAvailable');
    expect(cluster('none-1').spec.controllerAvailabilityPolicy).toBe('SingleReplica');
    expect(cluster('metal-1').spec.controllerAvailabilityPolicy).toBe('SingleReplica');
    expect(cluster('metal-1').spec.dns.baseDomain).toBe('fleet.example.com');
    expect(cluster('virt-1').spec.release.image).toBe(RELEASE);
    expect(cluster('virt-1').spec.pullSecret).toEqual({ name: 'virt-1-pull-secret' });
  });

  test("builds each platform's node pools, and an Agent cluster's inventory and ingress", () => {
    const pool = objects.find((o) => o.kind === 'NodePool' && o.metadata.name === 'virt-1-small');
    expect(pool.spec.replicas).toBe(3);
    expect(pool.spec.platform.kubevirt.compute).toEqual({ cores: 4, memory: '16Gi' });
    expect(objects.find((o) => o.kind === 'NodePool' && o.metadata.name === 'none-1-workers').spec.replicas).toBe(2);
    expect(objects.filter((o) => o.kind === 'BareMetalHost').map((o) => o.metadata.name)).toEqual(['metal-1-h0']);
    expect(objects.find((o) => o.kind === 'InfraEnv').metadata).toEqual(expect.objectContaining({ name: 'metal-1', namespace: 'hw-metal-1' }));
    expect(objects.find((o) => o.kind === 'IPAddressPool').spec.addresses).toEqual(['192.168.10.200-192.168.10.200']);
  });

  test('fails when several clusters are broken, a construct problem and a schema problem in different clusters: synth reports all of them at once', () => {
    const bad = inventory();
    const clusters = bad.managementClusters[0].clusters as any[];
    clusters[0] = { ...clusters[0], name: 'Bad_Name' };
    clusters[1] = { ...clusters[1], platform: 'Agent' };
    // Accepted by the construct, refused by the NodePool CRD (cores is an int32).
    (bad.managementClusters[1].clusters as any[]).push({ name: 'virt-2', platform: 'KubeVirt', nodePools: [{ name: 'big', cores: 3_000_000_000 }] });
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromInventory(app, bad);
    expect(() => app.synthesize()).toThrow(
      [
        '3 problems:',
        '  - hub-a/none-1: agent (undefined) must give agentNamespace and apiServerAddress on platform Agent',
        '  - hub-a/Bad_Name: name ("Bad_Name") must be a DNS-1123 label: at most 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
        '  - hub-b/virt-2/big/Resource: NodePool clusters/virt-2-big: spec.platform.kubevirt.compute.cores: Invalid value: must fit in a 32-bit integer (-2147483648 to 2147483647), the type of the field the controller reads (value: 3000000000)',
      ].join('\n'),
    );
  });
});

describe('a fleet release by digest', () => {
  const DIGEST = `quay.io/openshift-release-dev/ocp-release@sha256:${'d'.repeat(64)}`;
  const digestFleet = (releaseVersion?: string): HcpApp => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromInventory(app, {
      defaults: { releaseImage: DIGEST, ...(releaseVersion ? { releaseVersion } : {}), baseDomain: 'fleet.example.com' },
      managementClusters: [{ name: 'hub-a', clusters: [{ name: 'virt-1', platform: 'KubeVirt' }] }],
    });
    return app;
  };

  test('releaseVersion is written as the release-version annotation of the HostedCluster and its NodePools', () => {
    const app = digestFleet('4.14.10');
    const objects = synthObjects(app);
    for (const kind of ['HostedCluster', 'NodePool']) {
      expect(objects.find((o) => o.kind === kind).metadata.annotations['hcp-cdk.io/release-version']).toBe('4.14.10');
    }
    expect(app.warnings).toEqual([]);
  });

  test('without releaseVersion: a warning naming the cluster and the image', () => {
    const app = digestFleet();
    app.synthesize();
    expect(app.warnings).toEqual([
      `hub-a/virt-1: release ("${DIGEST}") tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ` +
        "its update paths or its node pools' version skew; give it: Release.fromImage(image, { version: '4.17.0' }) [HCP-W004]",
    ]);
  });
});

describe("a fleet hub's HyperShift version", () => {
  /** A fleet of one KubeVirt cluster at `release` with a pool at `poolRelease`, on hub-a running `hyperShift`. */
  const hubFleet = (hyperShift: FleetInventory['managementClusters'][number]['hyperShift'], release: string, poolRelease: string) => (app: HcpApp) =>
    Fleet.fromInventory(app, {
      defaults: { baseDomain: 'fleet.example.com' },
      managementClusters: [
        {
          name: 'hub-a',
          hyperShift,
          clusters: [{ name: 'virt-1', platform: 'KubeVirt', releaseImage: `quay.io/openshift-release-dev/ocp-release:${release}-x86_64` }],
        },
      ],
    })
      .clusters.get('hub-a/virt-1')!
      .addNodePool('old', { release: Release.fromVersion(poolRelease) });

  test('hyperShift: the management cluster runs it, and its HostedClusters record it', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const fleet = Fleet.fromInventory(app, {
      ...inventory(),
      managementClusters: inventory().managementClusters.map((m, i) => ({ ...m, hyperShift: i === 0 ? { multiClusterEngine: '2.7' } : { openShift: '4.20' } })),
    });
    expect([fleet.managementClusters.get('hub-a')!.hyperShift?.name, fleet.managementClusters.get('hub-b')!.hyperShift?.name]).toEqual(['HyperShift 4.17 (MCE 2.7)', 'HyperShift 4.20']);
    const objects = synthObjects(app);
    const recorded = (name: string) => objects.find((o) => o.kind === 'HostedCluster' && o.metadata.name === name).metadata.annotations['hcp-cdk.io/hypershift-version'];
    expect([recorded('virt-1'), recorded('none-1'), recorded('metal-1')]).toEqual(['mce-2.7', 'mce-2.7', '4.20']);
  });

  test("the hub's rules apply: HyperShift 4.19 refuses a 4.17 pool under a 4.19 control plane, the default accepts it", () => {
    expect(synthProblems(hubFleet({ openShift: '4.19' }, '4.19.1', '4.17.4'))).toEqual([
      'hub-a/virt-1/old: release ("quay.io/openshift-release-dev/ocp-release:4.17.4-multi") is 4.17.4, 2 minors behind the control plane\'s 4.19.1; ' +
        'HyperShift 4.19 on hub "hub-a" allows pools up to 2 minors behind a control plane on an even minor and 1 on an odd one, so 4.18 or later here: ' +
        'its CLI refuses to create such a pool (validMinorVersionCompatibility, cmd/nodepool/core/create.go of release-4.19 and release-4.20)',
    ]);
    expect(synthProblems(hubFleet(undefined, '4.19.1', '4.17.4'))).toEqual([]);
  });

  test('fails when both or neither of openShift and multiClusterEngine are given, or a version hcp-cdk does not know', () => {
    const inventoryWith = (hyperShift: unknown): FleetInventory => ({ ...inventory(), managementClusters: [{ ...inventory().managementClusters[0], hyperShift: hyperShift as any }] });
    expect(() => Fleet.fromInventory(new HcpApp({ outdir: '/nonexistent' }), inventoryWith({ openShift: '4.17', multiClusterEngine: '2.7' }))).toThrow(
      'Fleet.fromInventory: Fleet inventory: spec.managementClusters[0].hyperShift: give exactly one of openShift (e.g. 4.17) and multiClusterEngine (e.g. 2.7) (value: {"openShift":"4.17","multiClusterEngine":"2.7"})',
    );
    expect(() => Fleet.fromInventory(new HcpApp({ outdir: '/nonexistent' }), inventoryWith({}))).toThrow(/spec\.managementClusters\[0\]\.hyperShift: give exactly one of openShift/);
    expect(() => Fleet.fromInventory(new HcpApp({ outdir: '/nonexistent' }), inventoryWith({ openShift: '4.17.1' }))).toThrow(
      /spec\.managementClusters\[0\]\.hyperShift\.openShift: Invalid value: must match the pattern/,
    );
    expect(synthProblems((app) => Fleet.fromInventory(app, inventoryWith({ openShift: '4.13' })))).toEqual([
      'hub-a: hyperShift ("4.13") must be the OpenShift minor a HyperShift operator was released for, 4.14 or later, such as 4.17 or 5.0',
    ]);
  });
});

describe('Fleet.fromFile', () => {
  const write = (document: unknown) => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-fleet-')), 'fleet.yaml');
    fs.writeFileSync(file, dump(document));
    return file;
  };

  test('reads a Fleet document', () => {
    const app = new HcpApp();
    const fleet = Fleet.fromFile(app, write({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'Fleet', metadata: { name: 'lab' }, spec: inventory() }));
    expect(fleet.clusters.size).toBe(3);
  });

  test('fails with every schema problem of the file, by field path, before building anything', () => {
    const file = write({
      apiVersion: 'hcp-cdk.io/v1alpha1',
      kind: 'Fleet',
      metadata: { name: 'lab' },
      spec: { managementClusters: [{ name: 'hub', clusters: [{ name: 'a', platform: 'Azure', nodePools: [{ name: 'p', replicas: -1 }], colour: 'red' }, {}] }] },
    });
    expect(() => Fleet.fromFile(new HcpApp(), file)).toThrow(
      [
        '4 problems:',
        `  - ${file}: Fleet lab: spec.managementClusters[0].clusters[0].platform: Unsupported value: supported values: "Agent", "KubeVirt", "AWS", "None" (value: "Azure")`,
        `  - ${file}: Fleet lab: spec.managementClusters[0].clusters[0].nodePools[0].replicas: Invalid value: must be greater than or equal to 0 (value: -1)`,
        `  - ${file}: Fleet lab: spec.managementClusters[0].clusters[0].colour: unknown field "spec.managementClusters[0].clusters[0].colour": the schema has no such field (strict field validation rejects it; without it the field is silently dropped) (value: "red")`,
        `  - ${file}: Fleet lab: spec.managementClusters[0].clusters[1].name: Required value`,
      ].join('\n'),
    );
  });

  describe('fails when the file cannot be read as hcp-cdk validate reads manifests', () => {
    const header = 'apiVersion: hcp-cdk.io/v1alpha1\nkind: Fleet\nmetadata:\n  name: lab\nspec:\n';
    const writeText = (text: string) => {
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-fleet-')), 'fleet.yaml');
      fs.writeFileSync(file, text);
      return file;
    };

    test('a key is given twice', () => {
      const file = writeText(`${header}  managementClusters:\n  - name: hub\n    clusters:\n    - name: a\n      platform: KubeVirt\n      platform: None\n`);
      expect(() => Fleet.fromFile(new HcpApp(), file)).toThrow(`${file}: not valid YAML: duplicated mapping key in "${file}" (11:7)`);
    });

    test('aliases expand a small file to billions of values, without expanding them', () => {
      const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
      for (let i = 1; i < 9; i++)
        levels.push(
          `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(10)
            .fill(`*${'abcdefghi'[i - 1]}`)
            .join(', ')}]`,
        );
      const file = writeText(`${levels.join('\n')}\n${header}  managementClusters: []\n`);
      const started = Date.now();
      expect(() => Fleet.fromFile(new HcpApp(), file)).toThrow(`${file}: document 1 has aliases that expand to more than 100000 values; it is not read (an API server would refuse it too)`);
      expect(Date.now() - started).toBeLessThan(2000);
    });

    test('it holds two documents, none, or is missing', () => {
      const two = writeText(`${header}  managementClusters: []\n---\n${header}  managementClusters: []\n`);
      expect(() => Fleet.fromFile(new HcpApp(), two)).toThrow(`${two}: holds 2 documents; an inventory file holds one Fleet (apiVersion hcp-cdk.io/v1alpha1)`);
      const none = writeText('');
      expect(() => Fleet.fromFile(new HcpApp(), none)).toThrow(`${none}: holds 0 documents; an inventory file holds one Fleet (apiVersion hcp-cdk.io/v1alpha1)`);
      const missing = path.join(os.tmpdir(), 'hcp-no-such-fleet.yaml');
      expect(() => Fleet.fromFile(new HcpApp(), missing)).toThrow(`Fleet.fromFile: ${missing}: no such file or directory (or a symbolic link to nothing)`);
    });
  });

  test("fails when an AWS cluster's infra lists only some of its values, naming each missing one", () => {
    const file = write({
      apiVersion: 'hcp-cdk.io/v1alpha1',
      kind: 'Fleet',
      metadata: { name: 'lab' },
      spec: {
        defaults: { releaseImage: RELEASE, baseDomain: 'fleet.example.com' },
        managementClusters: [{ name: 'hub', clusters: [{ name: 'aws-1', platform: 'AWS', aws: { infra: { infraId: 'aws-1', region: 'us-east-1', zones: [{ name: 'us-east-1a' }], roles: {} } } }] }],
      },
    });
    const app = new HcpApp({ outdir: '/nonexistent' });
    Fleet.fromFile(app, file);
    const roles = ['ingressArn', 'imageRegistryArn', 'storageArn', 'networkArn', 'kubeCloudControllerArn', 'nodePoolManagementArn', 'controlPlaneOperatorArn'];
    const missing = ['issuerUrl', 'vpcId', 'machineCidr', 'privateZoneId', 'instanceProfileName', 'zones[0].subnetId', ...roles.map((r) => `roles.${r}`)];
    expect(() => app.synthesize()).toThrow(['13 problems:', ...missing.map((field) => `  - hub/aws-1: aws.infra.${field} (undefined) must be given, as text`)].join('\n'));
  });

  test('the example fleet (24 clusters on two management clusters) builds and validates', () => {
    const app = new HcpApp();
    const fleet = Fleet.fromFile(app, path.join(ROOT, 'examples', 'fleet', 'fleet.yaml'));
    expect(fleet.managementClusters.size).toBe(2);
    expect(fleet.clusters.size).toBe(24);
    expect(() => app.synthesize()).not.toThrow();
  });
});
