import type { FileSystem } from '../fs/filesystem.js';
import { join } from '../fs/path.js';
import { RecordingFileSystem } from '../fs/recording-fs.js';
import { printedResources, resourceChanges, type PrintedResource, type ResourceChange } from '../output/resource-diff.js';
import type { BuildOptions } from './build.js';
import { buildRoot, type RootError } from './root-results.js';
import { isRoot } from './roots.js';

/** How one root's output differs between two revisions. */
export interface RootDiff {
  /** the root, relative to the top */
  path: string;
  /**
   * `changed`: it builds at both and some resource differs; `added`/`removed`: it is a root at
   * the head only, or at the base only (its resources all added or removed); `error`: it builds
   * at one revision and fails at the other, or fails at both differently
   */
  status: 'changed' | 'added' | 'removed' | 'error';
  /** the resources that differ, by id */
  resources: ResourceChange[];
  /** the error of the side that failed (the head's when both did) */
  error?: RootError & { side: 'base' | 'head' };
}

/** One side of a root: its resources when it built, its error when it failed, nothing when it is no root there. */
type Side = { resources: PrintedResource[] } | { error: RootError } | undefined;

/**
 * How the root at `path` (under `dir`) differs between `base` and the head (`options.fs`):
 * undefined when its output is the same. It is built at the head first; when every question
 * that build asked of its files is answered the same at the base, the base would build the
 * same and is not built.
 */
export async function diffRoot(dir: string, path: string, options: BuildOptions, base: FileSystem, showSecrets: boolean): Promise<RootDiff | undefined> {
  const at = path === '.' ? dir : join(dir, path);
  const recording = new RecordingFileSystem(options.fs!);
  const head = isRoot(options.fs!, at) ? await side(dir, path, { ...options, fs: recording }) : undefined;
  if (head?.complete && isRoot(base, at) && recording.record().differencesIn(base, 1).length === 0) return undefined;
  const before = isRoot(base, at) ? (await side(dir, path, { ...options, fs: base })).built : undefined;
  return compared(path, before, head?.built, showSecrets);
}

async function side(dir: string, path: string, options: BuildOptions): Promise<{ built: Side; complete: boolean }> {
  const { result, complete, objects } = await buildRoot(dir, path, options, true);
  return { built: result.ok ? { resources: printedResources(result.yaml, objects!) } : { error: result.error }, complete };
}

function compared(path: string, base: Side, head: Side, showSecrets: boolean): RootDiff | undefined {
  if (!base && !head) return undefined;
  const resources = (s: Side) => (s && 'resources' in s ? s.resources : []);
  const error = (s: Side, name: 'base' | 'head') => (s && 'error' in s ? { error: { ...s.error, side: name } } : {});
  if (!base || !head) {
    const status = base ? 'removed' : 'added';
    return { path, status, resources: resourceChanges(resources(base), resources(head), showSecrets), ...error(base ?? head, base ? 'base' : 'head') };
  }
  if ('error' in head || 'error' in base) {
    const same = 'error' in head && 'error' in base && head.error.code === base.error.code && head.error.message === base.error.message;
    return same ? undefined : { path, status: 'error', resources: [], ...('error' in head ? error(head, 'head') : error(base, 'base')) };
  }
  const changes = resourceChanges(base.resources, head.resources, showSecrets);
  return changes.length === 0 ? undefined : { path, status: 'changed', resources: changes };
}
