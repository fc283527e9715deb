import { HcpApp, HostedClusterProps, NodePoolOptions, ObjectValidator, RELEASE_VERSION_ANNOTATION, Release, releaseVersionOf, SchemaCatalog } from '../../lib';
import { isQualifiedName } from '../../lib/core/names';
import { applyProblems } from '../../lib/release/upgrade-transition';
import { newCluster } from '../props';
import { findObject, synthFiles, synthObjects, synthProblems } from '../util';

const DIGEST_IMAGE = (hex: string) => `quay.io/openshift-release-dev/ocp-release@sha256:${hex.repeat(64)}`;
const digest = (hex: string, version?: string) => Release.fromImage(DIGEST_IMAGE(hex), version === undefined ? {} : { version });

function build(cluster: Partial<HostedClusterProps>, pool: NodePoolOptions = {}, strict = false): HcpApp {
  const app = new HcpApp({ outdir: '/nonexistent', strict });
  newCluster(cluster, app).addNodePool('workers', pool);
  return app;
}

function annotationsOf(app: HcpApp): { cluster: Record<string, string>; pool: Record<string, string> } {
  const objects = synthObjects(app);
  return { cluster: findObject(objects, 'HostedCluster').metadata.annotations, pool: findObject(objects, 'NodePool').metadata.annotations };
}

describe('the release-version annotation: a digest release carries its version into the output', () => {
  test('a digest with its version writes hcp-cdk.io/release-version on the HostedCluster and the NodePool', () => {
    const { cluster, pool } = annotationsOf(build({ release: digest('a', '4.14.10') }));
    expect(RELEASE_VERSION_ANNOTATION).toBe('hcp-cdk.io/release-version');
    expect(cluster[RELEASE_VERSION_ANNOTATION]).toBe('4.14.10');
    expect(pool[RELEASE_VERSION_ANNOTATION]).toBe('4.14.10');
  });

  test('a pool with a release of its own records its own version', () => {
    const { cluster, pool } = annotationsOf(build({ release: digest('a', '4.17.2') }, { release: digest('b', '4.16.0-rc.3') }));
    expect(cluster[RELEASE_VERSION_ANNOTATION]).toBe('4.17.2');
    expect(pool[RELEASE_VERSION_ANNOTATION]).toBe('4.16.0-rc.3');
  });

  test('a release whose tag tells the version writes none: the tag says it already', () => {
    for (const release of [Release.fromVersion('4.17.0'), Release.fromImage(`quay.io/openshift-release-dev/ocp-release:4.17.0-multi@sha256:${'c'.repeat(64)}`)]) {
      const { cluster, pool } = annotationsOf(build({ release }));
      expect(cluster).not.toHaveProperty(RELEASE_VERSION_ANNOTATION);
      expect(pool).not.toHaveProperty(RELEASE_VERSION_ANNOTATION);
    }
  });

  test('a tag that is not a version, with the version given, writes it', () => {
    expect(annotationsOf(build({ release: Release.fromImage('registry.example.com/ocp/release:stable', { version: '4.17.1' }) })).cluster[RELEASE_VERSION_ANNOTATION]).toBe('4.17.1');
  });

  test('the key is a qualified name the API server accepts, and re-synth is byte-identical', () => {
    expect(isQualifiedName(RELEASE_VERSION_ANNOTATION)).toBe(true);
    const files = () => synthFiles(build({ release: digest('a', '4.14.10') }));
    const first = files();
    // synthesize() checks every object against its CRD: the annotation passed.
    expect(files()).toEqual(first);
    const validator = new ObjectValidator({ catalog: SchemaCatalog.bundled() });
    for (const object of synthObjects(build({ release: digest('a', '4.14.10') }))) expect(validator.validate(object)).toEqual([]);
  });

  test('fails when annotations set it too', () => {
    const problems = (build: () => HcpApp): string[] => {
      try {
        build().synthesize();
        return [];
      } catch (error) {
        return [...(error as { problems: string[] }).problems];
      }
    };
    expect(problems(() => build({ release: digest('a', '4.14.10'), annotations: { [RELEASE_VERSION_ANNOTATION]: '4.14.10' } }))).toEqual([
      'hub/c1: annotations ("hcp-cdk.io/release-version") is what release sets; give one of them',
    ]);
    expect(problems(() => build({ release: digest('a', '4.14.10') }, { annotations: { [RELEASE_VERSION_ANNOTATION]: '4.14.10' } }))).toEqual([
      'hub/c1/workers: annotations ("hcp-cdk.io/release-version") is what release sets; give one of them',
    ]);
  });
});

