import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { cdk8sSynth, expectKustomizationsListTheirFolders, foldersOf, hcpCdkValidate, readTree, testValidAndRepeatable } from './example-synth';
import { PRUNE_PROTECTION, ROOT } from '../util';

/** What every example must show: it synthesizes, re-synthesizes identically, validates clean, and leaks nothing. */
function describeExample(title: string, app: string, expectedFiles: string[], allowedSecrets: string[]): void {
  describe(title, () => {
    const first = cdk8sSynth(app);
    const second = cdk8sSynth(app);
    const tree = readTree(first.outdir);
    const files = new Map([...tree].filter(([name]) => !name.endsWith('kustomization.yaml')));

    test('synthesizes the management and hosted-cluster folders', () => {
      expect(first.output).not.toMatch(/Error/);
      expect(first.status).toBe(0);
      expect([...files.keys()].sort()).toEqual(expectedFiles);
    });

    testValidAndRepeatable(first, second, tree, expectedFiles.length);

    test('every folder below the root has a kustomization.yaml listing its files and sub-folders', () => {
      expectKustomizationsListTheirFolders(tree, foldersOf(files));
    });

    test('contains no secret material', () => {
      const all = [...files.values()].join('\n---\n');
      expect(all).not.toMatch(/dockerconfigjson/);
      expect(all).not.toMatch(/PRIVATE KEY/);
      expect(all).not.toMatch(/^ {2}password: /m);
      const secrets = [...files.entries()].filter(([, text]) => /^kind: Secret$/m.test(text));
      expect(secrets.map(([name]) => name)).toEqual(allowedSecrets);
      for (const [, text] of secrets) {
        expect(text).toMatch(/^ {2}id_rsa\.pub: /m);
        expect(text).not.toMatch(/^ {2}key: /m);
      }
    });

    test('objects for inside the hosted cluster are only in the -guest folder', () => {
      const guestOnly = /^kind: (MetalLB|IPAddressPool|L2Advertisement|BGPAdvertisement|BGPPeer|OperatorGroup|Subscription)$|^ {2}(name|namespace): (metallb|openshift-ingress)$/m;
      const guest = [...files.keys()].filter((f) => f.split('/')[0].endsWith('-guest'));
      expect(guest.length).toBeGreaterThan(0);
      for (const [name, text] of files) {
        expect([name, guestOnly.test(text)]).toEqual([name, guest.includes(name)]);
      }
    });
  });
}

describeExample(
  'default example (agent lab vcluster2) through the cdk8s CLI',
  'build/examples/agent-lab/main.js',
  [
    'hub/00-namespace-clusters.yaml',
    'hub/00-namespace-hardware-inventory.yaml',
    'hub/hardware-inventory/45-infraenv-hardware-inventory_hardware-inventory.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-1.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-2.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-3.yaml',
    'hub/hardware-inventory/46-baremetalhost-hardware-inventory_moc-host-4.yaml',
    'hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml',
    'hub/vcluster2/50-hostedcluster-clusters_vcluster2.yaml',
    'hub/vcluster2/60-nodepool-clusters_vcluster2.yaml',
    'vcluster2-guest/00-namespace-metallb.yaml',
    'vcluster2-guest/02-operatorgroup-metallb_metallb-operator-operatorgroup.yaml',
    'vcluster2-guest/03-subscription-metallb_metallb-operator.yaml',
    'vcluster2-guest/30-metallb-metallb_metallb.yaml',
    'vcluster2-guest/31-ipaddresspool-metallb_ingress-public-ip.yaml',
    'vcluster2-guest/32-l2advertisement-metallb_ingress-public-ip.yaml',
    'vcluster2-guest/40-service-openshift-ingress_metallb-ingress.yaml',
  ],
  ['hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml'],
);

