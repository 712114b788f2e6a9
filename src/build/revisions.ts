import { KustomizeError } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import { GitRepository } from '../fs/git.js';
import { resolve } from '../fs/path.js';
import { OPTION_NAMES, optionNames } from '../options.js';
import type { BuildOptions } from './build.js';
import { jobsOf } from './build-all.js';
import { byPath, findRoots, shardOf, type Shard } from './roots.js';

/** What `affected` and `diffRevisions` take besides their revisions and a build's options. */
export interface RevisionRootsOptions {
  /** directories not searched for roots (see `findRoots`) */
  exclude?: readonly string[];
  /** only this part of the roots (of both revisions, in path order) is worked on */
  shard?: Shard;
  /** worker threads building at the same time; default: the machine's cores */
  jobs?: number;
  /** the script each worker thread runs (see `buildAll`) */
  workerScript?: string | URL;
}

/** The build options `affected` and `diffRevisions` take: a file system and a cache are theirs to make. */
export type RevisionBuildOptions = Omit<BuildOptions, 'warn' | 'fs' | 'cache'>;

/** The option names of `affected` or `diffRevisions`, whose own are `own`. */
export function revisionOptionNames(own: readonly string[]): string[] {
  return [
    ...OPTION_NAMES.filter((name) => name !== 'warn'),
    ...own,
    ...optionNames<RevisionRootsOptions & Pick<BuildOptions, 'plugins' | 'signal'>>({ exclude: true, shard: true, jobs: true, workerScript: true, plugins: true, signal: true }),
  ];
}

/** The threads the roots are worked on in: one when a build has what a worker thread cannot be given. */
export function revisionThreads(options: RevisionBuildOptions & RevisionRootsOptions): { jobs: number; script: string | URL | undefined; signal: AbortSignal | undefined } {
  return { jobs: options.plugins || options.remote ? 1 : jobsOf(options.jobs), script: options.workerScript, signal: options.signal };
}

/** Two revisions of the repository holding a directory, as `affected` and `diffRevisions` compare them. */
interface Revisions {
  /** the directory, absolute, symlinks resolved */
  dir: string;
  /** the earlier revision's commit */
  before: string;
  /** the later one's; undefined for the work tree */
  after: string | undefined;
  /** whether any file differs between them (when none does, no build's output can) */
  differ: boolean;
  /** the roots under the directory at the earlier revision, and at the later one */
  rootsBefore: ReadonlySet<string>;
  rootsAfter: ReadonlySet<string>;
  /** the roots of both revisions in path order, or the part of them `shard` asks for */
  roots: string[];
}

/**
 * Opens the two revisions `since` and `until` (undefined: the work tree) of the git work tree
 * holding `top` (resolved against `cwd`), and finds their roots when any file differs. Errors:
 * `top` no directory, not in a work tree, an unknown revision (USAGE).
 */
export function openRevisions(top: string, cwd: string | undefined, since: string, until: string | undefined, exclude: readonly string[] | undefined, shard: Shard | undefined): Revisions {
  const disk = new DiskFileSystem();
  const asked = resolve(cwd ?? process.cwd(), top);
  if (!disk.isDirectory(asked)) throw new KustomizeError('USAGE', `'${asked}' is not a directory`, { file: asked });
  const dir = disk.realPath(asked);
  const repository = GitRepository.open(dir);
  const before = repository.resolve(since);
  const after = until === undefined ? undefined : repository.resolve(until);
  const differ = after !== before && repository.changedFiles(before, after).length > 0;
  if (!differ) return { dir, before, after, differ, rootsBefore: new Set(), rootsAfter: new Set(), roots: [] };
  const earlier = repository.checkout(before);
  const rootsBefore = new Set(earlier.isDirectory(dir) ? findRoots(earlier, dir, exclude) : []);
  const rootsAfter = new Set(findRoots(after === undefined ? disk : repository.checkout(after), dir, exclude));
  const roots = shardOf([...new Set([...rootsBefore, ...rootsAfter])].sort(byPath), shard ?? { index: 1, count: 1 });
  return { dir, before, after, differ, rootsBefore, rootsAfter, roots };
}
