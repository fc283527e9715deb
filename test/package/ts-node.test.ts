// An example run from its TypeScript source with ts-node, without a build: the same output as the compiled
// example. ts-node type-checks the example and what it imports, about 6 s on 2 cores.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readTree } from '../examples/example-synth';
import { ROOT } from '../util';

/** Runs `command` in a fresh directory, where the example writes dist/. */
function runIn(command: string[]): { dir: string; status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-ts-node-'));
  const result = spawnSync(command[0], command.slice(1), { cwd: dir, encoding: 'utf8' });
  return { dir, status: result.status, output: `${result.stdout}${result.stderr}` };
}

const source = runIn([path.join(ROOT, 'node_modules', '.bin', 'ts-node'), path.join(ROOT, 'examples', 'agent-lab', 'main.ts')]);
const compiled = runIn([process.execPath, path.join(ROOT, 'build', 'examples', 'agent-lab', 'main.js')]);

test('ts-node examples/agent-lab/main.ts synthesizes what the compiled example does', () => {
  expect(source.output).not.toMatch(/Error/);
  expect(source.status).toBe(0);
  expect(compiled.status).toBe(0);
  const tree = readTree(path.join(source.dir, 'dist'));
  expect(tree.get('hub/vcluster2/50-hostedcluster-clusters_vcluster2.yaml')).toMatch(/^apiVersion: hypershift.openshift.io\/v1beta1\nkind: HostedCluster\n/);
  expect(tree).toEqual(readTree(path.join(compiled.dir, 'dist')));
});
