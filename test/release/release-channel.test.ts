import { Release, ReleaseChannel, ReleaseChannelStream } from '../../lib';
import { newCluster, synthAppOf } from '../props';
import { findObject, synthProblems } from '../util';

/** spec.channel of cluster hub/c1, or its problems. */
function channelOf(release: Release, channel?: ReleaseChannel | string): unknown {
  return findObject(synthAppOf(newCluster({ release, channel })), 'HostedCluster').spec.channel;
}
function problemsOf(release: Release, channel?: ReleaseChannel | string): string[] {
  return synthProblems((app) => newCluster({ release, channel }, app));
}

describe('ReleaseChannel', () => {
  test.each([
    ['stable-4.17', ReleaseChannel.stable('4.17'), ReleaseChannelStream.STABLE],
    ['fast-4.17', ReleaseChannel.fast('4.17'), ReleaseChannelStream.FAST],
    ['candidate-4.18', ReleaseChannel.candidate('4.18'), ReleaseChannelStream.CANDIDATE],
    ['eus-4.16', ReleaseChannel.eus('4.16'), ReleaseChannelStream.EUS],
    ['stable-4.17', ReleaseChannel.of('stable-4.17'), ReleaseChannelStream.STABLE],
  ])('names %s', (name, channel, stream) => {
    expect(channel.name).toBe(name);
    expect(channel.stream).toBe(stream);
    expect(channel.major).toBe(4);
    expect(channel.problem).toBeUndefined();
  });

  test('fails when a name is not <stream>-<major>.<minor>', () => {
    expect(ReleaseChannel.of('stable').problem).toBe('channel ("stable") must look like stable-4.17 (stable, fast, candidate or eus)');
    expect(ReleaseChannel.stable('4').problem).toBe('channel ("stable-4") must look like stable-4.17 (stable, fast, candidate or eus)');
  });
});

describe('HostedCluster channel', () => {
  test('writes the channel of Release.fromVersion(version, { channel }) to spec.channel', () => {
    expect(channelOf(Release.fromVersion('4.17.0', { channel: ReleaseChannel.stable('4.17') }))).toBe('stable-4.17');
  });

  test('writes the channel prop, typed or as a string', () => {
    expect(channelOf(Release.fromVersion('4.17.0'), ReleaseChannel.fast('4.17'))).toBe('fast-4.17');
    expect(channelOf(Release.fromVersion('4.17.0'), 'candidate-4.18')).toBe('candidate-4.18');
  });

  test('accepts the next minor (to update to it) and, on an even minor, the eus channel two up (EUS-to-EUS)', () => {
    expect(problemsOf(Release.fromVersion('4.16.4', { channel: ReleaseChannel.stable('4.17') }))).toEqual([]);
    expect(problemsOf(Release.fromVersion('4.16.4', { channel: ReleaseChannel.eus('4.18') }))).toEqual([]);
    expect(problemsOf(Release.fromImage('quay.io/openshift-release-dev/ocp-release:4.16.4-x86_64', { channel: ReleaseChannel.eus('4.16') }))).toEqual([]);
  });

  test('leaves spec.channel out by default', () => {
    expect(channelOf(Release.fromVersion('4.17.0'))).toBeUndefined();
  });

  test('fails when the channel is of a far minor', () => {
    expect(problemsOf(Release.fromVersion('4.17.0', { channel: ReleaseChannel.stable('4.19') }))).toEqual([
      'hub/c1: channel ("stable-4.19") does not fit release 4.17.0: a channel names the release\'s minor or the next one to update to (stable-4.17 or stable-4.18)',
    ]);
    expect(problemsOf(Release.fromVersion('4.17.0'), 'fast-4.16')).toEqual([
      'hub/c1: channel ("fast-4.16") does not fit release 4.17.0: a channel names the release\'s minor or the next one to update to (fast-4.17 or fast-4.18)',
    ]);
  });

  test('fails when an eus channel names an odd minor', () => {
    expect(problemsOf(Release.fromVersion('4.17.0', { channel: ReleaseChannel.eus('4.17') }))).toEqual([
      'hub/c1: channel ("eus-4.17") is an eus channel of an odd minor; Extended Update Support exists for even minors only, e.g. eus-4.16 or eus-4.18',
    ]);
  });

  test('fails when an eus channel is more than two minors up from an even minor', () => {
    expect(problemsOf(Release.fromVersion('4.16.0'), ReleaseChannel.eus('4.20'))).toEqual([
      'hub/c1: channel ("eus-4.20") does not fit release 4.16.0: a channel names the release\'s minor or the next one to update to (eus-4.16 or eus-4.18)',
    ]);
  });

  test('fails when an eus channel two minors up follows an odd minor', () => {
    expect(problemsOf(Release.fromVersion('4.17.0'), ReleaseChannel.eus('4.20'))).toEqual([
      'hub/c1: channel ("eus-4.20") does not fit release 4.17.0: a channel names the release\'s minor or the next one to update to (eus-4.18)',
    ]);
  });

  test('fails when the channel prop and the release name different channels', () => {
    expect(problemsOf(Release.fromVersion('4.17.0', { channel: ReleaseChannel.stable('4.17') }), 'fast-4.17')).toEqual([
      'hub/c1: channel ("fast-4.17") differs from the release\'s channel ("stable-4.17"); give the channel in one place',
    ]);
  });

  test('fails when the channel is not a channel name', () => {
    expect(problemsOf(Release.fromVersion('4.17.0'), 'stable')).toEqual(['hub/c1: channel ("stable") must look like stable-4.17 (stable, fast, candidate or eus)']);
  });
});
