import { Construct } from 'constructs';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import type { ISecretSource } from '../secrets/secret-source';
import { CertificateAuthority } from './certificate-authority';
import { bindTlsSecret } from './tls-secret';

type IdentityProviderJson = hc.HostedClusterSpecConfigurationOauthIdentityProviders;

/** How identities of a provider map to users (`mappingMethod`). */
export enum MappingMethod {
  /** A user named after the identity's preferred user name; fails when another identity has that user. */
  CLAIM = 'claim',
  /** Only existing users, mapped by hand or by a tool: no user is created. */
  LOOKUP = 'lookup',
  /** A user named after the preferred user name, with a suffix when taken. */
  GENERATE = 'generate',
  /** Adds the identity to an existing user of that name, or creates it. */
  ADD = 'add',
}

/** What every identity provider has. */
export interface IdentityProviderOptions {
  /**
   * The provider's name: prefixed to identity names and part of the OAuth callback URL; unique per
   * cluster, and a path segment (no "/", "%" or ":", not "." or "..").
   */
  readonly name: string;
  /** @default MappingMethod.CLAIM (the API's default) */
  readonly mappingMethod?: MappingMethod;
}

/** An OAuth 2.0 client registered with the provider. */
export interface OAuthClientOptions extends IdentityProviderOptions {
  /** The client ID the provider issued. */
  readonly clientId: string;
  /** The client secret: a Secret with key `clientSecret` in the cluster's namespace. */
  readonly clientSecret: ISecretSource;
}

/** Which claims of the ID token or user info fill a user's fields. */
export interface OpenIdClaims {
  /** @default - the `sub` claim */
  readonly preferredUsername?: string[];
  /** @default - no display name */
  readonly name?: string[];
  /** @default - no email */
  readonly email?: string[];
  /** @default - no groups synchronized */
  readonly groups?: string[];
}

export interface OpenIdOptions extends OAuthClientOptions {
  /** The issuer identifier: https, no query or fragment, no trailing "/". */
  readonly issuer: string;
  /** @default - the `sub` claim as preferred user name, nothing else */
  readonly claims?: OpenIdClaims;
  /** Scopes besides `openid`. @default - none */
  readonly extraScopes?: string[];
  /** @default - none */
  readonly extraAuthorizeParameters?: Record<string, string>;
  /** @default - the cluster's trusted CAs */
  readonly ca?: CertificateAuthority;
}

export interface HtpasswdOptions extends IdentityProviderOptions {
  /** The htpasswd file: a Secret with key `htpasswd`. */
  readonly fileData: ISecretSource;
}

/** Which LDAP attributes fill a user's fields. */
export interface LdapAttributes {
  /** Attributes whose first value is the identity, e.g. `['dn']`; at least one. */
  readonly id: string[];
  /** @default - the id */
  readonly preferredUsername?: string[];
  /** @default - no display name */
  readonly name?: string[];
  /** @default - no email */
  readonly email?: string[];
}

export interface LdapOptions extends IdentityProviderOptions {
  /** An RFC 2255 URL: `ldap://` or `ldaps://host/basedn?attribute?scope?filter`. */
  readonly url: string;
  /** Which LDAP attributes give the user's id, name, preferred user name and email. */
  readonly attributes: LdapAttributes;
  /** The DN to bind as for the search; together with `bindPassword`. @default - anonymous search */
  readonly bindDn?: string;
  /** A Secret with key `bindPassword`; together with `bindDn`. @default - anonymous search */
  readonly bindPassword?: ISecretSource;
  /** @default - the cluster's trusted CAs */
  readonly ca?: CertificateAuthority;
  /** Plain `ldap://` without StartTLS; not with `ldaps://` or a CA. @default false */
  readonly insecure?: boolean;
}

