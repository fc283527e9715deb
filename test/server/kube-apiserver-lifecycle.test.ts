// What the harness leaves behind when the run that started it ends early: nothing. A separate
// process starts a server, prints its process ids and directory, and is interrupted or killed.
import { ChildProcess, spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { ROOT } from '../util';

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
    child.stdout!.on('data', (chunk) => {
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

test('an interrupted run (SIGINT, SIGTERM) stops etcd and kube-apiserver and removes their directory before it ends', async () => {
  const [interrupted, terminated] = await Promise.all([startInChild(), startInChild()]);
  for (const started of [interrupted, terminated]) {
    expect(started.pids).toHaveLength(2);
    expect(started.pids.every(running)).toBe(true);
    expect(fs.existsSync(started.directory)).toBe(true);
  }
  const ended = (started: Started) => new Promise((resolve) => started.child.on('exit', (code, signal) => resolve(signal ?? code)));
  const endings = [ended(interrupted), ended(terminated)];
  interrupted.child.kill('SIGINT');
  terminated.child.kill('SIGTERM');
  // The signal still ends the process, after the cleanup.
  expect(await Promise.all(endings)).toEqual(['SIGINT', 'SIGTERM']);
  expect(gone(interrupted)()).toBe(true);
  expect(gone(terminated)()).toBe(true);
}, 60000);

test('a run killed outright (SIGKILL) is cleaned up by the watchdog within seconds', async () => {
  const killed = await startInChild();
  killed.child.kill('SIGKILL');
  expect(await until(gone(killed), 10000)).toBe(true);
}, 60000);
