/**
 * With a BuildCache, a build after an edit takes each base whose files read as they did in the
 * last build of the tree from the cache instead of building it again. Every test compares the
 * cached build with a build without a cache of the same files, and counts the bases reused.
 */
import type { Warning } from '../../src/errors.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import { STAMP_CONFIG, stampPlugin } from '../pipeline/stamp-plugin.js';

const deployment = (name: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - name: app
        image: nginx:1.0
        env:
        - name: LEVEL
          value: info
`;

/** app → mid → leaf, and app → side; app's steps write deep into what the bases made. */
const tree: Record<string, string> = {
  'leaf/kustomization.yaml': 'resources:\n- deploy.yaml\n- cm.yaml\ncommonLabels:\n  layer: leaf\n',
  'leaf/deploy.yaml': deployment('web'),
  'leaf/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n',
  'mid/kustomization.yaml': 'namePrefix: mid-\nresources:\n- ../leaf\nimages:\n- name: nginx\n  newTag: "1.1"\n',
  'side/kustomization.yaml': 'resources:\n- deploy.yaml\n',
  'side/deploy.yaml': deployment('worker'),
  'app/kustomization.yaml': `namePrefix: app-
namespace: prod
resources:
- ../mid
- ../side
images:
- name: nginx
  newTag: "2.0"
replicas:
- name: mid-web
  count: 3
patches:
- patch: |-
    apiVersion: apps/v1
    kind: Deployment
    metadata:
      name: mid-web
    spec:
      template:
        spec:
          containers:
          - name: app
            env:
            - name: LEVEL
              value: debug
- target:
    kind: Deployment
    name: worker
  patch: |-
    - op: add
      path: /spec/template/spec/containers/0/args
      value: [--fast]
replacements:
- source:
    kind: ConfigMap
    fieldPath: data.level
  targets:
  - select:
      kind: Deployment
      name: worker
    fieldPaths:
    - spec.template.spec.containers.[name=app].env.[name=LEVEL].value
`,
};

/** A tree on a memory file system, built with one cache; each build is checked against a build of the same files without one. */
function cachedTree(files: Record<string, string>) {
  const current = { ...files };
  const fs = MemoryFileSystem.from(current);
  const cache = new BuildCache();
  return {
    cache,
    write(path: string, text: string): void {
      current[path] = text;
      fs.writeFile(`/${path}`, text);
    },
    async build(message: string): Promise<{ yaml: string; warnings: Warning[] }> {
      const cached = await build('/app', { fs, cache });
      const plain = await build('/app', { fs: MemoryFileSystem.from(current) });
      assert.equal(cached.yaml, plain.yaml, message);
      assert.deepEqual(cached.warnings, plain.warnings, message);
      return cached;
    },
  };
}

test('an edit in the overlay leaves its bases alone; an edit in a base builds it and everything above it again', async () => {
  const t = cachedTree(tree);
  const first = await t.build('first build');
  assert.match(first.yaml, /name: app-mid-web\n {2}namespace: prod/);
  assert.match(first.yaml, /value: debug/);
  assert.match(first.yaml, /image: nginx:2.0/);
  const reused = () => t.cache.counts.reusedBases;

  t.write('app/kustomization.yaml', tree['app/kustomization.yaml']!.replace('count: 3', 'count: 4'));
  assert.match((await t.build('after an edit of app')).yaml, /replicas: 4/);
  assert.equal(reused(), 2, 'mid and side are taken from the cache (leaf, inside mid, is not asked for)');

  t.write('side/deploy.yaml', deployment('worker').replace('nginx:1.0', 'nginx:1.5'));
  await t.build('after an edit of side');
  assert.equal(reused(), 3, 'mid is taken from the cache; side is built again');

  t.write('mid/kustomization.yaml', tree['mid/kustomization.yaml']!.replace('mid-', 'middle-'));
  t.write('app/kustomization.yaml', tree['app/kustomization.yaml']!.replaceAll('mid-web', 'middle-web'));
  assert.match((await t.build('after an edit of mid')).yaml, /name: app-middle-web/);
  assert.equal(reused(), 5, 'leaf and side are taken from the cache; mid is built again');

  // mid's last build took leaf from the cache: what mid read still includes leaf's files
  t.write('leaf/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: warn\n');
  const afterLeaf = await t.build('after an edit of leaf');
  assert.match(afterLeaf.yaml, /level: warn/);
  assert.equal(reused(), 6, 'side is taken from the cache; leaf and mid are built again');

  for (let i = 0; i < 3; i++) {
    t.write('app/kustomization.yaml', `${tree['app/kustomization.yaml']!.replaceAll('mid-web', 'middle-web')}# edit ${i}\n`);
    assert.equal((await t.build(`edit ${i}`)).yaml, afterLeaf.yaml, 'what the overlay did to the reused bases before is not in them');
  }
  assert.equal(reused(), 12);
});

