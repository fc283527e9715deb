// The validator's schema and CEL mechanics, on small CRDs written here so that each keyword is
// tested on its own; the bundled HyperShift CRDs are exercised by ./cases.
import { formatProblem, ObjectValidator, SchemaCatalog, UnsupportedCelRuleError } from '../../lib';
import { HOSTED_CLUSTER, widgetCrd, withChanges } from './object-cases';

function widgetValidator(spec: object): ObjectValidator {
  return new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([widgetCrd(spec)], 'test') });
}

function widget(spec: unknown): object {
  return { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec };
}

/** `path: message` of every problem, for compact assertions. */
function problemsOf(validator: ObjectValidator, object: unknown, previous?: unknown): string[] {
  return validator.validate(object, { previous }).map((p) => `${p.path}: ${p.message}`);
}

describe('OpenAPI schema', () => {
  const v = widgetValidator({
    type: 'object',
    required: ['size'],
    properties: {
      size: { type: 'integer', minimum: 1, maximum: 10 },
      ratio: { type: 'number', exclusiveMinimum: true, minimum: 0 },
      mode: { type: 'string', enum: ['Fast', 'Slow'] },
      name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
      port: { 'x-kubernetes-int-or-string': true },
      address: { type: 'string', format: 'ipv4' },
      enabled: { type: 'boolean' },
      level: { type: 'string', default: 'low' },
      note: { type: 'string', nullable: true },
      tags: { type: 'array', maxItems: 2, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      ports: {
        type: 'array',
        items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer' } } },
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
      },
      labels: { type: 'object', maxProperties: 1, additionalProperties: { type: 'string' } },
      raw: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
    },
  });

  test('accepts an object that meets every keyword', () => {
    expect(
      problemsOf(
        v,
        widget({
          size: 3,
          ratio: 0.5,
          mode: 'Fast',
          name: 'abc',
          port: 'http',
          address: '192.0.2.1',
          enabled: true,
          note: null,
          tags: ['a', 'b'],
          ports: [
            { name: 'a', port: 1 },
            { name: 'b', port: 1 },
          ],
          labels: { x: 'y' },
          raw: { anything: [1, { goes: true }] },
          template: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { x: 1 } },
        }),
      ),
    ).toEqual([]);
  });

  test.each([
    ['a missing required field', {}, 'spec.size: Required value'],
    ['an integer given as a string', { size: '3' }, 'spec.size: Invalid value: must be of type integer, got string'],
    ['an integer given as a fraction', { size: 2.5 }, 'spec.size: Invalid value: must be of type integer, got number'],
    ['a value above maximum', { size: 11 }, 'spec.size: Invalid value: must be less than or equal to 10'],
    ['a value at an exclusive minimum', { size: 1, ratio: 0 }, 'spec.ratio: Invalid value: must be greater than 0'],
    ['a value outside the enum', { size: 1, mode: 'Medium' }, 'spec.mode: Unsupported value: supported values: "Fast", "Slow"'],
    ['a string too short', { size: 1, name: 'a' }, 'spec.name: Invalid value: must be at least 2 characters long'],
    ['a string too long', { size: 1, name: 'abcdef' }, 'spec.name: Too long: may not be more than 5 characters (has 6)'],
    ['a string against its pattern', { size: 1, name: 'AB' }, 'spec.name: Invalid value: must match the pattern "^[a-z]+$"'],
    ['int-or-string given a bool', { size: 1, port: true }, 'spec.port: Invalid value: must be an integer or a string'],
    ['a bad ipv4 format', { size: 1, address: '300.1.1.1' }, 'spec.address: Invalid value: must be a valid ipv4'],
    [
      'null in a required field that is not nullable',
      { size: null },
      'spec.size: Invalid value: null: must be of type integer (server-side apply refuses a null in a field that is not nullable and has no default; a create drops it)',
    ],
    ['null as an item of a list', { size: 1, tags: [null] }, 'spec.tags[0]: Invalid value: null: must be of type string'],
    ['too many items', { size: 1, tags: ['a', 'b', 'c'] }, 'spec.tags: Too many: 3: must have at most 2 items'],
    ['a duplicate in a set', { size: 1, tags: ['a', 'a'] }, 'spec.tags[1]: Duplicate value: items of a set must be unique'],
    ['a duplicate key in a map list', { size: 1, ports: [{ name: 'a' }, { name: 'a' }] }, 'spec.ports[1]: Duplicate value: another item has the same name'],
    ['too many properties', { size: 1, labels: { a: 'b', c: 'd' } }, 'spec.labels: Too many: 2: must have at most 1 properties'],
    ['a map value of the wrong type', { size: 1, labels: { a: 1 } }, 'spec.labels.a: Invalid value: must be of type string, got integer; in YAML, quote it: a bare 1 is read as a number'],
    ['an embedded resource without kind', { size: 1, template: { apiVersion: 'v1' } }, 'spec.template.kind: Required value: an embedded resource needs apiVersion and kind'],
  ])('fails on %s', (_, spec, expected) => {
    expect(problemsOf(v, widget(spec))).toEqual([expected]);
  });

  test('refuses null in a field that is neither nullable nor defaulted, as server-side apply does; takes it as absent where a default replaces it', () => {
    expect(problemsOf(v, widget({ size: 1, enabled: null }))).toEqual([
      'spec.enabled: Invalid value: null: must be of type boolean (server-side apply refuses a null in a field that is not nullable and has no default; a create drops it)',
    ]);
    expect(problemsOf(v, widget({ size: 1, level: null }))).toEqual([]);
  });

  test('runs no rule after a blocking problem (a wrong type, a missing required field, an enum, too long or too many) and says so once, as the API server does', () => {
    const u = widgetValidator({
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer' },
        tier: { type: 'string', enum: ['gold', 'silver'] },
        tags: { type: 'array', maxItems: 1, items: { type: 'string' } },
        name: { type: 'string', maxLength: 3 },
        version: { type: 'string' },
      },
      'x-kubernetes-validations': [{ rule: 'has(self.version)', message: 'give a version' }],
    });
    const heldBack = ': Invalid value: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
    expect(problemsOf(u, widget({ size: 1 }))).toEqual(['spec: give a version']);
    expect(problemsOf(u, widget({ size: 1, version: 4.17 }))).toEqual([
      'spec.version: Invalid value: must be of type string, got number; in YAML, quote it: a bare 4.17 is read as a number',
      heldBack,
    ]);
    expect(problemsOf(u, widget({ version: 'x' }))).toEqual(['spec.size: Required value']);
    expect(problemsOf(u, widget({ size: 1, tier: 'bronze' }))).toEqual(['spec.tier: Unsupported value: supported values: "gold", "silver"', heldBack]);
    expect(problemsOf(u, widget({ size: 1, tags: ['a', 'b'] }))).toEqual(['spec.tags: Too many: 2: must have at most 1 items', heldBack]);
    expect(problemsOf(u, widget({ size: 1, name: 'long' }))).toEqual(['spec.name: Too long: may not be more than 3 characters (has 4)', heldBack]);
    // A pattern or a minimum does not block the rules.
    const w = widgetValidator({
      type: 'object',
      properties: { size: { type: 'integer', minimum: 10 } },
      'x-kubernetes-validations': [{ rule: 'has(self.size) && self.size < 5', message: 'size under 5' }],
    });
    expect(problemsOf(w, widget({ size: 7 }))).toEqual(['spec.size: Invalid value: must be greater than or equal to 10', 'spec: size under 5']);
  });

  test("names a map key after a dot in a schema problem and in brackets in a rule's, as the API server does", () => {
    const u = widgetValidator({
      type: 'object',
      properties: { m: { type: 'object', additionalProperties: { 'type': 'string', 'maxLength': 3, 'x-kubernetes-validations': [{ rule: "self != 'bad'" }] } } },
    });
    expect(problemsOf(u, widget({ m: { 'a.b': 'long' } }))).toEqual(['spec.m.a.b: Too long: may not be more than 3 characters (has 4)']);
    expect(problemsOf(u, widget({ m: { 'a.b': 'bad', 'c': 'bad' } }))).toEqual(["spec.m[a.b]: failed rule: self != 'bad'", "spec.m[c]: failed rule: self != 'bad'"]);
    expect(problemsOf(u, widget({ m: { k: 5 } }))).toEqual(['spec.m.k: Invalid value: must be of type string, got integer; in YAML, quote it: a bare 5 is read as a number']);
  });

  test('counts the defaulted fields towards minProperties, as the API server counts after defaulting', () => {
    const u = widgetValidator({ type: 'object', properties: { o: { type: 'object', minProperties: 1, properties: { a: { type: 'string', default: 'x' }, b: { type: 'string' } } } } });
    expect(problemsOf(u, widget({ o: {} }))).toEqual([]);
  });

  test('fails on an unknown field, naming its full path', () => {
    expect(problemsOf(v, widget({ size: 1, colour: 'red' }))).toEqual([
      'spec.colour: unknown field "spec.colour": the schema has no such field (strict field validation rejects it; without it the field is silently dropped)',
    ]);
  });

  test('reports every problem of an object at once', () => {
    expect(problemsOf(v, widget({ size: 0, mode: 'x', name: '1' }))).toHaveLength(4);
  });

  test('allOf, anyOf, oneOf and not apply as value validations', () => {
    const u = widgetValidator({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      anyOf: [{ required: ['a'] }, { required: ['b'] }],
      not: { required: ['a', 'b'] },
    });
    expect(problemsOf(u, widget({ a: 'x' }))).toEqual([]);
    expect(problemsOf(u, widget({}))).toEqual(['spec: Invalid value: must match at least one of the schemas in anyOf']);
    expect(problemsOf(u, widget({ a: 'x', b: 'y' }))).toEqual(['spec: Invalid value: must not match the schema in not']);
  });

  test('patterns follow RE2: a leading ] in a class is a literal, (?i) is a flag, . is a code point', () => {
    const u = widgetValidator({
      type: 'object',
      properties: {
        media: { type: 'string', pattern: '^(?i)(x-[^][ ]+|text)$' },
        word: { type: 'string', pattern: '^[[:alpha:]]+\\z' },
        short: { type: 'string', pattern: '^.{1,2}$' },
      },
    });
    expect(problemsOf(u, widget({ media: 'TEXT', word: 'abc', short: '😀😀' }))).toEqual([]);
    expect(problemsOf(u, widget({ short: '😀😀😀' }))).toEqual(['spec.short: Invalid value: must match the pattern "^.{1,2}$"']);
    expect(problemsOf(u, widget({ media: 'x-a]b' }))).toEqual(['spec.media: Invalid value: must match the pattern "^(?i)(x-[^][ ]+|text)$"']);
    expect(problemsOf(u, widget({ word: 'ab1' }))).toEqual(['spec.word: Invalid value: must match the pattern "^[[:alpha:]]+\\\\z"']);
  });
});

