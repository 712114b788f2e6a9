import { KustomizeError } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { GitRepository } from '../fs/git.js';
import { resolve } from '../fs/path.js';
import { checkOptionNames, OPTION_NAMES, optionNames } from '../options.js';
import { jobsOf } from './build-all.js';
import type { BuildOptions } from './build.js';
import { workOnRoots } from './root-threads.js';
import type { RootCheck } from './root-work.js';
import { byPath, findRoots, shardOf, type Shard } from './roots.js';

/** A root whose output may differ between the two revisions `affected` compares, and why. */
export interface AffectedRoot {
  /** the root, relative to the top (`.` for the top itself) */
  path: string;
  /**
   * `added`: a root at the later revision only; `removed`: at the earlier one only; `inputs`:
   * some file its build asks about reads differently at the earlier revision (`files`);
   * `unknown`: its build ran a plugin that may read files unseen, or failed for a reason its
   * files do not decide, and something changed.
   */
  reason: 'added' | 'removed' | 'inputs' | 'unknown';
  /** for `inputs`: the paths whose contents or presence differ (relative to the top, ten at most) */
  files: string[];
}

/** What `affected` takes besides a build's options. */
interface AffectedOnlyOptions {
  /** the earlier revision (a commit, branch, tag, `HEAD~3`…) */
  since: string;
  /** the later revision; default: the work tree as it is, untracked files included */
  until?: string;
  /** directories not searched for roots (see `findRoots`) */
  exclude?: readonly string[];
  /** only this part of the roots (of both revisions, in path order) is checked */
  shard?: Shard;
  /** worker threads building at the same time; default: the machine's cores */
  jobs?: number;
  /** the script each worker thread runs (see `buildAll`) */
  workerScript?: string | URL;
}

export type AffectedOptions = Omit<BuildOptions, 'warn' | 'fs' | 'cache'> & AffectedOnlyOptions;

const AFFECTED_OPTION_NAMES = [
  ...OPTION_NAMES.filter((name) => name !== 'warn'),
  ...optionNames<AffectedOnlyOptions & Pick<BuildOptions, 'plugins' | 'signal'>>({
    since: true,
    until: true,
    exclude: true,
    shard: true,
    jobs: true,
    workerScript: true,
    plugins: true,
    signal: true,
  }),
];

/**
 * The kustomization roots under `top`, a directory of a git work tree, whose output may differ
 * between revision `since` and `until` (default: the work tree), in path order: the roots only
 * one revision has, and each root whose build at `until` asked a question of its files (what a
 * file holds, whether a path exists, what a directory lists) that `since` answers differently.
 * A build is decided by the answers it gets, so a root whose answers all agree makes the same
 * output at both: none is missed. A root may be listed whose output did not change after all
 * (a comment edited in a patch).
 *
 * Each revision is read as a checkout of it would be, with what git does not hold (ignored
 * files, paths outside the work tree) from the disk at both. Remote bases are references, so
 * a root changes with them only when the reference changes. A root whose build runs a plugin
 * that reads files of its own (exec, container, legacy or in-process plugins) is listed
 * whenever anything changed.
 */
export async function* affected(top: string, options: AffectedOptions): AsyncGenerator<AffectedRoot> {
  checkOptionNames(options, AFFECTED_OPTION_NAMES, 'affected()');
  const { since, until, exclude, shard, jobs, workerScript, signal, ...buildOptions } = options;
  if (typeof since !== 'string') throw new KustomizeError('USAGE', 'affected(): the revision to compare with (since) is required');
  const threads = { jobs: buildOptions.plugins || buildOptions.remote ? 1 : jobsOf(jobs), script: workerScript, signal };
  const disk = new DiskFileSystem();
  const asked = resolve(options.cwd ?? process.cwd(), top);
  if (!disk.isDirectory(asked)) throw new KustomizeError('USAGE', `'${asked}' is not a directory`, { file: asked });
  const dir = disk.realPath(asked);
  const repository = GitRepository.open(dir);
  const before = repository.resolve(since);
  const after = until === undefined ? undefined : repository.resolve(until);
  // no file differs: no answer can
  if (repository.changedFiles(before, after).length === 0) return;

  const rootsBefore = rootsIn(repository.checkout(before), dir, exclude);
  const rootsAfter = new Set(findRoots(after === undefined ? disk : repository.checkout(after), dir, exclude));
  const all = shardOf([...new Set([...rootsBefore, ...rootsAfter])].sort(byPath), shard ?? { index: 1, count: 1 });
  const both = all.filter((path) => rootsBefore.has(path) && rootsAfter.has(path));
  const checks = workOnRoots(both, { dir, options: buildOptions, ...(after !== undefined && { at: after }), against: before }, threads) as AsyncGenerator<RootCheck>;
  try {
    for (const path of all) {
      if (!rootsBefore.has(path)) yield { path, reason: 'added', files: [] };
      else if (!rootsAfter.has(path)) yield { path, reason: 'removed', files: [] };
      else {
        const check = (await checks.next()).value as RootCheck;
        if (check.verdict === 'differs') yield { path, reason: 'inputs', files: check.files };
        else if (check.verdict === 'unknown') yield { path, reason: 'unknown', files: [] };
      }
    }
  } finally {
    // a caller that stops early stops the threads
    await checks.return(undefined);
  }
}

/** The roots under `dir` at a revision; none when it has no such directory. */
function rootsIn(fs: FileSystem, dir: string, exclude: readonly string[] | undefined): Set<string> {
  return new Set(fs.isDirectory(dir) ? findRoots(fs, dir, exclude) : []);
}
