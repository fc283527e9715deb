// A raw ApiObject of a kind whose CRD hcp-cdk does not bundle: refused with both ways out named,
// checked against a CRD given with HcpApp's crds (schema and CEL), or waived for its kind alone
// with a reason that every synth lists.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import * as YAML from 'yaml';
import { allowUnvalidatedKind, CustomResourceDefinitionObject, HcpApp, HcpAppProps, HcpValidationError, ManagementCluster } from '../../lib';
import { newCluster } from '../props';
import { findObject, synthObjects, synthProblems } from '../util';
import { widgetCrd } from './object-cases';

const WIDGETS = 'example.com/v1';

/** A CRD hcp-cdk does not bundle: Widget, with a size from 1 to 10 and a CEL rule on its spec. */
const WIDGET_CRD = widgetCrd({
  type: 'object',
  required: ['size'],
  properties: { size: { type: 'integer', minimum: 1, maximum: 10 }, colour: { type: 'string' } },
  'x-kubernetes-validations': [{ rule: 'self.size < 5 || has(self.colour)', message: 'a widget of size 5 or more needs a colour' }],
}) as CustomResourceDefinitionObject;

/** Widget tools/w1, or tools/<id> for another id. */
function widget(scope: Construct, spec: object = { size: 2 }, id = 'widget'): ApiObject {
  return new ApiObject(scope, id, { apiVersion: WIDGETS, kind: 'Widget', metadata: { name: id === 'widget' ? 'w1' : id, namespace: 'tools' }, spec });
}

function newApp(props: HcpAppProps = {}): HcpApp {
  return new HcpApp({ outdir: '/nonexistent', ...props });
}

const MISSING_SCHEMA =
  'apiVersion: no schema for Widget in example.com/v1: its CRD is neither bundled with hcp-cdk nor among the CRDs given; ' +
  "give its CRD in HcpApp's crds (a file, a directory or the parsed CustomResourceDefinition), or waive the check of this kind with " +
  'allowUnvalidatedKind(scope, { apiVersion: "example.com/v1", kind: "Widget", reason: \'<why it may go unchecked>\' }) (value: "example.com/v1")';

describe('a raw object of a kind whose CRD is not bundled', () => {
  test('fails the synth, naming the construct, the object and both ways out', () => {
    expect(synthProblems((app) => widget(new ManagementCluster(app, 'hub')))).toEqual([`hub/widget: Widget tools/w1: ${MISSING_SCHEMA}`]);
  });

  test("fails in a hosted cluster's guest chart too", () => {
    expect(synthProblems((app) => widget(newCluster({}, app).guest))).toEqual([`c1-guest/widget: Widget tools/w1: ${MISSING_SCHEMA}`]);
  });
});

