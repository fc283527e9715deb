import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import * as idms from '../../imports/imagedigestmirrorset-config.openshift.io';
import { REGISTRY_HOST, REGISTRY_HOST_RULE } from '../core/formats';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { ImageMirrors } from './image-mirrors';

// A repository as an ImageDigestMirrorSet names it: host[:port]/path, no tag or digest.
const REPOSITORY = /^[a-zA-Z0-9]([a-zA-Z0-9.-]*[a-zA-Z0-9])?(:\d+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/;

/** Props of DisconnectedMirrors. */
export interface DisconnectedMirrorsProps {
  /** The mirrors, described once. */
  readonly mirrors: ImageMirrors;
  /** The hosted clusters that pull through the mirrors; checked to agree with them, annotated for OLM. */
  readonly clusters: HostedCluster[];
  /** The ImageDigestMirrorSet's name. @default - the construct id */
  readonly name?: string;
}

/**
 * The management cluster's side of a mirror registry: an ImageDigestMirrorSet, so that control-plane
 * pods pull through the mirrors (docs 5.1, 5.2.3), and, on each hosted cluster, the OLM catalog
 * annotations. Each cluster must take its imageContentSources and trust bundle from the same
 * `ImageMirrors`; a release by tag is a warning (HCP-W005, an error under strict) recommending a
 * digest, since mirrors are matched by digest.
 */
export class DisconnectedMirrors extends Construct {
  /** The ImageDigestMirrorSet this construct writes (its main object), for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: DisconnectedMirrorsProps) {
    super(scope, id);
    const problems = new Problems(this);
    const { registry, repositories, olmCatalogs } = props.mirrors.props;
    const name = props.name ?? id;
    problems.require(isDns1123Subdomain(name), 'name', name, DNS1123_SUBDOMAIN_RULE);
    problems.require(REGISTRY_HOST.test(registry ?? ''), 'mirrors.registry', registry, REGISTRY_HOST_RULE);
    problems.require((repositories ?? []).length > 0, 'mirrors.repositories', repositories, 'must list at least one mirrored repository');
    (repositories ?? []).forEach((r, i) => {
      problems.require(REPOSITORY.test(r.source), `mirrors.repositories[${i}].source`, r.source, 'must be a repository host[/path] without tag or digest');
      problems.require((r.mirrors ?? []).length > 0, `mirrors.repositories[${i}].mirrors`, r.mirrors, 'must list at least one mirror');
      (r.mirrors ?? []).forEach((m, j) => {
        if (problems.require(REPOSITORY.test(m), `mirrors.repositories[${i}].mirrors[${j}]`, m, 'must be a repository host[:port][/path] without tag or digest')) {
          problems.require(m === registry || m.startsWith(`${registry}/`), `mirrors.repositories[${i}].mirrors[${j}]`, m, `must be in the mirror registry ${registry}`);
        }
      });
    });
    for (const value of Object.values(olmCatalogs?.annotations ?? {})) {
      if (value === undefined || value === '') problems.add(`mirrors.olmCatalogs (${show(olmCatalogs?.annotations)}) must name every catalog image, or give registry overrides`);
    }
    problems.report();

    this.resource = new idms.ImageDigestMirrorSet(this, 'Resource', {
      metadata: { name },
      spec: { imageDigestMirrors: (repositories ?? []).map((r) => ({ source: r.source, mirrors: [...(r.mirrors ?? [])] })) },
    });
    for (const cluster of props.clusters) {
      for (const [key, value] of Object.entries(olmCatalogs?.annotations ?? {})) cluster.resource.metadata.addAnnotation(key, value!);
    }
    this.node.addValidation({ validate: () => props.clusters.flatMap((cluster, i) => this.checkCluster(cluster, `clusters[${i}]`, props.mirrors)) });
  }

  /**
   * What a cluster must agree on with the mirrors: its imageContentSources, trust bundle and catalog
   * placement. A release by tag is the cluster's lint (HCP-W005), not a problem: docs 5.3.13.1 name
   * one in the mirror registry.
   */
  private checkCluster(cluster: HostedCluster, field: string, mirrors: ImageMirrors): string[] {
    const problems: string[] = [];
    const at = `${field} (${cluster.clusterName})`;
    const spec = cluster.resource.toJson().spec ?? {};
    const given = JSON.stringify((spec.imageContentSources ?? []).map((s: any) => ({ source: s.source, mirrors: s.mirrors })));
    const expected = JSON.stringify(mirrors.imageContentSources);
    if (given !== expected) {
      problems.push(`${at} imageContentSources (${given}) differ from the mirrors ${this.node.path} describes (${expected}); pass imageContentSources: mirrors.imageContentSources`);
    }
    if (mirrors.props.caPem !== undefined && spec.additionalTrustBundle === undefined) {
      problems.push(`${at} additionalTrustBundle (undefined) must trust the mirror registry's CA; pass additionalTrustBundle: mirrors.trustBundle`);
    }
    const placement = spec.olmCatalogPlacement ?? 'management';
    if (placement === 'management' && mirrors.props.olmCatalogs === undefined) {
      problems.push(
        `${at} olmCatalogPlacement (management) runs the OLM catalogs on the management cluster, where the mirror settings do not reach them; give the mirrors olmCatalogs (OlmCatalogMirrors.registryOverrides or .images), or use placement guest`,
      );
    }
    if (placement === 'guest' && mirrors.props.olmCatalogs !== undefined) {
      problems.push(`${at} olmCatalogPlacement (guest) ignores the OLM catalog annotations the mirrors' olmCatalogs add; use placement management or leave olmCatalogs out`);
    }
    return problems;
  }
}