describeExample(
  'disconnected dual-stack bare metal (docs 5.3.13) through the cdk8s CLI',
  'build/examples/disconnected-dual-stack/main.js',
  [
    'hosted-dual-guest/00-namespace-metallb.yaml',
    'hosted-dual-guest/02-operatorgroup-metallb_metallb-operator-operatorgroup.yaml',
    'hosted-dual-guest/03-subscription-metallb_metallb-operator.yaml',
    'hosted-dual-guest/30-metallb-metallb_metallb.yaml',
    'hosted-dual-guest/31-ipaddresspool-metallb_ingress-public-ip.yaml',
    'hosted-dual-guest/32-l2advertisement-metallb_ingress-public-ip.yaml',
    'hosted-dual-guest/40-service-openshift-ingress_metallb-ingress.yaml',
    'hub/00-namespace-clusters-hosted-dual.yaml',
    'hub/00-namespace-clusters.yaml',
    'hub/05-multiclusterengine-multiclusterengine.yaml',
    'hub/05-provisioning-provisioning-configuration.yaml',
    'hub/06-agentserviceconfig-agent.yaml',
    'hub/20-configmap-multicluster-engine_custom-registries.yaml',
    'hub/20-configmap-openshift-config_registry-config.yaml',
    'hub/21-image-cluster.yaml',
    'hub/40-imagedigestmirrorset-release-mirrors.yaml',
    'hub/hosted-dual-infraenv/20-externalsecret-clusters-hosted-dual_hosted-dual-worker0-bmc-secret.yaml',
    'hub/hosted-dual-infraenv/20-externalsecret-clusters-hosted-dual_hosted-dual-worker1-bmc-secret.yaml',
    'hub/hosted-dual-infraenv/20-externalsecret-clusters-hosted-dual_hosted-dual-worker2-bmc-secret.yaml',
    'hub/hosted-dual-infraenv/45-infraenv-clusters-hosted-dual_hosted-dual.yaml',
    'hub/hosted-dual-infraenv/46-baremetalhost-clusters-hosted-dual_hosted-dual-worker0.yaml',
    'hub/hosted-dual-infraenv/46-baremetalhost-clusters-hosted-dual_hosted-dual-worker1.yaml',
    'hub/hosted-dual-infraenv/46-baremetalhost-clusters-hosted-dual_hosted-dual-worker2.yaml',
    'hub/hosted-dual/20-configmap-clusters_user-ca-bundle.yaml',
    'hub/hosted-dual/20-secret-clusters_hosted-dual-ssh-key.yaml',
    'hub/hosted-dual/50-hostedcluster-clusters_hosted-dual.yaml',
    'hub/hosted-dual/60-nodepool-clusters_hosted-dual.yaml',
  ],
  ['hub/hosted-dual/20-secret-clusters_hosted-dual-ssh-key.yaml'],
);

