import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import * as image from '../../imports/image-config.openshift.io';
import { caBundleProblem, REGISTRY_HOST, REGISTRY_HOST_RULE } from '../core/formats';
import { configMap } from '../core/kube-objects';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems } from '../core/problems';
import { ImageMirrors } from './image-mirrors';

/** The namespace of the ConfigMaps the cluster's image configuration names. */
export const OPENSHIFT_CONFIG_NAMESPACE = 'openshift-config';

/** Props of MirrorRegistryTrust. */
export interface MirrorRegistryTrustProps {
  /** The mirror registry, with its CA (`caPem`): the same description the hosted clusters and DisconnectedMirrors take. */
  readonly mirrors: ImageMirrors;
  /**
   * `metadata.name` of the ConfigMap of CAs in `openshift-config`.
   * @default 'registry-config' (the docs' name, 5.3.1)
   */
  readonly configMapName?: string;
}

/**
 * The management cluster's trust of the mirror registry (docs 5.2.5.1, 5.3.1 steps 2-3), so that its
 * nodes pull from the mirror and the HyperShift Operator can read release payloads there: a
 * ConfigMap in `openshift-config` with the registry's CA under the key `<host>..<port>`, and the
 * cluster's image configuration (`Image` `cluster`) naming it in `spec.additionalTrustedCA`.
 * The Image is written as a partial object that server-side apply merges into the one OpenShift
 * made, so its other fields stay as they are; one MirrorRegistryTrust per management cluster.
 */
export class MirrorRegistryTrust extends Construct {
  /** The ConfigMap key of the registry: `host..port`, or the host alone without a port. */
  public readonly registryKey: string;
  /** The ConfigMap of CAs. */
  public readonly configMap: ApiObject;
  /** The image configuration `cluster`. */
  public readonly resource: image.Image;

  /** @param scope the ManagementCluster */
  constructor(scope: Construct, id: string, props: MirrorRegistryTrustProps) {
    super(scope, id);
    const problems = new Problems(this);
    const name = props.configMapName ?? 'registry-config';
    problems.require(isDns1123Subdomain(name), 'configMapName', name, DNS1123_SUBDOMAIN_RULE);
    const { registry, caPem } = props.mirrors?.props ?? {};
    problems.require(REGISTRY_HOST.test(registry ?? ''), 'mirrors.registry', registry, REGISTRY_HOST_RULE);
    if (caPem === undefined) {
      problems.add("mirrors.caPem (undefined) must be the PEM of the mirror registry's CA; a registry whose certificate the hub trusts already needs no MirrorRegistryTrust");
    } else {
      // The CA is written to the output: text that is no certificate, or holds a private key, is refused.
      const problem = caBundleProblem('mirrors.caPem', caPem);
      if (problem) problems.add(problem);
    }
    problems.report();

    // A ConfigMap key cannot hold ":"; OpenShift reads "..", before the port, as the colon.
    this.registryKey = (registry ?? '').replace(':', '..');
    // One trailing newline makes the YAML a `|` block: docs 5.2.5.1 warn that `|-` breaks the pods reading it.
    this.configMap = configMap(this, 'ConfigMap', name, OPENSHIFT_CONFIG_NAMESPACE, { [this.registryKey]: `${(caPem ?? '').trimEnd()}\n` });
    this.resource = new image.Image(this, 'Resource', {
      metadata: { name: 'cluster' },
      spec: { additionalTrustedCa: { name } },
    });
    this.node.addValidation({
      validate: () => {
        const first = Chart.of(this)
          .node.findAll()
          .find((c): c is MirrorRegistryTrust => c instanceof MirrorRegistryTrust);
        return first === this ? [] : [`the image configuration cluster names one ConfigMap of CAs, and ${first!.node.path} writes it already; give one MirrorRegistryTrust per management cluster`];
      },
    });
  }
}
