import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { PluginFactory } from '../../src/plugins/plugin.js';
import { writeTree } from './plugin-tree.js';

// In-process plugins: registered through the library API, or ES modules in the plugin home.
// They implement the same interface as the builtins.

const prefixer: PluginFactory = (config) => ({
  transform(resources) {
    for (const r of resources) {
      r.storePreviousId();
      r.setName(`${String(config['prefix'])}${r.name}`);
    }
  },
});

test('a registered in-process transformer runs on an in-memory tree, and name references follow its renames', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- res.yaml\ntransformers:\n- prefixer.yaml\n',
    'app/res.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
---
apiVersion: v1
kind: Pod
metadata:
  name: pod
spec:
  containers:
  - name: c
    envFrom:
    - configMapRef:
        name: cfg
`,
    'app/prefixer.yaml': 'apiVersion: example.com/v1\nkind: Prefixer\nmetadata:\n  name: p\nprefix: x-\n',
  });
  const { yaml } = await build('/app', {
    fs,
    enablePlugins: true,
    reorder: 'none',
    plugins: [{ apiVersion: 'example.com/v1', kind: 'Prefixer', factory: prefixer }],
  });
  assert.match(yaml, /^  name: x-cfg$/m);
  assert.match(yaml, /^  name: x-pod$/m);
  assert.match(yaml, /^ {8}name: x-cfg$/m, 'the Pod follows the renamed ConfigMap');
});

test('an in-process generator may return plain objects', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'generators:\n- gen.yaml\n',
    'app/gen.yaml': 'apiVersion: example.com/v1\nkind: Gen\nmetadata:\n  name: g\ncount: 2\n',
  });
  const gen: PluginFactory = (config) => ({
    generate: () =>
      Array.from({ length: Number(config['count']) }, (_, i) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `gen-${i}` } })),
  });
  const { yaml } = await build('/app', { fs, enablePlugins: true, plugins: [{ apiVersion: 'example.com/v1', kind: 'Gen', factory: gen }] });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gen-0\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gen-1\n');
});

test('in-process plugins need --enable-alpha-plugins too', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'generators:\n- gen.yaml\n',
    'app/gen.yaml': 'apiVersion: example.com/v1\nkind: Gen\nmetadata:\n  name: g\n',
  });
  await assert.rejects(
    build('/app', { fs, plugins: [{ apiVersion: 'example.com/v1', kind: 'Gen', factory: () => ({ generate: () => [] }) }] }),
    /external plugins disabled/,
  );
});

test('an ES module in the plugin home is an in-process plugin', async () => {
  const dir = writeTree({
    'home/example.com/v1/annotator/Annotator.mjs': `export default function configure(config) {
  return {
    transform(resources) {
      for (const r of resources) r.setStringMapEntry('annotations', 'team', config.team);
    },
  };
}
`,
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- a.yaml\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    'app/a.yaml': 'apiVersion: example.com/v1\nkind: Annotator\nmetadata:\n  name: a\nteam: blue\n',
  });
  const { yaml } = await build(join(dir, 'app'), { enablePlugins: true, pluginHome: join(dir, 'home') });
  assert.equal(yaml, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  annotations:\n    team: blue\n  name: cm\n');
});

test('a plugin used as a transformer must transform', async () => {
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'transformers:\n- gen.yaml\n',
    'app/gen.yaml': 'apiVersion: example.com/v1\nkind: Gen\nmetadata:\n  name: g\n',
  });
  await assert.rejects(
    build('/app', { fs, enablePlugins: true, plugins: [{ apiVersion: 'example.com/v1', kind: 'Gen', factory: () => ({ generate: () => [] }) }] }),
    /plugin Gen\.v1\.example\.com\/g\.\[noNs\] not a transformer/,
  );
});
