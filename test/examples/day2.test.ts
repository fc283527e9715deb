import * as fs from 'fs';
import * as path from 'path';
import * as YAML from 'yaml';
import { cdk8sSynth, expectKustomizationsListTheirFolders, foldersOf, readTree, testValidAndRepeatable } from './example-synth';

const EXAMPLE = 'build/examples/day2/main.js';
const FILES = [
  'hub/00-namespace-clusters.yaml',
  'hub/05-multiclusterengine-multiclusterengine.yaml',
  'hub/06-agentserviceconfig-agent.yaml',
  'hub/20-configmap-multicluster-engine_custom-registries.yaml',
  'hub/40-imagedigestmirrorset-mirrors.yaml',
  'hub/day2/20-configmap-clusters_day2-chrony.yaml',
  'hub/day2/20-configmap-clusters_day2-performance.yaml',
  'hub/day2/20-configmap-clusters_tuned-1.yaml',
  'hub/day2/20-configmap-clusters_user-ca-bundle.yaml',
  'hub/day2/20-externalsecret-clusters_day2-break-glass-htpasswd.yaml',
  'hub/day2/20-externalsecret-clusters_day2-corp-sso-client-secret.yaml',
  'hub/day2/50-hostedcluster-clusters_day2.yaml',
  'hub/day2/60-nodepool-clusters_day2-low-latency.yaml',
  'hub/day2/60-nodepool-clusters_day2-workers.yaml',
];

