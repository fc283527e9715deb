import { AvailabilityPolicy } from '../core/availability-policy';
import type { Construct } from 'constructs';
import { HostedCluster } from '../core/hosted-cluster';
import { ManagementCluster } from '../core/management-cluster';
import { HcpValidationError, Problems, reportProblems } from '../core/problems';
import { HyperShiftVersion } from '../release/hypershift-version';
import { Release } from '../release/release';
import * as path from 'path';
import { Duration } from 'cdk8s';
import { ReleaseRollout, RolloutFailurePolicy, RolloutPausePolicy } from '../release/release-rollout';
import { RolloutNewClusters } from '../release/rollout-membership';
import { RolloutState } from '../release/rollout-state';
import { UpdateGraph } from '../release/update-graph';
import { RolloutWave, RolloutWaveOptions } from '../release/rollout-wave';
import { readPathOutsideProblem } from '../core/path-part';
import { isPlainObject } from '../core/runtime-props';
import { SshPublicKey } from '../core/ssh-public-key';
import { existingSecretWithDerivedName, SecretSource } from '../secrets/secret-source';
import { ManifestDocuments, readManifestFile } from '../validation/manifest-files';
import { ObjectValidator } from '../validation/object-validator';
import { SchemaCatalog } from '../validation/schema-catalog';
import { formatProblem } from '../validation/validation-problem';
import { FLEET_INVENTORY_CRD, FleetClusterDefaults, FleetClusterSpec, FleetInventory, FleetRolloutSpec, FleetRolloutWaveSpec } from './fleet-inventory';
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
    return new Fleet(app, inventory, process.cwd());
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
    return new Fleet(app, document.spec as FleetInventory, path.dirname(file));
  }

  /** The management clusters, by name. */
  public readonly managementClusters = new Map<string, ManagementCluster>();
  /** The hosted clusters, by `<management cluster>/<name>`. */
  public readonly clusters = new Map<string, HostedCluster>();
  /** The release rollouts, by name. */
  public readonly rollouts = new Map<string, ReleaseRollout>();

  /**
   * @param base the folder the inventory's file paths (stateFile, updateGraphs) are relative to
   */
  private constructor(app: Construct, inventory: FleetInventory, base: string) {
    const problems: string[] = [];
    for (const [i, graph] of (inventory.updateGraphs ?? []).entries()) {
      const file = inventoryFile(base, `updateGraphs[${i}].file`, graph.file, (problem) => problems.push(problem));
      if (file === undefined) continue;
      try {
        new UpdateGraph(app, `update-graph-${graph.channel}`, { channel: graph.channel, file });
      } catch (error) {
        problems.push(...((error as HcpValidationError).problems ?? [(error as Error).message]));
      }
    }
    // Before the clusters, which join their rollout as they are made.
    this.buildRollouts(app, inventory.rollouts ?? [], problems, base);
    // A rollout named twice is a problem of its own (see buildRollouts): its first spec covers clusters.
    const rolloutSpecs = (inventory.rollouts ?? []).filter((spec, i, all) => all.findIndex((other) => other.name === spec.name) === i);
    const covered = new Map<string, string[]>();
    for (const management of inventory.managementClusters) {
      const hyperShift = management.hyperShift;
      const hub = new ManagementCluster(app, management.name, {
        hyperShift:
          hyperShift?.openShift !== undefined
            ? HyperShiftVersion.ofOpenShift(hyperShift.openShift)
            : hyperShift?.multiClusterEngine !== undefined
              ? HyperShiftVersion.ofMultiClusterEngine(hyperShift.multiClusterEngine)
              : undefined,
      });
      this.managementClusters.set(management.name, hub);
      const defaults = merge(inventory.defaults ?? {}, management.defaults ?? {});
      for (const own of management.clusters) {
        const spec = merge(defaults, own) as FleetClusterSpec;
        const clusterProblems = new Problems(`${hub.node.path}/${spec.name}`);
        const covering = rolloutSpecs.filter((r) => Object.entries(r.clusterLabels ?? {}).every(([key, value]) => spec.labels?.[key] === value));
        for (const r of covering) covered.set(r.name, [...(covered.get(r.name) ?? []), `${management.name}/${spec.name}`]);
        try {
          const cluster = buildCluster(hub, spec, clusterProblems, covering.length === 1 ? this.rollouts.get(covering[0].name) : undefined);
          if (cluster) this.clusters.set(`${management.name}/${spec.name}`, cluster);
        } catch (error) {
          // Every cluster is built, so that one synth reports the problems of all of them.
          problems.push(...((error as HcpValidationError).problems ?? [(error as Error).message]));
        }
        problems.push(...clusterProblems.all);
      }
    }
    problems.push(...overlaps(rolloutSpecs, covered));
    // In an HcpApp, reported at synth with the problems of every object of the app.
    reportProblems(app, problems);
  }

  /** The inventory's rollouts, each after the ones it waits for (`after`), which it is given. */
  private buildRollouts(app: Construct, specs: readonly FleetRolloutSpec[], problems: string[], base: string): void {
    const byName = new Map(specs.map((spec) => [spec.name, spec]));
    // Rollouts being made (waiting for the ones they name in after) and made or failed.
    const building = new Set<string>();
    const done = new Set<string>();
    const build = (spec: FleetRolloutSpec): ReleaseRollout | undefined => {
      if (done.has(spec.name) || building.has(spec.name)) return this.rollouts.get(spec.name);
      building.add(spec.name);
      const rolloutProblems = new Problems(spec.name);
      const after: ReleaseRollout[] = [];
      for (const name of spec.after ?? []) {
        const other = byName.get(name);
        if (!other) rolloutProblems.add(`after (${JSON.stringify(name)}) names no rollout of the inventory; give the name of one of its rollouts`);
        else if (building.has(name)) rolloutProblems.add(`after (${JSON.stringify(name)}) waits for a rollout that waits for this one in turn; rollouts cannot wait for each other`);
        else {
          const built = build(other);
          if (built) after.push(built);
        }
      }
      const waves = spec.waves.map((wave, i) => waveOf(wave, i, rolloutProblems));
      const stateFile = spec.stateFile === undefined ? undefined : inventoryFile(base, 'stateFile', spec.stateFile, (problem) => rolloutProblems.add(problem));
      try {
        if (rolloutProblems.all.length === 0) {
          const release = Release.fromImage(spec.releaseImage, spec.releaseVersion ? { version: spec.releaseVersion } : {});
          this.rollouts.set(
            spec.name,
            new ReleaseRollout(app, spec.name, {
              release,
              waves: waves as RolloutWave[],
              releasedWaves: spec.releasedWaves,
              onFailure: spec.onFailure as RolloutFailurePolicy | undefined,
              failedClusters: spec.failedClusters,
              maxFailedClusters: spec.maxFailedClusters,
              maxFailedPercent: spec.maxFailedPercent,
              onPaused: spec.onPaused as RolloutPausePolicy | undefined,
              waveTimeout: spec.waveTimeoutMinutes === undefined ? undefined : Duration.minutes(spec.waveTimeoutMinutes),
              newClusters: spec.newClusters as RolloutNewClusters | undefined,
              state: stateFile === undefined ? undefined : RolloutState.fromFile(stateFile),
              after,
            }),
          );
        }
      } catch (error) {
        problems.push(...((error as HcpValidationError).problems ?? [(error as Error).message]));
      }
      problems.push(...rolloutProblems.all);
      building.delete(spec.name);
      done.add(spec.name);
      return this.rollouts.get(spec.name);
    };
    specs.forEach((spec, i) => {
      const first = specs.findIndex((other) => other.name === spec.name);
      if (first !== i) problems.push(`${spec.name}: name (${JSON.stringify(spec.name)}) of rollouts[${i}] is also the name of rollouts[${first}]; give each rollout a name of its own`);
      else build(spec);
    });
  }
}

