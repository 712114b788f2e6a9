/**
 * A build's notices: what it sees that kustomize passes over in silence (a patch or replacement
 * target that selects nothing, a label step that changes an immutable selector), each located in
 * the kustomization (or file) that wrote it. The same trees, on disk, print what `kubectl
 * kustomize` prints: the same output, and nothing more on stderr.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { BuildCache } from '../../src/build/build-cache.js';
import { build } from '../../src/build/build.js';
import type { Notice } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { runCommand } from '../cli/run-command.js';
import { requireTool } from '../require-tool.js';

const kubectl = requireTool('kubectl');
const BIN = fileURLToPath(new URL('../../../bin/kustomize-ts.js', import.meta.url));

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const workload = (kind: string, name: string, apiVersion = 'apps/v1') =>
  lines(
    `apiVersion: ${apiVersion}`,
    `kind: ${kind}`,
    'metadata:',
    `  name: ${name}`,
    'spec:',
    '  selector:',
    '    matchLabels:',
    `      app: ${name}`,
    '  template:',
    '    metadata:',
    '      labels:',
    `        app: ${name}`,
    '    spec:',
    '      containers:',
    '      - name: main',
    '        image: nginx',
  );
const SERVICE = lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  selector:', '    app: web', '  ports:', '  - port: 80');
const CONFIG_MAP = lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: settings', 'data:', '  level: info');

/** `patches` entries, inline and from files, whose targets select something or nothing. */
const PATCHES: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'resources:', //                         1
    '- deploy.yaml',
    'patches:',
    '- target:', //                          4: selects web
    '    kind: Deployment',
    '    name: web',
    '  patch: |-',
    '    - op: add',
    '      path: /spec/replicas',
    '      value: 3', //                     10
    '- target:', //                          11: selects nothing
    '    kind: Deployment',
    '    name: web-.*',
    '  patch: |-',
    '    - op: add',
    '      path: /spec/paused',
    '      value: true',
    '- path: sm.yaml', //                    18
    '  target:', //                          19: selects nothing
    '    kind: StatefulSet',
    '- path: json.yaml',
    '  target: {kind: Deployment, name: api}', // 22: selects nothing
  ),
  'app/deploy.yaml': workload('Deployment', 'web'),
  'app/sm.yaml': lines('apiVersion: apps/v1', 'kind: StatefulSet', 'metadata:', '  name: any', 'spec:', '  replicas: 2'),
  'app/json.yaml': lines('- op: replace', '  path: /spec/replicas', '  value: 2'),
};

/** The deprecated fields that do the same: `patchesJson6902`, and `commonLabels` over a Deployment's selector. */
const LEGACY: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'resources:',
    '- deploy.yaml',
    '- service.yaml',
    'patchesJson6902:',
    '- target:', //                          5: selects nothing
    '    version: v1',
    '    kind: ConfigMap',
    '    name: nope',
    '  patch: \'[{"op": "add", "path": "/data/x", "value": "y"}]\'',
    '- target: {group: apps, version: v1, kind: Deployment, name: web}', // 10: selects web
    '  patch: \'[{"op": "add", "path": "/spec/replicas", "value": 3}]\'',
    'commonLabels:',
    '  team: blue', //                       13
  ),
  'app/deploy.yaml': workload('Deployment', 'web'),
  'app/service.yaml': SERVICE,
};

/** Builtin patch configs under `transformers:`: one in a file of its own, one written inline. */
const TRANSFORMERS: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'resources:',
    '- deploy.yaml',
    'transformers:',
    '- patcher.yaml',
    '- |-',
    '  apiVersion: builtin',
    '  kind: PatchJson6902Transformer',
    '  metadata:',
    '    name: inline',
    '  target:', //                          10: selects nothing
    '    kind: ConfigMap',
    '    name: nope',
    '  jsonOp: \'[{"op": "add", "path": "/data/x", "value": "y"}]\'',
  ),
  'app/patcher.yaml': lines(
    'apiVersion: builtin',
    'kind: PatchTransformer',
    'metadata:',
    '  name: patcher',
    'target:', //                            5: selects nothing
    '  kind: Secret',
    'patch: |-',
    '  - op: remove',
    '    path: /data/x',
  ),
  'app/deploy.yaml': workload('Deployment', 'web'),
};

