// A TypeDoc plugin for `npm run docs`: how the API reference treats constants that are data.
// - A constant whose comment carries the modifier tag @jsonDocument (PLAN_JSON_SCHEMA, an IAM policy
//   document) is a JSON document whose keys are another specification's vocabulary, not an API: the
//   reference shows it as an `object` with its comment.
// - In a constant whose value is an object literal of records (LINT_RULES), each first-level key is
//   documented in the source; the keys of the records below it (`id`, `summary`) are data the entry's
//   comment explains, so the "not documented" check does not ask for a comment on each.
import { Converter, IntrinsicType, ReflectionKind, ReflectionType } from 'typedoc';

/** The properties of the object literal types below `type`, at every depth. */
function nestedProperties(type) {
  const found = [];
  for (const child of type.declaration.children ?? []) {
    found.push(child);
    if (child.type instanceof ReflectionType) found.push(...nestedProperties(child.type));
  }
  return found;
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    // The option's array is the one the validation reads, so entries added here count (options are frozen by now).
    const intentionallyNotDocumented = app.options.getValue('intentionallyNotDocumented');
    for (const constant of context.project.getReflectionsByKind(ReflectionKind.Variable)) {
      if (!(constant.type instanceof ReflectionType)) continue;
      if (constant.comment?.hasModifier('@jsonDocument')) {
        context.project.removeReflection(constant.type.declaration);
        constant.type = new IntrinsicType('object');
        continue;
      }
      for (const entry of constant.type.declaration.children ?? []) {
        if (!(entry.type instanceof ReflectionType)) continue;
        for (const property of nestedProperties(entry.type)) {
          if (!property.hasComment()) intentionallyNotDocumented.push(property.getFriendlyFullName());
        }
      }
    }
  });
}
