import { caBundleProblem } from '../core/formats';
import { ApiObject, Chart, JsonPatch, Lazy, Size } from 'cdk8s';
import { Construct } from 'constructs';
import { CpuArchitecture } from '../baremetal/infra-env';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { NodePool } from '../core/node-pool';
import { Problems, show } from '../core/problems';
import { ReleaseVersion } from '../release/release';
import { PlatformType } from '../platform/platform-type';
import { Quantity } from '../validation/cel/quantity';
import { MULTICLUSTER_ENGINE_NAMESPACE, MultiClusterEngine, MultiClusterEngineComponent } from './multicluster-engine';

/** The annotation naming a ConfigMap of extra assisted-service settings (unsupported by Red Hat, as its name says). */
export const ASSISTED_SERVICE_CONFIGMAP_ANNOTATION = 'unsupported.agent-install.openshift.io/assisted-service-configmap';
/** The ConfigMap hcp-cdk writes for `MirrorRegistryConfig.fromRegistriesConf`, as docs 5.3.11.1 name it. */
export const MIRROR_REGISTRY_CONFIGMAP_NAME = 'custom-registries';
/** The assisted service only reconciles an AgentServiceConfig of this name. */
export const AGENT_SERVICE_CONFIG_NAME = 'agent';

/** Access modes of a PersistentVolumeClaim. */
export enum VolumeAccessMode {
  /** Mounted read-write by one node. */
  READ_WRITE_ONCE = 'ReadWriteOnce',
  /** Mounted read-only by many nodes. */
  READ_ONLY_MANY = 'ReadOnlyMany',
  /** Mounted read-write by many nodes. */
  READ_WRITE_MANY = 'ReadWriteMany',
  /** Mounted read-write by one pod. */
  READ_WRITE_ONCE_POD = 'ReadWriteOncePod',
}

/** A volume the assisted service claims. */
export interface AssistedServiceStorage {
  /** The volume size: `Size.gibibytes(10)` or a quantity such as `'10Gi'`. */
  readonly size: Size | string;
  /** @default - the cluster's default storage class */
  readonly storageClassName?: string;
  /** @default [VolumeAccessMode.READ_WRITE_ONCE] */
  readonly accessModes?: VolumeAccessMode[];
}

/** An RHCOS live image the assisted service boots hosts from, for one OpenShift version and architecture. */
export interface OsImage {
  /** The OpenShift release the image is for, major.minor: `'4.17'`. */
  readonly openshiftVersion: string;
  /** The RHCOS version of the image, e.g. `'417.94.202409121747-0'`. */
  readonly version: string;
  /** Where the live ISO is served: an http(s) URL, a local web server when disconnected. */
  readonly url: string;
  /**
   * Where the live rootfs is served. Docs 5.3.11.1 set it; the CRD marks it deprecated and ignored.
   * @default - not set
   */
  readonly rootFsUrl?: string;
  /** @default CpuArchitecture.X86_64 */
  readonly cpuArchitecture?: CpuArchitecture;
}

/** Options of `MirrorRegistryConfig.fromRegistriesConf`. */
export interface MirrorRegistryConfigOptions {
  /**
   * PEM certificates of the mirror registries' certificate authorities (`ca-bundle.crt`).
   * @default - none; the mirrors' certificates are trusted already
   */
  readonly caBundle?: string;
}

/** Where the assisted service finds its mirror registries (`spec.mirrorRegistryRef`). */
export class MirrorRegistryConfig {
  /**
   * A `registries.conf` (containers-registries.conf v2, TOML) and optional CA bundle; hcp-cdk writes
   * them to the ConfigMap `custom-registries` with the label `app: assisted-service`, as docs 5.3.11.1.
   */
  public static fromRegistriesConf(registriesConf: string, options: MirrorRegistryConfigOptions = {}): MirrorRegistryConfig {
    return new MirrorRegistryConfig(registriesConf, options.caBundle, undefined);
  }

  /**
   * A ConfigMap in the assisted service's namespace that already holds `registries.conf` (and,
   * optionally, `ca-bundle.crt`), labelled `app: assisted-service` as docs 5.3.11.1 do.
   */
  public static fromExistingConfigMap(name: string): MirrorRegistryConfig {
    return new MirrorRegistryConfig(undefined, undefined, name);
  }

  private constructor(
    /** The `registries.conf` text, when given. */
    public readonly registriesConf: string | undefined,
    /** The mirror registry's CA bundle, PEM, when given. */
    public readonly caBundle: string | undefined,
    /** The ConfigMap that holds both, when it exists already. */
    public readonly existingConfigMapName: string | undefined,
  ) {}
}

