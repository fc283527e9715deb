import { Duration } from 'cdk8s';
import * as YAML from 'yaml';
import {
  CertificateAuthority,
  ClusterOAuth,
  ControlPlaneService,
  HcpApp,
  HostedCluster,
  IdentityProvider,
  ManagementCluster,
  ManagementClusterProps,
  MappingMethod,
  SecretSource,
  ServicePublishing,
} from '../../lib';
import { newCluster } from '../props';
import { findObject, synthFiles, synthProblems } from '../util';

const CA = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ2Vyd\n-----END CERTIFICATE-----\n';

function synth(build: (cluster: HostedCluster) => void, props = {}): { objects: any[]; app: HcpApp } {
  const app = new HcpApp({ outdir: '/nonexistent' });
  build(newCluster({ baseDomain: 'example.com', ...props }, app));
  const objects = synthFiles(app).map((f) => YAML.parse(f.text));
  return { objects, app };
}

function oauthOf(objects: any[]): any {
  return findObject(objects, 'HostedCluster', 'c1').spec.configuration.oauth;
}

function problems(build: (cluster: HostedCluster) => void): string[] {
  return synthProblems((app) => build(newCluster({ baseDomain: 'example.com' }, app)));
}

const openId = (overrides: Partial<Parameters<typeof IdentityProvider.openId>[0]> = {}) =>
  IdentityProvider.openId({
    name: 'IAM',
    clientId: 'hcp-client',
    clientSecret: SecretSource.fromExistingSecret('iam-client-secret'),
    issuer: 'https://example.com/identity',
    ...overrides,
  });