describe('HcpApp crds', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-crds-'));
  const file = path.join(dir, 'widgets.yaml');
  fs.writeFileSync(file, YAML.stringify(WIDGET_CRD));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  test.each([
    ['a file', file],
    ['a directory', dir],
    ['the parsed object', WIDGET_CRD],
  ])('given as %s, let the object through, checked and written as it is', (_, crds) => {
    const app = newApp({ crds: [crds] });
    widget(new ManagementCluster(app, 'hub'), { size: 7, colour: 'teal' });
    const written = findObject(synthObjects(app), 'Widget', 'w1');
    expect(written.apiVersion).toBe(WIDGETS);
    expect(written.metadata).toEqual(expect.objectContaining({ name: 'w1', namespace: 'tools' }));
    expect(written.spec).toEqual({ size: 7, colour: 'teal' });
  });

  test('check the object against its schema and CEL rules as the bundled CRDs are', () => {
    expect(
      synthProblems(
        (app) => {
          const hub = new ManagementCluster(app, 'hub');
          widget(hub, { size: 11, colour: 'teal' }, 'too-big');
          widget(hub, { size: 6 }, 'no-colour');
        },
        { crds: [WIDGET_CRD] },
      ),
    ).toEqual([
      'hub/too-big: Widget tools/too-big: spec.size: Invalid value: must be less than or equal to 10 (value: 11)',
      'hub/no-colour: Widget tools/no-colour: spec: a widget of size 5 or more needs a colour (value: {"size":6})',
    ]);
  });

  test('that are not CRDs are refused when the app is made, each named', () => {
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty, { recursive: true });
    fs.writeFileSync(path.join(empty, 'config.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    const missing = path.join(dir, 'missing.yaml');
    const notCrd = { apiVersion: 'v1', kind: 'ConfigMap' } as unknown as CustomResourceDefinitionObject;
    const noSchema = { ...WIDGET_CRD, spec: { ...WIDGET_CRD.spec, versions: [{ name: 'v1alpha1', served: true }] } };
    let error: unknown;
    try {
      newApp({ crds: [missing, empty, notCrd, noSchema] });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(HcpValidationError);
    expect((error as HcpValidationError).problems).toEqual([
      `HcpApp: crds[0] (${JSON.stringify(missing)}) does not exist; give a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)`,
      `HcpApp: crds[1] (${JSON.stringify(empty)}) holds no CustomResourceDefinition; give a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)`,
      'HcpApp: crds[2] ({"apiVersion":"v1","kind":"ConfigMap"}) must be a file path or a CustomResourceDefinition object',
      'HcpApp: crds[3] (CustomResourceDefinition "widgets.example.com") serves no version with a schema (spec.versions[].schema.openAPIV3Schema)',
    ]);
  });
});

describe('allowUnvalidatedKind', () => {
  const REASON = 'the widget operator publishes no CRD before it is installed';

  test('lets the objects of that kind under its scope through unchecked, and the synth lists it with its reason', () => {
    const app = newApp();
    const hub = new ManagementCluster(app, 'hub');
    allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
    widget(hub, { size: 'any shape at all' });
    widget(hub, { size: 3 }, 'w2');
    const objects = synthObjects(app).filter((o) => o.kind === 'Widget');
    expect(objects.map((o) => o.spec)).toEqual([{ size: 'any shape at all' }, { size: 3 }]);
    expect(app.notices).toContain(`hub: allowUnvalidatedKind (example.com/v1 Widget): 2 objects are written without a schema check, because ${JSON.stringify(REASON)}`);
    expect(app.warnings).toEqual([]);
  });

  test('waives that kind only, and only under its scope', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
        widget(hub);
        new ApiObject(hub, 'gizmo', { apiVersion: WIDGETS, kind: 'Gizmo', metadata: { name: 'z1', namespace: 'tools' } });
        widget(new ManagementCluster(app, 'other-hub'));
      }),
    ).toEqual([expect.stringMatching(/^hub\/gizmo: Gizmo tools\/z1: apiVersion: no schema for Gizmo in example\.com\/v1: /), `other-hub/widget: Widget tools/w1: ${MISSING_SCHEMA}`]);
  });

  test('works in a guest chart, and on the app for every chart', () => {
    const app = newApp();
    allowUnvalidatedKind(app, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
    const cluster = newCluster({}, app);
    widget(cluster.guest);
    widget(cluster.node.scope!, { size: 1 }, 'on-the-hub');
    expect(synthObjects(app).filter((o) => o.kind === 'Widget')).toHaveLength(2);
    expect(app.notices).toContain(`HcpApp: allowUnvalidatedKind (example.com/v1 Widget): 2 objects are written without a schema check, because ${JSON.stringify(REASON)}`);
  });

  test('fails the synth for a kind that has a schema, bundled or from crds: its objects are checked all the same', () => {
    expect(
      synthProblems(
        (app) => {
          const hub = new ManagementCluster(app, 'hub');
          allowUnvalidatedKind(hub, { apiVersion: 'v1', kind: 'ConfigMap', reason: 'mine' });
          allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
          widget(hub);
        },
        { crds: [WIDGET_CRD] },
      ),
    ).toEqual([
      'hub: allowUnvalidatedKind (v1 ConfigMap) waives a kind that has a schema (cdk8s-plus-28 (Kubernetes 1.28)): its objects are checked against it all the same; remove the waiver',
      'hub: allowUnvalidatedKind (example.com/v1 Widget) waives a kind that has a schema (HcpApp crds[0] (widgets.example.com)): its objects are checked against it all the same; remove the waiver',
    ]);
  });

  test('that no object uses is a warning, and an error with strict', () => {
    const app = newApp();
    allowUnvalidatedKind(new ManagementCluster(app, 'hub'), { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
    synthObjects(app);
    expect(app.warnings).toEqual(['hub: allowUnvalidatedKind (example.com/v1 Widget) waives no object: no object of that kind is under hub; remove the waiver']);
    expect(
      synthProblems(
        (strictApp) => {
          allowUnvalidatedKind(new ManagementCluster(strictApp, 'hub'), { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
        },
        { strict: true },
      ),
    ).toEqual(['hub: allowUnvalidatedKind (example.com/v1 Widget) waives no object: no object of that kind is under hub; remove the waiver']);
  });

  test('fails for a missing reason, a malformed apiVersion or kind, and a second waiver of the same kind', () => {
    expect(
      synthProblems((app) => {
        const hub = new ManagementCluster(app, 'hub');
        allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: ' ' });
        allowUnvalidatedKind(hub, { apiVersion: 'Widgets/v1', kind: 'widget', reason: REASON });
        allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
        allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: 'again' });
        widget(hub);
      }),
    ).toEqual([
      'hub: allowUnvalidatedKind reason (" ") must say why objects of this kind may go unchecked, e.g. "the vendor publishes no CRD"',
      'hub: allowUnvalidatedKind apiVersion ("Widgets/v1") must be an API group and version, e.g. "widgets.example.com/v1alpha1", or a core version such as "v1"',
      'hub: allowUnvalidatedKind kind ("widget") must be a kind as objects spell it, e.g. "Widget"',
      'hub: allowUnvalidatedKind (example.com/v1 Widget) is given twice on hub; give it once',
    ]);
  });

  test('HcpApp.plan() does not refuse the waived objects for their missing schema', () => {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-waived-plan-'));
    try {
      const build = (size: number): HcpApp => {
        const app = new HcpApp({ outdir, compareWithPreviousOutput: false, keepLastGoodCopy: false });
        const hub = new ManagementCluster(app, 'hub');
        allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
        widget(hub, { size });
        return app;
      };
      build(2).writeFiles(build(2).synthesize());
      const plan = build(3).plan({ previous: { directory: outdir } });
      const widgets = plan.objects.filter((o) => o.kind === 'Widget');
      expect(widgets.map((o) => [o.action, o.effects.map((e) => e.effect)])).toEqual([['update', expect.not.arrayContaining(['refused'])]]);
    } finally {
      fs.rmSync(outdir, { recursive: true, force: true });
    }
  });

  test('re-synth is byte-identical', () => {
    const build = () => {
      const app = newApp();
      const hub = new ManagementCluster(app, 'hub');
      allowUnvalidatedKind(hub, { apiVersion: WIDGETS, kind: 'Widget', reason: REASON });
      widget(hub);
      return app.synthesize();
    };
    expect(build()).toEqual(build());
  });
});
