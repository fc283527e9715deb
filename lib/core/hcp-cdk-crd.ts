/**
 * A CustomResourceDefinition of one of hcp-cdk's own documents (`hcp-cdk.io/v1alpha1`: an inventory
 * file, a rollout record). No cluster serves them: the CRD only lets the validator check them as it
 * checks every object, field by field.
 */
export function hcpCdkCrd(kind: string, plural: string, spec: Record<string, unknown>): any {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.hcp-cdk.io` },
    spec: {
      group: 'hcp-cdk.io',
      names: { kind, plural },
      scope: 'Cluster',
      versions: [
        {
          name: 'v1alpha1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec },
            },
          },
        },
      ],
    },
  };
}