describe('object metadata', () => {
  const v = widgetValidator({ type: 'object' });

  test.each([
    ['a name that is no DNS subdomain', { name: 'Bad_Name', namespace: 'default' }, 'metadata.name: Invalid value: must be a DNS-1123 subdomain'],
    ['no name', { namespace: 'default' }, 'metadata.name: Required value: name or generateName is required'],
    ['a label value with spaces', { name: 'w', labels: { a: 'b c' } }, 'metadata.labels: Invalid value: the value of "a" must be a label value'],
    ['an unknown metadata field', { name: 'w', colour: 'red' }, 'metadata.colour: unknown field "metadata.colour"'],
  ])('fails on %s', (_, metadata, expected) => {
    const problems = problemsOf(v, { apiVersion: 'example.com/v1', kind: 'Widget', metadata, spec: {} });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  test('a namespace on a cluster-scoped kind is rejected', () => {
    const builtIn = new ObjectValidator();
    expect(problemsOf(builtIn, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a', namespace: 'b' } })).toEqual([
      'metadata.namespace: Invalid value: Namespace is cluster-scoped and takes no namespace',
    ]);
  });
});

describe('built-in kinds', () => {
  const v = new ObjectValidator();

  test('a ConfigMap and a Secret validate; a Service port must be an integer', () => {
    expect(problemsOf(v, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { a: 'b' } })).toEqual([]);
    expect(problemsOf(v, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'n' }, type: 'Opaque', stringData: { a: 'b' } })).toEqual([]);
    expect(
      problemsOf(v, {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 's', namespace: 'n' },
        spec: { ports: [{ port: '80' }] },
      }),
    ).toEqual(['spec.ports[0].port: Invalid value: must be of type number, got string']);
  });

  test('an unknown top-level field of a Role is rejected', () => {
    expect(problemsOf(v, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'n' }, rule: [] })).toEqual([expect.stringContaining('unknown field "rule"')]);
  });

  test('a kind with no schema is reported, not passed', () => {
    expect(problemsOf(v, { apiVersion: 'example.com/v9', kind: 'Nothing', metadata: { name: 'x' } })).toEqual([
      "apiVersion: no schema for Nothing in example.com/v9: its CRD is neither bundled with hcp-cdk nor among the CRDs given; give its CRD (HcpApp's crds, or --crds of hcp-cdk validate), " +
        'or waive the check of this kind with a reason (allowUnvalidatedKind(scope, { apiVersion: "example.com/v9", kind: "Nothing", reason }), or --allow-unvalidated-kind example.com/v9/Nothing=<reason>)',
    ]);
  });

  test('a kind with no schema passes when waived, and is counted; a waived kind that has a schema is checked all the same', () => {
    const seen: string[] = [];
    const options = { unvalidatedKinds: new Set(['example.com/v9/Nothing', 'v1/ConfigMap']), onUnvalidated: (kind: string) => seen.push(kind) };
    expect(v.validate({ apiVersion: 'example.com/v9', kind: 'Nothing', metadata: { name: 'x' }, anything: true }, options)).toEqual([]);
    expect(v.validate({ apiVersion: 'example.com/v9', kind: 'Other', metadata: { name: 'x' } }, options).map((p) => p.message)).toEqual([
      expect.stringMatching(/^no schema for Other in example\.com\/v9: /),
    ]);
    expect(v.validate({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { a: 1 } }, options).map((p) => p.path)).toEqual(['data.a']);
    expect(seen).toEqual(['example.com/v9/Nothing']);
  });

  test('apiVersion and kind are taken at the root of a CRD whose schema does not name them, as the API server takes them', () => {
    const crd: any = widgetCrd({ type: 'object', properties: { size: { type: 'integer' } } });
    crd.spec.versions[0].schema.openAPIV3Schema = { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } };
    const bare = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([crd], 'test') });
    expect(problemsOf(bare, widget({ size: 1 }))).toEqual([]);
    expect(problemsOf(bare, { ...widget({ size: 1 }), colour: 'red' })).toEqual([expect.stringMatching(/^colour: unknown field "colour"/)]);
  });

  test("the advice of a kind without a schema is the validator user's to give", () => {
    const advised = new ObjectValidator({ missingSchemaAdvice: (apiVersion, kind) => `supply ${apiVersion} ${kind}` });
    expect(problemsOf(advised, { apiVersion: 'example.com/v9', kind: 'Nothing', metadata: { name: 'x' } })).toEqual([
      'apiVersion: no schema for Nothing in example.com/v9: its CRD is neither bundled with hcp-cdk nor among the CRDs given; supply example.com/v9 Nothing',
    ]);
  });
});

