/**
 * The file system a build reads from (and `-o DIR` writes to). Paths are absolute and use
 * `/`; implementations normalise them. Synchronous, because every implementation we need
 * (disk, memory) is, and kustomize's loading order is sequential anyway.
 */
export interface FileSystem {
  readFile(path: string): Uint8Array;
  exists(path: string): boolean;
  isDirectory(path: string): boolean;
  /** entry names, sorted */
  readDir(path: string): string[];
  /** the path with symlinks resolved; throws when it does not exist */
  realPath(path: string): string;
  /**
   * What `path` itself is, a symlink there not followed (lstat); undefined when nothing is.
   * Optional: with it, the loader resolves the symlinks of each directory once rather than of
   * every file's whole path.
   */
  entryType?(path: string): EntryType | undefined;
  isExecutable?(path: string): boolean;
  writeFile(path: string, data: Uint8Array | string): void;
  mkdirAll(path: string): void;
  /**
   * Moves a file, replacing `to` in one step (POSIX rename). Editing commands write a temporary
   * file and rename it over the kustomization, so a reader never sees half a file; without it
   * they write the file in place.
   */
  rename?(from: string, to: string): void;
  /** Deletes a file; editing commands remove their temporary files with it when a write fails. */
  remove?(path: string): void;
  /**
   * The file system this one is a view of, answering as it does for every path it answers (a
   * memo of it, a part of it): a cache names the builds on a view as the builds on it, and
   * checks what they read through the view.
   */
  readonly viewOf?: FileSystem;
  /** True when its paths are the disk's own, for programs that read them themselves (helm reads a chart's directory). */
  readonly isTheDisk?: boolean;
}

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

const decoder = new TextDecoder('utf-8', { fatal: false });

export function readText(fs: FileSystem, path: string): string {
  return decoder.decode(fs.readFile(path));
}
