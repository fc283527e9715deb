import * as kc from '../../imports/kubeletconfig-machineconfiguration.openshift.io';
import * as mc from '../../imports/machineconfig-machineconfiguration.openshift.io';
import { HostedCluster } from '../core/hosted-cluster';
import { DNS1123_SUBDOMAIN_RULE, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';
import { NodeConfigMap } from './node-config-map';

/** The Ignition version of the MachineConfig HyperShift's docs embed (9.1). */
const IGNITION_VERSION = '3.2.0';
const ROLE_LABEL = 'machineconfiguration.openshift.io/role';
const UNIT_SUFFIX = /\.(service|socket|timer|mount|automount|path|target|slice|scope|swap|device)$/;

/** The kernel a node boots (`spec.kernelType`). */
export enum KernelType {
  /** The standard kernel. */
  DEFAULT = 'default',
  /** The real-time kernel. */
  REALTIME = 'realtime',
  /** aarch64 only. */
  PAGES_64K = '64k-pages',
}

/** A file written on every node of the pools that use the configuration. */
export interface MachineFile {
  /** Absolute path on the node. */
  readonly path: string;
  /** The file's text; stored as a base64 data URL. */
  readonly contents: string;
  /** @default 0o644 */
  readonly mode?: number;
}

/** A drop-in file for a systemd unit (`<unit>.d/<name>`). */
export interface SystemdDropin {
  /** e.g. `10-timeout.conf`. */
  readonly name: string;
  /** The drop-in's text. */
  readonly contents: string;
}

/** A systemd unit on every node of the pools that use the configuration. */
export interface SystemdUnit {
  /** e.g. `chronyd-wait.service`. */
  readonly name: string;
  /** The unit file. @default - the unit exists already (give drop-ins, enabled or mask) */
  readonly contents?: string;
  /** @default - systemd's [Install] defaults */
  readonly enabled?: boolean;
  /** @default false */
  readonly mask?: boolean;
  /** @default - none */
  readonly dropins?: SystemdDropin[];
}

/** Props of MachineConfiguration. */
export interface MachineConfigurationProps {
  /**
   * The name of the ConfigMap, the MachineConfig and the KubeletConfig, unless `configMapName`,
   * `machineConfigName` or `kubeletConfigName` name one of them apart.
   * @default - `<cluster name>-<id>`
   */
  readonly name?: string;
  /** The ConfigMap's name, which the NodePool's `spec.config` references (docs 9.1: `chrony-config`). @default - `name` */
  readonly configMapName?: string;
  /** The embedded MachineConfig's name (docs 9.1: `99-worker-chrony`). @default - `name`, else the ConfigMap's name */
  readonly machineConfigName?: string;
  /** The embedded KubeletConfig's name. @default - `name`, else the ConfigMap's name */
  readonly kubeletConfigName?: string;
  /** @default - none */
  readonly files?: MachineFile[];
  /** @default - none */
  readonly units?: SystemdUnit[];
  /** Kernel arguments, one per entry, e.g. `'nosmt'`, `'hugepagesz=1G'`. @default - none */
  readonly kernelArguments?: string[];
  /** RHCOS extensions, e.g. `'usbguard'`. @default - none */
  readonly extensions?: string[];
  /** @default - the release's default kernel */
  readonly kernelType?: KernelType;
  /**
   * KubeletConfiguration fields (e.g. `{ maxPods: 500 }`), as a KubeletConfig in the same ConfigMap;
   * HyperShift points its pool selector at the pool.
   * @default - none
   */
  readonly kubeletConfig?: Record<string, unknown>;
  /**
   * Further MachineConfig spec fields, typed from the CRD, merged with the above. Fields HyperShift
   * does not apply (fips, osImageURL, baseOSExtensionsContainerImage, Ignition disks, filesystems,
   * directories, links, users) are problems.
   * @default - none
   */
  readonly machineConfigSpec?: mc.MachineConfigSpec;
}

/** The Ignition sections the MCO does not apply on running nodes, and what to do instead. */
const UNSUPPORTED_IGNITION: Readonly<Record<string, string>> = {
  'storage.disks': 'the MCO does not partition disks of running nodes',
  'storage.raid': 'the MCO does not build RAID on running nodes',
  'storage.filesystems': 'the MCO does not create filesystems on running nodes',
  'storage.directories': "the MCO writes files only; a file's directories are created with it",
  'storage.links': 'the MCO writes files only',
  passwd: 'HyperShift manages the core user; set sshKey on the HostedCluster',
};
const UNSUPPORTED_SPEC: Readonly<Record<string, string>> = {
  fips: 'set fips on the HostedCluster',
  osImageUrl: "the OS image comes from the NodePool's release",
  baseOsExtensionsContainerImage: "the extensions image comes from the NodePool's release",
};

/**
 * A MachineConfig (and optionally a KubeletConfig) for node pools, in the ConfigMap `spec.config`
 * references (key `config`, docs 9.1), with the worker role label HyperShift expects. Give it to
 * `addNodePool(..., { machineConfigs: [it] })`; several pools may share it. A change rolls the pools out.
 */
export class MachineConfiguration extends NodeConfigMap {
  public readonly kinds: readonly string[];
  /** `metadata.name` of the embedded MachineConfig. */
  public readonly machineConfigName: string;
  /** `metadata.name` of the embedded KubeletConfig. */
  public readonly kubeletConfigName: string;

  constructor(cluster: HostedCluster, id: string, props: MachineConfigurationProps) {
    super(cluster, id, props.configMapName ?? props.name, props.configMapName !== undefined ? 'configMapName' : 'name');
    const problems = this.problems;
    this.machineConfigName = props.machineConfigName ?? props.name ?? this.configMapName;
    this.kubeletConfigName = props.kubeletConfigName ?? props.name ?? this.configMapName;
    // Checked apart from the ConfigMap's: the MCO refuses a MachineConfig or KubeletConfig whose name is no DNS subdomain.
    for (const field of ['machineConfigName', 'kubeletConfigName'] as const) {
      if (props[field] !== undefined) problems.require(isDns1123Subdomain(props[field]), field, props[field], DNS1123_SUBDOMAIN_RULE);
    }
    const extra = props.machineConfigSpec ?? {};
    const machineConfig = [props.files, props.units, props.kernelArguments, props.extensions, props.kernelType, ...Object.values(extra)].some((v) => v !== undefined);
    if (!machineConfig && props.kubeletConfig === undefined)
      problems.add('props (nothing to configure) must give files, units, kernelArguments, extensions, kernelType, kubeletConfig or machineConfigSpec');
    this.checkFiles(problems, props.files ?? []);
    this.checkUnits(problems, props.units ?? []);
    (props.kernelArguments ?? []).forEach((arg, i) => problems.require(/^\S+$/.test(arg), `kernelArguments[${i}]`, arg, 'must be one kernel argument without spaces; give each its own entry'));
    if (props.kernelType !== undefined)
      problems.require(Object.values(KernelType).includes(props.kernelType), 'kernelType', props.kernelType, `must be one of ${Object.values(KernelType).join(', ')}`);
    for (const [field, why] of Object.entries(UNSUPPORTED_SPEC)) {
      const value = (extra as Record<string, unknown>)[field];
      if (value !== undefined) problems.add(`machineConfigSpec.${field} (${show(value)}) is not applied by HyperShift to node pools: ${why}`);
    }
    for (const [field, why] of Object.entries(UNSUPPORTED_IGNITION)) {
      const value = field.split('.').reduce<any>((at, key) => at?.[key], extra.config);
      if (value !== undefined) problems.add(`machineConfigSpec.config.${field} (${show(value)}) is not applied to hosted cluster nodes: ${why}`);
    }
    for (const field of ['kernelArguments', 'extensions', 'kernelType'] as const) {
      if (props[field] !== undefined && extra[field] !== undefined) problems.add(`machineConfigSpec.${field} (${show(extra[field])}) repeats ${field}; give it once`);
    }
    if (extra.config?.storage?.files !== undefined && props.files !== undefined) problems.add('machineConfigSpec.config.storage.files repeats files; give them once');
    if (extra.config?.systemd?.units !== undefined && props.units !== undefined) problems.add('machineConfigSpec.config.systemd.units repeats units; give them once');
    // Bad names would be reported again by the schema check of the objects they name.
    const broken = problems.report();

    this.kinds = [...(machineConfig ? ['MachineConfig'] : []), ...(props.kubeletConfig !== undefined ? ['KubeletConfig'] : [])];
    const objects = (): unknown[] => [
      ...(machineConfig
        ? [{ ...mc.MachineConfig.GVK, ...mc.toJson_MachineConfigProps({ metadata: { name: this.machineConfigName, labels: { [ROLE_LABEL]: 'worker' } }, spec: this.spec(props) }) }]
        : []),
      ...(props.kubeletConfig !== undefined
        ? [{ ...kc.KubeletConfig.GVK, ...kc.toJson_KubeletConfigProps({ metadata: { name: this.kubeletConfigName }, spec: { kubeletConfig: props.kubeletConfig } }) }]
        : []),
    ];
    if (!broken) this.writeConfigMap('config', objects);
  }

  private spec(props: MachineConfigurationProps): mc.MachineConfigSpec {
    const extra = props.machineConfigSpec ?? {};
    const given = extra.config ?? {};
    const files = props.files?.map((f) => ({
      path: f.path,
      mode: f.mode ?? 0o644,
      overwrite: true,
      contents: { source: `data:text/plain;charset=utf-8;base64,${Buffer.from(f.contents, 'utf8').toString('base64')}` },
    }));
    const units = props.units?.map((u) => ({ name: u.name, contents: u.contents, enabled: u.enabled, mask: u.mask, dropins: u.dropins?.map((d) => ({ name: d.name, contents: d.contents })) }));
    return {
      ...extra,
      config: {
        ...given,
        ignition: { version: IGNITION_VERSION, ...given.ignition },
        storage: files ? { ...given.storage, files } : given.storage,
        systemd: units ? { ...given.systemd, units } : given.systemd,
      },
      kernelArguments: props.kernelArguments ?? extra.kernelArguments,
      extensions: props.extensions ?? extra.extensions,
      kernelType: props.kernelType ?? extra.kernelType,
    };
  }

  private checkFiles(problems: Problems, files: readonly MachineFile[]): void {
    const seen = new Set<string>();
    files.forEach((file, i) => {
      const p = problems.within(`files[${i}]`);
      if (
        p.require(
          typeof file.path === 'string' && file.path.startsWith('/') && !file.path.split('/').includes('..') && !file.path.endsWith('/'),
          'path',
          file.path,
          'must be an absolute file path without ".."',
        )
      ) {
        p.require(!seen.has(file.path), 'path', file.path, 'is written by an earlier file');
        seen.add(file.path);
      }
      p.require(typeof file.contents === 'string', 'contents', file.contents, "must be the file's text");
      if (file.mode !== undefined)
        p.require(Number.isInteger(file.mode) && file.mode >= 0 && file.mode <= 0o7777, 'mode', file.mode, 'must be a file mode from 0 to 0o7777 (a number such as 0o644, not the string "0644")');
    });
  }

  private checkUnits(problems: Problems, units: readonly SystemdUnit[]): void {
    const seen = new Set<string>();
    units.forEach((unit, i) => {
      const p = problems.within(`units[${i}]`);
      if (
        p.require(
          typeof unit.name === 'string' && UNIT_SUFFIX.test(unit.name) && !unit.name.includes('/'),
          'name',
          unit.name,
          'must be a systemd unit name such as chronyd.service (.service, .socket, .timer, .mount, .path, .target, ...)',
        )
      ) {
        p.require(!seen.has(unit.name), 'name', unit.name, 'is given by an earlier unit');
        seen.add(unit.name);
      }
      if (unit.contents === undefined && unit.dropins === undefined && unit.enabled === undefined && unit.mask === undefined) {
        p.add('contents (undefined) must be given, or dropins, enabled or mask for an existing unit');
      }
    });
  }
}