/** `replacements` whose targets select something, nothing, or only what they reject; inline and in files. */
const REPLACEMENTS: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'resources:',
    '- deploy.yaml',
    '- cm.yaml',
    'replacements:',
    '- source:',
    '    kind: ConfigMap',
    '    name: settings',
    '    fieldPath: data.level',
    '  targets:',
    '  - select:', //                        10: selects web
    '      kind: Deployment',
    '    fieldPaths: [metadata.labels.level]',
    '    options: {create: true}',
    '  - select:', //                        14: selects nothing
    '      kind: Secret',
    '    fieldPaths: [data.level]',
    '  - select:', //                        17: selects only what it rejects
    '      kind: Deployment',
    '    reject:',
    '    - name: web',
    '    fieldPaths: [metadata.labels.other]',
    '- path: more.yaml',
    '- path: one.yaml',
  ),
  'app/more.yaml': lines(
    '- source: {kind: ConfigMap, name: settings, fieldPath: data.level}',
    '  targets:',
    '  - select: {kind: ConfigMap}',
    '    fieldPaths: [data.copy]',
    '    options: {create: true}',
    '- source: {kind: ConfigMap, name: settings, fieldPath: data.level}',
    '  targets:',
    '  - select: {kind: Job}', //            8: selects nothing
    '    fieldPaths: [metadata.name]',
  ),
  'app/one.yaml': lines('source:', '  kind: ConfigMap', '  name: settings', 'targets:', '- select:', '    name: gone', '  fieldPaths: [metadata.name]'),
  'app/deploy.yaml': workload('Deployment', 'web'),
  'app/cm.yaml': CONFIG_MAP,
};

/** `labels` over workloads' selectors: immutable ones (Deployment, StatefulSet, Job), and a Service's, which may change. */
const LABELS: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'resources:',
    '- deploy.yaml',
    '- sts.yaml',
    '- job.yaml',
    '- service.yaml',
    'labels:',
    '- pairs:',
    '    tier: front', //                    8: added to every selector
    '  includeSelectors: true',
    '- pairs:',
    '    app: web', //                       11: web's already; db's changed
    '  includeSelectors: true',
    '- pairs:',
    '    owner: me', //                      14: not in selectors
    '  includeTemplates: true',
  ),
  'app/deploy.yaml': workload('Deployment', 'web'),
  'app/sts.yaml': workload('StatefulSet', 'db'),
  'app/job.yaml': workload('Job', 'once', 'batch/v1'),
  'app/service.yaml': SERVICE,
};

/** An overlay over a base and a component that each notice something in their own kustomization. */
const LAYERED: Record<string, string> = {
  'base/kustomization.yaml': lines('resources:', '- deploy.yaml', 'labels:', '- pairs:', '    team: blue', '  includeSelectors: true'),
  'base/deploy.yaml': workload('Deployment', 'web'),
  'comp/kustomization.yaml': lines(
    'apiVersion: kustomize.config.k8s.io/v1alpha1',
    'kind: Component',
    'patches:',
    '- patch: |-',
    '    apiVersion: v1',
    '    kind: ConfigMap',
    '    metadata:',
    '      name: any',
    '    data:',
    '      x: y',
    '  target:', //                          11
    '    kind: ConfigMap',
  ),
  'app/kustomization.yaml': lines(
    'resources:',
    '- ../base',
    'components:',
    '- ../comp',
    'patches:',
    '- path: replicas.yaml',
    '  target:', //                          7
    '    name: api',
  ),
  'app/replicas.yaml': lines('- op: add', '  path: /spec/replicas', '  value: 3'),
};

/** A kustomization YAML 1.2 refuses (a repeated key) and reads otherwise (`yes`): kustomize reads it as go-yaml v2 does. */
const REPEATED: Record<string, string> = {
  'app/kustomization.yaml': lines(
    'kind: Kustomization',
    'resources:',
    '- deploy.yaml',
    'kind: Kustomization',
    'patches:',
    '- options:',
    '    allowNameChange: yes',
    '  target:', //                          8: selects nothing
    '    kind: Job',
    '  patch: |-',
    '    - op: add',
    '      path: /spec/paused',
    '      value: true',
  ),
  'app/deploy.yaml': workload('Deployment', 'web'),
};

const TREES = { PATCHES, LEGACY, TRANSFORMERS, REPLACEMENTS, LABELS, LAYERED, REPEATED };

/** What the tests compare of a notice: where it points, and what it names. */
function placeOf(n: Notice): string {
  return `${n.code} ${n.file}:${n.line}:${n.column} ${n.step}${n.resource ? ` ${n.resource.kind}/${n.resource.name}` : ''}`;
}

async function noticesOf(files: Record<string, string>, options: Parameters<typeof build>[1] = {}): Promise<Notice[]> {
  return (await build('/app', { fs: MemoryFileSystem.from(files), ...options })).notices;
}

