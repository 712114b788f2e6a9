import { throwIfAborted } from '../abort.js';
import { KustomizeError, type ErrorCode, type Warning } from '../errors.js';
import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { GitRepository } from '../fs/git.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { isRelativePath, join, normalize, relative } from '../fs/path.js';
import { answerOf, sameAnswer, type Question } from '../fs/questions.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import type { RemoteInput } from '../load/remote/remote-source.js';
import { BuildCache } from './build-cache.js';
import { build, type BuildOptions } from './build.js';

/** What one root of `buildAll` gave: its output as `build` prints it, or its error. */
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

/** What one root's build at one revision says of its output at another (`affected`). */
export interface RootCheck {
  path: string;
  /**
   * `same`: every question its build asked of the files is answered the same at the other
   * revision, so its output is the same there; `differs`: some answer differs (`files`);
   * `unknown`: its build ran a plugin that may read files unseen, or failed for a reason the
   * files do not decide (a fetch, a program), so the files cannot say.
   */
  verdict: 'same' | 'differs' | 'unknown';
  /** the paths, relative to the top, whose answers differ (a few of them at most) */
  files: string[];
}

/** How many of the paths whose answers differ a check names. */
const FILES_NAMED = 10;

/**
 * What a thread that works on roots is told (it is sent to worker threads as it is): where the
 * roots are, how to build them, and whether to check them against another revision.
 */
export interface RootsSetup {
  /** the top the roots are relative to: absolute */
  dir: string;
  /** how each root builds (`fs` and `plugins` only when every root builds in this thread) */
  options: BuildOptions;
  /** the roots build at this commit of the repository whose work tree holds the top, rather than on `options.fs` or the disk */
  at?: string;
  /** each root's build is checked against this commit of that repository (`affected`): the thread gives {@link RootCheck}s */
  against?: string;
}

/**
 * The work of one thread: its file system and cache, made from the setup, and the function
 * that builds (or checks) one root with them. The tree does not change while the roots build:
 * each file is read once for all the roots the thread works on.
 */
export function rootWork(setup: RootsSetup, signal: AbortSignal | undefined): (path: string) => Promise<RootResult | RootCheck> {
  const repository = setup.at !== undefined || setup.against !== undefined ? GitRepository.open(setup.dir) : undefined;
  const given = setup.at !== undefined ? repository!.checkout(setup.at) : (setup.options.fs ?? new DiskFileSystem());
  const fs = given instanceof MemoizedFileSystem ? given : new MemoizedFileSystem(given);
  const options: BuildOptions = { ...setup.options, fs, cache: setup.options.cache ?? new BuildCache(), ...(signal && { signal }) };
  if (setup.against === undefined) return (path) => buildRoot(setup.dir, path, options).then((r) => r.result);
  const other = new MemoizedFileSystem(repository!.checkout(setup.against));
  return (path) => checkRoot(setup.dir, path, options, other);
}

/** One root's build, as a result: its paths relative to the top; and whether the files it read are all its output depends on. */
async function buildRoot(dir: string, path: string, options: BuildOptions): Promise<{ result: RootResult; complete: boolean }> {
  const started = performance.now();
  const ms = (): number => Math.round(performance.now() - started);
  try {
    const r = await build(path === '.' ? dir : join(dir, path), options);
    const warnings = r.warnings.map((w) => placedFromTop(path, w));
    return { result: { path, ok: true, yaml: r.yaml, warnings, inputs: r.inputs.map((f) => fromTop(path, f)), remote: r.remote, ms: ms() }, complete: r.inputsComplete };
  } catch (e) {
    throwIfAborted(options.signal);
    const error = e instanceof KustomizeError ? placedFromTop(path, { code: e.code, message: e.message, ...e.context }) : { code: 'INTERNAL' as const, message: String(e) };
    return { result: { path, ok: false, error, ms: ms() }, complete: decidedByFiles(error.code, options) };
  }
}

/**
 * The errors whose cause is in the files a build read: the same files fail the same way. The
 * rest come from the outside (a fetch, a process, git, the caller), or from a build that may have
 * run a program before it failed.
 */
const FILE_ERRORS: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'YAML_INVALID',
  'KUSTOMIZATION_INVALID',
  'KUSTOMIZATION_NOT_FOUND',
  'COMPOSITION_INVALID',
  'FILE_NOT_FOUND',
  'FILE_INVALID',
  'LOAD_RESTRICTED',
  'CYCLE',
  'RESOURCE_CONFLICT',
  'RESOURCE_NOT_FOUND',
  'RESOURCE_INVALID',
  'GENERATOR_FAILED',
  'TRANSFORMER_FAILED',
  'PATCH_FAILED',
  'REPLACEMENT_FAILED',
  'VAR_FAILED',
  'PLUGIN_DISABLED',
  'PLUGIN_NOT_FOUND',
  'VALIDATION_FAILED',
  'CATALOG_INVALID',
]);

/** Whether a failed build's error is decided by the files it read: a file error, when no plugin that reads files unseen could have run. */
function decidedByFiles(code: ErrorCode, options: BuildOptions): boolean {
  const programs = options.enablePlugins || options.enableExec || (options.plugins?.length ?? 0) > 0;
  return !programs && FILE_ERRORS.has(code);
}

/**
 * Builds one root on `options.fs` and asks `other` every question the build asked: when each is
 * answered the same, a build there would ask the same questions, get the same answers and make
 * the same output.
 */
async function checkRoot(dir: string, path: string, options: BuildOptions, other: FileSystem): Promise<RootCheck> {
  const recording = new RecordingFileSystem(options.fs!);
  const { complete } = await buildRoot(dir, path, { ...options, fs: recording });
  if (!complete) return { path, verdict: 'unknown', files: [] };
  const files = new Set<string>();
  for (const [key, then] of recording.record().answered()) {
    const cut = key.indexOf('\0');
    const asked = key.slice(cut + 1);
    if (sameAnswer(then, answerOf(other, key.slice(0, cut) as Question, asked))) continue;
    files.add(relative(dir, normalize(asked)));
    if (files.size === FILES_NAMED) break;
  }
  return { path, verdict: files.size === 0 ? 'same' : 'differs', files: [...files].sort() };
}

/** What names a file relative to the root at `path` (under the top), naming it relative to the top; a file of a fetched tree stays as it is. */
function placedFromTop<T extends { file?: string; remote?: string }>(path: string, place: T): T {
  return place.file === undefined || place.remote || !isRelativePath(place.file) ? place : { ...place, file: fromTop(path, place.file) };
}

/** A path relative to the root at `path` (under the top), made relative to the top. */
function fromTop(path: string, file: string): string {
  return path === '.' ? file : normalize(`${path}/${file}`);
}
