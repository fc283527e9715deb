// npm run bench (AWS part): synthesizing AwsHostedInfra stacks in process. One per-cluster stack,
// then a fleet of 100 clusters' stacks in one app, with cdk-nag's AwsSolutions review on and off.
// Reports, never asserts.
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AwsHostedInfra } from '../lib/aws';

function synth(clusters: number, nag: boolean): number {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-aws-bench-'));
  const started = process.hrtime.bigint();
  const app = new App({ outdir });
  for (let i = 0; i < clusters; i++) {
    const name = `c${String(i).padStart(4, '0')}`;
    const stack = new Stack(app, `hcp-${name}-infra`, { env: { account: '123456789012', region: 'us-east-1' } });
    new AwsHostedInfra(stack, 'Infra', {
      infraId: `${name}-x7k2p`,
      clusterName: name,
      baseDomain: 'fleet.example.com',
      publicZoneId: 'Z0FLEETPUBLIC',
      oidcBucketName: 'fleet-oidc',
      zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'],
      etcdEncryption: { createKey: true },
    });
  }
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  app.synth();
  const millis = Number(process.hrtime.bigint() - started) / 1e6;
  fs.rmSync(outdir, { recursive: true, force: true });
  return millis;
}

synth(1, false); // warm the module cache, as a second synth in one process would be
console.log('aws bench (in process, after one warm-up synth):');
for (const [clusters, nag] of [
  [1, false],
  [1, true],
  [100, false],
  [100, true],
] as const) {
  console.log(`  ${String(clusters).padStart(3)} cluster stack(s), cdk-nag ${nag ? 'on ' : 'off'}: ${synth(clusters, nag).toFixed(0).padStart(6)} ms`);
}
