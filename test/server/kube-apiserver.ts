// A real Kubernetes API server for tests (as controller-runtime's envtest): etcd and OpenShift's
// kube-apiserver on free loopback ports in a temporary directory, with RBAC and one admin token. See
// ../shared/tools/kube-apiserver/README.md for the binaries and the flags.
import { ChildProcess, spawn } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as net from 'net';
import * as os from 'os';
import * as path from 'path';
import { KubeClient, ServerConnection } from './kube-client';
import { binaryCache, binarySource, unpackedBinary } from './server-binaries';

export interface KubeApiServerOptions {
  /** The repository root, below which the binaries are cached and beside which ../shared is. @default process.cwd() */
  readonly root?: string;
  /** How long the server may take to answer `/readyz` with `ok`. @default 30000 */
  readonly readyTimeoutMs?: number;
  /** How long `stop()` waits after SIGTERM before it sends SIGKILL. @default 5000 */
  readonly stopGraceMs?: number;
  /**
   * An etcd data directory to start from (a copy of it), e.g. one with the CRDs installed (see crd-snapshot.ts).
   * @default - an empty etcd
   */
  readonly etcdData?: string;
}

export interface StopOptions {
  /** Copy etcd's data directory here once both processes have ended on SIGTERM; stop() throws if either had to be killed. */
  readonly saveEtcdDataTo?: string;
}

/** A running etcd and kube-apiserver; `stop()` ends both and removes their directory. */
export class KubeApiServer {
  /** Starts etcd and kube-apiserver and waits until `/readyz` answers `ok`; throws with the logs' tails when it does not. */
  public static async start(options: KubeApiServerOptions = {}): Promise<KubeApiServer> {
    const root = options.root ?? process.cwd();
    const binaries = {
      etcd: unpackedBinary('etcd', binarySource(root), binaryCache(root)),
      apiserver: unpackedBinary('kube-apiserver', binarySource(root), binaryCache(root)),
    };
    // Free ports are found by binding and closing, so another process may take one in between: once more then.
    for (let attempt = 1; ; attempt++) {
      const server = new KubeApiServer(options.stopGraceMs ?? 5000);
      try {
        await server.run(binaries, options.readyTimeoutMs ?? 30000, options.etcdData);
        return server;
      } catch (error) {
        const portTaken = /address already in use/.test(server.logTails());
        await server.stop();
        if (!portTaken || attempt === 2) throw error;
      }
    }
  }

  /** How to reach the server: URL, CA file and admin token. */
  public connection!: ServerConnection;
  /** Milliseconds from starting the processes to `/readyz` answering `ok`. */
  public readyAfterMs = 0;
  /** The directory that holds the certificates, keys, logs and etcd's data. */
  public readonly directory: string;
  private readonly processes = new Map<string, ChildProcess>();
  private readonly exits = new Map<string, string>();
  private watchdog?: ChildProcess;
  private stopping?: Promise<void>;

  private constructor(private readonly stopGraceMs: number) {
    this.directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-apiserver-'));
    RUNNING.add(this);
    installCleanupHandlers();
  }

  /** Ends both processes (SIGTERM, then SIGKILL after the grace period) and removes the directory; safe to call twice. */
  public stop(options: StopOptions = {}): Promise<void> {
    this.stopping ??= (async () => {
      if (this.watchdog?.pid) signal(this.watchdog.pid, 'SIGTERM');
      const killed: string[] = [];
      // The API server first: without etcd it would retry until its own timeout.
      for (const name of ['kube-apiserver', 'etcd']) {
        const child = this.processes.get(name);
        if (!child?.pid || this.exits.has(name)) continue;
        signal(child.pid, 'SIGTERM');
        if (!(await this.exited(name, this.stopGraceMs))) {
          killed.push(name);
          signal(child.pid, 'SIGKILL');
          await this.exited(name, 1000);
        }
      }
      try {
        if (options.saveEtcdDataTo !== undefined) {
          if (killed.length > 0) throw new Error(`etcd's data was not saved: ${killed.join(' and ')} did not end within ${this.stopGraceMs} ms of SIGTERM`);
          fs.cpSync(path.join(this.directory, 'etcd'), options.saveEtcdDataTo, { recursive: true });
        }
      } finally {
        fs.rmSync(this.directory, { recursive: true, force: true });
        RUNNING.delete(this);
      }
    })();
    return this.stopping;
  }

