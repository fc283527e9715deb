// The bad-input and path probes of docs/bad-input-and-paths.md: each row of its table is one probe
// here, run for real, and the table is the probes' own words, so that the guide cannot drift from
// what hcp-cdk does. A probe asserts what happens (a refusal, a value absent from every format, a
// bound kept in bounded time), not only that something failed.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import {
  allowUnvalidatedKind,
  CertificateAuthority,
  ClusterPlatform,
  Fleet,
  HcpApp,
  HcpAppProps,
  HostedCluster,
  ManagementCluster,
  OutputDirectory,
  OutputSnapshot,
  planChanges,
  planMarkdown,
  planText,
  Release,
  SecretSource,
  TrustBundle,
} from '../../lib';
import { catalogWithCrds } from '../../lib/validation/supplied-crds';
import { ROOT } from '../util';

const HCP_CDK = path.join(ROOT, 'build', 'bin', 'hcp-cdk.js');
const PASSWORD = 'hunter2-Zq9';
const KEY = `-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC${PASSWORD}\n-----END PRIVATE KEY-----\n`;
const CERTIFICATE = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-probe-'));
}

/** One hosted cluster under hub `hub`; `extra` adds to the app. */
function app(outdir: string, props: HcpAppProps = {}, extra: (app: HcpApp, hub: ManagementCluster) => void = () => undefined): HcpApp {
  const hcp = new HcpApp({ outdir, ...props });
  const hub = new ManagementCluster(hcp, 'hub');
  new HostedCluster(hub, 'one', {
    release: Release.fromVersion('4.17.0'),
    pullSecret: SecretSource.fromExistingSecret('pull-secret'),
    platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
  }).addNodePool('workers', { replicas: 2 });
  extra(hcp, hub);
  return hcp;
}

/** The error `run` throws (synth prints its reports to stderr: kept quiet). */
function errorOf(run: () => unknown): Error {
  const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    run();
  } catch (error) {
    return error as Error;
  } finally {
    quiet.mockRestore();
  }
  throw new Error('it did not fail');
}

/** Every file under `dir` with its bytes. */
function snapshot(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string): void => {
    for (const entry of fs.readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.set(path.relative(dir, full), entry.isSymbolicLink() ? `-> ${fs.readlinkSync(full)}` : fs.readFileSync(full, 'latin1'));
    }
  };
  walk(dir);
  return found;
}

/** `hcp-cdk <args>`: exit code, stdout and stderr. */
function hcpCdk(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [HCP_CDK, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A file `name` under a fresh folder, holding `text`. */
function fileWith(name: string, text: string): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, text);
  return file;
}

/** YAML of a billion laughs: 9 levels of 10 aliases. */
const ALIAS_BOMB = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n');

/** A fresh repository root: a .git folder, sources, a package.json. */
function repositoryRoot(): string {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, '.git'));
  fs.writeFileSync(path.join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.mkdirSync(path.join(dir, 'src'));
  fs.writeFileSync(path.join(dir, 'src', 'main.ts'), 'new HcpApp();\n');
  fs.writeFileSync(path.join(dir, 'package.json'), '{}\n');
  return dir;
}

/** A Secret carried inside an ACM Policy, as an output file. */
function policyFile(value: string): [string, Buffer] {
  const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'app' }, stringData: { password: value } };
  const policy = {
    apiVersion: 'policy.open-cluster-management.io/v1',
    kind: 'Policy',
    metadata: { name: 'guest', namespace: 'policies' },
    spec: {
      'policy-templates': [
        {
          objectDefinition: {
            apiVersion: 'policy.open-cluster-management.io/v1',
            kind: 'ConfigurationPolicy',
            metadata: { name: 'guest' },
            spec: { 'object-templates': [{ complianceType: 'musthave', objectDefinition: secret }] },
          },
        },
      ],
    },
  };
  return ['hub/policies/40-policy-policies_guest.yaml', Buffer.from(JSON.stringify(policy))];
}

