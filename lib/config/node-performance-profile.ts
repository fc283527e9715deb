import * as pp from '../../imports/performanceprofile-performance.openshift.io';
import { HostedCluster } from '../core/hosted-cluster';
import { NodeConfigMap } from './node-config-map';

/** CPUs of each role, as Linux CPU lists (`0-1,4`). */
export interface PerformanceProfileCpus {
  /** CPUs for housekeeping (kubelet, system daemons). */
  readonly reserved: string;
  /** CPUs for guaranteed low-latency workloads. */
  readonly isolated: string;
  /** CPUs taken offline. @default - none */
  readonly offlined?: string;
}

/** Props of NodePerformanceProfile. */
export interface NodePerformanceProfileProps {
  /** The ConfigMap's and the PerformanceProfile's name. @default - `<cluster name>-<id>` */
  readonly name?: string;
  /** The reserved and isolated CPUs (and optionally offlined ones). */
  readonly cpu: PerformanceProfileCpus;
  /** @default - none */
  readonly hugepages?: pp.PerformanceProfileV2SpecHugepages;
  /** @default - the real-time kernel off */
  readonly realTimeKernel?: boolean;
  /** @default - the NUMA topology manager's best-effort */
  readonly numa?: pp.PerformanceProfileV2SpecNuma;
  /** @default - NTO's defaults */
  readonly workloadHints?: pp.PerformanceProfileV2SpecWorkloadHints;
  /** @default - none */
  readonly additionalKernelArgs?: string[];
  /**
   * The profile's node selector (required by the API); HyperShift applies the profile to the pools
   * that reference it whatever it says.
   * @default { 'node-role.kubernetes.io/worker': '' }
   */
  readonly nodeSelector?: Record<string, string>;
}

/**
 * A PerformanceProfile (performance.openshift.io/v2) for node pools, in a ConfigMap `spec.tuningConfig`
 * references (key `tuning`); HyperShift takes one per pool, several pools may share it.
 */
export class NodePerformanceProfile extends NodeConfigMap {
  public readonly kinds = ['PerformanceProfile'] as const;

  constructor(cluster: HostedCluster, id: string, props: NodePerformanceProfileProps) {
    super(cluster, id, props.name);
    const problems = this.problems;
    const name = this.configMapName;
    const sets: Record<string, Set<number> | undefined> = {};
    for (const role of ['reserved', 'isolated', 'offlined'] as const) {
      const list = props.cpu?.[role];
      if (list === undefined && role === 'offlined') continue;
      sets[role] = parseCpuList(list);
      problems.require(sets[role] !== undefined, `cpu.${role}`, list, 'must be a Linux CPU list such as "0-1,4"');
    }
    const roles = Object.keys(sets);
    for (let i = 0; i < roles.length; i++) {
      for (let j = i + 1; j < roles.length; j++) {
        const shared = [...(sets[roles[i]] ?? [])].filter((cpu) => sets[roles[j]]?.has(cpu));
        if (shared.length > 0)
          problems.add(
            `cpu.${roles[i]} (${JSON.stringify(props.cpu[roles[i] as 'reserved'])}) and cpu.${roles[j]} (${JSON.stringify(props.cpu[roles[j] as 'reserved'])}) share CPU ${shared[0]}; each CPU has one role`,
          );
      }
    }
    problems.report();
    const object = () => ({
      ...pp.PerformanceProfileV2.GVK,
      ...pp.toJson_PerformanceProfileV2Props({
        metadata: { name },
        spec: {
          cpu: { reserved: props.cpu.reserved, isolated: props.cpu.isolated, offlined: props.cpu.offlined },
          hugepages: props.hugepages,
          realTimeKernel: props.realTimeKernel !== undefined ? { enabled: props.realTimeKernel } : undefined,
          numa: props.numa,
          workloadHints: props.workloadHints,
          additionalKernelArgs: props.additionalKernelArgs,
          nodeSelector: props.nodeSelector ?? { 'node-role.kubernetes.io/worker': '' },
        },
      }),
    });
    this.writeConfigMap('tuning', () => [object()]);
  }
}

/** The CPUs of a Linux CPU list (`0-3,8,10-11`), or undefined when it is malformed. */
function parseCpuList(list: string | undefined): Set<number> | undefined {
  if (typeof list !== 'string' || !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(list)) return undefined;
  const cpus = new Set<number>();
  for (const part of list.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (to < from) return undefined;
    for (let cpu = from; cpu <= to; cpu++) cpus.add(cpu);
  }
  return cpus;
}