/** The RolloutWave of an inventory wave, which gives exactly one of canaries, clusters, labels, batch and rest. */
function waveOf(wave: FleetRolloutWaveSpec, index: number, problems: Problems): RolloutWave | undefined {
  const options: RolloutWaveOptions = { name: wave.name, holdNodePools: wave.holdNodePools };
  const given = (['canaries', 'clusters', 'labels', 'batch', 'rest'] as const).filter((key) => wave[key] !== undefined && wave[key] !== false);
  if (given.length !== 1) {
    problems.add(`waves[${index}] (${given.length === 0 ? 'none of them' : given.join(' and ')}) must give exactly one of canaries, clusters, labels, batch or rest`);
    return undefined;
  }
  switch (given[0]) {
    case 'canaries':
      return RolloutWave.canaries(wave.canaries!, options);
    case 'clusters':
      return RolloutWave.clusters(wave.clusters!, options);
    case 'labels':
      return RolloutWave.labels(wave.labels!, options);
    case 'batch':
      return RolloutWave.batch(wave.batch!, options);
    default:
      return RolloutWave.rest(options);
  }
}

/** A cluster two rollouts cover: one problem per pair of rollouts, naming the clusters. */
function overlaps(specs: readonly FleetRolloutSpec[], covered: ReadonlyMap<string, readonly string[]>): string[] {
  const problems: string[] = [];
  specs.forEach((second, j) => {
    specs.slice(0, j).forEach((first) => {
      const mine = new Set(covered.get(first.name) ?? []);
      const both = (covered.get(second.name) ?? []).filter((c) => mine.has(c));
      if (both.length === 0) return;
      const named = both.length > 3 ? `${both.slice(0, 3).join(', ')} and ${both.length - 3} more` : both.join(', ');
      problems.push(
        `${second.name}: clusterLabels (${JSON.stringify(second.clusterLabels ?? {})}) covers ${both.length} ${both.length === 1 ? 'cluster' : 'clusters'} rollout ${first.name} covers too (${named}); a cluster is in one rollout: give the rollouts clusterLabels that do not overlap`,
      );
    });
  });
  return problems;
}

