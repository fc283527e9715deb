import { App, Stack } from 'aws-cdk-lib';
import { ApiObject, Chart } from 'cdk8s';
import { HcpApp, ISecretSource, ManagementCluster, SecretSource } from '../../lib';
import { AwsManagementPrereqs, OidcS3CredentialsSecret, OidcS3CredentialsSecretProps, PublicZone } from '../../lib/aws';
import { findObject, PRUNE_PROTECTION, synthFiles, synthObjects, synthProblems } from '../util';

const NAME = 'hypershift-operator-oidc-provider-s3-credentials';
const BUCKET = { bucketName: 'acme-hcp-oidc', bucketRegion: 'eu-west-1' };
const CREDENTIALS_FILE = '[default]\naws_access_key_id = AKIAIOSFODNN7EXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n';
const LABELS = { 'cluster.open-cluster-management.io/backup': 'true' };
const METADATA = { name: NAME, namespace: 'local-cluster', labels: LABELS, annotations: { 'argocd.argoproj.io/sync-wave': '20', ...PRUNE_PROTECTION } };

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function newApp(): HcpApp {
  return new HcpApp({ outdir: '/nonexistent' });
}

/** Every object `hub/oidc` writes, validated against the CRDs as HcpApp synth does. */
function objectsOf(props: Partial<OidcS3CredentialsSecretProps> & Pick<OidcS3CredentialsSecretProps, 'credentials'>): any[] {
  const app = newApp();
  new OidcS3CredentialsSecret(new ManagementCluster(app, 'hub'), 'oidc', { bucket: BUCKET, ...props });
  return synthObjects(app);
}

function problemsOf(props: Partial<OidcS3CredentialsSecretProps>, extra?: (hub: ManagementCluster) => void): string[] {
  return synthProblems((app) => {
    const hub = new ManagementCluster(app, 'hub');
    new OidcS3CredentialsSecret(hub, 'oidc', { bucket: BUCKET, credentials: SecretSource.fromExistingSecret(NAME), ...props });
    extra?.(hub);
  });
}

const inline = () => SecretSource.fromInlineValue(CREDENTIALS_FILE, { allowSecretInOutput: true });
const external = () => SecretSource.fromExternalSecret({ storeName: 'aws-secrets-manager', remoteKey: 'hcp/oidc-s3-credentials' });

describe('OidcS3CredentialsSecret', () => {
  test('with an inline credentials file: one Secret in local-cluster with bucket, region and credentials, labelled for backup', () => {
    const app = newApp();
    const secret = new OidcS3CredentialsSecret(new ManagementCluster(app, 'hub'), 'oidc', { bucket: BUCKET, credentials: inline() });
    expect(synthFiles(app).map((f) => f.path)).toEqual([`hub/20-secret-local-cluster_${NAME}.yaml`]);
    expect(synthObjects(app)).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: METADATA,
        type: 'Opaque',
        data: { credentials: b64(CREDENTIALS_FILE), bucket: b64('acme-hcp-oidc'), region: b64('eu-west-1') },
      },
    ]);
    expect(secret.resource).toBe(ApiObject.of(secret.node.findChild('Resource')));
    expect([secret.secretName, secret.namespace, secret.bucketName, secret.bucketRegion]).toEqual([NAME, 'local-cluster', 'acme-hcp-oidc', 'eu-west-1']);
  });

  test('with an existing Secret: references it and writes nothing', () => {
    const app = newApp();
    const secret = new OidcS3CredentialsSecret(new ManagementCluster(app, 'hub'), 'oidc', { bucket: BUCKET, credentials: SecretSource.fromExistingSecret(NAME) });
    expect(synthObjects(app)).toEqual([]);
    expect(secret.resource).toBeUndefined();
  });

  test('with an ExternalSecret: the credentials come from the store, bucket and region are merged in as template data', () => {
    expect(objectsOf({ credentials: external() })).toEqual([
      {
        apiVersion: 'external-secrets.io/v1',
        kind: 'ExternalSecret',
        metadata: METADATA,
        spec: {
          refreshInterval: '1h',
          secretStoreRef: { name: 'aws-secrets-manager', kind: 'ClusterSecretStore' },
          target: {
            name: NAME,
            creationPolicy: 'Owner',
            template: { type: 'Opaque', metadata: { labels: LABELS }, mergePolicy: 'Merge', data: { bucket: 'acme-hcp-oidc', region: 'eu-west-1' } },
          },
          data: [{ secretKey: 'credentials', remoteRef: { key: 'hcp/oidc-s3-credentials' } }],
        },
      },
    ]);
  });

  test('with a SealedSecret: the sealed credentials, bucket and region as plain template data', () => {
    expect(objectsOf({ credentials: SecretSource.fromSealedSecret({ encryptedValue: 'AgBy3i4OJSWK+PiTySYZZA==' }) })).toEqual([
      {
        apiVersion: 'bitnami.com/v1alpha1',
        kind: 'SealedSecret',
        metadata: METADATA,
        spec: {
          encryptedData: { credentials: 'AgBy3i4OJSWK+PiTySYZZA==' },
          template: {
            type: 'Opaque',
            metadata: { name: NAME, namespace: 'local-cluster', labels: LABELS },
            data: { bucket: 'acme-hcp-oidc', region: 'eu-west-1' },
          },
        },
      },
    ]);
  });

  test('takes the bucket name and region from AwsManagementPrereqs', () => {
    const stack = new Stack(new App(), 'Mgmt', { env: { account: '123456789012', region: 'eu-central-1' } });
    const prereqs = new AwsManagementPrereqs(stack, 'Prereqs', { oidcBucketName: 'acme-hcp-oidc', baseDomain: 'hcp.example.com', publicZone: PublicZone.create() });
    const secret = findObject(objectsOf({ bucket: prereqs, credentials: inline() }), 'Secret', NAME);
    expect(secret.data.bucket).toBe(b64('acme-hcp-oidc'));
    expect(secret.data.region).toBe(b64('eu-central-1'));
  });

  test('accepts credentials files with more profiles, comments and a session token', () => {
    const file = '# hub\n[other]\naws_access_key_id = AKIAOTHER\n\n[default]\naws_access_key_id=AKIAIOSFODNN7EXAMPLE\naws_secret_access_key=abc\naws_session_token = xyz\n';
    const secret = findObject(objectsOf({ credentials: SecretSource.fromInlineValue(file, { allowSecretInOutput: true }) }), 'Secret');
    expect(secret.data.credentials).toBe(b64(file));
  });

  test('snapshot', () => {
    expect(objectsOf({ credentials: external() })).toMatchSnapshot();
  });
});

