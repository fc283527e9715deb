// The hub's external-DNS credentials Secret (docs 3.1.5.2), made without secret material in git.
import { HcpApp, ManagementCluster, SecretSource } from '../../lib';
import { ExternalDnsCredentialsSecret } from '../../lib/aws';
import { findObject, synthObjects, synthProblems } from '../util';

const CREDENTIALS_FILE = '[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = example\n';

test('an ExternalSecret makes the whole Secret: provider and domain filter as template data, credentials from the store', () => {
  const app = new HcpApp();
  new ExternalDnsCredentialsSecret(new ManagementCluster(app, 'hub'), 'external-dns', {
    domainFilter: 'service-provider.example.com',
    credentials: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'hcp/external-dns' }),
  });
  const secret = findObject(synthObjects(app), 'ExternalSecret');
  expect(secret.metadata).toEqual(
    expect.objectContaining({
      name: 'hypershift-operator-external-dns-credentials',
      namespace: 'local-cluster',
      labels: { 'cluster.open-cluster-management.io/backup': '' },
    }),
  );
  expect(secret.spec.target.template).toEqual(
    expect.objectContaining({
      mergePolicy: 'Merge',
      data: { 'provider': 'aws', 'domain-filter': 'service-provider.example.com' },
    }),
  );
  expect(secret.spec.data).toEqual([{ secretKey: 'credentials', remoteRef: { key: 'hcp/external-dns' } }]);
});

test('an inline credentials file (opted in) writes one Secret with all three keys', () => {
  const app = new HcpApp();
  new ExternalDnsCredentialsSecret(new ManagementCluster(app, 'hub'), 'external-dns', {
    domainFilter: 'service-provider.example.com',
    credentials: SecretSource.fromInlineValue(CREDENTIALS_FILE, { allowSecretInOutput: true }),
  });
  const data = findObject(synthObjects(app), 'Secret').data;
  expect(Object.fromEntries(Object.entries(data).map(([k, v]) => [k, Buffer.from(v as string, 'base64').toString('utf8')]))).toEqual({
    'credentials': CREDENTIALS_FILE,
    'provider': 'aws',
    'domain-filter': 'service-provider.example.com',
  });
});

test('fails when the domain filter is no domain, or the existing Secret has another name', () => {
  expect(
    synthProblems(
      (app) =>
        new ExternalDnsCredentialsSecret(new ManagementCluster(app, 'hub'), 'dns', {
          domainFilter: 'Not A Domain',
          credentials: SecretSource.fromExistingSecret('my-dns-secret'),
        }),
    ),
  ).toEqual([
    'hub/dns: domainFilter ("Not A Domain") must be a lower-case DNS domain such as service-provider.example.com',
    'hub/dns: credentials (Secret "my-dns-secret") must be the Secret "hypershift-operator-external-dns-credentials": the hypershift-addon reads no other name',
  ]);
});
