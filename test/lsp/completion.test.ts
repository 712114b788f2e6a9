/**
 * Completion as an editor asks for it: the real server over stdio (test/lsp/client.ts) on a tree
 * written to a temporary directory, asked at places of unsaved texts.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CompletionItem, Position } from 'vscode-languageserver/node';
import { KUSTOMIZATION_FIELD_DOCS } from '../../src/language/kustomization-docs.js';
import { KUBERNETES_V1_36 } from '../../src/schema/kubernetes-v1.36.generated.js';
import { serverOn, writeTree } from './fixture-tree.js';

const DEPLOYMENT = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.25\n';
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size:
                type: integer
                description: How many parts the widget has.
              color:
                type: string
                enum: [red, blue]
`;

const FILES: Record<string, string> = {
  'base/kustomization.yaml': 'resources:\n- deployment.yaml\n- service.yaml\n- crd.yaml\n- widget.yaml\n',
  'base/deployment.yaml': DEPLOYMENT,
  'base/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\nspec:\n  ports:\n  - port: 80\n',
  'base/crd.yaml': CRD,
  'base/widget.yaml': 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: gadget\nspec:\n  size: 1\n',
  'prod/kustomization.yaml': 'resources:\n- ../base\nnamePrefix: prod-\npatches:\n- path: replicas.yaml\n- path: ops.yaml\n  target:\n    kind: Deployment\n',
  'prod/ops.yaml': '- op: replace\n  path: /spec/revisionHistoryLimit\n  value: 3\n',
  'prod/replicas.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n',
  'prod/files/app.properties': 'a=1\n',
  'other/hello.yaml': 'hello: world\n',
};

const { dir, uri } = writeTree(FILES, 'kts-lsp-complete-');
const K = uri('prod/kustomization.yaml');
const client = serverOn(dir, uri());

/** The labels offered at `position` of `path` once its unsaved text is `text` (and, with `built`, once the roots are built with it). */
async function labelsAt(path: string, text: string, position: Position, built = false): Promise<string[]> {
  return (await itemsAt(path, text, position, built)).map((i) => i.label);
}

async function itemsAt(path: string, text: string, position: Position, built = false): Promise<CompletionItem[]> {
  await client().change(uri(path), text);
  if (built) await client().settled();
  return client().completion(uri(path), position);
}

/** Puts the prod kustomization's text back, and waits for its build: what its output has is known again. */
async function builtAsWritten(): Promise<void> {
  await client().change(K, FILES['prod/kustomization.yaml']!);
  await client().settled();
}

/** The fields of a Kubernetes definition, as its embedded schema declares them. */
function fieldsOf(definition: string): string[] {
  return Object.keys(JSON.parse(KUBERNETES_V1_36.definitions[definition]!).properties);
}

