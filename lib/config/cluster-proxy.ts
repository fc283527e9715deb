import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';
import { CertificateAuthority } from './certificate-authority';

/** Props of ClusterProxy. */
export interface ClusterProxyProps {
  /** @default - plain HTTP goes direct */
  readonly httpProxy?: string;
  /** @default - HTTPS goes direct */
  readonly httpsProxy?: string;
  /** Destinations that bypass the proxy: domains (`.example.com`), hosts, IPs or CIDRs. @default - none */
  readonly noProxy?: string[];
  /** URLs checked through the proxy before it is used. @default - none */
  readonly readinessEndpoints?: string[];
  /** The CA of a proxy that re-signs TLS; written with key `ca-bundle.crt`. @default - none */
  readonly trustedCa?: CertificateAuthority;
}

/**
 * The cluster-wide egress proxy of the nodes (`spec.configuration.proxy`); HyperShift renders it into
 * every NodePool's configuration, so a change rolls all pools out.
 */
export class ClusterProxy extends Construct {
  /**
   * The HostedCluster object this construct configures (it writes `spec.configuration.proxy` there),
   * for `addJsonPatch` and the like.
   */
  public readonly resource: ApiObject;
  /** The ConfigMap of `trustedCa` when given as PEM; undefined when it names an existing one, or is not given. */
  public readonly trustedCaConfigMap?: ApiObject;

  constructor(cluster: HostedCluster, id: string, props: ClusterProxyProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    problems.require(props.httpProxy !== undefined || props.httpsProxy !== undefined, 'httpProxy', props.httpProxy, 'or httpsProxy must be given');
    for (const field of ['httpProxy', 'httpsProxy'] as const) {
      const url = props[field];
      if (url !== undefined) problems.require(/^https?:\/\/[^\s/]+(:\d+)?\/?$/.test(url), field, url, 'must be an http:// or https:// URL of the proxy, e.g. http://proxy.example.com:3128');
    }
    (props.noProxy ?? []).forEach((entry, i) => problems.require(/^[^\s,]+$/.test(entry), `noProxy[${i}]`, entry, 'must be one domain, host, IP or CIDR without spaces or commas'));
    (props.readinessEndpoints ?? []).forEach((url, i) => problems.require(/^https?:\/\/\S+$/.test(url), `readinessEndpoints[${i}]`, url, 'must be an http:// or https:// URL'));
    const trustedCa = props.trustedCa?.bind(this, 'TrustedCa', {
      field: 'trustedCa',
      defaultName: `${cluster.clusterName}-proxy-ca`,
      namespace: cluster.namespace,
      problems,
      key: 'ca-bundle.crt',
    });
    this.trustedCaConfigMap = this.node.tryFindChild('TrustedCa') as ApiObject | undefined;
    // A cluster is left as it is when this part of its configuration is wrong.
    if (problems.report()) return;
    cluster.addConfiguration(
      {
        proxy: {
          httpProxy: props.httpProxy,
          httpsProxy: props.httpsProxy,
          noProxy: props.noProxy?.join(','),
          readinessEndpoints: props.readinessEndpoints,
          trustedCa: trustedCa ? { name: trustedCa } : undefined,
        },
      },
      this,
    );
  }
}
