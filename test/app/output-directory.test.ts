import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import {
  ClusterPlatform,
  formatSecretsReport,
  GitOutputFolder,
  HcpApp,
  HostedCluster,
  ManagementCluster,
  OutputDirectory,
  PreviousOutput,
  PreviousOutputSource,
  Release,
  SecretSource,
} from '../../lib';
import { git, readTree } from '../util';

/** A fresh directory for one test; its name has a space, as users' paths may. */
function tempDir(): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hcp-output dir-')));
}

const FILES = [
  { path: 'hub/one/50-hostedcluster-clusters_one.yaml', text: 'kind: HostedCluster\nspec:\n  infraID: one\n' },
  { path: 'a b/c d.yaml', text: 'kind: ConfigMap\ndata:\n  text: "ä, with a space"\n' },
];

describe('OutputDirectory', () => {
  describe('previousOutput()', () => {
    test('is the directory itself while it holds files', () => {
      const output = new OutputDirectory(path.join(tempDir(), 'out'));
      output.replaceWith(FILES);
      const previous = output.previousOutput();
      expect([previous.source, previous.location]).toEqual([PreviousOutputSource.OUTPUT_DIRECTORY, output.root]);
      expect(previous.object('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ kind: 'HostedCluster', spec: { infraID: 'one' } });
      expect(previous.object('hub/missing.yaml')).toBeUndefined();
    });

    test('is the copy kept beside the directory once the directory is gone', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'));
      output.replaceWith(FILES);
      fs.rmSync(output.root, { recursive: true });
      const previous = new OutputDirectory(output.root).previousOutput();
      expect([previous.source, previous.location]).toEqual([PreviousOutputSource.LAST_GOOD_COPY, path.join(dir, '.out.last-good', 'output.json')]);
      expect(previous.object('a b/c d.yaml')).toEqual({ kind: 'ConfigMap', data: { text: 'ä, with a space' } });
    });

    test('is none outside git with no copy, and says where it looked', () => {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'out'));
      const previous = new OutputDirectory(path.join(dir, 'out')).previousOutput();
      expect(previous.found).toBe(false);
      expect(previous.reasons).toEqual([`${dir}/out is empty`, `no copy is kept at ${dir}/.out.last-good/output.json`, `${dir}/out is not inside a git work tree`]);
      expect(previous.object('hub/one/50-hostedcluster-clusters_one.yaml')).toBeUndefined();
    });

    test('passes over a copy it cannot read, and says why', () => {
      const dir = tempDir();
      new OutputDirectory(path.join(dir, 'out')).replaceWith(FILES);
      fs.rmSync(path.join(dir, 'out'), { recursive: true });
      fs.writeFileSync(path.join(dir, '.out.last-good', 'output.json'), '{"format":"something else","files":[]}');
      const previous = new OutputDirectory(path.join(dir, 'out')).previousOutput();
      expect(previous.source).toBe(PreviousOutputSource.NONE);
      expect(previous.reasons[1]).toBe(`${dir}/.out.last-good/output.json cannot be read (${dir}/.out.last-good/output.json is not a copy hcp-cdk can read (format "something else"))`);
    });

    test('says so when the copy is not kept', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'), { keepLastGoodCopy: false });
      output.replaceWith(FILES);
      expect(fs.existsSync(path.join(dir, '.out.last-good'))).toBe(false);
      fs.rmSync(output.root, { recursive: true });
      expect(output.previousOutput().reasons).toEqual([`${dir}/out does not exist`, 'keepLastGoodCopy is false', `${dir}/out is not inside a git work tree`]);
    });

    test('says so when the git repository has no commits', () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      expect(new OutputDirectory(path.join(dir, 'out')).previousOutput().reasons[2]).toBe(`the git repository at ${dir} has no commits`);
    });

    test('says so when git HEAD holds nothing at the output folder, however deep and not yet made', () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      fs.writeFileSync(path.join(dir, 'README'), 'gitops\n');
      git(dir, 'add', 'README');
      git(dir, 'commit', '-q', '-m', 'first');
      expect(new OutputDirectory(path.join(dir, 'clusters', 'prod', 'out')).previousOutput().reasons[2]).toBe(`git HEAD of ${dir} holds nothing at clusters/prod/out/`);
    });

    test('is none for an output directory outside the repository', () => {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, 'repo'));
      git(path.join(dir, 'repo'), 'init', '-q');
      expect(new OutputDirectory(path.join(dir, 'elsewhere', 'out')).previousOutput().reasons[2]).toBe(`${dir}/elsewhere/out is not inside a git work tree`);
    });

    test("is git HEAD's output folder when no copy is kept, read with git (paths with spaces included)", () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      new OutputDirectory(path.join(dir, 'gitops', 'out'), { keepLastGoodCopy: false }).replaceWith(FILES);
      git(dir, 'add', 'gitops');
      git(dir, 'commit', '-q', '-m', 'synth');
      fs.rmSync(path.join(dir, 'gitops', 'out'), { recursive: true });
      // Asked from inside the repository's sub-folder, as an app run there would.
      const previous = new OutputDirectory(path.join(dir, 'gitops', 'out')).previousOutput();
      expect([previous.source, previous.location]).toEqual([PreviousOutputSource.GIT_HEAD, `git HEAD of ${dir} (gitops/out/)`]);
      expect(previous.object('a b/c d.yaml')).toEqual({ kind: 'ConfigMap', data: { text: 'ä, with a space' } });
      expect(previous.object('hub/one/50-hostedcluster-clusters_one.yaml')).toEqual({ kind: 'HostedCluster', spec: { infraID: 'one' } });
      expect(previous.restoreCommand).toBe(`git -C '${dir}' checkout HEAD -- gitops/out`);
    });

    describe('the kept copy or git HEAD, whichever is newer', () => {
      const dir = tempDir();
      const out = path.join(dir, 'out');
      const sourceAfter = (change: () => void): PreviousOutputSource => {
        change();
        fs.rmSync(out, { recursive: true, force: true });
        return new OutputDirectory(out).previousOutput().source;
      };
      git(dir, 'init', '-q');
      const v1 = FILES.slice(0, 1);
      const v2 = [{ path: v1[0].path, text: 'kind: HostedCluster\nspec:\n  infraID: two\n' }];

      test('the copy of a synth not committed yet', () => {
        expect(sourceAfter(() => new OutputDirectory(out).replaceWith(v1))).toBe(PreviousOutputSource.LAST_GOOD_COPY);
      });

      test('git HEAD once the output is committed (and pulled, or checked out) after the copy was made', () => {
        expect(
          sourceAfter(() => {
            new OutputDirectory(out, { keepLastGoodCopy: false }).replaceWith(v1);
            git(dir, 'add', 'out');
            git(dir, 'commit', '-q', '-m', 'synth');
          }),
        ).toBe(PreviousOutputSource.GIT_HEAD);
      });

      test('the copy again after a synth with HEAD unchanged, an unrelated commit included', () => {
        expect(
          sourceAfter(() => {
            new OutputDirectory(out).replaceWith(v2);
            fs.writeFileSync(path.join(dir, 'README'), 'unrelated\n');
            git(dir, 'add', 'README');
            git(dir, 'commit', '-q', '-m', 'unrelated');
          }),
        ).toBe(PreviousOutputSource.LAST_GOOD_COPY);
      });

      test('the copy when HEAD no longer holds an output folder', () => {
        expect(
          sourceAfter(() => {
            git(dir, 'rm', '-q', '-r', '--cached', 'out');
            git(dir, 'commit', '-q', '-m', 'no output in git');
          }),
        ).toBe(PreviousOutputSource.LAST_GOOD_COPY);
      });
    });
  });

  describe('replaceWith()', () => {
    test('keeps a copy beside the directory, one file of every path and text, with a state and a .gitignore of its own', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'));
      expect(output.replaceWith(FILES)).toBeUndefined();
      expect(fs.readdirSync(path.join(dir, '.out.last-good')).sort()).toEqual(['.gitignore', 'output.json', 'state.json']);
      expect(fs.readFileSync(path.join(dir, '.out.last-good', '.gitignore'), 'utf8')).toBe('# hcp-cdk keeps the last good output here, out of git\n*\n');
      // The digest tells a later synth that made the same files that the copy holds them already.
      expect(fs.readFileSync(path.join(dir, '.out.last-good', 'state.json'), 'utf8')).toMatch(/^\{"gitTree":null,"digest":"[0-9a-f]{40}"\}\n$/);
      expect(JSON.parse(fs.readFileSync(path.join(dir, '.out.last-good', 'output.json'), 'utf8'))).toEqual({ format: 'hcp-cdk last good output, v1', files: FILES });
    });

    test('records the tree git HEAD holds at the output folder, to tell later whether HEAD changed it', () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      new OutputDirectory(path.join(dir, 'out'), { keepLastGoodCopy: false }).replaceWith(FILES);
      git(dir, 'add', 'out');
      git(dir, 'commit', '-q', '-m', 'synth');
      new OutputDirectory(path.join(dir, 'out')).replaceWith(FILES);
      expect(JSON.parse(fs.readFileSync(path.join(dir, '.out.last-good', 'state.json'), 'utf8'))).toEqual({
        gitTree: git(dir, 'rev-parse', 'HEAD:out').trim(),
        digest: expect.stringMatching(/^[0-9a-f]{40}$/),
      });
    });

    test('the copy stays out of git', () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      new OutputDirectory(path.join(dir, 'out')).replaceWith(FILES);
      expect(git(dir, 'status', '--porcelain', '--untracked-files=all').split('\n').filter(Boolean).sort()).toEqual([
        '?? "out/a b/c d.yaml"',
        '?? out/.hcp-cdk-output',
        '?? out/hub/one/50-hostedcluster-clusters_one.yaml',
      ]);
    });
  });

  describe('restoreAfterFailure()', () => {
    test('puts the kept copy back, byte-identical, into an emptied directory', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'));
      output.replaceWith(FILES);
      const written = readTree(output.root, 'latin1');
      fs.rmSync(output.root, { recursive: true });
      expect(output.restoreAfterFailure()).toEqual({
        restored: true,
        message: `hcp-cdk: the synth failed, so ${dir}/out, which was empty (cdk8s synth deletes it before it runs the app), holds the last good output again, from ${dir}/.out.last-good/output.json`,
      });
      expect(readTree(output.root, 'latin1')).toEqual(written);
    });

    test("puts git HEAD's output back, byte-identical, and git sees no change", () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      const output = new OutputDirectory(path.join(dir, 'out'), { keepLastGoodCopy: false });
      output.replaceWith(FILES);
      const written = readTree(output.root, 'latin1');
      git(dir, 'add', 'out');
      git(dir, 'commit', '-q', '-m', 'synth');
      fs.rmSync(output.root, { recursive: true });
      fs.mkdirSync(output.root);
      expect(output.restoreAfterFailure()?.restored).toBe(true);
      expect(readTree(output.root, 'latin1')).toEqual(written);
      expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    });

    test('leaves a directory that holds files alone', () => {
      const output = new OutputDirectory(path.join(tempDir(), 'out'));
      output.replaceWith(FILES);
      fs.writeFileSync(path.join(output.root, 'edited.yaml'), 'kind: ConfigMap\n');
      expect(output.restoreAfterFailure()).toBeUndefined();
      expect(fs.existsSync(path.join(output.root, 'edited.yaml'))).toBe(true);
    });

    test('does nothing when there is nothing to put back', () => {
      const output = new OutputDirectory(path.join(tempDir(), 'out'));
      expect(output.restoreAfterFailure()).toBeUndefined();
      expect(fs.existsSync(output.root)).toBe(false);
    });

    test('leaves a file where the directory was alone, though a copy is kept', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'));
      output.replaceWith(FILES);
      fs.rmSync(output.root, { recursive: true });
      fs.writeFileSync(output.root, 'notes\n');
      expect(output.restoreAfterFailure()).toBeUndefined();
      expect(fs.readFileSync(output.root, 'utf8')).toBe('notes\n');
    });

    test('says where the last good output is when it cannot be put back, once', () => {
      const dir = tempDir();
      const output = new OutputDirectory(path.join(dir, 'out'));
      // A file and a folder of one name cannot both be written.
      const unwritable = new Map([
        ['hub', Buffer.from('kind: ConfigMap\n')],
        ['hub/one.yaml', Buffer.from('kind: ConfigMap\n')],
      ]);
      const clashing = PreviousOutput.inFiles(PreviousOutputSource.LAST_GOOD_COPY, path.join(dir, 'copy.json'), unwritable);
      const report = output.restoreAfterFailure(clashing);
      expect(report?.restored).toBe(false);
      expect(report?.message).toMatch(new RegExp(`^hcp-cdk: ${dir}/out is left empty: the last good output could not be put back \\(E[A-Z]+[^)]*\\); it is in ${dir}/copy.json$`));
      expect(fs.readdirSync(dir)).toEqual([]);
      expect(output.restoreAfterFailure(clashing)).toBeUndefined();
    });
  });

  describe('obstacle()', () => {
    test('is undefined for a directory, and for a path where one can be made', () => {
      const dir = tempDir();
      expect(new OutputDirectory(dir).obstacle()).toBeUndefined();
      expect(new OutputDirectory(path.join(dir, 'a', 'b')).obstacle()).toBeUndefined();
      fs.symlinkSync(dir, path.join(dir, 'link'));
      expect(new OutputDirectory(path.join(dir, 'link')).obstacle()).toBeUndefined();
    });

    test('is the file at the path, or on the way to it', () => {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, 'out'), 'notes\n');
      expect(new OutputDirectory(path.join(dir, 'out')).obstacle()).toEqual({ path: path.join(dir, 'out'), what: 'a file' });
      expect(new OutputDirectory(path.join(dir, 'out', 'a', 'b')).obstacle()).toEqual({ path: path.join(dir, 'out'), what: 'a file' });
    });

    test('is a symbolic link to nothing', () => {
      const dir = tempDir();
      fs.symlinkSync(path.join(dir, 'gone'), path.join(dir, 'out'));
      expect(new OutputDirectory(path.join(dir, 'out')).obstacle()).toEqual({ path: path.join(dir, 'out'), what: 'a symbolic link to nothing' });
    });
  });

  describe('restoreFileFromGit()', () => {
    /** A repository whose HEAD and index hold the file `out`, deleted from the work tree as cdk8s synth deletes it. */
    const repositoryWithFile = (): { dir: string; output: OutputDirectory } => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      fs.writeFileSync(path.join(dir, 'out'), 'committed\n');
      git(dir, 'add', 'out');
      git(dir, 'commit', '-q', '-m', 'notes');
      fs.writeFileSync(path.join(dir, 'out'), 'staged\n');
      git(dir, 'add', 'out');
      fs.rmSync(path.join(dir, 'out'));
      return { dir, output: new OutputDirectory(path.join(dir, 'out')) };
    };

    test('git HEAD holds a file at the path, not a folder: no tree, and the warning says so', () => {
      const { dir } = repositoryWithFile();
      const folder = GitOutputFolder.locate(path.join(dir, 'out'));
      expect([folder.holdsFile, folder.tree, folder.absence]).toEqual([true, undefined, `git HEAD of ${dir} holds a file at out, not a folder`]);
      expect(GitOutputFolder.locate(path.join(dir, 'other')).holdsFile).toBe(false);
    });

    test('puts back the file git holds at the path, as the index holds it, and leaves the index alone', () => {
      const { dir, output } = repositoryWithFile();
      expect(output.restoreFileFromGit()).toEqual({ restored: true, location: `out in git HEAD of ${dir}` });
      expect(fs.readFileSync(path.join(dir, 'out'), 'utf8')).toBe('staged\n');
      expect(git(dir, 'status', '--porcelain')).toBe('M  out\n');
    });

    test('is undefined when the index no longer holds the file (git rm): a directory may take its place', () => {
      const { dir, output } = repositoryWithFile();
      git(dir, 'rm', '-q', '--cached', 'out');
      expect(output.restoreFileFromGit()).toBeUndefined();
      expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    });

    test('is undefined when git holds a folder there, or nothing, or the path exists', () => {
      const dir = tempDir();
      git(dir, 'init', '-q');
      const output = new OutputDirectory(path.join(dir, 'out'));
      output.replaceWith(FILES);
      git(dir, 'add', 'out');
      git(dir, 'commit', '-q', '-m', 'synth');
      expect(output.restoreFileFromGit()).toBeUndefined();
      fs.rmSync(output.root, { recursive: true });
      expect(output.restoreFileFromGit()).toBeUndefined();
      expect(new OutputDirectory(path.join(dir, 'other')).restoreFileFromGit()).toBeUndefined();
    });
  });
});

