import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import type { EntryType, FileSystem } from './filesystem.js';

/** The real file system, through node:fs. */
export class DiskFileSystem implements FileSystem {
  readFile(path: string): Uint8Array {
    return nodeFs.readFileSync(path);
  }
  exists(path: string): boolean {
    return nodeFs.existsSync(path);
  }
  isDirectory(path: string): boolean {
    try {
      return nodeFs.statSync(path).isDirectory();
    } catch {
      return false;
    }
  }
  readDir(path: string): string[] {
    return nodeFs.readdirSync(path).sort();
  }
  realPath(path: string): string {
    // one realpath(3) call, where the JavaScript version lstats every component of the path
    return nodeFs.realpathSync.native(path).split(nodePath.sep).join('/');
  }
  entryType(path: string): EntryType | undefined {
    let stat: nodeFs.Stats | undefined;
    try {
      stat = nodeFs.lstatSync(path, { throwIfNoEntry: false });
    } catch {
      // ENOTDIR (a file on the way) and the like: nothing is there either
    }
    if (!stat) return undefined;
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
  }
  isExecutable(path: string): boolean {
    try {
      nodeFs.accessSync(path, nodeFs.constants.X_OK);
      return nodeFs.statSync(path).isFile();
    } catch {
      return false;
    }
  }
  writeFile(path: string, data: Uint8Array | string): void {
    nodeFs.writeFileSync(path, data);
  }
  mkdirAll(path: string): void {
    nodeFs.mkdirSync(path, { recursive: true });
  }
  rename(from: string, to: string): void {
    nodeFs.renameSync(from, to);
  }
  remove(path: string): void {
    nodeFs.rmSync(path, { force: true });
  }
}
