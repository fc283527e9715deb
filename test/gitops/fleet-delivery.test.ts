// The fleet example delivered to a simulated hub where one hosted cluster never becomes Available:
// Argo CD syncs each Application wave by wave, waiting for each wave's health (the Lua checks run in
// a Lua VM), Flux applies each Kustomization once its dependencies are ready and judges its health
// checks (the CEL run as Flux runs it). Every other cluster's unit must end healthy.
import { ARGO_CD_HEALTH_CHECKS, ArgoCdDelivery, ArgoCdGuestAccess, FLUX_HEALTH_CHECKS, FluxDelivery, FluxSource } from '../../lib';
import { fleetOutput } from './fleet-output';
import { fluxVerdict } from './flux-health';
import { runArgoCdCheck } from './lua-health';

const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';
/** The cluster whose control plane never becomes Available (its pull secret is missing). */
const BROKEN = 'c00000';
const RELEASE_VERSION = '4.17.0';

type Health = { status: string; message?: string };

const keyOf = (o: any): string => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/**
 * The hub as the controllers would make it: a HostedCluster becomes Available once applied (but
 * BROKEN's never does); a NodePool gets machines once its cluster is Available and, for an Agent
 * cluster, once the hosts of its agent namespace are applied; a Subscription installs at once.
 */
class SimulatedHub {
  readonly applied = new Map<string, any>();
  /** Health of Applications, as the simulation found it, for the app of apps. */
  readonly applicationHealth = new Map<string, Health>();

  apply(objects: readonly any[]): void {
    for (const o of objects) this.applied.set(keyOf(o), o);
  }

  /** The object as the server would return it, with the status its controller would write. */
  live(o: any): any {
    return { ...o, status: this.statusOf(o) };
  }

  private statusOf(o: any): any {
    switch (o.kind) {
      case 'HostedCluster':
        if (o.metadata.name === BROKEN) return { conditions: [{ type: 'Available', status: 'False', message: 'waiting for the pull secret' }] };
        return {
          conditions: [{ type: 'Available', status: 'True', message: 'The hosted control plane is available' }],
          version: { desired: { image: o.spec.release.image }, history: [{ image: o.spec.release.image, state: 'Partial' }] },
        };
      case 'NodePool': {
        const cluster = [...this.applied.values()].find((c) => c.kind === 'HostedCluster' && c.metadata.name === o.spec.clusterName && c.metadata.namespace === o.metadata.namespace);
        const agentNamespace = cluster?.spec.platform.agent?.agentNamespace;
        const hosts = agentNamespace === undefined || [...this.applied.values()].some((h) => h.kind === 'BareMetalHost' && h.metadata.namespace === agentNamespace);
        if (cluster === undefined || cluster.metadata.name === BROKEN || !hosts) {
          return { conditions: [{ type: 'Ready', status: 'False', message: 'Minimum availability requires 1 replicas, current 0 available' }] };
        }
        return { conditions: [{ type: 'Ready', status: 'True', message: '' }], version: RELEASE_VERSION };
      }
      case 'Subscription':
        return { installedCSV: `${o.spec.name}.v1` };
      case 'Application':
        return { health: this.applicationHealth.get(o.metadata.name) ?? { status: 'Progressing' } };
      default:
        return undefined;
    }
  }
}

/**
 * argo-cd PR #28610's HyperShift rules (not in any argo-cd release) as its checks' comments state them:
 * a NodePool Progressing until Ready, a HostedCluster Healthy once Available and not Degraded.
 */
function argoBuiltIn(o: any): Health | undefined {
  const conditions: any[] = o.status?.conditions ?? [];
  const is = (type: string, status: string) => conditions.some((c) => c.type === type && c.status === status);
  if (o.kind === 'NodePool') return is('Ready', 'True') ? { status: 'Healthy' } : { status: 'Progressing' };
  if (o.kind === 'HostedCluster') return is('Degraded', 'True') ? { status: 'Degraded' } : is('Available', 'True') ? { status: 'Healthy' } : { status: 'Progressing' };
  return undefined;
}