describe('OidcS3CredentialsSecret fails when', () => {
  test('the existing Secret has another name', () => {
    expect(problemsOf({ credentials: SecretSource.fromExistingSecret('oidc-creds') })).toEqual([
      `hub/oidc: credentials (Secret "oidc-creds") must be the Secret "${NAME}": the hypershift-addon reads no other name`,
    ]);
  });

  test('an inline credentials file has no default profile with an access key pair', () => {
    for (const file of ['[hub]\naws_access_key_id = A\naws_secret_access_key = B\n', '[default]\naws_access_key_id = A\n', 'not a credentials file']) {
      expect(problemsOf({ credentials: SecretSource.fromInlineValue(file, { allowSecretInOutput: true }) })).toEqual([
        'hub/oidc: credentials (inline value) must be an AWS credentials file whose [default] profile sets aws_access_key_id and aws_secret_access_key; HyperShift reads only the default profile (docs 3.1.2)',
      ]);
    }
  });

  test('the bucket name is not a valid OIDC bucket name', () => {
    expect(problemsOf({ bucket: { bucketName: 'oidc.example.com', bucketRegion: 'eu-west-1' } })).toEqual([
      'hub/oidc: bucket.bucketName ("oidc.example.com") must not contain ".": the issuer https://<bucket>.s3.<region>.amazonaws.com is a virtual-hosted-style HTTPS URL, and the S3 certificate does not cover dotted bucket names',
    ]);
    expect(problemsOf({ bucket: { bucketName: 'Acme', bucketRegion: 'eu-west-1' } })).toEqual([
      'hub/oidc: bucket.bucketName ("Acme") must be an S3 bucket name: 3 to 63 lower-case letters, digits and "-", starting and ending with a letter or digit',
    ]);
  });

  test('the region is not an AWS region', () => {
    expect(problemsOf({ bucket: { bucketName: 'acme-hcp-oidc', bucketRegion: 'EU' } })).toEqual(['hub/oidc: bucket.bucketRegion ("EU") must be an AWS region such as "eu-west-1"']);
  });

  test('the region is a token: the AWS stack has no region', () => {
    const stack = new Stack(new App(), 'Mgmt');
    const prereqs = new AwsManagementPrereqs(stack, 'Prereqs', { oidcBucketName: 'acme-hcp-oidc', baseDomain: 'hcp.example.com', publicZone: PublicZone.create() });
    expect(problemsOf({ bucket: prereqs })).toEqual([
      'hub/oidc: bucket.bucketRegion (a CloudFormation token) must be concrete: give the AWS stack an env with a region, or pass { bucketName, bucketRegion }',
    ]);
  });

  test('a credentials source writes something that cannot carry the other keys', () => {
    const configMapSource: ISecretSource = {
      bind: (scope, id, options) => {
        new ApiObject(scope, id, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: options.defaultName, namespace: options.namespace } });
        return { secretName: options.defaultName };
      },
    };
    expect(problemsOf({ credentials: configMapSource })).toEqual([
      'hub/oidc: credentials (a source that writes ConfigMap) cannot carry the bucket and region keys; use SecretSource.fromExistingSecret, fromExternalSecret, fromSealedSecret or fromInlineValue',
    ]);
  });

  test('it is declared outside a ManagementCluster', () => {
    expect(
      synthProblems((app) => {
        new OidcS3CredentialsSecret(new Chart(app, 'guest'), 'oidc', { bucket: BUCKET, credentials: inline() });
      }),
    ).toEqual(["guest/oidc: must be declared in a ManagementCluster (it is in guest): the Secret belongs to the hub's local-cluster namespace"]);
  });

  test('a management cluster declares it twice', () => {
    expect(problemsOf({}, (hub) => new OidcS3CredentialsSecret(hub, 'again', { bucket: BUCKET, credentials: SecretSource.fromExistingSecret(NAME) }))).toEqual([
      `hub/again: a management cluster has one ${NAME} Secret, and hub/oidc already declares it`,
    ]);
  });

  test('several things are wrong: all are reported at once', () => {
    expect(problemsOf({ bucket: { bucketName: 'a.b', bucketRegion: 'EU' }, credentials: SecretSource.fromExistingSecret('x') })).toHaveLength(3);
  });
});
