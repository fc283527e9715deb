// The `hcp-cdk validate` command, run as users run it: a separate node process on files on disk.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { LINT_CASES, writeLintFixtures } from '../validation/lint-fixtures';
import { HOSTED_CLUSTER, NODE_POOL, widgetCrd, withChanges } from '../validation/object-cases';
import { ROOT } from '../util';

function hcpCdk(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A fresh directory holding the given files (name to objects). */
function tree(files: Record<string, unknown[]>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-validate-'));
  for (const [name, objects] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), objects.map((o) => YAML.stringify(o)).join('---\n'));
  }
  return dir;
}

test('validates a directory of valid objects and says how many', () => {
  const dir = tree({ 'a/cluster.yaml': [HOSTED_CLUSTER, NODE_POOL], 'ns.yaml': [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'clusters' } }] });
  const result = hcpCdk('validate', dir);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  expect(result.stdout).toMatch(/^hcp-cdk validate: 3 objects in 2 files, 0 problems \(\d+ ms\)\n$/);
});

test('lists every problem with file, object, field, message and value, and exits 1', () => {
  const dir = tree({
    'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.infraID': 'Bad_ID' }), withChanges(NODE_POOL, { 'spec.arch': 'sparc' })],
  });
  const result = hcpCdk('validate', dir);
  expect(result.status).toBe(1);
  const file = path.join(dir, 'cluster.yaml');
  expect(result.stderr).toContain(
    `${file}: HostedCluster clusters/vcluster2: spec.infraID: infraID must consist of lowercase alphanumeric characters or '-', start and end with an alphanumeric character, and be between 1 and 253 characters (value: "Bad_ID")`,
  );
  expect(result.stderr).toContain(`${file}: NodePool clusters/vcluster2: spec.arch: Unsupported value: supported values: "arm64", "amd64", "ppc64le", "s390x" (value: "sparc")`);
  expect(result.stderr).toMatch(/hcp-cdk validate: 2 objects in 1 files, 2 problems/);
});

test('checks transition rules against --previous, file by file', () => {
  const before = tree({ 'cluster.yaml': [HOSTED_CLUSTER] });
  const after = tree({ 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.infraID': 'other' })] });
  expect(hcpCdk('validate', after).status).toBe(0);
  const result = hcpCdk('validate', after, '--previous', before);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('spec.infraID: infraID is immutable');
});

test("--crds replaces the bundled schema with the cluster's CRDs", () => {
  const crd = YAML.parse(fs.readFileSync(path.join(ROOT, '..', 'shared', 'crds', 'hypershift', 'nodepools-Default.crd.yaml'), 'utf8'));
  const version = crd.spec.versions.find((v: any) => v.name === 'v1beta1');
  version.schema.openAPIV3Schema.properties.spec.properties.replicas.maximum = 1;
  const crds = tree({ 'crds.yaml': [crd] });
  const objects = tree({ 'pool.yaml': [NODE_POOL] });
  expect(hcpCdk('validate', objects).status).toBe(0);
  const result = hcpCdk('validate', objects, '--crds', crds);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain('spec.replicas: Invalid value: must be less than or equal to 1 (value: 2)');
});

describe('an object of a kind whose CRD is not bundled', () => {
  const WIDGET = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'g1', namespace: 'tools' }, spec: { size: 'large' } };
  const WIDGET_CRD = widgetCrd({ type: 'object', properties: { size: { type: 'integer' } } });

  test('is a problem that names the file, the object and both ways out', () => {
    const dir = tree({ 'widget.yaml': [WIDGET] });
    const result = hcpCdk('validate', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      `${path.join(dir, 'widget.yaml')}: Widget tools/g1: apiVersion: no schema for Widget in example.com/v1: its CRD is neither bundled with hcp-cdk nor among the CRDs given; ` +
        'give its CRD with --crds <file-or-directory>, or waive the check of this kind with --allow-unvalidated-kind example.com/v1/Widget=<why it may go unchecked> (value: "example.com/v1")',
    );
  });

  test('is checked against its CRD given with --crds', () => {
    const result = hcpCdk('validate', tree({ 'widget.yaml': [WIDGET] }), '--crds', tree({ 'crds.yaml': [WIDGET_CRD] }));
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Widget tools/g1: spec.size: Invalid value: must be of type integer, got string (value: "large")');
  });

  test("--crds that hold no CRD exit 2, each named, as HcpApp's crds stop the app", () => {
    const notCrds = tree({ 'config.yaml': [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'y' } }] });
    const result = hcpCdk('validate', tree({ 'widget.yaml': [WIDGET] }), '--crds', notCrds, '--crds', '/nonexistent/crds.yaml');
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(
      `hcp-cdk validate: --crds (${JSON.stringify(notCrds)}) holds no CustomResourceDefinition; give a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)\n` +
        'hcp-cdk validate: --crds ("/nonexistent/crds.yaml") does not exist; give a YAML or JSON file of CustomResourceDefinitions, or a directory of them (oc get crd <name> -o yaml > <file>)\n',
    );
  });

  test('passes unchecked with --allow-unvalidated-kind, which is listed with its reason', () => {
    const result = hcpCdk(
      'validate',
      tree({ 'widget.yaml': [WIDGET, { ...WIDGET, metadata: { name: 'g2', namespace: 'tools' } }] }),
      '--allow-unvalidated-kind',
      'example.com/v1/Widget=no CRD published',
    );
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('hcp-cdk validate: note: 2 example.com/v1 Widget objects are not checked against a schema, because "no CRD published"\n');
  });

  test('--allow-unvalidated-kind for a kind that has a schema exits 2; one that no object uses is a warning', () => {
    const dir = tree({ 'widget.yaml': [WIDGET] });
    const bundled = hcpCdk('validate', dir, '--allow-unvalidated-kind', 'v1/ConfigMap=mine', '--allow-unvalidated-kind', 'example.com/v1/Widget=none published');
    expect(bundled.status).toBe(2);
    expect(bundled.stderr).toBe(
      'hcp-cdk validate: --allow-unvalidated-kind v1/ConfigMap waives a kind that has a schema (cdk8s-plus-28 (Kubernetes 1.28)): its objects are checked against it all the same; remove it\n',
    );
    const unused = hcpCdk('validate', dir, '--allow-unvalidated-kind', 'example.com/v1/Widget=none published', '--allow-unvalidated-kind', 'example.com/v1/Gizmo=none published');
    expect(unused.status).toBe(0);
    expect(unused.stderr).toContain('hcp-cdk validate: warning: --allow-unvalidated-kind example.com/v1/Gizmo waives no object: no object of that kind is in the files; remove it');
  });

  test('--allow-unvalidated-kind without a kind or a reason is a usage error', () => {
    for (const value of ['example.com/v1/Widget', 'example.com/v1/Widget= ', 'Widget=why']) {
      const result = hcpCdk('validate', 'x', '--allow-unvalidated-kind', value);
      expect([value, result.status]).toEqual([value, 2]);
      expect(result.stderr).toContain(`hcp-cdk: --allow-unvalidated-kind (${JSON.stringify(value)}) must be <apiVersion>/<Kind>=<reason>`);
    }
  });
});