/** Props of AssistedService. */
export interface AssistedServiceProps {
  /**
   * The RHCOS images to boot hosts from: at least one for every OpenShift version and CPU
   * architecture the Agent hosted clusters and node pools run (AG-11).
   */
  readonly osImages: OsImage[];
  /** @default - 10 GiB, the minimum the CRD recommends, ReadWriteOnce in the default storage class */
  readonly databaseStorage?: AssistedServiceStorage;
  /**
   * Logs and per-cluster files: about 200 MB per cluster and 2-3 GiB per OpenShift version.
   * @default - 100 GiB, the minimum the CRD recommends, ReadWriteOnce in the default storage class
   */
  readonly filesystemStorage?: AssistedServiceStorage;
  /**
   * The image service's cache, per replica; at least 2 GiB per entry of `osImages`.
   * @default - none; the image service caches on ephemeral pod storage
   */
  readonly imageStorage?: AssistedServiceStorage;
  /** Mirror registries for disconnected installs. @default - none */
  readonly mirrorRegistries?: MirrorRegistryConfig;
  /**
   * A ConfigMap in the assisted service's namespace with extra settings (log level, ISO type, ...),
   * named by the `unsupported.agent-install.openshift.io/assisted-service-configmap` annotation.
   * @default - none
   */
  readonly assistedServiceConfigMap?: string;
  /**
   * The namespace the assisted service runs in: the MultiClusterEngine's target namespace. The
   * mirror-registry ConfigMap goes there; the namespace itself comes with MCE and is not written.
   * @default 'multicluster-engine'
   */
  readonly namespace?: string;
}

const OPENSHIFT_VERSION = /^\d+\.\d+$/;
const IMAGE_STORAGE_GIB_PER_OS_IMAGE = 2;
const ARCH_OF_NODE_POOL: Record<string, CpuArchitecture> = {
  amd64: CpuArchitecture.X86_64,
  arm64: CpuArchitecture.AARCH64,
  ppc64le: CpuArchitecture.PPC64LE,
  s390x: CpuArchitecture.S390X,
};

/**
 * The AgentServiceConfig (agent-install.openshift.io/v1beta1): deploys the assisted service of MCE,
 * which turns InfraEnvs into discovery images and hosts into Agents. Cluster-scoped and always named
 * `agent` (docs 5.3.11.1 give it a namespace, which a cluster-scoped object does not have), with the mirror-registry
 * ConfigMap beside it when mirrors are given.
 */
export class AssistedService extends Construct {
  /** The namespace the assisted service runs in. */
  public readonly namespace: string;
  /** The AgentServiceConfig object; use it for `addJsonPatch` escape hatches. */
  public readonly resource: ApiObject;
  /** The mirror-registry ConfigMap, when hcp-cdk writes it. */
  public readonly mirrorRegistryConfigMap?: ApiObject;

  private readonly images: readonly { readonly openshiftVersion: string; readonly cpuArchitecture: CpuArchitecture }[];

