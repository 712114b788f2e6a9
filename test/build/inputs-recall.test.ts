/**
 * A build's `inputs` name every file `kubectl kustomize` opens for that root (recall), seen with
 * strace, and little else: on a tree with every kind of local input kustomize reads. The same
 * check runs over real repositories in bench/inputs-recall.mjs.
 */
import assert from 'node:assert/strict';
import * as nodeFs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { after, test } from 'node:test';
import { build } from '../../src/build/build.js';
import { buildAll } from '../../src/node.js';
import type { GivenOptions } from '../../src/options.js';
import { requireTool } from '../require-tool.js';
import { compareOpened, openedFiles, regularFilesUnder, traceOpens } from './strace-opens.js';

const kubectl = requireTool('kubectl');
const strace = requireTool('strace');
const helm = requireTool('helm');
const skip = kubectl.skip || strace.skip;

const lines = (...l: string[]) => `${l.join('\n')}\n`;

/** Every kind of local input but helm's: the overlay builds with LoadRestrictionsNone (it reads files of its siblings). */
const TREE: Record<string, string> = {
  'base/kustomization.yaml': lines('resources:', '- deploy.yaml', '- service.yaml', 'configurations:', '- ../config/nameref.yaml', 'crds:', '- crd.json'),
  'base/deploy.yaml': lines(
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: web',
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    '      - name: web',
    '        image: nginx',
    '        envFrom:',
    '        - configMapRef:',
    '            name: props',
  ),
  'base/service.yaml': lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', 'spec:', '  ports:', '  - port: 80'),
  // kustomize's crds: OpenAPI definitions, whose object references are name references
  'base/crd.json': JSON.stringify({
    'example.com/v1.Widget': {
      Schema: { properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, spec: { $ref: 'example.com/v1.WidgetSpec' } } },
      Dependencies: ['example.com/v1.WidgetSpec'],
    },
    'example.com/v1.WidgetSpec': {
      Schema: { properties: { secretName: { type: 'string', 'x-kubernetes-object-ref-api-version': 'v1', 'x-kubernetes-object-ref-kind': 'Secret' } } },
    },
  }),
  'config/nameref.yaml': lines('nameReference:', '- kind: ConfigMap', '  fieldSpecs:', '  - kind: Widget', '    path: spec/configName'),
  'comp/kustomization.yaml': lines('apiVersion: kustomize.config.k8s.io/v1alpha1', 'kind: Component', 'patches:', '- path: replicas.yaml'),
  'comp/replicas.yaml': lines('apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', 'spec:', '  replicas: 3'),
  'overlay/kustomization.yaml': lines(
    'resources:',
    '- ../base',
    '- widget.yaml',
    '- linked.yaml',
    'components:',
    '- ../comp',
    'patches:',
    '- path: json6902.yaml',
    '  target:',
    '    kind: Service',
    '- path: sm.yaml',
    'patchesStrategicMerge:',
    '- legacy-sm.yaml',
    'patchesJson6902:',
    '- target: {version: v1, kind: Service, name: web}',
    '  path: legacy-json.yaml',
    'configMapGenerator:',
    '- name: props',
    '  files:',
    '  - app.properties',
    '  - renamed=config.txt',
    '  envs:',
    '  - env.env',
    'secretGenerator:',
    '- name: creds',
    '  files:',
    '  - secret.txt',
    '  envs:',
    '  - secret.env',
    'openapi:',
    '  path: schema.json',
    'replacements:',
    '- path: replacement.yaml',
    'generators:',
    '- ../gen/cm-generator.yaml',
    'transformers:',
    '- ../trans',
  ),
  'overlay/widget.yaml': lines('apiVersion: example.com/v1', 'kind: Widget', 'metadata:', '  name: w', 'spec:', '  configName: props', '  secretName:', '    name: creds'),
  'shared/linked-cm.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: linked'),
  'overlay/json6902.yaml': lines('- op: add', '  path: /metadata/labels', '  value: {patched: json}'),
  'overlay/sm.yaml': lines('apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', '  annotations:', '    patched: sm'),
  'overlay/legacy-sm.yaml': lines('apiVersion: v1', 'kind: Service', 'metadata:', '  name: web', '  annotations:', '    legacy: sm'),
  'overlay/legacy-json.yaml': lines('- op: add', '  path: /spec/type', '  value: NodePort'),
  'overlay/app.properties': lines('a=1', 'b=2'),
  'overlay/config.txt': lines('hello'),
  'overlay/env.env': lines('K=V'),
  'overlay/secret.txt': lines('s3cret'),
  'overlay/secret.env': lines('PASS=x'),
  'overlay/schema.json': JSON.stringify({
    definitions: {
      'io.k8s.api.apps.v1.Deployment': {
        type: 'object',
        'x-kubernetes-group-version-kind': [{ group: 'apps', kind: 'Deployment', version: 'v1' }],
        properties: { spec: { type: 'object' } },
      },
    },
  }),
  'overlay/replacement.yaml': lines(
    'source:',
    '  kind: Service',
    '  name: web',
    '  fieldPath: metadata.name',
    'targets:',
    '- select:',
    '    kind: Deployment',
    '  fieldPaths:',
    '  - metadata.annotations.service',
    '  options: {create: true}',
  ),
  // a legacy builtin generator's config file, and the file it names (found from the overlay)
  'gen/cm-generator.yaml': lines('apiVersion: builtin', 'kind: ConfigMapGenerator', 'metadata:', '  name: generated', 'files:', '- gen-data.txt'),
  'overlay/gen-data.txt': lines('gen'),
  // transformers from a kustomization: its resources are the builtin transformers' configs
  'trans/kustomization.yaml': lines('resources:', '- prefix.yaml'),
  'trans/prefix.yaml': lines('apiVersion: builtin', 'kind: PrefixSuffixTransformer', 'metadata:', '  name: pre', 'prefix: p-', 'fieldSpecs:', '- path: metadata/name'),
  // helm: a local chart under the default chart home, a values file and an additional one
  'helm-app/kustomization.yaml': lines(
    'resources:',
    '- cm.yaml',
    'helmCharts:',
    '- name: web',
    '  releaseName: rel',
    '  valuesFile: values.yaml',
    '  additionalValuesFiles:',
    '  - more-values.yaml',
  ),
  'helm-app/cm.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: plain'),
  'helm-app/values.yaml': lines('greeting: overlay'),
  'helm-app/more-values.yaml': lines('more: yes'),
  'helm-app/charts/web/Chart.yaml': lines('apiVersion: v2', 'name: web', 'version: 0.1.0'),
  'helm-app/charts/web/values.yaml': lines('greeting: hi', 'more: no'),
  'helm-app/charts/web/templates/cm.yaml': lines(
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: {{ .Release.Name }}-chart',
    'data:',
    '  greeting: {{ .Values.greeting | quote }}',
    '  more: {{ .Values.more | quote }}',
  ),
  'shared/chart-template.yaml': lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: {{ .Release.Name }}-linked'),
};

