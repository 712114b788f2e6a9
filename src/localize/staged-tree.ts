import type { FileSystem } from '../fs/filesystem.js';
import { dirname, isWithin } from '../fs/path.js';

/**
 * The localized copy as it is being made: files and directories held in memory and written
 * to the file system only once localization succeeded, so a failed run leaves no half-made
 * destination behind (kustomize removes it instead).
 */
export class StagedTree {
  private readonly files = new Map<string, Uint8Array | string>();
  private readonly dirs = new Set<string>();

  constructor(readonly root: string) {}

  writeFile(path: string, data: Uint8Array | string): void {
    this.files.set(path, data);
  }

  mkdirAll(path: string): void {
    this.dirs.add(path);
  }

  /** Whether a file or directory at or under `path` has been staged. */
  has(path: string): boolean {
    if (this.files.has(path) || this.dirs.has(path)) return true;
    return [...this.files.keys(), ...this.dirs].some((p) => isWithin(path, p));
  }

  /** Writes everything (the root first). */
  commit(fs: FileSystem): void {
    fs.mkdirAll(this.root);
    for (const dir of [...this.dirs].sort()) fs.mkdirAll(dir);
    for (const [path, data] of this.files) {
      fs.mkdirAll(dirname(path));
      fs.writeFile(path, data);
    }
  }
}