describe('in a kustomization', () => {
  before(async () => {
    await client().open(K, FILES['prod/kustomization.yaml']!);
  });

  test('top-level keys: the fields of the Kustomization shape not written yet, deprecated ones left out, with their docs', async () => {
    const text = 'resources:\n- ../base\nnamePrefix: prod-\npatches:\n- path: replicas.yaml\n\n';
    const items = await itemsAt('prod/kustomization.yaml', text, { line: 5, character: 0 });
    assert.deepEqual(
      items.map((i) => i.label),
      ['apiVersion', 'kind', 'metadata', 'openapi', 'nameSuffix', 'namespace', 'labels', 'commonAnnotations', 'images', 'replacements', 'replicas', 'sortOptions', 'components', 'crds', 'configMapGenerator', 'secretGenerator', 'helmGlobals', 'helmCharts', 'helmChartInflationGenerator', 'generatorOptions', 'configurations', 'generators', 'transformers', 'validators', 'buildMetadata', 'catalogs'],
    );
    const namespace = items.find((i) => i.label === 'namespace')!;
    assert.deepEqual(namespace.documentation, { kind: 'markdown', value: KUSTOMIZATION_FIELD_DOCS['namespace'] });
    assert.equal(namespace.detail, 'string');
    assert.deepEqual(namespace.textEdit, { range: { start: { line: 5, character: 0 }, end: { line: 5, character: 0 } }, newText: 'namespace: ' });
    assert.equal(items.find((i) => i.label === 'images')!.detail, '[]Image');
  });

  test('a half-typed key replaces the word typed', async () => {
    const items = await itemsAt('prod/kustomization.yaml', 'resources:\n- ../base\nnameSuf', { line: 2, character: 7 });
    const suffix = items.find((i) => i.label === 'nameSuffix')!;
    assert.deepEqual(suffix.textEdit, { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 7 } }, newText: 'nameSuffix: ' });
  });

  test("a nested entry's keys: a patch's, a target's, a new entry begun with a dash", async () => {
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'patches:\n- path: replicas.yaml\n  \n', { line: 2, character: 2 }), ['patch', 'target', 'options']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'patches:\n- target:\n    kind: Deployment\n    \n', { line: 3, character: 4 }), ['group', 'version', 'name', 'namespace', 'labelSelector', 'annotationSelector']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources:\n- ../base\nimages:\n- ', { line: 3, character: 2 }), ['name', 'newName', 'newTag', 'digest', 'tagSuffix']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'configMapGenerator:\n- name: c\n  ', { line: 2, character: 2 }), ['namespace', 'behavior', 'options', 'literals', 'files', 'envs', 'env']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'replacements:\n- source:\n    kind: Deployment\n    ', { line: 3, character: 4 }), ['group', 'version', 'name', 'namespace', 'fieldPath', 'options']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'patches:\n- path: replicas.yaml\n  options:\n    ', { line: 3, character: 4 }), ['allowNameChange', 'allowKindChange']);
  });

  test('enum values: behavior, sortOptions.order, kind (after a bare colon, with a space)', async () => {
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'configMapGenerator:\n- name: c\n  behavior: ', { line: 2, character: 12 }), ['create', 'replace', 'merge']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'sortOptions:\n  order: ', { line: 1, character: 9 }), ['legacy', 'fifo']);
    const kinds = await itemsAt('prod/kustomization.yaml', 'kind:', { line: 0, character: 5 });
    assert.deepEqual(kinds.map((i) => i.label), ['Kustomization', 'Component']);
    assert.deepEqual(kinds[1]!.textEdit, { range: { start: { line: 0, character: 5 }, end: { line: 0, character: 5 } }, newText: ' Component' });
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'apiVersion: ', { line: 0, character: 12 }), ['kustomize.config.k8s.io/v1beta1', 'kustomize.config.k8s.io/v1alpha1']);
  });

  test("paths: the kustomization's directory, bases above it; files outside only when the load restrictor allows", async () => {
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources:\n- ', { line: 1, character: 2 }), ['files/', 'ops.yaml', 'replicas.yaml', '../']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources:\n- ../', { line: 1, character: 5 }), ['base/', 'other/', 'prod/', '../']);
    const inBase = await itemsAt('prod/kustomization.yaml', 'resources:\n- ../base/d', { line: 1, character: 10 });
    assert.deepEqual(inBase.map((i) => i.label), [], 'a file of another directory is outside the root');
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'patches:\n- path: ../', { line: 1, character: 11 }), ['prod/']);
    const files = await itemsAt('prod/kustomization.yaml', 'configMapGenerator:\n- name: c\n  files:\n  - app=files/', { line: 3, character: 14 });
    assert.deepEqual(files.map((i) => i.label), ['app.properties']);
    assert.deepEqual(files[0]!.textEdit, { range: { start: { line: 3, character: 14 }, end: { line: 3, character: 14 } }, newText: 'app.properties' });
    // with LoadRestrictionsNone, the files of another directory are offered (once the server has the setting)
    await client().configure({ loadRestrictor: 'LoadRestrictionsNone' });
    const free = ['crd.yaml', 'deployment.yaml', 'kustomization.yaml', 'service.yaml', 'widget.yaml'];
    let outside: string[] = [];
    for (let tries = 0; tries < 200 && outside.join() !== free.join(); tries++) {
      outside = await labelsAt('prod/kustomization.yaml', 'resources:\n- ../base/d', { line: 1, character: 10 });
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(outside, free);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'patches:\n- path: ../', { line: 1, character: 11 }), ['base/', 'other/', 'prod/', '../']);
    await client().configure({});
  });

  test("a target's kinds and names: those of the root's output (names as first read and as output), sorted", async () => {
    await builtAsWritten();
    const target = 'resources:\n- ../base\nnamePrefix: prod-\npatches:\n- target:\n    kind: \n';
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', target, { line: 5, character: 10 }, true), ['CustomResourceDefinition', 'Deployment', 'Service', 'Widget']);
    const named = target.replace('kind: \n', 'kind: Deployment\n    name: \n');
    const names = await itemsAt('prod/kustomization.yaml', named, { line: 6, character: 10 }, true);
    assert.deepEqual(names.map((i) => [i.label, i.detail]), [['prod-web', 'Deployment'], ['web', 'Deployment']]);
    // a replacement's source compares its fields exactly, as builds do: `Serv.*` is no kind
    const source = 'resources:\n- ../base\nnamePrefix: prod-\nreplacements:\n- source:\n    kind: Service\n    name: \n';
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', source, { line: 6, character: 10 }, true), ['prod-web', 'web']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', source.replace('Service', 'Serv.*'), { line: 6, character: 10 }, true), []);
    const group = target.replace('kind: \n', 'group: \n');
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', group, { line: 5, character: 11 }, true), ['apiextensions.k8s.io', 'apps', 'example.com']);
  });

  test("an inline patch: the PodSpec's fields at spec.template.spec, enum values, the target's kind when the patch has none", async () => {
    const inline = 'patches:\n- patch: |-\n    apiVersion: apps/v1\n    kind: Deployment\n    metadata:\n      name: web\n    spec:\n      template:\n        spec:\n          containers:\n          - name: web\n          \n';
    const items = await itemsAt('prod/kustomization.yaml', inline, { line: 11, character: 10 });
    assert.deepEqual(items.map((i) => i.label), fieldsOf('io.k8s.api.core.v1.PodSpec').filter((f) => f !== 'containers'));
    assert.equal(items.find((i) => i.label === 'volumes')!.detail, '[]object');
    assert.deepEqual(items.find((i) => i.label === 'volumes')!.textEdit!.newText, 'volumes:');
    assert.equal(items.find((i) => i.label === 'priority')!.detail, 'integer (int32)');
    const restart = inline.replace('          \n', '          restartPolicy: ');
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', restart, { line: 11, character: 25 }), ['Always', 'Never', 'OnFailure']);
    await builtAsWritten();
    const targeted = 'resources:\n- ../base\npatches:\n- target:\n    kind: Deployment\n  patch: |-\n    spec:\n      template:\n        spec:\n          containers:\n          - \n';
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', targeted, { line: 10, character: 12 }), fieldsOf('io.k8s.api.core.v1.Container'));
  });

  test("a JSON patch: an operation's keys, its op, the target kind's fields along its path", async () => {
    const ops = 'resources:\n- ../base\npatches:\n- target:\n    kind: Deployment\n  patch: |-\n    - op: add\n      path: /spec/template/spec/\n    - \n';
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', ops, { line: 8, character: 6 }), ['op', 'path', 'value', 'from']);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', ops.replace('op: add', 'op: '), { line: 6, character: 10 }), ['add', 'remove', 'replace', 'move', 'copy', 'test']);
    const fields = await itemsAt('prod/kustomization.yaml', ops, { line: 7, character: 32 });
    assert.deepEqual(fields.map((i) => i.label), fieldsOf('io.k8s.api.core.v1.PodSpec'));
    assert.deepEqual(fields[0]!.textEdit, { range: { start: { line: 7, character: 32 }, end: { line: 7, character: 32 } }, newText: 'activeDeadlineSeconds' });
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', ops.replace('/spec/template/spec/', '/spec/template/spec/containers/0/'), { line: 7, character: 45 }), fieldsOf('io.k8s.api.core.v1.Container'));
  });

  test("replicas: the names of the output's workloads", async () => {
    await builtAsWritten();
    const replicas = 'resources:\n- ../base\nnamePrefix: prod-\nreplicas:\n- name: \n';
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', replicas, { line: 4, character: 8 }, true), ['prod-web', 'web']);
  });
});

