// HostedCluster cases for the CEL rules under spec.configuration (authentication, featureGate,
// image, ingress, network, oauth) and spec.operatorConfiguration (clusterNetworkOperator,
// ingressOperator).
import { HOSTED_CLUSTER, ObjectCase, withChanges } from '../object-cases';

/** The base HostedCluster with fields changed by path. */
const hc = (changes: Record<string, unknown>) => withChanges(HOSTED_CLUSTER, changes);

// --- spec.configuration.authentication --------------------------------------------------------

const OIDC = 'spec.configuration.authentication.oidcProviders[0]';

/** A HostedCluster that authenticates with one external OIDC provider. */
const OIDC_CLUSTER = hc({
  'spec.configuration.authentication': {
    type: 'OIDC',
    oidcProviders: [
      {
        name: 'keycloak',
        issuer: { issuerURL: 'https://keycloak.example.com/realms/ocp', audiences: ['openshift'] },
        claimMappings: { username: { claim: 'email' }, groups: { claim: 'groups' } },
      },
    ],
  },
});

/** The OIDC cluster with fields of its provider changed, by path below the provider. */
const oidc = (changes: Record<string, unknown>) => withChanges(OIDC_CLUSTER, Object.fromEntries(Object.entries(changes).map(([path, value]) => [`${OIDC}.${path}`, value])));

/** The OIDC cluster with one extra claim mapping under `key`. */
const extraKey = (key: string) => oidc({ 'claimMappings.extra': [{ key, valueExpression: 'claims.department' }] });

const EXTRA_KEY = `${OIDC}.claimMappings.extra[0].key`;

// --- spec.operatorConfiguration.clusterNetworkOperator -----------------------------------------

const CNO = 'spec.operatorConfiguration.clusterNetworkOperator';
const OVN = `${CNO}.ovnKubernetesConfig`;

/** The base HostedCluster (OVNKubernetes) with this ovnKubernetesConfig. */
const ovn = (config: Record<string, unknown>) => hc({ [OVN]: config });

/** A HostedCluster whose network plugin is not managed by HyperShift, with this clusterNetworkOperator. */
const otherNetwork = (cno: Record<string, unknown>) => hc({ 'spec.networking.networkType': 'Other', [CNO]: cno });

// --- spec.operatorConfiguration.ingressOperator ------------------------------------------------

const LB = 'spec.operatorConfiguration.ingressOperator.endpointPublishingStrategy.loadBalancer';
const AWS = `${LB}.providerParameters.aws`;

/** The base HostedCluster with a LoadBalancerService ingress of this loadBalancer. */
const loadBalancer = (lb: Record<string, unknown>) => hc({ 'spec.operatorConfiguration.ingressOperator.endpointPublishingStrategy': { type: 'LoadBalancerService', loadBalancer: lb } });

/** An external AWS NLB ingress with these networkLoadBalancer parameters. */
const nlb = (parameters: Record<string, unknown>, scope = 'External') =>
  loadBalancer({ scope, dnsManagementPolicy: 'Managed', providerParameters: { type: 'AWS', aws: { type: 'NLB', networkLoadBalancer: parameters } } });

/** An external AWS Classic ingress with these classicLoadBalancer parameters. */
const classic = (parameters: Record<string, unknown>) =>
  loadBalancer({ scope: 'External', dnsManagementPolicy: 'Managed', providerParameters: { type: 'AWS', aws: { type: 'Classic', classicLoadBalancer: parameters } } });

/** An OpenStack ingress load balancer with this floating IP. */
const openstack = (floatingIP: string, scope = 'External') => loadBalancer({ scope, dnsManagementPolicy: 'Managed', providerParameters: { type: 'OpenStack', openstack: { floatingIP } } });

// AWS subnet ids are `subnet-` and 17 characters; EIP allocations are `eipalloc-` and 17 hex digits.
const SUBNET_A = 'subnet-0a1b2c3d4e5f60001';
const SUBNET_B = 'subnet-0a1b2c3d4e5f60002';
const SUBNET_C = 'subnet-0a1b2c3d4e5f60003';
const SUBNET_D = 'subnet-0a1b2c3d4e5f60004';
const SUBNET_E = 'subnet-0a1b2c3d4e5f60005';
const SUBNET_F = 'subnet-0a1b2c3d4e5f60006';
const EIP_A = 'eipalloc-0123456789abcdef1';
const EIP_B = 'eipalloc-0123456789abcdef2';

