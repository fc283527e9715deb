import { ApiObject, Chart } from 'cdk8s';
import { Construct } from 'constructs';
import { ManagementCluster } from '../core/management-cluster';
import { Problems, show } from '../core/problems';
import { addPlainKeys } from '../secrets/plain-keys';
import type { ISecretSource } from '../secrets/secret-source';

/** The label that puts a hub Secret into the ACM hub backup. */
const BACKUP_LABEL = 'cluster.open-cluster-management.io/backup';

/**
 * A hub Secret the hypershift-addon reads by a fixed name, from `local-cluster`: an AWS credentials
 * file through a SecretSource plus plain, non-secret keys (bucket, region, provider, ...).
 */
export interface HubCredentialsSecretOptions {
  readonly secretName: string;
  readonly namespace: string;
  /** The value of the backup label; the docs use "true" for one Secret and "" for the other. */
  readonly backupLabelValue: string;
  readonly credentials: ISecretSource;
  readonly plainKeys: Readonly<Record<string, string>>;
}

/** Records a problem unless `scope` is in a ManagementCluster chart. */
export function requireManagementCluster(scope: Construct, namespace: string, problems: Problems): void {
  // Not `instanceof`: cdk8s's Chart[Symbol.hasInstance] makes every Chart an instance of every Chart subclass.
  if (!Object.prototype.isPrototypeOf.call(ManagementCluster.prototype, chartOf(scope) ?? {})) {
    problems.add(`must be declared in a ManagementCluster (it is in ${chartOf(scope)?.node.path || 'no chart'}): the Secret belongs to the hub's ${namespace} namespace`);
  }
}

/**
 * Binds the credentials under `scope` (child `Resource`) and adds the plain keys to the one object
 * the source made, so that it makes the whole Secret. Returns that object, or undefined when the
 * Secret exists already; records every problem in `problems`.
 */
export function bindHubCredentialsSecret(scope: Construct, problems: Problems, options: HubCredentialsSecretOptions): ApiObject | undefined {
  const binding = options.credentials.bind(scope, 'Resource', {
    field: 'credentials',
    defaultName: options.secretName,
    namespace: options.namespace,
    key: 'credentials',
    // An existing Secret carries the plain keys itself; the secrets report lists them.
    otherKeys: Object.keys(options.plainKeys),
    type: 'Opaque',
    labels: { [BACKUP_LABEL]: options.backupLabelValue },
    checkValue: checkCredentialsFile,
  });
  if (binding.problem) problems.add(binding.problem);
  if (binding.secretName !== options.secretName) {
    problems.add(`credentials (Secret ${show(binding.secretName)}) must be the Secret ${show(options.secretName)}: the hypershift-addon reads no other name`);
  }
  const made = scope.node.findAll().filter((c): c is ApiObject => c instanceof ApiObject);
  if (made.length === 1 && addPlainKeys(made[0], options.plainKeys)) return made[0];
  if (made.length > 0) {
    problems.add(
      `credentials (a source that writes ${made.map((o) => o.kind).join(', ')}) cannot carry the ${Object.keys(options.plainKeys).join(' and ')} keys; ` +
        'use SecretSource.fromExistingSecret, fromExternalSecret, fromSealedSecret or fromInlineValue',
    );
  }
  return undefined;
}

/**
 * Why an inline credentials file is unusable, or undefined: HyperShift uses the `[default]`
 * profile only, so it must hold the access key pair.
 */
export function checkCredentialsFile(value: Buffer): string | undefined {
  let profile: string | undefined;
  const keys = new Set<string>();
  for (const raw of value.toString('utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[\s*([^\]]*?)\s*\]$/.exec(line);
    if (header) profile = header[1];
    else if (profile === 'default') {
      const setting = /^([A-Za-z0-9_]+)\s*=\s*\S/.exec(line);
      if (setting) keys.add(setting[1].toLowerCase());
    }
  }
  if (keys.has('aws_access_key_id') && keys.has('aws_secret_access_key')) return undefined;
  return 'credentials (inline value) must be an AWS credentials file whose [default] profile sets aws_access_key_id and aws_secret_access_key; HyperShift reads only the default profile (docs 3.1.2)';
}

export function chartOf(construct: Construct): Chart | undefined {
  try {
    return Chart.of(construct);
  } catch {
    return undefined;
  }
}