test('a CRD rule with an unsupported function stops the command, naming the function', () => {
  const crd = YAML.parse(fs.readFileSync(path.join(ROOT, '..', 'shared', 'crds', 'hypershift', 'nodepools-Default.crd.yaml'), 'utf8'));
  const version = crd.spec.versions.find((v: any) => v.name === 'v1beta1');
  version.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'].push({ rule: 'self.clusterName.reverse() != ""', message: 'x' });
  const result = hcpCdk('validate', tree({ 'pool.yaml': [NODE_POOL] }), '--crds', tree({ 'crds.yaml': [crd] }));
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(
    'nodepools.hypershift.openshift.io@v1beta1 .spec: CEL rule "self.clusterName.reverse() != \\"\\"" cannot be checked: found no matching overload for \'dyn.reverse()\'',
  );
});

test('a file that is not YAML is a problem of that file', () => {
  const dir = tree({});
  fs.writeFileSync(path.join(dir, 'broken.yaml'), 'spec: [\n');
  const result = hcpCdk('validate', dir);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`${path.join(dir, 'broken.yaml')}: not valid YAML: unexpected end of the stream`);
});

test('usage errors exit 2 with the usage, on stderr', () => {
  for (const args of [[], ['frobnicate']]) {
    const result = hcpCdk(...args);
    expect([args, result.status]).toEqual([args, 2]);
    expect(result.stderr).toContain('usage: hcp-cdk <command> [options]');
  }
  for (const args of [['validate'], ['validate', '--crds'], ['validate', 'x', '--bogus'], ['validate', 'x', '--format', 'xml']]) {
    const result = hcpCdk(...args);
    expect([args, result.status]).toEqual([args, 2]);
    expect(result.stderr).toContain('usage: hcp-cdk validate <dir-or-file>...');
  }
  expect(hcpCdk('validate', 'x', '--format', 'xml').stderr).toContain('hcp-cdk: --format ("xml") must be one of text, json, junit');
  expect(hcpCdk('validate', '/nonexistent/dir').status).toBe(2);
});

