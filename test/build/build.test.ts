/**
 * What `build()` gives back: the YAML, and the objects it prints as plain data (`objects`), the
 * caller's to keep and change, with or without a cache; `resources` show their objects to
 * `JSON.stringify`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { build } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';

const files = () =>
  MemoryFileSystem.from({
    'app/kustomization.yaml': 'namePrefix: dev-\nresources:\n- svc.yaml\n- cm.yaml\ncommonAnnotations:\n  happy: "true"\nconfigMapGenerator:\n- name: gen\n  literals: [a=1]\n',
    'app/svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations:\n    port: 0080\nspec:\n  ports:\n  - port: 80\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: team\ndata:\n  big: "1"\n',
  });

/** What a YAML reader makes of the printed output. */
const printed = (yaml: string): unknown[] => parseAllDocuments(yaml).map((d) => d.toJS() as unknown);

test('objects: what the build prints, in output order, as plain objects', async () => {
  const result = await build('/app', { fs: files() });
  const { objects } = result;
  assert.deepEqual(
    objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`),
    ['Service//dev-web', 'ConfigMap/team/dev-settings', `ConfigMap//${objects[2]!.metadata.name}`],
  );
  assert.match(objects[2]!.metadata.name, /^dev-gen-[a-z0-9]{10}$/);
  // annotation values as printed: strings, with the text they were written with
  assert.deepEqual(objects[0]!.metadata.annotations, { happy: 'true', port: '0080' });
  assert.deepEqual(objects, printed(result.yaml));
  for (const o of objects) {
    assert.equal(Object.getPrototypeOf(o), Object.prototype);
    assert.deepEqual(Object.getOwnPropertySymbols(o.metadata.annotations ?? {}), [], 'none of the build’s own marks');
  }
  assert.equal(result.objects, objects, 'made once, when first asked for');
});

test('JSON.stringify shows the manifests: a resource is its object', async () => {
  const result = await build('/app', { fs: files() });
  assert.equal(JSON.stringify(result.resources), JSON.stringify(result.objects));
  const json = JSON.parse(JSON.stringify(result)) as Record<string, unknown>;
  assert.deepEqual(Object.keys(json).sort(), ['inputs', 'inputsComplete', 'notices', 'objects', 'remote', 'resources', 'warnings', 'yaml']);
  assert.deepEqual(json['resources'], printed(result.yaml));
});

test('objects are the caller’s to change: the output and the cache keep theirs', async () => {
  const fs = files();
  const cache = new BuildCache();
  const first = await build('/app', { fs, cache });
  for (const o of first.objects) {
    assert.equal(Object.isFrozen(o.metadata), false, 'what the cache shares is thawed');
    o.metadata.name = 'changed';
  }
  assert.doesNotMatch(first.yaml, /changed/);
  assert.equal(first.resources.some((r) => r.name === 'changed'), false);
  const again = await build('/app', { fs, cache });
  assert.equal(cache.counts.answered, 1);
  assert.deepEqual(again.objects, printed(first.yaml));
  const uncached = await build('/app', { fs: files() });
  uncached.objects[0]!.metadata.name = 'changed';
  assert.doesNotMatch(uncached.yaml, /changed/);
  assert.equal(uncached.resources[0]!.name, 'dev-web');
});