  /** @param scope usually the ManagementCluster */
  constructor(scope: Construct, id: string, props: AssistedServiceProps) {
    super(scope, id);
    this.namespace = props.namespace ?? MULTICLUSTER_ENGINE_NAMESPACE;
    const problems = new Problems(this);
    problems.require(isDns1123Label(this.namespace), 'namespace', this.namespace, DNS1123_LABEL_RULE);
    this.checkOsImages(problems, props.osImages);
    this.images = props.osImages.map((image) => ({ openshiftVersion: image.openshiftVersion, cpuArchitecture: image.cpuArchitecture ?? CpuArchitecture.X86_64 }));

    const databaseStorage = claim(problems, 'databaseStorage', props.databaseStorage ?? { size: Size.gibibytes(10) });
    const filesystemStorage = claim(problems, 'filesystemStorage', props.filesystemStorage ?? { size: Size.gibibytes(100) });
    const imageStorage = props.imageStorage && claim(problems, 'imageStorage', props.imageStorage);
    if (imageStorage?.quantity && props.osImages.length > 0) {
      const needed = `${props.osImages.length * IMAGE_STORAGE_GIB_PER_OS_IMAGE}Gi`;
      if (imageStorage.quantity.compareTo(Quantity.parse(needed)!) < 0) {
        problems.add(
          `imageStorage.size (${show(imageStorage.size)}) must be at least ${needed}: the image service needs ${IMAGE_STORAGE_GIB_PER_OS_IMAGE} GiB per osImages entry (${props.osImages.length})`,
        );
      }
    }
    if (props.assistedServiceConfigMap !== undefined) {
      problems.require(isDns1123Subdomain(props.assistedServiceConfigMap), 'assistedServiceConfigMap', props.assistedServiceConfigMap, DNS1123_SUBDOMAIN_RULE);
    }
    const mirrorRegistryRef = this.bindMirrorRegistries(problems, props.mirrorRegistries);
    problems.report();
    const mirrors = props.mirrorRegistries;
    if (mirrors?.registriesConf !== undefined) {
      this.mirrorRegistryConfigMap = new ApiObject(this, 'MirrorRegistries', {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        // Labelled as docs 5.3.11.1 do (AG-12); the operator reads it from its own namespace.
        metadata: { name: MIRROR_REGISTRY_CONFIGMAP_NAME, namespace: this.namespace, labels: { app: 'assisted-service' } },
        data: {
          ...(mirrors.caBundle !== undefined ? { 'ca-bundle.crt': mirrors.caBundle } : {}),
          'registries.conf': mirrors.registriesConf,
        },
      });
    }

    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'agent-install.openshift.io/v1beta1',
      kind: 'AgentServiceConfig',
      metadata: {
        name: AGENT_SERVICE_CONFIG_NAME,
        annotations: props.assistedServiceConfigMap ? { [ASSISTED_SERVICE_CONFIGMAP_ANNOTATION]: props.assistedServiceConfigMap } : undefined,
      },
      spec: Lazy.any({
        produce: () => ({
          databaseStorage: databaseStorage.spec,
          filesystemStorage: filesystemStorage.spec,
          imageStorage: imageStorage?.spec,
          mirrorRegistryRef: mirrorRegistryRef ? { name: mirrorRegistryRef } : undefined,
          osImages: props.osImages.map((image) => ({
            openshiftVersion: image.openshiftVersion,
            version: image.version,
            url: image.url,
            rootFSUrl: image.rootFsUrl,
            cpuArchitecture: image.cpuArchitecture ?? CpuArchitecture.X86_64,
          })),
        }),
      }) as unknown,
    });
    this.node.addValidation({ validate: () => [...this.checkReleases(), ...this.checkEngine()] });
  }

  /** Whether `osImages` has an image for this version, of `architecture` when given. */
  public hasOsImage(version: ReleaseVersion, architecture?: CpuArchitecture): boolean {
    const majorMinor = `${version.major}.${version.minor}`;
    return this.images.some((image) => image.openshiftVersion === majorMinor && (architecture === undefined || image.cpuArchitecture === architecture));
  }

  /** Sets a field of the AgentServiceConfig by JSON path, e.g. `addOverride('spec.iPXEHTTPRoute', 'enabled')`. */
  public addOverride(path: string, value: unknown): void {
    this.resource.addJsonPatch(JsonPatch.add(`/${path.split('.').join('/')}`, value));
  }

  private checkOsImages(problems: Problems, images: readonly OsImage[]): void {
    problems.require(images.length > 0, 'osImages', images, 'must list at least one image: the assisted service boots hosts only from these (docs 5.3.11.1)');
    const architectures = Object.values(CpuArchitecture) as string[];
    const first = new Map<string, number>();
    images.forEach((image, i) => {
      const field = `osImages[${i}]`;
      problems.require(OPENSHIFT_VERSION.test(image.openshiftVersion), `${field}.openshiftVersion`, image.openshiftVersion, 'must be major.minor such as "4.17"');
      problems.require(/^\S+$/.test(image.version), `${field}.version`, image.version, 'must be the RHCOS version of the image, such as "417.94.202409121747-0"');
      problems.require(isHttpUrl(image.url), `${field}.url`, image.url, 'must be an http:// or https:// URL');
      if (image.rootFsUrl !== undefined) problems.require(isHttpUrl(image.rootFsUrl), `${field}.rootFsUrl`, image.rootFsUrl, 'must be an http:// or https:// URL');
      const architecture = image.cpuArchitecture ?? CpuArchitecture.X86_64;
      problems.require(architectures.includes(architecture), `${field}.cpuArchitecture`, architecture, `must be one of ${architectures.join(', ')}`);
      const key = `${image.openshiftVersion} ${architecture}`;
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, i);
      else problems.add(`${field} (${image.openshiftVersion} ${architecture}) repeats osImages[${earlier}]; give each OpenShift version and architecture one image`);
    });
  }

  private bindMirrorRegistries(problems: Problems, mirrors: MirrorRegistryConfig | undefined): string | undefined {
    if (!mirrors) return undefined;
    if (mirrors.existingConfigMapName !== undefined) {
      if (!isDns1123Subdomain(mirrors.existingConfigMapName)) {
        problems.add(`mirrorRegistries (MirrorRegistryConfig.fromExistingConfigMap(${show(mirrors.existingConfigMapName)})) must name a ConfigMap: ${DNS1123_SUBDOMAIN_RULE.replace(/^must be /, '')}`);
      }
      return mirrors.existingConfigMapName;
    }
    if (!/^\s*\[\[registry\]\]/m.test(mirrors.registriesConf!)) {
      problems.add('mirrorRegistries (registries.conf text) must contain at least one [[registry]] table (containers-registries.conf v2, as in docs 5.3.11.1)');
    }
    const caProblem = mirrors.caBundle === undefined ? undefined : caBundleProblem('mirrorRegistries.caBundle', mirrors.caBundle);
    if (caProblem) problems.add(caProblem);
    return MIRROR_REGISTRY_CONFIGMAP_NAME;
  }

  /**
   * AG-11: every Agent hosted cluster of this management cluster needs an image for its release's
   * major.minor, and every Agent node pool one for its release and architecture.
   */
  private checkReleases(): string[] {
    const problems: string[] = [];
    const inChart = Chart.of(this).node.findAll();
    const missingClusters = new Set<string>();
    for (const cluster of inChart.filter((c): c is HostedCluster => c instanceof HostedCluster)) {
      const version = cluster.release.version;
      if (cluster.platformType !== PlatformType.AGENT || !version || this.hasOsImage(version)) continue;
      const majorMinor = `${version.major}.${version.minor}`;
      missingClusters.add(`${cluster.node.path} ${majorMinor}`);
      problems.push(
        `osImages has no image for OpenShift ${majorMinor}, the release of HostedCluster ${cluster.node.path} (${cluster.namespace}/${cluster.clusterName}); ` +
          `add one with openshiftVersion "${majorMinor}"`,
      );
    }
    for (const pool of inChart.filter((c): c is NodePool => c instanceof NodePool)) {
      const version = pool.release.version;
      if (pool.cluster.platformType !== PlatformType.AGENT || !version) continue;
      const majorMinor = `${version.major}.${version.minor}`;
      if (missingClusters.has(`${pool.cluster.node.path} ${majorMinor}`)) continue; // reported for its cluster already
      const arch = architectureOf(pool);
      const architecture = arch === undefined ? undefined : ARCH_OF_NODE_POOL[arch];
      if (!architecture || this.hasOsImage(version, architecture)) continue;
      problems.push(
        `osImages has no ${architecture} image for OpenShift ${majorMinor}, the release of NodePool ${pool.node.path} (arch ${arch}); ` +
          `add one with openshiftVersion "${majorMinor}" and cpuArchitecture ${architecture}`,
      );
    }
    return problems;
  }

  /** The MultiClusterEngine of this hub, if declared, must run the assisted service where this expects it. */
  private checkEngine(): string[] {
    const engine = Chart.of(this)
      .node.findAll()
      .find((c): c is MultiClusterEngine => c instanceof MultiClusterEngine);
    if (!engine) return [];
    const problems: string[] = [];
    if (engine.isEnabled(MultiClusterEngineComponent.ASSISTED_SERVICE) === false) {
      problems.push(`the MultiClusterEngine ${engine.node.path} turns component assisted-service off, and nothing serves this AgentServiceConfig; enable the component`);
    }
    if (engine.targetNamespace !== this.namespace) {
      problems.push(
        `namespace (${show(this.namespace)}) must be the target namespace of the MultiClusterEngine ${engine.node.path} (${show(engine.targetNamespace)}), where the assisted service runs`,
      );
    }
    return problems;
  }
}

