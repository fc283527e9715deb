import { Release, ReleaseArchitecture } from '../../lib';

const DIGEST = 'sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa';

describe('Release.fromVersion', () => {
  test('names the public multi-arch release image, as hcp does', () => {
    const release = Release.fromVersion('4.17.0');
    expect(release.image).toBe('quay.io/openshift-release-dev/ocp-release:4.17.0-multi');
    expect(release.version).toEqual({ major: 4, minor: 17, patch: 0 });
    expect(release.isDigest).toBe(false);
    expect(release.problem).toBeUndefined();
  });

  test('takes the architecture and repository', () => {
    const release = Release.fromVersion('4.16.3', { architecture: ReleaseArchitecture.X86_64, repository: 'mirror.example.com:5000/ocp/release' });
    expect(release.image).toBe('mirror.example.com:5000/ocp/release:4.16.3-x86_64');
    expect(release.problem).toBeUndefined();
  });

  test('takes a release candidate', () => {
    const release = Release.fromVersion('4.18.0-rc.2');
    expect(release.image).toBe('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi');
    expect(release.version).toEqual({ major: 4, minor: 18, patch: 0, prerelease: 'rc.2' });
    expect(release.problem).toBeUndefined();
  });

  test.each(['4.17', 'v4.17.0', '4.017.0', '4.18.0-rc.02'])('fails when the version is %j, not a semantic version as release tags write it', (version) => {
    expect(Release.fromVersion(version).problem).toBe(`release version (${JSON.stringify(version)}) must be an OpenShift version such as 4.17.0 or 4.18.0-rc.2`);
  });
});

describe('Release.fromImage', () => {
  test('reads the version from a release tag', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.14.10-x86_64').version).toEqual({ major: 4, minor: 14, patch: 10 });
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi').version).toEqual({ major: 4, minor: 18, patch: 0, prerelease: 'rc.2' });
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-ec.1').version).toEqual({ major: 4, minor: 18, patch: 0, prerelease: 'ec.1' });
    expect(Release.fromImage('registry.ci.openshift.org/ocp/release:4.18.0-0.nightly-2024-09-10-123456').version).toEqual({ major: 4, minor: 18, patch: 0, prerelease: '0.nightly-2024-09-10-123456' });
  });

  test('reads an architecture suffix as the architecture, not as a pre-release', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.0-multi').version).toEqual({ major: 4, minor: 17, patch: 0 });
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.0-aarch64').version?.prerelease).toBeUndefined();
  });

  test('leaves the version unknown for a tag that carries none', () => {
    const release = Release.fromImage('registry.example.com/ocp/release:latest');
    expect(release.version).toBeUndefined();
    expect(release.problem).toBeUndefined();
  });

  test('detects a digest, and takes the version given beside it', () => {
    const release = Release.fromImage(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`, { version: '4.14.10' });
    expect(release.isDigest).toBe(true);
    expect(release.version).toEqual({ major: 4, minor: 14, patch: 10 });
    expect(release.problem).toBeUndefined();
  });

  test('accepts a registry with a port and a tag with a digest', () => {
    const release = Release.fromImage(`localhost:5000/ocp/release:4.17.0-x86_64@${DIGEST}`);
    expect(release.problem).toBeUndefined();
    expect(release.isDigest).toBe(true);
    expect(release.version).toEqual({ major: 4, minor: 17, patch: 0 });
  });

  test.each(['not an image', 'Quay.io/UPPER:tag', 'quay.io/openshift-release-dev/ocp-release@sha256:abc123', 'quay.io/openshift-release-dev/ocp-release:', ''])(
    'fails when the image is %j',
    (image) => {
      expect(Release.fromImage(image).problem).toBe(
        `release image (${JSON.stringify(image)}) must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>`,
      );
    },
  );

  test('fails when the stated version contradicts the image tag', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64', { version: '4.16.3' }).problem).toBe(
      'release version ("4.16.3") contradicts the image tag ("4.17.3-x86_64"), which is 4.17.3; give the tag\'s version or leave version out',
    );
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64', { version: '4.17.3' }).problem).toBeUndefined();
    expect(Release.fromImage(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`, { version: '4.16.3' }).problem).toBeUndefined();
  });

  test('fails when the stated version is the release a candidate tag leads to', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi', { version: '4.18.0' }).problem).toBe(
      'release version ("4.18.0") contradicts the image tag ("4.18.0-rc.2-multi"), which is 4.18.0-rc.2; give the tag\'s version or leave version out',
    );
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi', { version: '4.18.0-rc.2' }).problem).toBeUndefined();
  });

  test.each(['latest', '4.17.0+build', ' 4.17.0', '=4.17.0'])('fails when the version given beside a digest is %j', (version) => {
    expect(Release.fromImage(`quay.io/ocp/release@${DIGEST}`, { version }).problem).toBe(`release version (${JSON.stringify(version)}) must be an OpenShift version such as 4.17.0 or 4.18.0-rc.2`);
  });
});

describe('Release.compareVersions', () => {
  const v = (major: number, minor: number, patch: number) => ({ major, minor, patch });

  test('orders by major, then minor, then patch', () => {
    expect(Release.compareVersions(v(4, 17, 0), v(4, 17, 0))).toBe(0);
    expect(Release.compareVersions(v(4, 16, 9), v(4, 17, 0))).toBeLessThan(0);
    expect(Release.compareVersions(v(4, 17, 1), v(4, 17, 0))).toBeGreaterThan(0);
    expect(Release.compareVersions(v(5, 0, 0), v(4, 99, 99))).toBeGreaterThan(0);
  });

  test("orders candidates before the release, as HyperShift's semver comparison does", () => {
    const of = (tag: string) => Release.fromImage(`quay.io/openshift-release-dev/ocp-release:${tag}`).version!;
    const tags = ['4.18.0-multi', '4.18.0-rc.10-multi', '4.17.9-x86_64', '4.18.0-rc.2-multi', '4.18.0-ec.3', '4.18.1-multi', '4.18.0-0.nightly-2024-09-10-123456'];
    expect([...tags].sort((a, b) => Release.compareVersions(of(a), of(b)))).toEqual([
      '4.17.9-x86_64',
      '4.18.0-0.nightly-2024-09-10-123456',
      '4.18.0-ec.3',
      '4.18.0-rc.2-multi',
      '4.18.0-rc.10-multi',
      '4.18.0-multi',
      '4.18.1-multi',
    ]);
    expect(Release.compareVersions(of('4.18.0-rc.2-multi'), of('4.18.0-rc.2-x86_64'))).toBe(0);
  });
});
