/**
 * A transformer that reports its edits (`reportsEdits`, `resources.edited()`) lets the pipeline
 * look again at those resources alone: an object it empties is still dropped, and a later
 * step's lookups see the names it gave. The builtin patches and replicas report their edits;
 * this drives the same path with an in-process plugin.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';
import type { PluginRegistration } from '../../src/plugins/plugin.js';
import type { ResourceMap } from '../../src/model/resource-map.js';

/** Renames ConfigMap `a` to `b` and empties ConfigMap `gone`, reporting both edits. */
const reporting: PluginRegistration = {
  apiVersion: 'example.com/v1',
  kind: 'Edit',
  factory: () => ({
    reportsEdits: true,
    transform(resources: ResourceMap) {
      const [a] = resources.withName('a');
      const [gone] = resources.withName('gone');
      a!.storePreviousId();
      a!.setName('b');
      for (const key of Object.keys(gone!.obj)) delete gone!.obj[key];
      resources.edited([a!, gone!]);
    },
  }),
};

const files = {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- edit.yaml\n',
  'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n',
  'base/edit.yaml': 'apiVersion: example.com/v1\nkind: Edit\nmetadata:\n  name: e\n',
  // the patches find the renamed ConfigMap by its new name and by its old one
  'app/kustomization.yaml': `resources:
- ../base
patches:
- target:
    kind: ConfigMap
    name: b
  patch: |
    - op: add
      path: /data
      value: {by-new-name: "1"}
- patch: |
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: a
    data:
      by-old-name: "2"
`,
};

test('a reporting transformer: its emptied object is dropped, its renames are seen by later patches', async () => {
  const { yaml } = await build('/app', { fs: MemoryFileSystem.from(files), enablePlugins: true, plugins: [reporting] });
  assert.equal(
    yaml,
    'apiVersion: v1\ndata:\n  by-new-name: "1"\n  by-old-name: "2"\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n',
  );
});