test('a base reached twice in one tree is remembered once for each way to it', async () => {
  const t = cachedTree({
    'common/kustomization.yaml': 'resources:\n- cm.yaml\n',
    'common/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n',
    'one/kustomization.yaml': 'namePrefix: one-\nresources:\n- ../common\n',
    'two/kustomization.yaml': 'namePrefix: two-\nresources:\n- ../common\n',
    'app/kustomization.yaml': 'resources:\n- ../one\n- ../two\n',
  });
  await t.build('first build');
  t.write('two/kustomization.yaml', 'namePrefix: second-\nresources:\n- ../common\n');
  assert.match((await t.build('after an edit of two')).yaml, /name: one-settings[^]*name: second-settings/);
  assert.equal(t.cache.counts.reusedBases, 2, 'one, and common below two');
  t.write('common/cm.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config\n');
  assert.match((await t.build('after an edit of common')).yaml, /name: one-config[^]*name: second-config/);
  assert.equal(t.cache.counts.reusedBases, 2, 'both ways to common are built again');
});

test("a reused base's warnings are printed again", async () => {
  const t = cachedTree({
    ...tree,
    'side/kustomization.yaml': 'bases:\n- ../leaf2\npatchesStrategicMerge:\n- patch.yaml\n',
    'side/patch.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: other\n  labels:\n    patched: "yes"\n',
    'leaf2/kustomization.yaml': 'resources:\n- svc.yaml\n',
    'leaf2/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: other\n',
  });
  const first = await t.build('first build');
  assert.ok(first.warnings.length >= 2, `side's deprecated fields warn (${first.warnings.join('; ')})`);
  t.write('app/kustomization.yaml', `${tree['app/kustomization.yaml']}# edited\n`);
  assert.deepEqual((await t.build('after an edit of app')).warnings, first.warnings);
  assert.equal(t.cache.counts.reusedBases, 2);
});

test('the top kustomization’s buildMetadata reaches the bases: changing it builds them again', async () => {
  const t = cachedTree(tree);
  await t.build('first build');
  t.write('app/kustomization.yaml', `${tree['app/kustomization.yaml']}buildMetadata: [originAnnotations]\n`);
  const yaml = (await t.build('after buildMetadata was added')).yaml;
  assert.match(yaml, /config.kubernetes.io\/origin: \|\n\s+path: \.\.\/leaf\/deploy.yaml/);
  assert.equal(t.cache.counts.reusedBases, 0);
  t.write('app/kustomization.yaml', `${tree['app/kustomization.yaml']}buildMetadata: [originAnnotations]\n# edited\n`);
  assert.equal((await t.build('edited again')).yaml, yaml);
  assert.equal(t.cache.counts.reusedBases, 2);
});

test('a base that runs a plugin is not remembered, nor are the bases above it; the others are', async () => {
  const stamp = stampPlugin();
  const files: Record<string, string> = {
    ...tree,
    'leaf/stamp.yaml': STAMP_CONFIG,
    'leaf/kustomization.yaml': `${tree['leaf/kustomization.yaml']}transformers:\n- stamp.yaml\n`,
  };
  const fs = MemoryFileSystem.from(files);
  const cache = new BuildCache();
  const options = { fs, cache, enablePlugins: true, plugins: [stamp.registration] };
  assert.match((await build('/app', options)).yaml, /run: "1"/);
  fs.writeFile('/app/kustomization.yaml', `${files['app/kustomization.yaml']}# edited\n`);
  assert.match((await build('/app', options)).yaml, /run: "2"/);
  assert.equal(stamp.runs(), 2);
  assert.deepEqual(cache.counts, { answered: 0, built: 2, reusedBases: 1 }, 'side is taken from the cache; mid, holding leaf, is built again');
});

