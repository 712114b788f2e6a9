// named imports: a namespace import makes the CLI bundle copy every export of the module at start-up
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
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
    makeDirectories(path);
  }
  rename(from: string, to: string): void {
    renameSync(from, to);
  }
  remove(path: string): void {
    rmSync(path, { force: true });
  }
}

/**
 * `mkdir -p`: the directory at `path` and those missing above it, one at a time. Node's own
 * recursive mkdir spins without end on some paths that cannot be made (under /proc), and names
 * the wrong part of others: here the first directory that cannot be made fails with the
 * system's error for it (ENOTDIR under a file, EACCES, ENOENT).
 */
export function makeDirectories(path: string): void {
  const missing: string[] = [];
  let dir = resolve(path);
  for (;;) {
    let stats: Stats | undefined;
    try {
      stats = statSync(dir);
    } catch (e) {
      // ENOTDIR: something above is a file, which the walk up finds
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw e;
    }
    if (stats) {
      if (!stats.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${missing.at(-1) ?? dir}'`), { code: 'ENOTDIR', path: dir });
      break;
    }
    missing.push(dir);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d);
    } catch (e) {
      // made meanwhile by someone else: what matters is that it is a directory now
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(d).isDirectory()) throw e;
    }
  }
}
