import { ApiObject } from 'cdk8s';
import { AcmDelivery, ArgoCdDelivery, ArgoCdGuestAccess, DELIVERY_MODE_ANNOTATION, DeliveryMode, deliveryModeOf, FluxDelivery, FluxSource, HcpApp, IDelivery, KustomizeDelivery } from '../../lib';
import { isQualifiedName } from '../../lib/core/names';
import { newCluster } from '../props';
import { synthObjects } from '../util';

const REPO = 'https://git.example.com/platform/estate.git';

/** Every synthesized object of one cluster with a pool and a guest Namespace, under `delivery`. */
function objectsUnder(delivery: IDelivery): any[] {
  const app = new HcpApp({ outdir: '/nonexistent', delivery });
  const cluster = newCluster({}, app);
  cluster.addNodePool('workers');
  new ApiObject(cluster.guest, 'team', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  return synthObjects(app);
}

describe('every delivery records its mode on each HostedCluster (hcp-cdk.io/delivery)', () => {
  test.each<[string, string, () => IDelivery, DeliveryMode]>([
    ['KustomizeDelivery', 'kustomize', () => new KustomizeDelivery(), DeliveryMode.KUSTOMIZE],
    [
      'ArgoCdDelivery with healthChecksInstalled',
      'argocd',
      () => new ArgoCdDelivery({ repoUrl: REPO, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster(), healthChecksInstalled: true }),
      DeliveryMode.ARGO_CD,
    ],
    [
      'ArgoCdDelivery by default',
      'argocd-without-health-checks',
      () => new ArgoCdDelivery({ repoUrl: REPO, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }),
      DeliveryMode.ARGO_CD_WITHOUT_HEALTH_CHECKS,
    ],
    ['FluxDelivery', 'flux', () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'estate', url: REPO }) }), DeliveryMode.FLUX],
    ['AcmDelivery', 'acm', () => new AcmDelivery(), DeliveryMode.ACM],
  ])('%s records %s', (_, value, delivery, mode) => {
    const objects = objectsUnder(delivery());
    const hostedCluster = objects.find((o) => o.kind === 'HostedCluster');
    expect(hostedCluster.metadata.annotations['hcp-cdk.io/delivery']).toBe(value);
    expect(deliveryModeOf(hostedCluster)).toBe(mode);
    // Only HostedClusters: plan reads the mode of a cluster's output from its HostedCluster.
    expect(objects.filter((o) => o.metadata?.annotations?.[DELIVERY_MODE_ANNOTATION] !== undefined).map((o) => o.kind)).toEqual(['HostedCluster']);
  });

  test('the key is a qualified name the API server accepts', () => {
    expect(DELIVERY_MODE_ANNOTATION).toBe('hcp-cdk.io/delivery');
    expect(isQualifiedName(DELIVERY_MODE_ANNOTATION)).toBe(true);
  });

  test('deliveryModeOf: undefined for an output that records none, or an unknown value', () => {
    expect(deliveryModeOf({ metadata: {} })).toBeUndefined();
    expect(deliveryModeOf({ metadata: { annotations: { [DELIVERY_MODE_ANNOTATION]: 'helm' } } })).toBeUndefined();
  });
});
