import { KustomizeError } from '../errors.js';
import type { FileSystem } from './filesystem.js';
import { importInNode } from '../host.js';

/**
 * The file system of a build without an `fs` option: the disk, in Node. Elsewhere there is no
 * disk, and saying so beats a failed import of `node:fs`. (In browser bundles disk.js is mapped
 * to an empty module by package.json's `browser` field, hence the check of what was imported.)
 */
export async function defaultFileSystem(): Promise<FileSystem> {
  const Disk = await importInNode(async () => (await import('./disk.js')).DiskFileSystem);
  if (!Disk) {
    throw new KustomizeError(
      'FILESYSTEM_REQUIRED',
      'there is no disk to read outside Node: pass the files as the `fs` option, e.g. MemoryFileSystem.from({ ... })',
    );
  }
  return new Disk();
}
