// Each commit of the docs' backup procedure (examples/agent-lab-backup/procedure.ts), under every
// delivery mode, checked by the real kube-apiserver with the CRDs: every object, the hand-applied
// Backup and Restore included, passes a strict server-side apply dry run. (The example's main.js,
// the nightly Schedule, runs in examples-dry-run; the procedure is another app of the same folder.)
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { agentLabAt, PROCEDURE } from '../../examples/agent-lab-backup/procedure';
import { exampleDelivery } from '../../examples/delivery';
import { createNamespacesOf, DELIVERY_MODES, objectName, OutputObject, outputObjects } from './example-outputs';
import { KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-server-procedure-'));

/** The output of `step` under `mode`, written as synth writes it. */
function outputOf(step: (typeof PROCEDURE)[number], mode: string): OutputObject[] {
  const before = process.env.HCP_CDK_DELIVERY;
  process.env.HCP_CDK_DELIVERY = mode;
  try {
    const outdir = path.join(work, `${step}-${mode}`);
    agentLabAt(step, { outdir, keepLastGoodCopy: false, delivery: exampleDelivery() }).synth();
    return outputObjects(outdir);
  } finally {
    if (before === undefined) delete process.env.HCP_CDK_DELIVERY;
    else process.env.HCP_CDK_DELIVERY = before;
  }
}

const runs = PROCEDURE.flatMap((step) => DELIVERY_MODES.map((mode) => ({ step, mode })));
const outputs = new Map<string, OutputObject[]>();

beforeAll(async () => {
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  for (const { step, mode } of runs) outputs.set(`${step}/${mode}`, outputOf(step, mode));
  jest.restoreAllMocks();
  await createNamespacesOf(client, [...outputs.values()].flat());
}, 60000);

afterAll(() => {
  client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test.each(runs.map(({ step, mode }) => [step, mode]))('%s, under %s delivery: every object passes a strict server-side apply dry run', async (step, mode) => {
  const objects = outputs.get(`${step}/${mode}`)!;
  expect(objects.length).toBeGreaterThan(0);
  const refused: string[] = [];
  for (const o of objects) {
    const response = await client.apply(o.text ?? o.object, { dryRun: true });
    if (response.status !== 200 && response.status !== 201) refused.push(`${o.source}: ${objectName(o.object)}: ${response.status} ${response.message}`);
  }
  expect(refused).toEqual([]);
});

test('the Backup and the Restore are among the objects checked', () => {
  const kinds = new Set([...outputs.values()].flat().map((o) => o.object.kind));
  expect(kinds.has('Backup') && kinds.has('Restore')).toBe(true);
});
