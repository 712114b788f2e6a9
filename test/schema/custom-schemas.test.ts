/** Schema files: which types each form gives, and the errors of files that are none of them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkValue } from '../../src/schema/check.js';
import { customSchemasOf, readSchemaPaths, type CustomSchema } from '../../src/schema/custom-schemas.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';

const ROLLOUT_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: rollouts.argoproj.io
spec:
  group: argoproj.io
  names: {kind: Rollout, plural: rollouts}
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [strategy]
            properties:
              replicas: {type: integer, format: int32}
              strategy:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              steps:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    weight: {type: integer}
`;

const typesOf = (schemas: CustomSchema[]) => schemas.map((s) => `${s.apiVersion ?? '*'} ${s.kind} ${s.file}`);

test('a CRD gives each version it defines, as a custom resource', () => {
  const two = ROLLOUT_CRD.replace('  - name: v1alpha1', '  - name: v1beta1\n    served: true\n    schema:\n      openAPIV3Schema: {type: object}\n  - name: v1alpha1');
  assert.deepEqual(typesOf(customSchemasOf(two, 'crds/rollout.yaml')), ['argoproj.io/v1beta1 Rollout crds/rollout.yaml', 'argoproj.io/v1alpha1 Rollout crds/rollout.yaml']);
  const [rollout] = customSchemasOf(ROLLOUT_CRD, 'r.yaml');
  const problems = checkValue({ spec: { replicas: 'x', strategy: { canary: {} }, steps: [{ name: 'a' }, { name: 'a' }] } }, rollout!.node, { strict: false });
  assert.deepEqual(
    problems.map((p) => `${p.path.join('.')}: ${p.message}`),
    ['spec.replicas: expected an integer, got string "x"', 'spec.steps.1: duplicate entry with name="a" (also item 0)'],
  );
});

test('a v1beta1 CRD: its top-level validation schema, for its version', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata: {name: olds.example.com}
spec:
  group: example.com
  version: v1
  names: {kind: Old}
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec: {type: object, properties: {size: {type: integer}}}
`;
  const [old] = customSchemasOf(crd, 'old.yaml');
  assert.equal(`${old!.apiVersion} ${old!.kind}`, 'example.com/v1 Old');
  assert.equal(checkValue({ spec: { size: 'big' } }, old!.node, { strict: false }).length, 1);
});

test('a CRD whose schema is not structural, or that has none, is SCHEMA_INVALID naming the file and the place', () => {
  const untyped = ROLLOUT_CRD.replace('              replicas: {type: integer, format: int32}', '              replicas: {format: int32}');
  assert.throws(() => customSchemasOf(untyped, 'crds/rollout.yaml'), {
    code: 'SCHEMA_INVALID',
    file: 'crds/rollout.yaml',
    message: 'crds/rollout.yaml: CustomResourceDefinition rollouts.argoproj.io, version v1alpha1: not a structural schema: type is required at /spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/replicas',
  });
  const none = ROLLOUT_CRD.slice(0, ROLLOUT_CRD.indexOf('    schema:'));
  assert.throws(() => customSchemasOf(none, 'x.yaml'), { code: 'SCHEMA_INVALID', message: /version v1alpha1: not a structural schema: no openAPIV3Schema/ });
});

test("a JSON Schema of one type: by x-kubernetes-group-version-kind, or by its apiVersion and kind's single values", () => {
  const byGvk = JSON.stringify({ type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'keda.sh', version: 'v1alpha1', kind: 'ScaledObject' }], properties: { spec: { type: 'object' } } });
  assert.deepEqual(typesOf(customSchemasOf(byGvk, 'so.json')), ['keda.sh/v1alpha1 ScaledObject so.json']);
  const byEnum = JSON.stringify({ $schema: 'http://json-schema.org/schema#', properties: { apiVersion: { enum: ['example.com/v1'] }, kind: { enum: ['Thing'] } } });
  assert.deepEqual(typesOf(customSchemasOf(byEnum, 'thing.json')), ['example.com/v1 Thing thing.json']);
  const anonymous = JSON.stringify({ $schema: 'http://json-schema.org/schema#', type: 'object' });
  assert.throws(() => customSchemasOf(anonymous, 'a.json'), { code: 'SCHEMA_INVALID', message: /a.json: a JSON Schema that does not say which type it describes/ });
});

test('an OpenAPI document: each schema with a group-version-kind, its references resolved in the document', () => {
  const doc = JSON.stringify({
    openapi: '3.0.0',
    components: {
      schemas: {
        'com.example.v1.Widget': { type: 'object', 'x-kubernetes-group-version-kind': [{ group: 'example.com', version: 'v1', kind: 'Widget' }], properties: { spec: { $ref: '#/components/schemas/com.example.v1.WidgetSpec' } } },
        'com.example.v1.WidgetSpec': { type: 'object', properties: { size: { type: 'integer' } } },
      },
    },
  });
  const [widget] = customSchemasOf(doc, 'openapi.json');
  assert.equal(`${widget!.apiVersion} ${widget!.kind}`, 'example.com/v1 Widget');
  assert.deepEqual(checkValue({ spec: { size: 'x' } }, widget!.node, { strict: false }).map((p) => p.path.join('.')), ['spec.size']);
});

test("kustomize's crds: form names kinds alone, and only definitions shaped as Kubernetes types", () => {
  const form = JSON.stringify({
    'github.com/example/pkg/apis/jingfang/v1beta1.Bee': { Schema: { properties: { apiVersion: {}, kind: {}, metadata: {}, spec: { $ref: 'github.com/example/pkg/apis/jingfang/v1beta1.BeeSpec' } } } },
    'github.com/example/pkg/apis/jingfang/v1beta1.BeeSpec': { Schema: { type: 'object', properties: { wings: { type: 'integer' } } } },
    // kustomize reads a definition without a Schema too: it is no type
    'github.com/example/pkg/apis/jingfang/v1beta1.Hive': { Dependencies: [] },
  });
  const schemas = customSchemasOf(form, 'crds.json');
  assert.deepEqual(typesOf(schemas), ['* Bee crds.json']);
  assert.deepEqual(checkValue({ spec: { wings: 'two' } }, schemas[0]!.node, { strict: false }).map((p) => p.path.join('.')), ['spec.wings']);
  assert.deepEqual(customSchemasOf('{}', 'empty.json'), []);
});

test('a file that is none of these, or no YAML at all, is SCHEMA_INVALID naming it', () => {
  assert.throws(() => customSchemasOf('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', 'cm.yaml'), { code: 'SCHEMA_INVALID', message: 'cm.yaml: not a CRD, an OpenAPI document or a JSON Schema' });
  assert.throws(() => customSchemasOf('a: [b\n', 'bad.yaml'), { code: 'SCHEMA_INVALID', message: /^bad.yaml: not JSON or YAML/ });
  assert.throws(() => customSchemasOf('- a\n- b\n', 'list.yaml'), { code: 'SCHEMA_INVALID', message: 'list.yaml: not a CRD, an OpenAPI document or a JSON Schema' });
});

test('--schema paths: files and directories (their YAML and JSON files, at any depth, in name order), from the working directory', () => {
  const fs = MemoryFileSystem.from({
    'work/crds/b/rollout.yaml': ROLLOUT_CRD,
    'work/crds/a.json': JSON.stringify({ 'x-kubernetes-group-version-kind': { group: 'a.io', version: 'v1', kind: 'A' }, type: 'object' }),
    'work/crds/README.md': '# not a schema',
    'work/one.yaml': `${ROLLOUT_CRD}---\n${ROLLOUT_CRD.replace(/rollouts\.argoproj\.io/, 'other.argoproj.io').replace('kind: Rollout', 'kind: Other')}`,
  });
  assert.deepEqual(typesOf(readSchemaPaths(fs, ['crds', 'one.yaml'], '/work')), [
    'a.io/v1 A crds/a.json',
    'argoproj.io/v1alpha1 Rollout crds/b/rollout.yaml',
    'argoproj.io/v1alpha1 Rollout one.yaml',
    'argoproj.io/v1alpha1 Other one.yaml',
  ]);
  assert.throws(() => readSchemaPaths(fs, ['missing'], '/work'), { code: 'FILE_NOT_FOUND', message: '--schema missing: no such file or directory' });
});
