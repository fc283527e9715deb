// Hand-written objects for the validator: valid bases, a way to change one field, and the shape of
// a case. Every case file under ./cases exports CASES; the invalid-objects test runs them all and
// scripts/rule-coverage.ts counts which CEL rules they make pass and fail.

/** One object to validate, and what the validator must say about it. */
export interface ObjectCase {
  /** `fails when …` for objects the API server rejects, `passes when …` for ones it accepts. */
  readonly name: string;
  readonly object: any;
  /** The object as stored before, for transition rules (`oldSelf`). */
  readonly previous?: any;
  /** For a failing case: text the problem's message must contain (the rule's message). */
  readonly rejects?: string;
  /** For a failing case: the field path the problem must name, when it matters. */
  readonly at?: string;
}

/** A deep copy, so that a case never changes a base another case uses. */
export function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/**
 * A copy of `base` with fields set (or, for `undefined`, removed), by path: `spec.services[0].service`.
 * Missing intermediate objects are created.
 */
export function withChanges(base: any, changes: Record<string, unknown>): any {
  const out = copy(base);
  for (const [path, value] of Object.entries(changes)) {
    const keys = path.replace(/\[(\d+)\]/g, '.$1').split('.');
    let node = out;
    for (const key of keys.slice(0, -1)) {
      if (node[key] === undefined) node[key] = {};
      node = node[key];
    }
    const last = keys[keys.length - 1];
    if (value === undefined) delete node[last];
    else node[last] = copy(value);
  }
  return out;
}

export const RELEASE_IMAGE = 'quay.io/openshift-release-dev/ocp-release@sha256:03cc63c0c48b2416889e9ee53f2efc2c940323c15f08384b439c00de8e66e8aa';

const nodePort = (service: string) => ({
  service,
  servicePublishingStrategy: { type: 'NodePort', nodePort: { address: 'api.vcluster2.example.com' } },
});

/** An Agent HostedCluster the API server accepts (the default example's shape). */
export const HOSTED_CLUSTER = {
  apiVersion: 'hypershift.openshift.io/v1beta1',
  kind: 'HostedCluster',
  metadata: { name: 'vcluster2', namespace: 'clusters' },
  spec: {
    release: { image: RELEASE_IMAGE },
    pullSecret: { name: 'pull-secret' },
    sshKey: { name: 'vcluster2-ssh-key' },
    infraID: 'vcluster2',
    dns: { baseDomain: 'example.com' },
    networking: {
      networkType: 'OVNKubernetes',
      clusterNetwork: [{ cidr: '10.132.0.0/14' }],
      serviceNetwork: [{ cidr: '172.31.0.0/16' }],
    },
    etcd: { managementType: 'Managed', managed: { storage: { type: 'PersistentVolume', persistentVolume: { size: '8Gi' } } } },
    platform: { type: 'Agent', agent: { agentNamespace: 'hardware-inventory' } },
    services: ['APIServer', 'Ignition', 'Konnectivity', 'OAuthServer', 'OIDC'].map(nodePort),
    controllerAvailabilityPolicy: 'HighlyAvailable',
  },
};

/** An Agent NodePool the API server accepts. */
export const NODE_POOL = {
  apiVersion: 'hypershift.openshift.io/v1beta1',
  kind: 'NodePool',
  metadata: { name: 'vcluster2', namespace: 'clusters' },
  spec: {
    clusterName: 'vcluster2',
    release: { image: RELEASE_IMAGE },
    replicas: 2,
    arch: 'amd64',
    management: { upgradeType: 'InPlace', autoRepair: false },
    platform: { type: 'Agent', agent: { agentLabelSelector: { matchLabels: { pool: 'vcluster2' } } } },
  },
};

/** A namespaced CRD `Widget` in example.com/v1 with the given spec schema. */
export function widgetCrd(spec: object, version = 'v1'): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget', plural: 'widgets' },
      scope: 'Namespaced',
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec } } },
        },
      ],
    },
  };
}