  /** The process ids of etcd and kube-apiserver. */
  public get pids(): number[] {
    return [...this.processes.values()].flatMap((c) => (c.pid ? [c.pid] : []));
  }

  /** What `stop()` does, at once and synchronously: for a process that is exiting. */
  public kill(): void {
    for (const [name, child] of this.processes) if (child.pid && !this.exits.has(name)) signal(child.pid, 'SIGKILL');
    if (this.watchdog?.pid) signal(this.watchdog.pid, 'SIGKILL');
    fs.rmSync(this.directory, { recursive: true, force: true });
    RUNNING.delete(this);
  }

  /** The last lines of both logs, for a failure message. */
  public logTails(lines = 25): string {
    return ['etcd', 'kube-apiserver']
      .map((name) => {
        const file = path.join(this.directory, `${name}.log`);
        const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n') || '(empty)' : '(no log)';
        const exit = this.exits.get(name);
        return `--- ${name}${exit ? ` (${exit})` : ''}, last ${lines} lines of ${file}:\n${text}`;
      })
      .join('\n');
  }

  private async run(binaries: { etcd: string; apiserver: string }, readyTimeoutMs: number, etcdData?: string): Promise<void> {
    const dir = this.directory;
    const [client, peer, secure] = await freePorts(3);
    const keys = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(path.join(dir, 'sa.pub'), keys.publicKey.export({ type: 'spki', format: 'pem' }));
    fs.writeFileSync(path.join(dir, 'sa.key'), keys.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const token = crypto.randomBytes(24).toString('hex');
    fs.writeFileSync(path.join(dir, 'tokens.csv'), `${token},admin,admin-uid,system:masters\n`, { mode: 0o600 });
    this.connection = { url: `https://127.0.0.1:${secure}`, caFile: path.join(dir, 'certs', 'apiserver.crt'), token };

    if (etcdData) fs.cpSync(etcdData, path.join(dir, 'etcd'), { recursive: true });
    const started = Date.now();
    const etcdUrl = `http://127.0.0.1:${client}`;
    const peerUrl = `http://127.0.0.1:${peer}`;
    this.spawn('etcd', binaries.etcd, [
      '--name',
      't',
      '--data-dir',
      path.join(dir, 'etcd'),
      '--listen-client-urls',
      etcdUrl,
      '--advertise-client-urls',
      etcdUrl,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `t=${peerUrl}`,
      '--unsafe-no-fsync',
      '--log-level',
      'error',
    ]);
    this.spawn('kube-apiserver', binaries.apiserver, [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${secure}`,
      `--cert-dir=${path.join(dir, 'certs')}`,
      '--endpoint-reconciler-type=none',
      `--token-auth-file=${path.join(dir, 'tokens.csv')}`,
      '--anonymous-auth=false',
      '--authorization-mode=RBAC',
      '--service-account-issuer=https://kubernetes.default.svc',
      `--service-account-key-file=${path.join(dir, 'sa.pub')}`,
      `--service-account-signing-key-file=${path.join(dir, 'sa.key')}`,
      '--service-cluster-ip-range=10.0.0.0/24',
      '--profiling=false',
    ]);
    this.startWatchdog();
    await this.untilReady(readyTimeoutMs);
    this.readyAfterMs = Date.now() - started;
  }

  private spawn(name: string, binary: string, args: string[]): void {
    const log = fs.openSync(path.join(this.directory, `${name}.log`), 'a');
    const child = spawn(binary, args, { cwd: this.directory, stdio: ['ignore', log, log] });
    fs.closeSync(log);
    child.on('exit', (code, signalName) => this.exits.set(name, signalName ? `ended by ${signalName}` : `exited with ${code}`));
    child.on('error', (error) => this.exits.set(name, `did not start: ${error.message}`));
    this.processes.set(name, child);
  }

  /**
   * A shell that outlives this process only to stop what it started: when the test runner is
   * killed outright (no exit handler runs), it ends both servers and removes the directory.
   */
  private startWatchdog(): void {
    const pids = this.pids.map(String);
    const script = [
      'parent=$1; dir=$2; shift 2',
      // A process that has ended but not been reaped (its parent is gone) is a zombie: as good as ended.
      'alive() { for p in "$@"; do s=$(cat /proc/$p/stat 2>/dev/null) || continue; case "${s##*) }" in Z*) ;; *) return 0;; esac; done; return 1; }',
      'while kill -0 "$parent" 2>/dev/null; do sleep 1; done',
      'kill -TERM "$@" 2>/dev/null',
      `i=0; while [ $i -lt ${Math.ceil(this.stopGraceMs / 100)} ] && alive "$@"; do sleep 0.1; i=$((i+1)); done`,
      'kill -KILL "$@" 2>/dev/null; rm -rf "$dir"',
    ].join('\n');
    this.watchdog = spawn('sh', ['-c', script, 'hcp-cdk-apiserver-watchdog', String(process.pid), this.directory, ...pids], { detached: true, stdio: 'ignore' });
    this.watchdog.unref();
  }

  private async untilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let last = 'no answer yet';
    let client: KubeClient | undefined;
    try {
      while (Date.now() < deadline) {
        const ended = [...this.exits.entries()].map(([name, how]) => `${name} ${how}`);
        if (ended.length > 0) throw new Error(`the test kube-apiserver did not start: ${ended.join(' and ')}\n${this.logTails()}`);
        if (!client && fs.existsSync(this.connection.caFile)) client = new KubeClient(this.connection);
        if (client) {
          const answer = await client.request('GET', '/readyz').catch((error: Error) => ({ status: 0, body: error.message }));
          if (answer.status === 200 && answer.body === 'ok') return;
          last = answerSummary(answer.status, answer.body);
          if (answer.status === 0) {
            // Perhaps the certificate was read while being written: read it again.
            client.close();
            client = undefined;
          }
        }
        await sleep(100);
      }
      throw new Error(`the test kube-apiserver (${this.connection.url}) did not answer /readyz with ok within ${timeoutMs} ms (the last answer: ${last})\n${this.logTails()}`);
    } finally {
      client?.close();
    }
  }

  /** Whether `name` exits within `ms`. */
  private async exited(name: string, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!this.exits.has(name) && Date.now() < deadline) await sleep(50);
    return this.exits.has(name);
  }
}

const RUNNING = new Set<KubeApiServer>();
let handlersInstalled = false;

/**
 * Stops every server this process started when it exits or is interrupted: on exit at once
 * (SIGKILL), on SIGINT, SIGTERM and SIGHUP gracefully, after which the signal takes its course.
 */
function installCleanupHandlers(): void {
  if (handlersInstalled) return;
  handlersInstalled = true;
  process.on('exit', () => {
    for (const server of [...RUNNING]) server.kill();
  });
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const handler = (): void => {
      void Promise.all([...RUNNING].map((s) => s.stop())).finally(() => {
        process.removeListener(name, handler);
        // Others listening (jest's own handler) have had the signal; with none left it ends the process as it would have.
        if (process.listenerCount(name) === 0) process.kill(process.pid, name);
      });
    };
    process.on(name, handler);
  }
}

/** `/readyz`'s answer on one line: the status and the checks that failed, or the start of the text. */
function answerSummary(status: number, body: unknown): string {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const failed = text
    .split('\n')
    .filter((line) => line.startsWith('[-]'))
    .map((line) => line.slice(3));
  return `${status}${failed.length > 0 ? `, failed: ${failed.join(', ')}` : `: ${text.replace(/\s+/g, ' ').slice(0, 200)}`}`;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** `count` distinct ports free on 127.0.0.1 at this moment. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => (s.address() as net.AddressInfo).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
