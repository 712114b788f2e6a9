import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { abortedError, throwIfAborted } from '../abort.js';
import { KustomizeError, type ErrorCode, type Warning } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { isRelativePath, join, normalize, resolve } from '../fs/path.js';
import type { RemoteInput } from '../load/remote/remote-source.js';
import { checkOptionNames, OPTION_NAMES, optionNames } from '../options.js';
import { BuildCache } from './build-cache.js';
import { build, type BuildOptions } from './build.js';
import { findRoots, shardOf, type Shard } from './roots.js';

/** What one root of {@link buildAll} gave: its output as `build` prints it, or its error. */
export type RootResult = RootBuilt | RootFailed;

export interface RootBuilt {
  /** the root, relative to the top `buildAll` was given (`.` for the top itself) */
  path: string;
  ok: true;
  /** exactly what `build` prints */
  yaml: string;
  warnings: Warning[];
  /** the local files the build read, relative to the top, sorted */
  inputs: string[];
  /** the remote references it read, with what each resolved to */
  remote: RemoteInput[];
  /** how long its build took */
  ms: number;
}

export interface RootFailed {
  path: string;
  ok: false;
  /** the build's error: its code and message as `build` reports them, the file relative to the top */
  error: { code: ErrorCode; message: string; file?: string; field?: string; line?: number; column?: number; remote?: string };
  ms: number;
}

/** What `buildAll` takes besides a build's options. */
interface BuildAllOnlyOptions {
  /** directories not searched for roots (see `findRoots`) */
  exclude?: readonly string[];
  /** the roots to build (relative to the top), instead of every root found */
  roots?: readonly string[];
  /** builds only this part of the roots */
  shard?: Shard;
  /** worker threads building at the same time; default: the machine's cores. With 1, or with options a thread cannot be given (`fs`, `remote`, `plugins`, `warn`), every root builds in this thread */
  jobs?: number;
  /** the script each worker thread runs (it must end in {@link workerMain}): the CLI's launcher, or this package's build-all-worker module */
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
 * share one `BuildCache`: a file is read and parsed once for all the roots that thread builds,
 * and roots are dealt to threads in runs of consecutive paths, so the overlays of a base mostly
 * share a thread. A root that fails is reported and the others still build.
 */
export async function* buildAll(top: string, options: BuildAllOptions = {}): AsyncGenerator<RootResult> {
  checkOptionNames(options, BUILD_ALL_OPTION_NAMES, 'buildAll()');
  const jobs = options.jobs ?? availableParallelism();
  if (!Number.isInteger(jobs) || jobs < 1) throw new KustomizeError('USAGE', `jobs must be a whole number of at least 1, not ${String(options.jobs)}`);
  const { exclude, roots: given, shard, jobs: _jobs, workerScript, ...buildOptions } = options;
  // the tree does not change while its roots build: each file is read once for all of them
  const fs = new MemoizedFileSystem(options.fs ?? new DiskFileSystem());
  const dir = resolve(options.cwd ?? (options.fs ? '/' : process.cwd()), top);
  const found = given ? [...given] : findRoots(fs, dir, exclude);
  const roots = shard ? shardOf(found, shard) : found;
  const inThread = jobs === 1 || roots.length < 2 || !workerScript || options.fs || options.remote || options.plugins;
  if (inThread) yield* buildInThread(dir, roots, { ...buildOptions, fs });
  else yield* buildInWorkers(dir, roots, buildOptions, Math.min(jobs, roots.length), workerScript);
}

/** Every root built here, one after the other, with one cache. */
async function* buildInThread(dir: string, roots: readonly string[], options: BuildOptions): AsyncGenerator<RootResult> {
  const cache = options.cache ?? new BuildCache();
  for (const path of roots) yield await buildRoot(dir, path, { ...options, cache });
}

/** One root's build, as a result: its paths relative to the top. */
export async function buildRoot(dir: string, path: string, options: BuildOptions): Promise<RootResult> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    const r = await build(path === '.' ? dir : join(dir, path), options);
    const warnings = r.warnings.map((w) => placedFromTop(path, w));
    return { path, ok: true, yaml: r.yaml, warnings, inputs: r.inputs.map((f) => fromTop(path, f)), remote: r.remote, ms: ms() };
  } catch (e) {
    throwIfAborted(options.signal);
    const error = e instanceof KustomizeError ? placedFromTop(path, { code: e.code, message: e.message, ...e.context }) : { code: 'INTERNAL' as const, message: String(e) };
    return { path, ok: false, error, ms: ms() };
  }
}