describe('HcpApp.synth() and the previous output', () => {
  const build = (outdir: string, infraID?: string) => {
    const app = new HcpApp({ outdir });
    const cluster = new HostedCluster(new ManagementCluster(app, 'hub'), 'one', {
      release: Release.fromVersion('4.17.0'),
      pullSecret: SecretSource.fromExistingSecret('pull-secret'),
      platform: ClusterPlatform.agent({ agentNamespace: 'agents', apiServerAddress: '192.0.2.10' }),
    });
    if (infraID) cluster.addOverride('spec.infraID', infraID);
    return app;
  };
  const quietly = <T>(work: () => T): { result?: T; error?: Error; stderr: string[] } => {
    const stderr: string[] = [];
    const spy = jest.spyOn(console, 'error').mockImplementation((line: string) => void stderr.push(line));
    try {
      return { result: work(), stderr };
    } catch (error) {
      return { error: error as Error, stderr };
    } finally {
      spy.mockRestore();
    }
  };

  test('warns on a first synth that transition rules are not checked, and says so in comparedWith', () => {
    const dir = tempDir();
    const app = build(path.join(dir, 'out'));
    const { stderr } = quietly(() => app.synth());
    expect(stderr).toEqual([
      `hcp-cdk: warning: no previous output, so transition rules (immutable fields such as a HostedCluster's spec.infraID) are not checked on this synth: ${dir}/out does not exist; no copy is kept at ${dir}/.out.last-good/output.json; ${dir}/out is not inside a git work tree`,
      // After a successful synth, the Secrets the output references (test/app/secrets-report.test.ts).
      formatSecretsReport(app.secretsReport()),
    ]);
    expect(app.comparedWith?.source).toBe(PreviousOutputSource.NONE);
    expect(build(path.join(dir, 'out')).findPreviousOutput().source).toBe(PreviousOutputSource.OUTPUT_DIRECTORY);
  });

  test('fails when an immutable field changes after the output directory was emptied, and puts the last good output back', () => {
    const dir = tempDir();
    const outdir = path.join(dir, 'out');
    quietly(() => build(outdir).synth());
    const good = readTree(outdir, 'latin1');
    fs.rmSync(outdir, { recursive: true });
    const app = build(outdir, 'one-renamed');
    const { error, stderr } = quietly(() => app.synth());
    expect(error?.message).toBe('hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID is immutable (value: "one-renamed")');
    expect(app.comparedWith?.source).toBe(PreviousOutputSource.LAST_GOOD_COPY);
    expect(stderr).toEqual([
      `hcp-cdk: the output directory is empty (cdk8s synth deletes it before it runs the app); transition rules are checked against ${dir}/.out.last-good/output.json`,
      `hcp-cdk: the synth failed, so ${outdir}, which was empty (cdk8s synth deletes it before it runs the app), holds the last good output again, from ${dir}/.out.last-good/output.json`,
    ]);
    expect(readTree(outdir, 'latin1')).toEqual(good);
  });

  test('fails with a message that says where the last good output is when it cannot be put back', () => {
    const dir = tempDir();
    const outdir = path.join(dir, 'out');
    // A copy holding a file and a folder of one name, which no directory can hold.
    fs.mkdirSync(path.join(dir, '.out.last-good'));
    fs.writeFileSync(
      path.join(dir, '.out.last-good', 'output.json'),
      JSON.stringify({
        format: 'hcp-cdk last good output, v1',
        files: [
          { path: 'hub', text: '' },
          { path: 'hub/x.yaml', text: '' },
        ],
      }),
    );
    fs.writeFileSync(path.join(dir, '.out.last-good', 'state.json'), '{"gitTree":null}\n');
    const { error } = quietly(() => build(outdir, 'Not_Valid').synth());
    expect(error?.message).toMatch(
      new RegExp(
        `^hub/one/Resource: HostedCluster clusters/one: spec.infraID: infraID must consist of .*\nhcp-cdk: ${outdir} is left empty: the last good output could not be put back \\(E[A-Z]+[^)]*\\); it is in ${dir}/.out.last-good/output.json$`,
      ),
    );
    expect(fs.existsSync(outdir)).toBe(false);
  });

  /** Every entry under `dir` (dotfiles included) with its bytes, inode and mtime, to see that nothing was touched. */
  const snapshot = (dir: string) =>
    new Map(
      fs
        .readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .sort()
        .map((entry) => {
          const stat = fs.lstatSync(path.join(dir, entry), { bigint: true });
          return [entry, { bytes: stat.isFile() ? fs.readFileSync(path.join(dir, entry)).toString('latin1') : undefined, ino: stat.ino, mtime: stat.mtimeNs }];
        }),
    );

  test('fails when outdir is a file, writing nothing and leaving the file byte-identical', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'out'), 'notes, not output\n');
    const before = snapshot(dir);
    const { error, stderr } = quietly(() => build(path.join(dir, 'out')).synth());
    expect(error?.name).toBe('HcpValidationError');
    expect(error?.message).toBe(`HcpApp: outdir ("${dir}/out") must be a directory or a path where synth can make one, and ${dir}/out is a file; nothing is written and it is left as it is`);
    expect(stderr).toEqual([]);
    expect(snapshot(dir)).toEqual(before);
  });

  test('fails when a folder on the outdir path is a file, writing nothing', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'out'), 'notes, not output\n');
    const before = snapshot(dir);
    const { error } = quietly(() => build(path.join(dir, 'out', 'clusters')).synth());
    expect(error?.message).toBe(
      `HcpApp: outdir ("${dir}/out/clusters") must be a directory or a path where synth can make one, and ${dir}/out, on that path, is a file; nothing is written and it is left as it is`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test("fails when the last good output's directory has become a file, which the kept copy does not replace", () => {
    const dir = tempDir();
    const outdir = path.join(dir, 'out');
    quietly(() => build(outdir).synth());
    fs.rmSync(outdir, { recursive: true });
    fs.writeFileSync(outdir, 'notes, not output\n');
    const before = snapshot(dir);
    const { error } = quietly(() => build(outdir).synth());
    expect(error?.message).toBe(`HcpApp: outdir ("${outdir}") must be a directory or a path where synth can make one, and ${outdir} is a file; nothing is written and it is left as it is`);
    expect(snapshot(dir)).toEqual(before);
  });

  test('writeFiles() fails the same way when outdir is a file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'out'), 'notes, not output\n');
    const before = snapshot(dir);
    const app = build(path.join(dir, 'out'));
    expect(() => app.writeFiles(FILES)).toThrow(
      `HcpApp: outdir ("${dir}/out") must be a directory or a path where synth can make one, and ${dir}/out is a file; nothing is written and it is left as it is`,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  test('synthesize() reads no previous output unless asked', () => {
    const dir = tempDir();
    const outdir = path.join(dir, 'out');
    quietly(() => build(outdir).synth());
    fs.rmSync(outdir, { recursive: true });
    expect(() => build(outdir, 'one-renamed').synthesize()).not.toThrow();
    expect(() => build(outdir, 'one-renamed').synthesize({ compareWithPreviousOutput: true })).toThrow(/infraID is immutable/);
    expect(() => build(outdir, 'one-renamed').synthesize({ previousOutput: PreviousOutput.none([]) })).not.toThrow();
  });
});
