/**
 * The OpenAPI schema API: the built-in Kubernetes v1.21.2 data, custom schema files, and how the
 * kustomization field `openapi:` picks and layers them. Expectations about which schema applies
 * were checked with `kubectl kustomize` (kustomize v5.5.0) and the conformance cases
 * `openapicustomschema/*`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { KustomizeError } from '../../src/errors.js';
import {
  builtinSchema,
  hasPrecomputedScope,
  isMergeList,
  OpenApiSchema,
  OpenApiSchemaSetting,
  patchStrategyAndKeys,
  type SchemaNode,
} from '../../src/openapi/schema.js';
import { requireTool } from '../require-tool.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

function at(schema: OpenApiSchema, apiVersion: string, kind: string, path: string): SchemaNode | undefined {
  return schema.lookup(schema.resourceSchema(apiVersion, kind), path.split('.'));
}

const LISTS: [string, string, string, { strategy: string; keys: string[]; merge: boolean }][] = [
  ['apps/v1', 'Deployment', 'spec.template.spec.containers', { strategy: 'merge', keys: ['name'], merge: true }],
  ['apps/v1', 'Deployment', 'spec.template.spec.containers.[].ports', { strategy: 'merge', keys: ['containerPort', 'protocol'], merge: true }],
  ['apps/v1', 'Deployment', 'spec.template.spec.containers.[].env', { strategy: 'merge', keys: ['name'], merge: true }],
  ['apps/v1', 'Deployment', 'spec.template.spec.containers.[].args', { strategy: '', keys: [], merge: false }],
  ['apps/v1', 'Deployment', 'spec.template.spec.volumes', { strategy: 'merge,retainKeys', keys: ['name'], merge: true }],
  ['apps/v1', 'Deployment', 'spec.template.spec.tolerations', { strategy: '', keys: [], merge: false }],
  ['apps/v1', 'StatefulSet', 'spec.volumeClaimTemplates', { strategy: '', keys: [], merge: false }],
  ['v1', 'Service', 'spec.ports', { strategy: 'merge', keys: ['port', 'protocol'], merge: true }],
  ['v1', 'Namespace', 'spec.finalizers', { strategy: '', keys: [], merge: false }],
  ['v1', 'ConfigMap', 'metadata.finalizers', { strategy: 'merge', keys: [], merge: true }],
  ['batch/v1', 'CronJob', 'spec.jobTemplate.spec.template.spec.initContainers', { strategy: 'merge', keys: ['name'], merge: true }],
];

/** The loader of a field with no `path`, which is never called. */
const noPath = (path: string): never => assert.fail(`read ${path}`);

for (const [apiVersion, kind, path, want] of LISTS) {
  test(`built-in schema: ${kind} ${path}`, () => {
    const node = at(builtinSchema(), apiVersion, kind, path);
    assert.ok(node, 'schema found');
    const got = patchStrategyAndKeys(node);
    assert.equal(got.strategy, want.strategy);
    assert.deepEqual([...got.keys], want.keys);
    assert.equal(isMergeList(node), want.merge);
  });
}

test('built-in schema: map values via additionalProperties, unknown fields and kinds', () => {
  const s = builtinSchema();
  assert.ok(at(s, 'v1', 'Pod', 'metadata.labels.app'));
  assert.ok(at(s, 'v1', 'Pod', 'spec.containers.[].resources.limits.cpu'));
  assert.equal(at(s, 'v1', 'Pod', 'spec.noSuchField'), undefined);
  assert.equal(s.resourceSchema('example.com/v1', 'Foo'), undefined);
  assert.equal(s.resourceSchema('apps/v1beta1', 'Deployment'), undefined);
  assert.ok(s.resourceSchema('apps/v1', 'Deployment'));
  // `items` are only followed for arrays
  assert.equal(s.elements(at(s, 'v1', 'Pod', 'spec')!), undefined);
  assert.equal(at(s, 'v1', 'Pod', 'spec.containers')?.listType, undefined);
  assert.equal(at(s, 'v1', 'Pod', 'spec.containers.[].ports')?.listType, 'map');
  assert.strictEqual(builtinSchema(), s, 'decoded once');
});