const OUR_CHECKS = new Map(ARGO_CD_HEALTH_CHECKS.map((c) => [c.kind, c]));

/** Argo CD's verdict on one live object: the installed check, PR #28610's HyperShift rules, or Healthy. */
function argoHealth(o: any, builtInOnly: boolean): Health {
  const check = o.kind === 'Application' || !builtInOnly ? OUR_CHECKS.get(o.kind) : undefined;
  return check ? runArgoCdCheck(check, o) : (argoBuiltIn(o) ?? { status: 'Healthy' });
}

/** Syncs one Application as Argo CD does: wave by wave, each wave only once the previous one is Healthy. */
function syncApplication(app: any, output: Map<string, any[]>, hub: SimulatedHub, builtInOnly: boolean): Health {
  const objects = output.get(app.spec.source.path.replace(/^dist\//, '')) ?? [];
  const waves = [...new Set(objects.map(waveOf))].sort((a, b) => a - b);
  for (const wave of waves) {
    const inWave = objects.filter((o) => waveOf(o) === wave);
    hub.apply(inWave);
    // An Application that syncs itself does not wait for its own health.
    const judged = inWave.filter((o) => !(o.kind === 'Application' && o.metadata.name === app.metadata.name));
    const unhealthy = judged.map((o) => ({ o, health: argoHealth(hub.live(o), builtInOnly) })).find((r) => r.health.status !== 'Healthy');
    if (unhealthy) return { status: unhealthy.health.status, message: `wave ${wave}: ${keyOf(unhealthy.o)}: ${unhealthy.health.message}` };
  }
  return { status: 'Healthy' };
}

function waveOf(o: any): number {
  return Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
}

/** Every Application of the hub after the app of apps and the Applications have synced until nothing changes. */
function runArgoCd(output: Map<string, any[]>, hubName: string, builtInOnly: boolean): Map<string, Health> {
  const hub = new SimulatedHub();
  const [bootstrap] = output.get(`argocd/${hubName}`)!.filter((o) => o.kind === 'Application' && o.metadata.name === `argocd-${hubName}`);
  for (let round = 0; round < 10; round++) {
    hub.applicationHealth.set(bootstrap.metadata.name, syncApplication(bootstrap, output, hub, builtInOnly));
    const applications = [...hub.applied.values()].filter((o) => o.kind === 'Application' && o !== bootstrap && o.metadata.name !== bootstrap.metadata.name);
    // A guest's destination exists once ACM has imported its hosted cluster: once it is Available.
    for (const app of applications) {
      const destination = app.spec.destination.name;
      const available = destination === undefined || (destination !== BROKEN && [...hub.applied.values()].some((o) => o.kind === 'HostedCluster' && o.metadata.name === destination));
      hub.applicationHealth.set(app.metadata.name, available ? syncApplication(app, output, hub, builtInOnly) : { status: 'Unknown', message: 'no such destination cluster' });
    }
  }
  return hub.applicationHealth;
}

describe('Argo CD: the fleet example on a hub where one cluster never becomes Available', () => {
  const output = fleetOutput(new ArgoCdDelivery({ repoUrl: REPOSITORY, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }));
  const applicationsOf = (hub: string) =>
    output
      .get(`argocd/${hub}`)!
      .filter((o) => o.kind === 'Application')
      .map((o) => o.metadata.name)
      .sort();

  test('a unit per hosted cluster, per guest and for the hub, besides the bootstrap', () => {
    const names = applicationsOf('hub-0');
    expect(names).toContain('hub-0');
    expect(names).toContain(`hub-0-${BROKEN}`);
    expect(names).toContain(`${BROKEN}-guest`);
    expect(names.filter((n) => /^hub-0-c\d+$/.test(n))).toHaveLength(12);
    expect(names).toContain('argocd-hub-0');
  });

  test.each([
    ['with the exported health checks', false],
    ["with argo-cd PR #28610's HyperShift checks instead (unreleased; a NodePool Progressing until Ready)", true],
  ])('%s, every other unit becomes Healthy; the broken one stops at its HostedCluster', (_, builtInOnly) => {
    const health = runArgoCd(output, 'hub-0', builtInOnly);
    for (const name of applicationsOf('hub-0')) {
      if (name === `hub-0-${BROKEN}`) {
        expect(health.get(name)?.status).toBe('Progressing');
        expect(health.get(name)?.message).toMatch(new RegExp(`^wave 50: HostedCluster/clusters/${BROKEN}: `));
      } else if (name === `${BROKEN}-guest`) expect(health.get(name)?.status).toBe('Unknown');
      // The app of apps reports the broken cluster's Application, but has created every other.
      else if (name === 'argocd-hub-0') expect(health.get(name)?.message).toMatch(new RegExp(`^wave 3: Application/openshift-gitops/(hub-0-)?${BROKEN}`));
      else expect([name, health.get(name)]).toEqual([name, { status: 'Healthy' }]);
    }
  });

  test('in each cluster unit the hosts come before the NodePools', () => {
    const unit = output.get(`hub-0/${BROKEN}`)!;
    const last = (kind: string) => Math.max(...unit.filter((o) => o.kind === kind).map(waveOf));
    const first = (kind: string) => Math.min(...unit.filter((o) => o.kind === kind).map(waveOf));
    expect(last('BareMetalHost')).toBeLessThan(first('NodePool'));
    expect(last('InfraEnv')).toBeLessThan(first('NodePool'));
  });
});

describe('Flux: the fleet example on a hub where one cluster never becomes Available', () => {
  const output = fleetOutput(new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: REPOSITORY }) }));
  const kustomizations = [...output]
    .filter(([folder]) => folder.startsWith('flux/hub-0'))
    .flatMap(([, objects]) => objects)
    .filter((o) => o.kind === 'Kustomization');

  test("every Kustomization but the broken cluster's own, its pools' and its guest's becomes Ready", () => {
    const hub = new SimulatedHub();
    const ready = new Map<string, boolean>();
    for (let round = 0; round < 10; round++) {
      for (const k of kustomizations) {
        if (!(k.spec.dependsOn ?? []).every((d: any) => ready.get(d.name))) continue;
        const objects = output.get(k.spec.path.replace(/^\.\/dist\//, '')) ?? [];
        hub.apply(objects);
        const checks = new Map((k.spec.healthCheckExprs ?? []).map((e: any) => [e.kind, e]));
        const verdicts = (k.spec.healthChecks ?? []).map((ref: any) => {
          const live = hub.live(hub.applied.get(`${ref.kind}/${ref.namespace ?? ''}/${ref.name}`));
          return fluxVerdict(checks.get(ref.kind) as any, live);
        });
        ready.set(
          k.metadata.name,
          verdicts.every((v: string) => v === 'Current'),
        );
      }
    }
    const notReady = kustomizations
      .map((k) => k.metadata.name)
      .filter((name) => !ready.get(name))
      .sort();
    expect(notReady).toEqual([`${BROKEN}-guest-operators`, `${BROKEN}-guest-resources`, `hub-0-${BROKEN}`, `hub-0-${BROKEN}-node-pools`]);
  });

  test("a node-pools Kustomization waits for its cluster, the units' RBAC and applies as its own ServiceAccount", () => {
    const pools = kustomizations.find((k) => k.metadata.name === 'hub-0-c00002-node-pools')!;
    expect(pools.spec.dependsOn).toEqual([
      { name: 'hub-0-c00002', namespace: 'flux-system' },
      { name: 'flux-hub-0-access', namespace: 'flux-system' },
    ]);
    expect(pools.spec.serviceAccountName).toBe('hub-0-c00002-node-pools');
    expect(pools.spec.healthCheckExprs).toEqual([{ kind: 'NodePool', ...FLUX_HEALTH_CHECKS.NodePool }]);
  });
});
