import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { Problems } from '../core/problems';

// The registry form the image config's CEL rule accepts: host[:port][/path] or *.domain, no tag or digest.
const LABEL = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const REGISTRY = new RegExp(`^\\*(?:\\.${LABEL})+$|^(?:${LABEL}(?:\\.${LABEL})*(?::[0-9]+)?)(?:/[a-z0-9]+(?:(?:[._]|__|-*)[a-z0-9]+)*)*$`);
const REGISTRY_RULE = 'must be host[:port][/path] or *.domain, without tag or digest';

/** Props of ImageRegistryPolicy. */
export interface ImageRegistryPolicyProps {
  /** The only registries pods may pull from; not with `blockedRegistries`. @default - all */
  readonly allowedRegistries?: string[];
  /** Registries pods may not pull from; not with `allowedRegistries`. @default - none */
  readonly blockedRegistries?: string[];
  /** Registries reached without TLS verification. @default - none */
  readonly insecureRegistries?: string[];
  /** Registries searched for short image names. @default - none */
  readonly searchRegistries?: string[];
}

/**
 * Which registries the hosted cluster's nodes pull from (`spec.configuration.image.registrySources`);
 * part of every NodePool's configuration, so a change rolls all pools out.
 */
export class ImageRegistryPolicy extends Construct {
  /**
   * The HostedCluster object this construct configures (it writes `spec.configuration.image` there and
   * no object of its own), for `addJsonPatch` and the like.
   */
  public readonly resource: ApiObject;
  constructor(cluster: HostedCluster, id: string, props: ImageRegistryPolicyProps) {
    super(cluster, id);
    this.resource = cluster.resource;
    const problems = new Problems(this);
    if (props.allowedRegistries !== undefined && props.blockedRegistries !== undefined) {
      problems.add(`allowedRegistries (${JSON.stringify(props.allowedRegistries)}) and blockedRegistries (${JSON.stringify(props.blockedRegistries)}) exclude each other; give one`);
    }
    for (const field of ['allowedRegistries', 'blockedRegistries', 'insecureRegistries', 'searchRegistries'] as const) {
      (props[field] ?? []).forEach((registry, i) => problems.require(REGISTRY.test(registry) && registry.length <= 256, `${field}[${i}]`, registry, REGISTRY_RULE));
    }
    // A cluster is left as it is when this part of its configuration is wrong.
    if (problems.report()) return;
    cluster.addConfiguration(
      {
        image: {
          registrySources: {
            allowedRegistries: props.allowedRegistries,
            blockedRegistries: props.blockedRegistries,
            insecureRegistries: props.insecureRegistries,
            containerRuntimeSearchRegistries: props.searchRegistries,
          },
        },
      },
      this,
    );
  }
}