export interface GitHubOptions extends OAuthClientOptions {
  /** Organizations whose members may log in; not together with `teams`. @default - none */
  readonly organizations?: string[];
  /** Teams (`<org>/<team>`) whose members may log in; not together with `organizations`. @default - none */
  readonly teams?: string[];
  /** A GitHub Enterprise host (not github.com). @default - github.com */
  readonly hostname?: string;
  /** Only with `hostname`. @default - the cluster's trusted CAs */
  readonly ca?: CertificateAuthority;
}

export interface GitLabOptions extends OAuthClientOptions {
  /** The GitLab server, https. */
  readonly url: string;
  /** @default - the cluster's trusted CAs */
  readonly ca?: CertificateAuthority;
}

export interface GoogleOptions extends OAuthClientOptions {
  /** The G Suite domain users must belong to. @default - any Google user (unless mappingMethod is lookup) */
  readonly hostedDomain?: string;
}

/** A remote server checked with user name and password, optionally presenting a client certificate. */
export interface RemoteServerOptions extends IdentityProviderOptions {
  /** The server, https. */
  readonly url: string;
  /** @default - the cluster's trusted CAs */
  readonly ca?: CertificateAuthority;
  /** A `kubernetes.io/tls` Secret (`tls.crt`, `tls.key`) to present to the server: `SecretSource.fromExistingSecret`. @default - none */
  readonly tlsClientCertificate?: ISecretSource;
}

export interface KeystoneOptions extends RemoteServerOptions {
  /** The Keystone v3 domain. */
  readonly domainName: string;
}

export interface RequestHeaderOptions extends IdentityProviderOptions {
  /** The CA that signs the authenticating proxy's client certificate (headers from others are ignored). */
  readonly ca: CertificateAuthority;
  /** Headers holding the user identity, in order; at least one. */
  readonly headers: string[];
  /** Where browsers without identity are sent, https with `${url}` or `${query}`. @default - none */
  readonly loginUrl?: string;
  /** Where clients expecting WWW-Authenticate challenges are sent, https. @default - none */
  readonly challengeUrl?: string;
  /** Common names the proxy's certificate must have. @default - any certificate the CA signed */
  readonly clientCommonNames?: string[];
  /** @default - none */
  readonly preferredUsernameHeaders?: string[];
  /** @default - none */
  readonly nameHeaders?: string[];
  /** @default - none */
  readonly emailHeaders?: string[];
}

/** Where an identity provider puts its Secrets and ConfigMaps, and records its problems. */
export interface IdentityProviderBindContext {
  /** The construct the Secrets and ConfigMaps are written under. */
  readonly scope: Construct;
  /** The HostedCluster's namespace: HyperShift copies what the provider names from there into the hosted cluster. */
  readonly namespace: string;
  /** Prefix of the names of Secrets and ConfigMaps hcp-cdk writes, e.g. `<cluster>-<provider>`. */
  readonly namePrefix: string;
  /** Where the provider records its problems. */
  readonly problems: Problems;
}

/**
 * A way for users to log in to the hosted cluster's OAuth server (`spec.configuration.oauth.identityProviders[]`).
 * Field names follow the OAuth API (config.openshift.io/v1); Secrets and CA ConfigMaps sit in the
 * HostedCluster's namespace, from where HyperShift copies them into the hosted cluster.
 */