describe('in a resource or a patch file', () => {
  test("a JSON patch file: its path's fields from the target of the entry that names it", async () => {
    await builtAsWritten();
    const ops = FILES['prod/ops.yaml']!.replace('/spec/revisionHistoryLimit', '/spec/');
    await client().open(uri('prod/ops.yaml'), ops);
    assert.deepEqual(await labelsAt('prod/ops.yaml', ops, { line: 1, character: 14 }), fieldsOf('io.k8s.api.apps.v1.DeploymentSpec'));
  });

  test("a patch file: the PodSpec's fields, its name from the output", async () => {
    await builtAsWritten();
    const patch = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      \n';
    await client().open(uri('prod/replicas.yaml'), patch);
    assert.deepEqual(await labelsAt('prod/replicas.yaml', patch, { line: 7, character: 6 }), fieldsOf('io.k8s.api.core.v1.PodSpec'));
    assert.deepEqual(await labelsAt('prod/replicas.yaml', patch.replace('name: web', 'name: '), { line: 3, character: 8 }), ['prod-web', 'web']);
  });

  test("a custom resource: its CRD's fields (from the build's output), with their descriptions and enums; its metadata's", async () => {
    const widget = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: gadget\nspec:\n  \n';
    await client().open(uri('base/widget.yaml'), widget);
    const items = await itemsAt('base/widget.yaml', widget, { line: 5, character: 2 });
    assert.deepEqual(items.map((i) => [i.label, i.detail]), [['size', 'integer'], ['color', 'string']]);
    assert.deepEqual(items[0]!.documentation, { kind: 'markdown', value: 'How many parts the widget has.' });
    assert.deepEqual(await labelsAt('base/widget.yaml', widget.replace('spec:\n  \n', 'spec:\n  color: '), { line: 5, character: 9 }), ['red', 'blue']);
    const meta = await labelsAt('base/widget.yaml', widget.replace('  name: gadget\n', '  name: gadget\n  \n'), { line: 4, character: 2 });
    assert.deepEqual(meta, fieldsOf('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta').filter((f) => f !== 'name'), "its metadata is an ObjectMeta's");
  });
});

