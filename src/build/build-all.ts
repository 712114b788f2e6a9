import { availableParallelism } from 'node:os';
import { KustomizeError } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { resolve } from '../fs/path.js';
import { checkOptionNames, OPTION_NAMES, optionNames } from '../options.js';
import type { BuildOptions } from './build.js';
import { workOnRoots } from './root-threads.js';
import type { RootResult } from './root-results.js';
import type { RootsSetup, RootWorkResult } from './root-work.js';
import { VALIDATE_ONLY_OPTION_NAMES, type ValidateOnlyOptions } from '../options.js';
import type { RootReport } from '../validate/report.js';
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
  yield* workOn(top, options, { kind: 'build' }) as AsyncGenerator<RootResult>;
}

/** Works on every root under `top` as `task` says, in threads as the options say. */
function workOn(top: string, options: BuildAllOptions, task: RootsSetup['task']): AsyncGenerator<RootWorkResult> {
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
  const setup: RootsSetup = { dir, options: inThread ? { ...buildOptions, fs, cwd } : buildOptions, task };
  return workOnRoots(roots, setup, { jobs: inThread ? 1 : jobs, script: workerScript, signal });
}

/** What `validateAll` takes: `buildAll`'s options and `validate`'s. */
export type ValidateAllOptions = BuildAllOptions & ValidateOnlyOptions;

/**
 * Validates every kustomization root under `top` as `validate(top/<root>)` would, built as
 * `buildAll` builds them; gives each root's report in path order, its files relative to `top`.
 * A root that fails to build is a report with `failed`; schemas that cannot be read fail at once.
 */
export async function* validateAll(top: string, options: ValidateAllOptions = {}): AsyncGenerator<RootReport> {
  checkOptionNames(options, [...BUILD_ALL_OPTION_NAMES, ...VALIDATE_ONLY_OPTION_NAMES], 'validateAll()');
  const { kubernetesVersion, strict, ignoreMissingSchemas, ...rest } = options;
  const cwd = options.cwd ?? (options.fs ? '/' : process.cwd());
  // the roots build in other directories (and threads): the schema files are named absolutely
  const build = { ...rest, schemas: (rest.schemas ?? []).map((s) => resolve(cwd, s)) };
  const validation: ValidateOnlyOptions = { kubernetesVersion, strict, ignoreMissingSchemas };
  // read here first: a schema that is wrong fails the run before any root builds
  await (await import('./validate.js')).givenSchemas({ kubernetesVersion, schemas: build.schemas, ...(options.fs && { fs: options.fs }) });
  yield* workOn(top, build, { kind: 'validate', validation }) as AsyncGenerator<RootReport>;
}

/** The `jobs` option: the machine's cores when not given. */
export function jobsOf(jobs: number | undefined): number {
  const n = jobs ?? availableParallelism();
  if (!Number.isInteger(n) || n < 1) throw new KustomizeError('USAGE', `jobs must be a whole number of at least 1, not ${String(jobs)}`);
  return n;
}
