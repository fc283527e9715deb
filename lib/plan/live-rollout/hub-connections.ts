import { KubeconfigOptions, LiveReadError, ReadOnlyCluster } from '../live/read-only-cluster';
import { PlanInputError } from '../output-snapshot';

/** How the rollout commands reach the management clusters a rollout spans. */
export interface HubConnectionOptions {
  /**
   * The kubeconfig of every management cluster that `hubs` gives none of its own.
   * @default - the files KUBECONFIG names, else ~/.kube/config
   */
  readonly kubeconfig?: string;
  /**
   * The context, for rollouts that span one management folder (`--context admin`): a rollout over
   * several must give each folder its own in `hubs`.
   * @default - see `hubs`
   */
  readonly context?: string;
  /**
   * Per management folder of the output (`hub-0` in `hub-0/clusters/c1`): the kubeconfig and context
   * that reach it (`--context hub-0=admin@hub-0`, `--kubeconfig hub-1=hub-1.kubeconfig`).
   * @default - for each folder, the context of the same name; with one folder, else the current context
   */
  readonly hubs?: Readonly<Record<string, KubeconfigOptions>>;
  /**
   * How long one request may take, in milliseconds.
   * @default 15000
   */
  readonly timeoutMs?: number;
}

/**
 * The kubeconfig and context that reach management folder `folder`: those `hubs` gives it; else
 * the kubeconfig's context named as the folder (a kubeconfig that names its contexts after the
 * clusters needs no flag at all); else, when the rollouts span this folder alone, the current
 * context. Throws LiveReadError, naming the contexts there are, when none fits.
 * @param only whether the rollouts span this management folder alone
 */
export function hubKubeconfig(folder: string, options: HubConnectionOptions, only: boolean): KubeconfigOptions {
  const given = options.hubs?.[folder] ?? {};
  const kubeconfig = given.kubeconfig ?? options.kubeconfig;
  const base: KubeconfigOptions = { ...(kubeconfig !== undefined ? { kubeconfig } : {}), ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
  if (given.context !== undefined) return { ...base, context: given.context };
  if (options.context !== undefined) {
    if (only) return { ...base, context: options.context };
    throw new LiveReadError(
      `--context ${options.context} names no management folder, and the rollouts span several: give each its own, --context ${folder}=<context> (a kubeconfig context named as the folder needs none)`,
    );
  }
  const contexts = ReadOnlyCluster.contexts(kubeconfig);
  if (contexts.names.includes(folder)) return { ...base, context: folder };
  if (only && contexts.current !== undefined) return { ...base, context: contexts.current };
  const known = contexts.names.length > 0 ? `its contexts: ${contexts.names.join(', ')}` : 'it has no context';
  throw new LiveReadError(
    `no context for management folder ${folder}: ${contexts.source} has none named ${folder} (${known}); give one with --context ${folder}=<context> (and --kubeconfig ${folder}=<file> for a kubeconfig of its own)`,
  );
}

/**
 * Throws a PlanInputError when `hubs` names a management folder the rollouts do not span (a misspelt
 * `--context hub-l=admin` would leave hub-1 to the context of its name, or to none).
 * @param spans the management folders of the rollouts' clusters
 */
export function checkHubNames(options: HubConnectionOptions, spans: readonly string[]): void {
  const unknown = Object.keys(options.hubs ?? {}).filter((folder) => !spans.includes(folder));
  if (unknown.length > 0) {
    throw new PlanInputError(
      `--context or --kubeconfig names ${unknown.length === 1 ? 'management folder' : 'management folders'} ${unknown.join(', ')}, which the rollouts do not span (they span ${spans.join(', ') || 'none'})`,
    );
  }
}
