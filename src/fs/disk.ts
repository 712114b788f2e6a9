// named imports: a namespace import makes the CLI bundle copy every export of the module at start-up
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { sep } from 'node:path';
import type { EntryType, FileSystem } from './filesystem.js';

/** The real file system, through node:fs. */
export class DiskFileSystem implements FileSystem {
  readonly isTheDisk = true;

  readFile(path: string): Uint8Array {
    return readFileSync(path);
  }
  exists(path: string): boolean {
    return existsSync(path);
  }
  isDirectory(path: string): boolean {
    try {
      return statSync(path).isDirectory();
    } catch {
      return false;
    }
  }
  readDir(path: string): string[] {
    return readdirSync(path).sort();
  }
  realPath(path: string): string {
    // one realpath(3) call, where the JavaScript version lstats every component of the path
    return realpathSync.native(path).split(sep).join('/');
  }
  entryType(path: string): EntryType | undefined {
    let stat: Stats | undefined;
    try {
      stat = lstatSync(path, { throwIfNoEntry: false });
    } catch {
      // ENOTDIR (a file on the way) and the like: nothing is there either
    }
    if (!stat) return undefined;
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
  }
  isExecutable(path: string): boolean {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  }
  writeFile(path: string, data: Uint8Array | string): void {
    writeFileSync(path, data);
  }
  mkdirAll(path: string): void {
    mkdirSync(path, { recursive: true });
  }
  rename(from: string, to: string): void {
    renameSync(from, to);
  }
  remove(path: string): void {
    rmSync(path, { force: true });
  }
}
