// The fingerprint under which a validator's verdicts are recorded and reused: it must change with
// anything that can change a verdict (schemas, added CRDs, hcp-cdk's code), and only then.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ObjectValidator, SchemaCatalog } from '../../lib';
import { codeDigest, folderDigest, validatorCodeFingerprint } from '../../lib/validation/validator-fingerprint';
import { widgetCrd } from './object-cases';

const WIDGET_CRD = widgetCrd({ type: 'object' }) as any;

describe('validator fingerprint', () => {
  test('two validators of the bundled schemas have one fingerprint', () => {
    const fingerprint = new ObjectValidator().fingerprint;
    expect(fingerprint).toMatch(/^[0-9a-f]{40}$/);
    expect(new ObjectValidator({ catalog: SchemaCatalog.bundled() }).fingerprint).toBe(fingerprint);
  });

  test('an added CRD changes it, and a CRD that differs in one field gives another', () => {
    const bundled = new ObjectValidator().fingerprint;
    const withWidget = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([WIDGET_CRD], 'a') }).fingerprint;
    const clusterWidget = new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([{ ...WIDGET_CRD, spec: { ...WIDGET_CRD.spec, scope: 'Cluster' } }], 'a') }).fingerprint;
    expect(new Set([bundled, withWidget, clusterWidget]).size).toBe(3);
    // Where the CRD was read from is not part of a verdict.
    expect(new ObjectValidator({ catalog: SchemaCatalog.bundled().addCustomResourceDefinitions([WIDGET_CRD], 'b') }).fingerprint).toBe(withWidget);
  });

  test('a validator with a rule observer has none: nothing may be taken over from a record for it', () => {
    expect(new ObjectValidator({ ruleObserver: () => undefined }).fingerprint).toBeUndefined();
  });

  test('the code part is the same on every call', () => {
    expect(validatorCodeFingerprint()).toMatch(/^[0-9a-f]{40}$/);
    expect(validatorCodeFingerprint()).toBe(validatorCodeFingerprint());
  });

  test('codeDigest digests the library around a module in validation/, and a bundle on its own', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-code-'));
    fs.mkdirSync(path.join(dir, 'lib', 'validation'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib', 'validation', 'validator-fingerprint.js'), 'exports.v = 1;\n');
    fs.writeFileSync(path.join(dir, 'lib', 'index.js'), 'exports.i = 1;\n');
    expect(codeDigest(path.join(dir, 'lib', 'validation', 'validator-fingerprint.js'))).toBe(folderDigest(path.join(dir, 'lib'), '.js'));
    fs.mkdirSync(path.join(dir, 'dist'));
    fs.writeFileSync(path.join(dir, 'dist', 'app.js'), 'bundled();\n');
    const bundle = codeDigest(path.join(dir, 'dist', 'app.js'));
    fs.writeFileSync(path.join(dir, 'dist', 'other.js'), 'not part of it');
    expect(codeDigest(path.join(dir, 'dist', 'app.js'))).toBe(bundle);
    fs.writeFileSync(path.join(dir, 'dist', 'app.js'), 'bundled(2);\n');
    expect(codeDigest(path.join(dir, 'dist', 'app.js'))).not.toBe(bundle);
  });

  test("folderDigest changes with a file's bytes, name or folder, and ignores other extensions", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-fingerprint-'));
    fs.mkdirSync(path.join(dir, 'core'));
    fs.writeFileSync(path.join(dir, 'core', 'a.js'), 'exports.a = 1;\n');
    fs.writeFileSync(path.join(dir, 'b.js'), 'exports.b = 2;\n');
    const digest = folderDigest(dir, '.js');
    fs.writeFileSync(path.join(dir, 'core', 'a.js.map'), '{}');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not code');
    expect(folderDigest(dir, '.js')).toBe(digest);
    fs.writeFileSync(path.join(dir, 'core', 'a.js'), 'exports.a = 3;\n');
    const edited = folderDigest(dir, '.js');
    expect(edited).not.toBe(digest);
    fs.renameSync(path.join(dir, 'b.js'), path.join(dir, 'c.js'));
    const renamed = folderDigest(dir, '.js');
    expect(renamed).not.toBe(edited);
    fs.renameSync(path.join(dir, 'c.js'), path.join(dir, 'core', 'c.js'));
    expect(folderDigest(dir, '.js')).not.toBe(renamed);
  });
});
