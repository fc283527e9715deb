import { ApiObject, Duration } from 'cdk8s';
import { Construct } from 'constructs';
import { durationProblem } from '../core/go-duration';
import { notice } from '../core/lint';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';
import { ManagementCluster } from '../core/management-cluster';
import { ControlPlaneService, ServicePublishingType } from '../core/service-publishing';
import { IdentityProvider } from './identity-provider';

/** The shortest inactivity timeout the OAuth API accepts. */
const MIN_INACTIVITY_TIMEOUT_SECONDS = 300;

/** Props of ClusterOAuth. */
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
  /**
   * The callback URL each redirecting provider's client must allow, by provider name, in the form
   * HyperShift reports (`status.oauthCallbackURLTemplate`); only when synth can know the OAuth
   * server's host and port (see the note synth prints otherwise).
   */
  public readonly callbackUrls: Readonly<Record<string, string>>;

  constructor(cluster: HostedCluster, id: string, props: ClusterOAuthProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    const providers = props?.identityProviders;
    if (!Array.isArray(providers) || providers.length === 0 || providers.some((p) => !(p instanceof IdentityProvider))) {
      problems.add(
        `identityProviders (${Array.isArray(providers) ? `${providers.length} entries` : JSON.stringify(providers)}) must list at least one IdentityProvider: IdentityProvider.openId(...), .htpasswd(...), ...`,
      );
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
      problems.require(
        inactivity >= MIN_INACTIVITY_TIMEOUT_SECONDS,
        'accessTokenInactivityTimeout',
        `${inactivity}s`,
        `must be at least ${MIN_INACTIVITY_TIMEOUT_SECONDS} seconds, the OAuth API's minimum`,
      );
    }
    const broken = problems.report();
    this.identityProviderObjects = this.node.findAll().filter((child) => ApiObject.isApiObject(child));

    if (!broken)
      cluster.addConfiguration(
        {
          oauth: {
            identityProviders: entries,
            tokenConfig:
              maxAge !== undefined || inactivity !== undefined
                ? { accessTokenMaxAgeSeconds: maxAge, accessTokenInactivityTimeout: inactivity !== undefined ? `${inactivity}s` : undefined }
                : undefined,
          },
        },
        this,
      );

    const server = oauthServerUrl(cluster);
    const callbacks: Record<string, string> = {};
    for (const provider of providers.filter((p) => p.redirects)) {
      const what = `identity provider ${JSON.stringify(provider.name)} (${provider.type})`;
      if (server.url !== undefined) {
        callbacks[provider.name] = `${server.url}/oauth2callback/${provider.name}`;
        notice(this, `${what}: register ${callbacks[provider.name]} as the client's redirect URL`);
      } else {
        notice(
          this,
          `${what}: register the OAuth server's callback as the client's redirect URL, which is known once the server is published: ` +
            `HyperShift reports it in status.oauthCallbackURLTemplate of HostedCluster ${cluster.namespace}/${cluster.clusterName}, with ${CALLBACK_TEMPLATE_NAME} standing for ${provider.name} ` +
            `(oc get hostedcluster ${cluster.clusterName} -n ${cluster.namespace} -o jsonpath='{.status.oauthCallbackURLTemplate}')${server.toKnow ? `; ${server.toKnow}` : ''}`,
        );
      }
    }
    this.callbackUrls = callbacks;
    notice(this, `identity providers (${providers.map((p) => p.name).join(', ')}) replace the kubeadmin user: it can no longer log in once they apply; keep a user with cluster-admin in one of them`);
  }
}

/** What HyperShift's callback URL template has in place of the provider name. */
const CALLBACK_TEMPLATE_NAME = '[identity-provider-name]';
/** The port HyperShift reports for an OAuth server published as a Route (the router's HTTPS port). */
const ROUTE_PORT = 443;

/**
 * The OAuth server's URL as HyperShift reports it in `status.oauthCallbackURLTemplate`
 * (`https://<host>:<port>/oauth2callback/[identity-provider-name]`), when synth can know it: a
 * Route's hostname, or for a Route without one the host the management cluster's router makes,
 * `oauth-<control-plane namespace>.<ingress domain>` (HyperShift's Route is `oauth`); a NodePort's
 * address and fixed port. Otherwise, what would make it known.
 */
function oauthServerUrl(cluster: HostedCluster): { readonly url?: string; readonly toKnow?: string } {
  const strategy = cluster.publishedServices.get(ControlPlaneService.OAUTH_SERVER)?.strategy;
  if (strategy?.route !== undefined || strategy?.type === ServicePublishingType.ROUTE) {
    if (strategy.route?.hostname) return { url: `https://${strategy.route.hostname}:${ROUTE_PORT}` };
    const hub = cluster.node.scopes.find((s): s is ManagementCluster => s instanceof ManagementCluster);
    if (hub?.ingressDomain !== undefined) return { url: `https://oauth-${cluster.controlPlaneNamespace}.${hub.ingressDomain}:${ROUTE_PORT}` };
    return {
      toKnow: `or give the management cluster's ingressDomain (new ManagementCluster(app, '${hub?.node.id ?? 'hub'}', { ingressDomain: 'apps.<hub domain>' })), where its Route is served, to have it printed here`,
    };
  }
  if (strategy?.nodePort !== undefined) {
    if (strategy.nodePort.port !== undefined) return { url: `https://${strategy.nodePort.address}:${strategy.nodePort.port}` };
    return { toKnow: "or give the OAuthServer's NodePort a fixed port to have it printed here" };
  }
  return {};
}

/** A provider name as part of a Kubernetes object name. */
function slug(name: string): string {
  return (
    String(name)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'idp'
  );
}