/** The cluster of `spec` on `hub`, or undefined after recording in `problems` why it cannot be built. */
function buildCluster(hub: ManagementCluster, spec: FleetClusterSpec, problems: Problems, rollout?: ReleaseRollout): HostedCluster | undefined {
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
    labels: spec.labels,
    channel: spec.channel,
    rollout,
  });
  for (const pool of spec.nodePools ?? [{ name: 'workers' }]) {
    const options = builder.pool(spec, pool, problems);
    if (options) cluster.addNodePool(pool.name, options);
  }
  builder.addExtras?.(cluster, spec);
  return cluster;
}

/**
 * The file an inventory's `field` names (a rollout's stateFile, an update graph's file), under `base`,
 * the folder its paths are relative to (the inventory's; the working directory for an inventory in
 * code). An inventory may come from anyone's pull request, so a path outside that folder (absolute,
 * by `..`, or through a symbolic link) is refused, as every path hcp-cdk reads back is confined to its
 * root; undefined then, the problem recorded.
 */
function inventoryFile(base: string, field: string, reference: string, report: (problem: string) => void): string | undefined {
  const outside = readPathOutsideProblem(base, reference);
  if (outside === undefined) return path.join(base, reference);
  report(`${field} (${JSON.stringify(reference)}) must name a file inside ${base}, the folder the inventory's paths are relative to: ${outside}`);
  return undefined;
}

/** The one document of an inventory file; throws why the file holds none that can be read. */
function readInventoryFile(file: string): { readonly spec?: unknown } {
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
  return read.documents[0] as { readonly spec?: unknown };
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
    out[key] = isPlainObject(current) && isPlainObject(value) ? merge(current, value as FleetClusterDefaults) : value;
  }
  return out;
}
