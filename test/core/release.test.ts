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

  test('fails when the version is not major.minor.patch', () => {
    expect(Release.fromVersion('4.17').problem).toBe('release version ("4.17") must look like 4.17.0');
  });
});

describe('Release.fromImage', () => {
  test('reads the version from a release tag', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.14.10-x86_64').version).toEqual({ major: 4, minor: 14, patch: 10 });
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.18.0-rc.2-multi').version).toEqual({ major: 4, minor: 18, patch: 0 });
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

  test.each([
    'not an image',
    'Quay.io/UPPER:tag',
    'quay.io/openshift-release-dev/ocp-release@sha256:abc123',
    'quay.io/openshift-release-dev/ocp-release:',
    '',
  ])('fails when the image is %j', (image) => {
    expect(Release.fromImage(image).problem).toBe(
      `release image (${JSON.stringify(image)}) must be an image reference such as quay.io/openshift-release-dev/ocp-release:4.17.0-multi or ...@sha256:<64 hex digits>`,
    );
  });

  test('fails when the stated version contradicts the image tag', () => {
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64', { version: '4.16.3' }).problem).toBe(
      'release version ("4.16.3") contradicts the image tag ("4.17.3-x86_64"), which is 4.17.3; give the tag\'s version or leave version out');
    expect(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64', { version: '4.17.3' }).problem).toBeUndefined();
    expect(Release.fromImage(`quay.io/openshift-release-dev/ocp-release@${DIGEST}`, { version: '4.16.3' }).problem).toBeUndefined();
  });

  test('fails when the version given beside a digest is malformed', () => {
    expect(Release.fromImage(`quay.io/ocp/release@${DIGEST}`, { version: 'latest' }).problem).toBe('release version ("latest") must look like 4.17.0');
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
});
