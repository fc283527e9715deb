// Reading the previous output in a worker thread while the app makes its constructs: the files
// come back byte for byte, the first synth compares with them instead of reading the directory
// itself, and a later synth of the same app reads the directory as it is then.
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
// The module object itself (not the namespace copy of `import *`), whose functions a test can replace.
import nodeFs = require('fs');
import { ClusterPlatform, HcpApp, HostedCluster, INCOMPLETE_MARKER, ManagementCluster, Release, SecretSource } from '../../lib';
import { OutputPrefetch } from '../../lib/app/output-prefetch';
import { readTree } from '../util';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-cdk-prefetch-'));
}

function app(outdir: string): HcpApp {
  const hcp = new HcpApp({ outdir });
  const hub = new ManagementCluster(hcp, 'hub');
  for (const name of ['one', 'two']) {
    new HostedCluster(hub, name, {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    }).addNodePool('workers', { replicas: 2 });
  }
  return hcp;
}

/** synth() without the secrets report on stderr. */
function quietly(work: () => void): void {
  const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    work();
  } finally {
    spy.mockRestore();
  }
}

describe('OutputPrefetch', () => {
  test('reads every file of a directory, by its path, byte for byte', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'hub', 'one'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'kustomization.yaml'), 'resources: []\n');
    fs.writeFileSync(path.join(dir, 'hub', 'one', '50-hostedcluster-clusters_one.yaml'), 'kind: HostedCluster\n');
    fs.writeFileSync(path.join(dir, 'hub', 'empty.yaml'), '');
    fs.writeFileSync(path.join(dir, 'hub', 'bytes.bin'), Buffer.from([0, 255, 10, 0xe2, 0x82]));

    const files = OutputPrefetch.start(dir)!.take()!;

    expect(new Map([...files].map(([file, bytes]) => [file, [...bytes]]))).toEqual(new Map([
      ['hub/bytes.bin', [0, 255, 10, 0xe2, 0x82]],
      ['hub/empty.yaml', []],
      ['hub/one/50-hostedcluster-clusters_one.yaml', [...Buffer.from('kind: HostedCluster\n')]],
      ['kustomization.yaml', [...Buffer.from('resources: []\n')]],
    ]));
  });

  test('is not started for a missing or an empty directory', () => {
    const dir = tempDir();
    expect(OutputPrefetch.start(path.join(dir, 'missing'))).toBeUndefined();
    expect(OutputPrefetch.start(dir)).toBeUndefined();
  });

  test("an app's first synth compares with the files read in the background and reads none of them itself", () => {
    const outdir = path.join(tempDir(), 'dist');
    quietly(() => app(outdir).synth());
    const files = readTree(outdir);

    const again = app(outdir);
    const read = jest.spyOn(nodeFs, 'readFileSync');
    try {
      quietly(() => again.synth());
      // Asking whether a synth left the directory incomplete is not reading the output.
      const readInOutput = read.mock.calls.map(([file]) => String(file)).filter((file) => file.startsWith(outdir + path.sep) && path.basename(file) !== INCOMPLETE_MARKER);
      expect(readInOutput).toEqual([]);
    } finally {
      read.mockRestore();
    }
    expect(again.lastWrite).toEqual({ written: 0, removed: 0, unchanged: files.size });
    expect(readTree(outdir)).toEqual(files);
  });

  test('a second synth of the same app compares with the directory as it is then', () => {
    const outdir = path.join(tempDir(), 'dist');
    const hcp = app(outdir);
    quietly(() => hcp.synth());
    const files = readTree(outdir);
    const edited = [...files.keys()].find((file) => file.endsWith('.yaml') && file.includes('hostedcluster'))!;
    fs.writeFileSync(path.join(outdir, edited), 'edited by hand\n');

    quietly(() => hcp.synth());

    expect(hcp.lastWrite).toEqual({ written: 1, removed: 0, unchanged: files.size - 1 });
    expect(readTree(outdir)).toEqual(files);
  });
});
