// Every example's output under every delivery mode, checked by a real kube-apiserver (OpenShift's
// fork, with the CRDs of cdk8s.yaml's validationSchemas): each object as a strict server-side apply
// dry run, as `kubectl apply --server-side --dry-run=server` and the GitOps engines send it. Objects
// for inside a hosted cluster (`*-guest` folders, and what ACM Policies create there) go to the same
// server, which stands in for the guest cluster. Then each example is applied for real and changed
// outputs are dry-run over it, so that transition rules (`oldSelf`) run as on a cluster.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../util';
import { createNamespacesOf, DELIVERY_MODES, DeliveryMode, exampleApps, objectName, OutputObject, outputObjects, synthExamples } from './example-outputs';
import { ApplyOptions, KubeClient } from './kube-client';

const client = KubeClient.fromEnvironment();
const EXAMPLES = exampleApps(ROOT).map((e) => e.name);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-server-examples-'));

/** Each example's output per delivery mode, and `again`: a second synth under kustomize delivery. */
type Variant = DeliveryMode | 'again';
const outputs = new Map<string, OutputObject[]>();
const output = (example: string, variant: Variant) => outputs.get(`${example}/${variant}`)!;

/** A release to upgrade to. */
const NEXT_RELEASE = 'quay.io/openshift-release-dev/ocp-release@sha256:1f32bd8e8a5a6c9a4e1b0c8f2d5e6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5';

beforeAll(async () => {
  const runs = exampleApps(ROOT).flatMap(({ name, app }) =>
    [...DELIVERY_MODES, 'again' as const].map((variant) => ({
      key: `${name}/${variant}`,
      app,
      mode: variant === 'again' ? 'kustomize' : variant,
      outdir: path.join(work, name, variant),
    })),
  );
  await synthExamples(runs, ROOT);
  for (const run of runs) outputs.set(run.key, outputObjects(run.outdir));
  // Namespaces never finish deleting on a server without controllers: each is created once, for every example and mode.
  await createNamespacesOf(client, [...outputs.values()].flat());
}, 120000);

afterAll(() => {
  client.close();
  fs.rmSync(work, { recursive: true, force: true });
});

test('HCP_CDK_DELIVERY changes the output of every example', () => {
  // Not every mode changes every output: ACM delivery changes only what goes into hosted clusters.
  const text = (example: string, mode: DeliveryMode) => JSON.stringify(output(example, mode).map((o) => [o.source, o.object]));
  const unchanged = EXAMPLES.filter((example) => DELIVERY_MODES.every((mode) => text(example, mode) === text(example, 'kustomize')));
  expect(unchanged).toEqual([]);
});

