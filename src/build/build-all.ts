import { availableParallelism } from 'node:os';
import { KustomizeError } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { resolve } from '../fs/path.js';
import { checkOptionNames, OPTION_NAMES, optionNames } from '../options.js';
import type { BuildOptions } from './build.js';
import { workOnRoots } from './root-threads.js';
import type { RootResult } from './root-results.js';
import { findRoots, shardOf, type Shard } from './roots.js';

export type { RootBuilt, RootFailed, RootResult } from './root-results.js';

/** What `buildAll` takes besides a build's options. */
interface BuildAllOnlyOptions {
  /** directories not searched for roots (see `findRoots`) */
  exclude?: readonly string[];
  /** the roots to build (relative to the top), instead of every root found */
  roots?: readonly string[];
  /** builds only this part of the roots */
  shard?: Shard;
  /** worker threads building at the same time; default: the machine's cores. With 1, or with options a thread cannot be given (`fs`, `remote`, `plugins`, `cache`), every root builds in this thread */
  jobs?: number;
  /** the script each worker thread runs (it must end in `workerMain`): the CLI's launcher, or this package's worker-entry module */
  workerScript?: string | URL;
}

export type BuildAllOptions = Omit<BuildOptions, 'warn'> & BuildAllOnlyOptions;

const BUILD_ALL_OPTION_NAMES = [
  ...OPTION_NAMES.filter((name) => name !== 'warn'),
  ...optionNames<BuildAllOnlyOptions & Pick<BuildOptions, 'plugins' | 'cache' | 'signal'>>({
    exclude: true,
    roots: true,
    shard: true,
    jobs: true,
    workerScript: true,
    plugins: true,
    cache: true,
    signal: true,
  }),
];

/**
 * Builds every kustomization root under `top` (see `findRoots`), each as `build(top/<root>)`
 * would with the same options, and gives their results in path order. The builds of a thread
 * share one `BuildCache` and read each file once: a file is read and parsed once for all the
 * roots that thread builds, and roots are dealt to threads in runs of consecutive paths, so the
 * overlays of a base mostly share a thread. A root that fails is reported and the others still
 * build.
 */
export async function* buildAll(top: string, options: BuildAllOptions = {}): AsyncGenerator<RootResult> {
  checkOptionNames(options, BUILD_ALL_OPTION_NAMES, 'buildAll()');
  const jobs = jobsOf(options.jobs);
  const { exclude, roots: given, shard, jobs: _jobs, workerScript, signal, ...buildOptions } = options;
  const cwd = options.cwd ?? (options.fs ? '/' : process.cwd());
  const dir = resolve(cwd, top);
  // the tree does not change while its roots build: each file is read once, finding the roots included
  const fs = new MemoizedFileSystem(options.fs ?? new DiskFileSystem());
  const found = given ? [...given] : findRoots(fs, dir, exclude);
  const roots = shard ? shardOf(found, shard) : found;
  // what a worker thread cannot be given keeps every build in this thread
  const inThread = jobs === 1 || !workerScript || options.fs || options.remote || options.plugins || options.cache;
  const setup = { dir, options: inThread ? { ...buildOptions, fs, cwd } : buildOptions, task: { kind: 'build' as const } };
  yield* workOnRoots(roots, setup, { jobs: inThread ? 1 : jobs, script: workerScript, signal }) as AsyncGenerator<RootResult>;
}

/** The `jobs` option: the machine's cores when not given. */
export function jobsOf(jobs: number | undefined): number {
  const n = jobs ?? availableParallelism();
  if (!Number.isInteger(n) || n < 1) throw new KustomizeError('USAGE', `jobs must be a whole number of at least 1, not ${String(jobs)}`);
  return n;
}