/** What names a file relative to the root at `path` (under the top), naming it relative to the top; a file of a fetched tree stays as it is. */
function placedFromTop<T extends { file?: string; remote?: string }>(path: string, place: T): T {
  return place.file === undefined || place.remote || !isRelativePath(place.file) ? place : { ...place, file: fromTop(path, place.file) };
}

/** A path relative to the root at `path` (under the top), made relative to the top. */
function fromTop(path: string, file: string): string {
  return path === '.' ? file : normalize(`${path}/${file}`);
}

/** What the main thread tells a worker thread. */
export type ToWorker = { kind: 'build'; chunk: number; paths: readonly string[] } | { kind: 'abort'; reason: string } | { kind: 'stop' };
/** What a worker thread tells the main thread: one root's result, or that it finished a chunk. */
export type FromWorker = { kind: 'result'; result: RootResult } | { kind: 'done'; chunk: number };
/** What a worker thread is started with. */
export interface WorkerSetup {
  dir: string;
  options: BuildOptions;
}

/**
 * Every root built by `jobs` worker threads, each taking the next run of consecutive roots when
 * it has built its last: the threads stay busy, and the overlays of a base mostly meet one cache.
 */
async function* buildInWorkers(dir: string, roots: readonly string[], options: BuildOptions, jobs: number, script: string | URL): AsyncGenerator<RootResult> {
  const { signal, cache: _cache, ...shared } = options;
  const chunkSize = Math.max(1, Math.ceil(roots.length / (jobs * 8)));
  const chunks: string[][] = [];
  for (let i = 0; i < roots.length; i += chunkSize) chunks.push(roots.slice(i, i + chunkSize));
  const results = new Map<string, RootResult>();
  let nextChunk = 0;
  let wake: (() => void) | undefined;
  let failure: unknown;
  const setup: WorkerSetup = { dir, options: shared };
  // the argument tells the CLI's launcher (bin/kustomize-ts.js) it runs in a worker thread
  const workers = Array.from({ length: jobs }, () => new Worker(script, { workerData: setup, argv: ['--build-all-worker'] }));
  const give = (w: Worker): void => {
    const chunk = nextChunk++;
    w.postMessage(chunk < chunks.length ? ({ kind: 'build', chunk, paths: chunks[chunk]! } satisfies ToWorker) : ({ kind: 'stop' } satisfies ToWorker));
  };
  const onAbort = (): void => {
    for (const w of workers) w.postMessage({ kind: 'abort', reason: String(signal!.reason) } satisfies ToWorker);
    wake?.();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  for (const w of workers) {
    w.on('message', (m: FromWorker) => {
      if (m.kind === 'result') results.set(m.result.path, m.result);
      else give(w);
      wake?.();
    });
    w.on('error', (e) => {
      failure ??= e;
      wake?.();
    });
    give(w);
  }
  try {
    for (const path of roots) {
      let result: RootResult | undefined;
      while (!(result = results.get(path))) {
        if (failure) throw new KustomizeError('INTERNAL', `a build-all worker failed: ${String(failure)}`, { cause: failure });
        if (signal?.aborted) throw abortedError(signal);
        await new Promise<void>((resolve) => (wake = resolve));
      }
      results.delete(path);
      yield result;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