describe('CLI conventions', () => {
  test.each([['--help'], ['-h'], ['help']])('%s prints the usage on stdout and exits 0', (flag) => {
    const result = hcpCdk(flag);
    expect(result).toEqual({ status: 0, stdout: expect.stringContaining('usage: hcp-cdk <command> [options]'), stderr: '' });
    expect(result.stdout).toContain('validate   check YAML or JSON objects');
  });

  test("validate --help prints the command's usage, its formats and exit codes, on stdout", () => {
    const result = hcpCdk('validate', '--help');
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('usage: hcp-cdk validate <dir-or-file>...');
    expect(result.stdout).toContain('--format <format>');
    expect(result.stdout).toContain('exit status: 0 all objects valid, 1 problems found, 2 usage error');
  });

  test('--version prints the package version', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(hcpCdk('--version')).toEqual({ status: 0, stdout: `hcp-cdk ${version}\n`, stderr: '' });
  });

  test('the built command keeps its executable bit', () => {
    expect(fs.statSync(path.join(ROOT, 'build', 'bin', 'hcp-cdk.js')).mode & 0o111).not.toBe(0);
  });

  test('--format json prints one versioned document with every problem, field by field', () => {
    const dir = tree({ 'cluster.yaml': [withChanges(HOSTED_CLUSTER, { 'spec.infraID': 'Bad_ID' }), NODE_POOL] });
    const result = hcpCdk('validate', dir, '--format', 'json');
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual({
      apiVersion: 'hcp-cdk.io/validate/v1',
      files: 1,
      objects: 2,
      valid: false,
      warnings: [],
      lint: [],
      problems: [
        {
          file: path.join(dir, 'cluster.yaml'),
          kind: 'HostedCluster',
          namespace: 'clusters',
          name: 'vcluster2',
          field: 'spec.infraID',
          message: expect.stringContaining('infraID must consist of lowercase alphanumeric characters'),
          value: 'Bad_ID',
          rule: expect.any(String),
          text: expect.stringContaining('spec.infraID: infraID must consist'),
        },
      ],
    });
    expect(hcpCdk('validate', dir, '--json').stdout).toBe(result.stdout);
  });

  test('--format junit prints a JUnit report with a failed case per file with problems', () => {
    const dir = tree({ 'bad.yaml': [withChanges(NODE_POOL, { 'spec.arch': 'sparc' })], 'good.yaml': [HOSTED_CLUSTER] });
    const result = hcpCdk('validate', dir, '--format', 'junit');
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites tests="2" failures="1">/);
    expect(result.stdout).toContain(`<testcase classname="hcp-cdk.validate" name="${path.join(dir, 'bad.yaml')}">`);
    expect(result.stdout).toContain('<failure message="spec.arch: Unsupported value: supported values: &quot;arm64&quot;');
    expect(result.stdout).not.toContain('good.yaml');
  });
});

