// The prune-protection table of docs/delivery.md against the output: every kind every example writes under every
// delivery, where it is written, and whether both engines' protection is on it.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ROLLOUT_RECORD_FOLDER } from '../../lib/release/rollout-record';
import { DELIVERY_MODES, exampleApps, synthExamples } from '../server/example-outputs';
import { readTree, ROOT } from '../util';

/** The bootstrap folders of Argo CD and Flux hold the engines' own objects. */
const BOOTSTRAP_FOLDERS = new Set(['argocd', 'flux']);

/** hcp-cdk's records of release rollouts, which no engine applies. */
const RECORD_FOLDERS = new Set([ROLLOUT_RECORD_FOLDER]);

type Where = 'management cluster' | 'hosted cluster' | 'bootstrap folder' | 'record folder';

/** Each object of an output, where it is applied, and whether it carries both engines' protection. */
function* objectsOf(tree: ReadonlyMap<string, string>): Generator<{ kind: string; where: Where; protectedBy: string }> {
  for (const [file, text] of tree) {
    if (!file.endsWith('.yaml') || file.endsWith('kustomization.yaml')) continue;
    const top = file.split('/')[0];
    for (const json of YAML.parseAllDocuments(text).map((d) => d.toJSON())) {
      const where: Where = BOOTSTRAP_FOLDERS.has(top) ? 'bootstrap folder' : RECORD_FOLDERS.has(top) ? 'record folder' : top.endsWith('-guest') ? 'hosted cluster' : 'management cluster';
      yield { kind: json.kind, where, protectedBy: protectionOf(json) };
      // ACM carries guest objects inside Policies, whose templates never delete what they applied.
      for (const template of json.kind === 'Policy' ? json.spec['policy-templates'] : []) {
        const inner = template.objectDefinition;
        const keeps = inner.kind === 'ConfigurationPolicy' ? inner.spec.pruneObjectBehavior === 'None' : Object.values(inner.spec.removalBehavior ?? {}).every((v) => v === 'Keep');
        yield { kind: `${inner.kind} template`, where: 'hosted cluster', protectedBy: keeps ? 'yes' : 'no' };
      }
    }
  }
}

function protectionOf(json: any): string {
  const annotations = json.metadata?.annotations ?? {};
  const flux = annotations['kustomize.toolkit.fluxcd.io/prune'] === 'disabled';
  const argo = /(^|,)Prune=false(,|$)/.test(annotations['argocd.argoproj.io/sync-options'] ?? '') && /Delete=false/.test(annotations['argocd.argoproj.io/sync-options'] ?? '');
  return flux && argo ? 'yes' : !flux && !argo ? 'no' : `flux ${flux}, argo ${argo}`;
}

/** The table in docs/delivery.md: `| \`Kind\` | where | yes/no | why |`. */
function readmeTable(): Map<string, string> {
  const readme = fs.readFileSync(path.join(ROOT, 'docs', 'delivery.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const match of readme.matchAll(/^\| `(\w+(?: template)?)` \| (management cluster|hosted cluster|bootstrap folder|record folder) \| (yes|no) \| [^|]+\|$/gm)) {
    rows.set(`${match[1]} in ${match[2]}`, match[3]);
  }
  return rows;
}

describe("docs/delivery.md's prune-protection table equals what every example writes under every delivery", () => {
  const seen = new Map<string, Set<string>>();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-protection-'));

  beforeAll(async () => {
    const runs = exampleApps(ROOT).flatMap(({ name, app }) => DELIVERY_MODES.map((mode) => ({ app, mode, outdir: path.join(root, `${name}-${mode}`) })));
    await synthExamples(runs, ROOT);
    for (const run of runs) {
      for (const object of objectsOf(readTree(run.outdir))) {
        const key = `${object.kind} in ${object.where}`;
        seen.set(key, (seen.get(key) ?? new Set()).add(object.protectedBy));
      }
    }
  }, 180_000);

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  test('every kind written is in the table, protected exactly as the table says', () => {
    const table = readmeTable();
    const output = new Map([...seen].map(([key, states]) => [key, [...states].sort().join(' | ')]));
    const expected = new Map([...output.keys()].map((key) => [key, table.get(key) ?? 'missing from docs/delivery.md']));
    expect(output).toEqual(expected);
  });

  test('the table lists no kind that no example writes', () => {
    expect([...readmeTable().keys()].filter((key) => !seen.has(key))).toEqual([]);
  });

  test("what the issue named is protected: ExternalSecrets, the hub engines and mirrors, the partial cluster objects and the hub's machines", () => {
    for (const kind of [
      'ExternalSecret',
      'MultiClusterEngine',
      'Provisioning',
      'HyperConverged',
      'LVMCluster',
      'ImageDigestMirrorSet',
      'DataProtectionApplication',
      'Image',
      'IngressController',
      'AddOnDeploymentConfig',
      'MachineSet',
    ]) {
      expect([kind, seen.get(`${kind} in management cluster`)]).toEqual([kind, new Set(['yes'])]);
    }
  });
});