describe('CEL rules', () => {
  test('run with self bound to the value, defaults applied first, integers as ints', () => {
    const v = widgetValidator({
      type: 'object',
      properties: { min: { type: 'integer', default: 1 }, max: { type: 'integer' } },
      'x-kubernetes-validations': [{ rule: 'self.max >= self.min', message: 'max must be >= min' }],
    });
    expect(problemsOf(v, widget({ max: 1 }))).toEqual([]);
    expect(v.validate(widget({ max: 0 }))).toEqual([
      expect.objectContaining({
        path: 'spec',
        message: 'max must be >= min',
        rule: 'self.max >= self.min',
        value: { min: 1, max: 0 },
      }),
    ]);
  });

  test('messageExpression, fieldPath and the default message', () => {
    const v = widgetValidator({
      type: 'object',
      properties: { a: { type: 'string' } },
      'x-kubernetes-validations': [{ rule: 'self.a != "x"', messageExpression: '"a may not be " + self.a', fieldPath: '.a' }, { rule: 'self.a != "y"' }],
    });
    expect(problemsOf(v, widget({ a: 'x' }))).toEqual(['spec.a: a may not be x']);
    expect(problemsOf(v, widget({ a: 'y' }))).toEqual(['spec: failed rule: self.a != "y"']);
  });

  test('an evaluation error rejects the object, as in the API server', () => {
    const v = widgetValidator({ type: 'object', properties: { a: { type: 'string' } }, 'x-kubernetes-validations': [{ rule: 'self.b == 1', message: 'b must be 1' }] });
    expect(problemsOf(v, widget({ a: 'x' }))).toEqual(['spec: b must be 1 (rule evaluation error: No such key: b)']);
  });

  test('transition rules run only when the stored object is given, on correlated values', () => {
    const v = widgetValidator({
      type: 'object',
      properties: {
        name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'name is immutable' }] },
        // Bounded, as the API server requires of a rule on every item (its CEL cost budget).
        items: {
          type: 'array',
          maxItems: 16,
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['key'],
          items: {
            type: 'object',
            properties: { key: { type: 'string' }, value: { type: 'string', maxLength: 64, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'value is immutable' }] } },
          },
        },
      },
    });
    const before = widget({ name: 'a', items: [{ key: 'k', value: '1' }] });
    expect(problemsOf(v, widget({ name: 'b', items: [{ key: 'k', value: '2' }] }))).toEqual([]);
    expect(
      problemsOf(
        v,
        widget({
          name: 'b',
          items: [
            { key: 'j', value: '0' },
            { key: 'k', value: '2' },
          ],
        }),
        before,
      ),
    ).toEqual(['spec.name: name is immutable', 'spec.items[1].value: value is immutable']);
  });

  test('the stored object gets its defaults too, so changing a defaulted field is a change', () => {
    const v = widgetValidator({
      type: 'object',
      properties: { flag: { type: 'boolean', default: false, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'flag is immutable' }] } },
    });
    expect(problemsOf(v, widget({ flag: true }), widget({}))).toEqual(['spec.flag: flag is immutable']);
    expect(problemsOf(v, widget({}), widget({ flag: false }))).toEqual([]);
  });

  test('optionalOldSelf rules also run on create, with oldSelf as an optional', () => {
    const v = widgetValidator({
      type: 'object',
      properties: { a: { type: 'string', 'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue() || self == "new"', message: 'must start as new', optionalOldSelf: true }] } },
    });
    expect(problemsOf(v, widget({ a: 'old' }))).toEqual(['spec.a: must start as new']);
    expect(problemsOf(v, widget({ a: 'old' }), widget({ a: 'x' }))).toEqual([]);
  });

  describe('parts of a spec seen before', () => {
    // One validator checks a fleet's objects, which repeat their parts: the rules of a part and the
    // spec-level rule that reads it must hold for every object, whatever was checked before.
    const spec = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        part: {
          type: 'object',
          properties: { size: { type: 'integer', default: 2 }, tier: { type: 'string', maxLength: 4 } },
          'x-kubernetes-validations': [{ rule: 'self.size <= 3', message: 'size must be <= 3' }],
        },
      },
      'x-kubernetes-validations': [{ rule: 'self.name != "big" || self.part.size == 3', message: 'big needs size 3' }],
    };

    test('a valid part shared by many objects still gives each its own rules above it', () => {
      const v = widgetValidator(spec);
      expect(problemsOf(v, widget({ name: 'a', part: { tier: 'gold' } }))).toEqual([]);
      expect(problemsOf(v, widget({ name: 'big', part: { tier: 'gold' } }))).toEqual(['spec: big needs size 3']);
      expect(problemsOf(v, widget({ name: 'big', part: { tier: 'gold', size: 3 } }))).toEqual([]);
    });

    test('an invalid part is reported every time it appears', () => {
      const v = widgetValidator(spec);
      for (const name of ['a', 'b']) {
        expect(problemsOf(v, widget({ name, part: { size: 5, tier: 'gold' } }))).toEqual(['spec.part: size must be <= 3']);
      }
    });

    test('an update check sees the stored part: transition rules compare it', () => {
      const immutable = { ...spec, properties: { ...spec.properties, part: { ...spec.properties.part, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'part is immutable' }] } } };
      const v = widgetValidator(immutable);
      expect(problemsOf(v, widget({ name: 'a', part: { tier: 'new' } }))).toEqual([]);
      expect(problemsOf(v, widget({ name: 'a', part: { tier: 'new' } }), widget({ name: 'a', part: { tier: 'old' } }))).toEqual(['spec.part: part is immutable']);
    });

    test('a rule observer sees every evaluation, repeated parts included', () => {
      let evaluations = 0;
      const v = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([widgetCrd(spec)], 'test'), ruleObserver: () => evaluations++ });
      v.validate(widget({ name: 'a', part: {} }));
      v.validate(widget({ name: 'b', part: {} }));
      expect(evaluations).toBe(4);
    });
  });

  test("each rule is compiled once however many objects reach it, those on a kind's root too", () => {
    const compiled = new Map<string, Set<unknown>>();
    const v = new ObjectValidator({ ruleObserver: (rule) => compiled.set(rule.id, (compiled.get(rule.id) ?? new Set()).add(rule)) });
    // As updates, so that the root's two rules (transition rules) run and reach the observer.
    v.validate(HOSTED_CLUSTER, { previous: HOSTED_CLUSTER });
    v.validate(withChanges(HOSTED_CLUSTER, { metadata: { name: 'another' } }), { previous: HOSTED_CLUSTER });
    const rootRules = [...compiled.keys()].filter((id) => id.includes('<root>'));
    expect(rootRules).toEqual(['hostedclusters.hypershift.openshift.io@v1beta1 <root>#0', 'hostedclusters.hypershift.openshift.io@v1beta1 <root>#1']);
    expect([...compiled.values()].filter((instances) => instances.size > 1)).toEqual([]);
  });

  test('the Kubernetes libraries: URLs, IPs, CIDRs, formats, quantities, regex, lists', () => {
    const rules = [
      'isURL(self.url) && url(self.url).getScheme() == "https" && url(self.url).getHost() == "[::1]:8443" && url(self.url).getHostname() == "::1" && url(self.url).getPort() == "8443" && url(self.url).getEscapedPath() == "/a%20b" && url(self.url).getQuery() == {"x": ["1", "2"]}',
      '!isURL("no scheme") && !isIP("::ffff:192.0.2.1") && isIP("fd00::1") && ip("192.0.2.1").family() == 4',
      'isCIDR(self.cidr) && cidr(self.cidr).prefixLength() == 64 && cidr(self.cidr).ip().family() == 6 && cidr(self.cidr).containsIP("fd00::5") && !cidr(self.cidr).containsIP("fd01::1")',
      '!format.dns1123Subdomain().validate("a.b").hasValue() && format.dns1123Label().validate("a.b").hasValue() && format.named("labelValue").hasValue()',
      'quantity("1Gi").isGreaterThan(quantity("1000Mi")) && quantity("500m").compareTo(quantity("0.5")) == 0 && isQuantity("1.5e3") && !isQuantity("1GB")',
      '"abc#frag".find("#(.+)$") == "#frag" && "a1b22".findAll("[0-9]+") == ["1", "22"] && "ABC".matches("^(?i)abc$") && "x]".matches("^[^]a]+$") == false',
      '[1, 2, 3].sum() == 6 && [3, 1].min() == 1 && [1, 2].isSorted() && ["a", "b"].indexOf("b") == 1',
      'self.?missing.orValue("d") == "d" && self.?url.hasValue()',
    ];
    const v = widgetValidator({
      type: 'object',
      properties: { url: { type: 'string' }, cidr: { type: 'string' } },
      'x-kubernetes-validations': rules.map((rule, i) => ({ rule, message: `rule ${i}` })),
    });
    expect(problemsOf(v, widget({ url: 'https://[::1]:8443/a%20b?x=1&x=2', cidr: 'fd00::/64' }))).toEqual([]);
  });

  test('a rule calling an unsupported function fails loudly, naming the function', () => {
    const v = widgetValidator({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.frobnicate() == 1' }] });
    expect(() => v.validate(widget({}))).toThrow(UnsupportedCelRuleError);
    expect(() => v.validate(widget({}))).toThrow(/widgets\.example\.com@v1 \.spec: CEL rule "self\.frobnicate\(\) == 1" cannot be checked: found no matching overload for 'dyn\.frobnicate\(\)'/);
  });

  test('every rule of every bundled CRD compiles', () => {
    const catalog = SchemaCatalog.bundled();
    const counts: Record<string, number> = {};
    for (const key of catalog.knownKinds()) {
      const kind = catalog.lookup(key.slice(0, key.lastIndexOf('/')), key.slice(key.lastIndexOf('/') + 1))!;
      counts[kind.id] = catalog.allRules(kind).length;
    }
    expect(counts['hostedclusters.hypershift.openshift.io@v1beta1']).toBe(250);
    expect(counts['nodepools.hypershift.openshift.io@v1beta1']).toBe(54);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeGreaterThan(600);
  });
});

