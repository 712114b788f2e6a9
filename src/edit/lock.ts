import { KustomizeError } from '../errors.js';
import { defaultFileSystem } from '../fs/default-fs.js';
import { join, resolve } from '../fs/path.js';
import { kustomizationFilesIn } from '../load/entry.js';
import { imageDigests } from '../load/remote/locked-image.js';
import { LOCK_FILE_NAME, lockDifferences, lockedInputs, lockFileText, readLockFile, type LockDifference, type LockedInput } from '../load/remote/lock-file.js';
import { build, type BuildOptions } from '../build/build.js';
import { replaceFile } from './kustomization-file.js';

/**
 * How `lock()` resolves: `write` keeps what the lock file pins, resolves the inputs it lacks
 * and writes the file again (without the inputs no longer reached); `update` resolves every
 * input anew and writes; `check` resolves every input anew and writes nothing.
 */
export type LockAction = 'write' | 'update' | 'check';

/** What `lock()` takes: a build's options (its `lock` option is `lock()`'s to set) and what to do. */
export type LockOptions = Omit<BuildOptions, 'lock'> & { action?: LockAction };

export interface LockResult {
  /** the lock file, absolute */
  file: string;
  /** the inputs the build reached, pinned to what they resolved to, sorted */
  inputs: LockedInput[];
  /** how they differ from the lock file as it was (every input is `missing` when there was none) */
  differences: LockDifference[];
  /** whether the file was written (`check` never writes; an unchanged file is not rewritten) */
  written: boolean;
}

/**
 * Locks the remote inputs of the kustomization in `dir`: builds it, through every base and
 * component, and writes `kustomization.lock.yaml` beside its kustomization file listing each
 * remote input it reached with what it resolved to (a container image given by tag: the digest
 * its registry gives, asked for here; see docs/remote.md). The file is written
 * aside and renamed into place (`replaceFile`), so no reader sees half of it.
 */
export async function lock(dir: string, options: LockOptions = {}): Promise<LockResult> {
  const { action = 'write', ...buildOptions } = options;
  const fs = options.fs ?? (await defaultFileSystem());
  // relative to the working directory as build() takes it: the process's on disk, `/` for a given file system
  const root = resolve(options.cwd ?? (options.fs ? '/' : process.cwd()), dir);
  if (kustomizationFilesIn(fs, root).length === 0) {
    throw new KustomizeError('KUSTOMIZATION_NOT_FOUND', `lock: no kustomization file in '${dir}': a lock file is written beside a local kustomization`, { file: root });
  }
  const file = join(root, LOCK_FILE_NAME);
  const before = fs.exists(file) ? readLockFile(new TextDecoder().decode(fs.readFile(file)), file) : new Map<string, LockedInput>();
  const built = await build(root, { ...buildOptions, fs, lock: action === 'write' ? 'follow' : 'ignore' });
  const inputs = lockedInputs(await imageDigests(built.remote, { offline: options.offline ?? false, ...(options.signal && { signal: options.signal }) }));
  const differences = lockDifferences(before, inputs);
  const text = lockFileText(inputs);
  const written = action !== 'check' && !(fs.exists(file) && new TextDecoder().decode(fs.readFile(file)) === text);
  if (written) replaceFile(fs, file, text);
  return { file, inputs, differences, written };
}
