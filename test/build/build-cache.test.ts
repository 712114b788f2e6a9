/**
 * A BuildCache answers a build whose files and options are unchanged with the remembered
 * output, and anything else with a real build (reusing parsed files). What decides a hit is
 * what the file system answers, so every test here changes the files a different way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readText, type FileSystem } from '../../src/fs/filesystem.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import type { PluginRegistration } from '../../src/plugins/plugin.js';
import { STAMP_CONFIG, stampPlugin } from '../pipeline/stamp-plugin.js';

const files = {
  'base/kustomization.yaml': 'resources:\n- cm.yaml\n',
  'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n',
  'app/kustomization.yaml': 'namePrefix: app-\nresources:\n- ../base\n- svc.yaml\ncommonLabels:\n  team: a\n',
  'app/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
};

/** A file system that counts the files read from it. */
function counting(inner: FileSystem): FileSystem & { reads: number } {
  const fs = Object.create(inner) as FileSystem & { reads: number };
  fs.reads = 0;
  fs.readFile = (path) => {
    fs.reads++;
    return inner.readFile(path);
  };
  return fs;
}

/** The files read by one build. */
async function readsOf(fs: FileSystem & { reads: number }, run: () => Promise<unknown>): Promise<number> {
  const before = fs.reads;
  await run();
  return fs.reads - before;
}

test('an unchanged build is answered from the cache: each file is read once, to compare it, and nothing is built', async () => {
  const fs = counting(MemoryFileSystem.from(files));
  const cache = new BuildCache();
  const plain = await build('/app', { fs });
  let first: string | undefined;
  const built = await readsOf(fs, async () => void (first = (await build('/app', { fs, cache })).yaml));
  let second: string | undefined;
  const answered = await readsOf(fs, async () => void (second = (await build('/app', { fs, cache })).yaml));
  assert.equal(first, plain.yaml);
  assert.equal(second, plain.yaml);
  assert.equal(built, 4);
  assert.equal(answered, built);
  assert.deepEqual(cache.counts, { answered: 1, built: 1, reusedBases: 0 });
});

test('a changed file is read again and the build runs', async () => {
  const memory = MemoryFileSystem.from(files);
  const fs = counting(memory);
  const cache = new BuildCache();
  await build('/app', { fs, cache });
  memory.writeFile('/app/kustomization.yaml', files['app/kustomization.yaml'].replace('app-', 'web-'));
  let yaml = '';
  const reads = await readsOf(fs, async () => void ({ yaml } = await build('/app', { fs, cache })));
  assert.match(yaml, /name: web-settings/);
  assert.ok(reads > 4, `the comparison stops at the changed file, then the build reads all four (${reads} reads)`);
  assert.deepEqual(cache.counts, { answered: 0, built: 2, reusedBases: 1 }, 'the base, whose files did not change, is not built again');
  const fresh = MemoryFileSystem.from({ ...files, 'app/kustomization.yaml': files['app/kustomization.yaml'].replace('app-', 'web-') });
  assert.equal(yaml, (await build('/app', { fs: fresh })).yaml);
});

test('after each edit, the output is what a build without a cache prints, for the resources the edit changed and those it did not', async () => {
  const tree: Record<string, string> = { ...files };
  const memory = MemoryFileSystem.from(tree);
  const cache = new BuildCache();
  const edits: [string, string][] = [
    ['app/svc.yaml', files['app/svc.yaml'] + 'spec:\n  ports:\n  - port: 80\n'],
    ['app/kustomization.yaml', files['app/kustomization.yaml'].replace('team: a', 'team: b')],
    ['base/cm.yaml', files['base/cm.yaml'].replace('level: info', 'level: -0.0')],
    ['base/cm.yaml', files['base/cm.yaml'].replace('level: info', 'level: 0')],
    ['app/extra.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: other\ndata:\n  level: "0"\n'],
    ['app/kustomization.yaml', files['app/kustomization.yaml'].replace('- svc.yaml', '- svc.yaml\n- extra.yaml')],
  ];
  const first = await build('/app', { fs: memory, cache });
  first.resources[0]!.obj['data'] = { level: 'changed by the caller' };
  for (const [path, text] of edits) {
    tree[path] = text;
    memory.writeFile(`/${path}`, text);
    assert.equal((await build('/app', { fs: memory, cache })).yaml, (await build('/app', { fs: MemoryFileSystem.from(tree) })).yaml, `after writing ${path}`);
  }
  // extra.yaml, written before the kustomization names it, is nothing the build read: that build is answered;
  // the three builds after an edit in app/ take the base from the cache, the two after an edit in base/ build it
  assert.deepEqual(cache.counts, { answered: 1, built: edits.length, reusedBases: 3 });
});

