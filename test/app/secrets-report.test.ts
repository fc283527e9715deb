import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import * as YAML from 'yaml';
import {
  BmcCredentials,
  ClusterPlatform,
  Fleet,
  formatSecretsReport,
  HcpApp,
  HostedCluster,
  HostedClusterProps,
  InfraEnv,
  ManagementCluster,
  recordSecretRequirement,
  Release,
  SecretEncryption,
  SecretMaker,
  SecretsReportEntry,
  SecretSource,
  SshPublicKey,
} from '../../lib';
import { ExternalDnsCredentialsSecret } from '../../lib/aws';
import { cdk8sSynth, readTree } from '../examples/example-synth';
import { ROOT } from '../util';

const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

/** `cdk8s synth` of an example with HCP_CDK_SECRETS_REPORT set: the output, stderr and the JSON report. */
function synthWithReport(app: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-secrets-'));
  const outdir = path.join(dir, 'dist');
  const report = path.join(dir, 'report', 'secrets.json');
  const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', `node ${app}`, '--output', outdir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, HCP_CDK_SECRETS_REPORT: report },
  });
  return { status: result.status, stderr: result.stderr, outdir, json: JSON.parse(fs.readFileSync(report, 'utf8')) };
}

/** The lines of the secrets summary in stderr: from its first heading to the end. */
function summaryOf(stderr: string): string[] {
  const lines = stderr.trimEnd().split('\n');
  return lines.slice(lines.findIndex((line) => /^\d+ Secrets? /.test(line)));
}

/** Every Secret the objects name in the fields that reference one, as `<namespace>/<name>`. */
function secretReferences(objects: any[]): string[] {
  const references = new Set<string>();
  for (const o of objects) {
    const ns = o.metadata?.namespace;
    const names =
      o.kind === 'HostedCluster'
        ? [
            o.spec.pullSecret?.name,
            o.spec.sshKey?.name,
            o.spec.secretEncryption?.aescbc?.activeKey?.name,
            o.spec.secretEncryption?.aescbc?.backupKey?.name,
            o.spec.platform?.kubevirt?.credentials?.infraKubeConfigSecret?.name,
          ]
        : o.kind === 'InfraEnv'
          ? [o.spec.pullSecretRef?.name]
          : o.kind === 'BareMetalHost'
            ? [o.spec.bmc?.credentialsName]
            : [];
    for (const name of names) if (name) references.add(`${ns}/${name}`);
  }
  return [...references].sort();
}

/** The Secrets the objects make: Secrets, and the targets of ExternalSecrets and SealedSecrets. */
function secretsMade(objects: any[]): string[] {
  return objects.flatMap((o) => {
    if (o.kind === 'Secret') return [`${o.metadata.namespace}/${o.metadata.name}`];
    if (o.kind === 'ExternalSecret') return [`${o.metadata.namespace}/${o.spec.target?.name ?? o.metadata.name}`];
    if (o.kind === 'SealedSecret') return [`${o.metadata.namespace}/${o.spec.template?.metadata?.name ?? o.metadata.name}`];
    return [];
  });
}

function objectsIn(outdir: string): any[] {
  return [...readTree(outdir)].filter(([file]) => !file.endsWith('kustomization.yaml')).map(([, text]) => YAML.parse(text));
}

const RELEASE = Release.fromImage('quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa', { version: '4.14.10' });

function cluster(scope: ManagementCluster, id: string, props: Partial<HostedClusterProps> = {}): HostedCluster {
  return new HostedCluster(scope, id, {
    release: RELEASE,
    baseDomain: 'example.com',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    secretEncryption: SecretEncryption.aescbc(SecretSource.fromExistingSecret(`${id}-etcd-key`)),
    platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    ...props,
  });
}

const PULL = { type: 'kubernetes.io/dockerconfigjson', keys: ['.dockerconfigjson'] };
const ETCD = { type: 'Opaque', keys: ['key'] };
const BMC = { type: 'Opaque', keys: ['username', 'password'] };

