import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import * as hc from '../../imports/hostedcluster-hypershift.openshift.io';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';
import { ControlPlaneService } from '../core/service-publishing';
import type { ISecretSource } from '../secrets/secret-source';
import { bindTlsSecret } from './tls-secret';

/** The API server's audit profiles: `Default`, `WriteRequestBodies`, `AllRequestBodies`, `None`. */
export const AuditProfile = hc.HostedClusterSpecConfigurationApiServerAuditProfile;
export type AuditProfile = hc.HostedClusterSpecConfigurationApiServerAuditProfile;

/** A certificate the API server presents for some of its host names (SNI). */
export interface NamedServingCertificate {
  /** Host names it serves, each one the API server is reached at (`HostedCluster.apiServerHostnames`), or a wildcard covering one. */
  readonly names: string[];
  /** A `kubernetes.io/tls` Secret (`tls.crt`, `tls.key`) in the cluster's namespace: `SecretSource.fromExistingSecret` (e.g. made by cert-manager). */
  readonly certificate: ISecretSource;
}

/** Props of ApiServerConfiguration. */
export interface ApiServerConfigurationProps {
  /** @default - only the certificates HyperShift makes */
  readonly namedCertificates?: NamedServingCertificate[];
  /** How much of each request the audit log records. @default - the API's Default (metadata of every request, bodies of none) */
  readonly auditProfile?: AuditProfile;
}

/**
 * The hosted API server's serving certificates and audit profile (`spec.configuration.apiServer`).
 * Certificate names are checked against the host names the cluster publishes its API server at.
 */
export class ApiServerConfiguration extends Construct {
  /**
   * The HostedCluster object this construct configures (it writes `spec.configuration.apiServer` there and
   * no object of its own), for `addJsonPatch` and the like.
   */
  public readonly resource: ApiObject;
  constructor(cluster: HostedCluster, id: string, props: ApiServerConfigurationProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    const served = cluster.apiServerHostnames;
    const loadBalancerHostname = cluster.publishedServices.get(ControlPlaneService.API_SERVER)?.strategy.loadBalancer?.hostname;
    const certificates = (props.namedCertificates ?? []).map((cert, i) => {
      const p = problems.within(`namedCertificates[${i}]`);
      if (p.require(Array.isArray(cert.names) && cert.names.length > 0, 'names', cert.names, 'must list at least one host name')) {
        cert.names.forEach((name, j) => {
          if (name === loadBalancerHostname)
            p.add(`names[${j}] (${JSON.stringify(name)}) is the APIServer LoadBalancer hostname, for which HyperShift serves its own certificate (a CEL rule of the HostedCluster)`);
          else
            p.require(
              served.some((host) => covers(name, host)),
              `names[${j}]`,
              name,
              `is not a host name the API server is reached at; it serves ${JSON.stringify(served)}`,
            );
        });
      }
      const secretName = bindTlsSecret(cert.certificate, this, `Certificate${i}`, {
        field: 'certificate',
        problems: p,
        namespace: cluster.namespace,
        defaultName: `${cluster.clusterName}-api-${String(cert.names?.[0] ?? i)
          .replace(/^\*\./, 'wildcard.')
          .replace(/[^a-z0-9-]+/gi, '-')
          .toLowerCase()}`,
      });
      return { names: cert.names, servingCertificate: { name: secretName } };
    });
    if (props.auditProfile !== undefined) {
      problems.require(Object.values(AuditProfile).includes(props.auditProfile), 'auditProfile', props.auditProfile, `must be one of ${Object.values(AuditProfile).join(', ')}`);
    }
    // A cluster is left as it is when this part of its configuration is wrong.
    if (problems.report()) return;
    cluster.addConfiguration(
      {
        apiServer: {
          servingCerts: certificates.length > 0 ? { namedCertificates: certificates } : undefined,
          audit: props.auditProfile !== undefined ? { profile: props.auditProfile } : undefined,
        },
      },
      this,
    );
  }
}

/** Whether a certificate name (exact, or `*.` one label deep) covers a host. */
function covers(name: string, host: string): boolean {
  if (name.startsWith('*.')) return host.slice(host.indexOf('.') + 1) === name.slice(2);
  return name.toLowerCase() === host.toLowerCase();
}