describe('bad input: empty answers, and the server goes on', () => {
  test('a position past the end, a comment, YAML that is no Kubernetes, a broken document, a file that does not exist', async () => {
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources:\n- ../base\n', { line: 40, character: 0 }), []);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources:\n- ../base\n', { line: 0, character: 40 }), []);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', '# a comment: ', { line: 0, character: 13 }), []);
    await client().open(uri('other/hello.yaml'), FILES['other/hello.yaml']!);
    assert.deepEqual(await labelsAt('other/hello.yaml', 'hello: world\n\n', { line: 1, character: 0 }), []);
    assert.deepEqual(await labelsAt('other/hello.yaml', 'hello: world\nkind: ', { line: 1, character: 6 }), []);
    assert.deepEqual(await labelsAt('prod/kustomization.yaml', 'resources: [\n- ../base\nnamePrefix: ', { line: 2, character: 12 }), []);
    assert.deepEqual(await client().completion(uri('prod/nothing.yaml'), { line: 0, character: 0 }), []);
    const typing = 'resources:\n- ../base\npatches:\n- target:\n    kind: Deployment\n  patch: |-\n    spec:\n      template:\n        spec:\n          containers:\n          - name: web\n            image: x\n';
    for (let n = 1; n <= typing.length; n++) {
      const text = typing.slice(0, n);
      const lines = text.split('\n');
      await client().change(K, text);
      await client().completion(K, { line: lines.length - 1, character: lines.at(-1)!.length });
    }
    assert.ok((await client().roots()).length > 0 && client().process.exitCode === null);
  });
});