describe('notices, located where the kustomization wrote what they are about', () => {
  test('a patches entry whose target selects nothing: at its target, inline or not, flow or block', async () => {
    const notices = await noticesOf(PATCHES);
    assert.deepEqual(notices.map(placeOf), [
      'PATCH_TARGET_UNMATCHED kustomization.yaml:11:3 patches[1]',
      'PATCH_TARGET_UNMATCHED kustomization.yaml:19:3 patches[2]',
      'PATCH_TARGET_UNMATCHED kustomization.yaml:22:3 patches[3]',
    ]);
    assert.equal(notices[0]!.message, 'patches[1]: the target (kind: Deployment, name: web-.*) selects no resource: the patch is not applied');
    assert.equal(notices[2]!.message, 'patches[3]: the target (kind: Deployment, name: api) selects no resource: the patch is not applied');
  });

  test('patchesJson6902 and commonLabels: the deprecated fields', async () => {
    // (in kustomize's order: commonLabels runs first)
    assert.deepEqual((await noticesOf(LEGACY)).map(placeOf), [
      'SELECTOR_LABEL_CHANGED kustomization.yaml:13:3 commonLabels Deployment/web',
      'PATCH_TARGET_UNMATCHED kustomization.yaml:5:3 patchesJson6902[0]',
    ]);
  });

  test('a builtin patch config under transformers: in its own file, or inline in the kustomization', async () => {
    const notices = await noticesOf(TRANSFORMERS);
    assert.deepEqual(notices.map(placeOf), [
      'PATCH_TARGET_UNMATCHED kustomization.yaml:10:3 transformers[1]',
      'PATCH_TARGET_UNMATCHED patcher.yaml:5:1 transformers[0]',
    ]);
    assert.equal(notices[0]!.message, 'transformers[1]: the target (kind: ConfigMap, name: nope) selects no resource: the patch is not applied');
  });

  test("a replacement's target whose select selects nothing (once rejected ones are left out): at its select, in the kustomization or the file of replacements", async () => {
    const notices = await noticesOf(REPLACEMENTS);
    assert.deepEqual(notices.map(placeOf), [
      'REPLACEMENT_TARGET_UNMATCHED kustomization.yaml:14:5 replacements[0]',
      'REPLACEMENT_TARGET_UNMATCHED kustomization.yaml:17:5 replacements[0]',
      'REPLACEMENT_TARGET_UNMATCHED more.yaml:8:5 replacements[1]',
      'REPLACEMENT_TARGET_UNMATCHED one.yaml:5:3 replacements[2]',
    ]);
    assert.deepEqual(
      notices.map((n) => n.message),
      [
        'replacements[0]: the select of targets[1] (kind: Secret) selects no resource: nothing is replaced there',
        'replacements[0]: the select of targets[2] (kind: Deployment) selects no resource, once rejected ones are left out: nothing is replaced there',
        'replacements[1]: in more.yaml[1], the select of targets[0] (kind: Job) selects no resource: nothing is replaced there',
        'replacements[2]: in one.yaml, the select of targets[0] (name: gone) selects no resource: nothing is replaced there',
      ],
    );
  });

  test('a label step that adds or changes a key of an immutable selector: one notice a workload, at the label', async () => {
    const notices = await noticesOf(LABELS);
    assert.deepEqual(notices.map(placeOf), [
      'SELECTOR_LABEL_CHANGED kustomization.yaml:8:5 labels[0] Deployment/web',
      'SELECTOR_LABEL_CHANGED kustomization.yaml:8:5 labels[0] StatefulSet/db',
      'SELECTOR_LABEL_CHANGED kustomization.yaml:8:5 labels[0] Job/once',
      'SELECTOR_LABEL_CHANGED kustomization.yaml:11:5 labels[1] StatefulSet/db',
      'SELECTOR_LABEL_CHANGED kustomization.yaml:11:5 labels[1] Job/once',
    ]);
    assert.equal(notices[3]!.message, "labels[1]: changes app (db → web) in the selector of StatefulSet db: a StatefulSet's selector is immutable, so applying it over the one in the cluster fails");
    assert.deepEqual(notices[2]!.resource, { apiVersion: 'batch/v1', kind: 'Job', namespace: '', name: 'once' });
  });

  test("a base's and a component's notices point into their own kustomizations", async () => {
    assert.deepEqual((await noticesOf(LAYERED)).map(placeOf), [
      'SELECTOR_LABEL_CHANGED ../base/kustomization.yaml:5:5 labels[0] Deployment/web',
      'PATCH_TARGET_UNMATCHED ../comp/kustomization.yaml:11:3 patches[0]',
      'PATCH_TARGET_UNMATCHED kustomization.yaml:7:3 patches[0]',
    ]);
  });

  test('a builtin in a Composition: at its entry in the Composition file', async () => {
    const files = {
      'app/composition.yaml': lines(
        'kind: Composition',
        'transformers:',
        '- apiVersion: builtin',
        '  kind: ResourceAccumulator',
        '  metadata:',
        '    name: input',
        '  paths:',
        '  - deploy.yaml',
        '- apiVersion: builtin',
        '  kind: PatchTransformer',
        '  metadata:',
        '    name: logger',
        '  target:', //                      13
        '    kind: DaemonSet',
        '  patch: |-',
        '    - op: add',
        '      path: /metadata/labels/x',
        '      value: y',
      ),
      'app/deploy.yaml': workload('Deployment', 'web'),
    };
    assert.deepEqual((await noticesOf(files)).map(placeOf), ['PATCH_TARGET_UNMATCHED composition.yaml:13:3 transformers[1]']);
  });

  test('a kustomization read as kustomize reads it: a repeated key, `yes` for true', async () => {
    assert.deepEqual((await noticesOf(REPEATED)).map(placeOf), ['PATCH_TARGET_UNMATCHED kustomization.yaml:8:3 patches[0]']);
  });

  test('none when every target selects something and no selector changes', async () => {
    const files = {
      ...PATCHES,
      'app/kustomization.yaml': lines('resources:', '- deploy.yaml', '- service.yaml', 'patches:', '- path: json.yaml', '  target:', '    name: web', 'labels:', '- pairs:', '    app: web', '  includeSelectors: true'),
      'app/service.yaml': SERVICE,
    };
    const result = await build('/app', { fs: MemoryFileSystem.from(files) });
    assert.deepEqual(result.notices, []);
    assert.match(result.yaml, /replicas: 2/);
  });

  test("notices never reach the caller's warn, and warnings never reach notices", async () => {
    const warned: unknown[] = [];
    const result = await build('/app', { fs: MemoryFileSystem.from(LEGACY), warn: (w) => warned.push(w) });
    assert.equal(result.notices.length, 2);
    assert.deepEqual(warned, result.warnings);
    assert.deepEqual(
      result.warnings.map((w) => w.code),
      ['FIELD_DEPRECATED', 'FIELD_DEPRECATED'],
    );
  });
});

