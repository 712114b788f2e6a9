import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build } from '../../src/build/build.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { resolve } from '../../src/fs/path.js';
import { KEPT_CHARACTERS, RecordIndex } from '../../src/language/records.js';
import { LanguageService } from '../../src/language/service.js';
import type { FieldValue } from '../../src/pipeline/provenance.js';

const LONG = 'a description longer than the records keep: '.repeat(4);

/** A base and two overlays that change its values (a patch, a prefix, labels), with awkward keys, lists, empty values and a long string. */
const TREE = {
  'w/base/kustomization.yaml': 'resources:\n- deployment.yaml\n- cm.yaml\n',
  'w/base/deployment.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  annotations:\n    example.com/a.b: "x"\n    "quoted[0]": y\nspec:\n  replicas: 1\n  template:\n    spec:\n      volumes:\n      - name: tmp\n        emptyDir: {}\n      containers:\n      - name: web\n        image: nginx:1.25\n        args: []\n        command: [run, --fast]\n',
  'w/base/cm.yaml': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  long: "${LONG}"\n  big: "12345678901234567890"\n`,
  'w/prod/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: prod-\nlabels:\n- pairs:\n    tier: web\npatches:\n- path: replicas.yaml\n',
  'w/prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n',
  'w/dev/kustomization.yaml': 'resources:\n- ../base\nnameSuffix: -dev\n',
};

/** What the records keep of a value: a long string cut. */
const kept = (v: FieldValue) => (typeof v === 'string' && v.length > KEPT_CHARACTERS ? v.slice(0, KEPT_CHARACTERS) : v);

test("the compact records find every value explain recorded at its place: the field, its value, who wrote it, and what was written there", async () => {
  const fs = MemoryFileSystem.from(TREE);
  const dir = '/w/prod';
  const { provenance } = await build(dir, { fs, provenance: true });
  const index = new RecordIndex(provenance!, dir);
  let places = 0;
  for (const resource of provenance!) {
    for (const field of resource.fields) {
      for (const [written, current] of [[field, true] as const, ...field.history.map((h) => [h, false] as const)]) {
        const found = index.at(resolve(dir, written.by.file), written.by.line, written.by.column);
        const same = found.filter((h) => h.resource.kind === resource.kind && h.resource.name === resource.name && h.field.path === field.path && h.current === current);
        assert.equal(same.length, 1, `${resource.kind}/${resource.name} ${field.path} at ${written.by.file}:${written.by.line}:${written.by.column}`);
        const [here] = same;
        assert.deepEqual(here!.resource, { apiVersion: resource.apiVersion, kind: resource.kind, namespace: resource.namespace, name: resource.name });
        assert.deepEqual(here!.field, { path: field.path, value: kept(field.value), by: field.by });
        assert.deepEqual(here!.written, { value: kept(written.value), by: written.by });
        places++;
      }
    }
  }
  assert.equal(index.size, places);
  // the patch's value replaced the base's, the prefix and the labels wrote over it: they all are there
  const replicas = index.at('/w/base/deployment.yaml', 9, 13);
  assert.deepEqual(replicas.map((h) => [h.field.path, h.field.value, h.written.value, h.current, h.field.by.step]), [['spec.replicas', 3, 1, false, 'patches[0]']]);
  assert.deepEqual(index.at('/w/base/deployment.yaml', 6, 5).map((h) => h.field.path), ['metadata.annotations["example.com/a.b"]']);
  assert.deepEqual(index.at('/w/base/deployment.yaml', 19, 19).map((h) => [h.field.path, h.field.value]), [['spec.template.spec.containers[0].command[0]', 'run']]);
  assert.deepEqual(index.at('/w/base/deployment.yaml', 19, 24).map((h) => [h.field.path, h.field.value]), [['spec.template.spec.containers[0].command[1]', '--fast']]);
  assert.deepEqual(index.at('/w/base/deployment.yaml', 14, 19).map((h) => [h.field.path, h.field.value]), [['spec.template.spec.volumes[0].emptyDir', {}]]);
  assert.deepEqual(index.at('/w/base/cm.yaml', 6, 3).map((h) => h.field.value), [LONG.slice(0, KEPT_CHARACTERS)]);
  assert.deepEqual(index.at('/w/base/cm.yaml', 1, 1).map((h) => h.field.path), ['apiVersion']);
  assert.deepEqual(index.at('/w/base/cm.yaml', 99, 1), []);
  assert.deepEqual(index.at('/w/elsewhere.yaml', 1, 1), []);
});

/** Hovers until no root is left to come; the answer. */
async function hoverFully(service: LanguageService, uri: string, position: { line: number; character: number }): Promise<string> {
  for (;;) {
    const hover = await service.hover(uri, position);
    const text = (hover?.contents as { value: string } | undefined)?.value ?? '';
    if (!/not shown yet/.test(text)) return text;
  }
}

test('a hover has its roots’ records made in the background; the next hovers answer from them, until a file they read changes', async () => {
  const service = new LanguageService({ fs: MemoryFileSystem.from(TREE) });
  service.setFolders(['file:///w']);
  await service.whenIdle();
  const uri = 'file:///w/base/deployment.yaml';
  const first = await hoverFully(service, uri, { line: 8, character: 12 });
  assert.equal(
    first,
    [
      '**base**\n- `Deployment/web` `spec.replicas` = `1` (`resource`)',
      '**dev**\n- `Deployment/web-dev` `spec.replicas` = `1` (`resource`)',
      '**prod**\n- `Deployment/prod-web` `spec.replicas` = `3`, by `patches[0]` at prod/replicas.yaml:6:13; here `1` (`resource`)',
    ].join('\n\n'),
  );
  const made = () => service.workspace.allRoots().map((r) => [r.name, r.recordings]);
  assert.deepEqual(made(), [['base', 1], ['dev', 1], ['prod', 1]]);
  // from memory: no root's records are made again, on this file or another one they read
  for (let line = 0; line < 19; line++) await service.hover(uri, { line, character: 6 });
  assert.equal(await hoverFully(service, uri, { line: 8, character: 12 }), first);
  assert.match(await hoverFully(service, 'file:///w/base/cm.yaml', { line: 5, character: 2 }), /`ConfigMap\/prod-settings` `data.long` = `"a description/);
  assert.deepEqual(made(), [['base', 1], ['dev', 1], ['prod', 1]]);
  // a change to prod's patch: prod's records are made again (once), the others are kept
  service.openDocument('file:///w/prod/replicas.yaml', TREE['w/prod/replicas.yaml'].replace('replicas: 3', 'replicas: 4'));
  await service.whenIdle();
  assert.match(await hoverFully(service, uri, { line: 8, character: 12 }), /`Deployment\/prod-web` `spec.replicas` = `4`, by `patches\[0\]`/);
  assert.deepEqual(made(), [['base', 1], ['dev', 1], ['prod', 2]]);
});

test('a root of many values (a list of 200,000 items) has its records kept: the second hover answers from them', async () => {
  const values = Array.from({ length: 200_000 }, (_, i) => i % 7);
  const service = new LanguageService({
    fs: MemoryFileSystem.from({
      'w/app/kustomization.yaml': 'resources:\n- values.yaml\n',
      'w/app/values.yaml': `apiVersion: example.com/v1\nkind: Values\nmetadata:\n  name: many\nspec:\n  values: [${values.join(', ')}]\n`,
    }),
  });
  service.setFolders(['file:///w']);
  await service.whenIdle();
  // the third item: `  values: [0, 1, 2`
  const at = { line: 5, character: 17 };
  const first = await hoverFully(service, 'file:///w/app/values.yaml', at);
  assert.equal(first, '**app**\n- `Values/many` `spec.values[2]` = `2` (`resource`)');
  const [root] = service.workspace.allRoots();
  assert.equal(root!.recordings, 1);
  // the items, apiVersion, kind and the name
  assert.equal((await service.workspace.recordsOf(root!)).size, 200_000 + 3);
  assert.equal(await hoverFully(service, 'file:///w/app/values.yaml', at), first);
  assert.equal(root!.recordings, 1);
});
