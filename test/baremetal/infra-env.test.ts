import { allowHostsWithoutCluster, BmcCredentials, ClusterPlatform, CpuArchitecture, HcpApp, InfraEnv, InfraEnvProps, ManagementCluster, NMStateConfig, SecretSource, SshPublicKey } from '../../lib';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { SSH_PUBLIC_KEY_RULE } from '../../lib/core/ssh-public-key';
import { newCluster, PULL_SECRET_JSON, SSH_KEY, synthAppOf } from '../props';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUDpVv0Z2J\n-----END CERTIFICATE-----\n';
const IGNITION = '{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/motd","contents":{"source":"data:,lab"}}]}}';

/** InfraEnv `lab` in namespace `hardware-inventory` of chart `hub`, varied by `props`. */
function newInfraEnv(props: Partial<InfraEnvProps> = {}, app = new HcpApp({ outdir: '/nonexistent' })): InfraEnv {
  const hub = new ManagementCluster(app, 'hub');
  // The InfraEnv and its hosts on their own, without a cluster that takes their Agents.
  allowHostsWithoutCluster(hub, { reason: 'an inventory under test' });
  return new InfraEnv(hub, 'lab', {
    namespace: 'hardware-inventory',
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    ...props,
  });
}

function infraEnvObject(props: Partial<InfraEnvProps> = {}): any {
  return findObject(synthAppOf(newInfraEnv(props)), 'InfraEnv');
}

function infraEnvProblems(props: Partial<InfraEnvProps>): string[] {
  return synthProblems((app) => newInfraEnv(props, app));
}

function addWorker(infraEnv: InfraEnv, networkConfig = false): void {
  infraEnv.addHost('worker-0', {
    bmc: { address: 'redfish-virtualmedia://192.0.2.20/redfish/v1/Systems/1', credentials: BmcCredentials.fromExistingSecret('worker-0-bmc') },
    bootMacAddress: 'aa:bb:cc:00:11:22',
    networkConfig: networkConfig ? { interfaces: [{ name: 'eth0', macAddress: 'aa:bb:cc:00:11:22' }], config: { interfaces: [{ name: 'eth0', type: 'ethernet', state: 'up' }] } } : undefined,
  });
}

