import { HyperShiftVersion, recordedHyperShiftVersion } from '../../release/hypershift-version';
import type { OutputSnapshot } from '../output-snapshot';
import { LiveReadError, ObjectIdentity, ReadOnlyCluster } from './read-only-cluster';

/**
 * Where the HyperShift operator says what it supports: the ConfigMap `supported-versions` in its
 * namespace, `hypershift` (the namespace `GetLatestSupportedOCPVersion` reads, support/supportedversion/version.go;
 * written by `ensureSupportedVersionConfigMap`, hypershift-operator/controllers/supportedversion/reconciler.go).
 */
export const SUPPORTED_VERSIONS_CONFIGMAP: ObjectIdentity = { apiVersion: 'v1', kind: 'ConfigMap', namespace: 'hypershift', name: 'supported-versions' };

/** Where the version rules `plan --live` applied come from. */
export enum HyperShiftVersionSource {
  /** The hub's `supported-versions` ConfigMap: the operator that runs there. */
  CLUSTER = 'cluster',
  /** The output's HostedClusters (`hcp-cdk.io/hypershift-version`), the cluster telling none. */
  OUTPUT = 'output',
  /** Neither tells: HyperShift main's skew rule, as for a management cluster that states no version. */
  DEFAULT = 'default',
}

/** The HyperShift version whose rules `plan --live` applied, and where it comes from. */
export interface LiveHyperShiftVersion {
  /** `4.17`, `mce-2.7` (as `hcp-cdk.io/hypershift-version` writes it); absent with the default. */
  readonly version?: string;
  /** Where it was read. */
  readonly source: HyperShiftVersionSource;
  /** What the output records, when it differs from what the cluster reports. */
  readonly recorded?: string;
  /** The operator's build (`server-version` of the ConfigMap: a HyperShift commit). */
  readonly serverVersion?: string;
  /** One line for people: which rules apply, and why. */
  readonly summary: string;
}

/** What `supported-versions` says: the operator's newest supported minor is the first of `versions`. */
export function hyperShiftOfSupportedVersions(configMap: any): { version?: HyperShiftVersion; serverVersion?: string; problem?: string } {
  const serverVersion = typeof configMap?.data?.['server-version'] === 'string' ? configMap.data['server-version'] : undefined;
  const text = configMap?.data?.['supported-versions'];
  let versions: unknown;
  try {
    versions = typeof text === 'string' ? JSON.parse(text)?.versions : undefined;
  } catch {
    versions = undefined;
  }
  // GetLatestSupportedOCPVersion reads versions[0] as the latest supported; Supported() lists the newest first.
  const latest = Array.isArray(versions) ? versions[0] : undefined;
  const version = typeof latest === 'string' ? HyperShiftVersion.ofOpenShift(latest) : undefined;
  if (!version || version.problem) {
    return {
      serverVersion,
      problem: `its supported-versions data (${JSON.stringify(text ?? null)}) names no HyperShift version hcp-cdk knows (a JSON {"versions": ["4.17", ...]}, newest first, from 4.14)`,
    };
  }
  return { version, serverVersion };
}

/**
 * The HyperShift version of the management cluster `plan --live` reads: the one its operator reports
 * (the `supported-versions` ConfigMap), else the one the new output's HostedClusters of `folder`
 * record, else none (the default rules). A cluster telling another version than the output records
 * wins, and the summary says so.
 */
export async function readHubHyperShiftVersion(cluster: ReadOnlyCluster, folder: string, next: OutputSnapshot): Promise<{ hyperShift?: HyperShiftVersion; report: LiveHyperShiftVersion }> {
  const recorded = recordedIn(folder, next);
  const where = `ConfigMap ${SUPPORTED_VERSIONS_CONFIGMAP.namespace}/${SUPPORTED_VERSIONS_CONFIGMAP.name}`;
  let live: ReturnType<typeof hyperShiftOfSupportedVersions> | undefined;
  let unread: string;
  try {
    const read = await cluster.get(SUPPORTED_VERSIONS_CONFIGMAP);
    live = read.object ? hyperShiftOfSupportedVersions(read.object) : undefined;
    unread = `the cluster has no ${where} (the HyperShift operator writes it in its namespace)`;
  } catch (error) {
    if (!(error instanceof LiveReadError)) throw error;
    unread = /\b403 Forbidden\b/.test(error.message)
      ? `plan --live may not read ${where} (403 Forbidden): grant get on configmaps in namespace ${SUPPORTED_VERSIONS_CONFIGMAP.namespace} to apply the rules of the operator that runs there`
      : `${where} could not be read (${error.message})`;
  }
  if (live?.version) {
    const sameAsRecorded = recorded !== undefined && recorded.sameOperatorAs(live.version);
    // The output's name for the same operator (an MCE version) says more.
    const hyperShift = sameAsRecorded ? recorded : live.version;
    const build = live.serverVersion ? `, build ${live.serverVersion}` : '';
    const differs =
      recorded && !sameAsRecorded
        ? `; the output records ${recorded.name} (hcp-cdk.io/hypershift-version): plan --live applies the rules of the operator that runs; state it on the management cluster (hyperShift: HyperShiftVersion.ofOpenShift('${live.version.record}'))`
        : !recorded
          ? '; the output records none (the management cluster states no hyperShift), so synth and plan apply the default rules: state it on the management cluster'
          : '';
    return {
      hyperShift,
      report: {
        version: hyperShift.record,
        source: HyperShiftVersionSource.CLUSTER,
        ...(recorded && !sameAsRecorded ? { recorded: recorded.record } : {}),
        ...(live.serverVersion ? { serverVersion: live.serverVersion } : {}),
        summary: `${hyperShift.name}, as its ${where} reports${build}${differs}`,
      },
    };
  }
  const why = live?.problem ? `${where}: ${live.problem}` : unread;
  if (recorded) {
    return {
      hyperShift: recorded,
      report: { version: recorded.record, source: HyperShiftVersionSource.OUTPUT, summary: `${recorded.name}, as the output records (hcp-cdk.io/hypershift-version); ${why}` },
    };
  }
  return {
    report: { source: HyperShiftVersionSource.DEFAULT, summary: `HyperShift main's skew rule (hcp-cdk's default): the output records no HyperShift version, and ${why}` },
  };
}

/** The HyperShift version the new output's HostedClusters of `folder` record (the first that records one). */
function recordedIn(folder: string, next: OutputSnapshot): HyperShiftVersion | undefined {
  for (const file of next.filesIn(folder, { below: true, kind: 'hostedcluster' })) {
    const version = recordedHyperShiftVersion(next.object(file));
    if (version) return version;
  }
  return undefined;
}