interface Claim {
  readonly size: string;
  readonly quantity?: Quantity;
  readonly spec: unknown;
}

/** A PersistentVolumeClaim spec from the storage props, with its problems recorded. */
function claim(problems: Problems, field: string, storage: AssistedServiceStorage): Claim {
  const size = typeof storage.size === 'string' ? storage.size : storage.size.asString();
  const quantity = Quantity.parse(size);
  const positive = quantity !== undefined && quantity.sign() > 0;
  problems.require(positive, `${field}.size`, size, 'must be a positive quantity such as "10Gi"');
  if (storage.storageClassName !== undefined) problems.require(isDns1123Subdomain(storage.storageClassName), `${field}.storageClassName`, storage.storageClassName, DNS1123_SUBDOMAIN_RULE);
  const accessModes = storage.accessModes ?? [VolumeAccessMode.READ_WRITE_ONCE];
  const modes = Object.values(VolumeAccessMode) as string[];
  problems.require(accessModes.length > 0 && accessModes.every((m) => modes.includes(m)), `${field}.accessModes`, accessModes, `must list one or more of ${modes.join(', ')}`);
  return {
    size,
    quantity: positive ? quantity : undefined,
    spec: { storageClassName: storage.storageClassName, accessModes, resources: { requests: { storage: size } } },
  };
}

/** The pool's `spec.arch` read back from its object, so that an `addOverride` of it counts too. */
function architectureOf(pool: NodePool): string | undefined {
  try {
    return String((pool.resource.toJson() as { spec?: { arch?: string } }).spec?.arch ?? 'amd64');
  } catch {
    return undefined; // synth reports why the object does not render
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !/\s/.test(text);
  } catch {
    return false;
  }
}