describe("the default example's secrets report (agent lab, through the cdk8s CLI)", () => {
  const withReport = synthWithReport('build/examples/agent-lab/main.js');
  const without = cdk8sSynth('build/examples/agent-lab/main.js');
  const entries: SecretsReportEntry[] = [
    { cluster: 'hub', namespace: 'clusters', name: 'pull-secret', ...PULL, madeBy: SecretMaker.YOU, neededBy: ['hub/vcluster2'] },
    { cluster: 'hub', namespace: 'clusters', name: 'vcluster2-etcd-encryption-key', ...ETCD, madeBy: SecretMaker.YOU, neededBy: ['hub/vcluster2'] },
    ...[1, 2, 3, 4].map((n) => ({
      cluster: 'hub',
      namespace: 'hardware-inventory',
      name: `moc-host-${n}-bmc`,
      ...BMC,
      madeBy: SecretMaker.YOU,
      neededBy: [`hub/hardware-inventory/moc-host-${n}`],
    })),
    { cluster: 'hub', namespace: 'hardware-inventory', name: 'pull-secret', ...PULL, madeBy: SecretMaker.YOU, neededBy: ['hub/hardware-inventory'] },
  ];

  test('lists the pull secret in both namespaces, the etcd key and the four BMC Secrets, in JSON', () => {
    expect(withReport.status).toBe(0);
    expect(withReport.json).toEqual({ secrets: entries });
  });

  test('prints the same, one line per Secret, after the synth', () => {
    expect(summaryOf(withReport.stderr)).toEqual([
      '7 Secrets to create yourself (the output references them; nothing in it makes them):',
      '  hub: clusters/pull-secret (.dockerconfigjson) for hub/vcluster2',
      '  hub: clusters/vcluster2-etcd-encryption-key (key) for hub/vcluster2',
      '  hub: hardware-inventory/moc-host-1-bmc (username, password) for hub/hardware-inventory/moc-host-1',
      '  hub: hardware-inventory/moc-host-2-bmc (username, password) for hub/hardware-inventory/moc-host-2',
      '  hub: hardware-inventory/moc-host-3-bmc (username, password) for hub/hardware-inventory/moc-host-3',
      '  hub: hardware-inventory/moc-host-4-bmc (username, password) for hub/hardware-inventory/moc-host-4',
      '  hub: hardware-inventory/pull-secret (.dockerconfigjson) for hub/hardware-inventory',
    ]);
    expect(summaryOf(without.output)).toEqual(summaryOf(withReport.stderr));
  });

  test('the written files are the same with and without the report, and the report is not among them', () => {
    const tree = readTree(withReport.outdir);
    expect(tree).toEqual(readTree(without.outdir));
    expect([...tree.keys()].filter((f) => !f.endsWith('.yaml'))).toEqual([]);
    expect(tree.size).toBe(21);
  });

  test('every Secret the output references is in the output or in the report', () => {
    const objects = objectsIn(withReport.outdir);
    const made = new Set(secretsMade(objects));
    const reported = new Set(entries.map((e) => `${e.namespace}/${e.name}`));
    expect(secretReferences(objects).filter((ref) => !made.has(ref) && !reported.has(ref))).toEqual([]);
    expect(secretReferences(objects)).toHaveLength(8);
  });
});

