import * as fs from 'fs';
import * as path from 'path';
import { ApiObject, Chart } from 'cdk8s';
import { IConstruct } from 'constructs';
import { show } from '../core/problems';
import { SecretMaker, SecretRemoteReference, SecretRequirement, secretRequirementsOf, SecretStoreReference } from '../secrets/secret-requirement';

/**
 * A Secret the output references and does not contain, and what reads it: the requirement (its
 * `keys` are every key the constructs read, the first construct's first) with where and by whom.
 */
export interface SecretsReportEntry extends SecretRequirement {
  /**
   * The cluster the Secret must be in: the id of the chart that reads it, which is that cluster's
   * top output folder (`hub`, or `<cluster>-guest` inside a hosted cluster).
   */
  readonly cluster: string;
  /** The paths of the constructs that read it, sorted. */
  readonly neededBy: readonly string[];
}

/**
 * The Secrets the app's output references but does not contain, one entry per Secret (cluster,
 * namespace, name), sorted by those: Secrets you create (`SecretSource.fromExistingSecret`,
 * `BmcCredentials.fromExistingSecret`) and Secrets that External Secrets or Sealed Secrets make
 * from an object in the output. Secrets written into the output (inline values, the SSH key) and
 * Secrets HyperShift makes (`<cluster>-admin-kubeconfig`) are not listed; neither is a reference
 * that a Secret object of the app satisfies.
 */
export function secretsReport(root: IConstruct): SecretsReportEntry[] {
  return secretsReportOf(root.node.findAll());
}

/** `secretsReport()` of a tree's constructs, `constructs` (all of them). */
export function secretsReportOf(constructs: readonly IConstruct[]): SecretsReportEntry[] {
  const entries = new Map<string, MutableEntry>();
  const written = new Set<string>();
  for (const construct of constructs) {
    if (construct instanceof ApiObject && construct.apiVersion === 'v1' && construct.kind === 'Secret') {
      written.add(secretId(clusterOf(construct), construct.metadata.namespace ?? '', construct.metadata.name ?? ''));
    }
    const requirements = secretRequirementsOf(construct);
    if (requirements.length === 0) continue;
    const cluster = clusterOf(construct);
    for (const requirement of requirements) merge(entries, cluster, construct.node.path, requirement);
  }
  return [...entries.entries()]
    .filter(([id, entry]) => !(entry.madeBy === SecretMaker.YOU && written.has(id)))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, entry]) => ({
      cluster: entry.cluster,
      namespace: entry.namespace,
      name: entry.name,
      type: entry.type,
      keys: entry.keys,
      madeBy: entry.madeBy,
      ...(entry.store ? { store: entry.store } : {}),
      ...(entry.remoteReferences ? { remoteReferences: entry.remoteReferences.map(withoutUndefined) } : {}),
      neededBy: [...entry.neededBy].sort(),
    }));
}

/** Lines printed after a successful synth, or undefined when the output references no Secret it lacks. */
export function formatSecretsReport(entries: readonly SecretsReportEntry[], maxLines = 20): string | undefined {
  if (entries.length === 0) return undefined;
  const lines: string[] = [];
  let shown = 0;
  for (const [maker, heading] of HEADINGS) {
    const group = entries.filter((entry) => entry.madeBy === maker);
    if (group.length === 0) continue;
    lines.push(heading(group.length));
    for (const entry of group) {
      if (shown++ < maxLines) lines.push(`  ${entry.cluster}: ${entry.namespace}/${entry.name} (${describeKeys(entry)}) for ${entry.neededBy.join(', ')}`);
    }
  }
  if (shown > maxLines) lines.push(`  ... and ${shown - maxLines} more: HcpApp.secretsReport() or the secretsReportFile prop lists them all`);
  return lines.join('\n');
}

/** Why `file` cannot hold the JSON report, or undefined: not inside the output, which GitOps engines read. */
export function secretsReportFileProblem(file: string, outdir: string): string | undefined {
  const relative = path.relative(path.resolve(outdir), path.resolve(file));
  const inside = relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  return inside
    ? `HcpApp: secretsReportFile (${show(file)}) must be outside the output directory (${show(outdir)}): GitOps engines would read it as a manifest, and cdk8s synth deletes that directory`
    : undefined;
}

/** Writes the report as JSON (`{ "secrets": [...] }`), creating the folder it goes in. */
export function writeSecretsReport(file: string, entries: readonly SecretsReportEntry[]): void {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ secrets: entries }, undefined, 2)}\n`);
}

const HEADINGS: readonly (readonly [SecretMaker, (count: number) => string])[] = [
  [SecretMaker.YOU, (n) => `${plural(n)} to create yourself (the output references ${n === 1 ? 'it' : 'them'}; nothing in it makes ${n === 1 ? 'it' : 'them'}):`],
  [SecretMaker.EXTERNAL_SECRETS, (n) => `${plural(n)} made by External Secrets (put the values in the store):`],
  [SecretMaker.SEALED_SECRETS, (n) => `${plural(n)} made by Sealed Secrets (from SealedSecrets in the output, sealed for this name and namespace):`],
];

function plural(count: number): string {
  return `${count} Secret${count === 1 ? '' : 's'}`;
}

/** `username, password`; for External Secrets `username: <remote key>#<property>, ...; <store kind> <store>`. */
function describeKeys(entry: SecretsReportEntry): string {
  const remote = new Map((entry.remoteReferences ?? []).map((ref) => [ref.secretKey, ref]));
  const keys = entry.keys
    .map((key) => {
      const ref = remote.get(key);
      return ref ? `${key}: ${ref.remoteKey}${ref.remoteProperty !== undefined ? `#${ref.remoteProperty}` : ''}` : key;
    })
    .join(', ');
  return entry.store ? `${keys}; ${entry.store.kind} ${entry.store.name}` : keys;
}

interface MutableEntry {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
  type: string;
  keys: string[];
  madeBy: SecretMaker;
  store?: SecretStoreReference;
  remoteReferences?: readonly SecretRemoteReference[];
  readonly neededBy: Set<string>;
}

/** Adds one construct's requirement; a Secret some source makes is made, whoever else only references it. */
function merge(entries: Map<string, MutableEntry>, cluster: string, consumer: string, requirement: SecretRequirement): void {
  const id = secretId(cluster, requirement.namespace, requirement.name);
  let entry = entries.get(id);
  if (entry === undefined) {
    entry = { cluster, namespace: requirement.namespace, name: requirement.name, type: requirement.type, keys: [], madeBy: SecretMaker.YOU, neededBy: new Set() };
    entries.set(id, entry);
  }
  if (entry.madeBy === SecretMaker.YOU && requirement.madeBy !== SecretMaker.YOU) {
    entry.madeBy = requirement.madeBy;
    entry.type = requirement.type;
    entry.store = requirement.store;
    entry.remoteReferences = requirement.remoteReferences;
  }
  for (const key of requirement.keys) if (!entry.keys.includes(key)) entry.keys.push(key);
  entry.neededBy.add(consumer);
}

/** Sorts by cluster, namespace, name. */
function secretId(cluster: string, namespace: string, name: string): string {
  return `${cluster}\u0000${namespace}\u0000${name}`;
}

function clusterOf(construct: IConstruct): string {
  try {
    return Chart.of(construct).node.id;
  } catch {
    // Not in a chart: its objects reach no cluster, so its Secrets are listed without one.
    return '';
  }
}

function withoutUndefined(ref: SecretRemoteReference): SecretRemoteReference {
  return ref.remoteProperty === undefined ? { secretKey: ref.secretKey, remoteKey: ref.remoteKey } : ref;
}
