// An app with raw ApiObjects of kinds hcp-cdk knows nothing about, in the hub chart and in a guest
// chart: a Chassis whose CRD the app is given, and a Gizmo whose check it waives. The unit test
// reads its output under every delivery; the server test applies that output to a kube-apiserver
// that serves both kinds.
import { ApiObject } from 'cdk8s';
import {
  AcmDelivery,
  allowUnvalidatedKind,
  ArgoCdDelivery,
  ArgoCdGuestAccess,
  CustomResourceDefinitionObject,
  FluxDelivery,
  FluxSource,
  HcpApp,
  IDelivery,
  KustomizeDelivery,
  ManagementCluster,
} from '../../lib';
import { newCluster } from '../props';

const REPOSITORY = 'https://git.example.com/platform/hcp-estate.git';

/** Every delivery, by the mode name HCP_CDK_DELIVERY gives the examples. */
export const DELIVERIES: Readonly<Record<string, () => IDelivery>> = {
  kustomize: () => new KustomizeDelivery(),
  argocd: () => new ArgoCdDelivery({ repoUrl: REPOSITORY, guestAccess: ArgoCdGuestAccess.acmGitOpsCluster() }),
  flux: () => new FluxDelivery({ source: FluxSource.gitRepository({ name: 'hcp-estate', url: REPOSITORY }) }),
  acm: () => new AcmDelivery(),
};

export const GROUP = 'escape-hatch.example.com';
export const API_VERSION = `${GROUP}/v1`;

/** Chassis, whose plural is not the English rule's ("chassises"): RBAC must take it from the CRD. */
export const CHASSIS_CRD: CustomResourceDefinitionObject = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `chassis.${GROUP}` },
  spec: {
    group: GROUP,
    names: { kind: 'Chassis', plural: 'chassis' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { slots: { type: 'integer', minimum: 1 } } } } } },
      },
    ],
  },
};

/** The Gizmo CRD, which the app is not given (it waives the kind); only the server test's cluster has it. */
export const GIZMO_CRD: CustomResourceDefinitionObject = {
  ...CHASSIS_CRD,
  metadata: { name: `gizmos.${GROUP}` },
  spec: {
    ...CHASSIS_CRD.spec,
    names: { kind: 'Gizmo', plural: 'gizmos' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
  },
};

/** Hub `hub` with Agent cluster `c1`, and a Chassis and a Gizmo in the hub chart and in c1's guest chart. */
export function rawObjectsApp(delivery: IDelivery, outdir = '/nonexistent'): HcpApp {
  const app = new HcpApp({ outdir, delivery, crds: [CHASSIS_CRD], compareWithPreviousOutput: false, keepLastGoodCopy: false });
  const hub = new ManagementCluster(app, 'hub');
  const cluster = newCluster({}, app, hub);
  allowUnvalidatedKind(app, { apiVersion: API_VERSION, kind: 'Gizmo', reason: 'the vendor publishes no CRD' });
  for (const [scope, suffix] of [
    [hub, 'hub'],
    [cluster.guest, 'guest'],
  ] as const) {
    new ApiObject(scope, `chassis-${suffix}`, { apiVersion: API_VERSION, kind: 'Chassis', metadata: { name: `rack-${suffix}`, namespace: 'tools' }, spec: { slots: 4 } });
    new ApiObject(scope, `gizmo-${suffix}`, { apiVersion: API_VERSION, kind: 'Gizmo', metadata: { name: `gizmo-${suffix}`, namespace: 'tools' }, spec: { anything: [suffix] } });
  }
  return app;
}
