import { ApiObject, JsonPatch } from 'cdk8s';

/**
 * Adds non-secret keys (a bucket name, a DNS provider) to the object a SecretSource made for the
 * secret key, so that one object makes the whole Secret: as `data` of a Secret, as template data
 * merged into an ExternalSecret's target, as template data of a SealedSecret.
 * Returns false for a kind it cannot extend.
 */
export function addPlainKeys(object: ApiObject, plain: Readonly<Record<string, string>>): boolean {
  switch (`${object.apiVersion}/${object.kind}`) {
    case 'v1/Secret':
      for (const [key, value] of Object.entries(plain)) object.addJsonPatch(JsonPatch.add(`/data/${key}`, Buffer.from(value, 'utf8').toString('base64')));
      return true;
    case 'external-secrets.io/v1/ExternalSecret':
      // Merge: the target Secret gets the template's keys besides the ones fetched from the store.
      object.addJsonPatch(JsonPatch.add('/spec/target/template/mergePolicy', 'Merge'), JsonPatch.add('/spec/target/template/data', { ...plain }));
      return true;
    case 'bitnami.com/v1alpha1/SealedSecret':
      object.addJsonPatch(JsonPatch.add('/spec/template/data', { ...plain }));
      return true;
    default:
      return false;
  }
}