describe('lint: what HyperShift and MetalLB refuse although the API server accepts it', () => {
  const root = writeLintFixtures(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-lint-')));
  // Every finding of every case, with its file's full path, in the order validate walks the folders.
  const expected = Object.keys(LINT_CASES)
    .sort()
    .flatMap((folder) => LINT_CASES[folder].findings.map((line) => `${path.join(root, folder)}${path.sep}${line}`));
  const objects = Object.values(LINT_CASES).reduce((n, c) => n + Object.values(c.files).reduce((m, list) => m + list.length, 0), 0);
  const files = Object.values(LINT_CASES).reduce((n, c) => n + Object.keys(c.files).length, 0);

  test('fails with --strict on a directory of hand-written objects, each rule on its case: every finding, with its rule id, and exit status 1', () => {
    const result = hcpCdk('validate', '--strict', root);
    expect(result.stdout).toBe('');
    expect(result.stderr.replace(/\(\d+ ms\)/, '(N ms)')).toBe(`${expected.join('\n')}\nhcp-cdk validate: ${objects} objects in ${files} files, 0 problems, ${expected.length} lint findings (N ms)\n`);
    expect(result.status).toBe(1);
  });

  test('without --strict the findings are warnings and the exit status 0', () => {
    const result = hcpCdk('validate', root);
    expect(result.stderr).toBe(`${expected.map((line) => `hcp-cdk validate: warning: ${line}`).join('\n')}\n`);
    expect(result.stdout.replace(/\(\d+ ms\)/, '(N ms)')).toBe(`hcp-cdk validate: ${objects} objects in ${files} files, 0 problems, ${expected.length} lint findings (warnings) (N ms)\n`);
    expect(result.status).toBe(0);
  });

  test('--format json lists the findings by rule, field and message; with --strict they make the output invalid', () => {
    const folder = path.join(root, 'node-port');
    const finding = {
      rule: 'HCP-W107',
      file: path.join(folder, 'cluster.yaml'),
      kind: 'HostedCluster',
      namespace: 'clusters',
      name: 'vcluster2',
      field: 'spec.services[0].servicePublishingStrategy.nodePort.port',
      message: 'spec.services[0].servicePublishingStrategy.nodePort.port (6443) must be a NodePort from 30000 to 32767',
      text: `${folder}${path.sep}${LINT_CASES['node-port'].findings[0]}`,
    };
    const strict = hcpCdk('validate', '--strict', '--format', 'json', folder);
    expect([strict.status, JSON.parse(strict.stdout).valid, JSON.parse(strict.stdout).lint]).toEqual([1, false, [{ ...finding, severity: 'error' }]]);
    const lenient = hcpCdk('validate', '--format', 'json', folder);
    expect([lenient.status, JSON.parse(lenient.stdout).valid, JSON.parse(lenient.stdout).lint]).toEqual([0, true, [{ ...finding, severity: 'warning' }]]);
  });
});

describe('what validate reads', () => {
  test('fails when aliases expand a small file to billions of values, quickly and in little memory', () => {
    const dir = tree({});
    const levels = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      levels.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    fs.writeFileSync(path.join(dir, 'bomb.yaml'), `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n${levels.join('\n')}\n`);
    const started = Date.now();
    const result = hcpCdk('validate', dir);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`${path.join(dir, 'bomb.yaml')}: document 1 has aliases that expand to more than 100000 values; it is not read`);
  });

  test('fails when an alias contains itself', () => {
    const dir = tree({});
    fs.writeFileSync(path.join(dir, 'loop.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: x, self: *m}\n');
    const result = hcpCdk('validate', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('document 1 has an alias that contains itself');
  });

  test('fails with exit 2 and the path on a symbolic link loop', () => {
    const dir = tree({ 'a/ns.yaml': [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }] });
    fs.symlinkSync(path.join(dir, 'a'), path.join(dir, 'a', 'again'));
    const result = hcpCdk('validate', dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`hcp-cdk validate: ${path.join(dir, 'a', 'again')}: symbolic link loop: it leads back to ${fs.realpathSync(path.join(dir, 'a'))}, which is being read already\n`);
  });

  test('fails with exit 2 and the path on a symbolic link to nothing', () => {
    const dir = tree({});
    fs.symlinkSync(path.join(dir, 'gone.yaml'), path.join(dir, 'dangling.yaml'));
    const result = hcpCdk('validate', dir);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`hcp-cdk validate: ${path.join(dir, 'dangling.yaml')}: no such file or directory (or a symbolic link to nothing)\n`);
  });

  test('checks a kind: List item by item', () => {
    const dir = tree({ 'list.yaml': [{ apiVersion: 'v1', kind: 'List', items: [HOSTED_CLUSTER, withChanges(NODE_POOL, { 'spec.arch': 'sparc' })] }] });
    const result = hcpCdk('validate', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('NodePool clusters/vcluster2: spec.arch: Unsupported value');
    expect(result.stderr).toMatch(/hcp-cdk validate: 2 objects in 1 files, 1 problems/);
  });

  test('warns about an empty file and a directory without manifests, and still exits 0', () => {
    const dir = tree({ 'ns.yaml': [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x' } }] });
    fs.writeFileSync(path.join(dir, 'empty.yaml'), '');
    const nothing = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-empty-'));
    const result = hcpCdk('validate', dir, nothing);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe(`hcp-cdk validate: warning: ${path.join(dir, 'empty.yaml')}: no objects\nhcp-cdk validate: warning: ${nothing}: no YAML or JSON files\n`);
    expect(result.stdout).toMatch(/^hcp-cdk validate: 1 objects in 2 files, 0 problems/);
  });
});

test('fails when a directory is an output a synth stopped writing (it carries the marker), naming it; exits 2', () => {
  const dir = tree({ 'cluster.yaml': [HOSTED_CLUSTER] });
  fs.writeFileSync(path.join(dir, '.hcp-cdk-incomplete'), '{"pid":4242,"started":"2026-11-25T19:00:00.000Z"}\n');
  const result = hcpCdk('validate', dir);
  expect([result.status, result.stdout]).toEqual([2, '']);
  expect(result.stderr).toBe(`hcp-cdk validate: ${dir} is incomplete: a synth stopped while writing it (process 4242, started 2026-11-25T19:00:00.000Z); the next synth repairs it\n`);
  fs.writeFileSync(path.join(dir, '.hcp-cdk-incomplete'), '{"pid"');
  expect(hcpCdk('validate', '--previous', dir, tree({ 'cluster.yaml': [HOSTED_CLUSTER] })).stderr).toBe(
    `hcp-cdk validate: ${dir} is incomplete: a synth stopped while writing it; the next synth repairs it\n`,
  );
});
