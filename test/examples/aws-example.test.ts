// The self-managed AWS example, through the real CLIs: `cdk synth` turns examples/aws/infra.ts into
// CloudFormation (with the cdk-nag security review), a simulated `cdk deploy --outputs-file` gives
// the generated IDs, and `cdk8s synth` of examples/aws/clusters.ts must put exactly the template's
// ARNs, IDs and URLs into the HostedCluster and NodePools.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { fakePhysicalId, simulateDeployOutputs, Template } from '../aws/deployed-outputs';
import { ROOT } from '../util';

const ACCOUNT = '123456789012';
const REGION = 'us-east-1';
const INFRA_STACK = 'hcp-demo-infra';

function cdkSynth(): { outdir: string; status: number | null; output: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-aws-'));
  const result = spawnSync(
    path.join(ROOT, 'node_modules', '.bin', 'cdk'),
    ['synth', '--app', 'node build/examples/aws/infra.js', '--output', outdir, '--no-version-reporting', '--no-notices', '--quiet'],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return { outdir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

function cdk8sSynth(outputsFile: string): { outdir: string; status: number | null; output: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-aws-k8s-'));
  const result = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'cdk8s'), ['synth', '--no-check-upgrade', '--app', 'node build/examples/aws/clusters.js', '--output', outdir], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, AWS_OUTPUTS_FILE: outputsFile },
  });
  return { outdir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('examples/aws through the aws-cdk and cdk8s CLIs', () => {
  const first = cdkSynth();
  const second = cdkSynth();
  const template: Template = JSON.parse(fs.readFileSync(path.join(first.outdir, `${INFRA_STACK}.template.json`), 'utf8'));
  const resources = Object.entries(template.Resources);
  const ofType = (type: string) => resources.filter(([, r]) => r.Type === type);
  const fake = (logicalId: string) => fakePhysicalId(template, logicalId, ACCOUNT, REGION);

  const outputsFile = path.join(first.outdir, 'outputs.json');
  fs.writeFileSync(outputsFile, JSON.stringify(simulateDeployOutputs(template, INFRA_STACK, ACCOUNT, REGION)));
  const k8s = cdk8sSynth(outputsFile);
  const read = (file: string) => YAML.parse(fs.readFileSync(path.join(k8s.outdir, file), 'utf8'));

  test('cdk synth succeeds with no unacknowledged cdk-nag (AwsSolutions) finding', () => {
    expect(first.output).not.toMatch(/ERROR|AwsSolutions-\w+ /);
    expect(first.status).toBe(0);
    expect(
      fs
        .readdirSync(first.outdir)
        .filter((f) => f.endsWith('.template.json'))
        .sort(),
    ).toEqual(['hcp-demo-infra.template.json', 'hcp-management.template.json']);
  });

  test('re-synth gives the same templates', () => {
    expect(second.status).toBe(0);
    for (const file of ['hcp-demo-infra.template.json', 'hcp-management.template.json']) {
      expect(fs.readFileSync(path.join(second.outdir, file), 'utf8')).toBe(fs.readFileSync(path.join(first.outdir, file), 'utf8'));
    }
  });

  test("the cluster stack stays far under CloudFormation's 500 resources and exports nothing", () => {
    expect(resources.length).toBeLessThan(100);
    expect(Object.values(template.Outputs ?? {}).filter((o: any) => o.Export)).toEqual([]);
  });

  test('cdk8s synth writes the HostedCluster and one NodePool per zone, which validate clean', () => {
    expect(k8s.status).toBe(0);
    const files = fs
      .readdirSync(path.join(k8s.outdir, 'hub', 'demo'))
      .filter((f) => f !== 'kustomization.yaml')
      .sort();
    expect(files).toEqual([
      '20-secret-clusters_demo-ssh-key.yaml',
      '50-hostedcluster-clusters_demo.yaml',
      '60-nodepool-clusters_demo-us-east-1a.yaml',
      '60-nodepool-clusters_demo-us-east-1b.yaml',
      '60-nodepool-clusters_demo-us-east-1c.yaml',
    ]);
    const result = spawnSync(process.execPath, ['build/bin/hcp-cdk.js', 'validate', '--strict', k8s.outdir], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  test("every role ARN in the HostedCluster names a role the template defines, in the stack's account", () => {
    const rolesRef = read('hub/demo/50-hostedcluster-clusters_demo.yaml').spec.platform.aws.rolesRef;
    const roleNames = ofType('AWS::IAM::Role').map(([, r]) => r.Properties.RoleName);
    const arns = Object.values<string>(rolesRef);
    expect(arns).toHaveLength(7);
    for (const arn of arns) {
      const match = /^arn:aws:iam::(\d{12}):role\/(.+)$/.exec(arn);
      expect(match?.[1]).toBe(ACCOUNT);
      expect(roleNames).toContain(match?.[2]);
    }
    const kmsRole = read('hub/demo/50-hostedcluster-clusters_demo.yaml').spec.secretEncryption.kms.aws.auth.awsKms;
    expect(roleNames).toContain(kmsRole.split('/').pop());
  });

  test("the issuer URL is the OIDC provider's URL in the template, on the management stack's bucket", () => {
    const cluster = read('hub/demo/50-hostedcluster-clusters_demo.yaml');
    const [[, provider]] = ofType('AWS::IAM::OIDCProvider');
    expect(cluster.spec.issuerURL).toBe(provider.Properties.Url);
    expect(provider.Properties.ClientIdList).toEqual(['openshift', 'sts.amazonaws.com']);
    const management = JSON.parse(fs.readFileSync(path.join(first.outdir, 'hcp-management.template.json'), 'utf8'));
    const bucketNames = Object.values(management.Resources as Record<string, any>)
      .filter((r) => r.Type === 'AWS::S3::Bucket')
      .map((r) => r.Properties.BucketName);
    expect(bucketNames).toContain(new URL(cluster.spec.issuerURL).hostname.split('.s3.')[0]);
  });

  test("VPC, subnet, zone and key IDs are the ones of the template's resources", () => {
    const cluster = read('hub/demo/50-hostedcluster-clusters_demo.yaml');
    const [[vpcId]] = ofType('AWS::EC2::VPC');
    expect(cluster.spec.platform.aws.cloudProviderConfig.vpc).toBe(fake(vpcId));
    const subnetNamed = (name: string) => ofType('AWS::EC2::Subnet').find(([, r]) => r.Properties.Tags.some((t: any) => t.Key === 'Name' && t.Value === name))![0];
    expect(cluster.spec.platform.aws.cloudProviderConfig.subnet.id).toBe(fake(subnetNamed('demo-x7k2p-private-us-east-1a')));
    for (const zone of ['us-east-1a', 'us-east-1b', 'us-east-1c']) {
      const pool = read(`hub/demo/60-nodepool-clusters_demo-${zone}.yaml`);
      expect(pool.spec.platform.aws.subnet.id).toBe(fake(subnetNamed(`demo-x7k2p-private-${zone}`)));
      const [[, profile]] = ofType('AWS::IAM::InstanceProfile');
      expect(pool.spec.platform.aws.instanceProfile).toBe(profile.Properties.InstanceProfileName);
    }
    const zoneNamed = (name: string) => ofType('AWS::Route53::HostedZone').find(([, r]) => r.Properties.Name === name)![0];
    expect(cluster.spec.dns.privateZoneID).toBe(fake(zoneNamed('demo.hcp.example.com')));
    const [[keyId]] = ofType('AWS::KMS::Key');
    expect(cluster.spec.secretEncryption.kms.aws.activeKey.arn).toBe(fake(keyId));
    expect(cluster.spec.networking.machineNetwork).toEqual([{ cidr: ofType('AWS::EC2::VPC')[0][1].Properties.CidrBlock }]);
  });

  test('examples/aws/outputs.example.json is what deploying the current template would write', () => {
    const committed = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'aws', 'outputs.example.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(fs.readFileSync(outputsFile, 'utf8')));
  });
});
