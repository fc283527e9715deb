import { Construct } from 'constructs';
import { Problems } from '../core/problems';
import type { ISecretSource } from '../secrets/secret-source';

/**
 * Binds a `kubernetes.io/tls` Secret (`tls.crt` and `tls.key`) and returns its name. Sources that
 * make the Secret (inline, ExternalSecret, SealedSecret) carry one key, so they would make a
 * certificate without its private key: only a Secret that exists already (made by cert-manager or
 * by you) is accepted.
 */
export function bindTlsSecret(
  source: ISecretSource,
  scope: Construct,
  id: string,
  options: { readonly field: string; readonly defaultName: string; readonly namespace: string; readonly problems: Problems },
): string {
  const before = scope.node.children.length;
  const binding = source.bind(scope, id, { field: options.field, defaultName: options.defaultName, namespace: options.namespace, key: 'tls.crt', otherKeys: ['tls.key'], type: 'kubernetes.io/tls' });
  if (binding.problem) options.problems.add(binding.problem);
  if (scope.node.children.length > before) {
    options.problems.add(
      `${options.field} (a source that makes the Secret) would make a TLS Secret with tls.crt alone; a certificate needs tls.crt and tls.key in one Secret, so give SecretSource.fromExistingSecret (e.g. one cert-manager makes)`,
    );
  }
  return binding.secretName;
}
