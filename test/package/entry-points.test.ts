// The two entry points, through package.json's exports (the repository requires itself by name, as an app would):
// `hcp-cdk` for everything a cdk8s app needs, without loading aws-cdk-lib; `hcp-cdk/aws` for the aws-cdk-lib side.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../util';

/** What requiring `entry` in a fresh node process exports, and which aws-cdk-lib files it loaded. */
function load(entry: string): { exports: string[]; awsCdkLibFiles: string[] } {
  const script = `const exported = Object.keys(require(${JSON.stringify(entry)}));
    const aws = Object.keys(require.cache).filter((file) => file.includes('/node_modules/aws-cdk-lib/'));
    console.log(JSON.stringify({ exports: exported, awsCdkLibFiles: aws }));`;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

const main = load('hcp-cdk');
const aws = load('hcp-cdk/aws');

test('the main entry point does not load aws-cdk-lib', () => {
  expect(main.awsCdkLibFiles).toEqual([]);
  expect(main.exports).toEqual(expect.arrayContaining(['HcpApp', 'HostedCluster', 'ClusterPlatform', 'AwsHostedInfraOutputs', 'AWS_HOSTED_INFRA_OUTPUTS', 'AwsNodePools']));
  expect(main.exports).not.toContain('AwsHostedInfra');
});

test('hcp-cdk/aws loads aws-cdk-lib and exports the AWS constructs', () => {
  expect(aws.awsCdkLibFiles.length).toBeGreaterThan(0);
  expect(aws.exports).toEqual(
    expect.arrayContaining([
      'AwsHostedInfra',
      'AwsManagementPrereqs',
      'PublicZone',
      'HostedClusterIam',
      'HostedClusterNetwork',
      'componentRolePolicy',
      'AWS_CLUSTER_COMPONENT_ROLES',
      'OidcS3CredentialsSecret',
      'ExternalDnsCredentialsSecret',
    ]),
  );
});

test('every public module of lib/aws is exported from exactly one entry point', () => {
  // Helpers of lib/aws that were never public: the hub Secrets' shared code and the zone-name checks.
  const internal = ['hub-credentials-secret', 'aws-zones', 'index'];
  const modules = fs
    .readdirSync(path.join(ROOT, 'build', 'lib', 'aws'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => f.slice(0, -3));
  expect(modules).toEqual(expect.arrayContaining(['aws-hosted-infra', 'aws-hosted-infra-values', 'aws-node-pools']));
  const mainNames = new Set(main.exports);
  const awsNames = new Set(aws.exports);
  const misplaced: string[] = [];
  for (const module of modules.filter((m) => !internal.includes(m))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each built module, by a path found at run time
    for (const name of Object.keys(require(path.join(ROOT, 'build', 'lib', 'aws', module)))) {
      if (mainNames.has(name) === awsNames.has(name)) misplaced.push(`${module}.${name}: ${mainNames.has(name) ? 'in both' : 'in neither'}`);
    }
  }
  expect(misplaced).toEqual([]);
});
