/**
 * Which directories of a tree are kustomization roots (src/build/roots.ts), and how `--shard`
 * splits them.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { describe, test } from 'node:test';
import { findRoots, parseShard, shardOf } from '../../src/build/roots.js';
import { KustomizeError } from '../../src/errors.js';
import { DiskFileSystem } from '../../src/fs/disk.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';

const K = 'resources: []\n';
const COMPONENT = 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n';

const TREE = {
  'repo/kustomization.yaml': K,
  'repo/apps/web/base/kustomization.yaml': K,
  'repo/apps/web/overlays/prod/kustomization.yml': K,
  'repo/apps/web/overlays/staging/Kustomization': K,
  'repo/apps/web/components/tls/kustomization.yaml': COMPONENT,
  'repo/apps/web/overlays/legacy/kustomization.yaml': K,
  'repo/apps/api-old/kustomization.yaml': K,
  'repo/broken/kustomization.yaml': 'resources: [unclosed\n',
  'repo/twice/kustomization.yaml': K,
  'repo/twice/kustomization.yml': K,
  'repo/node_modules/pkg/kustomization.yaml': K,
  'repo/.git/refs/kustomization.yaml': K,
  'repo/docs/readme.md': 'no kustomization here',
};

describe('findRoots', () => {
  const fs = MemoryFileSystem.from(TREE);

  test('every directory with a kustomization file that is not a Component, in path order; .git and node_modules are not searched', () => {
    assert.deepEqual(findRoots(fs, '/repo'), [
      '.',
      'apps/api-old',
      'apps/web/base',
      'apps/web/overlays/legacy',
      'apps/web/overlays/prod',
      'apps/web/overlays/staging',
      'broken',
      'twice',
    ]);
  });

  test('--exclude: a name matches anywhere, a path matches from the top, ** any number of directories', () => {
    assert.deepEqual(findRoots(fs, '/repo', ['legacy', '*-old']), ['.', 'apps/web/base', 'apps/web/overlays/prod', 'apps/web/overlays/staging', 'broken', 'twice']);
    assert.deepEqual(findRoots(fs, '/repo', ['apps/web/overlays']), ['.', 'apps/api-old', 'apps/web/base', 'broken', 'twice']);
    assert.deepEqual(findRoots(fs, '/repo', ['**/overlays/*']), ['.', 'apps/api-old', 'apps/web/base', 'broken', 'twice']);
    assert.deepEqual(findRoots(fs, '/repo', ['overlays/prod']), findRoots(fs, '/repo'), 'a path is taken from the top, not anywhere');
  });

  test('a top that is no directory is refused, naming it', () => {
    assert.throws(() => findRoots(fs, '/repo/docs/readme.md'), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE' && /readme\.md' is not a directory/.test(e.message));
    assert.throws(() => findRoots(fs, '/nowhere'), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE');
  });

  test('on disk, a symbolic link to a directory is not followed (it may lead back up)', () => {
    const dir = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-roots-'));
    try {
      nodeFs.mkdirSync(nodePath.join(dir, 'app'));
      nodeFs.writeFileSync(nodePath.join(dir, 'app', 'kustomization.yaml'), K);
      nodeFs.symlinkSync('..', nodePath.join(dir, 'app', 'up'));
      nodeFs.symlinkSync('app', nodePath.join(dir, 'alias'));
      assert.deepEqual(findRoots(new DiskFileSystem(), dir), ['app']);
    } finally {
      nodeFs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shards', () => {
  const items = Array.from({ length: 23 }, (_, i) => `root-${String(i).padStart(2, '0')}`);

  test('N shards hold every item once, in runs of consecutive items whose counts differ by one at most', () => {
    for (const count of [1, 2, 3, 4, 7, 23, 30]) {
      const shards = Array.from({ length: count }, (_, i) => shardOf(items, { index: i + 1, count }));
      assert.deepEqual(shards.flat(), items, `${count} shards`);
      const sizes = shards.map((s) => s.length);
      assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, `${count} shards: sizes ${sizes.join(',')}`);
    }
  });

  test('the same list splits the same way every time', () => {
    assert.deepEqual(shardOf(items, { index: 2, count: 3 }), shardOf([...items], { index: 2, count: 3 }));
  });

  test('--shard is I/N with 1 <= I <= N', () => {
    assert.deepEqual(parseShard('2/3'), { index: 2, count: 3 });
    for (const bad of ['0/3', '4/3', 'x', '1/0', '1/', '/3', '-1/3', '1.5/3']) {
      assert.throws(() => parseShard(bad), (e: unknown) => e instanceof KustomizeError && e.code === 'USAGE' && e.message.includes(`'${bad}'`), bad);
    }
  });
});
