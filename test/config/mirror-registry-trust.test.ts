import { ApiObject, JsonPatch } from 'cdk8s';
import { HcpApp, ImageMirrors, ManagementCluster, MirrorRegistryTrust, MirrorRegistryTrustProps } from '../../lib';
import { DNS1123_SUBDOMAIN_RULE } from '../../lib/core/names';
import { findObject, synthFiles, synthObjects, synthProblems, PRUNE_PROTECTION } from '../util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZ2V4YW1wbGU=\n-----END CERTIFICATE-----';
const REPOSITORIES = [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['registry.dns.base.domain.name:5000/openshift/release-images'] }];
const MIRRORS = new ImageMirrors({ registry: 'registry.dns.base.domain.name:5000', caPem: CA, repositories: REPOSITORIES });

function appWith(props: MirrorRegistryTrustProps): HcpApp {
  const app = new HcpApp({ outdir: '/nonexistent' });
  new MirrorRegistryTrust(new ManagementCluster(app, 'hub'), 'registry-trust', props);
  return app;
}

describe('MirrorRegistryTrust (docs 5.2.5.1)', () => {
  test('step 1: the CA in a ConfigMap of openshift-config, keyed host..port, as a `|` block', () => {
    const app = appWith({ mirrors: MIRRORS });
    const configMap = findObject(synthObjects(app), 'ConfigMap');
    expect(configMap.metadata).toEqual({ name: 'registry-config', namespace: 'openshift-config', annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } });
    expect(configMap.data).toEqual({ 'registry.dns.base.domain.name..5000': `${CA}\n` });
    const text = synthFiles(app).find((f) => f.path.includes('configmap'))!.text;
    expect(text).toContain('registry.dns.base.domain.name..5000: |\n');
  });

  test('step 2: the image configuration cluster names it in additionalTrustedCA, after the ConfigMap, protected', () => {
    const app = appWith({ mirrors: MIRRORS, configMapName: 'mirror-ca' });
    expect(synthFiles(app).map((f) => f.path)).toEqual(['hub/20-configmap-openshift-config_mirror-ca.yaml', 'hub/21-image-cluster.yaml']);
    const image = findObject(synthObjects(app), 'Image');
    expect(image).toEqual({
      apiVersion: 'config.openshift.io/v1',
      kind: 'Image',
      metadata: { name: 'cluster', annotations: { 'argocd.argoproj.io/sync-wave': '21', ...PRUNE_PROTECTION } },
      spec: { additionalTrustedCA: { name: 'mirror-ca' } },
    });
  });

  test('a registry without a port is keyed by its host; extra trailing newlines are trimmed to one', () => {
    const mirrors = new ImageMirrors({
      registry: 'mirror.example.com',
      caPem: `${CA}\n\n\n`,
      repositories: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['mirror.example.com/ocp'] }],
    });
    expect(findObject(synthObjects(appWith({ mirrors })), 'ConfigMap').data).toEqual({ 'mirror.example.com': `${CA}\n` });
  });

  test('fails without a CA, with a CA that is no certificate, or a bad ConfigMap name', () => {
    const noCa = new ImageMirrors({ registry: 'registry.dns.base.domain.name:5000', repositories: REPOSITORIES });
    expect(synthProblems((app) => new MirrorRegistryTrust(new ManagementCluster(app, 'hub'), 'trust', { mirrors: noCa, configMapName: 'Registry_CA' }))).toEqual([
      `hub/trust: configMapName ("Registry_CA") ${DNS1123_SUBDOMAIN_RULE}`,
      "hub/trust: mirrors.caPem (undefined) must be the PEM of the mirror registry's CA; a registry whose certificate the hub trusts already needs no MirrorRegistryTrust",
    ]);
    const notPem = new ImageMirrors({ registry: 'registry.dns.base.domain.name:5000', caPem: 'not a certificate', repositories: REPOSITORIES });
    expect(synthProblems((app) => new MirrorRegistryTrust(new ManagementCluster(app, 'hub'), 'trust', { mirrors: notPem }))).toEqual([
      'hub/trust: mirrors.caPem ("not a certificate") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
    ]);
    const withKey = new ImageMirrors({ registry: 'registry.dns.base.domain.name:5000', caPem: `${CA}\n-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n`, repositories: REPOSITORIES });
    expect(synthProblems((app) => new MirrorRegistryTrust(new ManagementCluster(app, 'hub'), 'trust', { mirrors: withKey }))).toEqual([
      "hub/trust: mirrors.caPem (PEM text) holds a private key; give the CA's certificates only, a key must never be in the output",
    ]);
  });

  test('fails when a management cluster declares two, since the image configuration names one ConfigMap', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        new MirrorRegistryTrust(hub, 'one', { mirrors: MIRRORS });
        new MirrorRegistryTrust(hub, 'two', { mirrors: MIRRORS, configMapName: 'other' });
      }),
    ).toEqual(['hub/two: the image configuration cluster names one ConfigMap of CAs, and hub/one writes it already; give one MirrorRegistryTrust per management cluster']);
  });

  test('resource is the Image and configMap the ConfigMap, for escape hatches', () => {
    const app = new HcpApp({ outdir: '/nonexistent' });
    const trust = new MirrorRegistryTrust(new ManagementCluster(app, 'hub'), 'trust', { mirrors: MIRRORS });
    ApiObject.of(trust.resource).addJsonPatch(JsonPatch.add('/spec/allowedRegistriesForImport', [{ domainName: 'registry.dns.base.domain.name:5000', insecure: false }]));
    trust.configMap.metadata.addLabel('app', 'mirror');
    const objects = synthObjects(app);
    expect(findObject(objects, 'Image').spec.allowedRegistriesForImport).toEqual([{ domainName: 'registry.dns.base.domain.name:5000', insecure: false }]);
    expect(findObject(objects, 'ConfigMap').metadata.labels).toEqual({ app: 'mirror' });
    expect(trust.registryKey).toBe('registry.dns.base.domain.name..5000');
  });
});

test('snapshot: ConfigMap and Image', () => {
  expect(synthObjects(appWith({ mirrors: MIRRORS }))).toMatchSnapshot();
});
