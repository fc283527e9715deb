import * as YAML from 'yaml';
import {
  ApiServerConfiguration,
  AuditProfile,
  CertificateAuthority,
  ClusterProxy,
  ControlPlaneService,
  FeatureGates,
  FeatureSet,
  HcpApp,
  HostedCluster,
  HostedClusterProps,
  ImageRegistryPolicy,
  SecretSource,
  ServicePublishing,
} from '../../lib';
import { newCluster, PLATFORMS } from '../props';
import { findObject, synthFiles, synthProblems } from '../util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';
const BASE: Partial<HostedClusterProps> = { baseDomain: 'example.com', kubeApiServerDnsName: 'api.custom.example.com' };

function synth(build: (cluster: HostedCluster) => void, props: Partial<HostedClusterProps> = BASE): { objects: any[]; app: HcpApp } {
  const app = new HcpApp({ outdir: '/nonexistent' });
  build(newCluster(props, app));
  return { objects: synthFiles(app).map((f) => YAML.parse(f.text)), app };
}

function configurationOf(build: (cluster: HostedCluster) => void, props?: Partial<HostedClusterProps>): any {
  return findObject(synth(build, props).objects, 'HostedCluster', 'c1').spec.configuration;
}

function problems(build: (cluster: HostedCluster) => void, props: Partial<HostedClusterProps> = BASE): string[] {
  return synthProblems((app) => build(newCluster(props, app)));
}

describe('ApiServerConfiguration', () => {
  test('names serving certificates for the host names the API server is reached at, and sets the audit profile', () => {
    const { objects, app } = synth(
      (cluster) =>
        new ApiServerConfiguration(cluster, 'api', {
          namedCertificates: [
            { names: ['api.custom.example.com'], certificate: SecretSource.fromExistingSecret('custom-api-cert') },
            { names: ['api.c1.example.com'], certificate: SecretSource.fromExistingSecret('c1-api-certificate') },
          ],
          auditProfile: AuditProfile.WRITE_REQUEST_BODIES,
        }),
    );
    expect(findObject(objects, 'HostedCluster', 'c1').spec.configuration.apiServer).toEqual({
      audit: { profile: 'WriteRequestBodies' },
      servingCerts: {
        namedCertificates: [
          { names: ['api.custom.example.com'], servingCertificate: { name: 'custom-api-cert' } },
          { names: ['api.c1.example.com'], servingCertificate: { name: 'c1-api-certificate' } },
        ],
      },
    });
    expect(objects.filter((o) => o.kind === 'Secret' || o.kind === 'ExternalSecret')).toEqual([]);
    expect(app.secretsReport()).toContainEqual(expect.objectContaining({ name: 'custom-api-cert', type: 'kubernetes.io/tls', keys: ['tls.crt', 'tls.key'] }));
  });

  test('accepts the APIServer Route hostname and a wildcard that covers a served name', () => {
    const configuration = configurationOf(
      (cluster) =>
        new ApiServerConfiguration(cluster, 'api', {
          namedCertificates: [{ names: ['*.c1.example.org', 'api.hcp.example.com'], certificate: SecretSource.fromExistingSecret('cert') }],
        }),
      awsWithRoute(),
    );
    expect(configuration.apiServer.servingCerts.namedCertificates[0].names).toEqual(['*.c1.example.org', 'api.hcp.example.com']);
  });

  test('fails when a serving certificate names a host the API server does not serve', () => {
    expect(
      problems(
        (cluster) =>
          new ApiServerConfiguration(cluster, 'api', {
            namedCertificates: [{ names: ['api.other.example.com'], certificate: SecretSource.fromExistingSecret('cert') }],
          }),
      ),
    ).toEqual(['hub/c1/api: namedCertificates[0].names[0] ("api.other.example.com") is not a host name the API server is reached at; it serves ["api.c1.example.com","api.custom.example.com"]']);
  });

  test('fails when a serving certificate names the APIServer LoadBalancer hostname', () => {
    const found = problems((cluster) => {
      cluster.publishService(ControlPlaneService.API_SERVER, ServicePublishing.loadBalancer({ hostname: 'api-lb.example.com' }));
      new ApiServerConfiguration(cluster, 'api', { namedCertificates: [{ names: ['api-lb.example.com'], certificate: SecretSource.fromExistingSecret('cert') }] });
    });
    expect(found).toEqual([expect.stringContaining('namedCertificates[0].names[0] ("api-lb.example.com") is the APIServer LoadBalancer hostname')]);
  });

  test('fails when a serving certificate comes from a source that would make it without its key', () => {
    expect(
      problems(
        (cluster) =>
          new ApiServerConfiguration(cluster, 'api', {
            namedCertificates: [{ names: ['api.c1.example.com'], certificate: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'pki/c1-api' }) }],
          }),
      ),
    ).toEqual([
      'hub/c1/api: namedCertificates[0].certificate (a source that makes the Secret) would make a TLS Secret with tls.crt alone; a certificate needs tls.crt and tls.key in one Secret, so give SecretSource.fromExistingSecret (e.g. one cert-manager makes)',
    ]);
  });

  test('fails when a serving certificate lists no name', () => {
    expect(problems((cluster) => new ApiServerConfiguration(cluster, 'api', { namedCertificates: [{ names: [], certificate: SecretSource.fromExistingSecret('cert') }] }))).toEqual([
      'hub/c1/api: namedCertificates[0].names ([]) must list at least one host name',
    ]);
  });
});

