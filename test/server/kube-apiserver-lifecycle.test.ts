// What the harness leaves behind when the run that started it ends early or the server does not
// start: nothing, and a message that says why. A separate process starts a server, prints its
// process ids and directory, and is interrupted or killed.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ROOT } from '../util';
import { KubeApiServer } from './kube-apiserver';
import { binaryCache, unpackedBinary } from './server-binaries';

const STARTER = `
const { KubeApiServer } = require(${JSON.stringify(path.join(ROOT, 'build', 'test', 'server', 'kube-apiserver.js'))});
KubeApiServer.start({ root: ${JSON.stringify(ROOT)} }).then((server) => {
  console.log(JSON.stringify({ pids: server.pids, directory: server.directory }));
  setInterval(() => {}, 1000);
});
`;

interface Started {
  readonly child: ChildProcess;
  readonly pids: number[];
  readonly directory: string;
}

function startInChild(): Promise<Started> {
  const child = spawn(process.execPath, ['-e', STARTER], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve({ child, ...JSON.parse(out) });
    });
    child.on('exit', (code) => reject(new Error(`the starter exited with ${code} before the server was ready`)));
  });
}

/** Alive and not a zombie waiting for a parent that is gone. */
function running(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1][0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return condition();
}

const gone = (started: Started) => () => started.pids.every((pid) => !running(pid)) && !fs.existsSync(started.directory);

test('a run that is interrupted (SIGINT, SIGTERM) or killed outright (SIGKILL) leaves no server process and no directory', async () => {
  // Three at once: each start costs seconds of the two cores.
  const [interrupted, terminated, killed] = await Promise.all([startInChild(), startInChild(), startInChild()]);
  for (const started of [interrupted, terminated, killed]) {
    expect(started.pids).toHaveLength(2);
    expect(started.pids.every(running)).toBe(true);
    expect(fs.existsSync(started.directory)).toBe(true);
  }
  const ended = (started: Started) => new Promise((resolve) => started.child.on('exit', (code, signal) => resolve(signal ?? code)));
  const endings = [ended(interrupted), ended(terminated)];
  interrupted.child.kill('SIGINT');
  terminated.child.kill('SIGTERM');
  killed.child.kill('SIGKILL');
  // An interrupted run stops its servers before the signal ends it, as the signal would have.
  expect(await Promise.all(endings)).toEqual(['SIGINT', 'SIGTERM']);
  expect(gone(interrupted)()).toBe(true);
  expect(gone(terminated)()).toBe(true);
  // No handler runs in a killed process: the watchdog it started stops the servers.
  expect(await until(gone(killed), 10000)).toBe(true);
}, 60000);

test('a missing binary fails with a message that names the file and where the binaries come from', () => {
  const source = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-no-binaries-'));
  try {
    expect(() => unpackedBinary('etcd', source, binaryCache(ROOT))).toThrow(
      `etcd: ${source}/etcd.gz does not exist; the server tests need the binaries of ../shared/tools/kube-apiserver (see its README.md)`,
    );
  } finally {
    fs.rmSync(source, { recursive: true });
  }
});

test('a server that is not ready in time fails with the tails of both logs, and nothing of it is left', async () => {
  const before = new Set(fs.readdirSync(os.tmpdir()).filter((name) => name.startsWith('hcp-cdk-apiserver-')));
  const failure = await KubeApiServer.start({ root: ROOT, readyTimeoutMs: 300 }).then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(failure).toMatch(
    /^the test kube-apiserver \(https:\/\/127\.0\.0\.1:\d+\) did not answer \/readyz with ok within 300 ms \(the last answer: .*\)\n--- etcd, last 25 lines of \/.*\/etcd\.log:\n[^]*\n--- kube-apiserver, last 25 lines of \/.*\/kube-apiserver\.log:\n/,
  );
  const directory = /of (\/.*)\/etcd\.log/.exec(failure!)![1];
  expect(before.has(path.basename(directory))).toBe(false);
  expect(fs.existsSync(directory)).toBe(false);
}, 30000);
