import * as YAML from 'yaml';
import {
  AssistedService,
  DisconnectedMirrors,
  HcpApp,
  HostedCluster,
  HostedClusterProps,
  ImageMirrors,
  ImageMirrorsProps,
  ManagementCluster,
  MirrorRegistryConfig,
  OLM_CATALOGS_REGISTRY_OVERRIDES_ANNOTATION,
  OlmCatalogMirrors,
  OlmCatalogPlacement,
  Release,
} from '../../lib';
import { clusterProps } from '../props';
import { findObject, synthFiles, synthProblems } from '../util';

const REGISTRY = 'registry.dns.base.domain.name:5000';
const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';
const DIGEST_RELEASE = Release.fromImage(`${REGISTRY}/openshift/release-images@sha256:${'e3'.repeat(32)}`, { version: '4.17.0' });
/** The mirrors of docs 5.3.13 (the disconnected dual-stack example). */
const DUAL_STACK: ImageMirrorsProps = {
  registry: REGISTRY,
  caPem: CA,
  repositories: [
    { source: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', mirrors: [`${REGISTRY}/openshift/release`] },
    { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${REGISTRY}/openshift/release-images`] },
  ],
};

/** A hub with one cluster taking its mirrors from `mirrors`, and DisconnectedMirrors for both. */
function build(app: HcpApp, mirrors: ImageMirrors, props: Partial<HostedClusterProps> = {}): HostedCluster {
  const hub = new ManagementCluster(app, 'hub');
  const cluster = new HostedCluster(
    hub,
    'hosted-dual',
    clusterProps({
      release: DIGEST_RELEASE,
      imageContentSources: mirrors.imageContentSources,
      additionalTrustBundle: mirrors.trustBundle,
      ...props,
    }),
  );
  new DisconnectedMirrors(hub, 'mirrors', { mirrors, clusters: [cluster] });
  return cluster;
}

function synth(mirrors: ImageMirrors, props: Partial<HostedClusterProps> = {}, more?: (hub: ManagementCluster) => void): any[] {
  const app = new HcpApp({ outdir: '/nonexistent' });
  const cluster = build(app, mirrors, props);
  more?.(cluster.node.scope as ManagementCluster);
  return synthFiles(app).map((f) => YAML.parse(f.text));
}

describe('DisconnectedMirrors', () => {
  test('extends the mirrors of docs 5.3.13 to the management cluster\'s ImageDigestMirrorSet and, per docs 5.2.3 "Applying objects in the management cluster", the OLM catalog registry overrides', () => {
    const mirrors = new ImageMirrors({ ...DUAL_STACK, olmCatalogs: OlmCatalogMirrors.registryOverrides({ 'registry.redhat.io/redhat': `${REGISTRY}/redhat` }) });
    const objects = synth(mirrors, { olmCatalogPlacement: OlmCatalogPlacement.MANAGEMENT });
    const cluster = findObject(objects, 'HostedCluster', 'hosted-dual');
    expect(cluster.spec.imageContentSources).toEqual([
      { source: 'quay.io/openshift-release-dev/ocp-v4.0-art-dev', mirrors: [`${REGISTRY}/openshift/release`] },
      { source: 'quay.io/openshift-release-dev/ocp-release', mirrors: [`${REGISTRY}/openshift/release-images`] },
    ]);
    expect(cluster.spec.additionalTrustBundle).toEqual({ name: 'user-ca-bundle' });
    expect(findObject(objects, 'ConfigMap', 'user-ca-bundle').data).toEqual({ 'ca-bundle.crt': CA });
    expect(cluster.metadata.annotations[OLM_CATALOGS_REGISTRY_OVERRIDES_ANNOTATION]).toBe(`registry.redhat.io/redhat=${REGISTRY}/redhat`);
    expect(findObject(objects, 'ImageDigestMirrorSet', 'mirrors')).toEqual({
      apiVersion: 'config.openshift.io/v1',
      kind: 'ImageDigestMirrorSet',
      metadata: expect.objectContaining({ name: 'mirrors' }),
      spec: { imageDigestMirrors: cluster.spec.imageContentSources },
    });
  });

  test('names the four catalog images when the catalogs are mirrored under other names', () => {
    const images = {
      redhatOperators: `${REGISTRY}/redhat/redhat-operator-index:v4.17`,
      certifiedOperators: `${REGISTRY}/redhat/certified-operator-index:v4.17`,
      communityOperators: `${REGISTRY}/redhat/community-operator-index:v4.17`,
      redhatMarketplace: `${REGISTRY}/redhat/redhat-marketplace-index:v4.17`,
    };
    const objects = synth(new ImageMirrors({ ...DUAL_STACK, olmCatalogs: OlmCatalogMirrors.images(images) }));
    expect(findObject(objects, 'HostedCluster', 'hosted-dual').metadata.annotations).toEqual(
      expect.objectContaining({
        'hypershift.openshift.io/redhat-operators-catalog-image': images.redhatOperators,
        'hypershift.openshift.io/certified-operators-catalog-image': images.certifiedOperators,
        'hypershift.openshift.io/community-operators-catalog-image': images.communityOperators,
        'hypershift.openshift.io/redhat-marketplace-catalog-image': images.redhatMarketplace,
      }),
    );
  });

  test('feeds the assisted service the same mirrors as registries.conf with the registry CA (docs 5.3.11.1)', () => {
    const mirrors = new ImageMirrors(DUAL_STACK);
    const objects = synth(
      mirrors,
      { olmCatalogPlacement: OlmCatalogPlacement.GUEST },
      (hub) =>
        new AssistedService(hub, 'assisted-service', {
          osImages: [{ openshiftVersion: '4.17', version: '417.94.202409121747-0', url: `http://${REGISTRY}/rhcos.iso` }],
          mirrorRegistries: MirrorRegistryConfig.fromRegistriesConf(mirrors.registriesConf, { caBundle: CA }),
        }),
    );
    expect(findObject(objects, 'ConfigMap', 'custom-registries').data['registries.conf']).toBe(
      [
        'unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]',
        '',
        '[[registry]]',
        'prefix = ""',
        'location = "quay.io/openshift-release-dev/ocp-v4.0-art-dev"',
        'mirror-by-digest-only = true',
        '',
        '[[registry.mirror]]',
        `  location = "${REGISTRY}/openshift/release"`,
        '',
        '[[registry]]',
        'prefix = ""',
        'location = "quay.io/openshift-release-dev/ocp-release"',
        'mirror-by-digest-only = true',
        '',
        '[[registry.mirror]]',
        `  location = "${REGISTRY}/openshift/release-images"`,
        '',
      ].join('\n'),
    );
  });

  describe("the docs' own tag release (5.3.13.1: registry.<domain>:5000/openshift/release-images:4.x.y-x86_64)", () => {
    const TAG = `${REGISTRY}/openshift/release-images:4.17.0-x86_64`;
    const WARNING =
      `hub/hosted-dual: release ("${TAG}") is a tag, but the cluster pulls through mirrors, which match digests only: the tag is read from the registry it names ` +
      'and can move to another image; give the release as <repository>@sha256:<digest> (oc adm release info prints it) [HCP-W005]';
    const tagged = (app: HcpApp) =>
      build(app, new ImageMirrors({ ...DUAL_STACK, olmCatalogs: OlmCatalogMirrors.registryOverrides({ 'registry.redhat.io/redhat': `${REGISTRY}/redhat` }) }), {
        release: Release.fromImage(TAG),
        olmCatalogPlacement: OlmCatalogPlacement.MANAGEMENT,
      });

    test('is accepted, with the typed OLM catalog annotation, and warned about with HCP-W005 recommending a digest', () => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      tagged(app);
      const objects = synthFiles(app).map((f) => YAML.parse(f.text));
      const cluster = findObject(objects, 'HostedCluster', 'hosted-dual');
      expect(cluster.spec.release).toEqual({ image: TAG });
      expect(cluster.metadata.annotations[OLM_CATALOGS_REGISTRY_OVERRIDES_ANNOTATION]).toBe(`registry.redhat.io/redhat=${REGISTRY}/redhat`);
      expect(findObject(objects, 'ImageDigestMirrorSet', 'mirrors').spec.imageDigestMirrors).toEqual(cluster.spec.imageContentSources);
      expect(app.warnings).toEqual([WARNING]);
    });

    test('fails under strict, as every lint finding does', () => {
      const app = new HcpApp({ outdir: '/nonexistent', strict: true });
      tagged(app);
      expect(() => app.synthesize()).toThrow(WARNING);
    });

    test('a digest release gives no warning, nor a tag on a cluster without mirrors', () => {
      const app = new HcpApp({ outdir: '/nonexistent' });
      build(app, new ImageMirrors(DUAL_STACK), { olmCatalogPlacement: OlmCatalogPlacement.GUEST });
      new HostedCluster(new ManagementCluster(app, 'other-hub'), 'connected', clusterProps({ release: Release.fromImage(TAG, { version: '4.17.0' }) }));
      app.synthesize();
      expect(app.warnings).toEqual([]);
    });
  });

  test("fails when the cluster's imageContentSources differ from the mirrors", () => {
    const found = synthProblems((app) =>
      build(app, new ImageMirrors(DUAL_STACK), {
        imageContentSources: [{ source: 'quay.io/openshift-release-dev/ocp-release', mirrors: ['elsewhere.example.com/ocp'] }],
        olmCatalogPlacement: OlmCatalogPlacement.GUEST,
      }),
    );
    expect(found).toEqual([expect.stringMatching(/^hub\/mirrors: clusters\[0\] \(hosted-dual\) imageContentSources \(.*\) differ from the mirrors hub\/mirrors describes/)]);
  });

  test('fails when the cluster does not trust the registry CA', () => {
    const found = synthProblems((app) => build(app, new ImageMirrors(DUAL_STACK), { additionalTrustBundle: undefined, olmCatalogPlacement: OlmCatalogPlacement.GUEST }));
    expect(found).toEqual(["hub/mirrors: clusters[0] (hosted-dual) additionalTrustBundle (undefined) must trust the mirror registry's CA; pass additionalTrustBundle: mirrors.trustBundle"]);
  });

  test('fails when catalogs run on the management cluster without catalog mirrors', () => {
    expect(synthProblems((app) => build(app, new ImageMirrors(DUAL_STACK)))).toEqual([
      expect.stringContaining('clusters[0] (hosted-dual) olmCatalogPlacement (management) runs the OLM catalogs on the management cluster'),
    ]);
  });

  test('fails when a mirror is outside the mirror registry', () => {
    const found = synthProblems((app) => build(app, new ImageMirrors({ ...DUAL_STACK, repositories: [{ source: 'quay.io/x', mirrors: ['other.example.com:5000/x'] }] })));
    expect(found).toEqual(['hub/mirrors: mirrors.repositories[0].mirrors[0] ("other.example.com:5000/x") must be in the mirror registry registry.dns.base.domain.name:5000']);
  });

  test('fails when a source carries a tag', () => {
    const found = synthProblems((app) => build(app, new ImageMirrors({ ...DUAL_STACK, repositories: [{ source: 'quay.io/x:latest', mirrors: [`${REGISTRY}/x`] }] })));
    expect(found).toEqual(['hub/mirrors: mirrors.repositories[0].source ("quay.io/x:latest") must be a repository host[/path] without tag or digest']);
  });
});