describe("the disconnected example's secrets report (through the cdk8s CLI)", () => {
  const { status, stderr, json, outdir } = synthWithReport('build/examples/disconnected-dual-stack/main.js');

  test('lists the BMC Secrets External Secrets makes, with the store and the remote key of each value', () => {
    expect(status).toBe(0);
    expect(json.secrets.filter((e: SecretsReportEntry) => e.madeBy === SecretMaker.EXTERNAL_SECRETS)).toEqual(
      [0, 1, 2].map((n) => ({
        cluster: 'hub',
        namespace: 'clusters-hosted-dual',
        name: `hosted-dual-worker${n}-bmc-secret`,
        ...BMC,
        madeBy: 'external-secrets',
        store: { kind: 'ClusterSecretStore', name: 'lab-vault' },
        remoteReferences: [
          { secretKey: 'username', remoteKey: `bmc/hosted-dual-worker${n}`, remoteProperty: 'username' },
          { secretKey: 'password', remoteKey: `bmc/hosted-dual-worker${n}`, remoteProperty: 'password' },
        ],
        neededBy: [`hub/hosted-dual-infraenv/hosted-dual-worker${n}`],
      })),
    );
  });

  test('and apart from them the Secrets to create', () => {
    expect(json.secrets.filter((e: SecretsReportEntry) => e.madeBy === SecretMaker.YOU)).toEqual([
      { cluster: 'hub', namespace: 'clusters', name: 'hosted-dual-etcd-encryption-key', ...ETCD, madeBy: 'you', neededBy: ['hub/hosted-dual'] },
      { cluster: 'hub', namespace: 'clusters', name: 'hosted-dual-pull-secret', ...PULL, madeBy: 'you', neededBy: ['hub/hosted-dual'] },
      { cluster: 'hub', namespace: 'clusters-hosted-dual', name: 'pull-secret', ...PULL, madeBy: 'you', neededBy: ['hub/hosted-dual-infraenv'] },
    ]);
    expect(json.secrets).toHaveLength(6);
  });

  test('prints the External Secrets under a heading of their own', () => {
    expect(summaryOf(stderr).slice(4)).toEqual([
      '3 Secrets made by External Secrets (put the values in the store):',
      ...[0, 1, 2].map(
        (n) =>
          `  hub: clusters-hosted-dual/hosted-dual-worker${n}-bmc-secret ` +
          `(username: bmc/hosted-dual-worker${n}#username, password: bmc/hosted-dual-worker${n}#password; ClusterSecretStore lab-vault) ` +
          `for hub/hosted-dual-infraenv/hosted-dual-worker${n}`,
      ),
    ]);
  });

  test('every Secret the output references is in the output or in the report', () => {
    const objects = objectsIn(outdir);
    const made = new Set(secretsMade(objects));
    const reported = new Set(json.secrets.filter((e: SecretsReportEntry) => e.madeBy === SecretMaker.YOU).map((e: SecretsReportEntry) => `${e.namespace}/${e.name}`));
    expect(secretReferences(objects).filter((ref) => !made.has(ref) && !reported.has(ref))).toEqual([]);
    expect(secretReferences(objects)).toHaveLength(7);
  });
});

