// The HostedCluster and NodePool health checks of both engines over the corpus of status shapes
// HyperShift writes (test/status/status-corpus.ts): the Argo CD Lua in a Lua VM, the Flux CEL as
// kustomize-controller evaluates it. Each engine must give the corpus's verdict, and the Lua the
// same message as hcp-cdk's model (lib/status), which the Lua restates rule by rule.
import { APPLICATION_HEALTH_LUA, ARGO_CD_HEALTH_CHECKS, FLUX_HEALTH_CHECKS, hostedClusterStatus, nodePoolStatus } from '../../lib';
import { STATUS_CORPUS } from '../status/status-corpus';
import { fluxVerdict } from './flux-health';
import { runArgoCdCheck, runHealthCheck } from './lua-health';

const cases = STATUS_CORPUS.map((shape) => [shape.name, shape] as const);
const argoCheck = (kind: string) => ARGO_CD_HEALTH_CHECKS.find((c) => c.kind === kind)!;
/** Argo CD's health of the object, its kind's check run with the libraries it asks for. */
const argoHealth = (object: any) => runArgoCdCheck(argoCheck(object.kind), object);
const model = (object: any) => (object.kind === 'HostedCluster' ? hostedClusterStatus(object) : nodePoolStatus(object));

describe('Argo CD over the corpus', () => {
  test.each(cases)('%s', (_, shape) => {
    const health = argoHealth(shape.object);
    expect(health.status).toBe(shape.argoCd);
    expect(health.message).toContain(shape.says);
    expect(health.message).toBe(model(shape.object).summary);
  });
});

describe('Flux over the corpus', () => {
  test.each(cases)('%s', (_, shape) => {
    expect(fluxVerdict(FLUX_HEALTH_CHECKS[shape.object.kind], shape.object)).toBe(shape.flux);
  });
});

describe('the engines on what a shape cannot tell', () => {
  const pool = STATUS_CORPUS.find((s) => s.name === 'np: rolling a new version')!.object;

  test('a condition without observedGeneration is current, as an older writer leaves it', () => {
    const object = { ...pool, status: { ...pool.status, conditions: pool.status.conditions.map(({ observedGeneration: _, ...c }: any) => c) } };
    expect(argoHealth(object).status).toBe('Progressing');
    expect(fluxVerdict(FLUX_HEALTH_CHECKS.NodePool, object)).toBe('InProgress');
  });

  test('Flux reads status.observedGeneration before any expression (RFC 0009), as the test runner does', () => {
    const ready = STATUS_CORPUS.find((s) => s.name === 'np: fixed size, Ready')!.object;
    expect(fluxVerdict(FLUX_HEALTH_CHECKS.NodePool, ready)).toBe('Current');
    expect(fluxVerdict(FLUX_HEALTH_CHECKS.NodePool, { ...ready, status: { ...ready.status, observedGeneration: 0 } })).toBe('InProgress');
  });
});

describe('the Application check', () => {
  test('an Application is as healthy as its status says, Progressing before it has one', () => {
    expect(runHealthCheck(APPLICATION_HEALTH_LUA, { status: { health: { status: 'Degraded', message: 'wave 50' } } })).toEqual({ status: 'Degraded', message: 'wave 50' });
    expect(runHealthCheck(APPLICATION_HEALTH_LUA, {})).toEqual({ status: 'Progressing', message: '' });
  });
});
