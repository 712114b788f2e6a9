/**
 * A text that steps read (a patch file, a replacement file) is parsed once per build, or once
 * per content with a cache: each step still gets its own copy of the documents, so what one
 * step does to what it read never reaches another.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import type { PluginContext, PluginRegistration } from '../../src/plugins/plugin.js';
import type { ResourceMap } from '../../src/model/resource-map.js';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
const files = {
  'app/cms.yaml': `${cm('a')}---\n${cm('b')}`,
  // one JSON patch file applied to two targets, then one of the two patched maps changed again
  'app/add-data.yaml': '- op: add\n  path: /data\n  value:\n    level: info\n',
  'app/kustomization.yaml': `resources:
- cms.yaml
patches:
- path: add-data.yaml
  target:
    name: a
- path: add-data.yaml
  target:
    name: b
- patch: |-
    - op: replace
      path: /data/level
      value: debug
  target:
    name: a
`,
};
const expected = `${cm('a').replace('kind', 'data:\n  level: debug\nkind')}---\n${cm('b').replace('kind', 'data:\n  level: info\nkind')}`;

test('one patch file applied by two entries: each target gets its own copy of what it adds', async () => {
  assert.equal((await build('/app', { fs: MemoryFileSystem.from(files) })).yaml, expected);
});

test('with a cache, the same, in every build', async () => {
  const fs = MemoryFileSystem.from(files);
  const cache = new BuildCache();
  for (let i = 0; i < 3; i++) {
    fs.writeFile('/app/kustomization.yaml', `${files['app/kustomization.yaml']}# edit ${i}\n`);
    assert.equal((await build('/app', { fs, cache })).yaml, expected);
  }
  assert.deepEqual(cache.counts, { answered: 0, built: 3, reusedBases: 0 });
});

test("a plugin's reads of one text each get their own copy", async () => {
  const seen: unknown[] = [];
  const reader: PluginRegistration = {
    apiVersion: 'example.com/v1',
    kind: 'Reader',
    factory: () => ({
      transform(_resources: ResourceMap, ctx: PluginContext) {
        const first = ctx.documents('data:\n  level: info\n', 'x.yaml');
        (first[0] as { data: { level: string } }).data.level = 'changed';
        seen.push(ctx.documents('data:\n  level: info\n', 'x.yaml'), ctx.documents('data:\n  level: on\n', 'x.yaml', { dialect: 'yaml11' }));
      },
    }),
  };
  const fs = MemoryFileSystem.from({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- reader.yaml\n',
    'app/cm.yaml': cm('a'),
    'app/reader.yaml': 'apiVersion: example.com/v1\nkind: Reader\nmetadata:\n  name: r\n',
  });
  await build('/app', { fs, enablePlugins: true, plugins: [reader] });
  assert.deepEqual(seen, [[{ data: { level: 'info' } }], [{ data: { level: true } }]]);
});
