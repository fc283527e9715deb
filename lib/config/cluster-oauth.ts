import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { durationProblem } from '../core/go-duration';
import { notice } from '../core/lint';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';
import { ControlPlaneService } from '../core/service-publishing';
import { IdentityProvider } from './identity-provider';

/** The shortest inactivity timeout the OAuth API accepts. */
const MIN_INACTIVITY_TIMEOUT_SECONDS = 300;

export interface ClusterOAuthProps {
  /** The ways users log in, in the order the login page lists them; adding any removes `kubeadmin`. */
  readonly identityProviders: IdentityProvider[];
  /** How long an access token lives. @default - the OAuth server's 24 hours */
  readonly accessTokenMaxAge?: Duration;
  /** Idle time after which a token stops working; at least 5 minutes. @default - tokens do not time out when idle */
  readonly accessTokenInactivityTimeout?: Duration;
}

/**
 * The hosted cluster's OAuth server configuration (docs 8.1): identity providers with their Secrets and
 * CA ConfigMaps in the cluster's namespace, merged into `spec.configuration.oauth`. At synth it notes
 * the callback URL each redirecting provider must allow, and that `kubeadmin` no longer logs in.
 */
export class ClusterOAuth extends Construct {
  /**
   * The HostedCluster object this construct configures (it writes `spec.configuration.oauth` there),
   * for `addJsonPatch` and the like.
   */
  public readonly resource: ApiObject;
  /** What the identity providers write (their Secrets, or the objects that make them, and CA ConfigMaps), in the order of `identityProviders`. */
  public readonly identityProviderObjects: readonly ApiObject[];
  /** The callback URL each redirecting provider's client must allow, by provider name. */
  public readonly callbackUrls: Readonly<Record<string, string>>;

  constructor(cluster: HostedCluster, id: string, props: ClusterOAuthProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    const providers = props?.identityProviders;
    if (!Array.isArray(providers) || providers.length === 0 || providers.some((p) => !(p instanceof IdentityProvider))) {
      problems.add(`identityProviders (${Array.isArray(providers) ? `${providers.length} entries` : JSON.stringify(providers)}) must list at least one IdentityProvider: IdentityProvider.openId(...), .htpasswd(...), ...`);
      problems.throwIfAny();
    }
    const seen = new Set<string>();
    const entries = providers.map((provider, i) => {
      if (seen.has(provider.name)) problems.add(`identityProviders[${i}].name (${JSON.stringify(provider.name)}) is used by an earlier provider; names must be unique`);
      seen.add(provider.name);
      return provider.bind({
        scope: new Construct(this, `${i}`),
        namespace: cluster.namespace,
        namePrefix: `${cluster.clusterName}-${slug(provider.name)}`,
        problems: problems.within(`identityProviders[${i}]`),
      });
    });
    // A Duration of whole seconds: the API takes a count of seconds and a Go duration to the second.
    const seconds = (field: 'accessTokenMaxAge' | 'accessTokenInactivityTimeout'): number | undefined => {
      const problem = props[field] === undefined ? undefined : durationProblem(field, props[field], { example: 'Duration.hours(24)' });
      if (problem) problems.add(problem);
      return problem ? undefined : props[field]?.toSeconds();
    };
    const maxAge = seconds('accessTokenMaxAge');
    if (maxAge !== undefined) problems.require(Number.isInteger(maxAge) && maxAge > 0, 'accessTokenMaxAge', `${maxAge}s`, 'must be a whole number of seconds > 0');
    const inactivity = seconds('accessTokenInactivityTimeout');
    if (inactivity !== undefined) {
      problems.require(inactivity >= MIN_INACTIVITY_TIMEOUT_SECONDS, 'accessTokenInactivityTimeout', `${inactivity}s`, `must be at least ${MIN_INACTIVITY_TIMEOUT_SECONDS} seconds, the OAuth API's minimum`);
    }
    const broken = problems.report();
    this.identityProviderObjects = this.node.findAll().filter(ApiObject.isApiObject);

    if (!broken) cluster.addConfiguration({
      oauth: {
        identityProviders: entries,
        tokenConfig: maxAge !== undefined || inactivity !== undefined
          ? { accessTokenMaxAgeSeconds: maxAge, accessTokenInactivityTimeout: inactivity !== undefined ? `${inactivity}s` : undefined }
          : undefined,
      },
    }, this);

    const base = oauthBaseUrl(cluster);
    const callbacks: Record<string, string> = {};
    for (const provider of providers.filter((p) => p.redirects)) {
      callbacks[provider.name] = `${base}/oauth2callback/${provider.name}`;
      notice(this, `identity provider ${JSON.stringify(provider.name)} (${provider.type}): register ${callbacks[provider.name]} as the client's redirect URL`);
    }
    this.callbackUrls = callbacks;
    notice(this, `identity providers (${providers.map((p) => p.name).join(', ')}) replace the kubeadmin user: it can no longer log in once they apply; keep a user with cluster-admin in one of them`);
  }
}

/**
 * The OAuth server's URL: the OAuthServer Route's hostname when it has one, else the form docs 8.1
 * give, `https://oauth-openshift.apps.<cluster>.<base domain>`.
 */
function oauthBaseUrl(cluster: HostedCluster): string {
  const hostname = cluster.publishedServices.get(ControlPlaneService.OAUTH_SERVER)?.strategy.route?.hostname;
  if (hostname) return `https://${hostname}`;
  return `https://oauth-openshift.${cluster.appsDomain ?? `apps.${cluster.clusterName}.<base domain>`}`;
}

/** A provider name as part of a Kubernetes object name. */
function slug(name: string): string {
  return String(name).toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'idp';
}
