/**
 * The parts of kustomize-ts that need Node: the disk file system, the default source of remote
 * resources (`fetch` plus the `git` executable), and building a whole repository in worker
 * threads. `build()` uses the first two by default; import them from here to wrap or reuse them.
 */
import { buildAll as buildAllRoots, type BuildAllOptions, type RootResult } from './build/build-all.js';

export { DiskFileSystem } from './fs/disk.js';
export { NodeRemoteSource } from './load/remote/node-remote.js';
export { findRoots, parseShard, type Shard } from './build/roots.js';
export type { BuildAllOptions, RootResult, RootBuilt, RootFailed } from './build/build-all.js';

/**
 * Builds every kustomization root under `top`, each as `build(top/<root>)` would, in worker
 * threads that share the files they parse; gives the results in path order (see
 * src/build/build-all.ts).
 */
export function buildAll(top: string, options: BuildAllOptions = {}): AsyncGenerator<RootResult> {
  return buildAllRoots(top, { workerScript: new URL('./build/worker-entry.js', import.meta.url), ...options });
}