test('every kind of change to the files is seen', async (t) => {
  const cases: [string, (fs: MemoryFileSystem) => void, (result: Promise<{ yaml: string }>) => Promise<void>][] = [
    [
      'bytes changed in place',
      (fs) => {
        const bytes = fs.readFile('/base/cm.yaml');
        bytes[bytes.length - 2] = 'g'.charCodeAt(0);
      },
      async (r) => assert.match((await r).yaml, /level: infg\n/),
    ],
    ['a file removed', (fs) => fs.remove('/app/svc.yaml'), (r) => assert.rejects(r, /svc\.yaml/)],
    [
      'a file appearing where the build looked for one',
      (fs) => fs.writeFile('/app/kustomization.yml', 'resources: []\n'),
      (r) => assert.rejects(r, /multiple kustomization files/),
    ],
    [
      'the kustomization naming another file',
      (fs) => {
        fs.writeFile('/base/kustomization.yaml', 'resources:\n- other.yaml\n');
        fs.writeFile('/base/other.yaml', files['base/cm.yaml'].replace('info', 'debug'));
      },
      async (r) => assert.match((await r).yaml, /level: debug/),
    ],
  ];
  for (const [name, change, check] of cases) {
    await t.test(name, async () => {
      const fs = MemoryFileSystem.from(files);
      const cache = new BuildCache();
      assert.match((await build('/app', { fs, cache })).yaml, /level: info/);
      change(fs);
      await check(build('/app', { fs, cache }));
    });
  }
});

test('the options and the file system are part of what names a build', async () => {
  const cache = new BuildCache();
  const fs = MemoryFileSystem.from(files);
  const plain = await build('/app', { fs, cache });
  const labelled = await build('/app', { fs, cache, addManagedByLabel: true });
  assert.doesNotMatch(plain.yaml, /managed-by/);
  assert.match(labelled.yaml, /managed-by/);
  assert.equal((await build('/app', { fs, cache })).yaml, plain.yaml);
  const other = MemoryFileSystem.from({ ...files, 'base/cm.yaml': files['base/cm.yaml'].replace('info', 'warn') });
  assert.match((await build('/app', { fs: other, cache })).yaml, /level: warn/);
  assert.match((await build('/app', { fs, cache })).yaml, /level: info/);
  assert.deepEqual(cache.counts, { answered: 2, built: 3, reusedBases: 0 });
});

test('an answered build gives its warnings again', async () => {
  const cache = new BuildCache();
  const fs = MemoryFileSystem.from(files);
  const heard: string[][] = [[], []];
  const first = await build('/app', { fs, cache, warn: (w) => heard[0]!.push(w.message) });
  const second = await build('/app', { fs, cache, warn: (w) => heard[1]!.push(w.message) });
  assert.match(first.warnings.map((w) => w.message).join('\n'), /'commonLabels' is deprecated/);
  assert.deepEqual(second.warnings, first.warnings);
  assert.deepEqual(heard[1], heard[0]);
});

