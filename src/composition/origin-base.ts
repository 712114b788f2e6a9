import { relative } from '../fs/path.js';
import type { Loader } from '../load/loader.js';
import type { OriginBase } from '../model/origin.js';

/** Where a loader's directory is, for origin annotations: relative to the top of the build, or inside its repository. */
export function originBaseOf(loader: Loader): OriginBase {
  const remote = loader.containingRemote;
  if (remote) return { dir: relative(remote.dir, loader.root), ...(remote.repo && { repo: remote.repo }), ...(remote.ref && { ref: remote.ref }) };
  const dir = loader.originPath('.');
  return { dir: dir === '.' ? '' : dir };
}
