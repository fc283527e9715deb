import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../util';

const CDK8S = path.join(ROOT, 'node_modules', '.bin', 'cdk8s');

/** Runs the real cdk8s CLI on an example app, into a fresh directory. */
function cdk8sSynth(app: string): { outdir: string; status: number | null; output: string } {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-example-'));
  const result = spawnSync(CDK8S, ['synth', '--no-check-upgrade', '--app', `node ${app}`, '--output', outdir], { cwd: ROOT, encoding: 'utf8' });
  return { outdir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every file under `dir`, relative path to content. */
function readTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (at: string) => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.set(path.relative(dir, full), fs.readFileSync(full, 'utf8'));
    }
  };
  walk(dir);
  return files;
}

describe('default example (agent lab vcluster2) through the cdk8s CLI', () => {
  const app = 'build/examples/agent-lab/main.js';
  const first = cdk8sSynth(app);
  const second = cdk8sSynth(app);
  const files = readTree(first.outdir);

  test('synthesizes the management objects of vcluster2', () => {
    expect(first.status).toBe(0);
    expect([...files.keys()].sort()).toEqual([
      'hub/00-namespace-clusters.yaml',
      'hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml',
      'hub/vcluster2/50-hostedcluster-clusters_vcluster2.yaml',
      'hub/vcluster2/60-nodepool-clusters_vcluster2.yaml',
    ]);
  });

  test('every object passes hcp-cdk validate (CRD schemas and CEL rules)', () => {
    const result = spawnSync(process.execPath, ['build/bin/hcp-cdk.js', 'validate', first.outdir], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^hcp-cdk validate: 4 objects in 4 files, 0 problems/);
    expect(result.status).toBe(0);
  });

  test('re-synth is byte-identical', () => {
    expect(second.status).toBe(0);
    expect(readTree(second.outdir)).toEqual(files);
  });

  test('contains no secret material', () => {
    const all = [...files.values()].join('\n---\n');
    expect(all).not.toMatch(/dockerconfigjson/);
    expect(all).not.toMatch(/PRIVATE KEY/);
    // The only Secret is the SSH public key, which is not secret.
    const secrets = [...files.entries()].filter(([, text]) => /^kind: Secret$/m.test(text));
    expect(secrets.map(([name]) => name)).toEqual(['hub/vcluster2/20-secret-clusters_vcluster2-ssh-key.yaml']);
    expect(secrets[0][1]).toMatch(/^ {2}id_rsa\.pub: /m);
    expect(secrets[0][1]).not.toMatch(/^ {2}key: /m);
  });
});

describe('an invalid app', () => {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-invalid-'));
  fs.writeFileSync(path.join(outdir, 'previous.yaml'), 'kept: true\n');
  const result = spawnSync('node', ['build/test/apps/invalid-cluster.js'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, CDK8S_OUTDIR: outdir },
  });

  test('fails with every problem named', () => {
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('HcpValidationError: 2 problems');
    expect(result.stderr).toContain('hub/Bad_Name: name ("Bad_Name") must be a DNS-1123 label');
    expect(result.stderr).toContain('networking.clusterNetwork[0] ("10.0.0.0/14") overlaps networking.machineNetwork[0] ("10.1.0.0/16")');
  });

  test('writes nothing and leaves earlier output alone', () => {
    expect(readTree(outdir)).toEqual(new Map([['previous.yaml', 'kept: true\n']]));
  });
});
