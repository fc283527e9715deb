import { ImageContentSource } from '../core/hosted-cluster';
import { TrustBundle } from '../core/trust-bundle';

/** The four OLM catalogs of the default OperatorHub sources, by the annotation that names each one's image. */
export const OLM_CATALOG_IMAGE_ANNOTATIONS = {
  /** The Red Hat Operators catalog. */
  redhatOperators: 'hypershift.openshift.io/redhat-operators-catalog-image',
  /** The Certified Operators catalog. */
  certifiedOperators: 'hypershift.openshift.io/certified-operators-catalog-image',
  /** The Community Operators catalog. */
  communityOperators: 'hypershift.openshift.io/community-operators-catalog-image',
  /** The Red Hat Marketplace catalog. */
  redhatMarketplace: 'hypershift.openshift.io/redhat-marketplace-catalog-image',
} as const;
/** Rewrites the registries of the OLM catalog images: `source=mirror,source=mirror` (docs 5.2.3). */
export const OLM_CATALOGS_REGISTRY_OVERRIDES_ANNOTATION = 'hypershift.openshift.io/olm-catalogs-is-registry-overrides';

/** The four catalog images, mirrored. */
export interface OlmCatalogImages {
  /** The Red Hat Operators catalog image. */
  readonly redhatOperators: string;
  /** The Certified Operators catalog image. */
  readonly certifiedOperators: string;
  /** The Community Operators catalog image. */
  readonly communityOperators: string;
  /** The Red Hat Marketplace catalog image. */
  readonly redhatMarketplace: string;
}

/**
 * How a hosted cluster whose OLM catalogs run on the management cluster (placement `management`)
 * finds them in the mirror: the management cluster's mirror settings do not reach that image stream (docs 5.2.3).
 */
export class OlmCatalogMirrors {
  /** The catalogs were mirrored under their original names and tags: rewrite source registries to mirrors, e.g. `{ 'registry.redhat.io/redhat': 'mirror:5000/redhat' }`. */
  public static registryOverrides(overrides: Record<string, string>): OlmCatalogMirrors {
    return new OlmCatalogMirrors(
      {
        [OLM_CATALOGS_REGISTRY_OVERRIDES_ANNOTATION]: Object.entries(overrides)
          .map(([from, to]) => `${from}=${to}`)
          .join(','),
      },
      overrides,
    );
  }

  /** The four catalog images by reference, bypassing the image stream; update them when the mirror refreshes. */
  public static images(images: OlmCatalogImages): OlmCatalogMirrors {
    const annotations: Record<string, string> = {};
    for (const [key, annotation] of Object.entries(OLM_CATALOG_IMAGE_ANNOTATIONS)) annotations[annotation] = images[key as keyof OlmCatalogImages];
    return new OlmCatalogMirrors(annotations, undefined);
  }

  private constructor(
    /** The HostedCluster annotations. */
    public readonly annotations: Readonly<Record<string, string | undefined>>,
    /** The registry overrides, when given so. */
    public readonly overrides: Readonly<Record<string, string>> | undefined,
  ) {}
}

/** One repository and where it is mirrored. */
export interface MirroredRepository {
  /** The repository images are named by, e.g. `quay.io/openshift-release-dev/ocp-release`. */
  readonly source: string;
  /** Repositories in the mirror registry holding the same digests. */
  readonly mirrors: string[];
}

/** Props of ImageMirrors. */
export interface ImageMirrorsProps {
  /** The mirror registry, `host[:port]`; every mirror is in it. */
  readonly registry: string;
  /** The mirrored repositories, each source with its mirrors. */
  readonly repositories: MirroredRepository[];
  /** PEM of the registry's CA, when the nodes and the management cluster do not trust it yet. @default - trusted already */
  readonly caPem?: string;
  /** For hosted clusters with OLM catalog placement `management`. @default - none */
  readonly olmCatalogs?: OlmCatalogMirrors;
}

/**
 * One description of a disconnected install's mirror registry, from which everything that must
 * agree is derived (docs 5): the HostedCluster's `imageContentSources` and trust bundle, the management
 * cluster's ImageDigestMirrorSet (`DisconnectedMirrors`), the assisted service's `registries.conf`
 * and CA bundle, and the OLM catalog annotations.
 */
export class ImageMirrors {
  public constructor(
    /** The description the mirrors were made from. */
    public readonly props: ImageMirrorsProps,
  ) {}

  /** For `HostedCluster` prop `imageContentSources`: the data plane pulls through these (docs 5.1). */
  public get imageContentSources(): ImageContentSource[] {
    return this.props.repositories.map((r) => ({ source: r.source, mirrors: [...r.mirrors] }));
  }

  /** For `HostedCluster` prop `additionalTrustBundle` (ConfigMap `user-ca-bundle`), when a CA is given. */
  public get trustBundle(): TrustBundle | undefined {
    return this.props.caPem !== undefined ? TrustBundle.fromPem(this.props.caPem) : undefined;
  }

  /**
   * containers-registries.conf v2 for the assisted service (`MirrorRegistryConfig.fromRegistriesConf`,
   * docs 5.3.11.1): each source mirrored, by digest only.
   */
  public get registriesConf(): string {
    const tables = this.props.repositories.map((r) =>
      ['[[registry]]', 'prefix = ""', `location = "${r.source}"`, 'mirror-by-digest-only = true', '', ...r.mirrors.flatMap((m) => ['[[registry.mirror]]', `  location = "${m}"`, ''])].join('\n'),
    );
    return ['unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]', '', ...tables].join('\n');
  }
}