describe('InfraEnv', () => {
  describe('the InfraEnv object', () => {
    test('is agent-install.openshift.io/v1beta1 in its namespace, named after the construct id, ranked 70', () => {
      const infraEnv = infraEnvObject();
      expect(infraEnv.apiVersion).toBe('agent-install.openshift.io/v1beta1');
      expect(infraEnv.kind).toBe('InfraEnv');
      expect(infraEnv.metadata).toEqual({
        name: 'lab',
        namespace: 'hardware-inventory',
        annotations: { 'argocd.argoproj.io/sync-wave': '45', ...PRUNE_PROTECTION },
      });
    });

    test('with only the required props, the spec holds just the pull secret reference', () => {
      expect(infraEnvObject().spec).toEqual({ pullSecretRef: { name: 'pull-secret' } });
    });

    test('name overrides the construct id', () => {
      const infraEnv = newInfraEnv({ name: 'lab-x86' });
      expect(infraEnv.infraEnvName).toBe('lab-x86');
      expect(infraEnv.outputFolder).toBe('lab-x86');
      expect(infraEnv.namespace).toBe('hardware-inventory');
      expect(findObject(synthAppOf(infraEnv), 'InfraEnv').metadata.name).toBe('lab-x86');
    });
  });

  describe('namespace', () => {
    test('writes the Namespace object, in the chart folder', () => {
      const infraEnv = newInfraEnv();
      const files = (infraEnv.node.root as HcpApp).synthesize();
      expect(files.map((f) => f.path)).toContain('hub/00-namespace-hardware-inventory.yaml');
      expect(findObject(synthAppOf(infraEnv), 'Namespace')).toEqual({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '0', ...PRUNE_PROTECTION } },
      });
    });

    test('two InfraEnvs in one chart, in different namespaces, write one Namespace each', () => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      const hub = new ManagementCluster(app, 'hub');
      new InfraEnv(hub, 'x86', { namespace: 'inventory-x86', pullSecret: SecretSource.fromExistingSecret('pull-secret') });
      new InfraEnv(hub, 'arm', { namespace: 'inventory-arm', pullSecret: SecretSource.fromExistingSecret('pull-secret'), cpuArchitecture: CpuArchitecture.AARCH64 });
      const namespaces = synthAppOf(hub)
        .filter((o) => o.kind === 'Namespace')
        .map((o) => o.metadata.name);
      expect(namespaces).toEqual(['inventory-arm', 'inventory-x86']);
    });
  });

  describe('pull secret', () => {
    test('an existing Secret is referenced by its name and nothing is written for it', () => {
      const objects = synthAppOf(newInfraEnv({ pullSecret: SecretSource.fromExistingSecret('my-pull-secret') }));
      expect(findObject(objects, 'InfraEnv').spec.pullSecretRef).toEqual({ name: 'my-pull-secret' });
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    });

    test('an inline value becomes Secret pull-secret of type dockerconfigjson in the InfraEnv namespace', () => {
      const objects = synthAppOf(newInfraEnv({ pullSecret: SecretSource.fromInlineValue(PULL_SECRET_JSON, { allowSecretInOutput: true }) }));
      expect(findObject(objects, 'InfraEnv').spec.pullSecretRef).toEqual({ name: 'pull-secret' });
      const secret = findObject(objects, 'Secret');
      expect(secret).toEqual({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'pull-secret', namespace: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': Buffer.from(PULL_SECRET_JSON).toString('base64') },
      });
      expect(Buffer.from(secret.data['.dockerconfigjson'], 'base64').toString('utf8')).toBe(PULL_SECRET_JSON);
    });

    test('an ExternalSecret is written in the InfraEnv namespace for the dockerconfigjson key', () => {
      const objects = synthAppOf(newInfraEnv({ pullSecret: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret' }) }));
      const external = findObject(objects, 'ExternalSecret');
      expect(external.metadata.name).toBe('pull-secret');
      expect(external.metadata.namespace).toBe('hardware-inventory');
      expect(external.spec.target.template.type).toBe('kubernetes.io/dockerconfigjson');
      expect(external.spec.data).toEqual([{ secretKey: '.dockerconfigjson', remoteRef: { key: 'ocp/pull-secret' } }]);
      expect(findObject(objects, 'InfraEnv').spec.pullSecretRef).toEqual({ name: 'pull-secret' });
    });
  });

  describe('spec fields', () => {
    test('sshAuthorizedKey is the key text', () => {
      expect(infraEnvObject({ sshAuthorizedKey: SshPublicKey.fromString(`  ${SSH_KEY}\n`) }).spec.sshAuthorizedKey).toBe(SSH_KEY);
    });

    test('cpuArchitecture', () => {
      expect(infraEnvObject({ cpuArchitecture: CpuArchitecture.AARCH64 }).spec.cpuArchitecture).toBe('aarch64');
      expect(infraEnvObject({ cpuArchitecture: CpuArchitecture.X86_64 }).spec.cpuArchitecture).toBe('x86_64');
      expect(infraEnvObject().spec.cpuArchitecture).toBeUndefined();
    });

    test('agentLabels are written and exposed', () => {
      const labels = { 'hcp.example.com/pool': 'vcluster2', rack: 'r1' };
      const infraEnv = newInfraEnv({ agentLabels: labels });
      expect(infraEnv.agentLabels).toEqual(labels);
      expect(findObject(synthAppOf(infraEnv), 'InfraEnv').spec.agentLabels).toEqual(labels);
    });

    test('empty agentLabels are left out', () => {
      expect(infraEnvObject({ agentLabels: {} }).spec.agentLabels).toBeUndefined();
    });

    test('proxy: noProxy is joined by commas', () => {
      const spec = infraEnvObject({
        proxy: { httpProxy: 'http://proxy.example.com:3128', httpsProxy: 'https://proxy.example.com:3129', noProxy: ['.example.com', '10.0.0.0/8', '192.0.2.10'] },
      }).spec;
      expect(spec.proxy).toEqual({
        httpProxy: 'http://proxy.example.com:3128',
        httpsProxy: 'https://proxy.example.com:3129',
        noProxy: '.example.com,10.0.0.0/8,192.0.2.10',
      });
    });

    test('proxy: fields not given are left out', () => {
      expect(infraEnvObject({ proxy: { httpsProxy: 'http://proxy.example.com:3128' } }).spec.proxy).toEqual({ httpsProxy: 'http://proxy.example.com:3128' });
    });

    test('additionalNTPSources', () => {
      expect(infraEnvObject({ additionalNtpSources: ['ntp1.example.com', '192.0.2.123'] }).spec.additionalNTPSources).toEqual(['ntp1.example.com', '192.0.2.123']);
    });

    test('additionalTrustBundle', () => {
      expect(infraEnvObject({ additionalTrustBundle: CA }).spec.additionalTrustBundle).toBe(CA);
    });

    test('ignitionConfigOverride is the JSON text as given', () => {
      expect(infraEnvObject({ ignitionConfigOverride: IGNITION }).spec.ignitionConfigOverride).toBe(IGNITION);
    });
  });

  describe('nmStateConfigLabelSelector', () => {
    test('is absent when no NMStateConfig exists, also with hosts on DHCP', () => {
      const infraEnv = newInfraEnv();
      addWorker(infraEnv);
      expect(findObject(synthAppOf(infraEnv), 'InfraEnv').spec.nmStateConfigLabelSelector).toBeUndefined();
    });

    test('selects by the InfraEnv label when a host has a network config', () => {
      const infraEnv = newInfraEnv();
      addWorker(infraEnv, true);
      expect(findObject(synthAppOf(infraEnv), 'InfraEnv').spec.nmStateConfigLabelSelector).toEqual({
        matchLabels: { 'infraenvs.agent-install.openshift.io': 'lab' },
      });
    });

    test('selects by the InfraEnv label when an NMStateConfig is added on its own, also after the InfraEnv was made', () => {
      const infraEnv = newInfraEnv({ name: 'lab-x86' });
      new NMStateConfig(infraEnv, 'static-0', {
        infraEnv,
        interfaces: [{ name: 'eth0', macAddress: 'aa:bb:cc:00:11:99' }],
        config: { interfaces: [{ name: 'eth0', type: 'ethernet', state: 'up' }] },
      });
      expect(findObject(synthAppOf(infraEnv), 'InfraEnv').spec.nmStateConfigLabelSelector).toEqual({
        matchLabels: { 'infraenvs.agent-install.openshift.io': 'lab-x86' },
      });
    });
  });

  describe('capi-provider-role', () => {
    test('is not written by default: the HyperShift Operator creates and binds its own Role and deletes this legacy one', () => {
      expect(synthAppOf(newInfraEnv()).filter((o) => o.kind === 'Role')).toEqual([]);
    });

    test('capiProviderRole: true writes the legacy Role of docs 5.3.13.1, for an operator older than that change', () => {
      expect(findObject(synthAppOf(newInfraEnv({ capiProviderRole: true })), 'Role')).toEqual({
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'capi-provider-role', namespace: 'hardware-inventory', annotations: { 'argocd.argoproj.io/sync-wave': '10' } },
        rules: [{ apiGroups: ['agent-install.openshift.io'], resources: ['agents'], verbs: ['*'] }],
      });
    });
  });

  describe('status outputs', () => {
    test('isoDownloadUrl gives the JSONPath and the oc command', () => {
      expect(newInfraEnv().isoDownloadUrl).toEqual({
        description: 'discovery ISO download URL',
        jsonPath: '{.status.isoDownloadURL}',
        command: "oc -n hardware-inventory get infraenv lab -o jsonpath='{.status.isoDownloadURL}'",
      });
    });

    test('ipxeScriptUrl gives the JSONPath and the oc command', () => {
      expect(newInfraEnv({ name: 'lab-x86', namespace: 'inventory' }).ipxeScriptUrl).toEqual({
        description: 'iPXE script URL',
        jsonPath: '{.status.bootArtifacts.ipxeScript}',
        command: "oc -n inventory get infraenv lab-x86 -o jsonpath='{.status.bootArtifacts.ipxeScript}'",
      });
    });
  });

  test('writes its objects to <chart>/<infraenv name>/, ranked for apply, the Namespace to the chart folder', () => {
    const infraEnv = newInfraEnv({ pullSecret: SecretSource.fromInlineValue(PULL_SECRET_JSON, { allowSecretInOutput: true }) });
    addWorker(infraEnv, true);
    expect(synthFiles(infraEnv.node.root as HcpApp).map((f) => f.path)).toEqual([
      'hub/00-namespace-hardware-inventory.yaml',
      'hub/lab/20-secret-hardware-inventory_pull-secret.yaml',
      'hub/lab/44-nmstateconfig-hardware-inventory_worker-0.yaml',
      'hub/lab/45-infraenv-hardware-inventory_lab.yaml',
      'hub/lab/46-baremetalhost-hardware-inventory_worker-0.yaml',
    ]);
  });

  test('writes to <chart>/<name>-infraenv/ when a HostedCluster of the chart has its name, so that the two folders stay apart', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const hub = new ManagementCluster(app, 'hub');
    new InfraEnv(hub, 'inventory', { name: 'c1', namespace: 'c1-agents', pullSecret: SecretSource.fromExistingSecret('pull-secret') });
    newCluster({ platform: ClusterPlatform.agent({ agentNamespace: 'c1-agents', apiServerAddress: '192.0.2.1' }) }, app, hub);
    const paths = synthFiles(app).map((f) => f.path);
    expect(paths).toContain('hub/c1-infraenv/45-infraenv-c1-agents_c1.yaml');
    expect(paths).toContain('hub/c1/50-hostedcluster-clusters_c1.yaml');
  });

  test('snapshot of a full InfraEnv', () => {
    const infraEnv = newInfraEnv({
      pullSecret: SecretSource.fromInlineValue(PULL_SECRET_JSON, { allowSecretInOutput: true }),
      sshAuthorizedKey: SshPublicKey.fromString(SSH_KEY),
      cpuArchitecture: CpuArchitecture.X86_64,
      agentLabels: { 'hcp.example.com/pool': 'vcluster2' },
      proxy: { httpProxy: 'http://proxy.example.com:3128', httpsProxy: 'http://proxy.example.com:3128', noProxy: ['.example.com', '10.0.0.0/8'] },
      additionalNtpSources: ['ntp1.example.com'],
      additionalTrustBundle: CA,
      ignitionConfigOverride: IGNITION,
    });
    addWorker(infraEnv, true);
    expect(synthAppOf(infraEnv)).toMatchSnapshot();
  });

  describe('validation', () => {
    test('fails when the name is not a DNS-1123 subdomain', () => {
      expect(infraEnvProblems({ name: 'Lab_1' })).toEqual([`hub/lab: name ("Lab_1") ${DNS1123_SUBDOMAIN_RULE}`]);
    });

    test('fails when the name is longer than a label value', () => {
      const name = 'a'.repeat(64);
      expect(infraEnvProblems({ name })).toEqual([`hub/lab: name ("${name}") must also be a label value (at most 63 characters): hosts select it with the infraenvs.agent-install.openshift.io label`]);
    });

    test('fails when the namespace is not a DNS-1123 label', () => {
      expect(infraEnvProblems({ namespace: 'hardware.inventory' })).toEqual([`hub/lab: namespace ("hardware.inventory") ${DNS1123_LABEL_RULE}`]);
    });

    test('fails when an agent label key is invalid', () => {
      expect(infraEnvProblems({ agentLabels: { 'bad key': 'x' } })).toEqual(['hub/lab: agentLabels key ("bad key") must be a label key: [prefix/]name, name at most 63 characters']);
    });

    test('fails when an agent label key has an invalid prefix', () => {
      expect(infraEnvProblems({ agentLabels: { 'Example.COM/pool': 'x' } })).toEqual(['hub/lab: agentLabels key ("Example.COM/pool") must be a label key: [prefix/]name, name at most 63 characters']);
    });

    test('fails when an agent label value is invalid', () => {
      expect(infraEnvProblems({ agentLabels: { pool: 'a b' } })).toEqual(['hub/lab: agentLabels.pool ("a b") must be a label value: at most 63 letters, digits, "-", "_" or "."']);
    });

    test('fails when sshAuthorizedKey comes from an existing Secret', () => {
      expect(infraEnvProblems({ sshAuthorizedKey: SshPublicKey.fromExistingSecret('ssh-key') })).toEqual([
        'hub/lab: sshAuthorizedKey (SshPublicKey.fromExistingSecret("ssh-key")) must be key text: the InfraEnv embeds the key, it cannot reference a Secret',
      ]);
    });

    test('fails when sshAuthorizedKey is a private key', () => {
      const privateKey = '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmU=\n-----END OPENSSH PRIVATE KEY-----\n';
      expect(infraEnvProblems({ sshAuthorizedKey: SshPublicKey.fromString(privateKey) })).toEqual([
        'hub/lab: sshAuthorizedKey ("-----BEGIN OPENSSH PRIVATE KEY-----\\nb...") is a private key; give the public key',
      ]);
    });

    test('fails when sshAuthorizedKey is a file path', () => {
      expect(infraEnvProblems({ sshAuthorizedKey: SshPublicKey.fromString('~/.ssh/id_ed25519.pub') })).toEqual([
        'hub/lab: sshAuthorizedKey ("~/.ssh/id_ed25519.pub") is a file path; give the key text, e.g. fs.readFileSync(path, "utf8")',
      ]);
    });

    test('fails when sshAuthorizedKey is not OpenSSH public key text', () => {
      expect(infraEnvProblems({ sshAuthorizedKey: SshPublicKey.fromString('ssh-ed25519 short') })).toEqual([`hub/lab: sshAuthorizedKey ("ssh-ed25519 short") ${SSH_PUBLIC_KEY_RULE}`]);
    });

    test('fails when additionalTrustBundle has no PEM certificate', () => {
      expect(infraEnvProblems({ additionalTrustBundle: '/etc/pki/ca-trust/source/anchors/mirror.crt' })).toEqual([
        'hub/lab: additionalTrustBundle ("/etc/pki/ca-trust/source/anchors/mirror.") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
      ]);
    });

    test('fails when ignitionConfigOverride is not JSON', () => {
      expect(infraEnvProblems({ ignitionConfigOverride: 'ignition: {version: 3.2.0}' })).toEqual([
        'hub/lab: ignitionConfigOverride ("ignition: {version: 3.2.0}") must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})',
      ]);
    });

    test('fails when ignitionConfigOverride is JSON but no object', () => {
      expect(infraEnvProblems({ ignitionConfigOverride: '["ignition"]' })).toEqual([
        'hub/lab: ignitionConfigOverride ("[\\"ignition\\"]") must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})',
      ]);
    });

    test('fails when ignitionConfigOverride is long, showing its first 40 characters', () => {
      const text = `not json ${'x'.repeat(60)}`;
      expect(infraEnvProblems({ ignitionConfigOverride: text })).toEqual([
        `hub/lab: ignitionConfigOverride ("${text.slice(0, 40)}") must be an Ignition config as JSON text ({"ignition": {"version": "3.2.0"}, ...})`,
      ]);
    });

    test('fails when the HTTP proxy is not an http(s) URL', () => {
      expect(infraEnvProblems({ proxy: { httpProxy: 'socks5://proxy.example.com:1080' } })).toEqual([
        'hub/lab: proxy.httpProxy ("socks5://proxy.example.com:1080") must be an http:// or https:// URL',
      ]);
    });

    test('fails when the HTTPS proxy has no scheme', () => {
      expect(infraEnvProblems({ proxy: { httpsProxy: 'proxy.example.com:3128' } })).toEqual(['hub/lab: proxy.httpsProxy ("proxy.example.com:3128") must be an http:// or https:// URL']);
    });

    test('fails when the inline pull secret is not dockerconfigjson', () => {
      expect(infraEnvProblems({ pullSecret: SecretSource.fromInlineValue('{"quay.io":{"auth":"x"}}', { allowSecretInOutput: true }) })).toEqual([
        'hub/lab: pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}',
      ]);
    });

    test('fails with every problem at once', () => {
      expect(
        infraEnvProblems({
          name: 'Lab_1',
          namespace: 'Inventory',
          additionalTrustBundle: 'none',
          proxy: { httpProxy: 'proxy:3128' },
          pullSecret: SecretSource.fromInlineValue('not json', { allowSecretInOutput: true }),
        }),
      ).toEqual([
        `hub/lab: name ("Lab_1") ${DNS1123_SUBDOMAIN_RULE}`,
        `hub/lab: namespace ("Inventory") ${DNS1123_LABEL_RULE}`,
        'hub/lab: additionalTrustBundle ("none") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
        'hub/lab: proxy.httpProxy ("proxy:3128") must be an http:// or https:// URL',
        'hub/lab: pullSecret (inline value) must be dockerconfigjson text: {"auths": {"<registry>": {"auth": "..."}}}',
      ]);
    });
  });
});

describe('clusterDeploymentRef', () => {
  test('writes spec.clusterRef for the ClusterDeployment flow, and is absent by default', () => {
    const build = (ref?: { name: string; namespace: string }) => {
      const app = new HcpApp();
      new InfraEnv(new ManagementCluster(app, 'hub'), 'lab', { namespace: 'hardware-inventory', pullSecret: SecretSource.fromExistingSecret('pull-secret'), clusterDeploymentRef: ref });
      return findObject(synthObjects(app), 'InfraEnv').spec.clusterRef;
    };
    expect(build({ name: 'sno-1', namespace: 'sno-1' })).toEqual({ name: 'sno-1', namespace: 'sno-1' });
    expect(build()).toBeUndefined();
  });

  test('fails when the reference is not a valid name and namespace', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    new InfraEnv(new ManagementCluster(app, 'hub'), 'lab', {
      namespace: 'hardware-inventory',
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      clusterDeploymentRef: { name: 'Bad_Name', namespace: 'x.y' },
    });
    expect(() => app.synthesize()).toThrow('2 problems:\n  - hub/lab: clusterDeploymentRef.name ("Bad_Name") must be a DNS-1123 subdomain');
  });
});
