import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { PluginFactory } from '../../src/plugins/plugin.js';

// Validators run after the transformers and may change nothing but the validated-by label.

const tree = () =>
  MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\nvalidators:\n- v.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  k: v\n',
    'app/v.yaml': 'apiVersion: example.com/v1\nkind: Check\nmetadata:\n  name: check\n',
  });

test('a validator may add the validated-by label', async () => {
  const check: PluginFactory = () => ({
    transform(resources) {
      for (const r of resources) r.setStringMapEntry('labels', 'validated-by', 'check');
    },
  });
  const { yaml } = await build('/app', { fs: tree(), enablePlugins: true, plugins: [{ apiVersion: 'example.com/v1', kind: 'Check', factory: check }] });
  assert.match(yaml, /validated-by: check/);
});

test('a validator that changes a resource fails the build', async () => {
  const meddle: PluginFactory = () => ({
    transform(resources) {
      for (const r of resources) r.obj['data'] = { k: 'changed' };
    },
  });
  await assert.rejects(
    build('/app', { fs: tree(), enablePlugins: true, plugins: [{ apiVersion: 'example.com/v1', kind: 'Check', factory: meddle }] }),
    /validator shouldn't modify the resource map/,
  );
});

test('a validator that throws fails the build with its message', async () => {
  const reject: PluginFactory = () => ({
    transform() {
      throw new Error('ConfigMap cm has no owner label');
    },
  });
  await assert.rejects(
    build('/app', { fs: tree(), enablePlugins: true, plugins: [{ apiVersion: 'example.com/v1', kind: 'Check', factory: reject }] }),
    /ConfigMap cm has no owner label/,
  );
});
