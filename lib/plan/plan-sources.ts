import { GitOutputFolder } from '../output/git-output-folder';
import { OutputSnapshot, PlanInputError } from './output-snapshot';

/** Where the previous output of a plan comes from. */
export interface PreviousOutputSpec {
  /**
   * A directory holding the previous output, e.g. a checkout of the branch the clusters follow.
   * @default - git, see `gitRef`
   */
  readonly directory?: string;
  /**
   * A commit-ish of the git repository around the output directory (`main`, `origin/main`, a tag or
   * a commit id), whose copy of the output folder is read with git itself; no fetch, no network.
   * @default 'HEAD' - the last commit, which in a GitOps repository is what the clusters run
   */
  readonly gitRef?: string;
}

/** The previous output named by `spec`, for the output directory `outputDirectory`. */
export function previousSnapshot(outputDirectory: string, spec: PreviousOutputSpec = {}): OutputSnapshot {
  if (spec.directory !== undefined && spec.gitRef !== undefined) {
    throw new PlanInputError(`give the previous output as a directory (${spec.directory}) or a git ref (${spec.gitRef}), not both`);
  }
  if (spec.directory !== undefined) return OutputSnapshot.fromDirectory(spec.directory);
  return gitSnapshot(outputDirectory, spec.gitRef ?? 'HEAD');
}

/** The output folder `directory` as commit `ref` of the repository around it holds it. */
export function gitSnapshot(directory: string, ref: string): OutputSnapshot {
  if (ref.trim() === '' || ref.startsWith('-')) throw new PlanInputError(`the git ref (${JSON.stringify(ref)}) must name a branch, tag or commit such as main or origin/main`);
  const folder = GitOutputFolder.locate(directory, ref);
  if (!folder.repository) {
    throw new PlanInputError(`cannot read the previous output from git: ${folder.absence}; give the previous output as a directory instead (--against <dir>)`);
  }
  if (!folder.hasCommits) throw new PlanInputError(`unknown git ref ${JSON.stringify(ref)} in ${folder.repository}; give a branch, tag or commit it holds (git branch -a lists them)`);
  // The ref holds nothing there yet: the first synth, where every object is new.
  if (!folder.tree) return OutputSnapshot.fromFiles(`${folder.location}, which holds nothing yet`, new Map());
  return OutputSnapshot.fromFiles(folder.location, folder.contents());
}
