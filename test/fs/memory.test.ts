/**
 * MemoryFileSystem: it must answer like the disk does (see like-disk.ts). The same tree, and an
 * empty directory, is made on disk in a temporary directory and in memory.
 */
import assert from 'node:assert/strict';
import { KustomizeError } from '../../src/errors.js';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, describe, test } from 'node:test';
import { readText } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { answersLikeDisk, EXECUTABLES, FILES, LINKS, writeOnDisk } from './like-disk.js';

const disk = nodeFs.realpathSync(nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-memfs-')));
after(() => nodeFs.rmSync(disk, { recursive: true, force: true }));
writeOnDisk(disk);
nodeFs.mkdirSync(nodePath.join(disk, 'empty-dir'));

const MEM_ROOT = '/tree';
const mem = new MemoryFileSystem();
for (const [p, content] of Object.entries(FILES)) mem.writeFile(`${MEM_ROOT}/${p}`, content, EXECUTABLES.includes(p));
mem.mkdirAll(`${MEM_ROOT}/empty-dir`);
for (const [link, target] of LINKS) mem.link(`${MEM_ROOT}/${link}`, nodePath.posix.join(MEM_ROOT, nodePath.posix.dirname(link), target));

describe('MemoryFileSystem answers like the disk', () => answersLikeDisk(mem, MEM_ROOT, disk));

describe('MemoryFileSystem', () => {
  test('from() builds a tree relative to /', () => {
    const fs = MemoryFileSystem.from({ 'a/b.yaml': 'x', '/c.yaml': 'y' });
    assert.equal(readText(fs, '/a/b.yaml'), 'x');
    assert.equal(readText(fs, '/c.yaml'), 'y');
    assert.equal(fs.isDirectory('/a'), true);
    assert.deepEqual(fs.readDir('/'), ['a', 'c.yaml']);
  });

  test('writeFile creates parents, overwrites, and keeps bytes exactly', () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/x/y/z.bin', new Uint8Array([1, 2, 3]));
    assert.equal(fs.isDirectory('/x/y'), true);
    assert.deepEqual([...fs.readFile('/x/y/z.bin')], [1, 2, 3]);
    fs.writeFile('/x/y/z.bin', 'héllo');
    assert.equal(readText(fs, '/x/y/z.bin'), 'héllo');
    assert.deepEqual(fs.entries().map(([p]) => p), ['/x/y/z.bin']);
  });

  test('a missing file throws FILE_NOT_FOUND, naming it', () => {
    const fs = new MemoryFileSystem();
    assert.throws(() => fs.readFile('/nope'), (e: unknown) => e instanceof KustomizeError && e.code === 'FILE_NOT_FOUND' && e.file === '/nope');
    assert.throws(() => fs.realPath('/nope'), (e: unknown) => e instanceof KustomizeError && e.code === 'FILE_NOT_FOUND' && e.file === '/nope');
  });

  test('executable bit', () => {
    const fs = new MemoryFileSystem();
    fs.writeFile('/bin/tool', '#!/bin/sh\n', true);
    fs.writeFile('/bin/data', 'x');
    assert.equal(fs.isExecutable('/bin/tool'), true);
    assert.equal(fs.isExecutable('/bin/data'), false);
    assert.equal(fs.isExecutable('/bin'), false);
  });

  test('a symlink loop does not hang; like the disk, it does not exist and has no real path', () => {
    const fs = new MemoryFileSystem();
    fs.link('/a', '/b');
    fs.link('/b', '/a');
    assert.equal(fs.exists('/a'), false);
    assert.throws(() => fs.realPath('/a'));
    assert.throws(() => fs.readFile('/a/x'));
  });

  test('paths are normalised', () => {
    const fs = MemoryFileSystem.from({ 'a/b/c.yaml': 'c' });
    assert.equal(readText(fs, '/a/./b/../b//c.yaml'), 'c');
    assert.equal(fs.realPath('/a/b/../b/'), '/a/b');
  });
});

