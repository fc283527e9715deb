// The HostedCluster and NodePool health checks of both engines, on the status shapes HyperShift
// writes: the Argo CD Lua in a Lua VM, the Flux CEL as Flux evaluates it (inProgress, then failed,
// then current). Both engines must give the same verdict on every shape.
import { FLUX_HEALTH_CHECKS, HOSTED_CLUSTER_HEALTH_LUA, NODE_POOL_HEALTH_LUA } from '../../lib';
import { fluxVerdict } from './flux-health';
import { runHealthCheck } from './lua-health';

const OLD = 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi';
const NEW = 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi';

/** What each Argo CD status means to Flux. */
const FLUX_OF: Readonly<Record<string, string>> = { Healthy: 'Current', Progressing: 'InProgress', Degraded: 'Failed' };

const condition = (type: string, status: 'True' | 'False', extra: { message?: string; reason?: string } = {}) => ({ type, status, ...extra });

describe('the HostedCluster checks', () => {
  const available = condition('Available', 'True', { message: 'The hosted control plane is available' });
  const completed = (image: string) => ({ desired: { image }, history: [{ image, state: 'Completed' }] });
  const cases: [string, unknown, string, string?][] = [
    ['no status yet', undefined, 'Progressing', 'waiting for the Available condition'],
    ['not Available, with a reason', { conditions: [condition('Available', 'False', { message: 'waiting for etcd' })] }, 'Progressing', 'waiting for etcd'],
    ['first install, Available, not completed', { conditions: [available], version: { desired: { image: NEW }, history: [{ image: NEW, state: 'Partial' }] } }, 'Healthy', available.message],
    ['running its release', { conditions: [available], version: completed(NEW) }, 'Healthy', available.message],
    ['upgrade just committed', { conditions: [available], version: completed(OLD) }, 'Progressing', `the control plane is upgrading to ${NEW}`],
    ['Degraded before it is Available', { conditions: [condition('Available', 'False'), condition('Degraded', 'True', { message: 'etcd crashes' })] }, 'Degraded', 'etcd crashes'],
    [
      'its release refused (ValidReleaseImage False)',
      { conditions: [condition('ValidReleaseImage', 'False', { message: 'unsupported version 4.12.0' })] },
      'Degraded',
      'ValidReleaseImage: unsupported version 4.12.0',
    ],
    [
      'its configuration refused, while Available',
      { conditions: [available, condition('ValidConfiguration', 'False', { message: 'bad proxy' })], version: completed(NEW) },
      'Degraded',
      'ValidConfiguration: bad proxy',
    ],
    [
      'an upgrade the cluster version operator refuses',
      { conditions: [available, condition('ClusterVersionReleaseAccepted', 'False', { message: 'signature not verified' })], version: completed(OLD) },
      'Degraded',
      'ClusterVersionReleaseAccepted: signature not verified',
    ],
    ['no platform credentials', { conditions: [condition('PlatformCredentialsFound', 'False', { message: 'no secret' })] }, 'Degraded', 'PlatformCredentialsFound: no secret'],
  ];

  test.each(cases)('%s: Argo CD says %s', (_, status, expected, message) => {
    const object = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'HostedCluster', spec: { release: { image: NEW } }, ...(status ? { status } : {}) };
    expect(runHealthCheck(HOSTED_CLUSTER_HEALTH_LUA, object)).toEqual({ status: expected, ...(message !== undefined ? { message } : {}) });
  });

  test.each(cases)('%s: Flux agrees', (_, status, expected) => {
    expect(fluxVerdict(FLUX_HEALTH_CHECKS.HostedCluster, { spec: { release: { image: NEW } }, status })).toBe(FLUX_OF[expected]);
  });
});

describe('the NodePool checks', () => {
  const ready = condition('Ready', 'True', { message: '' });
  const notReady = condition('Ready', 'False', { message: 'Minimum availability requires 2 replicas, current 0 available' });
  const cases: [string, unknown, string, string][] = [
    ['no status yet (first install)', undefined, 'Healthy', 'first install, waiting for machines'],
    [
      'first install, no Agent yet: never holds back a first install',
      { conditions: [notReady, condition('AllMachinesReady', 'False', { reason: 'NoSuitableAgents', message: 'Machine c1-workers-x: NoSuitableAgents' })] },
      'Healthy',
      'first install, waiting for machines: Minimum availability requires 2 replicas, current 0 available',
    ],
    ['Ready', { conditions: [ready], version: '4.17.0' }, 'Healthy', ''],
    [
      'rolling a new version',
      { conditions: [ready, condition('UpdatingVersion', 'True', { message: 'Updating version in progress. Target version: 4.17.3' })], version: '4.17.0' },
      'Progressing',
      'UpdatingVersion: Updating version in progress. Target version: 4.17.3',
    ],
    [
      'rolling a new configuration',
      { conditions: [ready, condition('UpdatingConfig', 'True', { message: 'Updating config in progress' })], version: '4.17.0' },
      'Progressing',
      'UpdatingConfig: Updating config in progress',
    ],
    ['after its first rollout, scaling up', { conditions: [notReady], version: '4.17.0' }, 'Progressing', 'waiting for machines: Minimum availability requires 2 replicas, current 0 available'],
    ['its release refused', { conditions: [notReady, condition('ValidReleaseImage', 'False', { message: 'release image not found' })] }, 'Degraded', 'ValidReleaseImage: release image not found'],
    [
      'too far from its control plane',
      { conditions: [ready, condition('SupportedVersionSkew', 'False', { message: 'NodePool version 4.14.0 is too old' })], version: '4.14.0' },
      'Degraded',
      'SupportedVersionSkew: NodePool version 4.14.0 is too old',
    ],
    [
      'a refused MachineConfig, even while a rollout runs',
      { conditions: [condition('UpdatingConfig', 'True'), condition('ValidMachineConfig', 'False', { message: "unknown field 'kernelArguments'" })], version: '4.17.0' },
      'Degraded',
      "ValidMachineConfig: unknown field 'kernelArguments'",
    ],
    [
      'after its first rollout, no Agent matches it',
      { conditions: [notReady, condition('AllMachinesReady', 'False', { reason: 'NoSuitableAgents', message: 'Machine c1-workers-x: NoSuitableAgents' })], version: '4.17.0' },
      'Degraded',
      'no machine for the pool: Machine c1-workers-x: NoSuitableAgents',
    ],
    [
      'the cloud refuses the instance',
      { conditions: [notReady, condition('AllMachinesReady', 'False', { reason: 'InstanceProvisionFailed', message: 'InsufficientInstanceCapacity' })], version: '4.17.0' },
      'Degraded',
      'no machine for the pool: InsufficientInstanceCapacity',
    ],
  ];

  test.each(cases)('%s: Argo CD says %s', (_, status, expected, message) => {
    const object = { apiVersion: 'hypershift.openshift.io/v1beta1', kind: 'NodePool', spec: { release: { image: NEW } }, ...(status ? { status } : {}) };
    expect(runHealthCheck(NODE_POOL_HEALTH_LUA, object)).toEqual({ status: expected, message });
  });

  test.each(cases)('%s: Flux agrees', (_, status, expected) => {
    expect(fluxVerdict(FLUX_HEALTH_CHECKS.NodePool, { spec: { release: { image: NEW } }, status })).toBe(FLUX_OF[expected]);
  });
});
