// `hcp-cdk rollout status|advance` as users run it, for what needs no management cluster: usage
// errors, the JSON Schemas, outputs without rollouts or state files, names the output does not hold,
// and state files that are wrong, each refused before any cluster is read and with nothing written.
// The commands against a real API server are in test/server/rollout-advance.test.ts.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as YAML from 'yaml';
import { ROLLOUT_ADVANCE_JSON_SCHEMA, ROLLOUT_STATUS_JSON_SCHEMA } from '../../lib';
import { ROOT } from '../util';

function hcpCdk(cwd: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'build', 'bin', 'hcp-cdk.js'), 'rollout', ...args], { cwd, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/nonexistent' } });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A directory with an output whose records are `records`, and `files` beside it. */
function repository(records: unknown[], files: Record<string, unknown> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-rollout-cli-'));
  fs.mkdirSync(path.join(dir, 'dist', 'rollouts'), { recursive: true });
  for (const record of records as any[]) fs.writeFileSync(path.join(dir, 'dist', 'rollouts', `40-releaserollout-${record.metadata.name}.yaml`), YAML.stringify(record));
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), typeof content === 'string' ? content : YAML.stringify(content));
  return dir;
}

function record(name: string, spec: Record<string, unknown> = {}): unknown {
  return {
    apiVersion: 'hcp-cdk.io/v1alpha1',
    kind: 'ReleaseRollout',
    metadata: { name },
    spec: {
      release: { image: 'quay.io/openshift-release-dev/ocp-release:4.17.5-multi', version: '4.17.5' },
      releasedWaves: 0,
      onFailure: 'Continue',
      waves: [{ name: 'rest', clusters: ['hub/clusters/c1'] }],
      ...spec,
    },
  };
}

const state = (name: string, releasedWaves: unknown = 0) => ({ apiVersion: 'hcp-cdk.io/v1alpha1', kind: 'ReleaseRolloutState', metadata: { name }, spec: { releasedWaves } });

describe('hcp-cdk rollout', () => {
  test('--json-schema prints each subcommand’s schema; --help the usage', () => {
    const dir = repository([]);
    expect(JSON.parse(hcpCdk(dir, 'status', '--json-schema').stdout)).toEqual(JSON.parse(JSON.stringify(ROLLOUT_STATUS_JSON_SCHEMA)));
    expect(JSON.parse(hcpCdk(dir, 'advance', '--json-schema').stdout)).toEqual(JSON.parse(JSON.stringify(ROLLOUT_ADVANCE_JSON_SCHEMA)));
    const help = hcpCdk(dir, '--help');
    expect([help.status, help.stdout.split('\n')[0]]).toEqual([0, 'usage: hcp-cdk rollout status [<output-dir>] [--format text|json|markdown] [options]']);
  });

  test.each([
    [['deploy'], 'unknown subcommand "deploy"'],
    [[], 'status or advance is needed'],
    [['status', '--dry-run'], '--dry-run is for rollout advance'],
    [['advance', '--markdown'], '--markdown is for rollout status'],
    [['advance', '--format', 'markdown'], '--format markdown is for rollout status; rollout advance prints text or --json'],
    [['status', '--now', 'tomorrow'], '--now ("tomorrow") must be an RFC 3339 time such as 2026-05-01T12:00:00Z'],
    [['status', '--page-size', '0'], '--page-size ("0") must be a whole number >= 1'],
    [['status', '--context'], '--context needs a value'],
    [['status', 'a', 'b'], 'one output directory at a time, not 2 (a, b)'],
    [['status', 'missing'], 'missing: no such directory; give the output directory the management clusters run'],
  ])('%j: a usage error, exit 1', (args, message) => {
    const result = hcpCdk(repository([]), ...args);
    expect([result.status, result.stdout, result.stderr.split('\n')[0]]).toEqual([1, '', `hcp-cdk rollout: ${message}`]);
  });

  test('an output without rollouts, a rollout it does not record, a context for a folder the rollouts do not span: exit 1 before reading', () => {
    expect(hcpCdk(repository([]), 'status').stderr).toBe(
      'hcp-cdk rollout status: dist records no release rollout (no rollouts/*-releaserollout-*.yaml): give the output directory of an app with a ReleaseRollout\n',
    );
    const dir = repository([record('r')]);
    expect(hcpCdk(dir, 'status', '--rollout', 'q').stderr).toBe('hcp-cdk rollout status: dist records no rollout q (it records r)\n');
    const result = hcpCdk(dir, 'status', '--context', 'hub-l=admin');
    expect([result.status, result.stderr]).toEqual([1, 'hcp-cdk rollout status: --context or --kubeconfig names management folder hub-l, which the rollouts do not span (they span hub)\n']);
  });

  test('advance: no state file, one that is missing, wrong, or of another rollout; all said at once, nothing written', () => {
    const none = hcpCdk(repository([record('r')]), 'advance');
    expect([none.status, none.stderr]).toEqual([
      1,
      'hcp-cdk rollout advance: no rollout of dist has a state file (the rollouts there: r): give a rollout its state (RolloutState.fromFile, or stateFile in a fleet inventory), synthesize, and advance it then; or name one with --rollout and its file with --state-file\n',
    ]);
    const dir = repository([record('a', { stateFile: '../a.state.yaml' }), record('b', { stateFile: '../b.state.yaml' }), record('c', { stateFile: '../c.state.yaml' }), record('d')], {
      'b.state.yaml': state('b', -1),
      'c.state.yaml': state('z'),
    });
    const before = fs.readFileSync(path.join(dir, 'b.state.yaml'), 'utf8');
    const result = hcpCdk(dir, 'advance');
    expect(result.status).toBe(1);
    expect(result.stderr.split('\n')).toEqual([
      'hcp-cdk rollout advance: rollout a: its state file a.state.yaml does not exist (the record names ../a.state.yaml, relative to dist); synthesize from where the state file is, or give --state-file',
      'hcp-cdk rollout advance: rollout b: b.state.yaml: spec.releasedWaves (-1) must be a whole number >= 0',
      'hcp-cdk rollout advance: rollout c: c.state.yaml is the state of rollout z (metadata.name); give the state file of c',
      '',
    ]);
    expect(fs.readFileSync(path.join(dir, 'b.state.yaml'), 'utf8')).toBe(before);
    expect(hcpCdk(dir, 'advance', '--rollout', 'd').stderr).toBe(
      'hcp-cdk rollout advance: rollout d has no state file: it states releasedWaves in code, which rollout advance does not rewrite; give it state: RolloutState.fromFile(...) (stateFile in a fleet inventory), or name the file with --state-file\n',
    );
    expect(hcpCdk(dir, 'advance', '--state-file', 'x.yaml').stderr).toBe(
      'hcp-cdk rollout advance: --state-file names the state file of one rollout, and 3 are advanced (a, b, c): name one with --rollout\n',
    );
  });
});
