/**
 * The language service's navigation in memory (no server): the paths each kind of file names —
 * a Composition's, a Catalog's, a kustomization's charts, plugin entries and replacements files —
 * and what the load restrictor lets it read.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DocumentLink } from 'vscode-languageserver-types';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import { LanguageService } from '../../src/language/service.js';

function setup(files: Record<string, string>, settings: unknown = {}): LanguageService {
  const service = new LanguageService({ fs: MemoryFileSystem.from(files) });
  service.configure(settings);
  service.setFolders(['file:///repo']);
  return service;
}

/** Links as `line:start-end target`, the target relative to the repository. */
const shown = (links: DocumentLink[]) => links.map((l) => `${l.range.start.line}:${l.range.start.character}-${l.range.end.character} ${l.target!.replace('file:///repo/', '')}`);

test("a Composition's transformer files, imports, accumulated paths, programs and catalogs", () => {
  const service = setup({
    'repo/app/composition.yaml': [
      'kind: Composition',
      'transformersFrom:',
      '- path: ../shared',
      'transformers:',
      '- transformers.yaml',
      '- apiVersion: builtin',
      '  kind: ResourceAccumulator',
      '  paths:',
      '  - deployment.yaml',
      '  - ../base',
      '  - https://example.com/web.yaml',
      '- apiVersion: example.com/v1',
      '  kind: Fn',
      '  provider: {exec: {path: ./fn.sh}}',
      'catalogs:',
      '- catalog.yaml',
      '',
    ].join('\n'),
    'repo/app/transformers.yaml': 'apiVersion: builtin\nkind: NamespaceTransformer\nmetadata: {name: ns}\nnamespace: x\n',
    'repo/app/deployment.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n',
    'repo/app/fn.sh': '#!/bin/sh\ncat\n',
    'repo/app/catalog.yaml': 'apiVersion: config.kubernetes.io/v1alpha1\nkind: Catalog\n',
    'repo/shared/composition.yaml': 'kind: Composition\n',
    'repo/base/kustomization.yaml': 'resources: []\n',
  });
  assert.deepEqual(shown(service.documentLinks('file:///repo/app/composition.yaml')), [
    '4:2-19 app/transformers.yaml',
    '8:4-19 app/deployment.yaml',
    '9:4-11 base/kustomization.yaml',
    '10:4-32 https://example.com/web.yaml',
    '13:26-33 app/fn.sh',
    '2:8-17 shared/composition.yaml',
    '15:2-14 app/catalog.yaml',
  ]);
  service.dispose();
});

test("a Catalog's programs and scripts: relative, file://, and https", () => {
  const catalog = [
    'apiVersion: config.kubernetes.io/v1alpha1',
    'kind: Catalog',
    'spec:',
    '  krmFunctions:',
    '  - group: example.com',
    '    versions:',
    '    - name: v1',
    '      runtime:',
    '        exec:',
    '          platforms:',
    '          - bin: set-label',
    '            uri: bin/set-label.tar.gz',
    '          - bin: set-label',
    '            uri: https://example.com/set-label-darwin.tar.gz',
    '  - group: example.com',
    '    runtime:',
    '      starlark: file:///repo/app/greeter.star',
    '',
  ].join('\n');
  const service = setup({ 'repo/app/catalog.yaml': catalog, 'repo/app/bin/set-label.tar.gz': 'x', 'repo/app/greeter.star': 'def run(): pass\n' });
  assert.deepEqual(shown(service.documentLinks('file:///repo/app/catalog.yaml')).sort(), ['11:17-37 app/bin/set-label.tar.gz', '13:17-60 https://example.com/set-label-darwin.tar.gz', '16:16-45 app/greeter.star']);
  service.dispose();
});

