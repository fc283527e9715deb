import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { existingSecretWithDerivedName, ISecretSource, recordSecretRequirement, SecretBindOptions, SecretMaker, secretRequirementsOf, SecretSource } from '../../lib';

const OPTIONS: SecretBindOptions = {
  defaultName: 'c1-pull-secret',
  namespace: 'clusters',
  key: '.dockerconfigjson',
  type: 'kubernetes.io/dockerconfigjson',
};

/** Binds `source` for a consumer construct; returns what the consumer has recorded and the objects emitted. */
function bind(source: ISecretSource, options: SecretBindOptions = OPTIONS) {
  const chart = new Chart(Testing.app(), 'hub');
  const consumer = new Construct(chart, 'c1');
  source.bind(consumer, 'PullSecret', options);
  return { recorded: secretRequirementsOf(consumer), onChart: secretRequirementsOf(chart), objects: Testing.synth(chart) };
}

describe('what a SecretSource records on the construct that binds it', () => {
  test("fromExistingSecret: a Secret you create, with the name given and the consumer's namespace, type and key", () => {
    const { recorded, onChart, objects } = bind(SecretSource.fromExistingSecret('pull-secret'));
    expect(recorded).toEqual([{ name: 'pull-secret', namespace: 'clusters', type: 'kubernetes.io/dockerconfigjson', keys: ['.dockerconfigjson'], madeBy: SecretMaker.YOU }]);
    expect(onChart).toEqual([]);
    expect(objects).toEqual([]);
  });

  test('fromExistingSecret: the keys the consumer adds itself are keys the existing Secret must carry', () => {
    const { recorded } = bind(SecretSource.fromExistingSecret('oidc'), { ...OPTIONS, key: 'credentials', type: 'Opaque', otherKeys: ['bucket', 'region', 'credentials'] });
    expect(recorded.map((r) => r.keys)).toEqual([['credentials', 'bucket', 'region']]);
  });

  test('fromExistingSecret with an invalid name records nothing (the consumer reports the problem)', () => {
    expect(bind(SecretSource.fromExistingSecret('Not_A_Name')).recorded).toEqual([]);
  });

  test('existingSecretWithDerivedName: recorded like fromExistingSecret, the name not checked again', () => {
    const { recorded } = bind(existingSecretWithDerivedName('Bad_Name-etcd-encryption-key'), { ...OPTIONS, key: 'key', type: 'Opaque' });
    expect(recorded).toEqual([{ name: 'Bad_Name-etcd-encryption-key', namespace: 'clusters', type: 'Opaque', keys: ['key'], madeBy: SecretMaker.YOU }]);
    const chart = new Chart(Testing.app(), 'hub');
    expect(existingSecretWithDerivedName('Bad_Name-x').bind(chart, 'S', OPTIONS)).toEqual({ secretName: 'Bad_Name-x' });
  });

  test("fromExternalSecret: a Secret External Secrets makes under the consumer's name, with store and remote key", () => {
    const { recorded, objects } = bind(SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'ocp/pull-secret', remoteProperty: 'dockerconfigjson' }));
    expect(recorded).toEqual([
      {
        name: 'c1-pull-secret',
        namespace: 'clusters',
        type: 'kubernetes.io/dockerconfigjson',
        keys: ['.dockerconfigjson'],
        madeBy: SecretMaker.EXTERNAL_SECRETS,
        store: { kind: 'ClusterSecretStore', name: 'vault' },
        remoteReferences: [{ secretKey: '.dockerconfigjson', remoteKey: 'ocp/pull-secret', remoteProperty: 'dockerconfigjson' }],
      },
    ]);
    // The object it writes says the same.
    expect(objects[0].spec.secretStoreRef).toEqual({ name: 'vault', kind: 'ClusterSecretStore' });
    expect(objects[0].spec.data).toEqual([{ secretKey: '.dockerconfigjson', remoteRef: { key: 'ocp/pull-secret', property: 'dockerconfigjson' } }]);
  });

  test('fromExternalSecret: a namespaced SecretStore is named as such', () => {
    const { recorded } = bind(SecretSource.fromExternalSecret({ storeName: 'local', storeKind: 'SecretStore', remoteKey: 'k' }));
    expect(recorded[0].store).toEqual({ kind: 'SecretStore', name: 'local' });
    expect(recorded[0].remoteReferences).toEqual([{ secretKey: '.dockerconfigjson', remoteKey: 'k', remoteProperty: undefined }]);
  });

  test("fromSealedSecret: a Secret the Sealed Secrets controller makes under the consumer's name", () => {
    const { recorded } = bind(SecretSource.fromSealedSecret({ encryptedValue: 'AgB...' }));
    expect(recorded).toEqual([{ name: 'c1-pull-secret', namespace: 'clusters', type: 'kubernetes.io/dockerconfigjson', keys: ['.dockerconfigjson'], madeBy: SecretMaker.SEALED_SECRETS }]);
  });

  test('fromInlineValue records nothing: the Secret is in the output', () => {
    const { recorded, objects } = bind(SecretSource.fromInlineValue('{"auths":{}}', { allowSecretInOutput: true }));
    expect(recorded).toEqual([]);
    expect(objects.map((o) => o.kind)).toEqual(['Secret']);
  });
});

describe('recordSecretRequirement', () => {
  test("keeps each construct's requirements on that construct, in order, apart from other metadata", () => {
    const app = Testing.app();
    const a = new Construct(app, 'a');
    const b = new Construct(app, 'b');
    a.node.addMetadata('other', { x: 1 });
    recordSecretRequirement(a, { name: 's1', namespace: 'n', type: 'Opaque', keys: ['k'], madeBy: SecretMaker.YOU });
    recordSecretRequirement(a, { name: 's2', namespace: 'n', type: 'Opaque', keys: ['k'], madeBy: SecretMaker.YOU });
    expect(secretRequirementsOf(a).map((r) => r.name)).toEqual(['s1', 's2']);
    expect(secretRequirementsOf(b)).toEqual([]);
  });

  test('two apps keep their own requirements', () => {
    const source = SecretSource.fromExistingSecret('shared');
    const first = new Construct(Testing.app(), 'c');
    const second = new Construct(Testing.app(), 'c');
    source.bind(first, 'S', OPTIONS);
    expect(secretRequirementsOf(first)).toHaveLength(1);
    expect(secretRequirementsOf(second)).toEqual([]);
  });
});
