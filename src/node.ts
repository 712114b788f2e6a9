/**
 * The parts of kustomize-ts that need Node: the disk file system, the default source of remote
 * resources (`fetch` plus the `git` executable), building a whole repository in worker threads,
 * what a change to it affects (through `git`), and the render server (`RenderServer`). `build()` uses the first two by default;
 * import them from here to wrap or reuse them.
 */
import { fileURLToPath } from 'node:url';
import { affected as affectedRoots, type AffectedOptions, type AffectedRoot } from './build/affected.js';
import { buildAll as buildAllRoots, validateAll as validateAllRoots, type BuildAllOptions, type RootResult, type ValidateAllOptions } from './build/build-all.js';
import type { RootReport } from './validate/report.js';
import { diffRevisions as diffRoots, type DiffOptions, type RevisionsDiff } from './build/diff.js';

export { DiskFileSystem } from './fs/disk.js';
export { NodeRemoteSource } from './load/remote/node-remote.js';
export { findRoots, parseShard, type Shard } from './build/roots.js';
export { RenderServer, type RenderServerOptions } from './serve/render-server.js';
export { DEFAULT_LIMITS, type ServerLimits } from './serve/limits.js';
export type { BuildAllOptions, RootResult, RootBuilt, RootFailed, ValidateAllOptions } from './build/build-all.js';
export type { AffectedOptions, AffectedRoot } from './build/affected.js';
export type { DiffOptions, RevisionsDiff, RootDiff, ResourceChange } from './build/diff.js';

/** The script the worker threads of `buildAll` and `affected` run. */
const WORKER_SCRIPT = fileURLToPath(new URL('./build/worker-entry.js', import.meta.url));

/**
 * Builds every kustomization root under `top`, each as `build(top/<root>)` would, in worker
 * threads that share the files they parse; gives the results in path order (see
 * src/build/build-all.ts).
 */
export function buildAll(top: string, options: BuildAllOptions = {}): AsyncGenerator<RootResult> {
  return buildAllRoots(top, { workerScript: WORKER_SCRIPT, ...options });
}

/**
 * Validates every kustomization root under `top`, each as `validate(top/<root>)` would, in
 * worker threads as `buildAll` builds them; gives each root's report in path order, its files
 * relative to `top` (see src/build/build-all.ts).
 */
export function validateAll(top: string, options: ValidateAllOptions = {}): AsyncGenerator<RootReport> {
  return validateAllRoots(top, { workerScript: WORKER_SCRIPT, ...options });
}

/**
 * The kustomization roots under `top` (in a git work tree) whose output may differ between
 * revision `options.since` and `options.until` (default: the work tree), in path order, with
 * why (see src/build/affected.ts).
 */
export function affected(top: string, options: AffectedOptions): AsyncGenerator<AffectedRoot> {
  return affectedRoots(top, { workerScript: WORKER_SCRIPT, ...options });
}

/**
 * How the output of the kustomization roots under `top` (in a git work tree) differs between
 * revision `options.base` and `options.head` (default: the work tree), per root and resource;
 * the structure of `kustomize-ts diff --format json` (see src/build/diff.ts).
 */
export function diffRevisions(top: string, options: DiffOptions): Promise<RevisionsDiff> {
  return diffRoots(top, { workerScript: WORKER_SCRIPT, ...options });
}