describe('examples/day2: identity, API server, node configuration and mirrors on one cluster, through the cdk8s CLI', () => {
  const first = cdk8sSynth(EXAMPLE);
  const second = cdk8sSynth(EXAMPLE);
  const tree = readTree(first.outdir);
  const files = new Map([...tree].filter(([name]) => !name.endsWith('kustomization.yaml')));
  const read = (file: string) => YAML.parse(fs.readFileSync(path.join(first.outdir, file), 'utf8'));
  const cluster = () => read('hub/day2/50-hostedcluster-clusters_day2.yaml');

  test('synthesizes the management cluster folder and prints what to do outside the output', () => {
    expect(first.status).toBe(0);
    expect([...files.keys()].sort()).toEqual(FILES);
    // The OAuth server is a NodePort allocated at apply: the note says where HyperShift reports the URL, and prints none.
    expect(first.output).toContain(
      'hcp-cdk: note: hub/day2/oauth: identity provider "corp-sso" (OpenID): register the OAuth server\'s callback as the client\'s redirect URL, ' +
        'which is known once the server is published: HyperShift reports it in status.oauthCallbackURLTemplate of HostedCluster clusters/day2, with [identity-provider-name] standing for corp-sso ' +
        "(oc get hostedcluster day2 -n clusters -o jsonpath='{.status.oauthCallbackURLTemplate}'); or give the OAuthServer's NodePort a fixed port to have it printed here",
    );
    expect(first.output).not.toContain('oauth2callback');
    expect(first.output).toContain('hcp-cdk: note: hub/day2/oauth: identity providers (corp-sso, break-glass) replace the kubeadmin user');
    expect(first.output).toContain('hcp-cdk: note: hub/day2/features: featureSet TechPreviewNoUpgrade is irreversible');
    expect(first.output).toContain('clusters/day2-api-certificate (tls.crt, tls.key) for hub/day2/api-server');
  });

  testValidAndRepeatable(first, second, tree, FILES.length);

  test('every folder below the root has a kustomization.yaml listing its files and sub-folders', () => {
    expectKustomizationsListTheirFolders(tree, foldersOf(files));
  });

  test('contains no secret material: every Secret is referenced or made by External Secrets', () => {
    expect([...files.values()].filter((text) => /^kind: Secret$/m.test(text))).toEqual([]);
    expect(read('hub/day2/20-externalsecret-clusters_day2-corp-sso-client-secret.yaml').spec.data).toEqual([{ secretKey: 'clientSecret', remoteRef: { key: 'oauth/day2', property: 'clientSecret' } }]);
  });

  test('spec.configuration carries OAuth, the API server, proxy, registries and the feature set from their constructs', () => {
    const configuration = cluster().spec.configuration;
    expect(Object.keys(configuration).sort()).toEqual(['apiServer', 'featureGate', 'image', 'oauth', 'proxy']);
    expect(configuration.oauth.identityProviders.map((p: any) => [p.name, p.type])).toEqual([
      ['corp-sso', 'OpenID'],
      ['break-glass', 'HTPasswd'],
    ]);
    expect(configuration.oauth.identityProviders[0].openID.clientSecret).toEqual({ name: 'day2-corp-sso-client-secret' });
    expect(configuration.oauth.tokenConfig).toEqual({ accessTokenInactivityTimeout: '28800s' });
    expect(configuration.apiServer).toEqual({
      audit: { profile: 'WriteRequestBodies' },
      servingCerts: { namedCertificates: [{ names: ['api.day2.corp.example.com'], servingCertificate: { name: 'day2-api-certificate' } }] },
    });
    expect(configuration.proxy).toEqual({ httpsProxy: 'http://proxy.example.com:3128', noProxy: '.lab.example.com,192.168.126.0/24' });
    expect(configuration.image.registrySources.allowedRegistries).toEqual(['registry.lab.example.com:5000', 'quay.io/openshift-release-dev', 'registry.redhat.io']);
    expect(configuration.featureGate).toEqual({ featureSet: 'TechPreviewNoUpgrade' });
  });

  test('the node pools share the chrony MachineConfig and the Tuned; only the low-latency pool has the PerformanceProfile', () => {
    expect(read('hub/day2/60-nodepool-clusters_day2-workers.yaml').spec).toEqual(expect.objectContaining({ config: [{ name: 'day2-chrony' }], tuningConfig: [{ name: 'tuned-1' }] }));
    expect(read('hub/day2/60-nodepool-clusters_day2-low-latency.yaml').spec).toEqual(
      expect.objectContaining({
        config: [{ name: 'day2-chrony' }],
        tuningConfig: [{ name: 'tuned-1' }, { name: 'day2-performance' }],
      }),
    );
    const chrony = YAML.parse(read('hub/day2/20-configmap-clusters_day2-chrony.yaml').data.config);
    expect(chrony.kind).toBe('MachineConfig');
    expect(chrony.spec.config.storage.files[0].path).toBe('/etc/chrony.conf');
    expect(YAML.parse(read('hub/day2/20-configmap-clusters_day2-performance.yaml').data.tuning).spec.cpu).toEqual({ reserved: '0-1', isolated: '2-15' });
  });

  test('one mirror description feeds the HostedCluster, the ImageDigestMirrorSet, the assisted service and the OLM catalogs', () => {
    const hc = cluster();
    expect(hc.spec.release.image).toMatch(/^registry\.lab\.example\.com:5000\/openshift\/release-images@sha256:[0-9a-f]{64}$/);
    expect(read('hub/40-imagedigestmirrorset-mirrors.yaml').spec.imageDigestMirrors).toEqual(hc.spec.imageContentSources);
    expect(hc.spec.imageContentSources.map((s: any) => s.source)).toEqual([
      'quay.io/openshift-release-dev/ocp-v4.0-art-dev',
      'quay.io/openshift-release-dev/ocp-release',
      'registry.redhat.io/openshift4',
      'registry.redhat.io/redhat',
    ]);
    expect(hc.metadata.annotations['hypershift.openshift.io/olm-catalogs-is-registry-overrides']).toBe('registry.redhat.io/redhat=registry.lab.example.com:5000/redhat');
    expect(hc.spec.additionalTrustBundle).toEqual({ name: 'user-ca-bundle' });
    const registries = read('hub/20-configmap-multicluster-engine_custom-registries.yaml').data;
    expect(registries['ca-bundle.crt']).toBe(read('hub/day2/20-configmap-clusters_user-ca-bundle.yaml').data['ca-bundle.crt']);
    for (const source of hc.spec.imageContentSources) expect(registries['registries.conf']).toContain(`location = "${source.source}"`);
  });
});
