/**
 * `--crd-merge` (`crdMerge`): where a custom resource's CRD comes from, and what a build without
 * the flag says when a patch replaced a list the CRD merges. The merges themselves are checked in
 * the crd-merge-* fixtures against kubectl's merge of a built-in twin (test/fixtures/regen.mjs);
 * here the same trees are built with the CRD given another way, which must print the same.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { build, type BuildOptions } from '../../src/build/build.js';
import { BuildCache } from '../../src/build/build-cache.js';
import type { Notice } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';

const FIXTURES = fileURLToPath(new URL('../../../test/fixtures/', import.meta.url));

/** A fixture's input files, by name. */
function fixtureFiles(name: string): Record<string, string> {
  const dir = join(FIXTURES, name, 'input');
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
}

function fixtureText(name: string, file: string): string {
  return readFileSync(join(FIXTURES, name, file), 'utf8');
}

/** A build's output without its first document (the CRD, which the legacy order puts first). */
function withoutCrd(yaml: string): string {
  return yaml.slice(yaml.indexOf('\n---\n') + '\n---\n'.length);
}

const MAP_LISTS = 'crd-merge-map-lists';
const quiet: BuildOptions = { reorder: 'legacy', warn: () => {} };

/** The map-lists fixture with its CRD taken out of `resources`, under /t, plus `more` files; its kustomization starts with `head`. */
function mapListsWithout(head: string, more: Record<string, string> = {}): MemoryFileSystem {
  const { 'crd.yaml': _crd, 'kustomization.yaml': kustomization, ...rest } = fixtureFiles(MAP_LISTS);
  const files: Record<string, string> = {};
  for (const [f, text] of Object.entries({ ...rest, ...more })) files[`t/${f}`] = text;
  files['t/kustomization.yaml'] = head + kustomization!.replace('- crd.yaml\n', '');
  return MemoryFileSystem.from(files);
}

const crd = () => parse(fixtureFiles(MAP_LISTS)['crd.yaml']!) as { spec: { versions: { schema: { openAPIV3Schema: Record<string, unknown> } }[] } };
const workloadSchema = () => crd().spec.versions[0]!.schema.openAPIV3Schema;

test('without --crd-merge: the output is kustomize’s, and each patch that replaced a list the CRD merges says so at the list’s key', async () => {
  const dir = join(FIXTURES, MAP_LISTS, 'input');
  const { yaml, notices } = await build(dir, quiet);
  assert.equal(yaml, fixtureText(MAP_LISTS, 'expected.yaml'));
  const resource = { apiVersion: 'example.com/v1', kind: 'Workload', namespace: '', name: 'web' };
  const merges = (path: string) => `${path} of Workload/web was replaced by the patch's list; its CRD merges it by name: with --crd-merge it would be merged`;
  assert.deepEqual(notices, [
    // psm.yaml line 8: `volumes:`
    { code: 'LIST_REPLACED', message: `patchesStrategicMerge[0]: ${merges('spec.template.spec.volumes')}`, file: 'psm.yaml', line: 8, column: 7, step: 'patchesStrategicMerge[0]', resource },
    { code: 'LIST_REPLACED', message: `patches[0]: ${merges('spec.template.spec.containers')}`, file: 'app.yaml', line: 8, column: 7, step: 'patches[0]', resource },
    // the inline patch's `containers:`, written in the kustomization
    { code: 'LIST_REPLACED', message: `patches[1]: ${merges('spec.template.spec.containers')}`, file: 'kustomization.yaml', line: 16, column: 11, step: 'patches[1]', resource },
  ] satisfies Notice[]);
  const lines = (f: string) => fixtureFiles(MAP_LISTS)[f]!.split('\n');
  assert.equal(lines('psm.yaml')[7], '      volumes:');
  assert.equal(lines('app.yaml')[7], '      containers:');
  assert.equal(lines('kustomization.yaml')[15], '          containers:');
});

test('with --crd-merge there is nothing to say', async () => {
  const { notices } = await build(join(FIXTURES, MAP_LISTS, 'input'), { ...quiet, crdMerge: true });
  assert.deepEqual(notices, []);
});

test('a list whose `$patch: replace` item kustomize kept is told apart: --crd-merge would apply the directive', async () => {
  const { notices } = await build(join(FIXTURES, 'crd-merge-directives', 'input'), quiet);
  assert.deepEqual(
    notices.map((n) => n.message),
    [
      `patches[0]: spec.template.spec.volumes of Workload/web was replaced by the patch's list, its "$patch: replace" item kept as an item; its CRD merges it by name: with --crd-merge the directive would apply`,
      `patches[1]: spec.template.spec.containers of Workload/web was replaced by the patch's list; its CRD merges it by name: with --crd-merge it would be merged`,
    ],
  );
});