describe('ClusterOAuth', () => {
  test('reproduces the OpenID example of docs 8.1, "Configuring the OAuth server for a hosted cluster by using the CLI"', () => {
    const { objects, app } = synth(
      (cluster) =>
        new ClusterOAuth(cluster, 'oauth', {
          identityProviders: [
            IdentityProvider.openId({
              name: 'IAM',
              mappingMethod: MappingMethod.LOOKUP,
              clientId: '<client_id>',
              clientSecret: SecretSource.fromExistingSecret('client-id-secret-name'),
              issuer: 'https://example.com/identity',
              claims: { email: ['email'], name: ['name'], preferredUsername: ['preferred_username'] },
            }),
          ],
        }),
    );
    expect(oauthOf(objects)).toEqual({
      identityProviders: [
        {
          name: 'IAM',
          type: 'OpenID',
          mappingMethod: 'lookup',
          openID: {
            clientID: '<client_id>',
            clientSecret: { name: 'client-id-secret-name' },
            issuer: 'https://example.com/identity',
            claims: { email: ['email'], name: ['name'], preferredUsername: ['preferred_username'] },
          },
        },
      ],
    });
    // The Secret is referenced, not written: the secrets report lists it with the key the OAuth server reads.
    expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    expect(app.secretsReport()).toContainEqual(expect.objectContaining({ name: 'client-id-secret-name', namespace: 'clusters', keys: ['clientSecret'] }));
    // The docs' cluster publishes its OAuth server as a NodePort allocated at apply: HyperShift reports the URL.
    expect(app.notices).toEqual([
      'hub/c1/oauth: identity provider "IAM" (OpenID): register the OAuth server\'s callback as the client\'s redirect URL, which is known once the server is published: ' +
        'HyperShift reports it in status.oauthCallbackURLTemplate of HostedCluster clusters/c1, with [identity-provider-name] standing for IAM ' +
        "(oc get hostedcluster c1 -n clusters -o jsonpath='{.status.oauthCallbackURLTemplate}'); or give the OAuthServer's NodePort a fixed port to have it printed here",
      'hub/c1/oauth: identity providers (IAM) replace the kubeadmin user: it can no longer log in once they apply; keep a user with cluster-admin in one of them',
    ]);
  });

  describe('the callback URL, in the form HyperShift reports it (status.oauthCallbackURLTemplate: https://<host>:<port>/oauth2callback/[identity-provider-name])', () => {
    /** The notes and callback URLs of an OpenID provider on c1, with its OAuth server published as `publishing`, on hub `hub`. */
    function callbackOf(publishing: ServicePublishing, hub: ManagementClusterProps = {}): { notices: string[]; urls: Readonly<Record<string, string>> } {
      const app = new HcpApp({ outdir: '/nonexistent' });
      const cluster = newCluster({ baseDomain: 'example.com' }, app, new ManagementCluster(app, 'hub', hub));
      cluster.publishService(ControlPlaneService.OAUTH_SERVER, publishing);
      const oauth = new ClusterOAuth(cluster, 'oauth', { identityProviders: [openId()] });
      app.synthesize();
      return { notices: app.notices.filter((n) => n.includes('"IAM"')), urls: oauth.callbackUrls };
    }
    const READ_IT =
      'hub/c1/oauth: identity provider "IAM" (OpenID): register the OAuth server\'s callback as the client\'s redirect URL, which is known once the server is published: ' +
      'HyperShift reports it in status.oauthCallbackURLTemplate of HostedCluster clusters/c1, with [identity-provider-name] standing for IAM ' +
      "(oc get hostedcluster c1 -n clusters -o jsonpath='{.status.oauthCallbackURLTemplate}')";

    test("a Route with a hostname: that host, on the router's port 443", () => {
      const { notices, urls } = callbackOf(ServicePublishing.route({ hostname: 'oauth-c1.apps.example.com' }));
      expect(urls).toEqual({ IAM: 'https://oauth-c1.apps.example.com:443/oauth2callback/IAM' });
      expect(notices).toEqual(['hub/c1/oauth: identity provider "IAM" (OpenID): register https://oauth-c1.apps.example.com:443/oauth2callback/IAM as the client\'s redirect URL']);
    });

    test("a Route without a hostname on a hub whose ingress domain is given: the host the hub's router makes of Route oauth in the control-plane namespace", () => {
      const { notices, urls } = callbackOf(ServicePublishing.route(), { ingressDomain: 'apps.hub.example.com' });
      expect(urls).toEqual({ IAM: 'https://oauth-clusters-c1.apps.hub.example.com:443/oauth2callback/IAM' });
      expect(notices).toEqual(['hub/c1/oauth: identity provider "IAM" (OpenID): register https://oauth-clusters-c1.apps.hub.example.com:443/oauth2callback/IAM as the client\'s redirect URL']);
    });

    test('a Route without a hostname on a hub of unknown ingress domain: where to read the URL, and no placeholder printed as if it were one', () => {
      const { notices, urls } = callbackOf(ServicePublishing.route());
      expect(urls).toEqual({});
      expect(notices).toEqual([
        `${READ_IT}; or give the management cluster's ingressDomain (new ManagementCluster(app, 'hub', { ingressDomain: 'apps.<hub domain>' })), where its Route is served, to have it printed here`,
      ]);
      expect(notices[0]).not.toMatch(/https:\/\/|oauth-openshift|<base domain>/);
    });

    test('a NodePort: its address and fixed port, else where to read the URL', () => {
      expect(callbackOf(ServicePublishing.nodePort({ address: '192.0.2.10', port: 30443 })).urls).toEqual({ IAM: 'https://192.0.2.10:30443/oauth2callback/IAM' });
      const allocated = callbackOf(ServicePublishing.nodePort({ address: '192.0.2.10' }));
      expect(allocated.urls).toEqual({});
      expect(allocated.notices).toEqual([`${READ_IT}; or give the OAuthServer's NodePort a fixed port to have it printed here`]);
    });

    test('the ingress domain does not change a Route that has its own hostname', () => {
      expect(callbackOf(ServicePublishing.route({ hostname: 'login.c1.example.com' }), { ingressDomain: 'apps.hub.example.com' }).urls).toEqual({
        IAM: 'https://login.c1.example.com:443/oauth2callback/IAM',
      });
    });

    test.each(['Apps.Hub.Example.com', 'https://apps.hub.example.com', 'apps', 'apps.hub.example.com.'])("fails when the management cluster's ingressDomain is %j", (ingressDomain) => {
      expect(synthProblems((app) => new ManagementCluster(app, 'hub', { ingressDomain }))).toEqual([
        `hub: ingressDomain (${JSON.stringify(ingressDomain)}) must be the DNS subdomain of the management cluster's default ingress, lower case, such as apps.hub.example.com`,
      ]);
    });
  });

  test('writes each kind of provider with its Secrets and CA ConfigMaps in the cluster namespace', () => {
    const { objects, app } = synth(
      (cluster) =>
        new ClusterOAuth(cluster, 'oauth', {
          identityProviders: [
            IdentityProvider.htpasswd({ name: 'local', fileData: SecretSource.fromExternalSecret({ storeName: 'vault', remoteKey: 'hcp/htpasswd' }) }),
            IdentityProvider.ldap({
              name: 'corp-ldap',
              url: 'ldaps://ldap.example.com/ou=users,dc=example,dc=com?uid',
              attributes: { id: ['dn'], preferredUsername: ['uid'] },
              bindDn: 'cn=reader,dc=example,dc=com',
              bindPassword: SecretSource.fromExistingSecret('ldap-bind'),
              ca: CertificateAuthority.fromPem(CA),
            }),
            IdentityProvider.gitHub({ name: 'github', clientId: 'gh', clientSecret: SecretSource.fromExistingSecret('gh-secret'), organizations: ['example-org'] }),
            IdentityProvider.gitLab({ name: 'gitlab', clientId: 'gl', clientSecret: SecretSource.fromExistingSecret('gl-secret'), url: 'https://gitlab.example.com' }),
            IdentityProvider.google({ name: 'google', clientId: 'go', clientSecret: SecretSource.fromExistingSecret('go-secret'), hostedDomain: 'example.com' }),
            IdentityProvider.keystone({ name: 'keystone', url: 'https://keystone.example.com:5000', domainName: 'default', tlsClientCertificate: SecretSource.fromExistingSecret('ks-client') }),
            IdentityProvider.basicAuth({ name: 'basic', url: 'https://auth.example.com/check', ca: CertificateAuthority.fromExistingConfigMap('basic-ca') }),
            IdentityProvider.requestHeader({ name: 'proxy', ca: CertificateAuthority.fromPem(CA), headers: ['X-Remote-User'], loginUrl: 'https://sso.example.com/login?${query}' }),
          ],
          accessTokenInactivityTimeout: Duration.minutes(10),
        }),
    );
    const oauth = oauthOf(objects);
    expect(oauth.identityProviders.map((p: any) => p.type)).toEqual(['HTPasswd', 'LDAP', 'GitHub', 'GitLab', 'Google', 'Keystone', 'BasicAuth', 'RequestHeader']);
    expect(oauth.identityProviders[0].htpasswd).toEqual({ fileData: { name: 'c1-local-htpasswd' } });
    expect(findObject(objects, 'ExternalSecret', 'c1-local-htpasswd').spec.data).toEqual([{ secretKey: 'htpasswd', remoteRef: { key: 'hcp/htpasswd' } }]);
    expect(oauth.identityProviders[1].ldap).toEqual({
      url: 'ldaps://ldap.example.com/ou=users,dc=example,dc=com?uid',
      attributes: { id: ['dn'], preferredUsername: ['uid'] },
      bindDN: 'cn=reader,dc=example,dc=com',
      bindPassword: { name: 'ldap-bind' },
      ca: { name: 'c1-corp-ldap-ca' },
    });
    expect(findObject(objects, 'ConfigMap', 'c1-corp-ldap-ca')).toEqual(expect.objectContaining({ metadata: expect.objectContaining({ namespace: 'clusters' }), data: { 'ca.crt': CA } }));
    expect(oauth.identityProviders[5].keystone).toEqual({ url: 'https://keystone.example.com:5000', domainName: 'default', tlsClientCert: { name: 'ks-client' }, tlsClientKey: { name: 'ks-client' } });
    expect(oauth.identityProviders[6].basicAuth).toEqual({ url: 'https://auth.example.com/check', ca: { name: 'basic-ca' } });
    expect(oauth.identityProviders[7].requestHeader).toEqual({ ca: { name: 'c1-proxy-ca' }, headers: ['X-Remote-User'], loginURL: 'https://sso.example.com/login?${query}' });
    expect(oauth.tokenConfig).toEqual({ accessTokenInactivityTimeout: '600s' });
    expect(app.secretsReport()).toContainEqual(expect.objectContaining({ name: 'ks-client', type: 'kubernetes.io/tls', keys: ['tls.crt', 'tls.key'] }));
    // Only the four redirecting providers need a callback.
    expect(app.notices.filter((n) => n.includes('redirect URL')).map((n) => /"([^"]+)"/.exec(n)![1])).toEqual(['github', 'gitlab', 'google']);
  });

  test.each<[string, () => IdentityProvider[], string]>([
    ['fails when the OpenID issuer is http', () => [openId({ issuer: 'http://example.com/identity' })], 'identityProviders[0].openID.issuer ("http://example.com/identity") must be an https URL'],
    [
      'fails when the OpenID issuer has a query',
      () => [openId({ issuer: 'https://example.com/identity?tenant=1' })],
      'issuer ("https://example.com/identity?tenant=1") must not have a query or fragment component',
    ],
    ['fails when the OpenID issuer has a fragment', () => [openId({ issuer: 'https://example.com/identity#x' })], 'must not have a query or fragment component'],
    ['fails when the OpenID issuer ends with a slash', () => [openId({ issuer: 'https://example.com/identity/' })], 'must not end with "/"'],
    [
      'fails when two providers share a name',
      () => [openId(), IdentityProvider.htpasswd({ name: 'IAM', fileData: SecretSource.fromExistingSecret('h') })],
      'identityProviders[1].name ("IAM") is used by an earlier provider; names must be unique',
    ],
    ['fails when a provider name is not a path segment', () => [openId({ name: 'corp/iam' })], 'identityProviders[0].name ("corp/iam") must be a path segment'],
    ['fails when the client ID is empty', () => [openId({ clientId: '' })], 'openID.clientId ("") must be the client ID registered with the provider'],
    [
      'fails when a GitHub provider allows every GitHub user',
      () => [IdentityProvider.gitHub({ name: 'gh', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s') })],
      'organizations (undefined) or teams must be given',
    ],
    [
      'fails when a GitHub provider gives organizations and teams',
      () => [IdentityProvider.gitHub({ name: 'gh', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s'), organizations: ['a'], teams: ['a/b'] })],
      'exclude each other',
    ],
    [
      'fails when a GitHub team is not org/team',
      () => [IdentityProvider.gitHub({ name: 'gh', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s'), teams: ['admins'] })],
      'github.teams[0] ("admins") must be <org>/<team>',
    ],
    [
      'fails when a GitHub hostname is github.com',
      () => [IdentityProvider.gitHub({ name: 'gh', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s'), hostname: 'github.com' })],
      'github.hostname ("github.com") must not be [*.]github.com',
    ],
    [
      'fails when a GitLab URL is http',
      () => [IdentityProvider.gitLab({ name: 'gl', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s'), url: 'http://gitlab.example.com' })],
      'gitlab.url ("http://gitlab.example.com") must be an https URL',
    ],
    [
      'fails when a Google provider allows every Google user',
      () => [IdentityProvider.google({ name: 'g', clientId: 'x', clientSecret: SecretSource.fromExistingSecret('s') })],
      'hostedDomain (undefined) must be given unless mappingMethod is lookup',
    ],
    [
      'fails when an LDAP URL is not ldap or ldaps',
      () => [IdentityProvider.ldap({ name: 'l', url: 'https://ldap.example.com', attributes: { id: ['dn'] } })],
      'ldap.url ("https://ldap.example.com") must be an RFC 2255 URL',
    ],
    [
      'fails when an LDAP bind DN comes without a password',
      () => [IdentityProvider.ldap({ name: 'l', url: 'ldap://ldap.example.com', attributes: { id: ['dn'] }, bindDn: 'cn=x' })],
      'bindDn ("cn=x") and bindPassword must both be given',
    ],
    [
      'fails when an insecure LDAP uses ldaps',
      () => [IdentityProvider.ldap({ name: 'l', url: 'ldaps://ldap.example.com', attributes: { id: ['dn'] }, insecure: true })],
      'cannot use ldaps:// with insecure: true',
    ],
    [
      'fails when LDAP has no id attribute',
      () => [IdentityProvider.ldap({ name: 'l', url: 'ldap://ldap.example.com', attributes: { id: [] } })],
      'ldap.attributes.id ([]) must list at least one attribute',
    ],
    [
      'fails when a Keystone URL is http',
      () => [IdentityProvider.keystone({ name: 'k', url: 'http://ks.example.com', domainName: 'default' })],
      'keystone.url ("http://ks.example.com") must be an https URL',
    ],
    [
      'fails when a request-header provider lists no header',
      () => [IdentityProvider.requestHeader({ name: 'r', ca: CertificateAuthority.fromPem(CA), headers: [] })],
      'requestHeader.headers ([]) must list at least one header',
    ],
    [
      'fails when a CA is not PEM',
      () => [IdentityProvider.basicAuth({ name: 'b', url: 'https://a.example.com', ca: CertificateAuthority.fromPem('not a certificate') })],
      'basicAuth.ca ("not a certificate") must be PEM text with at least one "-----BEGIN CERTIFICATE-----" block',
    ],
  ])('%s', (_, providers, message) => {
    const found = problems((cluster) => new ClusterOAuth(cluster, 'oauth', { identityProviders: providers() }));
    expect(found).toContainEqual(expect.stringContaining(message));
    expect(found.every((p) => p.startsWith('hub/c1/oauth: '))).toBe(true);
  });

  test('fails when no identity provider is given', () => {
    expect(problems((cluster) => new ClusterOAuth(cluster, 'oauth', { identityProviders: [] }))).toEqual([
      'hub/c1/oauth: identityProviders (0 entries) must list at least one IdentityProvider: IdentityProvider.openId(...), .htpasswd(...), ...',
    ]);
  });

  test('fails when the inactivity timeout is under 300 seconds', () => {
    expect(problems((cluster) => new ClusterOAuth(cluster, 'oauth', { identityProviders: [openId()], accessTokenInactivityTimeout: Duration.seconds(120) }))).toEqual([
      'hub/c1/oauth: accessTokenInactivityTimeout ("120s") must be at least 300 seconds, the OAuth API\'s minimum',
    ]);
  });

  test('fails when the configuration prop sets OAuth too, naming both', () => {
    const found = synthProblems((app) => {
      const cluster = newCluster({ configuration: { oauth: { identityProviders: [{ name: 'x', type: 'HTPasswd' }] } } }, app);
      new ClusterOAuth(cluster, 'oauth', { identityProviders: [openId()] });
    });
    expect(found).toEqual([expect.stringMatching(/^hub\/c1: configuration\.oauth\.identityProviders is set by the configuration prop \(.*\) and by hub\/c1\/oauth \(.*\); set it in one place$/)]);
  });

  test('writes no secret material unless a source opts in', () => {
    const { objects } = synth(
      (cluster) =>
        new ClusterOAuth(cluster, 'oauth', {
          identityProviders: [openId({ clientSecret: SecretSource.fromInlineValue('s3cret', { allowSecretInOutput: true }) })],
        }),
    );
    expect(findObject(objects, 'Secret', 'c1-iam-client-secret').data).toEqual({ clientSecret: Buffer.from('s3cret').toString('base64') });
  });
});
