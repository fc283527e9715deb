// RBAC written a moment ago takes effect a little later: the API server's authorizer reads Roles and
// bindings from an informer's cache, so the first requests of an identity just granted may still be
// refused (403). A test harness that grants an identity what it needs waits here until the
// authorizer agrees, asking it as admission webhooks do, with SubjectAccessReviews.
import type { PolicyRule } from '../../lib/gitops/flux-access';
import { ImpersonatedUser, KubeClient } from './kube-client';

/** Waits until the authorizer allows `user` every verb of every rule (each resource and name), or throws after `timeoutMs`. */
export async function untilGranted(client: KubeClient, user: ImpersonatedUser, rules: readonly PolicyRule[], timeoutMs = 10_000): Promise<void> {
  const asks = rules.flatMap((rule) =>
    rule.apiGroups.flatMap((group) =>
      rule.resources.flatMap((full) => {
        const [resource, subresource] = full.split('/');
        return rule.verbs.flatMap((verb) => (rule.resourceNames ?? [undefined]).map((name) => ({ group, resource, subresource, verb, name })));
      }),
    ),
  );
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reviews = await Promise.all(
      asks.map((resourceAttributes) =>
        client.create({ apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec: { user: user.user, groups: user.groups, resourceAttributes } }),
      ),
    );
    const refused = asks.filter((_, i) => reviews[i].body?.status?.allowed !== true);
    if (refused.length === 0) return;
    if (Date.now() > deadline) throw new Error(`RBAC granted to ${user.user} not in effect after ${timeoutMs} ms: ${refused.map((a) => `${a.verb} ${a.group}/${a.resource}`).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