test('no notice where replacing and merging give the same list, for built-in kinds, nor without a CRD', async () => {
  const workload = fixtureFiles(MAP_LISTS)['workload.yaml']!;
  const sameVolumes = `apiVersion: example.com/v1
kind: Workload
metadata:
  name: web
spec:
  template:
    spec:
      volumes:
      - name: data
        emptyDir: {}
      - name: conf
        configMap: {name: conf}
`;
  const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - {name: a, image: a}\n';
  const deploymentPatch = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  template:\n    spec:\n      containers:\n      - {name: b, image: b}\n';
  const fs = MemoryFileSystem.from({
    't/kustomization.yaml': 'resources: [crd.yaml, workload.yaml, deployment.yaml]\npatches:\n- path: same.yaml\n- path: deployment-patch.yaml\n',
    't/crd.yaml': fixtureFiles(MAP_LISTS)['crd.yaml']!,
    't/workload.yaml': workload,
    't/same.yaml': sameVolumes,
    't/deployment.yaml': deployment,
    't/deployment-patch.yaml': deploymentPatch,
    'u/kustomization.yaml': 'resources: [workload.yaml]\npatches:\n- path: same.yaml\n',
    'u/workload.yaml': workload,
    'u/same.yaml': sameVolumes.replace('name: data', 'name: other'),
  });
  assert.deepEqual((await build('/t', { fs })).notices, []);
  assert.deepEqual((await build('/u', { fs })).notices, []);
});

test('the CRD from crds: in kustomize’s own form (its OpenAPI definitions), with its list types', async () => {
  const schema = workloadSchema();
  const properties = { ...(schema['properties'] as object), apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' } };
  const form = JSON.stringify({ 'com.example.v1.Workload': { Schema: { ...schema, properties }, Dependencies: [] } });
  const fs = mapListsWithout('crds: [workload-openapi.json]\n', { 'workload-openapi.json': form });
  assert.equal((await build('/t', { ...quiet, fs, crdMerge: true })).yaml, withoutCrd(fixtureText(MAP_LISTS, 'expected-crd-merge.yaml')));
  const plain = await build('/t', { ...quiet, fs });
  assert.equal(plain.yaml, withoutCrd(fixtureText(MAP_LISTS, 'expected.yaml')));
  assert.equal(plain.notices.length, 3);
});

test('the CRD from crds: as its YAML: refused as kustomize refuses it, read with --crd-merge', async () => {
  const fs = mapListsWithout('crds: [crd.yaml]\n', { 'crd.yaml': fixtureFiles(MAP_LISTS)['crd.yaml']! });
  assert.equal((await build('/t', { ...quiet, fs, crdMerge: true })).yaml, withoutCrd(fixtureText(MAP_LISTS, 'expected-crd-merge.yaml')));
  await assert.rejects(build('/t', { ...quiet, fs }), (e: Error) => {
    assert.match(e.message, /unable to parse open API definition from 'crd\.yaml': json: cannot unmarshal string into Go value of type accumulator\.OpenAPIDefinition/);
    return true;
  });
});

test('the CRD from --schema: a file or a directory, resolved against cwd', async () => {
  const expected = withoutCrd(fixtureText(MAP_LISTS, 'expected-crd-merge.yaml'));
  const other = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: others.example.com\nspec:\n  group: example.com\n  names: {kind: Other, plural: others}\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema: {type: object}\n';
  const fs = mapListsWithout('', { 'schemas/a/workload.yaml': fixtureFiles(MAP_LISTS)['crd.yaml']!, 'schemas/other.yaml': other, 'schemas/README.md': '# not a schema' });
  for (const schemas of [['t/schemas'], ['t/schemas/a/workload.yaml'], ['/t/schemas']]) {
    assert.equal((await build('t', { ...quiet, fs, cwd: '/', crdMerge: true, schemas })).yaml, expected, schemas[0]);
  }
  const plain = await build('t', { ...quiet, fs, cwd: '/', schemas: ['t/schemas'] });
  assert.equal(plain.notices.length, 3);
  await assert.rejects(build('t', { ...quiet, fs, cwd: '/', crdMerge: true, schemas: ['nowhere'] }), { code: 'FILE_NOT_FOUND' });
});

test('the type from openapi: a custom schema whose lists have list types', async () => {
  const definition = { ...workloadSchema(), 'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Workload' }] };
  const fs = mapListsWithout('openapi:\n  path: openapi.json\n', { 'openapi.json': JSON.stringify({ definitions: { 'com.example.v1.Workload': definition } }) });
  assert.equal((await build('/t', { ...quiet, fs, crdMerge: true })).yaml, withoutCrd(fixtureText(MAP_LISTS, 'expected-crd-merge.yaml')));
  const plain = await build('/t', { ...quiet, fs });
  assert.equal(plain.yaml, withoutCrd(fixtureText(MAP_LISTS, 'expected.yaml')));
  assert.deepEqual(
    plain.notices.map((n) => n.message.replace(/: .*/, '')),
    ['patchesStrategicMerge[0]', 'patches[0]', 'patches[1]'],
  );
  assert.match(plain.notices[0]!.message, /its schema merges it by name/);
});

