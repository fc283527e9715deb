// The admission webhooks of Open Cluster Management's hub that the test server does not run: before
// an object is created, the rights ocmAdmissionRules names are asked of its writer with a
// SubjectAccessReview, as the webhooks ask them (open-cluster-management-io/ocm 1ff6815cdd27,
// pkg/registration/webhook, v1beta2/managedclustersetbinding_validating.go `ValidateCreate` and
// v1/managedcluster_validating.go `ValidateCreate`). Only creation is checked: the replays change
// none of the fields whose change the webhooks check on update.
import { ocmAdmissionRules } from '../../lib/gitops/ocm-admission';
import { ImpersonatedUser, KubeClient } from './kube-client';

/** Why OCM's webhooks would refuse `user` creating `object`, or undefined. */
export async function ocmWebhookRefusal(client: KubeClient, object: any, user: ImpersonatedUser | undefined): Promise<string | undefined> {
  if (user === undefined) return undefined;
  for (const rule of ocmAdmissionRules(object)) {
    const [resource, subresource] = rule.resources[0].split('/');
    const review = await client.create({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      metadata: {},
      spec: {
        user: user.user,
        groups: user.groups,
        resourceAttributes: { group: rule.apiGroups[0], resource, subresource, verb: rule.verbs[0], name: rule.resourceNames![0] },
      },
    });
    if (review.body?.status?.allowed !== true) {
      return `admission webhook denied the request: ${rule.resources[0]} "${rule.resourceNames![0]}" is forbidden: user "${user.user}" may not ${rule.verbs[0]} it`;
    }
  }
  return undefined;
}
