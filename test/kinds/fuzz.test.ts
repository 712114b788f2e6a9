/**
 * Property: whatever a kustomization, its configurations file or its patch files hold, a build
 * either succeeds or fails with a KustomizeError — never a TypeError, a RangeError or a stack
 * overflow, not even wrapped inside a KustomizeError. fast-check mutates a tree that builds (replaces, deletes or adds a node anywhere in
 * one of its files with nulls, empty or wrong shapes, odd strings, `__proto__` keys, ...) and
 * builds it in memory. Bounded (FUZZ_RUNS, default 300) so it runs in seconds; a failure prints
 * the seed and the shrunk mutation to replay it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { build } from '../../src/build/build.js';
import { KustomizeError } from '../../src/errors.js';
import { MemoryFileSystem } from '../../src/fs/memory.js';
import type { RemoteSource } from '../../src/load/remote/remote-source.js';
import { assertProperty } from '../property.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const KUSTOMIZATION: Json = {
  resources: ['d.yaml', 'svc.yaml'],
  namePrefix: 'p-',
  nameSuffix: '-s',
  namespace: 'ns',
  commonLabels: { app: 'web' },
  labels: [{ pairs: { tier: 'front' }, includeSelectors: false, fields: [{ path: 'spec/template/metadata/labels', kind: 'Deployment', create: true }] }],
  commonAnnotations: { note: 'n' },
  images: [{ name: 'nginx', newName: 'my/nginx', newTag: 'v1' }],
  replicas: [{ name: 'web', count: 3 }],
  configMapGenerator: [{ name: 'cfg', literals: ['a=b', 'c=d'], options: { labels: { gen: 'yes' } } }],
  secretGenerator: [{ name: 'sec', literals: ['k=v'], type: 'Opaque' }],
  generatorOptions: { disableNameSuffixHash: false, annotations: { g: 'o' } },
  patches: [
    { path: 'smp.yaml' },
    { patch: '[{"op": "add", "path": "/metadata/annotations/j", "value": "x"}]', target: { kind: 'Service', name: 'svc' } },
  ],
  patchesStrategicMerge: ['smp2.yaml'],
  patchesJson6902: [{ target: { group: 'apps', version: 'v1', kind: 'Deployment', name: 'web' }, path: 'json.yaml' }],
  replacements: [
    {
      source: { kind: 'ConfigMap', name: 'cfg', fieldPath: 'data.a' },
      targets: [{ select: { kind: 'Deployment' }, fieldPaths: ['spec.template.spec.containers.[name=app].env.[name=A].value'], options: { create: true } }],
    },
  ],
  vars: [{ name: 'SVC', objref: { kind: 'Service', name: 'svc', apiVersion: 'v1' }, fieldref: { fieldPath: 'metadata.name' } }],
  configurations: ['conf.yaml'],
  sortOptions: { order: 'legacy', legacySortOptions: { orderFirst: ['Namespace'], orderLast: ['Service'] } },
  buildMetadata: ['originAnnotations'],
};

const CONFIGURATIONS: Json = {
  nameReference: [{ kind: 'ConfigMap', version: 'v1', fieldSpecs: [{ path: 'spec/template/spec/volumes/configMap/name', kind: 'Deployment' }] }],
  commonLabels: [{ path: 'spec/selector', create: true, kind: 'Service' }],
  varReference: [{ path: 'spec/template/spec/containers/args', kind: 'Deployment' }],
  namePrefix: [{ path: 'metadata/name' }],
};

const SMP: Json = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', annotations: { s: 't' } }, spec: { template: { spec: { containers: [{ name: 'app', image: 'nginx:2' }] } } } };
const SMP2: Json = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc' }, spec: { ports: [{ port: 81, name: 'http' }] } };
const JSON_PATCH: Json = [
  { op: 'add', path: '/spec/template/metadata/annotations', value: { a: 'b' } },
  { op: 'replace', path: '/spec/replicas', value: 2 },
];

const RESOURCES = {
  'd.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n      - name: app\n        image: nginx\n        args: [$(SVC)]\n      volumes:\n      - name: v\n        configMap:\n          name: cfg\n',
  'svc.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\nspec:\n  ports:\n  - port: 80\n    name: http\n',
};

const FILES: Record<string, Json> = { 'kustomization.yaml': KUSTOMIZATION, 'conf.yaml': CONFIGURATIONS, 'smp.yaml': SMP, 'smp2.yaml': SMP2, 'json.yaml': JSON_PATCH };

/** Nothing is fetched: a remote reference fails like an unreachable one. */
const OFFLINE: RemoteSource = {
  fetchFile: (url) => Promise.reject(new KustomizeError('REMOTE_FAILED', `offline: ${url}`)),
  clone: (spec) => Promise.reject(new KustomizeError('REMOTE_FAILED', `offline: ${spec.raw}`)),
  pullTree: () => Promise.reject(new KustomizeError('REMOTE_FAILED', 'offline')),
  pullLayer: () => Promise.reject(new KustomizeError('REMOTE_FAILED', 'offline')),
  cleanup: () => undefined,
};