test('“in the build” is what the patch runs on: a sibling base’s CRD is not seen by a base’s patch, the overlay’s patch sees both', async () => {
  const files = fixtureFiles(MAP_LISTS);
  const fs = MemoryFileSystem.from({
    'crds/kustomization.yaml': 'resources: [crd.yaml]\n',
    'crds/crd.yaml': files['crd.yaml']!,
    'app/kustomization.yaml': 'resources: [workload.yaml]\npatches:\n- path: app.yaml\n',
    'app/workload.yaml': files['workload.yaml']!,
    'app/app.yaml': files['app.yaml']!,
    'overlay/kustomization.yaml': `resources: [../crds, ../app]
patches:
- patch: |
    apiVersion: example.com/v1
    kind: Workload
    metadata: {name: web}
    spec:
      template:
        spec:
          volumes:
          - {name: cache, emptyDir: {}}
`,
  });
  const { objects, notices } = await build('/overlay', { fs, crdMerge: true });
  const spec = (objects[1]!['spec'] as { template: { spec: { containers: { name: string }[]; volumes: { name: string }[] } } }).template.spec;
  const patched = parse(files['app.yaml']!) as { spec: { template: { spec: { containers: unknown } } } };
  assert.deepEqual(spec.containers, patched.spec.template.spec.containers);
  assert.deepEqual(
    spec.volumes.map((v) => v.name),
    ['cache', 'data', 'conf'],
  );
  assert.deepEqual(notices, []);
});

test('a base’s crds: reach the overlay’s patches, also when the base is remembered by a cache', async () => {
  const files = fixtureFiles(MAP_LISTS);
  const overlay = (image: string) => `resources: [../base]\npatches:\n- patch: |\n    apiVersion: example.com/v1\n    kind: Workload\n    metadata: {name: web}\n    spec:\n      template:\n        spec:\n          containers:\n          - {name: sidecar, image: "${image}"}\n`;
  const fs = MemoryFileSystem.from({
    'base/kustomization.yaml': 'crds: [crd.yaml]\nresources: [workload.yaml]\n',
    'base/crd.yaml': files['crd.yaml']!,
    'base/workload.yaml': files['workload.yaml']!,
    'overlay/kustomization.yaml': overlay('side:2'),
  });
  const cache = new BuildCache();
  const names = async () =>
    ((await build('/overlay', { fs, cache, crdMerge: true })).objects[0]!['spec'] as { template: { spec: { containers: { name: string; image: string }[] } } }).template.spec.containers.map((c) => `${c.name}=${c.image}`);
  assert.deepEqual(await names(), ['sidecar=side:2', 'app=app:1', 'extra=extra:1']);
  fs.writeFile('/overlay/kustomization.yaml', overlay('side:3'));
  assert.deepEqual(await names(), ['sidecar=side:3', 'app=app:1', 'extra=extra:1']);
  assert.equal(cache.counts.reusedBases, 1);
});

test('a Tekton Pipeline: tasks merged by name, and the params of a task by name within it', async () => {
  const pipelineCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: pipelines.tekton.dev}
spec:
  group: tekton.dev
  names: {kind: Pipeline, plural: pipelines}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              tasks:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    taskRef: {type: object, x-kubernetes-preserve-unknown-fields: true}
                    runAfter: {type: array, x-kubernetes-list-type: set, items: {type: string}}
                    params:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [name]
                      items:
                        type: object
                        properties:
                          name: {type: string}
                          value: {x-kubernetes-preserve-unknown-fields: true}
`;
  const fs = MemoryFileSystem.from({
    'schemas/pipeline.yaml': pipelineCrd,
    'p/kustomization.yaml': 'resources: [pipeline.yaml]\npatches:\n- path: patch.yaml\n',
    'p/pipeline.yaml': `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: {name: ci}
spec:
  tasks:
  - name: fetch
    taskRef: {name: git-clone}
    params:
    - {name: url, value: https://example.com/repo.git}
  - name: build
    runAfter: [fetch]
    taskRef: {name: kaniko}
    params:
    - {name: IMAGE, value: registry/app}
    - {name: DOCKERFILE, value: ./Dockerfile}
`,
    'p/patch.yaml': `apiVersion: tekton.dev/v1
kind: Pipeline
metadata: {name: ci}
spec:
  tasks:
  - name: build
    runAfter: [lint]
    params:
    - {name: IMAGE, value: registry/app:v2}
    - {name: CONTEXT, value: ./src}
`,
  });
  const { objects } = await build('/p', { fs, crdMerge: true, schemas: ['/schemas'] });
  const tasks = (objects[0]!['spec'] as { tasks: { name: string; runAfter?: string[]; params: { name: string; value: string }[] }[] }).tasks;
  // the patch's items first, then the target's others, at each depth (kyaml's order, as the fixtures show)
  assert.deepEqual(
    tasks.map((t) => t.name),
    ['build', 'fetch'],
  );
  assert.deepEqual(tasks[0]!.runAfter, ['lint', 'fetch']);
  assert.deepEqual(
    tasks[0]!.params.map((p) => `${p.name}=${p.value}`),
    ['IMAGE=registry/app:v2', 'CONTEXT=./src', 'DOCKERFILE=./Dockerfile'],
  );
  assert.deepEqual(tasks[0]!['taskRef' as never], { name: 'kaniko' });
});
