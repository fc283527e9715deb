import { ApiObject, Lazy } from 'cdk8s';
import { Construct } from 'constructs';
import { yamlText } from '../core/yaml-text';
import { ObjectValidator } from '../validation/object-validator';
import { SchemaCatalog } from '../validation/schema-catalog';

let validator: ObjectValidator | undefined;

/**
 * A ConfigMap holding Kubernetes objects as YAML under one key, the way HyperShift reads node
 * configuration (`config`) and tuning (`tuning`); the objects are produced at synth, so that
 * additions made until then count, and are checked against their own CRD schemas, as the hosted
 * cluster's API server will check them after HyperShift copies them in.
 */
export class EmbeddedObjectsConfigMap extends Construct {
  /** The ConfigMap this construct writes, for `addJsonPatch` and the like. */
  public readonly resource: ApiObject;

  constructor(scope: Construct, id: string, props: { readonly name: string; readonly namespace: string; readonly key: string; readonly objects: () => unknown[] }) {
    super(scope, id);
    const { name, namespace, key } = props;
    // Without the keys left undefined, which YAML has no form for.
    const objects = () => props.objects().map((o) => JSON.parse(JSON.stringify(o)));
    this.resource = new ApiObject(this, 'Resource', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace },
      data: { [key]: Lazy.any({ produce: () => objects().map(yamlText).join('---\n') }) },
    });
    this.node.addValidation({
      validate: () => {
        validator ??= new ObjectValidator({ catalog: SchemaCatalog.bundled() });
        return objects().flatMap((object: any) =>
          validator!
            .validate(object)
            .map(
              (p) =>
                `ConfigMap ${namespace}/${name} data.${key}: ${object.kind} ${object.metadata?.name}: ${p.path ? `${p.path}: ` : ''}${p.message}${p.value !== undefined ? ` (value: ${JSON.stringify(p.value)})` : ''}`,
            ),
        );
      },
    });
  }
}