test('what a build returns is the caller’s: changing it changes nothing the cache gives later', async () => {
  const cache = new BuildCache();
  const fs = MemoryFileSystem.from(files);
  const first = await build('/app', { fs, cache });
  first.resources[0]!.obj['data'] = { level: 'changed by the caller' };
  const second = await build('/app', { fs, cache });
  assert.equal(second.yaml, first.yaml);
  assert.deepEqual(second.resources[0]!.obj['data'], { level: 'info' });
  second.resources.pop();
  assert.equal((await build('/app', { fs, cache })).resources.length, 2);
});

test('a build that ran a plugin is never remembered: the plugin runs every time', async () => {
  const stamp = stampPlugin();
  const fs = MemoryFileSystem.from({
    ...files,
    'app/stamp.yaml': STAMP_CONFIG,
    'app/kustomization.yaml': files['app/kustomization.yaml'] + 'transformers:\n- stamp.yaml\n',
  });
  const cache = new BuildCache();
  const options = { fs, cache, enablePlugins: true, plugins: [stamp.registration] };
  assert.match((await build('/app', options)).yaml, /run: "1"/);
  assert.match((await build('/app', options)).yaml, /run: "2"/);
  assert.equal(stamp.runs(), 2);
  // the base runs no plugin: the second build takes it from the cache
  assert.deepEqual(cache.counts, { answered: 0, built: 2, reusedBases: 1 });
});

test('at most `builds` builds are remembered, the least recently used forgotten first', async () => {
  const fs = MemoryFileSystem.from(files);
  const cache = new BuildCache({ builds: 1 });
  await build('/app', { fs, cache });
  await build('/base', { fs, cache });
  await build('/app', { fs, cache });
  assert.deepEqual(cache.counts, { answered: 0, built: 3, reusedBases: 0 }, '/app was forgotten, with its bases, when /base was remembered');
  await build('/app', { fs, cache });
  assert.deepEqual(cache.counts, { answered: 1, built: 3, reusedBases: 0 });
});

