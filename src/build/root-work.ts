import { DiskFileSystem } from '../fs/disk.js';
import type { FileSystem } from '../fs/filesystem.js';
import { GitRepository } from '../fs/git.js';
import { MemoizedFileSystem } from '../fs/memoized.js';
import { normalize, relative } from '../fs/path.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import { BuildCache } from './build-cache.js';
import type { BuildOptions } from './build.js';
import { diffRoot, type RootDiff } from './root-diff.js';
import { buildRoot, type RootResult } from './root-results.js';
import type { ValidateOnlyOptions } from '../options.js';
import type { SchemaSet } from '../schema/schema-set.js';
import type { RootReport } from '../validate/report.js';

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

/** What a thread does with each root. */
type RootTask =
  /** builds it: {@link RootResult}s */
  | { kind: 'build' }
  /** builds it and checks its build against the commit `against` (`affected`): {@link RootCheck}s */
  | { kind: 'check'; against: string }
  /**
   * builds it at both revisions, when the files may differ, and compares (`diffRevisions`):
   * {@link RootDiff}s, undefined for none; `baseRoots` and `headRoots` are the roots found at each
   */
  | { kind: 'diff'; against: string; showSecrets: boolean; baseRoots: ReadonlySet<string>; headRoots: ReadonlySet<string> }
  /** builds and validates it (`validateAll`): {@link RootReport}s */
  | { kind: 'validate'; validation: ValidateOnlyOptions };

/**
 * What a thread that works on roots is told (it is sent to worker threads as it is): where the
 * roots are, how to build them, and what to do with each.
 */
export interface RootsSetup {
  /** the top the roots are relative to: absolute */
  dir: string;
  /** how each root builds (`fs` and `plugins` only when every root builds in this thread) */
  options: BuildOptions;
  /** the roots build at this commit of the repository whose work tree holds the top, rather than on `options.fs` or the disk */
  at?: string;
  task: RootTask;
}

/** What a thread gives for one root. */
export type RootWorkResult = RootResult | RootCheck | RootDiff | RootReport | undefined;

/**
 * The work of one thread: its file systems and cache, made from the setup, and the function
 * that works on one root with them. The trees do not change while the roots build: each file is
 * read once (and each content parsed once) for all the roots the thread works on, at both
 * revisions.
 */
export function rootWork(setup: RootsSetup, signal: AbortSignal | undefined): (path: string) => Promise<RootWorkResult> {
  const { task } = setup;
  const repository = setup.at !== undefined || task.kind === 'check' || task.kind === 'diff' ? GitRepository.open(setup.dir) : undefined;
  const given = setup.at !== undefined ? repository!.checkout(setup.at) : (setup.options.fs ?? new DiskFileSystem());
  const fs = given instanceof MemoizedFileSystem ? given : new MemoizedFileSystem(given);
  const options: BuildOptions = { ...setup.options, fs, cache: setup.options.cache ?? new BuildCache(), ...(signal && { signal }) };
  if (task.kind === 'build') return (path) => buildRoot(setup.dir, path, options).then((r) => r.result);
  if (task.kind === 'validate') {
    const validation = { ...options, ...task.validation };
    // the schemas given are read once for all the roots of the thread (and the validation modules loaded then)
    let made: Promise<[SchemaSet, typeof import('./root-validation.js')]> | undefined;
    return async (path) => {
      const [schemas, { validateRoot }] = await (made ??= Promise.all([import('./validate.js').then((v) => v.givenSchemas(validation)), import('./root-validation.js')]));
      return validateRoot(setup.dir, path, validation, schemas);
    };
  }
  const other = new MemoizedFileSystem(repository!.checkout(task.against));
  if (task.kind === 'check') return (path) => checkRoot(setup.dir, path, options, other);
  return (path) => diffRoot(setup.dir, path, options, other, { base: task.baseRoots.has(path), head: task.headRoots.has(path) }, task.showSecrets);
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
  const files = recording
    .record()
    .differencesIn(other, FILES_NAMED)
    .map((p) => relative(dir, normalize(p)))
    .sort();
  return { path, verdict: files.length === 0 ? 'same' : 'differs', files };
}