export class IdentityProvider {
  /** OpenID Connect (docs 8.1). The client must allow the callback URL hcp-cdk prints at synth. */
  public static openId(options: OpenIdOptions): IdentityProvider {
    return new IdentityProvider(options, 'OpenID', true, (ctx) => {
      const p = ctx.problems.within('openID');
      const issuer = options.issuer;
      const url = parseUrl(issuer);
      if (p.require(url?.protocol === 'https:', 'issuer', issuer, 'must be an https URL (the OpenID discovery document must be served over TLS)')) {
        p.require(!url!.search && !url!.hash && !/[?#]/.test(issuer), 'issuer', issuer, 'must not have a query or fragment component');
        p.require(!issuer.endsWith('/'), 'issuer', issuer, 'must not end with "/"');
      }
      (options.extraScopes ?? []).forEach((scope, i) => p.require(/^[!#-[\]-~]+$/.test(scope), `extraScopes[${i}]`, scope, "must be an OAuth scope: printable ASCII without space, '\"' or '\\\\'"));
      return {
        openId: {
          ...oauthClient(ctx, p, options),
          issuer,
          claims: options.claims ? { ...options.claims } : undefined,
          extraScopes: options.extraScopes,
          extraAuthorizeParameters: options.extraAuthorizeParameters,
          ca: ca(ctx, options.ca, p),
        },
      };
    });
  }

  /** Users and password hashes from an htpasswd file. */
  public static htpasswd(options: HtpasswdOptions): IdentityProvider {
    return new IdentityProvider(options, 'HTPasswd', false, (ctx) => ({
      htpasswd: { fileData: { name: secret(ctx, options.fileData, 'Htpasswd', 'htpasswd', 'htpasswd', 'fileData') } },
    }));
  }

  /** An LDAP v3 server, bound with a user name and password. */
  public static ldap(options: LdapOptions): IdentityProvider {
    return new IdentityProvider(options, 'LDAP', false, (ctx) => {
      const p = ctx.problems.within('ldap');
      const scheme = /^(ldaps?):\/\/[^/?#]+/.exec(options.url)?.[1];
      p.require(scheme !== undefined, 'url', options.url, 'must be an RFC 2255 URL: ldap:// or ldaps:// with a host, e.g. ldaps://ldap.example.com/ou=users,dc=example,dc=com?uid');
      if ((options.bindDn === undefined) !== (options.bindPassword === undefined)) {
        p.add(`bindDn (${JSON.stringify(options.bindDn)}) and bindPassword must both be given, or neither (anonymous search)`);
      }
      if (options.insecure) {
        p.require(scheme !== 'ldaps', 'url', options.url, 'cannot use ldaps:// with insecure: true');
        p.require(options.ca === undefined, 'ca', 'a CertificateAuthority', 'cannot be given with insecure: true');
      }
      p.require((options.attributes?.id ?? []).length > 0, 'attributes.id', options.attributes?.id, "must list at least one attribute (the LDAP standard identity attribute is 'dn')");
      return {
        ldap: {
          url: options.url,
          attributes: { ...options.attributes },
          bindDn: options.bindDn,
          bindPassword: options.bindPassword ? { name: secret(ctx, options.bindPassword, 'BindPassword', 'bind-password', 'bindPassword', 'bindPassword') } : undefined,
          ca: ca(ctx, options.ca, p),
          insecure: options.insecure,
        },
      };
    });
  }

  /** GitHub or GitHub Enterprise, limited to organizations or teams. */
  public static gitHub(options: GitHubOptions): IdentityProvider {
    return new IdentityProvider(options, 'GitHub', true, (ctx) => {
      const p = ctx.problems.within('github');
      const orgs = options.organizations ?? [];
      const teams = options.teams ?? [];
      if (orgs.length > 0 && teams.length > 0) p.add(`organizations (${JSON.stringify(orgs)}) and teams (${JSON.stringify(teams)}) exclude each other; give one`);
      if (orgs.length === 0 && teams.length === 0 && options.hostname === undefined && options.mappingMethod !== MappingMethod.LOOKUP) {
        p.add('organizations (undefined) or teams must be given unless hostname is set or mappingMethod is lookup: otherwise every GitHub user may log in');
      }
      orgs.forEach((org, i) => p.require(org.length > 0 && !org.includes('/'), `organizations[${i}]`, org, 'must be an organization name without "/"'));
      teams.forEach((team, i) => p.require(/^[^/]+\/[^/]+$/.test(team), `teams[${i}]`, team, 'must be <org>/<team>'));
      if (options.hostname !== undefined) {
        p.require(
          options.hostname !== 'github.com' && !options.hostname.endsWith('.github.com'),
          'hostname',
          options.hostname,
          'must not be [*.]github.com: it is for GitHub Enterprise; leave it out for github.com',
        );
        p.require(isDns1123Subdomain(options.hostname.toLowerCase()), 'hostname', options.hostname, 'must be a DNS name');
      }
      if (options.ca !== undefined) p.require(options.hostname !== undefined, 'ca', 'a CertificateAuthority', 'needs hostname: it is for GitHub Enterprise');
      return {
        github: {
          ...oauthClient(ctx, p, options),
          organizations: options.organizations,
          teams: options.teams,
          hostname: options.hostname,
          ca: ca(ctx, options.ca, p),
        },
      };
    });
  }

  /** GitLab.com or a self-managed GitLab. */
  public static gitLab(options: GitLabOptions): IdentityProvider {
    return new IdentityProvider(options, 'GitLab', true, (ctx) => {
      const p = ctx.problems.within('gitlab');
      checkHttps(p, 'url', options.url);
      return {
        gitlab: {
          ...oauthClient(ctx, p, options),
          url: options.url,
          ca: ca(ctx, options.ca, p),
        },
      };
    });
  }

  /** Google accounts, optionally of one hosted domain. */
  public static google(options: GoogleOptions): IdentityProvider {
    return new IdentityProvider(options, 'Google', true, (ctx) => {
      const p = ctx.problems.within('google');
      if (options.hostedDomain === undefined && options.mappingMethod !== MappingMethod.LOOKUP) {
        p.add('hostedDomain (undefined) must be given unless mappingMethod is lookup: otherwise every Google user may log in');
      }
      return {
        google: {
          ...oauthClient(ctx, p, options),
          hostedDomain: options.hostedDomain,
        },
      };
    });
  }

  /** OpenStack Keystone v3. */
  public static keystone(options: KeystoneOptions): IdentityProvider {
    return new IdentityProvider(options, 'Keystone', false, (ctx) => {
      const p = ctx.problems.within('keystone');
      checkHttps(p, 'url', options.url);
      p.require(typeof options.domainName === 'string' && options.domainName.length > 0, 'domainName', options.domainName, 'must name the Keystone domain');
      const client = tlsClient(ctx, options.tlsClientCertificate);
      return { keystone: { url: options.url, domainName: options.domainName, ca: ca(ctx, options.ca, p), ...client } };
    });
  }

  /** A server that checks a user name and password sent with HTTP basic authentication. */
  public static basicAuth(options: RemoteServerOptions): IdentityProvider {
    return new IdentityProvider(options, 'BasicAuth', false, (ctx) => {
      const p = ctx.problems.within('basicAuth');
      checkHttps(p, 'url', options.url);
      const client = tlsClient(ctx, options.tlsClientCertificate);
      return { basicAuth: { url: options.url, ca: ca(ctx, options.ca, p), ...client } };
    });
  }

  /** An authenticating proxy that sends the user in request headers, proven by its client certificate. */
  public static requestHeader(options: RequestHeaderOptions): IdentityProvider {
    return new IdentityProvider(options, 'RequestHeader', false, (ctx) => {
      const p = ctx.problems.within('requestHeader');
      p.require((options.headers ?? []).length > 0, 'headers', options.headers, 'must list at least one header holding the user identity, e.g. X-Remote-User');
      for (const field of ['loginUrl', 'challengeUrl'] as const) if (options[field] !== undefined) checkHttps(p, field, options[field]);
      p.require(options.ca instanceof CertificateAuthority, 'ca', options.ca, 'must be a CertificateAuthority: without it any client could claim any user');
      return {
        requestHeader: {
          ca: options.ca instanceof CertificateAuthority ? ca(ctx, options.ca, p) : undefined,
          headers: options.headers,
          loginUrl: options.loginUrl,
          challengeUrl: options.challengeUrl,
          clientCommonNames: options.clientCommonNames,
          preferredUsernameHeaders: options.preferredUsernameHeaders,
          nameHeaders: options.nameHeaders,
          emailHeaders: options.emailHeaders,
        },
      };
    });
  }

  /** The provider's name: the login page lists it, and it is part of its callback URL. */
  public readonly name: string;
  /** The `type` of the entry: OpenID, HTPasswd, LDAP, GitHub, GitLab, Google, Keystone, BasicAuth or RequestHeader. */
  public readonly type: string;
  /** Whether users log in through a redirect to the provider, which must allow the OAuth callback URL. */
  public readonly redirects: boolean;
  private readonly mappingMethod?: MappingMethod;

  private constructor(
    options: IdentityProviderOptions,
    type: string,
    redirects: boolean,
    private readonly render: (ctx: IdentityProviderBindContext) => IdentityProviderJson,
  ) {
    this.name = options.name;
    this.type = type;
    this.redirects = redirects;
    this.mappingMethod = options.mappingMethod;
  }

  /** The `identityProviders[]` entry; writes the provider's CA ConfigMaps and lets its secret sources bind. */
  public bind(ctx: IdentityProviderBindContext): IdentityProviderJson {
    const name = this.name;
    ctx.problems.require(
      typeof name === 'string' && name.length > 0 && name !== '.' && name !== '..' && !/[/%:]/.test(name),
      'name',
      name,
      'must be a path segment: not "." or "..", without "/", "%" or ":"',
    );
    if (this.mappingMethod !== undefined) {
      ctx.problems.require(Object.values(MappingMethod).includes(this.mappingMethod), 'mappingMethod', this.mappingMethod, 'must be claim, lookup, generate or add');
    }
    return { name, type: this.type, mappingMethod: this.mappingMethod, ...this.render(ctx) };
  }
}

/** The OAuth client fields of a redirecting provider: the client ID, checked, and the bound client secret. */
function oauthClient(ctx: IdentityProviderBindContext, p: Problems, options: OAuthClientOptions): { clientId: string; clientSecret: { name: string } } {
  p.require(typeof options.clientId === 'string' && options.clientId.length > 0, 'clientId', options.clientId, 'must be the client ID registered with the provider');
  return { clientId: options.clientId, clientSecret: { name: secret(ctx, options.clientSecret, 'ClientSecret', 'client-secret', 'clientSecret', 'clientSecret') } };
}

function checkHttps(p: Problems, field: string, value: string): void {
  p.require(parseUrl(value)?.protocol === 'https:', field, value, 'must be an https URL');
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The name of a Secret a source makes or references, `<prefix>-<suffix>` when it makes one. */
function secret(ctx: IdentityProviderBindContext, source: ISecretSource, id: string, suffix: string, key: string, field: string): string {
  const binding = source.bind(ctx.scope, id, { field, defaultName: `${ctx.namePrefix}-${suffix}`, namespace: ctx.namespace, key, type: 'Opaque' });
  if (binding.problem) ctx.problems.add(binding.problem);
  return binding.secretName;
}

function ca(ctx: IdentityProviderBindContext, authority: CertificateAuthority | undefined, problems: Problems): { name: string } | undefined {
  if (authority === undefined) return undefined;
  return { name: authority.bind(ctx.scope, 'Ca', { field: 'ca', defaultName: `${ctx.namePrefix}-ca`, namespace: ctx.namespace, problems }) };
}

/** One `kubernetes.io/tls` Secret named as both the client certificate (`tls.crt`) and its key (`tls.key`). */
function tlsClient(ctx: IdentityProviderBindContext, source: ISecretSource | undefined): { tlsClientCert?: { name: string }; tlsClientKey?: { name: string } } {
  if (source === undefined) return {};
  const name = bindTlsSecret(source, ctx.scope, 'TlsClientCertificate', {
    field: 'tlsClientCertificate',
    defaultName: `${ctx.namePrefix}-tls-client`,
    namespace: ctx.namespace,
    problems: ctx.problems,
  });
  return { tlsClientCert: { name }, tlsClientKey: { name } };
}
