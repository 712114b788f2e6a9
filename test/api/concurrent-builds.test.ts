/**
 * Two builds in one process share nothing: run at the same time, with different options and
 * different in-process plugins for the same config, each gives what it gives alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { ResourceMap } from '../../src/model/resource-map.js';
import { build, type BuildOptions } from '../../src/build/build.js';
import type { PluginRegistration } from '../../src/plugins/plugin.js';

const files = MemoryFileSystem.from({
  'app/kustomization.yaml': [
    'resources:',
    '- deploy.yaml',
    '- ns.yaml',
    'configMapGenerator:',
    '- name: settings',
    '  literals: [a=1]',
    'transformers:',
    '- stamp.yaml',
    '',
  ].join('\n'),
  'app/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      volumes:\n      - name: s\n        configMap:\n          name: settings\n',
  'app/ns.yaml': 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team\n',
  'app/stamp.yaml': 'apiVersion: example.com/v1\nkind: Stamp\nmetadata:\n  name: stamp\n',
});

/** An in-process Stamp plugin of its own: waits (so the builds interleave), then labels and renames with its mark. */
function stamp(mark: string): PluginRegistration {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Stamp',
    factory: () => ({
      async transform(resources: ResourceMap) {
        for (const r of resources.resources()) {
          await new Promise((done) => setTimeout(done, 1));
          const meta = r.metadata(true)!;
          meta['labels'] = { ...((meta['labels'] as Record<string, string>) ?? {}), stamped: mark };
        }
      },
    }),
  };
}

const variants: BuildOptions[] = [
  { fs: files, enablePlugins: true, plugins: [stamp('one')], reorder: 'legacy' },
  { fs: files, enablePlugins: true, plugins: [stamp('two')], reorder: 'none', addManagedByLabel: true },
];

test('concurrent builds with different options and plugins give what each gives alone', async () => {
  const alone: string[] = [];
  for (const v of variants) alone.push((await build('/app', v)).yaml);
  assert.notEqual(alone[0], alone[1]);
  assert.match(alone[0]!, /^apiVersion: v1\nkind: Namespace/, 'legacy order puts the Namespace first');
  assert.match(alone[1]!, /^apiVersion: apps\/v1\nkind: Deployment/, 'no reordering keeps the input order');
  assert.match(alone[1]!, /app\.kubernetes\.io\/managed-by/);
  const together = await Promise.all([...variants, ...variants, ...variants].map((v) => build('/app', v)));
  together.forEach((r, i) => assert.equal(r.yaml, alone[i % 2], `build ${i}`));
});

test('a plugin given to one build is unknown to another running at the same time', async () => {
  const [withPlugin, without] = await Promise.allSettled([build('/app', variants[0]!), build('/app', { fs: files, enablePlugins: true })]);
  assert.equal(withPlugin.status, 'fulfilled');
  assert.equal(without.status, 'rejected');
  assert.match(String((without as PromiseRejectedResult).reason), /unable to find plugin for Stamp\.v1\.example\.com\/stamp/);
});
