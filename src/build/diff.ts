import { KustomizeError } from '../errors.js';
import { checkOptionNames, optionNames } from '../options.js';
import type { RootDiff } from './root-diff.js';
import { workOnRoots } from './root-threads.js';
import { openRevisions, revisionOptionNames, revisionThreads, type RevisionBuildOptions, type RevisionRootsOptions } from './revisions.js';

export type { RootDiff } from './root-diff.js';
export type { ResourceChange } from '../output/resource-diff.js';

/** How the rendered manifests differ between two revisions: the roots that differ, in path order (`diffRevisions`). */
export interface RevisionsDiff {
  /** the base revision's commit */
  base: string;
  /** the head revision's commit, or `worktree` */
  head: string;
  roots: RootDiff[];
}

/** What `diffRevisions` takes besides a build's options. */
interface DiffOnlyOptions extends RevisionRootsOptions {
  /** the revision to compare with (a commit, branch, tag, `HEAD~3`…) */
  base: string;
  /** the revision compared; default: the work tree as it is, untracked files included */
  head?: string;
  /** show the values of Secrets' `data` and `stringData` (by default only whether each key changed) */
  showSecrets?: boolean;
}

export type DiffOptions = RevisionBuildOptions & DiffOnlyOptions;

const DIFF_OPTION_NAMES = revisionOptionNames(optionNames<Omit<DiffOnlyOptions, keyof RevisionRootsOptions>>({ base: true, head: true, showSecrets: true }));

/**
 * How the output of the kustomization roots under `top` (in a git work tree) differs between
 * revision `base` and `head` (default: the work tree), per root and per resource. Both revisions
 * are read from git's objects (the work tree from the disk), with no checkout; only the roots
 * whose files may differ are built at both (see `affected`), and the two sides of a thread share
 * the files they parse. Resources are matched by id, so a resource that only moved is no change.
 */
export async function diffRevisions(top: string, options: DiffOptions): Promise<RevisionsDiff> {
  checkOptionNames(options, DIFF_OPTION_NAMES, 'diffRevisions()');
  const { base, head, showSecrets = false, exclude, shard, jobs, workerScript, signal, ...buildOptions } = options;
  if (typeof base !== 'string') throw new KustomizeError('USAGE', 'diffRevisions(): the revision to compare with (base) is required');
  const threads = revisionThreads(options);
  const { dir, before, after, differ, roots } = openRevisions(top, options.cwd, base, head, exclude, shard);
  const result: RevisionsDiff = { base: before, head: after ?? 'worktree', roots: [] };
  if (!differ) return result;
  const setup = { dir, options: buildOptions, ...(after !== undefined && { at: after }), task: { kind: 'diff' as const, against: before, showSecrets } };
  for await (const root of workOnRoots(roots, setup, threads)) if (root) result.roots.push(root as RootDiff);
  return result;
}