describe('HcpApp.secretsReport()', () => {
  test('one Secret read by two constructs is one entry naming both', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    cluster(hub, 'b');
    cluster(hub, 'a');
    expect(app.secretsReport()).toEqual([
      { cluster: 'hub', namespace: 'clusters', name: 'a-etcd-key', ...ETCD, madeBy: 'you', neededBy: ['hub/a'] },
      { cluster: 'hub', namespace: 'clusters', name: 'b-etcd-key', ...ETCD, madeBy: 'you', neededBy: ['hub/b'] },
      { cluster: 'hub', namespace: 'clusters', name: 'pull-secret', ...PULL, madeBy: 'you', neededBy: ['hub/a', 'hub/b'] },
    ]);
  });

  test('a Secret of the same name on two management clusters is two entries', () => {
    const app = new HcpApp();
    cluster(new ManagementCluster(app, 'hub-b'), 'one');
    cluster(new ManagementCluster(app, 'hub-a'), 'one');
    expect(
      app
        .secretsReport()
        .filter((e) => e.name === 'pull-secret')
        .map((e) => [e.cluster, e.neededBy]),
    ).toEqual([
      ['hub-a', ['hub-a/one']],
      ['hub-b', ['hub-b/one']],
    ]);
  });

  test('a Secret another construct makes through External Secrets is listed as made, for both readers', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    cluster(hub, 'c2', { pullSecret: SecretSource.fromExistingSecret('c1-pull-secret') });
    cluster(hub, 'c1', { pullSecret: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'pull' }) });
    expect(app.secretsReport().find((e) => e.name === 'c1-pull-secret')).toEqual({
      cluster: 'hub',
      namespace: 'clusters',
      name: 'c1-pull-secret',
      ...PULL,
      madeBy: 'external-secrets',
      store: { kind: 'ClusterSecretStore', name: 'vault' },
      remoteReferences: [{ secretKey: '.dockerconfigjson', remoteKey: 'pull' }],
      neededBy: ['hub/c1', 'hub/c2'],
    });
  });

  test('a reference to a Secret the output writes (an inline value) is not listed', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    cluster(hub, 'c1', { pullSecret: SecretSource.fromInlineValue('{"auths":{}}', { allowSecretInOutput: true }) });
    cluster(hub, 'c2', { pullSecret: SecretSource.fromExistingSecret('c1-pull-secret') });
    expect(app.secretsReport().map((e) => e.name)).toEqual(['c1-etcd-key', 'c2-etcd-key']);
  });

  test('a Secret of that name in another namespace does not satisfy the reference', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    new ApiObject(hub, 'own', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'pull-secret', namespace: 'elsewhere' } });
    cluster(hub, 'c1');
    expect(app.secretsReport().map((e) => `${e.namespace}/${e.name}`)).toEqual(['clusters/c1-etcd-key', 'clusters/pull-secret']);
  });

  test('lists the KubeVirt infrastructure kubeconfig and a sealed BMC Secret', () => {
    const app = new HcpApp();
    const hub = new ManagementCluster(app, 'hub');
    cluster(hub, 'kv', {
      platform: ClusterPlatform.kubevirt({ externalInfrastructure: { namespace: 'vms', kubeconfig: SecretSource.fromExistingSecret('infra-kubeconfig') } }),
    });
    const inventory = new InfraEnv(hub, 'inv', { namespace: 'inv', pullSecret: SecretSource.fromInlineValue('{"auths":{}}', { allowSecretInOutput: true }) });
    inventory.addHost('h1', {
      bmc: { address: 'redfish-virtualmedia://192.0.2.1/redfish/v1/Systems/1', credentials: BmcCredentials.fromSealedSecret({ username: 'AgA', password: 'AgB' }) },
      bootMacAddress: 'aa:aa:aa:aa:00:01',
    });
    expect(app.secretsReport()).toEqual([
      { cluster: 'hub', namespace: 'clusters', name: 'infra-kubeconfig', type: 'Opaque', keys: ['kubeconfig'], madeBy: 'you', neededBy: ['hub/kv'] },
      { cluster: 'hub', namespace: 'clusters', name: 'kv-etcd-key', ...ETCD, madeBy: 'you', neededBy: ['hub/kv'] },
      { cluster: 'hub', namespace: 'clusters', name: 'pull-secret', ...PULL, madeBy: 'you', neededBy: ['hub/kv'] },
      { cluster: 'hub', namespace: 'inv', name: 'h1-bmc-secret', ...BMC, madeBy: 'sealed-secrets', neededBy: ['hub/inv/h1'] },
    ]);
  });

  test('a Secret read inside a hosted cluster is listed for its guest folder', () => {
    const app = new HcpApp();
    const c1 = cluster(new ManagementCluster(app, 'hub'), 'c1');
    const reader = new ApiObject(c1.guest, 'app', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'shop' } });
    recordSecretRequirement(reader, { name: 'api-token', namespace: 'shop', type: 'Opaque', keys: ['token'], madeBy: SecretMaker.YOU });
    expect(app.secretsReport().filter((e) => e.cluster === 'c1-guest')).toEqual([
      { cluster: 'c1-guest', namespace: 'shop', name: 'api-token', type: 'Opaque', keys: ['token'], madeBy: 'you', neededBy: ['c1-guest/app'] },
    ]);
  });

  test('is the same list however often it is asked for', () => {
    const app = new HcpApp();
    cluster(new ManagementCluster(app, 'hub'), 'c1');
    expect(app.secretsReport()).toEqual(app.secretsReport());
    expect(app.secretsReport()).toHaveLength(2);
  });
});

describe('formatSecretsReport', () => {
  const entry = (n: number, madeBy: SecretMaker): SecretsReportEntry => ({ cluster: 'hub', namespace: 'ns', name: `s${n}`, type: 'Opaque', keys: ['k'], madeBy, neededBy: [`hub/c${n}`, 'hub/z'] });

  test('prints nothing when the output references no Secret it lacks', () => {
    expect(formatSecretsReport([])).toBeUndefined();
  });

  test('groups by who makes the Secret, and says how many more there are past the limit', () => {
    expect(formatSecretsReport([entry(1, SecretMaker.YOU), entry(2, SecretMaker.SEALED_SECRETS), entry(3, SecretMaker.YOU)], 2)!.split('\n')).toEqual([
      '2 Secrets to create yourself (the output references them; nothing in it makes them):',
      '  hub: ns/s1 (k) for hub/c1, hub/z',
      '  hub: ns/s3 (k) for hub/c3, hub/z',
      '1 Secret made by Sealed Secrets (from SealedSecrets in the output, sealed for this name and namespace):',
      '  ... and 1 more: HcpApp.secretsReport() or the secretsReportFile prop lists them all',
    ]);
  });
});

