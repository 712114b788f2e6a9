/**
 * What an entry names, decided once for the root, `resources:`, `components:` and the config
 * lists alike (src/load/entry.ts), and the trees entries open.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { classifyEntry, openBuildRoot, openTree, treeOf } from '../../src/load/entry.js';
import { Loader } from '../../src/load/loader.js';
import type { RemoteSource } from '../../src/load/remote/remote-source.js';

const FILES = {
  'app/kustomization.yaml': 'resources: [cm.yaml]\n',
  'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  'app/base/kustomization.yaml': 'resources: []\n',
  'app/looks-like.yaml/kustomization.yaml': 'resources: []\n',
  'app/comp/composition.yaml': 'transformers: []\n',
};
const app = (): Loader => Loader.atRoot(MemoryFileSystem.from(FILES), '/app', 'rootOnly');

describe('classifyEntry', () => {
  test('local paths: a directory is one, a name like a resource file or a missing path is read as a file first', () => {
    const loader = app();
    assert.deepEqual(classifyEntry('base', loader), { type: 'directory', path: 'base', composition: false });
    assert.deepEqual(classifyEntry('cm.yaml', loader), { type: 'file', path: 'cm.yaml', repo: undefined });
    assert.deepEqual(classifyEntry('looks-like.yaml', loader), { type: 'file', path: 'looks-like.yaml', repo: undefined });
    assert.deepEqual(classifyEntry('missing', loader), { type: 'file', path: 'missing', repo: undefined });
  });

  test('remote entries: HTTP files, git URLs with and without a scheme, OCI artifacts', () => {
    const loader = app();
    const http = classifyEntry('https://example.com/cm.yaml', loader);
    assert.equal(http.type, 'http');
    const pinned = classifyEntry(`https://github.com/org/repo//base?ref=${'a'.repeat(40)}`, loader);
    assert.equal(pinned.type, 'git', 'a URL that marks its repository and pins a commit can only be a repository');
    const unpinned = classifyEntry('https://github.com/org/repo//base?ref=main', loader);
    assert.equal(unpinned.type, 'http', 'kustomize tries any other URL as a file first');
    assert.ok(unpinned.type === 'http' && unpinned.repo, 'and knows the repository to clone when it is not one');
    const bare = classifyEntry('github.com/org/repo/base', loader);
    assert.ok(bare.type === 'file' && bare.repo?.repoPath === 'org/repo');
    const oci = classifyEntry('oci://127.0.0.1:5000/app:v1', loader);
    assert.ok(oci.type === 'oci' && oci.ref.repository === 'app');
  });

  test('config lists: a config written in place, on one line or several, is inline; a Composition directory says so', () => {
    const loader = app();
    assert.equal(classifyEntry('{apiVersion: builtin, kind: PrefixTransformer}', loader, true).type, 'inline');
    assert.equal(classifyEntry('apiVersion: builtin', loader, true).type, 'inline');
    assert.equal(classifyEntry('apiVersion: builtin\nkind: [unclosed\n', loader, true).type, 'inline');
    assert.equal(classifyEntry('cm.yaml', loader, true).type, 'file');
    assert.deepEqual(classifyEntry('comp', loader, true), { type: 'directory', path: 'comp', composition: true });
    assert.deepEqual(classifyEntry('comp', loader), { type: 'directory', path: 'comp', composition: false }, 'only config lists ask');
  });

  test('as a tree (the fallback of a file, and what components are), a path is its repository or a directory of that name', () => {
    const loader = app();
    assert.deepEqual(treeOf(classifyEntry('cm.yaml', loader)), { type: 'directory', path: 'cm.yaml', composition: false });
    assert.equal(treeOf(classifyEntry('github.com/org/repo/base', loader)).type, 'git');
    assert.deepEqual(treeOf(classifyEntry('https://example.com/x', loader)), { type: 'directory', path: 'https://example.com/x', composition: false });
  });
});

describe('openTree', () => {
  test('a local directory is a child of the loader, with its origin below the parent', async () => {
    const child = await openTree({ type: 'directory', path: 'base', composition: false }, app(), () => Promise.reject(new Error('no remote needed')));
    assert.equal(child.root, '/app/base');
    assert.deepEqual(child.origin, { dir: 'base' });
  });

  test('a git base has its origin in its repository; a git root at the top of the build', async () => {
    const fs = MemoryFileSystem.from({ 'clone/base/kustomization.yaml': 'resources: []\n' });
    // a remote source that has the repository checked out already (the RemoteSource a browser or a test may give)
    const remote: RemoteSource = {
      fetchFile: () => Promise.reject(new Error('unused')),
      clone: async () => ({ dir: '/clone', fs }),
      pullTree: () => Promise.reject(new Error('unused')),
      pullLayer: () => Promise.reject(new Error('unused')),
      cleanup: () => {},
    };
    const entry = classifyEntry(`https://github.com/org/repo//base?ref=${'b'.repeat(40)}`, app());
    assert.equal(entry.type, 'git');
    const base = await openTree(treeOf(entry), app(), async () => remote);
    assert.equal(base.root, '/clone/base');
    assert.deepEqual(base.origin, { dir: 'base', repo: 'https://github.com/org/repo', ref: 'b'.repeat(40) });
    // kubectl kustomize writes a git root's origins relative to the directory it builds, naming no repository
    const root = await openBuildRoot(`https://github.com/org/repo//base?ref=${'b'.repeat(40)}`, fs, 'rootOnly', '/', async () => remote);
    assert.equal(root.root, '/clone/base');
    assert.deepEqual(root.origin, { dir: '' });
  });
});

test('a malformed config written in place fails as YAML in the kustomization, not as a missing file', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources: [cm.yaml]\ntransformers:\n- |\n  apiVersion: builtin\n  kind: PrefixTransformer\n  prefix: [unclosed\n',
    'app/cm.yaml': FILES['app/cm.yaml'],
  });
  await assert.rejects(build('/app', { fs }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'YAML_INVALID', e.message);
    assert.doesNotMatch(e.message, /doesn't exist|no such file/);
    return true;
  });
});