/** Symlinks: a resource file, and a chart template outside the chart (helm follows it). */
const LINKS: Record<string, string> = {
  'overlay/linked.yaml': '../shared/linked-cm.yaml',
  'helm-app/charts/web/templates/linked.yaml': '../../../../shared/chart-template.yaml',
};

function writeTree(): string {
  const top = nodeFs.realpathSync(nodeFs.mkdtempSync(nodePath.join(os.tmpdir(), 'kts-inputs-recall-')));
  for (const [path, text] of Object.entries(TREE)) {
    nodeFs.mkdirSync(nodePath.dirname(nodePath.join(top, path)), { recursive: true });
    nodeFs.writeFileSync(nodePath.join(top, path), text);
  }
  for (const [path, target] of Object.entries(LINKS)) nodeFs.symlinkSync(target, nodePath.join(top, path));
  return top;
}

const tops: string[] = [];
after(() => {
  for (const top of tops) nodeFs.rmSync(top, { recursive: true, force: true });
});

interface Case {
  root: string;
  /** kubectl's flags */
  flags: string[];
  /** the same as build options */
  options: GivenOptions;
}

/**
 * Builds `root` with kubectl under strace and with build() and buildAll(): the files kubectl
 * opened in the tree, and what our inputs missed of them and listed beyond them.
 */