/** A probe: the input, what happens (both in the guide's table), and the run that shows it. */
interface Probe {
  readonly input: string;
  readonly happens: string;
  readonly run: () => void | Promise<void>;
}

const PROBES: readonly Probe[] = [
  {
    input: 'outdir (or `CDK8S_OUTDIR`) is a repository root: `.git`, sources, `package.json`',
    happens: 'synth refuses, naming a few of the files; nothing is written or deleted (`allowOtherFiles` writes beside them and leaves them alone)',
    run: () => {
      const dir = repositoryRoot();
      const before = snapshot(dir);
      expect(errorOf(() => app(dir).synth()).message).toContain('holds files hcp-cdk did not write (.git/HEAD, package.json, src/main.ts); synth deletes and replaces only what it wrote');
      expect(snapshot(dir)).toEqual(before);
      errorOf(() => {
        app(dir, { allowOtherFiles: true }).synth();
        throw new Error('written');
      });
      expect(fs.readFileSync(path.join(dir, 'src', 'main.ts'), 'utf8')).toBe('new HcpApp();\n');
      expect(fs.existsSync(path.join(dir, 'hub', 'one'))).toBe(true);
    },
  },
  {
    input: 'outdir is a symbolic link to a repository root',
    happens: 'refused the same way: what the link leads to is checked, and nothing is followed out of it',
    run: () => {
      const dir = repositoryRoot();
      const link = path.join(tempDir(), 'out');
      fs.symlinkSync(dir, link);
      const before = snapshot(dir);
      expect(errorOf(() => app(link).synth()).message).toContain('holds files hcp-cdk did not write (.git/HEAD, package.json, src/main.ts)');
      expect(snapshot(dir)).toEqual(before);
    },
  },
  {
    input: 'a folder inside the output replaced by a link to elsewhere (`hub -> /etc`)',
    happens: 'refused: a link is never an output file, and writes never go through one',
    run: () => {
      const out = path.join(tempDir(), 'out');
      errorOf(() => {
        app(out).synth();
        throw new Error('written');
      });
      const elsewhere = tempDir();
      fs.renameSync(path.join(out, 'hub'), path.join(elsewhere, 'hub'));
      fs.symlinkSync(path.join(elsewhere, 'hub'), path.join(out, 'hub'));
      expect(errorOf(() => app(out).synth()).message).toContain('holds files hcp-cdk did not write (hub)');
    },
  },
  {
    input: '`..` as a management cluster name in a fleet inventory',
    happens: 'refused by the inventory schema, before any construct is built',
    run: () => {
      const message = errorOf(() =>
        Fleet.fromInventory(new HcpApp({ outdir: tempDir() }), {
          managementClusters: [
            { name: '..', clusters: [{ name: 'c1', platform: 'None', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi', none: { apiServerAddress: '192.0.2.10' } }] },
          ],
        }),
      ).message;
      expect(message).toContain('spec.managementClusters[0].name: Invalid value: must match the pattern');
      expect(message).toContain('(value: "..")');
    },
  },
  {
    input: "a fleet inventory's `stateFile` or update graph `file` outside the inventory's folder: `../`, absolute, or through a link",
    happens: 'refused before it is read: "… must name a file inside <folder>, the folder the inventory\'s paths are relative to"',
    run: () => {
      const dir = tempDir();
      const secret = fileWith('creds.yaml', `token: ${PASSWORD}\n`);
      fs.symlinkSync(secret, path.join(dir, 'linked.yaml'));
      const cluster = { name: 'c1', platform: 'None', releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.0-multi', none: { apiServerAddress: '192.0.2.10' } };
      const rollout = (name: string, stateFile: string) => ({ name, releaseImage: 'quay.io/openshift-release-dev/ocp-release:4.17.3-multi', waves: [{ rest: true }], stateFile });
      const spec = {
        managementClusters: [{ name: 'hub', clusters: [cluster] }],
        rollouts: [rollout('up', `../${path.basename(path.dirname(secret))}/creds.yaml`), rollout('linked', 'linked.yaml')],
        updateGraphs: [{ channel: 'stable-4.17', file: secret }],
      };
      const inventory = path.join(dir, 'fleet.json');
      fs.writeFileSync(inventory, JSON.stringify({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'Fleet', metadata: { name: 'probe' }, spec }));
      const message = errorOf(() => {
        const hcp = new HcpApp({ outdir: tempDir() });
        Fleet.fromFile(hcp, inventory);
        hcp.synthesize();
      }).message;
      const inside = `must name a file inside ${dir}, the folder the inventory's paths are relative to`;
      expect(message).toContain(`updateGraphs[0].file (${JSON.stringify(secret)}) ${inside}: it is absolute`);
      expect(message).toContain(`up: stateFile ("../${path.basename(path.dirname(secret))}/creds.yaml") ${inside}: it leads out of it by ".."`);
      expect(message).toContain(`linked: stateFile ("linked.yaml") ${inside}: it leads to ${fs.realpathSync(secret)} through a symbolic link`);
      expect(message.includes(PASSWORD)).toBe(false);
    },
  },
  {
    input: 'an object of a waived kind (`allowUnvalidatedKind`) named `../x`',
    happens: 'refused: `metadata.name ("../x") must be a DNS-1123 name …, which never leaves its folder`',
    run: () => {
      const out = tempDir();
      const message = errorOf(() =>
        app(out, {}, (_, hub) => {
          allowUnvalidatedKind(hub, { apiVersion: 'example.com/v1', kind: 'Widget', reason: 'probe' });
          new ApiObject(hub, 'widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: '../x' } });
        }).synth(),
      ).message;
      expect(message).toContain('hub/widget: metadata.name ("../x") must be a DNS-1123 name');
      expect(fs.readdirSync(out)).toEqual([]);
    },
  },
  {
    input: 'any object under `validateObjects: false` with namespace `../../etc`',
    happens: 'refused the same way: every name that becomes a path goes through one check',
    run: () => {
      const out = tempDir();
      const message = errorOf(() =>
        app(out, { validateObjects: false }, (_, hub) => new ApiObject(hub, 'cm', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: '../../etc' } })).synth(),
      ).message;
      expect(message).toContain('hub/cm: metadata.namespace ("../../etc") must be a DNS-1123 name');
    },
  },
  {
    input: 'a committed `.out.last-good/output.json` naming `../outside.yaml`, then a failed synth into the emptied output',
    happens: 'the copy is refused (it names a file outside the output directory); nothing is written outside',
    run: () => {
      const dir = tempDir();
      const out = path.join(dir, 'out');
      fs.mkdirSync(path.join(dir, '.out.last-good'));
      fs.writeFileSync(path.join(dir, '.out.last-good', 'output.json'), JSON.stringify({ format: 'hcp-cdk last good output, v1', files: [{ path: '../outside.yaml', text: 'kind: Oops\n' }] }));
      fs.writeFileSync(path.join(dir, '.out.last-good', 'state.json'), '{"gitTree":null}\n');
      const previous = new OutputDirectory(out).previousOutput();
      expect(previous.found).toBe(false);
      expect(previous.reasons.join('; ')).toContain('names a file outside the output directory');
      errorOf(() => app(out, {}, (_, hub) => new ApiObject(hub, 'bad', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'Bad_Name', namespace: 'x' } })).synth());
      expect(fs.existsSync(path.join(dir, 'outside.yaml'))).toBe(false);
    },
  },
  {
    input: '`hcp-cdk plan` of a Secret carried inside an ACM Policy whose value changed',
    happens: 'the change is listed; neither value is in the text, JSON or markdown plan',
    run: () => {
      const plan = planChanges(OutputSnapshot.fromFiles('before', new Map([policyFile('old-value-1')])), OutputSnapshot.fromFiles('after', new Map([policyFile(PASSWORD)])));
      const texts = [planText(plan), JSON.stringify(plan), planMarkdown(plan)];
      expect(texts[1]).toContain('stringData.password');
      for (const text of texts) expect([text.includes(PASSWORD), text.includes('old-value-1')]).toEqual([false, false]);
    },
  },
  {
    input: '`hcp-cdk validate` of a Secret with a misspelt (`stringdata`) or mistyped (`data: 42`) field',
    happens: 'the problem is reported at its field; the value is absent from the text, JSON and JUnit reports',
    run: () => {
      const file = fileWith('secret.yaml', `apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: n}\nstringdata: {password: ${PASSWORD}}\ndata: {token: ${PASSWORD}-b64}\n`);
      for (const format of ['text', 'json', 'junit']) {
        const result = hcpCdk('validate', file, '--format', format);
        expect(result.status).toBe(1);
        expect(result.stdout + result.stderr).toContain('stringdata');
        expect((result.stdout + result.stderr).includes(PASSWORD)).toBe(false);
      }
    },
  },
  {
    input: "a pull secret's JSON given by mistake as a Secret's name (`SecretSource.fromExistingSecret`)",
    happens: 'refused, and the message says "(hidden: N characters of a pull secret)" instead of echoing it',
    run: () => {
      const pullSecret = `{"auths":{"quay.io":{"auth":"${PASSWORD}"}}}`;
      const out = tempDir();
      const message = errorOf(() =>
        app(out, {}, (_, hub) => {
          new HostedCluster(hub, 'two', {
            release: Release.fromVersion('4.17.0'),
            pullSecret: SecretSource.fromExistingSecret(pullSecret),
            platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
          });
        }).synth(),
      ).message;
      expect(message).toContain(`SecretSource.fromExistingSecret name ("(hidden: ${pullSecret.length} characters of a pull secret)") must name a Secret`);
      expect(message.includes(PASSWORD)).toBe(false);
    },
  },
  {
    input: '`plan --live` with a kubeconfig whose server URL holds `user:password@`',
    happens: 'every message shows the URL as `https://(credentials hidden)@host`',
    run: () => {
      const kubeconfig = fileWith(
        'kubeconfig',
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'Config',
          'current-context': 'hub',
          contexts: [{ name: 'hub', context: { cluster: 'hub', user: 'me' } }],
          clusters: [{ name: 'hub', cluster: { server: `https://admin:${PASSWORD}@127.0.0.1:1` } }],
          users: [{ name: 'me', user: { token: 't' } }],
        }),
      );
      const output = tempDir();
      fs.mkdirSync(path.join(output, 'hub'));
      fs.writeFileSync(path.join(output, 'hub', '00-configmap-n_x.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: n}\n');
      const result = hcpCdk('plan', output, '--against', output, '--live', '--kubeconfig', kubeconfig);
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('https://(credentials hidden)@127.0.0.1:1');
      expect((result.stdout + result.stderr).includes(PASSWORD)).toBe(false);
    },
  },
  {
    input: 'a private key pasted into `TrustBundle.fromPem` or `CertificateAuthority.fromPem` (or any other PEM input that is not a key)',
    happens: 'refused with one message: "holds a private key; give the CA\'s certificates only"; nothing is written',
    run: () => {
      const out = tempDir();
      const message = errorOf(() =>
        app(out, {}, (_, hub) => {
          new HostedCluster(hub, 'two', {
            release: Release.fromVersion('4.17.0'),
            pullSecret: SecretSource.fromExistingSecret('pull-secret'),
            platform: ClusterPlatform.none({ apiServerAddress: '192.0.2.10' }),
            additionalTrustBundle: TrustBundle.fromPem(CERTIFICATE + KEY),
          });
        }).synth(),
      ).message;
      expect(message).toContain('additionalTrustBundle (PEM text) holds a private key');
      expect(CertificateAuthority.fromPem(KEY).pem).toBe(KEY); // Checked where it is bound, with the same check (caBundleProblem).
      expect(fs.readdirSync(out)).toEqual([]);
    },
  },
  {
    input: 'an alias bomb (a billion laughs) in a `--crds` file or in an output `plan` reads',
    happens: 'refused as "aliases that expand to more than 100000 values", in milliseconds',
    run: () => {
      const file = fileWith('bomb.yaml', ALIAS_BOMB);
      const started = Date.now();
      expect(errorOf(() => catalogWithCrds([file])).message).toContain('aliases that expand to more than 100000 values');
      const snapshotDir = tempDir();
      fs.mkdirSync(path.join(snapshotDir, 'hub'));
      fs.writeFileSync(path.join(snapshotDir, 'hub', '00-configmap-n_x.yaml'), ALIAS_BOMB);
      const output = OutputSnapshot.fromDirectory(snapshotDir);
      expect(errorOf(() => output.object(output.files.values().next().value!)).message).toContain('aliases that expand to more than 100000 values');
      expect(Date.now() - started).toBeLessThan(5000);
    },
  },
  {
    input: 'a `*.yaml` link to `/dev/zero`, or a FIFO named `*.yaml`, given to `validate` or read by `plan`',
    happens: 'refused before a byte is read: "a device, not a regular file" / "a FIFO (named pipe), not a regular file"',
    run: () => {
      const dir = tempDir();
      fs.symlinkSync('/dev/zero', path.join(dir, 'zero.yaml'));
      spawnSync('mkfifo', [path.join(dir, 'fifo.yaml')]);
      const result = hcpCdk('validate', dir);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('a FIFO (named pipe), not a regular file');
      expect(hcpCdk('validate', path.join(dir, 'zero.yaml')).stderr).toContain('zero.yaml: a device, not a regular file');
      const planned = path.join(tempDir(), 'hub');
      fs.mkdirSync(planned);
      fs.symlinkSync('/dev/zero', path.join(planned, '00-configmap-n_x.yaml'));
      expect(errorOf(() => OutputSnapshot.fromDirectory(path.dirname(planned))).message).toContain('a device, not a regular file');
    },
  },
  {
    input: 'a JSON document 10,000 levels deep',
    happens: 'a problem of the file: "it nests deeper than 1000 levels", no stack trace',
    run: () => {
      const result = hcpCdk('validate', fileWith('deep.json', `${'['.repeat(10_000)}${']'.repeat(10_000)}`));
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('not read: it nests deeper than 1000 levels');
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
  },
  {
    input: 'JSON with a key twice in one object, in `validate` and in `Fleet.fromFile`',
    happens: 'a problem: "the key … appears twice in one object" (JSON.parse would keep the last silently)',
    run: () => {
      const manifest = fileWith('dup.json', '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","name":"b","namespace":"n"}}');
      expect(hcpCdk('validate', manifest).stderr).toContain('the key "name" appears twice in one object');
      const inventory = fileWith('fleet.json', '{"apiVersion":"hcp-cdk.io/v1alpha1","kind":"Fleet","spec":{"managementClusters":[],"managementClusters":[]}}');
      expect(errorOf(() => Fleet.fromFile(new HcpApp({ outdir: tempDir() }), inventory)).message).toContain('the key "managementClusters" appears twice in one object');
    },
  },
  {
    input: '`hcp-cdk validate --previous <a path that does not exist>`',
    happens: 'exit 2: "--previous (…) does not exist" (the immutable-field checks are never skipped silently)',
    run: () => {
      const result = hcpCdk('validate', fileWith('cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: n}\n'), '--previous', '/nonexistent/prevoius');
      expect([result.status, result.stderr]).toEqual([
        2,
        'hcp-cdk validate: --previous ("/nonexistent/prevoius") does not exist; give the directory of the objects as stored now, or leave --previous out\n',
      ]);
    },
  },
  {
    input: 'a CRD in `crds` / `--crds` whose rule the API server refuses as over its CEL cost budget',
    happens: 'refused with the API server\'s words ("estimated rule cost exceeds budget by factor of …"); the rule never runs',
    run: () => {
      const crd = {
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name: 'pairs.example.com' },
        spec: {
          group: 'example.com',
          scope: 'Namespaced',
          names: { kind: 'Pair', plural: 'pairs' },
          versions: [
            {
              name: 'v1',
              served: true,
              schema: {
                openAPIV3Schema: {
                  type: 'object',
                  properties: {
                    spec: {
                      type: 'object',
                      properties: { items: { type: 'array', items: { type: 'string' } } },
                      'x-kubernetes-validations': [{ rule: 'self.items.all(x, self.items.all(y, x == y))' }],
                    },
                  },
                },
              },
            },
          ],
        },
      };
      expect(errorOf(() => catalogWithCrds([crd as never])).message).toContain(
        'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x',
      );
    },
  },
  {
    input: '`HCP_CDK_DELIVERY=constructor` (or `__proto__`) for the examples',
    happens: 'the documented message: `HCP_CDK_DELIVERY ("constructor") must be one of kustomize, argocd, flux, acm`',
    run: () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { exampleDelivery } = require('../../examples/delivery') as typeof import('../../examples/delivery');
      for (const mode of ['constructor', '__proto__']) {
        process.env.HCP_CDK_DELIVERY = mode;
        try {
          expect(errorOf(() => exampleDelivery()).message).toBe(`HCP_CDK_DELIVERY (${JSON.stringify(mode)}) must be one of kustomize, argocd, flux, acm`);
        } finally {
          delete process.env.HCP_CDK_DELIVERY;
        }
      }
    },
  },
  ...(['EROFS', 'ENOSPC', 'EACCES'] as const).map((code): Probe => ({
    input: `the file system answers ${code} while synth writes`,
    happens: `one line, no stack trace: "hcp-cdk: writing the output failed: ${code}: …, at <file>; <what the directory holds now>"`,
    run: () => {
      const out = path.join(tempDir(), 'out');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const nodeFs = require('fs') as typeof fs;
      const real = nodeFs.writeFileSync;
      const spy = jest.spyOn(nodeFs, 'writeFileSync').mockImplementation((...args: Parameters<typeof fs.writeFileSync>) => {
        if (typeof args[0] === 'string' && args[0].endsWith('.yaml')) throw Object.assign(new Error(`${code}: failed, open '${args[0]}'`), { code, syscall: 'open', path: args[0] });
        return real(...args);
      });
      let error: Error;
      try {
        error = errorOf(() => app(out).synth());
      } finally {
        spy.mockRestore();
      }
      expect(error.message).toMatch(
        new RegExp(`^hcp-cdk: writing the output failed: ${code}: [^\\n]+, at ${out}/[^\\n]+\\.yaml; ${out} is left incomplete \\(\\.hcp-cdk-incomplete marks it\\) and the next synth repairs it$`),
      );
      expect(error.stack).toBe(`OutputWriteError: ${error.message}`);
    },
  })),
  {
    input: 'an outdir whose path has a name longer than the file system takes (ENAMETOOLONG)',
    happens: 'one line: "… ENAMETOOLONG: a file name or path is too long for the file system, at <path>; nothing is written there"',
    run: () => {
      const out = path.join(tempDir(), 'x'.repeat(300));
      const error = errorOf(() => app(out).synth());
      expect(error.message).toMatch(/^hcp-cdk: [^\n]*ENAMETOOLONG: a file name or path is too long for the file system, at [^\n]+; nothing is written there$/);
      expect(error.stack).toBe(`OutputWriteError: ${error.message}`);
    },
  },
];

/** The guide's table, as the probes say it. */
function table(): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|');
  return ['| Input | What happens |', '| --- | --- |', ...PROBES.map((p) => `| ${cell(p.input)} | ${cell(p.happens)} |`)].join('\n');
}

describe('the bad-input and path probes', () => {
  test.each(PROBES.map((probe) => [probe.input, probe] as const))('%s', async (_, probe) => {
    await probe.run();
  });

  test('docs/bad-input-and-paths.md holds their table, word for word', () => {
    const guide = fs.readFileSync(path.join(ROOT, 'docs', 'bad-input-and-paths.md'), 'utf8');
    const start = guide.indexOf('| Input | What happens |');
    const found = guide.slice(start, guide.indexOf('\n\n', start) === -1 ? undefined : guide.indexOf('\n\n', start)).trim();
    expect(found).toBe(table());
  });
});
