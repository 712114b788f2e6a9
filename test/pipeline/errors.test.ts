/**
 * Every failure is a KustomizeError whose code names the stage and whose file names the file
 * at fault: plugin errors that are not KustomizeErrors, and files that are not UTF-8.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KustomizeError, type Warning } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { build, type BuildOptions } from '../../src/build/build.js';
import type { PluginRegistration } from '../../src/plugins/plugin.js';

async function failure(files: Record<string, string | Uint8Array>, options: BuildOptions = {}): Promise<KustomizeError> {
  try {
    await build('/app', { fs: MemoryFileSystem.from(files), ...options });
  } catch (e) {
    assert.ok(e instanceof KustomizeError, String(e));
    return e;
  }
  assert.fail('the build succeeded');
}

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const boom = (): never => {
  throw new TypeError('kaboom');
};
const failing = (role: 'generate' | 'transform'): PluginRegistration => ({
  apiVersion: 'example.com/v1',
  kind: 'Boom',
  factory: () => (role === 'generate' ? { generate: boom } : { transform: boom }),
});

test("an in-process transformer's own error becomes TRANSFORMER_FAILED naming the step and its file", async () => {
  const e = await failure(
    { 'app/kustomization.yaml': 'resources:\n- cm.yaml\ntransformers:\n- boom.yaml\n', 'app/cm.yaml': CM, 'app/boom.yaml': 'apiVersion: example.com/v1\nkind: Boom\nmetadata:\n  name: b\n' },
    { enablePlugins: true, plugins: [failing('transform')] },
  );
  assert.equal(e.code, 'TRANSFORMER_FAILED');
  assert.equal(e.file, 'boom.yaml');
  assert.match(e.message, /^Boom b configured in boom\.yaml: kaboom$/);
});

test("an in-process generator's own error becomes GENERATOR_FAILED", async () => {
  const e = await failure(
    { 'app/kustomization.yaml': 'generators:\n- boom.yaml\n', 'app/boom.yaml': 'apiVersion: example.com/v1\nkind: Boom\nmetadata:\n  name: b\n' },
    { enablePlugins: true, plugins: [failing('generate')] },
  );
  assert.equal(e.code, 'GENERATOR_FAILED');
});

const LATIN1 = new Uint8Array([...new TextEncoder().encode('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: caf'), 0xe9, 0x0a]);

test('a resource file that is not UTF-8 is an error (kustomize: incomplete UTF-8 octet sequence), not read as empty', async () => {
  const e = await failure({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': LATIN1 });
  assert.equal(e.code, 'FILE_INVALID');
  assert.match(e.message, /incomplete UTF-8 octet sequence in File: cm\.yaml/);
});

test('a patch file that is not UTF-8 is an error too', async () => {
  const e = await failure({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- path: p.yaml\n', 'app/cm.yaml': CM, 'app/p.yaml': LATIN1 });
  assert.equal(e.code, 'FILE_INVALID');
  assert.match(e.message, /p\.yaml' is not UTF-8 text/);
});

test('a decoding error names the field path, list indexes included', async () => {
  const wrongType = await failure({ 'app/kustomization.yaml': 'configMapGenerator:\n- name: a\n- name: b\n  literals: 5\n' });
  assert.equal(wrongType.code, 'KUSTOMIZATION_INVALID');
  assert.equal(wrongType.field, 'configMapGenerator[1].literals');
  assert.equal(wrongType.file, 'kustomization.yaml');
  const unknown = await failure({ 'app/kustomization.yaml': 'images:\n- name: a\n  newTagg: v1\n' });
  assert.equal(unknown.field, 'images[0].newTagg');
});

test('an image field that is not a string fails the first images entry, though the entries run as one step', async () => {
  const e = await failure({
    'app/kustomization.yaml': 'resources:\n- pod.yaml\nimages:\n- name: nginx\n  newTag: "1.27"\n- name: busybox\n  newTag: "1.36"\n',
    'app/pod.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: a\n    image: nginx\n  - name: b\n    image:\n      name: busybox\n',
  });
  assert.equal(e.code, 'TRANSFORMER_FAILED');
  assert.equal(e.file, 'kustomization.yaml');
  assert.equal(e.field, 'images[0]');
});

test('a patch that matches nothing names the kustomization and the patches entry', async () => {
  const e = await failure({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\npatches:\n- patch: |-\n    - op: add\n      path: /metadata/name\n      value: b\n  target:\n    kind: ConfigMap\n- patch: |-\n    apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: nope\n',
    'app/cm.yaml': CM,
  });
  assert.equal(e.code, 'PATCH_FAILED');
  assert.equal(e.file, 'kustomization.yaml');
  assert.equal(e.field, 'patches[1]');
});

test('a directory entry that fails as a directory names both attempts, as file then as directory (as kubectl does)', async () => {
  const fs = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources:\n- empty\n', 'app/empty/notes.txt': 'no kustomization here\n' });
  await assert.rejects(build('/app', { fs }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.equal(e.code, 'KUSTOMIZATION_NOT_FOUND');
    assert.equal(
      e.message,
      "accumulating resources: accumulation err='accumulating resources from 'empty': '/app/empty' must resolve to a file': couldn't make target for path '/app/empty': unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '/app/empty'",
    );
    return true;
  });
});

test('a file system that calls a path a directory and reads it as a file too gets an error naming the path', async () => {
  const memory = MemoryFileSystem.from({ 'app/kustomization.yaml': 'resources:\n- both\n', 'app/both': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
  const fs = Object.create(memory) as MemoryFileSystem;
  fs.isDirectory = (path) => path === '/app/both' || memory.isDirectory(path);
  await assert.rejects(build('/app', { fs }), (e: unknown) => {
    assert.ok(e instanceof KustomizeError);
    assert.match(e.message, /'both' reads both as a directory and as a file/);
    return true;
  });
});

// kubectl kustomize (kustomize v5.5.0) names the same field: kustomize orders name references by
// the referred kind (ServiceAccount before ConfigMap), and a scalar where a map must be fails.
test('a name reference through a scalar fails at the field kustomize visits first', async () => {
  const e = await failure({
    'app/kustomization.yaml': 'resources:\n- deploy.yaml\n- cm.yaml\nnamePrefix: p-\n',
    'app/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec: oops\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
  });
  assert.equal(
    e.message,
    "updating name reference in 'spec/template/spec/serviceAccountName' field of 'Deployment.v1.apps/p-web.[noNs]': considering field 'spec/template/spec/serviceAccountName' of object Deployment.v1.apps/p-web.[noNs]: expected sequence or mapping node",
  );
});

// Messages as kubectl kustomize (kustomize v5.5.0) printed them; it prints the node's contents as
// written ({a: b}), here in block style (see the README's differences).
test('a file that repeats an id fails as the file, not as a merge with what was accumulated', async () => {
  const e = await failure({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': `${CM}---\n${CM}` });
  assert.equal(
    e.message,
    "accumulating resources: accumulation err='accumulating resources from 'cm.yaml': may not add resource with an already registered id: ConfigMap.v1.[noGrp]/a.[noNs]': must build at directory: '/app/cm.yaml': file is not directory",
  );
  const twice = await failure({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n- again.yaml\n', 'app/cm.yaml': CM, 'app/again.yaml': CM });
  assert.match(twice.message, /merging resources from 'again\.yaml': may not add resource with an already registered id: ConfigMap\.v1\.\[noGrp\]\/a\.\[noNs\]/);
});

test('a namespace field holding a map fails naming the field, or the role binding subjects', async () => {
  const meta = await failure({
    'app/kustomization.yaml': 'resources:\n- cm.yaml\nnamespace: foo\n',
    'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: {a: b}\n',
  });
  assert.equal(meta.message, "considering field 'metadata/namespace' of object ConfigMap.v1.[noGrp]/c.[noNs]: wrong node kind: expected ScalarNode but got MappingNode: node contents:\na: b");
  const subjects = await failure({
    'app/kustomization.yaml': 'resources:\n- rb.yaml\nnamespace: foo\n',
    'app/rb.yaml':
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: rb\nsubjects:\n- kind: ServiceAccount\n  name: default\n  namespace: {a: b}\nroleRef: {kind: Role, name: r, apiGroup: rbac.authorization.k8s.io}\n',
  });
  assert.equal(subjects.message, 'setting namespace on (cluster)role binding subjects: wrong node kind: expected ScalarNode but got MappingNode: node contents:\na: b');
});

test('a prefix on a field holding a map fails naming the field', async () => {
  const e = await failure({
    'app/kustomization.yaml': 'resources:\n- foo.yaml\nnamePrefix: p-\nconfigurations:\n- prefix.yaml\n',
    'app/prefix.yaml': 'namePrefix:\n- path: spec/x\n  kind: Foo\n',
    'app/foo.yaml': 'apiVersion: example.com/v1\nkind: Foo\nmetadata:\n  name: f\nspec:\n  x: {a: b}\n',
  });
  assert.equal(e.message, "considering field 'spec/x' of object Foo.v1.example.com/f.[noNs]: wrong node kind: expected ScalarNode but got MappingNode: node contents:\na: b");
});

test('files are named relative to the directory built, wherever the error arose', async () => {
  const base = { 'base/kustomization.yaml': 'resources:\n- cm.yaml\n', 'base/cm.yaml': CM };
  // a file of a base, a patch of the overlay, and the base's own kustomization
  const badYaml = await failure({ ...base, 'base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: [a\n', 'app/kustomization.yaml': 'resources:\n- ../base\n' });
  assert.equal(badYaml.code, 'YAML_INVALID');
  assert.equal(badYaml.file, '../base/cm.yaml');
  const patch = await failure({ ...base, 'app/kustomization.yaml': 'resources:\n- ../base\npatches:\n- path: patches/missing.yaml\n' });
  assert.equal(patch.file, 'patches/missing.yaml');
  const kustomization = await failure({ 'base/kustomization.yaml': 'resourcez: []\n', 'app/kustomization.yaml': 'resources:\n- ../base\n' });
  assert.equal(kustomization.file, '../base/kustomization.yaml');
  const missing = await failure({ 'app/kustomization.yaml': 'resources:\n- gone.yaml\n' });
  assert.equal(missing.file, 'gone.yaml');
});

test('a YAML error says where in the file', async () => {
  const e = await failure({ 'app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'app/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {x: [1, 2}\n' });
  assert.equal(e.code, 'YAML_INVALID');
  assert.equal(e.file, 'cm.yaml');
  assert.equal(e.line, 5);
  assert.ok(e.column !== undefined && e.column > 1, `column ${e.column}`);
});

test('a cycle names the directory that closes it', async () => {
  const e = await failure({ 'app/kustomization.yaml': 'resources:\n- sub\n', 'app/sub/kustomization.yaml': 'resources:\n- ..\n' });
  assert.equal(e.code, 'CYCLE');
  assert.equal(e.file, '.');
});

test('warnings are objects: a code, kustomize\'s message, and the file, named as errors name files', async () => {
  const heard: Warning[] = [];
  const files = {
    'base/kustomization.yaml': 'resources:\n- cm.yaml\ncommonLabels:\n  a: b\n',
    'base/cm.yaml': CM,
    'app/kustomization.yaml': 'resources:\n- ../base\nsortOptions:\n  order: fifo\n',
  };
  const { warnings } = await build('/app', { fs: MemoryFileSystem.from(files), reorder: 'legacy', warn: (w) => heard.push(w) });
  assert.deepEqual(warnings, [
    {
      code: 'FIELD_DEPRECATED',
      message: "# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize-ts edit fix' to update your Kustomization automatically.",
      file: '../base/kustomization.yaml',
    },
    {
      code: 'SORT_OPTIONS_OVERRIDE',
      message: "Warning: Sorting order is set both in 'kustomization.yaml' ('sortOptions') and in a CLI flag ('--reorder'). Using the kustomization file over the CLI flag.",
      file: 'kustomization.yaml',
    },
  ]);
  assert.deepEqual(heard, warnings, 'the warn option hears each as it is given');
});
