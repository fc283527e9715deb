import { AvailabilityPolicy } from '../core/availability-policy';
import type { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { ManagementCluster } from '../core/management-cluster';
import { HcpValidationError, Problems, reportProblems } from '../core/problems';
import { Release } from '../core/release';
import { isPlainObject } from '../core/runtime-props';
import { SshPublicKey } from '../core/ssh-public-key';
import { existingSecretWithDerivedName, SecretSource } from '../secrets/secret-source';
import { ManifestDocuments, readManifestFile } from '../validation/manifest-files';
import { ObjectValidator } from '../validation/object-validator';
import { SchemaCatalog } from '../validation/schema-catalog';
import { formatProblem } from '../validation/validation-problem';
import { FLEET_INVENTORY_CRD, FleetClusterDefaults, FleetClusterSpec, FleetInventory } from './fleet-inventory';
import { FLEET_PLATFORMS } from './fleet-platforms';

/**
 * Many hosted clusters, on several management clusters, from typed data: an inventory in code
 * (`Fleet.fromInventory`) or a YAML/JSON file (`Fleet.fromFile`) checked against its schema first.
 * Each cluster is its defaults (fleet-wide, then its management cluster's) with its own fields on
 * top, and becomes the same constructs a hand-written app would use.
 */
export class Fleet {
  /**
   * Builds the fleet's constructs in `app`. The inventory is checked against the same schema as
   * an inventory file first, so that JavaScript and JSON callers get every missing or mistyped
   * field by path rather than a TypeError.
   */
  public static fromInventory(app: Construct, inventory: FleetInventory): Fleet {
    const document = { apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'Fleet', metadata: { name: 'inventory' }, spec: inventory };
    checkInventory(document, 'Fleet.fromInventory');
    return new Fleet(app, inventory);
  }

  /**
   * Reads an inventory file: `apiVersion: hcp-cdk.io/v1alpha1`, `kind: Fleet`, `metadata.name`,
   * `spec` a FleetInventory. It is read as `hcp-cdk validate` reads manifests (a duplicated key, a
   * syntax error or aliases that expand past 100,000 values are problems of the file), and every
   * schema problem of the file is reported at once, by field path.
   */
  public static fromFile(app: Construct, file: string): Fleet {
    const document = readInventoryFile(file);
    checkInventory(document, file);
    return new Fleet(app, document.spec as FleetInventory);
  }

  /** The management clusters, by name. */
  public readonly managementClusters = new Map<string, ManagementCluster>();
  /** The hosted clusters, by `<management cluster>/<name>`. */
  public readonly clusters = new Map<string, HostedCluster>();

  private constructor(app: Construct, inventory: FleetInventory) {
    const problems: string[] = [];
    for (const management of inventory.managementClusters) {
      const hub = new ManagementCluster(app, management.name);
      this.managementClusters.set(management.name, hub);
      const defaults = merge(inventory.defaults ?? {}, management.defaults ?? {});
      for (const own of management.clusters) {
        const spec = merge(defaults, own) as FleetClusterSpec;
        const clusterProblems = new Problems(`${hub.node.path}/${spec.name}`);
        try {
          const cluster = buildCluster(hub, spec, clusterProblems);
          if (cluster) this.clusters.set(`${management.name}/${spec.name}`, cluster);
        } catch (error) {
          // Every cluster is built, so that one synth reports the problems of all of them.
          problems.push(...((error as HcpValidationError).problems ?? [(error as Error).message]));
        }
        problems.push(...clusterProblems.all);
      }
    }
    // In an HcpApp, reported at synth with the problems of every object of the app.
    reportProblems(app, problems);
  }
}

/** The cluster of `spec` on `hub`, or undefined after recording in `problems` why it cannot be built. */
function buildCluster(hub: ManagementCluster, spec: FleetClusterSpec, problems: Problems): HostedCluster | undefined {
  const builder = FLEET_PLATFORMS[spec.platform ?? 'None'];
  if (!spec.releaseImage) problems.add('releaseImage (undefined) must be given, for the cluster or in defaults');
  const platform = builder.cluster(spec, problems);
  if (!spec.releaseImage || !platform) return undefined;
  const release = Release.fromImage(spec.releaseImage, spec.releaseVersion ? { version: spec.releaseVersion } : {});
  const cluster = new HostedCluster(hub, spec.name, {
    namespace: spec.namespace,
    release,
    baseDomain: spec.baseDomain,
    // A name derived from the cluster's is checked with it, not a second time.
    pullSecret: spec.pullSecretName ? SecretSource.fromExistingSecret(spec.pullSecretName) : existingSecretWithDerivedName(`${spec.name}-pull-secret`),
    sshKey: spec.sshPublicKey ? SshPublicKey.fromString(spec.sshPublicKey) : undefined,
    controllerAvailabilityPolicy: (spec.availabilityPolicy ?? 'HighlyAvailable') as AvailabilityPolicy,
    networking: spec.networking,
    platform,
  });
  for (const pool of spec.nodePools ?? [{ name: 'workers' }]) {
    const options = builder.pool(spec, pool, problems);
    if (options) cluster.addNodePool(pool.name, options);
  }
  builder.addExtras?.(cluster, spec);
  return cluster;
}

/** The one document of an inventory file; throws why the file holds none that can be read. */
function readInventoryFile(file: string): any {
  let read: ManifestDocuments;
  try {
    read = readManifestFile(file);
  } catch (error) {
    throw new HcpValidationError([`Fleet.fromFile: ${(error as Error).message}`]);
  }
  if (read.problems.length > 0) throw new HcpValidationError(read.problems.map(formatProblem));
  if (read.documents.length !== 1) {
    throw new HcpValidationError([`${file}: holds ${read.documents.length} documents; an inventory file holds one Fleet (apiVersion hcp-cdk.io/v1alpha1)`]);
  }
  return read.documents[0];
}

/** Throws every problem of an inventory document against the inventory schema, by field path. */
function checkInventory(document: unknown, source: string): void {
  const catalog = SchemaCatalog.bundled().addCustomResourceDefinitions([FLEET_INVENTORY_CRD], 'hcp-cdk');
  const problems = new ObjectValidator({ catalog }).validate(document, { source });
  if (problems.length > 0) throw new HcpValidationError(problems.map(formatProblem));
}

/** `base` with `over` on top: objects merge key by key, lists and scalars are replaced. */
function merge(base: FleetClusterDefaults, over: FleetClusterDefaults): FleetClusterDefaults {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? merge(current as FleetClusterDefaults, value as FleetClusterDefaults) : value;
  }
  return out as FleetClusterDefaults;
}