describe('secretsReportFile', () => {
  function appWithCluster(props: { outdir: string; secretsReportFile: string }): HcpApp {
    const app = new HcpApp({ ...props, compareWithPreviousOutput: false, keepLastGoodCopy: false });
    cluster(new ManagementCluster(app, 'hub'), 'c1');
    return app;
  }

  test('synth writes the report there as { "secrets": [...] }', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-secrets-'));
    const file = path.join(dir, 'reports', 'secrets.json');
    const app = appWithCluster({ outdir: path.join(dir, 'dist'), secretsReportFile: file });
    app.synth();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ secrets: app.secretsReport() });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^\{\n {2}"secrets": \[\n {4}\{\n {6}"cluster": "hub",\n/);
  });

  test('a synth that fails writes no report', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-secrets-'));
    const file = path.join(dir, 'secrets.json');
    const app = appWithCluster({ outdir: path.join(dir, 'dist'), secretsReportFile: file });
    app.node.addValidation({ validate: () => ['broken'] });
    expect(() => app.synth()).toThrow('broken');
    expect(fs.existsSync(file)).toBe(false);
  });

  test('fails when the file is inside the output directory', () => {
    expect(() => new HcpApp({ outdir: '/tmp/hcp-out', secretsReportFile: '/tmp/hcp-out/secrets.json' })).toThrow(
      'HcpApp: secretsReportFile ("/tmp/hcp-out/secrets.json") must be outside the output directory ("/tmp/hcp-out"): GitOps engines would read it as a manifest, and cdk8s synth deletes that directory',
    );
    expect(() => new HcpApp({ outdir: '/tmp/hcp-out', secretsReportFile: '/tmp/hcp-out' })).toThrow(/must be outside the output directory/);
    expect(() => new HcpApp({ outdir: '/tmp/hcp-out', secretsReportFile: '/tmp/hcp-out-secrets.json' })).not.toThrow();
  });
});

describe('Secrets constructs reference by a name of their own', () => {
  test("a cluster's default etcd key and an SSH key in an existing Secret", () => {
    const app = new HcpApp();
    new HostedCluster(new ManagementCluster(app, 'hub'), 'c1', {
      release: RELEASE,
      baseDomain: 'example.com',
      pullSecret: SecretSource.fromInlineValue('{"auths":{}}', { allowSecretInOutput: true }),
      sshKey: SshPublicKey.fromExistingSecret('c1-ssh'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    });
    expect(app.secretsReport()).toEqual([
      { cluster: 'hub', namespace: 'clusters', name: 'c1-etcd-encryption-key', ...ETCD, madeBy: 'you', neededBy: ['hub/c1'] },
      { cluster: 'hub', namespace: 'clusters', name: 'c1-ssh', type: 'Opaque', keys: ['id_rsa.pub'], madeBy: 'you', neededBy: ['hub/c1'] },
    ]);
  });

  test("a fleet cluster's default pull secret", () => {
    const app = new HcpApp();
    Fleet.fromInventory(app, {
      defaults: { releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-x86_64', baseDomain: 'fleet.example.com' },
      managementClusters: [{ name: 'hub-a', clusters: [{ name: 'virt-1', platform: 'KubeVirt' }] }],
    });
    expect(app.secretsReport().map((e) => [e.cluster, `${e.namespace}/${e.name}`, e.keys])).toEqual([
      ['hub-a', 'clusters/virt-1-etcd-encryption-key', ['key']],
      ['hub-a', 'clusters/virt-1-pull-secret', ['.dockerconfigjson']],
    ]);
  });

  test('an existing external-DNS credentials Secret must carry the plain keys too', () => {
    const app = new HcpApp();
    new ExternalDnsCredentialsSecret(new ManagementCluster(app, 'hub'), 'external-dns', {
      domainFilter: 'service.example.com',
      credentials: SecretSource.fromExistingSecret('hypershift-operator-external-dns-credentials'),
    });
    expect(app.secretsReport()).toEqual([
      {
        cluster: 'hub',
        namespace: 'local-cluster',
        name: 'hypershift-operator-external-dns-credentials',
        type: 'Opaque',
        keys: ['credentials', 'provider', 'domain-filter'],
        madeBy: 'you',
        neededBy: ['hub/external-dns'],
      },
    ]);
  });
});
