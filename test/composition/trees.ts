import { test } from 'node:test';
import { DiskFileSystem } from '../../src/fs/disk.js';
import type { FileSystem } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { Loader, type LoadRestriction } from '../../src/load/loader.js';
import { writeTree, type TreeFile } from '../plugins/plugin-tree.js';

/** A tree of files, on one file system, with loaders for its directories. */
export interface Tree {
  fs: FileSystem;
  /** the absolute directory the tree's paths are relative to */
  root: string;
  /** the loader for a directory of the tree, as a build starting there makes it */
  at(dir: string, restriction?: LoadRestriction): Loader;
}

function tree(fs: FileSystem, root: string): Tree {
  return { fs, root, at: (dir, restriction = 'rootOnly') => Loader.atRoot(fs, dir, restriction, root) };
}

/** Registers `name` twice: the files in memory, and the same files written to a temp directory on disk. */
export function onBoth(name: string, files: Record<string, TreeFile>, body: (t: Tree) => void | Promise<void>): void {
  test(`${name} (in memory)`, () => {
    const text = Object.fromEntries(Object.entries(files).map(([p, f]) => [p, typeof f === 'string' ? f : f.text]));
    return body(tree(MemoryFileSystem.from(text), '/'));
  });
  test(`${name} (on disk)`, () => body(tree(new DiskFileSystem(), writeTree(files))));
}