describe('notices with a BuildCache', () => {
  test('a build the cache answers gives the notices again', async () => {
    const fs = MemoryFileSystem.from(LAYERED);
    const cache = new BuildCache();
    const first = await build('/app', { fs, cache });
    const again = await build('/app', { fs, cache });
    assert.equal(cache.counts.answered, 1);
    assert.equal(first.notices.length, 3);
    assert.deepEqual(again.notices, first.notices);
  });

  test('after an edit of the overlay, a remembered base gives its notices again', async () => {
    const fs = MemoryFileSystem.from(LAYERED);
    const cache = new BuildCache();
    const first = await build('/app', { fs, cache });
    fs.writeFile('/app/kustomization.yaml', `${LAYERED['app/kustomization.yaml']}# edited\n`);
    const edited = await build('/app', { fs, cache });
    assert.equal(cache.counts.reusedBases, 1);
    assert.deepEqual(edited.notices, first.notices);
    assert.deepEqual(edited.notices, await noticesOf({ ...LAYERED, 'app/kustomization.yaml': `${LAYERED['app/kustomization.yaml']}# edited\n` }));
  });
});

describe('the CLI and kubectl on the same trees', { skip: kubectl.skip }, () => {
  const root = nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-notices-'));
  after(() => nodeFs.rmSync(root, { recursive: true, force: true }));

  for (const [name, files] of Object.entries(TREES)) {
    test(`${name}: the same output as kubectl kustomize, and no more on stderr`, async () => {
      const dir = nodePath.join(root, name);
      for (const [path, text] of Object.entries(files)) {
        nodeFs.mkdirSync(nodePath.dirname(nodePath.join(dir, path)), { recursive: true });
        nodeFs.writeFileSync(nodePath.join(dir, path), text);
      }
      const app = nodePath.join(dir, 'app');
      const env = { ...process.env };
      delete env['KUSTOMIZE_ENABLE_MANAGEDBY_LABEL'];
      const [ours, theirs] = await Promise.all([
        runCommand(process.execPath, [BIN, 'build', app], { env }),
        promisify(execFile)(kubectl.path, ['kustomize', app], { env }),
      ]);
      assert.equal(ours.status, 0, ours.stderr);
      assert.equal(ours.stdout, theirs.stdout);
      assert.equal(ours.stderr, theirs.stderr.replaceAll("'kustomize edit fix'", "'kustomize-ts edit fix'"));
      assert.ok((await build(app)).notices.length > 0, 'the tree has notices');
    });
  }
});