const oddValue: fc.Arbitrary<Json> = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.constantFrom<Json>([], {}, [null], [[]], [{}], '', 0, -1, 1.5, 1e300, true, 'x', '*', '..', '/', '../x', '(a+)+b', '[', '$(SVC)', '=', 'a=', '~', '%'), weight: 4 },
  { arbitrary: fc.constantFrom<Json>({ a: null }, { __proto__: 'p' } as Json, JSON.parse('{"__proto__": {"polluted": "yes"}}') as Json, { name: null, kind: [] }, { path: '' }), weight: 2 },
  { arbitrary: fc.string({ maxLength: 12 }), weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>, weight: 1 },
);

interface Mutation {
  file: string;
  /** which node of the file (in document order), taken modulo the number of nodes */
  node: number;
  /** replace the node, delete it, or add the value to it (a list item, a map key, or a list around a scalar) */
  op: 'replace' | 'delete' | 'add';
  value: Json;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  file: fc.oneof({ arbitrary: fc.constant('kustomization.yaml'), weight: 4 }, { arbitrary: fc.constantFrom(...Object.keys(FILES)), weight: 2 }),
  node: fc.nat(),
  op: fc.constantFrom('replace', 'delete', 'add'),
  value: oddValue,
});

type Holder = Record<string | number, Json>;

/** Every node below the root, as its holder and key. */
function nodes(root: Json): [Holder, string | number][] {
  const out: [Holder, string | number][] = [];
  const visit = (node: Json): void => {
    if (node === null || typeof node !== 'object') return;
    for (const key of Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node)) {
      out.push([node as Holder, key]);
      visit((node as Holder)[key]!);
    }
  };
  visit(root);
  return out;
}

function put(holder: Holder, key: string | number, value: Json): void {
  Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Applies a mutation to a deep copy of the file it names. */
function mutate(root: Json, m: Mutation): Json {
  const copy = structuredClone(root);
  const all = nodes(copy);
  if (all.length === 0) return m.op === 'replace' ? m.value : copy;
  const [holder, key] = all[m.node % all.length]!;
  const node = holder[key]!;
  if (m.op === 'replace') put(holder, key, m.value);
  else if (m.op === 'delete') Array.isArray(holder) ? holder.splice(key as number, 1) : delete holder[key];
  else if (Array.isArray(node)) node.push(m.value);
  else if (node !== null && typeof node === 'object') put(node as Holder, 'extra', m.value);
  else put(holder, key, [node, m.value]);
  return copy;
}

async function buildMutated(mutations: Mutation[]): Promise<void> {
  const files: Record<string, Json> = { ...FILES };
  for (const m of mutations) files[m.file] = mutate(files[m.file]!, m);
  const tree: Record<string, string> = {};
  for (const [name, text] of Object.entries(RESOURCES)) tree[`app/${name}`] = text;
  // JSON is YAML; patch strings stay strings
  for (const [name, value] of Object.entries(files)) tree[`app/${name}`] = JSON.stringify(value);
  const fs = MemoryFileSystem.from(tree);
  try {
    await build('/app', { fs, remote: OFFLINE, warn: () => undefined });
  } catch (e) {
    if (!(e instanceof KustomizeError)) throw new Error(`not a KustomizeError: ${(e as Error)?.stack ?? String(e)}`, { cause: e });
    // a crash wrapped into a KustomizeError on its way out is still a crash
    for (let c: unknown = e; c instanceof Error; c = c.cause) {
      if (c instanceof TypeError || c instanceof RangeError || c instanceof ReferenceError) throw new Error(`a crash inside a KustomizeError: ${c.stack}`, { cause: e });
    }
  }
}

test('the unmutated tree builds', async () => {
  const fs = MemoryFileSystem.from({
    ...Object.fromEntries(Object.entries(RESOURCES).map(([n, t]) => [`app/${n}`, t])),
    ...Object.fromEntries(Object.entries(FILES).map(([n, v]) => [`app/${n}`, JSON.stringify(v)])),
  });
  const { resources } = await build('/app', { fs, remote: OFFLINE, warn: () => undefined });
  assert.equal(resources.length, 4);
});

test('every failure of a mutated tree is a KustomizeError', async () => {
  const runs = Number(process.env['FUZZ_RUNS'] ?? 300);
  await assertProperty(fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), buildMutated), runs);
  assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false, 'no mutation reached Object.prototype');
});
