/**
 * A file system must answer like the disk does. This module holds a tree (files, nested
 * directories, an executable, a name with a space, file and directory symlinks, a chain of
 * links, a dangling link, a loop, a link out of the tree), writes it to disk, and compares
 * every query of another FileSystem holding the same tree with DiskFileSystem (i.e. node:fs)
 * on the disk copy, over every path of the tree and some that are missing or odd.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { DiskFileSystem } from '../../src/fs/disk.js';
import type { FileSystem } from '../../src/fs/filesystem.js';

export const FILES: Readonly<Record<string, string | Uint8Array>> = {
  'kustomization.yaml': 'resources: [base]\n',
  'base/kustomization.yaml': 'resources: [cm.yaml]\n',
  'base/cm.yaml': 'kind: ConfigMap\n',
  'base/deep/er/file.txt': 'deep',
  'other/z.yaml': 'z',
  'other/a.yaml': 'a',
  'binary.bin': new Uint8Array([0, 255, 128, 10]),
  'with space/a b.yaml': 'spaced',
  'tool.sh': '#!/bin/sh\n',
};
export const EXECUTABLES: readonly string[] = ['tool.sh'];
/** [link, target relative to the link's directory] */
export const LINKS: readonly [string, string][] = [
  ['base/link.yaml', 'cm.yaml'],
  ['base/up.yaml', '../other/a.yaml'],
  ['dirlink', 'base/deep'],
  ['chain1', 'chain2'],
  ['chain2', 'other/z.yaml'],
  ['dangling', 'nowhere.yaml'],
  ['loop1', 'loop2'],
  ['loop2', 'loop1'],
  ['out-of-tree', '../outside.yaml'],
];

const PATHS = [
  '',
  'kustomization.yaml',
  'base',
  'base/',
  'base/cm.yaml',
  'base/link.yaml',
  'base/link.yaml/',
  'base/up.yaml',
  'base/deep',
  'base/deep/er/file.txt',
  'base/./deep/../cm.yaml',
  'dirlink',
  'dirlink/',
  'dirlink/er',
  'dirlink/er/file.txt',
  // `..` goes up from where the link led: base/kustomization.yaml
  'dirlink/../kustomization.yaml',
  'dangling',
  'dangling/',
  'missing.yaml',
  'missing/../kustomization.yaml',
  'base/missing',
  'empty-dir',
  'other',
  'binary.bin',
  'binary.bin/',
  'binary.bin/under-a-file',
  'binary.bin/..',
  'chain1',
  'loop1',
  'loop1/x',
  'out-of-tree',
  'with space',
  'with space/a b.yaml',
  'tool.sh',
];

/** Writes the tree under `root`. */
export function writeOnDisk(root: string): void {
  for (const [p, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), content);
  }
  for (const p of EXECUTABLES) chmodSync(join(root, p), 0o755);
  for (const [link, target] of LINKS) symlinkSync(target, join(root, link));
}

/**
 * a query's result, or the fact that it threw (the codes may differ: memory says ENOENT where
 * the disk says ENOTDIR or EISDIR, which callers do not rely on)
 */
function outcome<T>(fn: () => T): T | { threw: true } {
  try {
    return fn();
  } catch {
    return { threw: true };
  }
}
/** makes answers comparable across roots: the root prefix replaced */
function local(v: unknown, root: string): unknown {
  if (typeof v === 'string') return v === root ? '<root>' : v.startsWith(root + '/') ? '<root>' + v.slice(root.length) : v;
  return v;
}
type Query = (fs: FileSystem, abs: string) => unknown;
function query(fs: FileSystem, root: string, p: string, q: Query): unknown {
  const abs = p === '' ? root : `${root}/${p}`;
  return local(outcome(() => q(fs, abs)), root);
}

const QUERIES: [string, Query][] = [
  ['exists', (fs, p) => fs.exists(p)],
  ['isDirectory', (fs, p) => fs.isDirectory(p)],
  ['realPath', (fs, p) => fs.realPath(p)],
  ['entryType', (fs, p) => fs.entryType!(p)],
  ['isExecutable', (fs, p) => fs.isExecutable!(p)],
  ['readDir', (fs, p) => fs.readDir(p).join(',')],
  ['readFile', (fs, p) => Buffer.from(fs.readFile(p)).toString('hex')],
];

/** A test per query: `fs` at `root` answers as the disk does at `diskRoot`, which holds the same tree. */
export function answersLikeDisk(fs: FileSystem, root: string, diskRoot: string): void {
  const disk = new DiskFileSystem();
  for (const [name, q] of QUERIES) {
    test(name, () => {
      for (const p of PATHS) {
        assert.deepEqual(query(fs, root, p, q), query(disk, diskRoot, p, q), `${name}(${JSON.stringify(p)})`);
      }
    });
  }
}
