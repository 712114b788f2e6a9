/**
 * What `--crd-merge` reads in a schema's list types, as the patch strategies kyaml merges by: from
 * a CRD's structural schema (schema/merge-form.ts) and from an `openapi:` file read with list
 * types (openapi/schema.ts). Either way the strategy is `listTypeStrategy`'s.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OpenApiSchema, OpenApiSchemaSetting, patchStrategyAndKeys, type SchemaNode as MergeNode } from '../../src/openapi/schema.js';
import { SchemaDocument } from '../../src/schema/document.js';
import { MergeForms } from '../../src/schema/merge-form.js';

const list = (listType: string | undefined, items: object, more: object = {}) => ({ type: 'array', ...(listType && { 'x-kubernetes-list-type': listType }), items, ...more });

/** A schema whose fields are lists of each kind, and what each must merge by (undefined: replaced). */
const LISTS: Record<string, [raw: object, merges: { strategy: string; keys: string[] } | undefined]> = {
  byName: [list('map', { type: 'object' }, { 'x-kubernetes-list-map-keys': ['name'] }), { strategy: 'merge', keys: ['name'] }],
  byTwo: [list('map', { type: 'object' }, { 'x-kubernetes-list-map-keys': ['port', 'protocol'] }), { strategy: 'merge', keys: ['port', 'protocol'] }],
  mapWithoutKeys: [list('map', { type: 'object' }), undefined],
  strings: [list('set', { type: 'string' }), { strategy: 'merge', keys: [] }],
  intOrStrings: [list('set', { 'x-kubernetes-int-or-string': true }), { strategy: 'merge', keys: [] }],
  objects: [list('set', { type: 'object' }), undefined],
  atomic: [list('atomic', { type: 'string' }), undefined],
  untyped: [list(undefined, { type: 'string' }), undefined],
};

const spec = { type: 'object', properties: Object.fromEntries(Object.entries(LISTS).map(([name, [raw]]) => [name, raw])) };

function merging(node: MergeNode | undefined): { strategy: string; keys: readonly string[] } | undefined {
  if (node?.patchStrategy === undefined) return undefined;
  return { strategy: patchStrategyAndKeys(node).strategy, keys: patchStrategyAndKeys(node).keys };
}

test('a CRD’s list types: map lists by their keys, sets of scalars as sets; atomic, keyless maps and sets of objects stay replaced', () => {
  const root = new MergeForms().of(SchemaDocument.of({ type: 'object', properties: { spec } }, 'crd.yaml').node('#')!);
  const fields = root.properties!.get('spec') as MergeNode;
  for (const [name, [, merges]] of Object.entries(LISTS)) assert.deepEqual(merging(fields.properties!.get(name) as MergeNode), merges, name);
});

test('an openapi: file read with list types gives the same; read as kyaml reads it, none; a patch strategy it has wins', () => {
  const definition = { ...spec, properties: { ...spec.properties, strategic: list('set', { type: 'object' }, { 'x-kubernetes-patch-strategy': 'merge', 'x-kubernetes-patch-merge-key': 'id' }) } };
  const doc = JSON.stringify({ definitions: { 'com.example.v1.Spec': { ...definition, 'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Spec' }] } } });
  const setting = new OpenApiSchemaSetting();
  setting.applyField({ path: 'openapi.json' }, () => doc, { root: true });
  const listTyped = setting.listTypedCustom()!.resourceSchema('example.com/v1', 'Spec')!;
  const asKyaml = OpenApiSchema.parse(doc).resourceSchema('example.com/v1', 'Spec')!;
  for (const [name, [, merges]] of Object.entries(LISTS)) {
    assert.deepEqual(merging(listTyped.properties!.get(name) as MergeNode), merges, name);
    assert.equal(merging(asKyaml.properties!.get(name) as MergeNode), undefined, name);
  }
  assert.deepEqual(merging(listTyped.properties!.get('strategic') as MergeNode), { strategy: 'merge', keys: ['id'] });
});

test('allOf members count as the schema’s own (a field written as allOf: [{$ref}]), and references that cycle end', () => {
  const doc = {
    components: {
      schemas: {
        Task: { type: 'object', properties: { name: { type: 'string' }, subtasks: list('map', { $ref: '#/components/schemas/Task' }, { 'x-kubernetes-list-map-keys': ['name'] }) } },
        Pipeline: { type: 'object', properties: { tasks: { description: 'the tasks', allOf: [{ $ref: '#/components/schemas/Tasks' }] } } },
        Tasks: list('map', { $ref: '#/components/schemas/Task' }, { 'x-kubernetes-list-map-keys': ['name'] }),
      },
    },
  };
  const pipeline = new MergeForms().of(SchemaDocument.of(doc, 'openapi.json').node('#/components/schemas/Pipeline')!);
  const tasks = pipeline.properties!.get('tasks') as MergeNode;
  assert.deepEqual(merging(tasks), { strategy: 'merge', keys: ['name'] });
  const task = tasks.items as MergeNode;
  const subtasks = task.properties!.get('subtasks') as MergeNode;
  assert.equal(subtasks.items, task, 'the same node, not a copy of it without end');
});