describe('the disconnected example follows docs 5.3.13 where they hold', () => {
  const { outdir } = cdk8sSynth('build/examples/disconnected-dual-stack/main.js');
  const read = (file: string) => YAML.parse(fs.readFileSync(path.join(outdir, file), 'utf8'));

  test('the HostedCluster pulls through the mirrors, trusts the registry CA and is dual-stack', () => {
    const cluster = read('hub/hosted-dual/50-hostedcluster-clusters_hosted-dual.yaml');
    expect(cluster.spec.imageContentSources).toEqual([
      { source: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', mirrors: ['registry.dns.base.domain.name:5000/openshift/release'] },
      { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['registry.dns.base.domain.name:5000/openshift/release-images'] },
    ]);
    expect(cluster.spec.additionalTrustBundle).toEqual({ name: 'user-ca-bundle' });
    expect(cluster.spec.release.image).toMatch(/^registry\.dns\.base\.domain\.name:5000\/openshift\/release-images@sha256:[0-9a-f]{64}$/);
    expect(cluster.spec.networking.clusterNetwork).toEqual([{ cidr: '10.132.0.0/14' }, { cidr: 'fd01::/48' }]);
    expect(cluster.spec.networking.serviceNetwork).toEqual([{ cidr: '172.31.0.0/16' }, { cidr: 'fd02::/112' }]);
    expect(cluster.spec.platform).toEqual({ type: 'Agent', agent: { agentNamespace: 'clusters-hosted-dual' } });
    expect(cluster.spec.olmCatalogPlacement).toBe('guest');
  });

  test('the management cluster pulls through the same mirrors: an ImageDigestMirrorSet from the one ImageMirrors (docs 5.2.3)', () => {
    const cluster = read('hub/hosted-dual/50-hostedcluster-clusters_hosted-dual.yaml');
    const mirrorSet = read('hub/40-imagedigestmirrorset-release-mirrors.yaml');
    expect(mirrorSet).toEqual({
      apiVersion: 'config.openshift.io/v1',
      kind: 'ImageDigestMirrorSet',
      metadata: expect.objectContaining({ name: 'release-mirrors' }),
      spec: { imageDigestMirrors: cluster.spec.imageContentSources },
    });
  });

  test("the management cluster trusts the mirror registry's CA (docs 5.2.5.1): a ConfigMap in openshift-config keyed host..port, named by the image configuration", () => {
    const cluster = read('hub/hosted-dual/50-hostedcluster-clusters_hosted-dual.yaml');
    const trustBundle = read('hub/hosted-dual/20-configmap-clusters_user-ca-bundle.yaml');
    expect(cluster.spec.additionalTrustBundle).toEqual({ name: trustBundle.metadata.name });
    const registryCa = read('hub/20-configmap-openshift-config_registry-config.yaml');
    expect(registryCa.metadata).toEqual(expect.objectContaining({ name: 'registry-config', namespace: 'openshift-config' }));
    // The same CA the hosted cluster's nodes trust, under the registry's host..port.
    expect(registryCa.data).toEqual({ 'registry.dns.base.domain.name..5000': trustBundle.data['ca-bundle.crt'] });
    expect(fs.readFileSync(path.join(outdir, 'hub/20-configmap-openshift-config_registry-config.yaml'), 'utf8')).toContain('registry.dns.base.domain.name..5000: |\n');
    const image = read('hub/21-image-cluster.yaml');
    expect([image.apiVersion, image.kind, image.metadata.name]).toEqual(['config.openshift.io/v1', 'Image', 'cluster']);
    expect(image.spec).toEqual({ additionalTrustedCA: { name: 'registry-config' } });
  });

  test('three BareMetalHosts boot into the InfraEnv through Redfish virtual media, credentials from a secret store', () => {
    for (const n of [0, 1, 2]) {
      const host = read(`hub/hosted-dual-infraenv/46-baremetalhost-clusters-hosted-dual_hosted-dual-worker${n}.yaml`);
      expect(host.metadata.labels).toEqual({ 'infraenvs.agent-install.openshift.io': 'hosted-dual' });
      expect(host.metadata.annotations['bmac.agent-install.openshift.io/hostname']).toBe(`hosted-dual-worker${n}`);
      expect(host.spec).toEqual({
        online: true,
        automatedCleaningMode: 'disabled',
        bootMACAddress: `aa:aa:aa:aa:02:1${n + 1}`,
        bmc: {
          address: `redfish-virtualmedia://192.168.126.1:9000/redfish/v1/Systems/local/hosted-dual-worker${n}`,
          credentialsName: `hosted-dual-worker${n}-bmc-secret`,
          disableCertificateVerification: true,
        },
      });
      const secret = read(`hub/hosted-dual-infraenv/20-externalsecret-clusters-hosted-dual_hosted-dual-worker${n}-bmc-secret.yaml`);
      expect(secret.spec.data.map((d: any) => d.secretKey)).toEqual(['username', 'password']);
    }
  });

  test('the NodePool takes two of them with InPlace upgrades', () => {
    const pool = read('hub/hosted-dual/60-nodepool-clusters_hosted-dual.yaml');
    expect(pool.spec.replicas).toBe(2);
    expect(pool.spec.management.upgradeType).toBe('InPlace');
    expect(pool.spec.platform.type).toBe('Agent');
  });

  test('the assisted service uses the mirror registry and the local RHCOS images', () => {
    const config = read('hub/06-agentserviceconfig-agent.yaml');
    expect(config.metadata).toEqual({ name: 'agent', annotations: { 'argocd.argoproj.io/sync-wave': '6', ...PRUNE_PROTECTION } });
    expect(config.spec.mirrorRegistryRef).toEqual({ name: 'custom-registries' });
    expect(config.spec.osImages).toEqual([expect.objectContaining({ openshiftVersion: '4.17', cpuArchitecture: 'x86_64' })]);
    const registries = read('hub/20-configmap-multicluster-engine_custom-registries.yaml');
    expect(registries.metadata.labels).toEqual({ app: 'assisted-service' });
    expect(Object.keys(registries.data).sort()).toEqual(['ca-bundle.crt', 'registries.conf']);
  });
});

describe('an invalid app', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-invalid-'));
  // A file synth did not write: the app's problems and the refusal to write there come together.
  fs.writeFileSync(path.join(outdir, 'previous.yaml'), 'kept: true\n');
  const result = spawnSync('node', ['build/test/apps/invalid-cluster.js'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, CDK8S_OUTDIR: outdir },
  });

  test("fails with every problem named, the cluster's and its pool's: the broken cluster does not stop the app before the pool", () => {
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('HcpValidationError: 5 problems');
    expect(result.stderr).toContain(`HcpApp: outdir (${JSON.stringify(outdir)}) holds files hcp-cdk did not write (previous.yaml)`);
    expect(result.stderr).toContain('hub/Bad_Name: name ("Bad_Name") must be a DNS-1123 label');
    expect(result.stderr).toContain('networking.clusterNetwork[0] ("10.0.0.0/14") overlaps networking.machineNetwork[0] ("10.1.0.0/16")');
    expect(result.stderr).toContain('hub/Bad_Name/workers: replicas (2) and autoScaling ({"min":3,"max":1}) are mutually exclusive; give one');
    expect(result.stderr).toContain('hub/Bad_Name/workers: autoScaling.max (1) must be >= autoScaling.min (3)');
  });

  test('writes nothing and leaves earlier output alone', () => {
    expect(readTree(outdir)).toEqual(new Map([['previous.yaml', 'kept: true\n']]));
  });
});

describe('the example fleet (examples/fleet) through the cdk8s CLI', () => {
  const first = cdk8sSynth('build/examples/fleet/main.js');
  const second = cdk8sSynth('build/examples/fleet/main.js');
  const tree = readTree(first.outdir);

  test('writes one folder per management cluster, hosted cluster and guest', () => {
    expect(first.status).toBe(0);
    const topFolders = new Set([...tree.keys()].map((f) => f.split('/')[0]));
    expect([...topFolders].filter((f) => f.startsWith('hub-')).sort()).toEqual(['hub-0', 'hub-1']);
    expect([...topFolders].filter((f) => f.endsWith('-guest'))).toHaveLength(8);
    const clusterFolders = new Set([...tree.keys()].filter((f) => /^hub-\d\/c\d+\/50-hostedcluster-/.test(f)).map((f) => f.split('/')[1]));
    expect(clusterFolders.size).toBe(24);
  });

  test('validates clean and re-synthesizes byte for byte', () => {
    const result = hcpCdkValidate(first.outdir);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(readTree(second.outdir)).toEqual(tree);
  });
});