export const CASES: ObjectCase[] = [
  // authentication: a complete OIDC provider
  {
    name: 'passes when an oidc provider maps username and groups from claims',
    object: OIDC_CLUSTER,
  },
  {
    name: 'passes when an oidc provider uses a discovery url, expressions, a uid claim and claim validation rules',
    object: oidc({
      'issuer.discoveryURL': 'https://keycloak.example.com/realms/ocp/.well-known/openid-configuration',
      'claimMappings': {
        username: { claim: 'email', prefixPolicy: 'Prefix', prefix: { prefixString: 'oidc:' } },
        groups: { expression: 'claims.roles.split(",")' },
        uid: { claim: 'sub' },
        extra: [
          { key: 'example.com/department', valueExpression: 'claims.department' },
          { key: 'auth.example.com/cost-center', valueExpression: 'claims.cost_center' },
        ],
      },
      'claimValidationRules': [
        { type: 'RequiredClaim', requiredClaim: { claim: 'hd', requiredValue: 'example.com' } },
        { type: 'CEL', cel: { expression: 'claims.email_verified == true', message: 'the email must be verified' } },
      ],
    }),
  },
  {
    name: 'passes when an oidc provider maps username and uid with expressions and no prefix',
    object: oidc({
      'claimMappings.username': { expression: 'claims.email', prefixPolicy: 'NoPrefix' },
      'claimMappings.uid': { expression: 'claims.sub' },
      'claimMappings.groups': { claim: 'groups', prefix: 'oidc:' },
    }),
  },

  // authentication: claimMappings.extra[].key
  {
    name: 'fails when an extra claim mapping key has no slash',
    object: extraKey('department'),
    rejects: "key must contain the '/' character",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key has upper-case letters',
    object: extraKey('Example.com/department'),
    rejects: 'the domain of the key must consist of only lower case alphanumeric characters',
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is longer than 253 characters',
    object: extraKey(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}/department`),
    rejects: 'the domain of the key must not exceed 253 characters in length',
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is kubernetes.io',
    object: extraKey('kubernetes.io/department'),
    rejects: "the domain 'kubernetes.io' is reserved for Kubernetes use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is a subdomain of kubernetes.io',
    object: extraKey('auth.kubernetes.io/department'),
    rejects: "the subdomains '*.kubernetes.io' are reserved for Kubernetes use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is k8s.io',
    object: extraKey('k8s.io/department'),
    rejects: "the domain 'k8s.io' is reserved for Kubernetes use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is a subdomain of k8s.io',
    object: extraKey('auth.k8s.io/department'),
    rejects: "the subdomains '*.k8s.io' are reserved for Kubernetes use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is openshift.io',
    object: extraKey('openshift.io/department'),
    rejects: "the domain 'openshift.io' is reserved for OpenShift use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the domain of an extra claim mapping key is a subdomain of openshift.io',
    object: extraKey('auth.openshift.io/department'),
    rejects: "the subdomains '*.openshift.io' are reserved for OpenShift use",
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the path of an extra claim mapping key is empty',
    object: extraKey('example.com/'),
    rejects: 'the path of the key must not be empty',
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the path of an extra claim mapping key has only characters that are not allowed',
    object: extraKey('example.com/#?'),
    rejects: 'the path of the key must not be empty',
    at: EXTRA_KEY,
  },
  {
    name: 'fails when the path of an extra claim mapping key is longer than 256 characters',
    object: extraKey(`example.com/${'p'.repeat(257)}`),
    rejects: 'the path of the key must not exceed 256 characters in length',
    at: EXTRA_KEY,
  },

  // authentication: claimMappings.groups
  {
    name: 'fails when the groups mapping has both an expression and a prefix',
    object: oidc({ 'claimMappings.groups': { expression: 'claims.roles', prefix: 'oidc:' } }),
    rejects: 'prefix must not be set to a non-empty value when expression is set',
    at: `${OIDC}.claimMappings.groups`,
  },
  {
    name: 'fails when the groups mapping has both a claim and an expression',
    object: oidc({ 'claimMappings.groups': { claim: 'groups', expression: 'claims.roles' } }),
    rejects: 'expression must not be set if claim is specified and is not an empty string',
    at: `${OIDC}.claimMappings.groups`,
  },
  {
    name: 'passes when the groups mapping has an expression and an empty prefix',
    object: oidc({ 'claimMappings.groups': { expression: 'claims.roles', prefix: '' } }),
  },

  // authentication: claimMappings.uid and username
  {
    name: 'fails when the uid mapping has neither a claim nor an expression',
    object: oidc({ 'claimMappings.uid': {} }),
    rejects: 'precisely one of claim or expression must be set',
    at: `${OIDC}.claimMappings.uid`,
  },
  {
    name: 'fails when the uid mapping has both a claim and an expression',
    object: oidc({ 'claimMappings.uid': { claim: 'sub', expression: 'claims.sub' } }),
    rejects: 'precisely one of claim or expression must be set',
    at: `${OIDC}.claimMappings.uid`,
  },
  {
    name: 'fails when the username mapping has neither a claim nor an expression',
    object: oidc({ 'claimMappings.username': {} }),
    rejects: 'precisely one of claim or expression must be set',
    at: `${OIDC}.claimMappings.username`,
  },
  {
    name: 'fails when the username mapping has both a claim and an expression',
    object: oidc({ 'claimMappings.username': { claim: 'email', expression: 'claims.email' } }),
    rejects: 'precisely one of claim or expression must be set',
    at: `${OIDC}.claimMappings.username`,
  },
  {
    name: 'fails when the username mapping has an expression and the prefix policy prefix',
    object: oidc({ 'claimMappings.username': { expression: 'claims.email', prefixPolicy: 'Prefix', prefix: { prefixString: 'oidc:' } } }),
    rejects: "prefixPolicy must not be set to 'Prefix' when expression is set",
    at: `${OIDC}.claimMappings.username`,
  },
  {
    name: 'fails when the username prefix policy is prefix but no prefix is given',
    object: oidc({ 'claimMappings.username': { claim: 'email', prefixPolicy: 'Prefix' } }),
    rejects: "prefix must be set if prefixPolicy is 'Prefix', but must remain unset otherwise",
    at: `${OIDC}.claimMappings.username`,
  },
  {
    name: 'fails when a username prefix is given without the prefix policy prefix',
    object: oidc({ 'claimMappings.username': { claim: 'email', prefixPolicy: 'NoPrefix', prefix: { prefixString: 'oidc:' } } }),
    rejects: "prefix must be set if prefixPolicy is 'Prefix', but must remain unset otherwise",
    at: `${OIDC}.claimMappings.username`,
  },

  // authentication: claimValidationRules[]
  {
    name: 'fails when a cel claim validation rule has no cel expression',
    object: oidc({ claimValidationRules: [{ type: 'CEL' }] }),
    rejects: "cel must be set when type is 'CEL', and forbidden otherwise",
    at: `${OIDC}.claimValidationRules[0]`,
  },
  {
    name: 'fails when a required-claim validation rule also has a cel expression',
    object: oidc({ claimValidationRules: [{ type: 'RequiredClaim', requiredClaim: { claim: 'hd', requiredValue: 'example.com' }, cel: { expression: 'true', message: 'always' } }] }),
    rejects: "cel must be set when type is 'CEL', and forbidden otherwise",
    at: `${OIDC}.claimValidationRules[0]`,
  },
  {
    name: 'fails when a required-claim validation rule has no required claim',
    object: oidc({ claimValidationRules: [{ type: 'RequiredClaim' }] }),
    rejects: "requiredClaim must be set when type is 'RequiredClaim', and forbidden otherwise",
    at: `${OIDC}.claimValidationRules[0]`,
  },
  {
    name: 'fails when a cel claim validation rule also has a required claim',
    object: oidc({ claimValidationRules: [{ type: 'CEL', cel: { expression: 'true', message: 'always' }, requiredClaim: { claim: 'hd', requiredValue: 'example.com' } }] }),
    rejects: "requiredClaim must be set when type is 'RequiredClaim', and forbidden otherwise",
    at: `${OIDC}.claimValidationRules[0]`,
  },

  // authentication: issuer
  {
    name: 'fails when the discovery url is the issuer url',
    object: oidc({ 'issuer.discoveryURL': 'https://keycloak.example.com/realms/ocp' }),
    rejects: 'discoveryURL must be different from issuerURL',
    at: `${OIDC}.issuer`,
  },
  {
    name: 'fails when the discovery url is the issuer url with a trailing slash',
    object: oidc({ 'issuer.discoveryURL': 'https://keycloak.example.com/realms/ocp/' }),
    rejects: 'discoveryURL must be different from issuerURL',
    at: `${OIDC}.issuer`,
  },
  {
    name: 'fails when the discovery url is not a url',
    object: oidc({ 'issuer.discoveryURL': 'keycloak.example.com/realms/ocp/.well-known/openid-configuration' }),
    rejects: 'discoveryURL must be a valid URL',
    at: `${OIDC}.issuer.discoveryURL`,
  },
  {
    name: 'fails when the discovery url uses http',
    object: oidc({ 'issuer.discoveryURL': 'http://keycloak.example.com/realms/ocp/.well-known/openid-configuration' }),
    rejects: 'discoveryURL must be a valid https URL',
    at: `${OIDC}.issuer.discoveryURL`,
  },
  {
    name: 'fails when the discovery url has query parameters',
    object: oidc({ 'issuer.discoveryURL': 'https://keycloak.example.com/realms/ocp/.well-known/openid-configuration?tenant=a' }),
    rejects: 'discoveryURL must not contain query parameters',
    at: `${OIDC}.issuer.discoveryURL`,
  },
  {
    name: 'fails when the discovery url has a fragment',
    object: oidc({ 'issuer.discoveryURL': 'https://keycloak.example.com/realms/ocp/.well-known/openid-configuration#top' }),
    rejects: 'discoveryURL must not contain fragments',
    at: `${OIDC}.issuer.discoveryURL`,
  },
  {
    name: 'fails when the discovery url has user info',
    object: oidc({ 'issuer.discoveryURL': 'https://admin:secret@keycloak.example.com/realms/ocp/.well-known/openid-configuration' }),
    rejects: 'discoveryURL must not contain user info',
    at: `${OIDC}.issuer.discoveryURL`,
  },
  {
    name: 'fails when the issuer url is not a url',
    object: oidc({ 'issuer.issuerURL': 'keycloak.example.com/realms/ocp' }),
    rejects: 'must be a valid URL',
    at: `${OIDC}.issuer.issuerURL`,
  },
  {
    name: 'fails when the issuer url uses http',
    object: oidc({ 'issuer.issuerURL': 'http://keycloak.example.com/realms/ocp' }),
    rejects: "must use the 'https' scheme",
    at: `${OIDC}.issuer.issuerURL`,
  },
  {
    name: 'fails when the issuer url has a query',
    object: oidc({ 'issuer.issuerURL': 'https://keycloak.example.com/realms/ocp?tenant=a' }),
    rejects: 'must not have a query',
    at: `${OIDC}.issuer.issuerURL`,
  },
  {
    name: 'fails when the issuer url has a fragment',
    object: oidc({ 'issuer.issuerURL': 'https://keycloak.example.com/realms/ocp#top' }),
    rejects: 'must not have a fragment',
    at: `${OIDC}.issuer.issuerURL`,
  },
  {
    name: 'fails when the issuer url has user info',
    object: oidc({ 'issuer.issuerURL': 'https://admin@keycloak.example.com/realms/ocp' }),
    rejects: 'must not have user info',
    at: `${OIDC}.issuer.issuerURL`,
  },

  // featureGate.featureSet transitions
  {
    name: 'fails when the feature set changes from CustomNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate': { featureSet: 'CustomNoUpgrade', customNoUpgrade: { enabled: ['ExampleGate'] } } }),
    rejects: 'CustomNoUpgrade may not be changed',
    at: 'spec.configuration.featureGate.featureSet',
  },
  {
    name: 'fails when the feature set changes from TechPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'DevPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    rejects: 'TechPreviewNoUpgrade may not be changed',
    at: 'spec.configuration.featureGate.featureSet',
  },
  {
    name: 'fails when the feature set changes from DevPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'DevPreviewNoUpgrade' }),
    rejects: 'DevPreviewNoUpgrade may not be changed',
    at: 'spec.configuration.featureGate.featureSet',
  },
  {
    name: 'fails when the feature set changes from OKD to default',
    object: hc({ 'spec.configuration.featureGate.featureSet': '' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'OKD' }),
    rejects: 'OKD cannot transition to Default',
    at: 'spec.configuration.featureGate.featureSet',
  },
  {
    name: 'passes when the feature set stays CustomNoUpgrade',
    object: hc({ 'spec.configuration.featureGate': { featureSet: 'CustomNoUpgrade', customNoUpgrade: { enabled: ['ExampleGate'], disabled: ['OtherGate'] } } }),
    previous: hc({ 'spec.configuration.featureGate': { featureSet: 'CustomNoUpgrade', customNoUpgrade: { enabled: ['ExampleGate'] } } }),
  },
  {
    name: 'passes when the feature set stays TechPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
  },
  {
    name: 'passes when the feature set stays DevPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'DevPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'DevPreviewNoUpgrade' }),
  },
  {
    name: 'passes when the feature set changes from OKD to TechPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': 'OKD' }),
  },
  {
    name: 'passes when the feature set changes from default to TechPreviewNoUpgrade',
    object: hc({ 'spec.configuration.featureGate.featureSet': 'TechPreviewNoUpgrade' }),
    previous: hc({ 'spec.configuration.featureGate.featureSet': '' }),
  },

  // image.registrySources
  {
    name: 'fails when both blocked and allowed registries are set',
    object: hc({ 'spec.configuration.image.registrySources': { blockedRegistries: ['untrusted.example.com'], allowedRegistries: ['quay.io'] } }),
    rejects: 'Only one of blockedRegistries or allowedRegistries may be set',
    at: 'spec.configuration.image.registrySources',
  },
  {
    name: 'fails when an allowed registry has a tag',
    object: hc({ 'spec.configuration.image.registrySources.allowedRegistries': ['quay.io/openshift/origin:latest'] }),
    rejects: 'each registry must be a valid hostname[:port][/path] or wildcard *.hostname format',
    at: 'spec.configuration.image.registrySources.allowedRegistries[0]',
  },
  {
    name: 'fails when a blocked registry has a digest',
    object: hc({ 'spec.configuration.image.registrySources.blockedRegistries': [`untrusted.example.com/app@sha256:${'0'.repeat(64)}`] }),
    rejects: 'each registry must be a valid hostname[:port][/path] or wildcard *.hostname format',
    at: 'spec.configuration.image.registrySources.blockedRegistries[0]',
  },
  {
    name: 'fails when an insecure registry has a wildcard in the middle',
    object: hc({ 'spec.configuration.image.registrySources.insecureRegistries': ['registry.*.example.com'] }),
    rejects: 'each registry must be a valid hostname[:port][/path] or wildcard *.hostname format',
    at: 'spec.configuration.image.registrySources.insecureRegistries[0]',
  },
  {
    name: 'passes when allowed and insecure registries are hostnames, ports, paths and wildcards',
    object: hc({
      'spec.configuration.image.registrySources': {
        allowedRegistries: ['quay.io', 'registry.example.com:5000/team/app', '*.example.com', 'localhost'],
        insecureRegistries: ['registry.example.com:5000', '*.dev.example.com'],
        containerRuntimeSearchRegistries: ['registry.example.com'],
      },
    }),
  },
  {
    name: 'passes when only blocked registries are set',
    object: hc({ 'spec.configuration.image.registrySources.blockedRegistries': ['untrusted.example.com', 'docker.io/library'] }),
  },

  // ingress.domain
  {
    name: 'fails when the ingress domain changes after it was set',
    object: hc({ 'spec.configuration.ingress.domain': 'apps.other.example.com' }),
    previous: hc({ 'spec.configuration.ingress.domain': 'apps.vcluster2.example.com' }),
    rejects: 'domain is immutable once set',
    at: 'spec.configuration.ingress.domain',
  },
  {
    name: 'passes when the ingress domain stays the same on update',
    object: hc({ 'spec.configuration.ingress': { domain: 'apps.vcluster2.example.com', appsDomain: 'apps.example.com' } }),
    previous: hc({ 'spec.configuration.ingress.domain': 'apps.vcluster2.example.com' }),
  },

  // network.networkDiagnostics
  {
    name: 'fails when network diagnostics are disabled but a source placement is set',
    object: hc({ 'spec.configuration.network.networkDiagnostics': { mode: 'Disabled', sourcePlacement: { nodeSelector: { 'kubernetes.io/os': 'linux' } } } }),
    rejects: 'cannot set networkDiagnostics.sourcePlacement and networkDiagnostics.targetPlacement when networkDiagnostics.mode is Disabled',
    at: 'spec.configuration.network',
  },
  {
    name: 'fails when network diagnostics are disabled but a target placement is set',
    object: hc({ 'spec.configuration.network.networkDiagnostics': { mode: 'Disabled', targetPlacement: { nodeSelector: { 'kubernetes.io/os': 'linux' } } } }),
    rejects: 'cannot set networkDiagnostics.sourcePlacement and networkDiagnostics.targetPlacement when networkDiagnostics.mode is Disabled',
    at: 'spec.configuration.network',
  },
  {
    name: 'passes when network diagnostics run on all nodes with placements',
    object: hc({
      'spec.configuration.network.networkDiagnostics': {
        mode: 'All',
        sourcePlacement: { nodeSelector: { 'kubernetes.io/os': 'linux' } },
        targetPlacement: { tolerations: [{ operator: 'Exists' }] },
      },
    }),
  },
  {
    name: 'passes when network diagnostics are disabled without placements',
    object: hc({ 'spec.configuration.network.networkDiagnostics.mode': 'Disabled' }),
  },

  // oauth.tokenConfig
  {
    name: 'fails when the access token inactivity timeout is shorter than 300 seconds',
    object: hc({ 'spec.configuration.oauth.tokenConfig.accessTokenInactivityTimeout': '4m59s' }),
    rejects: 'minimum acceptable token timeout value is 300 seconds',
    at: 'spec.configuration.oauth',
  },
  {
    name: 'passes when the access token inactivity timeout is exactly 300 seconds',
    object: hc({ 'spec.configuration.oauth.tokenConfig': { accessTokenInactivityTimeout: '5m', accessTokenMaxAgeSeconds: 86400 } }),
  },
  {
    name: 'passes when the access token inactivity timeout is given in hours',
    object: hc({ 'spec.configuration.oauth.tokenConfig.accessTokenInactivityTimeout': '1h30m' }),
  },

  // clusterNetworkOperator.disableMultiNetwork
  {
    name: 'fails when disableMultiNetwork changes after creation',
    object: otherNetwork({ disableMultiNetwork: false }),
    previous: otherNetwork({ disableMultiNetwork: true }),
    rejects: 'disableMultiNetwork is immutable',
    at: `${CNO}.disableMultiNetwork`,
  },
  {
    name: 'passes when disableMultiNetwork stays true with a network type of other',
    object: otherNetwork({ disableMultiNetwork: true }),
    previous: otherNetwork({ disableMultiNetwork: true }),
  },

  // clusterNetworkOperator.ovnKubernetesConfig: values
  {
    name: 'passes when the ovn-kubernetes config sets every subnet and the mtu',
    object: ovn({
      mtu: 1400,
      ipv4: { internalJoinSubnet: '100.65.0.0/16', internalTransitSwitchSubnet: '100.89.0.0/16' },
      ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd97::/64' },
      v4InternalSubnet: '100.66.0.0/16',
      v6InternalSubnet: 'fd99::/64',
    }),
  },
  {
    name: 'passes when the ovn-kubernetes subnets use the widest allowed prefixes',
    object: ovn({
      ipv4: { internalJoinSubnet: '100.65.0.0/30', internalTransitSwitchSubnet: '100.89.0.4/30' },
      ipv6: { internalJoinSubnet: 'fd98::/125', internalTransitSwitchSubnet: 'fd97::/125' },
      v4InternalSubnet: '100.66.0.0/30',
      v6InternalSubnet: 'fd99::/125',
    }),
  },
  {
    name: 'fails when the ipv4 join and transit switch subnets are the same',
    object: ovn({ ipv4: { internalJoinSubnet: '100.65.0.0/16', internalTransitSwitchSubnet: '100.65.0.0/16' } }),
    rejects: 'internalJoinSubnet and internalTransitSwitchSubnet must not be the same',
    at: OVN,
  },
  {
    name: 'fails when the ipv6 join and transit switch subnets are the same',
    object: ovn({ ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd98::/64' } }),
    rejects: 'ipv6 internalJoinSubnet and internalTransitSwitchSubnet must not be the same',
    at: OVN,
  },
  {
    name: 'fails when the ipv4 join subnet has an octet above 255',
    object: ovn({ ipv4: { internalJoinSubnet: '100.256.0.0/16' } }),
    rejects: 'Subnet must be in a valid IPv4 CIDR format (e.g., 192.168.1.1/24)',
    at: `${OVN}.ipv4.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv4 join subnet is longer than /30',
    object: ovn({ ipv4: { internalJoinSubnet: '100.65.0.0/31' } }),
    rejects: 'subnet must be in the range /0 to /30 inclusive',
    at: `${OVN}.ipv4.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv4 join subnet starts with octet 0',
    object: ovn({ ipv4: { internalJoinSubnet: '0.65.0.0/16' } }),
    rejects: 'first IP address octet must not be 0',
    at: `${OVN}.ipv4.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv4 transit switch subnet is not a cidr',
    object: ovn({ ipv4: { internalTransitSwitchSubnet: '100.89.0.0-16' } }),
    rejects: 'Subnet must be in a valid IPv4 CIDR format',
    at: `${OVN}.ipv4.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the ipv4 transit switch subnet is a /32',
    object: ovn({ ipv4: { internalTransitSwitchSubnet: '100.89.0.1/32' } }),
    rejects: 'subnet must be in the range /0 to /30 inclusive',
    at: `${OVN}.ipv4.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the ipv4 transit switch subnet starts with octet 0',
    object: ovn({ ipv4: { internalTransitSwitchSubnet: '0.89.0.0/16' } }),
    rejects: 'first IP address octet must not be 0',
    at: `${OVN}.ipv4.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the ipv6 join subnet is an ipv4 cidr',
    object: ovn({ ipv6: { internalJoinSubnet: '100.65.0.0/16' } }),
    rejects: 'Subnet must be in valid IPv6 CIDR format (e.g., fd98::/64)',
    at: `${OVN}.ipv6.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv6 join subnet is longer than /125',
    object: ovn({ ipv6: { internalJoinSubnet: 'fd98::/126' } }),
    rejects: 'subnet must be in the range /0 to /125 inclusive',
    at: `${OVN}.ipv6.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv6 transit switch subnet is not a cidr',
    object: ovn({ ipv6: { internalTransitSwitchSubnet: 'fd97::' } }),
    rejects: 'Subnet must be in valid IPv6 CIDR format (e.g., fd97::/64)',
    at: `${OVN}.ipv6.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the ipv6 transit switch subnet is a /128',
    object: ovn({ ipv6: { internalTransitSwitchSubnet: 'fd97::1/128' } }),
    rejects: 'subnet must be in the range /0 to /125 inclusive',
    at: `${OVN}.ipv6.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the v4 internal subnet is an ipv6 cidr',
    object: ovn({ v4InternalSubnet: 'fd99::/64' }),
    rejects: 'Subnet must be in a valid IPv4 CIDR format',
    at: `${OVN}.v4InternalSubnet`,
  },
  {
    name: 'fails when the v4 internal subnet is longer than /30',
    object: ovn({ v4InternalSubnet: '100.66.0.0/31' }),
    rejects: 'subnet must be in the range /0 to /30 inclusive',
    at: `${OVN}.v4InternalSubnet`,
  },
  {
    name: 'fails when the v4 internal subnet starts with octet 0',
    object: ovn({ v4InternalSubnet: '0.66.0.0/16' }),
    rejects: 'first IP address octet must not be 0',
    at: `${OVN}.v4InternalSubnet`,
  },
  {
    name: 'fails when the v6 internal subnet is an ipv4 cidr',
    object: ovn({ v6InternalSubnet: '100.66.0.0/16' }),
    rejects: 'Subnet must be in valid IPv6 CIDR format',
    at: `${OVN}.v6InternalSubnet`,
  },
  {
    name: 'fails when the v6 internal subnet is longer than /125',
    object: ovn({ v6InternalSubnet: 'fd99::/126' }),
    rejects: 'subnet must be in the range /0 to /125 inclusive',
    at: `${OVN}.v6InternalSubnet`,
  },

  // clusterNetworkOperator.ovnKubernetesConfig: transitions
  {
    name: 'fails when the ovn-kubernetes config is removed',
    object: hc({ [CNO]: { disableMultiNetwork: false } }),
    previous: ovn({ mtu: 1400 }),
    rejects: 'ovnKubernetesConfig is immutable once set and cannot be removed',
    at: CNO,
  },
  {
    name: 'passes when the ovn-kubernetes config is added to a cluster network operator config',
    object: ovn({ mtu: 1400 }),
    previous: hc({ [CNO]: { disableMultiNetwork: false } }),
  },
  {
    name: 'fails when the ovn-kubernetes mtu is removed',
    object: ovn({ v4InternalSubnet: '100.66.0.0/16' }),
    previous: ovn({ v4InternalSubnet: '100.66.0.0/16', mtu: 1400 }),
    rejects: 'mtu is immutable once set and cannot be removed',
    at: OVN,
  },
  {
    name: 'fails when the ovn-kubernetes mtu changes',
    object: ovn({ mtu: 1500 }),
    previous: ovn({ mtu: 1400 }),
    rejects: 'mtu is immutable once set',
    at: `${OVN}.mtu`,
  },
  {
    name: 'fails when the ipv6 settings are removed',
    object: ovn({ mtu: 1400 }),
    previous: ovn({ mtu: 1400, ipv6: { internalJoinSubnet: 'fd98::/64' } }),
    rejects: 'ipv6 is immutable once set and cannot be removed',
    at: OVN,
  },
  {
    name: 'fails when the ipv6 join subnet is removed',
    object: ovn({ ipv6: { internalTransitSwitchSubnet: 'fd97::/64' } }),
    previous: ovn({ ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd97::/64' } }),
    rejects: 'ipv6.internalJoinSubnet cannot be removed once set',
    at: OVN,
  },
  {
    name: 'fails when the ipv6 transit switch subnet is removed',
    object: ovn({ ipv6: { internalJoinSubnet: 'fd98::/64' } }),
    previous: ovn({ ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd97::/64' } }),
    rejects: 'ipv6.internalTransitSwitchSubnet cannot be removed once set',
    at: OVN,
  },
  {
    name: 'fails when the ipv6 join subnet changes',
    object: ovn({ ipv6: { internalJoinSubnet: 'fd96::/64' } }),
    previous: ovn({ ipv6: { internalJoinSubnet: 'fd98::/64' } }),
    rejects: 'internalJoinSubnet is immutable',
    at: `${OVN}.ipv6.internalJoinSubnet`,
  },
  {
    name: 'fails when the ipv6 transit switch subnet changes',
    object: ovn({ ipv6: { internalTransitSwitchSubnet: 'fd96::/64' } }),
    previous: ovn({ ipv6: { internalTransitSwitchSubnet: 'fd97::/64' } }),
    rejects: 'internalTransitSwitchSubnet is immutable',
    at: `${OVN}.ipv6.internalTransitSwitchSubnet`,
  },
  {
    name: 'fails when the v4 internal subnet is removed',
    object: ovn({ mtu: 1400 }),
    previous: ovn({ mtu: 1400, v4InternalSubnet: '100.66.0.0/16' }),
    rejects: 'v4InternalSubnet is immutable once set and cannot be removed',
    at: OVN,
  },
  {
    name: 'fails when the v4 internal subnet changes',
    object: ovn({ v4InternalSubnet: '100.67.0.0/16' }),
    previous: ovn({ v4InternalSubnet: '100.66.0.0/16' }),
    rejects: 'v4InternalSubnet is immutable once set',
    at: `${OVN}.v4InternalSubnet`,
  },
  {
    name: 'fails when the v6 internal subnet is removed',
    object: ovn({ mtu: 1400 }),
    previous: ovn({ mtu: 1400, v6InternalSubnet: 'fd99::/64' }),
    rejects: 'v6InternalSubnet is immutable once set and cannot be removed',
    at: OVN,
  },
  {
    name: 'fails when the v6 internal subnet changes',
    object: ovn({ v6InternalSubnet: 'fd96::/64' }),
    previous: ovn({ v6InternalSubnet: 'fd99::/64' }),
    rejects: 'v6InternalSubnet is immutable once set',
    at: `${OVN}.v6InternalSubnet`,
  },
  {
    name: 'passes when the ovn-kubernetes config stays the same on update',
    object: ovn({
      mtu: 1400,
      ipv4: { internalJoinSubnet: '100.65.0.0/16', internalTransitSwitchSubnet: '100.89.0.0/16' },
      ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd97::/64' },
      v4InternalSubnet: '100.66.0.0/16',
      v6InternalSubnet: 'fd99::/64',
    }),
    previous: ovn({
      mtu: 1400,
      ipv4: { internalJoinSubnet: '100.65.0.0/16', internalTransitSwitchSubnet: '100.89.0.0/16' },
      ipv6: { internalJoinSubnet: 'fd98::/64', internalTransitSwitchSubnet: 'fd97::/64' },
      v4InternalSubnet: '100.66.0.0/16',
      v6InternalSubnet: 'fd99::/64',
    }),
  },
  {
    name: 'passes when ovn-kubernetes subnets are added on update',
    object: ovn({ mtu: 1400, ipv6: { internalJoinSubnet: 'fd98::/64' }, v4InternalSubnet: '100.66.0.0/16' }),
    previous: ovn({ mtu: 1400 }),
  },

  // ingressOperator: load balancer scope and provider parameters
  {
    name: 'fails when an internal aws load balancer has eip allocations',
    object: nlb({ subnets: { ids: [SUBNET_A] }, eipAllocations: [EIP_A] }, 'Internal'),
    rejects: 'eipAllocations are forbidden when the scope is Internal.',
    at: LB,
  },
  {
    name: 'passes when an internal aws network load balancer has subnets and no eip allocations',
    object: nlb({ subnets: { ids: [SUBNET_A, SUBNET_B] }, protocol: 'TCP' }, 'Internal'),
  },
  {
    name: 'fails when an internal openstack load balancer has a floating ip',
    object: openstack('203.0.113.10', 'Internal'),
    rejects: 'cannot specify a floating ip when scope is internal',
    at: LB,
  },
  {
    name: 'passes when an internal openstack load balancer has an empty floating ip',
    object: loadBalancer({ scope: 'Internal', dnsManagementPolicy: 'Managed', providerParameters: { type: 'OpenStack', openstack: {} } }),
  },
  {
    name: 'passes when an external openstack load balancer has an ipv6 floating ip',
    object: openstack('2001:db8::10'),
  },
  {
    name: 'fails when an openstack floating ip is not an ip address',
    object: openstack('203.0.113.300'),
    rejects: 'floatingIP must be a valid IPv4 or IPv6 address',
    at: `${LB}.providerParameters.openstack.floatingIP`,
  },
  {
    name: 'fails when openstack parameters are given for an aws load balancer',
    object: loadBalancer({ scope: 'External', dnsManagementPolicy: 'Managed', providerParameters: { type: 'AWS', aws: { type: 'NLB' }, openstack: { floatingIP: '203.0.113.10' } } }),
    rejects: 'openstack is not permitted when type is not OpenStack',
    at: `${LB}.providerParameters`,
  },
  {
    name: 'passes when a gcp load balancer has global client access',
    object: loadBalancer({ scope: 'Internal', dnsManagementPolicy: 'Unmanaged', providerParameters: { type: 'GCP', gcp: { clientAccess: 'Global' } } }),
  },

  // ingressOperator: classic load balancer subnets
  {
    name: 'passes when a classic load balancer has subnet ids and names',
    object: classic({ connectionIdleTimeout: '2m', subnets: { ids: [SUBNET_A, SUBNET_B], names: ['public-a', 'public-b'] } }),
  },
  {
    name: 'fails when a classic load balancer has more than 10 subnets in total',
    object: classic({ subnets: { ids: [SUBNET_A, SUBNET_B, SUBNET_C, SUBNET_D, SUBNET_E, SUBNET_F], names: ['public-a', 'public-b', 'public-c', 'public-d', 'public-e'] } }),
    rejects: 'the total number of subnets cannot exceed 10',
    at: `${AWS}.classicLoadBalancer.subnets`,
  },
  {
    name: 'fails when a classic load balancer has empty subnets',
    object: classic({ subnets: { ids: [], names: [] } }),
    rejects: 'must specify at least 1 subnet name or id',
    at: `${AWS}.classicLoadBalancer.subnets`,
  },
  {
    name: 'fails when a classic load balancer has a duplicate subnet id',
    object: classic({ subnets: { ids: [SUBNET_A, SUBNET_A] } }),
    rejects: 'subnet ids cannot contain duplicates',
    at: `${AWS}.classicLoadBalancer.subnets.ids`,
  },
  {
    name: 'fails when a classic load balancer has a duplicate subnet name',
    object: classic({ subnets: { names: ['public-a', 'public-a'] } }),
    rejects: 'subnet names cannot contain duplicates',
    at: `${AWS}.classicLoadBalancer.subnets.names`,
  },
  {
    name: 'fails when a classic load balancer subnet name has a comma',
    object: classic({ subnets: { names: ['public-a,public-b'] } }),
    rejects: 'subnet name cannot contain a comma',
    at: `${AWS}.classicLoadBalancer.subnets.names[0]`,
  },
  {
    name: 'fails when a classic load balancer subnet name starts with subnet-',
    object: classic({ subnets: { names: ['subnet-public-a'] } }),
    rejects: "subnet name cannot start with 'subnet-'",
    at: `${AWS}.classicLoadBalancer.subnets.names[0]`,
  },

  // ingressOperator: network load balancer subnets and eip allocations
  {
    name: 'passes when a network load balancer has one eip allocation per subnet id and name',
    object: nlb({ subnets: { ids: [SUBNET_A], names: ['public-b'] }, eipAllocations: [EIP_A, EIP_B] }),
  },
  {
    name: 'passes when a network load balancer has one eip allocation per subnet id',
    object: nlb({ subnets: { ids: [SUBNET_A, SUBNET_B] }, eipAllocations: [EIP_A, EIP_B] }),
  },
  {
    name: 'passes when a network load balancer has one eip allocation per subnet name',
    object: nlb({ subnets: { names: ['public-a'] }, eipAllocations: [EIP_A] }),
  },
  {
    name: 'fails when a network load balancer has fewer eip allocations than subnet ids and names',
    object: nlb({ subnets: { ids: [SUBNET_A], names: ['public-b'] }, eipAllocations: [EIP_A] }),
    rejects: 'number of subnets must be equal to number of eipAllocations',
    at: `${AWS}.networkLoadBalancer`,
  },
  {
    name: 'fails when a network load balancer has more eip allocations than subnet ids',
    object: nlb({ subnets: { ids: [SUBNET_A] }, eipAllocations: [EIP_A, EIP_B] }),
    rejects: 'number of subnets must be equal to number of eipAllocations',
    at: `${AWS}.networkLoadBalancer`,
  },
  {
    name: 'fails when a network load balancer has more eip allocations than subnet names',
    object: nlb({ subnets: { names: ['public-a'] }, eipAllocations: [EIP_A, EIP_B] }),
    rejects: 'number of subnets must be equal to number of eipAllocations',
    at: `${AWS}.networkLoadBalancer`,
  },
  {
    name: 'fails when a network load balancer has a duplicate eip allocation',
    object: nlb({ subnets: { ids: [SUBNET_A, SUBNET_B] }, eipAllocations: [EIP_A, EIP_A] }),
    rejects: 'eipAllocations cannot contain duplicates',
    at: `${AWS}.networkLoadBalancer.eipAllocations`,
  },
  {
    name: 'fails when an eip allocation does not start with eipalloc-',
    object: nlb({ subnets: { ids: [SUBNET_A] }, eipAllocations: ['eipaloc--0123456789abcdef1'] }),
    rejects: "eipAllocations should start with 'eipalloc-'",
    at: `${AWS}.networkLoadBalancer.eipAllocations[0]`,
  },
  {
    name: 'fails when an eip allocation has a character that is not hexadecimal',
    object: nlb({ subnets: { ids: [SUBNET_A] }, eipAllocations: ['eipalloc-0123456789abcdefg'] }),
    rejects: "eipAllocations must be 'eipalloc-' followed by exactly 17 hexadecimal characters",
    at: `${AWS}.networkLoadBalancer.eipAllocations[0]`,
  },
  {
    name: 'fails when a network load balancer has more than 10 subnets in total',
    object: nlb({ subnets: { ids: [SUBNET_A, SUBNET_B, SUBNET_C, SUBNET_D, SUBNET_E], names: ['public-a', 'public-b', 'public-c', 'public-d', 'public-e', 'public-f'] } }),
    rejects: 'the total number of subnets cannot exceed 10',
    at: `${AWS}.networkLoadBalancer.subnets`,
  },
  {
    name: 'fails when a network load balancer has subnets without ids or names',
    object: nlb({ subnets: {} }),
    rejects: 'must specify at least 1 subnet name or id',
    at: `${AWS}.networkLoadBalancer.subnets`,
  },
  {
    name: 'fails when a network load balancer has a duplicate subnet id',
    object: nlb({ subnets: { ids: [SUBNET_B, SUBNET_A, SUBNET_B] } }),
    rejects: 'subnet ids cannot contain duplicates',
    at: `${AWS}.networkLoadBalancer.subnets.ids`,
  },
  {
    name: 'fails when a network load balancer has a duplicate subnet name',
    object: nlb({ subnets: { names: ['public-b', 'public-a', 'public-b'] } }),
    rejects: 'subnet names cannot contain duplicates',
    at: `${AWS}.networkLoadBalancer.subnets.names`,
  },
  {
    name: 'fails when a network load balancer subnet name has a comma',
    object: nlb({ subnets: { names: ['public-a', 'public-b,public-c'] } }),
    rejects: 'subnet name cannot contain a comma',
    at: `${AWS}.networkLoadBalancer.subnets.names[1]`,
  },
  {
    name: 'fails when a network load balancer subnet name starts with subnet-',
    object: nlb({ subnets: { names: ['subnet-public-a'] } }),
    rejects: "subnet name cannot start with 'subnet-'",
    at: `${AWS}.networkLoadBalancer.subnets.names[0]`,
  },
];