test("a kustomization's local chart, values, plugin entries (not an inline config), replacements file, openapi, crds, configurations", async () => {
  const kustomization = [
    'helmGlobals:',
    '  chartHome: charts',
    'helmCharts:',
    '- name: web',
    '  valuesFile: values.yaml',
    '- name: remote-chart',
    '  repo: https://charts.example.com',
    'transformers:',
    '- labels.yaml',
    '- |',
    '  apiVersion: builtin',
    '  kind: LabelTransformer',
    'replacements:',
    '- path: replacement.yaml',
    'openapi:',
    '  path: schema.json',
    'crds:',
    '- crd.yaml',
    'configurations:',
    '- config.yaml',
    '',
  ].join('\n');
  const service = setup({
    'repo/app/kustomization.yaml': kustomization,
    'repo/app/charts/web/Chart.yaml': 'name: web\nversion: 1.0.0\n',
    'repo/app/values.yaml': 'a: 1\n',
    'repo/app/labels.yaml': 'apiVersion: builtin\nkind: LabelTransformer\n',
    'repo/app/replacement.yaml': 'source: {kind: ConfigMap, name: c}\n',
    'repo/app/schema.json': '{}',
    'repo/app/crd.yaml': 'kind: CustomResourceDefinition\n',
    'repo/app/config.yaml': 'nameReference: []\n',
  });
  const k = 'file:///repo/app/kustomization.yaml';
  assert.deepEqual(shown(service.documentLinks(k)).sort(), [
    '13:8-24 app/replacement.yaml',
    '15:8-19 app/schema.json',
    '17:2-10 app/crd.yaml',
    '19:2-13 app/config.yaml',
    '3:8-11 app/charts/web/Chart.yaml',
    '4:14-25 app/values.yaml',
    '8:2-13 app/labels.yaml',
  ]);
  assert.deepEqual(await service.definition(k, { line: 3, character: 9 }), [{ uri: 'file:///repo/app/charts/web/Chart.yaml', range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }]);
  assert.deepEqual(await service.definition(k, { line: 5, character: 9 }), [], 'a chart to pull is not here');
  service.dispose();
});

test('the load restrictor: a file outside the kustomization is named only with LoadRestrictionsNone; nothing outside the workspace', async () => {
  const files = {
    'repo/app/kustomization.yaml': 'resources:\n- ../base/cm.yaml\n- ../../elsewhere/cm.yaml\n',
    'repo/base/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n',
    'elsewhere/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n',
  };
  const k = 'file:///repo/app/kustomization.yaml';
  const restricted = setup(files);
  assert.deepEqual(restricted.documentLinks(k), []);
  assert.deepEqual(await restricted.definition(k, { line: 1, character: 4 }), []);
  restricted.dispose();
  const open = setup(files, { loadRestrictor: 'LoadRestrictionsNone' });
  assert.deepEqual(shown(open.documentLinks(k)), ['1:2-17 base/cm.yaml']);
  open.dispose();
});

test('a rename keeps the name of a target that selects other resources too', async () => {
  const service = setup({
    'repo/base/kustomization.yaml': 'resources:\n- deployment.yaml\n- service.yaml\n',
    'repo/base/deployment.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n',
    'repo/base/service.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n',
    'repo/app/kustomization.yaml': [
      'resources:',
      '- ../base',
      'patches:',
      '- target:',
      '    name: web',
      '  patch: |-',
      '    - {op: add, path: /metadata/labels, value: {a: b}}',
      '- target:',
      '    kind: Deployment',
      '    name: web',
      '  patch: |-',
      '    - {op: add, path: /metadata/annotations, value: {a: b}}',
      '',
    ].join('\n'),
  });
  await service.whenIdle();
  const edit = await service.rename('file:///repo/base/deployment.yaml', { line: 3, character: 8 }, 'api');
  const edited = Object.entries(edit.changes ?? {}).flatMap(([uri, edits]) => edits.map((e) => `${uri.replace('file:///repo/', '')} ${e.range.start.line}:${e.range.start.character}-${e.range.end.character} ${e.newText}`));
  assert.deepEqual(edited.sort(), ['app/kustomization.yaml 9:10-13 api', 'base/deployment.yaml 3:8-11 api']);
  service.dispose();
});
