/**
 * The plugin contract is "take the resources, change them": a transformer that renames,
 * empties and edits resources in place, deep in what a cache shares between builds, and says
 * nothing of it, gives the build it would give alone: the pipeline finds its renames (later
 * steps look resources up by the new names and the old ones), drops what it emptied, and
 * resources copy what they share before the plugin writes it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BuildCache } from '../../src/build/build-cache.js';
import { build } from '../../src/build/build.js';
import type { FileSystem } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { ResourceMap } from '../../src/model/resource-map.js';
import type { PluginRegistration } from '../../src/plugins/plugin.js';
import type { YMap } from '../../src/yaml/value.js';

/** Renames ConfigMap `a` to `b`, edits a value deep in it, and empties ConfigMap `gone`: no bookkeeping. */
const plain: PluginRegistration = {
  apiVersion: 'example.com/v1',
  kind: 'Edit',
  factory: () => ({
    transform(resources: ResourceMap) {
      for (const r of resources) {
        const obj = r.obj;
        const meta = obj['metadata'] as YMap;
        if (meta['name'] === 'a') {
          r.storePreviousId();
          meta['name'] = 'b';
          ((obj['data'] as YMap)['nested'] as YMap)['value'] = 'edited';
        }
        if (meta['name'] === 'gone') for (const key of Object.keys(obj)) delete obj[key];
      }
    },
  }),
};

const files = {
  // the generator looks its ConfigMap up among the resources: the map's indexes exist before the plugin runs
  'app/kustomization.yaml': `resources:
- cm.yaml
configMapGenerator:
- name: generated
  literals: [k=v]
components:
- ../edit
patches:
- patch: |
    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: b
    data:
      by-new-name: "2"
- target:
    kind: ConfigMap
    name: a
  patch: |
    - op: add
      path: /data/by-old-name
      value: "1"
`,
  'app/cm.yaml':
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  nested:\n    value: original\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gone\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n',
  // a component's transformers run on the kustomization's own resources, before its patches
  'edit/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\ntransformers:\n- edit.yaml\n',
  'edit/edit.yaml': 'apiVersion: example.com/v1\nkind: Edit\nmetadata:\n  name: e\n',
  'plain/kustomization.yaml': 'resources:\n- ../app/cm.yaml\n',
};

const EXPECTED =
  'apiVersion: v1\ndata:\n  by-new-name: "2"\n  by-old-name: "1"\n  nested:\n    value: edited\nkind: ConfigMap\nmetadata:\n  name: b\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n---\napiVersion: v1\ndata:\n  k: v\nkind: ConfigMap\nmetadata:\n  name: generated-bdg947hgcc\n';

const options = (fs: FileSystem, cache?: BuildCache) => ({ fs, enablePlugins: true, plugins: [plain], ...(cache && { cache }) });

test('a transformer that only transforms: its renames are seen by later patches, its emptied object is dropped', async () => {
  const { yaml } = await build('/app', options(MemoryFileSystem.from(files)));
  assert.equal(yaml, EXPECTED);
});

test('with a cache, the same transformer gives the same build every time, and what the cache parsed stays as the files say', async () => {
  const fs = MemoryFileSystem.from(files);
  const cache = new BuildCache();
  for (let i = 0; i < 3; i++) {
    // the plugin wrote into the documents the cache shares between builds only if it was given copies
    assert.equal((await build('/app', options(fs, cache))).yaml, EXPECTED, `build ${i + 1}`);
  }
  const unplugged = await build('/plain', { fs, cache, loadRestrictor: 'none' });
  assert.match(unplugged.yaml, /value: original/, 'a build without the plugin reads the parsed file unchanged');
  assert.ok(cache.counts.built >= 3, 'builds that run plugins are never answered from the cache');
});
