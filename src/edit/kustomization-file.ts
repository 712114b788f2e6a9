import { KustomizeError } from '../errors.js';
import type { FileSystem } from '../fs/filesystem.js';
import { basename, dirname, join } from '../fs/path.js';
import { KUSTOMIZATION_FILE_NAMES } from '../load/entry.js';

/** The kustomization file in `dir` (absolute path), with kustomize's errors when there is none or more than one. */
export function findKustomizationFile(fs: FileSystem, dir: string): string {
  const found = KUSTOMIZATION_FILE_NAMES.filter((name) => fs.exists(join(dir, name)));
  if (found.length === 0) {
    throw new KustomizeError('KUSTOMIZATION_NOT_FOUND', `Missing kustomization file '${KUSTOMIZATION_FILE_NAMES[0]}'.`, { file: join(dir, KUSTOMIZATION_FILE_NAMES[0]) });
  }
  if (found.length > 1) throw new KustomizeError('KUSTOMIZATION_INVALID', `Found multiple kustomization file: [${found.join(' ')}]`, { file: join(dir, found[0]!) });
  const path = join(dir, found[0]!);
  if (fs.isDirectory(path)) throw new KustomizeError('KUSTOMIZATION_INVALID', `${found[0]} should be a file`, { file: path });
  return path;
}

/**
 * Replaces a file's content in one step: the new text goes to a temporary file beside it, which
 * is then renamed over the file, so the file is either the old one or the new one, never half of
 * either. File systems without `rename` get the file written in place.
 */
export function replaceFile(fs: FileSystem, path: string, text: string): void {
  replaceFiles(fs, new Map([[path, text]]));
}

/**
 * Replaces several files (path → new text) as nearly together as a file system allows: every
 * new text is written to a temporary file first, and only when all are written are they renamed
 * over their files. A failed write leaves every file as it was (and removes the temporary files
 * where the file system can).
 */
export function replaceFiles(fs: FileSystem, files: ReadonlyMap<string, string>): void {
  if (!fs.rename) {
    for (const [path, text] of files) fs.writeFile(path, text);
    return;
  }
  const staged: [temp: string, path: string][] = [];
  try {
    for (const [path, text] of files) {
      const temp = join(dirname(path), `.${basename(path)}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`);
      fs.writeFile(temp, text);
      staged.push([temp, path]);
    }
  } catch (e) {
    for (const [temp] of staged) fs.remove?.(temp);
    throw e;
  }
  for (const [temp, path] of staged) fs.rename(temp, path);
}