describe('subresources', () => {
  const crd: any = {
    ...widgetCrd({}),
    spec: {
      group: 'example.com',
      names: { kind: 'Widget', plural: 'widgets' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, phase: { type: 'string' } } },
              },
            },
          },
        },
      ],
    },
  };
  const v = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([crd], 'test') });
  const scaled = (spec: object, status?: object) => ({ ...widget(spec), ...(status ? { status } : {}) });

  test("the scale subresource's replica counts are non-negative int32s whatever the schema says", () => {
    expect(problemsOf(v, scaled({ replicas: 0 }, { replicas: 2 ** 31 - 1 }))).toEqual([]);
    expect(problemsOf(v, scaled({ replicas: -1 }))).toEqual(['spec.replicas: Invalid value: should be a non-negative integer: the scale subresource reads it as a replica count']);
    expect(problemsOf(v, scaled({}, { replicas: 2 ** 31 }))).toEqual(['status.replicas: Invalid value: should be less than or equal to 2147483647: the scale subresource reads it as a replica count']);
    expect(problemsOf(v, { ...widget('three') })).toEqual([
      'spec: Invalid value: must be of type object, got string',
      'spec.replicas: Invalid value: cannot be read: a field on the way to it is not a mapping; the scale subresource reads it as a replica count',
    ]);
  });

  test('nulls in status are dropped, as the status subresource, an update, drops them', () => {
    expect(problemsOf(v, scaled({ replicas: 1 }, { phase: null, replicas: null }))).toEqual([]);
    expect(problemsOf(v, scaled({ replicas: null }))).toEqual([
      'spec.replicas: Invalid value: null: must be of type integer (server-side apply refuses a null in a field that is not nullable and has no default; a create drops it)',
      'spec.replicas: Invalid value: must be an integer: the scale subresource reads it as a replica count',
    ]);
  });
});

