import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { readText } from '../../src/fs/filesystem.js';
import { localize } from '../../src/localize/localize.js';
import { build } from '../../src/build/build.js';
import { unreachable } from './unreachable-remote.js';

const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  a: b\n`;

/** A tree using every field that names a local file or directory. */
function richTree(): MemoryFileSystem {
  return MemoryFileSystem.from({
    'app/kustomization.yaml': `# the app overlay
resources:
- cm.yaml # a file
- ./sub/../deploy.yaml
- ../shared/base
components:
- comp
crds:
- crd.yaml
configurations:
- config.yaml
openapi:
  path: schema.json
patches:
- path: patch.yaml
- patch: |-
    - op: add
      path: /data/inline
      value: x
  target:
    kind: ConfigMap
patchesStrategicMerge:
- smp.yaml
configMapGenerator:
- name: gen
  files:
  - conf/app.properties
  - key=conf/other.txt
  envs:
  - conf/env.txt
replacements:
- path: replacement.yaml
transformers:
- label-transformer.yaml
`,
    'app/cm.yaml': cm('cm'),
    'app/deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: nginx\n',
    'app/comp/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nnameSuffix: -c\n',
    // kustomize's crds: form (it refuses a CRD's own YAML there)
    'app/crd.yaml': 'com.example.v1.Thing:\n  Schema:\n    properties:\n      apiVersion: {type: string}\n      kind: {type: string}\n      metadata: {type: object}\n',
    'app/config.yaml': 'nameReference:\n- kind: ConfigMap\n  fieldSpecs:\n  - path: spec/cm\n    kind: Thing\n',
    'app/schema.json': '{"definitions": {}}\n',
    'app/patch.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  patched: "yes"\n',
    'app/smp.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  smp: "yes"\n',
    'app/conf/app.properties': 'x=1\n',
    'app/conf/other.txt': 'other\n',
    'app/conf/env.txt': 'E=1\n',
    'app/replacement.yaml': 'source:\n  kind: ConfigMap\n  name: cm\n  fieldPath: data.a\ntargets:\n- select:\n    kind: Deployment\n  fieldPaths:\n  - spec.template.spec.containers.0.name\n',
    'app/label-transformer.yaml': 'apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: p\npath: transformer-patch.yaml\n',
    'app/transformer-patch.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  viaTransformer: "yes"\n',
    'shared/base/kustomization.yaml': 'resources:\n- base-cm.yaml\nnamePrefix: base-\n',
    'shared/base/base-cm.yaml': cm('from-base'),
  });
}

test('a local tree: every referenced file and kustomization copied, the copy builds to the same output', async () => {
  const fs = richTree();
  const original = await build('/app', { fs, remote: unreachable });
  const dst = await localize('/app', { fs, cwd: '/', scope: '/', destination: 'out' });
  assert.equal(dst, '/out');
  const localized = await build('/out/app', { fs, remote: unreachable });
  assert.equal(localized.yaml, original.yaml);
  for (const f of ['app/cm.yaml', 'app/deploy.yaml', 'app/comp/kustomization.yaml', 'app/crd.yaml', 'app/config.yaml', 'app/schema.json', 'app/patch.yaml', 'app/smp.yaml', 'app/conf/app.properties', 'app/conf/other.txt', 'app/conf/env.txt', 'app/replacement.yaml', 'app/label-transformer.yaml', 'app/transformer-patch.yaml', 'shared/base/kustomization.yaml', 'shared/base/base-cm.yaml']) {
    assert.ok(fs.exists(`/out/${f}`), `${f} copied`);
  }
  const kustomization = readText(fs, '/out/app/kustomization.yaml');
  assert.match(kustomization, /^# the app overlay\nresources:\n- cm.yaml # a file\n- deploy.yaml\n- ..\/shared\/base\n/);
  assert.match(kustomization, /openapi:\n  path: schema.json\n/);
  assert.match(kustomization, /- key=conf\/other.txt\n/);
});

test('the default destination is localized-<target> in the working directory; --scope defaults to the target', async () => {
  const fs = MemoryFileSystem.from({ 'work/app/kustomization.yaml': 'resources:\n- cm.yaml\n', 'work/app/cm.yaml': cm('cm') });
  assert.equal(await localize('app', { fs, cwd: '/work' }), '/work/localized-app');
  assert.equal(readText(fs, '/work/localized-app/cm.yaml'), cm('cm'));
  assert.equal(readText(fs, '/work/localized-app/kustomization.yaml'), 'resources:\n- cm.yaml\n');
});

test('a reference outside the scope is refused, and nothing is written', async () => {
  const fs = richTree();
  await assert.rejects(
    localize('/app', { fs, cwd: '/', destination: '/out' }),
    (e: Error) =>
      e.message.startsWith('unable to localize target "/app": unable to localize resources entry: could not localize path "../shared/base" as file: ') &&
      e.message.endsWith('could not localize path "../shared/base" as directory: invalid root reference: root "/shared/base" outside localize scope "/app"'),
  );
  assert.equal(fs.exists('/out'), false);
});

test('a file outside the kustomization directory is refused (files load root-only)', async () => {
  const fs = MemoryFileSystem.from({ 'scope/app/kustomization.yaml': 'patches:\n- path: ../patch.yaml\n', 'scope/patch.yaml': cm('cm') });
  await assert.rejects(localize('/scope/app', { fs, cwd: '/', scope: '/scope', destination: '/out' }), /unable to localize patches: invalid file reference: security; file '\/scope\/patch.yaml' is not in or below '\/scope\/app'/);
});

test('errors: scope not containing the target, an existing destination, a missing parent, a remote target without ref', async () => {
  const fs = MemoryFileSystem.from({ 'a/kustomization.yaml': 'resources: []\n', 'b/x': '', 'exists/x': '' });
  await assert.rejects(localize('/a', { fs, cwd: '/', scope: '/b' }), { message: 'invalid localize scope "/b": localize scope "/b" does not contain target "/a" at "/a"' });
  await assert.rejects(localize('/a', { fs, cwd: '/', destination: 'exists' }), { message: 'invalid localize destination "exists": localize destination "exists" already exists' });
  await assert.rejects(localize('/a', { fs, cwd: '/', destination: '/no/such/dir' }), /invalid localize destination "\/no\/such\/dir": unable to create localize destination directory: mkdir \/no\/such\/dir: no such file or directory$/);
  await assert.rejects(localize('https://github.com/org/repo//dir', { fs, cwd: '/', remote: unreachable }), {
    message: 'localize remote root "https://github.com/org/repo//dir" missing ref query string parameter',
  });
});

test('inline patchesStrategicMerge entries and inline builtin plugin configs stay inline', async () => {
  const fs = MemoryFileSystem.from({
    'a/kustomization.yaml': `resources:
- cm.yaml
patchesStrategicMerge:
- |-
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: cm
  data:
    inline: "yes"
transformers:
- |-
  apiVersion: builtin
  kind: PatchTransformer
  metadata:
    name: p
  path: p.yaml
`,
    'a/cm.yaml': cm('cm'),
    'a/p.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  viaTransformer: "yes"\n',
  });
  const original = await build('/a', { fs });
  await localize('/a', { fs, cwd: '/', destination: '/out' });
  assert.equal((await build('/out', { fs })).yaml, original.yaml);
  assert.ok(fs.exists('/out/p.yaml'));
});