async function recall(c: Case): Promise<{ opened: Set<string>; missed: string[]; extra: string[] }> {
  const top = writeTree();
  tops.push(top);
  const traced = await traceOpens(strace.path, kubectl.path, ['kustomize', c.root, ...c.flags], { cwd: top });
  assert.ok(traced.ok, `kubectl failed: ${traced.stderr}`);
  assert.equal(traced.unplaced, 0);
  // the library keeps the input order; the CLI, kubectl's, sorts
  const built = await build(c.root, { ...c.options, cwd: top, reorder: 'legacy' });
  assert.equal(built.yaml, traced.stdout.toString('utf8'), 'the tree builds as kubectl builds it');
  // build-all lists the same inputs, relative to the top
  const [all] = await collect(buildAll(top, { ...c.options, cwd: top, roots: [c.root], jobs: 1 }));
  assert.ok(all?.ok, JSON.stringify(all));
  assert.deepEqual([...all.inputs].sort(), built.inputs.map((f) => nodePath.join(c.root, f)).sort());
  const opened = regularFilesUnder(traced.opened, top);
  const inputs = regularFilesUnder(
    built.inputs.map((f) => nodePath.resolve(top, c.root, f)),
    top,
  );
  return { opened, ...compareOpened(opened, inputs) };
}

async function collect<T>(results: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of results) out.push(r);
  return out;
}

test('every file kubectl opens for an overlay is among its inputs: bases, components, patches, generators, configurations, crds, openapi, replacements, legacy generator and transformer configs, a symlink', { skip }, async () => {
  const { opened, missed, extra } = await recall({
    root: 'overlay',
    flags: ['--load-restrictor', 'LoadRestrictionsNone'],
    options: { loadRestrictor: 'LoadRestrictionsNone' },
  });
  // the tree exercises what it means to: kubectl opens each kind of input
  for (const file of [
    'base/crd.json',
    'config/nameref.yaml',
    'comp/replicas.yaml',
    'overlay/legacy-json.yaml',
    'overlay/legacy-sm.yaml',
    'overlay/env.env',
    'overlay/secret.env',
    'overlay/schema.json',
    'overlay/replacement.yaml',
    'gen/cm-generator.yaml',
    'overlay/gen-data.txt',
    'trans/prefix.yaml',
    'shared/linked-cm.yaml',
  ]) {
    assert.ok(opened.has(file), `kubectl did not open ${file}: ${[...opened].sort().join(', ')}`);
  }
  assert.deepEqual({ missed, extra }, { missed: [], extra: [] });
});

test('every file kubectl and helm open for a local chart is among the inputs: the chart, its symlinked template, the values files', { skip: skip || helm.skip }, async () => {
  const helmFlags = ['--enable-helm', '--helm-command', helm.path];
  const { opened, missed, extra } = await recall({ root: 'helm-app', flags: helmFlags, options: { enableHelm: true, helmCommand: helm.path } });
  for (const file of ['helm-app/values.yaml', 'helm-app/more-values.yaml', 'helm-app/charts/web/templates/cm.yaml', 'shared/chart-template.yaml']) {
    assert.ok(opened.has(file), `kubectl did not open ${file}: ${[...opened].sort().join(', ')}`);
  }
  assert.deepEqual({ missed, extra }, { missed: [], extra: [] });
});

test('a strace log is read as the files opened: unfinished calls resumed, descriptors with their paths, failures and escapes', () => {
  const log = lines(
    '10 openat(AT_FDCWD</repo>, "/repo/a.yaml", O_RDONLY|O_CLOEXEC) = 3</repo/a.yaml>',
    '10 openat(AT_FDCWD</repo>, "rel/b.yaml", O_RDONLY|O_CLOEXEC <unfinished ...>',
    '11 openat(AT_FDCWD</repo>, "/repo/gone.yaml", O_RDONLY|O_CLOEXEC) = -1 ENOENT (No such file or directory)',
    '11 openat(7</repo/dir>, "c.yaml", O_RDONLY) = 4</repo/dir/c.yaml>',
    '10 <... openat resumed>) = 5</repo/rel/b.yaml>',
    '12 open("/repo/with \\"quote\\"\\303\\251.yaml", O_RDONLY) = 6',
    '12 openat(9, "d.yaml", O_RDONLY) = 7',
    '12 openat2(AT_FDCWD, "/repo/e.yaml", {flags=O_RDONLY}, 24) = 8',
  );
  const { files, unplaced } = openedFiles(log, '/cwd');
  assert.deepEqual([...files].sort(), ['/repo/a.yaml', '/repo/dir/c.yaml', '/repo/e.yaml', '/repo/rel/b.yaml', '/repo/with "quote"é.yaml']);
  assert.equal(unplaced, 1);
});
