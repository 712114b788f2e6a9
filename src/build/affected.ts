import { KustomizeError } from '../errors.js';
import { checkOptionNames, optionNames } from '../options.js';
import { workOnRoots } from './root-threads.js';
import type { RootCheck } from './root-work.js';
import { openRevisions, revisionOptionNames, revisionThreads, type RevisionBuildOptions, type RevisionRootsOptions } from './revisions.js';

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
interface AffectedOnlyOptions extends RevisionRootsOptions {
  /** the earlier revision (a commit, branch, tag, `HEAD~3`…) */
  since: string;
  /** the later revision; default: the work tree as it is, untracked files included */
  until?: string;
}

export type AffectedOptions = RevisionBuildOptions & AffectedOnlyOptions;

const AFFECTED_OPTION_NAMES = revisionOptionNames(optionNames<Omit<AffectedOnlyOptions, keyof RevisionRootsOptions>>({ since: true, until: true }));

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
  const threads = revisionThreads(options);
  const { dir, before, after, differ, rootsBefore, rootsAfter, roots } = openRevisions(top, options.cwd, since, until, exclude, shard);
  // no file differs: no answer can
  if (!differ) return;
  const both = roots.filter((path) => rootsBefore.has(path) && rootsAfter.has(path));
  const checks = workOnRoots(both, { dir, options: buildOptions, ...(after !== undefined && { at: after }), task: { kind: 'check', against: before } }, threads) as AsyncGenerator<RootCheck>;
  try {
    for (const path of roots) {
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