test('a base that sets a custom OpenAPI schema is not remembered', async () => {
  const schema = JSON.stringify({ definitions: {} });
  const t = cachedTree({
    ...tree,
    'side/kustomization.yaml': 'openapi:\n  path: schema.json\nresources:\n- deploy.yaml\n',
    'side/schema.json': schema,
  });
  await t.build('first build');
  t.write('app/kustomization.yaml', `${tree['app/kustomization.yaml']}# edited\n`);
  await t.build('after an edit of app');
  assert.equal(t.cache.counts.reusedBases, 1, 'mid, built before side set the schema, is taken from the cache; side is built again');
});

test('vars a reused base declares are resolved in the overlay', async () => {
  const t = cachedTree({
    'base/kustomization.yaml': 'resources:\n- svc.yaml\n- pod.yaml\nvars:\n- name: HOST\n  objref:\n    kind: Service\n    name: db\n    apiVersion: v1\n',
    'base/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: db\n',
    'base/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: client\nspec:\n  containers:\n  - name: c\n    image: busybox\n    args: [$(HOST)]\n',
    'app/kustomization.yaml': 'namePrefix: x-\nresources:\n- ../base\n',
  });
  assert.match((await t.build('first build')).yaml, /- x-db/);
  t.write('app/kustomization.yaml', 'namePrefix: y-\nresources:\n- ../base\n');
  assert.match((await t.build('after an edit of app')).yaml, /- y-db/);
  assert.equal(t.cache.counts.reusedBases, 1);
});

test('a base is taken from the cache only when the schema setting it starts from is the same', async () => {
  // side names a version that is not built in: an error, unless the top kustomization chose a version first
  const files: Record<string, string> = {
    ...tree,
    'side/kustomization.yaml': 'openapi:\n  version: v1.0.0\nresources:\n- deploy.yaml\n',
    'app/kustomization.yaml': `${tree['app/kustomization.yaml']}openapi:\n  version: v1.21.2\n`,
  };
  const t = cachedTree(files);
  await t.build('first build');
  t.write('app/kustomization.yaml', tree['app/kustomization.yaml']!);
  await assert.rejects(build('/app', { fs: MemoryFileSystem.from({ ...files, 'app/kustomization.yaml': tree['app/kustomization.yaml']! }) }), /not built in/);
  await assert.rejects(t.build('after the top kustomization dropped its openapi field'), /not built in/);
  assert.equal(t.cache.counts.reusedBases, 0, 'both bases start from another setting: neither is taken from the cache');
});

test('a directory the overlay resolved before its base read from it is one the base’s record holds too', async () => {
  const cm = (level: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: ${level}\n`;
  const fs = MemoryFileSystem.from({
    // the overlay reads a file from base/conf (a link) first; then the base reads another one there
    'app/kustomization.yaml': 'resources:\n- base/conf/extra.yaml\n- base\n',
    'app/base/kustomization.yaml': 'resources:\n- conf/cm.yaml\n',
    'app/base/v1/extra.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: extra\n',
    'app/base/v1/cm.yaml': cm('one'),
    'app/base/v2/extra.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: extra\n',
    'app/base/v2/cm.yaml': cm('two'),
  });
  fs.link('/app/base/conf', '/app/base/v1');
  const cache = new BuildCache();
  assert.match((await build('/app', { fs, cache })).yaml, /level: one/);
  fs.link('/app/base/conf', '/app/base/v2');
  assert.match((await build('/app', { fs, cache })).yaml, /level: two/);
  assert.equal(cache.counts.reusedBases, 0);
});
