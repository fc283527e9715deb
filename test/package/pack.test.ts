// The package as an app gets it: `npm pack`, the tarball installed into a fresh app beside its own cdk8s
// and constructs, a small JavaScript app synthesized with it, the bin and both entry points used from there.
// About 15-25 s on 2 cores with a warm npm cache (pack 3 s, install 4 s, the rest runs node and tsc).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ROOT } from '../util';

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

// The npm running the tests (under `npm test`) passes its own package's settings down; the app's npm must not see them.
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_(package_|lifecycle_|command$|config_local_prefix$)/i.test(key)));

function run(command: string, args: string[], cwd: string): Run {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: ENV });
  return { status: result.status, stdout: result.stdout ?? '', stderr: `${result.stderr ?? ''}${result.error ? String(result.error) : ''}` };
}

/** Fails the whole file with the command's output when a setup step fails, rather than later with less to go on. */
function setUp(command: string, args: string[], cwd: string): Run {
  const result = run(command, args, cwd);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${result.status}):\n${result.stdout}${result.stderr}`);
  return result;
}

const installedVersion = (name: string): string => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;

const APP_JS = `const { ClusterPlatform, HcpApp, HostedCluster, ManagementCluster, Release, SecretSource } = require('hcp-cdk');
const app = new HcpApp();
const hub = new ManagementCluster(app, 'hub');
new HostedCluster(hub, 'demo', {
  release: Release.fromVersion('4.17.0'),
  pullSecret: SecretSource.fromExistingSecret('pull-secret'),
  platform: ClusterPlatform.agent({ agentNamespace: 'hardware-inventory', apiServerAddress: '192.0.2.10' }),
});
app.synth();
`;

// A TypeScript app importing from both entry points; `hcp-cdk/aws` only for a type, as aws-cdk-lib is not installed.
const APP_TS = `import { HcpApp, HostedCluster } from 'hcp-cdk';
import type { AwsHostedInfraProps } from 'hcp-cdk/aws';
export const classes: [typeof HcpApp, typeof HostedCluster] = [HcpApp, HostedCluster];
export type ClusterName = AwsHostedInfraProps['clusterName'];
`;

describe('npm pack, installed into a fresh app', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-pack-'));
  // --ignore-scripts: npm test has just built (prepare would run the whole build again).
  const packed = JSON.parse(setUp('npm', ['pack', '--pack-destination', work, '--ignore-scripts', '--json'], ROOT).stdout)[0];
  const files = new Map<string, number>(packed.files.map((f: { path: string; mode: number }) => [f.path, f.mode]));
  const tarball = path.join(work, packed.filename);

  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify(
      {
        name: 'hcp-cdk-pack-test-app',
        version: '1.0.0',
        private: true,
        dependencies: { 'hcp-cdk': `file:${tarball}`, 'cdk8s': installedVersion('cdk8s'), 'constructs': installedVersion('constructs') },
      },
      undefined,
      2,
    ),
  );
  setUp('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], app);
  fs.writeFileSync(path.join(app, 'main.js'), APP_JS);
  const synth = run(process.execPath, ['main.js'], app);
  const installed = path.join(app, 'node_modules', 'hcp-cdk');
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

  test('the tarball holds the compiled lib, bin and imports, the schemas and the LICENSE, and no tests, examples or benchmarks', () => {
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'build/lib/index.js',
        'build/lib/index.d.ts',
        'build/lib/aws/index.js',
        'build/lib/aws/index.d.ts',
        'build/bin/hcp-cdk.js',
        'build/imports/hostedcluster-hypershift.openshift.io.js',
        'imports/schemas/index.json',
        'imports/schemas/kubernetes.json',
      ]),
    );
    const schemas = JSON.parse(fs.readFileSync(path.join(ROOT, 'imports', 'schemas', 'index.json'), 'utf8')) as Record<string, string>;
    for (const file of new Set(Object.values(schemas))) expect(files.has(`imports/schemas/${file}`)).toBe(true);
    expect([...files.keys()].filter((f) => !/^(package\.json|README\.md|LICENSE|build\/(lib|bin|imports)\/.+\.(js|d\.ts)|imports\/schemas\/.+\.json)$/.test(f))).toEqual([]);
  });

  test('the bin is executable in the tarball and once installed', () => {
    expect(files.get('build/bin/hcp-cdk.js')! & 0o111).toBe(0o111);
    expect(fs.statSync(path.join(installed, 'build', 'bin', 'hcp-cdk.js')).mode & 0o111).toBe(0o111);
  });

  test("installs without aws-cdk-lib (an optional peer) and with the app's own cdk8s and constructs, one copy each", () => {
    expect(fs.existsSync(path.join(app, 'node_modules', 'aws-cdk-lib'))).toBe(false);
    expect(fs.existsSync(path.join(installed, 'node_modules'))).toBe(false);
    const resolved = run(process.execPath, ['-e', `for (const m of ['cdk8s', 'constructs']) console.log(require.resolve(m, { paths: [require.resolve('hcp-cdk')] }) === require.resolve(m))`], app);
    expect(resolved.stdout).toBe('true\ntrue\n');
  });

  test("the app synthesizes the HostedCluster with require('hcp-cdk')", () => {
    expect(synth.status).toBe(0);
    const cluster = YAML.parse(fs.readFileSync(path.join(app, 'dist', 'hub', 'demo', '50-hostedcluster-clusters_demo.yaml'), 'utf8'));
    expect(cluster.apiVersion).toBe('hypershift.openshift.io/v1beta1');
    expect(cluster.kind).toBe('HostedCluster');
    expect(cluster.metadata.name).toBe('demo');
    expect(cluster.metadata.namespace).toBe('clusters');
    expect(cluster.spec.release.image).toBe('quay.io/openshift-release-dev/ocp-release:4.17.0-multi');
    expect(cluster.spec.platform).toEqual({ type: 'Agent', agent: { agentNamespace: 'hardware-inventory' } });
    expect(cluster.spec.pullSecret).toEqual({ name: 'pull-secret' });
    expect(cluster.spec.services[0]).toEqual({ service: 'APIServer', servicePublishingStrategy: { type: 'NodePort', nodePort: { address: '192.0.2.10' } } });
    const namespace = YAML.parse(fs.readFileSync(path.join(app, 'dist', 'hub', '00-namespace-clusters.yaml'), 'utf8'));
    expect([namespace.kind, namespace.metadata.name]).toEqual(['Namespace', 'clusters']);
  });

  test('npx hcp-cdk runs from the installed package: --version, and validate with the packaged schemas', () => {
    const version = run('npx', ['--no-install', 'hcp-cdk', '--version'], app);
    expect(version.stdout).toBe(`hcp-cdk ${packed.version}\n`);
    expect(version.status).toBe(0);
    const validate = run('npx', ['--no-install', 'hcp-cdk', 'validate', 'dist'], app);
    expect(validate.stdout).toMatch(/^hcp-cdk validate: 2 objects in 4 files, 0 problems/);
    expect(validate.status).toBe(0);
  });

  test('hcp-cdk/aws resolves to the AWS entry point, which needs aws-cdk-lib installed', () => {
    const result = run(process.execPath, ['-e', `console.log(require.resolve('hcp-cdk/aws')); require('hcp-cdk/aws')`], app);
    expect(result.stdout).toBe(`${fs.realpathSync(installed)}/build/lib/aws/index.js\n`);
    expect(result.stderr).toContain("Cannot find module 'aws-cdk-lib'");
    expect(result.status).toBe(1);
  });

  test.each(['node10', 'node16'])('a TypeScript app finds the types of both entry points (moduleResolution %s)', (resolution) => {
    fs.writeFileSync(path.join(app, 'check.ts'), APP_TS);
    fs.writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, skipLibCheck: true, types: [], target: 'es2022', module: resolution === 'node10' ? 'commonjs' : 'node16', moduleResolution: resolution },
        files: ['check.ts'],
      }),
    );
    const tsc = run(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.'], app);
    expect(tsc.stdout).toBe('');
    expect(tsc.status).toBe(0);
  });
});