describe('CRDs given by the user', () => {
  test('replace the bundled schema of the kinds they serve', () => {
    const strict = {
      ...widgetCrd({}),
      metadata: { name: 'hostedclusters.hypershift.openshift.io' },
      spec: {
        group: 'hypershift.openshift.io',
        names: { kind: 'HostedCluster', plural: 'hostedclusters' },
        scope: 'Namespaced',
        versions: [
          {
            name: 'v1beta1',
            served: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  apiVersion: { type: 'string' },
                  kind: { type: 'string' },
                  metadata: { type: 'object' },
                  spec: { type: 'object', properties: { infraID: { type: 'string', maxLength: 3 } } },
                },
              },
            },
          },
        ],
      },
    };
    const v = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([strict], 'cluster.yaml') });
    const problems = v.validate(withChanges(HOSTED_CLUSTER, { spec: { infraID: 'abcd' } })).map(formatProblem);
    expect(problems).toEqual(['HostedCluster clusters/vcluster2: spec.infraID: Too long: may not be more than 3 characters (has 4) (value: "abcd")']);
  });
});

describe('objects carried in a Policy', () => {
  const v = new ObjectValidator();
  /** A Policy whose `policy-templates` carry `templates`. */
  const policy = (...templates: unknown[]) => ({
    apiVersion: 'policy.open-cluster-management.io/v1',
    kind: 'Policy',
    metadata: { name: 'p', namespace: 'policies' },
    spec: { 'disabled': false, 'policy-templates': templates.map((objectDefinition) => ({ objectDefinition })) },
  });
  const configurationPolicy = (spec: object) => ({ apiVersion: 'policy.open-cluster-management.io/v1', kind: 'ConfigurationPolicy', metadata: { name: 'c' }, spec });
  const operatorPolicy = (spec: object) => ({
    apiVersion: 'policy.open-cluster-management.io/v1beta1',
    kind: 'OperatorPolicy',
    metadata: { name: 'o' },
    spec: { remediationAction: 'enforce', complianceType: 'musthave', subscription: { name: 'x', namespace: 'y' }, upgradeApproval: 'None', ...spec },
  });

  test('accepts a Policy whose templates meet their own schemas', () => {
    expect(problemsOf(v, policy(configurationPolicy({ 'remediationAction': 'enforce', 'object-templates': [] }), operatorPolicy({})))).toEqual([]);
  });

  test('checks each template against its own CRD, at its path in the Policy, naming the Policy', () => {
    const problems = v
      .validate(
        policy(
          configurationPolicy({ 'remediationAction': 'enforce', 'pruneObjectBehavior': 'Never', 'object-templates': [] }),
          operatorPolicy({ upgradeApproval: undefined, removalBehavior: { operatorGroups: 'Delete' }, colour: 'red' }),
        ),
      )
      .map(formatProblem);
    expect(problems).toEqual([
      'Policy policies/p: spec.policy-templates[0].objectDefinition.spec.pruneObjectBehavior: Unsupported value: supported values: "DeleteAll", "DeleteIfCreated", "None" (value: "Never")',
      'Policy policies/p: spec.policy-templates[1].objectDefinition.spec.upgradeApproval: Required value',
      'Policy policies/p: spec.policy-templates[1].objectDefinition.spec.removalBehavior.operatorGroups: Unsupported value: supported values: "Keep", "DeleteIfUnused" (value: "Delete")',
      'Policy policies/p: spec.policy-templates[1].objectDefinition.spec.colour: unknown field "spec.colour": the schema has no such field (strict field validation rejects it; without it the field is silently dropped) (value: "red")',
    ]);
  });

  test("checks a template's metadata, and reports a template of a kind without a schema as it would the Policy", () => {
    expect(problemsOf(v, policy({ ...operatorPolicy({}), metadata: { name: 'Not_A_Name' } }, { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' } }))).toEqual([
      'spec.policy-templates[0].objectDefinition.metadata.name: Invalid value: must be a DNS-1123 subdomain (lower-case letters, digits, "-" and ".", at most 253 characters)',
      expect.stringMatching(/^spec\.policy-templates\[1\]\.objectDefinition\.apiVersion: no schema for Gadget in example\.com\/v1: its CRD is neither bundled with hcp-cdk nor among the CRDs given; /),
    ]);
  });

  test("a template that is not an object is reported once, by the Policy's own schema", () => {
    expect(problemsOf(v, policy('ConfigurationPolicy'))).toEqual(['spec.policy-templates[0].objectDefinition: Invalid value: must be of type object, got string']);
  });

  test("runs a template's transition rules against the stored template of the same kind and name", () => {
    const withWidgets = new ObjectValidator({
      catalog: SchemaCatalog.bundled().addCustomResourceDefinitions(
        [
          widgetCrd({
            type: 'object',
            properties: { size: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'size is immutable' }] } },
          }),
        ],
        'test',
      ),
    });
    const carried = (name: string, size: number) => ({ ...widget({ size }), metadata: { name } });
    const before = policy(carried('a', 1), carried('b', 1));
    expect(problemsOf(withWidgets, policy(carried('b', 2), carried('c', 2)))).toEqual([]);
    expect(problemsOf(withWidgets, policy(carried('b', 2), carried('c', 2)), before)).toEqual(['spec.policy-templates[0].objectDefinition.spec.size: size is immutable']);
  });

  test("leaves a ConfigurationPolicy's object templates to the controller: musthave merges partial objects", () => {
    expect(
      problemsOf(
        v,
        policy(
          configurationPolicy({
            'remediationAction': 'enforce',
            'object-templates': [{ complianceType: 'musthave', objectDefinition: { apiVersion: 'v1', kind: 'Namespace', metadata: { labels: { a: 'b' } } } }],
          }),
        ),
      ),
    ).toEqual([]);
  });
});

describe('built-in kinds promoted after the bundled Kubernetes 1.28 schemas', () => {
  const validator = new ObjectValidator({ catalog: SchemaCatalog.bundled() });

  test('a ValidatingAdmissionPolicy of admissionregistration.k8s.io/v1 (GA in 1.30) is checked against the v1beta1 fields it kept', () => {
    const policy = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'p' },
      spec: { failurePolicy: 'Fail', validations: [{ expression: 'true' }] },
    };
    expect(problemsOf(validator, policy)).toEqual([]);
    expect(problemsOf(validator, { ...policy, spec: { ...policy.spec, validation: [] } })).toEqual([expect.stringMatching(/^spec\.validation: /)]);
    const binding = { apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingAdmissionPolicyBinding', metadata: { name: 'p' }, spec: { policyName: 'p', validationActions: ['Deny'] } };
    expect(problemsOf(validator, binding)).toEqual([]);
    expect(SchemaCatalog.bundled().knownKinds()).toContain('admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy');
  });
});