describe('releaseVersionOf: the version of an object in an output', () => {
  const object = (image: string, annotation?: string) => ({ metadata: annotation === undefined ? {} : { annotations: { [RELEASE_VERSION_ANNOTATION]: annotation } }, spec: { release: { image } } });

  test('reads the tag, else the annotation, else nothing', () => {
    expect(releaseVersionOf(object('quay.io/openshift-release-dev/ocp-release:4.17.3-multi'))).toEqual({ major: 4, minor: 17, patch: 3 });
    expect(releaseVersionOf(object(DIGEST_IMAGE('a'), '4.14.10'))).toEqual({ major: 4, minor: 14, patch: 10 });
    expect(releaseVersionOf(object(DIGEST_IMAGE('a')))).toBeUndefined();
    expect(releaseVersionOf(object(DIGEST_IMAGE('a'), 'fourteen'))).toBeUndefined();
  });

  test('fails when the annotation is not a version, or contradicts the tag (an escape hatch changed the image alone)', () => {
    const hc = findObject(synthObjects(build({ release: digest('a', '4.14.10') })), 'HostedCluster');
    const tagged = { ...hc, spec: { ...hc.spec, release: { image: 'quay.io/openshift-release-dev/ocp-release:4.15.2-multi' } } };
    expect(applyProblems(tagged, { source: 'hub/c1/Resource' })).toEqual([
      {
        object: { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', namespace: 'clusters', name: 'c1' },
        path: 'metadata.annotations["hcp-cdk.io/release-version"]',
        message: 'contradicts spec.release.image ("quay.io/openshift-release-dev/ocp-release:4.15.2-multi"), whose tag is 4.15.2; change both together, or leave the annotation to hcp-cdk',
        value: '4.14.10',
        source: 'hub/c1/Resource',
      },
    ]);
    const wrong = { ...hc, metadata: { ...hc.metadata, annotations: { [RELEASE_VERSION_ANNOTATION]: 'latest' } } };
    expect(applyProblems(wrong, {}).map((p) => p.message)).toEqual(['must be an OpenShift version such as 4.17.0 or 4.18.0-rc.2']);
  });

  test('synth refuses an escape hatch that sets a tag of another version under the annotation', () => {
    const app = build({ release: digest('a', '4.14.10') });
    const cluster = app.node.findAll().find((c) => c.node.path === 'hub/c1') as any;
    cluster.addOverride('spec.release.image', 'quay.io/openshift-release-dev/ocp-release:4.15.2-multi');
    expect(() => app.synthesize()).toThrow('hub/c1/Resource: HostedCluster clusters/c1: metadata.annotations["hcp-cdk.io/release-version"]: contradicts spec.release.image');
  });
});

describe('a release without a known version: a warning naming it, an error with strict', () => {
  const CLUSTER_WARNING =
    `hub/c1: release ("${DIGEST_IMAGE('a')}") tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ` +
    "its update paths or its node pools' version skew; give it: Release.fromImage(image, { version: '4.17.0' }) [HCP-W004]";

  test('a HostedCluster by digest without version: one warning, naming the cluster and the image; its pools say nothing more', () => {
    const app = build({ release: digest('a') });
    const objects = synthObjects(app);
    expect(app.warnings).toEqual([CLUSTER_WARNING]);
    expect(findObject(objects, 'HostedCluster').metadata.annotations).not.toHaveProperty(RELEASE_VERSION_ANNOTATION);
  });

  test('a pool by digest without version under a known control plane: a warning naming the pool', () => {
    const app = build({ release: digest('a', '4.17.0') }, { release: digest('b') });
    app.synthesize();
    expect(app.warnings).toEqual([
      `hub/c1/workers: release ("${DIGEST_IMAGE('b')}") tells no OpenShift version (no version tag, none given), so neither synth nor hcp-cdk plan can check ` +
        "its update paths or its version skew against the control plane; give it: Release.fromImage(image, { version: '4.17.0' }) [HCP-W004]",
    ]);
  });

  test('fails under strict', () => {
    expect(synthProblems((app) => newCluster({ release: digest('a') }, app).addNodePool('workers'), { strict: true })).toEqual([CLUSTER_WARNING]);
  });

  test('a release with its version says nothing', () => {
    const app = build({ release: digest('a', '4.17.0') }, { release: digest('b', '4.16.2') }, true);
    expect(() => app.synthesize()).not.toThrow();
    expect(app.warnings).toEqual([]);
  });
});