describe('FeatureGates', () => {
  test('enables TechPreviewNoUpgrade as docs 10.1 do, once acknowledged, and notes that it is irreversible', () => {
    const { objects, app } = synth((cluster) => new FeatureGates(cluster, 'features', { featureSet: FeatureSet.TECH_PREVIEW_NO_UPGRADE, acknowledgeIrreversibleNoUpgrade: true }));
    expect(findObject(objects, 'HostedCluster', 'c1').spec.configuration).toEqual({ featureGate: { featureSet: 'TechPreviewNoUpgrade' } });
    expect(app.notices).toEqual(['hub/c1/features: featureSet TechPreviewNoUpgrade is irreversible: once applied, cluster c1 can never return to Default nor take a minor upgrade']);
  });

  test('fails when TechPreviewNoUpgrade is not acknowledged', () => {
    expect(problems((cluster) => new FeatureGates(cluster, 'features', { featureSet: FeatureSet.TECH_PREVIEW_NO_UPGRADE }))).toEqual([
      'hub/c1/features: featureSet ("TechPreviewNoUpgrade") cannot be undone and blocks minor upgrades of the cluster; set acknowledgeIrreversibleNoUpgrade: true to enable it',
    ]);
  });

  test('fails when the feature set is CustomNoUpgrade', () => {
    expect(problems((cluster) => new FeatureGates(cluster, 'features', { featureSet: 'CustomNoUpgrade' as FeatureSet, acknowledgeIrreversibleNoUpgrade: true }))).toEqual([
      expect.stringContaining('featureSet ("CustomNoUpgrade") must be one of Default, TechPreviewNoUpgrade, DevPreviewNoUpgrade'),
    ]);
  });
});

describe('spec.configuration from several places', () => {
  test('merges the configuration prop with what the day-2 constructs add', () => {
    const configuration = configurationOf(
      (cluster) => {
        new FeatureGates(cluster, 'features', { featureSet: FeatureSet.DEFAULT });
        new ApiServerConfiguration(cluster, 'api', { auditProfile: AuditProfile.NONE });
      },
      { ...BASE, configuration: { apiServer: { additionalCorsAllowedOrigins: ['//console\\.example\\.com(:|\\z)'] } } },
    );
    expect(configuration).toEqual({
      apiServer: { additionalCORSAllowedOrigins: ['//console\\.example\\.com(:|\\z)'], audit: { profile: 'None' } },
      featureGate: { featureSet: '' },
    });
  });

  test('fails when two constructs set one field differently, naming both', () => {
    expect(
      problems((cluster) => {
        new FeatureGates(cluster, 'a', { featureSet: FeatureSet.DEFAULT });
        new FeatureGates(cluster, 'b', { featureSet: FeatureSet.DEV_PREVIEW_NO_UPGRADE, acknowledgeIrreversibleNoUpgrade: true });
      }),
    ).toEqual(['hub/c1: configuration.featureGate.featureSet is set by hub/c1/a ("") and by hub/c1/b ("DevPreviewNoUpgrade"); set it in one place']);
  });
});

describe('ClusterProxy and ImageRegistryPolicy', () => {
  test('write spec.configuration.proxy and image.registrySources, with the proxy CA as ca-bundle.crt', () => {
    const { objects } = synth((cluster) => {
      new ClusterProxy(cluster, 'proxy', {
        httpProxy: 'http://proxy.example.com:3128',
        httpsProxy: 'http://proxy.example.com:3128',
        noProxy: ['.example.com', '10.0.0.0/8'],
        trustedCa: CertificateAuthority.fromPem(CA),
      });
      new ImageRegistryPolicy(cluster, 'images', { allowedRegistries: ['registry.example.com:5000', 'quay.io/openshift-release-dev', '*.redhat.io'] });
    });
    const configuration = findObject(objects, 'HostedCluster', 'c1').spec.configuration;
    expect(configuration.proxy).toEqual({
      httpProxy: 'http://proxy.example.com:3128',
      httpsProxy: 'http://proxy.example.com:3128',
      noProxy: '.example.com,10.0.0.0/8',
      trustedCA: { name: 'c1-proxy-ca' },
    });
    expect(configuration.image).toEqual({ registrySources: { allowedRegistries: ['registry.example.com:5000', 'quay.io/openshift-release-dev', '*.redhat.io'] } });
    expect(findObject(objects, 'ConfigMap', 'c1-proxy-ca').data).toEqual({ 'ca-bundle.crt': CA });
  });

  test('fails when the proxy URL has no scheme', () => {
    expect(problems((cluster) => new ClusterProxy(cluster, 'proxy', { httpsProxy: 'proxy.example.com:3128' }))).toEqual([
      'hub/c1/proxy: httpsProxy ("proxy.example.com:3128") must be an http:// or https:// URL of the proxy, e.g. http://proxy.example.com:3128',
    ]);
  });

  test('fails when allowed and blocked registries are both given', () => {
    expect(problems((cluster) => new ImageRegistryPolicy(cluster, 'images', { allowedRegistries: ['quay.io'], blockedRegistries: ['docker.io'] }))).toEqual([
      'hub/c1/images: allowedRegistries (["quay.io"]) and blockedRegistries (["docker.io"]) exclude each other; give one',
    ]);
  });

  test('fails when a registry carries a tag', () => {
    expect(problems((cluster) => new ImageRegistryPolicy(cluster, 'images', { blockedRegistries: ['docker.io/library/nginx:latest'] }))).toEqual([
      'hub/c1/images: blockedRegistries[0] ("docker.io/library/nginx:latest") must be host[:port][/path] or *.domain, without tag or digest',
    ]);
  });
});

/** An AWS cluster whose API server is a Route at api.hcp.example.com (through external DNS). */
function awsWithRoute(): Partial<HostedClusterProps> {
  return { ...PLATFORMS.aws(), services: { [ControlPlaneService.API_SERVER]: ServicePublishing.route({ hostname: 'api.hcp.example.com' }) } };
}