test('the cache holds at most `bytes`, as it estimates them, the least recently used build forgotten first', async () => {
  // twenty trees of one ConfigMap each, with 4 KB of data: each build and its files about 10 KB, as estimated
  const trees = Array.from({ length: 20 }, (_, i) => [
    [`t${i}/kustomization.yaml`, 'resources:\n- cm.yaml\n'],
    [`t${i}/cm.yaml`, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  blob: ${'x'.repeat(4000)}\n`],
  ]);
  const fs = MemoryFileSystem.from(Object.fromEntries(trees.flat()));
  const bytes = 64 * 1024;
  const cache = new BuildCache({ bytes });
  for (let i = 0; i < 20; i++) {
    await build(`/t${i}`, { fs, cache });
    assert.ok(cache.bytes <= bytes, `${cache.bytes} bytes after ${i + 1} builds`);
  }
  assert.ok(cache.bytes > bytes / 4, `it holds something: ${cache.bytes} bytes`);
  // the last built is still answered; the first went for those after it
  await build('/t19', { fs, cache });
  assert.equal(cache.counts.answered, 1);
  await build('/t0', { fs, cache });
  assert.equal(cache.counts.answered, 1);
});

test('builds running at the same time may share a cache', async () => {
  const cache = new BuildCache();
  const fs = MemoryFileSystem.from(files);
  const alone = await Promise.all(['/app', '/base'].map((p) => build(p, { fs })));
  for (let round = 0; round < 3; round++) {
    const together = await Promise.all(['/app', '/base', '/app', '/base'].map((p) => build(p, { fs, cache })));
    assert.deepEqual(
      together.map((r) => r.yaml),
      [alone[0]!.yaml, alone[1]!.yaml, alone[0]!.yaml, alone[1]!.yaml],
    );
  }
  assert.ok(cache.counts.answered >= 8, `the later rounds are answered (${JSON.stringify(cache.counts)})`);
});

test('builds that share files through a cache do not see each other’s changes to them', async () => {
  const deployment =
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx\n';
  const fs = MemoryFileSystem.from({
    'base/kustomization.yaml': 'resources:\n- deployment.yaml\n',
    'base/deployment.yaml': deployment,
    // every kind of step that writes below metadata, on the shared files
    'a/kustomization.yaml': [
      'resources:\n- ../base\n- owner.yaml',
      'namespace: a\ncommonLabels:\n  team: a',
      'images:\n- name: nginx\n  newTag: "2"',
      'replicas:\n- name: web\n  count: 3',
      'patches:',
      '- patch: |-\n    - op: add\n      path: /spec/template/spec/containers/0/args\n      value: ["--a"]\n  target:\n    kind: Deployment',
      '- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      template:\n        spec:\n          containers:\n          - name: web\n            env:\n            - name: A\n              value: "1"',
      'replacements:\n- source:\n    kind: ConfigMap\n    fieldPath: data.owner\n  targets:\n  - select:\n      kind: Deployment\n    fieldPaths:\n    - spec.template.metadata.labels.owner\n    options:\n      create: true',
      '',
    ].join('\n'),
    'a/owner.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: owner\ndata:\n  owner: a-team\n',
    'b/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: b-\n',
  });
  const cache = new BuildCache();
  const plainA = await build('/a', { fs });
  const plainB = await build('/b', { fs });
  assert.equal((await build('/a', { fs, cache })).yaml, plainA.yaml);
  assert.equal((await build('/b', { fs, cache })).yaml, plainB.yaml);
  fs.writeFile('/a/kustomization.yaml', `${readText(fs, '/a/kustomization.yaml')}# edited\n`);
  assert.equal((await build('/a', { fs, cache })).yaml, plainA.yaml);
  assert.equal((await build('/b', { fs, cache })).yaml, plainB.yaml);
  assert.match(plainA.yaml, /image: nginx:2/);
  assert.match(plainA.yaml, /owner: a-team\n/);
  assert.match(plainA.yaml, /- --a\n/);
  assert.match(plainB.yaml, /image: nginx\n/);
});

test('an in-process plugin may write anywhere in the resources of a build with a cache', async () => {
  const deep: PluginRegistration = {
    apiVersion: 'example.com/v1',
    kind: 'Deep',
    factory: (config) => {
      config['seen'] = true;
      return {
        transform(resources) {
          for (const r of resources.resources()) ((r.obj['data'] as Record<string, unknown>)['level'] = 'debug');
        },
      };
    },
  };
  const fs = MemoryFileSystem.from({
    ...files,
    'app/deep.yaml': 'apiVersion: example.com/v1\nkind: Deep\nmetadata:\n  name: d\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  level: info\n',
    'app/kustomization.yaml': 'resources:\n- ../base\n- cm.yaml\ntransformers:\n- deep.yaml\n',
  });
  const cache = new BuildCache();
  const options = { fs, cache, enablePlugins: true, plugins: [deep] };
  assert.equal((await build('/app', options)).yaml.match(/level: debug/g)?.length, 2);
  assert.equal((await build('/base', { fs, cache })).yaml.match(/level: info/g)?.length, 1, 'the file the plugin changed is read as written');
});

test('the resources of a build with a cache are the caller’s to change, also when the build is not remembered', async () => {
  const made: PluginRegistration = {
    apiVersion: 'example.com/v1',
    kind: 'Made',
    factory: () => ({ generate: () => [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made' }, data: { level: 'info' } }] }),
  };
  const fs = MemoryFileSystem.from({
    ...files,
    'app/made.yaml': 'apiVersion: example.com/v1\nkind: Made\nmetadata:\n  name: m\n',
    'app/kustomization.yaml': 'resources:\n- ../base\ngenerators:\n- made.yaml\n',
  });
  const cache = new BuildCache();
  const options = { fs, cache, enablePlugins: true, plugins: [made] };
  const result = await build('/app', options);
  for (const r of result.resources) (r.obj['data'] as Record<string, string>)['level'] = 'mine';
  assert.equal((await build('/app', options)).yaml.match(/level: info/g)?.length, 2);
});