const openapiDocument = requireTool('openapi-data');

test('the checked-in compact schema is what the script derives from the shared data', { skip: openapiDocument.skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'compact-openapi-'));
  try {
    const out = join(dir, 'out.ts');
    execFileSync(process.execPath, [join(repo, 'scripts', 'compact-openapi.mjs'), openapiDocument.path, out], { stdio: 'ignore' });
    assert.equal(readFileSync(out, 'utf8'), readFileSync(join(repo, 'src', 'openapi', 'kubernetes-v1.21.2.generated.ts'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// api/krusty/testdata/customschema.json of the conformance corpus, reduced
const CUSTOM_JSON = JSON.stringify({
  definitions: {
    'v1alpha1.MyCRD': {
      properties: { spec: { properties: { template: { $ref: '#/definitions/io.k8s.api.core.v1.PodTemplateSpec' } }, type: 'object' } },
      type: 'object',
      'x-kubernetes-group-version-kind': [
        { group: 'example.com', kind: 'MyCRD', version: 'v1alpha1' },
        { group: '', kind: 'MyCRD', version: 'v1alpha1' },
      ],
    },
    'io.k8s.api.core.v1.PodTemplateSpec': { properties: { spec: { $ref: '#/definitions/io.k8s.api.core.v1.PodSpec' } }, type: 'object' },
    'io.k8s.api.core.v1.PodSpec': {
      properties: {
        containers: { items: { $ref: '#/definitions/io.k8s.api.core.v1.Container' }, type: 'array', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' },
      },
      type: 'object',
    },
    'io.k8s.api.core.v1.Container': { properties: { name: { type: 'string' } }, type: 'object' },
  },
});

const CUSTOM_YAML = `definitions:
  v1alpha1.MyCRD:
    type: object
    x-kubernetes-group-version-kind:
    - {group: example.com, kind: MyCRD, version: v1alpha1}
    properties:
      spec:
        properties:
          list:
            type: array
            items: {type: object}
            x-kubernetes-patch-strategy: merge
            x-kubernetes-list-map-keys: [a, b]
            x-kubernetes-list-type: map
`;

test('custom schema: JSON and YAML files, GVKs with and without group', () => {
  const j = OpenApiSchema.parse(CUSTOM_JSON, 'mycrd_schema.json');
  for (const av of ['example.com/v1alpha1', 'v1alpha1']) {
    const node = at(j, av, 'MyCRD', 'spec.template.spec.containers');
    assert.ok(node && isMergeList(node), av);
  }
  const y = OpenApiSchema.parse(CUSTOM_YAML, 'mycrd_schema.yaml');
  const list = at(y, 'example.com/v1alpha1', 'MyCRD', 'spec.list')!;
  assert.deepEqual(patchStrategyAndKeys(list), { strategy: 'merge', keys: ['a', 'b'] });
  assert.throws(() => OpenApiSchema.parse('{not json', 'x.json'), (e: unknown) => e instanceof KustomizeError && /invalid schema file/.test(e.message));
});

test('custom schema layered over the built-in one: refs resolve across both, same names are overridden', () => {
  const custom = OpenApiSchema.fromDocument({
    definitions: {
      DC: { 'x-kubernetes-group-version-kind': [{ group: 'apps.openshift.io', version: 'v1', kind: 'DeploymentConfig' }], properties: { spec: { properties: { template: { $ref: '#/definitions/io.k8s.api.core.v1.PodTemplateSpec' } } } } },
      'io.k8s.api.core.v1.Volume': { properties: { name: { type: 'string' } } },
    },
  });
  assert.equal(at(custom, 'apps.openshift.io/v1', 'DeploymentConfig', 'spec.template'), undefined, 'alone, the ref does not resolve');
  const layered = builtinSchema().layer(custom);
  assert.ok(isMergeList(at(layered, 'apps.openshift.io/v1', 'DeploymentConfig', 'spec.template.spec.containers')!));
  assert.equal(at(layered, 'apps/v1', 'Deployment', 'spec.template.spec.volumes.[].configMap'), undefined, 'Volume is the custom one');
  assert.ok(at(builtinSchema(), 'apps/v1', 'Deployment', 'spec.template.spec.volumes.[].configMap'), 'the built-in one is untouched');
});

test('openapi field: the root wins, else the first directory that sets one', () => {
  // TestCustomOpenApiFieldOverlayTakesPrecedence: root version, base custom → built-in
  const a = new OpenApiSchemaSetting();
  a.applyField({ version: 'v1.21.2' }, noPath, { root: true });
  a.applyField({ path: 'mycrd_schema.json' }, () => CUSTOM_JSON, { root: false });
  assert.equal(a.schema().resourceSchema('example.com/v1alpha1', 'MyCRD'), undefined);
  assert.ok(a.schema().resourceSchema('apps/v1', 'Deployment'));
  // TestCustomOpenApiFieldFromBase: root nothing, base custom → custom only (checked with
  // kubectl: a Deployment's containers are then replaced, not merged)
  const b = new OpenApiSchemaSetting();
  b.applyField(undefined, noPath, { root: true });
  b.applyField({ path: 'mycrd_schema.json' }, () => CUSTOM_JSON, { root: false });
  b.applyField({ version: 'v1.21.2' }, noPath, { root: false });
  assert.ok(b.schema().resourceSchema('example.com/v1alpha1', 'MyCRD'));
  assert.equal(b.schema().resourceSchema('apps/v1', 'Deployment'), undefined);
  // root custom → custom only
  const c = new OpenApiSchemaSetting();
  c.applyField({ path: 'mycrd_schema.json' }, () => CUSTOM_JSON, { root: true });
  assert.equal(c.schema().resourceSchema('apps/v1', 'Deployment'), undefined);
});

test('openapi field: a custom schema set after the built-in one was used is layered over it', () => {
  // TestCustomOpenApiFieldFromComponentWithOverlays: the base's DeploymentConfig (a kind
  // without precomputed scope) made kyaml load the built-in schema before the component's custom
  // one; kubectl then merges the DeploymentConfig's containers through the built-in PodSpec.
  assert.equal(hasPrecomputedScope('apps.openshift.io/v1', 'DeploymentConfig'), false);
  assert.equal(hasPrecomputedScope('apps/v1', 'Deployment'), true);
  const s = new OpenApiSchemaSetting();
  s.applyField(undefined, noPath, { root: true });
  s.touch();
  s.applyField({ path: 'mycrd_schema.json' }, () => CUSTOM_JSON, { root: false });
  assert.ok(s.schema().resourceSchema('example.com/v1alpha1', 'MyCRD'));
  assert.ok(s.schema().resourceSchema('apps/v1', 'Deployment'));
});

test('openapi field errors', () => {
  const both = new OpenApiSchemaSetting();
  assert.throws(
    () => both.applyField({ version: 'v1.21.2', path: 'mycrd_schema.json' }, () => CUSTOM_JSON, { root: true }),
    (e: unknown) => e instanceof KustomizeError && e.message === 'builtin version and custom schema provided, cannot use both',
  );
  const unknown = new OpenApiSchemaSetting();
  assert.throws(
    () => unknown.applyField({ version: 'v1.14.1' }, noPath, { root: true }),
    (e: unknown) => e instanceof KustomizeError && e.message === 'the specified OpenAPI version is not built in',
  );
  // a directory below an already decided root is not even checked (kyaml returns early)
  const later = new OpenApiSchemaSetting();
  later.applyField({ version: 'v1.21.2' }, noPath, { root: true });
  assert.doesNotThrow(() => later.applyField({ version: 'v1.21.2', path: 'x' }, () => CUSTOM_JSON, { root: false }));
});