describe.each(EXAMPLES)('examples/%s', (example) => {
  test.each(DELIVERY_MODES)('under %s delivery, every object passes a strict server-side apply dry run', async (mode) => {
    const objects = output(example, mode);
    expect(objects.length).toBeGreaterThan(0);
    expect(await refusals(objects, { dryRun: true })).toEqual([]);
  });

  describe('applied for real (kustomize delivery), then changed outputs applied over it as a dry run', () => {
    beforeAll(async () => {
      expect(await refusals(distinct(output(example, 'kustomize')), {})).toEqual([]);
    });

    afterAll(async () => {
      // Namespaces stay (see above); everything else goes, so that the next example starts from none of it.
      const objects = distinct(output(example, 'kustomize')).filter((o) => o.object.kind !== 'Namespace');
      const deleted = await Promise.all(objects.map(async (o) => [o.source, (await client.delete(o.object)).status]));
      expect(deleted.filter(([, status]) => status !== 200)).toEqual([]);
    });

    test('a second synth applies over it and changes nothing', async () => {
      const again = distinct(output(example, 'again'));
      const results = await applied(again, { dryRun: true });
      expect(results.filter((r) => r.status !== 200).map((r) => `${r.source}: ${r.status} ${r.message}`)).toEqual([]);
      // What the server would store is what it holds, field managers and their timestamps included.
      const current = await Promise.all(again.map(async (o) => (await client.get(o.object)).body));
      expect(results.map((r) => r.body)).toEqual(current);
    });

    test.each(DELIVERY_MODES.filter((m) => m !== 'kustomize'))("the %s delivery's output applies over it", async (mode) => {
      expect(await refusals(output(example, mode), { dryRun: true })).toEqual([]);
    });

    test('a release upgrade with one more node per NodePool applies over it: the transition rules hold', async () => {
      const upgrade = [
        ...changed(output(example, 'kustomize'), 'HostedCluster', (spec) => {
          spec.release.image = NEXT_RELEASE;
        }),
        ...changed(output(example, 'kustomize'), 'NodePool', (spec) => {
          spec.release.image = NEXT_RELEASE;
          if (typeof spec.replicas === 'number') spec.replicas += 1;
        }),
      ];
      expect(upgrade.length).toBeGreaterThan(1);
      const results = await applied(upgrade, { dryRun: true });
      expect(results.map((r) => [r.source, r.status, r.message, r.body.spec?.release?.image])).toEqual(upgrade.map((o) => [where(o), 200, '', NEXT_RELEASE]));
    });

    test.each<ImmutableChange>([
      {
        kind: 'HostedCluster',
        field: 'spec.infraID',
        change: (spec) => {
          spec.infraID = `${spec.infraID}-renamed`;
        },
        message: (spec) => `spec.infraID: Invalid value: "${spec.infraID}": infraID is immutable`,
      },
      {
        kind: 'HostedCluster',
        field: 'spec.secretEncryption (removed)',
        only: (spec) => spec.secretEncryption !== undefined,
        change: (spec) => {
          delete spec.secretEncryption;
        },
        message: () => 'spec: Invalid value: secretEncryption cannot be removed once configured',
      },
      {
        kind: 'NodePool',
        field: 'spec.management.upgradeType',
        change: (spec) => {
          spec.management.upgradeType = spec.management.upgradeType === 'Replace' ? 'InPlace' : 'Replace';
        },
        message: (spec) => `spec.management.upgradeType: Invalid value: "${spec.management.upgradeType}": UpgradeType is immutable`,
      },
    ])("the server refuses a change of $kind $field with its transition rule's message", async ({ kind, change, message, only }) => {
      const candidates = output(example, 'kustomize').filter((o) => o.object.kind === kind && (only?.(o.object.spec) ?? true));
      if (only === undefined) expect(candidates.length).toBeGreaterThan(0);
      const objects = changed(candidates, kind, change);
      const results = await applied(objects, { dryRun: true });
      expect(results.map((r) => [r.source, r.status, r.message])).toEqual(
        objects.map((o) => [where(o), 422, `${kind}.hypershift.openshift.io "${o.object.metadata.name}" is invalid: ${message(o.object.spec)}`]),
      );
    });
  });
});

/** A change the server must refuse, of every object of `kind` (that `only` selects). */
interface ImmutableChange {
  readonly kind: string;
  readonly field: string;
  readonly change: (spec: any) => void;
  /** The server's message after `{kind}.{group} "{name}" is invalid: `, for the changed spec. */
  readonly message: (spec: any) => string;
  readonly only?: (spec: any) => boolean;
}

interface Applied {
  readonly source: string;
  readonly status: number;
  readonly message: string;
  readonly body: any;
}

/** Applies each object (its file's text, when it is a file of its own), in order of `objects`. */
async function applied(objects: readonly OutputObject[], options: ApplyOptions): Promise<Applied[]> {
  const results: Applied[] = new Array(objects.length);
  await inParallel(
    objects.map((o, i) => ({ o, i })),
    8,
    async ({ o, i }) => {
      const response = await client.apply(o.text ?? o.object, options).catch((error: Error) => ({ status: 0, message: error.message, body: {} }));
      results[i] = { source: where(o), ...response };
    },
  );
  return results;
}

/** What the server refused of `objects`: the file (and the path inside it), kind, name and the server's message. */
async function refusals(objects: readonly OutputObject[], options: ApplyOptions): Promise<string[]> {
  return (await applied(objects, options)).filter((r) => r.status !== 200 && r.status !== 201).map((r) => `${r.source}: ${r.status} ${r.message || JSON.stringify(r.body)}`);
}

/** The file (and the path inside it), kind and name. */
function where(o: OutputObject): string {
  return `${o.source}: ${objectName(o.object)}`;
}

/**
 * The first of the objects with the same group, kind, namespace and name: the guest folders of a
 * fleet's hosted clusters hold objects of the same names, for clusters of their own, which this
 * one server stands in for.
 */
function distinct(objects: readonly OutputObject[]): OutputObject[] {
  const seen = new Set<string>();
  return objects.filter((o) => {
    const key = `${String(o.object.apiVersion).split('/').slice(0, -1).join('/')} ${objectName(o.object)}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

/** Copies of the objects of `kind`, with `change` made to each one's spec; sent as JSON. */
function changed(objects: readonly OutputObject[], kind: string, change: (spec: any) => void): OutputObject[] {
  return objects
    .filter((o) => o.object.kind === kind)
    .map((o) => {
      const object = structuredClone(o.object);
      change(object.spec);
      return { source: o.source, object };
    });
}

/** Runs `work` on every item, at most `limit` at a time. */
async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}
