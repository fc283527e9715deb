import { Chart, Testing } from 'cdk8s';
import { ISecretSource, SecretBindOptions, SecretSource } from '../../lib';

const OPTIONS: SecretBindOptions = {
  defaultName: 'c1-pull-secret',
  namespace: 'clusters',
  key: '.dockerconfigjson',
  type: 'kubernetes.io/dockerconfigjson',
  labels: { 'hypershift.openshift.io/safe-to-delete-with-cluster': 'true' },
};

/** Binds `source` in a fresh chart; returns the binding and the objects it emitted. */
function bind(source: ISecretSource, options: SecretBindOptions = OPTIONS) {
  const chart = new Chart(Testing.app(), 'hub');
  const binding = source.bind(chart, 'Secret', options);
  return { binding, objects: Testing.synth(chart) };
}

describe('SecretSource.fromExistingSecret', () => {
  test('references the Secret by its name and emits nothing', () => {
    const { binding, objects } = bind(SecretSource.fromExistingSecret('pull-secret'));
    expect(binding).toEqual({ secretName: 'pull-secret' });
    expect(objects).toEqual([]);
  });
});

describe('SecretSource.fromInlineValue', () => {
  test("writes a Secret of the consumer's name, type and key, base64-encoded", () => {
    const { binding, objects } = bind(SecretSource.fromInlineValue('{"auths":{}}', { allowSecretInOutput: true }));
    expect(binding).toEqual({ secretName: 'c1-pull-secret' });
    expect(objects).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'c1-pull-secret', namespace: 'clusters', labels: OPTIONS.labels },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': Buffer.from('{"auths":{}}').toString('base64') },
      },
    ]);
  });

  test('writes bytes as given', () => {
    const key = Buffer.from([0, 255, 1, 254]);
    const { objects } = bind(SecretSource.fromInlineValue(key, { allowSecretInOutput: true }), { ...OPTIONS, key: 'key', type: 'Opaque' });
    expect(Buffer.from(objects[0].data.key, 'base64')).toEqual(key);
  });

  test("returns the consumer's check problem and emits no Secret", () => {
    const { binding, objects } = bind(SecretSource.fromInlineValue('x', { allowSecretInOutput: true }), { ...OPTIONS, checkValue: (v) => `value (${v.length} bytes) is too short` });
    expect(binding).toEqual({ secretName: 'c1-pull-secret', problem: 'value (1 bytes) is too short' });
    expect(objects).toEqual([]);
  });

  test('fails when the opt-in is missing: a problem the consumer reports with its path, and no Secret', () => {
    const { binding, objects } = bind(SecretSource.fromInlineValue('secret', {} as any));
    expect(binding).toEqual({
      secretName: 'c1-pull-secret',
      problem:
        'SecretSource.fromInlineValue: allowSecretInOutput (undefined) must be true to write secret material into the output; use fromExistingSecret, fromExternalSecret or fromSealedSecret otherwise',
    });
    expect(objects).toEqual([]);
  });

  test('fails when the opt-in is not exactly true', () => {
    expect(bind(SecretSource.fromInlineValue('secret', { allowSecretInOutput: 'yes' } as any)).binding.problem).toMatch(/allowSecretInOutput \("yes"\) must be true/);
  });
});

describe('SecretSource.fromExternalSecret', () => {
  test('emits an ExternalSecret that creates the Secret the consumer reads', () => {
    const { binding, objects } = bind(SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret' }));
    expect(binding).toEqual({ secretName: 'c1-pull-secret' });
    expect(objects).toEqual([
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: { name: 'c1-pull-secret', namespace: 'clusters', labels: OPTIONS.labels },
        spec: {
          refreshInterval: '1h',
          secretStoreRef: { name: 'vault', kind: 'ClusterSecretStore' },
          target: { name: 'c1-pull-secret', creationPolicy: 'Owner', template: { type: 'kubernetes.io/dockerconfigjson', metadata: { labels: OPTIONS.labels } } },
          data: [{ secretKey: '.dockerconfigjson', remoteRef: { key: 'ocp/pull-secret' } }],
        },
      },
    ]);
  });

  test('takes the store kind, refresh interval and remote property', () => {
    const { objects } = bind(SecretSource.fromExternalSecret({ storeName: 'aws', storeKind: 'SecretStore', remoteKey: 'lab', remoteProperty: 'pullSecret', refreshInterval: '15m' }));
    expect(objects[0].spec.secretStoreRef).toEqual({ name: 'aws', kind: 'SecretStore' });
    expect(objects[0].spec.refreshInterval).toBe('15m');
    expect(objects[0].spec.data).toEqual([{ secretKey: '.dockerconfigjson', remoteRef: { key: 'lab', property: 'pullSecret' } }]);
  });
});

describe('SecretSource.fromSealedSecret', () => {
  test("emits a SealedSecret for the consumer's name, namespace, type and key", () => {
    const { binding, objects } = bind(SecretSource.fromSealedSecret({ encryptedValue: 'AgBy3i4OJSWK+PiTySYZZA==' }));
    expect(binding).toEqual({ secretName: 'c1-pull-secret' });
    expect(objects).toEqual([
      {
        apiVersion: 'bitnami.com/v1alpha1',
        kind: 'SealedSecret',
        metadata: { name: 'c1-pull-secret', namespace: 'clusters', labels: OPTIONS.labels },
        spec: {
          encryptedData: { '.dockerconfigjson': 'AgBy3i4OJSWK+PiTySYZZA==' },
          template: { type: 'kubernetes.io/dockerconfigjson', metadata: { name: 'c1-pull-secret', namespace: 'clusters', labels: OPTIONS.labels } },
        },
      },
    ]);
  });
});
