// The `hcp-cdk validate` command, run as users run it: a separate node process on files on disk.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { HOSTED_CLUSTER, NODE_POOL, withChanges } from '../validation/object-cases';
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
  expect(result.stderr).toContain(`${file}: HostedCluster clusters/vcluster2: spec.infraID: infraID must consist of lowercase alphanumeric characters or '-', start and end with an alphanumeric character, and be between 1 and 253 characters (value: "Bad_ID")`);
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

test('--crds replaces the bundled schema with the cluster\'s CRDs', () => {
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

test('a CRD rule with an unsupported function stops the command, naming the function', () => {
  const crd = YAML.parse(fs.readFileSync(path.join(ROOT, '..', 'shared', 'crds', 'hypershift', 'nodepools-Default.crd.yaml'), 'utf8'));
  const version = crd.spec.versions.find((v: any) => v.name === 'v1beta1');
  version.schema.openAPIV3Schema.properties.spec['x-kubernetes-validations'].push({ rule: 'self.clusterName.reverse() != ""', message: 'x' });
  const result = hcpCdk('validate', tree({ 'pool.yaml': [NODE_POOL] }), '--crds', tree({ 'crds.yaml': [crd] }));
  expect(result.status).toBe(2);
  expect(result.stderr).toContain('nodepools.hypershift.openshift.io@v1beta1 .spec: CEL rule "self.clusterName.reverse() != \\"\\"" cannot be checked: found no matching overload for \'dyn.reverse()\'');
});

test('a file that is not YAML is a problem of that file', () => {
  const dir = tree({});
  fs.writeFileSync(path.join(dir, 'broken.yaml'), 'spec: [\n');
  const result = hcpCdk('validate', dir);
  expect(result.status).toBe(1);
  expect(result.stderr).toContain(`${path.join(dir, 'broken.yaml')}: not valid YAML: unexpected end of the stream`);
});

test('usage errors exit 2 with the usage', () => {
  for (const args of [[], ['frobnicate'], ['validate'], ['validate', '--crds'], ['validate', 'x', '--bogus']]) {
    const result = hcpCdk(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('usage: hcp-cdk validate <dir-or-file>...');
  }
  expect(hcpCdk('validate', '/nonexistent/dir').status).toBe(2);
});
